/*
 * zobrist.h - the random keys behind position keys.
 *
 * Board keys are XORed, hand keys are added once per piece held (so a
 * hand of two pawns differs from one); both come from a fixed-seed
 * generator, so keys are the same in every run and every build.
 */
#ifndef KIFU_CORE_ZOBRIST_H
#define KIFU_CORE_ZOBRIST_H

#include "types.h"

extern uint64_t zobrist_board[PIECE_NB][SQ_NB];
extern uint64_t zobrist_hand[COLOR_NB][HAND_NB];
extern uint64_t zobrist_side;

void zobrist_init(void);

#endif /* KIFU_CORE_ZOBRIST_H */
