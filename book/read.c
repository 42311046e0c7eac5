/*
 * read.c - reading a text book into the table, every position and move
 * checked (book.h: book_read; the reader itself: book_private.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "book/book_private.h"
#include "core/rules.h"
#include "core/xalloc.h"
#include "parsers/book.h"

/* The newlines in fd's first n bytes (as many as can be read). */
static unsigned long
newlines_before(int fd, off_t n)
{
	char buf[1 << 16];
	unsigned long lines = 0;
	off_t i = 0;

	while (i < n) {
		size_t want = n - i < (off_t)sizeof(buf) ? (size_t)(n - i) :
		    sizeof(buf);
		ssize_t got = pread(fd, buf, want, i);
		const char *p = buf, *end;

		if (got <= 0)
			break;
		for (end = buf + got; (p = memchr(p, '\n', (size_t)(end -
		    p))); p++)
			lines++;
		i += got;
	}
	return lines;
}

static int
book_fail(const struct book_in *in, unsigned long line, size_t col,
    const char *id, const char *msg)
{
	struct span at = { 0, 0, 0, 0 };

	if (in->lines_after)
		line += newlines_before(in->fd, in->before);
	at.line = line > UINT32_MAX ? UINT32_MAX : (uint32_t)line;
	at.col = col > UINT32_MAX ? UINT32_MAX : (uint32_t)col;
	diag_add(in->d, DIAG_ERROR, id, &at, 0, "%s", msg);
	return 1;
}

/* "7g7f" in pos: RULE_OK and *m, or the rule it breaks (-1: no USI). */
static int
check_usi(const struct position *pos, const char *s, size_t n, move *m)
{
	struct move_claim c;

	if (usi_parse_move(pos->v, s, n, &c) < 0)
		return -1;
	return (int)rules_check_move(pos, &c, m);
}

/* Reads "N/SUM" of the evaluations tag at the end of a move line's
   tail; shortens *n to drop it. 1 read, 0 none. */
static int
take_evals(const char *tail, size_t *n, long long *evn, long long *evsum)
{
	size_t tl = strlen(BOOK_EVALS_TAG), i;
	const char *p;
	char buf[64], *end, *slash;

	for (i = *n; i >= tl; i--) {
		if (memcmp(tail + i - tl, BOOK_EVALS_TAG, tl) == 0)
			break;
	}
	if (i < tl)
		return 0;
	p = tail + i;
	if (*n - i == 0 || *n - i >= sizeof(buf))
		return 0;
	memcpy(buf, p, *n - i);
	buf[*n - i] = '\0';
	if (!(slash = strchr(buf, '/')))
		return 0;
	errno = 0;
	*evn = strtoll(buf, &end, 10);
	if (end != slash || *evn < 1 || errno)
		return 0;
	*evsum = strtoll(slash + 1, &end, 10);
	if (*end || errno || end == slash + 1)
		return 0;
	*n = i - tl;
	return 1;
}

static struct book_rmove *
block_move(struct book_rblock *b)
{
	struct book_rmove *m;

	ALLOC_GROW(b->m, b->n + 1, b->alloc);
	m = &b->m[b->n++];
	memset(m, 0, sizeof(*m));
	strbuf_init(&m->tail);
	return m;
}

static void
block_clear(struct book_rblock *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		strbuf_release(&b->m[i].tail);
	b->n = 0;
	b->has = 0;
	strbuf_reset(&b->comment);
}

void
book_in_init(struct book_in *in, struct diag_list *d)
{
	memset(in, 0, sizeof(*in));
	in->d = d;
	strbuf_init(&in->blk.comment);
}

void
book_in_release(struct book_in *in)
{
	block_clear(&in->blk);
	free(in->blk.m);
	strbuf_release(&in->blk.comment);
}

/* A move line of the open block. */
static int
move_line(struct book_in *in, struct book_line *l)
{
	struct book_rblock *b = &in->blk;
	struct book_rmove *m;
	move mv, pm;
	int r;

	if (!b->has)
		return book_fail(in, in->lineno, 1, "book-syntax",
		    "a move before any 'sfen' line");
	if ((r = check_usi(&b->pos, l->text.p, l->text.n, &mv)) != RULE_OK) {
		char msg[200];

		snprintf(msg, sizeof(msg), "move '%.*s' is illegal in this "
		    "position: %s", (int)l->text.n, l->text.p, r < 0 ?
		    "not a move on this board" : rule_description(r));
		return book_fail(in, in->lineno, 1, r < 0 ? "book-syntax" :
		    rule_id_name(r), msg);
	}
	m = block_move(b);
	m->line = in->lineno;
	usi_format_move(mv, m->usi);
	if (l->ponder.n) {
		struct position after = b->pos;
		struct undo u;

		position_do_move(&after, mv, &u);
		if ((r = check_usi(&after, l->ponder.p, l->ponder.n, &pm)) !=
		    RULE_OK) {
			char msg[200];

			snprintf(msg, sizeof(msg), "ponder '%.*s' is illegal "
			    "after '%s': %s", (int)l->ponder.n, l->ponder.p,
			    m->usi, r < 0 ? "not a move on this board" :
			    rule_description(r));
			return book_fail(in, in->lineno, l->ponder_col, r < 0 ?
			    "book-syntax" : rule_id_name(r), msg);
		}
		usi_format_move(pm, m->ponder);
	}
	m->count = l->count;
	m->has_depth = l->has_depth;
	m->depth = l->depth;
	if (l->has_value) {
		size_t n = l->tail.n;

		/*
		 * A tag the value no longer agrees with (someone edited the
		 * value) is stale: the value on the line wins.
		 */
		if (!take_evals(l->tail.p, &n, &m->evn, &m->evsum) ||
		    book_mean(m->evsum, m->evn) != l->value) {
			m->evn = book_implied_evals(l->count);
			m->evsum = l->value * m->evn;
		}
		l->tail.n = n;
	}
	if (l->tail.n)
		strbuf_add(&m->tail, l->tail.p, l->tail.n);
	return 0;
}

int
book_in_line(struct book_in *in, const char *text, size_t len,
    book_block_fn done, void *ctx)
{
	struct book_rblock *b = &in->blk;
	struct book_line l;
	struct book_error err;
	struct sfen_error se;
	struct book_rmove *m;
	int r;

	if (book_parse_line(text, len, in->lineno, in->lineno == 1 &&
	    !in->mid_file, &l, &err) < 0)
		return book_fail(in, err.line, err.col, err.id, err.message);
	switch (l.type) {
	case BOOK_SKIP:
		return 0;
	case BOOK_COMMENT:
		if (b->has && b->n) {
			m = &b->m[b->n - 1];
			strbuf_addc(&m->tail, '\n');
			strbuf_add(&m->tail, l.text.p, l.text.n);
		} else if (b->has) {
			if (b->comment.len)
				strbuf_addc(&b->comment, '\n');
			strbuf_add(&b->comment, l.text.p, l.text.n);
		} else if (in->preamble) {
			strbuf_add(in->preamble, l.text.p, l.text.n);
			strbuf_addc(in->preamble, '\n');
		}
		return 0;
	case BOOK_POSITION: {
		struct strbuf s = STRBUF_INIT;
		enum sfen_status st;

		if (b->has && (r = done(ctx, b)) != 0)
			return r;
		block_clear(b);
		strbuf_add(&s, l.text.p, l.text.n);
		st = sfen_read(&b->pos, variant_standard(), s.buf, &se);
		strbuf_release(&s);
		if (st != SFEN_OK) {
			char msg[200];

			snprintf(msg, sizeof(msg), "%s position: %s",
			    st == SFEN_SYNTAX ? "invalid" : "impossible",
			    se.message);
			return book_fail(in, in->lineno, se.offset + 6, se.id,
			    msg);
		}
		b->key_len = sfen_write_key(&b->pos, b->key);
		b->ply = b->pos.move_number;
		b->has = 1;
		return 0;
	}
	case BOOK_MOVE:
		break;
	}
	return move_line(in, &l);
}

int
book_in_file(struct book_in *in, const char *path, book_block_fn done,
    void *ctx)
{
	int from_stdin = !strcmp(path, "-");
	FILE *f = from_stdin ? stdin : fopen(path, "rb");
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	int rc = 0;

	if (!f)
		return -1;
	while (!rc && (got = getline(&line, &cap, f)) >= 0) {
		size_t len = (size_t)got;

		in->lineno++;
		if (len && line[len - 1] == '\n')
			len--;
		rc = book_in_line(in, line, len, done, ctx);
	}
	if (!rc && ferror(f))
		rc = -1;
	if (!rc && in->blk.has)
		rc = done(ctx, &in->blk);
	free(line);
	if (!from_stdin) {
		int saved = errno;

		fclose(f);
		errno = saved;
	}
	return rc;
}

int
book_add_block(struct book *b, const struct book_rblock *blk,
    struct diag_list *d)
{
	size_t i;

	if (bookagg_add(&b->agg, blk->key, blk->key_len, blk->ply, NULL,
	    blk->comment.buf, blk->comment.len) < 0)
		return b->error = errno, -1;
	for (i = 0; i < blk->n; i++) {
		const struct book_rmove *r = &blk->m[i];
		struct bookagg_move m;

		memset(&m, 0, sizeof(m));
		m.usi = r->usi;
		m.ponder = r->ponder;
		m.count = r->count;
		m.evsum = r->evsum;
		m.evn = r->evn;
		m.has_depth = r->has_depth;
		m.depth = r->depth;
		m.tail = r->tail.buf ? r->tail.buf : "";
		m.tail_len = r->tail.len;
		if (bookagg_add(&b->agg, blk->key, blk->key_len, blk->ply, &m,
		    NULL, 0) < 0) {
			struct span at = { 0, 1, 0, 0 };

			if (errno != EOVERFLOW)
				return b->error = errno, -1;
			at.line = r->line > UINT32_MAX ? UINT32_MAX :
			    (uint32_t)r->line;
			diag_add(d, DIAG_ERROR, "book-overflow", &at, 0,
			    "the counts or evaluations of %s add up past %lld "
			    "with the book's earlier lines", m.usi, LLONG_MAX);
			return 1;
		}
	}
	return 0;
}

struct reading {
	struct book *b;
	struct diag_list *d;
};

static int
add_read_block(void *ctx, const struct book_rblock *blk)
{
	struct reading *r = ctx;

	return book_add_block(r->b, blk, r->d);
}

int
book_read(struct book *b, const char *path, int preamble,
    struct diag_list *d)
{
	struct reading r = { b, d };
	struct book_in in;
	int rc;

	book_in_init(&in, d);
	in.preamble = preamble ? &b->preamble : NULL;
	rc = book_in_file(&in, path, add_read_block, &r);
	book_in_release(&in);
	return rc;
}
