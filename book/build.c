/*
 * build.c - a book from games (book.h: book_build, book_add_record).
 *
 * Workers judge the records, select them and list the positions and
 * moves of their first plies. Where the order of the records does not
 * matter (no --uniq), each worker adds them to a table of its own, and
 * the tables join the book's when the workers end: the counts are sums,
 * the lowest move number a minimum and a position's moves are ordered
 * by their text, so the book is the same bytes for every -j. With
 * --uniq, which keeps the first of repeated games in input order, the
 * main thread adds every batch's moves in order, as with -j1.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "book/book_private.h"
#include "core/xalloc.h"

/* A move played from a position of a record, listed by a worker. */
struct item {
	size_t key_off;
	uint16_t key_len;
	char usi[USI_MOVE_MAX];
	int ply;			/* move number */
	int has_eval, eval;
};

/* A record (or an input that could not be read) of a batch. */
struct rec {
	int why;
	uint64_t key;			/* select_key(), with --uniq */
	size_t first, n;		/* its items (n: its plies) */
	size_t keys_len;		/* the batch's keys before them */
	int added;			/* n plies are in a worker's table */
	int io;
	size_t note;			/* its name and why, for io */
};

struct book_batch {
	struct pipe_batch base;	/* unused: keys and notes are kept apart */
	struct strbuf keys, notes;
	struct item *items;
	size_t nitems, aitems;
	struct rec *recs;
	size_t nrecs, arecs;
	long long files_skipped;
	struct book *b;
	struct book_worker *w;	/* of the input at hand */
};

struct book_worker {
	struct judge *j;
	int own;		/* agg is this worker's: it joins the book's */
	struct bookagg agg;
	int error;		/* errno of a failed add */
};

/* Per build run: the options the callbacks need besides the book. */
struct run {
	struct book *b;
	int parallel;		/* workers keep tables of their own */
	size_t worker_budget;
	int worker_error;	/* atomic: a worker's table failed */
};

/* ---- listing a record's plies (any thread) ----------------------------- */

static struct rec *
new_rec(struct book_batch *bb)
{
	struct rec *r;

	ALLOC_GROW(bb->recs, bb->nrecs + 1, bb->arecs);
	r = &bb->recs[bb->nrecs++];
	memset(r, 0, sizeof(*r));
	r->first = bb->nitems;
	r->keys_len = bb->keys.len;
	return r;
}

/* The positions and moves of a selected record into the batch:
   TRAIN_WRITTEN, or why the walk refuses its start. */
static enum train_skip
record_items(struct book_batch *bb, const struct book *b,
    const struct record *rec, const struct replay *rp,
    const struct adjudication *adj)
{
	struct train_game g;
	struct train_opts to;
	struct train_walk w;
	struct sfen_key_cache kc;
	enum train_skip why;

	sfen_key_cache_init(&kc);
	memset(&to, 0, sizeof(to));
	g.r = rec;
	g.rp = rp;
	g.adj = adj;
	why = train_walk_start(&w, &g, &to, TRAIN_TRACK_POSITION);
	if (why != TRAIN_WRITTEN)
		return why;
	while (train_walk_next(&w)) {
		char sfen[SFEN_MAX];
		struct item *it;
		size_t n;

		if (w.ply >= b->o.max_ply)
			break;
		if (b->o.side >= 0 && (int)w.pos.side != b->o.side)
			continue;
		n = sfen_write_key_cached(&kc, &w.pos, sfen);
		ALLOC_GROW(bb->items, bb->nitems + 1, bb->aitems);
		it = &bb->items[bb->nitems++];
		it->key_off = bb->keys.len;
		it->key_len = (uint16_t)n;
		strbuf_add(&bb->keys, sfen, n);
		usi_format_move(w.mv, it->usi);
		it->ply = w.move_number;
		it->has_eval = w.has_eval;
		it->eval = w.eval;
	}
	return TRAIN_WRITTEN;
}

/* The plies of items [from, to) into a table: 0, or -1 with errno set. */
static int
add_items(struct bookagg *agg, const struct book_batch *bb, size_t from,
    size_t to)
{
	size_t j;

	for (j = from; j < to; j++) {
		const struct item *it = &bb->items[j];
		struct bookagg_move m;

		memset(&m, 0, sizeof(m));
		m.usi = it->usi;
		m.ponder = "";
		m.count = 1;
		m.evn = it->has_eval;
		m.evsum = it->has_eval ? it->eval : 0;
		m.tail = "";
		if (bookagg_add(agg, bb->keys.buf + it->key_off, it->key_len,
		    it->ply, &m, NULL, 0) < 0)
			return -1;
	}
	return 0;
}

/* Drops the items of r from the batch (they are in a table, or unused). */
static void
drop_items(struct book_batch *bb, const struct rec *r)
{
	bb->nitems = r->first;
	bb->keys.len = r->keys_len;
	if (bb->keys.buf)
		bb->keys.buf[bb->keys.len] = '\0';
}

/* A record judged st (and, unless it is an error, replayed) into bb. */
static void
add_judged(struct book_batch *bb, enum verdict_status st,
    const struct record *rec, const struct replay *rp,
    const struct adjudication *adj)
{
	const struct book *b = bb->b;
	struct book_worker *w = bb->w;
	enum select_drop drop;
	enum train_skip skip;
	struct rec *r;

	r = new_rec(bb);
	if (st == VERDICT_ERROR || st == VERDICT_ILLEGAL) {
		r->why = st == VERDICT_ERROR ? BOOK_WHY_UNREADABLE :
		    BOOK_WHY_ILLEGAL;
		return;
	}
	if ((drop = select_record(&b->o.so, rec, rp, adj)) != SELECT_KEPT) {
		r->why = BOOK_WHY_SELECT + (int)drop;
		return;
	}
	if ((skip = record_items(bb, b, rec, rp, adj)) != TRAIN_WRITTEN) {
		drop_items(bb, r);
		r->why = BOOK_WHY_TRAIN + (int)skip;
		return;
	}
	r->n = bb->nitems - r->first;
	if (b->o.so.uniq)
		r->key = select_key(rec, rp);
	if (w && w->own) {
		if (!w->error && add_items(&w->agg, bb, r->first,
		    bb->nitems) < 0)
			w->error = errno ? errno : EIO;
		r->added = 1;
		drop_items(bb, r);
	}
}

static void
on_verdict(void *ctx, const struct verdict *v)
{
	struct book_batch *bb = ctx;

	if (v->skipped) {
		bb->files_skipped++;
		return;
	}
	add_judged(bb, verdict_status(v), v->r, v->rp, v->adj);
}

/* ---- the pipeline's callbacks --------------------------------------------- */

static void *
worker_new(void *ctx)
{
	struct run *run = ctx;
	struct book_worker *w = xcalloc(1, sizeof(*w));

	w->j = judge_new(&run->b->o.jo);
	w->own = run->parallel;
	if (w->own)
		bookagg_init(&w->agg, run->worker_budget, run->b->o.tmpdir);
	return w;
}

/* The worker's table joins the book's, one worker at a time. */
static void
worker_free(void *ctx, void *worker)
{
	struct run *run = ctx;
	struct book *b = run->b;
	struct book_worker *w = worker;

	judge_free(w->j);
	if (w->own) {
		pthread_mutex_lock(&b->join);
		if (w->error) {
			if (!b->error)
				b->error = w->error;
			if (w->error == EOVERFLOW)
				memcpy(b->agg.overflow, w->agg.overflow,
				    sizeof(b->agg.overflow));
		} else if (bookagg_absorb(&b->agg, &w->agg) < 0 &&
		    !b->error) {
			b->error = errno ? errno : EIO;
			if (errno == EOVERFLOW)
				memcpy(b->agg.overflow, w->agg.overflow,
				    sizeof(b->agg.overflow));
		}
		pthread_mutex_unlock(&b->join);
		bookagg_release(&w->agg);
	}
	free(w);
}

static int
input(void *ctx, void *worker, void *batch, const struct pipe_input *in)
{
	struct run *run = ctx;
	struct book_batch *bb = batch;
	struct book_worker *w = worker;

	if (in->error) {
		struct rec *r = new_rec(bb);

		r->io = 1;
		r->why = BOOK_WHY_UNREADABLE;
		r->note = bb->notes.len;
		strbuf_adds(&bb->notes, in->name);
		strbuf_addc(&bb->notes, '\0');
		strbuf_adds(&bb->notes, in->error);
		strbuf_addc(&bb->notes, '\0');
		return 0;
	}
	bb->w = w;
	judge_bytes(w->j, in->name, in->name, in->data, in->flags, on_verdict,
	    bb);
	bb->w = NULL;
	if (w->error)
		__atomic_store_n(&run->worker_error, 1, __ATOMIC_RELAXED);
	return 0;
}

/* Main thread, in input order: counts, --uniq, and the moves not yet in
   a table. */
static int
emit(void *ctx, void *batch)
{
	struct run *run = ctx;
	struct book *b = run->b;
	struct book_batch *bb = batch;
	size_t i;

	for (i = 0; i < bb->nrecs; i++) {
		struct rec *r = &bb->recs[i];

		b->records++;
		if (r->why == BOOK_WHY_USED && b->o.so.uniq &&
		    !select_seen_add(&b->seen, r->key))
			r->why = BOOK_WHY_SELECT + SELECT_REPEAT;
		if (r->why != BOOK_WHY_USED) {
			b->why[r->why]++;
			if (r->io) {
				const char *name = bb->notes.buf + r->note;

				b->failed = 1;
				if (b->o.unreadable)
					b->o.unreadable(b->o.ctx, name, name +
					    strlen(name) + 1);
			}
			continue;
		}
		b->used++;
		b->plies += (long long)r->n;
		if (!r->added && add_items(&b->agg, bb, r->first, r->first +
		    r->n) < 0) {
			b->error = errno ? errno : EIO;
			return 1;
		}
	}
	b->files_skipped += bb->files_skipped;
	return __atomic_load_n(&run->worker_error, __ATOMIC_RELAXED);
}

static void
batch_init(void *ctx, void *batch)
{
	struct book_batch *bb = batch;

	strbuf_init(&bb->keys);
	strbuf_init(&bb->notes);
	bb->b = ((struct run *)ctx)->b;
}

static void
batch_release(void *ctx, void *batch)
{
	struct book_batch *bb = batch;

	(void)ctx;
	strbuf_release(&bb->keys);
	strbuf_release(&bb->notes);
	free(bb->items);
	free(bb->recs);
	bb->items = NULL;
	bb->recs = NULL;
	bb->nitems = bb->aitems = bb->nrecs = bb->arecs = 0;
}

static void
batch_reset(void *ctx, void *batch)
{
	struct book_batch *bb = batch;

	if (bb->keys.alloc > (8u << 20)) {
		batch_release(ctx, batch);
		batch_init(ctx, batch);
		return;
	}
	strbuf_reset(&bb->keys);
	strbuf_reset(&bb->notes);
	bb->nitems = bb->nrecs = 0;
	bb->files_skipped = 0;
}

static void
ignore(void *ctx, const char *name)
{
	(void)name;
	((struct run *)ctx)->b->files_skipped++;
}

static long long
done(void *ctx)
{
	return ((struct run *)ctx)->b->records;
}

static const struct pipeline_ops book_ops = {
	.batch_size = sizeof(struct book_batch),
	.batch_init = batch_init,
	.batch_reset = batch_reset,
	.batch_release = batch_release,
	.worker_new = worker_new,
	.worker_free = worker_free,
	.input = input,
	.emit = emit,
	.ignore = ignore,
	.done = done,
};

int
book_build(struct book *b, struct pipeline_opts *po, char *const *paths,
    int npaths, int from_stdin, int nul, double *seconds)
{
	struct run run;
	int rc;

	memset(&run, 0, sizeof(run));
	run.b = b;
	run.parallel = po->jobs > 1 && !b->o.so.uniq;
	/* The workers' tables share the budget; joined, they are the book's. */
	run.worker_budget = b->o.memory / (size_t)(po->jobs > 1 ? po->jobs : 1);
	po->judge = NULL;
	rc = pipeline_run(po, &book_ops, &run, paths, npaths, from_stdin, nul,
	    NULL, seconds);
	if (rc < 0)
		return -1;
	return b->error ? 1 : 0;
}

int
book_add_record(struct book *b, enum verdict_status st,
    const struct record *r, const struct replay *rp,
    const struct adjudication *adj)
{
	struct book_batch bb;
	struct run run;
	int rc;

	memset(&run, 0, sizeof(run));
	run.b = b;
	memset(&bb, 0, sizeof(bb));
	batch_init(&run, &bb);
	add_judged(&bb, st, r, rp, adj);
	rc = emit(&run, &bb);
	batch_release(&run, &bb);
	return rc ? -1 : 0;
}
