/*
 * find.c - `kifu find`: the records of whole archives that match the
 * criteria of query/filter.h, walked as `kifu check` walks them (the
 * threads and the order: walk/pipeline.c).
 *
 * Each record goes through the stages of filter.h and stops at the
 * first that fails: its headers are read alone when a header criterion
 * can turn it down, and its moves are replayed only when a position or
 * a result is asked for (or printed), no further than the answer needs.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <limits.h>

#include "cmd/cmd.h"
#include "cmd/queryopts.h"
#include "cmd/ruleopts.h"
#include "cmd/walkopts.h"
#include "api/formats.h"
#include "api/judge.h"
#include "core/sfen.h"
#include "core/variant.h"
#include "core/xalloc.h"
#include "db/indexdb.h"
#include "db/sqlite.h"
#include "query/filter.h"

const char cmd_find_usage[] =
    "usage: kifu find [<filters>] [--json | -l | -c] <path>...\n"
    "   or: kifu find [<filters>] [--json | -l | -c] --db <games.sqlite>\n"
    "\n"
    "Prints the records under the paths that match every filter given,\n"
    "one line each: FILE[#INDEX][:PLY,...]: BLACK vs WHITE, DATE, RESULT\n"
    "(INDEX, from 0, when the file holds several records; the plies at\n"
    "which the position occurs for a position search; the result under\n"
    "the rules, as validate gives it).\n"
    "\n"
    FILTER_HELP
    "Output:\n"
    "    --json               one JSON object per record: file, index,\n"
    "                         plies, headers, result\n"
    "    -l, --files-with-matches\n"
    "                         the names of the files with a match, once each\n"
    "    -c, --count          the number of matching records, alone\n"
    "    -s, --no-messages    no warning for a record that cannot be read\n"
    "    --db <games.sqlite>  answer from an index (kifu index build) instead\n"
    "                         of reading paths: the same output, in the\n"
    "                         order a scan of the indexed paths gives\n"
    READ_HELP
    "\n"
    WALK_HELP
    "\n"
    "Exit status: 0 a record matched, 1 none did, 2 trouble (usage, an\n"
    "input that cannot be read).\n"
    "\n"
    RULEOPTS_HELP;

struct find {
	struct filter f;
	struct judge_opts jo;
	int json, list, count, quiet_unreadable;
	int header_stage;	/* a header criterion: read headers first */
	int whole;		/* a record that passes is read whole */
	int replay_result;	/* the result is asked for or printed */
	long long matched, files;	/* main thread: the merged batches */
	int failed;
};

struct find_batch {
	struct pipe_batch b;	/* out for stdout, err for stderr */
	long long matched, files;
};

/* What a worker keeps from input to input. */
struct find_worker {
	struct judge j;
	struct filter_scratch s;
	struct filter_hits hits;
	/* The matches of the input at hand, until its records are counted. */
	struct strbuf pending;
	struct pending {
		int index;
		size_t off, len;
	} *pend;
	size_t npend, apend;
};

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
static void
add_match(struct find *c, struct find_worker *w, const char *file,
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

/* The matches of an input, once it is known how many records it has. */
static void
flush_matches(struct find *c, struct find_worker *w, struct find_batch *b,
    const char *file, int records)
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

/* A record or an input that cannot be read: a warning, and on. */
static void
warn_unreadable(struct find *c, struct find_batch *b, const char *file,
    const struct diag_list *d, int record)
{
	if (!c->quiet_unreadable)
		diag_warning_line(&b->b.err, file, diag_first_error(d), record ?
		    "a record that cannot be read is matched by its headers "
		    "alone" : "not searched");
}

/*
 * The stages after the headers, on a record read whole: its length, the
 * position (replayed as far as the answer needs), the result. Returns
 * whether it matches; *g gets the result when it was worked out.
 */
static int
match_record(struct find *c, struct find_worker *w,
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
	if (f->has_position) {
		w->hits.r = r;
		w->hits.first_only = !c->replay_result;
		wk.visit = filter_visit;
		wk.ctx = &w->hits;
		wk.main_only = !f->variations;
	} else if (!c->replay_result) {
		return 1;
	}
	replay_record_walk(r, &rp, &w->j.d, &wk);
	if (f->has_position && !w->hits.n)
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
find_input(struct find *c, struct find_worker *w, struct find_batch *b,
    const struct pipe_input *pin)
{
	const struct filter *f = &c->f;
	struct judge_input in;
	enum read_status st;

	switch (judge_open(&w->j, &in, pin->name, pin->data, pin->flags)) {
	case JUDGE_SKIPPED:
		return;
	case JUDGE_UNREADABLE:
		warn_unreadable(c, b, pin->name, &w->j.d, 0);
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
		if (st != READ_OK) {
			/* Its headers are all it can be matched by. */
			warn_unreadable(c, b, pin->name, &w->j.d, 1);
			if (!filter_has_moves(f) && !f->has_position &&
			    !filter_has_result(f))
				add_match(c, w, pin->name, index, NULL);
		} else if (match_record(c, w, &in, &g, &has_g)) {
			add_match(c, w, pin->name, index, has_g ? &g : NULL);
		}
		if (fatal)
			break;
	}
	if (in.index == 0) {
		diag_list_clear(&w->j.d);
		diag_add(&w->j.d, DIAG_ERROR, diag_id_name(DIAG_EMPTY), NULL,
		    0, "no record in the file");
		warn_unreadable(c, b, pin->name, &w->j.d, 0);
	}
	flush_matches(c, w, b, pin->name, in.index);
}

/* --- the pipeline's callbacks ----------------------------------------- */

static void
batch_reset(void *ctx, void *batch)
{
	struct find_batch *b = batch;

	(void)ctx;
	b->matched = b->files = 0;
}

static void *
worker_new(void *ctx)
{
	struct find *c = ctx;
	struct find_worker *w = xcalloc(1, sizeof(*w));

	judge_init(&w->j, &c->jo);
	filter_scratch_init(&c->f, &w->s);
	w->hits.f = &c->f;
	strbuf_init(&w->pending);
	return w;
}

static void
worker_free(void *ctx, void *worker)
{
	struct find_worker *w = worker;

	(void)ctx;
	judge_release(&w->j);
	filter_scratch_release(&w->s);
	free(w->hits.ply);
	strbuf_release(&w->pending);
	free(w->pend);
	free(w);
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
	struct find *c = ctx;
	struct find_batch *b = batch;

	c->matched += b->matched;
	c->files += b->files;
	c->failed |= b->b.failed;
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

/* --- from an index (--db): the same stages on the rows it stores ------ */

/*
 * The records a criterion leaves, as a sorted set of ids, with the plies
 * a position search found in each.
 */
struct cand {
	struct cand_row {
		int64_t rec;
		int ply;
	} *v;
	size_t n, alloc;
	int all;		/* no criterion narrowed it: every record */
};

static int
by_cand(const void *a, const void *b)
{
	const struct cand_row *x = a, *y = b;

	if (x->rec != y->rec)
		return x->rec < y->rec ? -1 : 1;
	return (x->ply > y->ply) - (x->ply < y->ply);
}

static void
cand_add(struct cand *s, int64_t rec, int ply)
{
	ALLOC_GROW(s->v, s->n + 1, s->alloc);
	s->v[s->n].rec = rec;
	s->v[s->n++].ply = ply;
}

/* The rows of rec in s (sorted), or NULL. */
static const struct cand_row *
cand_find(const struct cand *s, int64_t rec, size_t *n)
{
	size_t lo = 0, hi = s->n, k;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->v[mid].rec < rec)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = lo; k < s->n && s->v[k].rec == rec; k++)
		;
	*n = k - lo;
	return *n ? &s->v[lo] : NULL;
}

/* Keeps the rows of a whose record is in b. */
static void
cand_and(struct cand *a, const struct cand *b)
{
	size_t i, k = 0, n;

	for (i = 0; i < a->n; i++)
		if (cand_find(b, a->v[i].rec, &n))
			a->v[k++] = a->v[i];
	a->n = k;
}

struct db {
	sqlite3 *db;
	const char *path;
	int bad;		/* a row of the wrong type */
	char id[64];		/* the id of the diagnostic shown last */
};

static int
db_damaged(struct db *d)
{
	return cmd_error("'%s' is a damaged kifu index: a value of the wrong "
	    "type or out of range", d->path);
}

static int
db_step_end(struct db *d, sqlite3_stmt *st, int rc)
{
	sqlite3_finalize(st);
	if (d->bad)
		return db_damaged(d);
	if (rc != SQLITE_DONE)
		return cmd_db_error(d->db, d->path, "cannot read the index");
	return 0;
}

/* Where the position occurs, every key match confirmed (indexdb.h). */
static int
db_position(struct db *d, const struct filter *f, struct cand *out)
{
	int64_t *ids;
	int n, i, rc = 0;
	sqlite3_stmt *st;

	if ((n = cmd_db_find_position(d->db, d->path, &f->pos,
	    f->board_only, &ids)) < 0)
		return EXIT_TROUBLE;
	st = cmd_db_prepare(d->db, d->path, "SELECT record, ply, variation "
	    "FROM occurrence WHERE position = ?");
	for (i = 0; st && i < n && !rc; i++) {
		sqlite3_bind_int64(st, 1, ids[i]);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			int64_t rec = indexdb_int(st, 0, 1, INT64_MAX, &d->bad);
			int ply = (int)indexdb_int(st, 1, 0, INT_MAX, &d->bad);
			int var = (int)indexdb_int(st, 2, 0, 1, &d->bad);

			if (d->bad)
				break;
			if (!var || f->variations)
				cand_add(out, rec, ply);
		}
		sqlite3_reset(st);
		rc = rc == SQLITE_DONE ? 0 : rc;
	}
	free(ids);
	if (!st)
		return EXIT_TROUBLE;
	return db_step_end(d, st, rc ? rc : SQLITE_DONE);
}

/* The records with a name or event t holds (filter_text_holds). */
static int
db_text(struct db *d, struct find *c, struct filter_scratch *s,
    const struct filter_text *t, struct cand *out)
{
	sqlite3_stmt *names, *recs;
	int rc, rc2 = SQLITE_DONE;

	/*
	 * SQL narrows by the folded substring (or the text as written), as
	 * text_holds matches; filter_text_holds decides. A pattern is
	 * matched in C on every name of the field. "+field": one pass over
	 * the table beats the (field, value) index and a lookup a row.
	 */
	names = cmd_db_prepare(d->db, d->path, c->f.regex ?
	    "SELECT id, field, value FROM name WHERE +field IN (?1, ?2)" :
	    c->f.exact ? "SELECT id, field, value FROM name WHERE +field IN "
	    "(?1, ?2) AND instr(value, ?3) > 0" : "SELECT id, field, value "
	    "FROM name WHERE +field IN (?1, ?2) AND instr(folded, ?3) > 0");
	recs = cmd_db_prepare(d->db, d->path, "SELECT record FROM "
	    "record_name WHERE name = ?");
	if (!names || !recs) {
		sqlite3_finalize(names);
		sqlite3_finalize(recs);
		return EXIT_TROUBLE;
	}
	sqlite3_bind_text(names, 1, t->field == FIELD_WHITE ? "white" :
	    t->field == FIELD_EVENT ? "event" : "black", -1, SQLITE_STATIC);
	sqlite3_bind_text(names, 2, t->field == FIELD_PLAYER ? "white" :
	    t->field == FIELD_BLACK ? "black" : t->field == FIELD_WHITE ?
	    "white" : "event", -1, SQLITE_STATIC);
	if (!c->f.regex)
		sqlite3_bind_text(names, 3, t->folded, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(names)) == SQLITE_ROW) {
		int64_t id = indexdb_int(names, 0, 1, INT64_MAX, &d->bad);
		const char *field = indexdb_text(names, 1, &d->bad);
		const char *value = indexdb_text(names, 2, &d->bad);
		enum header_id hid = !strcmp(field, "black") ? HDR_BLACK :
		    !strcmp(field, "white") ? HDR_WHITE : HDR_EVENT;

		if (d->bad)
			break;
		if (!filter_text_holds(&c->f, t, s, hid, value))
			continue;
		sqlite3_bind_int64(recs, 1, id);
		while ((rc2 = sqlite3_step(recs)) == SQLITE_ROW)
			cand_add(out, indexdb_int(recs, 0, 1, INT64_MAX,
			    &d->bad), 0);
		sqlite3_reset(recs);
		if (rc2 != SQLITE_DONE || d->bad)
			break;
	}
	sqlite3_finalize(recs);
	if (rc2 != SQLITE_DONE && !d->bad) {
		sqlite3_finalize(names);
		return cmd_db_error(d->db, d->path, "cannot read the index");
	}
	return db_step_end(d, names, rc == SQLITE_ROW ? SQLITE_DONE : rc);
}

static const char *
header_at(int i)
{
	return header_id_name((enum header_id)i);
}

/*
 * The record of row st (SELECT of db_records) back into w->j.r: its
 * headers and start, what the header stage and the output read.
 */
static int
db_load_record(struct db *d, struct find_worker *w, sqlite3_stmt *st,
    sqlite3_stmt *hdr, int64_t rec)
{
	struct record *r = &w->j.r;
	const struct variant *v;
	int rc;

	v = variant_by_name(indexdb_text(st, 3, &d->bad));
	if (!v)
		d->bad = 1;
	if (d->bad)
		return -1;
	record_reset(r, v);
	/* A start the rules play though it cannot occur is kept as read. */
	if (sfen_read(&r->start, v, indexdb_text(st, 4, &d->bad), NULL) ==
	    SFEN_SYNTAX)
		d->bad = 1;
	sqlite3_bind_int64(hdr, 1, rec);
	while ((rc = sqlite3_step(hdr)) == SQLITE_ROW && !d->bad) {
		const char *key = indexdb_text(hdr, 1, &d->bad);
		const char *value = indexdb_text(hdr, 2, &d->bad);
		int id = filter_name_index(indexdb_text(hdr, 0, &d->bad),
		    header_at, HDR_NB);

		if (id < 0)
			d->bad = 1;
		else
			record_add_header(r, key, strlen(key), value,
			    strlen(value), (enum header_id)id, NULL);
	}
	sqlite3_reset(hdr);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		cmd_db_error(d->db, d->path, "cannot read the index");
		return -1;
	}
	return d->bad ? -1 : 0;
}

/* One stored diagnostic as the scan had it, for warn_unreadable. */
static void
db_diag(struct db *d, sqlite3_stmt *st, int col, struct diag_list *dl)
{
	const char *id = indexdb_text_or_null(st, col + 2, &d->bad);
	const char *msg = indexdb_text_or_null(st, col + 3, &d->bad);
	struct span loc;

	diag_list_clear(dl);
	if (!id || !msg)
		return;
	memset(&loc, 0, sizeof(loc));
	loc.line = (uint32_t)indexdb_int(st, col, 0, UINT32_MAX, &d->bad);
	loc.col = (uint32_t)indexdb_int(st, col + 1, 0, UINT32_MAX, &d->bad);
	/* The list keeps the id's pointer: d's copy outlives the warning. */
	snprintf(d->id, sizeof(d->id), "%s", id);
	diag_add(dl, DIAG_ERROR, d->id, &loc, 0, "%s", msg);
}

/* The stages of find_input on one stored record (row st). */
static void
db_record(struct find *c, struct find_worker *w, struct find_batch *b,
    struct db *d, sqlite3_stmt *st, sqlite3_stmt *hdr, const char *file,
    const struct cand *pos)
{
	const struct filter *f = &c->f;
	int64_t rec = indexdb_int(st, 0, 1, INT64_MAX, &d->bad);
	int index = (int)indexdb_int(st, 1, 0, INT_MAX, &d->bad);
	int ok = !strcmp(indexdb_text(st, 2, &d->bad), "ok");
	const struct cand_row *rows = NULL;
	struct game_result g;
	size_t n = 0, i;

	if (d->bad || db_load_record(d, w, st, hdr, rec) < 0)
		return;
	if (c->header_stage) {
		const struct format *fmt = formats_by_name(indexdb_text(st,
		    5, &d->bad));

		/* A format kifu has no name for is damage, not "no match". */
		if (!fmt)
			d->bad = 1;
		if (d->bad || !filter_match_headers(f, &w->s, &w->j.r, fmt))
			return;
	}
	if (!ok) {
		db_diag(d, st, 10, &w->j.d);
		warn_unreadable(c, b, file, &w->j.d, 1);
		if (!filter_has_moves(f) && !f->has_position &&
		    !filter_has_result(f))
			add_match(c, w, file, index, NULL);
		return;
	}
	if (!filter_match_plies(f, (int)indexdb_int(st, 6, 0, INT_MAX,
	    &d->bad)))
		return;
	w->hits.n = 0;
	if (f->has_position) {
		if (!(rows = cand_find(pos, rec, &n)))
			return;
		for (i = 0; i < n; i++) {
			ALLOC_GROW(w->hits.ply, w->hits.n + 1, w->hits.alloc);
			w->hits.ply[w->hits.n++] = rows[i].ply;
		}
		filter_hits_sort(&w->hits);
	}
	g.winner = (enum winner)filter_winner_by_name(indexdb_text(st, 7,
	    &d->bad));
	g.reason = (enum reason)filter_reason_by_name(indexdb_text(st, 8,
	    &d->bad));
	g.ply = (int)indexdb_int(st, 9, 0, INT_MAX, &d->bad);
	if ((int)g.winner < 0 || (int)g.reason < 0)
		d->bad = 1;
	if (d->bad || !filter_match_result(f, &g))
		return;
	add_match(c, w, file, index, &g);
}

/* One stored input (row st of the file table), as find_input. */
static void
db_file(struct find *c, struct find_worker *w, struct find_batch *b,
    struct db *d, sqlite3_stmt *st, sqlite3_stmt *recs, sqlite3_stmt *hdr,
    const struct cand *pos, const struct cand *texts)
{
	const struct filter *f = &c->f;
	int64_t id = indexdb_int(st, 0, 1, INT64_MAX, &d->bad);
	const char *file = indexdb_text(st, 1, &d->bad);
	const char *status = indexdb_text(st, 2, &d->bad);
	const char *format = indexdb_text_or_null(st, 3, &d->bad);
	int records = (int)indexdb_int(st, 4, 0, INT_MAX, &d->bad), rc;
	const struct cand *narrow = f->has_position ? pos :
	    texts->all ? NULL : texts;

	if (d->bad || !strcmp(status, "skipped"))
		return;
	if (!strcmp(status, "io")) {
		const char *msg = indexdb_text_or_null(st, 8, &d->bad);

		b->b.failed = 1;
		strbuf_addf(&b->b.err, "kifu: error: cannot read '%s': %s "
		    "[io]\n", file, msg ? msg : "");
		return;
	}
	if (strcmp(status, "ok")) {
		db_diag(d, st, 5, &w->j.d);
		warn_unreadable(c, b, file, &w->j.d, 0);
		return;
	}
	if (!format)
		d->bad = 1;
	if (d->bad || (f->format && strcmp(format, f->format->name)))
		return;
	sqlite3_bind_int64(recs, 1, id);
	while ((rc = sqlite3_step(recs)) == SQLITE_ROW && !d->bad) {
		int64_t rec = indexdb_int(recs, 0, 1, INT64_MAX, &d->bad);
		size_t n;

		/* Only records that can match, or must be warned about. */
		if (narrow && !cand_find(narrow, rec, &n) &&
		    !strcmp(indexdb_text(recs, 2, &d->bad), "ok"))
			continue;
		db_record(c, w, b, d, recs, hdr, file, pos);
	}
	sqlite3_reset(recs);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW && !d->bad) {
		cmd_db_error(d->db, d->path, "cannot read the index");
		b->b.failed = 1;
	}
	if (records == 0) {
		diag_list_clear(&w->j.d);
		diag_add(&w->j.d, DIAG_ERROR, diag_id_name(DIAG_EMPTY), NULL,
		    0, "no record in the file");
		warn_unreadable(c, b, file, &w->j.d, 0);
	}
	flush_matches(c, w, b, file, records);
}

static int
by_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Appends the first column of each row of st to ids; a second is seq. */
static int
db_ids(struct db *d, sqlite3_stmt *st, int64_t **ids, size_t *n,
    size_t *alloc)
{
	int rc;

	if (!st)
		return EXIT_TROUBLE;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		ALLOC_GROW(*ids, *n + 1, *alloc);
		(*ids)[(*n)++] = indexdb_int(st, 0, 1, INT64_MAX, &d->bad);
		/* The walk's order is the answer's: it must be one. */
		if (sqlite3_column_count(st) > 1)
			indexdb_int(st, 1, INT64_MIN, INT64_MAX, &d->bad);
	}
	return db_step_end(d, st, rc);
}

/*
 * The files to visit, in walk order: those of the records left (all of
 * them when nothing narrowed the search) and those a scan would warn
 * about (file_attention), whatever the criteria.
 */
static int
db_files(struct db *d, const struct cand *narrow, int64_t **ids, size_t *n)
{
	sqlite3_stmt *st;
	size_t alloc = 0, i, k;
	int rc;

	*ids = NULL;
	*n = 0;
	if (!narrow)
		return db_ids(d, cmd_db_prepare(d->db, d->path, "SELECT id, "
		    "seq FROM file ORDER BY seq"), ids, n, &alloc);
	st = cmd_db_prepare(d->db, d->path, "SELECT file FROM record WHERE "
	    "id = ?");
	if (!st)
		return EXIT_TROUBLE;
	for (i = 0, rc = SQLITE_DONE; i < narrow->n && rc == SQLITE_DONE;
	    i++) {
		if (i && narrow->v[i].rec == narrow->v[i - 1].rec)
			continue;
		sqlite3_bind_int64(st, 1, narrow->v[i].rec);
		if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			ALLOC_GROW(*ids, *n + 1, alloc);
			(*ids)[(*n)++] = indexdb_int(st, 0, 1, INT64_MAX,
			    &d->bad);
			rc = SQLITE_DONE;
		}
		sqlite3_reset(st);
	}
	if ((rc = db_step_end(d, st, rc)) != 0)
		return rc;
	if ((rc = db_ids(d, cmd_db_prepare(d->db, d->path, "SELECT id FROM "
	    "file WHERE status != 'ok' OR records = 0 OR bad > 0"), ids, n,
	    &alloc)) != 0)
		return rc;
	/* In walk order: sorted by seq, repeats dropped. */
	if (*n)
		qsort(*ids, *n, sizeof(**ids), by_id);
	for (i = k = 0; i < *n; i++)
		if (!k || (*ids)[i] != (*ids)[k - 1])
			(*ids)[k++] = (*ids)[i];
	*n = k;
	st = cmd_db_prepare(d->db, d->path, "SELECT seq FROM file WHERE "
	    "id = ?");
	if (!st)
		return EXIT_TROUBLE;
	{
		struct cand byseq = { NULL, 0, 0, 0 };

		for (i = 0, rc = SQLITE_DONE; i < *n && rc == SQLITE_DONE;
		    i++) {
			sqlite3_bind_int64(st, 1, (*ids)[i]);
			if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
				cand_add(&byseq, indexdb_int(st, 0, INT64_MIN,
				    INT64_MAX, &d->bad), (int)i);
				rc = SQLITE_DONE;
			}
			sqlite3_reset(st);
		}
		if (byseq.n)
			qsort(byseq.v, byseq.n, sizeof(*byseq.v),
			    by_cand);
		{
			int64_t *sorted = xcalloc(byseq.n + 1, sizeof(*sorted));

			for (i = 0; i < byseq.n; i++)
				sorted[i] = (*ids)[byseq.v[i].ply];
			free(*ids);
			*ids = sorted;
			*n = byseq.n;
		}
		free(byseq.v);
	}
	return db_step_end(d, st, rc);
}

static int
find_db(struct find *c, const char *path)
{
	struct db d;
	struct find_worker *w = NULL;
	struct find_batch b;
	struct cand pos = { NULL, 0, 0, 0 }, texts = { NULL, 0, 0, 1 };
	sqlite3_stmt *fst = NULL, *recs = NULL, *hdr = NULL;
	int64_t *files = NULL;
	size_t nfiles = 0, i;
	int rc = EXIT_TROUBLE;

	memset(&d, 0, sizeof(d));
	d.path = path;
	memset(&b, 0, sizeof(b));
	pipe_batch_init(&b.b);
	if (!(d.db = cmd_db_open(path, 0)))
		goto out;
	w = worker_new(c);
	if (c->f.has_position && db_position(&d, &c->f, &pos))
		goto out;
	if (pos.n)
		qsort(pos.v, pos.n, sizeof(*pos.v), by_cand);
	for (i = 0; i < c->f.ntexts; i++) {
		struct cand one = { NULL, 0, 0, 0 };

		if (db_text(&d, c, &w->s, &c->f.texts[i], &one)) {
			free(one.v);
			goto out;
		}
		if (one.n)
			qsort(one.v, one.n, sizeof(*one.v), by_cand);
		if (texts.all) {
			free(texts.v);
			texts = one;
		} else {
			cand_and(&texts, &one);
			free(one.v);
		}
	}
	if (c->f.has_position && !texts.all)
		cand_and(&pos, &texts);
	if (db_files(&d, c->f.has_position ? &pos : texts.all ? NULL :
	    &texts, &files, &nfiles))
		goto out;
	fst = cmd_db_prepare(d.db, path, "SELECT id, path, status, format, "
	    "records, diag_line, diag_col, diag_id, message FROM file "
	    "WHERE id = ?");
	recs = cmd_db_prepare(d.db, path, "SELECT id, idx, status, variant, "
	    "start, format, plies, winner, reason, result_ply, diag_line, "
	    "diag_col, diag_id, diag_message FROM record WHERE file = ? "
	    "ORDER BY idx");
	hdr = cmd_db_prepare(d.db, path, "SELECT id, key, value FROM header "
	    "WHERE record = ? ORDER BY ord");
	if (!fst || !recs || !hdr)
		goto out;
	for (i = 0; i < nfiles && !d.bad; i++) {
		int step;

		sqlite3_bind_int64(fst, 1, files[i]);
		if ((step = sqlite3_step(fst)) == SQLITE_ROW)
			db_file(c, w, &b, &d, fst, recs, hdr, &pos, &texts);
		sqlite3_reset(fst);
		if (step != SQLITE_ROW && step != SQLITE_DONE) {
			cmd_db_error(d.db, path, "cannot read the index");
			goto out;
		}
		emit(c, &b);
		pipe_batch_write(&b.b, stdout, stderr);
		batch_reset(c, &b);
	}
	if (d.bad) {
		db_damaged(&d);
		goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(fst);
	sqlite3_finalize(recs);
	sqlite3_finalize(hdr);
	sqlite3_close(d.db);
	if (w)
		worker_free(c, w);
	pipe_batch_release(&b.b);
	free(pos.v);
	free(texts.v);
	free(files);
	return rc;
}

static const struct pipeline_ops find_ops = {
	.batch_size = sizeof(struct find_batch),
	.batch_reset = batch_reset,
	.worker_new = worker_new,
	.worker_free = worker_free,
	.input = input,
	.emit = emit,
	.done = done,
};

int
cmd_find(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "files-with-matches", no_argument, NULL, 'l' },
		{ "count", no_argument, NULL, 'c' },
		{ "no-messages", no_argument, NULL, 's' },
		{ "db", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		READ_LONGOPTS,
		FILTER_LONGOPTS,
		WALK_LONGOPTS,
		RULE_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct ruleopts ro;
	struct walkopts wo;
	struct ruleset rs;
	struct find c;
	const char *db = NULL, *scan_opt = NULL;
	int opt, rc, status;

	memset(&c, 0, sizeof(c));
	filter_init(&c.f);
	ruleopts_init(&ro);
	walkopts_init(&wo, "files");
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "hj:zlcs", longopts, NULL)) !=
	    -1) {
		switch (opt) {
		case 'J': c.json = 1; break;
		case 'l': c.list = 1; break;
		case 'c': c.count = 1; break;
		case 's': c.quiet_unreadable = 1; break;
		case 'D': db = optarg; break;
		case 'h':
			rc = cmd_help(cmd_find_usage);
			goto out;
		default:
			if ((rc = cmd_filter_take(&c.f, opt, optarg,
			    cmd_find_usage)) != 0 ||
			    (rc = judgeopts_take(&c.jo, &wo, &ro, opt, optarg,
			    cmd_find_usage)) != 0) {
				if (rc != 1)
					goto out;
				if (opt < OPT_F_SFEN &&
				    !walkopt_is_runtime(opt))
					scan_opt = argv[optind - 1];
				break;
			}
			rc = cmd_usage_error(cmd_find_usage,
			    optopt ? "option '%s' needs a value" :
			    "unknown option '%s'", argv[optind - 1]);
			goto out;
		}
	}
	rc = EXIT_TROUBLE;
	if (c.json + c.list + c.count > 1) {
		cmd_usage_error(cmd_find_usage, "--json, -l and -c go alone");
		goto out;
	}
	if (db && optind < argc) {
		cmd_usage_error(cmd_find_usage, "--db reads the index, not "
		    "paths: '%s' (kifu index update adds a path)",
		    argv[optind]);
		goto out;
	}
	if (db && scan_opt) {
		cmd_usage_error(cmd_find_usage, "--db answers as the index was "
		    "read and judged: '%s' goes to kifu index build",
		    scan_opt);
		goto out;
	}
	if ((!db && walkopts_finish(&wo, argc - optind, cmd_find_usage)) ||
	    ruleopts_judge(&ro, &rs, &c.jo, cmd_find_usage) ||
	    cmd_filter_finish(&c.f, &ro.lim, cmd_find_usage))
		goto out;
	/* The result is all find asks of the rules, never a verdict. */
	c.jo.no_result_check = 1;
	c.header_stage = filter_has_headers(&c.f);
	c.replay_result = filter_has_result(&c.f) || (!c.list && !c.count);
	c.whole = c.replay_result || c.f.has_position ||
	    filter_has_moves(&c.f);
	if (db) {
		if (find_db(&c, db)) {
			rc = EXIT_TROUBLE;
			goto out;
		}
	} else if (walkopts_run(&wo, &find_ops, &c, argv + optind,
	    argc - optind, NULL, NULL)) {
		c.failed = 1;
	}
	if (c.count)
		printf("%lld\n", c.matched);
	status = c.failed ? EXIT_TROUBLE : c.matched ? EXIT_OK :
	    EXIT_FINDINGS;
	rc = status;
out:
	filter_release(&c.f);
	return rc;
}
