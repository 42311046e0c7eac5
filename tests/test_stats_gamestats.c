/*
 * Counting a record without cmd/ (stats/gamestats.c,
 * gamestats_add_record): a judged record adds its result under the
 * rules, its start, its length, its first two moves and its players, as
 * `kifu stats` counts them.
 */
#include <stdio.h>
#include <stdlib.h>

#include "helpers.h"
#include "api/judge.h"
#include "stats/gamestats.h"

/* Every record of src (a CSA text) counted into s. */
static void
count_text(struct gamestats *s, const char *src)
{
	struct judge_opts jo;
	struct judge j;
	struct judge_input in;
	struct strbuf data = STRBUF_INIT;
	enum read_status st;

	memset(&jo, 0, sizeof(jo));
	jo.no_result_check = 1;
	judge_init(&j, &jo);
	strbuf_adds(&data, src);
	assert_int_equal(judge_open(&j, &in, "t.csa", &data, 0), JUDGE_READY);
	while ((st = judge_next(&j, &in, 0)) != READ_EOF) {
		assert_int_equal(st, READ_OK);
		gamestats_add_record(s, &j, in.f, NULL);
	}
	judge_release(&j);
	strbuf_release(&data);
}

static void
test_add_record(void **state)
{
	struct gamestats s;
	size_t id;

	(void)state;
	gamestats_init(&s, BY_PLAYER);
	count_text(&s, "V2.2\nN+Alice\nN-Bob\nPI\n+\n+7776FU\n-3334FU\n"
	    "%TORYO\n/\nN+Bob\nN-Alice\nPI\n+\n+2726FU\n-3334FU\n+7776FU\n"
	    "%TORYO\n");
	assert_int_equal(s.total.all.records, 2);
	assert_int_equal(s.total.even.records, 2);
	assert_int_equal(s.total.handicap.records, 0);
	assert_int_equal(s.total.all.reason[REASON_RESIGN], 2);
	/* The side to move resigns: Black the first, White the second. */
	assert_int_equal(s.total.all.winner[OUTCOME_BLACK], 1);
	assert_int_equal(s.total.all.winner[OUTCOME_WHITE], 1);
	assert_true(s.total.nlength > 3);
	assert_int_equal(s.total.length[2], 1);
	assert_int_equal(s.total.length[3], 1);
	id = strmap_find(&s.total.openings, "7g7f 3c3d", 9);
	assert_true(id != (size_t)-1);
	assert_int_equal(s.total.opening[id], 1);
	assert_true(strmap_find(&s.total.openings, "2g2f 3c3d", 9) !=
	    (size_t)-1);
	/* Alice lost both, once as Black and once as White (as[side]:
	   wins, losses, draws, unfinished). */
	id = strmap_find(&s.names, "Alice", 5);
	assert_true(id != (size_t)-1);
	assert_int_equal(s.player[id].games, 2);
	assert_int_equal(s.player[id].as[BLACK][1], 1);
	assert_int_equal(s.player[id].as[WHITE][1], 1);
	assert_int_equal(s.player[id].as[BLACK][0] +
	    s.player[id].as[WHITE][0], 0);
	gamestats_release(&s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
