/*
 * adjudicate.h - the result of a game: what the record says, and what
 * the replay and the final position show.
 */
#ifndef KIFU_CORE_ADJUDICATE_H
#define KIFU_CORE_ADJUDICATE_H

#include "record.h"
#include "replay.h"
#include "ruleset.h"

/*
 * The result the record itself claims: its summary statement when it has
 * one (Floodgate's 'summary names the real reason where its % line does
 * not), else its main line's terminal. Returns 0 if it claims nothing.
 * *raw gets the terminal token as written ("" if none); it points into r.
 */
int adjudicate_recorded(const struct record *r, const struct replay *rp,
    struct game_result *res, const char **raw);

/*
 * The result the rules give: the first foul on the main line loses; a
 * final position with no legal move loses (checkmate or stalemate);
 * otherwise the terminal or, without one, the recorded summary; otherwise
 * unfinished.
 */
void adjudicate_basic(const struct record *r, const struct replay *rp,
    struct game_result *res);

/* The result a terminal event means for the side to move at its slot. */
void adjudicate_special(enum special sp, enum color to_move,
    struct game_result *res);

/*
 * The move limit the record states: CSA $MAX_MOVES, KIF 最大手数, or the
 * 'Max_Moves:N comment shogi-server writes; -1 if it states none.
 */
int adjudicate_stated_limit(const struct record *r);

/* Room for a message; longer ones are cut. */
#define ADJ_TEXT_MAX 320

/* What a rule set makes of a record, next to what the record says. */
struct adjudication {
	struct game_result result;	/* what the rules say */
	int has_claim;			/* the record states a result */
	struct game_result claim;	/* that result (adjudicate_recorded) */
	const char *raw;		/* the terminal as written; "" if none */
	char rules[RULESET_DESC_MAX];	/* the rule set, as printed */
	int max_moves;			/* the move limit in force; 0 none */
	int limit_from_record;		/* that limit is the record's own */
	/*
	 * Whether the record agrees with the rules: it claims nothing the
	 * rules contradict and has no move after the end of the game.
	 */
	int consistent;
	/*
	 * Where a disagreement belongs: the first move after the end of
	 * the game, else the terminal; -1 for neither (a summary line).
	 */
	int32_t node;
	/*
	 * Points of both sides when has_points: for a declaration, pieces
	 * in the zone plus hand; for an impasse, every piece.
	 */
	int has_points;
	int points[COLOR_NB];
	/*
	 * How the rules reached the result ("Black gave check with every
	 * move since move 8, ..."); "" when there is nothing to add.
	 */
	char detail[ADJ_TEXT_MAX];
	/* When inconsistent: what each side claims; else "". */
	char message[ADJ_TEXT_MAX];
};

/*
 * The full result of r under rs: replays the main line's positions (rp
 * from replay_record) for the first fourth occurrence and its perpetual
 * check verdict, the move limit, fouls, mate and stalemate, judges a
 * declaration or an agreed impasse the record ends with, and takes the
 * endings no position shows (resignation, time, abort, an unrecorded
 * foul) from the record. Then compares with what the record claims.
 */
void adjudicate(const struct record *r, const struct replay *rp,
    const struct ruleset *rs, struct adjudication *out);

/* A declaration, judged on the position it is made in (rules.md 1.8). */
struct declaration {
	enum color declarer;		/* the side to move */
	int king_in_zone;
	int in_check;
	int pieces;			/* own pieces in the zone, king excluded */
	int points;			/* theirs, the hand's and the credit */
	int needed;			/* points to win */
	struct game_result result;	/* reason REASON_DECLARATION */
};

/*
 * Judges a declaration by the side to move of pos under rule; credit is
 * added to the declarer's points (the handicap credit, 0 if none).
 */
void adjudicate_declaration(const struct position *pos,
    enum declaration_rule rule, int credit, struct declaration *out);

/*
 * Points of side c (R/B 5, others 1, king 0): with zone_only its pieces
 * in its promotion zone plus its hand, else every piece it has.
 */
int adjudicate_points(const struct position *pos, enum color c,
    int zone_only);

/*
 * The points a standard handicap start took away from 上手 (White), to
 * be credited to White; 0 for any other start. pos is any position of
 * the game: the pieces missing from the full set are the removed ones.
 */
int adjudicate_handicap_credit(const struct position *start,
    const struct position *pos);

#endif /* KIFU_CORE_ADJUDICATE_H */
