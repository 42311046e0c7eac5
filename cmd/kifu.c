/*
 * kifu.c - main: dispatch to a subcommand, then make sure what it wrote
 * reached stdout.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "core/strbuf.h"

static int cmd_help_cmd(int argc, char **argv);

static const char help_usage[] =
    "usage: kifu help [<command>]\n"
    "   or: kifu help --man [<command>]\n"
    "\n"
    "Lists the commands, or shows the help of one. With --man, prints the\n"
    "manual page (mdoc) made from that help, or kifu(1) without a command.\n";

/* Alphabetical; `kifu help` prints them in this order. */
static const struct command commands[] = {
	{ "analyze", cmd_analyze, "analyse records with a USI engine, into "
	    "their comments or JSON", cmd_analyze_usage },
	{ "book", cmd_book, "build, merge, sort and query opening books "
	    "(YaneuraOu DB2016)", cmd_book_usage },
	{ "check", cmd_check, "validate whole archives and trees, in parallel",
	    cmd_check_usage },
	{ "complete", cmd_complete, NULL, cmd_complete_usage },
	{ "convert", cmd_convert, "convert records between formats",
	    cmd_convert_usage },
	{ "dump", cmd_dump, "print the rows of training files, checked",
	    cmd_dump_usage },
	{ "export", cmd_export, "write training rows (HCPE, HCPE3, PSV, HCP, "
	    "SFEN)", cmd_export_usage },
	{ "find", cmd_find, "search archives by position, player, date, result",
	    cmd_find_usage },
	{ "help", cmd_help_cmd, "show the commands, or one command's help",
	    help_usage },
	{ "index", cmd_index, "build and update a game database (SQLite)",
	    cmd_index_usage },
	{ "legal", cmd_legal, "judge USI moves played from a position",
	    cmd_legal_usage },
	{ "match", cmd_match, "play games between USI engines, kifu the "
	    "referee; Elo and SPRT", cmd_match_usage },
	{ "mate", cmd_mate, "solve mates by checks: exact length and line",
	    cmd_mate_usage },
	{ "moves", cmd_moves, "list the legal moves of a position",
	    cmd_moves_usage },
	{ "perft", cmd_perft, "count the leaves of the legal move tree",
	    cmd_perft_usage },
	{ "show", cmd_show, "draw a position: terminal, SVG, PNG, or a GIF",
	    cmd_show_usage },
	{ "stats", cmd_stats, "count results, lengths, openings, players",
	    cmd_stats_usage },
	{ "summary", cmd_summary, "merge the JSON Lines of several checks",
	    cmd_summary_usage },
	{ "tag", cmd_tag, "name the openings and castles of every record",
	    cmd_tag_usage },
	{ "tree", cmd_tree, "the opening explorer over an index: moves, "
	    "games, results", cmd_tree_usage },
	{ "tsume", cmd_tsume, "check composed problems: cooks, 変長, "
	    "駒余り, 無駄合", cmd_tsume_usage },
	{ "validate", cmd_validate, "replay records and report illegal moves",
	    cmd_validate_usage },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const char main_usage[] =
    "usage: kifu [--version] [--help] <command> [<args>]\n";

const struct command *
cmd_commands(size_t *n)
{
	*n = NCOMMANDS;
	return commands;
}

const struct command *
cmd_lookup(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

static int
print_man(const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	const struct command *c = NULL;

	if (name && !(c = cmd_lookup(name)))
		return cmd_error("'%s' is not a kifu command; see 'kifu help'",
		    name);
	if (c)
		cmd_man_page(&sb, c->name, c->summary, c->usage);
	else
		cmd_man_main(&sb, commands, NCOMMANDS);
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
	return EXIT_OK;
}

static void
list_commands(FILE *f)
{
	size_t i;

	fputs(main_usage, f);
	fputs("\nkifu reads, checks and converts shogi game records.\n"
	    "\ncommands:\n", f);
	for (i = 0; i < NCOMMANDS; i++)
		if (!!commands[i].summary)
			fprintf(f, "   %-10s %s\n", commands[i].name,
			    commands[i].summary);
	fputs("\n'kifu help <command>' or 'kifu <command> --help' shows "
	    "a command's options.\n"
	    "Exit status: 0 ok, 1 findings (illegal move, invalid record), "
	    "2 trouble.\n", f);
}

static int
cmd_help_cmd(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2) {
		list_commands(stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--man") == 0 && argc <= 3)
		return print_man(argc == 3 ? argv[2] : NULL);
	if (argc > 2 || argv[1][0] == '-') {
		if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
			return cmd_help(help_usage);
		return cmd_usage_error(help_usage, "'help' takes one command");
	}
	if (!(c = cmd_lookup(argv[1])))
		return cmd_error("'%s' is not a kifu command; see 'kifu help'",
		    argv[1]);
	return cmd_help(c->usage);
}

/*
 * Output that never reached stdout (full disk, I/O error) must not pass
 * for success; a reader that went away (EPIPE) is not an error of ours,
 * so exit quietly the way a SIGPIPE death would look to the shell.
 */
static int
finish_stdout(int status)
{
	int err = fflush(stdout) != 0 || ferror(stdout);

	if (fclose(stdout) != 0)
		err = 1;
	if (err) {
		if (errno == EPIPE)
			return 141;
		fprintf(stderr, "kifu: error: write error on standard output: "
		    "%s\n", strerror(errno));
		return EXIT_TROUBLE;
	}
	return status;
}

int
main(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2) {
		list_commands(stderr);
		return EXIT_TROUBLE;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
		printf("kifu %s\n", KIFU_VERSION);
		return finish_stdout(EXIT_OK);
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		list_commands(stdout);
		return finish_stdout(EXIT_OK);
	}
	if (!(c = cmd_lookup(argv[1]))) {
		cmd_error("'%s' is not a kifu command; see 'kifu help'", argv[1]);
		return EXIT_TROUBLE;
	}
	return finish_stdout(c->fn(argc - 1, argv + 1));
}
