/*
 * movegen.h - legal move generation.
 *
 * Every move produced is legal under every rule: promotion optional or
 * forced, no piece left where it could never move, nifu, uchifuzume
 * (pawn-drop mate) decided by a real search for replies, and no move that
 * leaves the mover's own king attacked. Non-promotions that are legal but
 * pointless (a pawn not promoting on rank 2) are generated too, as perft
 * counts them.
 *
 * Nothing here allocates: the caller owns the move_list, usually on the
 * stack.
 */
#ifndef KIFU_CORE_MOVEGEN_H
#define KIFU_CORE_MOVEGEN_H

#include "position.h"

/* No shogi position has more than 593 legal moves. */
#define MAX_MOVES 600

struct move_list {
	int n;
	move m[MAX_MOVES];
};

/* Fills ml with the legal moves of the side to move; returns ml->n. */
int movegen_legal(const struct position *pos, struct move_list *ml);

/* How many legal moves the side to move has, without listing them. */
int movegen_count(const struct position *pos);

/*
 * Whether the side to move dropping a pawn on `to` would mate: `to` must
 * be the square in front of the enemy king. Replies tried: every king
 * move (taking the pawn included) and every capture of the pawn by a
 * piece that may legally make it.
 */
int movegen_pawn_drop_mates(const struct position *pos, square to);

#endif /* KIFU_CORE_MOVEGEN_H */
