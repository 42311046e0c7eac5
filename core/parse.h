/*
 * parse.h - numbers in option values and settings, read strictly: what
 * a user typed either is the number or is refused, never half-read.
 */
#ifndef KIFU_CORE_PARSE_H
#define KIFU_CORE_PARSE_H

/*
 * A non-negative decimal integer of at most max, the whole of s (no
 * sign, no blanks); -1 if s is not one.
 */
int parse_count(const char *s, int max);

struct strbuf;

/*
 * What a library module's option call (filter_take, select_take, ...)
 * returns when it refuses: OPT_USAGE, the value or the combination of
 * options is wrong (to be said with the synopsis); OPT_ERROR, it cannot
 * be acted on (a file that cannot be read). The message, one line
 * without the program's name, is in the strbuf the call was given.
 */
enum { OPT_ERROR = -1, OPT_USAGE = -2 };

/* Appends the message to why and returns rc: `return opt_fail(...)`. */
int opt_fail(struct strbuf *why, int rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif /* KIFU_CORE_PARSE_H */
