/*
 * movegen.c - legal moves from checkers and pins, without make/unmake.
 *
 * In check, non-king moves must capture the single checker or block its
 * line, and drops must block; in double check only the king moves. A
 * pinned piece keeps to the line through its king. King moves are tested
 * against the attacks that would exist with the king gone from its square,
 * so it cannot retreat along a slider's line.
 */
#include "movegen.h"

static inline void
push(struct move_list *ml, move m)
{
	ml->m[ml->n++] = m;
}

static void
add_board_moves(struct move_list *ml, const struct position *pos,
    enum color us, enum piece_type pt, square from, bitboard to)
{
	const struct variant *v = pos->v;
	piece p = piece_make(us, pt);
	bitboard promo, plain;

	if (!pt_can_promote(pt)) {
		while (to)
			push(ml, move_make(from, bb_pop(&to), p, 0));
		return;
	}
	promo = bb_test(v->zone[us], from) ? to : to & v->zone[us];
	plain = to & ~v->dead[us][pt];
	while (promo)
		push(ml, move_make(from, bb_pop(&promo), p, 1));
	while (plain)
		push(ml, move_make(from, bb_pop(&plain), p, 0));
}

int
movegen_pawn_drop_mates(const struct position *pos, square to)
{
	enum color us = pos->side, them = color_flip(us);
	square k = pos->king[them];
	bitboard occ = pos->occ | bb_sq(to);
	bitboard escapes, defenders;

	if (k == SQ_NONE)
		return 0;
	/*
	 * King moves, taking the pawn included. The new pawn attacks only the
	 * king's square, so the position's own attack sets suffice, with the
	 * king lifted so that sliders see through its square.
	 */
	escapes = bb_step[them][PT_KING][k] & ~pos->by_color[them] &
	    pos->v->board;
	while (escapes) {
		square d = bb_pop(&escapes);

		if (!position_attackers(pos, d, us, occ ^ bb_sq(k)))
			return 0;
	}
	/* Captures of the pawn by other pieces, unless that exposes the king. */
	defenders = position_attackers(pos, to, them, occ) & ~bb_sq(k);
	while (defenders) {
		square f = bb_pop(&defenders);

		if (!position_attackers(pos, k, us, occ ^ bb_sq(f)))
			return 0;
	}
	return 1;
}

static void
add_drops(struct move_list *ml, const struct position *pos, enum color us,
    bitboard target)
{
	const struct variant *v = pos->v;
	enum piece_type pt;

	for (pt = PT_PAWN; pt < HAND_NB; pt++) {
		bitboard to;

		if (!pos->hand[us][pt])
			continue;
		to = target & ~v->dead[us][pt];
		if (pt == PT_PAWN) {
			bitboard pawns = pos->by_type[PT_PAWN] &
			    pos->by_color[us];
			square k = pos->king[color_flip(us)];

			while (pawns)
				to &= ~bb_file[sq_file(bb_pop(&pawns))];
			if (k != SQ_NONE) {
				/* The one square where a pawn drop checks. */
				bitboard front = bb_step[color_flip(us)][PT_PAWN][k];

				if ((to & front) &&
				    movegen_pawn_drop_mates(pos, bb_lsb(front)))
					to &= ~front;
			}
		}
		while (to)
			push(ml, move_make_drop(pt, bb_pop(&to), us));
	}
}

int
movegen_legal(const struct position *pos, struct move_list *ml)
{
	enum color us = pos->side, them = color_flip(us);
	bitboard own = pos->by_color[us];
	bitboard occ = pos->occ;
	bitboard target = ~own & pos->v->board;
	bitboard drop_target = ~occ & pos->v->board;
	bitboard checkers = BB_EMPTY, pinned = BB_EMPTY;
	square k = pos->king[us];
	enum piece_type pt;

	ml->n = 0;
	if (k != SQ_NONE) {
		bitboard to = bb_step[us][PT_KING][k] & target;

		checkers = position_attackers(pos, k, them, occ);
		pinned = position_pinned(pos, us);
		while (to) {
			square d = bb_pop(&to);

			if (!position_attackers(pos, d, them, occ ^ bb_sq(k)))
				push(ml, move_make(k, d, piece_make(us, PT_KING), 0));
		}
		if (bb_more_than_one(checkers))
			return ml->n;
		if (checkers) {
			square c = bb_lsb(checkers);

			drop_target = bb_between[k][c];
			target = drop_target | checkers;
		}
	}
	for (pt = PT_PAWN; pt < PT_NB; pt++) {
		bitboard from;

		if (pt == PT_KING)
			continue;
		from = pos->by_type[pt] & own;
		while (from) {
			square f = bb_pop(&from);
			bitboard to = bb_attacks(us, pt, f, occ) & target;

			if (bb_test(pinned, f))
				to &= bb_line[k][f];
			if (to)
				add_board_moves(ml, pos, us, pt, f, to);
		}
	}
	if (drop_target)
		add_drops(ml, pos, us, drop_target);
	return ml->n;
}
