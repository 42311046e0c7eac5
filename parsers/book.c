/*
 * book.c - reading YaneuraOu's text book one line at a time (book.h).
 *
 * Strict where a book cannot mean two things (a header of another
 * version, a field that is no number, a move that is not USI), lenient
 * where real books differ without ambiguity (BOM, CRLF, empty fields,
 * trailing blanks, no header, a comment after the count).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/usi.h"
#include "core/variant.h"
#include "parsers/book.h"

static int
book_fail(struct book_error *err, unsigned long line, size_t col,
    const char *id, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int
book_fail(struct book_error *err, unsigned long line, size_t col, const char *id,
    const char *fmt, ...)
{
	va_list ap;

	err->line = line;
	err->col = col;
	err->id = id;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	return -1;
}

/* USI move syntax only ("7g7f", "8h2b+", "P*5e"): the rules judge it
   later, against its position. */
static int
usi_syntax(const char *p, size_t n)
{
	struct move_claim c;

	return usi_parse_move(variant_standard(), p, n, &c) == 0;
}

static int
is_none(const char *p, size_t n)
{
	return n == 0 || (n == 4 && (!memcmp(p, "none", 4) ||
	    !memcmp(p, "None", 4)));
}

/* A decimal integer, optionally signed; 0 or -1 (not one, too large). */
static int
number(const char *p, size_t n, int sign_ok, long long *v)
{
	long long x = 0;
	int neg = 0;
	size_t i = 0;

	if (n && sign_ok && (p[0] == '-' || p[0] == '+')) {
		neg = p[0] == '-';
		i = 1;
	}
	if (i == n)
		return -1;
	for (; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		x = x * 10 + (p[i] - '0');
		if (x > BOOK_VALUE_MAX)
			return -1;
	}
	*v = neg ? -x : x;
	return 0;
}

size_t
book_sfen_key(const char *sfen, size_t n, long long *ply)
{
	size_t i = 0, fields = 0, key = n;

	*ply = 0;
	/* board, side, hands: the key ends at the third field's end */
	while (i < n) {
		while (i < n && sfen[i] == ' ')
			i++;
		if (i == n)
			break;
		if (fields == 3) {
			long long v = 0;

			while (i < n && sfen[i] >= '0' && sfen[i] <= '9' &&
			    v < BOOK_VALUE_MAX)
				v = v * 10 + (sfen[i++] - '0');
			*ply = v;
			break;
		}
		while (i < n && sfen[i] != ' ')
			i++;
		if (++fields == 3)
			key = i;
	}
	return key;
}

static int
parse_move(const char *line, size_t len, unsigned long lineno,
    struct book_line *out, struct book_error *err)
{
	struct book_text f[5];
	size_t i = 0, nf = 0, start;

	memset(f, 0, sizeof(f));
	/* Fields are separated by single blanks: "a  b" has an empty one. */
	while (nf < 5) {
		start = i;
		while (i < len && line[i] != ' ')
			i++;
		f[nf].p = line + start;
		f[nf].n = i - start;
		nf++;
		if (i >= len)
			break;
		if (nf < 5)
			i++;	/* the blank */
	}
	out->type = BOOK_MOVE;
	out->text = f[0];
	if (!usi_syntax(f[0].p, f[0].n))
		return book_fail(err, lineno, 1, "book-syntax", "'%.*s' is neither "
		    "'sfen', a USI move nor a comment", (int)(f[0].n > 40 ?
		    40 : f[0].n), f[0].p);
	if (nf > 1 && !is_none(f[1].p, f[1].n) &&
	    !(f[1].n == 6 && !memcmp(f[1].p, "resign", 6))) {
		if (!usi_syntax(f[1].p, f[1].n))
			return book_fail(err, lineno, (size_t)(f[1].p - line) + 1,
			    "book-syntax", "ponder '%.*s' is not a USI move",
			    (int)(f[1].n > 40 ? 40 : f[1].n), f[1].p);
		out->ponder = f[1];
		out->ponder_col = (size_t)(f[1].p - line) + 1;
	}
	if (nf > 2 && !is_none(f[2].p, f[2].n)) {
		if (number(f[2].p, f[2].n, 1, &out->value) < 0)
			return book_fail(err, lineno, (size_t)(f[2].p - line) + 1,
			    "book-syntax", "value '%.*s' is not a number",
			    (int)(f[2].n > 40 ? 40 : f[2].n), f[2].p);
		out->has_value = 1;
	}
	if (nf > 3 && !is_none(f[3].p, f[3].n)) {
		if (number(f[3].p, f[3].n, 1, &out->depth) < 0)
			return book_fail(err, lineno, (size_t)(f[3].p - line) + 1,
			    "book-syntax", "depth '%.*s' is not a number",
			    (int)(f[3].n > 40 ? 40 : f[3].n), f[3].p);
		out->has_depth = 1;
	}
	out->count = 1;
	if (nf > 4 && !is_none(f[4].p, f[4].n) &&
	    number(f[4].p, f[4].n, 0, &out->count) < 0)
		return book_fail(err, lineno, (size_t)(f[4].p - line) + 1,
		    "book-syntax", "count '%.*s' is not a number",
		    (int)(f[4].n > 40 ? 40 : f[4].n), f[4].p);
	if (i < len) {
		out->tail.p = line + i;
		out->tail.n = len - i;
	}
	return 0;
}

int
book_parse_line(const char *line, size_t len, unsigned long lineno,
    int first, struct book_line *out, struct book_error *err)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	if (first && len >= 3 && !memcmp(line, "\xef\xbb\xbf", 3)) {
		line += 3;
		len -= 3;
	}
	if (len > BOOK_LINE_MAX)
		return book_fail(err, lineno, 1, "book-limit", "line of %zu bytes; "
		    "kifu reads lines of up to %d", len, BOOK_LINE_MAX);
	if (len && line[len - 1] == '\r')
		len--;
	while (len && (line[len - 1] == ' ' || line[len - 1] == '\t'))
		len--;
	for (i = 0; i < len; i++)
		if (line[i] == '\0' || line[i] == '\r')
			return book_fail(err, lineno, i + 1, "book-syntax",
			    "a %s inside a line", line[i] ? "carriage return" :
			    "NUL byte");
	out->text.p = line;
	out->text.n = len;
	if (len == 0) {
		out->type = BOOK_SKIP;
		return 0;
	}
	if (line[0] == '#') {
		if (first) {
			if (len == strlen(BOOK_HEADER) &&
			    !memcmp(line, BOOK_HEADER, len)) {
				out->type = BOOK_SKIP;
				return 0;
			}
			return book_fail(err, lineno, 1, "book-header", "header "
			    "'%.*s' is not '" BOOK_HEADER "'", (int)(len > 40 ?
			    40 : len), line);
		}
		out->type = BOOK_COMMENT;
		return 0;
	}
	if (len >= 2 && line[0] == '/' && line[1] == '/') {
		out->type = BOOK_COMMENT;
		return 0;
	}
	if (len >= 5 && !memcmp(line, "sfen ", 5)) {
		out->type = BOOK_POSITION;
		out->text.p = line + 5;
		out->text.n = len - 5;
		return 0;
	}
	return parse_move(line, len, lineno, out, err);
}
