/*
 * find.c - `kifu find`: the records of whole archives that match the
 * criteria of cmd/filter.h, walked as `kifu check` walks them (the
 * threads and the order: cmd/pipeline.c).
 *
 * Each record goes through the stages of filter.h and stops at the
 * first that fails: its headers are read alone when a header criterion
 * can turn it down, and its moves are replayed only when a position or
 * a result is asked for (or printed), no further than the answer needs.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "filter.h"
#include "pipeline.h"
#include "ruleopts.h"
#include "api/judge.h"
#include "core/xalloc.h"

const char cmd_find_usage[] =
    "usage: kifu find [<filters>] [--json | -l | -c] <path>...\n"
    "\n"
    "Prints the records under the paths that match every filter given,\n"
    "one line each: FILE[#INDEX][:PLY,...]: BLACK vs WHITE, DATE, RESULT\n"
    "(INDEX, from 0, when the file holds several records; the plies at\n"
    "which the position occurs for a position search; the result under\n"
    "the rules, as validate gives it).\n"
    "\n"
    FILTER_HELP
    "Output:\n"
    "    --json               one JSON object per record: file, index,\n"
    "                         plies, headers, result\n"
    "    -l, --files-with-matches\n"
    "                         the names of the files with a match, once each\n"
    "    -c, --count          the number of matching records, alone\n"
    "    -s, --no-messages    no warning for a record that cannot be read\n"
    READ_HELP
    "\n"
    WALK_HELP
    "\n"
    "Exit status: 0 a record matched, 1 none did, 2 trouble (usage, an\n"
    "input that cannot be read).\n"
    "\n"
    RULEOPTS_HELP;

struct find {
	struct filter f;
	struct judge_opts jo;
	int json, list, count, quiet_unreadable;
	int header_stage;	/* a header criterion: read headers first */
	int whole;		/* a record that passes is read whole */
	int replay_result;	/* the result is asked for or printed */
	long long matched, records;	/* main thread: the merged batches */
	int failed;
};

struct find_batch {
	struct strbuf out;	/* for stdout */
	struct strbuf err;	/* for stderr */
	long long matched, records;
	int failed;		/* an input could not be read */
};

/* What a worker keeps from input to input. */
struct find_worker {
	struct judge j;
	struct filter_scratch s;
	struct filter_hits hits;
	/* The matches of the input at hand, until its records are counted. */
	struct strbuf pending;
	struct pending {
		int index;
		size_t off, len;
	} *pend;
	size_t npend, apend;
};

static const char *
header(const struct record *r, enum header_id id)
{
	const struct record_header *h = record_find_header(r, id);

	return h ? record_str(r, h->value) : "";
}

static void
add_result_text(struct strbuf *sb, const struct game_result *g)
{
	strbuf_adds(sb, reason_name(g->reason));
	if (g->winner != WINNER_NONE)
		strbuf_addf(sb, ", %s wins", winner_name(g->winner));
}

static void
json_key(struct strbuf *sb, int first, const char *key)
{
	strbuf_adds(sb, first ? "\"" : ", \"");
	strbuf_add_json_string(sb, key, strlen(key));
	strbuf_adds(sb, "\": ");
}

/* A header's key in JSON: its well-known name, else the key as written. */
static const char *
header_name(const struct record *r, const struct record_header *h)
{
	return h->id == HDR_OTHER ? record_str(r, h->key) :
	    header_id_name(h->id);
}

/*
 * The headers by their well-known names ("black", "event", "start-time";
 * others by the key as written), the first of each, and "date": the
 * date find compares, normalised.
 */
static void
json_headers(struct strbuf *sb, const struct record *r)
{
	char date[DATE_MAX];
	size_t i, k;
	int first = 1, has_date = 0;

	strbuf_adds(sb, "{");
	for (i = 0; i < r->nheaders; i++) {
		const struct record_header *h = &r->headers[i];
		const char *key = header_name(r, h);

		if (h->id == HDR_RAW)
			continue;
		for (k = 0; k < i; k++)
			if (r->headers[k].id != HDR_RAW &&
			    !strcmp(key, header_name(r, &r->headers[k])))
				break;
		if (k < i)
			continue;
		has_date |= !strcmp(key, "date");
		json_key(sb, first, key);
		strbuf_add_json_quoted(sb, record_str(r, h->value));
		first = 0;
	}
	if (!has_date && date_of_record(r, date)) {
		json_key(sb, first, "date");
		strbuf_add_json_quoted(sb, date);
	}
	strbuf_adds(sb, "}");
}

/*
 * One match of the input at hand, without its file name: ":PLY,...: ..."
 * or a whole JSON line. g is NULL when the record could not be read.
 */
static void
add_match(struct find *c, struct find_worker *w, const char *file,
    int index, const struct game_result *g)
{
	const struct record *r = &w->j.r;
	struct strbuf *sb = &w->pending;
	const struct filter_hits *h = &w->hits;
	const char *name;
	char date[DATE_MAX];
	size_t i, off = sb->len;

	if (c->json) {
		strbuf_adds(sb, "{\"file\": ");
		strbuf_add_json_quoted(sb, file);
		strbuf_addf(sb, ", \"index\": %d, \"plies\": ", index);
		if (c->f.has_position) {
			strbuf_adds(sb, "[");
			for (i = 0; i < h->n; i++)
				strbuf_addf(sb, "%s%d", i ? ", " : "",
				    h->ply[i]);
			strbuf_adds(sb, "]");
		} else {
			strbuf_adds(sb, "null");
		}
		strbuf_adds(sb, ", \"headers\": ");
		json_headers(sb, r);
		strbuf_adds(sb, ", \"result\": ");
		if (g)
			strbuf_addf(sb, "{\"winner\": \"%s\", \"reason\": "
			    "\"%s\", \"ply\": %d}", winner_name(g->winner),
			    reason_name(g->reason), g->ply);
		else
			strbuf_adds(sb, "null");
		strbuf_adds(sb, "}\n");
	} else if (!c->list && !c->count) {
		if (c->f.has_position)
			for (i = 0; i < h->n; i++)
				strbuf_addf(sb, "%c%d", i ? ',' : ':',
				    h->ply[i]);
		strbuf_adds(sb, ": ");
		name = header(r, HDR_BLACK);
		strbuf_add_printable(sb, *name ? name : "-");
		strbuf_adds(sb, " vs ");
		name = header(r, HDR_WHITE);
		strbuf_add_printable(sb, *name ? name : "-");
		strbuf_adds(sb, ", ");
		strbuf_adds(sb, date_of_record(r, date) ? date : "-");
		strbuf_adds(sb, ", ");
		if (g)
			add_result_text(sb, g);
		else
			strbuf_adds(sb, "unreadable");
		strbuf_addc(sb, '\n');
	}
	ALLOC_GROW(w->pend, w->npend + 1, w->apend);
	w->pend[w->npend].index = index;
	w->pend[w->npend].off = off;
	w->pend[w->npend].len = sb->len - off;
	w->npend++;
}

/* The matches of an input, once it is known how many records it has. */
static void
flush_matches(struct find *c, struct find_worker *w, struct find_batch *b,
    const char *file, int records)
{
	size_t i;

	b->matched += (long long)w->npend;
	if (c->list && w->npend) {
		strbuf_add_printable(&b->out, file);
		strbuf_addc(&b->out, '\n');
	}
	for (i = 0; i < w->npend && !c->list && !c->count; i++) {
		if (!c->json) {
			strbuf_add_printable(&b->out, file);
			if (records > 1)
				strbuf_addf(&b->out, "#%d", w->pend[i].index);
		}
		strbuf_add(&b->out, w->pending.buf + w->pend[i].off,
		    w->pend[i].len);
	}
	w->npend = 0;
	strbuf_reset(&w->pending);
}

/* A record or an input that cannot be read: a warning, and on. */
static void
warn_unreadable(struct find *c, struct find_batch *b, const char *file,
    const struct diag_list *d, int record)
{
	if (!c->quiet_unreadable)
		cmd_diag_line(&b->err, file, diag_first_error(d), record ?
		    "a record that cannot be read is matched by its headers "
		    "alone" : "not searched");
}

/*
 * The stages after the headers, on a record read whole: its length, the
 * position (replayed as far as the answer needs), the result. Returns
 * whether it matches; *g gets the result when it was worked out.
 */
static int
match_record(struct find *c, struct find_worker *w,
    const struct judge_input *in, struct game_result *g, int *has_g)
{
	const struct filter *f = &c->f;
	struct record *r = &w->j.r;
	struct replay_walk wk;
	struct replay rp;

	*has_g = 0;
	if (!filter_match_moves(f, r))
		return 0;
	memset(&wk, 0, sizeof(wk));
	wk.main_only = 1;
	w->hits.n = 0;
	if (f->has_position) {
		w->hits.r = r;
		w->hits.first_only = !c->replay_result;
		wk.visit = filter_visit;
		wk.ctx = &w->hits;
		wk.main_only = !f->variations;
	} else if (!c->replay_result) {
		return 1;
	}
	replay_record_walk(r, &rp, &w->j.d, &wk);
	if (f->has_position && !w->hits.n)
		return 0;
	filter_hits_sort(&w->hits);
	if (c->replay_result) {
		struct adjudication adj;
		struct venue venue;

		judge_adjudicate(&w->j, in->f, &rp, &adj, &venue);
		*g = adj.result;
		*has_g = 1;
		if (!filter_match_result(f, g))
			return 0;
	}
	return 1;
}

static void
find_input(struct find *c, struct find_worker *w, struct find_batch *b,
    const struct pipe_input *pin)
{
	const struct filter *f = &c->f;
	struct judge_input in;
	enum read_status st;

	switch (judge_open(&w->j, &in, pin->name, pin->data, pin->flags)) {
	case JUDGE_SKIPPED:
		return;
	case JUDGE_UNREADABLE:
		warn_unreadable(c, b, pin->name, &w->j.d, 0);
		return;
	case JUDGE_READY:
		break;
	}
	/* A format no record of the input can match: nothing to read. */
	if (f->format && in.f != f->format)
		return;
	while ((st = judge_next(&w->j, &in, c->header_stage)) != READ_EOF) {
		int index = in.index - 1, has_g = 0, fatal = st == READ_FATAL;
		struct game_result g;

		b->records++;
		if (c->header_stage &&
		    !filter_match_headers(f, &w->s, &w->j.r, in.f)) {
			if (fatal)
				break;
			continue;
		}
		if (c->header_stage && c->whole && st == READ_OK) {
			st = judge_reread(&w->j, &in);
			fatal = st == READ_FATAL;
		}
		if (st != READ_OK) {
			/* Its headers are all it can be matched by. */
			warn_unreadable(c, b, pin->name, &w->j.d, 1);
			if (!filter_has_moves(f) && !f->has_position &&
			    !filter_has_result(f))
				add_match(c, w, pin->name, index, NULL);
		} else if (match_record(c, w, &in, &g, &has_g)) {
			add_match(c, w, pin->name, index, has_g ? &g : NULL);
		}
		if (fatal)
			break;
	}
	if (in.index == 0) {
		diag_list_clear(&w->j.d);
		diag_add(&w->j.d, DIAG_ERROR, diag_id_name(DIAG_EMPTY), NULL,
		    0, "no record in the file");
		warn_unreadable(c, b, pin->name, &w->j.d, 0);
	}
	flush_matches(c, w, b, pin->name, in.index);
}

/* --- the pipeline's callbacks ----------------------------------------- */

static void
batch_init(void *ctx, void *batch)
{
	struct find_batch *b = batch;

	(void)ctx;
	strbuf_init(&b->out);
	strbuf_init(&b->err);
}

static void
batch_release(void *ctx, void *batch)
{
	struct find_batch *b = batch;

	(void)ctx;
	strbuf_release(&b->out);
	strbuf_release(&b->err);
}

static void
batch_reset(void *ctx, void *batch)
{
	struct find_batch *b = batch;

	(void)ctx;
	strbuf_reset(&b->out);
	strbuf_reset(&b->err);
	b->matched = b->records = 0;
	b->failed = 0;
}

static void *
worker_new(void *ctx)
{
	struct find *c = ctx;
	struct find_worker *w = xcalloc(1, sizeof(*w));

	judge_init(&w->j, &c->jo);
	filter_scratch_init(&c->f, &w->s);
	w->hits.f = &c->f;
	strbuf_init(&w->pending);
	return w;
}

static void
worker_free(void *ctx, void *worker)
{
	struct find_worker *w = worker;

	(void)ctx;
	judge_release(&w->j);
	filter_scratch_release(&w->s);
	free(w->hits.ply);
	strbuf_release(&w->pending);
	free(w->pend);
	free(w);
}

static int
input(void *ctx, void *worker, void *batch, const struct pipe_input *in)
{
	struct find_batch *b = batch;

	if (in->error) {
		b->failed = 1;
		strbuf_addf(&b->err, "kifu: error: cannot read '%s': %s [io]\n",
		    in->name, in->error);
		return 0;
	}
	find_input(ctx, worker, b, in);
	return 0;
}

static int
emit(void *ctx, void *batch)
{
	struct find *c = ctx;
	struct find_batch *b = batch;

	if (b->out.len)
		fwrite(b->out.buf, 1, b->out.len, stdout);
	if (b->err.len) {
		fflush(stdout);
		fwrite(b->err.buf, 1, b->err.len, stderr);
	}
	c->matched += b->matched;
	c->records += b->records;
	c->failed |= b->failed;
	return 0;
}

static long long
done(void *ctx)
{
	return ((struct find *)ctx)->records;
}

static const struct pipeline_ops find_ops = {
	.batch_size = sizeof(struct find_batch),
	.batch_init = batch_init,
	.batch_reset = batch_reset,
	.batch_release = batch_release,
	.worker_new = worker_new,
	.worker_free = worker_free,
	.input = input,
	.emit = emit,
	.done = done,
};

int
cmd_find(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "files-with-matches", no_argument, NULL, 'l' },
		{ "count", no_argument, NULL, 'c' },
		{ "no-messages", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		READ_LONGOPTS,
		FILTER_LONGOPTS,
		WALK_LONGOPTS,
		RULE_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct ruleopts ro;
	struct walkopts wo;
	struct ruleset rs;
	struct find c;
	int opt, rc, status;

	memset(&c, 0, sizeof(c));
	filter_init(&c.f);
	ruleopts_init(&ro);
	walkopts_init(&wo, "records");
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "hj:zlcs", longopts, NULL)) !=
	    -1) {
		switch (opt) {
		case 'J': c.json = 1; break;
		case 'l': c.list = 1; break;
		case 'c': c.count = 1; break;
		case 's': c.quiet_unreadable = 1; break;
		case 'h':
			rc = cmd_help(cmd_find_usage);
			goto out;
		default:
			if ((rc = filter_take(&c.f, opt, optarg,
			    cmd_find_usage)) != 0 ||
			    (rc = judgeopts_take(&c.jo, &wo, &ro, opt, optarg,
			    cmd_find_usage)) != 0) {
				if (rc != 1)
					goto out;
				break;
			}
			rc = cmd_usage_error(cmd_find_usage,
			    optopt ? "option '%s' needs a value" :
			    "unknown option '%s'", argv[optind - 1]);
			goto out;
		}
	}
	rc = EXIT_TROUBLE;
	if (c.json + c.list + c.count > 1) {
		cmd_usage_error(cmd_find_usage, "--json, -l and -c go alone");
		goto out;
	}
	if (walkopts_finish(&wo, argc - optind, cmd_find_usage) ||
	    ruleopts_judge(&ro, &rs, &c.jo, cmd_find_usage) ||
	    filter_finish(&c.f, &ro.lim, cmd_find_usage))
		goto out;
	/* The result is all find asks of the rules, never a verdict. */
	c.jo.no_result_check = 1;
	c.header_stage = filter_has_headers(&c.f);
	c.replay_result = filter_has_result(&c.f) || (!c.list && !c.count);
	c.whole = c.replay_result || c.f.has_position ||
	    filter_has_moves(&c.f);
	if (pipeline_run(&wo.po, &find_ops, &c, argv + optind, argc - optind,
	    wo.from_stdin, wo.nul, NULL, NULL) < 0)
		c.failed = 1;
	if (c.count)
		printf("%lld\n", c.matched);
	status = c.failed ? EXIT_TROUBLE : c.matched ? EXIT_OK :
	    EXIT_FINDINGS;
	rc = status;
out:
	filter_release(&c.f);
	return rc;
}
