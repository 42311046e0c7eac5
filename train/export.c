/*
 * export.c - `kifu export`: the training rows (parsers/train.h) of every
 * selected record under the paths, walked as `kifu check` walks them
 * (walk/pipeline.h), written in input order whatever -j; and `--merge`,
 * the second pass that joins the outputs of shards.
 *
 * Workers judge each record (api/judge.h), apply the per-record filters
 * (query/select.h) and write its rows into their batch; the main thread
 * takes the batches in input order, drops the records --uniq has seen
 * (so the same ones for every -j), and streams the rest to the output,
 * a temporary file put in place at the end (api/output.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/queryopts.h"
#include "cmd/ruleopts.h"
#include "cmd/walkopts.h"
#include "api/formats.h"
#include "api/input.h"
#include "api/judge.h"
#include "api/output.h"
#include "api/trainformats.h"
#include "core/clock.h"
#include "core/xalloc.h"
#include "parsers/keys.h"
#include "parsers/rating.h"
#include "query/select.h"

const char cmd_export_usage[] =
    "usage: kifu export -t <format> [<options>] <path>... [-o <out>]\n"
    "   or: kifu export --merge [-o <out>] [--keys-out <file>]\n"
    "                   <rows> <keys> [<rows> <keys>]...\n"
    "\n"
    "Writes training rows for every selected record under the paths: one\n"
    "row per position of the main line, up to the ply where the rules end\n"
    "the game, with the move played, the evaluation in the record's\n"
    "comments and the result the rules give. Records with an illegal move\n"
    "or that cannot be read are skipped; a record whose claim the rules\n"
    "contradict is written with the rules' result and counted as disputed.\n"
    "The summary goes to stderr. Output is the same bytes for every -j.\n"
    "\n"
    "    -t, --to <format>    hcpe, hcpe3, psv, hcp or sfen (text lines\n"
    "                         SFEN<TAB>move<TAB>eval|-<TAB>result)\n"
    "    -o, --output <file>  where the rows go (default and '-': standard\n"
    "                         output, never a terminal for binary rows);\n"
    "                         written whole or not at all\n"
    "    --force              replace an existing file\n"
    "    --keys-out <file>    also write each exported record's key, rows\n"
    "                         and bytes, for --merge\n"
    "    --summary-json       the summary as one JSON object on stdout\n"
    "    -v, --verbose        a line on stderr for each record not exported\n"
    "Rows:\n"
    "    --skip-plies <n>     no rows for the first n positions (hcpe3: their\n"
    "                         moves get no candidate)\n"
    "    --stop-at-eval <n>   a record's last row is the first whose |eval|\n"
    "                         is n or more (100000: dlshogi's mate stop)\n"
    "    --require-eval       drop a record in which a side has no\n"
    "                         evaluation on its moves\n"
    "    --ply <n>            hcp: the position after n plies (default 0:\n"
    "                         the start)\n"
    "\n"
    SELECT_HELP
    "\n"
    "Merging shards: --merge reads pairs of a rows file and the keys file\n"
    "its run wrote (--keys-out), in input order, and writes their rows,\n"
    "dropping every record whose key an earlier one had: the rows one run\n"
    "with --uniq over all the inputs gives.\n"
    "\n"
    WALK_HELP
    "Reading:\n"
    "    --from <format>      read every record as this format\n"
    "\n"
    "Exit status: 0 written, 2 trouble (usage, an input that cannot be\n"
    "read, a write error: then nothing is left behind).\n"
    "\n"
    RULEOPTS_HELP;

enum {
	OPT_FORCE = 0x1c0, OPT_KEYS_OUT, OPT_SUMMARY_JSON, OPT_SKIP_PLIES,
	OPT_STOP_AT_EVAL, OPT_REQUIRE_EVAL, OPT_PLY, OPT_MERGE, OPT_FROM
};

/*
 * Why a record is not exported, as one number: the reading verdicts, then
 * the selection's drops (query/select.h), then the format's (train_skip).
 */
enum {
	WHY_EXPORTED = 0, WHY_UNREADABLE, WHY_ILLEGAL,
	WHY_SELECT = 3,
	WHY_TRAIN = WHY_SELECT + SELECT_NB,
	WHY_NB = WHY_TRAIN + TRAIN_SKIP_NB
};

static const char *
why_name(int why)
{
	if (why == WHY_UNREADABLE)
		return "unreadable";
	if (why == WHY_ILLEGAL)
		return "illegal";
	if (why >= WHY_SELECT && why < WHY_TRAIN)
		return select_drop_name((enum select_drop)(why - WHY_SELECT));
	if (why >= WHY_TRAIN && why < WHY_NB)
		return train_skip_name((enum train_skip)(why - WHY_TRAIN));
	return "exported";
}

/* What both modes count, for the summary. */
struct tally {
	long long records, exported, disputed, files_skipped, shards;
	unsigned long long rows, bytes;
	long long why[WHY_NB];
	double seconds;
};

struct export {
	const struct train_format *fmt;
	struct train_opts to;
	struct select_opts so;
	struct judge_opts jo;
	int verbose, summary_json, force;
	const char *out_path, *keys_path;
	struct output_stream *out, *keys;	/* keys NULL: no --keys-out */
	struct output_stream out_s, keys_s;	/* what they point at */
	struct strbuf line;			/* a keys line, reused */
	struct select_seen seen;
	struct tally t;
	int status;
	int write_failed;	/* errno of the first failed write, or 0 */
	int keys_failed;
};

/* One record of a batch, in input order. */
struct item {
	int why;		/* WHY_EXPORTED or the reason it is not */
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

static void
worst(struct export *x, int status)
{
	if (status > x->status)
		x->status = status;
}

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
	cmd_add_clean(&b->notes, file);
	if (index >= 0)
		strbuf_addf(&b->notes, ": record %d", index + 1);
	strbuf_addc(&b->notes, '\0');
	va_start(ap, fmt);
	strbuf_vaddf(&detail, fmt, ap);
	va_end(ap);
	cmd_add_clean(&b->notes, detail.buf);
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
		set_why(b, it, st == VERDICT_ERROR ? WHY_UNREADABLE :
		    WHY_ILLEGAL, v->file, index, "%s [%s]", e->message, e->id);
		return;
	}
	if ((drop = select_record(&x->so, v->r, v->rp, v->adj)) !=
	    SELECT_KEPT) {
		struct strbuf d = STRBUF_INIT;

		if (x->verbose)
			select_detail(&d, drop, v);
		set_why(b, it, WHY_SELECT + (int)drop, v->file, index, "%s",
		    d.buf ? d.buf : "");
		strbuf_release(&d);
		return;
	}
	g.r = v->r;
	g.rp = v->rp;
	g.adj = v->adj;
	if ((skip = x->fmt->write(&g, &x->to, &b->rows, &rows)) !=
	    TRAIN_WRITTEN) {
		set_why(b, it, WHY_TRAIN + (int)skip, v->file, index, "%s",
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
			set_why(b, it, WHY_EXPORTED, v->file, index, "%s", "");
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
		set_why(b, it, WHY_UNREADABLE, in->name, -1, "%s", in->error);
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

	if (it->io) {
		fprintf(stderr, "kifu: error: cannot read '%s': %s [io]\n",
		    label, detail);
		return;
	}
	if (!x->verbose)
		return;
	if (it->why == WHY_SELECT + SELECT_REPEAT)
		detail = "its start and moves repeat an earlier record's";
	fprintf(stderr, "%s: skipped (%s)%s%s\n", label, why_name(it->why),
	    *detail ? ": " : "", detail);
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

		x->t.records++;
		if (it->why == WHY_EXPORTED && x->so.uniq &&
		    !select_seen_add(&x->seen, it->key))
			it->why = WHY_SELECT + SELECT_REPEAT;
		if (it->why != WHY_EXPORTED) {
			x->t.why[it->why]++;
			if (it->io)
				worst(x, EXIT_TROUBLE);
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
		x->t.exported++;
		x->t.disputed += it->disputed;
		x->t.rows += it->rows;
		x->t.bytes += it->len;
		k.key = it->key;
		k.rows = it->rows;
		k.bytes = it->len;
		write_key(x, &k);
	}
	write_rows(x, b->rows.buf + run, run_len);
	x->t.files_skipped += b->files_skipped;
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
	((struct export *)ctx)->t.files_skipped++;
}

static long long
done(void *ctx)
{
	return ((struct export *)ctx)->t.records;
}

static const struct pipeline_ops export_ops = {
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
sorted_whys(const struct tally *t, int *order)
{
	int i, j, n = 0;

	for (i = 1; i < WHY_NB; i++)
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
skipped_total(const struct tally *t)
{
	long long n = 0;
	int i;

	for (i = 1; i < WHY_NB; i++)
		n += t->why[i];
	return n;
}

static double
rate(const struct tally *t)
{
	return t->seconds > 0 ? (double)t->rows / t->seconds : 0;
}

static void
summary_text(const struct tally *t, const char *mode, const char *format,
    const char *rules, struct strbuf *out)
{
	int order[WHY_NB], n = sorted_whys(t, order), i;

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
			    why_name(order[i]), t->why[order[i]]);
		strbuf_addc(out, '\n');
	}
	strbuf_addf(out, "  time         %.3f s, %.0f rows/s\n", t->seconds,
	    rate(t));
}

static void
summary_json(const struct tally *t, const char *mode, const char *format,
    const char *rules, struct strbuf *out)
{
	int order[WHY_NB], n = sorted_whys(t, order), i;

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
		    why_name(order[i]), t->why[order[i]]);
	strbuf_addf(out, "}, \"files_skipped\": %lld, \"rows\": %llu, "
	    "\"bytes\": %llu, \"seconds\": %.3f, \"rows_per_second\": %.0f}\n",
	    t->files_skipped, t->rows, t->bytes, t->seconds, rate(t));
}

static void
print_summary(const struct export *x, const char *mode, const char *format,
    const char *rules)
{
	struct strbuf sum = STRBUF_INIT;

	if (x->summary_json) {
		summary_json(&x->t, mode, format, rules, &sum);
		fputs(sum.buf, stdout);
	} else {
		summary_text(&x->t, mode, format, rules, &sum);
		fflush(stdout);
		fputs(sum.buf, stderr);
	}
	strbuf_release(&sum);
}

/* --- output ------------------------------------------------------------- */

static int
is_stdout(const char *path)
{
	return !path || strcmp(path, "-") == 0;
}

/*
 * Opens the outputs before any work: an existing file (without --force)
 * or a directory that cannot take one is refused at once. Returns 0 or
 * EXIT_TROUBLE.
 */
static int
open_outputs(struct export *x, int binary)
{
	if (output_stream_open(&x->out_s, x->out_path, x->force, -1) < 0)
		return cmd_error("cannot write '%s': %s%s", x->out_path,
		    strerror(errno), errno == EEXIST ? " (use --force to "
		    "replace it)" : "");
	if (binary && !x->out_s.tmp && isatty(x->out_s.fd)) {
		output_stream_abort(&x->out_s);
		return cmd_error("refusing to write binary rows to a terminal; "
		    "use -o FILE or a pipe");
	}
	x->out = &x->out_s;
	if (!x->keys_path)
		return 0;
	if (output_stream_open(&x->keys_s, x->keys_path, x->force, -1) < 0) {
		int saved = errno;

		output_stream_abort(&x->out_s);
		return cmd_error("cannot write '%s': %s%s", x->keys_path,
		    strerror(saved), saved == EEXIST ? " (use --force to "
		    "replace it)" : "");
	}
	x->keys = &x->keys_s;
	return 0;
}

static void
abort_outputs(struct export *x)
{
	output_stream_abort(x->out);
	if (x->keys)
		output_stream_abort(x->keys);
}

/*
 * Puts the files in place, the keys last: a keys file never names rows
 * that are not there. Returns 0 or EXIT_TROUBLE (nothing left behind).
 */
static int
finish_outputs(struct export *x)
{
	const char *name = x->keys_failed ? x->keys_path : x->out_path;

	if (x->write_failed) {
		abort_outputs(x);
		return cmd_error("cannot write '%s': %s; nothing written",
		    is_stdout(name) ? "<stdout>" : name,
		    strerror(x->write_failed));
	}
	if (output_stream_commit(x->out) < 0) {
		int saved = errno;

		if (x->keys)
			output_stream_abort(x->keys);
		return cmd_error("cannot write '%s': %s; nothing written",
		    is_stdout(x->out_path) ? "<stdout>" : x->out_path,
		    strerror(saved));
	}
	if (x->keys && output_stream_commit(x->keys) < 0)
		return cmd_error("cannot write '%s': %s", x->keys_path,
		    strerror(errno));
	return 0;
}

static int
start_keys(struct export *x, const char *format)
{
	if (!x->keys)
		return 0;
	strbuf_reset(&x->line);
	keys_write_header(&x->line, format);
	if (output_stream_write(x->keys, x->line.buf, x->line.len) < 0) {
		x->write_failed = errno;
		x->keys_failed = 1;
	}
	return 0;
}

/* --- --merge ------------------------------------------------------------ */

struct shard {
	const char *rows_path, *keys_path;
	int fd;			/* the rows, open from the check on */
};

/* A keys file read whole into *keys; 0 or EXIT_TROUBLE (reported). */
static int
read_keys(const struct shard *s, struct strbuf *keys, struct keys_reader *rd)
{
	struct keys_error err;

	strbuf_reset(keys);
	if (input_read(s->keys_path, keys) < 0)
		return cmd_error("cannot read '%s': %s", s->keys_path,
		    strerror(errno));
	if (keys_reader_init(rd, keys->buf, keys->len, &err) < 0)
		return cmd_error("%s:%lu: %s", s->keys_path, err.line,
		    err.message);
	return 0;
}

/*
 * Checks a shard before anything is written: its keys file reads, holds
 * the format of the others (*format, the first's), and its bytes add up
 * to its rows file's size. Opens the rows. 0 or EXIT_TROUBLE (reported).
 */
static int
check_shard(struct shard *s, struct strbuf *keys, char *format, size_t fn)
{
	struct keys_reader rd;
	struct keys_error err;
	struct keys_line k;
	struct stat st;
	unsigned long long sum = 0;
	int r;

	if (read_keys(s, keys, &rd))
		return EXIT_TROUBLE;
	if (!*format)
		snprintf(format, fn, "%s", rd.format);
	else if (strcmp(format, rd.format) != 0)
		return cmd_error("%s: keys of %s rows, not %s: shards of one "
		    "format only", s->keys_path, rd.format, format);
	while ((r = keys_read(&rd, &k, &err)) > 0)
		sum += k.bytes;
	if (r < 0)
		return cmd_error("%s:%lu: %s", s->keys_path, err.line,
		    err.message);
	if ((s->fd = open(s->rows_path, O_RDONLY)) < 0)
		return cmd_error("cannot read '%s': %s", s->rows_path,
		    strerror(errno));
	if (fstat(s->fd, &st) < 0 || !S_ISREG(st.st_mode))
		return cmd_error("cannot read '%s': not a file", s->rows_path);
	if ((unsigned long long)st.st_size != sum)
		return cmd_error("'%s' has %llu bytes, but its keys '%s' name "
		    "%llu: not the keys of these rows", s->rows_path,
		    (unsigned long long)st.st_size, s->keys_path, sum);
	return 0;
}

/* Copies n bytes at off of the shard's rows to the output. */
static int
copy_rows(struct export *x, const struct shard *s, unsigned long long off,
    unsigned long long n, char *buf, size_t bufsize)
{
	while (n && !x->write_failed) {
		size_t want = n < bufsize ? (size_t)n : bufsize;
		ssize_t got = pread(s->fd, buf, want, (off_t)off);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return cmd_error("cannot read '%s': %s", s->rows_path,
			    got < 0 ? strerror(errno) : "it got shorter");
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
    char *buf, size_t bufsize)
{
	struct keys_reader rd;
	struct keys_error err;
	struct keys_line k;
	unsigned long long off = 0;
	long long index = 0;
	int r = 0;

	if (read_keys(s, keys, &rd))
		return EXIT_TROUBLE;
	while (!x->write_failed && (r = keys_read(&rd, &k, &err)) > 0) {
		x->t.records++;
		index++;
		if (!select_seen_add(&x->seen, k.key)) {
			x->t.why[WHY_SELECT + SELECT_REPEAT]++;
			if (x->verbose)
				fprintf(stderr, "%s: record %lld of the shard: "
				    "skipped (uniq)\n", s->rows_path, index);
		} else {
			if (copy_rows(x, s, off, k.bytes, buf, bufsize))
				return EXIT_TROUBLE;
			x->t.exported++;
			x->t.rows += k.rows;
			x->t.bytes += k.bytes;
			write_key(x, &k);
		}
		off += k.bytes;
	}
	if (r < 0)
		return cmd_error("%s:%lu: %s", s->keys_path, err.line,
		    err.message);
	return 0;
}

static int
cmd_merge(struct export *x, int argc, char **argv, const char *want)
{
	const struct train_format *f = NULL;
	struct strbuf keys = STRBUF_INIT;
	char format[sizeof(((struct keys_reader *)0)->format)];
	struct shard *sh;
	int i, n = argc / 2, rc = 0;
	size_t bufsize = 1 << 20;
	char *buf = NULL;
	double t0 = clock_now();

	if (argc == 0 || argc % 2)
		return cmd_usage_error(cmd_export_usage, "--merge takes pairs "
		    "of a rows file and its keys file");
	snprintf(format, sizeof(format), "%s", want ? want : "");
	sh = xcalloc((size_t)n, sizeof(*sh));
	for (i = 0; i < n; i++) {
		sh[i].fd = -1;
		sh[i].rows_path = argv[2 * i];
		sh[i].keys_path = argv[2 * i + 1];
	}
	for (i = 0; i < n && !rc; i++)
		rc = check_shard(&sh[i], &keys, format, sizeof(format));
	if (!rc && !(f = train_formats_by_name(format)))
		rc = cmd_error("%s: rows of an unknown format '%s'",
		    sh[0].keys_path, format);
	if (!rc && (rc = open_outputs(x, f->binary)) == 0) {
		start_keys(x, f->name);
		buf = xmalloc(bufsize);
		x->t.shards = n;
		for (i = 0; i < n && !rc; i++)
			rc = merge_shard(x, &sh[i], &keys, buf, bufsize);
		if (rc) {
			abort_outputs(x);
			cmd_error("nothing written");
		} else {
			rc = finish_outputs(x);
		}
	}
	free(buf);
	for (i = 0; i < n; i++)
		if (sh[i].fd >= 0)
			close(sh[i].fd);
	free(sh);
	strbuf_release(&keys);
	if (rc)
		return EXIT_TROUBLE;
	x->t.seconds = clock_now() - t0;
	print_summary(x, "merge", f->name, NULL);
	return EXIT_OK;
}

/* --- options -------------------------------------------------------------- */

static int
take_count(const char *arg, const char *opt, int *v)
{
	if ((*v = cmd_parse_int(arg, 1000000)) < 0)
		return cmd_usage_error(cmd_export_usage, "%s takes a number from "
		    "0 to 1000000, not '%s'", opt, arg);
	return 0;
}

static int
take_eval(const char *arg, long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(arg, &end, 10);
	if (!*arg || *end || *arg == '-' || *arg == '+' || errno || *v < 1)
		return cmd_usage_error(cmd_export_usage, "--stop-at-eval takes "
		    "a positive number, not '%s'", arg);
	return 0;
}

int
cmd_export(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "to", required_argument, NULL, 't' },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "keys-out", required_argument, NULL, OPT_KEYS_OUT },
		{ "summary-json", no_argument, NULL, OPT_SUMMARY_JSON },
		{ "verbose", no_argument, NULL, 'v' },
		{ "skip-plies", required_argument, NULL, OPT_SKIP_PLIES },
		{ "stop-at-eval", required_argument, NULL, OPT_STOP_AT_EVAL },
		{ "require-eval", no_argument, NULL, OPT_REQUIRE_EVAL },
		{ "ply", required_argument, NULL, OPT_PLY },
		{ "merge", no_argument, NULL, OPT_MERGE },
		{ "from", required_argument, NULL, OPT_FROM },
		{ "help", no_argument, NULL, 'h' },
		SELECT_LONGOPTS,
		WALK_LONGOPTS,
		RULE_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	const char *usage = cmd_export_usage;
	struct ruleopts ro;
	struct walkopts wo;
	struct ruleset rs;
	char desc[RULESET_DESC_MAX];
	struct export x;
	int opt, rc, merge = 0, ply_set = 0, skip_set = 0, walk_opts = 0;
	int sel_opts = 0;

	memset(&x, 0, sizeof(x));
	ruleopts_init(&ro);
	walkopts_init(&wo, "records");
	select_init(&x.so);
	strbuf_init(&x.line);
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "ht:o:j:zv", longopts,
	    NULL)) != -1) {
		switch (opt) {
		case 't':
			if (!(x.fmt = train_formats_by_name(optarg)))
				return cmd_usage_error(usage, "unknown format "
				    "'%s' (known: %s)", optarg,
				    train_formats_names());
			break;
		case 'o': x.out_path = optarg; break;
		case OPT_FORCE: x.force = 1; break;
		case OPT_KEYS_OUT: x.keys_path = optarg; break;
		case OPT_SUMMARY_JSON: x.summary_json = 1; break;
		case 'v': x.verbose = 1; break;
		case OPT_SKIP_PLIES:
			if (take_count(optarg, "--skip-plies",
			    &x.to.skip_plies))
				return EXIT_TROUBLE;
			skip_set = 1;
			break;
		case OPT_STOP_AT_EVAL:
			if (take_eval(optarg, &x.to.stop_at_eval))
				return EXIT_TROUBLE;
			break;
		case OPT_REQUIRE_EVAL: x.to.require_eval = 1; break;
		case OPT_PLY:
			if (take_count(optarg, "--ply", &x.to.ply))
				return EXIT_TROUBLE;
			ply_set = 1;
			break;
		case OPT_MERGE: merge = 1; break;
		case OPT_FROM:
			if (!(x.jo.from = formats_by_name(optarg)) ||
			    !x.jo.from->read)
				return cmd_usage_error(usage, "unknown format "
				    "'%s' (known: %s)", optarg,
				    formats_names());
			break;
		case 'h': return cmd_help(usage);
		default:
			if ((rc = walkopts_take(&wo, opt, optarg, usage)) != 0) {
				if (rc != 1)
					return rc;
				walk_opts = 1;
				break;
			}
			if ((rc = cmd_select_take(&x.so, opt, optarg,
			    usage)) != 0) {
				if (rc != 1)
					return rc;
				sel_opts = 1;
				break;
			}
			if ((rc = ruleopts_take(&ro, opt, optarg, usage)) != 0) {
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
	if (x.summary_json && is_stdout(x.out_path))
		return cmd_usage_error(usage, "--summary-json prints on standard "
		    "output: give the rows a file with -o");
	if (x.keys_path && is_stdout(x.keys_path))
		return cmd_usage_error(usage, "--keys-out wants a file");
	if (x.keys_path && !is_stdout(x.out_path) &&
	    strcmp(x.keys_path, x.out_path) == 0)
		return cmd_usage_error(usage, "--keys-out and -o name the same "
		    "file");
	if (merge) {
		if (walk_opts || sel_opts || skip_set || ply_set ||
		    x.to.stop_at_eval || x.to.require_eval || x.jo.from)
			return cmd_usage_error(usage, "--merge takes only -o, "
			    "--force, --keys-out, --summary-json, -v and -t");
		rc = cmd_merge(&x, argc - optind, argv + optind,
		    x.fmt ? x.fmt->name : NULL);
		select_seen_release(&x.seen);
		strbuf_release(&x.line);
		return rc;
	}
	if (!x.fmt)
		return cmd_usage_error(usage, "-t <format> is needed (%s)",
		    train_formats_names());
	if (ply_set && x.fmt->write != hcp_write)
		return cmd_usage_error(usage, "--ply is for -t hcp (one "
		    "position a record)");
	if (skip_set && x.fmt->write == hcp_write)
		return cmd_usage_error(usage, "--skip-plies is for rows of "
		    "every position; with -t hcp use --ply");
	if (walkopts_finish(&wo, argc - optind, usage))
		return EXIT_TROUBLE;
	if (ruleopts_build(&ro, &rs, &x.jo.auto_rules, usage))
		return EXIT_TROUBLE;
	x.jo.rules = &rs;
	x.jo.no_result_check = ro.no_result_check;
	x.jo.limits = &ro.lim;
	ruleset_describe(&rs, desc, sizeof(desc));
	if (open_outputs(&x, x.fmt->binary))
		return EXIT_TROUBLE;
	start_keys(&x, x.fmt->name);
	wo.po.judge = &x.jo;
	if (walkopts_run(&wo, &export_ops, &x, argv + optind, argc - optind,
	    NULL, &x.t.seconds)) {
		abort_outputs(&x);
		worst(&x, EXIT_TROUBLE);
	} else if ((rc = finish_outputs(&x)) != 0)
		worst(&x, rc);
	else
		print_summary(&x, "export", x.fmt->name, desc);
	select_seen_release(&x.seen);
	strbuf_release(&x.line);
	return x.status;
}
