/*
 * perft.c - `kifu perft`: leaf counts of the legal move tree.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "core/clock.h"
#include "core/movegen.h"
#include "core/perft.h"
#include "core/usi.h"

const char cmd_perft_usage[] =
    "usage: kifu perft [--sfen <sfen>] [--variant <name>] [--divide] <depth>\n"
    "\n"
    "Counts the leaf nodes of the legal move tree <depth> plies deep and\n"
    "prints the count on stdout; the time and nodes/second go to stderr.\n"
    "The last ply is bulk-counted: its legal moves are generated with every\n"
    "rule checked, but not played.\n"
    "\n"
    "    --sfen <sfen>      start from this position (default: startpos);\n"
    "                       a board of five ranks is minishogi\n"
    "    --variant <name>   standard (default) or minishogi: the game of\n"
    "                       startpos; an SFEN's board must agree\n"
    "    --divide           first print each legal move with its count\n"
    "    --force            count even an impossible position\n";

struct divide_row {
	char usi[USI_MOVE_MAX];
	uint64_t n;
};

static int
by_usi(const void *a, const void *b)
{
	return strcmp(((const struct divide_row *)a)->usi,
	    ((const struct divide_row *)b)->usi);
}

int
cmd_perft(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "sfen", required_argument, NULL, 's' },
		{ "variant", required_argument, NULL, 'v' },
		{ "divide", no_argument, NULL, 'd' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *sfen = NULL, *variant = NULL;
	int divide = 0, force = 0, depth, opt, rc;
	struct position pos;
	uint64_t total = 0;
	double t0, dt;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 's': sfen = optarg; break;
		case 'v': variant = optarg; break;
		case 'd': divide = 1; break;
		case 'f': force = 1; break;
		case 'h': return cmd_help(cmd_perft_usage);
		default:
			return cmd_usage_error(cmd_perft_usage,
			    "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return cmd_usage_error(cmd_perft_usage, "expected one depth");
	if ((depth = cmd_parse_int(argv[optind], 32)) < 0)
		return cmd_usage_error(cmd_perft_usage,
		    "depth must be a number from 0 to 32, not '%s'",
		    argv[optind]);
	if ((rc = cmd_position(&pos, sfen, variant, force)) != 0)
		return rc;
	t0 = clock_now();
	if (divide && depth > 0) {
		struct move_list ml;
		struct divide_row *rows;
		int i;

		movegen_legal(&pos, &ml);
		rows = calloc((size_t)ml.n + 1, sizeof(*rows));
		if (!rows)
			return cmd_error("out of memory");
		for (i = 0; i < ml.n; i++) {
			struct undo u;

			usi_format_move(ml.m[i], rows[i].usi);
			position_do_move(&pos, ml.m[i], &u);
			rows[i].n = perft(&pos, depth - 1);
			position_undo_move(&pos, ml.m[i], &u);
			total += rows[i].n;
		}
		qsort(rows, (size_t)ml.n, sizeof(*rows), by_usi);
		for (i = 0; i < ml.n; i++)
			printf("%s %llu\n", rows[i].usi,
			    (unsigned long long)rows[i].n);
		free(rows);
	} else {
		total = perft(&pos, depth);
	}
	dt = clock_now() - t0;
	printf("%llu\n", (unsigned long long)total);
	fflush(stdout);
	fprintf(stderr, "perft: depth %d: %llu nodes in %.3f s "
	    "(%.1f M nodes/s, last ply bulk-counted)\n", depth,
	    (unsigned long long)total, dt,
	    dt > 0 ? (double)total / dt / 1e6 : 0.0);
	return EXIT_OK;
}
