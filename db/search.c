/*
 * search.c - find --db (search.h): the records a criterion leaves, from
 * the index's tables, then the stages of query/find.c on the rows of
 * each file in walk order; used by `kifu find --db` (cmd/find.c).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/search.h"
#include "api/formats.h"
#include "core/sfen.h"
#include "core/variant.h"
#include "core/xalloc.h"
#include "db/indexdb.h"
#include "db/sqlite.h"

/* --- the records a criterion leaves ---------------------------------- */

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

/*
 * One more criterion's candidates (one, taken over): all keeps those
 * in both, or becomes one while it still stands for every record.
 */
static void
cand_narrow(struct cand *all, struct cand *one)
{
	if (one->n)
		qsort(one->v, one->n, sizeof(*one->v), by_cand);
	if (all->all) {
		free(all->v);
		*all = *one;
	} else {
		cand_and(all, one);
		free(one->v);
	}
}

/* --- the index ------------------------------------------------------- */

struct db {
	sqlite3 *db;
	const char *path;
	int bad;		/* a row of the wrong type */
	char id[64];		/* the id of the diagnostic shown last */
	struct strbuf *why;	/* what ends the search */
	const struct indexdb_search_out *io;
};

static int
db_damaged(struct db *d)
{
	strbuf_addf_line(d->why, "'%s' is a damaged kifu index: a value of "
	    "the wrong type or out of range", d->path);
	return -1;
}

static int
db_read_failed(struct db *d)
{
	indexdb_why(d->why, d->db, d->path, "cannot read the index");
	return -1;
}

/* A read error after which the search goes on: said in its turn. */
static void
db_read_error(struct db *d)
{
	struct strbuf msg = STRBUF_INIT;

	indexdb_why(&msg, d->db, d->path, "cannot read the index");
	if (d->io->error)
		d->io->error(d->io->ctx, msg.buf);
	strbuf_release(&msg);
}

static sqlite3_stmt *
db_prepare(struct db *d, const char *sql)
{
	return indexdb_prepare(d->db, d->path, sql, d->why);
}

static int
db_step_end(struct db *d, sqlite3_stmt *st, int rc)
{
	sqlite3_finalize(st);
	if (d->bad)
		return db_damaged(d);
	if (rc != SQLITE_DONE)
		return db_read_failed(d);
	return 0;
}

/* Where the position occurs, every key match confirmed (indexdb.h). */
static int
db_position(struct db *d, const struct filter *f, struct cand *out)
{
	int64_t *ids;
	int n, i, rc = 0;
	sqlite3_stmt *st;

	if ((n = indexdb_find_position(d->db, d->path, &f->pos,
	    f->board_only, &ids, d->why)) < 0)
		return -1;
	st = db_prepare(d, "SELECT record, ply, variation FROM occurrence "
	    "WHERE position = ?");
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
		return -1;
	return db_step_end(d, st, rc ? rc : SQLITE_DONE);
}

/* The records with a name or event t holds (filter_text_holds). */
static int
db_text(struct db *d, const struct find *c, struct filter_scratch *s,
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
	names = db_prepare(d, c->f.regex ?
	    "SELECT id, field, value FROM name WHERE +field IN (?1, ?2)" :
	    c->f.exact ? "SELECT id, field, value FROM name WHERE +field IN "
	    "(?1, ?2) AND instr(value, ?3) > 0" : "SELECT id, field, value "
	    "FROM name WHERE +field IN (?1, ?2) AND instr(folded, ?3) > 0");
	recs = db_prepare(d, "SELECT record FROM record_name WHERE name = ?");
	if (!names || !recs) {
		sqlite3_finalize(names);
		sqlite3_finalize(recs);
		return -1;
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
		return db_read_failed(d);
	}
	return db_step_end(d, names, rc == SQLITE_ROW ? SQLITE_DONE : rc);
}

/*
 * The records a side of which has the name (or a name of the family)
 * among the kind's: what filter_match_tags decides on a replay, from
 * the names the index stores.
 */
static int
db_tag(struct db *d, const struct filter *f, const struct filter_tag *t,
    struct cand *out)
{
	sqlite3_stmt *st = db_prepare(d, "SELECT DISTINCT record FROM tag "
	    "WHERE (name = ?1 OR family = ?1) AND kind IN (?2, ?3) AND "
	    "(?4 IS NULL OR side = ?4)");
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, t->arg, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, t->castle ? "castle" : "style", -1,
	    SQLITE_STATIC);
	sqlite3_bind_text(st, 3, t->castle ? "castle" : "opening", -1,
	    SQLITE_STATIC);
	if (f->tag_side >= 0)
		sqlite3_bind_text(st, 4, f->tag_side ? "white" : "black", -1,
		    SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && !d->bad)
		cand_add(out, indexdb_int(st, 0, 1, INT64_MAX, &d->bad), 0);
	return db_step_end(d, st, rc == SQLITE_ROW ? SQLITE_DONE : rc);
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
		db_read_error(d);
		return -1;
	}
	return d->bad ? -1 : 0;
}

/* One stored diagnostic as the scan had it, for its warning. */
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

/* The stages of a scan (query/find.c) on one stored record (row st). */
static void
db_record(const struct find *c, struct find_worker *w, struct find_batch *b,
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
		find_unreadable_record(c, w, b, file, index);
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
	find_add_match(c, w, file, index, &g);
}

/* One stored input (row st of the file table), as a scan reads it. */
static void
db_file(const struct find *c, struct find_worker *w, struct find_batch *b,
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
		find_warn_unreadable(c, b, file, &w->j.d, 0);
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
		db_read_error(d);
		b->b.failed = 1;
	}
	if (records == 0)
		find_warn_empty(c, w, b, file);
	find_flush_matches(c, w, b, file, records);
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
		return -1;
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
		return db_ids(d, db_prepare(d, "SELECT id, seq FROM file "
		    "ORDER BY seq"), ids, n, &alloc);
	st = db_prepare(d, "SELECT file FROM record WHERE id = ?");
	if (!st)
		return -1;
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
	if ((rc = db_ids(d, db_prepare(d, "SELECT id FROM file WHERE status "
	    "!= 'ok' OR records = 0 OR bad > 0"), ids, n, &alloc)) != 0)
		return rc;
	/* In walk order: sorted by seq, repeats dropped. */
	if (*n)
		qsort(*ids, *n, sizeof(**ids), by_id);
	for (i = k = 0; i < *n; i++)
		if (!k || (*ids)[i] != (*ids)[k - 1])
			(*ids)[k++] = (*ids)[i];
	*n = k;
	st = db_prepare(d, "SELECT seq FROM file WHERE id = ?");
	if (!st)
		return -1;
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

const struct tagdefs *
indexdb_search_tagdefs(const char *path, struct strbuf *why)
{
	sqlite3 *db = indexdb_open(path, 0, why);
	const struct tagdefs *d;

	if (!db)
		return NULL;
	d = indexdb_tagdefs(db, path, why);
	sqlite3_close(db);
	return d;
}

int
indexdb_search(struct find *c, const char *path,
    const struct indexdb_search_out *io, struct strbuf *why)
{
	struct strbuf scratch = STRBUF_INIT;
	struct db d;
	struct find_worker *w = NULL;
	struct find_batch b;
	struct cand pos = { NULL, 0, 0, 0 }, texts = { NULL, 0, 0, 1 };
	sqlite3_stmt *fst = NULL, *recs = NULL, *hdr = NULL;
	int64_t *files = NULL;
	size_t nfiles = 0, i;
	int rc = -1;

	memset(&d, 0, sizeof(d));
	d.path = path;
	d.why = why ? why : &scratch;
	d.io = io;
	memset(&b, 0, sizeof(b));
	pipe_batch_init(&b.b);
	if (!(d.db = indexdb_open(path, 0, d.why)))
		goto out;
	w = find_worker_new(c);
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
		cand_narrow(&texts, &one);
	}
	/* The names narrow as the texts do: every one must hold. */
	for (i = 0; i < c->f.ntags; i++) {
		struct cand one = { NULL, 0, 0, 0 };

		if (db_tag(&d, &c->f, &c->f.tags[i], &one)) {
			free(one.v);
			goto out;
		}
		cand_narrow(&texts, &one);
	}
	if (c->f.has_position && !texts.all)
		cand_and(&pos, &texts);
	if (db_files(&d, c->f.has_position ? &pos : texts.all ? NULL :
	    &texts, &files, &nfiles))
		goto out;
	fst = db_prepare(&d, "SELECT id, path, status, format, records, "
	    "diag_line, diag_col, diag_id, message FROM file WHERE id = ?");
	recs = db_prepare(&d, "SELECT id, idx, status, variant, start, "
	    "format, plies, winner, reason, result_ply, diag_line, diag_col, "
	    "diag_id, diag_message FROM record WHERE file = ? ORDER BY idx");
	hdr = db_prepare(&d, "SELECT id, key, value FROM header WHERE "
	    "record = ? ORDER BY ord");
	if (!fst || !recs || !hdr)
		goto out;
	for (i = 0; i < nfiles && !d.bad; i++) {
		int step;

		sqlite3_bind_int64(fst, 1, files[i]);
		if ((step = sqlite3_step(fst)) == SQLITE_ROW)
			db_file(c, w, &b, &d, fst, recs, hdr, &pos, &texts);
		sqlite3_reset(fst);
		if (step != SQLITE_ROW && step != SQLITE_DONE) {
			db_read_failed(&d);
			goto out;
		}
		find_take_batch(c, &b);
		pipe_batch_write(&b.b, io->out, io->err);
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
		find_worker_free(w);
	pipe_batch_release(&b.b);
	free(pos.v);
	free(texts.v);
	free(files);
	strbuf_release(&scratch);
	return rc;
}
