/*
 * csa.c - reading CSA records (formats.md section 2), every version seen
 * in the wild: no version line (1997), V2, V2.1, V2.2 and V3.0.
 *
 * A record is a run of lines up to a "/" line or the end of the text:
 * game information (N+, N-, $KEY:VALUE), a start position (PI, P1..P9,
 * P+/P-, then the side line "+" or "-"), then moves, times, comments and
 * a "%" terminal. Only syntax is judged here; whether the moves are
 * legal is replay's business.
 *
 * What the real files taught (formats.md 2.8-2.9 and testdata/csa):
 * statements may share a line, split by ',' and padded with blanks
 * (2005 GPS logs); lines starting with ', N or $ are never split, so
 * names and comments keep their commas; board ranks lose their padding
 * when mailed, so cells are found by their first character instead of
 * by column; Floodgate writes the result only in a 'summary comment,
 * and "%KACHI, T, %KACHI" for one declaration; 81Dojo adds lines of its
 * own, which are kept as raw headers with a warning.
 *
 * Minishogi records are the same syntax on a 5x5 board (the MSK format,
 * formats.md 7): ranks P1..P5 of five cells, squares 11..55, and a line
 * that ends in ',' goes on on the next. Ranks of five cells say a record
 * is minishogi; without a board the caller's variant decides.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "core/core.h"
#include "core/handicap.h"
#include "core/sfen.h"
#include "core/zobrist.h"
#include "format.h"

/* CSA piece codes, indexed by enum piece_type. */
static const char codes[PT_NB][3] = {
	"", "FU", "KY", "KE", "GI", "KA", "HI", "KI", "OU",
	"TO", "NY", "NK", "NG", "UM", "RY"
};

static const struct {
	const char *word;	/* after the '%' */
	enum special sp;
} terminals[] = {
	{ "TORYO", SP_RESIGN },
	{ "CHUDAN", SP_ABORT },
	{ "SENNICHITE", SP_SENNICHITE },
	{ "TIME_UP", SP_TIME_UP },
	{ "ILLEGAL_MOVE", SP_ILLEGAL_MOVE },
	{ "+ILLEGAL_ACTION", SP_ILLEGAL_BLACK },
	{ "-ILLEGAL_ACTION", SP_ILLEGAL_WHITE },
	{ "JISHOGI", SP_IMPASSE },
	{ "KACHI", SP_DECLARATION },
	{ "HIKIWAKE", SP_DRAW_DECLARATION },
	{ "MAX_MOVES", SP_MAX_MOVES },
	{ "TSUMI", SP_MATE },
	{ "FUZUMI", SP_NO_MATE },
	{ "ERROR", SP_ERROR },
	{ "MATTA", SP_MATTA },
};

/*
 * The spec prose of V3.0 spells $TIMET+ where its examples write $TIME+
 * (formats.md 2.4): both are read.
 */
static const struct {
	const char *key;
	enum header_id id;
} header_keys[] = {
	{ "EVENT", HDR_EVENT },
	{ "SITE", HDR_SITE },
	{ "START_TIME", HDR_START_TIME },
	{ "END_TIME", HDR_END_TIME },
	{ "TIME_LIMIT", HDR_TIME_LIMIT },
	{ "TIME", HDR_TIME },
	{ "TIME+", HDR_TIME_BLACK },
	{ "TIME-", HDR_TIME_WHITE },
	{ "TIMET+", HDR_TIME_BLACK },
	{ "TIMET-", HDR_TIME_WHITE },
	{ "OPENING", HDR_OPENING },
	{ "MAX_MOVES", HDR_MAX_MOVES },
	{ "JISHOGI", HDR_JISHOGI },
	{ "NOTE", HDR_NOTE },
	{ "KIFU_RULES", HDR_RULES },
};

/*
 * shogi-server's 'summary types (rules.md 2.7). "abnormal" is a player
 * gone; its record says %TORYO, and the summary names the winner.
 * "illegal kachi" is a declaration that failed: the declarer lost.
 */
static const struct {
	const char *type;
	enum reason reason;
} summary_types[] = {
	{ "toryo", REASON_RESIGN },
	{ "abnormal", REASON_RESIGN },
	{ "time up", REASON_TIME_UP },
	{ "kachi", REASON_DECLARATION },
	{ "illegal kachi", REASON_DECLARATION },
	{ "illegal move", REASON_ILLEGAL_MOVE },
	{ "uchifuzume", REASON_ILLEGAL_MOVE },
	{ "oute_kaihimore", REASON_ILLEGAL_MOVE },
	{ "outori", REASON_ILLEGAL_MOVE },
	{ "oute_sennichite", REASON_PERPETUAL_CHECK },
	{ "sennichite", REASON_SENNICHITE },
	{ "max_moves", REASON_MAX_MOVES },
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Quoted input is cut to this many bytes, so a junk line stays readable. */
#define QUOTE_MAX 48
/* Lines detection looks at. */
#define DETECT_LINES 64
/* Hand counts stop here; position_validate then reports too many pieces. */
#define HAND_CAP 99
/* Whole seconds a T line may hold (about 31 years). */
#define TIME_DIGITS 9

enum board_kind { BOARD_NONE, BOARD_PI, BOARD_ROWS };

enum line_result { LINE_OK, LINE_END, LINE_FAILED };

/* Everything csa_read keeps while it reads one record. */
struct csa {
	struct reader *rd;
	const struct text *t;
	struct record *r;
	struct diag_list *d;
	const struct variant *v;
	size_t li;		/* index of the line being read */
	const char *p;		/* that line */
	size_t n;		/* its length without trailing blanks */
	/* Column cache: code points before byte col_at of line col_li. */
	size_t col_li, col_at;
	uint32_t col;
	int statements;		/* statements other than comments */
	struct span empty;	/* READ_EOF: where an empty record was, if one */
	int empty_comments;	/* ... and whether it had comments */
	int comments;
	int started;		/* the start position is settled */
	enum board_kind board;
	unsigned rows;		/* bit r: P<r+1> seen */
	int poslines;		/* position lines seen */
	int al[COLOR_NB];	/* the nal sides given 00AL, in order */
	int nal;
	struct position pos;	/* the start position being built */
	int32_t cur;		/* where comments and times go */
	int32_t terminal;	/* the terminal node; -1 none */
	int nmoves;
	/* The 'summary statement, read once the record is complete. */
	const char *sum;
	size_t sum_n;
	struct span sum_loc;
	struct comment_batch cb;	/* comment lines not yet in the record */
	/*
	 * rd->lim as bounds the record may reach without going over, for
	 * the check after every line: going over any of them is what
	 * reader_check_limits reports. end_max is on the end of the line
	 * (its byte offset), once the record's first line is known.
	 */
	size_t nodes_max, headers_max, end_max;
	uint32_t depth_max;
};

static int
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}


/* The "/" line between records (blanks allowed around it). */
static int
is_separator(const char *p, size_t n)
{
	size_t i = 0;

	while (i < n && is_blank(p[i]))
		i++;
	return i + 1 == n && p[i] == '/';
}

/* Inline: with a literal prefix or word, strlen is then a constant. */
static inline int
has_prefix(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && memcmp(s, prefix, k) == 0;
}

static inline int
equals(const char *s, size_t n, const char *word)
{
	return strlen(word) == n && memcmp(s, word, n) == 0;
}

/*
 * The type a two-letter CSA code names; PT_NONE (0) if it names none,
 * looked up by both letters at once: this runs for every move of every
 * game. The codes are those of codes[] above.
 */
#define CODE(a, b) [(a) - 'A'][(b) - 'A']
static const uint8_t piece_codes[26][26] = {
	CODE('F', 'U') = PT_PAWN, CODE('K', 'Y') = PT_LANCE,
	CODE('K', 'E') = PT_KNIGHT, CODE('G', 'I') = PT_SILVER,
	CODE('K', 'A') = PT_BISHOP, CODE('H', 'I') = PT_ROOK,
	CODE('K', 'I') = PT_GOLD, CODE('O', 'U') = PT_KING,
	CODE('T', 'O') = PT_PRO_PAWN, CODE('N', 'Y') = PT_PRO_LANCE,
	CODE('N', 'K') = PT_PRO_KNIGHT, CODE('N', 'G') = PT_PRO_SILVER,
	CODE('U', 'M') = PT_HORSE, CODE('R', 'Y') = PT_DRAGON,
};
#undef CODE

/* s has two bytes: every caller has checked the length. */
static enum piece_type
piece_of(const char *s)
{
	unsigned a = (unsigned)((unsigned char)s[0] - 'A');
	unsigned b = (unsigned)((unsigned char)s[1] - 'A');

	return a < 26 && b < 26 ? (enum piece_type)piece_codes[a][b] :
	    PT_NONE;
}

/*
 * How many bytes of s (n bytes) to quote: at most QUOTE_MAX, never
 * splitting a UTF-8 sequence.
 */
static int
qlen(const char *s, size_t n)
{
	size_t k = n < QUOTE_MAX ? n : QUOTE_MAX;

	while (k < n && k > 0 && ((unsigned char)s[k] & 0xc0) == 0x80)
		k--;
	return (int)k;
}

/* Bytes of the character at s (at least 1), for quoting one character. */
static int
char_len(const char *s, size_t n)
{
	size_t k = utf8_valid_seq((const unsigned char *)s, n);

	return k ? (int)k : 1;
}

static void
load_line(struct csa *st)
{
	st->p = text_line_ptr(st->t, st->li);
	st->n = text_trim_end(st->p, st->t->lines[st->li].len);
}

/*
 * The span of len bytes at byte `at` of the current line. Columns are
 * counted on from the previous span of the line, so that a line of many
 * statements stays linear.
 */
static struct span
span_at(struct csa *st, size_t at, size_t len)
{
	struct span sp;

	sp.line = (uint32_t)st->li + 1;
	sp.byte = st->t->lines[st->li].off + (uint32_t)at;
	sp.len = (uint32_t)len;
	if (st->col_li != st->li || at < st->col_at) {
		st->col_li = st->li;
		st->col_at = 0;
		st->col = 0;
	}
	st->col += (uint32_t)utf8_count(st->p + st->col_at, at - st->col_at);
	st->col_at = at;
	sp.col = st->col + 1;
	return sp;
}

/* The ply a diagnostic about the current statement belongs to. */
static int
cur_ply(const struct csa *st)
{
	return st->r->nodes[st->cur].ply;
}

/* A syntax error: the record is lost. Always returns -1. */
static int
syntax(struct csa *st, size_t at, size_t len, int ply, const char *what,
    const char *s, size_t n)
{
	struct span sp = span_at(st, at, len);

	/* A quote of two bytes (a piece code) may end inside a character. */
	while (((unsigned char)s[n] & 0xc0) == 0x80)
		n++;
	diag_add(st->d, DIAG_ERROR, diag_id_name(DIAG_SYNTAX), &sp, ply,
	    "%s '%.*s'", what, qlen(s, n), s);
	return -1;
}

/* A start position that cannot be: the record is lost. Returns -1. */
static int
bad_position(struct csa *st, size_t at, size_t len, const char *msg)
{
	struct span sp = span_at(st, at, len);

	diag_add(st->d, DIAG_ERROR, diag_id_name(DIAG_BAD_POSITION), &sp, 0,
	    "%s", msg);
	return -1;
}

/*
 * Keeps a line kifu cannot read as a raw header, so that nothing is
 * dropped silently, and says so.
 */
static void
unknown(struct csa *st, size_t at, size_t len, const char *what)
{
	struct span sp = span_at(st, at, len);

	record_add_header(st->r, st->p + at, len, NULL, 0, HDR_RAW, &sp);
	diag_add(st->d, DIAG_WARNING, diag_id_name(DIAG_UNKNOWN_LINE), &sp,
	    cur_ply(st), "%s '%.*s'", what, qlen(st->p + at, len), st->p + at);
}

static void
flush_comments(struct csa *st)
{
	comment_batch_flush(&st->cb, st->r);
}

/* A comment line belongs to the node read last (the root before move 1). */
static void
add_comment(struct csa *st, const char *s, size_t n)
{
	st->comments++;
	comment_batch_add(&st->cb, st->r, st->cur, s, n);
}

/* A comment statement: s points at the quote, n bytes in all. */
static void
read_comment(struct csa *st, size_t at, size_t n)
{
	const char *s = st->p + at;

	if (!st->sum && has_prefix(s + 1, n - 1, "summary:")) {
		st->sum = s;
		st->sum_n = n;
		st->sum_loc = span_at(st, at, n);
	}
	add_comment(st, s + 1, n - 1);
}

/*
 * "'CSA encoding=..." (V3.0) or "'encoding=..." (Kifu for Windows) on
 * the first lines: text.c has decoded by it already; the line is kept as
 * a header so that a writer knows what the file said.
 */
static int
read_encoding(struct csa *st, size_t at, size_t n)
{
	const char *s = st->p + at + 1, *eq;
	size_t k = n - 1;
	struct span sp;

	if (st->rd->nread || st->statements ||
	    !(has_prefix(s, k, "CSA encoding=") ||
	    has_prefix(s, k, "encoding=")))
		return 0;
	eq = memchr(s, '=', k);
	sp = span_at(st, at, n);
	record_add_header(st->r, s, (size_t)(eq - s), eq + 1,
	    text_trim_end(eq + 1, k - (size_t)(eq + 1 - s)), HDR_ENCODING, &sp);
	return 1;
}

static enum color
color_of(char sign)
{
	return sign == '+' ? BLACK : WHITE;
}

/* Counts of each hand type not on the board nor in a hand. */
static void
give_all_remaining(struct csa *st, enum color c)
{
	int used[HAND_NB] = { 0 };
	square sq;
	int pt;

	for (sq = 0; sq < SQ_NB; sq++) {
		enum piece_type t = piece_type_of(st->pos.board[sq]);

		if (st->pos.board[sq] != PIECE_NONE && t != PT_KING)
			used[pt_unpromoted(t)]++;
	}
	for (pt = PT_PAWN; pt < HAND_NB; pt++) {
		int left = st->v->set_count[pt] - used[pt] -
		    st->pos.hand[BLACK][pt] - st->pos.hand[WHITE][pt];

		if (left > 0)
			position_hand_set(&st->pos, c, (enum piece_type)pt,
			    st->pos.hand[c][pt] + left);
	}
}

/*
 * Settles the start position once the side to move is known: applies
 * 00AL, checks that the position can occur, and stores it. A position
 * with two kings of a side or more pieces than the set has cannot be
 * played by the core; the other impossibilities (a pawn that can never
 * move, nifu) are kept with a warning, because real files have them:
 * Kifu for Windows' "9fu" puzzle puts nine pawns on one file.
 */
static int
finish_position(struct csa *st, enum color side, const struct span *sp)
{
	struct sfen_error e;
	enum handicap h;
	int i;

	st->started = 1;
	if (!st->poslines) {
		diag_add(st->d, DIAG_WARNING, diag_id_name(DIAG_BAD_POSITION),
		    sp, 0, "no start position; assuming %s",
		    st->v == variant_minishogi() ? "the minishogi start" :
		    "the even game");
		position_set_start(&st->pos, st->v);
	}
	for (i = 0; i < st->nal; i++)
		give_all_remaining(st, (enum color)st->al[i]);
	if (side != st->pos.side) {
		st->pos.side = side;
		st->pos.board_key ^= zobrist_side;
	}
	st->pos.move_number = 1;
	/*
	 * A standard start (all that handicap_identify knows) is a position
	 * that can occur, as position_validate says of each of them; the
	 * walk over the board it takes is for the others.
	 */
	h = handicap_identify(&st->pos);
	if (h == HANDICAP_NONE && position_validate(&st->pos, &e) != SFEN_OK) {
		int fatal = !sfen_impossible_is_playable(&e);

		diag_add(st->d, fatal ? DIAG_ERROR : DIAG_WARNING,
		    diag_id_name(DIAG_BAD_POSITION), sp, 0,
		    "impossible start position (%s): %s", e.id, e.message);
		if (fatal)
			return -1;
	}
	st->r->start = st->pos;
	st->r->v = st->pos.v;
	st->r->handicap = h;
	return 0;
}

/*
 * Two digits naming a square; `drop_ok` lets "00" through (*sq =
 * SQ_NONE). Returns the offset (0 or 1) of the first bad digit, or -1.
 */
static int
parse_square(const char *s, int drop_ok, square *sq)
{
	if (drop_ok && s[0] == '0' && s[1] == '0') {
		*sq = SQ_NONE;
		return -1;
	}
	if (s[0] < '1' || s[0] > '9')
		return 0;
	if (s[1] < '1' || s[1] > '9')
		return 1;
	*sq = sq_make(s[0] - '1', s[1] - '1');
	return -1;
}

/* "PI" and the pieces taken off the even-game board. */
static int
read_pi(struct csa *st, size_t at, size_t len)
{
	const char *s = st->p + at;
	size_t i;

	if (st->poslines)
		return bad_position(st, at, 2,
		    "'PI' must be the first line of the position");
	st->board = BOARD_PI;
	st->poslines++;
	/* PI is the 9x9 start, whatever game the caller expected. */
	st->v = variant_standard();
	position_set_start(&st->pos, st->v);
	for (i = 2; i < len; i += 4) {
		enum piece_type pt;
		square sq;
		int bad;

		if (len - i < 4)
			return syntax(st, at + i, len - i, 0,
			    "incomplete piece in", s, len);
		if ((bad = parse_square(s + i, 0, &sq)) >= 0)
			return syntax(st, at + i + bad, 1, 0, "bad square in",
			    s + i, 4);
		if ((pt = piece_of(s + i + 2)) == PT_NONE)
			return syntax(st, at + i + 2, 2, 0, "unknown piece",
			    s + i + 2, 2);
		if (piece_type_of(st->pos.board[sq]) != pt) {
			char msg[64];

			snprintf(msg, sizeof(msg),
			    "'PI' removes '%.4s' but %.2s holds no '%s'",
			    s + i, s + i, codes[pt]);
			return bad_position(st, at + i, 4, msg);
		}
		position_remove(&st->pos, sq);
	}
	return 0;
}

/*
 * Whether the statement ending at byte `end` of the current line is the
 * last of a line that ends in ',': the MSK convention of minishogi
 * records (formats.md 7) continues such a line on the next one.
 */
static int
line_continues(const struct csa *st, size_t end)
{
	size_t i = end;

	while (i < st->n && is_blank(st->p[i]))
		i++;
	return i + 1 == st->n && st->p[i] == ',' &&
	    st->li + 1 < st->t->nlines;
}

static int read_statements(struct csa *st, size_t i);

/*
 * The statements after a rank or a hand that went on on the next line,
 * which is now the current one: its statement ended at byte `end`. Out
 * of line, so that the rare case costs the usual one nothing.
 */
static __attribute__((noinline)) int
read_rest(struct csa *st, size_t end)
{
	return end < st->n ? read_statements(st, end + 1) : 0;
}

/* Moves on to the next line (line_continues said it goes on there). */
static void
next_line(struct csa *st)
{
	st->li++;
	load_line(st);
}

/* The length of the first statement of line p (n bytes), blanks trimmed. */
static size_t
first_statement(const char *p, size_t n)
{
	const char *c = memchr(p, ',', n);

	return text_trim_end(p, c ? (size_t)(c - p) : n);
}

/*
 * The start position goes on the board of v from here on: the pieces
 * placed so far move over, which fails (a bad position, -1) when one of
 * them stands off the new board.
 */
static int
use_variant(struct csa *st, const struct variant *v, size_t at, size_t len)
{
	struct position old;
	square sq;
	int c, pt;

	if (v == st->v)
		return 0;
	old = st->pos;
	position_clear(&st->pos, v);
	for (sq = 0; sq < SQ_NB; sq++) {
		if (old.board[sq] == PIECE_NONE)
			continue;
		if (!bb_test(v->board, sq))
			return bad_position(st, at, len, "a piece placed "
			    "before this rank is off its board");
		position_put(&st->pos, sq, old.board[sq]);
	}
	for (c = 0; c < COLOR_NB; c++)
		for (pt = PT_PAWN; pt < HAND_NB; pt++)
			position_hand_set(&st->pos, (enum color)c,
			    (enum piece_type)pt, old.hand[c][pt]);
	st->v = v;
	return 0;
}

static int
is_cell_start(char c)
{
	return c == '*' || c == '+' || c == '-';
}

/*
 * The cells from s[i] on, up to n or the first thing that is no cell,
 * and at most `max` of them.
 */
static int
count_cells(const char *s, size_t i, size_t n, int max)
{
	int cells = 0;

	for (; cells < max; cells++) {
		while (i < n && is_blank(s[i]))
			i++;
		if (i >= n || !is_cell_start(s[i]))
			break;
		i += s[i] == '*' ? 1 : 3;
	}
	return cells;
}

/*
 * The board a first rank is of: five cells are a rank of minishogi (the
 * MSK format, whose ranks are P1..P5), more a rank of shogi, a rank
 * continued on the next line counted whole. Fewer are left to the
 * caller's board, which read_row then finds they do not fill.
 */
static int
first_rank_board(struct csa *st, size_t at, size_t len)
{
	int narrow = variant_minishogi()->files;
	int cells = count_cells(st->p + at, 2, len, narrow + 1);

	if (cells <= narrow && line_continues(st, at + len)) {
		const char *p = text_line_ptr(st->t, st->li + 1);
		size_t n = text_trim_end(p, st->t->lines[st->li + 1].len);

		cells += count_cells(p, 0, first_statement(p, n),
		    narrow + 1 - cells);
	}
	if (cells < narrow)
		return 0;
	return use_variant(st, cells == narrow ? variant_minishogi() :
	    variant_standard(), at, len);
}

/* A rank past the board's last ("P6" on the 5x5 board): -1. */
static int
bad_rank(struct csa *st, size_t at, int rank)
{
	char msg[64];

	snprintf(msg, sizeof(msg), "rank %d is off the %dx%d board", rank + 1,
	    st->v->files, st->v->ranks);
	return bad_position(st, at, 2, msg);
}

/* A rank of another number of cells than the board's: -1. */
static int
bad_rank_width(struct csa *st, size_t at, size_t i, const char *s,
    size_t len, int cells)
{
	char msg[64];

	if (cells > st->v->files)
		snprintf(msg, sizeof(msg), "rank has more than %d squares:",
		    st->v->files);
	else
		snprintf(msg, sizeof(msg), "rank has %d squares, not %d:",
		    cells, st->v->files);
	return syntax(st, at + i, 0, 0, msg, s, len);
}

/*
 * Cells `cell` on of a rank of `files` cells, from s[*i] (len bytes at
 * byte `at` of the line) onto the board. Returns the cell it stopped at:
 * files when the rank is whole, less when the statement ended first, or
 * -1 after an error. Inlined: a board is nine of these in every record
 * that has one, and a call per rank costs as much as its cells.
 */
static inline __attribute__((always_inline)) int
read_cells(struct csa *st, size_t at, const char *s, size_t len, size_t *ip,
    int rank, int cell, int files)
{
	size_t i = *ip;

	for (; cell < files; cell++) {
		square sq = sq_make(files - 1 - cell, rank);
		enum piece_type pt;

		while (i < len && is_blank(s[i]))
			i++;
		if (i >= len)
			break;
		if (s[i] == '*') {
			position_remove(&st->pos, sq);
			i++;
			continue;
		}
		if ((s[i] != '+' && s[i] != '-') || len - i < 3)
			return syntax(st, at + i, 1, 0, "unexpected",
			    s + i, (size_t)char_len(s + i, len - i));
		if ((pt = piece_of(s + i + 1)) == PT_NONE)
			return syntax(st, at + i + 1, 2, 0, "unknown piece",
			    s + i + 1, 2);
		position_put(&st->pos, sq, piece_make(color_of(s[i]), pt));
		i += 3;
	}
	*ip = i;
	return cell;
}

/*
 * "P1".."P9": a rank, cells from the highest file down to file 1, each
 * "+XX", "-XX" or " * ". Cells are found by their first character rather
 * than by column, which reads the ranks that lost their padding in
 * mail. The first rank says which board the position is on, whatever
 * the caller expected.
 */
static int
read_row(struct csa *st, size_t at, size_t len)
{
	const char *s = st->p + at;
	int rank = s[1] - '1', cell, files, continued = 0;
	size_t i = 2;

	if (st->board == BOARD_PI)
		return bad_position(st, at, 2,
		    "'PI' and 'P1'..'P9' cannot be mixed");
	if (st->rows & (1u << rank))
		return bad_position(st, at, 2, "rank given twice");
	if (!st->rows && first_rank_board(st, at, len) < 0)
		return -1;
	files = st->v->files;
	if (rank >= st->v->ranks)
		return bad_rank(st, at, rank);
	st->board = BOARD_ROWS;
	st->rows |= 1u << rank;
	st->poslines++;
	cell = read_cells(st, at, s, len, &i, rank, 0, files);
	/* The statement ended before the rank: it may go on (MSK). */
	while (cell >= 0 && cell < files) {
		if (!line_continues(st, at + len))
			return bad_rank_width(st, at, i, s, len, cell);
		next_line(st);
		continued = 1;
		at = 0;
		s = st->p;
		len = first_statement(s, st->n);
		i = 0;
		cell = read_cells(st, at, s, len, &i, rank, cell, files);
	}
	if (cell < 0)
		return -1;
	while (i < len && is_blank(s[i]))
		i++;
	/* A sixth cell on the 5x5 board: a rank of the 9x9 one. */
	if (i < len && files < FILE_NB && is_cell_start(s[i]))
		return bad_rank_width(st, at, i, s, len, files + 1);
	if (i < len) {
		struct span sp = span_at(st, at + i, len - i);

		diag_add(st->d, DIAG_WARNING, diag_id_name(DIAG_SYNTAX), &sp,
		    0, "ignoring '%.*s' after the %s square",
		    qlen(s + i, len - i), s + i, files == FILE_NB ?
		    "ninth" : "fifth");
	}
	return continued ? read_rest(st, len) : 0;
}

/* One "00XX" hand piece or "00AL" of a P+/P- line. */
static int
read_hand_piece(struct csa *st, size_t at, enum color c)
{
	const char *s = st->p + at;
	enum piece_type pt;
	int i;

	if (s[2] == 'A' && s[3] == 'L') {
		for (i = 0; i < st->nal; i++)
			if (st->al[i] == (int)c)
				return 0;
		st->al[st->nal++] = c;
		return 0;
	}
	if ((pt = piece_of(s + 2)) == PT_NONE)
		return syntax(st, at + 2, 2, 0, "unknown piece", s + 2, 2);
	if (pt >= HAND_NB) {
		char msg[48];

		snprintf(msg, sizeof(msg), "'%s' cannot be in hand", codes[pt]);
		return bad_position(st, at, 4, msg);
	}
	if (st->pos.hand[c][pt] < HAND_CAP)
		position_hand_set(&st->pos, c, pt, st->pos.hand[c][pt] + 1);
	return 0;
}

/* "P+" / "P-": pieces of one side, on squares or ("00") in hand. */
static int
read_pieces(struct csa *st, size_t at, size_t len)
{
	const char *s = st->p + at;
	enum color c = color_of(s[1]);
	size_t i = 2;
	int continued = 0;

	st->poslines++;
	for (;;) {
		enum piece_type pt;
		square sq;
		piece old;
		int bad;

		while (i < len && is_blank(s[i]))
			i++;
		if (i >= len && line_continues(st, at + len)) {
			next_line(st);
			at = 0;
			s = st->p;
			len = first_statement(s, st->n);
			i = 0;
			continued = 1;
			continue;
		}
		if (i >= len)
			return continued ? read_rest(st, len) : 0;
		if (len - i < 4)
			return syntax(st, at + i, len - i, 0,
			    "incomplete piece", s + i, len - i);
		if (s[i] == '0' && s[i + 1] == '0') {
			if (read_hand_piece(st, at + i, c) < 0)
				return -1;
			i += 4;
			continue;
		}
		if ((bad = parse_square(s + i, 0, &sq)) >= 0)
			return syntax(st, at + i + bad, 1, 0, "bad square in",
			    s + i, 4);
		if ((pt = piece_of(s + i + 2)) == PT_NONE)
			return syntax(st, at + i + 2, 2, 0, "unknown piece",
			    s + i + 2, 2);
		if (!bb_test(st->v->board, sq)) {
			char msg[48];

			snprintf(msg, sizeof(msg), "%.2s is off the %dx%d "
			    "board", s + i, st->v->files, st->v->ranks);
			return bad_position(st, at + i, 4, msg);
		}
		old = st->pos.board[sq];
		if (old != PIECE_NONE && old != piece_make(c, pt))
			return bad_position(st, at + i, 4,
			    "a square is given two different pieces");
		position_put(&st->pos, sq, piece_make(c, pt));
		i += 4;
	}
}

/* PI, P1..P9, P+ or P-. */
static int
read_position_line(struct csa *st, size_t at, size_t len)
{
	char c = len > 1 ? st->p[at + 1] : '\0';

	if (st->started) {
		unknown(st, at, len,
		    "ignoring a position line after the start:");
		return 0;
	}
	if (!st->r->start_loc.line)
		st->r->start_loc = span_at(st, at, len);
	if (c == 'I')
		return read_pi(st, at, len);
	if (c >= '1' && c <= '9')
		return read_row(st, at, len);
	if (c == '+' || c == '-')
		return read_pieces(st, at, len);
	unknown(st, at, len, "unknown line");
	return 0;
}

/* "+" or "-" alone: the side to move, which ends the position. */
static int
read_side(struct csa *st, size_t at)
{
	struct span sp;

	if (st->started) {
		unknown(st, at, 1,
		    "ignoring a side-to-move line after the start:");
		return 0;
	}
	sp = span_at(st, at, 1);
	return finish_position(st, color_of(st->p[at]), &sp);
}

/* For a start that no side line closed: the side comes from the first move. */
static int
implied_side(struct csa *st, enum color side, size_t at, size_t len)
{
	struct span sp = span_at(st, at, len);

	diag_add(st->d, DIAG_WARNING, diag_id_name(DIAG_BAD_POSITION), &sp, 0,
	    "no side-to-move line before '%.*s'; assuming '%c'",
	    qlen(st->p + at, len), st->p + at, side == BLACK ? '+' : '-');
	return finish_position(st, side, &sp);
}

/* The move s (len bytes, checked) at sp, after the current node. */
static inline void
add_move(struct csa *st, const char *s, size_t len, square from, square to,
    enum piece_type pt, struct span sp)
{
	int32_t node = record_add_node(st->r, st->cur);
	struct record_node *nd = &st->r->nodes[node];

	nd->spec.flags = SPEC_PIECE_AFTER | (from == SQ_NONE ? SPEC_DROP : 0);
	nd->spec.color = (int8_t)color_of(s[0]);
	nd->spec.from = (uint8_t)from;
	nd->spec.to = (uint8_t)to;
	nd->spec.piece = (uint8_t)pt;
	nd->loc = sp;
	nd->raw = record_intern(st->r, s, len);
	st->cur = node;
	st->nmoves++;
}

/*
 * "+7776FU": sign, from (00 = drop), to, the piece after the move.
 * Every character is checked in turn so that the error names the first
 * bad one.
 */
static int
read_move(struct csa *st, size_t at, size_t len)
{
	const char *s = st->p + at;
	int ply = cur_ply(st) + 1, bad;
	square from, to;
	enum piece_type pt;
	size_t i;

	for (i = 1; i < 7; i++) {
		if (i >= len)
			return syntax(st, at + len, 0, ply, "incomplete move",
			    s, len);
		if (i < 5 ? !is_digit(s[i]) : (s[i] < 'A' || s[i] > 'Z'))
			return syntax(st, at + i, 1, ply, "bad move", s, len);
	}
	if (len > 7)
		return syntax(st, at + 7, len - 7, ply,
		    "unexpected text after move", s, len);
	if ((bad = parse_square(s + 1, 1, &from)) >= 0)
		return syntax(st, at + 1 + bad, 1, ply, "bad square in", s,
		    len);
	if ((bad = parse_square(s + 3, 0, &to)) >= 0)
		return syntax(st, at + 3 + bad, 1, ply, "bad square in", s,
		    len);
	if ((pt = piece_of(s + 5)) == PT_NONE)
		return syntax(st, at + 5, 2, ply, "unknown piece in", s, len);
	if (!st->started && implied_side(st, color_of(s[0]), at, len) < 0)
		return -1;
	if (st->terminal >= 0) {
		struct span sp = span_at(st, at, len);

		diag_add(st->d, DIAG_WARNING,
		    diag_id_name(DIAG_MOVE_AFTER_END), &sp, ply,
		    "ignoring move '%.*s' after '%s'", (int)len, s,
		    record_str(st->r, st->r->nodes[st->terminal].raw));
		return 0;
	}
	add_move(st, s, len, from, to, pt, span_at(st, at, len));
	return 0;
}

/*
 * "%TORYO" and the rest. shogi-server writes "%KACHI", "T1", "%KACHI"
 * for one declaration (rules.md 2.7): the same word again is the same
 * terminal.
 */
static int
read_terminal(struct csa *st, size_t at, size_t len)
{
	const char *s = st->p + at;
	enum special sp = SP_UNKNOWN;
	struct record_node *nd;
	int32_t node;
	size_t i;

	for (i = 0; i < NELEM(terminals); i++)
		if (equals(s + 1, len - 1, terminals[i].word))
			sp = terminals[i].sp;
	if (st->terminal >= 0) {
		const char *old = record_str(st->r,
		    st->r->nodes[st->terminal].raw);
		struct span loc;

		if (equals(s, len, old))
			return 0;
		loc = span_at(st, at, len);
		diag_add(st->d, DIAG_WARNING,
		    diag_id_name(DIAG_MOVE_AFTER_END), &loc, cur_ply(st),
		    "ignoring '%.*s' after '%s'", qlen(s, len), s, old);
		return 0;
	}
	if (sp == SP_UNKNOWN) {
		struct span loc = span_at(st, at, len);

		diag_add(st->d, DIAG_WARNING, diag_id_name(DIAG_SYNTAX), &loc,
		    cur_ply(st) + 1, "unknown terminal '%.*s'", qlen(s, len),
		    s);
	}
	if (!st->started && implied_side(st, BLACK, at, len) < 0)
		return -1;
	node = record_add_node(st->r, st->cur);
	nd = &st->r->nodes[node];
	nd->special = (uint8_t)sp;
	nd->loc = span_at(st, at, len);
	nd->raw = record_intern(st->r, s, len);
	st->cur = st->terminal = node;
	return 0;
}

/*
 * "T12", "T1.5", "T1." (V3.0 allows up to three decimals): time spent
 * on the last move or terminal. Returns the milliseconds or -1.
 */
static int64_t
parse_time(const char *s, size_t n)
{
	int64_t sec = 0, frac = 0;
	size_t i = 0, digits = 0, fdigits = 0;

	for (; i < n && is_digit(s[i]); i++, digits++) {
		if (digits == TIME_DIGITS)
			return -1;
		sec = sec * 10 + (s[i] - '0');
	}
	if (!digits)
		return -1;
	if (i < n && s[i] == '.') {
		for (i++; i < n && is_digit(s[i]); i++, fdigits++) {
			if (fdigits == 3)
				return -1;
			frac = frac * 10 + (s[i] - '0');
		}
		for (; fdigits < 3; fdigits++)
			frac *= 10;
	}
	return i == n ? sec * 1000 + frac : -1;
}

static int
read_time(struct csa *st, size_t at, size_t len)
{
	const char *s = st->p + at;
	struct record_node *nd = &st->r->nodes[st->cur];
	int64_t ms = parse_time(s + 1, len - 1);
	const char *why = NULL;
	struct span sp;

	if (ms < 0)
		why = "bad time";
	else if (st->cur == 0)
		why = "ignoring a time before the first move:";
	else if (nd->time_ms >= 0)
		why = "ignoring a second time for one move:";
	if (why) {
		sp = span_at(st, at, len);
		diag_add(st->d, DIAG_WARNING, diag_id_name(DIAG_TIME), &sp,
		    cur_ply(st), "%s '%.*s'", why, qlen(s, len), s);
		return 0;
	}
	nd->time_ms = ms;
	return 0;
}

static int
read_statement(struct csa *st, size_t at, size_t len)
{
	const char *s = st->p + at;

	st->statements++;
	switch (s[0]) {
	case '+':
	case '-':
		return len == 1 ? read_side(st, at) : read_move(st, at, len);
	case '%':
		return read_terminal(st, at, len);
	case 'T':
		return read_time(st, at, len);
	case 'P':
		return read_position_line(st, at, len);
	default:
		unknown(st, at, len, "unknown statement");
		return 0;
	}
}

/*
 * Where an inline comment starting at `at` ends: at the next ',' that
 * another comment follows (",'" with blanks allowed, as the 2005 GPS
 * logs write "'T0   ,'7776   ,'  1手目"), else at the end of the line,
 * so that a comment may hold commas.
 */
static size_t
comment_end(const char *p, size_t at, size_t n)
{
	size_t i, j;

	for (i = at + 1; i < n; i++) {
		if (p[i] != ',')
			continue;
		for (j = i + 1; j < n && is_blank(p[j]); j++)
			;
		if (j < n && p[j] == '\'')
			return i;
	}
	return n;
}

/* A line of statements split by ',', with blanks around them. */
static int
read_statements(struct csa *st, size_t i)
{
	const char *p = st->p;
	size_t n = st->n;

	while (i < n) {
		size_t end, len;

		while (i < n && is_blank(p[i]))
			i++;
		if (i == n)
			break;
		if (p[i] == '\'') {
			end = comment_end(p, i, n);
			read_comment(st, i, text_trim_end(p + i, end - i));
		} else {
			const char *c = memchr(p + i, ',', n - i);

			end = c ? (size_t)(c - p) : n;
			len = text_trim_end(p + i, end - i);
			if (len && read_statement(st, i, len) < 0)
				return -1;
		}
		i = end + 1;
	}
	return 0;
}

/* "N+name" / "N-name". */
static void
read_name(struct csa *st, size_t at)
{
	struct span sp = span_at(st, at, st->n - at);

	st->statements++;
	record_add_header(st->r, st->p + at, 2, st->p + at + 2,
	    st->n - at - 2, st->p[at + 1] == '+' ? HDR_BLACK : HDR_WHITE, &sp);
}

/* "$KEY:VALUE"; unknown keys are kept as written. */
static void
read_header(struct csa *st, size_t at)
{
	const char *s = st->p + at + 1, *colon;
	size_t n = st->n - at - 1, klen, i;
	enum header_id id = HDR_OTHER;
	struct span sp;

	colon = memchr(s, ':', n);
	if (!colon || colon == s) {
		unknown(st, at, st->n - at,
		    colon ? "header without a key:" : "header without ':':");
		st->statements++;
		return;
	}
	klen = (size_t)(colon - s);
	for (i = 0; i < NELEM(header_keys); i++)
		if (equals(s, klen, header_keys[i].key))
			id = header_keys[i].id;
	sp = span_at(st, at, st->n - at);
	record_add_header(st->r, s, klen, colon + 1, n - klen - 1, id, &sp);
	st->statements++;
}

/* "V2", "V2.2", "V3.0": any minor number is accepted. */
static void
read_version(struct csa *st, size_t at)
{
	const char *s = st->p + at;
	size_t n = st->n - at, i = 1;
	int major = 0, minor = 0;
	struct span sp = span_at(st, at, n);

	while (i < n && is_digit(s[i]) && major < 100)
		major = major * 10 + (s[i++] - '0');
	if (i < n && s[i] == '.' && i + 1 < n && is_digit(s[i + 1]))
		minor = s[++i] - '0';
	st->rd->version = major * 10 + minor;
	if (major != 2 && major != 3)
		diag_add(st->d, DIAG_WARNING, diag_id_name(DIAG_SYNTAX), &sp, 0,
		    "unknown csa version '%.*s'", qlen(s, n), s);
	record_add_header(st->r, "V", 1, s + 1, n - 1, HDR_VERSION, &sp);
	st->statements++;
}

/*
 * The line nearly every line of a game is: a move alone ("+7776FU"),
 * after the start position and before any terminal. Read here without
 * the general path's splitting, re-checking and column counting: its
 * span is the whole line from column 1. Returns 0 when the line is
 * anything else, or anything is wrong with it, for read_line to read it
 * and name the problem; either way the record comes out the same.
 */
static int
plain_move(struct csa *st)
{
	const char *s = st->p;
	square from, to;
	enum piece_type pt;
	struct span sp;

	if (st->n != 7 || (s[0] != '+' && s[0] != '-') || !st->started ||
	    st->terminal >= 0)
		return 0;
	if (s[1] == '0' && s[2] == '0')
		from = SQ_NONE;
	else if (s[1] >= '1' && s[1] <= '9' && s[2] >= '1' && s[2] <= '9')
		from = sq_make(s[1] - '1', s[2] - '1');
	else
		return 0;
	if (s[3] < '1' || s[3] > '9' || s[4] < '1' || s[4] > '9' ||
	    (pt = piece_of(s + 5)) == PT_NONE)
		return 0;
	to = sq_make(s[3] - '1', s[4] - '1');
	st->statements++;
	sp.line = (uint32_t)st->li + 1;
	sp.col = 1;
	sp.byte = st->t->lines[st->li].off;
	sp.len = 7;
	add_move(st, s, 7, from, to, pt, sp);
	return 1;
}

/*
 * The other usual line, a time alone in whole seconds ("T12") for a move
 * that has none yet. As plain_move: 0 sends anything else to read_line.
 */
static int
plain_time(struct csa *st)
{
	const char *s = st->p;
	size_t n = st->n, i;
	struct record_node *nd;
	int64_t sec = 0;

	/* parse_time takes at most TIME_DIGITS digits. */
	if (n < 2 || n > 1 + TIME_DIGITS || s[0] != 'T' || st->cur == 0)
		return 0;
	nd = &st->r->nodes[st->cur];
	if (nd->time_ms >= 0)
		return 0;
	for (i = 1; i < n; i++) {
		if (!is_digit(s[i]))
			return 0;
		sec = sec * 10 + (s[i] - '0');
	}
	st->statements++;
	nd->time_ms = sec * 1000;
	return 1;
}

/*
 * Whether p[0..n) is a move, time or terminal line: these are nearly
 * every line of a record, and a reader asked for the headers only
 * (rd->headers_only) passes over them once the start position is read.
 */
static inline int
play_line(const char *p, size_t n)
{
	size_t i = 0;
	char c;

	while (i < n && is_blank(p[i]))
		i++;
	if (i == n)
		return 0;
	/* Tests, not a switch: lines alternate, a jump table mispredicts. */
	c = p[i];
	if (c == '+' || c == '-')
		return i + 1 < n && is_digit(p[i + 1]);
	if (c == 'T')
		return i + 1 == n || is_digit(p[i + 1]) || p[i + 1] == '.';
	return c == '%';
}

/*
 * Whether line p (the text's, so p[1] may be read) passes play_line by
 * what nearly every such line starts with, a sign or a T in the first
 * column and a digit after it (or a T alone): the test the skip makes
 * of every line before play_line's own.
 */
static inline int
plain_play_line(const char *p, size_t n)
{
	char c = p[0];

	if ((c == '+' || c == '-') && n > 1 && is_digit(p[1]))
		return 1;
	return c == 'T' && (n == 1 || is_digit(p[1]));
}

/* The first line from li on that play_line does not pass over. */
static size_t
skip_play_lines_by_line(const struct text *t, size_t li)
{
	const struct text_line *l = t->lines;
	size_t n = t->nlines;

	for (; li < n; li++) {
		const char *p = t->buf + l[li].off;

		if (!plain_play_line(p, l[li].len) &&
		    !play_line(p, l[li].len))
			break;
	}
	return li;
}

#ifdef __SSE2__
/*
 * From byte at on, where the first line starts (the byte after an LF)
 * that plain_play_line would not pass, 16 line ends at a time: no look
 * at the line table. Returns its offset, or t->len when there is none;
 * *cr is set instead when a CR comes first, for the caller to go on line
 * by line (a CR can end a line without an LF). crs: whether the text has
 * a CR to look for (a constant where this is inlined).
 */
static inline __attribute__((always_inline)) size_t
unplain_in(const struct text *t, size_t at, int *cr, int crs)
{
	const char *b = t->buf;
	const __m128i lf = _mm_set1_epi8('\n'), cr1 = _mm_set1_epi8('\r');
	const __m128i plus = _mm_set1_epi8('+'), minus = _mm_set1_epi8('-');
	const __m128i tee = _mm_set1_epi8('T');
	/* Digits, moved to the bottom of the signed bytes, are below this. */
	const __m128i shift = _mm_set1_epi8((char)(0x80 - '0'));
	const __m128i ten = _mm_set1_epi8((char)(0x80 + 10));
	size_t i = at, len = t->len;

	*cr = 0;
	/* The loads reach byte i + 17: the text's closing NUL at most. */
	for (; i + 17 <= len; i += 16) {
		__m128i v0 = _mm_loadu_si128((const __m128i *)(const void *)
		    (b + i));
		__m128i v1 = _mm_loadu_si128((const __m128i *)(const void *)
		    (b + i + 1));
		__m128i v2 = _mm_loadu_si128((const __m128i *)(const void *)
		    (b + i + 2));
		__m128i digit = _mm_cmplt_epi8(_mm_add_epi8(v2, shift), ten);
		__m128i sign = _mm_or_si128(_mm_cmpeq_epi8(v1, plus),
		    _mm_cmpeq_epi8(v1, minus));
		__m128i t1 = _mm_cmpeq_epi8(v1, tee);
		__m128i ok = _mm_or_si128(_mm_and_si128(_mm_or_si128(sign, t1),
		    digit), _mm_and_si128(t1, _mm_cmpeq_epi8(v2, lf)));
		__m128i stop = _mm_andnot_si128(ok, _mm_cmpeq_epi8(v0, lf));
		unsigned m;

		if (crs)
			stop = _mm_or_si128(stop, _mm_cmpeq_epi8(v0, cr1));
		if ((m = (unsigned)_mm_movemask_epi8(stop)) != 0) {
			i += (size_t)__builtin_ctz(m);
			*cr = b[i] == '\r';
			return i + 1;
		}
	}
	for (; i < len; i++) {
		if (b[i] == '\r') {
			*cr = 1;
			return i + 1;
		}
		/* The LF that ends the text starts no line. */
		if (b[i] == '\n' && i + 1 < len &&
		    !plain_play_line(b + i + 1, b[i + 2] == '\n' ? 1 : 2))
			return i + 1;
	}
	return len;
}

static size_t
next_unplain(const struct text *t, size_t at, int *cr)
{
	return t->any_cr ? unplain_in(t, at, cr, 1) : unplain_in(t, at, cr, 0);
}

/* The line from lo on that starts at byte off; t->nlines if none does. */
static size_t
line_at(const struct text *t, size_t lo, size_t off)
{
	size_t hi = t->nlines;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->lines[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->nlines && t->lines[lo].off == off ? lo : t->nlines;
}
#endif

/*
 * The first line from li on that play_line does not pass over. The move
 * lines are most of a file, and most are short: they are passed over by
 * their bytes, 16 at a time, rather than looked up one by one in the line
 * table.
 */
static size_t
skip_play_lines(const struct text *t, size_t li)
{
#ifdef __SSE2__
	const struct text_line *l = t->lines;
	size_t n = t->nlines;

	while (li < n) {
		const char *p = t->buf + l[li].off;
		size_t at, k;
		int cr;

		if (!plain_play_line(p, l[li].len) && !play_line(p, l[li].len))
			return li;
		at = next_unplain(t, (size_t)l[li].off + l[li].len, &cr);
		if (cr)
			return skip_play_lines_by_line(t, li + 1);
		if (at >= t->len)
			return n;
		if ((k = line_at(t, li + 1, at)) == n)
			return skip_play_lines_by_line(t, li + 1);
		li = k;
	}
	return n;
#else
	return skip_play_lines_by_line(t, li);
#endif
}

/* One line of the record; LINE_END for the "/" that ends it. */
static enum line_result
read_line(struct csa *st)
{
	const char *p = st->p;
	size_t i = 0, n = st->n;
	char c, next;

	if (plain_move(st) || plain_time(st))
		return LINE_OK;
	while (i < n && is_blank(p[i]))
		i++;
	if (i == n)
		return LINE_OK;
	c = p[i];
	next = i + 1 < n ? p[i + 1] : '\0';
	switch (c) {
	case '\'':
		/* Whole comment lines keep their trailing blanks. */
		if (!read_encoding(st, i, st->t->lines[st->li].len - i))
			read_comment(st, i, st->t->lines[st->li].len - i);
		return LINE_OK;
	case '/':
		if (is_separator(p, n))
			return LINE_END;
		break;
	case 'N':
		if (next == '+' || next == '-') {
			read_name(st, i);
			return LINE_OK;
		}
		break;
	case '$':
		read_header(st, i);
		return LINE_OK;
	case 'V':
		if (is_digit(next)) {
			read_version(st, i);
			return LINE_OK;
		}
		break;
	case 'T':
		/* 81Dojo's "To_Move:+" is no time. */
		if (!is_digit(next) && next != '.' && next != '\0')
			break;
		/* FALLTHROUGH */
	case '+':
	case '-':
	case '%':
		return read_statements(st, i) < 0 ? LINE_FAILED : LINE_OK;
	case 'P':
		if (next != '\0' && strchr("123456789I+-", next))
			return read_statements(st, i) < 0 ? LINE_FAILED :
			    LINE_OK;
		break;
	default:
		break;
	}
	st->statements++;
	unknown(st, i, n - i, "unknown line");
	return LINE_OK;
}

/* After a syntax error: on to the line after the next "/". */
static void
skip_record(struct csa *st)
{
	for (st->li++; st->li < st->t->nlines; st->li++) {
		load_line(st);
		if (is_separator(st->p, st->n)) {
			st->li++;
			return;
		}
	}
}

/* One "<name> <win|lose|draw>" half of a 'summary. */
struct summary_side {
	const char *name;
	size_t name_n;
	enum { MARK_BAD, MARK_WIN, MARK_LOSE, MARK_DRAW } mark;
};

/* Splits s..end at its last space; -1 if there is none. */
static int
summary_side(const char *s, const char *end, struct summary_side *side)
{
	const char *m = end;
	size_t n;

	while (m > s && m[-1] != ' ')
		m--;
	if (m == s)
		return -1;
	n = (size_t)(end - m);
	side->name = s;
	side->name_n = (size_t)(m - 1 - s);
	side->mark = equals(m, n, "win") ? MARK_WIN : equals(m, n, "lose") ?
	    MARK_LOSE : equals(m, n, "draw") ? MARK_DRAW : MARK_BAD;
	return 0;
}

/* Whether the side is the player a header names. */
static int
is_player(const struct csa *st, const struct summary_side *side,
    enum header_id id)
{
	const struct record_header *h = record_find_header(st->r, id);

	return h && equals(side->name, side->name_n,
	    record_str(st->r, h->value));
}

/*
 * Floodgate's "'summary:<type>:<name> <mark>:<name> <mark>". The halves
 * are matched to N+/N- by name, as shogi-server's own scripts do, and
 * taken Black first when the names do not say.
 */
static void
read_summary(struct csa *st)
{
	const char *s = st->sum + 9, *end = st->sum + st->sum_n, *c1, *c2;
	const char *why = "unreadable result in";
	struct game_result *res = &st->r->recorded;
	struct summary_side b, w, t;
	int reason = -1;
	size_t i;

	if (!(c1 = memchr(s, ':', (size_t)(end - s))))
		goto bad;
	for (i = 0; i < NELEM(summary_types); i++)
		if (equals(s, (size_t)(c1 - s), summary_types[i].type))
			reason = (int)summary_types[i].reason;
	if (reason < 0) {
		why = "unknown result type in";
		goto bad;
	}
	for (c2 = end; c2 > c1 + 1 && c2[-1] != ':'; c2--)
		;
	if (c2 == c1 + 1 || summary_side(c1 + 1, c2 - 1, &b) < 0 ||
	    summary_side(c2, end, &w) < 0)
		goto bad;
	if (!is_player(st, &b, HDR_BLACK) && is_player(st, &b, HDR_WHITE) &&
	    is_player(st, &w, HDR_BLACK)) {
		t = b;
		b = w;
		w = t;
	}
	if (b.mark == MARK_WIN && w.mark == MARK_LOSE)
		res->winner = WINNER_BLACK;
	else if (b.mark == MARK_LOSE && w.mark == MARK_WIN)
		res->winner = WINNER_WHITE;
	else if (b.mark == MARK_DRAW && w.mark == MARK_DRAW)
		res->winner = WINNER_NONE;
	else
		goto bad;
	res->reason = (enum reason)reason;
	res->ply = st->nmoves;
	st->r->has_recorded = 1;
	st->r->recorded_raw = record_intern(st->r, st->sum, st->sum_n);
	st->r->recorded_loc = st->sum_loc;
	return;
bad:
	diag_add(st->d, DIAG_WARNING, diag_id_name(DIAG_SYNTAX), &st->sum_loc,
	    0, "%s '%.*s'", why, qlen(st->sum, st->sum_n), st->sum);
}

static void
csa_init(struct csa *st, struct reader *rd, struct record *r,
    struct diag_list *d, const struct variant *v)
{
	memset(st, 0, sizeof(*st));
	st->rd = rd;
	st->t = rd->t;
	st->r = r;
	st->d = d;
	st->v = v;
	st->li = rd->line;
	st->col_li = (size_t)-1;
	st->terminal = -1;
	comment_batch_init(&st->cb);
	position_clear(&st->pos, v);
	/* 0 is no limit. */
	st->nodes_max = rd->lim->moves ? (size_t)rd->lim->moves + 1 :
	    SIZE_MAX;
	st->headers_max = rd->lim->headers ? rd->lim->headers : SIZE_MAX;
	st->depth_max = rd->lim->depth ? rd->lim->depth : UINT32_MAX;
	st->end_max = SIZE_MAX;
}

/*
 * reader_check_limits, but first against the bounds csa_init worked out,
 * which is all it takes for a line that goes over nothing.
 */
static int
check_limits(struct csa *st)
{
	const struct record *r = st->r;
	const struct text_line *l = &st->t->lines[st->li];

	if (r->nnodes > st->nodes_max || r->nheaders > st->headers_max ||
	    (uint32_t)r->depth > st->depth_max ||
	    (size_t)l->off + l->len > st->end_max)
		return reader_check_limits(st->rd, st->r, st->li, st->d);
	return 0;
}

/* READ_EOF here means an empty record: the caller reads on. */
static enum read_status
read_record(struct csa *st)
{
	size_t first = st->li, lines = st->t->nlines;
	enum line_result lr = LINE_OK;

	for (; st->li < lines; st->li++) {
		if (st->rd->headers_only && st->started) {
			size_t k = skip_play_lines(st->t, st->li);

			if (k > st->li) {
				st->statements++;
				if ((st->li = k) == lines)
					break;
			}
		}
		load_line(st);
		if (st->r->loc.line == 0 && st->n) {
			st->r->loc = text_span(st->t, st->li, 0, st->n);
			if (st->rd->lim->record)
				st->end_max = (size_t)st->r->loc.byte +
				    st->rd->lim->record;
		}
		if ((lr = read_line(st)) == LINE_FAILED ||
		    check_limits(st) < 0) {
			skip_record(st);
			return READ_ERROR;
		}
		if (lr == LINE_END)
			break;
	}
	if (!st->statements) {
		if (st->comments || lr == LINE_END) {
			st->empty = st->r->loc.line ? st->r->loc :
			    text_span(st->t, first, 0, 0);
			st->empty_comments = st->comments;
		}
		if (lr == LINE_END)
			st->li++;
		return READ_EOF;
	}
	flush_comments(st);
	if (lr == LINE_END)
		st->li++;
	/* A record of game information only: no side line closed it. */
	if (!st->started && finish_position(st, BLACK, &st->r->loc) < 0)
		return READ_ERROR;
	if (st->sum)
		read_summary(st);
	return READ_OK;
}

/* A run of empty records ('/' lines, comments alone). */
struct empties {
	size_t n;
	struct span first;
	int comments;
};

/*
 * Reads records into r until one is not empty, counting the empty ones
 * in e; READ_EOF at the end of the text.
 */
static enum read_status
read_past_empty(struct reader *rd, struct record *r, struct diag_list *d,
    const struct variant *v, struct empties *e)
{
	enum read_status rs;
	struct csa st;

	for (;;) {
		if (rd->done || !rd->t || rd->line >= rd->t->nlines) {
			rd->done = 1;
			return READ_EOF;
		}
		csa_init(&st, rd, r, d, v);
		rs = read_record(&st);
		comment_batch_release(&st.cb);
		rd->line = st.li;
		if (rs != READ_EOF)
			return rs;
		if (st.empty.line) {
			if (!e->n++)
				e->first = st.empty;
			e->comments |= st.empty_comments;
		}
		record_reset(r, r->v);
	}
}

/* A run of empty records, however long, is one warning. */
static void
empty_warning(struct diag_list *d, const struct empties *e)
{
	if (e->n == 1)
		diag_add(d, DIAG_WARNING, diag_id_name(DIAG_EMPTY), &e->first,
		    0, "no record here, only %s", e->comments ? "comments" :
		    "a '/' line");
	else if (e->n)
		diag_add(d, DIAG_WARNING, diag_id_name(DIAG_EMPTY), &e->first,
		    0, "%zu empty records from here on, only '/' lines%s",
		    e->n, e->comments ? " and comments" : "");
}

/*
 * The first line from li on that is not blank, a comment or a '/' line
 * (t->nlines if there is none): a statement, which makes the lines
 * around it a record, read or failed. *any: whether a comment or a '/'
 * line came first.
 */
static size_t
next_statement(const struct text *t, size_t li, int *any)
{
	for (; li < t->nlines; li++) {
		const char *p = text_line_ptr(t, li);
		size_t n = text_trim_end(p, t->lines[li].len), i = 0;

		while (i < n && is_blank(p[i]))
			i++;
		if (i == n)
			continue;
		if (p[i] != '\'' && !is_separator(p, n))
			return li;
		*any = 1;
	}
	return li;
}

/*
 * Whether the text from line li on holds nothing but blank lines, '/'
 * lines and comments, and some of them.
 */
static int
only_empty_left(const struct text *t, size_t li)
{
	int any = 0;

	return next_statement(t, li, &any) == t->nlines && any;
}

int
csa_has_record(const struct text *t)
{
	int any = 0;

	return next_statement(t, 0, &any) < t->nlines;
}

enum read_status
csa_read(struct reader *rd, struct record *out, struct diag_list *d)
{
	const struct variant *v = rd->v ? rd->v : variant_standard();
	struct empties e = { 0 };
	enum read_status rs;

	core_init();
	rs = read_past_empty(rd, out, d, v, &e);
	if (rs != READ_EOF)
		rd->nread++;
	empty_warning(d, &e);
	/*
	 * Empty records after the last one: their warning goes with it, as
	 * a caller stops at the end of the text and would never see it.
	 * Should reading them find anything else (a limit), it is left for
	 * the next call, as before.
	 */
	if (rs != READ_EOF && rs != READ_FATAL && rd->t &&
	    only_empty_left(rd->t, rd->line)) {
		struct empties tail = { 0 };
		struct record scratch;
		struct diag_list sd;
		size_t line = rd->line;

		record_init(&scratch, v);
		diag_list_init(&sd);
		if (read_past_empty(rd, &scratch, &sd, v, &tail) == READ_EOF) {
			empty_warning(d, &tail);
		} else {
			rd->line = line;
			rd->done = 0;
		}
		diag_list_release(&sd);
		record_release(&scratch);
	}
	return rs;
}

/*
 * Whether the four bytes at p are all decimal digits, tested at once: a
 * high nibble of 3, and a low one that 6 does not carry past 15.
 */
static inline int
four_digits(const char *p)
{
	uint32_t x;

	memcpy(&x, p, sizeof(x));
	return (x & 0xf0f0f0f0u) == 0x30303030u &&
	    (((x & 0x0f0f0f0fu) + 0x06060606u) & 0xf0f0f0f0u) == 0;
}

/* What a move line ("+7776FU", n > 1) says of the text being CSA. */
static inline int
move_score(const char *p, size_t n)
{
	if (n < 7 || !four_digits(p + 1))
		return -1;
	return piece_of(p + 5) != PT_NONE &&
	    (n == 7 || p[7] == ',' || is_blank(p[7])) ? 15 : -1;
}

/*
 * Evidence one line gives that the text is CSA; -1 if it speaks against.
 * Moves and times first: they are most of the lines detection reads.
 */
static int
line_score(const char *p, size_t n)
{
	size_t i;

	if (p[0] == 'T')
		return n >= 2 && is_digit(p[1]) ? 5 : -1;
	if (p[0] == '+' || p[0] == '-')
		return n == 1 ? 10 : move_score(p, n);
	switch (p[0]) {
	case '\'':
		return has_prefix(p, n, "'CSA encoding=") ? 40 : 0;
	case 'V':
		return n >= 2 && is_digit(p[1]) ? 50 : -1;
	case 'N':
		return n >= 2 && (p[1] == '+' || p[1] == '-') ? 10 : -1;
	case '$':
		return memchr(p, ':', n) && n > 2 && p[1] >= 'A' &&
		    p[1] <= 'Z' ? 10 : -1;
	case 'P':
		if (n >= 2 && p[1] == 'I')
			return 40;
		if (n >= 2 && p[1] >= '1' && p[1] <= '9')
			return n >= 20 ? 10 : -1;
		return n >= 2 && (p[1] == '+' || p[1] == '-') ? 5 : -1;
	case '%':
		for (i = 0; i < NELEM(terminals); i++)
			if (has_prefix(p + 1, n - 1, terminals[i].word))
				return 15;
		return -1;
	case '/':
		return n == 1 ? 5 : -1;
	default:
		return -1;
	}
}

int
csa_detect(const struct text *t)
{
	size_t i, lines = t->nlines < DETECT_LINES ? t->nlines : DETECT_LINES;
	int points = 0, good = 0, bad = 0;

	for (i = 0; i < lines; i++) {
		const char *p = text_line_ptr(t, i);
		size_t n = text_trim_end(p, t->lines[i].len);
		int s;

		if (n == 0)
			continue;
		if ((s = line_score(p, n)) < 0) {
			bad++;
			continue;
		}
		if (s > 0)
			good++;
		if (points < 100)
			points += s;
	}
	if (!good)
		return 0;
	if (points > 100)
		points = 100;
	return points * good / (good + bad);
}
