/*
 * tsume.c - `kifu tsume check`: is a composed problem sound (the
 * checker is mate/check.c; doc/mate.md).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/input.h"
#include "api/judge.h"
#include "api/mateio.h"
#include "book/bookagg.h"
#include "cmd.h"
#include "core/xalloc.h"
#include "mate/check.h"

const char cmd_tsume_usage[] =
    "usage: kifu tsume check [--rules problem|game] [--json] [--memory <size>]\n"
    "                        [--time <seconds>] [--nodes <n>] [--kanji]\n"
    "                        <file>...\n"
    "\n"
    "Checks composed problems (詰将棋): each record of the files (KIF, KI2,\n"
    "CSA, SFEN/USI; collections too) is a start with the attacker to move\n"
    "and, as its main line, the solution. The solution must be legal,\n"
    "check on every attacker move and end in mate, and its length must be\n"
    "the exact length of the problem. Reported, each with its ply and\n"
    "moves: cooks (余詰: another attacker move that also mates within the\n"
    "moves left; a shorter mate is one), defences that need more moves\n"
    "(変長) or escape (不詰), pieces left in the attacker's hand at the\n"
    "end (駒余り), futile interpositions the solution plays (無駄合). The\n"
    "verdict is 'sound', 'unsound' with those reasons, or 'unknown' when\n"
    "the limits ran out first. Notes that leave a problem sound are\n"
    "printed after the reasons: another last move that mates (最終手余詰),\n"
    "a defence as long as the solution from four plies before the end\n"
    "(変同), the same piece to another square of its line or the other\n"
    "promotion choice (非限定), a move order that returns to the solution\n"
    "(手順前後). A record without a solution is solved and its answer\n"
    "printed. Exit status: 0 every problem sound (or solved), 1 some\n"
    "unsound, unknown or without mate, 2 trouble (usage, unreadable input,\n"
    "a record that is no problem).\n"
    "\n"
    "    --rules problem|game\n"
    "                        problem (default): composed-problem conventions\n"
    "                        (kifu mate --help); game: every defence counts\n"
    "    --json              one JSON object a record: file, index,\n"
    "                        source_line, sfen, rules, status, length, exact,\n"
    "                        reasons, notes, nodes, time\n"
    "    --memory <size>     the solver's tables (default 256M), a ceiling\n"
    "    --time <seconds>    give up (unknown) past this time a record\n"
    "    --nodes <n>         give up past n nodes a record\n"
    "    --kanji             print moves as KIF writes them (▲５二金打)\n";

#define DEFAULT_MEMORY ((size_t)256 << 20)

struct tsume {
	enum mate_rules rules;
	struct mate_limits lim;
	int json, kanji;
	struct mate_ctx *c;
	int status;
	struct strbuf out;
	move *sol;
	int asol;
};

static void
worst(struct tsume *t, int status)
{
	if (status > t->status)
		t->status = status;
}

static void
head(struct tsume *t, const struct verdict *v)
{
	if (t->json) {
		strbuf_adds(&t->out, "{\"file\": ");
		strbuf_add_json_quoted(&t->out, v->file);
		strbuf_addf(&t->out, ", \"index\": %d", v->index);
		if (v->r && v->r->loc.line)
			strbuf_addf(&t->out, ", \"source_line\": %u",
			    v->r->loc.line);
		else
			strbuf_adds(&t->out, ", \"source_line\": null");
		return;
	}
	cmd_add_clean(&t->out, v->file);
	if (v->r && v->r->loc.line)
		strbuf_addf(&t->out, ":%u", v->r->loc.line);
	strbuf_addf(&t->out, ": record %d: ", v->index + 1);
}

static void
trouble(struct tsume *t, const struct verdict *v, const char *id,
    const char *message, const struct span *loc)
{
	worst(t, EXIT_TROUBLE);
	if (t->json) {
		head(t, v);
		strbuf_adds(&t->out, ", \"status\": \"error\", \"error\": "
		    "{\"id\": ");
		strbuf_add_json_quoted(&t->out, id);
		strbuf_adds(&t->out, ", \"message\": ");
		strbuf_add_json_quoted(&t->out, message);
		strbuf_adds(&t->out, "}}\n");
		fputs(t->out.buf, stdout);
		return;
	}
	fflush(stdout);
	cmd_add_clean(&t->out, v->file);
	if (loc && loc->line)
		strbuf_addf(&t->out, ":%u:%u", loc->line, loc->col);
	strbuf_adds(&t->out, ": error: ");
	cmd_add_clean(&t->out, message);
	strbuf_addf(&t->out, " [%s]\n", id);
	fputs(t->out.buf, stderr);
}

/* A record with no moves: the problem is solved and the answer printed. */
static void
solve(struct tsume *t, const struct verdict *v, struct position *start)
{
	struct mate_result r;

	mate_result_init(&r);
	mate_solve(t->c, start, t->rules, &t->lim, &r);
	worst(t, r.status == MATE_MATE ? EXIT_OK : EXIT_FINDINGS);
	head(t, v);
	if (t->json) {
		mateio_result_json(&t->out, start, t->rules, &r, t->kanji);
		strbuf_adds(&t->out, ", \"solution\": null}\n");
	} else {
		strbuf_adds(&t->out, "no solution in the record: ");
		mateio_result_text(&t->out, start, &r, t->kanji);
		strbuf_addc(&t->out, '\n');
	}
	fputs(t->out.buf, stdout);
	mate_result_release(&r);
}

static void
on_record(void *ctx, const struct verdict *v)
{
	struct tsume *t = ctx;
	struct tsume_report rep;
	struct position start;
	struct mate_error me;
	int32_t i;
	int n = 0, illegal = 0;
	size_t k;

	strbuf_reset(&t->out);
	if (v->skipped)
		return;
	if (!v->r || !v->rp) {
		const struct diag *e = diag_first_error(v->d);

		trouble(t, v, e ? e->id : "unreadable",
		    e ? e->message : "the record cannot be read",
		    e ? &e->loc : NULL);
		return;
	}
	for (k = 0; k < v->d->n; k++)
		if (v->d->v[k].severity == DIAG_ERROR &&
		    (!strcmp(v->d->v[k].id, "syntax") ||
		    !strcmp(v->d->v[k].id, "encoding") ||
		    !strcmp(v->d->v[k].id, "limit"))) {
			trouble(t, v, v->d->v[k].id, v->d->v[k].message,
			    &v->d->v[k].loc);
			return;
		}
	start = v->r->start;
	if (mate_prepare(&start, t->rules, &me) < 0) {
		trouble(t, v, me.id, me.message, &v->r->start_loc);
		return;
	}
	/* The main line up to its terminal or its first illegal move. */
	for (i = v->r->nodes[0].next; i >= 0; i = v->r->nodes[i].next) {
		const struct record_node *nd = &v->r->nodes[i];

		if (nd->special != SP_NONE)
			break;
		if (nd->mv == MOVE_NONE) {
			illegal = nd->ply;
			break;
		}
		if (n == t->asol) {
			t->asol = t->asol ? 2 * t->asol : 64;
			t->sol = xreallocarray(t->sol, (size_t)t->asol,
			    sizeof(*t->sol));
		}
		t->sol[n++] = nd->mv;
	}
	if (n == 0 && !illegal) {
		solve(t, v, &start);
		return;
	}
	tsume_report_init(&rep);
	tsume_check(t->c, &start, t->sol, n, illegal, t->rules, &t->lim, NULL,
	    &rep);
	worst(t, rep.verdict == TSUME_SOUND ? EXIT_OK : EXIT_FINDINGS);
	head(t, v);
	if (t->json) {
		mateio_report_json(&t->out, &start, t->sol, t->rules, &rep,
		    t->kanji);
		strbuf_adds(&t->out, "}\n");
	} else {
		mateio_report_text(&t->out, &start, t->sol, &rep, t->kanji);
	}
	fputs(t->out.buf, stdout);
	fflush(stdout);
	tsume_report_release(&rep);
}

int
cmd_tsume(int argc, char **argv)
{
	enum { OPT_RULES = 256, OPT_JSON, OPT_MEMORY, OPT_TIME, OPT_NODES,
	    OPT_KANJI };
	static const struct option longopts[] = {
		{ "rules", required_argument, NULL, OPT_RULES },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "memory", required_argument, NULL, OPT_MEMORY },
		{ "time", required_argument, NULL, OPT_TIME },
		{ "nodes", required_argument, NULL, OPT_NODES },
		{ "kanji", no_argument, NULL, OPT_KANJI },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct tsume t;
	struct judge_opts jo;
	struct judge j;
	struct strbuf data;
	size_t memory = DEFAULT_MEMORY;
	int opt, i;

	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return cmd_help(cmd_tsume_usage);
	if (argc < 2 || argv[1][0] == '-')
		return cmd_usage_error(cmd_tsume_usage,
		    "a subcommand is needed: check");
	if (strcmp(argv[1], "check") != 0)
		return cmd_usage_error(cmd_tsume_usage,
		    "unknown subcommand '%s' (check)", argv[1]);
	argc--;
	argv++;
	memset(&t, 0, sizeof(t));
	t.rules = MATE_PROBLEM;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_RULES:
			if (mateio_rules_by_name(optarg, &t.rules) < 0)
				return cmd_usage_error(cmd_tsume_usage,
				    "--rules takes problem or game, not '%s'",
				    optarg);
			break;
		case OPT_JSON: t.json = 1; break;
		case OPT_MEMORY:
			if (bookagg_parse_size(optarg, &memory) < 0 ||
			    memory < ((size_t)1 << 20))
				return cmd_usage_error(cmd_tsume_usage,
				    "--memory takes a size of 1M or more "
				    "(256M, 1G), not '%s'", optarg);
			break;
		case OPT_TIME:
			if (cmd_parse_seconds(optarg, &t.lim.seconds) < 0)
				return cmd_usage_error(cmd_tsume_usage,
				    "--time takes seconds, not '%s'", optarg);
			break;
		case OPT_NODES:
			if (cmd_parse_count(optarg, &t.lim.nodes) < 0)
				return cmd_usage_error(cmd_tsume_usage,
				    "--nodes takes a positive number, not '%s'",
				    optarg);
			break;
		case OPT_KANJI: t.kanji = 1; break;
		case 'h': return cmd_help(cmd_tsume_usage);
		default:
			return cmd_usage_error(cmd_tsume_usage,
			    "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind == argc)
		return cmd_usage_error(cmd_tsume_usage, "no file given");
	if (!(t.c = mate_ctx_new(memory)))
		return cmd_error("the memory budget (%zu bytes) cannot be had",
		    memory);
	strbuf_init(&t.out);
	strbuf_init(&data);
	memset(&jo, 0, sizeof(jo));
	jo.no_result_check = 1;
	judge_init(&j, &jo);
	for (i = optind; i < argc; i++) {
		if (input_read(argv[i], &data) < 0) {
			cmd_error("cannot read '%s': %s",
			    input_display_name(argv[i]), strerror(errno));
			worst(&t, EXIT_TROUBLE);
			continue;
		}
		judge_bytes(&j, input_display_name(argv[i]), argv[i], &data, 0,
		    on_record, &t);
	}
	judge_release(&j);
	strbuf_release(&data);
	strbuf_release(&t.out);
	free(t.sol);
	mate_ctx_free(t.c);
	return t.status;
}
