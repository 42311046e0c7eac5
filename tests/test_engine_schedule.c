/*
 * The games of a match (engine/schedule.h): their order (opening by
 * opening, pairing by pairing, a pair's two games together), colours,
 * rounds and pair numbers, for a gauntlet and a round robin, with pairs
 * (--repeat) and without (--no-repeat), and the openings cycled.
 */
#include <stdio.h>
#include <stdlib.h>

#include "helpers.h"
#include "engine/schedule.h"

/* One game as "black-white op round pair", for comparing whole lists. */
static void
expect(const struct schedule *s, size_t i, int black, int white,
    size_t opening, int round, int pair)
{
	const struct schedule_game *g = &s->games[i];

	if (g->black != black || g->white != white || g->opening != opening ||
	    g->round != round || g->pair != pair)
		fail_msg("game %zu: %d-%d op %zu round %d pair %d, want %d-%d "
		    "op %zu round %d pair %d", i + 1, g->black, g->white,
		    g->opening, g->round, g->pair, black, white, opening,
		    round, pair);
}

static void
make(struct schedule *s, int nengines, int round_robin, long long games,
    int repeat, const size_t *order, size_t nopenings)
{
	struct schedule_opts o = { nengines, round_robin, games, repeat, order,
	    nopenings };

	schedule_make(s, &o);
}

static void
test_two_engines_pairs(void **state)
{
	static const size_t order[] = { 2, 0, 1 };
	struct schedule s;

	(void)state;
	/* 3 games are rounded up to two whole pairs */
	make(&s, 2, 0, 3, 1, order, 3);
	assert_int_equal(s.npairings, 1);
	assert_int_equal(s.pairings[0][0], 0);
	assert_int_equal(s.pairings[0][1], 1);
	assert_int_equal(s.n, 4);
	expect(&s, 0, 0, 1, 2, 1, 1);
	expect(&s, 1, 1, 0, 2, 1, 1);
	expect(&s, 2, 0, 1, 0, 2, 2);
	expect(&s, 3, 1, 0, 0, 2, 2);
	schedule_release(&s);
	assert_int_equal(schedule_games_per_pairing(3, 1), 4);
	assert_int_equal(schedule_games_per_pairing(3, 0), 3);
	assert_int_equal(schedule_openings_needed(5, 1), 3);
	assert_int_equal(schedule_openings_needed(5, 0), 5);
}

/* --no-repeat: one game an opening, the colours alternating by round. */
static void
test_no_repeat(void **state)
{
	static const size_t order[] = { 0, 1 };
	struct schedule s;
	size_t i;

	(void)state;
	make(&s, 2, 0, 5, 0, order, 2);
	assert_int_equal(s.n, 5);
	for (i = 0; i < 5; i++)
		expect(&s, i, i & 1 ? 1 : 0, i & 1 ? 0 : 1, i % 2, (int)i + 1,
		    0);
	schedule_release(&s);
}

/* A gauntlet: the first engine against each other, pairing by pairing. */
static void
test_gauntlet(void **state)
{
	static const size_t order[] = { 0, 1 };
	struct schedule s;

	(void)state;
	make(&s, 4, 0, 4, 1, order, 2);
	assert_int_equal(s.npairings, 3);
	assert_int_equal(s.n, 12);
	/* first opening: each pairing's pair, then the second opening */
	expect(&s, 0, 0, 1, 0, 1, 1);
	expect(&s, 1, 1, 0, 0, 1, 1);
	expect(&s, 2, 0, 2, 0, 1, 2);
	expect(&s, 3, 2, 0, 0, 1, 2);
	expect(&s, 4, 0, 3, 0, 1, 3);
	expect(&s, 5, 3, 0, 0, 1, 3);
	expect(&s, 6, 0, 1, 1, 2, 4);
	expect(&s, 11, 3, 0, 1, 2, 6);
	schedule_release(&s);
}

/* A round robin: every pair of engines, the one given first as A. */
static void
test_round_robin(void **state)
{
	static const size_t order[] = { 0 };
	static const int want[6][2] = { {0, 1}, {0, 2}, {0, 3}, {1, 2},
	    {1, 3}, {2, 3} };
	struct schedule s;
	int p;

	(void)state;
	make(&s, 4, 1, 2, 1, order, 1);
	assert_int_equal(s.npairings, 6);
	assert_int_equal(s.n, 12);
	for (p = 0; p < 6; p++) {
		assert_int_equal(s.pairings[p][0], want[p][0]);
		assert_int_equal(s.pairings[p][1], want[p][1]);
		expect(&s, (size_t)p * 2, want[p][0], want[p][1], 0, 1, p + 1);
		expect(&s, (size_t)p * 2 + 1, want[p][1], want[p][0], 0, 1,
		    p + 1);
	}
	schedule_release(&s);
	/* without pairs: a game a pairing a round, colours by round */
	make(&s, 3, 1, 3, 0, order, 1);
	assert_int_equal(s.n, 9);
	expect(&s, 0, 0, 1, 0, 1, 0);
	expect(&s, 1, 0, 2, 0, 1, 0);
	expect(&s, 2, 1, 2, 0, 1, 0);
	expect(&s, 3, 1, 0, 0, 2, 0);
	expect(&s, 5, 2, 1, 0, 2, 0);
	expect(&s, 8, 1, 2, 0, 3, 0);
	schedule_release(&s);
}

/* Fewer openings than rounds: they come round again, in play order. */
static void
test_cycled_openings(void **state)
{
	static const size_t order[] = { 1, 0 };
	struct schedule s;
	size_t i;

	(void)state;
	make(&s, 2, 0, 10, 1, order, 2);
	assert_int_equal(s.n, 10);
	for (i = 0; i < 10; i++)
		expect(&s, i, i & 1 ? 1 : 0, i & 1 ? 0 : 1, (i / 2) % 2 ? 0 : 1,
		    (int)(i / 2) + 1, (int)(i / 2) + 1);
	schedule_release(&s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_engines_pairs),
		cmocka_unit_test(test_no_repeat),
		cmocka_unit_test(test_gauntlet),
		cmocka_unit_test(test_round_robin),
		cmocka_unit_test(test_cycled_openings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
