/*
 * bitboard.h - sets of squares as one 128-bit integer, bit n = square n,
 * and the attack tables built on them.
 *
 * The tables are filled once by core_init() (core.h) and only read after
 * that, so any number of threads may use them.
 */
#ifndef KIFU_CORE_BITBOARD_H
#define KIFU_CORE_BITBOARD_H

#include "types.h"

__extension__ typedef unsigned __int128 bitboard;

#define BB_EMPTY ((bitboard)0)

static inline bitboard
bb_sq(square sq)
{
	return (bitboard)1 << sq;
}

static inline int
bb_test(bitboard b, square sq)
{
	return (int)((b >> sq) & 1);
}

static inline int
bb_any(bitboard b)
{
	return b != 0;
}

static inline int
bb_more_than_one(bitboard b)
{
	return (b & (b - 1)) != 0;
}

static inline square
bb_lsb(bitboard b)
{
	uint64_t lo = (uint64_t)b;

	return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(b >> 64));
}

static inline square
bb_msb(bitboard b)
{
	uint64_t hi = (uint64_t)(b >> 64);

	return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)b);
}

/* Removes and returns the lowest square of a non-empty set. */
static inline square
bb_pop(bitboard *b)
{
	square sq = bb_lsb(*b);

	*b &= *b - 1;
	return sq;
}

static inline int
bb_count(bitboard b)
{
	return __builtin_popcountll((uint64_t)b) +
	    __builtin_popcountll((uint64_t)(b >> 64));
}

/*
 * Ray directions. A "positive" direction walks to higher square numbers,
 * so the nearest blocker on it is the lowest set bit; a negative one uses
 * the highest.
 */
enum direction {
	DIR_N,			/* towards rank a (Black's forward), -1 */
	DIR_S,			/* +1 */
	DIR_E,			/* towards file 1, -9 */
	DIR_W,			/* +9 */
	DIR_NE,			/* -10 */
	DIR_SW,			/* +10 */
	DIR_NW,			/* +8 */
	DIR_SE,			/* -8 */
	DIR_NB
};

extern bitboard bb_ray[DIR_NB][SQ_NB];
/* Squares strictly between two squares on one line, else empty. */
extern bitboard bb_between[SQ_NB][SQ_NB];
/* The whole line through two squares (both included), else empty. */
extern bitboard bb_line[SQ_NB][SQ_NB];
/* Non-sliding attacks: the step part of every piece (sliders: none). */
extern bitboard bb_step[COLOR_NB][PT_NB][SQ_NB];
/* Attacks on an empty 9x9 board, sliders included. */
extern bitboard bb_pseudo[COLOR_NB][PT_NB][SQ_NB];
extern bitboard bb_file[FILE_NB];
extern bitboard bb_rank[RANK_NB];

void bb_init(void);

static inline bitboard
bb_ray_pos(enum direction d, square sq, bitboard occ)
{
	bitboard r = bb_ray[d][sq], b = r & occ;

	if (b)
		r ^= bb_ray[d][bb_lsb(b)];
	return r;
}

static inline bitboard
bb_ray_neg(enum direction d, square sq, bitboard occ)
{
	bitboard r = bb_ray[d][sq], b = r & occ;

	if (b)
		r ^= bb_ray[d][bb_msb(b)];
	return r;
}

static inline bitboard
bb_rook_attacks(square sq, bitboard occ)
{
	return bb_ray_neg(DIR_N, sq, occ) | bb_ray_pos(DIR_S, sq, occ) |
	    bb_ray_neg(DIR_E, sq, occ) | bb_ray_pos(DIR_W, sq, occ);
}

static inline bitboard
bb_bishop_attacks(square sq, bitboard occ)
{
	return bb_ray_neg(DIR_NE, sq, occ) | bb_ray_pos(DIR_SW, sq, occ) |
	    bb_ray_pos(DIR_NW, sq, occ) | bb_ray_neg(DIR_SE, sq, occ);
}

static inline bitboard
bb_lance_attacks(enum color c, square sq, bitboard occ)
{
	return c == BLACK ? bb_ray_neg(DIR_N, sq, occ) :
	    bb_ray_pos(DIR_S, sq, occ);
}

/*
 * Whether a piece of colour c and type pt on `from` attacks `to`: on its
 * empty-board set, with nothing between. Steps have nothing between
 * (a knight's jump is on no line), so this holds for every piece, and
 * costs two lookups where bb_attacks() walks up to four rays.
 */
static inline int
bb_reaches(enum color c, enum piece_type pt, square from, square to,
    bitboard occ)
{
	return bb_test(bb_pseudo[c][pt][from], to) &&
	    !bb_any(bb_between[from][to] & occ);
}

/* Squares a piece of colour c and type pt on sq attacks, given occupancy. */
static inline bitboard
bb_attacks(enum color c, enum piece_type pt, square sq, bitboard occ)
{
	switch (pt) {
	case PT_LANCE:
		return bb_lance_attacks(c, sq, occ);
	case PT_BISHOP:
		return bb_bishop_attacks(sq, occ);
	case PT_ROOK:
		return bb_rook_attacks(sq, occ);
	case PT_HORSE:
		return bb_bishop_attacks(sq, occ) | bb_step[c][pt][sq];
	case PT_DRAGON:
		return bb_rook_attacks(sq, occ) | bb_step[c][pt][sq];
	default:
		return bb_step[c][pt][sq];
	}
}

#endif /* KIFU_CORE_BITBOARD_H */
