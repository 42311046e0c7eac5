/*
 * matchtally.c - the count of an engine match (matchtally.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "matchtally.h"
#include "core/xalloc.h"

void
match_tallies_init(struct match_tallies *ts)
{
	memset(ts, 0, sizeof(*ts));
}

void
match_tallies_release(struct match_tallies *ts)
{
	size_t i;

	for (i = 0; i < ts->n; i++)
		free(ts->v[i].pend);
	free(ts->v);
	match_tallies_init(ts);
}

struct match_tally *
match_tallies_find(const struct match_tallies *ts, int a, int b)
{
	size_t i;

	for (i = 0; i < ts->n; i++)
		if ((ts->v[i].a == a && ts->v[i].b == b) ||
		    (ts->v[i].a == b && ts->v[i].b == a))
			return &ts->v[i];
	return NULL;
}

struct match_tally *
match_tallies_get(struct match_tallies *ts, int a, int b)
{
	struct match_tally *t = match_tallies_find(ts, a, b);

	if (t)
		return t;
	ALLOC_GROW(ts->v, ts->n + 1, ts->alloc);
	t = &ts->v[ts->n++];
	memset(t, 0, sizeof(*t));
	t->a = a;
	t->b = b;
	return t;
}

struct match_tally *
match_tallies_add(struct match_tallies *ts, int black, int white,
    int black_half, long long source, long long pair)
{
	struct match_tally *t = match_tallies_get(ts, black, white);
	int a_black = t->a == black;

	match_tally_add(t, a_black, a_black ? black_half : 2 - black_half,
	    source, pair);
	return t;
}

void
match_tally_add(struct match_tally *t, int a_black, int a_half,
    long long source, long long pair)
{
	int k = a_half == 2 ? 0 : a_half == 1 ? 1 : 2;
	size_t i;

	if (k == 0)
		t->w++;
	else if (k == 1)
		t->d++;
	else
		t->l++;
	t->color[a_black ? BLACK : WHITE][k]++;
	if (pair < 0)
		return;
	for (i = 0; i < t->npend; i++)
		if (t->pend[i].source == source && t->pend[i].pair == pair) {
			t->pairs[elo_pair_class(t->pend[i].half, a_half)]++;
			t->pend[i] = t->pend[--t->npend];
			return;
		}
	ALLOC_GROW(t->pend, t->npend + 1, t->apend);
	t->pend[t->npend].source = source;
	t->pend[t->npend].pair = pair;
	t->pend[t->npend++].half = a_half;
}

long long
match_tally_games(const struct match_tally *t)
{
	return t->w + t->d + t->l;
}

long long
match_tally_npairs(const struct match_tally *t)
{
	long long n = 0;
	int i;

	for (i = 0; i < PAIR_NB; i++)
		n += t->pairs[i];
	return n;
}

void
match_tally_elo(const struct match_tally *t, struct elo_estimate *e)
{
	if (match_tally_npairs(t))
		elo_pentanomial(t->pairs, e);
	else
		elo_trinomial(t->w, t->d, t->l, e);
}

double
match_tally_llr(const struct match_tally *t, const struct sprt *s)
{
	return match_tally_npairs(t) ? sprt_llr_pentanomial(s, t->pairs) :
	    sprt_llr_trinomial(s, t->w, t->d, t->l);
}

int
match_tally_sprt(struct match_tally *t, const struct sprt *s)
{
	double llr;
	enum sprt_verdict v;

	if (t->sprt_done || t->npend)
		return 0;
	llr = match_tally_llr(t, s);
	if ((v = sprt_verdict(s, llr)) == SPRT_CONTINUE)
		return 0;
	t->sprt_done = 1;
	t->verdict = v;
	t->verdict_llr = llr;
	t->verdict_games = match_tally_games(t);
	return 1;
}

static void
sprt_text(const struct match_tally *t, const struct sprt *s,
    struct strbuf *out)
{
	double lo, hi, llr = match_tally_llr(t, s);
	enum sprt_verdict v = t->sprt_done ? t->verdict : sprt_verdict(s, llr);

	sprt_bounds(s, &lo, &hi);
	strbuf_addf(out, "  SPRT elo0 %g, elo1 %g, alpha %g, beta %g (%s): "
	    "LLR %.3f [%.3f, %.3f]: %s\n", s->elo0, s->elo1, s->alpha,
	    s->beta, s->model == SPRT_NORMALIZED ? "normalized" : "logistic",
	    llr, lo, hi, v == SPRT_H1 ? "H1 accepted" : v == SPRT_H0 ?
	    "H0 accepted" : "continue");
	if (t->sprt_done)
		strbuf_addf(out, "  (the match stopped on it after %lld "
		    "games, LLR %.3f)\n", t->verdict_games, t->verdict_llr);
}

void
match_tally_text(const struct match_tally *t, const char *na,
    const char *nb, const struct sprt *s, struct strbuf *out)
{
	struct elo_estimate e;
	long long n = match_tally_games(t), np = match_tally_npairs(t);
	const char *model = np ? "pentanomial" : "trinomial";
	double draws;

	strbuf_addf(out, "%s vs %s: %lld game%s, +%lld =%lld -%lld, score "
	    "%.1f%%\n", na, nb, n, n == 1 ? "" : "s", t->w, t->d, t->l, n ?
	    100.0 * ((double)t->w + (double)t->d / 2) / (double)n : 0.0);
	strbuf_addf(out, "  %s as Black +%lld =%lld -%lld, as White +%lld "
	    "=%lld -%lld\n", na, t->color[BLACK][0], t->color[BLACK][1],
	    t->color[BLACK][2], t->color[WHITE][0], t->color[WHITE][1],
	    t->color[WHITE][2]);
	if (!n)
		return;
	match_tally_elo(t, &e);
	draws = 100.0 * (double)t->d / (double)n;
	/* + 0.0: a score of exactly half prints +0.0, never -0.0 */
	if (e.finite && !isfinite(e.elo95))
		strbuf_addf(out, "  Elo %+.1f +- inf, nElo %+.1f +- %.1f "
		    "(95%%, %s), LOS %.1f%%, draws %.1f%%\n", e.elo + 0.0,
		    e.nelo + 0.0, e.nelo95, model, 100 * e.los, draws);
	else if (e.finite)
		strbuf_addf(out, "  Elo %+.1f +- %.1f, nElo %+.1f +- %.1f "
		    "(95%%, %s), LOS %.1f%%, draws %.1f%%\n", e.elo + 0.0,
		    e.elo95, e.nelo + 0.0, e.nelo95, model, 100 * e.los,
		    draws);
	else
		strbuf_addf(out, "  Elo %s (one side scored every point), "
		    "LOS %.1f%%, draws %.1f%%\n", e.elo > 0 ? "+inf" : "-inf",
		    100 * e.los, draws);
	if (np)
		strbuf_addf(out, "  pairs of %lld: LL %lld, LD %lld, DD+WL "
		    "%lld, WD %lld, WW %lld\n", np, t->pairs[PAIR_LL],
		    t->pairs[PAIR_LD], t->pairs[PAIR_DD_WL], t->pairs[PAIR_WD],
		    t->pairs[PAIR_WW]);
	if (s)
		sprt_text(t, s, out);
}
