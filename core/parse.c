/*
 * parse.c - strict numbers (parse.h).
 */
#include <stdarg.h>
#include <stdlib.h>

#include "parse.h"
#include "strbuf.h"

int
parse_count(const char *s, int max)
{
	char *end;
	long n;

	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	n = strtol(s, &end, 10);
	if (*end || n < 0 || n > max)
		return -1;
	return (int)n;
}

int
opt_fail(struct strbuf *why, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(why, fmt, ap);
	va_end(ap);
	return rc;
}
