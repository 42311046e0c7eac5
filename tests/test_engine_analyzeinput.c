/*
 * One input of `kifu analyze` (engine/analyzeinput.h), every position
 * answered by a canned cache (no engine runs): what goes to stdout, to a
 * file under -o or in place, the messages of a record that cannot be
 * analysed, read or written, the inputs refused, and the count of
 * positions a progress bar is given.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "helpers.h"
#include "core/core.h"
#include "api/formats.h"
#include "engine/analyzeinput.h"

/* Black plays 7g7f, White 3c3d: three positions. */
static const char game[] = "V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n";
/* The third move takes Black's own pawn. */
static const char illegal[] = "V2.2\nPI\n+\n+7776FU\n-3334FU\n+1917KY\n";

static int answer_all, stored;

/*
 * A result that fits every position: the side to move resigns. With
 * answer_all unset only the start is answered, and the rest must be
 * searched by an engine there is none of.
 */
static int
lookup(void *ctx, const char *position, const char *setup,
    struct strbuf *value)
{
	(void)ctx;
	(void)setup;
	if (!answer_all && strncmp(position, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/"
	    "PPPPPPPPP/1B5R1/LNSGKGSNL b -", 60))
		return 0;
	strbuf_adds(value, "info depth 1 score cp 12 nodes 1\nbestmove resign\n");
	return 1;
}

/* Nothing is searched here, so nothing is stored. */
static void
store(void *ctx, const char *position, const char *setup, const char *value)
{
	(void)ctx;
	stored += position && setup && value;
}

static const struct analyze_cache cache = { lookup, store, NULL };

static struct usi_engine *
no_engine(void *ctx, char *why, size_t n)
{
	(void)ctx;
	snprintf(why, n, "no engine \x01here");
	return NULL;
}

/* One worker's state and one input's output. */
struct run {
	struct analyze_opts ao;
	struct analyze_input_opts io;
	struct analyzer a;
	struct judge j;
	struct judge_opts jo;
	struct analyze_record ar;
	struct strbuf out, err, data;
	struct analyze_input_out res;
};

static void
run_init(struct run *r)
{
	memset(r, 0, sizeof(*r));
	analyze_opts_init(&r->ao);
	r->ao.limit.kind = USI_LIMIT_NODES;
	r->ao.limit.value = 100;
	r->ao.cache = &cache;
	r->ao.setup = "s";
	r->ao.engine_name = r->io.engine_name = "Canned 1.0";
	analyzer_init(&r->a, NULL, &r->ao);
	analyzer_defer(&r->a, no_engine, NULL);
	judge_init(&r->j, &r->jo);
	analyze_record_init(&r->ar);
	strbuf_init(&r->out);
	strbuf_init(&r->err);
	strbuf_init(&r->data);
	analyze_input_out_init(&r->res, &r->out, &r->err);
	answer_all = 1;
	stored = 0;
}

static void
run_release(struct run *r)
{
	assert_int_equal(stored, 0);
	analyze_input_out_release(&r->res);
	strbuf_release(&r->out);
	strbuf_release(&r->err);
	strbuf_release(&r->data);
	analyze_record_release(&r->ar);
	judge_release(&r->j);
	analyzer_release(&r->a);
}

/* The input name of bytes text, through analyze_input. */
static int
feed(struct run *r, const char *name, const char *text)
{
	struct pipe_input in;

	strbuf_reset(&r->data);
	strbuf_adds(&r->data, text);
	memset(&in, 0, sizeof(in));
	in.name = name;
	in.data = &r->data;
	return analyze_input(&r->io, &r->a, &r->j, &r->ar, &in, &r->res);
}

static int
lines(const char *s)
{
	int n = 0;

	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

static void
test_json(void **state)
{
	struct run r;

	(void)state;
	run_init(&r);
	r.io.json = r.io.summary = 1;
	assert_int_equal(feed(&r, "g.csa", game), 0);
	/* Three positions and two sides' summaries, nothing else. */
	assert_int_equal(lines(r.out.buf), 5);
	assert_non_null(strstr(r.out.buf, "\"engine\": \"Canned 1.0\""));
	assert_non_null(strstr(r.out.buf, "\"type\": \"summary\""));
	assert_int_equal(r.err.len, 0);
	assert_int_equal(r.res.records, 1);
	assert_int_equal(r.res.positions, 3);
	assert_int_equal(r.res.cached, 3);
	assert_int_equal(r.res.dest.len, 0);
	assert_int_equal(r.res.rows.len, 0);
	run_release(&r);
	/* The summary alone: its rows, for the table. */
	run_init(&r);
	r.io.summary = 1;
	assert_int_equal(feed(&r, "g.csa", game), 0);
	assert_int_equal(r.out.len, 0);
	assert_int_equal(lines(r.res.rows.buf), 2);
	run_release(&r);
}

static void
test_records(void **state)
{
	struct run r;

	(void)state;
	/* To stdout, in the input's format. */
	run_init(&r);
	r.io.records_out = 1;
	assert_int_equal(feed(&r, "g.csa", game), 0);
	assert_non_null(strstr(r.out.buf, "'#kifu-analyze: "));
	assert_non_null(strstr(r.out.buf, "+7776FU"));
	assert_int_equal(r.res.dest.len, 0);
	assert_int_equal(r.res.text.len, 0);
	run_release(&r);
	/* Under -o: the file's text and its path, nothing on stdout. */
	run_init(&r);
	r.io.records_out = 1;
	r.io.out_dir = "o";
	r.io.paths = (char *const[]){ "d" };
	r.io.npaths = 1;
	r.io.to = formats_by_name("kif");
	assert_int_equal(feed(&r, "d/g.csa", game), 0);
	assert_string_equal(r.res.dest.buf, "o/d/g.kif");
	assert_true(r.res.text.len > 0);
	assert_int_equal(r.out.len, 0);
	assert_int_equal(r.res.orig.len, 0);
	run_release(&r);
	/* In place: the bytes read kept, for the .bak. */
	run_init(&r);
	r.io.records_out = r.io.in_place = 1;
	assert_int_equal(feed(&r, "g.csa", game), 0);
	assert_string_equal(r.res.dest.buf, "g.csa");
	assert_string_equal(r.res.orig.buf, game);
	assert_non_null(strstr(r.res.text.buf, "'#kifu-analyze: "));
	run_release(&r);
}

static void
test_refused(void **state)
{
	struct run r;

	(void)state;
	run_init(&r);
	r.io.records_out = r.io.in_place = 1;
	assert_int_equal(feed(&r, "a.zip//g.csa", game), 2);
	assert_string_equal(r.err.buf, "a.zip//g.csa: error: --in-place "
	    "rewrites files; this is a member of an archive (use -o)\n");
	run_release(&r);
	run_init(&r);
	r.io.records_out = 1;
	r.io.out_dir = "o";
	assert_int_equal(feed(&r, "../g.csa", game), 2);
	assert_string_equal(r.err.buf, "../g.csa: error: cannot mirror this "
	    "name under 'o' (it leads out of it)\n");
	assert_int_equal(r.res.records, 0);
	run_release(&r);
	/* A format that holds no comments cannot hold the analysis. */
	run_init(&r);
	r.io.records_out = 1;
	r.io.to = formats_by_name("usi");
	assert_int_equal(feed(&r, "g.csa", game), 1);
	assert_non_null(strstr(r.err.buf, "g.csa: error: usi cannot hold the "
	    "analysis (no comments)"));
	run_release(&r);
}

static void
test_bad_records(void **state)
{
	struct run r;

	(void)state;
	/* An illegal move: said, not analysed, and the file not written. */
	run_init(&r);
	r.io.records_out = 1;
	r.io.out_dir = "o";
	assert_int_equal(feed(&r, "g.csa", illegal), 1);
	assert_non_null(strstr(r.err.buf, "g.csa:6:"));
	assert_non_null(strstr(r.err.buf, "g.csa: note: record 1 is not "
	    "analysed (an illegal move)\n"));
	assert_non_null(strstr(r.err.buf, "g.csa: note: not written: it holds "
	    "a record that was not analysed\n"));
	assert_int_equal(r.res.dest.len, 0);
	assert_int_equal(r.res.records, 0);
	run_release(&r);
	/* Positions no engine could search: each said, the rest kept. */
	run_init(&r);
	answer_all = 0;
	r.io.json = 1;
	assert_int_equal(feed(&r, "g.csa", game), 1);
	assert_string_equal(r.err.buf,
	    "g.csa: warning: record 1: the position after 1 move is left "
	    "unanalysed: no engine ?here\n"
	    "g.csa: warning: record 1: the position after 2 moves is left "
	    "unanalysed: no engine ?here\n");
	assert_int_equal(r.res.positions, 3);
	assert_int_equal(r.res.cached, 1);
	assert_int_equal(r.res.failed, 2);
	assert_int_equal(lines(r.out.buf), 3);
	run_release(&r);
}

static void
test_count(void **state)
{
	char dir[256], path[300], cmd[300];
	char *paths[1] = { path };
	struct pipeline_opts po;
	struct judge_opts jo;
	struct analyze_opts ao;
	FILE *f;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/kifu-ai.XXXXXX",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/g.csa", dir);
	assert_non_null(f = fopen(path, "w"));
	/* Two records; the illegal one is not counted. */
	fprintf(f, "%s/\n%s", game, illegal);
	fclose(f);
	memset(&po, 0, sizeof(po));
	po.jobs = 1;
	memset(&jo, 0, sizeof(jo));
	analyze_opts_init(&ao);
	assert_int_equal(analyze_count_inputs(&po, &jo, &ao, paths, 1), 3);
	ao.from_ply = 1;
	assert_int_equal(analyze_count_inputs(&po, &jo, &ao, paths, 1), 2);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int
main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_bad_records),
		cmocka_unit_test(test_count),
	};

	core_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
