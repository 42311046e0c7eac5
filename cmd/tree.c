/*
 * tree.c - `kifu tree --db`: the options, then the opening explorer over
 * an index (db/tree.h) from the position asked for, down to --depth
 * levels, printed as a table (indented by level) or as one JSON object.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "queryopts.h"
#include "db/indexdb.h"
#include "db/tree.h"
#include "query/filter.h"

const char cmd_tree_usage[] =
    "usage: kifu tree --db <games.sqlite> [--sfen <sfen> | --usi <position>]\n"
    "                 [--depth <n>] [--json]\n"
    "\n"
    "The opening explorer: for a position (the start unless --sfen or --usi\n"
    "names one), every move the indexed games played from it on their main\n"
    "lines, the number of games that played it (a game counts once), and\n"
    "how those games ended under the rules: Black wins, draws (ended with\n"
    "no winner: sennichite, impasse, move limit) and White wins, with the\n"
    "share of each; games that did not finish are in the count alone. Most\n"
    "played first.\n"
    "\n"
    "    --db <games.sqlite>  the index (kifu index build)\n"
    "    --sfen <sfen>        the position (board, hands, side to move; the\n"
    "                         move number is ignored)\n"
    "    --usi <position>     the same, as 'startpos moves 7g7f ...' or\n"
    "                         'sfen <sfen> moves ...'\n"
    "    --depth <n>          the moves after each move too, n levels deep\n"
    "                         (default 1; the tree is indented)\n"
    "    --json               one JSON object: {\"sfen\", \"games\", \"moves\":\n"
    "                         [{\"move\", \"games\", \"black\", \"draws\",\n"
    "                         \"white\", \"openings\"}]}, with --depth a\n"
    "                         \"moves\" array in each move down to the depth\n"
    "\n"
    "With each move, the openings it leads to: the games' 戦型 (kifu tag), the\n"
    "most played first, as many games as played it (the table shows three;\n"
    "the JSON, every one as {\"name\", \"games\"}, a game without one as\n"
    "null). An index of schema version 1 has no names: kifu index retag adds\n"
    "them.\n"
    "\n"
    "Exit status: 0 the position is in the index, 1 it is not, 2 trouble\n"
    "(usage, an index that cannot be read).\n";

struct tree {
	struct indexdb_tree *db;
	struct strbuf why;	/* what went wrong */
	int json, depth;
	struct strbuf out;
};

/* The openings a move leads to: three in the table, all in JSON. */
static void
print_names(struct tree *t, const struct tree_move *m)
{
	struct strbuf *sb = &t->out;
	size_t k, shown = 0;

	if (!indexdb_tree_has_names(t->db))
		return;
	if (t->json) {
		strbuf_adds(sb, ", \"openings\": [");
		for (k = 0; k < m->nnames; k++) {
			strbuf_adds(sb, k ? ", {\"name\": " : "{\"name\": ");
			if (*m->names[k].name)
				strbuf_add_json_quoted(sb, m->names[k].name);
			else
				strbuf_adds(sb, "null");
			strbuf_addf(sb, ", \"games\": %lld}",
			    m->names[k].games);
		}
		strbuf_adds(sb, "]");
		return;
	}
	for (k = 0; k < m->nnames && shown < 3; k++) {
		if (!*m->names[k].name)
			continue;
		strbuf_adds(sb, shown++ ? ", " : "  ");
		strbuf_add_printable(sb, m->names[k].name);
		strbuf_addf(sb, " %lld", m->names[k].games);
	}
	for (; k < m->nnames; k++)
		if (*m->names[k].name) {
			strbuf_adds(sb, ", ...");
			break;
		}
}

/* A count and its share of the games: a share of few games misleads. */
static void
share(struct strbuf *sb, long long part, long long whole)
{
	strbuf_addf(sb, " %7lld %5.1f%%", part, whole ? 100.0 *
	    (double)part / (double)whole : 0.0);
}

/* The moves of nd, and down to depth levels more; -1 after an error. */
static int
print_moves(struct tree *t, const struct position *pos,
    const struct tree_node *nd, int level)
{
	struct strbuf *sb = &t->out;
	size_t i;
	int rc = 0;

	if (t->json)
		strbuf_adds(sb, "[");
	for (i = 0; i < nd->n && !rc; i++) {
		const struct tree_move *m = &nd->m[i];

		if (t->json) {
			strbuf_addf(sb, "%s{\"move\": \"%s\", \"games\": %lld, "
			    "\"black\": %lld, \"draws\": %lld, \"white\": %lld",
			    i ? ", " : "", m->move, m->games, m->black,
			    m->draws, m->white);
			print_names(t, m);
		} else {
			strbuf_addf(sb, "%*s%-*s %8lld", 2 * level, "",
			    8 - 2 * (level < 4 ? level : 4), m->move,
			    m->games);
			share(sb, m->black, m->games);
			share(sb, m->draws, m->games);
			share(sb, m->white, m->games);
			print_names(t, m);
			strbuf_addc(sb, '\n');
		}
		if (level + 1 < t->depth) {
			struct position next;
			struct tree_node child;

			if ((rc = indexdb_tree_play(t->db, pos, m->move, &next,
			    &t->why)) != 0 ||
			    (rc = indexdb_tree_explore(t->db, &next, &child,
			    &t->why)) != 0)
				break;
			if (t->json && child.n) {
				strbuf_adds(sb, ", \"moves\": ");
				rc = print_moves(t, &next, &child, level + 1);
			} else if (!t->json) {
				rc = print_moves(t, &next, &child, level + 1);
			} else {
				strbuf_adds(sb, ", \"moves\": []");
			}
			tree_node_release(&child);
		}
		if (t->json)
			strbuf_adds(sb, "}");
	}
	if (t->json)
		strbuf_adds(sb, "]");
	return rc;
}

/* The position's line (or the JSON object's start), then its moves. */
static int
print_top(struct tree *t, const struct position *pos,
    const struct tree_node *top)
{
	char sfen[SFEN_MAX];

	indexdb_sfen(pos, sfen);
	if (t->json) {
		strbuf_adds(&t->out, "{\"sfen\": ");
		strbuf_add_json_quoted(&t->out, sfen);
		strbuf_addf(&t->out, ", \"games\": %lld, \"moves\": ",
		    top->games);
	} else {
		strbuf_addf(&t->out, "%s: %lld game%s\n", sfen, top->games,
		    top->games == 1 ? "" : "s");
		if (top->n)
			strbuf_addf(&t->out, "move        games%15s%15s%15s%s\n",
			    "black", "draws", "white",
			    indexdb_tree_has_names(t->db) ? "  openings" : "");
	}
	if (print_moves(t, pos, top, 0))
		return -1;
	if (t->json)
		strbuf_adds(&t->out, "}\n");
	return 0;
}

int
cmd_tree(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'D' },
		{ "json", no_argument, NULL, 'J' },
		{ "depth", required_argument, NULL, 'd' },
		{ "sfen", required_argument, NULL, OPT_F_SFEN },
		{ "usi", required_argument, NULL, OPT_F_USI },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct tree t;
	struct filter f;
	struct limits lim = limits_default;
	struct tree_node top;
	const char *path = NULL;
	int opt, rc;

	memset(&t, 0, sizeof(t));
	memset(&top, 0, sizeof(top));
	strbuf_init(&t.out);
	strbuf_init(&t.why);
	filter_init(&f);
	t.depth = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'D': path = optarg; break;
		case 'J': t.json = 1; break;
		case 'd':
			if ((t.depth = cmd_parse_int(optarg, 64)) < 1) {
				rc = cmd_usage_error(cmd_tree_usage, "--depth "
				    "wants a number from 1 to 64, not '%s'",
				    optarg);
				goto out;
			}
			break;
		case 'h':
			rc = cmd_help(cmd_tree_usage);
			goto out;
		case OPT_F_SFEN:
		case OPT_F_USI:
			if ((rc = cmd_filter_take(&f, opt, optarg,
			    cmd_tree_usage)) != 1)
				goto out;
			break;
		default:
			rc = cmd_usage_error(cmd_tree_usage,
			    optopt ? "option '%s' needs a value" :
			    "unknown option '%s'", argv[optind - 1]);
			goto out;
		}
	}
	rc = EXIT_TROUBLE;
	if (optind < argc) {
		cmd_usage_error(cmd_tree_usage, "no path '%s': tree reads an "
		    "index (--db)", argv[optind]);
		goto out;
	}
	if (!path) {
		cmd_usage_error(cmd_tree_usage, "tree needs an index: --db "
		    "<games.sqlite> (kifu index build makes one)");
		goto out;
	}
	if (!f.sfen && !f.usi)
		f.usi = "startpos";
	if (cmd_filter_finish(&f, &lim, cmd_tree_usage))
		goto out;
	if (!(t.db = indexdb_tree_open(path, &t.why)) ||
	    indexdb_tree_explore(t.db, &f.pos, &top, &t.why) ||
	    print_top(&t, &f.pos, &top)) {
		rc = cmd_errors(&t.why);
		goto out;
	}
	fwrite(t.out.buf, 1, t.out.len, stdout);
	rc = top.games ? EXIT_OK : EXIT_FINDINGS;
out:
	tree_node_release(&top);
	indexdb_tree_close(t.db);
	strbuf_release(&t.out);
	strbuf_release(&t.why);
	filter_release(&f);
	return rc;
}
