/*
 * bookagg.c - a book's table in a memory budget, spilled to sorted runs
 * and merged back (bookagg.h).
 *
 * The table is an open-addressing hash of positions; each position
 * keeps its moves as a list (an opening position has a few dozen at
 * most). A run is the table sorted by key, in a binary layout that only
 * this file reads back, every number a LEB128 varint (signed ones
 * zigzagged), so that a run of mostly one-play moves stays small:
 *
 *   position: key_len, key, ply, comment_len, comment, moves, then each:
 *   move:     usi_len, usi, ponder_len, ponder, count, evsum, evn,
 *             has_depth, depth, seq, tail_len, tail
 */
/* memmem: POSIX.1-2024, which glibc declares under _GNU_SOURCE. */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "book/bookagg.h"
#include "core/xalloc.h"

/* Bytes a file run is written and read in. */
#define RUN_IO (64u << 10)

struct bookagg_pos {
	uint64_t hash;
	size_t key_off, com_off;
	uint32_t key_len, com_len;
	long long ply;
	int32_t first, last;
};

struct bookagg_mv {
	char usi[8], ponder[8];
	long long count, evsum, evn, depth, seq;
	int has_depth;
	size_t tail_off;
	uint32_t tail_len;
	int32_t next;
};

/* src into dst[cap], cut to fit as snprintf would, without its cost. */
static void
copy_word(char *dst, size_t cap, const char *src)
{
	size_t n = strnlen(src, cap - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Eight bytes at a time, then murmur3's finaliser: keys are ~70 bytes,
   and a byte-at-a-time hash cost more than the probe it leads to. */
static uint64_t
hash_bytes(const char *p, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n, w;

	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 31;
	}
	w = 0;
	memcpy(&w, p, n);
	h ^= w;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

void
bookagg_init(struct bookagg *a, size_t budget, const char *tmpdir)
{
	memset(a, 0, sizeof(*a));
	a->budget = budget;
	a->tmpdir = tmpdir;
	strbuf_init(&a->arena);
}

static void
table_clear(struct bookagg *a)
{
	strbuf_release(&a->arena);
	strbuf_init(&a->arena);
	free(a->pos);
	free(a->mv);
	free(a->slot);
	a->pos = NULL;
	a->mv = NULL;
	a->slot = NULL;
	a->npos = a->apos = a->nmv = a->amv = a->cap = 0;
}

/* Empties the table, keeping its memory (the merge's table of one
   position, used once for every position several runs share). */
static void
table_reset(struct bookagg *a)
{
	strbuf_reset(&a->arena);
	a->npos = a->nmv = 0;
	if (a->slot)
		memset(a->slot, 0, a->cap * sizeof(*a->slot));
}

static void
run_release(struct bookagg_run *r)
{
	if (r->f)
		fclose(r->f);
	r->f = NULL;
	strbuf_release(&r->mem);
}

static void
remove_runs(struct bookagg *a)
{
	size_t i;

	for (i = 0; i < a->nruns; i++)
		run_release(&a->runs[i]);
	free(a->runs);
	a->runs = NULL;
	a->nruns = a->aruns = 0;
	a->run_bytes = 0;
}

void
bookagg_release(struct bookagg *a)
{
	table_clear(a);
	remove_runs(a);
}

static size_t
table_bytes(const struct bookagg *a)
{
	return a->arena.alloc + a->apos * sizeof(*a->pos) +
	    a->amv * sizeof(*a->mv) + a->cap * sizeof(*a->slot);
}

/* A slot: the position's index (+1; 0 is empty) and its hash's high
   half, so that a probe rarely looks at a position it does not want. */
static inline uint64_t
slot_make(size_t i, uint64_t h)
{
	return (h & 0xffffffff00000000ULL) | (uint64_t)(i + 1);
}

static void
table_grow(struct bookagg *a)
{
	size_t cap = a->cap ? a->cap * 2 : 256, i;
	uint64_t *slot = xcalloc(cap, sizeof(*slot));

	for (i = 0; i < a->npos; i++) {
		size_t j = (size_t)a->pos[i].hash & (cap - 1);

		while (slot[j])
			j = (j + 1) & (cap - 1);
		slot[j] = slot_make(i, a->pos[i].hash);
	}
	free(a->slot);
	a->slot = slot;
	a->cap = cap;
}

static struct bookagg_pos *
find_pos(struct bookagg *a, const char *key, size_t key_len, long long ply)
{
	uint64_t h = hash_bytes(key, key_len);
	struct bookagg_pos *p;
	size_t j;

	if ((a->npos + 1) * 4 > a->cap * 3)
		table_grow(a);
	for (j = (size_t)h & (a->cap - 1); a->slot[j];
	    j = (j + 1) & (a->cap - 1)) {
		if ((a->slot[j] ^ h) >> 32)
			continue;
		p = &a->pos[(a->slot[j] & 0xffffffffu) - 1];
		if (p->hash == h && p->key_len == key_len &&
		    !memcmp(a->arena.buf + p->key_off, key, key_len)) {
			if (ply < p->ply)
				p->ply = ply;
			return p;
		}
	}
	ALLOC_GROW(a->pos, a->npos + 1, a->apos);
	a->slot[j] = slot_make(a->npos, h);
	p = &a->pos[a->npos++];
	memset(p, 0, sizeof(*p));
	p->hash = h;
	p->key_off = a->arena.len;
	p->key_len = (uint32_t)key_len;
	strbuf_add(&a->arena, key, key_len);
	p->ply = ply;
	p->first = p->last = -1;
	return p;
}

/* Past this many bytes of comments, they are compared as whole blocks. */
#define COMBINE_LINEWISE 65536

/*
 * The comment lines of text s (n bytes, each line after a newline) that
 * hay (the comments there already, each line between newlines, hay->len
 * >= 1) lacks, into add (each after a newline), and into hay. Line by
 * line while the texts are small; a block of thousands of lines (only a
 * hostile book has one) is looked for whole, so that the work stays
 * linear in the text.
 */
static void
new_comment_lines(struct strbuf *hay, const char *s, size_t n,
    struct strbuf *add)
{
	struct strbuf probe = STRBUF_INIT;
	size_t i = 0;

	if (hay->len + n > COMBINE_LINEWISE) {
		strbuf_add(&probe, s, n);
		strbuf_addc(&probe, '\n');
		if (!memmem(hay->buf, hay->len, probe.buf, probe.len))
			strbuf_add(add, s, n);
		strbuf_release(&probe);
		return;
	}
	while (i < n) {
		const char *nl = memchr(s + i + 1, '\n', n - i - 1);
		size_t end = nl ? (size_t)(nl - s) : n;

		/* s + i is the newline before the line */
		strbuf_reset(&probe);
		strbuf_add(&probe, s + i, end - i);
		strbuf_addc(&probe, '\n');
		if (!memmem(hay->buf, hay->len, probe.buf, probe.len)) {
			strbuf_add(add, s + i, end - i);
			strbuf_add(hay, s + i + 1, end - i - 1);
			strbuf_addc(hay, '\n');
		}
		i = end;
	}
	strbuf_release(&probe);
}

/*
 * Adds text s (n bytes) to the text at *off and *len, building the
 * result at the arena's end (the old text may move with the arena, so
 * it is read by offset; comments are rare: the copy is cheap).
 *
 * A position's text is comment lines joined by newlines; a move's is
 * the end of its move line, then "\n" and a comment line for each. What
 * is already there is not added again: a move's end-of-line text equal
 * to the one it has, a comment line it has (merging a book with itself,
 * or shards that carry the same comments, keeps them once). Different
 * end-of-line texts go one after the other on the move's line, new
 * comment lines after the old ones, in their order.
 */
static void
combine_text(struct bookagg *a, size_t *off, uint32_t *len, const char *s,
    size_t n, int is_move)
{
	struct strbuf hay = STRBUF_INIT, add = STRBUF_INIT, lines = STRBUF_INIT;
	size_t start = a->arena.len, oe, ne;
	const char *old, *nl;

	if (!n)
		return;
	if (!*len) {
		strbuf_add(&a->arena, s, n);
		*off = start;
		*len = (uint32_t)n;
		return;
	}
	old = a->arena.buf + *off;
	oe = is_move && (nl = memchr(old, '\n', *len)) ? (size_t)(nl - old) :
	    is_move ? *len : 0;
	ne = is_move && (nl = memchr(s, '\n', n)) ? (size_t)(nl - s) :
	    is_move ? n : 0;
	/* Both comment parts as lines each after a newline. */
	strbuf_addc(&hay, '\n');
	if (!is_move)
		strbuf_add(&hay, old, *len);
	else if (*len > oe)
		strbuf_add(&hay, old + oe + 1, *len - oe - 1);
	strbuf_addc(&hay, '\n');
	if (!is_move)
		strbuf_addc(&lines, '\n');
	strbuf_add(&lines, s + ne, n - ne);
	if (n > ne)
		new_comment_lines(&hay, lines.buf, lines.len, &add);
	strbuf_grow(&a->arena, *len + ne + add.len);
	old = a->arena.buf + *off;	/* the arena may have moved */
	strbuf_add(&a->arena, old, oe);
	if (ne && !(ne == oe && !memcmp(old, s, ne)))
		strbuf_add(&a->arena, s, ne);
	strbuf_add(&a->arena, old + oe, *len - oe);
	if (add.len)
		strbuf_add(&a->arena, add.buf, add.len);
	strbuf_release(&hay);
	strbuf_release(&add);
	strbuf_release(&lines);
	*off = start;
	*len = (uint32_t)(a->arena.len - start);
}

/* *to += add; -1 (nothing changed) if that would pass LLONG_MAX. */
static int
add_up(long long *to, long long add)
{
	long long sum;

	if (__builtin_add_overflow(*to, add, &sum))
		return -1;
	*to = sum;
	return 0;
}

/*
 * The move m into position p: 0, or -1 with errno EOVERFLOW when its
 * count or evaluations would add up past what a long long holds (only
 * a hostile book gets there; the move is then left as it was).
 */
static int
add_move(struct bookagg *a, struct bookagg_pos *p, const struct bookagg_move *m)
{
	struct bookagg_mv *v;
	char usi[8] = { 0 };
	int32_t i;

	/* zero-padded, so that a fixed 8-byte compare finds the move */
	copy_word(usi, sizeof(usi), m->usi);
	for (i = p->first; i >= 0; i = a->mv[i].next)
		if (!memcmp(a->mv[i].usi, usi, sizeof(usi)))
			break;
	if (i < 0) {
		ALLOC_GROW(a->mv, a->nmv + 1, a->amv);
		i = (int32_t)a->nmv++;
		v = &a->mv[i];
		memset(v, 0, sizeof(*v));
		memcpy(v->usi, usi, sizeof(usi));
		v->next = -1;
		v->seq = m->seq;
		if (p->last >= 0)
			a->mv[p->last].next = i;
		else
			p->first = i;
		p->last = i;
	}
	v = &a->mv[i];
	{
		long long count = v->count, evsum = v->evsum, evn = v->evn;

		if (add_up(&count, m->count) < 0 ||
		    add_up(&evsum, m->evsum) < 0 || add_up(&evn, m->evn) < 0) {
			snprintf(a->overflow, sizeof(a->overflow), "%s at %.*s",
			    v->usi, (int)p->key_len, a->arena.buf + p->key_off);
			errno = EOVERFLOW;
			return -1;
		}
		v->count = count;
		v->evsum = evsum;
		v->evn = evn;
	}
	if (m->seq < v->seq)
		v->seq = m->seq;
	if (!v->ponder[0] && m->ponder && m->ponder[0])
		copy_word(v->ponder, sizeof(v->ponder), m->ponder);
	if (m->has_depth && (!v->has_depth || m->depth > v->depth)) {
		v->has_depth = 1;
		v->depth = m->depth;
	}
	if (m->tail_len && !(v->tail_len == m->tail_len &&
	    !memcmp(a->arena.buf + v->tail_off, m->tail, m->tail_len)))
		combine_text(a, &v->tail_off, &v->tail_len, m->tail,
		    m->tail_len, 1);
	return 0;
}

/* ---- runs ---------------------------------------------------------------- */

/*
 * A run being written: its bytes go to buf (the run's own memory, or a
 * staging buffer for a file, written out a RUN_IO at a time).
 */
struct wr {
	FILE *f;			/* NULL: the run is in memory */
	struct strbuf *buf;
	struct strbuf stage;
	int error;
};

static void
wr_flush(struct wr *w)
{
	if (w->f && w->buf->len && !w->error &&
	    fwrite(w->buf->buf, 1, w->buf->len, w->f) != w->buf->len)
		w->error = errno ? errno : EIO;
	if (w->f)
		strbuf_reset(w->buf);
}

static void
put(struct wr *w, const void *p, size_t n)
{
	strbuf_add(w->buf, p, n);
	if (w->f && w->buf->len >= RUN_IO)
		wr_flush(w);
}

static void
put_uv(struct wr *w, uint64_t v)
{
	unsigned char b[10];
	size_t n = 0;

	while (v >= 0x80) {
		b[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	b[n++] = (unsigned char)v;
	put(w, b, n);
}

/* zigzag: small negative values stay short too */
static void
put_sv(struct wr *w, long long v)
{
	int64_t x = v;

	put_uv(w, ((uint64_t)x << 1) ^ (uint64_t)(x >> 63));
}

static void
put_bytes(struct wr *w, const char *s, size_t n)
{
	put_uv(w, n);
	put(w, s, n);
}

static void
put_entry(struct wr *w, const struct bookagg_entry *e)
{
	size_t i;

	put_bytes(w, e->key, e->key_len);
	put_sv(w, e->ply);
	put_bytes(w, e->comment, e->comment_len);
	put_uv(w, e->n);
	for (i = 0; i < e->n; i++) {
		const struct bookagg_move *m = &e->moves[i];

		put_bytes(w, m->usi, strlen(m->usi));
		put_bytes(w, m->ponder, strlen(m->ponder));
		put_sv(w, m->count);
		put_sv(w, m->evsum);
		put_sv(w, m->evn);
		put_uv(w, (uint64_t)!!m->has_depth);
		put_sv(w, m->depth);
		put_sv(w, m->seq);
		put_bytes(w, m->tail, m->tail_len);
	}
}

/*
 * A new temporary file, removed from its directory at once: whatever
 * ends kifu (a signal, a crash), no run is left behind.
 */
static FILE *
temp_file(const struct bookagg *a)
{
	struct strbuf name = STRBUF_INIT;
	FILE *f;
	int fd;

	strbuf_addf(&name, "%s/.kifu-book-run-XXXXXX", a->tmpdir);
	if ((fd = mkstemp(name.buf)) < 0) {
		strbuf_release(&name);
		return NULL;
	}
	unlink(name.buf);
	strbuf_release(&name);
	if (!(f = fdopen(fd, "w+b"))) {
		int saved = errno;

		close(fd);
		errno = saved;
		return NULL;
	}
	return f;
}

/*
 * Starts run a->runs[a->nruns] (appended) and its writer: in memory, or
 * with to_file in a temporary file. 0, or -1 with errno set.
 */
static int
new_run(struct bookagg *a, int to_file, struct wr *w)
{
	struct bookagg_run *r;
	FILE *f = NULL;

	if (to_file && !(f = temp_file(a)))
		return -1;
	ALLOC_GROW(a->runs, a->nruns + 1, a->aruns);
	r = &a->runs[a->nruns++];
	r->f = f;
	strbuf_init(&r->mem);
	w->f = f;
	w->error = 0;
	strbuf_init(&w->stage);
	w->buf = f ? &w->stage : &r->mem;
	return 0;
}

/* Ends a writer: 0, or -1 with errno set. */
static int
wr_close(struct wr *w)
{
	wr_flush(w);
	if (w->f && fflush(w->f) != 0 && !w->error)
		w->error = errno ? errno : EIO;
	strbuf_release(&w->stage);
	if (w->error)
		return errno = w->error, -1;
	return 0;
}

/* A run in memory out to a temporary file: 0, or -1 with errno set. */
static int
run_to_file(struct bookagg *a, struct bookagg_run *r)
{
	FILE *f = temp_file(a);

	if (!f)
		return -1;
	if ((r->mem.len && fwrite(r->mem.buf, 1, r->mem.len, f) !=
	    r->mem.len) || fflush(f) != 0) {
		int saved = errno ? errno : EIO;

		fclose(f);
		return errno = saved, -1;
	}
	a->run_bytes -= r->mem.alloc;
	strbuf_release(&r->mem);
	r->f = f;
	a->spills++;
	return 0;
}

int
bookagg_key_cmp(const char *a, size_t an, const char *b, size_t bn)
{
	int c = memcmp(a, b, an < bn ? an : bn);

	if (c)
		return c;
	return an < bn ? -1 : an > bn;
}

static int
cmp_pos(const struct bookagg *a, int32_t x, int32_t y)
{
	const struct bookagg_pos *p = &a->pos[x], *q = &a->pos[y];

	return bookagg_key_cmp(a->arena.buf + p->key_off, p->key_len,
	    a->arena.buf + q->key_off, q->key_len);
}

/* A merge sort of indices by key (qsort has no context argument). */
static void
sort_order(const struct bookagg *a, int32_t *v, int32_t *tmp, size_t n)
{
	size_t h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	sort_order(a, v, tmp, h);
	sort_order(a, v + h, tmp, n - h);
	while (i < h && j < n)
		tmp[k++] = cmp_pos(a, v[j], v[i]) < 0 ? v[j++] : v[i++];
	while (i < h)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}

/* The table's positions in key order: an array of indices. */
static int32_t *
table_order(const struct bookagg *a)
{
	size_t n = a->npos ? a->npos : 1, i;
	int32_t *ord = xreallocarray(NULL, n, sizeof(*ord));
	int32_t *tmp = xreallocarray(NULL, n, sizeof(*tmp));

	for (i = 0; i < a->npos; i++)
		ord[i] = (int32_t)i;
	sort_order(a, ord, tmp, a->npos);
	free(tmp);
	return ord;
}

/* The table's position i as an entry; moves in *buf (grown). */
static void
table_entry(const struct bookagg *a, int32_t i, struct bookagg_entry *e,
    struct bookagg_move **buf, size_t *alloc)
{
	const struct bookagg_pos *p = &a->pos[i];
	int32_t j;

	e->key = a->arena.buf + p->key_off;
	e->key_len = p->key_len;
	e->ply = p->ply;
	e->comment = p->com_len ? a->arena.buf + p->com_off : "";
	e->comment_len = p->com_len;
	e->n = 0;
	for (j = p->first; j >= 0; j = a->mv[j].next) {
		const struct bookagg_mv *v = &a->mv[j];
		struct bookagg_move *m;

		ALLOC_GROW(*buf, e->n + 1, *alloc);
		m = &(*buf)[e->n++];
		m->usi = v->usi;
		m->ponder = v->ponder;
		m->count = v->count;
		m->evsum = v->evsum;
		m->evn = v->evn;
		m->has_depth = v->has_depth;
		m->depth = v->depth;
		m->seq = v->seq;
		m->tail = v->tail_len ? a->arena.buf + v->tail_off : "";
		m->tail_len = v->tail_len;
	}
	e->moves = *buf;
}

static int merge_down(struct bookagg *a, size_t limit);

/* The table as a run, in memory; the table emptied. */
static void
table_to_run(struct bookagg *a)
{
	struct bookagg_move *buf = NULL;
	size_t alloc = 0, i;
	int32_t *ord = table_order(a);
	struct bookagg_run *r;
	struct wr w;

	new_run(a, 0, &w);
	for (i = 0; i < a->npos; i++) {
		struct bookagg_entry e;

		table_entry(a, ord[i], &e, &buf, &alloc);
		put_entry(&w, &e);
	}
	free(ord);
	free(buf);
	wr_close(&w);		/* in memory: nothing to fail */
	r = &a->runs[a->nruns - 1];
	/* the doubling's slack would count against the budget */
	r->mem.buf = xreallocarray(r->mem.buf, r->mem.len + 1, 1);
	r->mem.alloc = r->mem.len + 1;
	a->run_bytes += r->mem.alloc;
	table_clear(a);
}

/*
 * The full table into a run; past the budget every run in memory goes
 * to a file (the oldest first: they are merged in order anyway), and
 * past BOOKAGG_MAX_OPEN files the runs are merged down. 0, or -1 with
 * errno set (a->error).
 */
static int
spill(struct bookagg *a)
{
	size_t i;

	table_to_run(a);
	if (a->run_bytes > a->budget)
		for (i = 0; i < a->nruns; i++)
			if (!a->runs[i].f && run_to_file(a, &a->runs[i]) < 0)
				return a->error = errno ? errno : EIO, -1;
	/* Every run may be an open file: keep them well below the limit. */
	if (a->nruns >= BOOKAGG_MAX_OPEN)
		return merge_down(a, BOOKAGG_FANIN);
	return 0;
}

int
bookagg_add(struct bookagg *a, const char *key, size_t key_len,
    long long ply, const struct bookagg_move *m, const char *comment,
    size_t comment_len)
{
	struct bookagg_pos *p = find_pos(a, key, key_len, ply);
	/* a quarter of the budget at most: the rest is for the runs */
	size_t bytes, chunk = a->budget / 4 < BOOKAGG_CHUNK ? a->budget / 4 :
	    BOOKAGG_CHUNK;

	if (m) {
		struct bookagg_move c = *m;

		c.seq = a->seq++;
		if (add_move(a, p, &c) < 0)
			return -1;
	}
	if (comment_len) {
		size_t off = p->com_off;
		uint32_t len = p->com_len;

		combine_text(a, &off, &len, comment, comment_len, 0);
		/* find_pos may have moved nothing; p is still valid */
		p->com_off = off;
		p->com_len = len;
	}
	bytes = table_bytes(a);
	if (bytes > chunk && a->npos)
		return spill(a);
	return 0;
}

/* ---- merging runs -------------------------------------------------------- */

/* A run being read: [p, end) is what is in hand of it. */
struct rd {
	struct bookagg_run *run;
	const unsigned char *p, *end;
	unsigned char *buf;		/* a file run's RUN_IO bytes */
	int error, eof;
	struct strbuf key, com, tails;
	struct bookagg_move *m;
	size_t n, alloc;
	long long ply;
	char (*names)[2][8];	/* usi and ponder of each move */
	size_t nalloc;
};

/* Opens r on run: 0, or -1 with errno set. */
static int
rd_open(struct rd *r, struct bookagg_run *run)
{
	r->run = run;
	if (!run->f) {
		r->p = (const unsigned char *)run->mem.buf;
		r->end = r->p + run->mem.len;
		return 0;
	}
	r->buf = xreallocarray(NULL, RUN_IO, 1);
	r->p = r->end = r->buf;
	return fseek(run->f, 0, SEEK_SET);
}

/* More bytes of a file run in hand: 1, 0 at its end, -1 on error. */
static int
refill(struct rd *r)
{
	size_t n;

	if (!r->run->f)
		return 0;
	n = fread(r->buf, 1, RUN_IO, r->run->f);
	if (!n && ferror(r->run->f)) {
		r->error = errno ? errno : EIO;
		return -1;
	}
	r->p = r->buf;
	r->end = r->buf + n;
	return n > 0;
}

static int
get(struct rd *r, void *p, size_t n)
{
	unsigned char *to = p;

	while (n && !r->error) {
		size_t k = (size_t)(r->end - r->p);

		if (!k) {
			if (refill(r) <= 0)
				r->error = r->error ? r->error : EIO;
			continue;
		}
		if (k > n)
			k = n;
		memcpy(to, r->p, k);
		r->p += k;
		to += k;
		n -= k;
	}
	return r->error ? -1 : 0;
}

static uint64_t
get_uv(struct rd *r)
{
	uint64_t v = 0;
	int shift;

	for (shift = 0; shift < 64; shift += 7) {
		unsigned char c;

		if (r->p < r->end)
			c = *r->p++;
		else if (get(r, &c, 1) < 0)
			return 0;
		v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return v;
	}
	r->error = EIO;
	return 0;
}

static long long
get_sv(struct rd *r)
{
	uint64_t u = get_uv(r);

	return (long long)(int64_t)((u >> 1) ^ (0 - (u & 1)));
}

/* A length of at most max, or an error: a run is only ever what this
   file wrote, but a bad length must not become a huge allocation. */
static size_t
get_len(struct rd *r, size_t max)
{
	uint64_t n = get_uv(r);

	if (n > max) {
		r->error = EIO;
		return 0;
	}
	return (size_t)n;
}

static void
get_str(struct rd *r, struct strbuf *sb, size_t n)
{
	strbuf_reset(sb);
	strbuf_grow(sb, n + 1);
	if (get(r, sb->buf, n) == 0) {
		sb->len = n;
		sb->buf[n] = '\0';
	}
}

static void
get_str8(struct rd *r, char out[8])
{
	size_t n = get_len(r, 7);

	out[0] = '\0';
	if (get(r, out, n) == 0)
		out[n] = '\0';
}

/* The run's next position into r; 1, 0 at its end, -1 on error. */
static int
rd_next(struct rd *r)
{
	size_t i, n;
	size_t *toff;

	if (r->p == r->end) {
		int c = refill(r);

		if (c <= 0) {
			r->eof = c == 0;
			return c;
		}
	}
	get_str(r, &r->key, get_len(r, (size_t)1 << 30));
	r->ply = get_sv(r);
	get_str(r, &r->com, get_len(r, (size_t)1 << 30));
	n = get_len(r, (size_t)1 << 24);
	if (r->error)
		return -1;
	ALLOC_GROW(r->m, n, r->alloc);
	ALLOC_GROW(r->names, n, r->nalloc);
	toff = xreallocarray(NULL, n ? n : 1, sizeof(*toff));
	strbuf_reset(&r->tails);
	for (i = 0; i < n && !r->error; i++) {
		struct bookagg_move *m = &r->m[i];
		size_t tl;

		get_str8(r, r->names[i][0]);
		get_str8(r, r->names[i][1]);
		m->count = get_sv(r);
		m->evsum = get_sv(r);
		m->evn = get_sv(r);
		m->has_depth = get_uv(r) != 0;
		m->depth = get_sv(r);
		m->seq = get_sv(r);
		tl = get_len(r, (size_t)1 << 30);
		toff[i] = r->tails.len;
		strbuf_grow(&r->tails, tl + 1);
		if (get(r, r->tails.buf + r->tails.len, tl) == 0)
			r->tails.len += tl;
		m->tail_len = tl;
	}
	for (i = 0; i < n && !r->error; i++) {
		r->m[i].usi = r->names[i][0];
		r->m[i].ponder = r->names[i][1];
		r->m[i].tail = r->tails.buf ? r->tails.buf + toff[i] : "";
	}
	free(toff);
	r->n = n;
	return r->error ? -1 : 1;
}

static void
rd_release(struct rd *r)
{
	strbuf_release(&r->key);
	strbuf_release(&r->com);
	strbuf_release(&r->tails);
	free(r->m);
	free(r->names);
	free(r->buf);
}

/* The heap's order: the lower key, then the earlier run. */
static int
run_less(const struct rd *r, size_t i, size_t j)
{
	int c = bookagg_key_cmp(r[i].key.buf, r[i].key.len, r[j].key.buf,
	    r[j].key.len);

	return c < 0 || (c == 0 && i < j);
}

static void
heap_down(const struct rd *r, size_t *h, size_t n, size_t at)
{
	for (;;) {
		size_t l = 2 * at + 1, m = at, t;

		if (l < n && run_less(r, h[l], h[m]))
			m = l;
		if (l + 1 < n && run_less(r, h[l + 1], h[m]))
			m = l + 1;
		if (m == at)
			return;
		t = h[at];
		h[at] = h[m];
		h[m] = t;
		at = m;
	}
}

static void
heap_up(const struct rd *r, size_t *h, size_t at)
{
	while (at > 0 && run_less(r, h[at], h[(at - 1) / 2])) {
		size_t p = (at - 1) / 2, t = h[at];

		h[at] = h[p];
		h[p] = t;
		at = p;
	}
}

/*
 * Merges runs [from, to) into emit, through a heap of the runs by their
 * next key: the positions of one key are combined in run order (the
 * input order) in a small table, or handed over as they are when only
 * one run has the key (most positions).
 */
static int
merge_runs(struct bookagg *a, size_t from, size_t to, bookagg_emit_fn emit,
    void *ctx)
{
	size_t k = to - from, i, nh = 0;
	struct rd *r = xcalloc(k, sizeof(*r));
	size_t *h = xcalloc(k, sizeof(*h)), *at = xcalloc(k, sizeof(*at));
	struct bookagg one;
	struct bookagg_move *buf = NULL;
	size_t alloc = 0;
	int rc = 0;

	bookagg_init(&one, (size_t)-1, a->tmpdir);
	for (i = 0; i < k; i++) {
		strbuf_init(&r[i].key);
		strbuf_init(&r[i].com);
		strbuf_init(&r[i].tails);
	}
	for (i = 0; i < k && !rc; i++) {
		if (rd_open(&r[i], &a->runs[from + i]) < 0 ||
		    rd_next(&r[i]) < 0) {
			rc = -1;
			a->error = r[i].error ? r[i].error : errno;
			break;
		}
		if (!r[i].eof) {
			h[nh] = i;
			heap_up(r, h, nh++);
		}
	}
	while (!rc && nh) {
		struct bookagg_entry e;
		size_t n = 0, j;

		/* every run at the lowest key, in run order */
		at[n++] = h[0];
		h[0] = h[--nh];
		heap_down(r, h, nh, 0);
		while (nh && !bookagg_key_cmp(r[h[0]].key.buf, r[h[0]].key.len,
		    r[at[0]].key.buf, r[at[0]].key.len)) {
			at[n++] = h[0];
			h[0] = h[--nh];
			heap_down(r, h, nh, 0);
		}
		if (n == 1) {
			const struct rd *only = &r[at[0]];

			e.key = only->key.buf;
			e.key_len = only->key.len;
			e.ply = only->ply;
			e.comment = only->com.len ? only->com.buf : "";
			e.comment_len = only->com.len;
			e.moves = only->m;
			e.n = only->n;
			rc = emit(ctx, &e);
		} else {
			for (i = 0; i < n; i++) {
				const struct rd *q = &r[at[i]];

				find_pos(&one, q->key.buf, q->key.len, q->ply);
				for (j = 0; j < q->n && rc == 0; j++)
					if (add_move(&one, &one.pos[0],
					    &q->m[j]) < 0) {
						rc = -1;
						a->error = EOVERFLOW;
						memcpy(a->overflow, one.overflow,
						    sizeof(a->overflow));
					}
				if (q->com.len)
					combine_text(&one, &one.pos[0].com_off,
					    &one.pos[0].com_len, q->com.buf,
					    q->com.len, 0);
			}
			if (rc == 0) {
				table_entry(&one, 0, &e, &buf, &alloc);
				rc = emit(ctx, &e);
			}
			table_reset(&one);
		}
		for (i = 0; i < n && rc == 0; i++) {
			if (rd_next(&r[at[i]]) < 0) {
				rc = -1;
				a->error = r[at[i]].error;
			} else if (!r[at[i]].eof) {
				h[nh] = at[i];
				heap_up(r, h, nh++);
			}
		}
	}
	for (i = 0; i < k; i++)
		rd_release(&r[i]);
	free(r);
	free(h);
	free(at);
	free(buf);
	bookagg_release(&one);
	return rc;
}

static int
emit_to_run(void *ctx, const struct bookagg_entry *e)
{
	struct wr *w = ctx;

	put_entry(w, e);
	return w->error ? -1 : 0;
}

/*
 * Merges the runs a fan-in at a time, in order, into fewer runs (in
 * temporary files: so many runs are past any budget), until there are
 * at most limit. 0, or -1 with errno set.
 */
static int
merge_down(struct bookagg *a, size_t limit)
{
	int rc = 0;

	while (a->nruns > limit) {
		size_t from = 0, n = a->nruns;
		struct bookagg_run *old = a->runs;
		size_t i;

		a->runs = NULL;
		a->nruns = a->aruns = 0;
		a->run_bytes = 0;
		for (from = 0; from < n && !rc; from += BOOKAGG_FANIN) {
			size_t to = from + BOOKAGG_FANIN < n ?
			    from + BOOKAGG_FANIN : n;
			struct bookagg src;
			struct wr w;

			if (new_run(a, 1, &w) < 0) {
				rc = -1;
				a->error = errno;
				break;
			}
			a->spills++;
			src = *a;
			src.runs = old;
			src.nruns = n;
			rc = merge_runs(&src, from, to, emit_to_run, &w);
			if (wr_close(&w) < 0 && !rc)
				rc = -1, a->error = errno;
			if (src.error && !a->error) {
				a->error = src.error;
				memcpy(a->overflow, src.overflow,
				    sizeof(a->overflow));
			}
		}
		for (i = 0; i < n; i++)
			run_release(&old[i]);
		free(old);
		if (rc)
			return errno = a->error ? a->error : EIO, -1;
	}
	return 0;
}

static size_t
file_runs(const struct bookagg *a)
{
	size_t i, n = 0;

	for (i = 0; i < a->nruns; i++)
		n += a->runs[i].f != NULL;
	return n;
}

int
bookagg_finish(struct bookagg *a, bookagg_emit_fn emit, void *ctx)
{
	int rc = 0;

	if (a->error)
		return errno = a->error, -1;
	if (!a->nruns) {
		struct bookagg_move *buf = NULL;
		size_t alloc = 0, i;
		int32_t *ord = table_order(a);

		for (i = 0; i < a->npos && !rc; i++) {
			struct bookagg_entry e;

			table_entry(a, ord[i], &e, &buf, &alloc);
			rc = emit(ctx, &e);
		}
		free(ord);
		free(buf);
		table_clear(a);
		return rc;
	}
	if (a->npos)
		table_to_run(a);
	/* Runs in memory hold no file and no read buffer: as many as are
	   open are merged at once, unless too many are files. */
	if (file_runs(a) > BOOKAGG_FANIN && merge_down(a, BOOKAGG_FANIN) < 0)
		return -1;
	rc = merge_runs(a, 0, a->nruns, emit, ctx);
	remove_runs(a);
	if (rc < 0)
		errno = a->error ? a->error : EIO;
	return rc;
}

int
bookagg_absorb(struct bookagg *into, struct bookagg *from)
{
	size_t i;

	if (from->error) {
		into->error = from->error;
		memcpy(into->overflow, from->overflow, sizeof(into->overflow));
		return errno = from->error, -1;
	}
	if (from->npos)
		table_to_run(from);
	for (i = 0; i < from->nruns; i++) {
		ALLOC_GROW(into->runs, into->nruns + 1, into->aruns);
		into->runs[into->nruns++] = from->runs[i];
	}
	into->run_bytes += from->run_bytes;
	into->spills += from->spills;
	free(from->runs);
	from->runs = NULL;
	from->nruns = from->aruns = 0;
	from->run_bytes = 0;
	/* The joined runs count against into's budget as its own do. */
	if (into->run_bytes > into->budget)
		for (i = 0; i < into->nruns; i++)
			if (!into->runs[i].f &&
			    run_to_file(into, &into->runs[i]) < 0)
				return into->error = errno ? errno : EIO, -1;
	if (into->nruns >= BOOKAGG_MAX_OPEN)
		return merge_down(into, BOOKAGG_FANIN);
	return 0;
}

int
bookagg_parse_size(const char *s, size_t *bytes)
{
	unsigned long long v = 0, mul = 1;
	const char *p = s;

	if (!*p)
		return -1;
	while (*p >= '0' && *p <= '9') {
		v = v * 10 + (unsigned)(*p++ - '0');
		if (v > (1ULL << 40))
			return -1;
	}
	if (p == s)
		return -1;
	switch (*p) {
	case 'K': case 'k': mul = 1ULL << 10; p++; break;
	case 'M': case 'm': mul = 1ULL << 20; p++; break;
	case 'G': case 'g': mul = 1ULL << 30; p++; break;
	case '\0': break;
	default: return -1;
	}
	if (*p == 'B' || *p == 'b')
		p++;
	if (*p)
		return -1;
	v *= mul;
	if (v < 1024 || v > (1ULL << 40))
		return -1;
	*bytes = (size_t)v;
	return 0;
}
