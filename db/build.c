/*
 * build.c - building and updating the game database (build.h): the
 * workers' side, which turns each input into rows, and the main
 * thread's, which writes them to SQLite in input order; used by `kifu
 * index build` and `kifu index update` (cmd/index.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/build.h"
#include "api/judge.h"
#include "core/clock.h"
#include "core/date.h"
#include "core/fold.h"
#include "core/handicap.h"
#include "core/usi.h"
#include "core/variant.h"
#include "core/xalloc.h"
#include "db/indexdb.h"
#include "db/sqlite.h"
#include "parsers/format.h"
#include "tags/tagger.h"
#include "walk/pipeline.h"

/* --- the rows of a batch --------------------------------------------------- */

#define NONE ((size_t)-1)

struct ix_pos {
	uint64_t key, board_key, check;
	size_t sfen, move;
	int32_t ply, node;	/* node: on the main line, else -1 */
	int variation;
};

struct ix_hdr {
	int id;
	size_t key, value;
};

/* A name of a record: a side's (side 0, 1) or the game's (-1). */
struct ix_tag {
	int side, ply;		/* ply -1: none */
	const char *kind;	/* static: "style", "opening", ... */
	size_t name, family;
};

struct ix_rec {
	int idx, ok, plies, played, diag_line, diag_col;
	int has_result, has_recorded;
	struct game_result result, recorded;
	size_t format, encoding, variant, start, handicap, moves, date;
	size_t black, white, event, rules, findings, diag_id, diag_message;
	size_t h0, nh, p0, np, t0, nt;
};

struct ix_file {
	size_t path, format, encoding, message, diag_id;
	const char *status;
	long long size, mtime;
	uint64_t hash;
	int records, bad, diag_line, diag_col, unchanged;
	size_t r0, nr;
};

struct ix_batch {
	struct pipe_batch b;	/* unused: the rows go to the database */
	struct strbuf s;	/* every string, NUL-terminated, by offset */
	struct ix_file *f;
	size_t nf, af;
	struct ix_rec *r;
	size_t nr, ar;
	struct ix_hdr *h;
	size_t nh, ah;
	struct ix_pos *p;
	size_t np, ap;
	struct ix_tag *t;
	size_t nt, at;
};

/* What update knows of the files already indexed, sorted by path. */
struct known {
	char *path;
	int64_t id;
	long long size, mtime;
	uint64_t hash;
	int seen;
};

/* The positions written so far: key -> id, with a check of the SFEN. */
struct posmap {
	struct pm_slot {
		uint64_t key, check;
		int64_t id;	/* 0: empty */
	} *v;
	size_t n, mask;
};

struct index {
	struct judge_opts jo;
	const char *path;	/* the database as the user named it */
	sqlite3 *db;
	int update;
	/* The names: the definitions, and whether the index stores them
	 * (schema 2; update of a version 1 index does not). */
	const struct tagdefs *defs;
	int tags;
	struct known *known;
	size_t nknown;
	struct posmap pm;
	int64_t next_occ, seq;
	long long files, records, positions;
	int failed;		/* a write failed: stop, keep nothing */
	struct strbuf *why;	/* what went wrong, a message a line */
	const struct indexdb_report *report;
	struct strbuf fold;	/* a name folded */
	sqlite3_stmt *ins_file, *ins_rec, *ins_hdr, *ins_name, *ins_rn;
	sqlite3_stmt *ins_pos, *ins_occ, *get_pos, *upd_file;
	sqlite3_stmt *del_recs, *del_touch, *del_occ, *del_hdr, *del_rn;
	sqlite3_stmt *del_rec, *del_file, *ins_tag, *del_tag;
};

static char *
dupstr(const char *s)
{
	return xstrndup(s, strlen(s));
}

static size_t
put(struct ix_batch *b, const char *s)
{
	size_t off = b->s.len;

	if (!s)
		return NONE;
	strbuf_add(&b->s, s, strlen(s) + 1);
	return off;
}

static const char *
str(const struct ix_batch *b, size_t off)
{
	return off == NONE ? NULL : b->s.buf + off;
}

static uint64_t
fnv1a(const void *data, size_t n)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ULL;

	while (n--)
		h = (h ^ *p++) * 0x100000001b3ULL;
	return h;
}

static int
by_path(const void *a, const void *b)
{
	return strcmp(((const struct known *)a)->path,
	    ((const struct known *)b)->path);
}

static struct known *
known_find(const struct index *c, const char *path)
{
	struct known k;

	k.path = (char *)path;
	return c->nknown ? bsearch(&k, c->known, c->nknown, sizeof(k),
	    by_path) : NULL;
}

/* The file on disk an input comes from: the archive of a member. */
static long long
mtime_of(const char *name)
{
	struct stat st;
	char *p, *sep;
	int rc;

	if ((rc = stat(name, &st)) < 0 && (sep = strstr(name, "//"))) {
		p = xstrndup(name, (size_t)(sep - name));
		rc = stat(p, &st);
		free(p);
	}
	if (rc < 0)
		return 0;
	return (long long)st.st_mtim.tv_sec * 1000000000LL +
	    st.st_mtim.tv_nsec;
}

/* --- a worker: an input into rows --------------------------------------- */

struct ix_worker {
	struct judge j;
	struct ix_batch *b;	/* the batch of the input at hand */
	const struct record *r;
	struct tagger *tg;	/* when the index stores names */
};

static int
visit(void *ctx, const struct position *pos, int32_t node, int main)
{
	struct ix_worker *w = ctx;
	struct ix_batch *b = w->b;
	const struct record *r = w->r;
	char sfen[SFEN_MAX];
	struct ix_pos *p;

	ALLOC_GROW(b->p, b->np + 1, b->ap);
	p = &b->p[b->np++];
	p->key = position_key(pos);
	p->board_key = position_board_key(pos);
	indexdb_sfen(pos, sfen);
	p->check = fnv1a(sfen, strlen(sfen));
	p->sfen = put(b, sfen);
	p->ply = r->nodes[node].ply;
	p->variation = !main;
	p->move = NONE;
	p->node = main ? node : -1;
	return 0;
}

/* The positions, and the names from the same replay. */
static int
visit_tags(void *ctx, const struct position *pos, int32_t node, int main)
{
	struct ix_worker *w = ctx;

	tagger_visit(w->tg, pos, node, main);
	return visit(ctx, pos, node, main);
}

static void
add_tag(struct ix_batch *b, int side, const char *kind, const char *name,
    const char *family, int ply)
{
	struct ix_tag *t;

	ALLOC_GROW(b->t, b->nt + 1, b->at);
	t = &b->t[b->nt++];
	t->side = side;
	t->kind = kind;
	t->name = put(b, name);
	t->family = put(b, family);
	t->ply = ply;
}

static void
add_hits(struct ix_batch *b, const struct tagdefs *d, int side,
    const char *kind, const struct tag_hit *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		add_tag(b, side, kind, tagdefs_label(d, d->v[v[i].def].name),
		    tagdefs_label(d, d->v[v[i].def].family), v[i].ply);
}

/*
 * The rows of a record's names (indexdb_tag_schema), from a tagger's
 * result: what kifu tag prints, and what find --db and tree --db read.
 */
static void
add_tags(struct ix_batch *b, const struct tagdefs *d,
    const struct tag_result *res)
{
	int c;

	if (!res->named)
		return;
	for (c = 0; c < 2; c++) {
		const struct tag_side *s = &res->side[c];

		if (s->style >= 0)
			add_tag(b, c, "style", tagdefs_label(d,
			    d->v[s->style].name), tagdefs_label(d,
			    d->v[s->style].family), s->style_ply);
		add_hits(b, d, c, "opening", s->openings, s->nopenings);
		add_hits(b, d, c, "castle", s->castles, s->ncastles);
	}
	if (res->game >= 0)
		add_tag(b, -1, "game", tagdefs_label(d, d->v[res->game].name),
		    tagdefs_label(d, d->v[res->game].family), -1);
	if (res->matchup != MATCHUP_NONE)
		add_tag(b, -1, "matchup", tag_matchup_name(res->matchup),
		    tag_matchup_name(res->matchup), -1);
}

/*
 * The move each main line goes on with from its positions, once replay
 * has resolved them all: what the opening explorer counts.
 */
static void
next_moves(struct ix_batch *b, const struct record *r, size_t p0)
{
	char mv[USI_MOVE_MAX];
	size_t i;

	for (i = p0; i < b->np; i++) {
		int32_t next;

		if (b->p[i].node < 0)
			continue;
		next = r->nodes[b->p[i].node].next;
		if (next >= 0 && r->nodes[next].special == SP_NONE &&
		    r->nodes[next].mv != MOVE_NONE) {
			usi_format_move(r->nodes[next].mv, mv);
			b->p[i].move = put(b, mv);
		}
	}
}

static void
add_record(struct ix_worker *w, const struct judge_input *in,
    enum read_status st)
{
	struct ix_batch *b = w->b;
	struct record *r = &w->j.r;
	struct ix_rec *x;
	struct strbuf sb = STRBUF_INIT;
	const struct record_header *h;
	char buf[SFEN_MAX > DATE_MAX ? SFEN_MAX : DATE_MAX];
	size_t i;
	int hc;

	ALLOC_GROW(b->r, b->nr + 1, b->ar);
	x = &b->r[b->nr++];
	memset(x, 0, sizeof(*x));
	x->idx = in->index - 1;
	x->ok = st == READ_OK;
	x->format = put(b, in->f->name);
	x->encoding = put(b, w->j.t.encoding);
	x->variant = put(b, r->v->name);
	sfen_write(&r->start, buf);
	x->start = put(b, buf);
	hc = handicap_identify(&r->start);
	x->handicap = hc >= HANDICAP_EVEN && hc < HANDICAP_NB ?
	    put(b, handicap_name(hc)) : NONE;
	x->date = date_of_record(r, buf) ? put(b, buf) : NONE;
	h = record_find_header(r, HDR_BLACK);
	x->black = h ? put(b, record_str(r, h->value)) : NONE;
	h = record_find_header(r, HDR_WHITE);
	x->white = h ? put(b, record_str(r, h->value)) : NONE;
	h = record_find_header(r, HDR_EVENT);
	x->event = h ? put(b, record_str(r, h->value)) : NONE;
	x->plies = record_main_moves(r);
	x->has_recorded = r->has_recorded;
	x->recorded = r->recorded;
	x->h0 = b->nh;
	for (i = 0; i < r->nheaders; i++) {
		ALLOC_GROW(b->h, b->nh + 1, b->ah);
		b->h[b->nh].id = r->headers[i].id;
		b->h[b->nh].key = put(b, record_str(r, r->headers[i].key));
		b->h[b->nh].value = put(b, record_str(r, r->headers[i].value));
		b->nh++;
	}
	x->nh = b->nh - x->h0;
	x->p0 = b->np;
	x->t0 = b->nt;
	x->rules = x->moves = x->diag_id = x->diag_message = NONE;
	if (x->ok) {
		struct replay_walk wk;
		struct replay rp;
		struct adjudication adj;
		struct venue venue;
		int32_t n;

		memset(&wk, 0, sizeof(wk));
		wk.visit = w->tg ? visit_tags : visit;
		wk.ctx = w;
		w->r = r;
		if (w->tg)
			tagger_begin(w->tg, r, 0);
		replay_record_walk(r, &rp, &w->j.d, &wk);
		next_moves(b, r, x->p0);
		if (w->tg)
			add_tags(b, tagger_defs(w->tg), tagger_end(w->tg));
		judge_adjudicate(&w->j, in->f, &rp, &adj, &venue);
		x->has_result = 1;
		x->result = adj.result;
		x->rules = put(b, adj.rules);
		x->played = rp.moves;
		for (n = r->nodes[0].next; n >= 0 && r->nodes[n].special ==
		    SP_NONE && r->nodes[n].mv != MOVE_NONE;
		    n = r->nodes[n].next) {
			char mv[USI_MOVE_MAX];

			usi_format_move(r->nodes[n].mv, mv);
			if (sb.len)
				strbuf_addc(&sb, ' ');
			strbuf_adds(&sb, mv);
		}
	} else {
		const struct diag *e = diag_first_error(&w->j.d);

		if (e) {
			x->diag_line = (int)e->loc.line;
			x->diag_col = (int)e->loc.col;
			x->diag_id = put(b, e->id);
			x->diag_message = put(b, e->message);
		}
	}
	x->moves = put(b, sb.len ? sb.buf : "");
	x->np = b->np - x->p0;
	x->nt = b->nt - x->t0;
	strbuf_reset(&sb);
	for (i = 0; i < w->j.d.n; i++) {
		const struct diag *d = &w->j.d.v[i];

		strbuf_addf(&sb, "%u:%u: %s: %s [%s]\n", d->loc.line,
		    d->loc.col, diag_severity_name(d->severity), d->message,
		    d->id);
	}
	x->findings = put(b, sb.len ? sb.buf : "");
	strbuf_release(&sb);
}

static void
file_diag(struct ix_batch *b, struct ix_file *f, const struct diag *e)
{
	if (!e)
		return;
	f->diag_line = (int)e->loc.line;
	f->diag_col = (int)e->loc.col;
	f->diag_id = put(b, e->id);
	f->message = put(b, e->message);
}

static int
input(void *ctx, void *worker, void *batch, const struct pipe_input *pin)
{
	struct index *c = ctx;
	struct ix_worker *w = worker;
	struct ix_batch *b = batch;
	struct ix_file *f;
	struct judge_input in;
	enum read_status st;
	struct known *k;

	ALLOC_GROW(b->f, b->nf + 1, b->af);
	f = &b->f[b->nf++];
	memset(f, 0, sizeof(*f));
	f->path = put(b, pin->name);
	f->format = f->encoding = f->message = f->diag_id = NONE;
	f->r0 = b->nr;
	w->b = b;
	if (pin->error) {
		f->status = "io";
		f->message = put(b, pin->error);
		return 0;
	}
	f->size = (long long)pin->data->len;
	f->hash = fnv1a(pin->data->buf, pin->data->len);
	f->mtime = mtime_of(pin->name);
	if ((k = known_find(c, pin->name)) && k->size == f->size &&
	    k->hash == f->hash) {
		f->unchanged = 1;
		return 0;
	}
	switch (judge_open(&w->j, &in, pin->name, pin->data, pin->flags)) {
	case JUDGE_SKIPPED:
		f->status = "skipped";
		return 0;
	case JUDGE_UNREADABLE:
		f->status = "unreadable";
		file_diag(b, f, diag_first_error(&w->j.d));
		return 0;
	case JUDGE_READY:
		break;
	}
	f->status = "ok";
	f->format = put(b, in.f->name);
	/* As find reads when it filters by headers: headers, then whole. */
	while ((st = judge_next(&w->j, &in, 1)) != READ_EOF) {
		int fatal = st == READ_FATAL;

		if (st == READ_OK) {
			st = judge_reread(&w->j, &in);
			fatal = st == READ_FATAL;
		}
		if (!f->records++)
			f->encoding = put(b, w->j.t.encoding);
		add_record(w, &in, st);
		f->bad += st != READ_OK;
		if (fatal)
			break;
	}
	f->records = in.index;
	f->nr = b->nr - f->r0;
	return 0;
}

/* --- the pipeline's callbacks ----------------------------------------- */

static void
batch_init(void *ctx, void *batch)
{
	(void)ctx;
	strbuf_init(&((struct ix_batch *)batch)->s);
}

static void
batch_reset(void *ctx, void *batch)
{
	struct ix_batch *b = batch;

	(void)ctx;
	strbuf_reset(&b->s);
	b->nf = b->nr = b->nh = b->np = b->nt = 0;
}

static void
batch_release(void *ctx, void *batch)
{
	struct ix_batch *b = batch;

	(void)ctx;
	strbuf_release(&b->s);
	free(b->f);
	free(b->r);
	free(b->h);
	free(b->p);
	free(b->t);
}

static void *
worker_new(void *ctx)
{
	struct index *c = ctx;
	struct ix_worker *w = xcalloc(1, sizeof(*w));

	judge_init(&w->j, &c->jo);
	if (c->tags)
		w->tg = tagger_new(c->defs);
	return w;
}

static void
worker_free(void *ctx, void *worker)
{
	struct ix_worker *w = worker;

	(void)ctx;
	judge_release(&w->j);
	tagger_free(w->tg);
	free(w);
}

/* --- writing ------------------------------------------------------------ */

static void
tell(void (*fn)(void *, const char *), void *ctx, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A message to one of the report's callbacks, if it has one. */
static void
tell(void (*fn)(void *, const char *), void *ctx, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (!fn)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	fn(ctx, sb.buf);
	strbuf_release(&sb);
}

/* A statement of the index's, or NULL with why said. */
static sqlite3_stmt *
prepare(struct index *c, const char *sql)
{
	return indexdb_prepare(c->db, c->path, sql, c->why);
}

static int
sql_fail(struct index *c, const char *what)
{
	if (!c->failed)
		indexdb_why(c->why, c->db, c->path, what);
	c->failed = 1;
	return -1;
}

/* Steps a statement that returns no row, then resets it. */
static int
run(struct index *c, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return sql_fail(c, "cannot write the index");
	return 0;
}

static int
exec(struct index *c, const char *sql)
{
	char *err = NULL;

	if (sqlite3_exec(c->db, sql, NULL, NULL, &err) != SQLITE_OK) {
		if (!c->failed)
			strbuf_addf_line(c->why, "'%s': cannot write the "
			    "index: %s", c->path, err ? err :
			    sqlite3_errmsg(c->db));
		sqlite3_free(err);
		c->failed = 1;
		return -1;
	}
	return 0;
}

static void
bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

static void
bind_int_or_null(sqlite3_stmt *st, int i, int has, long long v)
{
	if (has)
		sqlite3_bind_int64(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

static void
posmap_grow(struct posmap *m)
{
	size_t i, cap = m->mask ? (m->mask + 1) * 2 : 1 << 16;
	struct pm_slot *v = xcalloc(cap, sizeof(*v)), *old = m->v;
	size_t oldcap = m->mask ? m->mask + 1 : 0;

	for (i = 0; i < oldcap; i++) {
		size_t j;

		if (!old[i].id)
			continue;
		for (j = (size_t)old[i].key & (cap - 1); v[j].id;
		    j = (j + 1) & (cap - 1))
			;
		v[j] = old[i];
	}
	free(old);
	m->v = v;
	m->mask = cap - 1;
}

/*
 * The id of a position: from the map, else (update, or a key already
 * taken by another position) from the database, else a new row.
 */
static int64_t
position_id(struct index *c, const struct ix_batch *b, const struct ix_pos *p)
{
	struct posmap *m = &c->pm;
	const char *sfen = str(b, p->sfen);
	size_t j;
	int64_t id = 0;
	int rc;

	if (!m->mask || (m->n + 1) * 4 > (m->mask + 1) * 3)
		posmap_grow(m);
	for (j = (size_t)p->key & m->mask; m->v[j].id; j = (j + 1) & m->mask)
		if (m->v[j].key == p->key) {
			if (m->v[j].check == p->check)
				return m->v[j].id;
			break;
		}
	if (c->update || m->v[j].id) {
		sqlite3_bind_int64(c->get_pos, 1, (sqlite3_int64)p->key);
		bind_text(c->get_pos, 2, sfen);
		if ((rc = sqlite3_step(c->get_pos)) == SQLITE_ROW)
			id = sqlite3_column_int64(c->get_pos, 0);
		sqlite3_reset(c->get_pos);
		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			return sql_fail(c, "cannot read the index");
	}
	if (!id) {
		sqlite3_bind_int64(c->ins_pos, 1, (sqlite3_int64)p->key);
		sqlite3_bind_int64(c->ins_pos, 2, (sqlite3_int64)p->board_key);
		bind_text(c->ins_pos, 3, sfen);
		if (run(c, c->ins_pos) < 0)
			return -1;
		id = sqlite3_last_insert_rowid(c->db);
		c->positions++;
	}
	if (!m->v[j].id) {
		m->v[j].key = p->key;
		m->v[j].check = p->check;
		m->v[j].id = id;
		m->n++;
	}
	return id;
}

static int
write_name(struct index *c, int64_t rec, const char *field, const char *v)
{
	int64_t id;

	/* find's folding (core/fold.h), so that SQL can narrow its search. */
	strbuf_reset(&c->fold);
	fold_append(&c->fold, v, strlen(v));
	bind_text(c->ins_name, 1, field);
	bind_text(c->ins_name, 2, v);
	bind_text(c->ins_name, 3, c->fold.len ? c->fold.buf : "");
	if (sqlite3_step(c->ins_name) != SQLITE_ROW) {
		sqlite3_reset(c->ins_name);
		return sql_fail(c, "cannot write the index");
	}
	id = sqlite3_column_int64(c->ins_name, 0);
	sqlite3_reset(c->ins_name);
	sqlite3_bind_int64(c->ins_rn, 1, id);
	sqlite3_bind_int64(c->ins_rn, 2, rec);
	return run(c, c->ins_rn);
}

/* Writes the name rows t0.. of b (a record's, from add_tags) for rec. */
static int
write_tags(struct index *c, const struct ix_batch *b, size_t t0, size_t nt,
    int64_t rec)
{
	size_t i;

	for (i = t0; i < t0 + nt; i++) {
		const struct ix_tag *t = &b->t[i];

		sqlite3_bind_int64(c->ins_tag, 1, rec);
		bind_text(c->ins_tag, 2, t->side < 0 ? NULL : t->side ?
		    "white" : "black");
		bind_text(c->ins_tag, 3, t->kind);
		bind_text(c->ins_tag, 4, str(b, t->name));
		bind_text(c->ins_tag, 5, str(b, t->family));
		bind_int_or_null(c->ins_tag, 6, t->ply >= 0, t->ply);
		if (run(c, c->ins_tag) < 0)
			return -1;
	}
	return 0;
}

static int
write_record(struct index *c, const struct ix_batch *b, int64_t file,
    const struct ix_rec *x)
{
	sqlite3_stmt *st = c->ins_rec;
	int64_t rec;
	size_t i;

	sqlite3_bind_int64(st, 1, file);
	sqlite3_bind_int(st, 2, x->idx);
	bind_text(st, 3, str(b, x->format));
	bind_text(st, 4, str(b, x->encoding));
	bind_text(st, 5, str(b, x->variant));
	bind_text(st, 6, str(b, x->start));
	bind_text(st, 7, str(b, x->handicap));
	bind_text(st, 8, str(b, x->moves));
	sqlite3_bind_int(st, 9, x->plies);
	sqlite3_bind_int(st, 10, x->played);
	bind_text(st, 11, str(b, x->date));
	bind_text(st, 12, str(b, x->black));
	bind_text(st, 13, str(b, x->white));
	bind_text(st, 14, str(b, x->event));
	bind_text(st, 15, x->has_result ? winner_name(x->result.winner) : NULL);
	bind_text(st, 16, x->has_result ? reason_name(x->result.reason) : NULL);
	bind_int_or_null(st, 17, x->has_result, x->result.ply);
	bind_text(st, 18, str(b, x->rules));
	bind_text(st, 19, x->has_recorded ? winner_name(x->recorded.winner) :
	    NULL);
	bind_text(st, 20, x->has_recorded ? reason_name(x->recorded.reason) :
	    NULL);
	bind_int_or_null(st, 21, x->has_recorded, x->recorded.ply);
	bind_text(st, 22, x->ok ? "ok" : "unreadable");
	bind_text(st, 23, str(b, x->findings));
	bind_int_or_null(st, 24, x->diag_id != NONE, x->diag_line);
	bind_int_or_null(st, 25, x->diag_id != NONE, x->diag_col);
	bind_text(st, 26, str(b, x->diag_id));
	bind_text(st, 27, str(b, x->diag_message));
	sqlite3_bind_int64(st, 28, c->next_occ);
	sqlite3_bind_int64(st, 29, (sqlite3_int64)x->np);
	if (run(c, st) < 0)
		return -1;
	rec = sqlite3_last_insert_rowid(c->db);
	for (i = 0; i < x->nh; i++) {
		const struct ix_hdr *h = &b->h[x->h0 + i];
		const char *id = header_id_name((enum header_id)h->id);

		sqlite3_bind_int64(c->ins_hdr, 1, rec);
		sqlite3_bind_int(c->ins_hdr, 2, (int)i);
		bind_text(c->ins_hdr, 3, id);
		bind_text(c->ins_hdr, 4, str(b, h->key));
		bind_text(c->ins_hdr, 5, str(b, h->value));
		if (run(c, c->ins_hdr) < 0)
			return -1;
		/* What --player, --black, --white and --event look in. */
		if ((h->id == HDR_BLACK || h->id == HDR_WHITE ||
		    h->id == HDR_EVENT) &&
		    write_name(c, rec, id, str(b, h->value)) < 0)
			return -1;
	}
	if (x->nt && write_tags(c, b, x->t0, x->nt, rec) < 0)
		return -1;
	for (i = 0; i < x->np; i++) {
		const struct ix_pos *p = &b->p[x->p0 + i];
		int64_t pos = position_id(c, b, p);

		if (pos < 0)
			return -1;
		sqlite3_bind_int64(c->ins_occ, 1, c->next_occ++);
		sqlite3_bind_int64(c->ins_occ, 2, pos);
		sqlite3_bind_int64(c->ins_occ, 3, rec);
		sqlite3_bind_int(c->ins_occ, 4, p->ply);
		sqlite3_bind_int(c->ins_occ, 5, p->variation);
		bind_text(c->ins_occ, 6, str(b, p->move));
		if (run(c, c->ins_occ) < 0)
			return -1;
	}
	c->records++;
	return 0;
}

/* Drops an indexed file and its rows (positions: see drop_orphans). */
static int
drop_file(struct index *c, int64_t file)
{
	sqlite3_stmt *st = c->del_recs;
	int rc;

	sqlite3_bind_int64(st, 1, file);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t rec = sqlite3_column_int64(st, 0);
		int64_t first = sqlite3_column_int64(st, 1);
		int64_t n = sqlite3_column_int64(st, 2);

		sqlite3_bind_int64(c->del_touch, 1, first);
		sqlite3_bind_int64(c->del_touch, 2, first + n - 1);
		sqlite3_bind_int64(c->del_occ, 1, first);
		sqlite3_bind_int64(c->del_occ, 2, first + n - 1);
		sqlite3_bind_int64(c->del_rn, 1, rec);
		sqlite3_bind_int64(c->del_hdr, 1, rec);
		sqlite3_bind_int64(c->del_rec, 1, rec);
		if (c->del_tag)
			sqlite3_bind_int64(c->del_tag, 1, rec);
		if (run(c, c->del_touch) < 0 || run(c, c->del_occ) < 0 ||
		    run(c, c->del_rn) < 0 || run(c, c->del_hdr) < 0 ||
		    (c->del_tag && run(c, c->del_tag) < 0) ||
		    run(c, c->del_rec) < 0)
			break;
	}
	sqlite3_reset(st);
	if (c->failed)
		return -1;
	if (rc != SQLITE_DONE)
		return sql_fail(c, "cannot read the index");
	sqlite3_bind_int64(c->del_file, 1, file);
	return run(c, c->del_file);
}

static int
write_file(struct index *c, const struct ix_batch *b, const struct ix_file *f)
{
	sqlite3_stmt *st = c->ins_file;
	const char *path = str(b, f->path);
	struct known *k = c->update ? known_find(c, path) : NULL;
	int64_t id;
	size_t i;

	if (k && k->seen++)
		return 0;	/* named twice by the paths: once is enough */
	if (f->unchanged) {
		sqlite3_bind_int64(c->upd_file, 1, c->seq++);
		sqlite3_bind_int64(c->upd_file, 2, f->mtime);
		sqlite3_bind_int64(c->upd_file, 3, k->id);
		return run(c, c->upd_file);
	}
	if (k && drop_file(c, k->id) < 0)
		return -1;
	if (!strcmp(f->status, "io") && c->report)
		tell(c->report->warning, c->report->ctx, "cannot read '%s': %s",
		    path, str(b, f->message));
	bind_text(st, 1, path);
	sqlite3_bind_int64(st, 2, c->seq++);
	sqlite3_bind_int64(st, 3, f->size);
	sqlite3_bind_int64(st, 4, f->mtime);
	sqlite3_bind_int64(st, 5, (sqlite3_int64)f->hash);
	bind_text(st, 6, f->status);
	bind_text(st, 7, str(b, f->format));
	bind_text(st, 8, str(b, f->encoding));
	sqlite3_bind_int(st, 9, f->records);
	sqlite3_bind_int(st, 10, f->bad);
	bind_int_or_null(st, 11, f->diag_id != NONE, f->diag_line);
	bind_int_or_null(st, 12, f->diag_id != NONE, f->diag_col);
	bind_text(st, 13, str(b, f->diag_id));
	bind_text(st, 14, str(b, f->message));
	if (run(c, st) < 0)
		return -1;
	/* Named twice by overlapping paths: indexed once. */
	if (!sqlite3_changes(c->db))
		return 0;
	id = sqlite3_last_insert_rowid(c->db);
	c->files++;
	for (i = 0; i < f->nr; i++)
		if (write_record(c, b, id, &b->r[f->r0 + i]) < 0)
			return -1;
	return 0;
}

static int
emit(void *ctx, void *batch)
{
	struct index *c = ctx;
	struct ix_batch *b = batch;
	size_t i;

	for (i = 0; i < b->nf && !c->failed; i++)
		write_file(c, b, &b->f[i]);
	return c->failed;
}

static long long
done(void *ctx)
{
	return ((struct index *)ctx)->records;
}

static const struct pipeline_ops index_ops = {
	.batch_size = sizeof(struct ix_batch),
	.batch_init = batch_init,
	.batch_reset = batch_reset,
	.batch_release = batch_release,
	.worker_new = worker_new,
	.worker_free = worker_free,
	.input = input,
	.emit = emit,
	.done = done,
};

static int
prepare_all(struct index *c)
{
	static const struct {
		size_t off;
		const char *sql;
	} stmts[] = {
#define S(f, q) { offsetof(struct index, f), q }
		S(ins_file, "INSERT OR IGNORE INTO file(path, seq, size, "
		    "mtime, hash, "
		    "status, format, encoding, records, bad, diag_line, "
		    "diag_col, diag_id, message) VALUES(?, ?, ?, ?, ?, ?, ?, "
		    "?, ?, ?, ?, ?, ?, ?)"),
		S(ins_rec, "INSERT INTO record(file, idx, format, encoding, "
		    "variant, start, handicap, moves, plies, played, date, "
		    "black, white, event, winner, reason, result_ply, rules, "
		    "recorded_winner, recorded_reason, recorded_ply, status, "
		    "findings, diag_line, diag_col, diag_id, diag_message, "
		    "occ_first, occ_count) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, "
		    "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
		    "?)"),
		S(ins_hdr, "INSERT INTO header(record, ord, id, key, value) "
		    "VALUES(?, ?, ?, ?, ?)"),
		S(ins_name, "INSERT INTO name(field, value, folded) VALUES(?, "
		    "?, ?) ON CONFLICT(field, value) DO UPDATE SET field = "
		    "field RETURNING id"),
		S(ins_rn, "INSERT OR IGNORE INTO record_name(name, record) "
		    "VALUES(?, ?)"),
		S(ins_pos, "INSERT INTO position(key, board_key, sfen) "
		    "VALUES(?, ?, ?)"),
		S(ins_occ, "INSERT INTO occurrence(id, position, record, ply, "
		    "variation, move) VALUES(?, ?, ?, ?, ?, ?)"),
		S(get_pos, "SELECT id FROM position WHERE key = ? AND "
		    "sfen = ?"),
		S(upd_file, "UPDATE file SET seq = ?, mtime = ? WHERE id = ?"),
		S(del_recs, "SELECT id, occ_first, occ_count FROM record "
		    "WHERE file = ?"),
		S(del_touch, "INSERT OR IGNORE INTO touched SELECT position "
		    "FROM occurrence WHERE id BETWEEN ? AND ?"),
		S(del_occ, "DELETE FROM occurrence WHERE id BETWEEN ? AND ?"),
		S(del_rn, "DELETE FROM record_name WHERE record = ?1 AND name "
		    "IN (SELECT n.id FROM header h JOIN name n ON n.field = "
		    "h.id AND n.value = h.value WHERE h.record = ?1)"),
		S(del_hdr, "DELETE FROM header WHERE record = ?"),
		S(del_rec, "DELETE FROM record WHERE id = ?"),
		S(del_file, "DELETE FROM file WHERE id = ?"),
		S(ins_tag, "INSERT INTO tag(record, side, kind, name, family, "
		    "ply) VALUES(?, ?, ?, ?, ?, ?)"),
		S(del_tag, "DELETE FROM tag WHERE record = ?"),
#undef S
	};
	size_t i;

	if (exec(c, "CREATE TEMP TABLE touched(id INTEGER PRIMARY KEY)") < 0)
		return -1;
	for (i = 0; i < sizeof(stmts) / sizeof(stmts[0]); i++) {
		sqlite3_stmt **st = (sqlite3_stmt **)((char *)c +
		    stmts[i].off);

		/* An index of version 1 has no names to write or drop. */
		if (!c->tags && (st == &c->ins_tag || st == &c->del_tag))
			continue;
		if (sqlite3_prepare_v2(c->db, stmts[i].sql, -1, st, NULL) !=
		    SQLITE_OK)
			return sql_fail(c, "cannot prepare the index");
	}
	return 0;
}

static void
finalize_all(struct index *c)
{
	sqlite3_stmt **st[] = {
		&c->ins_file, &c->ins_rec, &c->ins_hdr, &c->ins_name,
		&c->ins_rn, &c->ins_pos, &c->ins_occ, &c->get_pos,
		&c->upd_file, &c->del_recs, &c->del_touch, &c->del_occ,
		&c->del_hdr, &c->del_rn, &c->del_rec, &c->del_file,
		&c->ins_tag, &c->del_tag
	};
	size_t i;

	for (i = 0; i < sizeof(st) / sizeof(st[0]); i++) {
		sqlite3_finalize(*st[i]);
		*st[i] = NULL;
	}
}

/* --- build ------------------------------------------------------------- */

/* Temporary files of builds that died: "<out>.tmp.<pid>", pid gone. */
static void
clean_stale(const struct index *c, const char *out)
{
	char *dir = xstrndup(out, strlen(out)), *slash = strrchr(dir, '/');
	const char *base = slash ? slash + 1 : out;
	size_t blen = strlen(base);
	struct dirent *de;
	DIR *d;

	if (slash)
		*slash = '\0';
	if (!(d = opendir(slash ? (*dir ? dir : "/") : "."))) {
		free(dir);
		return;
	}
	while ((de = readdir(d))) {
		const char *p = de->d_name;
		long pid;
		char *end;

		if (strncmp(p, base, blen) || strncmp(p + blen, ".tmp.", 5))
			continue;
		pid = strtol(p + blen + 5, &end, 10);
		/* Only a build that is gone: another may be running. */
		if (*end || pid <= 0 || kill((pid_t)pid, 0) == 0 ||
		    errno != ESRCH)
			continue;
		{
			struct strbuf sb = STRBUF_INIT;

			if (slash)
				strbuf_addf(&sb, "%s/", *dir ? dir : "");
			strbuf_adds(&sb, p);
			if (unlink(sb.buf) == 0 && c->report)
				tell(c->report->note, c->report->ctx, "removed "
				    "'%s', left by a build that did not finish",
				    sb.buf);
			strbuf_release(&sb);
		}
	}
	closedir(d);
	free(dir);
}

static int
fsync_path(const char *path, int dir)
{
	int fd = open(path, dir ? O_RDONLY | O_DIRECTORY : O_RDONLY), rc;

	if (fd < 0)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

static int
write_meta(struct index *c, const char *key, const char *value)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(c->db, "INSERT OR REPLACE INTO meta(key, value) "
	    "VALUES(?, ?)", -1, &st, NULL) != SQLITE_OK)
		return sql_fail(c, "cannot write the index");
	bind_text(st, 1, key);
	bind_text(st, 2, value);
	rc = run(c, st);
	sqlite3_finalize(st);
	return rc;
}

static int
write_roots(struct index *c, char *const *paths, int n, int first)
{
	sqlite3_stmt *st = NULL;
	int i, rc = 0;

	if (sqlite3_prepare_v2(c->db, "INSERT INTO root(ord, path) "
	    "VALUES(?, ?)", -1, &st, NULL) != SQLITE_OK)
		return sql_fail(c, "cannot write the index");
	for (i = 0; i < n && !rc; i++) {
		sqlite3_bind_int(st, 1, first + i);
		bind_text(st, 2, paths[i]);
		rc = run(c, st);
	}
	sqlite3_finalize(st);
	return rc;
}

/*
 * The definitions the names were made with: the file's text (empty for
 * kifu's own alone), so that update, and find --db checking the names it
 * is asked for, use the same.
 */
static int
write_tag_meta(struct index *c, const struct indexdb_tags *tags)
{
	return write_meta(c, "tag-definitions", tags && tags->text ?
	    tags->text : "") < 0 || write_meta(c, "tag-definitions-file",
	    tags && tags->file ? tags->file : "") < 0 ? -1 : 0;
}

static int
has_relative(char *const *paths, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (paths[i][0] != '/')
			return 1;
	return 0;
}

/* The state of one run, from its options; why must be set by the caller. */
static void
index_init(struct index *c, const struct indexdb_run *run)
{
	memset(c, 0, sizeof(*c));
	c->jo = *run->judge;
	c->jo.no_result_check = 1;
	c->report = run->report;
	strbuf_init(&c->fold);
}

static void
index_release(struct index *c)
{
	size_t i;

	finalize_all(c);
	if (c->db)
		sqlite3_close(c->db);
	c->db = NULL;
	strbuf_release(&c->fold);
	for (i = 0; i < c->nknown; i++)
		free(c->known[i].path);
	free(c->known);
	free(c->pm.v);
}

static void
counts_of(const struct index *c, double t0, struct indexdb_counts *n)
{
	n->files = c->files;
	n->records = c->records;
	n->positions = c->positions;
	n->seconds = clock_now() - t0;
}

/* The walk, through the pipeline; 0, or -1 after a failure said in why. */
static int
walk(struct index *c, const struct indexdb_run *run, char *const *paths,
    int npaths)
{
	int stopped = 0;

	if (pipeline_run(run->walk, &index_ops, c, paths, npaths, 0, 0,
	    &stopped, NULL) < 0) {
		strbuf_addf_line(c->why, "cannot start a thread: %s",
		    strerror(errno));
		return -1;
	}
	return c->failed ? -1 : 0;
}

int
indexdb_build(const char *out, char *const *paths, int npaths,
    const char *options, int force, const struct indexdb_run *run,
    struct indexdb_counts *counts, struct strbuf *why)
{
	struct strbuf tmp = STRBUF_INIT, scratch = STRBUF_INIT;
	struct index idx, *c = &idx;
	char cwd[PATH_MAX];
	double t0 = clock_now();
	int rc = -1;
	struct stat st;

	index_init(c, run);
	c->why = why ? why : &scratch;
	if (stat(out, &st) == 0) {
		if (!S_ISREG(st.st_mode) || !indexdb_is_index(out)) {
			strbuf_addf_line(c->why, "'%s' exists and is not "
			    "a kifu index: not replaced", out);
			goto out;
		}
		if (!force) {
			strbuf_addf_line(c->why, "'%s' exists: kifu index "
			    "update brings it up to date, --force builds it "
			    "again", out);
			goto out;
		}
	}
	if (!getcwd(cwd, sizeof(cwd))) {
		strbuf_addf_line(c->why, "cannot tell the current "
		    "directory: %s", strerror(errno));
		goto out;
	}
	c->defs = run->tags && run->tags->defs ? run->tags->defs :
	    tagdefs_default();
	c->tags = 1;
	clean_stale(c, out);
	strbuf_addf(&tmp, "%s.tmp.%ld", out, (long)getpid());
	unlink(tmp.buf);
	/* One thread (the emit) uses the connection: no mutex for it. */
	if (sqlite3_open_v2(tmp.buf, &c->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		strbuf_addf_line(c->why, "cannot create '%s': %s",
		    tmp.buf, sqlite3_errmsg(c->db));
		goto out;
	}
	c->path = tmp.buf;
	c->next_occ = 1;
	/*
	 * Nothing to protect in the temporary file: a crash leaves it
	 * behind, never the target, so no journal and no syncs until the
	 * end. Pages of 16 KiB hold four times the rows of the default
	 * 4 KiB: a build of 20,000 games took 9.2 s against 10.0 s, and
	 * the queries stay as fast.
	 */
	if (exec(c, "PRAGMA page_size = 16384; PRAGMA journal_mode = OFF; "
	    "PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE; "
	    "PRAGMA cache_size = -262144; PRAGMA temp_store = FILE; "
	    "BEGIN") < 0 ||
	    exec(c, indexdb_schema) < 0 || prepare_all(c) < 0 ||
	    write_meta(c, "kifu-version", KIFU_VERSION) < 0 ||
	    write_meta(c, "options", options) < 0 ||
	    write_tag_meta(c, run->tags) < 0 ||
	    write_meta(c, "directory", cwd) < 0 ||
	    write_roots(c, paths, npaths, 0) < 0 ||
	    walk(c, run, paths, npaths) < 0)
		goto out;
	finalize_all(c);
	/*
	 * The indexes are sorted in runs the size of the page cache, spilled
	 * to temporary files ($TMPDIR) and merged: on 20,000 games, 3.4 s for
	 * the three over positions, against 6.3 s with the runs in memory
	 * (temp_store = MEMORY) and 8 s with the inserts' large cache.
	 */
	if (exec(c, "COMMIT; PRAGMA cache_size = -4096; BEGIN") < 0 ||
	    exec(c, indexdb_indexes) < 0 ||
	    exec(c, "COMMIT; PRAGMA analysis_limit = 1000; ANALYZE") < 0)
		goto out;
	{
		char sql[128];

		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d; "
		    "PRAGMA application_id = %d; PRAGMA journal_mode = WAL",
		    INDEXDB_VERSION, INDEXDB_APP_ID);
		if (exec(c, sql) < 0)
			goto out;
	}
	if (sqlite3_close(c->db) != SQLITE_OK) {
		indexdb_why(c->why, c->db, tmp.buf,
		    "cannot close the index");
		goto out;
	}
	c->db = NULL;
	{
		char *dir = xstrndup(out, strlen(out)), *slash = strrchr(dir, '/');

		if (slash)
			slash[1] = '\0';
		if (fsync_path(tmp.buf, 0) < 0 ||
		    rename(tmp.buf, out) < 0 ||
		    fsync_path(slash ? dir : ".", 1) < 0) {
			strbuf_addf_line(c->why, "cannot put the index in "
			    "place at '%s': %s", out, strerror(errno));
			free(dir);
			goto out;
		}
		free(dir);
	}
	/* The whole build, indexes and sync included: what a user waits. */
	counts_of(c, t0, counts);
	rc = 0;
out:
	index_release(c);
	if (rc && tmp.len)
		unlink(tmp.buf);
	strbuf_release(&tmp);
	strbuf_release(&scratch);
	return rc;
}

/* --- update ------------------------------------------------------------ */

struct indexdb_update {
	struct index c;		/* db and path open; the rest set by run */
	char *options, *dir;	/* the build's */
	const struct tagdefs *defs;	/* the build's names, if stored */
	struct strbuf scratch;	/* why, when the caller gives none */
	double t0;
};

static int
load_known(struct index *c)
{
	sqlite3_stmt *st = prepare(c, "SELECT id, path, size, mtime, hash "
	    "FROM file");
	size_t alloc = 0;
	int rc, bad = 0;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct known *k;

		ALLOC_GROW(c->known, c->nknown + 1, alloc);
		k = &c->known[c->nknown];
		k->id = indexdb_int(st, 0, 1, LLONG_MAX, &bad);
		k->path = dupstr(indexdb_text(st, 1, &bad));
		c->nknown++;
		k->size = indexdb_int(st, 2, 0, LLONG_MAX, &bad);
		k->mtime = indexdb_int(st, 3, LLONG_MIN, LLONG_MAX, &bad);
		k->hash = (uint64_t)indexdb_int(st, 4, LLONG_MIN, LLONG_MAX,
		    &bad);
		k->seen = 0;
		if (bad)
			break;
	}
	sqlite3_finalize(st);
	if (bad) {
		strbuf_addf_line(c->why, "'%s' is a damaged kifu index: "
		    "a file row of the wrong type", c->path);
		return -1;
	}
	if (rc != SQLITE_DONE) {
		indexdb_why(c->why, c->db, c->path,
		    "cannot read the index");
		return -1;
	}
	if (c->nknown)
		qsort(c->known, c->nknown, sizeof(*c->known), by_path);
	return 0;
}

static int
load_roots(struct index *c, char ***roots, int *nroots)
{
	sqlite3_stmt *st = prepare(c, "SELECT path FROM root ORDER BY ord");
	size_t alloc = 0, n = 0;
	int rc, bad = 0;

	*roots = NULL;
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && !bad) {
		const char *p = indexdb_text(st, 0, &bad);

		ALLOC_GROW(*roots, n + 1, alloc);
		(*roots)[n++] = dupstr(p);
	}
	sqlite3_finalize(st);
	*nroots = (int)n;
	if (bad || (rc != SQLITE_DONE && rc != SQLITE_ROW)) {
		strbuf_addf_line(c->why, "'%s' is a damaged kifu index: "
		    "its paths cannot be read", c->path);
		return -1;
	}
	return 0;
}

struct indexdb_update *
indexdb_update_open(const char *path, struct strbuf *why)
{
	struct indexdb_update *u = xcalloc(1, sizeof(*u));
	struct index *c = &u->c;

	u->t0 = clock_now();
	strbuf_init(&u->scratch);
	strbuf_init(&c->fold);
	c->why = why ? why : &u->scratch;
	c->path = path;
	if (!(c->db = indexdb_open(path, 1, c->why)))
		goto fail;
	if (!(u->options = indexdb_meta(c->db, "options")) ||
	    !(u->dir = indexdb_meta(c->db, "directory"))) {
		strbuf_addf_line(c->why, "'%s' is a damaged kifu index: "
		    "its build options are missing", path);
		goto fail;
	}
	return u;
fail:
	indexdb_update_close(u);
	return NULL;
}

const char *
indexdb_update_options(const struct indexdb_update *u)
{
	return u->options;
}

void
indexdb_update_close(struct indexdb_update *u)
{
	if (!u)
		return;
	index_release(&u->c);
	tagdefs_put(u->defs);
	free(u->options);
	free(u->dir);
	strbuf_release(&u->scratch);
	free(u);
}

int
indexdb_update_run(struct indexdb_update *u, char *const *paths, int npaths,
    const struct indexdb_run *run, struct indexdb_counts *counts,
    struct strbuf *why)
{
	struct index *c = &u->c;
	char **roots = NULL;
	char cwd[PATH_MAX];
	int nroots = 0, nold, i, k, rc = -1;

	/* The connection and the path stay; the rest is this run's. */
	c->jo = *run->judge;
	c->jo.no_result_check = 1;
	c->report = run->report;
	c->why = why ? why : &u->scratch;
	if (indexdb_version(c->db) < 2) {
		if (c->report && c->report->note) {
			struct strbuf msg = STRBUF_INIT;

			strbuf_addf(&msg, "'%s' has no openings and castles "
			    "(schema version %d): kifu index retag adds them",
			    c->path, indexdb_version(c->db));
			c->report->note(c->report->ctx, msg.buf);
			strbuf_release(&msg);
		}
	} else {
		if (!u->defs && !(u->defs = indexdb_tagdefs(c->db, c->path,
		    c->why)))
			goto out;
		c->defs = u->defs;
		c->tags = 1;
	}
	if (load_roots(c, &roots, &nroots) < 0)
		goto out;
	nold = nroots;
	for (i = 0; i < npaths; i++) {
		for (k = 0; k < nroots && strcmp(roots[k], paths[i]); k++)
			;
		if (k < nroots)
			continue;
		roots = xreallocarray(roots, (size_t)nroots + 1, sizeof(*roots));
		roots[nroots++] = dupstr(paths[i]);
	}
	if (has_relative(roots, nroots) && (!getcwd(cwd, sizeof(cwd)) ||
	    strcmp(cwd, u->dir))) {
		strbuf_addf_line(c->why, "'%s' indexes paths relative to "
		    "'%s': run kifu index update from there", c->path, u->dir);
		goto out;
	}
	if (exec(c, "PRAGMA journal_mode = WAL; PRAGMA cache_size = -262144; "
	    "BEGIN IMMEDIATE") < 0 || prepare_all(c) < 0 ||
	    load_known(c) < 0)
		goto out;
	{
		sqlite3_stmt *st = prepare(c, "SELECT coalesce(max(id), 0) + 1 "
		    "FROM occurrence");
		int bad = 0;

		if (!st || sqlite3_step(st) != SQLITE_ROW) {
			sqlite3_finalize(st);
			goto fail;
		}
		c->next_occ = indexdb_int(st, 0, 1, LLONG_MAX, &bad);
		sqlite3_finalize(st);
		if (bad)
			goto fail;
	}
	c->update = 1;
	if (write_roots(c, roots + nold, nroots - nold, nold) < 0 ||
	    walk(c, run, roots, nroots) < 0)
		goto fail;
	for (i = 0; i < (int)c->nknown; i++)
		if (!c->known[i].seen && drop_file(c, c->known[i].id) < 0)
			goto fail;
	/* Positions no record reaches any more. */
	finalize_all(c);
	if (exec(c, "DELETE FROM position WHERE id IN (SELECT id FROM "
	    "touched) AND NOT EXISTS (SELECT 1 FROM occurrence o WHERE "
	    "o.position = position.id); DELETE FROM name WHERE NOT EXISTS "
	    "(SELECT 1 FROM record_name r WHERE r.name = name.id); "
	    "COMMIT") < 0)
		goto fail;
	counts_of(c, u->t0, counts);
	rc = 0;
	goto out;
fail:
	if (!c->failed)
		indexdb_why(c->why, c->db, c->path,
		    "cannot update the index");
	sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
out:
	finalize_all(c);
	for (i = 0; i < nroots; i++)
		free(roots[i]);
	free(roots);
	return rc;
}

/* --- retag ------------------------------------------------------------ */

/*
 * A stored record, its start and main line, read back as a record: what
 * the names are made from. Returns 0, or -1 when it does not read.
 */
static int
stored_record(struct record *r, const char *variant, const char *start,
    const char *moves)
{
	const struct variant *v = variant_by_name(variant);
	struct strbuf src = STRBUF_INIT;
	struct diag_list dl = DIAG_LIST_INIT;
	struct text t;
	struct reader rd;
	int rc = -1;

	if (!v)
		return -1;
	text_init(&t);
	strbuf_addf(&src, "sfen %s%s%s\n", start, *moves ? " moves " : "",
	    moves);
	record_reset(r, v);
	if (text_from_utf8(&t, src.buf, src.len, &dl) == 0) {
		reader_init(&rd, &t, v);
		rc = usi_read(&rd, r, &dl) == READ_OK ? 0 : -1;
	}
	text_release(&t);
	strbuf_release(&src);
	diag_list_release(&dl);
	return rc;
}

int
indexdb_retag(const char *path, const struct indexdb_tags *tags,
    long long *named, int *was, struct strbuf *why)
{
	struct strbuf scratch = STRBUF_INIT;
	struct index idx, *c = &idx;
	struct ix_batch b;
	struct record r;
	struct tagger *tg = NULL;
	sqlite3_stmt *st = NULL;
	int rc = -1, step, bad = 0;
	char sql[64];
	size_t why0;

	memset(c, 0, sizeof(*c));
	strbuf_init(&c->fold);
	c->why = why ? why : &scratch;
	why0 = c->why->len;
	c->path = path;
	*named = 0;
	memset(&b, 0, sizeof(b));
	strbuf_init(&b.s);
	record_init(&r, variant_standard());
	if (!(c->db = indexdb_open(path, 1, c->why)))
		goto out;
	*was = indexdb_version(c->db);
	c->defs = tags && tags->defs ? tags->defs : tagdefs_default();
	c->tags = 1;
	tg = tagger_new(c->defs);
	if (exec(c, "PRAGMA journal_mode = WAL; BEGIN IMMEDIATE") < 0 ||
	    exec(c, indexdb_tag_schema) < 0 ||
	    exec(c, "DELETE FROM tag") < 0 ||
	    !(c->ins_tag = prepare(c, "INSERT INTO tag(record, side, kind, "
	    "name, family, ply) VALUES(?, ?, ?, ?, ?, ?)")) ||
	    !(st = prepare(c, "SELECT id, variant, start, moves FROM record "
	    "WHERE status = 'ok' ORDER BY id")))
		goto fail;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t rec = indexdb_int(st, 0, 1, LLONG_MAX, &bad);
		const char *variant = indexdb_text(st, 1, &bad);
		const char *start = indexdb_text(st, 2, &bad);
		const char *moves = indexdb_text(st, 3, &bad);
		const struct tag_result *res;

		if (bad || stored_record(&r, variant, start, moves) < 0) {
			strbuf_addf_line(c->why, "'%s' is a damaged kifu "
			    "index: record %lld does not read back", path,
			    (long long)rec);
			goto fail;
		}
		res = tagger_record(tg, &r, NULL);
		strbuf_reset(&b.s);
		b.nt = 0;
		add_tags(&b, c->defs, res);
		*named += res->named;
		if (write_tags(c, &b, 0, b.nt, rec) < 0)
			goto fail;
	}
	if (step != SQLITE_DONE)
		goto fail;
	sqlite3_finalize(st);
	st = NULL;
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d",
	    INDEXDB_VERSION);
	if (exec(c, indexdb_tag_indexes) < 0 || write_tag_meta(c, tags) < 0 ||
	    exec(c, sql) < 0 || exec(c, "COMMIT") < 0)
		goto fail;
	rc = 0;
	goto out;
fail:
	if (c->why->len == why0)
		indexdb_why(c->why, c->db, path, "cannot retag the index");
	sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
out:
	sqlite3_finalize(st);
	index_release(c);
	tagger_free(tg);
	record_release(&r);
	strbuf_release(&b.s);
	free(b.t);
	strbuf_release(&scratch);
	return rc;
}
