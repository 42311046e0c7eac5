/*
 * find.c - the matching of records against find's criteria, stage by
 * stage, and the text of the matches (find.h): the workers of `kifu
 * find` over files (cmd/find.c), and of find --db (db/search.c).
 */
#include <stdlib.h>
#include <string.h>

#include "query/find.h"
#include "core/date.h"
#include "core/xalloc.h"
#include "tags/tagger.h"

static const char *
header(const struct record *r, enum header_id id)
{
	const struct record_header *h = record_find_header(r, id);

	return h ? record_str(r, h->value) : "";
}

static void
add_result_text(struct strbuf *sb, const struct game_result *g)
{
	strbuf_adds(sb, reason_name(g->reason));
	if (g->winner != WINNER_NONE)
		strbuf_addf(sb, ", %s wins", winner_name(g->winner));
}

static void
json_key(struct strbuf *sb, int first, const char *key)
{
	strbuf_adds(sb, first ? "\"" : ", \"");
	strbuf_add_json_string(sb, key, strlen(key));
	strbuf_adds(sb, "\": ");
}

/* A header's key in JSON: its well-known name, else the key as written. */
static const char *
header_name(const struct record *r, const struct record_header *h)
{
	return h->id == HDR_OTHER ? record_str(r, h->key) :
	    header_id_name(h->id);
}

/*
 * The headers by their well-known names ("black", "event", "start-time";
 * others by the key as written), the first of each, and "date": the
 * date find compares, normalised.
 */
static void
json_headers(struct strbuf *sb, const struct record *r)
{
	char date[DATE_MAX];
	size_t i, k;
	int first = 1, has_date = 0;

	strbuf_adds(sb, "{");
	for (i = 0; i < r->nheaders; i++) {
		const struct record_header *h = &r->headers[i];
		const char *key = header_name(r, h);

		if (h->id == HDR_RAW)
			continue;
		for (k = 0; k < i; k++)
			if (r->headers[k].id != HDR_RAW &&
			    !strcmp(key, header_name(r, &r->headers[k])))
				break;
		if (k < i)
			continue;
		has_date |= !strcmp(key, "date");
		json_key(sb, first, key);
		strbuf_add_json_quoted(sb, record_str(r, h->value));
		first = 0;
	}
	if (!has_date && date_of_record(r, date)) {
		json_key(sb, first, "date");
		strbuf_add_json_quoted(sb, date);
	}
	strbuf_adds(sb, "}");
}

/*
 * One match of the input at hand, without its file name: ":PLY,...: ..."
 * or a whole JSON line. g is NULL when the record could not be read.
 */
void
find_add_match(const struct find *c, struct find_worker *w, const char *file,
    int index, const struct game_result *g)
{
	const struct record *r = &w->j.r;
	struct strbuf *sb = &w->pending;
	const struct filter_hits *h = &w->hits;
	const char *name;
	char date[DATE_MAX];
	size_t i, off = sb->len;

	if (c->json) {
		strbuf_adds(sb, "{\"file\": ");
		strbuf_add_json_quoted(sb, file);
		strbuf_addf(sb, ", \"index\": %d, \"plies\": ", index);
		if (c->f.has_position) {
			strbuf_adds(sb, "[");
			for (i = 0; i < h->n; i++)
				strbuf_addf(sb, "%s%d", i ? ", " : "",
				    h->ply[i]);
			strbuf_adds(sb, "]");
		} else {
			strbuf_adds(sb, "null");
		}
		strbuf_adds(sb, ", \"headers\": ");
		json_headers(sb, r);
		strbuf_adds(sb, ", \"result\": ");
		if (g)
			strbuf_addf(sb, "{\"winner\": \"%s\", \"reason\": "
			    "\"%s\", \"ply\": %d}", winner_name(g->winner),
			    reason_name(g->reason), g->ply);
		else
			strbuf_adds(sb, "null");
		strbuf_adds(sb, "}\n");
	} else if (!c->list && !c->count) {
		if (c->f.has_position)
			for (i = 0; i < h->n; i++)
				strbuf_addf(sb, "%c%d", i ? ',' : ':',
				    h->ply[i]);
		strbuf_adds(sb, ": ");
		name = header(r, HDR_BLACK);
		strbuf_add_printable(sb, *name ? name : "-");
		strbuf_adds(sb, " vs ");
		name = header(r, HDR_WHITE);
		strbuf_add_printable(sb, *name ? name : "-");
		strbuf_adds(sb, ", ");
		strbuf_adds(sb, date_of_record(r, date) ? date : "-");
		strbuf_adds(sb, ", ");
		if (g)
			add_result_text(sb, g);
		else
			strbuf_adds(sb, "unreadable");
		strbuf_addc(sb, '\n');
	}
	ALLOC_GROW(w->pend, w->npend + 1, w->apend);
	w->pend[w->npend].index = index;
	w->pend[w->npend].off = off;
	w->pend[w->npend].len = sb->len - off;
	w->npend++;
}

void
find_flush_matches(const struct find *c, struct find_worker *w,
    struct find_batch *b, const char *file, int records)
{
	size_t i;

	b->matched += (long long)w->npend;
	if (c->list && w->npend) {
		strbuf_add_printable(&b->b.out, file);
		strbuf_addc(&b->b.out, '\n');
	}
	for (i = 0; i < w->npend && !c->list && !c->count; i++) {
		if (!c->json) {
			strbuf_add_printable(&b->b.out, file);
			if (records > 1)
				strbuf_addf(&b->b.out, "#%d",
				    w->pend[i].index);
		}
		strbuf_add(&b->b.out, w->pending.buf + w->pend[i].off,
		    w->pend[i].len);
	}
	w->npend = 0;
	strbuf_reset(&w->pending);
}

void
find_warn_unreadable(const struct find *c, struct find_batch *b,
    const char *file, const struct diag_list *d, int record)
{
	if (!c->quiet_unreadable)
		diag_warning_line(&b->b.err, file, diag_first_error(d), record ?
		    "a record that cannot be read is matched by its headers "
		    "alone" : "not searched");
}

void
find_warn_empty(const struct find *c, struct find_worker *w,
    struct find_batch *b, const char *file)
{
	diag_list_clear(&w->j.d);
	diag_add(&w->j.d, DIAG_ERROR, diag_id_name(DIAG_EMPTY), NULL, 0,
	    "no record in the file");
	find_warn_unreadable(c, b, file, &w->j.d, 0);
}

void
find_unreadable_record(const struct find *c, struct find_worker *w,
    struct find_batch *b, const char *file, int index)
{
	const struct filter *f = &c->f;

	find_warn_unreadable(c, b, file, &w->j.d, 1);
	/* Its headers are all it can be matched by: it has no names. */
	if (!filter_has_moves(f) && !f->has_position &&
	    !filter_has_result(f) && !filter_has_tags(f))
		find_add_match(c, w, file, index, NULL);
}

/*
 * The position search and the naming on one replay: it stops when both
 * have what they need (neither stops when the result is wanted).
 */
static int
both_visit(void *ctx, const struct position *pos, int32_t node, int main)
{
	struct find_worker *w = ctx;

	if (w->tg && !w->tags_done)
		w->tags_done = tagger_visit(w->tg, pos, node, main);
	if (w->hits.f->has_position && !w->hits_done)
		w->hits_done = filter_visit(&w->hits, pos, node, main);
	return (!w->tg || w->tags_done) &&
	    (!w->hits.f->has_position || w->hits_done);
}

/*
 * The stages after the headers, on a record read whole: its length, the
 * position and the names (replayed as far as the answer needs), the
 * result. Returns whether it matches; *g gets the result when it was
 * worked out.
 */
static int
match_record(const struct find *c, struct find_worker *w,
    const struct judge_input *in, struct game_result *g, int *has_g)
{
	const struct filter *f = &c->f;
	struct record *r = &w->j.r;
	struct replay_walk wk;
	struct replay rp;

	*has_g = 0;
	if (!filter_match_moves(f, r))
		return 0;
	memset(&wk, 0, sizeof(wk));
	wk.main_only = 1;
	w->hits.n = 0;
	w->tags_done = w->hits_done = 0;
	if (f->has_position) {
		w->hits.r = r;
		w->hits.first_only = !c->replay_result;
		wk.visit = filter_visit;
		wk.ctx = &w->hits;
		wk.main_only = !f->variations;
	} else if (!c->replay_result && !w->tg) {
		return 1;
	}
	if (w->tg) {
		tagger_begin(w->tg, r, !c->replay_result);
		wk.visit = both_visit;
		wk.ctx = w;
	}
	replay_record_walk(r, &rp, &w->j.d, &wk);
	if (f->has_position && !w->hits.n)
		return 0;
	if (w->tg && !filter_match_tags(f, tagger_end(w->tg)))
		return 0;
	filter_hits_sort(&w->hits);
	if (c->replay_result) {
		struct adjudication adj;
		struct venue venue;

		judge_adjudicate(&w->j, in->f, &rp, &adj, &venue);
		*g = adj.result;
		*has_g = 1;
		if (!filter_match_result(f, g))
			return 0;
	}
	return 1;
}

static void
find_input(const struct find *c, struct find_worker *w, struct find_batch *b,
    const struct pipe_input *pin)
{
	const struct filter *f = &c->f;
	struct judge_input in;
	enum read_status st;

	switch (judge_open(&w->j, &in, pin->name, pin->data, pin->flags)) {
	case JUDGE_SKIPPED:
		return;
	case JUDGE_UNREADABLE:
		find_warn_unreadable(c, b, pin->name, &w->j.d, 0);
		return;
	case JUDGE_READY:
		break;
	}
	/* A format no record of the input can match: nothing to read. */
	if (f->format && in.f != f->format)
		return;
	/*
	 * Nor a text where no name looked for occurs, unless it may hold no
	 * record: that file is warned of.
	 */
	if (f->ntexts && in.f->has_record &&
	    !filter_text_may_match(f, &w->j.t, in.f) &&
	    in.f->has_record(&w->j.t))
		return;
	while ((st = judge_next(&w->j, &in, c->header_stage)) != READ_EOF) {
		int index = in.index - 1, has_g = 0, fatal = st == READ_FATAL;
		struct game_result g;

		if (c->header_stage &&
		    !filter_match_headers(f, &w->s, &w->j.r, in.f)) {
			if (fatal)
				break;
			continue;
		}
		if (c->header_stage && c->whole && st == READ_OK) {
			st = judge_reread(&w->j, &in);
			fatal = st == READ_FATAL;
		}
		if (st != READ_OK)
			find_unreadable_record(c, w, b, pin->name, index);
		else if (match_record(c, w, &in, &g, &has_g))
			find_add_match(c, w, pin->name, index, has_g ? &g :
			    NULL);
		if (fatal)
			break;
	}
	if (in.index == 0)
		find_warn_empty(c, w, b, pin->name);
	find_flush_matches(c, w, b, pin->name, in.index);
}

/* --- the pipeline's callbacks ----------------------------------------- */

void
find_prepare(struct find *c)
{
	/* The result is all find asks of the rules, never a verdict. */
	c->jo.no_result_check = 1;
	c->header_stage = filter_has_headers(&c->f);
	c->replay_result = filter_has_result(&c->f) || (!c->list && !c->count);
	c->whole = c->replay_result || c->f.has_position ||
	    filter_has_moves(&c->f) || filter_has_tags(&c->f);
}

struct find_worker *
find_worker_new(const struct find *c)
{
	struct find_worker *w = xcalloc(1, sizeof(*w));

	judge_init(&w->j, &c->jo);
	filter_scratch_init(&c->f, &w->s);
	w->hits.f = &c->f;
	if (filter_has_tags(&c->f))
		w->tg = tagger_new(c->f.defs);
	strbuf_init(&w->pending);
	return w;
}

void
find_worker_free(struct find_worker *w)
{
	judge_release(&w->j);
	filter_scratch_release(&w->s);
	tagger_free(w->tg);
	free(w->hits.ply);
	strbuf_release(&w->pending);
	free(w->pend);
	free(w);
}

void
find_take_batch(struct find *c, struct find_batch *b)
{
	c->matched += b->matched;
	c->files += b->files;
	c->failed |= b->b.failed;
	b->matched = b->files = 0;
}

static void *
worker_new(void *ctx)
{
	return find_worker_new(ctx);
}

static void
worker_free(void *ctx, void *worker)
{
	(void)ctx;
	find_worker_free(worker);
}

static int
input(void *ctx, void *worker, void *batch, const struct pipe_input *in)
{
	struct find_batch *b = batch;

	b->files++;
	if (in->error) {
		pipe_batch_unreadable(&b->b, in);
		return 0;
	}
	find_input(ctx, worker, b, in);
	return 0;
}

static int
emit(void *ctx, void *batch)
{
	find_take_batch(ctx, batch);
	return 0;
}

/*
 * The bar counts inputs, not records: a name search passes over files
 * without reading their records (filter_text_may_match).
 */
static long long
done(void *ctx)
{
	return ((struct find *)ctx)->files;
}

const struct pipeline_ops find_ops = {
	.batch_size = sizeof(struct find_batch),
	.worker_new = worker_new,
	.worker_free = worker_free,
	.input = input,
	.emit = emit,
	.done = done,
};
