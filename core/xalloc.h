/*
 * xalloc.h - allocation that never returns NULL.
 *
 * Out of memory is handled in one place (Redis's zmalloc policy): the
 * handler prints "kifu: out of memory" and exits 2 by default. A program
 * may install its own handler; it must not return.
 */
#ifndef KIFU_CORE_XALLOC_H
#define KIFU_CORE_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
/* Overflow-checked n * size. */
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrndup(const char *s, size_t n);

typedef void (*xalloc_oom_handler)(size_t n);
void xalloc_set_oom_handler(xalloc_oom_handler h);

/* Grows array `a` (element count `alloc`) to hold at least `n` elements. */
#define ALLOC_GROW(a, n, alloc) do { \
	if ((n) > (alloc)) { \
		size_t new_ = (alloc) < 16 ? 16 : (alloc) * 2; \
		if (new_ < (n)) \
			new_ = (n); \
		(a) = xreallocarray((a), new_, sizeof(*(a))); \
		(alloc) = new_; \
	} \
} while (0)

#endif /* KIFU_CORE_XALLOC_H */
