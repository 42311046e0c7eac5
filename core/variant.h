/*
 * variant.h - board geometry and piece set as data, so that a smaller
 * board (minishogi) is a parameter of the core rather than a second core.
 *
 * Variants are static and read-only once core_init() has run; positions
 * borrow a pointer to one.
 */
#ifndef KIFU_CORE_VARIANT_H
#define KIFU_CORE_VARIANT_H

#include "bitboard.h"

struct variant {
	const char *name;	/* "standard", "minishogi" */
	int files, ranks;
	int zone_ranks;		/* depth of the promotion zone */
	bitboard board;		/* the squares of this board */
	bitboard wall;		/* grid squares outside the board */
	bitboard zone[COLOR_NB];
	/* Squares where an unpromoted piece of the type could never move. */
	bitboard dead[COLOR_NB][PT_NB];
	/* How many pieces of each unpromoted type the set holds (both sides). */
	int set_count[PT_KING + 1];
	const char *start_sfen;
};

/* Both return static variants; valid after core_init(). */
const struct variant *variant_standard(void);
const struct variant *variant_minishogi(void);
/* NULL for an unknown name. */
const struct variant *variant_by_name(const char *name);

/* The rank counted from the colour's own side: 0 is its far (last) rank. */
static inline int
variant_relative_rank(const struct variant *v, enum color c, square sq)
{
	return c == BLACK ? sq_rank(sq) : v->ranks - 1 - sq_rank(sq);
}

#endif /* KIFU_CORE_VARIANT_H */
