/*
 * bitboard.c - builds the attack tables on the 9x9 grid.
 *
 * Smaller boards reuse these tables: their off-board squares are walls
 * that stop sliders and are masked out of every target set.
 */
#include <stddef.h>

#include "bitboard.h"

bitboard bb_ray[DIR_NB][SQ_NB];
bitboard bb_between[SQ_NB][SQ_NB];
bitboard bb_line[SQ_NB][SQ_NB];
bitboard bb_step[COLOR_NB][PT_NB][SQ_NB];
bitboard bb_pseudo[COLOR_NB][PT_NB][SQ_NB];
bitboard bb_file[FILE_NB];
bitboard bb_rank[RANK_NB];

static const int dir_df[DIR_NB] = { 0, 0, -1, 1, -1, 1, 1, -1 };
static const int dir_dr[DIR_NB] = { -1, 1, 0, 0, -1, 1, -1, 1 };

/*
 * Step patterns as (file delta, forward delta) pairs for Black; forward
 * is towards rank a. White mirrors the forward delta.
 */
struct step {
	int n;
	int d[8][2];
};

static const struct step step_pawn = { 1, { { 0, 1 } } };
static const struct step step_knight = { 2, { { -1, 2 }, { 1, 2 } } };
static const struct step step_silver = { 5,
	{ { 0, 1 }, { -1, 1 }, { 1, 1 }, { -1, -1 }, { 1, -1 } } };
static const struct step step_gold = { 6,
	{ { 0, 1 }, { -1, 1 }, { 1, 1 }, { -1, 0 }, { 1, 0 }, { 0, -1 } } };
static const struct step step_king = { 8,
	{ { 0, 1 }, { -1, 1 }, { 1, 1 }, { -1, 0 }, { 1, 0 }, { 0, -1 },
	  { -1, -1 }, { 1, -1 } } };
static const struct step step_orth = { 4,
	{ { 0, 1 }, { -1, 0 }, { 1, 0 }, { 0, -1 } } };
static const struct step step_diag = { 4,
	{ { -1, 1 }, { 1, 1 }, { -1, -1 }, { 1, -1 } } };

static int
on_grid(int f, int r)
{
	return f >= 0 && f < FILE_NB && r >= 0 && r < RANK_NB;
}

static bitboard
steps(enum color c, square sq, const struct step *s)
{
	bitboard b = 0;
	int i;

	for (i = 0; i < s->n; i++) {
		int f = sq_file(sq) + s->d[i][0];
		int r = sq_rank(sq) + (c == BLACK ? -s->d[i][1] : s->d[i][1]);

		if (on_grid(f, r))
			b |= bb_sq(sq_make(f, r));
	}
	return b;
}

static const struct step *
step_of(enum piece_type pt)
{
	switch (pt) {
	case PT_PAWN:
		return &step_pawn;
	case PT_KNIGHT:
		return &step_knight;
	case PT_SILVER:
		return &step_silver;
	case PT_GOLD:
	case PT_PRO_PAWN:
	case PT_PRO_LANCE:
	case PT_PRO_KNIGHT:
	case PT_PRO_SILVER:
		return &step_gold;
	case PT_KING:
		return &step_king;
	case PT_HORSE:
		return &step_orth;
	case PT_DRAGON:
		return &step_diag;
	default:
		return NULL;
	}
}

void
bb_init(void)
{
	square a, b;
	int d, c, pt;

	for (a = 0; a < SQ_NB; a++) {
		bb_file[sq_file(a)] |= bb_sq(a);
		bb_rank[sq_rank(a)] |= bb_sq(a);
		for (d = 0; d < DIR_NB; d++) {
			int f = sq_file(a) + dir_df[d];
			int r = sq_rank(a) + dir_dr[d];
			bitboard ray = 0;

			for (; on_grid(f, r); f += dir_df[d], r += dir_dr[d]) {
				bitboard line;

				b = sq_make(f, r);
				ray |= bb_sq(b);
				bb_between[a][b] = ray & ~bb_sq(b);
				/* The full line: both rays from a plus a. */
				line = bb_sq(a);
				{
					int g = sq_file(a), s = sq_rank(a);

					for (g += dir_df[d], s += dir_dr[d];
					    on_grid(g, s);
					    g += dir_df[d], s += dir_dr[d])
						line |= bb_sq(sq_make(g, s));
					g = sq_file(a) - dir_df[d];
					s = sq_rank(a) - dir_dr[d];
					for (; on_grid(g, s);
					    g -= dir_df[d], s -= dir_dr[d])
						line |= bb_sq(sq_make(g, s));
				}
				bb_line[a][b] = line;
			}
			bb_ray[d][a] = ray;
		}
	}
	for (c = 0; c < COLOR_NB; c++) {
		for (pt = PT_PAWN; pt < PT_NB; pt++) {
			for (a = 0; a < SQ_NB; a++) {
				const struct step *s = step_of(pt);

				bb_step[c][pt][a] = s ? steps(c, a, s) : 0;
				bb_pseudo[c][pt][a] = bb_attacks(c, pt, a, 0);
			}
		}
	}
}
