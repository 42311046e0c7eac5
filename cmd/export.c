/*
 * export.c - `kifu export`: the options, then the export of training rows
 * (train/export.h) over the paths, walked as `kifu check` walks them, or
 * with --merge the second pass that joins the outputs of shards; and the
 * summary printed.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "queryopts.h"
#include "ruleopts.h"
#include "walkopts.h"
#include "api/formats.h"
#include "api/judge.h"
#include "api/trainformats.h"
#include "train/export.h"

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

static int
is_stdout(const char *path)
{
	return !path || strcmp(path, "-") == 0;
}

/* The summary: JSON on stdout, or lines on stderr after the rows. */
static void
print_summary(const struct export_tally *t, int json, const char *mode,
    const char *format, const char *rules)
{
	struct strbuf sum = STRBUF_INIT;

	if (json) {
		export_summary_json(t, mode, format, rules, &sum);
		fputs(sum.buf, stdout);
	} else {
		export_summary_text(t, mode, format, rules, &sum);
		fflush(stdout);
		fputs(sum.buf, stderr);
	}
	strbuf_release(&sum);
}

static int
merge(const struct export_opts *eo, int summary_json, int argc, char **argv)
{
	struct export_tally t;
	struct strbuf why = STRBUF_INIT;
	const char *format;
	int rc = EXIT_OK;

	if (argc == 0 || argc % 2)
		return cmd_usage_error(cmd_export_usage, "--merge takes pairs "
		    "of a rows file and its keys file");
	if (export_merge(eo, argv, argc, &t, &format, &why))
		rc = cmd_errors(&why);
	else
		print_summary(&t, summary_json, "merge", format, NULL);
	strbuf_release(&why);
	return rc;
}

/* The walk of the paths into the outputs. */
static int
export(const struct export_opts *eo, struct walkopts *wo, int summary_json,
    const char *rules, char **paths, int npaths)
{
	struct export_tally t;
	struct strbuf why = STRBUF_INIT;
	struct export *x;
	int rc = EXIT_TROUBLE;

	if (!(x = export_open(eo, &t, &why)))
		goto out;
	if (walkopts_run(wo, &export_ops, x, paths, npaths, NULL,
	    &t.seconds)) {
		export_abort(x);
	} else if (!export_finish(x, &why)) {
		print_summary(&t, summary_json, "export", eo->fmt->name, rules);
		if (!t.inputs_failed)
			rc = EXIT_OK;
	}
out:
	if (why.len)
		cmd_errors(&why);
	export_free(x);
	strbuf_release(&why);
	return rc;
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
	struct judge_opts jo;
	char desc[RULESET_DESC_MAX];
	struct export_opts eo;
	int opt, rc, merging = 0, ply_set = 0, skip_set = 0, walk_opts = 0;
	int sel_opts = 0, summary_json = 0;

	memset(&eo, 0, sizeof(eo));
	memset(&jo, 0, sizeof(jo));
	ruleopts_init(&ro);
	walkopts_init(&wo, "records");
	select_init(&eo.select);
	eo.notes = stderr;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "ht:o:j:zv", longopts,
	    NULL)) != -1) {
		switch (opt) {
		case 't':
			if (!(eo.fmt = train_formats_by_name(optarg)))
				return cmd_usage_error(usage, "unknown format "
				    "'%s' (known: %s)", optarg,
				    train_formats_names());
			break;
		case 'o': eo.out_path = optarg; break;
		case OPT_FORCE: eo.force = 1; break;
		case OPT_KEYS_OUT: eo.keys_path = optarg; break;
		case OPT_SUMMARY_JSON: summary_json = 1; break;
		case 'v': eo.verbose = 1; break;
		case OPT_SKIP_PLIES:
			if (take_count(optarg, "--skip-plies",
			    &eo.rows.skip_plies))
				return EXIT_TROUBLE;
			skip_set = 1;
			break;
		case OPT_STOP_AT_EVAL:
			if (take_eval(optarg, &eo.rows.stop_at_eval))
				return EXIT_TROUBLE;
			break;
		case OPT_REQUIRE_EVAL: eo.rows.require_eval = 1; break;
		case OPT_PLY:
			if (take_count(optarg, "--ply", &eo.rows.ply))
				return EXIT_TROUBLE;
			ply_set = 1;
			break;
		case OPT_MERGE: merging = 1; break;
		case OPT_FROM:
			if (!(jo.from = formats_by_name(optarg)) ||
			    !jo.from->read)
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
			if ((rc = cmd_select_take(&eo.select, opt, optarg,
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
	if (summary_json && is_stdout(eo.out_path))
		return cmd_usage_error(usage, "--summary-json prints on standard "
		    "output: give the rows a file with -o");
	if (eo.keys_path && is_stdout(eo.keys_path))
		return cmd_usage_error(usage, "--keys-out wants a file");
	if (eo.keys_path && !is_stdout(eo.out_path) &&
	    strcmp(eo.keys_path, eo.out_path) == 0)
		return cmd_usage_error(usage, "--keys-out and -o name the same "
		    "file");
	if (merging) {
		if (walk_opts || sel_opts || skip_set || ply_set ||
		    eo.rows.stop_at_eval || eo.rows.require_eval || jo.from)
			return cmd_usage_error(usage, "--merge takes only -o, "
			    "--force, --keys-out, --summary-json, -v and -t");
		return merge(&eo, summary_json, argc - optind, argv + optind);
	}
	if (!eo.fmt)
		return cmd_usage_error(usage, "-t <format> is needed (%s)",
		    train_formats_names());
	if (ply_set && eo.fmt->write != hcp_write)
		return cmd_usage_error(usage, "--ply is for -t hcp (one "
		    "position a record)");
	if (skip_set && eo.fmt->write == hcp_write)
		return cmd_usage_error(usage, "--skip-plies is for rows of "
		    "every position; with -t hcp use --ply");
	if (walkopts_finish(&wo, argc - optind, usage))
		return EXIT_TROUBLE;
	if (ruleopts_build(&ro, &rs, &jo.auto_rules, usage))
		return EXIT_TROUBLE;
	jo.rules = &rs;
	jo.no_result_check = ro.no_result_check;
	jo.limits = &ro.lim;
	ruleset_describe(&rs, desc, sizeof(desc));
	wo.po.judge = &jo;
	return export(&eo, &wo, summary_json, desc, argv + optind,
	    argc - optind);
}
