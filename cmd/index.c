/*
 * index.c - `kifu index build`, `update` and `retag`: the options, then
 * the build, the update or the naming again of the game database
 * (db/build.h), and what they report printed on stderr.
 *
 * The reading and rule options of a build are stored in the index, a
 * line each as written here, so that update reads every file as the
 * build did: update takes them back through the same parser.
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
#include "db/build.h"

const char cmd_index_usage[] =
    "usage: kifu index build [<options>] -o <games.sqlite> <path>...\n"
    "   or: kifu index update [<options>] <games.sqlite> [<path>...]\n"
    "   or: kifu index retag [--definitions <file>] <games.sqlite>\n"
    "\n"
    "build reads every record under the paths into a new SQLite database:\n"
    "a row for each record (its file, index, format, headers, start, moves\n"
    "in USI, result under the rules, status and findings) and a row for each\n"
    "position of each line of each record, so that kifu find --db and kifu\n"
    "tree --db answer from it at once. The schema is described in\n"
    "doc/archives.md (sqlite3 reads it too).\n"
    "\n"
    "update brings an index up to date: files that are new or changed (size,\n"
    "content hash) are read again, files that are gone are dropped, the rest\n"
    "is kept. It walks the paths the index was built from, and the paths\n"
    "given, which join them; it runs from the directory build ran in when\n"
    "those paths are relative.\n"
    "\n"
    "Each record's openings and castles (kifu tag) are stored with it, named\n"
    "with the definitions of build (kifu's own, and --definitions' file);\n"
    "update names what it adds with the same. retag names every record\n"
    "again from its stored moves, with kifu's own definitions (and the\n"
    "file's), and brings an index built before the names were stored\n"
    "(schema version 1, which is still read, without names) to version 2.\n"
    "\n"
    "    -o, --output <file>  the database build writes (through a temporary\n"
    "                         file and a rename: a build that fails or is\n"
    "                         killed leaves the old one as it was)\n"
    "    -f, --force          build over an existing file (only ever a kifu\n"
    "                         index)\n"
    TAG_DEFS_HELP
    READ_HELP
    "(with build; update reads as the build did)\n"
    "\n"
    WALK_HELP
    "\n"
    "Exit status: 0 the index was written, 2 trouble (usage, an index that\n"
    "cannot be written or read).\n"
    "\n"
    RULEOPTS_HELP;


/* The options: the same for build and, from the index, for update. */
struct opts {
	struct ruleopts ro;
	struct walkopts wo;
	struct ruleset rs;
	struct judge_opts jo;
	struct strbuf saved;	/* the reading and rule options, a line each */
	const char *output;
	const char *defs_file;	/* --definitions */
	int force;
	int update;		/* update: reading and rules come stored */
};

static const struct option longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "force", no_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	TAG_DEFS_LONGOPT,
	READ_LONGOPTS,
	WALK_LONGOPTS,
	RULE_LONGOPTS,
	{ NULL, 0, NULL, 0 }
};

static const char *
long_name(int opt)
{
	size_t i;

	for (i = 0; longopts[i].name; i++)
		if (longopts[i].val == opt)
			return longopts[i].name;
	return NULL;
}

/*
 * Parses argv into o: build's options, or (stored) the options an index
 * was built with. Returns -1 to go on, else the exit status.
 */
static int
parse(struct opts *o, int argc, char **argv, int stored)
{
	int opt, rc;

	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "ho:fj:z", longopts, NULL)) !=
	    -1) {
		switch (opt) {
		case 'o': o->output = optarg; break;
		case 'f': o->force = 1; break;
		case 'h': return cmd_help(cmd_index_usage);
		case OPT_TAG_DEFINITIONS:
			if (o->update)
				return cmd_usage_error(cmd_index_usage,
				    "update names as the build did: "
				    "--definitions goes to build or retag");
			o->defs_file = optarg;
			break;
		default:
			if ((rc = judgeopts_take(&o->jo, &o->wo, &o->ro, opt,
			    optarg, cmd_index_usage)) != 0) {
				if (rc != 1)
					return rc;
				/* Reading and rules: kept for update. */
				if (!walkopt_is_runtime(opt) && opt != 'z' &&
				    opt != OPT_WALK_STDIN) {
					if (o->update && !stored)
						return cmd_usage_error(
						    cmd_index_usage, "update "
						    "reads as the build did: "
						    "'%s' goes to kifu index "
						    "build", argv[optind - 1]);
					strbuf_addf(&o->saved, "--%s%s%s\n",
					    long_name(opt), optarg ? "=" : "",
					    optarg ? optarg : "");
				}
				break;
			}
			return cmd_usage_error(cmd_index_usage,
			    optopt ? "option '%s' needs a value" :
			    "unknown option '%s'", argv[optind - 1]);
		}
	}
	return -1;
}

/* Paths an update can walk again: not standard input, not --stdin. */
static int
files_only(const struct opts *o, char **paths, int npaths)
{
	int i;

	for (i = 0; i < npaths; i++)
		if (!strcmp(paths[i], "-"))
			return cmd_usage_error(cmd_index_usage, "an index "
			    "is of files: not '-' (update reads them again)");
	if (o->wo.from_stdin)
		return cmd_usage_error(cmd_index_usage, "an index is of the "
		    "paths given as arguments (update walks them again), "
		    "not --stdin");
	return 0;
}

static void
warning(void *ctx, const char *msg)
{
	(void)ctx;
	cmd_warning("%s", msg);
}

static void
note(void *ctx, const char *msg)
{
	(void)ctx;
	cmd_note("%s", msg);
}

static const struct indexdb_report messages = { NULL, warning, note };

/* The run's summary on stderr; returns EXIT_OK. */
static int
report(const struct opts *o, const struct indexdb_counts *n)
{
	fflush(stdout);
	fprintf(stderr, "kifu: %s %lld record%s of %lld file%s, %lld new "
	    "positions, in %.2f s (%.0f records/s)\n", o->update ?
	    "index updated:" : "indexed", n->records, n->records == 1 ? "" :
	    "s", n->files, n->files == 1 ? "" : "s", n->positions,
	    n->seconds, n->seconds > 0 ? (double)n->records / n->seconds :
	    0.0);
	return EXIT_OK;
}

/*
 * The names build and retag store: kifu's own definitions, and those of
 * --definitions' file with its text, which the index keeps. Returns 0,
 * or EXIT_TROUBLE after an error printed.
 */
static int
load_tags(const struct opts *o, struct indexdb_tags *t, char **text)
{
	memset(t, 0, sizeof(*t));
	if (!(t->defs = tagopts_load_text(o->defs_file, text)))
		return EXIT_TROUBLE;
	t->text = *text;
	t->file = o->defs_file;
	return 0;
}

static int
build(struct opts *o, char **paths, int npaths)
{
	struct indexdb_tags tags;
	struct indexdb_run run = { &o->jo, &o->wo.po, &messages, &tags };
	struct indexdb_counts n;
	struct strbuf why = STRBUF_INIT;
	char *text = NULL;
	int rc;

	if (!o->output)
		return cmd_usage_error(cmd_index_usage, "build needs -o "
		    "<games.sqlite>");
	if (!npaths)
		return cmd_usage_error(cmd_index_usage, "build needs a path "
		    "to index");
	if (files_only(o, paths, npaths) || load_tags(o, &tags, &text))
		return EXIT_TROUBLE;
	rc = indexdb_build(o->output, paths, npaths, o->saved.buf, o->force,
	    &run, &n, &why) ? cmd_errors(&why) : report(o, &n);
	strbuf_release(&why);
	tagopts_free(tags.defs);
	free(text);
	return rc;
}

static int
retag(struct opts *o, char **paths, int npaths)
{
	struct indexdb_tags tags;
	struct strbuf why = STRBUF_INIT;
	char *text = NULL;
	long long named;
	int was, rc;

	if (npaths != 1)
		return cmd_usage_error(cmd_index_usage, "retag names the "
		    "records of one index: kifu index retag <games.sqlite>");
	if (load_tags(o, &tags, &text))
		return EXIT_TROUBLE;
	if (indexdb_retag(paths[0], &tags, &named, &was, &why) == 0) {
		fflush(stdout);
		fprintf(stderr, "kifu: index retagged: %lld record%s named%s\n",
		    named, named == 1 ? "" : "s", was == 1 ?
		    " (schema version 1 made 2)" : "");
		rc = EXIT_OK;
	} else {
		rc = cmd_errors(&why);
	}
	strbuf_release(&why);
	tagopts_free(tags.defs);
	free(text);
	return rc;
}

/* The stored lines of options, as an argv for parse(); s is cut up. */
static char **
split_options(char *s, int *argc)
{
	char **v = xcalloc(2, sizeof(*v));
	size_t n = 1, alloc = 2;
	char *nl;

	v[0] = (char *)"index";
	while (*s && (nl = strchr(s, '\n'))) {
		*nl = '\0';
		ALLOC_GROW(v, n + 2, alloc);
		v[n++] = s;
		s = nl + 1;
	}
	v[n] = NULL;
	*argc = (int)n;
	return v;
}

static int
update(struct opts *o, char **paths, int npaths)
{
	struct indexdb_run run = { &o->jo, &o->wo.po, &messages, NULL };
	struct indexdb_counts n;
	struct indexdb_update *u;
	struct strbuf why = STRBUF_INIT;
	char *stored = NULL, **sargv = NULL;
	int sargc, rc = EXIT_TROUBLE;

	if (npaths < 1)
		return cmd_usage_error(cmd_index_usage, "update needs the "
		    "index: kifu index update <games.sqlite> [<path>...]");
	if (files_only(o, paths + 1, npaths - 1))
		return EXIT_TROUBLE;
	if (!(u = indexdb_update_open(paths[0], &why))) {
		rc = cmd_errors(&why);
		goto out;
	}
	stored = xstrndup(indexdb_update_options(u),
	    strlen(indexdb_update_options(u)));
	sargv = split_options(stored, &sargc);
	if (parse(o, sargc, sargv, 1) != -1 ||
	    ruleopts_judge(&o->ro, &o->rs, &o->jo, cmd_index_usage)) {
		cmd_error("'%s': its build options cannot be used again",
		    paths[0]);
		goto out;
	}
	rc = indexdb_update_run(u, paths + 1, npaths - 1, &run, &n, &why) ?
	    cmd_errors(&why) : report(o, &n);
out:
	indexdb_update_close(u);
	strbuf_release(&why);
	free(stored);
	free(sargv);
	return rc;
}

int
cmd_index(int argc, char **argv)
{
	struct opts o;
	const char *sub;
	int rc;

	if (argc < 2)
		return cmd_usage_error(cmd_index_usage, "build, update or "
		    "retag?");
	sub = argv[1];
	if (!strcmp(sub, "-h") || !strcmp(sub, "--help"))
		return cmd_help(cmd_index_usage);
	if (strcmp(sub, "build") && strcmp(sub, "update") &&
	    strcmp(sub, "retag"))
		return cmd_usage_error(cmd_index_usage, "unknown subcommand "
		    "'%s' (build, update or retag)", sub);
	memset(&o, 0, sizeof(o));
	ruleopts_init(&o.ro);
	walkopts_init(&o.wo, "records");
	strbuf_init(&o.saved);
	o.update = !strcmp(sub, "update");
	argc--;
	argv++;
	if ((rc = parse(&o, argc, argv, 0)) != -1)
		goto out;
	rc = EXIT_TROUBLE;
	if (o.update && o.output) {
		cmd_usage_error(cmd_index_usage, "update writes the index it "
		    "is given, not -o");
		goto out;
	}
	if (!strcmp(sub, "retag")) {
		if (o.saved.len || o.output || o.force) {
			cmd_usage_error(cmd_index_usage, "retag names the "
			    "records as they were read: it takes "
			    "--definitions alone");
			goto out;
		}
		rc = retag(&o, argv + optind, argc - optind);
		goto out;
	}
	if (walkopts_finish(&o.wo, argc - optind, cmd_index_usage))
		goto out;
	if (!o.update) {
		if (ruleopts_judge(&o.ro, &o.rs, &o.jo, cmd_index_usage))
			goto out;
		rc = build(&o, argv + optind, argc - optind);
	} else {
		rc = update(&o, argv + optind, argc - optind);
	}
out:
	strbuf_release(&o.saved);
	return rc;
}
