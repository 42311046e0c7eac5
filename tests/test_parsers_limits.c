/*
 * test_parsers_limits.c - the reading limits (core/limit.h): parsing
 * "NAME=N", and each limit stopping each parser at the right place.
 */
#include <string.h>

#include "reading.h"
#include "core/limit.h"
#include "parsers/jkf.h"

static void
test_parse(void **state)
{
	struct limits lim = limits_default;

	(void)state;
	assert_int_equal(limits_parse(&lim, "moves=5"), 0);
	assert_int_equal(lim.moves, 5);
	assert_int_equal(limits_parse(&lim, "depth=0"), 0);
	assert_int_equal(lim.depth, 0);
	assert_int_equal(limits_parse(&lim, "headers=7"), 0);
	assert_int_equal(lim.headers, 7);
	assert_int_equal(limits_parse(&lim, "line=100"), 0);
	assert_int_equal(lim.line, 100);
	assert_int_equal(limits_parse(&lim, "record=4294967295"), 0);
	assert_int_equal(lim.record, 4294967295u);
	/* Refused, and nothing changes. */
	assert_int_equal(limits_parse(&lim, "record=4294967296"), -1);
	assert_int_equal(limits_parse(&lim, "moves=2147483648"), -1);
	assert_int_equal(limits_parse(&lim, "moves="), -1);
	assert_int_equal(limits_parse(&lim, "moves=-1"), -1);
	assert_int_equal(limits_parse(&lim, "moves=1k"), -1);
	assert_int_equal(limits_parse(&lim, "moves"), -1);
	assert_int_equal(limits_parse(&lim, "=3"), -1);
	assert_int_equal(limits_parse(&lim, "size=3"), -1);
	assert_int_equal(limits_parse(&lim, "movesx=3"), -1);
	assert_int_equal(lim.moves, 5);
	assert_int_equal(lim.record, 4294967295u);
}

/* Reads src as one record with `lim`; it must fail with a limit error. */
static void
read_over(read_fn read, const char *src, const struct limits *lim,
    unsigned line, unsigned col, int ply)
{
	struct session s;
	size_t i;

	session_start_limited(&s, read, src, strlen(src), variant_standard(),
	    lim);
	assert_int_equal(session_next(&s), READ_ERROR);
	assert_diag(&s.d, DIAG_ERROR, DIAG_LIMIT, line, col);
	for (i = 0; i < s.d.n; i++)
		if (!strcmp(s.d.v[i].id, "limit"))
			assert_int_equal(s.d.v[i].ply, ply);
	session_close(&s);
}

/* ...and within the limit it reads. */
static void
read_within(read_fn read, const char *src, const struct limits *lim)
{
	struct session s;

	session_start_limited(&s, read, src, strlen(src), variant_standard(),
	    lim);
	assert_int_equal(session_next(&s), READ_OK);
	assert_no_errors(&s.d);
	session_close(&s);
}

static const char kif_game[] =
    "手合割：平手\n"
    "先手：甲\n"
    "後手：乙\n"
    "手数----指手---------消費時間--\n"
    "   1 ７六歩(77)\n"
    "   2 ３四歩(33)\n"
    "   3 ２六歩(27)\n"
    "   4 ８四歩(83)\n"
    "\n"
    "変化：3手\n"
    "   3 ６六歩(67)\n"
    "   4 ８四歩(83)\n"
    "\n"
    "変化：4手\n"
    "   4 ８五歩(83)\n";

static const char ki2_game[] =
    "手合割：平手\n"
    "先手：甲\n"
    "後手：乙\n"
    "\n"
    "▲７六歩    △３四歩    ▲２六歩    △８四歩\n";

static const char csa_game[] =
    "V2.2\n"
    "N+甲\n"
    "N-乙\n"
    "$EVENT:テスト\n"
    "PI\n"
    "+\n"
    "+7776FU\n"
    "-3334FU\n"
    "+2726FU,T3\n"
    "-8384FU\n"
    "%TORYO\n";

static void
test_moves(void **state)
{
	struct limits lim = limits_default;

	(void)state;
	lim.moves = 3;
	/* The fourth node: move 4 of the main line, at its token. */
	read_over(kif_read, kif_game, &lim, 8, 6, 4);
	read_over(ki2_read, ki2_game, &lim, 5, 25, 4);
	read_over(csa_read, csa_game, &lim, 10, 1, 4);
	read_over(usi_read, "startpos moves 7g7f 3c3d 2g2f 8c8d\n", &lim,
	    1, 31, 4);
	lim.moves = 7;
	read_within(kif_read, kif_game, &lim);
	lim.moves = 4;
	read_within(ki2_read, ki2_game, &lim);
	lim.moves = 5;			/* and the %TORYO */
	read_within(csa_read, csa_game, &lim);
	lim.moves = 0;
	read_within(kif_read, kif_game, &lim);
}

static void
test_depth(void **state)
{
	struct limits lim = limits_default;

	(void)state;
	lim.depth = 1;
	/* 変化：4手 branches off 変化：3手: depth 2, at its move. */
	read_over(kif_read, kif_game, &lim, 15, 6, 4);
	lim.depth = 2;
	read_within(kif_read, kif_game, &lim);
}

static void
test_headers(void **state)
{
	struct limits lim = limits_default;

	(void)state;
	lim.headers = 2;
	read_over(kif_read, kif_game, &lim, 3, 1, 0);
	read_over(ki2_read, ki2_game, &lim, 3, 1, 0);
	/* V2.2, N+, N-: the third header is N-. */
	read_over(csa_read, csa_game, &lim, 3, 1, 0);
	lim.headers = 3;
	read_within(kif_read, kif_game, &lim);
}

static void
test_record_size(void **state)
{
	struct limits lim = limits_default;

	(void)state;
	/* Line 5 of the KIF text ends past byte 100. */
	lim.record = 100;
	read_over(kif_read, kif_game, &lim, 5, 1, 0);
	lim.record = 40;
	read_over(csa_read, csa_game, &lim, 7, 1, 0);
	lim.record = sizeof(kif_game);
	read_within(kif_read, kif_game, &lim);
}

static void
test_csa_goes_on(void **state)
{
	struct limits lim = limits_default;
	struct session s;
	const char src[] = "PI\n+\n+7776FU\n-3334FU\n+2726FU\n/\n"
	    "PI\n+\n+7776FU\n";

	(void)state;
	lim.moves = 2;
	session_start_limited(&s, csa_read, src, strlen(src),
	    variant_standard(), &lim);
	/* The first game is over the limit; the next one is read. */
	assert_int_equal(session_next(&s), READ_ERROR);
	assert_diag(&s.d, DIAG_ERROR, DIAG_LIMIT, 5, 1);
	diag_list_clear(&s.d);
	assert_int_equal(session_next(&s), READ_OK);
	assert_no_errors(&s.d);
	assert_int_equal(s.r.nnodes, 2);
	session_close(&s);
}

static void
test_jkf(void **state)
{
	struct limits lim = limits_default;
	struct session s;
	const char src[] = "{\"header\":{\"a\":\"1\",\"b\":\"2\"},\"moves\":[{},"
	    "{\"move\":{\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},"
	    "\"piece\":\"FU\"}},{\"move\":{\"from\":{\"x\":3,\"y\":3},"
	    "\"to\":{\"x\":3,\"y\":4},\"piece\":\"FU\"}}]}";

	(void)state;
	lim.moves = 1;
	session_start_limited(&s, jkf_read, src, strlen(src),
	    variant_standard(), &lim);
	assert_int_equal(session_next(&s), READ_ERROR);
	assert_true(s.d.errors == 1 && !strcmp(s.d.v[s.d.n - 1].id, "limit"));
	assert_int_equal(s.d.v[s.d.n - 1].ply, 2);
	session_close(&s);
	lim = limits_default;
	lim.headers = 1;
	session_start_limited(&s, jkf_read, src, strlen(src),
	    variant_standard(), &lim);
	assert_int_equal(session_next(&s), READ_ERROR);
	assert_string_equal(s.d.v[s.d.n - 1].id, "limit");
	session_close(&s);
	lim = limits_default;
	lim.record = 50;
	session_start_limited(&s, jkf_read, src, strlen(src),
	    variant_standard(), &lim);
	assert_int_equal(session_next(&s), READ_ERROR);
	assert_diag(&s.d, DIAG_ERROR, DIAG_LIMIT, 1, 1);
	session_close(&s);
}

static void
test_line(void **state)
{
	struct diag_list d = DIAG_LIST_INIT;
	struct text t;
	const char src[] = "short\nそれより長い行\nx";

	(void)state;
	text_init(&t);
	assert_int_equal(t.max_line, limits_default.line);
	t.max_line = 20;
	assert_int_equal(text_decode(&t, src, strlen(src), &d), -1);
	assert_diag(&d, DIAG_ERROR, DIAG_LIMIT, 2, 1);
	/* The setting outlives a release, and 0 is no limit. */
	text_release(&t);
	assert_int_equal(t.max_line, 20);
	t.max_line = 0;
	diag_list_clear(&d);
	assert_int_equal(text_decode(&t, src, strlen(src), &d), 0);
	assert_int_equal(t.nlines, 3);
	text_release(&t);
	diag_list_release(&d);
}

static void
test_depth_counting(void **state)
{
	struct record r;
	int32_t a, b, c, d2, e;

	(void)state;
	record_init(&r, variant_standard());
	a = record_add_node(&r, 0);	/* main line */
	b = record_add_node(&r, a);
	c = record_add_node(&r, a);	/* alternative to b */
	d2 = record_add_node(&r, c);	/* continues c: same depth */
	e = record_add_node(&r, c);	/* alternative inside it */
	assert_int_equal(r.nodes[a].depth, 0);
	assert_int_equal(r.nodes[b].depth, 0);
	assert_int_equal(r.nodes[c].depth, 1);
	assert_int_equal(r.nodes[d2].depth, 1);
	assert_int_equal(r.nodes[e].depth, 2);
	assert_int_equal(r.depth, 2);
	/* Siblings are linked in order, the last one found in O(1). */
	assert_int_equal(r.nodes[a].next, b);
	assert_int_equal(r.nodes[b].alt, c);
	assert_int_equal(r.nodes[a].last, c);
	assert_int_equal(r.nodes[d2].alt, e);
	record_reset(&r, variant_standard());
	assert_int_equal(r.depth, 0);
	record_release(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_moves),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_headers),
		cmocka_unit_test(test_record_size),
		cmocka_unit_test(test_csa_goes_on),
		cmocka_unit_test(test_jkf),
		cmocka_unit_test(test_line),
		cmocka_unit_test(test_depth_counting),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
