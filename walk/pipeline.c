/*
 * pipeline.c - a walk's inputs through worker threads, in order.
 *
 * The ring holds batches of inputs, not single inputs: handing over one
 * small file at a time cost a few futex calls per record, as much as
 * judging a third of it. A batch is published when full, or at once
 * while a worker waits idle, so a slow producer (a pipe feeding --stdin)
 * still sees its files handled without delay.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "api/input.h"
#include "walk/pipeline.h"
#include "walk/walk.h"
#include "core/xalloc.h"

#define BATCH_MAX 64
/* Bytes of archive members a batch may hold before it is published. */
#define BATCH_BYTES (1u << 20)

enum slot_state { SLOT_FREE, SLOT_READY, SLOT_TAKEN, SLOT_DONE };

struct item {
	int failed;		/* could not be read: data holds why */
	int deferred;		/* data not read yet: the worker reads name */
	unsigned flags;
	/* Deferred: the directory it is in, and its name there (walk.h). */
	struct walk_dirfd *dir;
	size_t base;
	struct strbuf name;
	struct strbuf data;
};

struct slot {
	enum slot_state state;
	struct item *items;
	size_t n, alloc;
	size_t bytes;		/* of data held in items */
	int findings;
	void *batch;		/* the command's part, ops->batch_size bytes */
};

struct pipeline {
	const struct pipeline_opts *o;
	const struct pipeline_ops *ops;
	void *ctx;
	size_t batch_max;
	/* the ring */
	pthread_mutex_t mu;
	pthread_cond_t ready, done;
	struct slot *slots;
	size_t cap, produced, taken, emitted;
	int idle;		/* workers waiting for a batch */
	int closed;
	/* main thread only */
	int stop;
	void *inline_worker;	/* -j1: no threads, the main thread works */
	double start, last_progress;
	uint64_t total_bytes;
	struct walk *walk;
};

/* --- handling one batch (any thread) ----------------------------------- */

/* A deferred input's bytes, by its name in its directory when it has one. */
static int
read_item(struct item *it)
{
	int rc;

	if (!it->dir)
		return input_read(it->name.buf, &it->data);
	rc = input_read_at(walk_dirfd_fd(it->dir), it->name.buf + it->base,
	    walk_dirfd_short_is_end(it->dir), &it->data);
	walk_dirfd_release(it->dir);
	it->dir = NULL;
	return rc;
}

/*
 * Handles the batch's inputs in order. With --fail-fast it stops after
 * the first input with a finding: nothing after it would be emitted.
 */
static void
work_slot(struct pipeline *p, void *worker, struct slot *s)
{
	size_t i;

	for (i = 0; i < s->n && !(p->o->fail_fast && s->findings); i++) {
		struct item *it = &s->items[i];
		struct pipe_input in;

		if (it->deferred && read_item(it) < 0) {
			it->failed = 1;
			strbuf_reset(&it->data);
			strbuf_adds(&it->data, strerror(errno));
		}
		in.name = it->name.buf;
		in.data = &it->data;
		in.flags = it->flags;
		in.error = it->failed ? it->data.buf : NULL;
		if (p->ops->input(p->ctx, worker, s->batch, &in))
			s->findings = 1;
	}
}

/* --- emitting, in order (main thread) ---------------------------------- */

static void
progress(struct pipeline *p, int last)
{
	double now, rate, el;
	long long done;

	/* Called for every batch: without a bar, not even the clock. */
	if (!p->o->progress)
		return;
	now = cmd_now();
	if (!last && now - p->last_progress < 0.1)
		return;
	p->last_progress = now;
	el = now - p->start;
	done = p->ops->done ? p->ops->done(p->ctx) : (long long)p->emitted;
	rate = el > 0 ? (double)done / el : 0;
	fprintf(stderr, "\r\033[K%lld %s, %.0f/s", done,
	    p->o->unit ? p->o->unit : "inputs", rate);
	if (p->total_bytes && p->walk && p->walk->bytes_done && !last) {
		uint64_t seen = p->walk->bytes_done < p->total_bytes ?
		    p->walk->bytes_done : p->total_bytes;
		double eta = (double)(p->total_bytes - seen) * el /
		    (double)p->walk->bytes_done;

		fprintf(stderr, ", %.0f%%, ETA %d:%02d", 100.0 *
		    (double)p->walk->bytes_done / (double)p->total_bytes,
		    (int)eta / 60, (int)eta % 60);
	}
	if (last)
		fputs("\r\033[K", stderr);
	fflush(stderr);
}

/* Before anything else goes to a terminal: the bar's line is wiped. */
static void
clear_progress(struct pipeline *p)
{
	if (p->o->progress) {
		fflush(stdout);
		fputs("\r\033[K", stderr);
	}
}

static void
emit_slot(struct pipeline *p, struct slot *s)
{
	if (p->stop)
		return;	/* after a stop: nothing more is emitted */
	clear_progress(p);
	if (p->ops->emit(p->ctx, s->batch) || (p->o->fail_fast && s->findings))
		p->stop = 1;
	/* What emit() printed goes out before the bar is drawn again. */
	if (p->o->progress)
		fflush(stdout);
	progress(p, 0);
}

static void
clear_slot(struct pipeline *p, struct slot *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		struct item *it = &s->items[i];

		it->failed = it->deferred = 0;
		it->flags = 0;
		/* Not read: a stop, or --fail-fast, came first. */
		if (it->dir)
			walk_dirfd_release(it->dir);
		it->dir = NULL;
		strbuf_reset(&it->name);
		/* Keep small buffers for reuse, not a big member's. */
		if (it->data.alloc > BATCH_BYTES)
			strbuf_release(&it->data);
		strbuf_reset(&it->data);
	}
	s->state = SLOT_FREE;
	s->n = 0;
	s->bytes = 0;
	s->findings = 0;
	if (p->ops->batch_reset)
		p->ops->batch_reset(p->ctx, s->batch);
}

/* Emits every finished batch at the head of the ring. Lock held. */
static void
drain(struct pipeline *p)
{
	while (p->emitted < p->produced) {
		struct slot *s = &p->slots[p->emitted % p->cap];

		if (s->state != SLOT_DONE)
			break;
		pthread_mutex_unlock(&p->mu);
		emit_slot(p, s);
		clear_slot(p, s);
		pthread_mutex_lock(&p->mu);
		p->emitted++;
	}
}

/* Waits for every published batch and emits it. Lock held. */
static void
drain_all(struct pipeline *p)
{
	for (;;) {
		drain(p);
		if (p->emitted == p->produced)
			return;
		pthread_cond_wait(&p->done, &p->mu);
	}
}

/* --- the workers ------------------------------------------------------- */

static void *
worker(void *arg)
{
	struct pipeline *p = arg;
	void *w = p->ops->worker_new ? p->ops->worker_new(p->ctx) : NULL;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		struct slot *s;

		while (p->taken == p->produced && !p->closed) {
			__atomic_add_fetch(&p->idle, 1, __ATOMIC_RELAXED);
			pthread_cond_wait(&p->ready, &p->mu);
			__atomic_sub_fetch(&p->idle, 1, __ATOMIC_RELAXED);
		}
		if (p->taken == p->produced)
			break;
		s = &p->slots[p->taken++ % p->cap];
		s->state = SLOT_TAKEN;
		pthread_mutex_unlock(&p->mu);
		work_slot(p, w, s);
		pthread_mutex_lock(&p->mu);
		s->state = SLOT_DONE;
		/* Only the main thread waits on done. */
		pthread_cond_signal(&p->done);
	}
	pthread_mutex_unlock(&p->mu);
	if (p->ops->worker_free)
		p->ops->worker_free(p->ctx, w);
	return NULL;
}

/* --- the walker's sink (main thread) ----------------------------------- */

/*
 * The batch being filled, at the tail of the ring: a free one, emitting
 * finished ones meanwhile.
 */
static struct slot *
tail_slot(struct pipeline *p)
{
	/*
	 * Only this thread moves produced and emitted, and no worker looks
	 * at a batch before it is published: no lock needed to know.
	 */
	if (p->produced - p->emitted < p->cap)
		return &p->slots[p->produced % p->cap];
	pthread_mutex_lock(&p->mu);
	for (;;) {
		drain(p);
		if (p->produced - p->emitted < p->cap)
			break;
		pthread_cond_wait(&p->done, &p->mu);
	}
	pthread_mutex_unlock(&p->mu);
	return &p->slots[p->produced % p->cap];
}

/* Hands the tail batch, if it holds anything, to the workers. */
static void
publish(struct pipeline *p)
{
	struct slot *s = &p->slots[p->produced % p->cap];

	if (!s->n || s->state != SLOT_FREE)
		return;
	if (p->o->jobs <= 1) {
		work_slot(p, p->inline_worker, s);
		s->state = SLOT_DONE;
		p->produced++;
		pthread_mutex_lock(&p->mu);
		drain(p);
		pthread_mutex_unlock(&p->mu);
		return;
	}
	pthread_mutex_lock(&p->mu);
	s->state = SLOT_READY;
	p->produced++;
	pthread_cond_signal(&p->ready);
	drain(p);
	pthread_mutex_unlock(&p->mu);
}

/* A new input at the end of the tail batch; NULL after a stop. */
static struct item *
add_item(struct pipeline *p, const char *name)
{
	struct slot *s = tail_slot(p);
	struct item *it;
	size_t old = s->alloc;

	if (p->stop)
		return NULL;
	ALLOC_GROW(s->items, s->n + 1, s->alloc);
	for (; old < s->alloc; old++) {
		strbuf_init(&s->items[old].name);
		strbuf_init(&s->items[old].data);
		s->items[old].failed = s->items[old].deferred = 0;
		s->items[old].flags = 0;
		s->items[old].dir = NULL;
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
added(struct pipeline *p)
{
	struct slot *s = &p->slots[p->produced % p->cap];

	if (p->o->jobs <= 1 || s->n >= p->batch_max ||
	    s->bytes >= BATCH_BYTES ||
	    __atomic_load_n(&p->idle, __ATOMIC_RELAXED))
		publish(p);
	return p->stop;
}

static unsigned
flags_of(int probe)
{
	/* JUDGE_PROBE (api/judge.h): the one flag a walk sets. */
	return probe ? 1u : 0u;
}

static int
sink_file(void *ctx, const char *name, struct strbuf *data, int probe)
{
	struct pipeline *p = ctx;
	struct item *it = add_item(p, name);
	struct strbuf tmp;

	if (!it)
		return 1;
	it->flags = flags_of(probe);
	/* Swap buffers: the walker keeps reading into the item's old one. */
	tmp = it->data;
	it->data = *data;
	*data = tmp;
	p->slots[p->produced % p->cap].bytes += it->data.len;
	return added(p);
}

static int
sink_fail(void *ctx, const char *name, const char *why)
{
	struct pipeline *p = ctx;
	struct item *it = add_item(p, name);

	if (!it)
		return 1;
	/* Handled when its turn comes, so that output keeps input order. */
	it->failed = 1;
	strbuf_adds(&it->data, why);
	return added(p);
}

static int
sink_path(void *ctx, const char *name, int probe, struct walk_dirfd *dir,
    size_t base)
{
	struct pipeline *p = ctx;
	struct item *it = add_item(p, name);

	if (!it)
		return 1;
	it->deferred = 1;
	it->flags = flags_of(probe);
	if (dir) {
		walk_dirfd_hold(dir);
		it->dir = dir;
		it->base = base;
	}
	return added(p);
}

static void
sink_ignore(void *ctx, const char *name)
{
	struct pipeline *p = ctx;

	if (p->ops->ignore)
		p->ops->ignore(p->ctx, name);
}

static void
sink_skip(void *ctx, const char *name, const char *why)
{
	struct pipeline *p = ctx;

	/* Everything before it is emitted first, so warnings stay in order. */
	publish(p);
	pthread_mutex_lock(&p->mu);
	drain_all(p);
	pthread_mutex_unlock(&p->mu);
	clear_progress(p);
	fprintf(stderr, "kifu: warning: skipped '%s': %s\n", name, why);
}

static void
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
}

int
pipeline_default_jobs(void)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);

	return cores > 0 ? (int)cores : 1;
}

void
walkopts_init(struct walkopts *w, const char *unit)
{
	memset(w, 0, sizeof(*w));
	w->po.jobs = pipeline_default_jobs();
	w->po.unit = unit;
	w->want_progress = -1;
}

int
walkopts_take(struct walkopts *w, int opt, const char *arg,
    const char *usage)
{
	switch (opt) {
	case 'j':
		if ((w->po.jobs = cmd_parse_int(arg, 1024)) < 1)
			return cmd_usage_error(usage,
			    "-j takes a number from 1 to 1024");
		return 1;
	case 'z': w->nul = 1; return 1;
	case OPT_WALK_STDIN: w->from_stdin = 1; return 1;
	case OPT_WALK_ALL_FILES: w->po.all_files = 1; return 1;
	case OPT_WALK_PROGRESS: w->want_progress = 1; return 1;
	case OPT_WALK_NO_PROGRESS: w->want_progress = 0; return 1;
	default: return 0;
	}
}

int
walkopts_finish(struct walkopts *w, int npaths, const char *usage)
{
	if (npaths == 0 && !w->from_stdin)
		return cmd_usage_error(usage, "no path given");
	if (w->nul && !w->from_stdin)
		return cmd_usage_error(usage, "-z goes with --stdin");
	w->po.progress = w->want_progress >= 0 ? w->want_progress :
	    isatty(STDERR_FILENO);
	return 0;
}

int
pipeline_run(const struct pipeline_opts *o, const struct pipeline_ops *ops,
    void *ctx, char *const *paths, int npaths, int from_stdin, int nul,
    int *stopped, double *seconds)
{
	struct pipeline p;
	struct walk w;
	struct walk_sink sink;
	pthread_t *threads = NULL;
	int i, started = 0, rc = 0;

	memset(&p, 0, sizeof(p));
	p.o = o;
	p.ops = ops;
	p.ctx = ctx;
	/* Enough batches in flight to keep every worker busy. */
	p.cap = (size_t)(o->jobs > 1 ? o->jobs : 1) * 4 + 4;
	p.batch_max = o->jobs > 1 ? BATCH_MAX : 1;
	p.slots = xcalloc(p.cap, sizeof(*p.slots));
	for (i = 0; i < (int)p.cap; i++) {
		p.slots[i].batch = xcalloc(1, ops->batch_size ?
		    ops->batch_size : 1);
		if (ops->batch_init)
			ops->batch_init(ctx, p.slots[i].batch);
	}
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.ready, NULL);
	pthread_cond_init(&p.done, NULL);
	if (o->progress)
		for (i = 0; i < npaths; i++)
			p.total_bytes += walk_size(paths[i]);
	if (o->jobs <= 1) {
		p.inline_worker = ops->worker_new ? ops->worker_new(ctx) : NULL;
	} else {
		threads = xcalloc((size_t)o->jobs, sizeof(*threads));
		for (; started < o->jobs; started++)
			if (pthread_create(&threads[started], NULL, worker,
			    &p) != 0) {
				cmd_error("cannot start a thread: %s",
				    strerror(errno));
				rc = -1;
				p.stop = 1;
				break;
			}
	}
	sink.ctx = &p;
	sink.file = sink_file;
	sink.fail = sink_fail;
	sink.path = sink_path;
	sink.skip = sink_skip;
	sink.ignore = sink_ignore;
	walk_init(&w, &sink);
	w.sizes = o->progress;
	w.all_files = o->all_files;
	p.walk = &w;
	p.start = cmd_now();
	for (i = 0; i < npaths && !p.stop; i++)
		walk_path(&w, paths[i]);
	if (from_stdin && !p.stop)
		read_path_list(&w, nul);
	/* Close the ring and emit what is left, in order. */
	if (!p.stop)
		publish(&p);
	pthread_mutex_lock(&p.mu);
	p.closed = 1;
	pthread_cond_broadcast(&p.ready);
	drain_all(&p);
	pthread_mutex_unlock(&p.mu);
	for (i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	free(threads);
	if (o->jobs <= 1 && ops->worker_free)
		ops->worker_free(ctx, p.inline_worker);
	if (seconds)
		*seconds = cmd_now() - p.start;
	progress(&p, 1);
	if (stopped)
		*stopped = p.stop;
	walk_release(&w);
	for (i = 0; i < (int)p.cap; i++) {
		struct slot *s = &p.slots[i];
		size_t k;

		for (k = 0; k < s->alloc; k++) {
			/* A batch a stop left unpublished. */
			if (s->items[k].dir)
				walk_dirfd_release(s->items[k].dir);
			strbuf_release(&s->items[k].name);
			strbuf_release(&s->items[k].data);
		}
		free(s->items);
		if (ops->batch_release)
			ops->batch_release(ctx, s->batch);
		free(s->batch);
	}
	free(p.slots);
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.ready);
	pthread_cond_destroy(&p.done);
	return rc;
}
