/*
 * table.h - text tables for people: cells in rows, each column as wide
 * as its widest cell in terminal columns (core/text.h, utf8_width), so
 * that names in kanji line up with names in Latin letters.
 */
#ifndef KIFU_STATS_TABLE_H
#define KIFU_STATS_TABLE_H

#include <stddef.h>

#include "core/strbuf.h"

struct table {
	size_t ncols;
	unsigned right;		/* bit c: column c is aligned right */
	char **cells;		/* row after row; owned */
	size_t n, alloc;
};

void table_init(struct table *t, size_t ncols, unsigned right);
void table_release(struct table *t);

/* The next cell (row by row), printf-style; control characters as '?'. */
void table_addf(struct table *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * Appends the rows to out, each after `indent`, the columns two spaces
 * apart, no blanks at the end of a line.
 */
void table_write(const struct table *t, const char *indent,
    struct strbuf *out);

#endif /* KIFU_STATS_TABLE_H */
