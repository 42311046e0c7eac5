/*
 * jsonl.h - reading JSON Lines: the shards `kifu summary` and `kifu stats
 * --merge` merge, and the results files of `kifu match --report`.
 */
#ifndef KIFU_STATS_JSONL_H
#define KIFU_STATS_JSONL_H

#include <stddef.h>

#include <jansson.h>

#include "core/diag.h"

/*
 * One object; returns 0, or -1 with what is wrong in why (n bytes). The
 * object is borrowed for the call.
 */
typedef int (*jsonl_fn)(void *ctx, json_t *o, char *why, size_t n);

/*
 * Calls fn for every object of the file ("-": standard input), one a
 * line; blank lines are passed over. A line that is no JSON object, or
 * that fn turns down, is an error added to d (its line and column, id
 * "syntax"), and the rest is read all the same. Returns 0, 1 when some
 * line was an error, or -1 with errno set when the file cannot be read.
 */
int jsonl_read(const char *path, jsonl_fn fn, void *ctx,
    struct diag_list *d);

/* The same on text in memory: returns 0, or 1 when some line was an error. */
int jsonl_parse(const char *text, size_t len, jsonl_fn fn, void *ctx,
    struct diag_list *d);

#endif /* KIFU_STATS_JSONL_H */
