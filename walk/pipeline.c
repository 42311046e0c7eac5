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

#include "walk/pipeline.h"
#include "walk/walk.h"
#include "api/input.h"
#include "api/judge.h"
#include "core/clock.h"
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
	/* The caller's, ops->batch_size bytes, from a struct pipe_batch. */
	struct pipe_batch *batch;
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

	for (i = 0; i < s->n && !(p->o->fail_fast && s->batch->findings);
	    i++) {
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
			s->batch->findings = 1;
	}
}

/* --- emitting, in order (main thread) ---------------------------------- */

static void
progress(struct pipeline *p, int last)
{
	const struct pipeline_report *r = p->o->report;
	struct pipeline_progress pr;
	double now;

	/* Called for every batch: without a bar, not even the clock. */
	if (!p->o->progress || !r || !r->progress)
		return;
	now = clock_now();
	if (!last && now - p->last_progress < 0.1)
		return;
	p->last_progress = now;
	pr.seconds = now - p->start;
	pr.done = p->ops->done ? p->ops->done(p->ctx) : (long long)p->emitted;
	pr.bytes_total = p->total_bytes;
	pr.bytes_done = p->walk ? p->walk->bytes_done : 0;
	r->progress(r->ctx, &pr, last);
}

/* Before anything else goes out: the bar's line is wiped. */
static void
clear_progress(struct pipeline *p)
{
	const struct pipeline_report *r = p->o->report;

	if (p->o->progress && r && r->clear) {
		if (p->o->out)
			fflush(p->o->out);
		r->clear(r->ctx);
	}
}

void
pipe_batch_init(struct pipe_batch *b)
{
	strbuf_init(&b->out);
	strbuf_init(&b->err);
	b->failed = b->findings = 0;
}

/* out before err, as a terminal shows them in turn. */
void
pipe_batch_write(struct pipe_batch *b, FILE *out, FILE *err)
{
	if (b->out.len && out)
		fwrite(b->out.buf, 1, b->out.len, out);
	if (b->err.len && err) {
		if (out)
			fflush(out);
		fwrite(b->err.buf, 1, b->err.len, err);
	}
	strbuf_reset(&b->out);
	strbuf_reset(&b->err);
}

void
pipe_batch_release(struct pipe_batch *b)
{
	strbuf_release(&b->out);
	strbuf_release(&b->err);
}

void
pipe_batch_unreadable(struct pipe_batch *b, const struct pipe_input *in)
{
	b->failed = 1;
	strbuf_addf(&b->err, "kifu: error: cannot read '%s': %s [io]\n",
	    in->name, in->error);
}

static void
emit_slot(struct pipeline *p, struct slot *s)
{
	if (p->stop)
		return;	/* after a stop: nothing more is emitted */
	clear_progress(p);
	if ((p->ops->emit && p->ops->emit(p->ctx, s->batch)) ||
	    (p->o->fail_fast && s->batch->findings))
		p->stop = 1;
	pipe_batch_write(s->batch, p->o->out, p->o->err);
	/* What was written goes out before the bar is drawn again. */
	if (p->o->progress && p->o->out)
		fflush(p->o->out);
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
	strbuf_reset(&s->batch->out);
	strbuf_reset(&s->batch->err);
	s->batch->failed = s->batch->findings = 0;
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

/* A worker's state: the caller's, or a judge of pipeline_opts.judge. */
static void *
worker_new(struct pipeline *p)
{
	if (p->ops->worker_new)
		return p->ops->worker_new(p->ctx);
	return p->o->judge ? judge_new(p->o->judge) : NULL;
}

static void
worker_free(struct pipeline *p, void *w)
{
	if (p->ops->worker_new) {
		if (p->ops->worker_free)
			p->ops->worker_free(p->ctx, w);
	} else {
		judge_free(w);
	}
}

static void *
worker(void *arg)
{
	struct pipeline *p = arg;
	void *w = worker_new(p);

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
	worker_free(p, w);
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
	const struct pipeline_report *r = p->o->report;

	if (!r || !r->skipped)
		return;
	/* Everything before it is emitted first, so warnings stay in order. */
	publish(p);
	pthread_mutex_lock(&p->mu);
	drain_all(p);
	pthread_mutex_unlock(&p->mu);
	clear_progress(p);
	r->skipped(r->ctx, name, why);
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
	p.batch_max = o->jobs > 1 ? (o->batch_max ? o->batch_max : BATCH_MAX) :
	    1;
	p.slots = xcalloc(p.cap, sizeof(*p.slots));
	for (i = 0; i < (int)p.cap; i++) {
		struct pipe_batch *b = xcalloc(1, ops->batch_size >
		    sizeof(*b) ? ops->batch_size : sizeof(*b));

		pipe_batch_init(b);
		p.slots[i].batch = b;
		if (ops->batch_init)
			ops->batch_init(ctx, b);
	}
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.ready, NULL);
	pthread_cond_init(&p.done, NULL);
	if (o->progress)
		for (i = 0; i < npaths; i++)
			p.total_bytes += walk_size(paths[i]);
	if (o->jobs <= 1) {
		p.inline_worker = worker_new(&p);
	} else {
		threads = xcalloc((size_t)o->jobs, sizeof(*threads));
		for (; started < o->jobs; started++) {
			int e = pthread_create(&threads[started], NULL,
			    worker, &p);

			if (e != 0) {
				rc = e;
				p.stop = 1;
				break;
			}
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
	p.start = clock_now();
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
	if (o->jobs <= 1)
		worker_free(&p, p.inline_worker);
	if (seconds)
		*seconds = clock_now() - p.start;
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
		pipe_batch_release(s->batch);
		free(s->batch);
	}
	free(p.slots);
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.ready);
	pthread_cond_destroy(&p.done);
	if (rc) {
		errno = rc;
		return -1;
	}
	return 0;
}
