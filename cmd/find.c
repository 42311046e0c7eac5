/*
 * find.c - `kifu find`: the options, then the search (query/find.h) over
 * the paths, walked as `kifu check` walks them (walk/pipeline.h), or
 * over an index with --db (db/search.h); both print the same bytes.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "queryopts.h"
#include "ruleopts.h"
#include "tagopts.h"
#include "walkopts.h"
#include "db/search.h"
#include "query/find.h"

const char cmd_find_usage[] =
    "usage: kifu find [<filters>] [--json | -l | -c] <path>...\n"
    "   or: kifu find [<filters>] [--json | -l | -c] --db <games.sqlite>\n"
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
    "    --db <games.sqlite>  answer from an index (kifu index build) instead\n"
    "                         of reading paths: the same output, in the\n"
    "                         order a scan of the indexed paths gives\n"
    TAG_DEFS_HELP
    READ_HELP
    "\n"
    WALK_HELP
    "\n"
    "Exit status: 0 a record matched, 1 none did, 2 trouble (usage, an\n"
    "input that cannot be read).\n"
    "\n"
    RULEOPTS_HELP;

static void
read_error(void *ctx, const char *msg)
{
	(void)ctx;
	cmd_error("%s", msg);
}

/* --db: the same text, from the index. Returns 0 or EXIT_TROUBLE. */
static int
find_db(struct find *c, const char *path)
{
	struct indexdb_search_out io = { stdout, stderr, NULL, read_error };
	struct strbuf why = STRBUF_INIT;
	int rc = 0;

	if (indexdb_search(c, path, &io, &why))
		rc = cmd_errors(&why);
	strbuf_release(&why);
	return rc;
}

int
cmd_find(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "files-with-matches", no_argument, NULL, 'l' },
		{ "count", no_argument, NULL, 'c' },
		{ "no-messages", no_argument, NULL, 's' },
		{ "db", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		TAG_DEFS_LONGOPT,
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
	const struct tagdefs *defs = NULL;
	const char *db = NULL, *scan_opt = NULL, *defs_file = NULL;
	int opt, rc, status;

	memset(&c, 0, sizeof(c));
	filter_init(&c.f);
	ruleopts_init(&ro);
	walkopts_init(&wo, "files");
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "hj:zlcs", longopts, NULL)) !=
	    -1) {
		switch (opt) {
		case 'J': c.json = 1; break;
		case 'l': c.list = 1; break;
		case 'c': c.count = 1; break;
		case 's': c.quiet_unreadable = 1; break;
		case 'D': db = optarg; break;
		case OPT_TAG_DEFINITIONS:
			defs_file = optarg;
			scan_opt = "--definitions";
			break;
		case 'h':
			rc = cmd_help(cmd_find_usage);
			goto out;
		default:
			if ((rc = cmd_filter_take(&c.f, opt, optarg,
			    cmd_find_usage)) != 0 ||
			    (rc = judgeopts_take(&c.jo, &wo, &ro, opt, optarg,
			    cmd_find_usage)) != 0) {
				if (rc != 1)
					goto out;
				if (opt < OPT_F_SFEN &&
				    !walkopt_is_runtime(opt))
					scan_opt = argv[optind - 1];
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
	if (db && optind < argc) {
		cmd_usage_error(cmd_find_usage, "--db reads the index, not "
		    "paths: '%s' (kifu index update adds a path)",
		    argv[optind]);
		goto out;
	}
	if (db && scan_opt) {
		cmd_usage_error(cmd_find_usage, "--db answers as the index was "
		    "read and judged: '%s' goes to kifu index build",
		    scan_opt);
		goto out;
	}
	if ((!db && walkopts_finish(&wo, argc - optind, cmd_find_usage)) ||
	    ruleopts_judge(&ro, &rs, &c.jo, cmd_find_usage))
		goto out;
	/* The names an index was made with are its own. */
	if (filter_has_tags(&c.f) && !db &&
	    !(c.f.defs = defs = tagopts_load(defs_file)))
		goto out;
	if (filter_has_tags(&c.f) && db) {
		struct strbuf why = STRBUF_INIT;

		if (!(c.f.defs = defs = indexdb_search_tagdefs(db, &why)))
			cmd_errors(&why);
		strbuf_release(&why);
		if (!defs)
			goto out;
	}
	if (cmd_filter_finish(&c.f, &ro.lim, cmd_find_usage))
		goto out;
	find_prepare(&c);
	if (db) {
		if (find_db(&c, db))
			goto out;
	} else if (walkopts_run(&wo, &find_ops, &c, argv + optind,
	    argc - optind, NULL, NULL)) {
		c.failed = 1;
	}
	if (c.count)
		printf("%lld\n", c.matched);
	status = c.failed ? EXIT_TROUBLE : c.matched ? EXIT_OK :
	    EXIT_FINDINGS;
	rc = status;
out:
	filter_release(&c.f);
	tagopts_free(defs);
	return rc;
}
