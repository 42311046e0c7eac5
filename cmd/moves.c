/*
 * moves.c - `kifu moves`: the legal moves of a position in USI.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "core/movegen.h"
#include "core/usi.h"

const char cmd_moves_usage[] =
    "usage: kifu moves [--sfen <sfen>] [--variant <name>]\n"
    "\n"
    "Prints the legal moves of the position in USI, one a line, sorted.\n"
    "Nothing is printed (and the exit status is 0) when there is none.\n"
    "\n"
    "    --sfen <sfen>      the position (default: startpos);\n"
    "                       a board of five ranks is minishogi\n"
    "    --variant <name>   standard (default) or minishogi: the game of\n"
    "                       startpos; an SFEN's board must agree\n";

static int
by_text(const void *a, const void *b)
{
	return strcmp(a, b);
}

int
cmd_moves(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "sfen", required_argument, NULL, 's' },
		{ "variant", required_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *sfen = NULL, *variant = NULL;
	char text[MAX_MOVES][USI_MOVE_MAX];
	struct move_list ml;
	struct position pos;
	int opt, rc, i;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 's': sfen = optarg; break;
		case 'v': variant = optarg; break;
		case 'h': return cmd_help(cmd_moves_usage);
		default:
			return cmd_usage_error(cmd_moves_usage,
			    "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc)
		return cmd_usage_error(cmd_moves_usage,
		    "unexpected argument '%s'", argv[optind]);
	if ((rc = cmd_position(&pos, sfen, variant, 0)) != 0)
		return rc;
	movegen_legal(&pos, &ml);
	for (i = 0; i < ml.n; i++)
		usi_format_move(ml.m[i], text[i]);
	qsort(text, (size_t)ml.n, sizeof(text[0]), by_text);
	for (i = 0; i < ml.n; i++)
		puts(text[i]);
	return EXIT_OK;
}
