/*
 * A record's analysis (engine/analyze.h) and its comments
 * (engine/annotate.h), with every position answered by a cache of
 * canned results, so that no engine runs: the positions chosen, the
 * judgement of each move (its own MultiPV line, the next position's
 * score, the best move never flagged, mates on one scale), the sides'
 * sums, the JSON, the summary's rows and table, the comment blocks and
 * their replacement, and what the evaluation readers see of them after a
 * write and a read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "reading.h"
#include "core/core.h"
#include "engine/analyze.h"
#include "engine/annotate.h"
#include "parsers/evaluation.h"

/* --- the canned cache -------------------------------------------------- */

#define CANNED_MAX 32

struct canned {
	char key[SFEN_MAX];
	char value[512];
};

static struct canned canned[CANNED_MAX];
static int ncanned, lookups;

static int
lookup(void *ctx, const char *position, const char *setup,
    struct strbuf *value)
{
	int i;

	(void)ctx;
	assert_string_equal(setup, "test-setup");
	lookups++;
	for (i = 0; i < ncanned; i++)
		if (!strcmp(canned[i].key, position)) {
			strbuf_adds(value, canned[i].value);
			return 1;
		}
	fail_msg("no canned result for %s", position);
	return 0;
}

static void
store(void *ctx, const char *position, const char *setup, const char *value)
{
	(void)ctx;
	(void)position;
	(void)setup;
	(void)value;
	fail_msg("nothing is searched here");
}

static const struct analyze_cache cache = { lookup, store, NULL };

/* The result for the position after the USI moves from the start. */
static void
can(const char *moves, const char *value)
{
	struct position pos;
	char copy[256], *tok;

	position_set_start(&pos, variant_standard());
	snprintf(copy, sizeof(copy), "%s", moves);
	for (tok = strtok(copy, " "); tok; tok = strtok(NULL, " ")) {
		struct move_claim c;
		struct undo u;
		move m;

		assert_int_equal(usi_parse_move(pos.v, tok, strlen(tok), &c), 0);
		assert_int_equal(rules_check_move(&pos, &c, &m), RULE_OK);
		position_do_move(&pos, m, &u);
	}
	assert_true(ncanned < CANNED_MAX);
	sfen_write_key(&pos, canned[ncanned].key);
	snprintf(canned[ncanned].value, sizeof(canned[ncanned].value), "%s",
	    value);
	ncanned++;
}

static struct session s;

static void
read_csa(const char *text)
{
	struct replay rp;

	session_start(&s, csa_read, text, strlen(text), variant_standard());
	assert_int_equal(session_next(&s), READ_OK);
	replay_record(&s.r, &rp, &s.d);
	assert_int_equal(s.d.errors, 0);
}

static void
opts(struct analyze_opts *o)
{
	analyze_opts_init(o);
	o->limit.kind = USI_LIMIT_NODES;
	o->limit.value = 1000;
	o->cache = &cache;
	o->setup = "test-setup";
	o->engine_name = "Canned 1.0";
}

/*
 *   P0 Black: best 2g2f +50; MultiPV 2 has 7g7f at +30
 *   7g7f -> P1 White: best 3c3d, -20 (White's view)
 *   3c3d -> P2 Black: best 6i7h +40 (a lower bound)
 *   2g2f -> P3 White: best 6a5b, +900 for White (Black lost 940)
 *   8c8d -> P4 Black: Black mates in 3 (White lost everything)
 */
static const char game[] =
    "V2.2\nPI\n+\n+7776FU\n-3334FU\n+2726FU\n'a player's note\n-8384FU\n";

static void
can_game(void)
{
	ncanned = lookups = 0;
	can("", "info multipv 1 depth 10 seldepth 12 score cp 50 nodes 1000 "
	    "time 120 pv 2g2f 8c8d\ninfo multipv 2 depth 10 score cp 30 nodes "
	    "1000 pv 7g7f 3c3d\nbestmove 2g2f ponder 8c8d\n");
	can("7g7f", "info depth 9 score cp -20 nodes 1001 pv 3c3d 2g2f\n"
	    "bestmove 3c3d ponder 2g2f\n");
	can("7g7f 3c3d", "info depth 9 score cp 40 lowerbound nodes 1002 pv "
	    "6i7h\nbestmove 6i7h\n");
	can("7g7f 3c3d 2g2f", "info depth 8 score cp 900 nodes 1003 pv 6a5b "
	    "6i7h\nbestmove 6a5b\n");
	can("7g7f 3c3d 2g2f 8c8d", "info depth 3 score mate 3 nodes 5 pv "
	    "6i7h\nbestmove 6i7h\n");
}

/* The game analysed with MultiPV 2, from the canned cache. */
static void
analyse_game(struct analyze_opts *o, struct analyzer *a,
    struct analyze_record *ar)
{
	can_game();
	read_csa(game);
	opts(o);
	o->multipv = 2;
	analyzer_init(a, NULL, o);
	analyze_record_init(ar);
	analyze_record(a, &s.r, ar);
}

static void
release_game(struct analyzer *a, struct analyze_record *ar)
{
	analyze_record_release(ar);
	analyzer_release(a);
	session_close(&s);
}

static void
test_value(void **state)
{
	struct usi_score sc;

	(void)state;
	memset(&sc, 0, sizeof(sc));
	sc.kind = USI_SCORE_CP;
	sc.cp = 123;
	assert_int_equal(analyze_value(&sc), 123);
	sc.cp = -99999999;
	assert_int_equal(analyze_value(&sc), -ANALYZE_CP_MAX);
	sc.kind = USI_SCORE_MATE;
	sc.sign = 1;
	sc.plies = 3;
	sc.mate_known = 1;
	assert_int_equal(analyze_value(&sc), ANALYZE_MATE - 3);
	sc.sign = -1;
	sc.plies = 0;
	assert_int_equal(analyze_value(&sc), -ANALYZE_MATE);
	sc.mate_known = 0;
	assert_int_equal(analyze_value(&sc), -(ANALYZE_MATE - 999));
	/* Any mate is beyond any centipawn score. */
	assert_true(-(ANALYZE_MATE - 999) < -ANALYZE_CP_MAX);
	sc.kind = USI_SCORE_NONE;
	assert_int_equal(analyze_value(&sc), 0);
}

static void
test_judgement(void **state)
{
	struct analyze_opts o;
	struct analyzer a;
	struct analyze_record ar;

	(void)state;
	can_game();
	read_csa(game);
	opts(&o);
	o.multipv = 2;
	analyzer_init(&a, NULL, &o);
	analyze_record_init(&ar);
	assert_int_equal(analyze_record(&a, &s.r, &ar), 5);
	assert_int_equal(ar.n, 5);
	assert_int_equal(ar.cached, 5);
	assert_int_equal(lookups, 5);
	/* 7g7f: its own MultiPV line, +30 against +50. */
	assert_true(ar.v[1].judged);
	assert_int_equal(ar.v[1].best, 50);
	assert_int_equal(ar.v[1].played, 30);
	assert_int_equal(ar.v[1].loss, 20);
	assert_int_equal(ar.v[1].cls, CLASS_NONE);
	/* 3c3d is the best move: never flagged. */
	assert_int_equal(ar.v[2].loss, 0);
	/* 2g2f: not listed, so the score after it: -900 against +40. */
	assert_int_equal(ar.v[3].played, -900);
	assert_int_equal(ar.v[3].loss, 940);
	assert_int_equal(ar.v[3].cls, CLASS_BLUNDER);
	/* 8c8d lets Black mate: the scale puts it past any score. */
	assert_int_equal(ar.v[4].played, -(ANALYZE_MATE - 3));
	assert_int_equal(ar.v[4].cls, CLASS_BLUNDER);
	/* The sides. */
	assert_int_equal(ar.sides[BLACK].moves, 2);
	assert_int_equal(ar.sides[BLACK].loss, 960);
	assert_int_equal(ar.sides[BLACK].classes[CLASS_BLUNDER], 1);
	assert_int_equal(ar.sides[BLACK].worst[0], 3);
	assert_int_equal(ar.sides[BLACK].worst[1], 1);
	assert_int_equal(ar.sides[BLACK].worst[2], -1);
	assert_int_equal(ar.sides[WHITE].moves, 2);
	assert_int_equal(ar.sides[WHITE].worst[0], 4);
	/* The class thresholds are the options'. */
	o.thresholds[0] = 10;
	o.thresholds[1] = 15;
	o.thresholds[2] = 5000;
	analyze_record(&a, &s.r, &ar);
	assert_int_equal(ar.v[1].cls, CLASS_MISTAKE);
	assert_int_equal(ar.v[3].cls, CLASS_MISTAKE);
	/* --side white: White's moves and the positions around them. */
	opts(&o);
	o.side = WHITE;
	analyze_record(&a, &s.r, &ar);
	assert_int_equal(ar.n, 4);
	assert_int_equal(ar.sides[BLACK].moves, 0);
	assert_int_equal(ar.sides[WHITE].moves, 2);
	assert_int_equal(analyze_count(&s.r, &o), 4);
	/* --from-ply 2 --to-ply 3: two positions, one move judged. */
	opts(&o);
	o.from_ply = 2;
	o.to_ply = 3;
	analyze_record(&a, &s.r, &ar);
	assert_int_equal(ar.n, 2);
	assert_int_equal(ar.v[0].ply, 2);
	assert_true(ar.v[1].judged);
	assert_false(ar.v[0].judged);
	release_game(&a, &ar);
}

static void
test_json(void **state)
{
	struct analyze_opts o;
	struct analyzer a;
	struct analyze_record ar;
	struct strbuf out = STRBUF_INIT;
	json_t *j;
	json_error_t je;
	const char *p;
	int n = 0;

	(void)state;
	analyse_game(&o, &a, &ar);
	analyze_json(&s.r, &ar, "g.csa", 0, "Canned 1.0", &out);
	analyze_json_summary(&s.r, &ar, "g.csa", 0, &out);
	for (p = out.buf; *p; p = strchr(p, '\n') + 1, n++) {
		if (!(j = json_loadb(p, (size_t)(strchr(p, '\n') - p), 0, &je)))
			fail_msg("line %d is no JSON: %s", n + 1, je.text);
		if (n == 0) {
			assert_string_equal(json_string_value(json_object_get(j,
			    "played")), "7g7f");
			assert_string_equal(json_string_value(json_object_get(j,
			    "best")), "2g2f");
			assert_int_equal(json_integer_value(json_object_get(j,
			    "loss")), 20);
			assert_int_equal(json_array_size(json_object_get(j,
			    "multipv")), 2);
		}
		if (n == 2) {
			assert_int_equal(json_integer_value(json_object_get(j,
			    "score_black")), 40);
			assert_string_equal(json_string_value(json_object_get(j,
			    "bound")), "lower");
			assert_string_equal(json_string_value(json_object_get(j,
			    "class")), "blunder");
			assert_string_equal(json_string_value(json_object_get(j,
			    "class_ja")), "大悪手");
		}
		if (n == 4) {
			assert_int_equal(json_integer_value(json_object_get(j,
			    "mate")), 3);
			assert_true(json_is_null(json_object_get(j, "played")));
		}
		if (n == 5)
			assert_string_equal(json_string_value(json_object_get(j,
			    "type")), "summary");
		json_decref(j);
	}
	assert_int_equal(n, 7);
	strbuf_release(&out);
	release_game(&a, &ar);
}

/* --- the summary ------------------------------------------------------- */

/*
 * The summary's rows: each side's judged moves, the average loss, the
 * classes, and the worst moves, worst first, in KI2 with their losses;
 * and the table, aligned by display width (kanji count two columns).
 */
static void
test_summary(void **state)
{
	static const char rows_want[] =
	    "g.csa\t1\tblack\t2\t480.0\t0\t0\t1\t3▲２六歩 940, 1▲７六歩 20\n"
	    "g.csa\t1\twhite\t2\t16448.5\t0\t0\t1\t4△８四歩 32897\n";
	static const char table_want[] =
	    "file      record  side   moves  avg loss  疑問手  悪手  大悪手  worst\n"
	    "g.csa     1       black      2     480.0       0     0       1  "
	    "3▲２六歩 940, 1▲７六歩 20\n"
	    "g.csa     1       white      2   16448.5       0     0       1  "
	    "4△８四歩 32897\n"
	    "棋譜.kif  12      black      0         -       0     0       0  \n";
	struct analyze_opts o;
	struct analyzer a;
	struct analyze_record ar;
	struct strbuf rows = STRBUF_INIT, table = STRBUF_INIT;

	(void)state;
	analyse_game(&o, &a, &ar);
	analyze_summary_rows(&s.r, &ar, "g.csa", 0, &rows);
	assert_string_equal(rows.buf, rows_want);
	/* A record with nothing judged, of a file named in kanji. */
	strbuf_adds(&rows, "棋譜.kif\t12\tblack\t0\t-\t0\t0\t0\t\n");
	analyze_summary_table(&rows, &table);
	assert_string_equal(table.buf, table_want);
	/* No rows: the header alone. */
	strbuf_reset(&rows);
	strbuf_reset(&table);
	analyze_summary_table(&rows, &table);
	assert_string_equal(table.buf, "file  record  side  moves  avg loss  "
	    "疑問手  悪手  大悪手  worst\n");
	strbuf_release(&rows);
	strbuf_release(&table);
	release_game(&a, &ar);
}

/* --- the comments ------------------------------------------------------ */

static void
test_replace(void **state)
{
	static const struct { const char *old, *block, *want; } c[] = {
		{ NULL, "#kifu-analyze: 1 line; e; nodes 1\n#評価値=5",
		    "#kifu-analyze: 1 line; e; nodes 1\n#評価値=5" },
		{ "mine", "B", "mine\nB" },
		/* kifu's lines go, in place; the rest stays */
		{ "a\n#kifu-analyze: 2 lines; e\n#評価値=1\n*解析 0  候補1\nb",
		    "NEW", "a\nNEW\nb" },
		/* the count stops it: a foreign line after kifu's block stays */
		{ "#kifu-analyze: 1 line; e\n#評価値=1\n#評価値=2", "NEW",
		    "NEW\n#評価値=2" },
		/* a line in no form of kifu's ends the block early */
		{ "#kifu-analyze: 3 lines; e\n#評価値=1\nuser note\n#深さ=3",
		    "NEW", "NEW\nuser note\n#深さ=3" },
		/* two old blocks: one new one, where the first was */
		{ "#kifu-analyze: 1 line; e\n#深さ=1\nx\n#kifu-analyze: 1 line; "
		    "e\n#深さ=2", "NEW", "NEW\nx" },
		/* nothing new: nothing removed either */
		{ "#kifu-analyze: 1 line; e\n#深さ=1", "",
		    "#kifu-analyze: 1 line; e\n#深さ=1" },
		/* not a marker: no count, or not at the line's start */
		{ "#kifu-analyze: many lines\n#深さ=1", "B",
		    "#kifu-analyze: many lines\n#深さ=1\nB" },
		{ " #kifu-analyze: 1 line\n#深さ=1", "B",
		    " #kifu-analyze: 1 line\n#深さ=1\nB" },
		/* empty lines of the user's stay */
		{ "\n\nz", "B", "\n\nz\nB" },
	};
	struct strbuf out = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		strbuf_reset(&out);
		annotate_replace(c[i].old, c[i].block, &out);
		if (strcmp(out.buf ? out.buf : "", c[i].want))
			fail_msg("case %zu: '%s' not '%s'", i, out.buf,
			    c[i].want);
	}
	strbuf_release(&out);
}

/* The comment of the node at ply k of the main line. */
static const char *
comment_at(const struct record *r, int ply)
{
	int32_t i = 0;

	while (ply-- > 0)
		i = r->nodes[i].next;
	return r->nodes[i].comment ? record_str(r, r->nodes[i].comment) : NULL;
}

static void
test_blocks(void **state)
{
	struct analyze_opts o;
	struct analyzer a;
	struct analyze_record ar;
	struct strbuf csa = STRBUF_INIT, again = STRBUF_INIT;
	struct write_opts wo;
	struct diag_list d;
	struct evaluation e;
	struct replay rp;
	const char *c;

	(void)state;
	analyse_game(&o, &a, &ar);
	annotate_record(&s.r, &ar, &o, 1);
	c = comment_at(&s.r, 0);
	assert_non_null(c);
	assert_non_null(strstr(c, "#kifu-analyze: 8 lines; Canned 1.0; nodes "
	    "1000\n#評価値=50\n#読み筋=▲２六歩△８四歩\n#深さ=10\n#ノード数=1000\n"
	    "#エンジン=Canned 1.0\n*解析 0  候補1 時間 00:00.1 深さ 10/12 ノード数 "
	    "1000 評価値 50 読み筋 ▲２六歩(27) △８四歩(83)\n*解析 0  候補2 時間 "
	    "00:00.1 深さ 10 ノード数 1000 評価値 30 読み筋 ▲７六歩(77) △３四歩(33)\n"
	    "** 50 +2726FU -8384FU"));
	/* The judgement rides on the marker of the move that was played. */
	c = comment_at(&s.r, 3);
	assert_non_null(strstr(c, "a player's note\n#kifu-analyze: "));
	assert_non_null(strstr(c, "; 大悪手 (loss 940)\n#評価値=-900\n"));
	/* A bound, in ShogiGUI's line. */
	assert_non_null(strstr(comment_at(&s.r, 2), "評価値 40↑"));
	/* A mate: ShogiHome's 詰み line, and +-30000 for the score. */
	c = comment_at(&s.r, 4);
	assert_non_null(strstr(c, "#詰み=先手勝ち:3手\n#評価値=30000\n"));
	/* Written as CSA and read back: both readers see kifu's scores. */
	memset(&wo, 0, sizeof(wo));
	wo.csa_version = 2;
	diag_list_init(&d);
	assert_int_equal(csa_write(&s.r, &wo, &csa, &d), 0);
	session_close(&s);
	read_csa(csa.buf);
	evaluation_read_analysis(comment_at(&s.r, 3), &e);
	assert_true(e.has && !e.mate && e.score == -900);
	evaluation_read(comment_at(&s.r, 3), &e);
	assert_true(e.has && !e.mate && e.score == -900);
	evaluation_read_analysis(comment_at(&s.r, 4), &e);
	assert_true(e.has && e.mate == 1);
	/* Analysed again: the same text, to the byte. */
	replay_record(&s.r, &rp, &s.d);
	analyze_record(&a, &s.r, &ar);
	annotate_record(&s.r, &ar, &o, 1);
	assert_int_equal(csa_write(&s.r, &wo, &again, &d), 0);
	assert_string_equal(again.buf, csa.buf);
	diag_list_release(&d);
	strbuf_release(&csa);
	strbuf_release(&again);
	release_game(&a, &ar);
}

/* The key of an engine's note: what was asked, and the program file. */
static void
test_engine_key(void **state)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	struct usi_limit lim = { USI_LIMIT_NODES, 100, 0, 0, 0, 0, 0 };
	char prog[] = "/tmp/kifu-key.XXXXXX";
	const char *argv[] = { prog, "--flag", NULL };
	const char *opts[] = { "Hash=16", "Threads=1" };
	const char *swapped[] = { "Threads=1", "Hash=16" };
	const char *missing[] = { "/nonexistent/engine", NULL };
	FILE *f;
	int fd;

	(void)state;
	fd = mkstemp(prog);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(chmod(prog, 0755), 0);
	assert_int_equal(analyze_engine_key(&a, argv, NULL, opts, 2, &lim, 1),
	    0);
	assert_int_equal(analyze_engine_key(&b, argv, NULL, opts, 2, &lim, 1),
	    0);
	assert_string_equal(a.buf, b.buf);
	assert_non_null(strstr(a.buf, "arg=6:--flag\n"));
	/* The options in another order were asked otherwise: another key
	   (the setup, sorted, may still be the same). */
	strbuf_reset(&b);
	analyze_engine_key(&b, argv, NULL, swapped, 2, &lim, 1);
	assert_string_not_equal(a.buf, b.buf);
	strbuf_reset(&b);
	lim.value = 200;
	analyze_engine_key(&b, argv, NULL, opts, 2, &lim, 1);
	assert_string_not_equal(a.buf, b.buf);
	lim.value = 100;
	strbuf_reset(&b);
	analyze_engine_key(&b, argv, NULL, opts, 2, &lim, 2);
	assert_string_not_equal(a.buf, b.buf);
	/* The program file rewritten: another key. */
	f = fopen(prog, "a");
	fputs("#!/bin/sh\n", f);
	fclose(f);
	strbuf_reset(&b);
	analyze_engine_key(&b, argv, NULL, opts, 2, &lim, 1);
	assert_string_not_equal(a.buf, b.buf);
	unlink(prog);
	/* No program, no key. */
	strbuf_reset(&b);
	assert_int_equal(analyze_engine_key(&b, missing, NULL, NULL, 0, &lim, 1),
	    -1);
	assert_int_equal(b.len, 0);
	strbuf_release(&a);
	strbuf_release(&b);
}

int
main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_value),
		cmocka_unit_test(test_judgement),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_replace),
		cmocka_unit_test(test_blocks),
		cmocka_unit_test(test_engine_key),
	};

	core_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
