/*
 * A match played out (engine/tourney.h) with the mock engine
 * (tests/mock_engine.c): games handed back in game order whatever the
 * concurrency, counted before the callback sees them, engine names made
 * unique, an engine that cannot start as an error before any game, the
 * stop flag (what SIGINT sets) ending the match with no game counted
 * that was not finished, and the SPRT stopping on whole pairs. After
 * every test each pid the mock wrote is checked: gone, and reaped.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine_procs.h"
#include "helpers.h"
#include "core/core.h"
#include "engine/tourney.h"

static const char *mock;
static char dir[256], pidfile[300];

struct run {
	struct openings ops;
	struct match_rules mr;
	struct schedule sched;
	struct tourney_engine te[3];
	const char *argv[3][8];
	struct tourney_opts o;
	struct tourney *t;
	/* what the callback saw */
	size_t seen[512];
	size_t nseen;
	int bad;
	volatile sig_atomic_t stop;
	size_t stop_after;
	int warnings;
};

static void
on_warn(void *ctx, const char *msg)
{
	struct run *r = ctx;

	(void)msg;
	r->warnings++;
}

static void
on_game(void *ctx, const struct tourney_game *tg)
{
	struct run *r = ctx;
	const struct match_tally *t = &tourney_tallies(r->t)->v[0];

	if (r->nseen < sizeof(r->seen) / sizeof(r->seen[0]))
		r->seen[r->nseen] = tg->index;
	r->nseen++;
	/* counted already: the progress line may read the tally */
	if (tg->t != t || match_tally_games(t) != (long long)r->nseen ||
	    tg->g->end == END_ABANDONED)
		r->bad++;
	if (r->stop_after && r->nseen == r->stop_after)
		r->stop = 1;
}

/* A match of the mock engines named, games per pairing, all from start. */
static void
prepare(struct run *r, const char *const *names, int n, long long games,
    int concurrency, const char *fault)
{
	static size_t order[1];
	struct schedule_opts so;
	char err[256];
	int i;

	memset(r, 0, sizeof(*r));
	openings_init(&r->ops);
	openings_add_start(&r->ops, variant_standard());
	r->mr.v = variant_standard();
	assert_int_equal(ruleset_parse("csa,max-moves=6", 15, &r->mr.rs), 0);
	assert_int_equal(match_tc_parse("nodes=1", &r->mr.tc, err,
	    sizeof(err)), 0);
	r->mr.hang_ms = 30000;
	memset(&so, 0, sizeof(so));
	so.nengines = n;
	so.games = games;
	so.repeat = 1;
	so.order = order;
	so.nopenings = 1;
	schedule_make(&r->sched, &so);
	for (i = 0; i < n; i++) {
		const char **a = r->argv[i];
		int k = 0;

		a[k++] = mock;
		a[k++] = "--name";
		a[k++] = names[i];
		a[k++] = "--pidfile";
		a[k++] = pidfile;
		if (i == 0 && fault) {
			a[k++] = "--fault";
			a[k++] = fault;
		}
		a[k] = NULL;
		r->te[i].arg = names[i];
		r->te[i].start.argv = (char *const *)a;
		r->te[i].start.init_timeout_ms = 30000;
	}
	r->o.engines = r->te;
	r->o.nengines = n;
	r->o.mr = &r->mr;
	r->o.ops = &r->ops;
	r->o.sched = &r->sched;
	r->o.concurrency = concurrency;
	r->o.stop = &r->stop;
	r->o.warn = on_warn;
	r->o.warn_ctx = r;
	r->o.game = on_game;
	r->o.game_ctx = r;
	r->t = tourney_new(&r->o);
}

static void
finish(struct run *r)
{
	tourney_free(r->t);
	schedule_release(&r->sched);
	openings_release(&r->ops);
}

static void
test_in_order(void **state)
{
	static const char *const names[] = { "A", "B" };
	struct run r;
	char err[256];
	size_t i;

	(void)state;
	prepare(&r, names, 2, 8, 3, NULL);
	assert_int_equal(tourney_start_engines(r.t, err, sizeof(err)), 0);
	assert_string_equal(tourney_engine_name(r.t, 0), "A");
	assert_int_equal(tourney_run(r.t, err, sizeof(err)), 0);
	assert_int_equal(r.nseen, 8);
	assert_int_equal(r.bad, 0);
	for (i = 0; i < 8; i++)
		assert_int_equal(r.seen[i], i);
	assert_int_equal(tourney_ends(r.t)[END_MAX_MOVES], 8);
	assert_int_equal(tourney_tallies(r.t)->n, 1);
	assert_int_equal(tourney_tallies(r.t)->v[0].d, 8);
	assert_int_equal(tourney_tallies(r.t)->v[0].pairs[PAIR_DD_WL], 4);
	finish(&r);
}

/* Three engines of one name, a gauntlet: "A", "A #2", "A #3". */
static void
test_names(void **state)
{
	static const char *const names[] = { "A", "A", "A" };
	struct run r;
	char err[256];

	(void)state;
	prepare(&r, names, 3, 2, 2, NULL);
	assert_int_equal(tourney_start_engines(r.t, err, sizeof(err)), 0);
	assert_string_equal(tourney_engine_name(r.t, 1), "A #2");
	assert_string_equal(tourney_engine_name(r.t, 2), "A #3");
	assert_int_equal(tourney_run(r.t, err, sizeof(err)), 0);
	assert_int_equal(r.nseen, 4);
	assert_int_equal(tourney_tallies(r.t)->n, 2);
	assert_int_equal(tourney_tallies(r.t)->v[1].b, 2);
	assert_int_equal(match_tally_games(&tourney_tallies(r.t)->v[1]), 2);
	finish(&r);
}

static void
test_cannot_start(void **state)
{
	static const char *const names[] = { "A", "B" };
	struct run r;
	char err[256];

	(void)state;
	prepare(&r, names, 2, 2, 1, NULL);
	r.argv[1][0] = "/nonexistent/engine";
	assert_int_equal(tourney_start_engines(r.t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "B: "));
	assert_non_null(strstr(err, "no such file"));
	finish(&r);
}

/* The stop flag: no new game, none counted that did not finish. */
static void
test_stop(void **state)
{
	static const char *const names[] = { "A", "B" };
	struct run r;
	char err[256];

	(void)state;
	prepare(&r, names, 2, 200, 2, NULL);
	r.stop_after = 3;
	assert_int_equal(tourney_start_engines(r.t, err, sizeof(err)), 0);
	assert_int_equal(tourney_run(r.t, err, sizeof(err)), 0);
	assert_true(r.nseen >= 3 && r.nseen < 200);
	assert_int_equal(r.bad, 0);
	assert_int_equal(match_tally_games(&tourney_tallies(r.t)->v[0]),
	    (long long)r.nseen);
	finish(&r);
}

/* Every game lost: H0 on the 71st pair, the match stopped on pairs. */
static void
test_sprt(void **state)
{
	static const char *const names[] = { "A", "B" };
	struct sprt s = { 0, 10, 0.05, 0.05, SPRT_NORMALIZED };
	const struct match_tally *t;
	struct run r;
	char err[256];

	(void)state;
	prepare(&r, names, 2, 400, 2, "declare-win");
	r.o.sprt = &s;
	tourney_free(r.t);
	r.t = tourney_new(&r.o);
	assert_int_equal(tourney_start_engines(r.t, err, sizeof(err)), 0);
	assert_int_equal(tourney_run(r.t, err, sizeof(err)), 0);
	t = &tourney_tallies(r.t)->v[0];
	assert_true(t->sprt_done);
	assert_int_equal(t->verdict, SPRT_H0);
	assert_int_equal(t->verdict_games, 142);
	assert_true(r.nseen >= 142 && r.nseen < 400);
	assert_int_equal(r.nseen % 2, 0);
	assert_int_equal(t->npend, 0);
	assert_int_equal(t->l, (long long)r.nseen);
	finish(&r);
}

static int
setup(void **state)
{
	(void)state;
	return procs_setup(dir, sizeof(dir), pidfile, sizeof(pidfile),
	    "tourney");
}

static int
teardown(void **state)
{
	(void)state;
	return procs_teardown(dir, pidfile);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_in_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cannot_start, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_stop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sprt, setup, teardown),
	};

	core_init();
	if (!(mock = mock_engine("test_engine_tourney")))
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
