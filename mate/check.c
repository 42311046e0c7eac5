/*
 * check.c - judging a composed problem's solution (see check.h).
 */
#include <stdlib.h>
#include <string.h>

#include "core/movegen.h"
#include "core/xalloc.h"
#include "check.h"
#include "search.h"

#define TF_ROW(e, id, what, bad) { id, what, bad },
static const struct {
	const char *id, *text;
	int unsound;
} kinds[] = { TSUME_FINDINGS(TF_ROW) };
#undef TF_ROW

const char *
tsume_finding_id(enum tsume_finding_kind k)
{
	return kinds[k].id;
}

const char *
tsume_finding_text(enum tsume_finding_kind k)
{
	return kinds[k].text;
}

int
tsume_finding_unsound(enum tsume_finding_kind k)
{
	return kinds[k].unsound;
}

const char *
tsume_verdict_name(enum tsume_verdict v)
{
	switch (v) {
	case TSUME_SOUND: return "sound";
	case TSUME_UNSOUND: return "unsound";
	default: return "unknown";
	}
}

void
tsume_report_init(struct tsume_report *r)
{
	memset(r, 0, sizeof(*r));
	r->verdict = TSUME_UNKNOWN;
	r->exact = -1;
}

void
tsume_report_release(struct tsume_report *r)
{
	int i;

	for (i = 0; i < r->nf; i++)
		mate_line_release(&r->f[i].line);
	free(r->f);
	mate_line_release(&r->exact_line);
	tsume_report_init(r);
}

static struct tsume_finding *
add(struct tsume_report *r, enum tsume_finding_kind kind, int ply, move m,
    int length)
{
	struct tsume_finding *f;

	if (r->nf == r->af) {
		r->af = r->af ? 2 * r->af : 8;
		r->f = xreallocarray(r->f, (size_t)r->af, sizeof(*r->f));
	}
	f = &r->f[r->nf++];
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->ply = ply;
	f->m = m;
	f->length = length;
	return f;
}

/* One "undecided" a ply is enough. */
static void
undecided(struct tsume_report *r, int ply)
{
	if (r->nf && r->f[r->nf - 1].kind == TF_UNDECIDED &&
	    r->f[r->nf - 1].ply == ply)
		return;
	add(r, TF_UNDECIDED, ply, MOVE_NONE, -1);
}

/* The mate after m from pos (exact length len - 1 left), m first. */
static void
line_after(struct mate_ctx *c, const struct position *pos, move m, int len,
    struct mate_line *out)
{
	struct position q = *pos;
	struct mate_line sub = { 0, 0, NULL };
	struct undo u;
	int i;

	position_do_move(&q, m, &u);
	out->n = 0;
	if (mate_line_from(c, &q, len - 1, &sub) < 0)
		return;
	mate_line_push(out, m);
	for (i = 0; i < sub.n; i++)
		mate_line_push(out, sub.m[i]);
	mate_line_release(&sub);
}

/*
 * Whether the position after m (into *q) mates within bound, as
 * mate_within answers; an answer the limits cut is recorded as
 * undecided at the ply.
 */
static int
ask_after(struct mate_ctx *c, struct tsume_report *r,
    const struct position *pos, move m, int bound, int ply,
    struct position *q, int *len)
{
	struct undo u;
	int ret;

	*q = *pos;
	position_do_move(q, m, &u);
	ret = mate_within(c, q, bound, len);
	if (ret < 0)
		undecided(r, ply);
	return ret;
}

/*
 * Whether the other move m plays the solution's piece sol to another
 * square of the same line from the defender's king, or is sol with the
 * other promotion choice: 非限定 when as long (a distant drop at another
 * distance, a slider stopping short).
 */
static int
same_choice(const struct position *pos, move sol, move m)
{
	square k = pos->king[color_flip(pos->side)];

	if ((m ^ sol) == MOVE_PROMOTE && !move_is_drop(m))
		return 1;
	if (move_is_drop(m) != move_is_drop(sol) || k == SQ_NONE)
		return 0;
	if (move_is_drop(m) ? move_drop_type(m) != move_drop_type(sol) :
	    move_from(m) != move_from(sol) ||
	    move_is_promotion(m) != move_is_promotion(sol))
		return 0;
	/* Both on one ray from the king: the line between holds the nearer. */
	return bb_test(bb_line[k][move_to(sol)], move_to(m)) &&
	    (bb_test(bb_between[k][move_to(sol)], move_to(m)) ||
	    bb_test(bb_between[k][move_to(m)], move_to(sol)));
}

/*
 * Whether the line (from pos, k plies into the solution) comes back to
 * the solution's own position after as many moves: a transposition.
 */
static int
rejoins(const struct position *pos, const struct mate_line *line,
    const struct position *p, int k, int n)
{
	struct position q = *pos;
	int i;

	for (i = 0; i < line->n && k + i + 1 <= n; i++) {
		struct undo u;

		position_do_move(&q, line->m[i], &u);
		if (position_key(&q) == position_key(&p[k + i + 1]))
			return 1;
	}
	return 0;
}

/*
 * The attacker's move at ply k + 1 (rem plies left, the solution's
 * move sol): every other check that mates within rem - 1 after it.
 * Returns 1 when the solution's length is thereby not exact here (a
 * shorter mate, or a move that could not be judged).
 */
static int
attacker_ply(struct mate_ctx *c, struct tsume_report *r,
    const struct position *p, int k, int n, move sol)
{
	const struct position *pos = &p[k];
	struct move_list ml;
	int i, broken = 0, rem = n - k;

	movegen_legal(pos, &ml);
	for (i = 0; i < ml.n; i++) {
		struct tsume_finding *f;
		struct position q;
		int ret, len = 0;

		if (ml.m[i] == sol || !search_gives_check(pos, ml.m[i]))
			continue;
		ret = ask_after(c, r, pos, ml.m[i], rem - 1, k + 1, &q, &len);
		if (ret < 0) {
			broken = 1;
			continue;
		}
		if (ret == 0)
			continue;
		if (rem == 1) {
			add(r, TF_LAST_ALT, k + 1, ml.m[i], 1);
			continue;
		}
		ret = mate_exact(c, &q, rem - 1, &len);
		if (ret < 0) {
			undecided(r, k + 1);
			broken = 1;
			continue;
		}
		if (len + 1 < rem) {
			/* Shorter: a cook (早詰), whatever it looks like. */
			broken = 1;
			f = add(r, TF_COOK, k + 1, ml.m[i], len + 1);
			line_after(c, pos, ml.m[i], len + 1, &f->line);
			continue;
		}
		if (same_choice(pos, sol, ml.m[i])) {
			add(r, TF_CHOICE, k + 1, ml.m[i], rem);
			continue;
		}
		f = add(r, TF_COOK, k + 1, ml.m[i], rem);
		line_after(c, pos, ml.m[i], rem, &f->line);
		if (rejoins(pos, &f->line, p, k, n))
			f->kind = TF_TRANSPOSITION;
	}
	return broken;
}

/*
 * The defender's move at ply k + 1: every other reply, unless futile,
 * must mate within rem - 1 (else 変長, or 不詰); one that needs all of
 * it is 変同, counted from four plies before the end.
 */
static int
defender_ply(struct mate_ctx *c, struct tsume_report *r,
    const struct position *pos, move sol, int k, int rem)
{
	struct move_list ml;
	int i, broken = 0;

	movegen_legal(pos, &ml);
	for (i = 0; i < ml.n; i++) {
		struct position q;
		int ret, len = 0, futile = -2;

		if (ml.m[i] == sol)
			continue;
		ret = ask_after(c, r, pos, ml.m[i], rem - 1, k + 1, &q, &len);
		if (ret < 0) {
			broken = 1;
			continue;
		}
		if (ret == 1) {
			if (rem < 4)
				continue;
			ret = mate_within(c, &q, rem - 3, &len);
			if (ret < 0) {
				undecided(r, k + 1);
				continue;
			}
			if (ret == 1)
				continue;
			if (c->problem && move_is_drop(ml.m[i]) &&
			    (futile = search_futile(c, pos, ml.m[i], rem)) != 0) {
				if (futile < 0)
					undecided(r, k + 1);
				continue;
			}
			add(r, TF_EQUAL, k + 1, ml.m[i], rem);
			continue;
		}
		if (c->problem && move_is_drop(ml.m[i]) &&
		    (futile = search_futile(c, pos, ml.m[i],
		    MATE_MAX_PLY - 2)) != 0) {
			if (futile < 0) {
				undecided(r, k + 1);
				broken = 1;
			}
			continue;
		}
		broken = 1;
		ret = mate_exact(c, &q, MATE_MAX_PLY - 1, &len);
		if (ret < 0) {
			undecided(r, k + 1);
			continue;
		}
		if (ret == 0) {
			add(r, TF_ESCAPE, k + 1, ml.m[i], -1);
		} else {
			struct tsume_finding *f = add(r, TF_LONGER, k + 1,
			    ml.m[i], len + 1);

			line_after(c, pos, ml.m[i], len + 1, &f->line);
		}
	}
	/* The solution's own drop, if it does not count. */
	if (c->problem && move_is_drop(sol)) {
		int f = search_futile(c, pos, sol, broken ? MATE_MAX_PLY - 2 :
		    rem);

		if (f < 0) {
			undecided(r, k + 1);
			broken = 1;
		} else if (f) {
			add(r, TF_FUTILE, k + 1, sol, -1);
			broken = 1;
		}
	}
	return broken;
}

static int
hand_count(const struct position *pos, enum color c)
{
	int pt, n = 0;

	for (pt = PT_PAWN; pt < HAND_NB; pt++)
		n += pos->hand[c][pt];
	return n;
}

void
tsume_check(struct mate_ctx *c, const struct position *start,
    const move *sol, int n, int illegal_ply, enum mate_rules rules,
    const struct mate_limits *lim, const struct tsume_progress *progress,
    struct tsume_report *out)
{
	struct position *p;
	int k, basic = 0, broken = 0, i, unsound = 0, open = 0;

	tsume_report_release(out);
	out->length = n;
	mate_begin(c, start, rules, lim);
	p = xreallocarray(NULL, (size_t)n + 1, sizeof(*p));
	p[0] = *start;
	for (k = 0; k < n; k++) {
		struct undo u;

		p[k + 1] = p[k];
		position_do_move(&p[k + 1], sol[k], &u);
		if (k % 2 == 0 && !position_in_check(&p[k + 1])) {
			add(out, TF_NOT_CHECK, k + 1, sol[k], -1);
			basic = 1;
		}
	}
	if (illegal_ply) {
		add(out, TF_ILLEGAL, illegal_ply, MOVE_NONE, -1);
		basic = 1;
	} else if (n % 2 == 0 || !position_in_check(&p[n]) ||
	    !mate_is_mated(c, &p[n])) {
		add(out, TF_NOT_MATE, n, MOVE_NONE, -1);
		basic = 1;
	}
	if (!basic) {
		/* From the end: each position's length, once established, helps. */
		for (k = n - 1; k >= 0; k--) {
			int rem = n - k, b;

			if (k % 2 == 0)
				b = attacker_ply(c, out, p, k, n, sol[k]);
			else
				b = defender_ply(c, out, &p[k], sol[k], k, rem);
			broken |= b;
			if (!broken)
				mate_record_exact(c, &p[k], rem);
			if (progress && progress->fn)
				progress->fn(progress->ctx, k + 1, out);
		}
		if (hand_count(&p[n], start->side) > 0) {
			struct tsume_finding *f = add(out, TF_PIECES_LEFT, n,
			    MOVE_NONE, -1);

			f->pieces = hand_count(&p[n], start->side);
		}
	}
	if (!broken && !basic) {
		out->exact = n;
	} else {
		int len;

		if (mate_exact(c, start, MATE_MAX_PLY - 1, &len) == 1) {
			out->exact = len;
			if (mate_line_from(c, start, len, &out->exact_line) < 0 ||
			    !mate_line_replays(c, start, &out->exact_line))
				out->exact_line.n = 0;
		}
		if (out->exact >= 0 && out->exact != n)
			add(out, TF_LENGTH, 0, MOVE_NONE, out->exact);
	}
	for (i = 0; i < out->nf; i++) {
		if (tsume_finding_unsound(out->f[i].kind))
			unsound = 1;
		if (out->f[i].kind == TF_UNDECIDED)
			open = 1;
	}
	out->verdict = unsound ? TSUME_UNSOUND : open ? TSUME_UNKNOWN :
	    TSUME_SOUND;
	/* Found from the end; reported from the start (stable by ply). */
	for (i = 1; i < out->nf; i++) {
		struct tsume_finding f = out->f[i];
		int j = i;

		for (; j > 0 && out->f[j - 1].ply > f.ply; j--)
			out->f[j] = out->f[j - 1];
		out->f[j] = f;
	}
	out->nodes = mate_nodes(c);
	out->seconds = mate_seconds(c);
	free(p);
}
