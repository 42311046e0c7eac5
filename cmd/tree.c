/*
 * tree.c - `kifu tree --db`: the opening explorer over an index (db/
 * indexdb.h). For a position, every move the games played from it, with
 * how many games played it and how they ended; --depth goes on into the
 * positions those moves lead to.
 *
 * A game counts once for a move however often it played the move from
 * the position (a repetition), and only main lines count: variations
 * are what someone thought of, not what was played.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "queryopts.h"
#include "ruleopts.h"
#include "core/usi.h"
#include "core/xalloc.h"
#include "db/indexdb.h"
#include "db/sqlite.h"
#include "query/filter.h"

/* What a stored USI move may be made of; anything else is damage. */
#define USI_CHARS "123456789abcdefghiPLNSGBRK*+"

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
    "                         \"white\"}]}, with --depth a \"moves\" array in\n"
    "                         each move down to the depth\n"
    "\n"
    "Exit status: 0 the position is in the index, 1 it is not, 2 trouble\n"
    "(usage, an index that cannot be read).\n";

struct tree_move {
	char move[USI_MOVE_MAX];
	long long games, black, draws, white;
	int64_t last;		/* the last game counted */
};

struct node {
	long long games;
	struct tree_move *m;
	size_t n, alloc;
};

struct tree {
	sqlite3 *db;
	const char *path;
	sqlite3_stmt *occ;
	int json, depth;
	struct strbuf out;
};

static int
by_games(const void *a, const void *b)
{
	const struct tree_move *x = a, *y = b;

	if (x->games != y->games)
		return x->games > y->games ? -1 : 1;
	return strcmp(x->move, y->move);
}

static int
damaged(const struct tree *t)
{
	return cmd_error("'%s' is a damaged kifu index: a value of the wrong "
	    "type or out of range", t->path);
}

/* The games at pos and the moves they played from it. */
/*
 * Counts one game's result for its move: -1 for a winner or reason the
 * index should not hold (a damaged file is refused, not counted as a
 * draw). Unfinished and aborted games count among the games alone.
 */
static int
tally_result(struct tree_move *m, int winner, int reason)
{
	if (winner < 0 || reason < 0)
		return -1;
	if (winner == WINNER_BLACK)
		m->black++;
	else if (winner == WINNER_WHITE)
		m->white++;
	else if (reason != REASON_UNFINISHED && reason != REASON_ABORT)
		m->draws++;
	return 0;
}

static int
explore(struct tree *t, const struct position *pos, struct node *nd)
{
	int64_t *ids, last = 0;
	int n, i, rc = SQLITE_DONE, bad = 0;
	size_t k;

	memset(nd, 0, sizeof(*nd));
	if ((n = cmd_db_find_position(t->db, t->path, pos, 0, &ids)) < 0)
		return EXIT_TROUBLE;
	for (i = 0; i < n && rc == SQLITE_DONE && !bad; i++) {
		sqlite3_bind_int64(t->occ, 1, ids[i]);
		while ((rc = sqlite3_step(t->occ)) == SQLITE_ROW) {
			int64_t rec = indexdb_int(t->occ, 0, 1, INT64_MAX,
			    &bad);
			const char *mv = indexdb_text_or_null(t->occ, 1, &bad);
			const char *w = indexdb_text(t->occ, 2, &bad);
			const char *r = indexdb_text(t->occ, 3, &bad);
			struct tree_move *m = NULL;

			if (bad)
				break;
			/* Rows come by game: a game is new when its id is. */
			if (rec != last)
				nd->games++;
			last = rec;
			if (!mv)
				continue;
			if (strlen(mv) >= USI_MOVE_MAX ||
			    strspn(mv, USI_CHARS) != strlen(mv)) {
				bad = 1;
				break;
			}
			for (k = 0; k < nd->n; k++)
				if (!strcmp(nd->m[k].move, mv))
					break;
			if (k == nd->n) {
				ALLOC_GROW(nd->m, nd->n + 1, nd->alloc);
				m = &nd->m[nd->n++];
				memset(m, 0, sizeof(*m));
				strcpy(m->move, mv);
			}
			m = &nd->m[k];
			if (m->last == rec)
				continue;
			m->last = rec;
			m->games++;
			if (tally_result(m, filter_winner_by_name(w),
			    filter_reason_by_name(r)) < 0) {
				bad = 1;
				break;
			}
		}
		sqlite3_reset(t->occ);
	}
	free(ids);
	if (bad)
		return damaged(t);
	if (rc != SQLITE_DONE)
		return cmd_db_error(t->db, t->path, "cannot read the index");
	if (nd->n)
		qsort(nd->m, nd->n, sizeof(*nd->m), by_games);
	return 0;
}

/* A count and its share of the games: a share of few games misleads. */
static void
share(struct strbuf *sb, long long part, long long whole)
{
	strbuf_addf(sb, " %7lld %5.1f%%", part, whole ? 100.0 *
	    (double)part / (double)whole : 0.0);
}

/* The position after the stored move mv, which must be legal there. */
static int
play(const struct tree *t, const struct position *pos, const char *mv,
    struct position *next)
{
	struct move_claim claim;
	struct undo u;
	move m;

	*next = *pos;
	if (usi_parse_move(pos->v, mv, strlen(mv), &claim) ||
	    rules_check_move(pos, &claim, &m) != RULE_OK)
		return cmd_error("'%s' is a damaged kifu index: move '%s' is "
		    "not legal where it is stored", t->path, mv);
	position_do_move(next, m, &u);
	return 0;
}

/* The moves of nd, and down to depth levels more. */
static int
print_moves(struct tree *t, const struct position *pos,
    const struct node *nd, int level)
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
		} else {
			strbuf_addf(sb, "%*s%-*s %8lld", 2 * level, "",
			    8 - 2 * (level < 4 ? level : 4), m->move,
			    m->games);
			share(sb, m->black, m->games);
			share(sb, m->draws, m->games);
			share(sb, m->white, m->games);
			strbuf_addc(sb, '\n');
		}
		if (level + 1 < t->depth) {
			struct position next;
			struct node child;

			if ((rc = play(t, pos, m->move, &next)) != 0 ||
			    (rc = explore(t, &next, &child)) != 0)
				break;
			if (t->json && child.n) {
				strbuf_adds(sb, ", \"moves\": ");
				rc = print_moves(t, &next, &child, level + 1);
			} else if (!t->json) {
				rc = print_moves(t, &next, &child, level + 1);
			} else {
				strbuf_adds(sb, ", \"moves\": []");
			}
			free(child.m);
		}
		if (t->json)
			strbuf_adds(sb, "}");
	}
	if (t->json)
		strbuf_adds(sb, "]");
	return rc;
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
	struct node top;
	char sfen[SFEN_MAX];
	int opt, rc;

	memset(&t, 0, sizeof(t));
	memset(&top, 0, sizeof(top));
	strbuf_init(&t.out);
	filter_init(&f);
	t.depth = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'D': t.path = optarg; break;
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
	if (!t.path) {
		cmd_usage_error(cmd_tree_usage, "tree needs an index: --db "
		    "<games.sqlite> (kifu index build makes one)");
		goto out;
	}
	if (!f.sfen && !f.usi)
		f.usi = "startpos";
	if (cmd_filter_finish(&f, &lim, cmd_tree_usage))
		goto out;
	if (!(t.db = cmd_db_open(t.path, 0)))
		goto out;
	if (!(t.occ = cmd_db_prepare(t.db, t.path, "SELECT o.record, o.move, "
	    "r.winner, r.reason FROM occurrence o JOIN record r ON r.id = "
	    "o.record WHERE o.position = ? AND o.variation = 0 ORDER BY "
	    "o.record")))
		goto out;
	if ((rc = explore(&t, &f.pos, &top)) != 0)
		goto out;
	indexdb_sfen(&f.pos, sfen);
	if (t.json) {
		strbuf_adds(&t.out, "{\"sfen\": ");
		strbuf_add_json_quoted(&t.out, sfen);
		strbuf_addf(&t.out, ", \"games\": %lld, \"moves\": ",
		    top.games);
	} else {
		strbuf_addf(&t.out, "%s: %lld game%s\n", sfen, top.games,
		    top.games == 1 ? "" : "s");
		if (top.n)
			strbuf_addf(&t.out, "move        games%15s%15s%15s\n",
			    "black", "draws", "white");
	}
	if ((rc = print_moves(&t, &f.pos, &top, 0)) != 0)
		goto out;
	if (t.json)
		strbuf_adds(&t.out, "}\n");
	fwrite(t.out.buf, 1, t.out.len, stdout);
	rc = top.games ? EXIT_OK : EXIT_FINDINGS;
out:
	free(top.m);
	sqlite3_finalize(t.occ);
	sqlite3_close(t.db);
	strbuf_release(&t.out);
	filter_release(&f);
	return rc;
}
