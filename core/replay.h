/*
 * replay.h - resolving a parsed record against the rules.
 *
 * Replay is the only place that decides legality. It walks every line of
 * the record's tree from the start position, turns each node's move spec
 * into a claim (core/rules.h), and stores the legal move in node.mv, or
 * the broken rule in node.rule, stopping that line there.
 */
#ifndef KIFU_CORE_REPLAY_H
#define KIFU_CORE_REPLAY_H

#include "diag.h"
#include "record.h"

struct replay {
	struct position final;	/* after the main line's last legal move */
	int moves;		/* legal moves replayed on the main line */
	int32_t last;		/* node of that move (0, the root, if none) */
	int32_t illegal;	/* first main-line node that is illegal, or -1 */
	int excused;		/* it is the foul the record's terminal reports */
	int32_t terminal;	/* the main line's terminal node, or -1 */
	int variation_errors;	/* illegal nodes outside the main line */
	int stopped;		/* a visit (replay_walk) ended the replay */
};

/*
 * Replays r (its nodes' mv and rule are written) and fills out. Each
 * illegal node adds an error to d naming the rule id and the move, except
 * a main-line foul that the record's own terminal reports (反則勝ち,
 * %+ILLEGAL_ACTION after that side's move), which is a note and sets
 * out->excused. Returns the number of errors added.
 */
int replay_record(struct record *r, struct replay *out, struct diag_list *d);

/*
 * A look at every position a replay reaches: the start once (node 0),
 * then the position after each legal move (node: that move's); main says
 * whether the node is on the main line, which is replayed first. Returns
 * nonzero to stop the replay there.
 */
typedef int (*replay_visit_fn)(void *ctx, const struct position *pos,
    int32_t node, int main);

struct replay_walk {
	replay_visit_fn visit;	/* NULL: none */
	void *ctx;
	int main_only;		/* leave the variations unreplayed */
};

/*
 * replay_record with a visit at every position, and the variations left
 * out with main_only (their nodes keep mv MOVE_NONE). A visit that stops
 * the replay sets out->stopped; out then holds what was replayed before
 * (final: the position visited last on the main line).
 */
int replay_record_walk(struct record *r, struct replay *out,
    struct diag_list *d, const struct replay_walk *w);

/* The side to move at a node's slot (a move or a terminal). */
enum color replay_side_at(const struct record *r, int32_t node);

#endif /* KIFU_CORE_REPLAY_H */
