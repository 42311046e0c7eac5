/*
 * book.h - YaneuraOu's text opening book (`#YANEURAOU-DB2016 1.00`,
 * ../shared/docs/training.md section 10): reading it line by line, and
 * writing one position of it (writers/book.c).
 *
 * The reader only reads text. It does not know whether a move is legal
 * in its position (replay decides: cmd/book.c checks every move and
 * ponder move with core/rules.h), nor whether the book is sorted.
 *
 * What is read, as real books have it:
 *   - a byte-order mark before the first line; CRLF or LF line ends;
 *     blanks at the end of a line are ignored, empty lines skipped;
 *   - the header `#YANEURAOU-DB2016 1.00` as the first line, or no
 *     header; any other first line starting with '#' is an error;
 *   - `sfen <board> <side> <hands> [<move number>]` starts a position;
 *   - `<move> <ponder> <value> <depth> <count>` is a move of the current
 *     position; fields are separated by single blanks, so an empty field
 *     (two blanks in a row, as ShogiHome writes) is none, and so is
 *     `none` (`None`, and `resign` for the ponder); missing trailing
 *     fields are none, a missing count 1; whatever follows the count is
 *     the line's tail (a comment, kept as written);
 *   - lines starting with '#' or '//' are comments, kept with the
 *     position (or move) they follow.
 */
#ifndef KIFU_PARSERS_BOOK_H
#define KIFU_PARSERS_BOOK_H

#include <stddef.h>

#include "core/strbuf.h"

#define BOOK_HEADER "#YANEURAOU-DB2016 1.00"

/* Lines longer than this are refused: no real book has one. */
#define BOOK_LINE_MAX 65536

/* Values are kept in this range; larger ones are refused. */
#define BOOK_VALUE_MAX 1000000000LL

enum book_line_type {
	BOOK_SKIP,		/* empty, or the header */
	BOOK_POSITION,		/* sfen ... */
	BOOK_MOVE,
	BOOK_COMMENT
};

/* A field's text: a pointer into the line (borrowed), its length. */
struct book_text {
	const char *p;
	size_t n;
};

struct book_line {
	enum book_line_type type;
	/* BOOK_POSITION: the SFEN after "sfen " (move number included);
	   BOOK_COMMENT: the whole line; BOOK_MOVE: the move. */
	struct book_text text;
	/* BOOK_MOVE: the ponder (n 0: none), the tail (n 0: none; it
	   starts with the blank that ends the count). */
	struct book_text ponder, tail;
	int has_value, has_depth;
	long long value, depth, count;	/* count is 1 when omitted */
	size_t ponder_col;		/* 1-based byte column of the ponder */
};

struct book_error {
	unsigned long line;
	size_t col;		/* 1-based, in bytes (book lines are ASCII
				   but for comments) */
	const char *id;		/* "book-header", "book-syntax", ... */
	char message[160];
};

/*
 * Reads one line (len bytes of line, its end of line not included; a
 * trailing CR is dropped here), the lineno'th of its file (1-based).
 * first says whether it is the file's first line (a BOM and the header
 * are looked for there). Fills *out, whose texts point into line.
 * Returns 0, or -1 with *err filled.
 */
int book_parse_line(const char *line, size_t len, unsigned long lineno,
    int first, struct book_line *out, struct book_error *err);

/*
 * The position's key from an SFEN's text (as BOOK_POSITION gives it):
 * the board, side and hands, without the move number, and the move
 * number (0 if it has none) in *ply. Returns the key's length; the key
 * is the text's first bytes. Does not check the SFEN.
 */
size_t book_sfen_key(const char *sfen, size_t n, long long *ply);

/* ---- writing (writers/book.c) ---------------------------------------- */

/* One move as written: every field, none for a missing one. */
struct book_move_out {
	const char *move;		/* USI */
	const char *ponder;		/* NULL: none */
	int has_value, has_depth;
	long long value, depth, count;
	const char *tail;		/* written after the count as is */
	size_t tail_len;
};

/* The header line with its newline. */
void book_write_header(struct strbuf *out);
/* "sfen <key> <ply>\n" */
void book_write_position(struct strbuf *out, const char *key, size_t keylen,
    long long ply);
/* "<move> <ponder> <value> <depth> <count><tail>\n" */
void book_write_move(struct strbuf *out, const struct book_move_out *m);

#endif /* KIFU_PARSERS_BOOK_H */
