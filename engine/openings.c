/*
 * openings.c - a match's openings (openings.h): read, replayed, checked.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "openings.h"
#include "api/input.h"
#include "api/judge.h"
#include "parsers/book.h"
#include "core/movegen.h"
#include "core/rules.h"
#include "core/sfen.h"
#include "core/strbuf.h"
#include "core/usi.h"
#include "core/xalloc.h"

void
openings_init(struct openings *o)
{
	memset(o, 0, sizeof(*o));
}

void
openings_release(struct openings *o)
{
	size_t i;

	for (i = 0; i < o->n; i++) {
		free(o->v[i].moves);
		free(o->v[i].where);
	}
	free(o->v);
	openings_init(o);
}

static struct opening *
add(struct openings *o, const struct position *start, const move *m, int n,
    const char *where)
{
	struct opening *op;

	if (o->n == o->alloc) {
		o->alloc = o->alloc ? 2 * o->alloc : 16;
		o->v = xreallocarray(o->v, o->alloc, sizeof(*o->v));
	}
	op = &o->v[o->n++];
	op->start = *start;
	op->nmoves = n;
	op->moves = xreallocarray(NULL, n ? (size_t)n : 1, sizeof(move));
	if (n)
		memcpy(op->moves, m, (size_t)n * sizeof(move));
	op->where = xstrndup(where, strlen(where));
	return op;
}

void
openings_add_start(struct openings *o, const struct variant *v)
{
	struct position p;

	position_set_start(&p, v);
	add(o, &p, NULL, 0, "");
}

/* Drops what was added after the first `keep` openings. */
static void
truncate_to(struct openings *o, size_t keep)
{
	while (o->n > keep) {
		o->n--;
		free(o->v[o->n].moves);
		free(o->v[o->n].where);
	}
}

static int
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static const char *
skip(const char *p, const char *end)
{
	while (p < end && is_blank(*p))
		p++;
	return p;
}

static int
starts_word(const char *p, const char *end, const char *w)
{
	size_t n = strlen(w);

	return (size_t)(end - p) >= n && !memcmp(p, w, n) &&
	    ((size_t)(end - p) == n || is_blank(p[n]));
}

/* Whether the text reads as openings lines: its first line says so. */
static int
is_lines(const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	if (len >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end, *q = skip(p, e);

		if (q < e && *q != '#')
			return starts_word(q, e, "position") ||
			    starts_word(q, e, "startpos") ||
			    starts_word(q, e, "sfen");
		p = nl ? nl + 1 : end;
	}
	return 1;	/* empty, or comments only: no openings */
}

/* The position and moves after `plies` of them; -1 with why. */
static int
finish(const struct position *start, move *moves, int n, char *why,
    size_t wn)
{
	struct position p = *start;
	struct undo u;
	int i;

	for (i = 0; i < n; i++)
		position_do_move(&p, moves[i], &u);
	if (movegen_count(&p) == 0) {
		snprintf(why, wn, "the side to move has no legal move after "
		    "the opening: no game can be played from it");
		return -1;
	}
	return 0;
}

/* One line: [position] startpos|sfen ... [moves ...]. */
static int
read_line(struct openings *o, const char *p, const char *end,
    const struct variant *v, int plies, const char *where, char *why,
    size_t wn)
{
	struct position start, pos;
	struct sfen_error se;
	move *moves = NULL;
	int n = 0, alloc = 0, rc = -1;
	char *sfen;

	p = skip(p, end);
	if (starts_word(p, end, "position"))
		p = skip(p + 8, end);
	if (starts_word(p, end, "startpos")) {
		position_set_start(&start, v);
		p += 8;
	} else if (starts_word(p, end, "sfen")) {
		size_t used = 0;
		const struct variant *bv;

		p = skip(p + 4, end);
		bv = sfen_board_variant(p, (size_t)(end - p));
		if (bv && bv != v) {
			snprintf(why, wn, "a %s position in a %s match",
			    bv->name, v->name);
			return -1;
		}
		sfen = xstrndup(p, (size_t)(end - p));
		if (sfen_read_prefix(&start, v, sfen, &used, &se) != SFEN_OK) {
			snprintf(why, wn, "bad SFEN: %s", se.message);
			free(sfen);
			return -1;
		}
		free(sfen);
		p += used;
	} else {
		snprintf(why, wn, "an opening is 'startpos' or 'sfen ...', "
		    "with or without 'position' before it");
		return -1;
	}
	p = skip(p, end);
	pos = start;
	if (p < end) {
		if (!starts_word(p, end, "moves")) {
			snprintf(why, wn, "'%.*s' where 'moves' or the end of "
			    "the line was expected", (int)(end - p > 20 ? 20 :
			    end - p), p);
			return -1;
		}
		p += 5;
	}
	for (;;) {
		const char *w;
		struct move_claim cl;
		struct undo u;
		enum rule_id r;
		move m;

		p = skip(p, end);
		if (p >= end)
			break;
		w = p;
		while (p < end && !is_blank(*p))
			p++;
		if (plies >= 0 && n >= plies)
			break;
		if (usi_parse_move(v, w, (size_t)(p - w), &cl) != 0) {
			snprintf(why, wn, "'%.*s' is not a USI move",
			    (int)(p - w > 20 ? 20 : p - w), w);
			goto out;
		}
		if ((r = rules_check_move(&pos, &cl, &m)) != RULE_OK) {
			snprintf(why, wn, "move %d %.*s is illegal: %s [%s]",
			    n + 1, (int)(p - w), w, rule_description(r),
			    rule_id_name(r));
			goto out;
		}
		if (n == alloc) {
			alloc = alloc ? 2 * alloc : 32;
			moves = xreallocarray(moves, (size_t)alloc,
			    sizeof(*moves));
		}
		moves[n++] = m;
		position_do_move(&pos, m, &u);
	}
	if (finish(&start, moves, n, why, wn) == 0) {
		add(o, &start, moves, n, where);
		rc = 0;
	}
out:
	free(moves);
	return rc;
}

static int
read_lines(struct openings *o, const char *name, const char *text,
    size_t len, const struct variant *v, int plies, char *err, size_t n)
{
	const char *p = text, *end = text + len;
	unsigned long line = 0;

	if (len >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end, *q = skip(p, e);
		char where[512], why[256];

		line++;
		if (q < e && *q != '#') {
			snprintf(where, sizeof(where), "%s:%lu", name, line);
			if (read_line(o, q, e, v, plies, where, why,
			    sizeof(why)) < 0) {
				snprintf(err, n, "%s: %s", where, why);
				return -1;
			}
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
}

struct from_records {
	struct openings *o;
	int plies;
	char *err;
	size_t n;
	int failed;
};

static void
take_record(void *ctx, const struct verdict *vd)
{
	struct from_records *fr = ctx;
	const struct diag *d = verdict_error(vd);
	const struct record *r = vd->r;
	move *moves = NULL;
	int32_t node;
	int k = 0, alloc = 0, line;
	char where[512], why[256];

	if (fr->failed || vd->skipped)
		return;
	line = r ? (int)r->loc.line : 0;
	if (!vd->rp) {
		snprintf(fr->err, fr->n, "%s:%u: %s", vd->file,
		    d ? d->loc.line : 0u, d ? d->message : "no record could "
		    "be read");
		fr->failed = 1;
		return;
	}
	/* An illegal move counts only within the plies taken. */
	if (vd->rp->illegal >= 0 && (fr->plies < 0 ||
	    r->nodes[vd->rp->illegal].ply <= fr->plies)) {
		const struct record_node *nd = &r->nodes[vd->rp->illegal];

		snprintf(fr->err, fr->n, "%s:%u: move %d is illegal: %s [%s]",
		    vd->file, nd->loc.line, nd->ply,
		    rule_description((enum rule_id)nd->rule),
		    rule_id_name((enum rule_id)nd->rule));
		fr->failed = 1;
		return;
	}
	for (node = r->nodes[0].next; node >= 0 && (fr->plies < 0 ||
	    k < fr->plies); node = r->nodes[node].next) {
		const struct record_node *nd = &r->nodes[node];

		if (nd->special != SP_NONE || !nd->mv)
			break;
		if (k == alloc) {
			alloc = alloc ? 2 * alloc : 32;
			moves = xreallocarray(moves, (size_t)alloc,
			    sizeof(*moves));
		}
		moves[k++] = nd->mv;
	}
	snprintf(where, sizeof(where), "%s:%d", vd->file, line ? line : 1);
	if (finish(&r->start, moves, k, why, sizeof(why)) < 0) {
		snprintf(fr->err, fr->n, "%s: %s", where, why);
		fr->failed = 1;
	} else {
		add(fr->o, &r->start, moves, k, where);
	}
	free(moves);
}

int
openings_read(struct openings *o, const char *name, const char *text,
    size_t len, const struct variant *v, int plies, char *err, size_t n)
{
	size_t keep = o->n;
	struct from_records fr;
	struct judge_opts jo;
	struct judge j;
	struct strbuf data = STRBUF_INIT;

	if (is_lines(text, len)) {
		if (read_lines(o, name, text, len, v, plies, err, n) < 0) {
			truncate_to(o, keep);
			return -1;
		}
		return 0;
	}
	memset(&jo, 0, sizeof(jo));
	jo.variant = v;
	jo.no_result_check = 1;
	memset(&fr, 0, sizeof(fr));
	fr.o = o;
	fr.plies = plies < 0 ? OPENINGS_RECORD_PLIES : plies;
	fr.err = err;
	fr.n = n;
	strbuf_add(&data, text, len);
	judge_init(&j, &jo);
	judge_bytes(&j, name, name, &data, 0, take_record, &fr);
	judge_release(&j);
	strbuf_release(&data);
	if (fr.failed) {
		truncate_to(o, keep);
		return -1;
	}
	return 0;
}

void
opening_usi(const struct opening *op, char *buf, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	char sfen[SFEN_MAX], mv[USI_MOVE_MAX];
	int i;

	sfen_write(&op->start, sfen);
	strbuf_addf(&sb, "sfen %s", sfen);
	if (op->nmoves)
		strbuf_adds(&sb, " moves");
	for (i = 0; i < op->nmoves; i++) {
		usi_format_move(op->moves[i], mv);
		strbuf_addf(&sb, " %s", mv);
	}
	snprintf(buf, n, "%s", sb.buf ? sb.buf : "");
	strbuf_release(&sb);
}

static unsigned long long splitmix(unsigned long long *s);

/* --- DB2016 books ------------------------------------------------------- */

struct book_move_w {
	move m;
	long long count;
};

struct book_pos {
	char *key;		/* sfen_write_key's text */
	struct book_move_w *mv;
	size_t n, alloc;
};

int
openings_is_book(const char *text, size_t len)
{
	size_t h = strlen(BOOK_HEADER);

	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
		text += 3;
		len -= 3;
	}
	const char *p = text, *end = text + len;
	int sfens = 0;

	if (len >= h && !memcmp(text, BOOK_HEADER, h))
		return 1;
	/* No header (ShogiHome writes none): a position line, then a line
	   that is no opening line: a move of the book. */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end, *q = skip(p, e);

		if (q < e && *q != '#' && !(e - q >= 2 && q[0] == '/' &&
		    q[1] == '/')) {
			if (!sfens && !starts_word(q, e, "sfen"))
				return 0;
			if (sfens)
				return !starts_word(q, e, "sfen") &&
				    !starts_word(q, e, "startpos") &&
				    !starts_word(q, e, "position");
			sfens++;
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
}

static int
cmp_pos(const void *a, const void *b)
{
	return strcmp(((const struct book_pos *)a)->key,
	    ((const struct book_pos *)b)->key);
}

static void
free_book(struct book_pos *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].key);
		free(v[i].mv);
	}
	free(v);
}

/* Reads and judges the book; -1 with err. */
static int
load_book(const char *name, const char *text, size_t len,
    const struct variant *v, struct book_pos **out, size_t *nout, char *err,
    size_t n)
{
	const char *p = text, *end = text + len;
	struct book_pos *bp = NULL, *cur = NULL;
	struct position pos;
	size_t np = 0, ap = 0;
	unsigned long line = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = (size_t)((nl ? nl : end) - p);
		struct book_line bl;
		struct book_error be;

		line++;
		if (book_parse_line(p, ll, line, line == 1, &bl, &be) < 0) {
			snprintf(err, n, "%s:%lu:%zu: %s", name, be.line, be.col,
			    be.message);
			goto bad;
		}
		if (bl.type == BOOK_POSITION) {
			struct sfen_error se;
			char *sfen = xstrndup(bl.text.p, bl.text.n), key[SFEN_MAX];

			if (sfen_read(&pos, v, sfen, &se) != SFEN_OK) {
				snprintf(err, n, "%s:%lu: bad SFEN: %s", name,
				    line, se.message);
				free(sfen);
				goto bad;
			}
			free(sfen);
			if (np == ap) {
				ap = ap ? 2 * ap : 64;
				bp = xreallocarray(bp, ap, sizeof(*bp));
			}
			cur = &bp[np++];
			memset(cur, 0, sizeof(*cur));
			sfen_write_key(&pos, key);
			cur->key = xstrndup(key, strlen(key));
		} else if (bl.type == BOOK_MOVE) {
			struct move_claim cl;
			enum rule_id r;
			move m;

			if (!cur) {
				snprintf(err, n, "%s:%lu: a move before any "
				    "position", name, line);
				goto bad;
			}
			if (usi_parse_move(v, bl.text.p, bl.text.n, &cl) != 0) {
				snprintf(err, n, "%s:%lu: '%.*s' is not a USI "
				    "move", name, line, (int)(bl.text.n > 20 ?
				    20 : bl.text.n), bl.text.p);
				goto bad;
			}
			if ((r = rules_check_move(&pos, &cl, &m)) != RULE_OK) {
				snprintf(err, n, "%s:%lu: move %.*s is illegal: "
				    "%s [%s]", name, line, (int)bl.text.n,
				    bl.text.p, rule_description(r),
				    rule_id_name(r));
				goto bad;
			}
			if (cur->n == cur->alloc) {
				cur->alloc = cur->alloc ? 2 * cur->alloc : 8;
				cur->mv = xreallocarray(cur->mv, cur->alloc,
				    sizeof(*cur->mv));
			}
			cur->mv[cur->n].m = m;
			cur->mv[cur->n++].count = bl.count > 0 ? bl.count : 0;
		}
		p = nl ? nl + 1 : end;
	}
	if (np)
		qsort(bp, np, sizeof(*bp), cmp_pos);
	*out = bp;
	*nout = np;
	return 0;
bad:
	free_book(bp, np);
	return -1;
}

int
openings_read_book(struct openings *o, const char *name, const char *text,
    size_t len, const struct variant *v, int plies, size_t count,
    unsigned long long seed, char *err, size_t n)
{
	struct book_pos *bp, probe;
	size_t np, i, keep = o->n;
	move *moves;
	int k;

	if (load_book(name, text, len, v, &bp, &np, err, n) < 0)
		return -1;
	if (plies < 0)
		plies = OPENINGS_RECORD_PLIES;
	moves = xreallocarray(NULL, (size_t)plies + 1, sizeof(*moves));
	for (i = 0; i < count; i++) {
		struct position start, pos;
		char key[SFEN_MAX], where[600];
		unsigned long long rng = seed ^ (0x9e3779b97f4a7c15ULL * (i + 1));

		position_set_start(&start, v);
		pos = start;
		for (k = 0; k < plies; k++) {
			const struct book_pos *hit;
			long long total = 0, r;
			struct undo u;
			size_t j;

			sfen_write_key(&pos, key);
			probe.key = key;
			hit = bsearch(&probe, bp, np, sizeof(*bp), cmp_pos);
			if (!hit)
				break;
			for (j = 0; j < hit->n; j++)
				total += hit->mv[j].count;
			if (total <= 0)
				break;
			r = (long long)(splitmix(&rng) % (unsigned long long)total);
			for (j = 0; j + 1 < hit->n && r >= hit->mv[j].count; j++)
				r -= hit->mv[j].count;
			moves[k] = hit->mv[j].m;
			position_do_move(&pos, moves[k], &u);
		}
		if (k == 0) {
			snprintf(err, n, "%s: the book has no move with a count "
			    "from the initial position", name);
			truncate_to(o, keep);
			free(moves);
			free_book(bp, np);
			return -1;
		}
		if (movegen_count(&pos) == 0)
			k--;	/* a walk into mate: one move less */
		snprintf(where, sizeof(where), "%s#%zu", name, i + 1);
		add(o, &start, moves, k, where);
	}
	free(moves);
	free_book(bp, np);
	return 0;
}

static unsigned long long
splitmix(unsigned long long *s)
{
	unsigned long long z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void
openings_shuffle(size_t *order, size_t n, unsigned long long seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n; i > 1; i--) {
		size_t j = (size_t)(splitmix(&seed) % i), t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
}

int
openings_load(struct openings *o, const char *path, const struct variant *v,
    int plies, size_t count, unsigned long long seed, char *err, size_t n)
{
	struct strbuf data = STRBUF_INIT;
	const char *name = path ? input_display_name(path) : NULL;
	const char *text;
	int rc = 0;

	if (!path) {
		openings_add_start(o, v);
		return 0;
	}
	if (input_read(path, &data) < 0) {
		snprintf(err, n, "cannot read '%s': %s", name,
		    strerror(errno));
		strbuf_release(&data);
		return -1;
	}
	text = data.buf ? data.buf : "";
	if (openings_is_book(text, data.len))
		rc = openings_read_book(o, name, text, data.len, v, plies,
		    count, seed, err, n);
	else if ((rc = openings_read(o, name, text, data.len, v, plies, err,
	    n)) == 0 && !o->n) {
		snprintf(err, n, "%s: no opening in the file", name);
		rc = -1;
	}
	strbuf_release(&data);
	return rc;
}

void
openings_order(size_t *order, size_t n, int random, unsigned long long seed)
{
	size_t i;

	if (random) {
		openings_shuffle(order, n, seed);
		return;
	}
	for (i = 0; i < n; i++)
		order[i] = i;
}
