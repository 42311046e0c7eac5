/*
 * Evaluations in comments (parsers/evaluation.h): each form as the
 * readers store it, what only looks like one, the first line that counts,
 * and the 16-bit eval of a row from either side.
 */
#include <stdio.h>

#include "helpers.h"
#include "parsers/evaluation.h"

#define SAT EVALUATION_SCORE_MAX

struct eval_case {
	const char *name;
	const char *comment;	/* as stored: the comment mark removed */
	int has, mate;
	long long score;
};

static const struct eval_case cases[] = {
	{ "Floodgate", "** 113 -3334FU +2625FU", 1, 0, 113 },
	{ "Floodgate, negative", "** -100000 +6463TO", 1, 0, -100000 },
	{ "Floodgate, no PV", "** 0", 1, 0, 0 },
	{ "Floodgate, USI PV", "** 130 7g7f 8c8d", 1, 0, 130 },
	{ "Floodgate, plus sign", "** +45 -3334FU", 1, 0, 45 },
	{ "Floodgate, GPS's large mate", "** 1148897", 1, 0, 1148897 },
	{ "saturated", "** 99999999999999999999999", 1, 0, SAT },
	{ "saturated, negative", "** -99999999999999999999999", 1, 0, -SAT },
	{ "KIF Floodgate-style", "* 123 ▲７六歩(77)", 1, 0, 123 },
	{ "KIF Floodgate-style, full-width blank", "*\u3000-40", 1, 0, -40 },
	{ "ShogiHome", "*評価値=-524", 1, 0, -524 },
	{ "ShogiHome among its lines", "*読み筋=▲７六歩\n*評価値=158\n*深さ=8",
	    1, 0, 158 },
	{ "ShogiHome mate for Black", "*詰み=先手勝ち:15手", 1, 1, SAT },
	{ "ShogiHome mate, no length", "*詰み=先手勝ち", 1, 1, SAT },
	{ "ShogiHome mate for White", "*詰み=後手勝ち", 1, -1, -SAT },
	{ "ShogiGUI", "*対局 時間 00:01.0 深さ 10/20 ノード数 1000 評価値 -120 "
	    "読み筋 △４四歩(43)", 1, 0, -120 },
	{ "ShogiGUI, no time", "*対局 深さ 2 ノード数 93 評価値 1000001 読み筋 "
	    "△４一玉(51)", 1, 0, 1000001 },
	{ "ShogiGUI mate", "*対局 評価値 +詰 7 読み筋 none", 1, 1, SAT },
	{ "ShogiGUI mated", "*対局 評価値 -詰 3 読み筋 none", 1, -1, -SAT },
	{ "the first form counts", "* 10\n** 20", 1, 0, 10 },
	{ "after other lines", "P1-KY\n** 77 +7776FU", 1, 0, 77 },
	/* not the player's */
	{ "ShogiHome research", "#評価値=300", 0, 0, 0 },
	{ "ShogiHome research mate", "#詰み=後手勝ち", 0, 0, 0 },
	{ "ShogiGUI analysis", "*解析 0 候補1 時間 00:10.0 深さ 34 評価値 3 "
	    "読み筋 △同　歩(85)", 0, 0, 0 },
	{ "analysis's second line", "評価値 +44  読み筋 3c3d", 0, 0, 0 },
	{ "K-Shogi", "#形勢[+123]", 0, 0, 0 },
	{ "no comment", "", 0, 0, 0 },
	{ "a word, not a number", "** abc", 0, 0, 0 },
	{ "a number glued to a word", "** 30手目", 0, 0, 0 },
	{ "no blank after **", "**123", 0, 0, 0 },
	{ "a sign alone", "** - 3", 0, 0, 0 },
	{ "a human's starred note", "*好手", 0, 0, 0 },
	{ "ShogiGUI with no number", "*対局 深さ 2 評価値 読み筋 ▲７六歩",
	    0, 0, 0 },
	{ "a prefix of 対局", "*対局中の感想 評価値 5", 0, 0, 0 },
	{ "a number glued to kana", "** 5\u3042", 0, 0, 0 },
};

#define NCASES (sizeof(cases) / sizeof(cases[0]))

static void
test_case(void **state)
{
	const struct eval_case *c = *state;
	struct evaluation e;

	evaluation_read(c->comment, &e);
	if (e.has != c->has || e.mate != c->mate || e.score != c->score)
		fail_msg("'%s': has %d mate %d score %lld", c->comment, e.has,
		    e.mate, e.score);
}

/* The analysis forms: another engine's view of the position after. */
static const struct eval_case analysis_cases[] = {
	{ "ShogiHome research", "#評価値=300", 1, 0, 300 },
	{ "ShogiHome research mate", "#詰み=後手勝ち:3手\n#評価値=-30000", 1, -1,
	    -SAT },
	{ "ShogiHome research mate for Black", "#詰み=先手勝ち", 1, 1, SAT },
	{ "ShogiHome, after its situation line", "互角\n#評価値=-102\n"
	    "#読み筋=△８五歩", 1, 0, -102 },
	{ "ShogiGUI analysis", "*解析 0 ○ 候補1 時間 00:15.9 深さ 54 ノード数 "
	    "1000495 評価値 207 読み筋 ▲同　歩(87)", 1, 0, 207 },
	{ "ShogiGUI analysis, blank mark", "*解析 0  候補1 時間 00:00.0 深さ 32 "
	    "評価値 -44 読み筋 △３三角(22)", 1, 0, -44 },
	{ "ShogiGUI analysis, a bound", "*解析 0  候補1 評価値 240↓ 読み筋 x", 1, 0,
	    240 },
	{ "ShogiGUI analysis, the other bound", "*解析 0  候補1 評価値 -5↑", 1,
	    0, -5 },
	{ "ShogiGUI analysis mate", "*解析 0  候補1 評価値 +詰 5 読み筋 x", 1, 1,
	    SAT },
	{ "Piyo Shogi", "#指し手[2891]△４二玉  ▲３三銀打", 1, 0, 2891 },
	{ "Piyo Shogi, labelled", "#指し手[3773] 悪手 △７一玉", 1, 0, 3773 },
	{ "K-Shogi", "#形勢[+123]", 1, 0, 123 },
	{ "Piyo's line before the move is not read", "#推奨手[2902]▲３三金打",
	    0, 0, 0 },
	{ "the player's forms are not analysis", "** 113 -3334FU\n*評価値=5",
	    0, 0, 0 },
	{ "ShogiGUI player line", "*対局 深さ 2 評価値 0 読み筋 ▲７六歩(77)", 0, 0,
	    0 },
	{ "the first form counts", "#評価値=10\n*解析 0  候補1 評価値 20", 1, 0,
	    10 },
	/* kifu's own block first, whatever comes before it */
	{ "kifu's block first", "#評価値=-102\n#エンジン=MyEngine\n"
	    "#kifu-analyze: 2 lines; x; nodes 1\n#評価値=8\n*解析 0  候補1 評価値 8",
	    1, 0, 8 },
	{ "only the lines kifu's marker counts", "#評価値=-102\n"
	    "#kifu-analyze: 1 line; x; nodes 1; no score\n#読み筋=▲７六歩\n"
	    "#評価値=5", 1, 0, -102 },
	{ "a marker in the middle of a line is none", "note #kifu-analyze: 1 "
	    "line\n#評価値=3", 1, 0, 3 },
	{ "a bracket not closed", "#指し手[12", 0, 0, 0 },
	{ "a bound glued to a word", "*解析 0  候補1 評価値 12↓x", 0, 0, 0 },
	{ "no comment", "", 0, 0, 0 },
};

#define NANALYSIS (sizeof(analysis_cases) / sizeof(analysis_cases[0]))

static void
test_analysis_case(void **state)
{
	const struct eval_case *c = *state;
	struct evaluation e;

	evaluation_read_analysis(c->comment, &e);
	if (e.has != c->has || e.mate != c->mate || e.score != c->score)
		fail_msg("'%s': has %d mate %d score %lld", c->comment, e.has,
		    e.mate, e.score);
}

static void
test_for_side(void **state)
{
	struct evaluation e;

	(void)state;
	evaluation_read(NULL, &e);
	assert_false(e.has);
	assert_int_equal(evaluation_for(&e, BLACK), 0);
	evaluation_read("** 120", &e);
	assert_int_equal(evaluation_for(&e, BLACK), 120);
	assert_int_equal(evaluation_for(&e, WHITE), -120);
	/* clamp first, then negate: -32768 never appears */
	evaluation_read("** -32768", &e);
	assert_int_equal(evaluation_for(&e, BLACK), -32767);
	assert_int_equal(evaluation_for(&e, WHITE), 32767);
	evaluation_read("** 100000", &e);
	assert_int_equal(evaluation_for(&e, WHITE), -32767);
	evaluation_read("*詰み=後手勝ち:3手", &e);
	assert_int_equal(evaluation_for(&e, BLACK), -32767);
	assert_int_equal(evaluation_for(&e, WHITE), 32767);
	/* --stop-at-eval compares what was written */
	evaluation_read("** 32768", &e);
	assert_true(evaluation_at_least(&e, 32768));
	assert_false(evaluation_at_least(&e, 32769));
	evaluation_read("** -100000", &e);
	assert_true(evaluation_at_least(&e, 100000));
	evaluation_read("*対局 評価値 +詰 9", &e);
	assert_true(evaluation_at_least(&e, SAT));
	evaluation_read("", &e);
	assert_false(evaluation_at_least(&e, 1));
}

int
main(int argc, char **argv)
{
	static struct CMUnitTest tests[NCASES + NANALYSIS + 1];
	static char names[NCASES + NANALYSIS][96];
	size_t i, n = 0;

	for (i = 0; i < NCASES; i++, n++) {
		snprintf(names[n], sizeof(names[n]), "%s", cases[i].name);
		tests[n].name = names[n];
		tests[n].test_func = test_case;
		tests[n].initial_state = (void *)&cases[i];
	}
	for (i = 0; i < NANALYSIS; i++, n++) {
		snprintf(names[n], sizeof(names[n]), "analysis: %s",
		    analysis_cases[i].name);
		tests[n].name = names[n];
		tests[n].test_func = test_analysis_case;
		tests[n].initial_state = (void *)&analysis_cases[i];
	}
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_for_side);
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return _cmocka_run_group_tests("parsers/evaluation", tests, n, NULL,
	    NULL);
}
