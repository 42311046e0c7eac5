/*
 * rules.h - judging the moves a record claims, and the state of play.
 *
 * A record says what moved where; rules_check_move() answers whether
 * that is a legal move here and, if not, the first rule it breaks, as a
 * stable id that scripts may rely on.
 */
#ifndef KIFU_CORE_RULES_H
#define KIFU_CORE_RULES_H

#include "position.h"

/* X(enum name, stable id, description) - ids are a promise: add, never rename. */
#define RULE_LIST(X) \
	X(RULE_OK, "ok", "legal move") \
	X(RULE_NO_PIECE, "no-piece", "no piece on the origin square") \
	X(RULE_NOT_OWN_PIECE, "not-own-piece", "the piece belongs to the opponent") \
	X(RULE_WRONG_PIECE, "wrong-piece", "the piece on the origin square is not the one named") \
	X(RULE_PIECE_MOVEMENT, "piece-movement", "the piece cannot move that way") \
	X(RULE_OWN_CAPTURE, "own-capture", "the destination holds one of the mover's pieces") \
	X(RULE_OCCUPIED, "occupied", "a piece cannot be dropped on an occupied square") \
	X(RULE_NOT_IN_HAND, "not-in-hand", "the piece is not in hand") \
	X(RULE_DEAD_PIECE, "dead-piece", "the piece could never move from there") \
	X(RULE_NOT_PROMOTABLE, "not-promotable", "the piece cannot promote on this move") \
	X(RULE_NIFU, "nifu", "a second unpromoted pawn on the file (nifu)") \
	X(RULE_UCHIFUZUME, "uchifuzume", "a pawn drop that mates (uchifuzume)") \
	X(RULE_SELF_CHECK, "self-check", "the move leaves the mover's king in check")

#define RULE_ENUM(e, id, desc) e,
enum rule_id { RULE_LIST(RULE_ENUM) RULE_NB };
#undef RULE_ENUM

/* "nifu", ...; static strings. */
const char *rule_id_name(enum rule_id r);
const char *rule_description(enum rule_id r);

/*
 * What a record claims a move is. For a board move, `from` and `to` are
 * squares; `piece` is the type the record names for the piece before it
 * moves, or PT_NONE when the record does not name it. For a drop, `piece`
 * is the dropped type and `from` is ignored.
 */
struct move_claim {
	int drop;
	square from, to;
	enum piece_type piece;
	int promote;
};

/*
 * Judges the claim against pos (borrowed, not changed). Returns RULE_OK
 * and stores the move in *out, or the first rule broken, checked in the
 * order: no-piece, not-own-piece, wrong-piece, own-capture,
 * piece-movement, not-promotable, dead-piece, self-check for moves;
 * not-promotable, not-in-hand, occupied, dead-piece, nifu, self-check,
 * uchifuzume for drops. out may be NULL.
 */
enum rule_id rules_check_move(const struct position *pos,
    const struct move_claim *claim, move *out);
/*
 * The same, for a caller that knows whether the side to move is in check
 * (1 or 0; -1: work it out), as replay does from
 * position_in_check_after().
 */
enum rule_id rules_check_move_known(const struct position *pos,
    const struct move_claim *claim, int in_check, move *out);

enum play_state {
	PLAY_NORMAL,		/* side to move has a legal move, not in check */
	PLAY_CHECK,		/* in check with a legal reply */
	PLAY_CHECKMATE,		/* in check, no legal move: side to move loses */
	PLAY_STALEMATE		/* not in check, no legal move: also a loss */
};

enum play_state rules_play_state(const struct position *pos);

/* Whether making m (legal) gives check. */
int rules_gives_check(const struct position *pos, move m);

#endif /* KIFU_CORE_RULES_H */
