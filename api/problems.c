/*
 * problems.c - problems from a stream, one a line (see problems.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/limit.h"
#include "core/replay.h"
#include "core/xalloc.h"
#include "formats.h"
#include "problems.h"

/* Bytes read at a time. */
#define CHUNK 65536

void
problem_reader_init(struct problem_reader *pr, FILE *f,
    const struct variant *v, int ply)
{
	memset(pr, 0, sizeof(*pr));
	pr->f = f;
	pr->v = v;
	pr->ply = ply;
	pr->max_line = limits_default.line;
	text_init(&pr->t);
	record_init(&pr->r, v);
}

void
problem_reader_release(struct problem_reader *pr)
{
	free(pr->buf);
	text_release(&pr->t);
	record_release(&pr->r);
	memset(pr, 0, sizeof(*pr));
}

void
problem_init(struct problem *p)
{
	memset(p, 0, sizeof(*p));
}

void
problem_release(struct problem *p)
{
	diag_list_release(&p->d);
	memset(p, 0, sizeof(*p));
}

/* Reads more of the stream; 0, or -1 when nothing more came. */
static int
fill(struct problem_reader *pr)
{
	size_t got;

	if (pr->eof)
		return -1;
	if (!pr->keep && pr->start > 0) {
		memmove(pr->buf, pr->buf + pr->start, pr->len - pr->start);
		pr->len -= pr->start;
		pr->start = 0;
	}
	if (pr->alloc - pr->len < CHUNK) {
		pr->alloc = pr->alloc ? 2 * pr->alloc : 2 * CHUNK;
		while (pr->alloc - pr->len < CHUNK)
			pr->alloc *= 2;
		pr->buf = xreallocarray(pr->buf, pr->alloc, 1);
	}
	got = fread(pr->buf + pr->len, 1, CHUNK, pr->f);
	pr->len += got;
	if (got < CHUNK) {
		if (ferror(pr->f))
			pr->error = errno ? errno : EIO;
		pr->eof = 1;
	}
	return got ? 0 : -1;
}

/*
 * The next line into *s, *n (its end and a CR before it left off).
 * Returns 1, 0 at the end, -1 read error, -2 a line over max_line,
 * skipped to its end.
 */
static int
next_line(struct problem_reader *pr, const char **s, size_t *n)
{
	size_t from = pr->start, scanned = from;
	int too_long = 0;

	for (;;) {
		char *nl = scanned < pr->len ? memchr(pr->buf + scanned, '\n',
		    pr->len - scanned) : NULL;
		size_t end;

		if (!nl && !too_long && pr->max_line &&
		    pr->len - from > pr->max_line + 1) {
			/* Never kept whole: drop what is read, find its end. */
			too_long = 1;
		}
		if (too_long && !nl && !pr->keep) {
			pr->start = pr->len;
			from = scanned = pr->len;
			if (fill(pr) < 0) {
				pr->line++;
				return pr->error ? -1 : -2;
			}
			from = scanned = pr->start;
			continue;
		}
		if (!nl && !pr->eof) {
			size_t off = scanned - pr->start;
			size_t base = from - pr->start;

			if (fill(pr) < 0 && pr->error)
				return -1;
			from = pr->start + base;
			scanned = pr->start + off;
			continue;
		}
		if (pr->error)
			return -1;
		end = nl ? (size_t)(nl - pr->buf) : pr->len;
		if (!nl && end == from)
			return 0;
		pr->line++;
		pr->start = nl ? end + 1 : end;
		if (too_long || (pr->max_line && end - from > pr->max_line))
			return -2;
		*s = pr->buf + from;
		*n = end - from;
		if (*n && (*s)[*n - 1] == '\r')
			(*n)--;
		return 1;
	}
}

static int
blank_or_comment(const char *s, size_t n)
{
	size_t i = 0;

	/* A UTF-8 byte-order mark may open the stream. */
	if (n >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i == n || s[i] == '#';
}

/* Whether the line starts as a USI position line does. */
static int
looks_like_position(const char *s, size_t n)
{
	static const char board[] = "plnsgbrkPLNSGBRK+123456789/";
	size_t i = 0, j;
	int slash = 0;

	if (n >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	s += i;
	n -= i;
	if ((n >= 8 && memcmp(s, "position", 8) == 0) ||
	    (n >= 4 && memcmp(s, "sfen", 4) == 0) ||
	    (n >= 8 && memcmp(s, "startpos", 8) == 0))
		return 1;
	for (j = 0; j < n && s[j] != ' '; j++) {
		if (!s[j] || !strchr(board, s[j]))
			return 0;
		slash += s[j] == '/';
	}
	return slash >= 4 && j < n;
}

int
problem_reader_sniff(struct problem_reader *pr)
{
	size_t start = pr->start, line = pr->line;
	const char *s;
	size_t n;
	int ret, yes = 0;

	pr->keep = 1;
	for (;;) {
		ret = next_line(pr, &s, &n);
		if (ret == -1)
			return -1;
		if (ret == 0) {
			/* Blank lines and comments only: an empty set. */
			yes = 1;
			break;
		}
		if (ret == -2)
			break;		/* a huge first line: no problem line */
		if (blank_or_comment(s, n))
			continue;
		yes = looks_like_position(s, n);
		break;
	}
	/* Read again from the start: the problems, or the whole file. */
	pr->start = start;
	pr->line = line;
	pr->keep = !yes;
	return yes;
}

int
problem_reader_rest(struct problem_reader *pr, struct strbuf *out, size_t max)
{
	for (;;) {
		if (pr->len - pr->start > max) {
			errno = EFBIG;
			return -1;
		}
		if (pr->eof)
			break;
		if (fill(pr) < 0)
			break;
	}
	if (pr->error) {
		errno = pr->error;
		return -1;
	}
	strbuf_add(out, pr->buf + pr->start, pr->len - pr->start);
	pr->start = pr->len;
	return 0;
}

/* The line's diagnostics at its place in the stream. */
static void
relocate(struct diag_list *d, size_t from, size_t line)
{
	size_t i;

	for (i = from; i < d->n; i++)
		if (d->v[i].loc.line)
			d->v[i].loc.line = (uint32_t)line;
}

static void
read_line(struct text *t, struct record *r, const char *s, size_t n,
    const struct variant *v, int ply, size_t line, struct problem *p)
{
	const struct format *usi = formats_by_name("usi");
	struct span at = { (uint32_t)line, 1, 0, 0 };
	struct reader rd;
	struct replay rp;
	enum read_status st;
	int32_t last;

	p->line = line;
	if (text_decode(t, s, n, &p->d) < 0)
		goto out;
	record_reset(r, v);
	reader_init(&rd, t, v);
	st = usi->read(&rd, r, &p->d);
	if (st == READ_EOF && !p->d.errors)
		diag_add(&p->d, DIAG_ERROR, diag_id_name(DIAG_EMPTY), &at, 0,
		    "no position on this line");
	if (st != READ_OK || p->d.errors)
		goto out;
	replay_record(r, &rp, &p->d);
	if (p->d.errors)
		goto out;
	p->moves = record_main_position(r, ply, &p->pos, &last);
	if (ply > p->moves)
		diag_add(&p->d, DIAG_ERROR, diag_id_name(DIAG_LIMIT), &at, ply,
		    "the line has %d moves, not %d", p->moves, ply);
out:
	relocate(&p->d, 0, line);
}

int
problem_reader_next(struct problem_reader *pr, struct problem *p)
{
	const char *s;
	size_t n;

	problem_release(p);
	for (;;) {
		int ret = next_line(pr, &s, &n);

		if (ret == -1) {
			errno = pr->error;
			return -1;
		}
		if (ret == 0)
			return 0;
		if (ret == -2) {
			struct span at = { (uint32_t)pr->line, 1, 0, 0 };

			p->line = pr->line;
			diag_add(&p->d, DIAG_ERROR, diag_id_name(DIAG_LIMIT), &at,
			    0, "line longer than %zu bytes (--limit line)",
			    pr->max_line);
			return 1;
		}
		if (blank_or_comment(s, n))
			continue;
		read_line(&pr->t, &pr->r, s, n, pr->v, pr->ply, pr->line, p);
		return 1;
	}
}

void
problem_from_text(const char *s, size_t n, const struct variant *v, int ply,
    size_t line, struct problem *p)
{
	struct text t;
	struct record r;

	problem_release(p);
	text_init(&t);
	record_init(&r, v);
	read_line(&t, &r, s, n, v, ply, line, p);
	record_release(&r);
	text_release(&t);
}
