/*
 * The count of a match (stats/matchtally.h): games into W/D/L, colours
 * and pentanomial pairs, in whatever order a pair's games come, the SPRT
 * verdict taken once and only on whole pairs, and the text `kifu match`
 * prints. The figures are engines.md 3.4's worked example (as
 * test_stats_elo.c checks them on the counts) and a run of kifu match
 * against an engine that loses every game.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "stats/matchtally.h"

#define HAS(sb, text) do { \
	if (!strstr((sb).buf ? (sb).buf : "", (text))) \
		fail_msg("no '%s' in:\n%s", (text), (sb).buf); \
} while (0)

/* A pair of A's half points: first game A as Black, second as White. */
static void
pairs_of(struct match_tally *t, int h1, int h2, int count, long long *pair)
{
	int i;

	/* every first game before any second: a pair waits for its partner */
	for (i = 0; i < count; i++)
		match_tally_add(t, 1, h1, 0, *pair + i);
	for (i = 0; i < count; i++)
		match_tally_add(t, 0, h2, 0, *pair + i);
	*pair += count;
}

/* engines.md 3.4: 200 pairs [12, 38, 90, 44, 16], 96/222/82 as games. */
static void
test_worked_example(void **state)
{
	struct match_tallies ts;
	struct match_tally *t;
	struct elo_estimate e;
	struct sprt s = { 0, 5, 0.05, 0.05, SPRT_NORMALIZED };
	struct strbuf out = STRBUF_INIT;
	long long pair = 1;

	(void)state;
	match_tallies_init(&ts);
	t = match_tallies_get(&ts, 0, 1);
	pairs_of(t, 0, 0, 12, &pair);		/* LL */
	pairs_of(t, 1, 0, 19, &pair);		/* LD, both orders */
	pairs_of(t, 0, 1, 19, &pair);
	pairs_of(t, 1, 1, 70, &pair);		/* DD */
	pairs_of(t, 2, 0, 10, &pair);		/* WL */
	pairs_of(t, 0, 2, 10, &pair);
	pairs_of(t, 2, 1, 22, &pair);		/* WD */
	pairs_of(t, 1, 2, 22, &pair);
	pairs_of(t, 2, 2, 16, &pair);		/* WW */
	assert_int_equal(t->npend, 0);
	assert_int_equal(match_tally_npairs(t), 200);
	assert_int_equal(t->pairs[PAIR_LL], 12);
	assert_int_equal(t->pairs[PAIR_LD], 38);
	assert_int_equal(t->pairs[PAIR_DD_WL], 90);
	assert_int_equal(t->pairs[PAIR_WD], 44);
	assert_int_equal(t->pairs[PAIR_WW], 16);
	assert_int_equal(t->w, 96);
	assert_int_equal(t->d, 222);
	assert_int_equal(t->l, 82);
	assert_int_equal(match_tally_games(t), 400);
	/* as Black: 10 + 22 + 16 wins of the first games */
	assert_int_equal(t->color[BLACK][0], 48);
	assert_int_equal(t->color[WHITE][0], 48);
	assert_int_equal(t->color[BLACK][0] + t->color[BLACK][1] +
	    t->color[BLACK][2], 200);
	match_tally_elo(t, &e);
	NEAR(e.elo, 12.17, 0.005);
	NEAR(e.elo95, 23.72, 0.005);
	NEAR(match_tally_llr(t, &s), 0.24796, 0.000005);
	assert_int_equal(match_tally_sprt(t, &s), 0);
	match_tally_text(t, "A", "B", &s, &out);
	HAS(out, "A vs B: 400 games, +96 =222 -82, score 51.8%\n");
	HAS(out, "  A as Black +48 =");
	HAS(out, "  Elo +12.2 +- 23.7, nElo +17.5 +- 34.0 (95%, pentanomial), "
	    "LOS 84.3%, draws 55.5%\n");
	HAS(out, "  pairs of 200: LL 12, LD 38, DD+WL 90, WD 44, WW 16\n");
	HAS(out, "  SPRT elo0 0, elo1 5, alpha 0.05, beta 0.05 (normalized): "
	    "LLR 0.248 [-2.944, 2.944]: continue\n");
	strbuf_release(&out);
	match_tallies_release(&ts);
}

/* Games counted from A's side whichever colour A had. */
static void
test_sides(void **state)
{
	struct match_tallies ts;
	struct match_tally *t;

	(void)state;
	match_tallies_init(&ts);
	/* engine 2 first seen as Black: it is A of that tally */
	t = match_tallies_add(&ts, 2, 0, 2, 0, -1);
	assert_int_equal(t->a, 2);
	assert_int_equal(t->w, 1);
	assert_int_equal(t->color[BLACK][0], 1);
	/* 0 wins as Black against 2: A (2) lost as White */
	t = match_tallies_add(&ts, 0, 2, 2, 0, -1);
	assert_int_equal(ts.n, 1);
	assert_int_equal(t->l, 1);
	assert_int_equal(t->color[WHITE][2], 1);
	match_tallies_add(&ts, 2, 0, 1, 0, -1);
	assert_int_equal(t->d, 1);
	assert_int_equal(match_tally_npairs(t), 0);
	assert_int_equal(t->npend, 0);
	/* another pairing is another tally; find does not add */
	assert_null(match_tallies_find(&ts, 0, 1));
	assert_int_equal(ts.n, 1);
	match_tallies_add(&ts, 1, 0, 0, 0, -1);
	assert_int_equal(ts.n, 2);
	assert_ptr_equal(match_tallies_find(&ts, 0, 1), &ts.v[1]);
	assert_int_equal(ts.v[1].a, 1);
	assert_int_equal(ts.v[1].l, 1);
	match_tallies_release(&ts);
}

/* The same pair number from two sources is two pairs. */
static void
test_sources(void **state)
{
	struct match_tallies ts;
	struct match_tally *t;

	(void)state;
	match_tallies_init(&ts);
	t = match_tallies_get(&ts, 0, 1);
	match_tally_add(t, 1, 2, 0, 1);
	match_tally_add(t, 0, 0, 1, 1);
	assert_int_equal(t->npend, 2);
	assert_int_equal(match_tally_npairs(t), 0);
	match_tally_add(t, 0, 2, 0, 1);
	assert_int_equal(t->pairs[PAIR_WW], 1);
	match_tally_add(t, 1, 0, 1, 1);
	assert_int_equal(t->pairs[PAIR_LL], 1);
	assert_int_equal(t->npend, 0);
	/* pair numbers far past any match: no clash, no overflow */
	match_tally_add(t, 1, 2, 0, 0x7fffffffffffffffLL);
	match_tally_add(t, 1, 2, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL);
	match_tally_add(t, 0, 1, 0, 0x7fffffffffffffffLL);
	assert_int_equal(t->pairs[PAIR_WD], 1);
	assert_int_equal(t->npend, 1);
	match_tallies_release(&ts);
}

/*
 * An engine that loses every game, SPRT elo0=0 elo1=10: kifu match
 * stopped on it after 142 games (71 pairs), LLR -2.948.
 */
static void
test_sprt_stop(void **state)
{
	struct match_tallies ts;
	struct match_tally *t;
	struct sprt s = { 0, 10, 0.05, 0.05, SPRT_NORMALIZED };
	struct strbuf out = STRBUF_INIT;
	long long pair, stopped = 0;

	(void)state;
	match_tallies_init(&ts);
	t = match_tallies_get(&ts, 0, 1);
	for (pair = 1; pair <= 100 && !stopped; pair++) {
		match_tally_add(t, 1, 0, 0, pair);
		/* never on half a pair, whatever the LLR */
		assert_int_equal(match_tally_sprt(t, &s), 0);
		match_tally_add(t, 0, 0, 0, pair);
		if (match_tally_sprt(t, &s))
			stopped = match_tally_games(t);
	}
	assert_int_equal(stopped, 142);
	assert_true(t->sprt_done);
	assert_int_equal(t->verdict, SPRT_H0);
	assert_int_equal(t->verdict_games, 142);
	NEAR(t->verdict_llr, -2.948, 0.0005);
	/* decided once: more games keep the verdict it stopped on */
	match_tally_add(t, 1, 0, 0, 1000);
	match_tally_add(t, 0, 0, 0, 1000);
	assert_int_equal(match_tally_sprt(t, &s), 0);
	assert_int_equal(t->verdict_games, 142);
	match_tally_text(t, "A", "B", &s, &out);
	HAS(out, "A vs B: 144 games, +0 =0 -144, score 0.0%\n");
	HAS(out, "  Elo -inf (one side scored every point), LOS 0.0%, "
	    "draws 0.0%\n");
	HAS(out, "  pairs of 72: LL 72, LD 0, DD+WL 0, WD 0, WW 0\n");
	HAS(out, "H0 accepted\n  (the match stopped on it after 142 games, "
	    "LLR -2.948)\n");
	strbuf_release(&out);
	match_tallies_release(&ts);
}

/* Games without pairs: trinomial; a level score is +0.0, never -0.0. */
static void
test_text(void **state)
{
	struct match_tallies ts;
	struct match_tally *t;
	struct strbuf out = STRBUF_INIT;
	int i;

	(void)state;
	match_tallies_init(&ts);
	t = match_tallies_get(&ts, 0, 1);
	match_tally_text(t, "A", "B", NULL, &out);
	assert_string_equal(out.buf, "A vs B: 0 games, +0 =0 -0, score 0.0%\n"
	    "  A as Black +0 =0 -0, as White +0 =0 -0\n");
	strbuf_reset(&out);
	for (i = 0; i < 5; i++)
		match_tally_add(t, !(i & 1), 1, 0, -1);
	match_tally_text(t, "A", "B", NULL, &out);
	assert_string_equal(out.buf, "A vs B: 5 games, +0 =5 -0, score 50.0%\n"
	    "  A as Black +0 =3 -0, as White +0 =2 -0\n"
	    "  Elo +0.0 +- 0.0, nElo +0.0 +- 304.5 (95%, trinomial), "
	    "LOS 50.0%, draws 100.0%\n");
	strbuf_reset(&out);
	match_tallies_release(&ts);
	match_tallies_init(&ts);
	t = match_tallies_get(&ts, 0, 1);
	match_tally_add(t, 1, 2, 0, -1);
	match_tally_text(t, "A", "B", NULL, &out);
	HAS(out, "A vs B: 1 game, +1 =0 -0, score 100.0%\n");
	HAS(out, "  Elo +inf (one side scored every point)");
	strbuf_release(&out);
	match_tallies_release(&ts);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_worked_example),
		cmocka_unit_test(test_sides),
		cmocka_unit_test(test_sources),
		cmocka_unit_test(test_sprt_stop),
		cmocka_unit_test(test_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
