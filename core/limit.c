/*
 * limit.c - the default limits and their names.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "limit.h"

const struct limits limits_default = LIMITS_DEFAULT;

const char limits_names[] = "line, record, moves, depth, headers";

int
limits_parse(struct limits *lim, const char *s)
{
	const char *eq = strchr(s, '=');
	unsigned long long v;
	size_t klen;
	char *end;

	if (!eq || eq[1] < '0' || eq[1] > '9')
		return -1;
	klen = (size_t)(eq - s);
	errno = 0;
	v = strtoull(eq + 1, &end, 10);
	if (errno || *end)
		return -1;
#define IS(name) (klen == strlen(name) && memcmp(s, name, klen) == 0)
	if (IS("line") || IS("record")) {
		/* Text offsets are 32-bit (core/text.h). */
		if (v > UINT32_MAX)
			return -1;
		*(IS("line") ? &lim->line : &lim->record) = (size_t)v;
		return 0;
	}
	if (v > INT32_MAX)
		return -1;
	if (IS("moves"))
		lim->moves = (uint32_t)v;
	else if (IS("depth"))
		lim->depth = (uint32_t)v;
	else if (IS("headers"))
		lim->headers = (uint32_t)v;
	else
		return -1;
#undef IS
	return 0;
}
