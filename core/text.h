/*
 * text.h - a record file decoded once to UTF-8 and split into lines.
 *
 * Decoding happens here and nowhere else: a byte-order mark first, then
 * an encoding the file declares on its first lines (KIF "#KIF ...
 * encoding=", CSA "'CSA encoding=" / "'encoding="), then strict UTF-8,
 * then CP932, then EUC-JP. iconv does the converting. Parsers see only
 * UTF-8 and never call iconv. Lines may end in LF, CRLF or CR; the last
 * one may lack an end.
 */
#ifndef KIFU_CORE_TEXT_H
#define KIFU_CORE_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"

struct text_line {
	uint32_t off;		/* byte offset of the line in buf */
	uint32_t len;		/* bytes, without the line end */
};

struct text {
	char *buf;		/* decoded UTF-8, NUL-terminated; owned */
	size_t len;
	struct text_line *lines;	/* owned */
	size_t nlines, alines;
	const char *encoding;	/* "UTF-8", "CP932", "EUC-JP": static */
	int bom;		/* the input began with a UTF-8 byte-order mark */
	int any_cr;		/* buf holds a CR: some line may end in one */
	/*
	 * buf holds no byte from 0x80 on: every character is ASCII, which
	 * a search may take as what folding leaves alone (core/fold.h).
	 */
	int ascii;
	/*
	 * buf's size when it is a caller's buffer taken over (0 if not),
	 * and the one taken before it: text_decode_strbuf gives that back
	 * to the caller, for the next file to be read into without a
	 * malloc and a free.
	 */
	size_t buf_alloc;
	char *spare;
	size_t spare_alloc;
	/*
	 * Longest line accepted, in decoded bytes (0: any). text_init sets
	 * limits_default.line (core/limit.h); text_release keeps it.
	 */
	size_t max_line;
};

/* Largest input text_decode accepts (bytes). */
#define TEXT_MAX_SIZE ((size_t)1 << 30)

void text_init(struct text *t);
void text_release(struct text *t);

/*
 * Decodes n bytes of data (borrowed) into t. Returns 0, or -1 with an
 * "encoding" error in d (with the line and column of the first bad byte
 * when there is one). A NUL byte is an encoding error: records are text.
 * A line longer than t->max_line is a "limit" error at that line.
 */
int text_decode(struct text *t, const char *data, size_t n,
    struct diag_list *d);

/*
 * Like text_decode, but may take data's buffer instead of copying it (when
 * no conversion is needed); data is left empty or unchanged.
 */
struct strbuf;
int text_decode_strbuf(struct text *t, struct strbuf *data,
    struct diag_list *d);

/* Wraps already-UTF-8 text (copied) without any detection. */
int text_from_utf8(struct text *t, const char *data, size_t n,
    struct diag_list *d);

static inline const char *
text_line_ptr(const struct text *t, size_t i)
{
	return t->buf + t->lines[i].off;
}

/*
 * The span of `len` bytes starting at byte `at` of line `i` (0-based
 * index): 1-based line, column in code points.
 */
struct span text_span(const struct text *t, size_t i, size_t at, size_t len);

/*
 * Length of p[0..n) without trailing blanks, U+3000 included: editors and
 * pasted text leave them (formats.md section 1).
 */
size_t text_trim_end_slow(const char *p, size_t n);

/* Inline for the usual line that ends in neither a blank nor U+3000. */
static inline size_t
text_trim_end(const char *p, size_t n)
{
	unsigned char c = n ? (unsigned char)p[n - 1] : ' ';

	if (c != ' ' && c != '\t' && c != 0x80)	/* U+3000 ends in 80 */
		return n;
	return text_trim_end_slow(p, n);
}

/* Code points in the first n bytes of s. */
size_t utf8_count(const char *s, size_t n);
/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if invalid. */
size_t utf8_valid_seq(const unsigned char *s, size_t n);
/*
 * The code point of the valid UTF-8 sequence at s (n bytes left) in *cp;
 * returns its length, or 0 (and *cp U+FFFD) if it is not valid.
 */
size_t utf8_decode(const char *s, size_t n, uint32_t *cp);
/*
 * The columns s[0..n) takes in a terminal: 2 for each East Asian Wide
 * or Fullwidth character (kanji, kana, Hangul, full-width forms, the
 * emoji blocks), 0 for a combining mark or a zero-width character, 1 for
 * anything else; an invalid byte counts 1. The C library's wcwidth
 * knows this only under a UTF-8 locale, which a server may not have.
 */
size_t utf8_width(const char *s, size_t n);

#endif /* KIFU_CORE_TEXT_H */
