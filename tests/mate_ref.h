/*
 * mate_ref.h - a second, independent way to get the exact length of a
 * mate by checks, for the tests and the benchmark to check the solver
 * (mate/) against: a plain full-width search to a fixed depth, no
 * table, no proof numbers, and the core's own check test
 * (rules_gives_check) rather than the solver's.
 *
 * Under the game rules this is iterative deepening over "mate within d":
 * every check at an attacker node, every legal reply at a defender node.
 * Under the problem rules it computes the exact length by the definition
 * of doc/mate.md directly: a defender's drop is futile when the mate
 * after the recapture with the piece given back (any legal recapture
 * with check) is no longer than the longest mate after the defender's
 * other replies, and a futile drop does not count. Exponential: for
 * short mates only.
 */
#ifndef KIFU_TESTS_MATE_REF_H
#define KIFU_TESTS_MATE_REF_H

#include "core/movegen.h"
#include "core/rules.h"

#define REF_INF 1000000

struct ref_ctx {
	enum color attacker;
	int problem;
	uint64_t path[64];
	int ply;
	uint64_t nodes;
};

static int
ref_repeats(const struct ref_ctx *r, uint64_t key)
{
	int i;

	for (i = 0; i < r->ply; i++)
		if (r->path[i] == key)
			return 1;
	return 0;
}

static int ref_or(struct ref_ctx *r, const struct position *pos, int bound);

/* The exact length of an AND node's mate if at most bound, else REF_INF. */
static int
ref_and(struct ref_ctx *r, const struct position *pos, int bound)
{
	struct move_list ml;
	int i, lr = 0, best, have_real = 0;

	r->nodes++;
	if (movegen_legal(pos, &ml) == 0)
		return 0;
	if (bound < 2 && !r->problem)
		return REF_INF;
	/* The replies other than drops. */
	for (i = 0; i < ml.n; i++) {
		struct position q = *pos;
		struct undo u;
		int v;

		if (r->problem && move_is_drop(ml.m[i]))
			continue;
		have_real = 1;
		position_do_move(&q, ml.m[i], &u);
		if (ref_repeats(r, position_key(&q)))
			return REF_INF;
		r->path[r->ply++] = position_key(&q);
		v = bound >= 2 ? ref_or(r, &q, bound - 1) : REF_INF;
		r->ply--;
		if (v >= REF_INF)
			return REF_INF;
		if (v + 1 > lr)
			lr = v + 1;
	}
	if (!r->problem)
		return lr;
	(void)have_real;
	best = lr;
	for (i = 0; i < ml.n; i++) {
		struct position q = *pos, after;
		struct move_list xl;
		struct undo u;
		int v = REF_INF, j, futile = 0;

		if (!move_is_drop(ml.m[i]))
			continue;
		position_do_move(&q, ml.m[i], &u);
		after = q;
		if (bound >= 2 && !ref_repeats(r, position_key(&q))) {
			r->path[r->ply++] = position_key(&q);
			v = ref_or(r, &q, bound - 1);
			r->ply--;
		}
		if (v < REF_INF && v + 1 <= lr)
			continue;	/* not longer than the rest: moot */
		/* Futile? A recapture, the piece given back, mate within lr. */
		movegen_legal(&after, &xl);
		for (j = 0; j < xl.n && !futile; j++) {
			struct position s = after;
			enum piece_type pt = move_drop_type(ml.m[i]);
			enum color def = color_flip(r->attacker);
			int saved = r->ply;

			if (move_is_drop(xl.m[j]) ||
			    move_to(xl.m[j]) != move_to(ml.m[i]) ||
			    !rules_gives_check(&after, xl.m[j]))
				continue;
			position_do_move(&s, xl.m[j], &u);
			position_hand_set(&s, r->attacker, pt,
			    s.hand[r->attacker][pt] - 1);
			position_hand_set(&s, def, pt, s.hand[def][pt] + 1);
			/* A position of its own: no history. */
			r->ply = 0;
			r->path[r->ply++] = position_key(&s);
			if (ref_and(r, &s, lr) <= lr)
				futile = 1;
			r->ply = saved;
		}
		if (futile)
			continue;
		if (v >= REF_INF)
			return REF_INF;
		if (v + 1 > best)
			best = v + 1;
	}
	return best <= bound ? best : REF_INF;
}

/* The exact length of an OR node's mate if at most bound, else REF_INF. */
static int
ref_or(struct ref_ctx *r, const struct position *pos, int bound)
{
	struct move_list ml;
	int i, best = REF_INF;

	r->nodes++;
	if (bound < 1)
		return REF_INF;
	movegen_legal(pos, &ml);
	for (i = 0; i < ml.n; i++) {
		struct position q = *pos;
		struct undo u;
		int b = (best < REF_INF ? best - 2 : bound) - 1, v;

		if (b < 0)
			break;
		if (!rules_gives_check(pos, ml.m[i]))
			continue;
		position_do_move(&q, ml.m[i], &u);
		if (ref_repeats(r, position_key(&q)))
			continue;
		r->path[r->ply++] = position_key(&q);
		v = ref_and(r, &q, b);
		r->ply--;
		if (v < REF_INF && v + 1 < best)
			best = v + 1;
	}
	return best <= bound ? best : REF_INF;
}

/*
 * The exact length of the mate of pos (attacker to move) if at most
 * bound plies, else -1. pos must be prepared as the solver's are
 * (mate_prepare: the defender's hand under the problem rules).
 */
static int
ref_mate_length(const struct position *pos, int problem, int bound,
    uint64_t *nodes)
{
	struct ref_ctx r;
	int d, v = REF_INF;

	memset(&r, 0, sizeof(r));
	r.attacker = pos->side;
	r.problem = problem;
	for (d = 1; d <= bound && v >= REF_INF; d += 2) {
		r.ply = 0;
		r.path[r.ply++] = position_key(pos);
		v = ref_or(&r, pos, d);
	}
	if (nodes)
		*nodes = r.nodes;
	return v < REF_INF ? v : -1;
}

#endif /* KIFU_TESTS_MATE_REF_H */
