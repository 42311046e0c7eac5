/*
 * book.c - `kifu book`: YaneuraOu's text opening books (book/book.h
 * builds, reads, writes and queries them): the options, then the calls,
 * then what they did, on stderr.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "queryopts.h"
#include "ruleopts.h"
#include "walkopts.h"
#include "api/formats.h"
#include "book/book.h"
#include "core/clock.h"
#include "core/xalloc.h"
#include "parsers/book.h"

const char cmd_book_usage[] =
    "usage: kifu book build [<options>] <path>... [-o <book.db>]\n"
    "   or: kifu book merge [--min-count <k>] [--memory <size>]\n"
    "                  <book.db>... [-o <book.db>]\n"
    "   or: kifu book sort [--memory <size>] <book.db> [-o <book.db>]\n"
    "   or: kifu book query <book.db> --sfen <sfen>\n"
    "   or: kifu book query <book.db> --usi <position>\n"
    "\n"
    "Opening books in YaneuraOu's text format (#YANEURAOU-DB2016 1.00).\n"
    "\n"
    "build: for the positions at plies 0..N-1 of the main line of every\n"
    "selected record, each move played from it with its count (the times\n"
    "it was played there). A position is its board, hands and side to\n"
    "move, so transpositions merge; its sfen line has the lowest move\n"
    "number it was seen at. The value is the mean of the evaluations in\n"
    "the records' comments (the mover's view, rounded), none without\n"
    "one; the depth is none. Positions are written sorted by their SFEN\n"
    "text, as YaneuraOu sorts a book; moves most played first. Records\n"
    "with an illegal move or that cannot be read are skipped. The summary\n"
    "goes to stderr. The output is the same bytes for every -j.\n"
    "    --max-ply <n>        positions at plies 0..n-1 (default 40)\n"
    "    --min-count <k>      drop moves played fewer than k times\n"
    "    --side black|white   only the positions with that side to move\n"
    "    --memory <size>      the positions' budget, a number with K, M or\n"
    "                         G (default 512M); past it sorted runs spill\n"
    "                         to temporary files ($TMPDIR, else beside the\n"
    "                         output) and are merged\n"
    "    -o, --output <file>  the book (default and '-': standard output);\n"
    "                         written whole or not at all\n"
    "    --force              replace an existing file\n"
    "\n"
    "merge: the books' positions and moves combined: counts added, values\n"
    "averaged over the evaluated plays (exactly, for books kifu built:\n"
    "a value that is no exact mean of its count carries its sum as a\n"
    "'#kifu-evals=N/SUM' comment), the deepest depth, the first ponder.\n"
    "Books built from shards of the games merge to the book one build\n"
    "over all of them writes. --min-count applies after combining.\n"
    "\n"
    "sort: the book read (with or without the header, a BOM, CRLF line\n"
    "ends, '#' and '//' comments kept with the position or move they\n"
    "follow, positions in any order, repeated positions combined) and\n"
    "written sorted: a sorted book kifu or YaneuraOu wrote comes back\n"
    "byte for byte.\n"
    "\n"
    "query: the moves of the position as 'move ponder value depth count'\n"
    "lines, most played first; exit 1 when the book does not have it. A\n"
    "sorted book is searched by binary search in the file, without\n"
    "reading it whole; an unsorted one is read through.\n"
    "    --sfen <sfen>        the position (the move number is ignored)\n"
    "    --usi <position>     the same, as 'startpos moves 7g7f ...' or\n"
    "                         'sfen <sfen> moves ...'\n"
    "\n"
    "Every book read is checked: a header other than '" BOOK_HEADER "',\n"
    "a line that is no position, move or comment, an impossible position,\n"
    "or a move or ponder move that is illegal in its position is an error\n"
    "naming file:line:col, and nothing is written.\n"
    "\n"
    SELECT_HELP
    "\n"
    WALK_HELP
    "Reading:\n"
    "    --from <format>      read every record as this format\n"
    "\n"
    "Exit status: 0 written (query: found), 1 query: not in the book,\n"
    "2 trouble (usage, an input that cannot be read: the book is written\n"
    "from the rest; a book with an error or a write error: nothing is\n"
    "written).\n"
    "\n"
    RULEOPTS_HELP;

enum {
	OPT_FORCE = 0x1c0, OPT_MAX_PLY, OPT_MIN_COUNT, OPT_SIDE, OPT_MEMORY,
	OPT_FROM, OPT_SFEN, OPT_USI
};

/* What the command adds to the book's options. */
struct run {
	const char *out_path;
	int force;
	struct output_stream out;
	int status;
	double seconds;
};

static int
is_stdout(const char *path)
{
	return !path || strcmp(path, "-") == 0;
}

static const char *
shown(const char *path)
{
	return is_stdout(path) ? "<stdout>" : path;
}

static void
unreadable(void *ctx, const char *name, const char *why)
{
	struct strbuf sb = STRBUF_INIT;

	(void)ctx;
	strbuf_adds(&sb, "kifu: error: cannot read '");
	cmd_add_clean(&sb, name);
	strbuf_adds(&sb, "': ");
	cmd_add_clean(&sb, why);
	strbuf_adds(&sb, " [io]\n");
	fflush(stdout);
	fputs(sb.buf, stderr);
	strbuf_release(&sb);
}

static void
print_summary(const struct book *b, const char *mode, double seconds)
{
	struct strbuf s = STRBUF_INIT;
	int i, any = 0;

	strbuf_addf(&s, "kifu: book %s: ", mode);
	if (!strcmp(mode, "build")) {
		long long skipped = b->records - b->used;

		strbuf_addf(&s, "%lld records: %lld used, %lld skipped",
		    b->records, b->used, skipped);
		if (b->files_skipped)
			strbuf_addf(&s, "; %lld files skipped",
			    b->files_skipped);
		strbuf_addf(&s, "; %lld plies", b->plies);
		strbuf_adds(&s, "; ");
	}
	strbuf_addf(&s, "%lld positions, %lld moves written", b->positions,
	    b->moves);
	if (b->agg.spills)
		strbuf_addf(&s, " (memory spilled %d times)", b->agg.spills);
	strbuf_addc(&s, '\n');
	for (i = 1; i < BOOK_WHY_NB; i++) {
		if (!b->why[i])
			continue;
		strbuf_addf(&s, "%s%s %lld", any ? ", " : "  skipped      ",
		    book_why_name(i), b->why[i]);
		any = 1;
	}
	if (any)
		strbuf_addc(&s, '\n');
	if (!strcmp(mode, "build"))
		strbuf_addf(&s, "  time         %.3f s, %.0f records/s\n",
		    seconds, seconds > 0 ? (double)b->records / seconds :
		    0.0);
	else
		strbuf_addf(&s, "  time         %.3f s\n", seconds);
	fflush(stdout);
	fputs(s.buf, stderr);
	strbuf_release(&s);
}

/* Where the runs go: $TMPDIR, else the output's directory. */
static char *
run_dir(const char *out_path)
{
	const char *t = getenv("TMPDIR");
	const char *slash;

	if (t && *t)
		return xstrndup(t, strlen(t));
	if (is_stdout(out_path) || !(slash = strrchr(out_path, '/')))
		return xstrndup(".", 1);
	if (slash == out_path)
		return xstrndup("/", 1);
	return xstrndup(out_path, (size_t)(slash - out_path));
}

static int
open_output(struct run *r)
{
	if (output_stream_open(&r->out, r->out_path, r->force, -1) < 0)
		return cmd_error("cannot write '%s': %s%s", r->out_path,
		    strerror(errno), errno == EEXIST ? " (use --force to "
		    "replace it)" : "");
	return 0;
}

/*
 * Writes the table out and puts the book in place. 0 or EXIT_TROUBLE
 * (nothing left behind).
 */
static int
finish(struct book *b, struct run *r)
{
	switch (book_write(b, &r->out)) {
	case BOOK_WRITTEN:
		break;
	case BOOK_OVERFLOW:
		output_stream_abort(&r->out);
		return cmd_error("the counts or evaluations of %s add up past "
		    "%lld [book-overflow]; nothing written", b->agg.overflow,
		    LLONG_MAX);
	case BOOK_RUN_FAILED:
		output_stream_abort(&r->out);
		return cmd_error("cannot write a temporary run: %s; nothing "
		    "written", strerror(b->error));
	case BOOK_WRITE_FAILED:
		output_stream_abort(&r->out);
		return cmd_error("cannot write '%s': %s; nothing written",
		    shown(r->out_path), strerror(b->error));
	}
	if (output_stream_commit(&r->out) < 0)
		return cmd_error("cannot write '%s': %s; nothing written",
		    shown(r->out_path), strerror(errno));
	return 0;
}

static int
build_run(struct book *b, struct run *r, struct walkopts *wo, char **paths,
    int npaths)
{
	double t0 = clock_now();
	int rc;

	if (open_output(r))
		return EXIT_TROUBLE;
	wo->po.out = wo->po.err = NULL;
	rc = book_build(b, &wo->po, paths, npaths, wo->from_stdin, wo->nul,
	    NULL);
	if (rc) {
		output_stream_abort(&r->out);
		if (rc < 0)
			cmd_error("cannot start a thread: %s", strerror(errno));
		else if (b->error == EOVERFLOW)
			cmd_error("the counts or evaluations of %s add up past "
			    "%lld [book-overflow]; nothing written",
			    b->agg.overflow, LLONG_MAX);
		else
			cmd_error("cannot write a temporary run: %s; nothing "
			    "written", strerror(b->error));
		return EXIT_TROUBLE;
	}
	if (finish(b, r))
		return EXIT_TROUBLE;
	/* the whole job: sorting and writing the book are part of it */
	print_summary(b, "build", clock_now() - t0);
	return b->failed ? EXIT_TROUBLE : EXIT_OK;
}

static int
books_run(struct book *b, struct run *r, const char *mode, char **paths,
    int npaths)
{
	double t0 = clock_now();
	struct diag_list d = DIAG_LIST_INIT;
	int i, rc = 0;

	if (open_output(r))
		return EXIT_TROUBLE;
	for (i = 0; i < npaths && !rc; i++) {
		const char *name = is_stdout(paths[i]) ? "<stdin>" : paths[i];

		rc = book_read(b, paths[i], i == 0, &d);
		if (rc < 0 && b->error)
			cmd_error("cannot write a temporary run: %s",
			    strerror(b->error));
		else if (rc < 0)
			cmd_error("cannot read '%s': %s", name,
			    strerror(errno));
		else
			cmd_print_diags(name, &d);
	}
	diag_list_release(&d);
	if (rc) {
		output_stream_abort(&r->out);
		cmd_error("nothing written");
		return EXIT_TROUBLE;
	}
	if (finish(b, r))
		return EXIT_TROUBLE;
	print_summary(b, mode, clock_now() - t0);
	return EXIT_OK;
}

static int
query_run(struct book *b, const char *path, const char *sfen,
    const char *usi)
{
	struct strbuf sb = STRBUF_INIT;
	struct diag_list d = DIAG_LIST_INIT;
	struct position pos;
	int rc;

	if (sfen) {
		if (strncmp(sfen, "sfen ", 5) && strcmp(sfen, "startpos"))
			strbuf_adds(&sb, "sfen ");
		strbuf_adds(&sb, sfen);
		rc = cmd_position_from_usi(sb.buf, "--sfen", &pos);
	} else {
		rc = cmd_position_from_usi(usi, "--usi", &pos);
	}
	strbuf_reset(&sb);
	if (rc) {
		strbuf_release(&sb);
		return EXIT_TROUBLE;
	}
	switch (book_query(b, path, &pos, &d)) {
	case 1:
		book_query_text(b, &sb);
		fputs(sb.buf ? sb.buf : "", stdout);
		rc = EXIT_OK;
		break;
	case 0:
		rc = EXIT_FINDINGS;
		break;
	case 2:
		cmd_print_diags(path, &d);
		rc = EXIT_TROUBLE;
		break;
	default:
		rc = cmd_error("cannot read '%s': %s", path, strerror(errno));
		break;
	}
	strbuf_release(&sb);
	diag_list_release(&d);
	return rc;
}

/* ---- options and the subcommands ---------------------------------------- */

static int
take_count(const char *arg, const char *opt, int *v)
{
	if ((*v = cmd_parse_int(arg, 1000000000)) < 0)
		return cmd_usage_error(cmd_book_usage, "%s takes a number from "
		    "0 to 1000000000, not '%s'", opt, arg);
	return 0;
}

int
cmd_book(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "max-ply", required_argument, NULL, OPT_MAX_PLY },
		{ "min-count", required_argument, NULL, OPT_MIN_COUNT },
		{ "side", required_argument, NULL, OPT_SIDE },
		{ "memory", required_argument, NULL, OPT_MEMORY },
		{ "from", required_argument, NULL, OPT_FROM },
		{ "sfen", required_argument, NULL, OPT_SFEN },
		{ "usi", required_argument, NULL, OPT_USI },
		{ "help", no_argument, NULL, 'h' },
		SELECT_LONGOPTS,
		WALK_LONGOPTS,
		RULE_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	const char *usage = cmd_book_usage, *mode, *sfen = NULL, *usi = NULL;
	struct ruleopts ro;
	struct walkopts wo;
	struct ruleset rs;
	struct book_opts o;
	struct book b;
	struct run r;
	int opt, rc, walk_opts = 0, build_opts = 0, out_opts = 0;
	int is_build, is_query, is_merge, is_sort;
	char *tmp;

	if (argc >= 2 && (!strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "-h")))
		return cmd_help(usage);
	if (argc < 2)
		return cmd_usage_error(usage, "a subcommand is needed: build, "
		    "merge, sort or query");
	mode = argv[1];
	is_build = !strcmp(mode, "build");
	is_merge = !strcmp(mode, "merge");
	is_sort = !strcmp(mode, "sort");
	is_query = !strcmp(mode, "query");
	if (!is_build && !is_merge && !is_sort && !is_query)
		return cmd_usage_error(usage, "unknown subcommand '%s' (build, "
		    "merge, sort or query)", mode);
	argc--;
	argv++;
	memset(&r, 0, sizeof(r));
	book_opts_init(&o);	/* min_count 0: sort keeps count-0 moves */
	o.unreadable = unreadable;
	ruleopts_init(&ro);
	walkopts_init(&wo, "records");
	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "ho:j:z", longopts,
	    NULL)) != -1) {
		switch (opt) {
		case 'o': r.out_path = optarg; out_opts = 1; break;
		case OPT_FORCE: r.force = 1; out_opts = 1; break;
		case OPT_MAX_PLY:
			if (take_count(optarg, "--max-ply", &o.max_ply))
				return EXIT_TROUBLE;
			build_opts = 1;
			break;
		case OPT_MIN_COUNT:
			if (take_count(optarg, "--min-count", &o.min_count))
				return EXIT_TROUBLE;
			if (is_sort || is_query)
				return cmd_usage_error(usage, "--min-count is "
				    "for build and merge");
			break;
		case OPT_SIDE:
			if (!strcmp(optarg, "black"))
				o.side = BLACK;
			else if (!strcmp(optarg, "white"))
				o.side = WHITE;
			else
				return cmd_usage_error(usage, "--side takes "
				    "black or white, not '%s'", optarg);
			build_opts = 1;
			break;
		case OPT_MEMORY:
			if (bookagg_parse_size(optarg, &o.memory) < 0)
				return cmd_usage_error(usage, "--memory takes a "
				    "size from 1K to 1024G (a number with K, M "
				    "or G), not '%s'", optarg);
			if (is_query)
				return cmd_usage_error(usage, "--memory is for "
				    "build, merge and sort");
			break;
		case OPT_FROM:
			if (!(o.jo.from = formats_by_name(optarg)) ||
			    !o.jo.from->read)
				return cmd_usage_error(usage, "unknown format "
				    "'%s' (known: %s)", optarg,
				    formats_names());
			build_opts = 1;
			break;
		case OPT_SFEN: sfen = optarg; break;
		case OPT_USI: usi = optarg; break;
		case 'h': return cmd_help(usage);
		default:
			if ((rc = walkopts_take(&wo, opt, optarg, usage)) != 0 ||
			    (rc = cmd_select_take(&o.so, opt, optarg,
			    usage)) != 0 ||
			    (rc = ruleopts_take(&ro, opt, optarg, usage)) != 0) {
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
	if (!is_build && (walk_opts || build_opts))
		return cmd_usage_error(usage, "the selection, walk and reading "
		    "options are for 'book build'");
	if (!is_query && (sfen || usi))
		return cmd_usage_error(usage, "--sfen and --usi are for 'book "
		    "query'");
	if (is_query) {
		if (out_opts)
			return cmd_usage_error(usage, "'book query' prints; it "
			    "takes no -o");
		if (!sfen == !usi)
			return cmd_usage_error(usage, "'book query' wants one of "
			    "--sfen and --usi");
		if (argc - optind != 1)
			return cmd_usage_error(usage, "'book query' reads one "
			    "book");
		o.memory = BOOK_DEFAULT_MEMORY;
		book_init(&b, &o);
		rc = query_run(&b, argv[optind], sfen, usi);
		book_release(&b);
		return rc;
	}
	if (is_sort && argc - optind != 1)
		return cmd_usage_error(usage, "'book sort' reads one book");
	if (is_merge && argc - optind < 1)
		return cmd_usage_error(usage, "'book merge' wants the books");
	if (is_build) {
		if (walkopts_finish(&wo, argc - optind, usage))
			return EXIT_TROUBLE;
		if (ruleopts_build(&ro, &rs, &o.jo.auto_rules, usage))
			return EXIT_TROUBLE;
		o.jo.rules = &rs;
		o.jo.no_result_check = ro.no_result_check;
		o.jo.limits = &ro.lim;
	}
	o.by_seq = is_sort;
	tmp = run_dir(r.out_path);
	o.tmpdir = tmp;
	book_init(&b, &o);
	if (is_build)
		rc = build_run(&b, &r, &wo, argv + optind, argc - optind);
	else
		rc = books_run(&b, &r, mode, argv + optind, argc - optind);
	book_release(&b);
	free(tmp);
	return rc;
}
