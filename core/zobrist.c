#include "zobrist.h"

uint64_t zobrist_board[PIECE_NB][SQ_NB];
uint64_t zobrist_hand[COLOR_NB][HAND_NB];
uint64_t zobrist_side;

/* splitmix64: small, well mixed, and needs no state beyond one word. */
static uint64_t
next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void
zobrist_init(void)
{
	uint64_t s = 0x6b69667520736869ull;	/* "kifu shi" */
	int p, sq, c, pt;

	for (p = 0; p < PIECE_NB; p++)
		for (sq = 0; sq < SQ_NB; sq++)
			zobrist_board[p][sq] = next(&s);
	for (c = 0; c < COLOR_NB; c++)
		for (pt = 0; pt < HAND_NB; pt++)
			zobrist_hand[c][pt] = next(&s);
	/* Bit 0 set only on the side key: keys of the two sides never meet. */
	zobrist_side = next(&s) | 1;
	for (p = 0; p < PIECE_NB; p++)
		for (sq = 0; sq < SQ_NB; sq++)
			zobrist_board[p][sq] &= ~1ull;
	for (c = 0; c < COLOR_NB; c++)
		for (pt = 0; pt < HAND_NB; pt++)
			zobrist_hand[c][pt] &= ~1ull;
}
