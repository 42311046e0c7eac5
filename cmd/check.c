/*
 * check.c - `kifu check`: validate whole archives, in parallel, with the
 * output in input order (the walk and the threads: walk/pipeline.c).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "ruleopts.h"
#include "walkopts.h"
#include "api/formats.h"
#include "api/judge.h"
#include "core/xalloc.h"
#include "stats/tally.h"

const char cmd_check_usage[] =
    "usage: kifu check [<options>] <path>...\n"
    "\n"
    "Validates every record under the paths. Problems go to stdout, one\n"
    "line each (or JSON Lines with --json); the summary goes to stderr.\n"
    "\n"
    WALK_HELP
    "Output:\n"
    "    --json               one JSON object per record (the validate schema)\n"
    "    -q, --quiet          print only the summary\n"
    "    --summary-json       the summary as one JSON object on stdout\n"
    "    -v, --verbose        also print warnings (stderr)\n"
    "    --fail-fast          stop at the first finding\n"
    READ_HELP
    "\n"
    "Exit status: 0 every record valid, 1 findings, 2 trouble (usage, an\n"
    "input that cannot be read).\n"
    "\n"
    RULEOPTS_HELP;

struct check {
	int json, quiet, summary_json, verbose;
	struct judge_opts jo;
	struct tally total;	/* main thread: the merged batches */
	int status;
};

/* What one batch of inputs gave, for emit() to print and count. */
struct check_batch {
	struct pipe_batch b;	/* out for stdout, err for stderr */
	struct tally st;
	int last;		/* of the input being judged */
	struct check *c;	/* for the verdict callback */
};

static void
worst(struct check *c, int status)
{
	if (status > c->status)
		c->status = status;
}

static void
on_verdict(void *ctx, const struct verdict *v)
{
	struct check_batch *b = ctx;
	struct check *c = b->c;
	const struct diag *e = verdict_error(v);
	enum verdict_status st = verdict_status(v);

	if (v->skipped) {
		tally_skip(&b->st, v->file);
		return;
	}
	tally_add(&b->st, verdict_status_name(st), e ? e->id : NULL,
	    v->format, v->encoding, v->rp ? reason_name(v->result.reason) :
	    NULL, v->adj ? v->adj->rules : NULL);
	if (st != VERDICT_OK)
		b->last = 1;
	if (c->quiet || c->summary_json)
		return;
	if (c->json) {
		verdict_json(&b->b.out, v);
		return;
	}
	verdict_diags(&b->b.out, v, DIAG_ERROR, DIAG_ERROR);
	if (c->verbose)
		verdict_diags(&b->b.err, v, DIAG_WARNING, DIAG_WARNING);
}

/* An input that cannot be read: counted, and shown like a record's error. */
static void
render_fail(struct check *c, struct check_batch *b,
    const struct pipe_input *in)
{
	struct strbuf *out = &b->b.out;

	tally_add(&b->st, "error", "io", NULL, NULL, NULL, NULL);
	if (!c->json || c->quiet || c->summary_json) {
		pipe_batch_unreadable(&b->b, in);
		return;
	}
	b->b.failed = 1;
	strbuf_adds(out, "{\"file\": \"");
	strbuf_add_json_string(out, in->name, strlen(in->name));
	strbuf_adds(out, "\", \"index\": 0, \"format\": \"\", "
	    "\"encoding\": \"\", \"status\": \"error\", \"error\": "
	    "{\"line\": 0, \"col\": 0, \"byte\": 0, \"ply\": 0, "
	    "\"rule\": \"io\", \"message\": \"");
	strbuf_add_json_string(out, in->error, strlen(in->error));
	strbuf_adds(out, "\"}}\n");
}

/* --- the pipeline's callbacks ----------------------------------------- */

static void
batch_init(void *ctx, void *batch)
{
	struct check_batch *b = batch;

	tally_init(&b->st);
	b->c = ctx;
}

static void
batch_release(void *ctx, void *batch)
{
	(void)ctx;
	tally_release(&((struct check_batch *)batch)->st);
}

static void
batch_reset(void *ctx, void *batch)
{
	batch_release(ctx, batch);
	batch_init(ctx, batch);
}

static int
input(void *ctx, void *w, void *batch, const struct pipe_input *in)
{
	struct check_batch *b = batch;

	b->last = 0;
	if (in->error) {
		render_fail(ctx, b, in);
		b->last = 1;
	} else {
		judge_bytes(w, in->name, in->name, in->data, in->flags,
		    on_verdict, b);
	}
	return b->last;
}

static int
emit(void *ctx, void *batch)
{
	struct check *c = ctx;
	struct check_batch *b = batch;

	tally_merge(&c->total, &b->st);
	if (b->b.failed)
		worst(c, EXIT_TROUBLE);
	if (b->b.findings)
		worst(c, EXIT_FINDINGS);
	return 0;
}

/* Counted only: the main thread owns the total, as it merges batches. */
static void
ignore(void *ctx, const char *name)
{
	struct check *c = ctx;

	tally_skip(&c->total, name);
}

static long long
done(void *ctx)
{
	return ((struct check *)ctx)->total.records;
}

static const struct pipeline_ops check_ops = {
	.batch_size = sizeof(struct check_batch),
	.batch_init = batch_init,
	.batch_reset = batch_reset,
	.batch_release = batch_release,
	.input = input,
	.emit = emit,
	.ignore = ignore,
	.done = done,
};

int
cmd_check(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "summary-json", no_argument, NULL, 'S' },
		{ "fail-fast", no_argument, NULL, 'x' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		READ_LONGOPTS,
		WALK_LONGOPTS,
		RULE_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct ruleopts ro;
	struct walkopts wo;
	struct ruleset rs;
	char desc[RULESET_DESC_MAX];
	struct check c;
	int opt, rc;
	struct strbuf sum = STRBUF_INIT;

	memset(&c, 0, sizeof(c));
	ruleopts_init(&ro);
	walkopts_init(&wo, "records");
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "hj:qzv", longopts, NULL)) != -1) {
		switch (opt) {
		case 'J': c.json = 1; break;
		case 'q': c.quiet = 1; break;
		case 'S': c.summary_json = 1; break;
		case 'x': wo.po.fail_fast = 1; break;
		case 'v': c.verbose = 1; break;
		case 'h': return cmd_help(cmd_check_usage);
		default:
			if ((rc = judgeopts_take(&c.jo, &wo, &ro, opt, optarg,
			    cmd_check_usage)) != 0) {
				if (rc != 1)
					return rc;
				break;
			}
			return cmd_usage_error(cmd_check_usage,
			    optopt ? "option '%s' needs a value" :
			    "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (walkopts_finish(&wo, argc - optind, cmd_check_usage))
		return EXIT_TROUBLE;
	if (ruleopts_judge(&ro, &rs, &c.jo, cmd_check_usage))
		return EXIT_TROUBLE;
	ruleset_describe(&rs, desc, sizeof(desc));
	tally_init(&c.total);
	wo.po.judge = &c.jo;
	if (walkopts_run(&wo, &check_ops, &c, argv + optind, argc - optind,
	    NULL, &c.total.seconds))
		worst(&c, EXIT_TROUBLE);
	if (c.summary_json) {
		tally_json(&c.total, desc, &sum);
		fputs(sum.buf, stdout);
	} else {
		tally_text(&c.total, desc, &sum);
		fflush(stdout);
		fputs(sum.buf, stderr);
	}
	strbuf_release(&sum);
	tally_release(&c.total);
	return c.status;
}
