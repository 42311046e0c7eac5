/*
 * strbuf.h - a growable byte buffer.
 *
 * Invariants (git's strbuf): buf is never NULL once initialised and is
 * always NUL-terminated; len excludes the NUL. The struct owns buf;
 * strbuf_detach() hands it to the caller. Allocation failure aborts via
 * xmalloc's handler (see util.h), so no call here fails.
 */
#ifndef KIFU_CORE_STRBUF_H
#define KIFU_CORE_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

#define STRBUF_INIT { NULL, 0, 0 }

void strbuf_init(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
/* Makes room for `extra` more bytes (and the NUL). */
void strbuf_grow_slow(struct strbuf *sb, size_t extra);
/*
 * The growing calls are inline: parsers and writers append a byte or a
 * token at a time, millions of times a second, and the room is almost
 * always there already.
 */
static inline void
strbuf_grow(struct strbuf *sb, size_t extra)
{
	if (sb->len + extra + 1 > sb->alloc)
		strbuf_grow_slow(sb, extra);
}

void strbuf_add(struct strbuf *sb, const void *data, size_t n);
void strbuf_adds(struct strbuf *sb, const char *s);

static inline void
strbuf_addc(struct strbuf *sb, char c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
}

/*
 * Appends v in decimal: strbuf_addf's "%lld" without printf's cost, for
 * writers that emit millions of numbers.
 */
void strbuf_add_int(struct strbuf *sb, long long v);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/*
 * Appends a message on a line of its own: after a '\n' unless sb is
 * empty, with none after it. How a library call says what is wrong in
 * a `why` that may hold several messages, a line each (db/build.h).
 */
void strbuf_addf_line(struct strbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void strbuf_vaddf_line(struct strbuf *sb, const char *fmt, va_list ap);
/* Appends s as the inside of a JSON string (no quotes). */
void strbuf_add_json_string(struct strbuf *sb, const char *s, size_t n);
/* Appends the NUL-terminated s as a JSON string, quotes and all. */
void strbuf_add_json_quoted(struct strbuf *sb, const char *s);
/*
 * Appends s with every control character shown as '?': text from a record
 * (a name, a message) that must not drive a terminal.
 */
void strbuf_add_printable(struct strbuf *sb, const char *s);
/* The caller owns the returned buffer; sb is left empty and initialised. */
char *strbuf_detach(struct strbuf *sb, size_t *len);

#endif /* KIFU_CORE_STRBUF_H */
