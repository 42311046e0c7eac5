/*
 * tree.c - the opening explorer's queries (tree.h): the rows of a
 * position's occurrences on main lines, counted by move and game; used
 * by `kifu tree --db` (cmd/tree.c).
 */
#include <stdlib.h>
#include <string.h>

#include "db/tree.h"
#include "core/rules.h"
#include "core/xalloc.h"
#include "db/indexdb.h"
#include "db/sqlite.h"
#include "query/filter.h"

/* What a stored USI move may be made of; anything else is damage. */
#define USI_CHARS "123456789abcdefghiPLNSGBRK*+"

struct indexdb_tree {
	sqlite3 *db;
	const char *path;
	sqlite3_stmt *occ;
	int names;		/* the index has the tag table */
};

struct indexdb_tree *
indexdb_tree_open(const char *path, struct strbuf *why)
{
	struct indexdb_tree *t = xcalloc(1, sizeof(*t));

	t->path = path;
	if (!(t->db = indexdb_open(path, 0, why))) {
		indexdb_tree_close(t);
		return NULL;
	}
	/* The game's name (its tag row) with each occurrence, once. */
	t->names = indexdb_version(t->db) >= 2;
	if (!(t->occ = indexdb_prepare(t->db, path, t->names ? "SELECT "
	    "o.record, o.move, r.winner, r.reason, g.name FROM occurrence o "
	    "JOIN record r ON r.id = o.record LEFT JOIN tag g ON g.record = "
	    "o.record AND g.kind = 'game' WHERE o.position = ? AND "
	    "o.variation = 0 ORDER BY o.record" : "SELECT o.record, o.move, "
	    "r.winner, r.reason FROM occurrence o JOIN record r ON r.id = "
	    "o.record WHERE o.position = ? AND o.variation = 0 ORDER BY "
	    "o.record", why))) {
		indexdb_tree_close(t);
		return NULL;
	}
	return t;
}

int
indexdb_tree_has_names(const struct indexdb_tree *t)
{
	return t->names;
}

void
indexdb_tree_close(struct indexdb_tree *t)
{
	if (!t)
		return;
	sqlite3_finalize(t->occ);
	sqlite3_close(t->db);
	free(t);
}

void
tree_node_release(struct tree_node *nd)
{
	size_t i, k;

	for (i = 0; i < nd->n; i++) {
		for (k = 0; k < nd->m[i].nnames; k++)
			free(nd->m[i].names[k].name);
		free(nd->m[i].names);
	}
	free(nd->m);
	memset(nd, 0, sizeof(*nd));
}

/* One more game of the move with the game-level name (NULL: none). */
static void
name_count(struct tree_move *m, const char *name)
{
	size_t k;

	if (!name)
		name = "";
	for (k = 0; k < m->nnames; k++)
		if (!strcmp(m->names[k].name, name))
			break;
	if (k == m->nnames) {
		ALLOC_GROW(m->names, m->nnames + 1, m->anames);
		m->names[k].name = xstrndup(name, strlen(name));
		m->names[k].games = 0;
		m->nnames++;
	}
	m->names[k].games++;
}

static int
by_name_games(const void *a, const void *b)
{
	const struct tree_name *x = a, *y = b;

	if (x->games != y->games)
		return x->games > y->games ? -1 : 1;
	/* Games without a name last among equals. */
	if (!*x->name != !*y->name)
		return *x->name ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int
by_games(const void *a, const void *b)
{
	const struct tree_move *x = a, *y = b;

	if (x->games != y->games)
		return x->games > y->games ? -1 : 1;
	return strcmp(x->move, y->move);
}

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

int
indexdb_tree_explore(struct indexdb_tree *t, const struct position *pos,
    struct tree_node *nd, struct strbuf *why)
{
	int64_t *ids, last = 0;
	int n, i, rc = SQLITE_DONE, bad = 0;
	size_t k;

	memset(nd, 0, sizeof(*nd));
	if ((n = indexdb_find_position(t->db, t->path, pos, 0, &ids,
	    why)) < 0)
		return -1;
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
			if (t->names)
				name_count(m, indexdb_text_or_null(t->occ, 4,
				    &bad));
			if (tally_result(m, filter_winner_by_name(w),
			    filter_reason_by_name(r)) < 0) {
				bad = 1;
				break;
			}
		}
		sqlite3_reset(t->occ);
	}
	free(ids);
	if (bad || rc != SQLITE_DONE) {
		tree_node_release(nd);
		if (bad && why)
			strbuf_addf_line(why, "'%s' is a damaged kifu index: a "
			    "value of the wrong type or out of range", t->path);
		else if (!bad)
			indexdb_why(why, t->db, t->path,
			    "cannot read the index");
		return -1;
	}
	if (nd->n)
		qsort(nd->m, nd->n, sizeof(*nd->m), by_games);
	for (k = 0; k < nd->n; k++)
		if (nd->m[k].nnames > 1)
			qsort(nd->m[k].names, nd->m[k].nnames,
			    sizeof(*nd->m[k].names), by_name_games);
	return 0;
}

int
indexdb_tree_play(const struct indexdb_tree *t, const struct position *pos,
    const char *mv, struct position *next, struct strbuf *why)
{
	struct move_claim claim;
	struct undo u;
	move m;

	*next = *pos;
	if (usi_parse_move(pos->v, mv, strlen(mv), &claim) ||
	    rules_check_move(pos, &claim, &m) != RULE_OK) {
		if (why)
			strbuf_addf_line(why, "'%s' is a damaged kifu index: "
			    "move '%s' is not legal where it is stored",
			    t->path, mv);
		return -1;
	}
	position_do_move(next, m, &u);
	return 0;
}
