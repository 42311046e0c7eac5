/*
 * Elo, LOS and the GSPRT (stats/elo.h) against published figures:
 * fastchess's own tests (Disservin/fastchess, app/tests/sprt_test.cpp and
 * elo_test.cpp, commit 74deac23) and the worked example of
 * ../shared/docs/engines.md 3.4, which fishtest's LLRcalc.py and
 * stat_util.py reproduce to 1e-12.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "helpers.h"
#include "stats/elo.h"

static struct sprt
model(double e0, double e1, enum sprt_model m)
{
	struct sprt s = { e0, e1, 0.05, 0.05, m };

	return s;
}

/* engines.md 3.4: 200 pairs [12, 38, 90, 44, 16], as games 96/222/82. */
static void
test_worked_example(void **state)
{
	static const long long pairs[PAIR_NB] = { 12, 38, 90, 44, 16 };
	struct elo_estimate p, t;
	struct sprt n = model(0, 5, SPRT_NORMALIZED);
	struct sprt l = model(0, 5, SPRT_LOGISTIC);
	double lo, hi;

	(void)state;
	elo_pentanomial(pairs, &p);
	elo_trinomial(96, 222, 82, &t);
	NEAR(p.score, 0.5175, 1e-12);
	NEAR(t.score, 0.5175, 1e-12);
	NEAR(p.elo, 12.17, 0.005);
	NEAR(p.elo95, 23.72, 0.005);
	NEAR(t.elo95, 22.74, 0.005);
	NEAR(p.los, 0.8432, 0.00005);
	NEAR(t.los, 0.8533, 0.00005);
	NEAR(p.nelo, 17.51, 0.005);
	NEAR(p.nelo95, 34.05, 0.005);
	NEAR(t.nelo, 18.25, 0.005);
	NEAR(t.nelo95, 34.05, 0.005);
	NEAR(p.draw_ratio, 0.45, 1e-12);
	NEAR(t.draw_ratio, 0.555, 1e-12);
	assert_int_equal(p.n, 200);
	assert_true(p.finite);
	NEAR(sprt_llr_pentanomial(&n, pairs), 0.24796, 0.000005);
	NEAR(sprt_llr_trinomial(&n, 96, 222, 82), 0.26064, 0.000005);
	NEAR(sprt_llr_pentanomial(&l, pairs), 0.33047, 0.000005);
	NEAR(sprt_llr_trinomial(&l, 96, 222, 82), 0.35988, 0.000005);
	sprt_bounds(&n, &lo, &hi);
	NEAR(lo, -2.944439, 0.0000005);
	NEAR(hi, 2.944439, 0.0000005);
	assert_int_equal(sprt_verdict(&n, 0.24796), SPRT_CONTINUE);
	assert_int_equal(sprt_verdict(&n, 2.95), SPRT_H1);
	assert_int_equal(sprt_verdict(&n, -2.95), SPRT_H0);
}

/*
 * fastchess's sprt_test.cpp: Stats(ll, ld, wl, dd, wd, ww) with WL and DD
 * added into fishtest's middle class; the expected LLRs as published
 * there (two decimals), and fishtest's own to four.
 */
static void
test_fastchess_sprt(void **state)
{
	static const long long np1[PAIR_NB] = { 365, 16618, 36229, 16974, 390 };
	static const long long np2[PAIR_NB] = { 127, 4883, 10712, 5150, 104 };
	static const long long lp1[PAIR_NB] = { 223, 9863, 21279, 10037, 246 };
	static const long long lp2[PAIR_NB] = { 871, 26175, 55983, 26678, 821 };
	struct sprt a = model(0, 2, SPRT_NORMALIZED);
	struct sprt b = model(-1.75, 0.25, SPRT_NORMALIZED);
	struct sprt c = model(0.5, 2.5, SPRT_LOGISTIC);
	struct sprt d = model(0, 2, SPRT_LOGISTIC);

	(void)state;
	NEAR(sprt_llr_pentanomial(&a, np1), 2.2504, 0.00005);
	NEAR(sprt_llr_pentanomial(&b, np2), 3.0102, 0.00005);
	NEAR(sprt_llr_pentanomial(&c, lp1), -3.0741, 0.00005);
	NEAR(sprt_llr_pentanomial(&d, lp2), -4.9787, 0.00005);
}

/* fishtest stat_util.py's closing example, run here (engines.md 3.4). */
static void
test_fishtest_example(void **state)
{
	static const long long p[PAIR_NB] = { 10789, 19328, 33806, 19402, 10543 };
	struct sprt s = model(-3, 1, SPRT_LOGISTIC);

	(void)state;
	NEAR(sprt_llr_pentanomial(&s, p), 2.1311, 0.00005);
}

/* fastchess elo_test.cpp: EloPentanomial 1 and EloWDL 2. */
static void
test_fastchess_elo(void **state)
{
	/* Stats(34, 54, 31, 32, 64, 75): ll ld wl dd wd ww */
	static const long long p[PAIR_NB] = { 34, 54, 31 + 32, 64, 75 };
	struct elo_estimate e;

	(void)state;
	elo_pentanomial(p, &e);
	NEAR(e.elo, 55.58, 0.005);
	NEAR(e.elo95, 27.65, 0.005);
	NEAR(e.nelo, 57.94, 0.005);
	NEAR(e.nelo95, 28.28, 0.005);
	NEAR(e.los, 0.99997, 0.000005);
	/* Stats(136, 96, 111): wins, losses, draws */
	elo_trinomial(136, 111, 96, &e);
	NEAR(e.elo, 40.70, 0.005);
	NEAR(e.elo95, 30.43, 0.005);
	NEAR(e.nelo, 49.77, 0.005);
	NEAR(e.nelo95, 36.77, 0.005);
	NEAR(e.los, 0.9960, 0.00005);
}

static void
test_edges(void **state)
{
	static const long long none[PAIR_NB] = { 0, 0, 0, 0, 0 };
	static const long long all[PAIR_NB] = { 0, 0, 0, 0, 7 };
	struct elo_estimate e;
	struct sprt s = model(0, 5, SPRT_NORMALIZED);

	(void)state;
	elo_pentanomial(none, &e);
	assert_int_equal(e.n, 0);
	assert_false(e.finite);
	assert_true(sprt_llr_pentanomial(&s, none) == 0);
	elo_pentanomial(all, &e);
	assert_false(e.finite);
	assert_true(e.elo > 1e300);
	NEAR(e.los, 1, 0);
	/* zeros regularised: a finite LLR that favours H1 */
	assert_true(isfinite(sprt_llr_pentanomial(&s, all)));
	assert_true(sprt_llr_pentanomial(&s, all) > 0);
	/* kifu's own logarithms (no libm): -400 log10(1/3), and far out */
	NEAR(elo_of_score(0.75), 190.84850188786497, 1e-9);
	NEAR(elo_of_score(0.001), -1199.826195290393, 1e-9);
	NEAR(elo_of_score(0.999999), 2399.999826281142, 1e-6);
	elo_trinomial(0, 3, 0, &e);
	NEAR(e.elo, 0, 1e-12);
	NEAR(e.los, 0.5, 0);
	assert_int_equal(elo_pair_class(2, 0), PAIR_DD_WL);
	assert_int_equal(elo_pair_class(1, 1), PAIR_DD_WL);
	assert_int_equal(elo_pair_class(2, 1), PAIR_WD);
	assert_int_equal(elo_pair_class(0, 1), PAIR_LD);
}

static void
test_parse(void **state)
{
	struct sprt s;
	char err[128];

	(void)state;
	assert_int_equal(sprt_parse("elo0=0,elo1=5,alpha=0.05,beta=0.1", &s,
	    err, sizeof(err)), 0);
	NEAR(s.elo1, 5, 0);
	NEAR(s.beta, 0.1, 0);
	assert_int_equal(s.model, SPRT_NORMALIZED);
	assert_int_equal(sprt_parse("elo1=2.5,elo0=-1,model=logistic", &s,
	    err, sizeof(err)), 0);
	assert_int_equal(s.model, SPRT_LOGISTIC);
	NEAR(s.alpha, 0.05, 0);
	assert_int_equal(sprt_parse("elo0=5,elo1=0", &s, err, sizeof(err)),
	    -1);
	assert_int_equal(sprt_parse("elo0=0", &s, err, sizeof(err)), -1);
	assert_int_equal(sprt_parse("elo0=0,elo1=x", &s, err, sizeof(err)),
	    -1);
	assert_int_equal(sprt_parse("elo0=0,elo1=5,gamma=1", &s, err,
	    sizeof(err)), -1);
	assert_int_equal(sprt_parse("elo0=0,elo1=5,alpha=0.7", &s, err,
	    sizeof(err)), -1);
	assert_int_equal(sprt_parse("elo0=0,elo1=5,model=bayes", &s, err,
	    sizeof(err)), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_worked_example),
		cmocka_unit_test(test_fastchess_sprt),
		cmocka_unit_test(test_fishtest_example),
		cmocka_unit_test(test_fastchess_elo),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
