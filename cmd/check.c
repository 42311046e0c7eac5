/*
 * check.c - `kifu check`: validate whole archives, in parallel, with the
 * output in input order.
 *
 * The main thread walks the inputs and fills a ring of slots, each a
 * batch of inputs; workers judge whole batches; the main thread prints
 * finished batches strictly in order. The ring is bounded, so memory does
 * not grow with the number of records, and the output bytes are the
 * same whatever -j is.
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "formats.h"
#include "input.h"
#include "judge.h"
#include "ruleopts.h"
#include "stats.h"
#include "walk.h"
#include "core/xalloc.h"

const char cmd_check_usage[] =
    "usage: kifu check [<options>] <path>...\n"
    "\n"
    "Validates every record under the paths: files, directories (walked\n"
    "recursively, in name order), '-' (standard input) and archives read\n"
    "in place (.tar, .tar.gz, .tar.xz, .tar.bz2, .zip, .7z; a member is\n"
    "named archive.zip//path/in/archive). Problems go to stdout, one line\n"
    "each (or JSON Lines with --json); the summary goes to stderr.\n"
    "\n"
    "    -j, --jobs <n>       worker threads (default: the number of cores)\n"
    "    --json               one JSON object per record (the validate schema)\n"
    "    -q, --quiet          print only the summary\n"
    "    --summary-json       the summary as one JSON object on stdout\n"
    "    --stdin              read the paths from standard input, one a line\n"
    "    -z                   with --stdin: paths end with NUL, not newline\n"
    "    --from <format>      read every record as this format\n"
    "    --all-files          read every file, not only record files (in a\n"
    "                         walk, files whose extension is no record\n"
    "                         format's are skipped, and files without one are\n"
    "                         read only if they are certainly records)\n"
    "    --variant <name>     standard (default) or minishogi: the game a\n"
    "                         record is of when its text does not say\n"
    "    --fail-fast          stop at the first finding\n"
    "    --progress, --no-progress\n"
    "                         force the progress bar on stderr on or off\n"
    "                         (default: on when stderr is a terminal)\n"
    "    -v, --verbose        also print warnings (stderr)\n"
    "\n"
    "Exit status: 0 every record valid, 1 findings, 2 trouble (usage, an\n"
    "input that cannot be read).\n"
    "\n"
    RULEOPTS_HELP;

/*
 * The ring holds batches of inputs, not single inputs: handing over one
 * small file at a time cost a few futex calls per record, as much as
 * judging a third of it. A batch is published when full, or at once
 * while a worker waits idle, so a slow producer (a pipe feeding --stdin)
 * still sees its files judged without delay.
 */
#define BATCH_MAX 64
/* Bytes of archive members a batch may hold before it is published. */
#define BATCH_BYTES (1u << 20)

enum slot_state { SLOT_FREE, SLOT_READY, SLOT_TAKEN, SLOT_DONE };

struct item {
	int failed;		/* could not be read: data holds why */
	int deferred;		/* data not read yet: the worker reads name */
	unsigned flags;		/* enum judge_flags */
	struct strbuf name;
	struct strbuf data;
};

struct slot {
	enum slot_state state;
	struct item *items;
	size_t n, alloc;
	size_t bytes;		/* of data held in items */
	int failed;		/* an input could not be read */
	int findings;
	struct strbuf out;	/* for stdout */
	struct strbuf err;	/* for stderr */
	struct stats st;
};

struct check {
	/* options */
	int jobs, json, quiet, summary_json, fail_fast, verbose, progress;
	struct judge_opts jo;
	size_t batch_max;
	/* the ring */
	pthread_mutex_t mu;
	pthread_cond_t ready, done;
	struct slot *slots;
	size_t cap, produced, taken, emitted;
	int idle;		/* workers waiting for a batch */
	int closed;
	/* results, main thread only */
	struct stats total;
	int status;
	int stop;
	double start, last_progress;
	uint64_t total_bytes;
	struct walk *walk;
};

static void
worst(struct check *c, int status)
{
	if (status > c->status)
		c->status = status;
}

/* --- judging one batch (any thread) ------------------------------------ */

struct slot_ctx {
	struct check *c;
	struct slot *s;
};

static void
on_verdict(void *ctx, const struct verdict *v)
{
	struct slot_ctx *x = ctx;
	const struct diag *e = verdict_error(v);
	enum verdict_status st = verdict_status(v);

	if (v->skipped) {
		stats_skip(&x->s->st, v->file);
		return;
	}
	stats_add(&x->s->st, verdict_status_name(st), e ? e->id : NULL,
	    v->format, v->encoding, v->rp ? reason_name(v->result.reason) :
	    NULL, v->adj ? v->adj->rules : NULL);
	if (st != VERDICT_OK)
		x->s->findings = 1;
	if (x->c->quiet || x->c->summary_json)
		return;
	if (x->c->json) {
		verdict_json(&x->s->out, v);
		return;
	}
	verdict_diags(&x->s->out, v, DIAG_ERROR, DIAG_ERROR);
	if (x->c->verbose)
		verdict_diags(&x->s->err, v, DIAG_WARNING, DIAG_WARNING);
}

/* An input that cannot be read: counted, and shown like a record's error. */
static void
render_fail(struct check *c, struct slot *s, const char *name,
    const char *why)
{
	s->failed = 1;
	s->findings = 1;
	stats_add(&s->st, "error", "io", NULL, NULL, NULL, NULL);
	if (c->json && !c->quiet && !c->summary_json) {
		strbuf_adds(&s->out, "{\"file\": \"");
		strbuf_add_json_string(&s->out, name, strlen(name));
		strbuf_adds(&s->out, "\", \"index\": 0, \"format\": \"\", "
		    "\"encoding\": \"\", \"status\": \"error\", \"error\": "
		    "{\"line\": 0, \"col\": 0, \"byte\": 0, \"ply\": 0, "
		    "\"rule\": \"io\", \"message\": \"");
		strbuf_add_json_string(&s->out, why, strlen(why));
		strbuf_adds(&s->out, "\"}}\n");
	} else {
		strbuf_addf(&s->err, "kifu: error: cannot read '%s': %s [io]\n",
		    name, why);
	}
}

/*
 * Judges the batch's inputs in order. With --fail-fast it stops after the
 * first input with a finding: nothing after it would be shown anyway.
 */
static void
judge_slot(struct check *c, struct judge *j, struct slot *s)
{
	struct slot_ctx x = { c, s };
	size_t i;

	for (i = 0; i < s->n && !(c->fail_fast && s->findings); i++) {
		struct item *it = &s->items[i];

		if (it->deferred && input_read(it->name.buf, &it->data) < 0) {
			it->failed = 1;
			strbuf_reset(&it->data);
			strbuf_adds(&it->data, strerror(errno));
		}
		if (it->failed) {
			render_fail(c, s, it->name.buf, it->data.buf);
			continue;
		}
		judge_bytes(j, it->name.buf, it->name.buf, &it->data,
		    it->flags, on_verdict, &x);
	}
}

/* --- printing, in order (main thread) ---------------------------------- */

static void
progress(struct check *c, int last)
{
	double now = cmd_now(), rate, el;

	if (!c->progress || (!last && now - c->last_progress < 0.1))
		return;
	c->last_progress = now;
	el = now - c->start;
	rate = el > 0 ? (double)c->total.records / el : 0;
	fprintf(stderr, "\r\033[K%lld records, %.0f/s", c->total.records, rate);
	if (c->total_bytes && c->walk && c->walk->bytes_done && !last) {
		double left = (double)(c->total_bytes - (c->walk->bytes_done <
		    c->total_bytes ? c->walk->bytes_done : c->total_bytes));
		double eta = left * el / (double)c->walk->bytes_done;

		fprintf(stderr, ", %.0f%%, ETA %d:%02d", 100.0 *
		    (double)c->walk->bytes_done / (double)c->total_bytes,
		    (int)eta / 60, (int)eta % 60);
	}
	if (last)
		fputs("\r\033[K", stderr);
	fflush(stderr);
}

static void
print_slot(struct check *c, struct slot *s)
{
	if (c->stop)
		return;	/* after --fail-fast stopped: nothing more is shown */
	if (s->out.len) {
		if (c->progress)
			fputs("\r\033[K", stderr);
		fwrite(s->out.buf, 1, s->out.len, stdout);
		if (c->progress)
			fflush(stdout);
	}
	if (s->err.len) {
		fflush(stdout);
		if (c->progress)
			fputs("\r\033[K", stderr);
		fwrite(s->err.buf, 1, s->err.len, stderr);
	}
	stats_merge(&c->total, &s->st);
	if (s->failed)
		worst(c, EXIT_TROUBLE);
	if (s->findings) {
		worst(c, EXIT_FINDINGS);
		if (c->fail_fast)
			c->stop = 1;
	}
	progress(c, 0);
}

static void
clear_slot(struct slot *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		struct item *it = &s->items[i];

		it->failed = it->deferred = 0;
		it->flags = 0;
		strbuf_reset(&it->name);
		/* Keep small buffers for reuse, not a big member's. */
		if (it->data.alloc > BATCH_BYTES)
			strbuf_release(&it->data);
		strbuf_reset(&it->data);
	}
	s->state = SLOT_FREE;
	s->n = 0;
	s->bytes = 0;
	s->failed = 0;
	s->findings = 0;
	strbuf_reset(&s->out);
	strbuf_reset(&s->err);
	stats_release(&s->st);
	stats_init(&s->st);
}

static void
release_slot(struct slot *s)
{
	size_t i;

	for (i = 0; i < s->alloc; i++) {
		strbuf_release(&s->items[i].name);
		strbuf_release(&s->items[i].data);
	}
	free(s->items);
	strbuf_release(&s->out);
	strbuf_release(&s->err);
	stats_release(&s->st);
}

/* Prints every finished batch at the head of the ring. Lock held. */
static void
drain(struct check *c)
{
	while (c->emitted < c->produced) {
		struct slot *s = &c->slots[c->emitted % c->cap];

		if (s->state != SLOT_DONE)
			break;
		pthread_mutex_unlock(&c->mu);
		print_slot(c, s);
		clear_slot(s);
		pthread_mutex_lock(&c->mu);
		c->emitted++;
	}
}

/* Waits for every published batch and prints it. Lock held. */
static void
drain_all(struct check *c)
{
	for (;;) {
		drain(c);
		if (c->emitted == c->produced)
			return;
		pthread_cond_wait(&c->done, &c->mu);
	}
}

/* --- the workers --------------------------------------------------------- */

static void *
worker(void *arg)
{
	struct check *c = arg;
	struct judge j;

	judge_init(&j, &c->jo);
	pthread_mutex_lock(&c->mu);
	for (;;) {
		struct slot *s;

		while (c->taken == c->produced && !c->closed) {
			__atomic_add_fetch(&c->idle, 1, __ATOMIC_RELAXED);
			pthread_cond_wait(&c->ready, &c->mu);
			__atomic_sub_fetch(&c->idle, 1, __ATOMIC_RELAXED);
		}
		if (c->taken == c->produced)
			break;
		s = &c->slots[c->taken++ % c->cap];
		s->state = SLOT_TAKEN;
		pthread_mutex_unlock(&c->mu);
		judge_slot(c, &j, s);
		pthread_mutex_lock(&c->mu);
		s->state = SLOT_DONE;
		/* Only the main thread waits on done. */
		pthread_cond_signal(&c->done);
	}
	pthread_mutex_unlock(&c->mu);
	judge_release(&j);
	return NULL;
}

/* --- the walker's sink (main thread) ------------------------------------- */

/*
 * The batch being filled, at the tail of the ring: a free one, printing
 * finished ones meanwhile.
 */
static struct slot *
tail_slot(struct check *c)
{
	/*
	 * Only this thread moves produced and emitted, and no worker looks
	 * at a batch before it is published: no lock needed to know.
	 */
	if (c->produced - c->emitted < c->cap)
		return &c->slots[c->produced % c->cap];
	pthread_mutex_lock(&c->mu);
	for (;;) {
		drain(c);
		if (c->produced - c->emitted < c->cap)
			break;
		pthread_cond_wait(&c->done, &c->mu);
	}
	pthread_mutex_unlock(&c->mu);
	return &c->slots[c->produced % c->cap];
}

/* Hands the tail batch, if it holds anything, to the workers. */
static void
publish(struct check *c, struct judge *inline_judge)
{
	struct slot *s = &c->slots[c->produced % c->cap];

	if (!s->n || s->state != SLOT_FREE)
		return;
	if (inline_judge) {
		/* -j1: no threads, judge right here. */
		judge_slot(c, inline_judge, s);
		s->state = SLOT_DONE;
		c->produced++;
		pthread_mutex_lock(&c->mu);
		drain(c);
		pthread_mutex_unlock(&c->mu);
		return;
	}
	pthread_mutex_lock(&c->mu);
	s->state = SLOT_READY;
	c->produced++;
	pthread_cond_signal(&c->ready);
	drain(c);
	pthread_mutex_unlock(&c->mu);
}

struct sink_ctx {
	struct check *c;
	struct judge *inline_judge;
};

/* A new input at the end of the tail batch; NULL after --fail-fast. */
static struct item *
add_item(struct sink_ctx *x, const char *name)
{
	struct check *c = x->c;
	struct slot *s = tail_slot(c);
	struct item *it;
	size_t old = s->alloc;

	if (c->stop)
		return NULL;
	ALLOC_GROW(s->items, s->n + 1, s->alloc);
	for (; old < s->alloc; old++) {
		strbuf_init(&s->items[old].name);
		strbuf_init(&s->items[old].data);
		s->items[old].failed = s->items[old].deferred = 0;
		s->items[old].flags = 0;
	}
	it = &s->items[s->n++];
	strbuf_adds(&it->name, name);
	return it;
}

/*
 * Publishes the tail batch when it is full, or when a worker is waiting
 * for work. idle is read without the lock: a stale value only makes this
 * batch a little shorter or longer.
 */
static int
added(struct sink_ctx *x)
{
	struct check *c = x->c;
	struct slot *s = &c->slots[c->produced % c->cap];

	if (x->inline_judge || s->n >= c->batch_max ||
	    s->bytes >= BATCH_BYTES ||
	    __atomic_load_n(&c->idle, __ATOMIC_RELAXED))
		publish(c, x->inline_judge);
	return c->stop;
}

static int
sink_file(void *ctx, const char *name, struct strbuf *data, int probe)
{
	struct sink_ctx *x = ctx;
	struct item *it = add_item(x, name);
	struct strbuf tmp;

	if (!it)
		return 1;
	it->flags = probe ? JUDGE_PROBE : 0;
	/* Swap buffers: the walker keeps reading into the item's old one. */
	tmp = it->data;
	it->data = *data;
	*data = tmp;
	x->c->slots[x->c->produced % x->c->cap].bytes += it->data.len;
	return added(x);
}

static int
sink_fail(void *ctx, const char *name, const char *why)
{
	struct sink_ctx *x = ctx;
	struct item *it = add_item(x, name);

	if (!it)
		return 1;
	/* Rendered when its turn comes, so that output keeps input order. */
	it->failed = 1;
	strbuf_adds(&it->data, why);
	return added(x);
}

static int
sink_path(void *ctx, const char *name, int probe)
{
	struct sink_ctx *x = ctx;
	struct item *it = add_item(x, name);

	if (!it)
		return 1;
	it->deferred = 1;
	it->flags = probe ? JUDGE_PROBE : 0;
	return added(x);
}

/* Counted only: the main thread owns the total, as it merges batches. */
static void
sink_ignore(void *ctx, const char *name)
{
	struct sink_ctx *x = ctx;

	stats_skip(&x->c->total, name);
}

static void
sink_skip(void *ctx, const char *name, const char *why)
{
	struct sink_ctx *x = ctx;

	/* Everything before it is printed first, so warnings stay in order. */
	publish(x->c, x->inline_judge);
	pthread_mutex_lock(&x->c->mu);
	drain_all(x->c);
	pthread_mutex_unlock(&x->c->mu);
	if (x->c->progress)
		fputs("\r\033[K", stderr);
	fflush(stdout);
	fprintf(stderr, "kifu: warning: skipped '%s': %s\n", name, why);
}

/* --- the command ----------------------------------------------------------- */

static int
read_path_list(struct walk *w, int nul)
{
	struct strbuf line = STRBUF_INIT;
	int ch, stop = 0;

	while (!stop && (ch = getchar()) != EOF) {
		if (ch == (nul ? '\0' : '\n')) {
			if (line.len)
				stop = walk_path(w, line.buf);
			strbuf_reset(&line);
		} else {
			strbuf_addc(&line, (char)ch);
		}
	}
	if (!stop && line.len)
		walk_path(w, line.buf);
	strbuf_release(&line);
	return 0;
}

int
cmd_check(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "jobs", required_argument, NULL, 'j' },
		{ "json", no_argument, NULL, 'J' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "summary-json", no_argument, NULL, 'S' },
		{ "stdin", no_argument, NULL, 'I' },
		{ "from", required_argument, NULL, 'F' },
		{ "fail-fast", no_argument, NULL, 'x' },
		{ "progress", no_argument, NULL, 'P' },
		{ "no-progress", no_argument, NULL, 'N' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "all-files", no_argument, NULL, 'A' },
		{ "variant", required_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		RULE_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct ruleopts ro;
	struct ruleset rs;
	char desc[RULESET_DESC_MAX];
	struct check c;
	struct walk w;
	struct walk_sink sink;
	struct sink_ctx sx;
	struct judge inline_judge;
	pthread_t *threads = NULL;
	int opt, i, rc, from_stdin = 0, nul = 0, want_progress = -1;
	int all_files = 0;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	struct strbuf sum = STRBUF_INIT;

	memset(&c, 0, sizeof(c));
	ruleopts_init(&ro);
	c.jobs = cores > 0 ? (int)cores : 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "hj:qzv", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			if ((c.jobs = cmd_parse_int(optarg, 1024)) < 1)
				return cmd_usage_error(cmd_check_usage,
				    "-j takes a number from 1 to 1024");
			break;
		case 'J': c.json = 1; break;
		case 'q': c.quiet = 1; break;
		case 'S': c.summary_json = 1; break;
		case 'I': from_stdin = 1; break;
		case 'z': nul = 1; break;
		case 'x': c.fail_fast = 1; break;
		case 'P': want_progress = 1; break;
		case 'N': want_progress = 0; break;
		case 'v': c.verbose = 1; break;
		case 'A': all_files = 1; break;
		case 'F':
			if (!(c.jo.from = formats_by_name(optarg)) ||
			    !c.jo.from->read)
				return cmd_usage_error(cmd_check_usage,
				    "unknown format '%s' (known: %s)", optarg,
				    formats_names());
			break;
		case 'V':
			if (cmd_variant(optarg, &c.jo.variant, cmd_check_usage))
				return EXIT_TROUBLE;
			break;
		case 'h': return cmd_help(cmd_check_usage);
		default:
			if ((rc = ruleopts_take(&ro, opt, optarg,
			    cmd_check_usage)) != 0) {
				if (rc != 1)
					return rc;
				break;
			}
			return cmd_usage_error(cmd_check_usage,
			    optopt ? "option '%s' needs a value" :
			    "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind == argc && !from_stdin)
		return cmd_usage_error(cmd_check_usage, "no path given");
	if (nul && !from_stdin)
		return cmd_usage_error(cmd_check_usage, "-z goes with --stdin");
	if (ruleopts_build(&ro, &rs, &c.jo.auto_rules, cmd_check_usage))
		return EXIT_TROUBLE;
	c.jo.rules = &rs;
	c.jo.no_result_check = ro.no_result_check;
	c.jo.limits = &ro.lim;
	ruleset_describe(&rs, desc, sizeof(desc));
	c.progress = want_progress >= 0 ? want_progress : isatty(2);
	/* Enough batches in flight to keep every worker busy. */
	c.cap = (size_t)c.jobs * 4 + 4;
	c.batch_max = c.jobs > 1 ? BATCH_MAX : 1;
	c.slots = xcalloc(c.cap, sizeof(*c.slots));
	for (i = 0; i < (int)c.cap; i++) {
		strbuf_init(&c.slots[i].out);
		strbuf_init(&c.slots[i].err);
		stats_init(&c.slots[i].st);
	}
	stats_init(&c.total);
	pthread_mutex_init(&c.mu, NULL);
	pthread_cond_init(&c.ready, NULL);
	pthread_cond_init(&c.done, NULL);
	if (c.progress)
		for (i = optind; i < argc; i++)
			c.total_bytes += walk_size(argv[i]);
	sx.c = &c;
	sx.inline_judge = NULL;
	if (c.jobs == 1) {
		judge_init(&inline_judge, &c.jo);
		sx.inline_judge = &inline_judge;
	} else {
		threads = xcalloc((size_t)c.jobs, sizeof(*threads));
		for (i = 0; i < c.jobs; i++)
			if (pthread_create(&threads[i], NULL, worker, &c) != 0) {
				cmd_error("cannot start a thread: %s",
				    strerror(errno));
				return EXIT_TROUBLE;
			}
	}
	sink.ctx = &sx;
	sink.file = sink_file;
	sink.fail = sink_fail;
	sink.path = sink_path;
	sink.skip = sink_skip;
	sink.ignore = sink_ignore;
	walk_init(&w, &sink);
	w.sizes = c.progress;
	w.all_files = all_files;
	c.walk = &w;
	c.start = cmd_now();
	for (i = optind; i < argc && !c.stop; i++)
		walk_path(&w, argv[i]);
	if (from_stdin && !c.stop)
		read_path_list(&w, nul);
	/* Close the ring and print what is left, in order. */
	if (!c.stop)
		publish(&c, sx.inline_judge);
	pthread_mutex_lock(&c.mu);
	c.closed = 1;
	pthread_cond_broadcast(&c.ready);
	drain_all(&c);
	pthread_mutex_unlock(&c.mu);
	if (threads) {
		for (i = 0; i < c.jobs; i++)
			pthread_join(threads[i], NULL);
		free(threads);
	} else {
		judge_release(&inline_judge);
	}
	c.total.seconds = cmd_now() - c.start;
	progress(&c, 1);
	if (c.summary_json) {
		stats_json(&c.total, desc, &sum);
		fputs(sum.buf, stdout);
	} else {
		stats_text(&c.total, desc, &sum);
		fflush(stdout);
		fputs(sum.buf, stderr);
	}
	strbuf_release(&sum);
	walk_release(&w);
	for (i = 0; i < (int)c.cap; i++)
		release_slot(&c.slots[i]);
	free(c.slots);
	stats_release(&c.total);
	pthread_mutex_destroy(&c.mu);
	pthread_cond_destroy(&c.ready);
	pthread_cond_destroy(&c.done);
	return c.status;
}
