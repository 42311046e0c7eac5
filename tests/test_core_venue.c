/*
 * The rule set a record's own text points at (core/venue.c), and mate
 * as composed problems count it (core/tsume.c).
 *
 * Each record is a few lines in the form its producer writes; the
 * evidence, its line and the set it leads to are checked, and so is
 * the record that must not be taken for one (a Kifu for Windows export
 * writes T times too; a professional game in CSA names its event).
 */
#include <stdio.h>
#include <stdlib.h>

#include "helpers.h"
#include "reading.h"
#include "core/core.h"
#include "core/ruleset.h"
#include "core/tsume.h"
#include "core/venue.h"

struct want {
	const char *set;
	const char *what;
	unsigned line;
	int max_moves;
};

static void
check_venue(read_fn read, const char *format, const char *src,
    const struct want *w)
{
	struct session s;
	struct venue v;

	session_start(&s, read, src, strlen(src), variant_standard());
	if (session_next(&s) != READ_OK) {
		dump_diags(&s.d);
		fail_msg("the record does not read");
	}
	venue_detect(&s.r, format, &s.t, &v);
	if (strcmp(v.set, w->set) || strcmp(v.what, w->what) ||
	    v.line != w->line || v.max_moves != w->max_moves)
		fail_msg("got %s '%s' line %u limit %d, want %s '%s' line %u "
		    "limit %d", v.set, v.what, v.line, v.max_moves, w->set,
		    w->what, w->line, w->max_moves);
	session_close(&s);
}

#define FLOODGATE_HEAD \
	"V2\n" \
	"N+alice\n" \
	"N-bob\n" \
	"$EVENT:wdoor+floodgate-300-10F+alice+bob+20170302210003\n" \
	"PI\n" \
	"+\n"

static void
test_venue_floodgate_game_id(void **state)
{
	static const struct want w = {
		"csa", "$EVENT 'wdoor+floodgate-300-10F+alice+bob+201...'", 4, 256
	};

	(void)state;
	check_venue(csa_read, "csa", FLOODGATE_HEAD "+7776FU\nT3\n-3334FU\n"
	    "T2\n%TORYO\n'summary:toryo:alice lose:bob win\n", &w);
}

static void
test_venue_tournament_event(void **state)
{
	static const struct want w = {
		"csa", "$EVENT WCSC", 3, 0
	};

	(void)state;
	check_venue(csa_read, "csa", "V2.2\nN+a\n$EVENT:WCSC29 F1\nPI\n+\n"
	    "+7776FU\n", &w);
}

static void
test_venue_summary(void **state)
{
	static const struct want w = { "csa", "'summary", 5, 0 };

	(void)state;
	check_venue(csa_read, "csa", "V2\nPI\n+\n+7776FU\n"
	    "'summary:abnormal:a win:b lose\n", &w);
}

static void
test_venue_server_times(void **state)
{
	static const struct want w = { "csa", "T times and %TORYO", 8, 0 };

	(void)state;
	check_venue(csa_read, "csa", "V2.2\nPI\n+\n+7776FU\nT3\n-3334FU\nT1\n"
	    "%TORYO\n", &w);
}

/* Kifu for Windows writes ",T0" after every move of any game. */
static void
test_venue_kifu_for_windows_times(void **state)
{
	static const struct want w = { "jsa", "", 0, -1 };

	(void)state;
	check_venue(csa_read, "csa", "' ---- Kifu for Windows V7 V7.08 "
	    "CSA形式棋譜ファイル ----\nV2.2\nPI\n+\n+7776FU,T0\n-3334FU,T0\n"
	    "%TORYO,T0\n", &w);
}

/* A professional game typed into CSA: an event, no server's marks. */
static void
test_venue_professional(void **state)
{
	static const struct want w = { "jsa", "", 0, -1 };

	(void)state;
	check_venue(csa_read, "csa", "V2.1\nN+山口英夫\n$EVENT:名将戦\nPI\n+\n"
	    "+7776FU\n-3334FU\n%TORYO\n", &w);
}

static void
test_venue_wars_header(void **state)
{
	static const struct want w = { "wars", "棋戦 将棋ウォーズ", 2, -1 };

	(void)state;
	check_venue(kif_read, "kif", "先手：a\n棋戦：将棋ウォーズ(10分切れ負け)\n"
	    "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n",
	    &w);
}

static void
test_venue_wars_url_comment(void **state)
{
	static const struct want w = {
		"wars", "/swars/ in a comment", 1, -1
	};

	(void)state;
	check_venue(kif_read, "kif", "*詳細URL：https://www.shogi-extend.com/"
	    "swars/battles/x-y-20211004_204159\n先手：x\n手合割：平手\n"
	    "手数----指手---------消費時間--\n   1 ７六歩(77)\n", &w);
}

static void
test_venue_one_king(void **state)
{
	static const struct want w = {
		"problem", "one king at the start", 4, -1
	};

	(void)state;
	check_venue(kif_read, "kif", "後手の持駒：なし\n"
	    "  ９ ８ ７ ６ ５ ４ ３ ２ １\n"
	    "+---------------------------+\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・v玉|一\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n"
	    "| ・ ・ ・ ・ ・ ・ ・ 金 ・|三\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|九\n"
	    "+---------------------------+\n"
	    "先手の持駒：金\n"
	    "手数----指手---------消費時間--\n"
	    "   1 １二金打\n", &w);
}

/* A problem with both kings (双玉) says what it is in its headers. */
static void
test_venue_problem_headers(void **state)
{
	static const struct want title = {
		"problem", "表題 詰将棋", 1, -1
	};
	static const struct want collection = {
		"problem", "作品番号", 2, -1
	};
	static const struct want summary = {
		"problem", "まで1手詰", 6, -1
	};

	(void)state;
	check_venue(kif_read, "kif", "表題：双玉詰将棋\n手合割：平手\n"
	    "手数----指手---------消費時間--\n   1 ７六歩(77)\n", &title);
	check_venue(kif_read, "kif", "作者：a\n作品番号：12\n手合割：平手\n"
	    "手数----指手---------消費時間--\n   1 ７六歩(77)\n", &collection);
	check_venue(kif_read, "kif", "手合割：平手\n"
	    "手数----指手---------消費時間--\n   1 ７六歩(77)\n"
	    "   2 ３四歩(33)\n   3 詰み\nまで1手詰\n", &summary);
}

/* The set, its limit where the record states none, then the user's. */
static void
test_venue_ruleset(void **state)
{
	struct session s;
	struct venue v;
	struct ruleset rs, user;
	char desc[RULESET_DESC_MAX];
	static const char wcsc[] = "V2.2\n$EVENT:WCSC29\nPI\n+\n+7776FU\n";
	static const char stated[] = "V2.2\n'Max_Moves:320\n$EVENT:WCSC29\n"
	    "PI\n+\n+7776FU\n";

	(void)state;
	session_start(&s, csa_read, wcsc, strlen(wcsc), variant_standard());
	assert_int_equal(session_next(&s), READ_OK);
	venue_detect(&s.r, "csa", &s.t, &v);
	venue_ruleset(&v, &s.r, NULL, &rs);
	ruleset_describe(&rs, desc, sizeof(desc));
	assert_string_equal(desc, "csa,max-moves=0");
	assert_int_equal(rs.max_moves, 0);
	user = *ruleset_default();
	assert_int_equal(ruleset_set(&user, "max-moves", "300"), 0);
	venue_ruleset(&v, &s.r, &user, &rs);
	ruleset_describe(&rs, desc, sizeof(desc));
	assert_string_equal(desc, "csa,max-moves=300");
	assert_int_equal(rs.max_moves, 300);
	assert_int_equal(rs.declaration, DECLARATION_27);
	session_close(&s);

	/* A stated limit: the set is printed as it is. */
	session_start(&s, csa_read, stated, strlen(stated),
	    variant_standard());
	assert_int_equal(session_next(&s), READ_OK);
	venue_detect(&s.r, "csa", &s.t, &v);
	venue_ruleset(&v, &s.r, NULL, &rs);
	ruleset_describe(&rs, desc, sizeof(desc));
	assert_string_equal(desc, "csa");
	session_close(&s);
}

/*
 * A rules header (what kifu convert writes where the evidence is lost)
 * states the whole set, and outweighs any other evidence; one kifu
 * cannot read is none.
 */
static void
test_venue_rules_header(void **state)
{
	static const struct want csa = {
		"jsa", "$KIFU_RULES 'jsa,declaration=27'", 3, -1
	};
	static const struct want kif = {
		"wars", "kifu-rules 'wars'", 2, -1
	};
	static const struct want bad = { "csa", "$EVENT WCSC", 4, 0 };
	struct session s;
	struct venue v;
	struct ruleset rs;
	char desc[RULESET_DESC_MAX];
	static const char text[] = "V2.2\n$EVENT:WCSC29 F1\n"
	    "$KIFU_RULES:jsa,declaration=27\nPI\n+\n+7776FU\nT3\n%TORYO\n";

	(void)state;
	check_venue(csa_read, "csa", text, &csa);
	check_venue(kif_read, "kif", "先手：a\nkifu-rules：wars\n"
	    "手数----指手---------消費時間--\n   1 ７六歩(77)\n", &kif);
	check_venue(csa_read, "csa", "V2.2\n$KIFU_RULES:shogi-server\n"
	    "$KIFU_RULES:csa,max-moves=-1\n$EVENT:WCSC29\nPI\n+\n", &bad);
	/* The set as stated, settings and all, and the user's on top. */
	session_start(&s, csa_read, text, strlen(text), variant_standard());
	assert_int_equal(session_next(&s), READ_OK);
	venue_detect(&s.r, "csa", &s.t, &v);
	assert_true(v.stated);
	venue_ruleset(&v, &s.r, NULL, &rs);
	ruleset_describe(&rs, desc, sizeof(desc));
	assert_string_equal(desc, "jsa,declaration=27");
	assert_int_equal(rs.declaration, DECLARATION_27);
	assert_int_equal(rs.max_moves, 500);
	session_close(&s);
}

/* ruleset_parse reads what ruleset_describe prints, and nothing else. */
static void
test_ruleset_parse(void **state)
{
	static const char *const good[] = {
		"jsa", "csa,max-moves=0", "wars,declaration=none,max-moves=300",
		"minishogi,repetition=draw", "problem,futile-interposition=no",
	};
	static const char *const bad[] = {
		"", "fide", "csa,", "csa,max-moves", "csa,=3", "csa,max-moves=x",
		"csa,speed=3", ",csa", "CSA",
	};
	struct ruleset rs;
	char desc[RULESET_DESC_MAX];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		if (ruleset_parse(good[i], strlen(good[i]), &rs) < 0)
			fail_msg("'%s' does not parse", good[i]);
		ruleset_describe(&rs, desc, sizeof(desc));
		assert_string_equal(desc, good[i]);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (ruleset_parse(bad[i], strlen(bad[i]), &rs) == 0)
			fail_msg("'%s' parses", bad[i]);
	/* n bounds the text: the rest of a line is not read. */
	assert_int_equal(ruleset_parse("csa,max-moves=0 and more", 15, &rs), 0);
	assert_int_equal(rs.max_moves, 0);
}

struct mate_case {
	const char *sfen;
	int mated;
	const char *why;
};

static void
test_tsume_mated(void **state)
{
	static const struct mate_case cases[] = {
		/* Kobayashi's 1967 problem after 49 moves: the horse on 7c
		 * checks along 8b; any drop there is taken by the dragon,
		 * with mate. */
		{ "k8/4l4/r+R+B2ln2/4pp2p/3l4n/2lp5/6p2/9/7+p1 w b4g4s2n12p 50",
		    1, "futile drops on 8b" },
		/* A plain mate: no reply at all. */
		{ "8k/7G1/7P1/9/9/9/9/9/K8 w r2b3g4s4n4l17p 1", 1,
		    "mate without replies" },
		/* The rook on 1i checks along file 1, the golds hold 2a and
		 * 2b, and every pawn drop between is taken with mate again
		 * (on 1b the gold on 2c protects the rook). */
		{ "8k/6G2/7G1/9/9/9/9/9/K7R w p 1", 1, "futile pawn drops" },
		/* Without the gold on 2c, a pawn on 1b is a defence: after
		 * the rook takes it, the king takes the rook. */
		{ "8k/6G2/9/9/9/9/9/9/K7R w p 1", 0, "a drop the king defends" },
		/* The king walks away: no problem ends here. */
		{ "8k/9/9/9/9/9/9/9/K7R w b 1", 0, "the king escapes" },
		/* A gold next to the king can take the checker. */
		{ "7gk/9/8R/9/9/9/9/9/K8 w p 1", 0, "the checker is taken" },
		{ "8k/9/9/9/9/9/9/9/K8 w - 1", 0, "no check" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct position pos;

		load_sfen(&pos, cases[i].sfen);
		if (tsume_mated(&pos) != cases[i].mated)
			fail_msg("%s: %s: got %d", cases[i].why,
			    cases[i].sfen, !cases[i].mated);
	}
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_venue_floodgate_game_id),
		cmocka_unit_test(test_venue_tournament_event),
		cmocka_unit_test(test_venue_summary),
		cmocka_unit_test(test_venue_server_times),
		cmocka_unit_test(test_venue_kifu_for_windows_times),
		cmocka_unit_test(test_venue_professional),
		cmocka_unit_test(test_venue_wars_header),
		cmocka_unit_test(test_venue_wars_url_comment),
		cmocka_unit_test(test_venue_one_king),
		cmocka_unit_test(test_venue_problem_headers),
		cmocka_unit_test(test_venue_ruleset),
		cmocka_unit_test(test_venue_rules_header),
		cmocka_unit_test(test_ruleset_parse),
		cmocka_unit_test(test_tsume_mated),
	};

	(void)argc;
	(void)argv;
	core_init();
	return cmocka_run_group_tests_name("core/venue", tests, NULL, NULL);
}
