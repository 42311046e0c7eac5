/*
 * tsume.c - mate modulo futile interpositions (see tsume.h).
 */
#include "movegen.h"
#include "rules.h"
#include "tsume.h"

/* Each drop shortens the line the next one may use: seven at most. */
#define MAX_INTERPOSITIONS 8
/*
 * Positions looked at before giving up (and saying "not mate"): every
 * drop of every piece kind on every square between, at every depth,
 * could otherwise cost billions in a constructed position.
 */
#define BUDGET 20000

static int mated(const struct position *pos, int depth, int *budget);

/*
 * Whether the attacker, to move in pos, can take the piece just dropped
 * on sq with a check that mates in the problem's sense.
 */
static int
recapture_mates(const struct position *pos, square sq, int depth,
    int *budget)
{
	struct move_list ml;
	int i;

	movegen_legal(pos, &ml);
	for (i = 0; i < ml.n; i++) {
		struct position next = *pos;
		struct undo u;

		if (move_is_drop(ml.m[i]) || move_to(ml.m[i]) != sq)
			continue;
		position_do_move(&next, ml.m[i], &u);
		if (position_in_check(&next) && mated(&next, depth - 1, budget))
			return 1;
	}
	return 0;
}

static int
mated(const struct position *pos, int depth, int *budget)
{
	struct move_list ml;
	int i;

	if (--*budget < 0 || !position_in_check(pos))
		return 0;
	movegen_legal(pos, &ml);
	if (ml.n == 0)
		return 1;
	if (depth == 0)
		return 0;
	/* In check, a legal drop can only block a slider. */
	for (i = 0; i < ml.n; i++) {
		struct position next = *pos;
		struct undo u;

		if (!move_is_drop(ml.m[i]))
			return 0;
		position_do_move(&next, ml.m[i], &u);
		if (!recapture_mates(&next, move_to(ml.m[i]), depth, budget))
			return 0;
	}
	return 1;
}

int
tsume_mated(const struct position *pos)
{
	int budget = BUDGET;

	return mated(pos, MAX_INTERPOSITIONS, &budget);
}
