/*
 * kakinoki_read.h - what the KIF and KI2 readers share (private to
 * parsers/kif.c and parsers/ki2.c): the state of one record being read,
 * the line classes both formats have (formats.md 3.1 and 4: headers, '#'
 * lines, comments, bookmarks, the BOD start position, 変化 and まで
 * lines), the move text grammar, and the tree the moves go into.
 *
 * kk_read() walks the lines of a record and gives each move line to the
 * format (struct kk_format); it reads every other line itself. Errors
 * are diagnostics at a line and a column (code points); a function that
 * fails has added one and returns -1 (or 0 bytes read).
 */
#ifndef KIFU_PARSERS_KAKINOKI_READ_H
#define KIFU_PARSERS_KAKINOKI_READ_H

#include <stddef.h>
#include <stdint.h>

#include "core/handicap.h"
#include "format.h"

/* Hand counts stop here; position_validate then reports too many pieces. */
#define KK_HAND_CAP 99

struct kk {
	const struct reader *rd;	/* borrowed: its limits */
	const struct text *t;
	struct record *r;
	struct diag_list *d;
	const struct variant *v;
	int ki2;		/* the まで line makes the terminal (KI2) */
	size_t li;		/* index of the line being read */
	const char *p;		/* that line */
	size_t n;		/* its length without trailing blanks */
	/* Column cache: code points before byte col_at of line col_li. */
	size_t col_li, col_at;
	uint32_t col;
	int lines;		/* lines that were not blank */
	/* The start position, until it is settled. */
	int started;
	struct position pos;	/* the BOD board being built */
	unsigned ranks;		/* bit r: rank r+1 of the board read */
	struct span board_loc;	/* the first board line */
	int hand[COLOR_NB][HAND_NB];
	int hand_lines;		/* hand lines read; hand_loc is the first */
	struct span hand_loc;
	int side_line;		/* 先手番 / 後手番 seen; side is its colour */
	enum color side;
	enum handicap handicap;	/* what 手合割 names; HANDICAP_NONE */
	int handicap_odd;	/* 1: an unknown name, 2: その他 */
	struct span handicap_loc;
	int move_number;	/* 手数＝N of a BOD trailer, plus one; 0 none */
	/* The tree. */
	int32_t cur;		/* last node of the line being written */
	int32_t main_end;	/* last node of the main line */
	int in_variation;	/* the line being written is not the main line */
	int after_end;		/* moves after cur's terminal were reported */
	int summary_line;	/* the line being written has had its まで */
	int time_warnings;	/* running totals reported wrong so far */
	/*
	 * at_ply[p]: the node at ply p of the line written last among those
	 * that reach p, which is where 変化：p手 branches off (formats.md
	 * 3.8).
	 */
	int32_t *at_ply;
	size_t nply, aply;
	struct comment_batch cb;	/* comment lines not yet in the record */
	/*
	 * Lines after the game (a site's trailer, a program's banner) are
	 * kept rather than refused: played says a move, 変化 or separator
	 * line has been read; tail is the first line after the last such
	 * line of the text (0 until an unreadable line needs it).
	 */
	int played;
	size_t tail;
};

/* Settles the start position before the first move; 0 or -1. */
int kk_settle(struct kk *st);
/*
 * The files of the board whose column header ("  ９ ８ ... １", or the
 * five of minishogi) the line is; 0 if it is none.
 */
int kk_column_header_files(const struct kk *st);

/* ASCII blanks and U+3000 from p[i]; returns the first other byte. */
size_t kk_skip_blanks(const char *p, size_t n, size_t i);
/* Bytes of s (n bytes) to quote in a message: never a split character. */
int kk_qlen(const char *s, size_t n);
/* Bytes of the character at s, at least 1. */
size_t kk_char_len(const char *s, size_t n);

/* An error at the current line; always returns -1. */
int kk_error(struct kk *st, enum diag_id id, size_t at, size_t len, int ply,
    const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void kk_warning(struct kk *st, enum diag_id id, size_t at, size_t len,
    int ply, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* What the move grammar may hold beyond KIF's. */
enum kk_move_flags {
	KK_KI2 = 1 << 0		/* relative words, 生, "３三同金" */
};

/*
 * Reads the move text at byte `at` of the current line (destination or
 * 同, piece, words, 成/不成/打, origin "(77)") into spec, up to byte n.
 * Returns the bytes read, or 0 after an error. ply is for diagnostics.
 */
size_t kk_read_move(struct kk *st, size_t at, size_t n, unsigned flags,
    int ply, struct move_spec *spec);

/* The ply the next move of the line being written gets. */
static inline int
kk_next_ply(const struct kk *st)
{
	return st->r->nodes[st->cur].ply + 1;
}

/* Whether the line being written has ended with a terminal. */
static inline int
kk_ended(const struct kk *st)
{
	return st->cur > 0 && st->r->nodes[st->cur].special != SP_NONE;
}

/*
 * Appends a move (spec) or a terminal (spec NULL, sp) to the line being
 * written; its text is the len bytes at `at`. Returns the node.
 */
int32_t kk_add(struct kk *st, const struct move_spec *spec, enum special sp,
    size_t at, size_t len);

/*
 * A move or terminal after the line's terminal: one warning per line,
 * and the move is left out. Returns 0.
 */
int kk_after_end(struct kk *st, size_t at, size_t len);

/* What sets KIF and KI2 apart: their move lines. */
struct kk_format {
	int ki2;		/* the まで line makes the terminal */
	int (*is_move_line)(const struct kk *st);
	int (*read_move_line)(struct kk *st);	/* 0 or -1 */
};

/* Reads the one record of the text (formats.md: one record a file). */
enum read_status kk_read(struct reader *rd, struct record *out,
    struct diag_list *d, const struct kk_format *f);

/* What the first lines of a text show, for kif_detect and ki2_detect. */
struct kk_evidence {
	int kif_moves;		/* "   1 ７六歩(77)", "  5 投了" */
	int ki2_moves;		/* moves on lines starting "▲７六歩" */
	int separators;		/* "手数----指手---------消費時間--" */
	int kif_hash, ki2_hash;	/* "#KIF version=...", "#KI2 version=..." */
	int known;		/* known header keys, board lines, まで, 変化 */
	int unknown;		/* lines none of the formats has */
};

/* Looks at the first max_lines lines of t; never allocates. */
void kk_gather_evidence(const struct text *t, size_t max_lines,
    struct kk_evidence *e);

#endif /* KIFU_PARSERS_KAKINOKI_READ_H */
