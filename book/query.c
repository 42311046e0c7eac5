/*
 * query.c - a position's moves in a book file (book.h: book_query): by
 * binary search in a sorted book, without reading it whole; an unsorted
 * one is read through.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "book/book_private.h"
#include "core/xalloc.h"
#include "parsers/book.h"

/*
 * A book being searched, read a block at a time: the probes of a binary
 * search and the scans of the lines after them read few bytes each.
 */
struct qfile {
	int fd;
	off_t size;
	off_t at;			/* the block's offset */
	size_t len;			/* its bytes read */
	char block[16384];
};

/* The bytes from off on that the block holds (read if it must be) in *p:
   how many; 0 at the end of the file or on a read error. */
static size_t
qview(struct qfile *q, off_t off, const char **p)
{
	if (off < q->at || off >= q->at + (off_t)q->len) {
		ssize_t got = off < q->size ? pread(q->fd, q->block,
		    sizeof(q->block), off) : 0;

		q->at = off;
		q->len = got > 0 ? (size_t)got : 0;
		if (!q->len)
			return 0;
	}
	*p = q->block + (off - q->at);
	return q->len - (size_t)(off - q->at);
}

/* Up to n bytes at off into buf: how many there were. */
static size_t
qread(struct qfile *q, off_t off, char *buf, size_t n)
{
	size_t done = 0;

	while (done < n) {
		const char *p;
		size_t k = qview(q, off + (off_t)done, &p);

		if (!k)
			break;
		if (k > n - done)
			k = n - done;
		memcpy(buf + done, p, k);
		done += k;
	}
	return done;
}

/* The line at off (CR dropped) into *line; the offset after it. */
static off_t
read_line_at(struct qfile *q, off_t off, struct strbuf *line)
{
	strbuf_reset(line);
	while (off < q->size && line->len <= BOOK_LINE_MAX) {
		const char *c, *nl;
		size_t k = qview(q, off, &c);

		if (!k)
			break;
		nl = memchr(c, '\n', k);
		strbuf_add(line, c, nl ? (size_t)(nl - c) : k);
		off += nl ? (nl - c) + 1 : (off_t)k;
		if (nl)
			break;
	}
	if (line->len && line->buf[line->len - 1] == '\r')
		line->buf[--line->len] = '\0';
	return off;
}

/* Where a position's line starts if one starts at s (a line start). */
static off_t
sfen_at(struct qfile *q, off_t s)
{
	char head[8];
	size_t h = qread(q, s, head, sizeof(head));

	if (s == 0 && h == 8 && !memcmp(head, "\xef\xbb\xbfsfen ", 8))
		return 3;
	return h >= 5 && !memcmp(head, "sfen ", 5) ? s : -1;
}

/*
 * The first line starting at or after off that is a position ("sfen ",
 * after a BOM at the file's start): the offset of the line, its text
 * (without the BOM) in *line and the offset after it in *next; -1 if
 * none.
 */
static off_t
next_sfen(struct qfile *q, off_t off, struct strbuf *line, off_t *next)
{
	off_t at = off;
	int line_start = off == 0;

	if (off > 0) {
		char c;

		line_start = qread(q, off - 1, &c, 1) == 1 && c == '\n';
	}
	while (at < q->size) {
		const char *p, *nl;
		size_t n;
		off_t s;

		if (line_start && (s = sfen_at(q, at)) >= 0) {
			*next = read_line_at(q, s, line);
			return at;	/* the line's start, BOM and all */
		}
		/* on to the next line's start (sfen_at may move the block) */
		if (!(n = qview(q, at, &p)))
			return -1;
		nl = memchr(p, '\n', n);
		at += nl ? (nl - p) + 1 : (off_t)n;
		line_start = nl != NULL;
	}
	return -1;
}

/*
 * The key of an sfen line as the book reader makes it (sfen_write_key):
 * a probe compares what a query asks for with what sort would have made
 * of the line, so that a book whose SFEN is written another way (hands
 * in another order) is searched right or seen to be out of order. A line
 * that is no position keeps its text, which puts it out of order.
 */
static size_t
line_key(const struct strbuf *line, char key[SFEN_MAX])
{
	struct position pos;
	long long ply;
	size_t n = book_sfen_key(line->buf + 5, line->len - 5, &ply);

	if (n >= SFEN_MAX)
		n = SFEN_MAX - 1;
	memcpy(key, line->buf + 5, n);
	key[n] = '\0';
	if (sfen_read(&pos, variant_standard(), key, NULL) == SFEN_OK)
		return sfen_write_key(&pos, key);
	return n;
}

/*
 * Binary search: the offset of the position's line, -1 if the book does
 * not have it, -2 if the probes show the book is not sorted.
 */
static off_t
search(struct qfile *q, const char *key, size_t key_len)
{
	struct strbuf line = STRBUF_INIT, lo_key = STRBUF_INIT,
	    hi_key = STRBUF_INIT;
	off_t lo = 0, hi = q->size, found = -1;
	int have_lo = 0, have_hi = 0;

	while (lo < hi) {
		off_t mid = lo + (hi - lo) / 2, next;
		off_t p = next_sfen(q, mid, &line, &next);
		char k[SFEN_MAX];
		size_t kn;
		int c;

		if (p < 0 || p >= hi) {
			hi = mid;
			continue;
		}
		kn = line_key(&line, k);
		if ((have_lo && bookagg_key_cmp(k, kn, lo_key.buf, lo_key.len) <= 0) ||
		    (have_hi && bookagg_key_cmp(k, kn, hi_key.buf, hi_key.len) >= 0)) {
			found = -2;
			break;
		}
		c = bookagg_key_cmp(key, key_len, k, kn);
		if (c == 0) {
			found = p;
			break;
		}
		if (c < 0) {
			hi = mid;
			strbuf_reset(&hi_key);
			strbuf_add(&hi_key, k, kn);
			have_hi = 1;
		} else {
			lo = next;
			strbuf_reset(&lo_key);
			strbuf_add(&lo_key, k, kn);
			have_lo = 1;
		}
	}
	strbuf_release(&line);
	strbuf_release(&lo_key);
	strbuf_release(&hi_key);
	return found;
}

/*
 * Whether the position lines starting in [from, to) come in ascending key
 * order, and after *prev (the last key seen, if *have).
 */
static int
keys_ascend(struct qfile *q, off_t from, off_t to, struct strbuf *prev,
    int *have)
{
	struct strbuf line = STRBUF_INIT;
	off_t at = from, next;
	int ok = 1;

	while (at < q->size && at < to) {
		off_t p = next_sfen(q, at, &line, &next);
		char k[SFEN_MAX];
		size_t kn;

		if (p < 0 || p >= to)
			break;
		kn = line_key(&line, k);
		if (*have && bookagg_key_cmp(k, kn, prev->buf, prev->len) <= 0) {
			ok = 0;
			break;
		}
		strbuf_reset(prev);
		strbuf_add(prev, k, kn);
		*have = 1;
		at = next;
	}
	strbuf_release(&line);
	return ok;
}

/*
 * Whether the book may be binary-searched: it has position lines, its
 * first and last 64 KiB are in order, and the one before the other (two sorted books joined end to
 * end are not). A book unsorted only in its middle still fools this, and
 * the search's own probes catch only some of that: doc/books.md says to
 * `book sort` a book that was edited by hand.
 */
static int
head_sorted(struct qfile *q)
{
	const off_t w = 65536;
	struct strbuf prev = STRBUF_INIT;
	int have = 0, ok;

	if (q->size <= 2 * w)
		ok = keys_ascend(q, 0, q->size, &prev, &have);
	else
		ok = keys_ascend(q, 0, w, &prev, &have) &&
		    keys_ascend(q, q->size - w, q->size, &prev, &have);
	strbuf_release(&prev);
	/*
	 * No position line in its head: an empty book, or no book at all;
	 * reading it through tells which, and names the first line that is
	 * no book's, where a search would only find nothing.
	 */
	return ok && have;
}

struct query {
	struct book *b;
	struct diag_list *d;
	const char *key;
	size_t key_len;
	int found;
	int stop_after;		/* binary search: the first block only */
};

static int
query_block(void *ctx, const struct book_rblock *blk)
{
	struct query *q = ctx;

	if (blk->key_len != q->key_len || memcmp(blk->key, q->key,
	    q->key_len))
		return q->stop_after && q->found ? -2 : 0;
	q->found = 1;
	return book_add_block(q->b, blk, q->d);
}

/* The lines from off to the block's end (and any block of the same key
   right after it), read as a book whose first line is lineno. */
static int
read_at(struct qfile *qf, off_t off, struct query *q)
{
	struct book_in in;
	struct strbuf text = STRBUF_INIT;
	off_t at = off;
	int rc = 0, blocks = 0;

	book_in_init(&in, q->d);
	in.mid_file = off > 0;
	/* Line numbers for messages: counted from off, and the lines
	   before it only if a message needs them. */
	in.lines_after = 1;
	in.fd = qf->fd;
	in.before = off;
	while (!rc && at < qf->size) {
		char c[4096];
		ssize_t got = pread(qf->fd, c, sizeof(c), at);
		char *nl;
		size_t len;

		if (got <= 0)
			break;
		nl = memchr(c, '\n', (size_t)got);
		len = nl ? (size_t)(nl - c) : (size_t)got;
		strbuf_add(&text, c, len);
		at += (off_t)len + (nl ? 1 : 0);
		if (!nl && at < qf->size && text.len <= BOOK_LINE_MAX + 1)
			continue;
		in.lineno++;
		if (text.len >= 5 && !memcmp(text.buf, "sfen ", 5) &&
		    ++blocks > 1 && in.blk.has) {
			long long ply;
			size_t kn = book_sfen_key(text.buf + 5, text.len - 5,
			    &ply);

			/* only a repeat of the key goes on */
			if (bookagg_key_cmp(text.buf + 5, kn, in.blk.key,
			    in.blk.key_len) != 0)
				break;
		}
		rc = book_in_line(&in, text.buf, text.len, query_block, q);
		strbuf_reset(&text);
	}
	if (!rc && in.blk.has)
		rc = query_block(q, &in.blk);
	book_in_release(&in);
	strbuf_release(&text);
	/* -2: the block after the one asked for, which ends the search */
	return rc == -2 ? 0 : rc;
}

int
book_query(struct book *b, const char *path, const struct position *pos,
    struct diag_list *d)
{
	struct qfile *qf;
	struct query q;
	struct stat st;
	char key[SFEN_MAX];
	int rc = 0, sorted;
	off_t at = -2;

	memset(&q, 0, sizeof(q));
	q.b = b;
	q.d = d;
	q.key = key;
	q.key_len = sfen_write_key(pos, key);
	qf = xmalloc(sizeof(*qf));
	if ((qf->fd = open(path, O_RDONLY)) < 0 || fstat(qf->fd, &st) < 0) {
		int saved = errno;

		if (qf->fd >= 0)
			close(qf->fd);
		free(qf);
		errno = saved;
		return -1;
	}
	qf->size = S_ISREG(st.st_mode) ? st.st_size : 0;
	qf->at = 0;
	qf->len = 0;
	sorted = S_ISREG(st.st_mode) && head_sorted(qf);
	if (sorted)
		at = search(qf, q.key, q.key_len);
	if (at >= 0) {
		q.stop_after = 1;
		rc = read_at(qf, at, &q);
	} else if (at == -2) {
		/* not sorted (or not a file): read it through */
		struct book_in in;

		book_in_init(&in, d);
		rc = book_in_file(&in, path, query_block, &q);
		book_in_release(&in);
	}
	close(qf->fd);
	free(qf);
	if (rc == 1)
		return 2;
	if (rc < 0)
		return -1;
	return q.found;
}
