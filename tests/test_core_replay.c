/*
 * Replay with a visit at every position (core/replay.c,
 * replay_record_walk): what kifu find searches positions with. The
 * visits must see the positions replay_record leaves in the nodes, the
 * main line first, and stop where they ask to.
 */
#include <stdlib.h>

#include "reading.h"
#include "core/core.h"

/*
 * A KIF record with a variation at move 1 that transposes into the main
 * line at move 3, and one inside that at move 2.
 */
static const char kif[] =
    "手合割：平手\n"
    "手数----指手---------消費時間--\n"
    "   1 ７六歩(77)\n"
    "   2 ３四歩(33)\n"
    "   3 ２六歩(27)\n"
    "   4 投了\n"
    "\n"
    "変化：1手\n"
    "   1 ２六歩(27)\n"
    "   2 ３四歩(33)\n"
    "   3 ７六歩(77)\n"
    "\n"
    "変化：2手\n"
    "   2 ８四歩(83)\n"
    "   3 ７六歩(77)\n";

struct seen {
	int n, main, stop_at;
	int32_t node[16];
	uint64_t key[16];
};

static int
visit(void *ctx, const struct position *pos, int32_t node, int main)
{
	struct seen *s = ctx;

	if (s->n < 16) {
		s->node[s->n] = node;
		s->key[s->n] = position_key(pos);
	}
	s->n++;
	s->main += main;
	if (position_key(pos) != position_key_slow(pos))
		fail_msg("the key at node %d is not the position's", node);
	return s->stop_at && s->n == s->stop_at;
}

static void
open_kif(struct session *s)
{
	session_start(s, kif_read, kif, strlen(kif), variant_standard());
	if (session_next(s) != READ_OK) {
		dump_diags(&s->d);
		fail_msg("the record does not read");
	}
}

static void
test_walk_every_position(void **state)
{
	struct replay_walk w;
	struct replay rp;
	struct session s;
	struct seen seen;
	int i;

	(void)state;
	open_kif(&s);
	memset(&seen, 0, sizeof(seen));
	w.visit = visit;
	w.ctx = &seen;
	w.main_only = 0;
	assert_int_equal(replay_record_walk(&s.r, &rp, &s.d, &w), 0);
	/* The start, 3 main-line moves, then 3 and 2 in the variations. */
	assert_int_equal(seen.n, 9);
	assert_int_equal(seen.main, 4);
	assert_int_equal(seen.node[0], 0);
	assert_int_equal(seen.key[0], position_key(&s.r.start));
	for (i = 1; i < seen.n; i++)
		assert_int_equal(seen.key[i], s.r.nodes[seen.node[i]].key);
	assert_int_equal(rp.moves, 3);
	assert_false(rp.stopped);
	/* Move 3 of the variation reaches move 3 of the main line. */
	assert_int_equal(seen.key[6], seen.key[3]);
	assert_int_not_equal(seen.key[8], seen.key[3]);
	session_close(&s);
}

static void
test_walk_main_only_and_stop(void **state)
{
	struct replay_walk w;
	struct replay rp, full;
	struct session s;
	struct seen seen;
	int32_t n;

	(void)state;
	open_kif(&s);
	memset(&seen, 0, sizeof(seen));
	w.visit = visit;
	w.ctx = &seen;
	w.main_only = 1;
	replay_record_walk(&s.r, &rp, &s.d, &w);
	assert_int_equal(seen.n, 4);
	assert_int_equal(seen.main, 4);
	/* The variations' nodes stay unreplayed. */
	for (n = 1; n < (int32_t)s.r.nnodes; n++)
		if (s.r.nodes[n].depth > 0 && s.r.nodes[n].special == SP_NONE)
			assert_int_equal(s.r.nodes[n].mv, MOVE_NONE);
	replay_record(&s.r, &full, &s.d);
	assert_int_equal(rp.moves, full.moves);
	assert_int_equal(position_key(&rp.final), position_key(&full.final));

	/* Stopped at the second visit: after move 1, and no further. */
	memset(&seen, 0, sizeof(seen));
	seen.stop_at = 2;
	w.main_only = 0;
	replay_record_walk(&s.r, &rp, &s.d, &w);
	assert_int_equal(seen.n, 2);
	assert_true(rp.stopped);
	assert_int_equal(rp.moves, 1);
	assert_int_equal(position_key(&rp.final), seen.key[1]);
	/* Stopped at the start. */
	memset(&seen, 0, sizeof(seen));
	seen.stop_at = 1;
	replay_record_walk(&s.r, &rp, &s.d, &w);
	assert_true(rp.stopped);
	assert_int_equal(rp.moves, 0);
	session_close(&s);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_walk_every_position),
		cmocka_unit_test(test_walk_main_only_and_stop),
	};

	(void)argc;
	(void)argv;
	core_init();
	return cmocka_run_group_tests_name("core/replay", tests, NULL, NULL);
}
