/*
 * variant.c - the two boards kifu knows: standard shogi and minishogi.
 */
#include <string.h>

#include "core_private.h"
#include "variant.h"

static struct variant standard = {
	.name = "standard",
	.files = 9, .ranks = 9, .zone_ranks = 3,
	.set_count = { [PT_PAWN] = 18, [PT_LANCE] = 4, [PT_KNIGHT] = 4,
	    [PT_SILVER] = 4, [PT_BISHOP] = 2, [PT_ROOK] = 2, [PT_GOLD] = 4,
	    [PT_KING] = 2 },
	.start_sfen =
	    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
};

static struct variant minishogi = {
	.name = "minishogi",
	.files = 5, .ranks = 5, .zone_ranks = 1,
	.set_count = { [PT_PAWN] = 2, [PT_SILVER] = 2, [PT_BISHOP] = 2,
	    [PT_ROOK] = 2, [PT_GOLD] = 2, [PT_KING] = 2 },
	.start_sfen = "rbsgk/4p/5/P4/KGSBR b - 1",
};

static void
variant_fill(struct variant *v)
{
	square sq;
	int c;

	for (sq = 0; sq < SQ_NB; sq++) {
		if (sq_file(sq) < v->files && sq_rank(sq) < v->ranks)
			v->board |= bb_sq(sq);
	}
	v->wall = ~v->board & (bb_sq(SQ_NB) - 1);
	for (sq = 0; sq < SQ_NB; sq++) {
		if (!bb_test(v->board, sq))
			continue;
		for (c = 0; c < COLOR_NB; c++) {
			int rr = variant_relative_rank(v, c, sq);

			if (rr < v->zone_ranks)
				v->zone[c] |= bb_sq(sq);
			if (rr == 0) {
				v->dead[c][PT_PAWN] |= bb_sq(sq);
				v->dead[c][PT_LANCE] |= bb_sq(sq);
			}
			if (rr <= 1)
				v->dead[c][PT_KNIGHT] |= bb_sq(sq);
		}
	}
}

void
variant_init(void)
{
	variant_fill(&standard);
	variant_fill(&minishogi);
}

const struct variant *
variant_standard(void)
{
	return &standard;
}

const struct variant *
variant_minishogi(void)
{
	return &minishogi;
}

const struct variant *
variant_by_name(const char *name)
{
	if (strcmp(name, "standard") == 0 || strcmp(name, "shogi") == 0)
		return &standard;
	if (strcmp(name, "minishogi") == 0)
		return &minishogi;
	return NULL;
}
