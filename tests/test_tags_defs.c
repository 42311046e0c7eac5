/*
 * The definitions reader and compiler (tags/defs.c): what a user's
 * --definitions file may say, how it adds to and overrides kifu's own,
 * and every way it can be wrong (named at its line and column), and the
 * matcher on definitions written for the test (tags/tagger.c).
 */
#include <stdio.h>

#include "tags_games.h"

/* Loads a text into a fresh set (kifu's own first, with builtin). */
static struct tagdefs *
load(int builtin, const char *text, struct diag_list *dl)
{
	struct tagdefs *d = tagdefs_new();

	if (builtin && tagdefs_load_builtin(d, dl))
		fail_msg("the built-in definitions do not load");
	if (tagdefs_load(d, "test.def", text, strlen(text), dl) ||
	    tagdefs_compile(d, dl)) {
		tagdefs_free(d);
		return NULL;
	}
	return d;
}

/* Fails unless the text is refused with an error at line:col. */
static void
refused(const char *text, unsigned line, unsigned col)
{
	struct diag_list dl = DIAG_LIST_INIT;
	struct tagdefs *d = load(0, text, &dl);

	if (d) {
		tagdefs_free(d);
		fail_msg("accepted: %s", text);
	}
	if (!dl.errors)
		fail_msg("refused without an error: %s", text);
	if (line && (dl.v[0].loc.line != line || dl.v[0].loc.col != col)) {
		dump_diags(&dl);
		fail_msg("error at %u:%u, not %u:%u: %s", dl.v[0].loc.line,
		    dl.v[0].loc.col, line, col, text);
	}
	diag_list_release(&dl);
}

static void
test_syntax_errors(void **state)
{
	(void)state;
	refused("castel 美濃\n", 1, 1);
	refused("castle\n", 1, 7);
	refused("castle a b\n", 1, 10);
	refused("castle a\n    bord K28\n", 2, 5);
	refused("castle a\n    board X28\n", 2, 11);
	refused("castle a\n    board K0\n", 2, 12);
	refused("castle a\n    board K2\n", 2, 12);
	refused("castle a\n    board K28;38\n", 2, 14);
	refused("castle a\n    board K28,\n", 2, 15);
	refused("castle a\n    board K\n", 2, 12);
	refused("castle a\n    board +K28\n", 2, 12);
	refused("castle a\n    board !\n", 2, 11);
	refused("castle a\n    hand K\n", 2, 10);
	refused("castle a\n    hand BB\n", 2, 10);
	refused("castle a\n    plies 40-10\n", 2, 11);
	refused("castle a\n    plies x\n", 2, 11);
	refused("castle a\n    plies -\n", 2, 11);
	refused("castle a\n    plies 1-2 3\n", 2, 5);
	refused("castle a\n    plies 9999999\n", 2, 11);
	refused("castle a\n    hold now\n", 2, 10);
	refused("castle a\n    default\n", 2, 5);
	refused("castle a\n    requires\n", 2, 5);
	refused("castle a\n    requires opp\n", 2, 5);
	refused("castle a\n    matchup 対抗型\n", 2, 5);
	refused("game a\n    board K28\n", 2, 5);
	refused("game a\n    matchup 居飛車\n", 2, 13);
	refused("    board K28\n", 1, 5);
	refused("castle a,b\n", 1, 9);
	refused("castle \xff\n", 1, 8);
	refused("castle a\n    family\n", 2, 5);
	/* A NUL byte, a line too long. */
	{
		static const char nul[] = "castle a\n    board K28\0\n";
		struct diag_list dl = DIAG_LIST_INIT;
		struct tagdefs *d = tagdefs_new();

		assert_int_equal(tagdefs_load(d, "t", nul, sizeof(nul) - 1,
		    &dl), -1);
		assert_int_equal(dl.v[0].loc.line, 2);
		diag_list_release(&dl);
		tagdefs_free(d);
	}
	{
		struct strbuf sb = STRBUF_INIT;
		int i;

		strbuf_adds(&sb, "castle a\n    board");
		for (i = 0; i < 2000; i++)
			strbuf_adds(&sb, " K28");
		strbuf_addc(&sb, '\n');
		refused(sb.buf, 2, 1);
		strbuf_release(&sb);
	}
}

/* What only the whole set can say: a name nobody defines. */
static void
test_compile_errors(void **state)
{
	struct diag_list dl = DIAG_LIST_INIT;
	struct tagdefs *d;

	(void)state;
	d = load(1, "opening 新戦法\n    requires 飛車先交喚\n", &dl);
	assert_null(d);
	assert_true(dl.errors >= 1);
	assert_non_null(strstr(dl.v[0].message, "飛車先交喚"));
	assert_non_null(strstr(dl.v[0].message, "test.def:1"));
	diag_list_release(&dl);
	diag_list_init(&dl);
	d = load(1, "game 新型\n    either 新戦法\n", &dl);
	assert_null(d);
	diag_list_release(&dl);
	diag_list_init(&dl);
	d = load(1, "game 新型\n    either 四間飛車\n    before 無い\n", &dl);
	assert_null(d);
	diag_list_release(&dl);
}

/* A failed load leaves the set as it was. */
static void
test_failed_load_changes_nothing(void **state)
{
	struct diag_list dl = DIAG_LIST_INIT;
	struct tagdefs *d = tagdefs_new();
	struct strbuf before = STRBUF_INIT, after = STRBUF_INIT;
	static const char bad[] = "castle 美濃囲い\n    board K28\n"
	    "castle 新囲い\n    board Q28\n";

	(void)state;
	assert_int_equal(tagdefs_load_builtin(d, &dl), 0);
	tagdefs_write(d, 1, &before);
	assert_int_equal(tagdefs_load(d, "bad", bad, strlen(bad), &dl), -1);
	tagdefs_write(d, 1, &after);
	assert_string_equal(before.buf, after.buf);
	assert_int_equal(tagdefs_find_label(d, "新囲い", strlen("新囲い")),
	    (uint32_t)-1);
	assert_int_equal(tagdefs_compile(d, &dl), 0);
	strbuf_release(&before);
	strbuf_release(&after);
	diag_list_release(&dl);
	tagdefs_free(d);
}

/* Written back, the set reads as the same set. */
static void
test_write_reads_back(void **state)
{
	struct diag_list dl = DIAG_LIST_INIT;
	struct tagdefs *d = tagdefs_new(), *e = tagdefs_new();
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	(void)state;
	assert_int_equal(tagdefs_load_builtin(d, &dl), 0);
	tagdefs_write(d, 0, &a);
	assert_int_equal(tagdefs_load(e, "again", a.buf, a.len, &dl), 0);
	assert_int_equal(tagdefs_compile(e, &dl), 0);
	tagdefs_write(e, 0, &b);
	assert_string_equal(a.buf, b.buf);
	assert_int_equal(d->n, e->n);
	strbuf_release(&a);
	strbuf_release(&b);
	diag_list_release(&dl);
	tagdefs_free(d);
	tagdefs_free(e);
}

static int
index_of(const struct tagdefs *d, const char *kind, const char *name)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (!strcmp(tag_kind_name(d->v[i].kind), kind) &&
		    !strcmp(tagdefs_label(d, d->v[i].name), name))
			return (int)i;
	return -1;
}

/*
 * A user's set written out reads back as itself, in the same order: a
 * game rule with no condition (a catch-all) put ahead of kifu's by
 * `before`, and a `before` that names a definition of the same text
 * (which keeps the text's order). Found by fuzz_tags.
 */
static void
test_user_set_reads_back(void **state)
{
	static const char text[] =
	    "game 早い\n"
	    "    family 力戦\n"
	    "    before ひねり飛車\n"
	    "game 後で\n"
	    "    either 矢倉\n"
	    "game 先で\n"
	    "    either 雁木\n"
	    "    before 後で\n";
	struct diag_list dl = DIAG_LIST_INIT;
	struct tagdefs *d = load(1, text, &dl), *e = tagdefs_new();
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	(void)state;
	assert_non_null(d);
	assert_int_equal(index_of(d, "game", "早い") + 1,
	    index_of(d, "game", "ひねり飛車"));
	/* A new game rule goes ahead of kifu's catch-all, in the text's
	 * order: 後で, then 先で (its before names one of the text). */
	assert_true(index_of(d, "game", "後で") <
	    index_of(d, "game", "先で"));
	assert_true(index_of(d, "game", "先で") <
	    index_of(d, "game", "力戦"));
	tagdefs_write(d, 0, &a);
	assert_int_equal(tagdefs_load(e, "again", a.buf, a.len, &dl), 0);
	assert_int_equal(tagdefs_compile(e, &dl), 0);
	tagdefs_write(e, 0, &b);
	assert_string_equal(a.buf, b.buf);
	strbuf_release(&a);
	strbuf_release(&b);
	diag_list_release(&dl);
	tagdefs_free(d);
	tagdefs_free(e);
}

/* A user's definition replaces kifu's of that name, in its place. */
static void
test_override_in_place(void **state)
{
	struct diag_list dl = DIAG_LIST_INIT;
	struct tagdefs *base = load(1, "", &dl), *d;
	struct tagger *tg;
	struct record r;
	const struct tag_result *res;
	int at, n_before;

	(void)state;
	assert_non_null(base);
	at = index_of(base, "opening", "相掛かり");
	assert_true(at >= 0);
	n_before = (int)base->n;
	/* 相掛かり has two variants; the override is one. */
	d = load(1, "opening 相掛かり\n    board P26\n    plies -10\n", &dl);
	assert_non_null(d);
	assert_int_equal(index_of(d, "opening", "相掛かり"), at);
	assert_int_equal((int)d->n, n_before - 1);
	assert_string_equal(d->sources[d->v[at].source], "test.def");
	tg = tagger_new(d);
	res = tag_usi(tg, &r, "startpos moves 2g2f 8c8d");
	assert_int_equal(tag_ply(d, res, BLACK, "相掛かり"), 1);
	assert_int_equal(tag_ply(d, res, WHITE, "相掛かり"), 2);
	record_release(&r);
	tagger_free(tg);
	tagdefs_free(d);
	tagdefs_free(base);
	diag_list_release(&dl);
}

/* New names; off; before; a new game rule ahead of the catch-all. */
static void
test_additions(void **state)
{
	static const char text[] =
	    "# the rook's pawn on 26 and the king on 48, within 10 plies\n"
	    "opening 試し\n"
	    "    board P26 K48\n"
	    "    plies -10\n"
	    "castle 舟囲い\n"
	    "    off\n"
	    "game 試しの将棋\n"
	    "    either 試し\n";
	struct diag_list dl = DIAG_LIST_INIT;
	struct tagdefs *d = load(1, text, &dl);
	struct tagger *tg;
	struct record r;
	const struct tag_result *res;
	int g, last;

	(void)state;
	assert_non_null(d);
	g = index_of(d, "game", "試しの将棋");
	last = index_of(d, "game", "力戦");
	assert_true(g >= 0 && g < last);
	tg = tagger_new(d);
	res = tag_usi(tg, &r, "startpos moves 2g2f 8c8d 5i4h");
	assert_int_equal(tag_ply(d, res, BLACK, "試し"), 3);
	assert_string_equal(tag_game(d, res), "試しの将棋");
	record_release(&r);
	/* 舟囲い is off: not named where it would be. */
	res = tag_usi(tg, &r, "startpos moves 5i6h 1c1d 6h7h 1d1e 4i5h");
	assert_int_equal(tag_ply(d, res, BLACK, "舟囲い"), -1);
	record_release(&r);
	tagger_free(tg);
	tagdefs_free(d);
	/* before: ahead of a named game rule. */
	d = load(1, "game 先に\n    either 四間飛車\n    before 相振飛車\n",
	    &dl);
	assert_non_null(d);
	assert_int_equal(index_of(d, "game", "先に") + 1,
	    index_of(d, "game", "相振飛車"));
	tagdefs_free(d);
	diag_list_release(&dl);
}

/* The matcher's rules, on definitions made for the test. */
static void
test_matching_rules(void **state)
{
	static const char text[] =
	    "mark 角道\n"
	    "    board !P77\n"
	    "opening 角道のあと\n"
	    "    requires 角道\n"
	    "    board P26\n"
	    "opening 相手の角道\n"
	    "    requires opp 角道\n"
	    "    board P26\n"
	    "opening 角道の前\n"
	    "    unless 角道\n"
	    "    board P26\n"
	    "castle 玉不動\n"
	    "    board K59\n"
	    "    hold\n"
	    "    plies 2-4\n"
	    "opening 手に角\n"
	    "    hand B\n"
	    "opening 空き\n"
	    "    board .77 !.88\n"
	    "opening 相手の歩\n"
	    "    board p34\n"
	    "    plies 2\n";
	struct diag_list dl = DIAG_LIST_INIT;
	struct tagdefs *d = load(0, text, &dl);
	struct tagger *tg;
	struct record r;
	const struct tag_result *res;

	(void)state;
	assert_non_null(d);
	tg = tagger_new(d);
	res = tag_usi(tg, &r, "startpos moves 7g7f 3c3d 2g2f 1c1d 5i5h");
	assert_int_equal(tag_ply(d, res, BLACK, "角道のあと"), 3);
	assert_int_equal(tag_ply(d, res, WHITE, "相手の角道"), -1);
	assert_int_equal(tag_ply(d, res, BLACK, "相手の角道"), 3);
	assert_int_equal(tag_ply(d, res, BLACK, "角道の前"), -1);
	/* Held over plies 2-4, the king moved at 5: named at 4. */
	assert_int_equal(tag_ply(d, res, BLACK, "玉不動"), 4);
	assert_int_equal(tag_ply(d, res, WHITE, "玉不動"), 4);
	assert_int_equal(tag_ply(d, res, BLACK, "空き"), 1);
	/* plies 2 alone: White's 3四歩 at ply 2 is Black's p34. */
	assert_int_equal(tag_ply(d, res, BLACK, "相手の歩"), 2);
	assert_int_equal(tag_ply(d, res, BLACK, "手に角"), -1);
	record_release(&r);
	/* The king moves at ply 3: 玉不動 does not hold. */
	res = tag_usi(tg, &r, "startpos moves 2g2f 8c8d 5i5h 1c1d 5h5i");
	assert_int_equal(tag_ply(d, res, BLACK, "玉不動"), -1);
	assert_int_equal(tag_ply(d, res, BLACK, "角道の前"), 1);
	record_release(&r);
	/* A game that ends inside the window does not reach it. */
	res = tag_usi(tg, &r, "startpos moves 2g2f 8c8d 1g1f");
	assert_int_equal(tag_ply(d, res, WHITE, "玉不動"), -1);
	record_release(&r);
	res = tag_usi(tg, &r, "startpos moves 7g7f 3c3d 8h2b+ 3a2b");
	assert_int_equal(tag_ply(d, res, BLACK, "手に角"), 3);
	assert_int_equal(tag_ply(d, res, WHITE, "手に角"), 4);
	record_release(&r);
	tagger_free(tg);
	tagdefs_free(d);
	diag_list_release(&dl);
}

/* Header texts read as game-level names. */
static void
test_read_game(void **state)
{
	const struct tagdefs *d = tagdefs_default();
	static const struct {
		const char *text, *game;
	} cases[] = {
		{ "四間飛車", "四間飛車" },
		{ "先手四間飛車、後手棒銀", "四間飛車" },
		{ "四間対居飛穴", "四間飛車" },
		{ "相振り飛車", "相振飛車" },
		{ "向かい飛車", "向飛車" },
		{ "角換り腰掛銀", "角換わり" },
		{ "矢倉中飛車", "矢倉" },
		{ "相矢倉", "相矢倉" },
		{ "石田流", "三間飛車" },
		{ "飛先換腰掛銀", NULL },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int g = tagdefs_read_game(d, cases[i].text,
		    strlen(cases[i].text));

		if (!cases[i].game) {
			assert_int_equal(g, -1);
			continue;
		}
		assert_true(g >= 0);
		assert_string_equal(tagdefs_label(d, d->v[g].name),
		    cases[i].game);
	}
	assert_int_equal(tag_matchup_parse("相振飛車", strlen("相振飛車")),
	    MATCHUP_RANGING);
	assert_string_equal(tag_matchup_name(MATCHUP_OPPOSITE), "対抗型");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_compile_errors),
		cmocka_unit_test(test_failed_load_changes_nothing),
		cmocka_unit_test(test_write_reads_back),
		cmocka_unit_test(test_user_set_reads_back),
		cmocka_unit_test(test_override_in_place),
		cmocka_unit_test(test_additions),
		cmocka_unit_test(test_matching_rules),
		cmocka_unit_test(test_read_game),
	};

	core_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
