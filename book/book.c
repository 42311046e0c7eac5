/*
 * book.c - `kifu book`: YaneuraOu's text opening books (parsers/book.h).
 *
 *   build  the moves played from the first plies of every selected game
 *          (query/select.h, as `kifu export` selects), walked as `check`
 *          walks (walk/pipeline.h), counted in input order on the main
 *          thread, so the bytes are the same for every -j;
 *   merge  books combined as one build over all their games;
 *   sort   one book written sorted (what merge does with one book);
 *   query  a position's moves, by binary search in a sorted book.
 *
 * Every book read is checked: each position by core/sfen, each move and
 * ponder move by core/rules against it. The table lives in a memory
 * budget and spills to sorted runs (book/bookagg.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "queryopts.h"
#include "ruleopts.h"
#include "walkopts.h"
#include "api/formats.h"
#include "api/judge.h"
#include "api/output.h"
#include "book/bookagg.h"
#include "core/clock.h"
#include "core/rules.h"
#include "core/sfen.h"
#include "core/usi.h"
#include "core/xalloc.h"
#include "parsers/book.h"
#include "parsers/train.h"
#include "query/filter.h"
#include "query/select.h"

const char cmd_book_usage[] =
    "usage: kifu book build [<options>] <path>... [-o <book.db>]\n"
    "   or: kifu book merge [--min-count <k>] [--memory <size>]\n"
    "                  <book.db>... [-o <book.db>]\n"
    "   or: kifu book sort [--memory <size>] <book.db> [-o <book.db>]\n"
    "   or: kifu book query <book.db> --sfen <sfen>\n"
    "   or: kifu book query <book.db> --usi <position>\n"
    "\n"
    "Opening books in YaneuraOu's text format (#YANEURAOU-DB2016 1.00).\n"
    "\n"
    "build: for the positions at plies 0..N-1 of the main line of every\n"
    "selected record, each move played from it with its count (the times\n"
    "it was played there). A position is its board, hands and side to\n"
    "move, so transpositions merge; its sfen line has the lowest move\n"
    "number it was seen at. The value is the mean of the evaluations in\n"
    "the records' comments (the mover's view, rounded), none without\n"
    "one; the depth is none. Positions are written sorted by their SFEN\n"
    "text, as YaneuraOu sorts a book; moves most played first. Records\n"
    "with an illegal move or that cannot be read are skipped. The summary\n"
    "goes to stderr. The output is the same bytes for every -j.\n"
    "    --max-ply <n>        positions at plies 0..n-1 (default 40)\n"
    "    --min-count <k>      drop moves played fewer than k times\n"
    "    --side black|white   only the positions with that side to move\n"
    "    --memory <size>      the positions' budget, a number with K, M or\n"
    "                         G (default 512M); past it sorted runs spill\n"
    "                         to temporary files ($TMPDIR, else beside the\n"
    "                         output) and are merged\n"
    "    -o, --output <file>  the book (default and '-': standard output);\n"
    "                         written whole or not at all\n"
    "    --force              replace an existing file\n"
    "\n"
    "merge: the books' positions and moves combined: counts added, values\n"
    "averaged over the evaluated plays (exactly, for books kifu built:\n"
    "a value that is no exact mean of its count carries its sum as a\n"
    "'#kifu-evals=N/SUM' comment), the deepest depth, the first ponder.\n"
    "Books built from shards of the games merge to the book one build\n"
    "over all of them writes. --min-count applies after combining.\n"
    "\n"
    "sort: the book read (with or without the header, a BOM, CRLF line\n"
    "ends, '#' and '//' comments kept with the position or move they\n"
    "follow, positions in any order, repeated positions combined) and\n"
    "written sorted: a sorted book kifu or YaneuraOu wrote comes back\n"
    "byte for byte.\n"
    "\n"
    "query: the moves of the position as 'move ponder value depth count'\n"
    "lines, most played first; exit 1 when the book does not have it. A\n"
    "sorted book is searched by binary search in the file, without\n"
    "reading it whole; an unsorted one is read through.\n"
    "    --sfen <sfen>        the position (the move number is ignored)\n"
    "    --usi <position>     the same, as 'startpos moves 7g7f ...' or\n"
    "                         'sfen <sfen> moves ...'\n"
    "\n"
    "Every book read is checked: a header other than '" BOOK_HEADER "',\n"
    "a line that is no position, move or comment, an impossible position,\n"
    "or a move or ponder move that is illegal in its position is an error\n"
    "naming file:line:col, and nothing is written.\n"
    "\n"
    SELECT_HELP
    "\n"
    WALK_HELP
    "Reading:\n"
    "    --from <format>      read every record as this format\n"
    "\n"
    "Exit status: 0 written (query: found), 1 query: not in the book,\n"
    "2 trouble (usage, an input that cannot be read: the book is written\n"
    "from the rest; a book with an error or a write error: nothing is\n"
    "written).\n"
    "\n"
    RULEOPTS_HELP;

enum {
	OPT_FORCE = 0x1c0, OPT_MAX_PLY, OPT_MIN_COUNT, OPT_SIDE, OPT_MEMORY,
	OPT_FROM, OPT_SFEN, OPT_USI
};

#define DEFAULT_MEMORY ((size_t)512 << 20)
#define EVALS_TAG " #kifu-evals="

/* Why a record is not in the book: reading, then the selection's. */
enum {
	WHY_USED = 0, WHY_UNREADABLE, WHY_ILLEGAL,
	WHY_SELECT = 3,
	WHY_TRAIN = WHY_SELECT + SELECT_NB,	/* a start the walk refuses */
	WHY_NB = WHY_TRAIN + TRAIN_SKIP_NB
};

static const char *
why_name(int why)
{
	switch (why) {
	case WHY_UNREADABLE: return "unreadable";
	case WHY_ILLEGAL: return "illegal";
	default: break;
	}
	if (why >= WHY_SELECT && why < WHY_TRAIN)
		return select_drop_name((enum select_drop)(why - WHY_SELECT));
	if (why >= WHY_TRAIN && why < WHY_NB)
		return train_skip_name((enum train_skip)(why - WHY_TRAIN));
	return "used";
}

struct book {
	/* options */
	int max_ply, min_count, side;	/* side: -1 both */
	int by_seq;			/* ties in read order (sort) */
	size_t memory;
	const char *out_path;
	int force;
	struct select_opts so;
	struct judge_opts jo;
	/* state */
	struct bookagg agg;
	struct select_seen seen;
	struct output_stream out_s;
	struct strbuf preamble;		/* comment lines before any position */
	struct strbuf w;		/* an entry's text, reused */
	int status;
	int write_failed;
	/* counts */
	long long records, used, files_skipped, why[WHY_NB];
	long long plies, positions, moves;
	double seconds;
};

static void
worst(struct book *b, int status)
{
	if (status > b->status)
		b->status = status;
}

/* ---- writing the book -------------------------------------------------- */

static int
is_stdout(const char *path)
{
	return !path || strcmp(path, "-") == 0;
}

/*
 * The mean (n >= 1), rounded half away from zero, without overflow for
 * any sum and n a book's tag may carry.
 */
static long long
mean(long long sum, long long n)
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

/* Plays a value stands for when it carries no sum: its count, or 1. */
static long long
implied_evals(long long count)
{
	return count > 0 ? count : 1;
}

/*
 * Most played first, then the higher value (none lowest), as YaneuraOu
 * orders a position's moves; then, by_seq, in the order they were read
 * (sort and query keep a book's order), else by their USI text: in a
 * build and a merge the first play of a move depends on how the games
 * were split into shards, its text does not.
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
		long long a = mean(x->evsum, x->evn), c = mean(y->evsum, y->evn);

		if (a != c)
			return a > c;
	}
	if (by_seq)
		return x->seq < y->seq;
	return strcmp(x->usi, y->usi) < 0;
}

/* The moves kept (count >= min_count), in book order, into *idx. */
static size_t
order_moves(const struct bookagg_entry *e, int min_count, int by_seq,
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
		o.value = mean(m->evsum, m->evn);
		/* The value alone would lose what merging needs. */
		if (m->evn != implied_evals(m->count) ||
		    __builtin_mul_overflow(o.value, m->evn, &implied) ||
		    implied != m->evsum)
			strbuf_addf(&tail, EVALS_TAG "%lld/%lld", m->evn,
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
	size_t *idx, alloc;
};

static int
write_entry(void *ctx, const struct bookagg_entry *e)
{
	struct writer *wr = ctx;
	struct book *b = wr->b;
	size_t n = order_moves(e, b->min_count, b->by_seq, &wr->idx,
	    &wr->alloc), i;

	if (!n)
		return 0;
	strbuf_reset(&b->w);
	book_write_position(&b->w, e->key, e->key_len, e->ply);
	if (e->comment_len) {
		strbuf_add(&b->w, e->comment, e->comment_len);
		strbuf_addc(&b->w, '\n');
	}
	for (i = 0; i < n; i++)
		write_move(&b->w, &e->moves[wr->idx[i]]);
	b->positions++;
	b->moves += (long long)n;
	if (output_stream_write(&b->out_s, b->w.buf, b->w.len) < 0) {
		b->write_failed = errno ? errno : EIO;
		return 1;
	}
	return 0;
}

static int
open_output(struct book *b)
{
	if (output_stream_open(&b->out_s, b->out_path, b->force, -1) < 0)
		return cmd_error("cannot write '%s': %s%s", b->out_path,
		    strerror(errno), errno == EEXIST ? " (use --force to "
		    "replace it)" : "");
	return 0;
}

/* Where the runs go: $TMPDIR, else the output's directory. */
static char *
run_dir(const char *out_path)
{
	const char *t = getenv("TMPDIR");
	const char *slash;

	if (t && *t)
		return xstrndup(t, strlen(t));
	if (is_stdout(out_path) || !(slash = strrchr(out_path, '/')))
		return xstrndup(".", 1);
	if (slash == out_path)
		return xstrndup("/", 1);
	return xstrndup(out_path, (size_t)(slash - out_path));
}

/*
 * Writes the table out and puts the book in place. 0 or EXIT_TROUBLE
 * (nothing left behind).
 */
static int
finish_book(struct book *b)
{
	struct writer wr = { b, NULL, 0 };
	int rc;

	strbuf_reset(&b->w);
	book_write_header(&b->w);
	if (b->preamble.len)
		strbuf_add(&b->w, b->preamble.buf, b->preamble.len);
	if (output_stream_write(&b->out_s, b->w.buf, b->w.len) < 0)
		b->write_failed = errno ? errno : EIO;
	rc = b->write_failed ? 1 : bookagg_finish(&b->agg, write_entry, &wr);
	free(wr.idx);
	if (rc < 0) {
		output_stream_abort(&b->out_s);
		if (errno == EOVERFLOW)
			return cmd_error("the counts or evaluations of %s add "
			    "up past %lld [book-overflow]; nothing written",
			    b->agg.overflow, LLONG_MAX);
		return cmd_error("cannot write a temporary run: %s; nothing "
		    "written", strerror(errno));
	}
	if (rc || b->write_failed) {
		output_stream_abort(&b->out_s);
		return cmd_error("cannot write '%s': %s; nothing written",
		    is_stdout(b->out_path) ? "<stdout>" : b->out_path,
		    strerror(b->write_failed ? b->write_failed : EIO));
	}
	if (output_stream_commit(&b->out_s) < 0)
		return cmd_error("cannot write '%s': %s; nothing written",
		    is_stdout(b->out_path) ? "<stdout>" : b->out_path,
		    strerror(errno));
	return 0;
}

/* ---- reading a book ------------------------------------------------------ */

/* A position of a book being read, with its moves. */
struct rmove {
	char usi[USI_MOVE_MAX], ponder[USI_MOVE_MAX];
	long long count, evsum, evn, depth;
	int has_depth;
	struct strbuf tail;
	unsigned long line;		/* of the move line */
};

struct rblock {
	const char *name;		/* the book's, as shown */
	int has;			/* a position is open */
	char key[SFEN_MAX];
	size_t key_len;
	long long ply;
	struct position pos;
	struct strbuf comment;
	struct rmove *m;
	size_t n, alloc;
};

struct book_in {
	const char *name;		/* as shown */
	FILE *f;
	struct strbuf line;
	unsigned long lineno;
	struct rblock blk;
	struct strbuf *preamble;	/* NULL: comments before any
					   position are dropped */
	int mid_file;			/* read from inside the file: no
					   line is its first */
	/*
	 * With mid_file, set when lineno counts from the byte offset
	 * before in file fd (a query's lines): the newlines before it are
	 * counted only for a message, as they may be most of a 500 MB
	 * book.
	 */
	int lines_after;
	int fd;
	off_t before;
};

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
	struct strbuf sb = STRBUF_INIT;

	if (in->lines_after)
		line += newlines_before(in->fd, in->before);
	cmd_add_clean(&sb, msg);
	fprintf(stderr, "%s:%lu:%zu: error: %s [%s]\n", in->name, line, col,
	    sb.buf, id);
	strbuf_release(&sb);
	return EXIT_TROUBLE;
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
	size_t tl = strlen(EVALS_TAG), i;
	const char *p;
	char buf[64], *end, *slash;

	for (i = *n; i >= tl; i--) {
		if (memcmp(tail + i - tl, EVALS_TAG, tl) == 0)
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

static struct rmove *
block_move(struct rblock *b)
{
	struct rmove *m;

	ALLOC_GROW(b->m, b->n + 1, b->alloc);
	m = &b->m[b->n++];
	memset(m, 0, sizeof(*m));
	strbuf_init(&m->tail);
	return m;
}

static void
block_clear(struct rblock *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		strbuf_release(&b->m[i].tail);
	b->n = 0;
	b->has = 0;
	strbuf_reset(&b->comment);
}

static void
block_release(struct rblock *b)
{
	block_clear(b);
	free(b->m);
	strbuf_release(&b->comment);
}

typedef int (*block_fn)(void *ctx, const struct rblock *b);

/*
 * One line into the open block (or a new one, given to done() when it
 * ends). 0 or EXIT_TROUBLE (reported).
 */
static int
book_line(struct book_in *in, const char *text, size_t len, block_fn done,
    void *ctx)
{
	struct rblock *b = &in->blk;
	struct book_line l;
	struct book_error err;
	struct sfen_error se;
	struct rmove *m;
	move mv, pm;
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
	if (!b->has)
		return book_fail(in, in->lineno, 1, "book-syntax",
		    "a move before any 'sfen' line");
	if ((r = check_usi(&b->pos, l.text.p, l.text.n, &mv)) != RULE_OK) {
		char msg[200];

		snprintf(msg, sizeof(msg), "move '%.*s' is illegal in this "
		    "position: %s", (int)l.text.n, l.text.p, r < 0 ?
		    "not a move on this board" : rule_description(r));
		return book_fail(in, in->lineno, 1, r < 0 ? "book-syntax" :
		    rule_id_name(r), msg);
	}
	m = block_move(b);
	m->line = in->lineno;
	usi_format_move(mv, m->usi);
	if (l.ponder.n) {
		struct position after = b->pos;
		struct undo u;

		position_do_move(&after, mv, &u);
		if ((r = check_usi(&after, l.ponder.p, l.ponder.n, &pm)) !=
		    RULE_OK) {
			char msg[200];

			snprintf(msg, sizeof(msg), "ponder '%.*s' is illegal "
			    "after '%s': %s", (int)l.ponder.n, l.ponder.p,
			    m->usi, r < 0 ? "not a move on this board" :
			    rule_description(r));
			return book_fail(in, in->lineno, l.ponder_col, r < 0 ?
			    "book-syntax" : rule_id_name(r), msg);
		}
		usi_format_move(pm, m->ponder);
	}
	m->count = l.count;
	m->has_depth = l.has_depth;
	m->depth = l.depth;
	if (l.has_value) {
		size_t n = l.tail.n;

		/*
		 * A tag the value no longer agrees with (someone edited the
		 * value) is stale: the value on the line wins.
		 */
		if (!take_evals(l.tail.p, &n, &m->evn, &m->evsum) ||
		    mean(m->evsum, m->evn) != l.value) {
			m->evn = implied_evals(l.count);
			m->evsum = l.value * m->evn;
		}
		l.tail.n = n;
	}
	if (l.tail.n)
		strbuf_add(&m->tail, l.tail.p, l.tail.n);
	return 0;
}

/*
 * Reads the book at path ("-": standard input) through done(), a
 * position at a time. 0 or EXIT_TROUBLE (reported), or done()'s.
 */
static int
book_read(const char *path, struct strbuf *preamble, block_fn done, void *ctx)
{
	struct book_in in;
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	int rc = 0;

	memset(&in, 0, sizeof(in));
	in.name = is_stdout(path) ? "<stdin>" : path;
	in.blk.name = in.name;
	in.preamble = preamble;
	strbuf_init(&in.blk.comment);
	if (is_stdout(path))
		in.f = stdin;
	else if (!(in.f = fopen(path, "rb")))
		return cmd_error("cannot read '%s': %s", path, strerror(errno));
	while (!rc && (got = getline(&line, &cap, in.f)) >= 0) {
		size_t len = (size_t)got;

		in.lineno++;
		if (len && line[len - 1] == '\n')
			len--;
		rc = book_line(&in, line, len, done, ctx);
	}
	if (!rc && ferror(in.f))
		rc = cmd_error("cannot read '%s': %s", in.name,
		    strerror(errno));
	if (!rc && in.blk.has)
		rc = done(ctx, &in.blk);
	free(line);
	block_release(&in.blk);
	if (in.f != stdin)
		fclose(in.f);
	return rc;
}

/* A read position into the table. */
static int
add_block(void *ctx, const struct rblock *blk)
{
	struct book *b = ctx;
	size_t i;

	if (bookagg_add(&b->agg, blk->key, blk->key_len, blk->ply, NULL,
	    blk->comment.buf, blk->comment.len) < 0)
		return cmd_error("cannot write a temporary run: %s",
		    strerror(errno));
	for (i = 0; i < blk->n; i++) {
		const struct rmove *r = &blk->m[i];
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
			if (errno == EOVERFLOW) {
				fprintf(stderr, "%s:%lu:1: error: the counts or "
				    "evaluations of %s add up past %lld with "
				    "the book's earlier lines [book-overflow]\n",
				    blk->name, r->line, m.usi, LLONG_MAX);
				return EXIT_TROUBLE;
			}
			return cmd_error("cannot write a temporary run: %s",
			    strerror(errno));
		}
	}
	return 0;
}

/* ---- build: the workers' side ----------------------------------------- */

struct item {
	size_t key_off;
	uint16_t key_len;
	char usi[USI_MOVE_MAX];
	int ply;			/* move number */
	int has_eval, eval;
};

struct rec {
	int why;
	uint64_t key;			/* select_key(), with --uniq */
	size_t first, n;		/* its items */
	size_t keys_len;		/* the batch's keys before them */
	int io;
	size_t note;			/* its message in notes, for io */
};

struct book_batch {
	struct pipe_batch base;	/* unused: keys and notes are kept apart */
	struct strbuf keys, notes;
	struct item *items;
	size_t nitems, aitems;
	struct rec *recs;
	size_t nrecs, arecs;
	long long files_skipped;
	struct book *b;
};

static struct rec *
new_rec(struct book_batch *bb)
{
	struct rec *r;

	ALLOC_GROW(bb->recs, bb->nrecs + 1, bb->arecs);
	r = &bb->recs[bb->nrecs++];
	memset(r, 0, sizeof(*r));
	r->first = bb->nitems;
	r->keys_len = bb->keys.len;
	return r;
}

/* The positions and moves of a selected record into the batch:
   TRAIN_WRITTEN, or why the walk refuses its start. */
static enum train_skip
record_items(struct book_batch *bb, const struct verdict *v)
{
	const struct book *b = bb->b;
	struct train_game g;
	struct train_opts to;
	struct train_walk w;
	struct sfen_key_cache kc;

	sfen_key_cache_init(&kc);
	memset(&to, 0, sizeof(to));
	g.r = v->r;
	g.rp = v->rp;
	g.adj = v->adj;
	enum train_skip why = train_walk_start(&w, &g, &to,
	    TRAIN_TRACK_POSITION);

	if (why != TRAIN_WRITTEN)
		return why;
	while (train_walk_next(&w)) {
		char sfen[SFEN_MAX];
		struct item *it;
		size_t n;

		if (w.ply >= b->max_ply)
			break;
		if (b->side >= 0 && (int)w.pos.side != b->side)
			continue;
		n = sfen_write_key_cached(&kc, &w.pos, sfen);
		ALLOC_GROW(bb->items, bb->nitems + 1, bb->aitems);
		it = &bb->items[bb->nitems++];
		it->key_off = bb->keys.len;
		it->key_len = (uint16_t)n;
		strbuf_add(&bb->keys, sfen, n);
		usi_format_move(w.mv, it->usi);
		it->ply = w.move_number;
		it->has_eval = w.has_eval;
		it->eval = w.eval;
	}
	return TRAIN_WRITTEN;
}

static void
on_verdict(void *ctx, const struct verdict *v)
{
	struct book_batch *bb = ctx;
	const struct book *b = bb->b;
	enum verdict_status st = verdict_status(v);
	enum select_drop drop;
	enum train_skip skip;
	struct rec *r;

	if (v->skipped) {
		bb->files_skipped++;
		return;
	}
	r = new_rec(bb);
	if (st == VERDICT_ERROR || st == VERDICT_ILLEGAL) {
		r->why = st == VERDICT_ERROR ? WHY_UNREADABLE : WHY_ILLEGAL;
		return;
	}
	if ((drop = select_record(&b->so, v->r, v->rp, v->adj)) !=
	    SELECT_KEPT) {
		r->why = WHY_SELECT + (int)drop;
		return;
	}
	if ((skip = record_items(bb, v)) != TRAIN_WRITTEN) {
		bb->nitems = r->first;
		bb->keys.len = r->keys_len;
		if (bb->keys.buf)
			bb->keys.buf[bb->keys.len] = '\0';
		r->why = WHY_TRAIN + (int)skip;
		return;
	}
	r->n = bb->nitems - r->first;
	if (b->so.uniq)
		r->key = select_key(v->r, v->rp);
}

static int
input(void *ctx, void *w, void *batch, const struct pipe_input *in)
{
	struct book_batch *bb = batch;

	(void)ctx;
	if (in->error) {
		struct rec *r = new_rec(bb);

		r->io = 1;
		r->why = WHY_UNREADABLE;
		r->note = bb->notes.len;
		cmd_add_clean(&bb->notes, in->name);
		strbuf_addc(&bb->notes, '\0');
		cmd_add_clean(&bb->notes, in->error);
		strbuf_addc(&bb->notes, '\0');
		return 0;
	}
	judge_bytes(w, in->name, in->name, in->data, in->flags, on_verdict,
	    bb);
	return 0;
}

/* ---- build: the main thread's side -------------------------------------- */

static int
emit(void *ctx, void *batch)
{
	struct book *b = ctx;
	struct book_batch *bb = batch;
	size_t i, j;

	for (i = 0; i < bb->nrecs; i++) {
		struct rec *r = &bb->recs[i];

		b->records++;
		if (r->why == WHY_USED && b->so.uniq &&
		    !select_seen_add(&b->seen, r->key))
			r->why = WHY_SELECT + SELECT_REPEAT;
		if (r->why != WHY_USED) {
			b->why[r->why]++;
			if (r->io) {
				const char *name = bb->notes.buf + r->note;

				fprintf(stderr, "kifu: error: cannot read "
				    "'%s': %s [io]\n", name, name +
				    strlen(name) + 1);
				worst(b, EXIT_TROUBLE);
			}
			continue;
		}
		b->used++;
		for (j = r->first; j < r->first + r->n; j++) {
			const struct item *it = &bb->items[j];
			struct bookagg_move m;

			memset(&m, 0, sizeof(m));
			m.usi = it->usi;
			m.ponder = "";
			m.count = 1;
			m.evn = it->has_eval;
			m.evsum = it->has_eval ? it->eval : 0;
			m.tail = "";
			b->plies++;
			if (bookagg_add(&b->agg, bb->keys.buf + it->key_off,
			    it->key_len, it->ply, &m, NULL, 0) < 0) {
				b->write_failed = errno ? errno : EIO;
				return 1;
			}
		}
	}
	b->files_skipped += bb->files_skipped;
	return 0;
}

static void
batch_init(void *ctx, void *batch)
{
	struct book_batch *bb = batch;

	strbuf_init(&bb->keys);
	strbuf_init(&bb->notes);
	bb->b = ctx;
}

static void
batch_release(void *ctx, void *batch)
{
	struct book_batch *bb = batch;

	(void)ctx;
	strbuf_release(&bb->keys);
	strbuf_release(&bb->notes);
	free(bb->items);
	free(bb->recs);
	bb->items = NULL;
	bb->recs = NULL;
	bb->nitems = bb->aitems = bb->nrecs = bb->arecs = 0;
}

static void
batch_reset(void *ctx, void *batch)
{
	struct book_batch *bb = batch;

	if (bb->keys.alloc > (8u << 20)) {
		batch_release(ctx, batch);
		batch_init(ctx, batch);
		return;
	}
	strbuf_reset(&bb->keys);
	strbuf_reset(&bb->notes);
	bb->nitems = bb->nrecs = 0;
	bb->files_skipped = 0;
}



static void
ignore(void *ctx, const char *name)
{
	(void)name;
	((struct book *)ctx)->files_skipped++;
}

static long long
done(void *ctx)
{
	return ((struct book *)ctx)->records;
}

static const struct pipeline_ops book_ops = {
	.batch_size = sizeof(struct book_batch),
	.batch_init = batch_init,
	.batch_reset = batch_reset,
	.batch_release = batch_release,
	.input = input,
	.emit = emit,
	.ignore = ignore,
	.done = done,
};

static void
print_summary(const struct book *b, const char *mode)
{
	struct strbuf s = STRBUF_INIT;
	int i, any = 0;

	strbuf_addf(&s, "kifu: book %s: ", mode);
	if (!strcmp(mode, "build")) {
		long long skipped = b->records - b->used;

		strbuf_addf(&s, "%lld records: %lld used, %lld skipped",
		    b->records, b->used, skipped);
		if (b->files_skipped)
			strbuf_addf(&s, "; %lld files skipped",
			    b->files_skipped);
		strbuf_addf(&s, "; %lld plies", b->plies);
		strbuf_adds(&s, "; ");
	}
	strbuf_addf(&s, "%lld positions, %lld moves written", b->positions,
	    b->moves);
	if (b->agg.spills)
		strbuf_addf(&s, " (memory spilled %d times)", b->agg.spills);
	strbuf_addc(&s, '\n');
	for (i = 1; i < WHY_NB; i++) {
		if (!b->why[i])
			continue;
		strbuf_addf(&s, "%s%s %lld", any ? ", " : "  skipped      ",
		    why_name(i), b->why[i]);
		any = 1;
	}
	if (any)
		strbuf_addc(&s, '\n');
	if (!strcmp(mode, "build"))
		strbuf_addf(&s, "  time         %.3f s, %.0f records/s\n",
		    b->seconds, b->seconds > 0 ? (double)b->records /
		    b->seconds : 0.0);
	else
		strbuf_addf(&s, "  time         %.3f s\n", b->seconds);
	fflush(stdout);
	fputs(s.buf, stderr);
	strbuf_release(&s);
}

/* ---- query --------------------------------------------------------------- */

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
 * Whether the book may be binary-searched: its first and last 64 KiB are
 * in order, and the one before the other (two sorted books joined end to
 * end are not). A book unsorted only in its middle still fools this, and
 * the search's own probes catch only some of that: the README says to
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
	return ok;
}

struct query {
	struct book *b;
	const char *key;
	size_t key_len;
	int found;
	int stop_after;		/* binary search: the first block only */
};

static int
query_block(void *ctx, const struct rblock *blk)
{
	struct query *q = ctx;

	if (blk->key_len != q->key_len || memcmp(blk->key, q->key,
	    q->key_len))
		return q->stop_after && q->found ? -1 : 0;
	q->found = 1;
	return add_block(q->b, blk);
}

/* The lines from off to the block's end (and any block of the same key
   right after it), read as a book whose first line is lineno. */
static int
read_at(struct qfile *qf, const char *name, off_t off, struct query *q)
{
	struct book_in in;
	struct strbuf text = STRBUF_INIT;
	off_t at = off;
	int rc = 0, blocks = 0;

	memset(&in, 0, sizeof(in));
	in.name = name;
	in.blk.name = name;
	in.mid_file = off > 0;
	/* Line numbers for messages: counted from off, and the lines
	   before it only if a message needs them. */
	in.lines_after = 1;
	in.fd = qf->fd;
	in.before = off;
	strbuf_init(&in.blk.comment);
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
		rc = book_line(&in, text.buf, text.len, query_block, q);
		strbuf_reset(&text);
	}
	if (!rc && in.blk.has)
		rc = query_block(q, &in.blk);
	block_release(&in.blk);
	strbuf_release(&text);
	return rc < 0 ? 0 : rc;
}

struct printer {
	size_t *idx, alloc;
};

static int
print_entry(void *ctx, const struct bookagg_entry *e)
{
	struct printer *p = ctx;
	size_t n = order_moves(e, 0, 1, &p->idx, &p->alloc), i;
	struct strbuf out = STRBUF_INIT;

	for (i = 0; i < n; i++) {
		const struct bookagg_move *m = &e->moves[p->idx[i]];

		strbuf_addf(&out, "%s %s ", m->usi, m->ponder[0] ? m->ponder :
		    "none");
		if (m->evn > 0)
			strbuf_addf(&out, "%lld ", mean(m->evsum, m->evn));
		else
			strbuf_adds(&out, "none ");
		if (m->has_depth)
			strbuf_addf(&out, "%lld ", m->depth);
		else
			strbuf_adds(&out, "none ");
		strbuf_addf(&out, "%lld\n", m->count);
	}
	fputs(out.buf ? out.buf : "", stdout);
	strbuf_release(&out);
	return 0;
}

static int
cmd_query(struct book *b, const char *path, const char *sfen,
    const char *usi)
{
	struct strbuf sb = STRBUF_INIT;
	struct position pos;
	struct qfile *qf;
	struct query q;
	struct stat st;
	char key[SFEN_MAX];
	struct printer pr = { NULL, 0 };
	int rc = 0, sorted;
	off_t at = -2;

	if (sfen) {
		if (strncmp(sfen, "sfen ", 5) && strcmp(sfen, "startpos"))
			strbuf_adds(&sb, "sfen ");
		strbuf_adds(&sb, sfen);
		rc = cmd_position_from_usi(sb.buf, "--sfen", &pos);
	} else {
		rc = cmd_position_from_usi(usi, "--usi", &pos);
	}
	strbuf_release(&sb);
	if (rc)
		return EXIT_TROUBLE;
	memset(&q, 0, sizeof(q));
	q.b = b;
	q.key = key;
	q.key_len = sfen_write_key(&pos, key);
	qf = xmalloc(sizeof(*qf));
	if ((qf->fd = open(path, O_RDONLY)) < 0 || fstat(qf->fd, &st) < 0) {
		rc = cmd_error("cannot read '%s': %s", path, strerror(errno));
		goto out;
	}
	qf->size = S_ISREG(st.st_mode) ? st.st_size : 0;
	qf->at = 0;
	qf->len = 0;
	sorted = S_ISREG(st.st_mode) && head_sorted(qf);
	if (sorted)
		at = search(qf, q.key, q.key_len);
	if (at >= 0) {
		q.stop_after = 1;
		rc = read_at(qf, path, at, &q);
	} else if (at == -2) {
		/* not sorted (or not a file): read it through */
		rc = book_read(path, NULL, query_block, &q);
	}
	if (!rc)
		bookagg_finish(&b->agg, print_entry, &pr);
	free(pr.idx);
	if (!rc && !q.found)
		rc = EXIT_FINDINGS;
out:
	if (qf->fd >= 0)
		close(qf->fd);
	free(qf);
	return rc;
}

/* ---- options and the subcommands ---------------------------------------- */

static int
take_count(const char *arg, const char *opt, int *v)
{
	if ((*v = cmd_parse_int(arg, 1000000000)) < 0)
		return cmd_usage_error(cmd_book_usage, "%s takes a number from 0 "
		    "to 1000000000, not '%s'", opt, arg);
	return 0;
}

static int
build_run(struct book *b, struct walkopts *wo, char **paths, int npaths)
{
	double t0 = clock_now();

	if (open_output(b))
		return EXIT_TROUBLE;
	wo->po.judge = &b->jo;
	if (walkopts_run(wo, &book_ops, b, paths, npaths, NULL,
	    &b->seconds) || b->write_failed) {
		output_stream_abort(&b->out_s);
		if (b->write_failed)
			cmd_error("cannot write a temporary run: %s; nothing "
			    "written", strerror(b->write_failed));
		return EXIT_TROUBLE;
	}
	if (finish_book(b))
		return EXIT_TROUBLE;
	/* the whole job: sorting and writing the book are part of it */
	b->seconds = clock_now() - t0;
	print_summary(b, "build");
	return b->status;
}

static int
books_run(struct book *b, const char *mode, char **paths, int npaths)
{
	double t0 = clock_now();
	int i, rc = 0;

	if (open_output(b))
		return EXIT_TROUBLE;
	for (i = 0; i < npaths && !rc; i++)
		rc = book_read(paths[i], i == 0 ? &b->preamble : NULL,
		    add_block, b);
	if (rc) {
		output_stream_abort(&b->out_s);
		cmd_error("nothing written");
		return EXIT_TROUBLE;
	}
	if (finish_book(b))
		return EXIT_TROUBLE;
	b->seconds = clock_now() - t0;
	print_summary(b, mode);
	return EXIT_OK;
}

int
cmd_book(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "max-ply", required_argument, NULL, OPT_MAX_PLY },
		{ "min-count", required_argument, NULL, OPT_MIN_COUNT },
		{ "side", required_argument, NULL, OPT_SIDE },
		{ "memory", required_argument, NULL, OPT_MEMORY },
		{ "from", required_argument, NULL, OPT_FROM },
		{ "sfen", required_argument, NULL, OPT_SFEN },
		{ "usi", required_argument, NULL, OPT_USI },
		{ "help", no_argument, NULL, 'h' },
		SELECT_LONGOPTS,
		WALK_LONGOPTS,
		RULE_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	const char *usage = cmd_book_usage, *mode, *sfen = NULL, *usi = NULL;
	struct ruleopts ro;
	struct walkopts wo;
	struct ruleset rs;
	struct book b;
	int opt, rc, walk_opts = 0, build_opts = 0, out_opts = 0;
	int is_build, is_query, is_merge, is_sort;
	char *tmp;

	if (argc >= 2 && (!strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "-h")))
		return cmd_help(usage);
	if (argc < 2)
		return cmd_usage_error(usage, "a subcommand is needed: build, "
		    "merge, sort or query");
	mode = argv[1];
	is_build = !strcmp(mode, "build");
	is_merge = !strcmp(mode, "merge");
	is_sort = !strcmp(mode, "sort");
	is_query = !strcmp(mode, "query");
	if (!is_build && !is_merge && !is_sort && !is_query)
		return cmd_usage_error(usage, "unknown subcommand '%s' (build, "
		    "merge, sort or query)", mode);
	argc--;
	argv++;
	memset(&b, 0, sizeof(b));
	b.max_ply = 40;
	b.min_count = 0;	/* sort keeps a book's count-0 moves */
	b.side = -1;
	b.memory = DEFAULT_MEMORY;
	ruleopts_init(&ro);
	walkopts_init(&wo, "records");
	select_init(&b.so);
	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "ho:j:z", longopts,
	    NULL)) != -1) {
		switch (opt) {
		case 'o': b.out_path = optarg; out_opts = 1; break;
		case OPT_FORCE: b.force = 1; out_opts = 1; break;
		case OPT_MAX_PLY:
			if (take_count(optarg, "--max-ply", &b.max_ply))
				return EXIT_TROUBLE;
			build_opts = 1;
			break;
		case OPT_MIN_COUNT:
			if (take_count(optarg, "--min-count", &b.min_count))
				return EXIT_TROUBLE;
			if (is_sort || is_query)
				return cmd_usage_error(usage, "--min-count is "
				    "for build and merge");
			break;
		case OPT_SIDE:
			if (!strcmp(optarg, "black"))
				b.side = BLACK;
			else if (!strcmp(optarg, "white"))
				b.side = WHITE;
			else
				return cmd_usage_error(usage, "--side takes "
				    "black or white, not '%s'", optarg);
			build_opts = 1;
			break;
		case OPT_MEMORY:
			if (bookagg_parse_size(optarg, &b.memory) < 0)
				return cmd_usage_error(usage, "--memory takes a "
				    "size from 1K to 1024G (a number with K, M "
				    "or G), not '%s'", optarg);
			if (is_query)
				return cmd_usage_error(usage, "--memory is for "
				    "build, merge and sort");
			break;
		case OPT_FROM:
			if (!(b.jo.from = formats_by_name(optarg)) ||
			    !b.jo.from->read)
				return cmd_usage_error(usage, "unknown format "
				    "'%s' (known: %s)", optarg,
				    formats_names());
			build_opts = 1;
			break;
		case OPT_SFEN: sfen = optarg; break;
		case OPT_USI: usi = optarg; break;
		case 'h': return cmd_help(usage);
		default:
			if ((rc = walkopts_take(&wo, opt, optarg, usage)) != 0 ||
			    (rc = cmd_select_take(&b.so, opt, optarg,
			    usage)) != 0 ||
			    (rc = ruleopts_take(&ro, opt, optarg, usage)) != 0) {
				if (rc != 1)
					return rc;
				walk_opts = 1;
				break;
			}
			return cmd_usage_error(usage, optopt ?
			    "option '%s' needs a value" : "unknown option '%s'",
			    argv[optind - 1]);
		}
	}
	if (!is_build && (walk_opts || build_opts))
		return cmd_usage_error(usage, "the selection, walk and reading "
		    "options are for 'book build'");
	if (!is_query && (sfen || usi))
		return cmd_usage_error(usage, "--sfen and --usi are for 'book "
		    "query'");
	if (is_query) {
		if (out_opts)
			return cmd_usage_error(usage, "'book query' prints; it "
			    "takes no -o");
		if (!sfen == !usi)
			return cmd_usage_error(usage, "'book query' wants one of "
			    "--sfen and --usi");
		if (argc - optind != 1)
			return cmd_usage_error(usage, "'book query' reads one "
			    "book");
		bookagg_init(&b.agg, DEFAULT_MEMORY, ".");
		rc = cmd_query(&b, argv[optind], sfen, usi);
		bookagg_release(&b.agg);
		return rc;
	}
	if (is_sort && argc - optind != 1)
		return cmd_usage_error(usage, "'book sort' reads one book");
	if (is_merge && argc - optind < 1)
		return cmd_usage_error(usage, "'book merge' wants the books");
	if (is_build) {
		if (walkopts_finish(&wo, argc - optind, usage))
			return EXIT_TROUBLE;
		if (ruleopts_build(&ro, &rs, &b.jo.auto_rules, usage))
			return EXIT_TROUBLE;
		b.jo.rules = &rs;
		b.jo.no_result_check = ro.no_result_check;
		b.jo.limits = &ro.lim;
	}
	b.by_seq = is_sort;
	tmp = run_dir(b.out_path);
	bookagg_init(&b.agg, b.memory, tmp);
	strbuf_init(&b.preamble);
	strbuf_init(&b.w);
	if (is_build)
		rc = build_run(&b, &wo, argv + optind, argc - optind);
	else
		rc = books_run(&b, mode, argv + optind, argc - optind);
	bookagg_release(&b.agg);
	select_seen_release(&b.seen);
	strbuf_release(&b.preamble);
	strbuf_release(&b.w);
	free(tmp);
	return rc;
}
