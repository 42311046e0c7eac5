/*
 * validate.c - `kifu validate`: parse and replay every record of every
 * file; report each illegal or unreadable record.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "formats.h"
#include "input.h"
#include "judge.h"
#include "core/ruleset.h"

const char cmd_validate_usage[] =
    "usage: kifu validate [--from <format>] [--rules <set>] [--json] [-v]\n"
    "                     <file>...\n"
    "\n"
    "Parses and replays every record of every file ('-' is standard input)\n"
    "through the rules, and judges its result under a rule set. Each\n"
    "illegal or unreadable record, and each whose result the rules\n"
    "contradict, is reported as FILE:LINE:COL: error: MESSAGE [ID] on\n"
    "stdout; warnings go to stderr. Exit status: 0 every record valid,\n"
    "1 a record is invalid, 2 trouble (usage, unreadable file, write error).\n"
    "\n"
    "    --from <format>   read as this format instead of detecting it\n"
    "    --json            one JSON object per record on stdout, nothing else\n"
    "    -v, --verbose     also print a line for each valid record\n"
    "\n"
    "Rules (the set is printed with every result):\n"
    "    --rules <set>     jsa (default: JSA professional rules), csa\n"
    "                      (shogi-server: Floodgate, CSA tournaments),\n"
    "                      wars (Shogi Wars)\n"
    "    --declaration 24|27|none\n"
    "                      entering-king declarations: JSA 24-point (31 wins,\n"
    "                      24-30 draws), CSA 27-point (Black 28, White 27)\n"
    "    --max-moves <n>   move limit, 0 for none; by default the record's\n"
    "                      own limit, else the set's (jsa 500, csa 256)\n"
    "    --repetition-counts-start yes|no\n"
    "                      whether the start position counts for sennichite\n"
    "    --rule <key>=<value>\n"
    "                      any other setting: check-extension, impasse,\n"
    "                      mate-ends-game, handicap-credit\n";

/* Room for the overrides of one run. */
#define MAX_OVERRIDES 32

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
		if (vd->adj)
			printf(", rules %s", vd->adj->rules);
		putchar('\n');
	}
}

/*
 * The rule set: the named one, then every override in the order given,
 * whatever the order of the options. Returns 0 or EXIT_TROUBLE.
 */
static int
build_rules(struct ruleset *rs, const char *name, const char **keys,
    const char **values, int n)
{
	const struct ruleset *base = ruleset_by_name(name);
	int i;

	if (!base)
		return cmd_usage_error(cmd_validate_usage,
		    "unknown rule set '%s' (known: %s)", name, ruleset_names());
	*rs = *base;
	for (i = 0; i < n; i++)
		if (ruleset_set(rs, keys[i], values[i]) < 0)
			return cmd_usage_error(cmd_validate_usage,
			    "bad rule setting %s=%s", keys[i], values[i]);
	return 0;
}

/* --rule KEY=VALUE; -1 without '='. */
static int
split_rule(char *arg, const char **key, const char **value)
{
	char *eq = strchr(arg, '=');

	if (!eq || eq == arg)
		return -1;
	*eq = '\0';
	*key = arg;
	*value = eq + 1;
	return 0;
}

int
cmd_validate(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "from", required_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "rules", required_argument, NULL, 'r' },
		{ "declaration", required_argument, NULL, 'D' },
		{ "max-moves", required_argument, NULL, 'M' },
		{ "repetition-counts-start", required_argument, NULL, 'S' },
		{ "rule", required_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 }
	};
	const char *keys[MAX_OVERRIDES], *values[MAX_OVERRIDES];
	const char *rules = "jsa";
	struct judge_opts jo;
	struct validate v;
	struct judge j;
	struct ruleset rs;
	struct strbuf data;
	int opt, i, nover = 0;

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
		case 'h': return cmd_help(cmd_validate_usage);
		case 'r': rules = optarg; break;
		case 'D': case 'M': case 'S': case 'R':
			if (nover == MAX_OVERRIDES)
				return cmd_usage_error(cmd_validate_usage,
				    "too many rule settings");
			values[nover] = optarg;
			keys[nover] = opt == 'D' ? "declaration" :
			    opt == 'M' ? "max-moves" :
			    opt == 'S' ? "repetition-counts-start" : NULL;
			if (opt == 'R' && split_rule(optarg, &keys[nover],
			    &values[nover]) < 0)
				return cmd_usage_error(cmd_validate_usage,
				    "--rule wants KEY=VALUE, not '%s'", optarg);
			nover++;
			break;
		default:
			return cmd_usage_error(cmd_validate_usage,
			    "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (build_rules(&rs, rules, keys, values, nover))
		return EXIT_TROUBLE;
	jo.rules = &rs;
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
		judge_bytes(&j, input_display_name(argv[i]), argv[i], &data,
		    report, &v);
	}
	judge_release(&j);
	strbuf_release(&data);
	strbuf_release(&v.out);
	return v.status;
}
