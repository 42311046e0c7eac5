/*
 * export.c - the export of training rows and the merge of shards
 * (export.h): the workers' side, which judges, selects and writes each
 * record's rows into its batch; the main thread's, which drops the
 * repeats and streams the rows and keys to the outputs; and the merge.
 * Used by `kifu export` (cmd/export.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "train/export.h"
#include "api/input.h"
#include "api/judge.h"
#include "api/output.h"
#include "core/clock.h"
#include "core/xalloc.h"
#include "parsers/keys.h"
#include "parsers/rating.h"

const char *
export_why_name(int why)
{
	if (why == EXPORT_UNREADABLE)
		return "unreadable";
	if (why == EXPORT_ILLEGAL)
		return "illegal";
	if (why >= EXPORT_SELECT && why < EXPORT_TRAIN)
		return select_drop_name((enum select_drop)(why -
		    EXPORT_SELECT));
	if (why >= EXPORT_TRAIN && why < EXPORT_WHY_NB)
		return train_skip_name((enum train_skip)(why - EXPORT_TRAIN));
	return "exported";
}

struct export {
	const struct train_format *fmt;
	struct train_opts to;
	struct select_opts so;
	int verbose, force;
	FILE *notes;
	const char *out_path, *keys_path;
	struct output_stream *out, *keys;	/* keys NULL: no --keys-out */
	struct output_stream out_s, keys_s;	/* what they point at */
	struct strbuf line;			/* a keys line, reused */
	struct select_seen seen;
	struct export_tally *t;
	int write_failed;	/* errno of the first failed write, or 0 */
	int keys_failed;
};

/* One record of a batch, in input order. */
struct item {
	int why;		/* EXPORT_EXPORTED or the reason it is not */
	int disputed;		/* status mismatch */
	int io;			/* the input could not be read at all */
	uint64_t key;		/* select_key(), when --uniq or --keys-out */
	size_t off, len;	/* its rows in the batch's rows */
	size_t rows;
	size_t note;		/* its label and detail in notes, for -v */
};

struct export_batch {
	struct pipe_batch b;	/* unused: rows and notes are written apart */
	struct strbuf rows;
	struct strbuf notes;	/* "FILE: record N\0detail\0" per item */
	struct item *items;
	size_t n, alloc;
	long long files_skipped;
	struct export *x;
};

/* --- the workers' side ------------------------------------------------ */

static struct item *
new_item(struct export_batch *b)
{
	struct item *it;

	ALLOC_GROW(b->items, b->n + 1, b->alloc);
	it = &b->items[b->n++];
	memset(it, 0, sizeof(*it));
	it->note = (size_t)-1;
	return it;
}

/*
 * Why the item is not exported; with -v (or for an input that cannot be
 * read) also its label and a detail, for emit() to print in order.
 */
static void
set_why(struct export_batch *b, struct item *it, int why, const char *file,
    int index, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void
set_why(struct export_batch *b, struct item *it, int why, const char *file,
    int index, const char *fmt, ...)
{
	struct strbuf detail = STRBUF_INIT;
	va_list ap;

	it->why = why;
	if (!b->x->verbose && !it->io)
		return;
	it->note = b->notes.len;
	strbuf_add_printable(&b->notes, file);
	if (index >= 0)
		strbuf_addf(&b->notes, ": record %d", index + 1);
	strbuf_addc(&b->notes, '\0');
	va_start(ap, fmt);
	strbuf_vaddf(&detail, fmt, ap);
	va_end(ap);
	strbuf_add_printable(&b->notes, detail.buf);
	strbuf_addc(&b->notes, '\0');
	strbuf_release(&detail);
}

/* What a selection filter saw, for -v. */
static void
select_detail(struct strbuf *sb, enum select_drop d, const struct verdict *v)
{
	struct ratings rt;
	int c;

	switch (d) {
	case SELECT_MIN_MOVES:
		strbuf_addf(sb, "%d moves", v->rp->moves);
		break;
	case SELECT_NO_RATING:
	case SELECT_MIN_RATING:
		rating_read(v->r, &rt);
		for (c = 0; c < COLOR_NB; c++)
			if (rt.has[c])
				strbuf_addf(sb, "%s%s %g", c ? ", " : "",
				    c ? "White" : "Black", rt.rate[c]);
			else
				strbuf_addf(sb, "%s%s unrated", c ? ", " : "",
				    c ? "White" : "Black");
		break;
	case SELECT_RESULTS:
	case SELECT_WINNER:
		strbuf_addf(sb, "%s, %s", reason_name(v->adj->result.reason),
		    v->adj->result.winner == WINNER_NONE ? "no winner" :
		    v->adj->result.winner == WINNER_BLACK ? "Black wins" :
		    "White wins");
		break;
	default:
		break;
	}
}

static void
on_verdict(void *ctx, const struct verdict *v)
{
	struct export_batch *b = ctx;
	struct export *x = b->x;
	const struct diag *e = verdict_error(v);
	enum verdict_status st = verdict_status(v);
	int index = v->r ? v->index : -1;
	struct train_game g;
	enum select_drop drop;
	enum train_skip skip;
	struct item *it;
	size_t before = b->rows.len, rows = 0;

	if (v->skipped) {
		b->files_skipped++;
		return;
	}
	it = new_item(b);
	if (st == VERDICT_ERROR || st == VERDICT_ILLEGAL) {
		set_why(b, it, st == VERDICT_ERROR ? EXPORT_UNREADABLE :
		    EXPORT_ILLEGAL, v->file, index, "%s [%s]", e->message,
		    e->id);
		return;
	}
	if ((drop = select_record(&x->so, v->r, v->rp, v->adj)) !=
	    SELECT_KEPT) {
		struct strbuf d = STRBUF_INIT;

		if (x->verbose)
			select_detail(&d, drop, v);
		set_why(b, it, EXPORT_SELECT + (int)drop, v->file, index, "%s",
		    d.buf ? d.buf : "");
		strbuf_release(&d);
		return;
	}
	g.r = v->r;
	g.rp = v->rp;
	g.adj = v->adj;
	if ((skip = x->fmt->write(&g, &x->to, &b->rows, &rows)) !=
	    TRAIN_WRITTEN) {
		set_why(b, it, EXPORT_TRAIN + (int)skip, v->file, index, "%s",
		    train_skip_description(skip));
		return;
	}
	it->disputed = st == VERDICT_MISMATCH;
	it->off = before;
	it->len = b->rows.len - before;
	it->rows = rows;
	if (x->so.uniq || x->keys) {
		it->key = select_key(v->r, v->rp);
		/* --uniq is decided in emit(), which may want the label */
		if (x->so.uniq && x->verbose)
			set_why(b, it, EXPORT_EXPORTED, v->file, index, "%s",
			    "");
	}
}

static int
input(void *ctx, void *w, void *batch, const struct pipe_input *in)
{
	struct export_batch *b = batch;

	(void)ctx;
	if (in->error) {
		struct item *it = new_item(b);

		it->io = 1;
		set_why(b, it, EXPORT_UNREADABLE, in->name, -1, "%s",
		    in->error);
		return 0;
	}
	judge_bytes(w, in->name, in->name, in->data, in->flags, on_verdict,
	    b);
	return 0;
}

/* --- the main thread's side ------------------------------------------- */

static void
write_rows(struct export *x, const char *p, size_t n)
{
	if (n && !x->write_failed && output_stream_write(x->out, p, n) < 0)
		x->write_failed = errno ? errno : EIO;
}

static void
write_key(struct export *x, const struct keys_line *k)
{
	if (!x->keys || x->write_failed)
		return;
	strbuf_reset(&x->line);
	keys_write_line(&x->line, k);
	if (output_stream_write(x->keys, x->line.buf, x->line.len) < 0) {
		x->write_failed = errno ? errno : EIO;
		x->keys_failed = 1;
	}
}

static void
note(struct export *x, const struct export_batch *b, const struct item *it)
{
	const char *label, *detail;

	if (it->note == (size_t)-1)
		return;
	label = b->notes.buf + it->note;
	detail = label + strlen(label) + 1;

	if (!x->notes)
		return;
	if (it->io) {
		fprintf(x->notes, "kifu: error: cannot read '%s': %s [io]\n",
		    label, detail);
		return;
	}
	if (!x->verbose)
		return;
	if (it->why == EXPORT_SELECT + SELECT_REPEAT)
		detail = "its start and moves repeat an earlier record's";
	fprintf(x->notes, "%s: skipped (%s)%s%s\n", label,
	    export_why_name(it->why), *detail ? ": " : "", detail);
}

static int
emit(void *ctx, void *batch)
{
	struct export *x = ctx;
	struct export_batch *b = batch;
	size_t i, run = 0, run_len = 0;

	for (i = 0; i < b->n; i++) {
		struct item *it = &b->items[i];
		struct keys_line k;

		x->t->records++;
		if (it->why == EXPORT_EXPORTED && x->so.uniq &&
		    !select_seen_add(&x->seen, it->key))
			it->why = EXPORT_SELECT + SELECT_REPEAT;
		if (it->why != EXPORT_EXPORTED) {
			x->t->why[it->why]++;
			x->t->inputs_failed += it->io;
			note(x, b, it);
			continue;
		}
		/* Rows of records in a row are written in one go. */
		if (run + run_len != it->off) {
			write_rows(x, b->rows.buf + run, run_len);
			run = it->off;
			run_len = 0;
		}
		run_len += it->len;
		x->t->exported++;
		x->t->disputed += it->disputed;
		x->t->rows += it->rows;
		x->t->bytes += it->len;
		k.key = it->key;
		k.rows = it->rows;
		k.bytes = it->len;
		write_key(x, &k);
	}
	write_rows(x, b->rows.buf + run, run_len);
	x->t->files_skipped += b->files_skipped;
	return x->write_failed != 0;
}

static void
batch_init(void *ctx, void *batch)
{
	struct export_batch *b = batch;

	strbuf_init(&b->rows);
	strbuf_init(&b->notes);
	b->x = ctx;
}

static void
batch_release(void *ctx, void *batch)
{
	struct export_batch *b = batch;

	(void)ctx;
	strbuf_release(&b->rows);
	strbuf_release(&b->notes);
	free(b->items);
	b->items = NULL;
	b->n = b->alloc = 0;
}

/* Keeps the buffers, unless one batch made them huge. */
static void
batch_reset(void *ctx, void *batch)
{
	struct export_batch *b = batch;

	if (b->rows.alloc > (8u << 20)) {
		batch_release(ctx, batch);
		batch_init(ctx, batch);
		return;
	}
	strbuf_reset(&b->rows);
	strbuf_reset(&b->notes);
	b->n = 0;
	b->files_skipped = 0;
}



static void
ignore(void *ctx, const char *name)
{
	(void)name;
	((struct export *)ctx)->t->files_skipped++;
}

static long long
done(void *ctx)
{
	return ((struct export *)ctx)->t->records;
}

const struct pipeline_ops export_ops = {
	.batch_size = sizeof(struct export_batch),
	.batch_init = batch_init,
	.batch_reset = batch_reset,
	.batch_release = batch_release,
	.input = input,
	.emit = emit,
	.ignore = ignore,
	.done = done,
};

/* --- the summary -------------------------------------------------------- */

/* The reasons with a count, most first (ties in their order). */
static int
sorted_whys(const struct export_tally *t, int *order)
{
	int i, j, n = 0;

	for (i = 1; i < EXPORT_WHY_NB; i++)
		if (t->why[i])
			order[n++] = i;
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && t->why[order[j]] > t->why[order[j - 1]];
		    j--) {
			int tmp = order[j];

			order[j] = order[j - 1];
			order[j - 1] = tmp;
		}
	return n;
}

static long long
skipped_total(const struct export_tally *t)
{
	long long n = 0;
	int i;

	for (i = 1; i < EXPORT_WHY_NB; i++)
		n += t->why[i];
	return n;
}

static double
rate(const struct export_tally *t)
{
	return t->seconds > 0 ? (double)t->rows / t->seconds : 0;
}

void
export_summary_text(const struct export_tally *t, const char *mode,
    const char *format, const char *rules, struct strbuf *out)
{
	int order[EXPORT_WHY_NB], n = sorted_whys(t, order), i;

	strbuf_addf(out, "kifu: %s %s: ", mode, format);
	if (t->shards)
		strbuf_addf(out, "%lld shards, ", t->shards);
	strbuf_addf(out, "%lld records: %lld exported", t->records,
	    t->exported);
	if (t->disputed)
		strbuf_addf(out, " (%lld with a disputed result)", t->disputed);
	strbuf_addf(out, ", %lld skipped", skipped_total(t));
	if (t->files_skipped)
		strbuf_addf(out, "; %lld files skipped", t->files_skipped);
	strbuf_addf(out, "; %llu rows, %llu bytes", t->rows, t->bytes);
	if (rules)
		strbuf_addf(out, " (rules %s)", rules);
	strbuf_addc(out, '\n');
	if (n) {
		strbuf_adds(out, "  skipped      ");
		for (i = 0; i < n; i++)
			strbuf_addf(out, "%s%s %lld", i ? ", " : "",
			    export_why_name(order[i]), t->why[order[i]]);
		strbuf_addc(out, '\n');
	}
	strbuf_addf(out, "  time         %.3f s, %.0f rows/s\n", t->seconds,
	    rate(t));
}

void
export_summary_json(const struct export_tally *t, const char *mode,
    const char *format, const char *rules, struct strbuf *out)
{
	int order[EXPORT_WHY_NB], n = sorted_whys(t, order), i;

	strbuf_addf(out, "{\"mode\": \"%s\", \"format\": \"%s\", ", mode,
	    format);
	if (rules) {
		strbuf_adds(out, "\"rules\": \"");
		strbuf_add_json_string(out, rules, strlen(rules));
		strbuf_adds(out, "\", ");
	}
	if (t->shards)
		strbuf_addf(out, "\"shards\": %lld, ", t->shards);
	strbuf_addf(out, "\"records\": %lld, \"exported\": %lld, "
	    "\"disputed\": %lld, \"skipped\": %lld, \"skipped_by_reason\": {",
	    t->records, t->exported, t->disputed, skipped_total(t));
	for (i = 0; i < n; i++)
		strbuf_addf(out, "%s\"%s\": %lld", i ? ", " : "",
		    export_why_name(order[i]), t->why[order[i]]);
	strbuf_addf(out, "}, \"files_skipped\": %lld, \"rows\": %llu, "
	    "\"bytes\": %llu, \"seconds\": %.3f, \"rows_per_second\": %.0f}\n",
	    t->files_skipped, t->rows, t->bytes, t->seconds, rate(t));
}

/* --- output ------------------------------------------------------------- */

static int
is_stdout(const char *path)
{
	return !path || strcmp(path, "-") == 0;
}

/*
 * Opens the outputs before any work: an existing file (without --force)
 * or a directory that cannot take one is refused at once. Returns 0, or
 * -1 with why set.
 */
static int
open_outputs(struct export *x, int binary, struct strbuf *why)
{
	if (output_stream_open(&x->out_s, x->out_path, x->force, -1) < 0) {
		strbuf_addf_line(why, "cannot write '%s': %s%s", x->out_path,
		    strerror(errno), errno == EEXIST ? " (use --force to "
		    "replace it)" : "");
		return -1;
	}
	if (binary && !x->out_s.tmp && isatty(x->out_s.fd)) {
		output_stream_abort(&x->out_s);
		strbuf_addf_line(why, "refusing to write binary rows to a "
		    "terminal; use -o FILE or a pipe");
		return -1;
	}
	x->out = &x->out_s;
	if (!x->keys_path)
		return 0;
	if (output_stream_open(&x->keys_s, x->keys_path, x->force, -1) < 0) {
		int saved = errno;

		output_stream_abort(&x->out_s);
		x->out = NULL;
		strbuf_addf_line(why, "cannot write '%s': %s%s", x->keys_path,
		    strerror(saved), saved == EEXIST ? " (use --force to "
		    "replace it)" : "");
		return -1;
	}
	x->keys = &x->keys_s;
	return 0;
}

void
export_abort(struct export *x)
{
	if (x->out)
		output_stream_abort(x->out);
	if (x->keys)
		output_stream_abort(x->keys);
	x->out = x->keys = NULL;
}

int
export_finish(struct export *x, struct strbuf *why)
{
	const char *name = x->keys_failed ? x->keys_path : x->out_path;
	struct output_stream *keys = x->keys;

	if (x->write_failed) {
		export_abort(x);
		strbuf_addf_line(why, "cannot write '%s': %s; nothing written",
		    is_stdout(name) ? "<stdout>" : name,
		    strerror(x->write_failed));
		return -1;
	}
	x->out = x->keys = NULL;
	if (output_stream_commit(&x->out_s) < 0) {
		int saved = errno;

		if (keys)
			output_stream_abort(keys);
		strbuf_addf_line(why, "cannot write '%s': %s; nothing written",
		    is_stdout(x->out_path) ? "<stdout>" : x->out_path,
		    strerror(saved));
		return -1;
	}
	if (keys && output_stream_commit(keys) < 0) {
		strbuf_addf_line(why, "cannot write '%s': %s", x->keys_path,
		    strerror(errno));
		return -1;
	}
	return 0;
}

static void
start_keys(struct export *x, const char *format)
{
	if (!x->keys)
		return;
	strbuf_reset(&x->line);
	keys_write_header(&x->line, format);
	if (output_stream_write(x->keys, x->line.buf, x->line.len) < 0) {
		x->write_failed = errno;
		x->keys_failed = 1;
	}
}

static struct export *
export_new(const struct export_opts *o, struct export_tally *t)
{
	struct export *x = xcalloc(1, sizeof(*x));

	x->fmt = o->fmt;
	x->to = o->rows;
	x->so = o->select;
	x->verbose = o->verbose;
	x->force = o->force;
	x->notes = o->notes;
	x->out_path = o->out_path;
	x->keys_path = o->keys_path;
	strbuf_init(&x->line);
	memset(t, 0, sizeof(*t));
	x->t = t;
	return x;
}

void
export_free(struct export *x)
{
	if (!x)
		return;
	export_abort(x);
	select_seen_release(&x->seen);
	strbuf_release(&x->line);
	free(x);
}

struct export *
export_open(const struct export_opts *o, struct export_tally *t,
    struct strbuf *why)
{
	struct export *x = export_new(o, t);

	if (open_outputs(x, x->fmt->binary, why)) {
		export_free(x);
		return NULL;
	}
	start_keys(x, x->fmt->name);
	return x;
}

/* --- --merge ------------------------------------------------------------ */

struct shard {
	const char *rows_path, *keys_path;
	int fd;			/* the rows, open from the check on */
};

/* A keys file read whole into *keys; 0, or -1 with why set. */
static int
read_keys(const struct shard *s, struct strbuf *keys, struct keys_reader *rd,
    struct strbuf *why)
{
	struct keys_error err;

	strbuf_reset(keys);
	if (input_read(s->keys_path, keys) < 0) {
		strbuf_addf_line(why, "cannot read '%s': %s", s->keys_path,
		    strerror(errno));
		return -1;
	}
	if (keys_reader_init(rd, keys->buf, keys->len, &err) < 0) {
		strbuf_addf_line(why, "%s:%lu: %s", s->keys_path, err.line,
		    err.message);
		return -1;
	}
	return 0;
}

/*
 * Checks a shard before anything is written: its keys file reads, holds
 * the format of the others (*format, the first's), and its bytes add up
 * to its rows file's size. Opens the rows. 0, or -1 with why set.
 */
static int
check_shard(struct shard *s, struct strbuf *keys, char *format, size_t fn,
    struct strbuf *why)
{
	struct keys_reader rd;
	struct keys_error err;
	struct keys_line k;
	struct stat st;
	unsigned long long sum = 0;
	int r;

	if (read_keys(s, keys, &rd, why))
		return -1;
	if (!*format)
		snprintf(format, fn, "%s", rd.format);
	else if (strcmp(format, rd.format) != 0) {
		strbuf_addf_line(why, "%s: keys of %s rows, not %s: shards of "
		    "one format only", s->keys_path, rd.format, format);
		return -1;
	}
	while ((r = keys_read(&rd, &k, &err)) > 0)
		sum += k.bytes;
	if (r < 0) {
		strbuf_addf_line(why, "%s:%lu: %s", s->keys_path, err.line,
		    err.message);
		return -1;
	}
	if ((s->fd = open(s->rows_path, O_RDONLY)) < 0) {
		strbuf_addf_line(why, "cannot read '%s': %s", s->rows_path,
		    strerror(errno));
		return -1;
	}
	if (fstat(s->fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		strbuf_addf_line(why, "cannot read '%s': not a file",
		    s->rows_path);
		return -1;
	}
	if ((unsigned long long)st.st_size != sum) {
		strbuf_addf_line(why, "'%s' has %llu bytes, but its keys '%s' "
		    "name %llu: not the keys of these rows", s->rows_path,
		    (unsigned long long)st.st_size, s->keys_path, sum);
		return -1;
	}
	return 0;
}

/* Copies n bytes at off of the shard's rows to the output. */
static int
copy_rows(struct export *x, const struct shard *s, unsigned long long off,
    unsigned long long n, char *buf, size_t bufsize, struct strbuf *why)
{
	while (n && !x->write_failed) {
		size_t want = n < bufsize ? (size_t)n : bufsize;
		ssize_t got = pread(s->fd, buf, want, (off_t)off);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			strbuf_addf_line(why, "cannot read '%s': %s",
			    s->rows_path, got < 0 ? strerror(errno) :
			    "it got shorter");
			return -1;
		}
		write_rows(x, buf, (size_t)got);
		off += (unsigned long long)got;
		n -= (unsigned long long)got;
	}
	return 0;
}

/*
 * The shard's records in turn, each copied unless its key came before.
 * Its keys are read again (one keys file in memory at a time); a file
 * that changed since the check is trouble.
 */
static int
merge_shard(struct export *x, const struct shard *s, struct strbuf *keys,
    char *buf, size_t bufsize, struct strbuf *why)
{
	struct keys_reader rd;
	struct keys_error err;
	struct keys_line k;
	unsigned long long off = 0;
	long long index = 0;
	int r = 0;

	if (read_keys(s, keys, &rd, why))
		return -1;
	while (!x->write_failed && (r = keys_read(&rd, &k, &err)) > 0) {
		x->t->records++;
		index++;
		if (!select_seen_add(&x->seen, k.key)) {
			x->t->why[EXPORT_SELECT + SELECT_REPEAT]++;
			if (x->verbose && x->notes)
				fprintf(x->notes, "%s: record %lld of the "
				    "shard: skipped (uniq)\n", s->rows_path,
				    index);
		} else {
			if (copy_rows(x, s, off, k.bytes, buf, bufsize, why))
				return -1;
			x->t->exported++;
			x->t->rows += k.rows;
			x->t->bytes += k.bytes;
			write_key(x, &k);
		}
		off += k.bytes;
	}
	if (r < 0) {
		strbuf_addf_line(why, "%s:%lu: %s", s->keys_path, err.line,
		    err.message);
		return -1;
	}
	return 0;
}

int
export_merge(const struct export_opts *o, char *const *files, int nfiles,
    struct export_tally *t, const char **format_out, struct strbuf *why)
{
	struct export *x = export_new(o, t);
	const struct train_format *f = NULL;
	struct strbuf keys = STRBUF_INIT;
	char format[sizeof(((struct keys_reader *)0)->format)];
	struct shard *sh;
	int i, n = nfiles / 2, rc = 0;
	size_t bufsize = 1 << 20;
	char *buf = NULL;
	double t0 = clock_now();

	if (nfiles < 2 || nfiles % 2) {
		strbuf_addf_line(why, "the shards come in pairs of a rows file "
		    "and its keys file");
		export_free(x);
		return -1;
	}
	snprintf(format, sizeof(format), "%s", o->fmt ? o->fmt->name : "");
	sh = xcalloc((size_t)n, sizeof(*sh));
	for (i = 0; i < n; i++) {
		sh[i].fd = -1;
		sh[i].rows_path = files[2 * i];
		sh[i].keys_path = files[2 * i + 1];
	}
	for (i = 0; i < n && !rc; i++)
		rc = check_shard(&sh[i], &keys, format, sizeof(format), why);
	if (!rc && !(f = train_formats_by_name(format))) {
		strbuf_addf_line(why, "%s: rows of an unknown format '%s'",
		    sh[0].keys_path, format);
		rc = -1;
	}
	if (!rc && (rc = open_outputs(x, f->binary, why)) == 0) {
		start_keys(x, f->name);
		buf = xmalloc(bufsize);
		t->shards = n;
		for (i = 0; i < n && !rc; i++)
			rc = merge_shard(x, &sh[i], &keys, buf, bufsize, why);
		if (rc) {
			export_abort(x);
			strbuf_addf_line(why, "nothing written");
		} else {
			rc = export_finish(x, why);
		}
	}
	free(buf);
	for (i = 0; i < n; i++)
		if (sh[i].fd >= 0)
			close(sh[i].fd);
	free(sh);
	strbuf_release(&keys);
	export_free(x);
	if (rc)
		return -1;
	t->seconds = clock_now() - t0;
	*format_out = f->name;
	return 0;
}
