/*
 * tree.h - the opening explorer over the game database (db/indexdb.h):
 * for a position, every move the indexed games played from it on their
 * main lines, how many games played each and how they ended under the
 * rules; what `kifu tree --db` prints (cmd/tree.c), level by level.
 *
 * A game counts once for a move however often it played the move from
 * the position (a repetition), and only main lines count: variations
 * are what someone thought of, not what was played. Every value read
 * back is checked: a damaged index is an error, never a wrong count.
 */
#ifndef KIFU_DB_TREE_H
#define KIFU_DB_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "core/position.h"
#include "core/strbuf.h"
#include "core/usi.h"

/*
 * Functions that can fail append what is wrong to a `why` they are given
 * (a line of its own, naming the file), which may be NULL.
 */

/* A game-level name (戦型, kifu tag) and the games of a move with it. */
struct tree_name {
	char *name;			/* owned; "" for games without one */
	long long games;
};

/* One move played from the position, and the games that played it. */
struct tree_move {
	char move[USI_MOVE_MAX];	/* USI: "7g7f" */
	long long games;		/* every game counted once */
	long long black, draws, white;	/* how they ended: wins, no winner */
	int64_t last;			/* the explorer's: last game counted */
	/* The openings the move leads to: the games' names, most games
	   first (then by name, games without one last); none from an index
	   of schema version 1 (indexdb_tree_has_names). Owned. */
	struct tree_name *names;
	size_t nnames, anames;
};

/* A position: its games and their moves, most played first. */
struct tree_node {
	long long games;
	struct tree_move *m;		/* owned */
	size_t n, alloc;
};

void tree_node_release(struct tree_node *nd);

/* An index open for exploring; opaque. */
struct indexdb_tree;

/*
 * The index at path opened read-only (path borrowed for t's life), or
 * NULL with why set.
 */
struct indexdb_tree *indexdb_tree_open(const char *path, struct strbuf *why);
void indexdb_tree_close(struct indexdb_tree *t);

/* Whether the index stores the games' names (schema version 2). */
int indexdb_tree_has_names(const struct indexdb_tree *t);

/*
 * The games at pos and the moves they played from it into *nd (replaced;
 * release it with tree_node_release). Games that did not finish count
 * among the games alone. Returns 0, or -1 with why set (nd empty).
 */
int indexdb_tree_explore(struct indexdb_tree *t, const struct position *pos,
    struct tree_node *nd, struct strbuf *why);

/*
 * The position after the stored move mv (from a tree_move of pos), which
 * must be legal there. Returns 0, or -1 with why set (a damaged index).
 */
int indexdb_tree_play(const struct indexdb_tree *t,
    const struct position *pos, const char *mv, struct position *next,
    struct strbuf *why);

#endif /* KIFU_DB_TREE_H */
