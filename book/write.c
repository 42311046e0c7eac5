/*
 * write.c - the table out as a book, and a query's moves as text
 * (book.h: book_write, book_query_text).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "book/book_private.h"
#include "core/xalloc.h"
#include "parsers/book.h"

long long
book_mean(long long sum, long long n)
{
	unsigned long long a = sum < 0 ? 0ULL - (unsigned long long)sum :
	    (unsigned long long)sum, d = (unsigned long long)n, q = a / d,
	    r = a % d;

	if (r >= d - r)
		q++;
	/* |q| <= |sum|: only LLONG_MIN over 1 reaches 2^63 */
	if (sum < 0)
		return q > (unsigned long long)LLONG_MAX ? LLONG_MIN :
		    -(long long)q;
	return (long long)q;
}

/*
 * Most played first, then the higher value (none lowest), as YaneuraOu
 * orders a position's moves; then, by_seq, in the order they were read
 * (sort and query keep a book's order), else by their USI text: in a
 * build and a merge the first play of a move depends on how the games
 * were split into shards (and among threads), its text does not.
 */
static int
before(const struct bookagg_move *x, const struct bookagg_move *y,
    int by_seq)
{
	if (x->count != y->count)
		return x->count > y->count;
	if ((x->evn > 0) != (y->evn > 0))
		return x->evn > 0;
	if (x->evn > 0) {
		long long a = book_mean(x->evsum, x->evn),
		    c = book_mean(y->evsum, y->evn);

		if (a != c)
			return a > c;
	}
	if (by_seq)
		return x->seq < y->seq;
	return strcmp(x->usi, y->usi) < 0;
}

size_t
book_order_moves(const struct bookagg_entry *e, int min_count, int by_seq,
    size_t **idx, size_t *alloc)
{
	size_t n = 0, i, j;

	for (i = 0; i < e->n; i++) {
		if (e->moves[i].count < min_count)
			continue;
		ALLOC_GROW(*idx, n + 1, *alloc);
		/* insertion: a position has a few dozen moves at most */
		for (j = n; j > 0 && before(&e->moves[i], &e->moves[(*idx)[j -
		    1]], by_seq); j--)
			(*idx)[j] = (*idx)[j - 1];
		(*idx)[j] = i;
		n++;
	}
	return n;
}

/* One move's line and the comment lines after it. */
static void
write_move(struct strbuf *out, const struct bookagg_move *m)
{
	struct book_move_out o;
	struct strbuf tail = STRBUF_INIT;
	const char *nl = m->tail_len ? memchr(m->tail, '\n', m->tail_len) :
	    NULL;
	size_t line_part = nl ? (size_t)(nl - m->tail) : m->tail_len;

	memset(&o, 0, sizeof(o));
	o.move = m->usi;
	o.ponder = m->ponder[0] ? m->ponder : NULL;
	o.count = m->count;
	o.has_depth = m->has_depth;
	o.depth = m->depth;
	strbuf_add(&tail, m->tail, line_part);
	if (m->evn > 0) {
		long long implied;

		o.has_value = 1;
		o.value = book_mean(m->evsum, m->evn);
		/* The value alone would lose what merging needs. */
		if (m->evn != book_implied_evals(m->count) ||
		    __builtin_mul_overflow(o.value, m->evn, &implied) ||
		    implied != m->evsum)
			strbuf_addf(&tail, BOOK_EVALS_TAG "%lld/%lld", m->evn,
			    m->evsum);
	}
	strbuf_add(&tail, m->tail + line_part, m->tail_len - line_part);
	o.tail = tail.buf ? tail.buf : "";
	o.tail_len = tail.len;
	book_write_move(out, &o);
	strbuf_release(&tail);
}

struct writer {
	struct book *b;
	book_sink_fn put;
	void *ctx;
	int write_error;	/* errno of the output's failure */
};

static int
write_entry(void *ctx, const struct bookagg_entry *e)
{
	struct writer *wr = ctx;
	struct book *b = wr->b;
	size_t n = book_order_moves(e, b->o.min_count, b->o.by_seq, &b->idx,
	    &b->aidx), i;

	if (!n)
		return 0;
	strbuf_reset(&b->w);
	book_write_position(&b->w, e->key, e->key_len, e->ply);
	if (e->comment_len) {
		strbuf_add(&b->w, e->comment, e->comment_len);
		strbuf_addc(&b->w, '\n');
	}
	for (i = 0; i < n; i++)
		write_move(&b->w, &e->moves[b->idx[i]]);
	b->positions++;
	b->moves += (long long)n;
	if (wr->put(wr->ctx, b->w.buf, b->w.len) < 0) {
		wr->write_error = errno ? errno : EIO;
		return 1;
	}
	return 0;
}

enum book_write_status
book_write_to(struct book *b, book_sink_fn put, void *ctx)
{
	struct writer wr = { b, put, ctx, 0 };
	int rc;

	strbuf_reset(&b->w);
	book_write_header(&b->w);
	if (b->preamble.len)
		strbuf_add(&b->w, b->preamble.buf, b->preamble.len);
	if (put(ctx, b->w.buf, b->w.len) < 0)
		wr.write_error = errno ? errno : EIO;
	rc = wr.write_error ? 1 : bookagg_finish(&b->agg, write_entry, &wr);
	if (rc < 0) {
		b->error = errno;
		return errno == EOVERFLOW ? BOOK_OVERFLOW : BOOK_RUN_FAILED;
	}
	if (rc || wr.write_error) {
		errno = b->error = wr.write_error ? wr.write_error : EIO;
		return BOOK_WRITE_FAILED;
	}
	return BOOK_WRITTEN;
}

static int
to_stream(void *ctx, const void *data, size_t n)
{
	return output_stream_write(ctx, data, n);
}

enum book_write_status
book_write(struct book *b, struct output_stream *out)
{
	return book_write_to(b, to_stream, out);
}

struct texter {
	struct book *b;
	struct strbuf *out;
};

static int
text_entry(void *ctx, const struct bookagg_entry *e)
{
	struct book *b = ((struct texter *)ctx)->b;
	struct strbuf *out = ((struct texter *)ctx)->out;
	size_t n = book_order_moves(e, 0, 1, &b->idx, &b->aidx), i;

	for (i = 0; i < n; i++) {
		const struct bookagg_move *m = &e->moves[b->idx[i]];

		strbuf_addf(out, "%s %s ", m->usi, m->ponder[0] ? m->ponder :
		    "none");
		if (m->evn > 0)
			strbuf_addf(out, "%lld ", book_mean(m->evsum, m->evn));
		else
			strbuf_adds(out, "none ");
		if (m->has_depth)
			strbuf_addf(out, "%lld ", m->depth);
		else
			strbuf_adds(out, "none ");
		strbuf_addf(out, "%lld\n", m->count);
	}
	return 0;
}

void
book_query_text(struct book *b, struct strbuf *out)
{
	struct texter t = { b, out };

	bookagg_finish(&b->agg, text_entry, &t);
}
