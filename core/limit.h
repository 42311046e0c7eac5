/*
 * limit.h - how big a record kifu agrees to read.
 *
 * Real records are small: a few hundred moves, a few dozen headers,
 * variations a few levels deep. Hostile or broken input is not: the
 * limits make it cheap to reject, with a "limit" error that names the
 * limit, instead of memory and time growing with whatever the file says.
 * Every limit can be raised (kifu's --limit NAME=N); 0 means none.
 */
#ifndef KIFU_CORE_LIMIT_H
#define KIFU_CORE_LIMIT_H

#include <stddef.h>
#include <stdint.h>

struct limits {
	size_t line;		/* bytes in one line of decoded text */
	size_t record;		/* bytes of text one record spans */
	uint32_t moves;		/* moves and terminals, all lines together */
	uint32_t depth;		/* variations nested inside variations */
	uint32_t headers;	/* header lines */
};

/*
 * JKF files are often one line: the line limit leaves room for a large
 * one. The rest are orders of magnitude above any real record.
 */
#define LIMITS_DEFAULT { 4u << 20, 64u << 20, 100000, 1000, 1000 }

extern const struct limits limits_default;

/*
 * Sets one limit from "NAME=N" (NAME: line, record, moves, depth,
 * headers; N a decimal count, 0 for none). Returns 0, or -1 when the text
 * is not that (lim unchanged).
 */
int limits_parse(struct limits *lim, const char *s);

/* The names limits_parse knows, for usage messages: "line, record, ...". */
extern const char limits_names[];

#endif /* KIFU_CORE_LIMIT_H */
