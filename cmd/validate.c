/*
 * validate.c - `kifu validate`: parse and replay every record of every
 * file; report each illegal or unreadable record.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "ruleopts.h"
#include "api/formats.h"
#include "api/input.h"
#include "api/judge.h"
#include "core/ruleset.h"

const char cmd_validate_usage[] =
    "usage: kifu validate [--from <format>] [--variant <name>]\n"
    "                     [--rules <set>] [--json] [-v] <file>...\n"
    "\n"
    "Parses and replays every record of every file ('-' is standard input)\n"
    "through the rules, and judges its result under a rule set. Each\n"
    "illegal or unreadable record, and each whose result the rules\n"
    "contradict, is reported as FILE:LINE:COL: error: MESSAGE [ID] on\n"
    "stdout; warnings go to stderr. Exit status: 0 every record valid,\n"
    "1 a record is invalid, 2 trouble (usage, unreadable file, write error).\n"
    "\n"
    "    --from <format>   read as this format instead of detecting it\n"
    "    --variant <name>  standard (default) or minishogi: the game a\n"
    "                      record is of when its text does not say (USI\n"
    "                      startpos, KIF without 手合割 or board, CSA\n"
    "                      without a board)\n"
    "    --json            one JSON object per record on stdout, nothing else\n"
    "    -v, --verbose     also print a line for each valid record\n"
    "\n"
    RULEOPTS_HELP;

struct validate {
	int json;
	int verbose;
	int status;		/* worst exit status so far */
	struct strbuf out;	/* one record's output, written at once */
};

static void
worst(struct validate *v, int status)
{
	if (status > v->status)
		v->status = status;
}

static void
report(void *ctx, const struct verdict *vd)
{
	struct validate *v = ctx;

	if (vd->d->errors)
		worst(v, EXIT_FINDINGS);
	strbuf_reset(&v->out);
	if (v->json) {
		verdict_json(&v->out, vd);
		fputs(v->out.buf, stdout);
		return;
	}
	verdict_diags(&v->out, vd, DIAG_ERROR, DIAG_ERROR);
	fputs(v->out.buf, stdout);
	strbuf_reset(&v->out);
	verdict_diags(&v->out, vd, v->verbose ? DIAG_NOTE : DIAG_WARNING,
	    DIAG_WARNING);
	fflush(stdout);
	fputs(v->out.buf, stderr);
	if (v->verbose && !vd->d->errors && vd->rp) {
		printf("%s: record %d: ok, %d moves, %s", vd->file,
		    vd->index + 1, vd->rp->moves, reason_name(vd->result.reason));
		if (vd->result.winner != WINNER_NONE)
			printf(", %s wins", winner_name(vd->result.winner));
		if (vd->adj && vd->adj->has_points)
			printf(", points black %d white %d",
			    vd->adj->points[BLACK], vd->adj->points[WHITE]);
		if (vd->adj) {
			strbuf_reset(&v->out);
			verdict_rules_text(&v->out, vd);
			printf(", rules %s", v->out.buf);
		}
		putchar('\n');
	}
}

int
cmd_validate(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "from", required_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "variant", required_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		RULE_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct ruleopts ro;
	struct judge_opts jo;
	struct validate v;
	struct judge j;
	struct ruleset rs;
	struct strbuf data;
	int opt, i, rc;

	ruleopts_init(&ro);
	memset(&v, 0, sizeof(v));
	memset(&jo, 0, sizeof(jo));
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "hv", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (!(jo.from = formats_by_name(optarg)) || !jo.from->read)
				return cmd_usage_error(cmd_validate_usage,
				    "unknown format '%s' (known: %s)", optarg,
				    formats_names());
			break;
		case 'j': v.json = 1; break;
		case 'v': v.verbose = 1; break;
		case 'V':
			if (cmd_variant(optarg, &jo.variant,
			    cmd_validate_usage))
				return EXIT_TROUBLE;
			break;
		case 'h': return cmd_help(cmd_validate_usage);
		default:
			if ((rc = ruleopts_take(&ro, opt, optarg,
			    cmd_validate_usage)) != 0) {
				if (rc != 1)
					return rc;
				break;
			}
			return cmd_usage_error(cmd_validate_usage,
			    "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (ruleopts_judge(&ro, &rs, &jo, cmd_validate_usage))
		return EXIT_TROUBLE;
	if (optind == argc)
		return cmd_usage_error(cmd_validate_usage, "no file given");
	strbuf_init(&v.out);
	strbuf_init(&data);
	judge_init(&j, &jo);
	for (i = optind; i < argc; i++) {
		if (input_read(argv[i], &data) < 0) {
			cmd_error("cannot read '%s': %s",
			    input_display_name(argv[i]), strerror(errno));
			worst(&v, EXIT_TROUBLE);
			continue;
		}
		judge_bytes(&j, input_display_name(argv[i]), argv[i], &data, 0,
		    report, &v);
	}
	judge_release(&j);
	strbuf_release(&data);
	strbuf_release(&v.out);
	return v.status;
}
