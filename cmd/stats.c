/*
 * stats.c - `kifu stats`: what the results of whole archives say (the
 * counting, a record at a time: stats/gamestats.c), walked as `kifu
 * check` walks them, each record judged as check judges it (the rule set
 * auto by default); or the JSON of several runs merged (--merge).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "ruleopts.h"
#include "tagopts.h"
#include "walkopts.h"
#include "api/judge.h"
#include "core/xalloc.h"
#include "stats/gamestats.h"
#include "stats/jsonl.h"
#include "tags/tagger.h"

const char cmd_stats_usage[] =
    "usage: kifu stats [--by <group>] [--vs opening|castle] [--json]\n"
    "                  <path>...\n"
    "   or: kifu stats --merge [--by <group>] [--vs <names>] [--json]\n"
    "                  <file.json>...\n"
    "\n"
    "Counts the results the rules give the records under the paths (as\n"
    "check judges them): by reason and by winner, for all games, even\n"
    "games and handicap games; the game lengths; the first two moves; and\n"
    "per player or per group. A record that cannot be read is named on\n"
    "stderr and not counted.\n"
    "\n"
    "    --by none|player|event|year|first-moves|opening|castle|matchup\n"
    "                         the group: none (default), player (each\n"
    "                         player's games, as Black and as White, first\n"
    "                         and last date), event, year, first-moves (the\n"
    "                         figures for each), or by the names kifu tag\n"
    "                         gives:\n"
    "                         opening or castle (each side's names, counted\n"
    "                         as players are: from the side that played\n"
    "                         it, wins, losses and draws, the rate of wins)\n"
    "                         or matchup (相居飛車, 対抗型, 相振り飛車)\n"
    "    --vs opening|castle  with --by opening or castle: each name\n"
    "                         against each of the opponent's openings or\n"
    "                         castles (how 四間飛車 does against 居飛車穴熊)\n"
    "    --json               one JSON object; its counts are whole, so\n"
    "                         that runs over parts merge exactly\n"
    "    --merge              read the JSON of earlier runs instead and\n"
    "                         print what one run over all would\n"
    "    -s, --no-messages    no warning for a record that cannot be read\n"
    TAG_DEFS_HELP
    READ_HELP
    "\n"
    WALK_HELP
    "\n"
    "Exit status: 0 every record counted, 1 a record could not be read,\n"
    "2 trouble (usage, an input that cannot be read).\n"
    "\n"
    RULEOPTS_HELP;

struct stats {
	struct judge_opts jo;
	int json, quiet_unreadable;
	enum group_by by;
	enum vs_by vs;
	const struct tagdefs *defs;	/* with a grouping by the tags */
	struct gamestats total;		/* main thread: the merged batches */
	long long unreadable;
	int failed;
};

struct stats_batch {
	struct pipe_batch b;	/* err for stderr */
	struct gamestats gs;
	long long unreadable;
	struct stats *c;
};

/* A worker: its judge, and a tagger when the grouping needs the tags. */
struct stats_worker {
	struct judge j;
	struct tagger *tg;
};

static void
warn(struct stats *c, struct stats_batch *b, const char *file,
    const struct diag_list *d, const char *what)
{
	const struct diag *e = diag_first_error(d);

	b->unreadable++;
	if (c->quiet_unreadable)
		return;
	diag_warning_line(&b->b.err, file, e, what);
}

/* --- the pipeline's callbacks ----------------------------------------- */

static void
batch_init(void *ctx, void *batch)
{
	struct stats_batch *b = batch;
	struct stats *c = ctx;

	gamestats_init(&b->gs, c->by);
	b->gs.vs = c->vs;
	b->c = c;
}

static void
batch_release(void *ctx, void *batch)
{
	(void)ctx;
	gamestats_release(&((struct stats_batch *)batch)->gs);
}

static void
batch_reset(void *ctx, void *batch)
{
	struct stats_batch *b = batch;

	batch_release(ctx, batch);
	b->unreadable = 0;
	batch_init(ctx, batch);
}

static void *
worker_new(void *ctx)
{
	struct stats *c = ctx;
	struct stats_worker *w = xcalloc(1, sizeof(*w));

	judge_init(&w->j, &c->jo);
	if (c->defs)
		w->tg = tagger_new(c->defs);
	return w;
}

static void
worker_free(void *ctx, void *worker)
{
	struct stats_worker *w = worker;

	(void)ctx;
	judge_release(&w->j);
	tagger_free(w->tg);
	free(w);
}

static int
input(void *ctx, void *worker, void *batch, const struct pipe_input *in)
{
	struct stats *c = ctx;
	struct stats_batch *b = batch;
	struct stats_worker *w = worker;
	struct judge *j = &w->j;
	struct judge_input ji;
	enum read_status st;

	if (in->error) {
		pipe_batch_unreadable(&b->b, in);
		return 0;
	}
	switch (judge_open(j, &ji, in->name, in->data, in->flags)) {
	case JUDGE_SKIPPED:
		return 0;
	case JUDGE_UNREADABLE:
		warn(c, b, in->name, &j->d, "no record counted");
		return 0;
	case JUDGE_READY:
		break;
	}
	while ((st = judge_next(j, &ji, 0)) != READ_EOF) {
		if (st == READ_OK)
			gamestats_add_record(&b->gs, j, ji.f, w->tg);
		else
			warn(c, b, in->name, &j->d, "record not counted");
		if (st == READ_FATAL)
			break;
	}
	if (ji.index == 0) {
		diag_list_clear(&j->d);
		diag_add(&j->d, DIAG_ERROR, diag_id_name(DIAG_EMPTY), NULL, 0,
		    "no record in the file");
		warn(c, b, in->name, &j->d, "no record counted");
	}
	return 0;
}

static int
emit(void *ctx, void *batch)
{
	struct stats *c = ctx;
	struct stats_batch *b = batch;

	gamestats_merge(&c->total, &b->gs);
	c->unreadable += b->unreadable;
	c->failed |= b->b.failed;
	return 0;
}

static long long
done(void *ctx)
{
	return ((struct stats *)ctx)->total.total.all.records;
}

static const struct pipeline_ops stats_ops = {
	.batch_size = sizeof(struct stats_batch),
	.batch_init = batch_init,
	.batch_reset = batch_reset,
	.batch_release = batch_release,
	.worker_new = worker_new,
	.worker_free = worker_free,
	.input = input,
	.emit = emit,
	.done = done,
};

/* --- --merge ------------------------------------------------------------ */

struct merge {
	struct stats *c;
	int by_given;		/* --by: else the first shard that shows one */
	int vs_given;		/* --vs: likewise */
};

static int
merge_object(void *ctx, json_t *o, char *why, size_t n)
{
	struct merge *m = ctx;
	struct gamestats *gs = &m->c->total;

	if (!m->by_given && gs->by == BY_NONE && gs->total.all.records == 0)
		gs->by = gamestats_json_by(o);
	if (!m->vs_given && gs->vs == VS_NONE && gs->total.all.records == 0)
		gs->vs = gamestats_json_vs(o);
	if (gamestats_read_json(gs, o, why, n) < 0)
		return -1;
	return 0;
}

int
cmd_stats(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "by", required_argument, NULL, 'B' },
		{ "vs", required_argument, NULL, 'V' },
		TAG_DEFS_LONGOPT,
		{ "json", no_argument, NULL, 'J' },
		{ "merge", no_argument, NULL, 'M' },
		{ "no-messages", no_argument, NULL, 's' },
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
	struct strbuf out = STRBUF_INIT;
	struct stats c;
	struct merge mg;
	const char *defs_file = NULL;
	int opt, rc, i, merge = 0, by = -1, vs = -1, status = 0;

	memset(&c, 0, sizeof(c));
	ruleopts_init(&ro);
	walkopts_init(&wo, "records");
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "hj:zs", longopts, NULL)) != -1) {
		switch (opt) {
		case 'B':
			if ((by = group_by_parse(optarg)) < 0)
				return cmd_usage_error(cmd_stats_usage,
				    "--by wants player, event, year, "
				    "first-moves, opening, castle, matchup or "
				    "none, not '%s'", optarg);
			break;
		case 'V':
			if ((vs = vs_by_parse(optarg)) < 0)
				return cmd_usage_error(cmd_stats_usage,
				    "--vs wants opening or castle, not '%s'",
				    optarg);
			break;
		case OPT_TAG_DEFINITIONS: defs_file = optarg; break;
		case 'J': c.json = 1; break;
		case 'M': merge = 1; break;
		case 's': c.quiet_unreadable = 1; break;
		case 'h': return cmd_help(cmd_stats_usage);
		default:
			if ((rc = judgeopts_take(&c.jo, &wo, &ro, opt, optarg,
			    cmd_stats_usage)) != 0) {
				if (rc != 1)
					return rc;
				break;
			}
			return cmd_usage_error(cmd_stats_usage,
			    optopt ? "option '%s' needs a value" :
			    "unknown option '%s'", argv[optind - 1]);
		}
	}
	c.by = by < 0 ? BY_NONE : (enum group_by)by;
	c.vs = vs < 0 ? VS_NONE : (enum vs_by)vs;
	if (vs >= 0 && ((by >= 0 || !merge) && c.by != BY_OPENING &&
	    c.by != BY_CASTLE))
		return cmd_usage_error(cmd_stats_usage, "--vs goes with --by "
		    "opening or --by castle");
	if (merge && defs_file)
		return cmd_usage_error(cmd_stats_usage, "--definitions names "
		    "records, not shards: not with --merge");
	if (merge) {
		if (optind == argc)
			return cmd_usage_error(cmd_stats_usage,
			    "no file given");
		gamestats_init(&c.total, c.by);
		c.total.vs = c.vs;
		mg.c = &c;
		mg.by_given = by >= 0;
		mg.vs_given = vs >= 0;
		for (i = optind; i < argc; i++)
			if ((rc = cmd_read_jsonl(argv[i], merge_object, &mg)))
				status = rc;
		snprintf(desc, sizeof(desc), "%s", "");
	} else {
		if (walkopts_finish(&wo, argc - optind, cmd_stats_usage) ||
		    ruleopts_judge(&ro, &rs, &c.jo, cmd_stats_usage))
			return EXIT_TROUBLE;
		c.jo.no_result_check = 1;
		if (group_by_tags(c.by) && !(c.defs = tagopts_load(defs_file)))
			return EXIT_TROUBLE;
		ruleset_describe(&rs, desc, sizeof(desc));
		gamestats_init(&c.total, c.by);
		c.total.vs = c.vs;
		if (walkopts_run(&wo, &stats_ops, &c, argv + optind,
		    argc - optind, NULL, NULL))
			c.failed = 1;
		tagopts_free(c.defs);
		status = c.failed ? EXIT_TROUBLE : c.unreadable ?
		    EXIT_FINDINGS : EXIT_OK;
	}
	if (status != EXIT_TROUBLE || !merge) {
		if (c.json)
			gamestats_json(&c.total, &out);
		else
			gamestats_text(&c.total, desc[0] ? desc : NULL, &out);
		fflush(stderr);
		fputs(out.buf, stdout);
	}
	if (c.unreadable && !c.json)
		cmd_note("%lld record%s could not be read and %s not counted",
		    c.unreadable, c.unreadable == 1 ? "" : "s",
		    c.unreadable == 1 ? "is" : "are");
	strbuf_release(&out);
	gamestats_release(&c.total);
	return status;
}
