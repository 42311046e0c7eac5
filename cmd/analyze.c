/*
 * analyze.c - `kifu analyze`: whole archives analysed by a USI engine,
 * written back into the records (or out as JSON), in parallel with one
 * engine process a worker, the output in input order (walk/pipeline.c).
 *
 * The machinery lives in the library: one engine process
 * (engine/usi.h), the engines of the run and their options
 * (engine/enginepool.h), one input analysed into the text of its outputs
 * (engine/analyzeinput.h), the work on each record (engine/analyze.h),
 * the cache (engine/cache.h) and the engines file (engine/enginefile.h).
 * This file takes the options, runs the pipeline, writes the files and
 * the text in input order, and draws the progress bar.
 *
 * Every engine process group is listed by cmd/enginelive.c, for the
 * handlers of SIGINT, SIGTERM and SIGHUP: an interrupted run ends its
 * engines (and removes gpsusi's private OSL_HOME) before it dies. The
 * library keeps no such list (no global state there); it tells the
 * command of each start and end (enginepool_opts.on_spawn, on_reap).
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "enginelive.h"
#include "ruleopts.h"
#include "walkopts.h"
#include "api/formats.h"
#include "api/judge.h"
#include "api/output.h"
#include "core/clock.h"
#include "core/xalloc.h"
#include "engine/analyze.h"
#include "engine/analyzeinput.h"
#include "engine/cache.h"
#include "engine/enginefile.h"
#include "engine/enginepool.h"
#include "engine/usi.h"
#include "walk/pipeline.h"

const char cmd_analyze_usage[] =
    "usage: kifu analyze --engine <engine> [<options>] <path>...\n"
    "   or: kifu analyze --merge-cache <cache>... -o <cache>\n"
    "\n"
    "Analyses every position of each record's main line with a USI engine\n"
    "and writes the analysis into the records' comments, in the forms\n"
    "ShogiGUI and ShogiHome read (kifu's own earlier analysis is replaced,\n"
    "every other comment kept as it is), or out as JSON. Each move is judged\n"
    "by its loss against the engine's best. See doc/analyze.md.\n"
    "\n"
    "Engine:\n"
    "    --engine <engine>    a name from the engines file, or the engine's\n"
    "                         command line (split as a shell would; no\n"
    "                         shell runs)\n"
    "    --option <name>=<value>\n"
    "                         a setoption, checked against the options the\n"
    "                         engine declares (repeat it)\n"
    "    --engines <file>     the engines file (default:\n"
    "                         $XDG_CONFIG_HOME/kifu/engines.toml, else\n"
    "                         ~/.config/kifu/engines.toml)\n"
    "    --engine-log <file>  append the engine's stderr here (default: it\n"
    "                         is dropped)\n"
    "    --timeout-init <ms>  the longest wait for usiok and readyok\n"
    "                         (default 30000)\n"
    "    --timeout-search <ms>\n"
    "                         the longest a search may take before it is\n"
    "                         stopped and the position left unanalysed\n"
    "                         (default: the movetime and 10 s; 300000 under\n"
    "                         --nodes or --depth)\n"
    "\n"
    "Search, one limit per position:\n"
    "    --nodes <n>          go nodes n\n"
    "    --depth <n>          go depth n\n"
    "    --movetime <ms>      go movetime ms (the default, 1000)\n"
    "    --multipv <k>        k best lines a position (default 1)\n"
    "\n"
    "Positions:\n"
    "    --from-ply <a>       from the position after a moves (default 0)\n"
    "    --to-ply <b>         to the position after b moves (default: the end)\n"
    "    --side black|white   the moves of one side (the positions before and\n"
    "                         after each)\n"
    "    --variations         the variations too, not only the main line\n"
    "    --thresholds <list>  the losses (centipawns, mover's view) that make\n"
    "                         a move 疑問手, 悪手, 大悪手: three numbers, as\n"
    "                         the default 100,300,800\n"
    "\n"
    "Output:\n"
    "    -o, --output <dir>   write each record into <dir>, the input tree\n"
    "                         mirrored (made when missing)\n"
    "    --in-place           replace each file by its analysed records,\n"
    "                         atomically, keeping <file>.bak\n"
    "    --no-backup          with --in-place, keep no .bak\n"
    "    --json               one JSON object per position and move, to\n"
    "                         stdout\n"
    "    --summary            per record and side: the average loss, the\n"
    "                         moves of each class, the worst moves, as a\n"
    "                         table on stdout (JSON lines with --json)\n"
    "    -t, --to <format>    write the records in this format (default:\n"
    "                         each input's own)\n"
    "    --comments shogigui|shogihome|both\n"
    "                         the comment forms written (default both)\n"
    "    --cache <file>       keep results in this SQLite file and take them\n"
    "                         from it, by position, engine, options and limit\n"
    "                         (a run it answers whole starts no engine)\n"
    "    --merge-cache        merge the caches named into -o's file\n"
    "    --force              replace existing output files (and .bak)\n"
    "\n"
    "With none of -o, --in-place, --json and --summary, the records go to\n"
    "stdout.\n"
    "\n"
    WALK_HELP
    "    (-j defaults to 1 here: each worker runs an engine of its own)\n"
    READ_HELP
    LIMIT_HELP
    "\n"
    "Exit status: 0 every position analysed, 1 a record unreadable or\n"
    "illegal, or a position left unanalysed, 2 trouble (usage, an engine\n"
    "that cannot be started or refuses an option or the limit, I/O).\n";

/* --- the command's state ----------------------------------------------- */

struct analyze_cmd {
	/* options */
	const char *engine_arg, *engines_path, *engine_log, *cache_path;
	const char **user_opts;		/* --option, as given */
	size_t nuser;
	struct analyze_opts ao;
	int limit_given;
	long long timeout_init, timeout_search;	/* 0: default */
	/* what each input gives: -t, -o, --in-place, --json, --summary */
	struct analyze_input_opts io;
	int no_backup, force;
	int tty;			/* stdout is a terminal */
	struct judge_opts jo;
	struct limits lim;
	/* the engines */
	struct engine_file ef;
	const struct engine_entry *entry;
	char **argv;
	struct engine_pool pool;
	int pool_on;			/* pool initialised */
	const char *engine_name;	/* the pool's */
	/* the cache */
	struct cache *cache;
	struct analyze_cache cache_ops;
	/* progress, and stderr shared with its thread */
	int progress;
	pthread_mutex_t err_mu;
	long long positions_done;	/* atomic */
	long long positions_total;	/* 0: unknown */
	double start;
	int stop_progress;
	/* totals (main thread) */
	long long records, positions, searched, cached, failed, engine_ms;
	struct strbuf rows;		/* --summary table rows, TAB-separated */
	int status;
};

static void
worst(struct analyze_cmd *c, int status)
{
	if (status > c->status)
		c->status = status;
}

/*
 * What one input gave, for emit() (main thread): base.out for stdout,
 * base.err for stderr, which emit() writes itself (the bar shares
 * stderr with them), and the file to write (res).
 */
struct an_batch {
	struct pipe_batch base;
	struct analyze_input_out res;
	int warnings;		/* said for this input */
	const char *name;	/* the input's, for warnings */
};

struct an_worker {
	struct analyze_cmd *c;
	struct usi_engine *e;
	struct analyze_opts ao;	/* c->ao, with this worker's callbacks */
	struct analyzer a;
	struct judge *j;
	struct analyze_record ar;
	struct an_batch *b;	/* the batch being filled */
};

#define WARNINGS_MAX 10

static void
worker_warn(void *ctx, const char *msg)
{
	struct an_worker *w = ctx;
	struct an_batch *b = w->b;

	if (!b)
		return;
	if (b->warnings++ < WARNINGS_MAX) {
		strbuf_addf(&b->base.err, "%s: warning: ", b->name);
		cmd_add_clean(&b->base.err, msg);
		strbuf_addc(&b->base.err, '\n');
	}
}

static void
main_warn(void *ctx, const char *msg)
{
	(void)ctx;
	cmd_warning("%s", msg);
}

static void
count_position(void *ctx)
{
	struct analyze_cmd *c = ctx;

	__atomic_add_fetch(&c->positions_done, 1, __ATOMIC_RELAXED);
}

/* --- the pipeline's callbacks ------------------------------------------ */

static void
batch_init(void *ctx, void *batch)
{
	struct an_batch *b = batch;

	(void)ctx;
	analyze_input_out_init(&b->res, &b->base.out, &b->base.err);
	b->warnings = 0;
	b->name = NULL;
}

static void
batch_release(void *ctx, void *batch)
{
	(void)ctx;
	analyze_input_out_release(&((struct an_batch *)batch)->res);
}

static void
batch_reset(void *ctx, void *batch)
{
	batch_release(ctx, batch);
	batch_init(ctx, batch);
}

static struct usi_engine *worker_start(void *ctx, char *why, size_t n);

static void *
worker_new(void *ctx)
{
	struct analyze_cmd *c = ctx;
	struct an_worker *w = xcalloc(1, sizeof(*w));

	w->c = c;
	w->ao = c->ao;
	w->ao.warn = worker_warn;
	w->ao.warn_ctx = w;
	w->ao.progress = c->progress ? count_position : NULL;
	w->ao.progress_ctx = c;
	w->j = judge_new(&c->jo);
	analyze_record_init(&w->ar);
	analyzer_init(&w->a, NULL, &w->ao);
	if (c->cache)
		analyzer_defer(&w->a, worker_start, w);
	return w;
}

/*
 * The worker's engine: the one started before the walk if no other
 * worker took it, else a new one. Without a cache it is made on the
 * worker's first input (a worker that gets none starts none); with one,
 * when a position is not in the cache (analyzer_defer): a run the cache
 * answers whole starts no engine. One that cannot be started leaves
 * this worker's positions unanalysed; the others go on.
 */
static int
worker_engine(struct an_worker *w, char *why, size_t n)
{
	struct usi_error err;

	if (w->e)
		return 0;
	if (!(w->e = enginepool_take(&w->c->pool, worker_warn, w, &err))) {
		snprintf(why, n, "an engine for this worker could not be "
		    "started: %.400s", err.msg);
		return -1;
	}
	return 0;
}

static struct usi_engine *
worker_start(void *ctx, char *why, size_t n)
{
	struct an_worker *w = ctx;

	return worker_engine(w, why, n) < 0 ? NULL : w->e;
}

static void
worker_free(void *ctx, void *wv)
{
	struct an_worker *w = wv;

	(void)ctx;
	usi_close(w->e);
	analyzer_release(&w->a);
	analyze_record_release(&w->ar);
	judge_free(w->j);
	free(w);
}

static int
input(void *ctx, void *wv, void *batch, const struct pipe_input *in)
{
	struct analyze_cmd *c = ctx;
	struct an_worker *w = wv;
	struct an_batch *b = batch;

	w->b = b;
	b->name = in->name;
	if (!c->cache && !w->e && !w->a.dead) {
		if (worker_engine(w, w->a.dead_why, sizeof(w->a.dead_why)) < 0)
			w->a.dead = 1;
		w->a.e = w->e;
	}
	if (in->error) {
		pipe_batch_unreadable(&b->base, in);
		b->res.status = EXIT_TROUBLE;
		return 1;
	}
	analyze_input(&c->io, &w->a, w->j, &w->ar, in, &b->res);
	w->b = NULL;
	if (b->warnings > WARNINGS_MAX)
		strbuf_addf(&b->base.err, "%s: warning: %d more warnings not "
		    "shown\n", in->name, b->warnings - WARNINGS_MAX);
	return b->res.status != 0;
}

/* Makes the directories of path's parents, as mkdir -p. */
static int
make_parents(const char *path)
{
	char *p = xstrndup(path, strlen(path)), *s;
	int rc = 0;

	for (s = strchr(p + 1, '/'); s && !rc; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(p, 0777) < 0 && errno != EEXIST)
			rc = -1;
		*s = '/';
	}
	free(p);
	return rc;
}

static void
clear_bar(struct analyze_cmd *c)
{
	if (c->progress)
		fputs("\r\033[K", stderr);
}

static int
emit(void *ctx, void *batch)
{
	struct analyze_cmd *c = ctx;
	struct an_batch *b = batch;
	struct analyze_input_out *r = &b->res;
	int stop = 0;

	pthread_mutex_lock(&c->err_mu);
	clear_bar(c);
	if (b->base.out.len && output_write_stdout(b->base.out.buf,
	    b->base.out.len) < 0) {
		/* Nobody reads on: the run ends (what was written stays). */
		cmd_error("write error on standard output: %s; stopped",
		    strerror(errno));
		worst(c, EXIT_TROUBLE);
		stop = 1;
	}
	if (b->base.err.len) {
		fflush(stdout);
		fwrite(b->base.err.buf, 1, b->base.err.len, stderr);
	}
	if (r->dest.len && r->text.len) {
		if (c->io.in_place) {
			if (cmd_replace_file(r->dest.buf, r->orig.buf ?
			    r->orig.buf : "", r->orig.len, r->text.buf,
			    r->text.len, c->no_backup, c->force))
				worst(c, EXIT_TROUBLE);
		} else if (make_parents(r->dest.buf) < 0 ||
		    output_write_file(r->dest.buf, r->text.buf, r->text.len,
		    c->force, -1) < 0) {
			if (errno == EEXIST)
				cmd_error("'%s' exists; not replaced (use "
				    "--force)", r->dest.buf);
			else
				cmd_error("cannot write '%s': %s", r->dest.buf,
				    strerror(errno));
			worst(c, EXIT_TROUBLE);
		}
	}
	fflush(stderr);
	pthread_mutex_unlock(&c->err_mu);
	strbuf_add(&c->rows, r->rows.buf ? r->rows.buf : "", r->rows.len);
	c->records += r->records;
	c->positions += r->positions;
	c->searched += r->searched;
	c->cached += r->cached;
	c->failed += r->failed;
	c->engine_ms += r->engine_ms;
	worst(c, r->status);
	return stop;
}

/* A path the walk passed over on purpose (a fifo...): said in its turn. */
static void
skipped(void *ctx, const char *name, const char *why)
{
	struct analyze_cmd *c = ctx;

	pthread_mutex_lock(&c->err_mu);
	clear_bar(c);
	fflush(stdout);
	fprintf(stderr, "kifu: warning: skipped '%s': %s\n", name, why);
	pthread_mutex_unlock(&c->err_mu);
}

static long long
done(void *ctx)
{
	return ((struct analyze_cmd *)ctx)->records;
}

static const struct pipeline_ops analyze_ops = {
	.batch_size = sizeof(struct an_batch),
	.batch_init = batch_init,
	.batch_reset = batch_reset,
	.batch_release = batch_release,
	.worker_new = worker_new,
	.worker_free = worker_free,
	.input = input,
	.emit = emit,
	.done = done,
};

static void *
progress_main(void *arg)
{
	struct analyze_cmd *c = arg;

	while (!__atomic_load_n(&c->stop_progress, __ATOMIC_RELAXED)) {
		struct timespec ts = { 0, 250000000L };
		long long d = __atomic_load_n(&c->positions_done,
		    __ATOMIC_RELAXED);
		double el = clock_now() - c->start, rate = el > 0 ? d / el : 0;

		pthread_mutex_lock(&c->err_mu);
		fprintf(stderr, "\r\033[K%lld", d);
		if (c->positions_total)
			fprintf(stderr, "/%lld", c->positions_total);
		fprintf(stderr, " positions, %.1f/s", rate);
		if (c->positions_total && rate > 0 && d <= c->positions_total) {
			long eta = (long)((double)(c->positions_total - d) /
			    rate);

			fprintf(stderr, ", ETA %ld:%02ld:%02ld", eta / 3600,
			    eta / 60 % 60, eta % 60);
		}
		fflush(stderr);
		pthread_mutex_unlock(&c->err_mu);
		nanosleep(&ts, NULL);
	}
	return NULL;
}

/* --- options ----------------------------------------------------------- */

enum {
	OPT_ENGINE = 0x300, OPT_OPTION, OPT_ENGINES, OPT_ENGINE_LOG,
	OPT_TIMEOUT_INIT, OPT_TIMEOUT_SEARCH, OPT_NODES, OPT_DEPTH,
	OPT_MOVETIME, OPT_MULTIPV, OPT_FROM_PLY, OPT_TO_PLY, OPT_SIDE,
	OPT_VARIATIONS, OPT_THRESHOLDS, OPT_IN_PLACE, OPT_NO_BACKUP, OPT_JSON,
	OPT_SUMMARY, OPT_COMMENTS, OPT_CACHE, OPT_MERGE_CACHE, OPT_FORCE
};

static long long
parse_count(const char *s, long long max)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > max || *s == '+' ||
	    *s == '-' || *s == ' ')
		return -1;
	return v;
}

static int
take_limit(struct analyze_cmd *c, enum usi_limit_kind k, const char *arg)
{
	long long v = parse_count(arg, 1LL << 50);

	if (c->limit_given)
		return cmd_usage_error(cmd_analyze_usage, "one limit: --nodes, "
		    "--depth or --movetime");
	if (v < 1)
		return cmd_usage_error(cmd_analyze_usage, "--%s takes a "
		    "positive number, not '%s'", usi_limit_name(k), arg);
	c->ao.limit.kind = k;
	c->ao.limit.value = v;
	c->limit_given = 1;
	return 0;
}

static int
take_thresholds(struct analyze_cmd *c, const char *arg)
{
	long long v[3];
	const char *p = arg;
	int k;

	for (k = 0; k < 3; k++) {
		char num[24];
		size_t n = strcspn(p, ",");

		if (n == 0 || n >= sizeof(num))
			break;
		memcpy(num, p, n);
		num[n] = '\0';
		if ((v[k] = parse_count(num, ANALYZE_MATE * 2)) < 1 ||
		    (k && v[k] <= v[k - 1]))
			break;
		p += n;
		if (k < 2 && *p++ != ',')
			break;
	}
	if (k < 3 || *p)
		return cmd_usage_error(cmd_analyze_usage, "--thresholds takes "
		    "three rising positive numbers, as 100,300,800, not '%s'",
		    arg);
	for (k = 0; k < 3; k++)
		c->ao.thresholds[k] = (int)v[k];
	return 0;
}

static int
merge_caches(int argc, char **argv, const char *out, int force)
{
	long long added, conflicts;
	char err[1024];

	if (!out)
		return cmd_usage_error(cmd_analyze_usage, "--merge-cache needs "
		    "-o <cache>, the file to make");
	if (argc < 1)
		return cmd_usage_error(cmd_analyze_usage, "--merge-cache needs "
		    "the caches to merge");
	if (cache_merge((const char *const *)argv, argc, out, force, &added,
	    &conflicts, err, sizeof(err)) < 0)
		return cmd_error("%s", err);
	fprintf(stderr, "kifu: %lld results merged into %s", added, out);
	if (conflicts)
		fprintf(stderr, " (%lld differed between caches; the first "
		    "kept)", conflicts);
	fputc('\n', stderr);
	return EXIT_OK;
}

/* The engine: a name of the engines file, else a command line. */
static int
resolve_engine(struct analyze_cmd *c)
{
	struct usi_error err;
	char msg[1024];

	if (enginefile_load(&c->ef, c->engines_path, msg, sizeof(msg)) < 0)
		return cmd_error("%s", msg);
	c->entry = enginefile_find(&c->ef, c->engine_arg);
	if (usi_split_command(c->entry ? c->entry->command : c->engine_arg,
	    &c->argv, &err) < 0)
		return cmd_error("%s", err.msg);
	if (c->entry) {
		if (!c->engine_log)
			c->engine_log = c->entry->log;
		if (!c->timeout_init)
			c->timeout_init = c->entry->timeout_init;
	}
	return 0;
}

static void
main_note(void *ctx, const char *msg)
{
	(void)ctx;
	cmd_note("%s", msg);
}

/*
 * The engines of the run (engine/enginepool.h): the cache's note taken,
 * else the first engine started and checked before anything is read.
 */
static int
start_engines(struct analyze_cmd *c)
{
	struct enginepool_opts po;
	struct usi_error err;

	memset(&po, 0, sizeof(po));
	po.argv = c->argv;
	po.entry = c->entry;
	po.asked = c->user_opts;
	po.nasked = c->nuser;
	po.log_path = c->engine_log;
	po.init_timeout_ms = c->timeout_init;
	po.limit = c->ao.limit;
	po.multipv = c->ao.multipv;
	po.cache = c->cache;
	po.warn = main_warn;
	po.note = main_note;
	po.on_spawn = enginelive_spawn;
	po.on_reap = enginelive_reap;
	enginepool_init(&c->pool, &po);
	c->pool_on = 1;
	if (enginepool_prepare(&c->pool, &err) < 0) {
		if (err.status == USI_ERR_UNSUPPORTED)
			return cmd_error("%s; nothing was analysed", err.msg);
		return cmd_error("%s", err.msg);
	}
	c->engine_name = enginepool_name(&c->pool);
	return 0;
}

static void
print_totals(struct analyze_cmd *c, double seconds)
{
	struct rusage ru;
	double cpu = 0;

	if (getrusage(RUSAGE_SELF, &ru) == 0)
		cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		    (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	fflush(stdout);
	fprintf(stderr, "kifu: %lld record%s, %lld position%s: %lld searched, "
	    "%lld from the cache, %lld unanalysed; engine %.3f s, kifu %.3f s "
	    "CPU, %.3f s in all (%s)\n", c->records, c->records == 1 ? "" : "s",
	    c->positions, c->positions == 1 ? "" : "s", c->searched, c->cached, c->failed,
	    (double)c->engine_ms / 1000, cpu, seconds, c->engine_name ?
	    c->engine_name : "");
	if (c->cache && cache_failures(c->cache))
		fprintf(stderr, "kifu: warning: %lld results could not be kept "
		    "in the cache: %s\n", cache_failures(c->cache),
		    cache_error(c->cache));
}

static void
release(struct analyze_cmd *c)
{
	if (c->pool_on)
		enginepool_release(&c->pool);
	free(c->user_opts);
	usi_argv_free(c->argv);
	strbuf_release(&c->rows);
	enginefile_release(&c->ef);
	cache_close(c->cache);
	pthread_mutex_destroy(&c->err_mu);
}

int
cmd_analyze(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "engine", required_argument, NULL, OPT_ENGINE },
		{ "option", required_argument, NULL, OPT_OPTION },
		{ "engines", required_argument, NULL, OPT_ENGINES },
		{ "engine-log", required_argument, NULL, OPT_ENGINE_LOG },
		{ "timeout-init", required_argument, NULL, OPT_TIMEOUT_INIT },
		{ "timeout-search", required_argument, NULL, OPT_TIMEOUT_SEARCH },
		{ "nodes", required_argument, NULL, OPT_NODES },
		{ "depth", required_argument, NULL, OPT_DEPTH },
		{ "movetime", required_argument, NULL, OPT_MOVETIME },
		{ "multipv", required_argument, NULL, OPT_MULTIPV },
		{ "from-ply", required_argument, NULL, OPT_FROM_PLY },
		{ "to-ply", required_argument, NULL, OPT_TO_PLY },
		{ "side", required_argument, NULL, OPT_SIDE },
		{ "variations", no_argument, NULL, OPT_VARIATIONS },
		{ "thresholds", required_argument, NULL, OPT_THRESHOLDS },
		{ "output", required_argument, NULL, 'o' },
		{ "in-place", no_argument, NULL, OPT_IN_PLACE },
		{ "no-backup", no_argument, NULL, OPT_NO_BACKUP },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "summary", no_argument, NULL, OPT_SUMMARY },
		{ "to", required_argument, NULL, 't' },
		{ "comments", required_argument, NULL, OPT_COMMENTS },
		{ "cache", required_argument, NULL, OPT_CACHE },
		{ "merge-cache", no_argument, NULL, OPT_MERGE_CACHE },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "help", no_argument, NULL, 'h' },
		READ_LONGOPTS,
		LIMIT_LONGOPT,
		WALK_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct analyze_cmd c;
	struct walkopts wo;
	struct pipeline_report report = { &c, NULL, NULL, skipped };
	pthread_t bar;
	int opt, merge = 0, jobs_given = 0, rc, bar_started = 0;
	long long v;
	double seconds = 0;

	memset(&c, 0, sizeof(c));
	analyze_opts_init(&c.ao);
	c.lim = limits_default;
	c.jo.limits = &c.lim;
	strbuf_init(&c.rows);
	enginefile_init(&c.ef);
	pthread_mutex_init(&c.err_mu, NULL);
	walkopts_init(&wo, "records");
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "hj:o:t:z", longopts, NULL)) !=
	    -1) {
		switch (opt) {
		case OPT_ENGINE: c.engine_arg = optarg; break;
		case OPT_OPTION:
			if (!strchr(optarg, '=') || *optarg == '=') {
				rc = cmd_usage_error(cmd_analyze_usage, "--option "
				    "takes <name>=<value>, not '%s'", optarg);
				goto out;
			}
			c.user_opts = xreallocarray(c.user_opts, c.nuser + 1,
			    sizeof(*c.user_opts));
			c.user_opts[c.nuser++] = optarg;
			break;
		case OPT_ENGINES: c.engines_path = optarg; break;
		case OPT_ENGINE_LOG: c.engine_log = optarg; break;
		case OPT_TIMEOUT_INIT:
		case OPT_TIMEOUT_SEARCH:
			if ((v = parse_count(optarg, 1LL << 40)) < 1) {
				rc = cmd_usage_error(cmd_analyze_usage, "%s takes "
				    "milliseconds, not '%s'", opt ==
				    OPT_TIMEOUT_INIT ? "--timeout-init" :
				    "--timeout-search", optarg);
				goto out;
			}
			if (opt == OPT_TIMEOUT_INIT)
				c.timeout_init = v;
			else
				c.timeout_search = v;
			break;
		case OPT_NODES:
		case OPT_DEPTH:
		case OPT_MOVETIME:
			if ((rc = take_limit(&c, opt == OPT_NODES ?
			    USI_LIMIT_NODES : opt == OPT_DEPTH ? USI_LIMIT_DEPTH :
			    USI_LIMIT_MOVETIME, optarg)))
				goto out;
			break;
		case OPT_MULTIPV:
			if ((v = parse_count(optarg, USI_MULTIPV_MAX)) < 1) {
				rc = cmd_usage_error(cmd_analyze_usage, "--multipv "
				    "takes 1 to %d, not '%s'", USI_MULTIPV_MAX,
				    optarg);
				goto out;
			}
			c.ao.multipv = (int)v;
			break;
		case OPT_FROM_PLY:
		case OPT_TO_PLY:
			if ((v = parse_count(optarg, 1 << 30)) < 0) {
				rc = cmd_usage_error(cmd_analyze_usage, "%s takes a "
				    "number of moves, not '%s'", opt ==
				    OPT_FROM_PLY ? "--from-ply" : "--to-ply",
				    optarg);
				goto out;
			}
			if (opt == OPT_FROM_PLY)
				c.ao.from_ply = (int)v;
			else
				c.ao.to_ply = (int)v;
			break;
		case OPT_SIDE:
			if (!strcmp(optarg, "black"))
				c.ao.side = BLACK;
			else if (!strcmp(optarg, "white"))
				c.ao.side = WHITE;
			else {
				rc = cmd_usage_error(cmd_analyze_usage, "--side "
				    "takes black or white, not '%s'", optarg);
				goto out;
			}
			break;
		case OPT_VARIATIONS: c.ao.variations = 1; break;
		case OPT_THRESHOLDS:
			if ((rc = take_thresholds(&c, optarg)))
				goto out;
			break;
		case 'o': c.io.out_dir = optarg; break;
		case OPT_IN_PLACE: c.io.in_place = 1; break;
		case OPT_NO_BACKUP: c.no_backup = 1; break;
		case OPT_JSON: c.io.json = 1; break;
		case OPT_SUMMARY: c.io.summary = 1; break;
		case 't':
			if (!(c.io.to = formats_by_name(optarg)) ||
			    !c.io.to->write) {
				rc = cmd_usage_error(cmd_analyze_usage, "cannot "
				    "write format '%s' (known: %s)", optarg,
				    formats_names());
				goto out;
			}
			if (!(c.io.to->caps & CAP_COMMENTS)) {
				rc = cmd_usage_error(cmd_analyze_usage, "%s cannot "
				    "hold comments, where the analysis goes",
				    c.io.to->name);
				goto out;
			}
			break;
		case OPT_COMMENTS:
			if (!strcmp(optarg, "shogigui"))
				c.ao.comments = ANALYZE_SHOGIGUI;
			else if (!strcmp(optarg, "shogihome"))
				c.ao.comments = ANALYZE_SHOGIHOME;
			else if (!strcmp(optarg, "both"))
				c.ao.comments = ANALYZE_SHOGIGUI |
				    ANALYZE_SHOGIHOME;
			else {
				rc = cmd_usage_error(cmd_analyze_usage, "--comments "
				    "takes shogigui, shogihome or both, not "
				    "'%s'", optarg);
				goto out;
			}
			break;
		case OPT_CACHE: c.cache_path = optarg; break;
		case OPT_MERGE_CACHE: merge = 1; break;
		case OPT_FORCE: c.force = 1; break;
		case 'h':
			rc = cmd_help(cmd_analyze_usage);
			goto out;
		case OPT_LIMIT:
			if (limitopt_take(&c.lim, optarg, cmd_analyze_usage)) {
				rc = EXIT_TROUBLE;
				goto out;
			}
			break;
		default:
			if ((rc = readopts_take(&c.jo, opt, optarg,
			    cmd_analyze_usage)) != 0) {
				if (rc != 1)
					goto out;
				break;
			}
			if (opt == 'j')
				jobs_given = 1;
			if ((rc = walkopts_take(&wo, opt, optarg,
			    cmd_analyze_usage)) != 0) {
				if (rc != 1)
					goto out;
				break;
			}
			rc = cmd_usage_error(cmd_analyze_usage, optopt ?
			    "option '%s' needs a value" : "unknown option '%s'",
			    argv[optind - 1]);
			goto out;
		}
	}
	if (merge) {
		rc = merge_caches(argc - optind, argv + optind, c.io.out_dir,
		    c.force);
		goto out;
	}
	if (!jobs_given)
		wo.po.jobs = 1;
	wo.po.batch_max = 1;
	if (!c.engine_arg) {
		rc = cmd_usage_error(cmd_analyze_usage, "no engine (--engine)");
		goto out;
	}
	if ((c.io.out_dir != NULL) + c.io.in_place + c.io.json > 1) {
		rc = cmd_usage_error(cmd_analyze_usage, "-o, --in-place and "
		    "--json are each a whole output: one of them");
		goto out;
	}
	if (c.no_backup && !c.io.in_place) {
		rc = cmd_usage_error(cmd_analyze_usage, "--no-backup goes with "
		    "--in-place");
		goto out;
	}
	if (c.io.to && (c.io.json || (c.io.summary && !c.io.out_dir &&
	    !c.io.in_place))) {
		rc = cmd_usage_error(cmd_analyze_usage, "-t is the format of "
		    "records written; %s writes none", c.io.json ? "--json" :
		    "--summary");
		goto out;
	}
	if (c.ao.to_ply >= 0 && c.ao.to_ply < c.ao.from_ply) {
		rc = cmd_usage_error(cmd_analyze_usage, "--to-ply %d comes "
		    "before --from-ply %d", c.ao.to_ply, c.ao.from_ply);
		goto out;
	}
	c.io.records_out = c.io.out_dir || c.io.in_place || (!c.io.json &&
	    !c.io.summary);
	c.tty = isatty(STDOUT_FILENO);
	if ((rc = walkopts_finish(&wo, argc - optind, cmd_analyze_usage)))
		goto out;
	if (c.io.in_place && c.io.to) {
		int i;

		for (i = optind; i < argc; i++) {
			struct stat st;

			if (stat(argv[i], &st) == 0 && S_ISREG(st.st_mode) &&
			    !formats_owns_ext(c.io.to, argv[i])) {
				rc = cmd_usage_error(cmd_analyze_usage, "--in-place "
				    "keeps the name '%s', which is not a %s "
				    "file's; write with -o instead", argv[i],
				    c.io.to->name);
				goto out;
			}
		}
	}
	if (c.io.out_dir) {
		struct stat st;

		if (stat(c.io.out_dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
			rc = cmd_error("-o names '%s', which is no directory",
			    c.io.out_dir);
			goto out;
		}
		if (mkdir(c.io.out_dir, 0777) < 0 && errno != EEXIST) {
			rc = cmd_error("cannot make '%s': %s", c.io.out_dir,
			    strerror(errno));
			goto out;
		}
	}
	c.io.paths = argv + optind;
	c.io.npaths = argc - optind;
	if (!c.timeout_search)
		c.timeout_search = c.ao.limit.kind == USI_LIMIT_MOVETIME ?
		    c.ao.limit.value + 10000 : 300000;
	c.ao.timeout_ms = c.timeout_search;
	enginelive_signals(1, NULL);
	if ((rc = resolve_engine(&c)))
		goto out_signals;
	if (c.cache_path) {
		char err[1024];

		if (!(c.cache = cache_open(c.cache_path, 1, err, sizeof(err)))) {
			rc = cmd_error("%s", err);
			goto out_signals;
		}
		cache_ops(c.cache, &c.cache_ops);
		c.ao.cache = &c.cache_ops;
	}
	if ((rc = start_engines(&c)))
		goto out_signals;
	if (c.cache)
		c.ao.setup = enginepool_setup(&c.pool);
	c.ao.engine_name = c.engine_name;
	c.io.engine_name = c.engine_name;
	/* A person reads a terminal, in its encoding (as convert). */
	if (c.io.records_out && !c.io.out_dir && !c.io.in_place && c.tty)
		c.io.stdout_encoding = cmd_terminal_encoding();
	c.progress = wo.po.progress;
	/* The bar is ours (positions, not records); so is the text. */
	wo.po.progress = 0;
	wo.po.out = wo.po.err = NULL;
	wo.po.report = &report;
	c.start = clock_now();
	if (c.progress) {
		if (!wo.from_stdin)
			c.positions_total = analyze_count_inputs(&wo.po, &c.jo,
			    &c.ao, c.io.paths, c.io.npaths);
		c.start = clock_now();
		if (pthread_create(&bar, NULL, progress_main, &c) == 0)
			bar_started = 1;
	}
	if (pipeline_run(&wo.po, &analyze_ops, &c, c.io.paths, c.io.npaths,
	    wo.from_stdin, wo.nul, NULL, &seconds) < 0) {
		cmd_error("cannot start a thread: %s", strerror(errno));
		worst(&c, EXIT_TROUBLE);
	}
	if (bar_started) {
		__atomic_store_n(&c.stop_progress, 1, __ATOMIC_RELAXED);
		pthread_join(bar, NULL);
		fputs("\r\033[K", stderr);
	}
	if (c.io.summary && !c.io.json) {
		struct strbuf table = STRBUF_INIT;

		analyze_summary_table(&c.rows, &table);
		fwrite(table.buf, 1, table.len, stdout);
		strbuf_release(&table);
	}
	print_totals(&c, seconds);
	rc = c.status;
out_signals:
	release(&c);
	enginelive_signals(0, NULL);
	return rc;
out:
	release(&c);
	return rc;
}
