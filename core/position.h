/*
 * position.h - a shogi position: board, hands, side to move, keys.
 *
 * A position borrows its variant (static) and owns nothing else, so it
 * can be copied with plain assignment. Moves are applied with
 * position_do_move() and taken back with position_undo_move(), which
 * need the struct undo the former filled.
 */
#ifndef KIFU_CORE_POSITION_H
#define KIFU_CORE_POSITION_H

#include "variant.h"
#include "zobrist.h"

struct position {
	const struct variant *v;
	uint8_t board[SQ_NB];		/* piece, or PIECE_NONE */
	bitboard by_color[COLOR_NB];
	bitboard by_type[PT_NB];
	bitboard golds;			/* gold and the pieces moving like it */
	bitboard occ;			/* every piece plus the walls */
	uint8_t hand[COLOR_NB][HAND_NB];	/* indexed by PT_PAWN..PT_GOLD */
	square king[COLOR_NB];		/* SQ_NONE: that side has no king */
	enum color side;
	int move_number;		/* SFEN's field: 1 + moves played */
	uint64_t board_key;		/* XOR of piece-square keys and side */
	uint64_t hand_key;		/* sum of per-piece hand keys */
};

struct undo {
	piece captured;
	uint64_t board_key;
	uint64_t hand_key;
};

/* An empty board of the variant, Black to move, move number 1. */
void position_clear(struct position *pos, const struct variant *v);
/* The variant's initial position. */
void position_set_start(struct position *pos, const struct variant *v);

/* Edit a position square by square (SFEN reading, tests). */
void position_put(struct position *pos, square sq, piece p);
void position_remove(struct position *pos, square sq);
void position_hand_set(struct position *pos, enum color c,
    enum piece_type pt, int count);

/* m must be legal (from movegen or rules_check_move). */
void position_do_move(struct position *pos, move m, struct undo *u);
void position_undo_move(struct position *pos, move m, const struct undo *u);

/*
 * The 64-bit identity used for repetition: board, both hands and side to
 * move; the move number is not part of it.
 */
static inline uint64_t
position_key(const struct position *pos)
{
	return pos->board_key ^ pos->hand_key;
}

/*
 * The identity of the board alone, without the hands and the side to
 * move (`kifu find --board-only`).
 */
static inline uint64_t
position_board_key(const struct position *pos)
{
	return pos->side == WHITE ? pos->board_key ^ zobrist_side :
	    pos->board_key;
}

/*
 * The sliders of colour `by` (lances, bishops, rooks, horses, dragons)
 * on a line that reaches sq on an empty board: one of them attacks sq
 * when nothing stands between. They stand where the other colour's
 * piece on sq would reach (a lance of `by` comes from the other side's
 * forward ray).
 */
static inline bitboard
position_sliders_to(const struct position *pos, square sq, enum color by)
{
	enum color op = color_flip(by);
	const bitboard *t = pos->by_type;

	return ((bb_pseudo[op][PT_LANCE][sq] & t[PT_LANCE]) |
	    (bb_pseudo[op][PT_BISHOP][sq] & (t[PT_BISHOP] | t[PT_HORSE])) |
	    (bb_pseudo[op][PT_ROOK][sq] & (t[PT_ROOK] | t[PT_DRAGON]))) &
	    pos->by_color[by];
}

/* Pieces of colour `by` attacking sq when the occupancy is occ. */
bitboard position_attackers(const struct position *pos, square sq,
    enum color by, bitboard occ);
/* Whether any piece of `by` attacks sq (occupancy occ): cheaper. */
int position_attacked(const struct position *pos, square sq, enum color by,
    bitboard occ);
/* Pieces attacking the king of the side to move. */
bitboard position_checkers(const struct position *pos);
int position_in_check(const struct position *pos);
/*
 * position_in_check() for a position m (legal) was just played on,
 * worked out from m alone: the moved piece's own attack and the line it
 * left. Replaying a record asks this once a move, where the full test
 * would look at every piece that could attack the king.
 */
int position_in_check_after(const struct position *pos, move m);
/* Pieces of colour c that may not leave the line to c's king. */
bitboard position_pinned(const struct position *pos, enum color c);

/* Recomputes keys and derived sets and compares; for tests and asserts. */
int position_is_ok(const struct position *pos);
/* Same identity as position_key but computed from scratch. */
uint64_t position_key_slow(const struct position *pos);

#endif /* KIFU_CORE_POSITION_H */
