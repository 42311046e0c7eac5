/*
 * poscode.c - HCP and PackedSfen, from the tables of training.md 2 and 3.
 *
 * Every code is given as the number an "append the low n bits of v, least
 * significant bit first" routine takes, which is how cshogi and YaneuraOu
 * store them, so the tables below can be checked against training.md
 * entry by entry. Stream bit i is bit i % 8 of byte i / 8.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core.h"
#include "core_private.h"
#include "poscode.h"
#include "sfen.h"
#include "zobrist.h"

#define STREAM_BITS (POSCODE_BYTES * 8)

struct code {
	uint8_t value;
	uint8_t bits;		/* 0: no code */
};

/* One code family: board pieces, pieces in hand, pieces in the box. */
struct codes {
	struct code board[PIECE_NB];	/* by piece; kings have none */
	struct code hand[COLOR_NB][HAND_NB];	/* by unpromoted type */
	struct code box[HAND_NB];
};

#define W PIECE_WHITE

static const struct codes hcp_codes = {
	.board = {
		[PT_PAWN] = { 0x01, 4 }, [PT_LANCE] = { 0x03, 6 },
		[PT_KNIGHT] = { 0x07, 6 }, [PT_SILVER] = { 0x0B, 6 },
		[PT_GOLD] = { 0x0F, 6 }, [PT_BISHOP] = { 0x1F, 8 },
		[PT_ROOK] = { 0x3F, 8 },
		[PT_PRO_PAWN] = { 0x09, 4 }, [PT_PRO_LANCE] = { 0x23, 6 },
		[PT_PRO_KNIGHT] = { 0x27, 6 }, [PT_PRO_SILVER] = { 0x2B, 6 },
		[PT_HORSE] = { 0x9F, 8 }, [PT_DRAGON] = { 0xBF, 8 },
		[W | PT_PAWN] = { 0x05, 4 }, [W | PT_LANCE] = { 0x13, 6 },
		[W | PT_KNIGHT] = { 0x17, 6 }, [W | PT_SILVER] = { 0x1B, 6 },
		[W | PT_GOLD] = { 0x2F, 6 }, [W | PT_BISHOP] = { 0x5F, 8 },
		[W | PT_ROOK] = { 0x7F, 8 },
		[W | PT_PRO_PAWN] = { 0x0D, 4 },
		[W | PT_PRO_LANCE] = { 0x33, 6 },
		[W | PT_PRO_KNIGHT] = { 0x37, 6 },
		[W | PT_PRO_SILVER] = { 0x3B, 6 },
		[W | PT_HORSE] = { 0xDF, 8 }, [W | PT_DRAGON] = { 0xFF, 8 },
	},
	.hand = {
		[BLACK] = {
			[PT_PAWN] = { 0x00, 3 }, [PT_LANCE] = { 0x01, 5 },
			[PT_KNIGHT] = { 0x03, 5 }, [PT_SILVER] = { 0x05, 5 },
			[PT_GOLD] = { 0x07, 5 }, [PT_BISHOP] = { 0x1F, 7 },
			[PT_ROOK] = { 0x3F, 7 },
		},
		[WHITE] = {
			[PT_PAWN] = { 0x04, 3 }, [PT_LANCE] = { 0x11, 5 },
			[PT_KNIGHT] = { 0x13, 5 }, [PT_SILVER] = { 0x15, 5 },
			[PT_GOLD] = { 0x17, 5 }, [PT_BISHOP] = { 0x5F, 7 },
			[PT_ROOK] = { 0x7F, 7 },
		},
	},
	.box = {
		[PT_PAWN] = { 0x02, 3 }, [PT_LANCE] = { 0x09, 5 },
		[PT_KNIGHT] = { 0x0B, 5 }, [PT_SILVER] = { 0x0D, 5 },
		[PT_GOLD] = { 0x1D, 5 }, [PT_BISHOP] = { 0x0F, 7 },
		[PT_ROOK] = { 0x2F, 7 },
	},
};

static const struct codes psfen_codes = {
	.board = {
		[PT_PAWN] = { 0x01, 4 }, [PT_LANCE] = { 0x03, 6 },
		[PT_KNIGHT] = { 0x0B, 6 }, [PT_SILVER] = { 0x07, 6 },
		[PT_GOLD] = { 0x0F, 6 }, [PT_BISHOP] = { 0x1F, 8 },
		[PT_ROOK] = { 0x3F, 8 },
		[PT_PRO_PAWN] = { 0x05, 4 }, [PT_PRO_LANCE] = { 0x13, 6 },
		[PT_PRO_KNIGHT] = { 0x1B, 6 }, [PT_PRO_SILVER] = { 0x17, 6 },
		[PT_HORSE] = { 0x5F, 8 }, [PT_DRAGON] = { 0x7F, 8 },
		[W | PT_PAWN] = { 0x09, 4 }, [W | PT_LANCE] = { 0x23, 6 },
		[W | PT_KNIGHT] = { 0x2B, 6 }, [W | PT_SILVER] = { 0x27, 6 },
		[W | PT_GOLD] = { 0x2F, 6 }, [W | PT_BISHOP] = { 0x9F, 8 },
		[W | PT_ROOK] = { 0xBF, 8 },
		[W | PT_PRO_PAWN] = { 0x0D, 4 },
		[W | PT_PRO_LANCE] = { 0x33, 6 },
		[W | PT_PRO_KNIGHT] = { 0x3B, 6 },
		[W | PT_PRO_SILVER] = { 0x37, 6 },
		[W | PT_HORSE] = { 0xDF, 8 }, [W | PT_DRAGON] = { 0xFF, 8 },
	},
	.hand = {
		[BLACK] = {
			[PT_PAWN] = { 0x00, 3 }, [PT_LANCE] = { 0x01, 5 },
			[PT_KNIGHT] = { 0x05, 5 }, [PT_SILVER] = { 0x03, 5 },
			[PT_GOLD] = { 0x07, 5 }, [PT_BISHOP] = { 0x0F, 7 },
			[PT_ROOK] = { 0x1F, 7 },
		},
		[WHITE] = {
			[PT_PAWN] = { 0x04, 3 }, [PT_LANCE] = { 0x11, 5 },
			[PT_KNIGHT] = { 0x15, 5 }, [PT_SILVER] = { 0x13, 5 },
			[PT_GOLD] = { 0x17, 5 }, [PT_BISHOP] = { 0x4F, 7 },
			[PT_ROOK] = { 0x5F, 7 },
		},
	},
	.box = {
		[PT_PAWN] = { 0x02, 3 }, [PT_LANCE] = { 0x09, 5 },
		[PT_KNIGHT] = { 0x0D, 5 }, [PT_SILVER] = { 0x0B, 5 },
		[PT_GOLD] = { 0x1B, 5 }, [PT_BISHOP] = { 0x2F, 7 },
		[PT_ROOK] = { 0x3F, 7 },
	},
};

#undef W

/* Hands and the box are written in cshogi's HandPiece order. */
static const enum piece_type hand_order[] = {
	PT_PAWN, PT_LANCE, PT_KNIGHT, PT_SILVER, PT_GOLD, PT_BISHOP, PT_ROOK
};
#define NHAND (sizeof(hand_order) / sizeof(hand_order[0]))
/* A type's place in hand_order. */
static const int slot_of[HAND_NB] = {
	[PT_PAWN] = 0, [PT_LANCE] = 1, [PT_KNIGHT] = 2, [PT_SILVER] = 3,
	[PT_GOLD] = 4, [PT_BISHOP] = 5, [PT_ROOK] = 6
};

static const struct codes *
codes_of(enum poscode_kind k)
{
	return k == POSCODE_HCP ? &hcp_codes : &psfen_codes;
}

const char *
poscode_refusal_name(enum poscode_refusal r)
{
	switch (r) {
	case POSCODE_OK: return "ok";
	case POSCODE_VARIANT: return "variant";
	case POSCODE_NO_KING: return "no-king";
	case POSCODE_TOO_MANY: return "too-many-pieces";
	}
	return "ok";
}

/* ---- writing ----------------------------------------------------------- */

/*
 * The code is built from parts that each fit a 64-bit word: the header
 * (side and kings, 15 bits), each file's nine squares (kings take no bits
 * there, since their squares are in the header; a file holds at most the
 * four bishops and rooks at 8 bits and five pieces at 6: 62 bits), and
 * the hands and the box (at most 162 bits, three words). A move changes
 * one or two files, and the hands only when it captures or drops, so a
 * game's positions are encoded by redoing those parts and putting the 9
 * files and the spare words together (struct poscode_inc).
 */

/*
 * n codes of one hand or box slot in a row, as one number: hands hold
 * up to 18 pieces of a kind, 54 bits at most. Slots are hand_order's
 * indexes for Black's hand, then White's, then the box. Built once by
 * core_init() with the decoding tables, as are the board codes by piece
 * (kings and no piece 0 bits; the empty square 1).
 */
#define NSLOT (3 * 7)
#define SLOT_MAX 18
static uint64_t runs[2][NSLOT][SLOT_MAX + 1];
static uint8_t run_bits[2][NSLOT];
static struct code board_code[2][PIECE_NB];
static void pairs_init(void);

static struct code
slot_code(const struct codes *t, int slot)
{
	enum piece_type x = hand_order[slot % 7];

	return slot < 7 ? t->hand[BLACK][x] : slot < 14 ? t->hand[WHITE][x] :
	    t->box[x];
}

static void
runs_init(void)
{
	int k, slot, n, p;

	for (k = POSCODE_HCP; k <= POSCODE_PSFEN; k++) {
		const struct codes *t = codes_of((enum poscode_kind)k);

		for (slot = 0; slot < NSLOT; slot++) {
			struct code c = slot_code(t, slot);

			run_bits[k][slot] = c.bits;
			/* as many as the set has of the kind, no more */
			for (n = 1; n <= SLOT_MAX && c.bits * n <= 63; n++)
				runs[k][slot][n] = runs[k][slot][n - 1] |
				    (uint64_t)c.value << (c.bits * (n - 1));
		}
		board_code[k][PIECE_NONE].bits = 1;	/* the empty bit, 0 */
		for (p = 1; p < PIECE_NB; p++)
			board_code[k][p] = t->board[p];
	}
	pairs_init();
}

/*
 * Bits appended to words, least significant first: a value of up to 64
 * bits goes into the word the stream is in and what crosses into the
 * next, with no branch; w has a word of room past the stream's end.
 */
struct bits_out {
	uint64_t w[POSCODE_BYTES / 8 + 2];
	unsigned n;		/* bits so far */
};

/* Appends the low `bits` bits of v (bits <= 64, v has no others). */
static inline void
put(struct bits_out *b, uint64_t v, unsigned bits)
{
	unsigned i = b->n >> 6, sh = b->n & 63;

	b->w[i] |= v << sh;
	b->w[i + 1] |= (v >> 1) >> (63 - sh);
	b->n += bits;
}

/*
 * A file's squares two at a time: for each pair of pieces (5 bits
 * each), their two codes as one value (low 16 bits) and its length.
 */
static uint32_t pair_code[2][PIECE_NB * PIECE_NB];
static uint32_t one_code[2][PIECE_NB];

static void
pairs_init(void)
{
	int k, a, b;

	for (k = POSCODE_HCP; k <= POSCODE_PSFEN; k++)
		for (a = 0; a < PIECE_NB; a++) {
			one_code[k][a] = board_code[k][a].value |
			    (uint32_t)board_code[k][a].bits << 16;
			for (b = 0; b < PIECE_NB; b++) {
				struct code x = board_code[k][a];
				struct code y = board_code[k][b];

				pair_code[k][a | b << 5] = ((uint32_t)x.value |
				    (uint32_t)y.value << x.bits) |
				    (uint32_t)(x.bits + y.bits) << 16;
			}
		}
}

/* The code of file f's nine squares into s->file[f], s->file_bits[f]. */
static inline void
encode_file(struct poscode_inc *s, int f)
{
	const uint32_t *pc = pair_code[s->kind];
	const uint8_t *sq = s->board + 9 * f;
	uint32_t e0 = pc[sq[0] | sq[1] << 5], e1 = pc[sq[2] | sq[3] << 5];
	uint32_t e2 = pc[sq[4] | sq[5] << 5], e3 = pc[sq[6] | sq[7] << 5];
	uint32_t e4 = one_code[s->kind][sq[8]];
	uint64_t v;

	/* from the last square down, so that each pair goes below */
	v = e4 & 0xffff;
	v = v << (e3 >> 16) | (e3 & 0xffff);
	v = v << (e2 >> 16) | (e2 & 0xffff);
	v = v << (e1 >> 16) | (e1 & 0xffff);
	v = v << (e0 >> 16) | (e0 & 0xffff);
	s->file[f] = v;
	s->file_bits[f] = (uint8_t)((e0 >> 16) + (e1 >> 16) + (e2 >> 16) +
	    (e3 >> 16) + (e4 >> 16));
}

/*
 * Black's hand, White's, then the box, into s->spare: only the slots
 * that hold a piece (s->held), in hand_order.
 */
static void
encode_spare(struct poscode_inc *s)
{
	struct bits_out b;
	uint32_t m;

	memset(&b, 0, sizeof(b));
	for (m = s->held; m; m &= m - 1) {
		int slot = __builtin_ctz(m), pieces = s->count[slot];

		put(&b, runs[s->kind][slot][pieces],
		    (unsigned)pieces * run_bits[s->kind][slot]);
	}
	memcpy(s->spare, b.w, sizeof(s->spare));
	s->spare_bits = b.n;
	s->spare_dirty = 0;
}

/* The unpromoted type's pieces on the board. */
static inline int
on_board(const struct position *pos, enum piece_type pt)
{
	bitboard b = pos->by_type[pt];

	if (pt_can_promote(pt))
		b |= pos->by_type[pt | PT_PROMOTED];
	return bb_count(b);
}

enum poscode_refusal
poscode_inc_start(struct poscode_inc *s, enum poscode_kind k,
    const struct position *pos)
{
	const struct variant *v = pos->v;
	square kb = pos->king[BLACK], kw = pos->king[WHITE];
	size_t i;
	int f, c;

	if (v != variant_standard())
		return POSCODE_VARIANT;
	if (kb == SQ_NONE || kw == SQ_NONE)
		return POSCODE_NO_KING;
	if (bb_count(pos->by_type[PT_KING]) != 2)	/* a third king */
		return POSCODE_TOO_MANY;
	for (i = 0; i < NHAND; i++) {
		enum piece_type x = hand_order[i];
		int count = on_board(pos, x) + pos->hand[BLACK][x] +
		    pos->hand[WHITE][x];

		if (count > v->set_count[x])
			return POSCODE_TOO_MANY;
		s->count[14 + i] = (uint8_t)(v->set_count[x] - count);
		for (c = 0; c < COLOR_NB; c++)
			s->count[7 * c + (int)i] = pos->hand[c][x];
	}
	s->held = 0;
	for (i = 0; i < NSLOT; i++)
		if (s->count[i])
			s->held |= 1u << i;
	s->kind = k;
	s->side = pos->side;
	s->king[BLACK] = (uint8_t)kb;
	s->king[WHITE] = (uint8_t)kw;
	memcpy(s->board, pos->board, sizeof(s->board));
	for (f = 0; f < FILE_NB; f++)
		encode_file(s, f);
	encode_spare(s);
	return POSCODE_OK;
}

void
poscode_inc_move(struct poscode_inc *s, move m)
{
	square to = move_to(m);
	enum color us = s->side;

	if (move_is_drop(m)) {
		int slot = 7 * us + slot_of[move_drop_type(m)];

		if (!--s->count[slot])
			s->held &= ~(1u << slot);
		s->board[to] = (uint8_t)move_piece(m);
		s->spare_dirty = 1;
	} else {
		square from = move_from(m);
		piece p = s->board[from], cap = s->board[to];

		if (cap != PIECE_NONE) {
			enum piece_type ct = pt_unpromoted(piece_type_of(cap));

			/* A legal move never takes a king; keep hands sane. */
			if (ct != PT_KING) {
				int slot = 7 * us + slot_of[ct];

				s->count[slot]++;
				s->held |= 1u << slot;
			}
			s->spare_dirty = 1;
		}
		s->board[from] = PIECE_NONE;
		s->board[to] = (uint8_t)(move_is_promotion(m) ?
		    p | PT_PROMOTED : p);
		if (piece_type_of(p) == PT_KING)
			s->king[us] = (uint8_t)to;
		if (sq_file(from) != sq_file(to))
			encode_file(s, sq_file(from));
	}
	encode_file(s, sq_file(to));
	s->side = color_flip(us);
}

/*
 * Appends v (bits <= 64, nothing above) to the word being filled, *n
 * bits of it used; a full word goes to *w. Two shifts cover what
 * crosses into the next word, with nothing for a value that fits.
 */
static inline void
put_word(uint64_t **w, uint64_t *cur, unsigned *n, uint64_t v,
    unsigned bits)
{
	*cur |= v << *n;
	if (*n + bits >= 64) {
		*(*w)++ = *cur;
		*cur = (v >> 1) >> (63 - *n);
		*n = *n + bits - 64;
	} else {
		*n += bits;
	}
}

enum poscode_refusal
poscode_inc_write(struct poscode_inc *s, uint8_t out[POSCODE_BYTES])
{
	/* room for any file lengths: a wrong state stays inside */
	uint64_t w[16], *p = w, cur;
	unsigned n = 15, left;
	int f;

	if (s->spare_dirty)
		encode_spare(s);
	cur = (uint64_t)s->side | (uint64_t)s->king[BLACK] << 1 |
	    (uint64_t)s->king[WHITE] << 8;
	for (f = 0; f < FILE_NB; f++)
		put_word(&p, &cur, &n, s->file[f], s->file_bits[f]);
	for (f = 0, left = s->spare_bits; left; f++) {
		unsigned bits = left < 64 ? left : 64;

		put_word(&p, &cur, &n, s->spare[f], bits);
		left -= bits;
	}
	/* Cannot fail once the counts are in; kept as the last guard. */
	if (p != w + POSCODE_BYTES / 8 || n != 0)
		return POSCODE_TOO_MANY;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(out, w, POSCODE_BYTES);
#else
	for (f = 0; f < POSCODE_BYTES; f++)
		out[f] = (uint8_t)(w[f / 8] >> (8 * (f % 8)));
#endif
	return POSCODE_OK;
}

enum poscode_refusal
poscode_encode(enum poscode_kind k, const struct position *pos,
    uint8_t out[POSCODE_BYTES])
{
	struct poscode_inc s;
	enum poscode_refusal r = poscode_inc_start(&s, k, pos);

	return r != POSCODE_OK ? r : poscode_inc_write(&s, out);
}

/* ---- reading ----------------------------------------------------------- */

/*
 * Decoding looks a code up by the 8 bits it starts (no code is longer):
 * for each 8-bit value, the length of the code it starts (0: none) and
 * what the code stands for. Board entries hold the piece (PIECE_NONE for
 * the empty-square bit); hand and box entries the type, plus 16 times
 * the colour, SPARE_BOX for the box. Built once by core_init().
 */
struct lut_entry {
	uint8_t bits;
	uint8_t what;
};

#define SPARE_BOX 2

static struct lut_entry board_lut[2][256], spare_lut[2][256];

static void
fill(struct lut_entry *lut, struct code c, unsigned what)
{
	unsigned hi;

	for (hi = 0; hi < 1u << (8 - c.bits); hi++) {
		lut[c.value | hi << c.bits].bits = c.bits;
		lut[c.value | hi << c.bits].what = (uint8_t)what;
	}
}

void
poscode_init(void)
{
	static const struct code empty = { 0x00, 1 };
	int k, p, c;
	size_t i;

	runs_init();
	for (k = POSCODE_HCP; k <= POSCODE_PSFEN; k++) {
		const struct codes *t = codes_of((enum poscode_kind)k);

		fill(board_lut[k], empty, PIECE_NONE);
		for (p = 1; p < PIECE_NB; p++)
			if (t->board[p].bits)
				fill(board_lut[k], t->board[p], (unsigned)p);
		for (i = 0; i < NHAND; i++) {
			enum piece_type x = hand_order[i];

			for (c = 0; c < COLOR_NB; c++)
				fill(spare_lut[k], t->hand[c][x],
				    x | (unsigned)c << 4);
			fill(spare_lut[k], t->box[x], x | SPARE_BOX << 4);
		}
	}
}

struct bits_in {
	const uint8_t *p;
	unsigned n;		/* bits read */
};

/* The next `bits` bits (at most 8) as a number; zeros past the stream. */
static inline unsigned
peek(const struct bits_in *b, unsigned bits)
{
	unsigned i = b->n >> 3, w;

	if (b->n >= STREAM_BITS)
		return 0;
	w = b->p[i];
	if (i + 1 < POSCODE_BYTES)
		w |= (unsigned)b->p[i + 1] << 8;
	return (w >> (b->n & 7)) & ((1u << bits) - 1);
}

static int
fail(struct poscode_error *err, const char *id, int bit, const char *fmt,
    ...) __attribute__((format(printf, 4, 5)));

static int
fail(struct poscode_error *err, const char *id, int bit, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->id = id;
		err->bit = bit;
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
		va_end(ap);
	}
	return -1;
}

static const char *
kind_name(enum poscode_kind k)
{
	return k == POSCODE_HCP ? "HCP" : "PackedSfen";
}

/*
 * The code the next bits start with, found by the 8 bits from the
 * reader's place: its entry, or bits 0 when no code starts so (*missing
 * says whether one would, but runs past bit 256).
 */
static struct lut_entry
lookup(const struct lut_entry *lut, const struct bits_in *b, int *missing)
{
	unsigned left = STREAM_BITS - b->n, w = peek(b, 8), pad;
	struct lut_entry none = { 0, 0 }, e = lut[w];

	*missing = 0;
	if (left >= 8 || (e.bits && e.bits <= left))
		return e;
	for (pad = 0; pad < 1u << (8 - left); pad++)
		if (lut[w | pad << left].bits > left)
			*missing = 1;
	return none;
}

/* A board square: PIECE_NONE for the empty-square bit, else the piece. */
static int
read_square(enum poscode_kind k, struct bits_in *b, piece *out,
    struct poscode_error *err)
{
	int missing;
	struct lut_entry e = lookup(board_lut[k], b, &missing);

	if (e.bits) {
		b->n += e.bits;
		*out = e.what;
		return 0;
	}
	if (missing)
		return fail(err, "bits-missing", (int)b->n, "the %s ends inside "
		    "a board square's code (bit %u)", kind_name(k), b->n);
	return fail(err, "bad-code", (int)b->n, "bits at %u are no board "
	    "code of %s", b->n, kind_name(k));
}

/*
 * A hand or box code: *color is BLACK or WHITE for a hand, -1 for the
 * box; *pt the unpromoted type.
 */
static int
read_spare(enum poscode_kind k, struct bits_in *b, int *color,
    enum piece_type *pt, struct poscode_error *err)
{
	int missing;
	struct lut_entry e = lookup(spare_lut[k], b, &missing);

	if (e.bits) {
		b->n += e.bits;
		*pt = (enum piece_type)(e.what & 15);
		*color = (e.what >> 4) == SPARE_BOX ? -1 : e.what >> 4;
		return 0;
	}
	if (missing)
		return fail(err, "bits-missing", (int)b->n, "the %s ends inside "
		    "a hand or box code (bit %u)", kind_name(k), b->n);
	return fail(err, "bad-code", (int)b->n, "bits at %u are no hand or "
	    "box code of %s", b->n, kind_name(k));
}

int
poscode_decode(enum poscode_kind k, const uint8_t in[POSCODE_BYTES],
    struct position *pos, struct poscode_error *err)
{
	const struct variant *v = variant_standard();
	int count[PT_KING + 1] = { 0 };
	uint8_t hand[COLOR_NB][HAND_NB] = { { 0 } };
	piece board[SQ_NB] = { 0 };
	struct bits_in b = { in, 0 };
	struct sfen_error se;
	square sq, kb, kw;
	enum color side;
	size_t i;
	int c = 0;

	core_init();		/* the variant's tables, as sfen_read does */
	side = (enum color)peek(&b, 1);
	b.n = 1;
	kb = (square)peek(&b, 7);
	b.n = 8;
	kw = (square)peek(&b, 7);
	b.n = 15;
	if (kb == SQ_NONE || kw == SQ_NONE)
		return fail(err, "no-king", kb == SQ_NONE ? 1 : 8, "%s king "
		    "missing (square 81): such a position takes 257 bits",
		    kb == SQ_NONE ? "Black's" : "White's");
	if (kb > SQ_NONE || kw > SQ_NONE)
		return fail(err, "bad-king-square", kb > SQ_NONE ? 1 : 8,
		    "%s king on square %d (0-80)", kb > SQ_NONE ? "Black's" :
		    "White's", kb > SQ_NONE ? kb : kw);
	if (kb == kw)
		return fail(err, "bad-king-square", 8, "both kings on square "
		    "%d", kb);
	for (sq = 0; sq < SQ_NB; sq++) {
		piece p = PIECE_NONE;

		if (sq == kb || sq == kw)
			continue;
		unsigned at = b.n;
		enum piece_type pt;

		if (read_square(k, &b, &p, err) < 0)
			return -1;
		board[sq] = (piece)p;
		if (p == PIECE_NONE)
			continue;
		pt = pt_unpromoted(piece_type_of(p));
		if (++count[pt] > v->set_count[pt])
			return fail(err, "too-many-pieces", (int)at, "%d pieces "
			    "of type '%c' (bit %u), the set has %d", count[pt],
			    sfen_piece_letter(pt), at, v->set_count[pt]);
	}
	while (b.n < STREAM_BITS) {
		enum piece_type pt = PT_NONE;
		unsigned at = b.n;

		if (read_spare(k, &b, &c, &pt, err) < 0)
			return -1;
		if (++count[pt] > v->set_count[pt])
			return fail(err, "too-many-pieces", (int)at, "%d pieces "
			    "of type '%c' (bit %u), the set has %d", count[pt],
			    sfen_piece_letter(pt), at, v->set_count[pt]);
		if (c >= 0)
			hand[c][pt]++;
	}
	/* The bit count makes this impossible; kept as a guard. */
	for (i = 0; i < NHAND; i++)
		if (count[hand_order[i]] != v->set_count[hand_order[i]])
			return fail(err, "pieces-missing", STREAM_BITS, "%d "
			    "pieces of type '%c', a set has %d",
			    count[hand_order[i]],
			    sfen_piece_letter(hand_order[i]),
			    v->set_count[hand_order[i]]);
	position_clear(pos, v);
	position_put(pos, kb, piece_make(BLACK, PT_KING));
	position_put(pos, kw, piece_make(WHITE, PT_KING));
	for (sq = 0; sq < SQ_NB; sq++)
		if (board[sq] != PIECE_NONE)
			position_put(pos, sq, board[sq]);
	for (c = 0; c < COLOR_NB; c++)
		for (i = 0; i < NHAND; i++)
			if (hand[c][hand_order[i]])
				position_hand_set(pos, (enum color)c,
				    hand_order[i], hand[c][hand_order[i]]);
	if (side == WHITE) {
		pos->side = WHITE;
		pos->board_key ^= zobrist_side;
	}
	if (position_validate(pos, &se) != SFEN_OK)
		return fail(err, se.id, -1, "impossible position: %s",
		    se.message);
	return 0;
}
