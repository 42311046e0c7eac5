#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static void
default_oom(size_t n)
{
	(void)n;
	fputs("kifu: out of memory\n", stderr);
	exit(2);
}

/*
 * Set once at start-up by a program, before any thread starts; the
 * library itself never writes it.
 */
static xalloc_oom_handler oom = default_oom;

void
xalloc_set_oom_handler(xalloc_oom_handler h)
{
	oom = h ? h : default_oom;
}

static void *
check(void *p, size_t n)
{
	if (!p && n) {
		oom(n);
		abort();	/* a handler must not return */
	}
	return p;
}

void *
xmalloc(size_t n)
{
	return check(malloc(n ? n : 1), n ? n : 1);
}

void *
xcalloc(size_t n, size_t size)
{
	return check(calloc(n ? n : 1, size ? size : 1), 1);
}

void *
xreallocarray(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size) {
		oom(SIZE_MAX);
		abort();
	}
	size_t bytes = n * size;

	return check(realloc(p, bytes ? bytes : 1), 1);
}

char *
xstrndup(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}
