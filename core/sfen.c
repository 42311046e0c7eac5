/*
 * sfen.c - SFEN reading and writing.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core.h"
#include "core_private.h"
#include "handicap.h"
#include "sfen.h"
#include "zobrist.h"

char
sfen_piece_letter(enum piece_type pt)
{
	static const char l[PT_KING + 1] = {
		0, 'P', 'L', 'N', 'S', 'B', 'R', 'G', 'K'
	};

	return pt >= PT_PAWN && pt <= PT_KING ? l[pt] : 0;
}

enum piece_type
sfen_letter_type(char c)
{
	switch (c | 0x20) {
	case 'p': return PT_PAWN;
	case 'l': return PT_LANCE;
	case 'n': return PT_KNIGHT;
	case 's': return PT_SILVER;
	case 'g': return PT_GOLD;
	case 'b': return PT_BISHOP;
	case 'r': return PT_ROOK;
	case 'k': return PT_KING;
	default: return PT_NONE;
	}
}

static enum sfen_status
fail(struct sfen_error *err, enum sfen_status st, const char *id,
    size_t offset, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->status = st;
		err->id = id;
		err->offset = offset;
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
		va_end(ap);
	}
	return st;
}

#define SYNTAX(off, ...) fail(err, SFEN_SYNTAX, "sfen-syntax", (off), __VA_ARGS__)

static int
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static enum sfen_status
read_board(struct position *pos, const char *s, size_t *i,
    struct sfen_error *err)
{
	const struct variant *v = pos->v;
	int rank = 0, file = v->files - 1;

	for (;;) {
		char c = s[*i];
		size_t at = *i;
		int promoted = 0;
		enum piece_type pt;

		if (c >= '1' && c <= '9') {
			file -= c - '0';
			if (file < -1)
				return SYNTAX(at, "rank %d has more than %d squares",
				    rank + 1, v->files);
			(*i)++;
			continue;
		}
		if (c == '/' || is_blank(c) || c == '\0') {
			if (file != -1)
				return SYNTAX(at, "rank %d has %d squares, not %d",
				    rank + 1, v->files - 1 - file, v->files);
			rank++;
			if (c != '/')
				break;
			if (rank == v->ranks)
				return SYNTAX(at, "board has more than %d ranks",
				    v->ranks);
			file = v->files - 1;
			(*i)++;
			continue;
		}
		if (c == '+') {
			promoted = 1;
			c = s[++(*i)];
		}
		pt = sfen_letter_type(c);
		if (pt == PT_NONE)
			return SYNTAX(*i, c ? "unexpected '%c' in board" :
			    "board ends after '+'", c);
		if (promoted && !pt_can_promote(pt))
			return SYNTAX(at, "'%c' cannot be promoted", c);
		if (file < 0)
			return SYNTAX(at, "rank %d has more than %d squares",
			    rank + 1, v->files);
		position_put(pos, sq_make(file, rank),
		    piece_make(c >= 'a' ? WHITE : BLACK,
			promoted ? pt | PT_PROMOTED : pt));
		file--;
		(*i)++;
	}
	if (rank != v->ranks)
		return SYNTAX(*i, "board has %d ranks, not %d", rank, v->ranks);
	return SFEN_OK;
}

static enum sfen_status
read_hands(struct position *pos, const char *s, size_t *i,
    struct sfen_error *err)
{
	if (s[*i] == '-') {
		(*i)++;
		if (s[*i] && !is_blank(s[*i]))
			return SYNTAX(*i, "unexpected '%c' after '-'", s[*i]);
		return SFEN_OK;
	}
	while (s[*i] && !is_blank(s[*i])) {
		size_t at = *i;
		int n = 1;
		enum piece_type pt;
		enum color c;

		if (s[*i] >= '0' && s[*i] <= '9') {
			n = 0;
			while (s[*i] >= '0' && s[*i] <= '9' && n < 100)
				n = n * 10 + (s[(*i)++] - '0');
			if (n < 1 || n > 99)
				return SYNTAX(at, "bad count in hands");
		}
		pt = sfen_letter_type(s[*i]);
		if (pt == PT_NONE || pt == PT_KING)
			return SYNTAX(*i, s[*i] ? "'%c' cannot be in hand" :
			    "hands end after a count", s[*i]);
		c = s[*i] >= 'a' ? WHITE : BLACK;
		if (pos->hand[c][pt])
			return SYNTAX(*i, "'%c' appears twice in hands", s[*i]);
		position_hand_set(pos, c, pt, n);
		(*i)++;
	}
	return SFEN_OK;
}

enum sfen_status
position_validate(const struct position *pos, struct sfen_error *err)
{
	const struct variant *v = pos->v;
	int count[PT_KING + 1] = { 0 };
	int kings[COLOR_NB] = { 0 };
	int pawn_files[COLOR_NB][FILE_NB] = { { 0 } };
	square sq;
	int c, pt;

	for (sq = 0; sq < SQ_NB; sq++) {
		piece p = pos->board[sq];
		enum piece_type t = piece_type_of(p);

		if (p == PIECE_NONE)
			continue;
		c = piece_color(p);
		count[pt_unpromoted(t)]++;
		if (t == PT_KING && ++kings[c] > 1)
			return fail(err, SFEN_IMPOSSIBLE, "two-kings", 0,
			    "%s has two kings", c == BLACK ? "black" : "white");
		if (bb_test(v->dead[c][t], sq))
			return fail(err, SFEN_IMPOSSIBLE, "dead-piece-on-board", 0,
			    "unpromoted '%c' on %d%c can never move",
			    c == BLACK ? sfen_piece_letter(t) :
			    sfen_piece_letter(t) | 0x20,
			    sq_file(sq) + 1, 'a' + sq_rank(sq));
		if (t == PT_PAWN && pawn_files[c][sq_file(sq)]++)
			return fail(err, SFEN_IMPOSSIBLE, "nifu-on-board", 0,
			    "two unpromoted %s pawns on file %d",
			    c == BLACK ? "black" : "white", sq_file(sq) + 1);
	}
	for (c = 0; c < COLOR_NB; c++)
		for (pt = PT_PAWN; pt < HAND_NB; pt++)
			count[pt] += pos->hand[c][pt];
	for (pt = PT_PAWN; pt <= PT_KING; pt++)
		if (count[pt] > v->set_count[pt])
			return fail(err, SFEN_IMPOSSIBLE, "too-many-pieces", 0,
			    "%d pieces of type '%c', the set has %d",
			    count[pt], sfen_piece_letter(pt), v->set_count[pt]);
	{
		enum color them = color_flip(pos->side);
		square k = pos->king[them];

		if (k != SQ_NONE &&
		    position_attackers(pos, k, pos->side, pos->occ))
			return fail(err, SFEN_IMPOSSIBLE,
			    "side-not-to-move-in-check", 0,
			    "%s is in check but it is %s to move",
			    them == BLACK ? "black" : "white",
			    pos->side == BLACK ? "black" : "white");
	}
	return SFEN_OK;
}

static enum sfen_status
read_prefix(struct position *pos, const struct variant *v,
    const char *s, size_t *consumed, struct sfen_error *err)
{
	enum sfen_status st;
	size_t i = 0;

	position_clear(pos, v);
	while (is_blank(s[i]))
		i++;
	if (strncmp(s + i, "sfen", 4) == 0 && is_blank(s[i + 4]))
		for (i += 4; is_blank(s[i]); i++)
			;
	if ((st = read_board(pos, s, &i, err)) != SFEN_OK)
		return st;
	while (is_blank(s[i]))
		i++;
	if ((s[i] != 'b' && s[i] != 'w') || (s[i + 1] && !is_blank(s[i + 1])))
		return SYNTAX(i, "side to move must be 'b' or 'w'");
	if (s[i] == 'w') {
		pos->side = WHITE;
		pos->board_key ^= zobrist_side;
	}
	i++;
	while (is_blank(s[i]))
		i++;
	if (!s[i])
		return SYNTAX(i, "hands missing (write '-' for none)");
	if ((st = read_hands(pos, s, &i, err)) != SFEN_OK)
		return st;
	*consumed = i;
	while (is_blank(s[i]))
		i++;
	/* The move number is optional; when present it is all digits. */
	if (s[i] >= '0' && s[i] <= '9') {
		size_t at = i;
		long n = 0;

		while (s[i] >= '0' && s[i] <= '9' && n < 100000000)
			n = n * 10 + (s[i++] - '0');
		if ((s[i] && !is_blank(s[i])) || n < 1 || n >= 100000000)
			return SYNTAX(at, "bad move number");
		pos->move_number = (int)n;
		*consumed = i;
	}
	return position_validate(pos, err);
}

enum sfen_status
sfen_read_prefix(struct position *pos, const struct variant *v,
    const char *s, size_t *consumed, struct sfen_error *err)
{
	core_init();
	return read_prefix(pos, v, s, consumed, err);
}

const struct variant *
sfen_board_variant(const char *s, size_t n)
{
	const struct variant *v[] = { variant_standard(), variant_minishogi() };
	size_t i = 0, k, ranks = 1;

	while (i < n && is_blank(s[i]))
		i++;
	if (n - i > 4 && memcmp(s + i, "sfen", 4) == 0 && is_blank(s[i + 4]))
		for (i += 4; i < n && is_blank(s[i]); i++)
			;
	for (; i < n && s[i] && !is_blank(s[i]); i++)
		ranks += s[i] == '/';
	for (k = 0; k < sizeof(v) / sizeof(v[0]); k++)
		if (ranks == (size_t)v[k]->ranks)
			return v[k];
	return NULL;
}

/* sfen_read without core_init(), for the tables core_init() builds. */
enum sfen_status
sfen_read_uninit(struct position *pos, const struct variant *v,
    const char *s, struct sfen_error *err)
{
	size_t n, i;
	enum sfen_status st = read_prefix(pos, v, s, &n, err);

	if (st == SFEN_SYNTAX)
		return st;
	for (i = n; is_blank(s[i]) || s[i] == '\n' || s[i] == '\r'; i++)
		;
	if (s[i])
		return SYNTAX(i, "unexpected text after the SFEN");
	return st;
}

enum sfen_status
sfen_read(struct position *pos, const struct variant *v, const char *s,
    struct sfen_error *err)
{
	core_init();
	return sfen_read_uninit(pos, v, s, err);
}

void
position_set_start(struct position *pos, const struct variant *v)
{
	/* A copy of the table core_init() built: records reset often. */
	handicap_position(v == variant_minishogi() ? HANDICAP_MINISHOGI :
	    HANDICAP_EVEN, pos);
}

/* Each piece's SFEN text, two bytes written, one or two used. */
static const char piece_text[PIECE_NB][2] = {
	[PT_PAWN] = "P", [PT_LANCE] = "L", [PT_KNIGHT] = "N",
	[PT_SILVER] = "S", [PT_BISHOP] = "B", [PT_ROOK] = "R",
	[PT_GOLD] = "G", [PT_KING] = "K",
	[PT_PRO_PAWN] = "+P", [PT_PRO_LANCE] = "+L", [PT_PRO_KNIGHT] = "+N",
	[PT_PRO_SILVER] = "+S", [PT_HORSE] = "+B", [PT_DRAGON] = "+R",
	[PIECE_WHITE + PT_PAWN] = "p", [PIECE_WHITE + PT_LANCE] = "l",
	[PIECE_WHITE + PT_KNIGHT] = "n", [PIECE_WHITE + PT_SILVER] = "s",
	[PIECE_WHITE + PT_BISHOP] = "b", [PIECE_WHITE + PT_ROOK] = "r",
	[PIECE_WHITE + PT_GOLD] = "g", [PIECE_WHITE + PT_KING] = "k",
	[PIECE_WHITE + PT_PRO_PAWN] = "+p", [PIECE_WHITE + PT_PRO_LANCE] = "+l",
	[PIECE_WHITE + PT_PRO_KNIGHT] = "+n",
	[PIECE_WHITE + PT_PRO_SILVER] = "+s",
	[PIECE_WHITE + PT_HORSE] = "+b", [PIECE_WHITE + PT_DRAGON] = "+r",
};

/* One rank's text at o (no NUL); returns its end. A table lookup a
   square: books and indexes write one for every position of a game. */
static char *
write_rank(const struct position *pos, int rank, char *o)
{
	int file, empty = 0;

	for (file = pos->v->files - 1; file >= 0; file--) {
		piece p = pos->board[sq_make(file, rank)];

		if (p == PIECE_NONE) {
			empty++;
			continue;
		}
		if (empty)
			*o++ = (char)('0' + empty);
		empty = 0;
		o[0] = piece_text[p][0];
		o[1] = piece_text[p][1];
		o += 1 + (o[0] == '+');
	}
	if (empty)
		*o++ = (char)('0' + empty);
	return o;
}

/* The board's text at o (no NUL); returns its end. */
static char *
write_board(const struct position *pos, char *o)
{
	int rank;

	for (rank = 0; rank < pos->v->ranks; rank++) {
		if (rank)
			*o++ = '/';
		o = write_rank(pos, rank, o);
	}
	return o;
}

void
sfen_write_board(const struct position *pos, char buf[SFEN_MAX])
{
	*write_board(pos, buf) = '\0';
}

/* n (>= 0) in decimal at o; returns its end. */
static char *
write_uint(char *o, unsigned n)
{
	char d[12];
	int k = 0;

	do
		d[k++] = (char)('0' + n % 10);
	while (n /= 10);
	while (k)
		*o++ = d[--k];
	return o;
}

/* The side and hands fields after the board, at o; returns the end. */
static char *
write_side_hands(const struct position *pos, char *o)
{
	static const enum piece_type order[] = {
		PT_ROOK, PT_BISHOP, PT_GOLD, PT_SILVER, PT_KNIGHT, PT_LANCE,
		PT_PAWN
	};
	int c, i, any = 0;

	*o++ = ' ';
	*o++ = pos->side == BLACK ? 'b' : 'w';
	*o++ = ' ';
	for (c = 0; c < COLOR_NB; c++) {
		for (i = 0; i < 7; i++) {
			int n = pos->hand[c][order[i]];

			if (!n)
				continue;
			any = 1;
			if (n > 1)
				o = write_uint(o, (unsigned)n);
			*o++ = piece_text[piece_make((enum color)c,
			    order[i])][0];
		}
	}
	if (!any)
		*o++ = '-';
	*o = '\0';
	return o;
}

size_t
sfen_write_key(const struct position *pos, char buf[SFEN_MAX])
{
	return (size_t)(write_side_hands(pos, write_board(pos, buf)) - buf);
}

void
sfen_key_cache_init(struct sfen_key_cache *c)
{
	memset(c, 0, sizeof(*c));
}

/*
 * Ranks whose squares differ from the cache's copy, as bits: the board
 * compared eight squares at a time, as a game changes two or three
 * squares a move.
 */
static unsigned
changed_ranks(const struct sfen_key_cache *c, const struct position *pos)
{
	unsigned ranks = 0;
	size_t i;

	for (i = 0; i + 8 <= SQ_NB; i += 8) {
		uint64_t x, y;

		memcpy(&x, pos->board + i, 8);
		memcpy(&y, c->board + i, 8);
		for (x ^= y; x; x &= x - 1)
			ranks |= 1u << sq_rank((square)(i +
			    (size_t)__builtin_ctzll(x) / 8));
	}
	for (; i < SQ_NB; i++)
		if (pos->board[i] != c->board[i])
			ranks |= 1u << sq_rank((square)i);
	return ranks;
}

size_t
sfen_write_key_cached(struct sfen_key_cache *c, const struct position *pos,
    char buf[SFEN_MAX])
{
	unsigned ranks = c->v == pos->v ? changed_ranks(c, pos) : ~0u;
	char *o = buf;
	int r;

	for (r = 0; r < pos->v->ranks; r++) {
		if (ranks & (1u << r))
			c->len[r] = (uint8_t)(write_rank(pos, r, c->rank[r]) -
			    c->rank[r]);
		if (r)
			*o++ = '/';
		memcpy(o, c->rank[r], c->len[r]);
		o += c->len[r];
	}
	memcpy(c->board, pos->board, SQ_NB);
	c->v = pos->v;
	return (size_t)(write_side_hands(pos, o) - buf);
}

void
sfen_write(const struct position *pos, char buf[SFEN_MAX])
{
	char *o = buf + sfen_write_key(pos, buf);

	*o++ = ' ';
	if (pos->move_number < 0) {	/* never made by kifu; kept exact */
		*o++ = '-';
		o = write_uint(o, 0u - (unsigned)pos->move_number);
	} else {
		o = write_uint(o, (unsigned)pos->move_number);
	}
	*o = '\0';
}

int
sfen_impossible_is_playable(const struct sfen_error *err)
{
	return err->status != SFEN_SYNTAX && strcmp(err->id, "two-kings") != 0;
}
