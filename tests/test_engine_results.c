/*
 * The results file of a match (engine/results.h): the line a game is
 * written as, read back by --report into the same counts, shards of one
 * match merged with their pairs kept apart, and hostile input: lines
 * that are no JSON, no object, no game, numbers past any integer, a
 * 17th engine, NUL bytes, an empty file, a directory. Every bad line is
 * an error at its line and column, and the good lines around it count.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "helpers.h"
#include "scratch.h"
#include "engine/results.h"
#include "stats/jsonl.h"

#define START_SFEN "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/" \
	"1B5R1/LNSGKGSNL b - 1"

struct fixture {
	struct openings ops;
	struct match_rules mr;
	char err[256];
};

static void
fixture_init(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	openings_init(&f->ops);
	openings_add_start(&f->ops, variant_standard());
	f->mr.v = variant_standard();
	assert_int_equal(ruleset_parse("csa", 3, &f->mr.rs), 0);
	assert_int_equal(match_tc_parse("nodes=1", &f->mr.tc, f->err,
	    sizeof(f->err)), 0);
}

/* The line of a game that ended so (winner, end), appended to all. */
static void
add_line(struct fixture *f, struct strbuf *all, size_t index, int black,
    int white, int pair, enum winner w, enum match_end end)
{
	struct schedule_game s = { black, white, 0, 1, pair };
	struct match_game g;
	struct strbuf line = STRBUF_INIT;
	static const char *const names[] = { "A", "B", "C" };

	match_game_init(&g, variant_standard());
	g.result.winner = w;
	g.end = end;
	snprintf(g.how, sizeof(g.how), "how \"it\" ended\n");
	results_line(&line, index, &s, &g, names[black], names[white],
	    &f->ops.v[0], &f->mr, NULL);
	strbuf_add(all, line.buf, line.len);
	strbuf_release(&line);
	match_game_release(&g);
}

static void
test_line(void **state)
{
	struct fixture f;
	struct strbuf all = STRBUF_INIT;

	(void)state;
	fixture_init(&f);
	add_line(&f, &all, 0, 0, 1, 1, WINNER_WHITE, END_FALSE_DECLARATION);
	assert_string_equal(all.buf, "{\"game\":1,\"round\":1,\"pair\":1,"
	    "\"black\":\"A\",\"white\":\"B\",\"black_engine\":0,"
	    "\"white_engine\":1,\"opening\":\"\",\"opening_position\":\""
	    START_SFEN "\",\"result\":\"white\",\"reason\":"
	    "\"false-declaration\",\"how\":\"how \\\"it\\\" ended\\n\","
	    "\"plies\":0,\"opening_plies\":0,\"time_black_ms\":0,"
	    "\"time_white_ms\":0,\"tc\":\"nodes=1\",\"rules\":\"csa\"}\n");
	strbuf_release(&all);
	openings_release(&f.ops);
}

/* What kifu match writes, --report counts the same. */
static void
test_round_trip(void **state)
{
	struct fixture f;
	struct strbuf all = STRBUF_INIT, text = STRBUF_INIT;
	struct results_report r;
	struct diag_list d;
	const struct match_tally *t;

	(void)state;
	fixture_init(&f);
	/* A-B: a pair A won both of; then an A-C pair drawn and lost */
	add_line(&f, &all, 0, 0, 1, 1, WINNER_BLACK, END_CHECKMATE);
	add_line(&f, &all, 1, 1, 0, 1, WINNER_WHITE, END_RESIGN);
	add_line(&f, &all, 2, 0, 2, 2, WINNER_NONE, END_MAX_MOVES);
	add_line(&f, &all, 3, 2, 0, 2, WINNER_BLACK, END_TIME_UP);
	/* abandoned: no result, passed over */
	add_line(&f, &all, 4, 0, 1, 3, WINNER_NONE, END_ABANDONED);
	results_report_init(&r);
	diag_list_init(&d);
	assert_int_equal(results_report_parse(&r, all.buf, all.len, &d), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(r.games, 4);
	assert_int_equal(r.nnames, 3);
	assert_int_equal(r.t.n, 2);
	t = &r.t.v[0];
	assert_string_equal(r.names[t->a], "A");
	assert_string_equal(r.names[t->b], "B");
	assert_int_equal(t->w, 2);
	assert_int_equal(t->pairs[PAIR_WW], 1);
	t = &r.t.v[1];
	assert_string_equal(r.names[t->b], "C");
	assert_int_equal(t->d, 1);
	assert_int_equal(t->l, 1);
	assert_int_equal(t->pairs[PAIR_LD], 1);
	assert_int_equal(r.ends[END_CHECKMATE], 1);
	assert_int_equal(r.ends[END_ABANDONED], 0);
	results_ends_text(r.ends, &text);
	assert_string_equal(text.buf, "Endings: checkmate 1, resign 1, "
	    "max-moves 1, time-up 1\n");
	/* the same file again as another shard: its pairs are its own */
	r.source = 1;
	assert_int_equal(results_report_parse(&r, all.buf, all.len, &d), 0);
	assert_int_equal(r.games, 8);
	assert_int_equal(r.t.v[0].pairs[PAIR_WW], 2);
	assert_int_equal(r.t.v[0].npend, 0);
	diag_list_release(&d);
	results_report_release(&r);
	strbuf_reset(&text);
	{
		long long none[END_NB] = { 0 };

		results_ends_text(none, &text);
		assert_string_equal(text.buf, "Endings: none\n");
	}
	strbuf_release(&text);
	strbuf_release(&all);
	openings_release(&f.ops);
}

static void
expect_diag(const struct diag_list *d, size_t i, unsigned line,
    unsigned col, const char *text)
{
	if (i >= d->n)
		fail_msg("no error %zu (of %zu)", i, d->n);
	if (d->v[i].loc.line != line || d->v[i].loc.col != col ||
	    !strstr(d->v[i].message, text))
		fail_msg("error %zu: %u:%u: %s; want %u:%u: %s", i,
		    d->v[i].loc.line, d->v[i].loc.col, d->v[i].message, line,
		    col, text);
}

static void
test_hostile(void **state)
{
	static const char text[] =
	    "{\"black\":\"A\"}\n"
	    "not json\n"
	    "{\"black\":\"A\",\"white\":\"B\",\"result\":\"maybe\"}\n"
	    "\n"
	    "{\"black\":\"A\",\"white\":\"B\",\"result\":\"black\","
	    "\"pair\":99999999999999999999}\n"
	    "{\"black\":\"A\",\"white\":\"B\",\"result\":\"draw\",\"pair\":-3,"
	    "\"reason\":\"nonsense\"}\n"
	    "[1]\n"
	    "{\"black\":1,\"white\":\"B\",\"result\":\"draw\"}\n"
	    "{\"black\":\"A\",\"white\":\"B\",\"result\":\"white\","
	    "\"pair\":1e400}\n"
	    "   \n"
	    "{\"black\":\"A\",\"white\":\"B\",\"result\":\"black\"}";
	struct results_report r;
	struct diag_list d;

	(void)state;
	results_report_init(&r);
	diag_list_init(&d);
	assert_int_equal(results_report_parse(&r, text, sizeof(text) - 1, &d),
	    1);
	expect_diag(&d, 0, 1, 1, "a game needs \"black\", \"white\" and "
	    "\"result\" strings");
	expect_diag(&d, 1, 2, 3, "'[' or '{' expected near 'not'");
	expect_diag(&d, 2, 3, 1, "\"result\" is black, white, draw or none");
	expect_diag(&d, 3, 5, 69, "too big integer");
	expect_diag(&d, 4, 7, 1, "not an object");
	expect_diag(&d, 5, 8, 1, "a game needs");
	expect_diag(&d, 6, 9, 54, "real number overflow");
	expect_diag(&d, 7, 10, 3, "'[' or '{' expected near end of file");
	assert_int_equal(d.n, 8);
	/* line 6 (a negative pair is none) and the last line, unended */
	assert_int_equal(r.games, 2);
	assert_int_equal(r.t.n, 1);
	assert_int_equal(r.t.v[0].d, 1);
	assert_int_equal(r.t.v[0].w, 1);
	assert_int_equal(r.t.v[0].npend, 0);
	assert_int_equal(match_tally_npairs(&r.t.v[0]), 0);
	diag_list_release(&d);
	results_report_release(&r);
}

static void
test_engines_max(void **state)
{
	struct results_report r;
	struct diag_list d;
	struct strbuf text = STRBUF_INIT;
	int i;

	(void)state;
	for (i = 0; i < TOURNEY_ENGINES_MAX + 1; i++)
		strbuf_addf(&text, "{\"black\":\"E%d\",\"white\":\"E0\","
		    "\"result\":\"draw\"}\n", i + 1);
	results_report_init(&r);
	diag_list_init(&d);
	/* E0 and E1 to E15 fill the table: E16 and E17 are turned down */
	assert_int_equal(results_report_parse(&r, text.buf, text.len, &d), 1);
	assert_int_equal(d.n, 2);
	expect_diag(&d, 0, TOURNEY_ENGINES_MAX, 1, "more than 16 engines");
	expect_diag(&d, 1, TOURNEY_ENGINES_MAX + 1, 1, "more than 16 engines");
	assert_int_equal(r.nnames, TOURNEY_ENGINES_MAX);
	assert_int_equal(r.games, TOURNEY_ENGINES_MAX - 1);
	diag_list_release(&d);
	results_report_release(&r);
	strbuf_release(&text);
}

/* NUL bytes, no newline, nothing at all: errors or nothing, no crash. */
static void
test_bytes(void **state)
{
	static const char nul[] = "{\"black\":\"A\0\",\"white\":\"B\","
	    "\"result\":\"draw\"}\n\0\0\n{\"bla";
	struct results_report r;
	struct diag_list d;

	(void)state;
	results_report_init(&r);
	diag_list_init(&d);
	assert_int_equal(results_report_parse(&r, "", 0, &d), 0);
	assert_int_equal(results_report_parse(&r, "\n\n\n", 3, &d), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(results_report_parse(&r, nul, sizeof(nul) - 1, &d),
	    1);
	assert_int_equal(d.n, 3);
	assert_int_equal(d.v[0].loc.line, 1);
	assert_int_equal(d.v[1].loc.line, 2);
	assert_int_equal(d.v[2].loc.line, 3);
	assert_int_equal(r.games, 0);
	diag_list_release(&d);
	results_report_release(&r);
}

/* Files: an empty one is no game; a directory or none cannot be read. */
static void
test_files(void **state)
{
	struct results_report r;
	struct diag_list d;
	FILE *f;

	(void)state;
	results_report_init(&r);
	diag_list_init(&d);
	assert_non_null(f = fopen(in_dir("empty.jsonl"), "w"));
	fclose(f);
	assert_int_equal(jsonl_read(in_dir("empty.jsonl"), results_report_line,
	    &r, &d), 0);
	assert_int_equal(r.games, 0);
	assert_int_equal(mkdir(in_dir("dir.jsonl"), 0777), 0);
	errno = 0;
	assert_int_equal(jsonl_read(in_dir("dir.jsonl"), results_report_line,
	    &r, &d), -1);
	assert_int_equal(errno, EISDIR);
	assert_int_equal(jsonl_read(in_dir("none.jsonl"), results_report_line,
	    &r, &d), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(d.n, 0);
	diag_list_release(&d);
	results_report_release(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_engines_max),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_files),
	};

	return cmocka_run_group_tests(tests, scratch_setup, scratch_teardown);
}
