/*
 * legal.c - `kifu legal`: play USI moves in turn and judge each.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "core/rules.h"
#include "core/usi.h"

const char cmd_legal_usage[] =
    "usage: kifu legal [--sfen <sfen>] [--variant <name>] <move>...\n"
    "\n"
    "Plays the USI moves (7g7f, 8h2b+, P*5e) in turn from the position and\n"
    "prints 'legal' if every one is legal, or 'illegal <rule-id>' for the\n"
    "first that is not (exit status 1); stderr then says which move it was.\n"
    "\n"
    "Rule ids: no-piece, not-own-piece, wrong-piece, piece-movement,\n"
    "own-capture, occupied, not-in-hand, dead-piece, not-promotable, nifu,\n"
    "uchifuzume, self-check.\n"
    "\n"
    "    --sfen <sfen>      the position (default: startpos);\n"
    "                       a board of five ranks is minishogi\n"
    "    --variant <name>   standard (default) or minishogi: the game of\n"
    "                       startpos; an SFEN's board must agree\n";

int
cmd_legal(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "sfen", required_argument, NULL, 's' },
		{ "variant", required_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *sfen = NULL, *variant = NULL;
	struct position pos;
	int opt, rc, i;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 's': sfen = optarg; break;
		case 'v': variant = optarg; break;
		case 'h': return cmd_help(cmd_legal_usage);
		default:
			return cmd_usage_error(cmd_legal_usage,
			    "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind == argc)
		return cmd_usage_error(cmd_legal_usage, "no moves given");
	if ((rc = cmd_position(&pos, sfen, variant, 0)) != 0)
		return rc;
	/* All texts are checked first: a typo is trouble, not a finding. */
	for (i = optind; i < argc; i++) {
		struct move_claim c;

		if (usi_parse_move(pos.v, argv[i], strlen(argv[i]), &c))
			return cmd_error("move %d: '%s' is not a USI move",
			    i - optind + 1, argv[i]);
	}
	for (i = optind; i < argc; i++) {
		struct move_claim c;
		enum rule_id r;
		struct undo u;
		move m;

		usi_parse_move(pos.v, argv[i], strlen(argv[i]), &c);
		if ((r = rules_check_move(&pos, &c, &m)) != RULE_OK) {
			printf("illegal %s\n", rule_id_name(r));
			fflush(stdout);
			fprintf(stderr, "kifu: move %d '%s': %s\n",
			    i - optind + 1, argv[i], rule_description(r));
			return EXIT_FINDINGS;
		}
		position_do_move(&pos, m, &u);
	}
	puts("legal");
	return EXIT_OK;
}
