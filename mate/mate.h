/*
 * mate.h - the mate solver: whether the side to move can force mate by
 * checks, and in how many plies exactly, under the rules of the core
 * (uchifuzume, nifu, dead pieces; a repetition is no mate).
 * doc/mate.md explains the algorithm and every convention.
 *
 * All of a solver's state is in a struct mate_ctx, which one thread uses
 * at a time; nothing is global, so threads solve with a context each.
 *
 *	struct mate_ctx *c = mate_ctx_new(256 << 20);
 *	struct mate_result r;
 *
 *	mate_result_init(&r);
 *	if (mate_prepare(&pos, MATE_GAME, &err) == 0)
 *		mate_solve(c, &pos, MATE_GAME, &limits, &r);
 *	... r.status, r.length, r.line ...
 *	mate_result_release(&r);
 *	mate_ctx_free(c);
 */
#ifndef KIFU_MATE_MATE_H
#define KIFU_MATE_MATE_H

#include <stddef.h>
#include <stdint.h>

#include "core/position.h"

enum mate_rules {
	/* Any mate: every defence counts, hands as the position has them. */
	MATE_GAME,
	/*
	 * Composed problems (詰将棋): the defender holds every piece not on
	 * the board or in the attacker's hand, futile interpositions do not
	 * lengthen a mate, and among equally long defences the one leaving
	 * the attacker the fewest pieces in hand is the line.
	 */
	MATE_PROBLEM
};

enum mate_status {
	MATE_MATE,	/* mate in `length`, line proved shortest */
	MATE_NOMATE,	/* proved: no mate by checks at all */
	MATE_UNKNOWN	/* not decided within the limits */
};

/* Why a search stopped short of an answer. */
enum mate_stop {
	MATE_STOP_NONE,
	MATE_STOP_NODES,	/* the node limit */
	MATE_STOP_TIME,		/* the time limit */
	MATE_STOP_MEMORY,	/* the working memory ran out */
	MATE_STOP_DEPTH		/* lines longer than the solver follows */
};

struct mate_limits {
	uint64_t nodes;		/* 0: none */
	double seconds;		/* 0: none */
};

/* A line of moves; owned by whoever holds it. */
struct mate_line {
	int n, alloc;
	move *m;
};

struct mate_result {
	enum mate_status status;
	int length;		/* MATE_MATE: plies */
	struct mate_line line;	/* MATE_MATE: the line, replayed by core */
	/* MATE_UNKNOWN: a mate found but not proved shortest, else -1. */
	int found;
	struct mate_line found_line;
	enum mate_stop stop;
	uint64_t nodes;
	double seconds;
};

void mate_result_init(struct mate_result *r);
void mate_result_release(struct mate_result *r);
const char *mate_status_name(enum mate_status s);
const char *mate_stop_name(enum mate_stop s);

/* Errors before any search, as values: a stable id and a message. */
struct mate_error {
	/*
	 * "no-kings", "no-defender-king", "defender-in-check",
	 * "impossible", "memory".
	 */
	const char *id;
	char message[160];
};

/*
 * Checks that pos is a problem the solver can take (side to move
 * attacks): the defender, the side not to move, has a king and is not
 * in check. Under MATE_PROBLEM gives the defender every piece that is
 * neither on the board nor in the attacker's hand. Returns 0, or -1
 * with err filled.
 */
int mate_prepare(struct position *pos, enum mate_rules rules,
    struct mate_error *err);

struct mate_ctx;

/*
 * A solver using at most `memory` bytes for its tables and working
 * stacks (the rest of a process comes on top: a few hundred KB).
 * NULL when that is too little (under 1 MiB) or cannot be had.
 */
struct mate_ctx *mate_ctx_new(size_t memory);
void mate_ctx_free(struct mate_ctx *c);
/* The bytes the context took (its tables and stacks at most). */
size_t mate_ctx_bytes(const struct mate_ctx *c);

/*
 * Solves pos (prepared by mate_prepare under the same rules): mate with
 * the exact length and a line, no mate, or unknown. Every line is
 * replayed through the core before it is returned; a line that did not
 * replay would make the answer unknown, never wrong. out is reset first.
 */
void mate_solve(struct mate_ctx *c, const struct position *pos,
    enum mate_rules rules, const struct mate_limits *lim,
    struct mate_result *out);

/*
 * For checkers of a given line (kifu tsume check): queries about
 * positions of one problem, whose attacker is the side to move of the
 * root passed to mate_begin. A position with the attacker to move is
 * an OR node (its mates are odd), one with the defender to move an AND
 * node (even; 0 is mated).
 */
void mate_begin(struct mate_ctx *c, const struct position *root,
    enum mate_rules rules, const struct mate_limits *lim);

/*
 * Whether pos mates within `plies` (1 proved, with *len the length of a
 * mate found, not always the shortest; 0 proved not; -1 unknown: the
 * limits ran out).
 */
int mate_within(struct mate_ctx *c, const struct position *pos, int plies,
    int *len);

/*
 * The exact length of pos's mate if it is at most `plies`: 1 with *len,
 * 0 when there is none that short, -1 unknown.
 */
int mate_exact(struct mate_ctx *c, const struct position *pos, int plies,
    int *len);

/*
 * Whether the defender's drop m, in pos (defender to move, in check),
 * is a futile interposition under MATE_PROBLEM (doc/mate.md): 1, 0, or
 * -1 unknown. Always 0 under MATE_GAME.
 */
int mate_futile(struct mate_ctx *c, const struct position *pos, move m);

/*
 * Whether pos (defender to move) is mated in the problem's sense: no
 * legal move, or under MATE_PROBLEM only futile drops left.
 */
int mate_is_mated(struct mate_ctx *c, const struct position *pos);

/*
 * The principal line from pos whose exact length is `length` (as
 * mate_exact found it): the shortest mate against the longest defence,
 * ties as mate_solve breaks them. Returns 0, or -1 unknown.
 */
int mate_line_from(struct mate_ctx *c, const struct position *pos,
    int length, struct mate_line *line);

/*
 * Whether the line replays from pos through the core as a mate: every
 * move legal, every attacker move a check, the last position mated
 * (under MATE_PROBLEM: or only futile drops left). 1 or 0.
 */
int mate_line_replays(struct mate_ctx *c, const struct position *pos,
    const struct mate_line *line);

/* Pieces in the attacker's hand after the line (for 駒余り). */
int mate_line_hand_left(const struct mate_ctx *c, const struct position *pos,
    const struct mate_line *line);

/* Records that pos's mate is exactly len plies, established elsewhere. */
void mate_record_exact(struct mate_ctx *c, const struct position *pos,
    int len);

/* Statistics and state of the current session. */
uint64_t mate_nodes(const struct mate_ctx *c);
double mate_seconds(const struct mate_ctx *c);
enum mate_stop mate_stopped(const struct mate_ctx *c);

void mate_line_push(struct mate_line *l, move m);
void mate_line_release(struct mate_line *l);
void mate_line_copy(struct mate_line *dst, const struct mate_line *src);

#endif /* KIFU_MATE_MATE_H */
