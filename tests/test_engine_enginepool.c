/*
 * The engines of an analysis run (engine/enginepool.h) against the mock
 * engine (tests/mock_engine.c): the options every engine gets (the
 * engines file's, --option's, kifu's own defaults, MultiPV) and the
 * setup they make, the errors that stop a run before it reads anything,
 * the first engine handed on and the others started (from threads), the
 * cache's note of an engine taken, and the note dropped when the engine
 * behind the same file changed. After every test each pid the mock
 * wrote is checked: gone, and reaped.
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine_procs.h"
#include "helpers.h"
#include "core/core.h"
#include "engine/analyze.h"
#include "engine/cache.h"
#include "engine/enginefile.h"
#include "engine/enginepool.h"

static char mock[PATH_MAX];
static char dir[256], pidfile[300], logfile[300], namefile[300];
static char wrapper[300], cachefile[300];
static int spawned, reaped, notes;
static char last_note[512];
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void
on_note(void *ctx, const char *msg)
{
	(void)ctx;
	notes++;
	snprintf(last_note, sizeof(last_note), "%s", msg);
}

static void
on_spawn(void *ctx, pid_t pgid, const char *home)
{
	(void)ctx;
	(void)pgid;
	(void)home;
	pthread_mutex_lock(&mu);
	spawned++;
	pthread_mutex_unlock(&mu);
}

static void
on_reap(void *ctx, pid_t pgid)
{
	(void)ctx;
	(void)pgid;
	pthread_mutex_lock(&mu);
	reaped++;
	pthread_mutex_unlock(&mu);
}

/* The lines of the pid file so far (engines started), not consumed. */
static int
starts(void)
{
	FILE *f = fopen(pidfile, "r");
	char line[64];
	int n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		n++;
	fclose(f);
	return n;
}

static int
log_count(const char *text)
{
	return procs_log_count(logfile, text);
}

static int
setup(void **state)
{
	FILE *f;

	(void)state;
	if (procs_setup(dir, sizeof(dir), pidfile, sizeof(pidfile), "pool") < 0)
		return -1;
	snprintf(logfile, sizeof(logfile), "%s/log", dir);
	snprintf(namefile, sizeof(namefile), "%s/name", dir);
	snprintf(wrapper, sizeof(wrapper), "%s/engine.sh", dir);
	snprintf(cachefile, sizeof(cachefile), "%s/c.db", dir);
	/* An engine that can change behind one program file. */
	if (!(f = fopen(wrapper, "w")))
		return -1;
	fprintf(f, "#!/bin/sh\nexec '%s' --pidfile '%s' --name "
	    "\"$(cat '%s')\"\n", mock, pidfile, namefile);
	fclose(f);
	chmod(wrapper, 0755);
	spawned = reaped = notes = 0;
	last_note[0] = '\0';
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	assert_int_equal(spawned, reaped);
	return procs_teardown(dir, pidfile);
}

static void
set_name(const char *name)
{
	FILE *f = fopen(namefile, "w");

	assert_non_null(f);
	fprintf(f, "%s\n", name);
	fclose(f);
}

/* The mock's command: --pidfile and --log, then extra (NULL-ended). */
struct cmdline {
	const char *v[24];
};

static char *const *
mock_argv(struct cmdline *c, const char *const *extra)
{
	int n = 0;

	c->v[n++] = mock;
	c->v[n++] = "--pidfile";
	c->v[n++] = pidfile;
	c->v[n++] = "--log";
	c->v[n++] = logfile;
	while (extra && *extra && n < 23)
		c->v[n++] = *extra++;
	c->v[n] = NULL;
	return (char *const *)c->v;
}

static void
opts_init(struct enginepool_opts *o, char *const *argv)
{
	memset(o, 0, sizeof(*o));
	o->argv = argv;
	o->init_timeout_ms = 20000;
	o->limit.kind = USI_LIMIT_NODES;
	o->limit.value = 100;
	o->multipv = 1;
	o->note = on_note;
	o->on_spawn = on_spawn;
	o->on_reap = on_reap;
}

/* A pool prepared, or the test failed. */
static void
prepare(struct engine_pool *p, const struct enginepool_opts *o)
{
	struct usi_error err;

	enginepool_init(p, o);
	if (enginepool_prepare(p, &err) < 0)
		fail_msg("prepare: %s", err.msg);
}

static void
assert_options(const struct engine_pool *p, const char *const *want)
{
	size_t i;

	for (i = 0; want[i]; i++) {
		if (i >= p->noptions)
			fail_msg("%zu options, %s wanted", p->noptions,
			    want[i]);
		assert_string_equal(p->options[i], want[i]);
	}
	assert_int_equal(p->noptions, i);
}

/* --- the options -------------------------------------------------------- */

static void
test_options(void **state)
{
	static const char *const extra[] = {
		"--declare",
		"option name USI_AnalyseMode type check default false",
		"--declare", "option name USI_OwnBook type check default true",
		NULL
	};
	static const char *const want[] = {
		"MultiPV=2", "Style=wild", "Threads=2", "USI_AnalyseMode=true",
		"USI_OwnBook=false", NULL
	};
	char *file_opts[] = { "Threads=3", "Style=wild" };
	const char *asked[] = { "Threads=2" };
	struct engine_entry entry;
	struct enginepool_opts o;
	struct engine_pool p;
	struct strbuf setup_text = STRBUF_INIT;
	struct cmdline cl;

	(void)state;
	memset(&entry, 0, sizeof(entry));
	entry.options = file_opts;
	entry.noptions = 2;
	opts_init(&o, mock_argv(&cl, extra));
	o.entry = &entry;
	o.asked = asked;
	o.nasked = 1;
	o.multipv = 2;
	prepare(&p, &o);
	/* --option wins over the file; kifu's own come in; sorted. */
	assert_options(&p, want);
	assert_string_equal(enginepool_name(&p), "kifu mock 1.0");
	analyze_setup(&setup_text, "kifu mock 1.0", want, 5, &o.limit, 2);
	assert_string_equal(enginepool_setup(&p), setup_text.buf);
	assert_true(log_count("setoption name Threads value 2"));
	assert_true(log_count("setoption name USI_AnalyseMode value true"));
	assert_true(log_count("setoption name MultiPV value 2"));
	assert_int_equal(notes, 0);
	enginepool_release(&p);
	strbuf_release(&setup_text);
}

static void
test_user_over_defaults(void **state)
{
	static const char *const extra[] = {
		"--declare",
		"option name USI_AnalyseMode type check default false",
		NULL
	};
	const char *asked[] = { "usi_analysemode=false", "MultiPV=3" };
	struct enginepool_opts o;
	struct engine_pool p;
	struct cmdline cl;

	(void)state;
	opts_init(&o, mock_argv(&cl, extra));
	o.asked = asked;
	o.nasked = 2;
	prepare(&p, &o);
	/*
	 * The user's name for the option is found whatever its case (and
	 * kept as written: the engine matches names so too); --multipv 1
	 * overrides --option's MultiPV, and says so.
	 */
	assert_string_equal(p.options[0], "MultiPV=1");
	assert_string_equal(p.options[1], "usi_analysemode=false");
	assert_int_equal(p.noptions, 2);
	assert_int_equal(notes, 1);
	assert_string_equal(last_note, "MultiPV is set by --option; "
	    "--multipv says 1");
	enginepool_release(&p);
}

static void
test_gpsshogi_book(void **state)
{
	static const char *const gps[] = {
		"--name", "gpsshogi mock",
		"--declare", "option name BookDepth type spin default 10 min 0 "
		    "max 100", NULL
	};
	static const char *const other[] = {
		"--declare", "option name BookDepth type spin default 10 min 0 "
		    "max 100", NULL
	};
	static const char *const gps_want[] = {
		"BookDepth=0", "MultiPV=1", NULL
	};
	static const char *const other_want[] = { "MultiPV=1", NULL };
	struct enginepool_opts o;
	struct engine_pool p;
	struct cmdline cl;

	(void)state;
	/* gpsusi's book moves come unscored: its book is turned off. */
	opts_init(&o, mock_argv(&cl, gps));
	o.limit.kind = USI_LIMIT_MOVETIME;
	o.limit.value = 1000;
	prepare(&p, &o);
	assert_options(&p, gps_want);
	enginepool_release(&p);
	/* Another engine's BookDepth is its own business. */
	opts_init(&o, mock_argv(&cl, other));
	prepare(&p, &o);
	assert_options(&p, other_want);
	enginepool_release(&p);
}

/* --- what stops a run before it starts ---------------------------------- */

static void
expect_error(struct enginepool_opts *o, enum usi_status status,
    const char *text)
{
	struct engine_pool p;
	struct usi_error err;

	enginepool_init(&p, o);
	assert_int_equal(enginepool_prepare(&p, &err), -1);
	assert_int_equal(err.status, status);
	if (!strstr(err.msg, text))
		fail_msg("'%s' is not in '%s'", text, err.msg);
	enginepool_release(&p);
}

static void
test_errors(void **state)
{
	static const char *const nompv[] = { "--no-multipv", NULL };
	static const char *const nodepth[] = { "--fault", "no-depth", NULL };
	static char *const nosuch[] = { "/nonexistent/engine", NULL };
	const char *hash[] = { "Hash=16" };
	const char *range[] = { "Threads=99" };
	struct enginepool_opts o;
	struct cmdline cl;

	(void)state;
	opts_init(&o, nosuch);
	expect_error(&o, USI_ERR_START,
	    "cannot run the engine '/nonexistent/engine': no such file");
	opts_init(&o, mock_argv(&cl, NULL));
	o.asked = hash;
	o.nasked = 1;
	expect_error(&o, USI_ERR_OPTION, "kifu mock 1.0 has no option 'Hash'");
	o.asked = range;
	expect_error(&o, USI_ERR_OPTION,
	    "option 'Threads' takes 1 to 4, not 99");
	opts_init(&o, mock_argv(&cl, nompv));
	o.multipv = 2;
	expect_error(&o, USI_ERR_OPTION, "kifu mock 1.0 has no MultiPV option: "
	    "--multipv 2 cannot be had from it");
	/* The limit is tried: an engine that dies of it does not take it. */
	opts_init(&o, mock_argv(&cl, nodepth));
	o.limit.kind = USI_LIMIT_DEPTH;
	o.limit.value = 8;
	expect_error(&o, USI_ERR_UNSUPPORTED,
	    "kifu mock 1.0 does not take go depth");
	/* One it takes is tried, and the engine kept for the run. */
	o.limit.kind = USI_LIMIT_MOVETIME;
	o.limit.value = 100;
	{
		struct engine_pool p;
		int before = starts();

		prepare(&p, &o);
		assert_int_equal(starts(), before + 1);
		assert_non_null(p.first);
		enginepool_release(&p);
	}
}

/* --- an engine for each worker ------------------------------------------ */

struct taker {
	struct engine_pool *p;
	struct usi_engine *e;
	struct usi_error err;
};

static void *
take_main(void *arg)
{
	struct taker *t = arg;

	t->e = enginepool_take(t->p, NULL, NULL, &t->err);
	return NULL;
}

static void
test_take(void **state)
{
	struct enginepool_opts o;
	struct engine_pool p;
	struct taker t[3];
	pthread_t th[3];
	struct cmdline cl;
	pid_t first;
	int i, k, handed = 0;

	(void)state;
	opts_init(&o, mock_argv(&cl, NULL));
	prepare(&p, &o);
	assert_non_null(p.first);
	first = usi_engine_pid(p.first);
	assert_int_equal(starts(), 1);
	/* Three workers at once: one gets the first, two start their own. */
	for (i = 0; i < 3; i++) {
		t[i].p = &p;
		assert_int_equal(pthread_create(&th[i], NULL, take_main, &t[i]),
		    0);
	}
	for (i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < 3; i++) {
		if (!t[i].e)
			fail_msg("worker %d: %s", i, t[i].err.msg);
		handed += usi_engine_pid(t[i].e) == first;
		for (k = 0; k < i; k++)
			assert_int_not_equal(usi_engine_pid(t[i].e),
			    usi_engine_pid(t[k].e));
	}
	assert_int_equal(handed, 1);
	assert_null(p.first);
	assert_int_equal(starts(), 3);
	/* Each was given the options. */
	assert_int_equal(log_count("setoption name MultiPV value 1"), 3);
	for (i = 0; i < 3; i++)
		usi_close(t[i].e);
	enginepool_release(&p);
	assert_int_equal(spawned, 3);
}

/* --- the cache's note ---------------------------------------------------- */

static struct cache *
open_cache(void)
{
	char why[512];
	struct cache *c = cache_open(cachefile, 1, why, sizeof(why));

	if (!c)
		fail_msg("cache: %s", why);
	return c;
}

/*
 * The options of a run of the wrapper, whose engine calls itself
 * "kifu mock 1.0" for now, with the cache; returns the cache.
 */
static struct cache *
wrapper_run(struct enginepool_opts *o)
{
	static char *argv[] = { wrapper, NULL };
	struct cache *c;

	set_name("kifu mock 1.0");
	c = open_cache();
	opts_init(o, argv);
	o->cache = c;
	return c;
}

static void
test_note(void **state)
{
	struct enginepool_opts o;
	struct engine_pool p, q;
	struct usi_error err;
	struct usi_engine *e;
	struct cache *c;

	(void)state;
	c = wrapper_run(&o);
	/* The first run starts its engine and notes what it was. */
	prepare(&p, &o);
	assert_false(p.noted);
	assert_int_equal(starts(), 1);
	/* The next asking the same takes the note: no engine started. */
	prepare(&q, &o);
	assert_true(q.noted);
	assert_int_equal(starts(), 1);
	assert_string_equal(enginepool_setup(&q), enginepool_setup(&p));
	assert_string_equal(enginepool_name(&q), "kifu mock 1.0");
	assert_null(q.first);
	/* A worker that needs one starts it, and it gives the noted setup. */
	if (!(e = enginepool_take(&q, NULL, NULL, &err)))
		fail_msg("take: %s", err.msg);
	assert_int_equal(starts(), 2);
	assert_true(q.settled);
	usi_close(e);
	enginepool_release(&q);
	enginepool_release(&p);
	/* Another limit is another note. */
	o.limit.value = 200;
	prepare(&p, &o);
	assert_false(p.noted);
	assert_int_equal(starts(), 3);
	enginepool_release(&p);
	cache_close(c);
}

static void
test_note_wrong(void **state)
{
	static const char wrong[] = "kifu mock 2.0 is not the engine the cache "
	    "noted for this command (its name or options changed): the note "
	    "is dropped; run again";
	struct enginepool_opts o;
	struct engine_pool p;
	struct usi_error err;
	struct cache *c;

	(void)state;
	c = wrapper_run(&o);
	prepare(&p, &o);
	enginepool_release(&p);
	/* The same file now starts another engine. */
	set_name("kifu mock 2.0");
	prepare(&p, &o);
	assert_true(p.noted);
	assert_null(enginepool_take(&p, NULL, NULL, &err));
	assert_int_equal(err.status, USI_ERR_START);
	assert_string_equal(err.msg, wrong);
	/* Every worker is told the same; none searches under the note. */
	assert_null(enginepool_take(&p, NULL, NULL, &err));
	assert_string_equal(err.msg, wrong);
	assert_false(p.settled);
	enginepool_release(&p);
	/* The note was dropped: the next run starts its engine. */
	prepare(&p, &o);
	assert_false(p.noted);
	assert_string_equal(enginepool_name(&p), "kifu mock 2.0");
	enginepool_release(&p);
	cache_close(c);
}

int
main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_options, setup, teardown),
		cmocka_unit_test_setup_teardown(test_user_over_defaults, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_gpsshogi_book, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_take, setup, teardown),
		cmocka_unit_test_setup_teardown(test_note, setup, teardown),
		cmocka_unit_test_setup_teardown(test_note_wrong, setup,
		    teardown),
	};
	const char *m = mock_engine("test_engine_enginepool");
	char cwd[PATH_MAX];

	if (!m)
		return 1;
	core_init();
	/* The wrapper script runs it by a whole path. */
	if (*m == '/')
		snprintf(mock, sizeof(mock), "%s", m);
	else if (getcwd(cwd, sizeof(cwd)))
		snprintf(mock, sizeof(mock), "%.2000s/%.2000s", cwd, m);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
