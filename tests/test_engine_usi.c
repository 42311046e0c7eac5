/*
 * The USI client (engine/usi.h): its readers of option and info lines,
 * the splitting of a command line, and the client against the mock
 * engine (tests/mock_engine.c), normal and in each fault. After every
 * test with a process, each pid the mock wrote is checked: gone, and
 * not left a zombie of this process.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine_procs.h"
#include "helpers.h"
#include "core/core.h"
#include "engine/usi.h"

#define START "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"

static const char *mock;
static char dir[256], pidfile[300], logfile[300], counter[300];
static int warnings;
static char last_warning[512];

static void
on_warn(void *ctx, const char *msg)
{
	(void)ctx;
	warnings++;
	snprintf(last_warning, sizeof(last_warning), "%s", msg);
}

static long long
ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int
setup(void **state)
{
	(void)state;
	if (procs_setup(dir, sizeof(dir), pidfile, sizeof(pidfile), "usi") < 0)
		return -1;
	snprintf(logfile, sizeof(logfile), "%s/log", dir);
	snprintf(counter, sizeof(counter), "%s/count", dir);
	warnings = 0;
	last_warning[0] = '\0';
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	return procs_teardown(dir, pidfile);
}

/* Starts the mock with extra arguments (a NULL-terminated list). */
static int
start(struct usi_engine **e, struct usi_error *err, long long init_ms,
    const char *const *extra)
{
	const char *argv[32];
	struct usi_start_opts o;
	int n = 0;

	argv[n++] = mock;
	argv[n++] = "--pidfile";
	argv[n++] = pidfile;
	argv[n++] = "--log";
	argv[n++] = logfile;
	while (extra && *extra && n < 30)
		argv[n++] = *extra++;
	argv[n] = NULL;
	memset(&o, 0, sizeof(o));
	o.argv = (char *const *)argv;
	o.init_timeout_ms = init_ms;
	o.stop_grace_ms = 1000;
	o.quit_grace_ms = 2000;
	o.warn = on_warn;
	return usi_start(&o, e, err);
}

static int
search(struct usi_engine *e, const char *sfen, struct usi_result *r,
    long long timeout, struct usi_error *err)
{
	struct position pos;
	struct usi_search s;

	load_sfen(&pos, sfen);
	memset(&s, 0, sizeof(s));
	s.start = s.pos = &pos;
	s.limit.kind = USI_LIMIT_NODES;
	s.limit.value = 1000;
	s.multipv = 1;
	s.timeout_ms = timeout;
	return usi_search(e, &s, r, err);
}

static int
log_has(const char *text)
{
	return procs_log_count(logfile, text) > 0;
}

/* --- the readers ------------------------------------------------------- */

static void
test_split(void **state)
{
	static const struct { const char *in; int n; const char *w[4]; } c[] = {
		{ "engine", 1, { "engine" } },
		{ "  /usr/games/fairy-stockfish  ", 1,
		    { "/usr/games/fairy-stockfish" } },
		{ "a 'b c' d", 3, { "a", "b c", "d" } },
		{ "a \"b \\\" c\" d\\ e", 3, { "a", "b \" c", "d e" } },
		{ "x''y \"\"", 2, { "xy", "" } },
		{ "'a\\b' \"a\\b\"", 2, { "a\\b", "a\\b" } },
		{ "a\\", 1, { "a" } },
	};
	struct usi_error err;
	char **v;
	size_t i;
	int k;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		int n = usi_split_command(c[i].in, &v, &err);

		if (n != c[i].n)
			fail_msg("'%s': %d words", c[i].in, n);
		for (k = 0; k < n; k++)
			assert_string_equal(v[k], c[i].w[k]);
		assert_null(v[n]);
		usi_argv_free(v);
	}
	assert_int_equal(usi_split_command("a 'b", &v, &err), -1);
	assert_int_equal(err.status, USI_ERR_START);
	assert_int_equal(usi_split_command("a \"b", &v, &err), -1);
	assert_int_equal(usi_split_command("   ", &v, &err), -1);
}

static void
test_option_lines(void **state)
{
	struct usi_option o;
	const char *why;
	const char *l;

	(void)state;
	l = "option name Move Overhead type spin default 30 min 0 max 5000";
	assert_int_equal(usi_parse_option(l, strlen(l), &o, &why), 0);
	assert_string_equal(o.name, "Move Overhead");
	assert_int_equal(o.type, USI_OPT_SPIN);
	assert_string_equal(o.def, "30");
	assert_true(o.min == 0 && o.max == 5000);
	usi_option_release(&o);
	l = "option name Debug Log File type string default ";
	assert_int_equal(usi_parse_option(l, strlen(l), &o, &why), 0);
	assert_string_equal(o.name, "Debug Log File");
	assert_string_equal(o.def, "");
	usi_option_release(&o);
	l = "option name CSAFile type string default <empty>";
	assert_int_equal(usi_parse_option(l, strlen(l), &o, &why), 0);
	assert_string_equal(o.def, "");
	usi_option_release(&o);
	l = "option name UCI_Variant type combo default shogi var 3check "
	    "var minishogi var my variant";
	assert_int_equal(usi_parse_option(l, strlen(l), &o, &why), 0);
	assert_int_equal(o.type, USI_OPT_COMBO);
	assert_int_equal(o.nvars, 3);
	assert_string_equal(o.vars[1], "minishogi");
	assert_string_equal(o.vars[2], "my variant");
	usi_option_release(&o);
	l = "option name Clear Hash type button";
	assert_int_equal(usi_parse_option(l, strlen(l), &o, &why), 0);
	assert_int_equal(o.type, USI_OPT_BUTTON);
	assert_null(o.def);
	usi_option_release(&o);
	l = "option name X type spin default 1 min a max 3";
	assert_int_equal(usi_parse_option(l, strlen(l), &o, &why), -1);
	l = "option name X type colour";
	assert_int_equal(usi_parse_option(l, strlen(l), &o, &why), -1);
	l = "option name  type check";
	assert_int_equal(usi_parse_option(l, strlen(l), &o, &why), -1);
	l = "option name X";
	assert_int_equal(usi_parse_option(l, strlen(l), &o, &why), -1);
}

static void
test_info_lines(void **state)
{
	struct usi_info in;
	const char *l;

	(void)state;
	l = "info depth 10 seldepth 13 multipv 1 score cp 255 nodes 20012 "
	    "nps 196196 tbhits 0 time 102 pv 2h2f 5a6b";
	assert_int_equal(usi_parse_info(l, strlen(l), &in), 0);
	assert_int_equal(in.depth, 10);
	assert_int_equal(in.seldepth, 13);
	assert_int_equal(in.multipv, 1);
	assert_true(in.has_score && in.score.kind == USI_SCORE_CP);
	assert_int_equal(in.score.cp, 255);
	assert_int_equal(in.nodes, 20012);
	assert_int_equal(in.time_ms, 102);
	assert_int_equal(in.pv_len, strlen("2h2f 5a6b"));
	assert_false(in.bad);
	l = "info depth 6 score cp 240 upperbound nodes 5006 pv 2h2f";
	usi_parse_info(l, strlen(l), &in);
	assert_int_equal(in.score.bound, USI_BOUND_UPPER);
	assert_int_equal(in.nodes, 5006);
	l = "info score mate -2 lowerbound pv 4h5h 7i6i";
	usi_parse_info(l, strlen(l), &in);
	assert_true(in.score.kind == USI_SCORE_MATE && in.score.sign == -1 &&
	    in.score.plies == 2 && in.score.mate_known);
	assert_int_equal(in.score.bound, USI_BOUND_LOWER);
	l = "info score mate + pv B*5g";
	usi_parse_info(l, strlen(l), &in);
	assert_true(in.score.sign == 1 && !in.score.mate_known);
	l = "info depth 0 score mate 0";
	usi_parse_info(l, strlen(l), &in);
	assert_true(in.score.kind == USI_SCORE_MATE && in.score.sign == 0);
	l = "info time 1502 nodes 652989 nps 434531";
	usi_parse_info(l, strlen(l), &in);
	assert_false(in.has_score);
	assert_int_equal(in.time_ms, 1502);
	l = "info string score cp 5 pv 7g7f";
	usi_parse_info(l, strlen(l), &in);
	assert_false(in.has_score);
	assert_null(in.pv);
	l = "info depth abc score cp xyz nodes -5 pv";
	usi_parse_info(l, strlen(l), &in);
	assert_true(in.bad);
	assert_false(in.has_score);
	assert_int_equal(in.depth, -1);
	l = "info score cp 99999999999999999999999999";
	usi_parse_info(l, strlen(l), &in);
	assert_true(in.has_score);
	assert_int_equal(usi_parse_info("bestmove 7g7f", 13, &in), -1);
}

static void
test_result_text(void **state)
{
	struct usi_result r, back;
	struct usi_error err;
	struct position pos;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	const char *text =
	    "info multipv 1 depth 9 seldepth 11 score cp 201 nodes 20005 "
	    "time 133 pv 4g4f 5a5b 9z9z\n"
	    "info multipv 2 depth 9 score mate -3 upperbound pv 2g2f\n"
	    "bestmove 4g4f ponder 5a5b\n";

	(void)state;
	load_sfen(&pos, START);
	usi_result_init(&r);
	usi_result_init(&back);
	assert_int_equal(usi_result_parse(text, &pos, 2, &r, on_warn, NULL,
	    &err), 0);
	assert_int_equal(r.best_kind, USI_BEST_MOVE);
	assert_int_equal(r.nlines, 2);
	/* The PV is cut at the move that is no move, with a warning. */
	assert_int_equal(r.lines[0].npv, 2);
	assert_true(r.lines[0].pv_cut);
	assert_true(warnings > 0);
	assert_int_equal(r.lines[1].score.kind, USI_SCORE_MATE);
	assert_int_equal(r.lines[1].score.bound, USI_BOUND_UPPER);
	usi_result_format(&r, &a);
	assert_int_equal(usi_result_parse(a.buf, &pos, 2, &back, NULL, NULL,
	    &err), 0);
	usi_result_format(&back, &b);
	assert_string_equal(a.buf, b.buf);
	/* gpsusi's null move, "pass", ends a PV without a warning. */
	warnings = 0;
	assert_int_equal(usi_result_parse("info depth 5 score cp 30 pv 7g7f "
	    "pass 2g2f\nbestmove 7g7f\n", &pos, 1, &r, on_warn, NULL, &err), 0);
	assert_int_equal(r.lines[0].npv, 1);
	assert_false(r.lines[0].pv_cut);
	assert_int_equal(warnings, 0);
	/* An illegal bestmove in a cache is refused. */
	assert_int_equal(usi_result_parse("bestmove 5e5d\n", &pos, 1, &r,
	    NULL, NULL, &err), -1);
	assert_int_equal(err.status, USI_ERR_PROTOCOL);
	assert_int_equal(usi_result_parse("info depth 1\n", &pos, 1, &r,
	    NULL, NULL, &err), -1);
	strbuf_release(&a);
	strbuf_release(&b);
	usi_result_release(&r);
	usi_result_release(&back);
}

/* --- starting ---------------------------------------------------------- */

static void
test_no_such_file(void **state)
{
	struct usi_start_opts o;
	struct usi_engine *e;
	struct usi_error err;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.command = "/nonexistent/engine --flag";
	assert_int_equal(usi_start(&o, &e, &err), -1);
	assert_int_equal(err.status, USI_ERR_START);
	assert_non_null(strstr(err.msg, "no such file"));
	o.command = "kifu-no-such-engine-anywhere";
	assert_int_equal(usi_start(&o, &e, &err), -1);
	assert_non_null(strstr(err.msg, "no such file"));
}

static void
test_not_executable(void **state)
{
	struct usi_start_opts o;
	struct usi_engine *e;
	struct usi_error err;
	char path[400];
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/engine", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("#!/bin/sh\necho usiok\n", f);
	fclose(f);
	chmod(path, 0644);
	memset(&o, 0, sizeof(o));
	o.command = path;
	assert_int_equal(usi_start(&o, &e, &err), -1);
	assert_int_equal(err.status, USI_ERR_START);
	assert_non_null(strstr(err.msg, "not executable"));
	o.command = dir;
	assert_int_equal(usi_start(&o, &e, &err), -1);
	assert_int_equal(err.status, USI_ERR_START);
	/* Executable, but no program the kernel can run. */
	f = fopen(path, "w");
	fputs("\x7f" "ELF garbage", f);
	fclose(f);
	chmod(path, 0755);
	assert_int_equal(usi_start(&o, &e, &err), -1);
	o.command = path;
	assert_int_equal(usi_start(&o, &e, &err), -1);
	assert_int_equal(err.status, USI_ERR_START);
}

static void
test_exit_at_start(void **state)
{
	static const char *const a[] = { "--fault", "exit-start", NULL };
	struct usi_engine *e;
	struct usi_error err;

	(void)state;
	assert_int_equal(start(&e, &err, 10000, a), -1);
	assert_int_equal(err.status, USI_ERR_DIED);
	assert_non_null(strstr(err.msg, "status 3"));
}

static void
test_no_usiok(void **state)
{
	static const char *const a[] = { "--fault", "no-usiok", NULL };
	struct usi_engine *e;
	struct usi_error err;
	long long t0 = ms_now();

	(void)state;
	assert_int_equal(start(&e, &err, 1500, a), -1);
	assert_int_equal(err.status, USI_ERR_TIMEOUT);
	assert_non_null(strstr(err.msg, "usiok"));
	assert_true(ms_now() - t0 < 10000);
}

static void
test_flood_init(void **state)
{
	static const char *const a[] = { "--fault", "flood-init", NULL };
	struct usi_engine *e;
	struct usi_error err;

	(void)state;
	assert_int_equal(start(&e, &err, 1500, a), -1);
	assert_int_equal(err.status, USI_ERR_TIMEOUT);
}

static void
test_no_readyok(void **state)
{
	static const char *const a[] = { "--fault", "no-readyok", NULL };
	struct usi_engine *e;
	struct usi_error err;

	(void)state;
	assert_int_equal(start(&e, &err, 1500, a), 0);
	assert_int_equal(usi_ready(e, &err), -1);
	assert_int_equal(err.status, USI_ERR_TIMEOUT);
	assert_non_null(strstr(err.msg, "readyok"));
	assert_false(usi_alive(e));
	usi_close(e);
}

/* --- a session --------------------------------------------------------- */

static void
test_session(void **state)
{
	static const char *const a[] = { "--spawn-child", NULL };
	struct usi_engine *e;
	struct usi_error err;
	struct usi_result r;
	struct position pos;
	struct usi_search s;
	size_t n;

	(void)state;
	assert_int_equal(start(&e, &err, 10000, a), 0);
	assert_string_equal(usi_engine_name(e), "kifu mock 1.0");
	assert_string_equal(usi_engine_author(e), "kifu tests");
	usi_engine_options(e, &n);
	assert_int_equal(n, 6);
	assert_non_null(usi_engine_option(e, "clear hash"));
	assert_string_equal(usi_multipv_option(e), "MultiPV");
	/* Each refusal names the problem and sends nothing. */
	assert_int_equal(usi_set_option(e, "Hash", "16", &err), -1);
	assert_int_equal(err.status, USI_ERR_OPTION);
	assert_int_equal(usi_set_option(e, "Threads", "9", &err), -1);
	assert_non_null(strstr(err.msg, "1 to 4"));
	assert_int_equal(usi_set_option(e, "Threads", "abc", &err), -1);
	assert_int_equal(usi_set_option(e, "Ponder", "yes", &err), -1);
	assert_int_equal(usi_set_option(e, "Style", "calm", &err), -1);
	assert_non_null(strstr(err.msg, "normal, wild"));
	assert_int_equal(usi_set_option(e, "Clear Hash", "1", &err), -1);
	assert_int_equal(usi_set_option(e, "threads", "2", &err), 0);
	assert_int_equal(usi_set_option(e, "Clear Hash", NULL, &err), 0);
	assert_int_equal(usi_set_option(e, "USI_Hash", "64", &err), 0);
	assert_int_equal(usi_set_option(e, "MultiPV", "3", &err), 0);
	assert_int_equal(usi_ready(e, &err), 0);
	assert_true(log_has("setoption name Threads value 2"));
	assert_true(log_has("setoption name Clear Hash"));
	assert_false(log_has("value 9"));
	assert_false(log_has("Hash value 16"));
	/* A search from a position with moves: always `position sfen`. */
	load_sfen(&pos, START);
	{
		struct position after = pos;
		struct move_claim cl;
		struct undo u;
		move mv[2];

		usi_parse_move(pos.v, "7g7f", 4, &cl);
		rules_check_move(&after, &cl, &mv[0]);
		position_do_move(&after, mv[0], &u);
		usi_parse_move(pos.v, "3c3d", 4, &cl);
		rules_check_move(&after, &cl, &mv[1]);
		position_do_move(&after, mv[1], &u);
		memset(&s, 0, sizeof(s));
		s.start = &pos;
		s.moves = mv;
		s.nmoves = 2;
		s.pos = &after;
		s.limit.kind = USI_LIMIT_NODES;
		s.limit.value = 500;
		s.multipv = 3;
		s.timeout_ms = 10000;
		s.new_game = 1;
		usi_result_init(&r);
		assert_int_equal(usi_search(e, &s, &r, &err), 0);
	}
	assert_true(log_has("position sfen " START " moves 7g7f 3c3d"));
	assert_true(log_has("usinewgame"));
	assert_true(log_has("go nodes 500"));
	assert_int_equal(r.best_kind, USI_BEST_MOVE);
	assert_int_equal(r.nlines, 3);
	assert_int_equal(r.lines[0].multipv, 1);
	assert_int_equal(r.lines[2].multipv, 3);
	assert_int_equal(r.lines[0].npv, 4);
	assert_int_equal(r.lines[0].pv[0], r.best);
	assert_int_equal(r.lines[0].score.cp - 20, r.lines[2].score.cp);
	assert_int_equal(r.lines[0].depth, 3);
	assert_true(r.ponder != MOVE_NONE);
	usi_result_release(&r);
	usi_close(e);
	assert_true(log_has("quit"));
}

/* --- faults in a search ------------------------------------------------ */

static void
fault_search(const char *fault, int want, long long timeout)
{
	const char *a[] = { "--fault", fault, NULL };
	struct usi_engine *e;
	struct usi_error err;
	struct usi_result r;
	long long t0;

	assert_int_equal(start(&e, &err, 10000, a), 0);
	assert_int_equal(usi_ready(e, &err), 0);
	usi_result_init(&r);
	t0 = ms_now();
	err.status = USI_OK;
	if (search(e, START, &r, timeout, &err) != (want == USI_OK ? 0 : -1) ||
	    (int)err.status != want)
		fail_msg("%s: status %s (%s)", fault,
		    usi_status_name(err.status), err.msg);
	/* Bounded: the timeout, the stop grace, the kill. */
	assert_true(ms_now() - t0 < timeout + 8000);
	usi_result_release(&r);
	usi_close(e);
}

static void
test_die_search(void **state)
{
	(void)state;
	fault_search("die-search", USI_ERR_DIED, 10000);
}

static void
test_hang_search(void **state)
{
	(void)state;
	fault_search("hang-search", USI_ERR_TIMEOUT, 1000);
}

static void
test_overrun(void **state)
{
	(void)state;
	fault_search("overrun", USI_ERR_TIMEOUT, 800);
}

static void
test_flood_search(void **state)
{
	(void)state;
	fault_search("flood-search", USI_ERR_TIMEOUT, 800);
}

static void
test_close_output(void **state)
{
	(void)state;
	fault_search("close-output", USI_ERR_DIED, 10000);
}

static void
test_illegal_bestmove(void **state)
{
	(void)state;
	fault_search("illegal-bestmove", USI_ERR_PROTOCOL, 10000);
}

static void
test_empty_bestmove(void **state)
{
	(void)state;
	fault_search("empty-bestmove", USI_ERR_PROTOCOL, 10000);
}

static void
test_garbage(void **state)
{
	(void)state;
	fault_search("garbage", USI_OK, 10000);
	assert_true(warnings > 0);
}

static void
test_long_lines(void **state)
{
	(void)state;
	fault_search("long-lines", USI_OK, 10000);
	assert_non_null(strstr(last_warning, "longer than"));
}

static void
test_illegal_pv(void **state)
{
	static const char *const a[] = { "--fault", "illegal-pv", NULL };
	struct usi_engine *e;
	struct usi_error err;
	struct usi_result r;

	(void)state;
	assert_int_equal(start(&e, &err, 10000, a), 0);
	usi_result_init(&r);
	assert_int_equal(search(e, START, &r, 10000, &err), 0);
	assert_int_equal(r.lines[0].npv, 2);
	assert_true(r.lines[0].pv_cut);
	assert_non_null(strstr(last_warning, "cut at its move 3"));
	usi_result_release(&r);
	usi_close(e);
}

/* After a death or a kill, usi_restart brings the engine back. */
static void
test_restart(void **state)
{
	const char *a[] = { "--fault", "hang-search", "--at", "1",
	    "--counter", counter, NULL };
	struct usi_engine *e;
	struct usi_error err;
	struct usi_result r;

	(void)state;
	assert_int_equal(start(&e, &err, 10000, a), 0);
	assert_int_equal(usi_set_option(e, "Threads", "3", &err), 0);
	usi_result_init(&r);
	assert_int_equal(search(e, START, &r, 800, &err), -1);
	assert_int_equal(err.status, USI_ERR_TIMEOUT);
	assert_false(usi_alive(e));
	assert_int_equal(search(e, START, &r, 800, &err), -1);
	assert_int_equal(err.status, USI_ERR_DIED);
	assert_int_equal(usi_restart(e, &err), 0);
	assert_int_equal(usi_engine_restarts(e), 1);
	assert_int_equal(search(e, START, &r, 10000, &err), 0);
	usi_result_release(&r);
	usi_close(e);
	/* The option was sent again to the new process. */
	{
		FILE *f = fopen(logfile, "r");
		char line[256];
		int n = 0;

		while (f && fgets(line, sizeof(line), f))
			n += !strcmp(line, "setoption name Threads value 3\n");
		if (f)
			fclose(f);
		assert_int_equal(n, 2);
	}
}

static void
test_limits(void **state)
{
	static const char *const gps[] = { "--name", "gpsshogi mock", NULL };
	static const char *const nod[] = { "--fault", "no-depth", NULL };
	struct usi_engine *e;
	struct usi_error err;
	struct usi_limit l;
	struct usi_result r;

	(void)state;
	/* By the table: gpsshogi takes no depth, and time in seconds. */
	assert_int_equal(start(&e, &err, 10000, gps), 0);
	l.kind = USI_LIMIT_DEPTH;
	l.value = 10;
	assert_int_equal(usi_check_limit(e, &l, &err), -1);
	assert_int_equal(err.status, USI_ERR_UNSUPPORTED);
	assert_non_null(strstr(err.msg, "gpsshogi mock does not take go depth"));
	l.kind = USI_LIMIT_MOVETIME;
	l.value = 500;
	assert_int_equal(usi_check_limit(e, &l, &err), -1);
	l.value = 2000;
	assert_int_equal(usi_check_limit(e, &l, &err), 0);
	/* and gets its time as byoyomi. */
	{
		struct position pos;
		struct usi_search s;

		load_sfen(&pos, START);
		memset(&s, 0, sizeof(s));
		s.start = s.pos = &pos;
		s.limit = l;
		s.multipv = 1;
		s.timeout_ms = 10000;
		usi_result_init(&r);
		assert_int_equal(usi_search(e, &s, &r, &err), 0);
		usi_result_release(&r);
		assert_true(log_has("go btime 0 wtime 0 byoyomi 2000"));
		/* A position without the mover's king is not sent. */
		load_sfen(&pos, "8k/9/9/9/9/9/9/9/9 b G 1");
		assert_int_equal(usi_search(e, &s, &r, &err), -1);
		assert_int_equal(err.status, USI_ERR_UNSUPPORTED);
	}
	usi_close(e);
	/* Not in the table: tried, and it dies on depth. */
	assert_int_equal(start(&e, &err, 10000, nod), 0);
	l.kind = USI_LIMIT_DEPTH;
	l.value = 5;
	assert_int_equal(usi_check_limit(e, &l, &err), -1);
	assert_int_equal(err.status, USI_ERR_UNSUPPORTED);
	assert_non_null(strstr(err.msg, "does not take go depth"));
	assert_int_equal(usi_restart(e, &err), 0);
	l.kind = USI_LIMIT_MOVETIME;
	l.value = 100;
	assert_int_equal(usi_check_limit(e, &l, &err), 0);
	usi_close(e);
}

int
main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_option_lines),
		cmocka_unit_test(test_info_lines),
		cmocka_unit_test(test_result_text),
		cmocka_unit_test_setup_teardown(test_no_such_file, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_not_executable, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_exit_at_start, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_no_usiok, setup, teardown),
		cmocka_unit_test_setup_teardown(test_flood_init, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_no_readyok, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_session, setup, teardown),
		cmocka_unit_test_setup_teardown(test_die_search, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_hang_search, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_overrun, setup, teardown),
		cmocka_unit_test_setup_teardown(test_flood_search, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_close_output, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_illegal_bestmove, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_empty_bestmove, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_garbage, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_lines, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_illegal_pv, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_restart, setup, teardown),
		cmocka_unit_test_setup_teardown(test_limits, setup, teardown),
	};

	core_init();
	if (!(mock = mock_engine("test_engine_usi")))
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
