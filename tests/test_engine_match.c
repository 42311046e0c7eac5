/*
 * The match's time controls (engine/match.h) and openings
 * (engine/openings.h): what is read, what is refused and where.
 * The games themselves are played in tests/cli/t1450 and t1460.
 */
#include <stdio.h>
#include <stdlib.h>

#include "helpers.h"
#include "core/core.h"
#include "engine/match.h"
#include "engine/openings.h"

static void
tc_ok(const char *text, enum match_tc_kind kind, long long a, long long b,
    long long c, const char *back)
{
	struct match_tc tc;
	char err[256], desc[64];

	if (match_tc_parse(text, &tc, err, sizeof(err)) < 0)
		fail_msg("'%s' refused: %s", text, err);
	assert_int_equal(tc.kind, kind);
	switch (kind) {
	case TC_NODES: assert_int_equal(tc.nodes, a); break;
	case TC_DEPTH: assert_int_equal(tc.depth, a); break;
	case TC_MOVETIME: assert_int_equal(tc.movetime_ms, a); break;
	case TC_CLOCK:
		assert_int_equal(tc.main_ms, a);
		assert_int_equal(tc.byoyomi_ms, b);
		assert_int_equal(tc.inc_ms, c);
		break;
	}
	match_tc_describe(&tc, desc, sizeof(desc));
	assert_string_equal(desc, back);
}

static void
test_tc(void **state)
{
	static const char *const bad[] = {
		"", "nodes=0", "nodes=-5", "nodes=1x", "depth=", "movetime=0",
		"movetime=-1", "10+", "+1", "10+byoyomi=x", "x", "0", "0+0",
		"byoyomi=0", "nan", "inf+1", "1e99", "10+1+1",
	};
	struct match_tc tc;
	char err[256], csa[64];
	size_t i;

	(void)state;
	tc_ok("nodes=20000", TC_NODES, 20000, 0, 0, "nodes=20000");
	tc_ok("depth=8", TC_DEPTH, 8, 0, 0, "depth=8");
	tc_ok("movetime=0.5", TC_MOVETIME, 500, 0, 0, "movetime=0.5");
	tc_ok("10+byoyomi=1", TC_CLOCK, 10000, 1000, 0, "10+byoyomi=1");
	tc_ok("byoyomi=2.25", TC_CLOCK, 0, 2250, 0, "0+byoyomi=2.25");
	tc_ok("60+1", TC_CLOCK, 60000, 0, 1000, "60+1");
	tc_ok("0.2+0.15", TC_CLOCK, 200, 0, 150, "0.2+0.15");
	tc_ok("900", TC_CLOCK, 900000, 0, 0, "900");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (match_tc_parse(bad[i], &tc, err, sizeof(err)) == 0)
			fail_msg("'%s' read as a time control", bad[i]);
	match_tc_parse("600+byoyomi=10", &tc, err, sizeof(err));
	match_tc_csa(&tc, csa, sizeof(csa));
	assert_string_equal(csa, "600+10+0");
	match_tc_parse("0.5+0.1", &tc, err, sizeof(err));
	match_tc_csa(&tc, csa, sizeof(csa));
	assert_string_equal(csa, "0.5+0+0.1");
	match_tc_parse("nodes=5", &tc, err, sizeof(err));
	match_tc_csa(&tc, csa, sizeof(csa));
	assert_string_equal(csa, "");
}

static int
read_text(struct openings *o, const char *text, int plies, char *err,
    size_t n)
{
	return openings_read(o, "f.txt", text, strlen(text),
	    variant_standard(), plies, err, n);
}

static void
test_openings_lines(void **state)
{
	struct openings o;
	char err[512], usi[1024];

	(void)state;
	openings_init(&o);
	assert_int_equal(read_text(&o, "\xef\xbb\xbf# c\n\n"
	    "startpos moves 7g7f 3c3d\r\n"
	    "position startpos\n"
	    "  position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/"
	    "1B5R1/LNSGKGSNL w - 2 moves 3c3d 2g2f\n", -1, err, sizeof(err)),
	    0);
	assert_int_equal(o.n, 3);
	assert_int_equal(o.v[0].nmoves, 2);
	assert_string_equal(o.v[0].where, "f.txt:3");
	assert_int_equal(o.v[1].nmoves, 0);
	assert_string_equal(o.v[2].where, "f.txt:5");
	assert_int_equal(o.v[2].start.side, WHITE);
	opening_usi(&o.v[0], usi, sizeof(usi));
	assert_string_equal(usi, "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/"
	    "PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f 3c3d");
	openings_release(&o);
	/* --opening-plies cuts a line */
	openings_init(&o);
	assert_int_equal(read_text(&o, "startpos moves 7g7f 3c3d 2g2f\n", 1,
	    err, sizeof(err)), 0);
	assert_int_equal(o.v[0].nmoves, 1);
	openings_release(&o);
}

static void
bad_opening(const char *text, const char *want)
{
	struct openings o;
	char err[512];

	openings_init(&o);
	if (read_text(&o, text, -1, err, sizeof(err)) == 0)
		fail_msg("'%s' read as openings", text);
	if (!strstr(err, want))
		fail_msg("'%s': error '%s', want '%s'", text, err, want);
	assert_int_equal(o.n, 0);	/* nothing kept of a refused file */
	openings_release(&o);
}

static void
test_openings_refused(void **state)
{
	(void)state;
	bad_opening("startpos moves 7g7f\nstartpos moves 7g7f 7g7f\n",
	    "f.txt:2: move 2 7g7f is illegal");
	bad_opening("startpos moves 7g7f xx\n", "f.txt:1: 'xx' is not a USI "
	    "move");
	bad_opening("startpos 7g7f\n", "f.txt:1: '7g7f' where 'moves'");
	bad_opening("position startpos\nposition 7g7f\n", "f.txt:2: an "
	    "opening is 'startpos' or 'sfen ...'");
	bad_opening("sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/"
	    "LNSGKGSNX b - 1\n", "f.txt:1: bad SFEN");
	bad_opening("sfen rbsgk/4p/5/P4/KGSBR b - 1\n", "a minishogi position "
	    "in a standard match");
	/* a pawn drop mate: the rules refuse it */
	bad_opening("sfen 7nk/9/7S1/9/9/9/9/9/K8 b P 1 moves P*1b\n",
	    "uchifuzume");
	/* mated after the opening: no game to play */
	bad_opening("sfen 8k/9/7G1/9/9/9/9/9/K8 b G 1 moves G*1b\n",
	    "no legal move after the opening");
}

static void
test_openings_records(void **state)
{
	static const char csa[] =
	    "V2.2\nPI\n+\n+7776FU\n-3334FU\n+8822UM\n-2122GI\n%TORYO\n"
	    "/\nPI\n+\n+2726FU\n-8384FU\n%TORYO\n";
	static const char bad[] =
	    "V2.2\nPI\n+\n+7776FU\n-3334FU\n+7776FU\n%TORYO\n";
	struct openings o;
	char err[512];

	(void)state;
	openings_init(&o);
	assert_int_equal(openings_read(&o, "g.csa", csa, strlen(csa),
	    variant_standard(), 3, err, sizeof(err)), 0);
	assert_int_equal(o.n, 2);
	assert_int_equal(o.v[0].nmoves, 3);
	assert_int_equal(o.v[1].nmoves, 2);	/* shorter than asked */
	openings_release(&o);
	openings_init(&o);
	assert_int_equal(openings_read(&o, "b.csa", bad, strlen(bad),
	    variant_standard(), -1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "b.csa:6: move 3 is illegal"));
	/* cut before the foul, the record is a good opening */
	assert_int_equal(openings_read(&o, "b.csa", bad, strlen(bad),
	    variant_standard(), 2, err, sizeof(err)), 0);
	assert_int_equal(o.n, 1);
	openings_release(&o);
}

static void
test_openings_book(void **state)
{
	/* 7g7f 3 times in 4, 2g2f once; after 7g7f only 3c3d */
	static const char book[] =
	    "#YANEURAOU-DB2016 1.00\n"
	    "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n"
	    "7g7f 3c3d 40 20 300\n"
	    "2g2f none 35 18 100\n"
	    "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n"
	    "3c3d none 0 0 5\n";
	static const char bad[] =
	    "#YANEURAOU-DB2016 1.00\n"
	    "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n"
	    "7g7f none 0 0 1\n"
	    "7g7e none 0 0 1\n";
	struct openings o, again;
	char err[512];
	size_t i, seven = 0;

	(void)state;
	assert_true(openings_is_book(book, strlen(book)));
	assert_true(openings_is_book(book + 23, strlen(book + 23)));
	assert_false(openings_is_book("sfen a b c\nsfen d\n", 18));
	assert_false(openings_is_book("startpos moves 7g7f\n", 20));
	openings_init(&o);
	openings_init(&again);
	assert_int_equal(openings_read_book(&o, "b.db", book, strlen(book),
	    variant_standard(), 8, 400, 5, err, sizeof(err)), 0);
	assert_int_equal(openings_read_book(&again, "b.db", book, strlen(book),
	    variant_standard(), 8, 400, 5, err, sizeof(err)), 0);
	assert_int_equal(o.n, 400);
	for (i = 0; i < o.n; i++) {
		char usi[512], u2[512];

		opening_usi(&o.v[i], usi, sizeof(usi));
		opening_usi(&again.v[i], u2, sizeof(u2));
		assert_string_equal(usi, u2);	/* the seed decides */
		if (strstr(usi, "moves 7g7f 3c3d")) {
			assert_int_equal(o.v[i].nmoves, 2);
			seven++;
		} else {
			assert_non_null(strstr(usi, "moves 2g2f"));
			assert_int_equal(o.v[i].nmoves, 1);
		}
	}
	/* 300 in 400 expected: well inside 260..340 */
	if (seven < 260 || seven > 340)
		fail_msg("7g7f in %zu of 400 walks, weighted 3:1", seven);
	assert_string_equal(o.v[0].where, "b.db#1");
	openings_release(&o);
	openings_release(&again);
	openings_init(&o);
	assert_int_equal(openings_read_book(&o, "x.db", bad, strlen(bad),
	    variant_standard(), 8, 4, 5, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "x.db:4: move 7g7e is illegal"));
	assert_int_equal(o.n, 0);
	openings_release(&o);
}

static void
test_shuffle(void **state)
{
	size_t a[50], b[50], seen[50];
	size_t i;
	int moved = 0;

	(void)state;
	openings_shuffle(a, 50, 7);
	openings_shuffle(b, 50, 7);
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < 50; i++) {
		assert_int_equal(a[i], b[i]);
		seen[a[i]]++;
		moved += a[i] != i;
	}
	for (i = 0; i < 50; i++)
		assert_int_equal(seen[i], 1);
	assert_true(moved > 0);
	openings_shuffle(b, 50, 8);
	assert_memory_not_equal(a, b, sizeof(a));
}

static void
test_end_names(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < END_NB; i++)
		assert_int_equal(match_end_by_name(match_end_name(
		    (enum match_end)i)), i);
	assert_int_equal(match_end_by_name("nonsense"), -1);
	assert_string_equal(match_end_name(END_FALSE_DECLARATION),
	    "false-declaration");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tc),
		cmocka_unit_test(test_openings_lines),
		cmocka_unit_test(test_openings_refused),
		cmocka_unit_test(test_openings_records),
		cmocka_unit_test(test_openings_book),
		cmocka_unit_test(test_shuffle),
		cmocka_unit_test(test_end_names),
	};

	core_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
