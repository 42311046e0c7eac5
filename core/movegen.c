/*
 * movegen.c - legal moves from checkers and pins, without make/unmake.
 *
 * In check, non-king moves must capture the single checker or block its
 * line, and drops must block; in double check only the king moves. A
 * pinned piece keeps to the line through its king. King moves are tested
 * against the attacks that would exist with the king gone from its square,
 * so it cannot retreat along a slider's line.
 *
 * One generator serves both listing and counting: generate() is inlined
 * into each with `ml` NULL or not, so the compiler drops the unused half
 * and perft's last ply never writes a move.
 */
#include <stddef.h>

#include "movegen.h"

#define ALWAYS_INLINE inline __attribute__((always_inline))

/* Appends base | sq for every square of b; base carries from and piece. */
static ALWAYS_INLINE void
push_all(struct move_list *ml, move base, bitboard b)
{
	uint64_t lo = (uint64_t)b, hi = (uint64_t)(b >> 64);
	move *m = ml->m + ml->n;

	while (lo) {
		*m++ = base | (move)__builtin_ctzll(lo);
		lo &= lo - 1;
	}
	while (hi) {
		*m++ = base | (move)(64 + __builtin_ctzll(hi));
		hi &= hi - 1;
	}
	ml->n = (int)(m - ml->m);
}

static ALWAYS_INLINE int
board_moves(struct move_list *ml, const struct position *pos, enum color us,
    enum piece_type pt, square from, bitboard to)
{
	const struct variant *v = pos->v;
	move base = move_make(from, 0, piece_make(us, pt), 0);
	bitboard promo, plain;

	if (!pt_can_promote(pt)) {
		if (ml)
			push_all(ml, base, to);
		return bb_count(to);
	}
	promo = bb_test(v->zone[us], from) ? to : to & v->zone[us];
	plain = to & ~v->dead[us][pt];
	if (ml) {
		push_all(ml, base | MOVE_PROMOTE, promo);
		push_all(ml, base, plain);
	}
	return bb_count(promo) + bb_count(plain);
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

static ALWAYS_INLINE int
drops(struct move_list *ml, const struct position *pos, enum color us,
    bitboard target)
{
	const struct variant *v = pos->v;
	enum piece_type pt;
	int n = 0;

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
		if (ml)
			push_all(ml, move_make_drop(pt, 0, us), to);
		n += bb_count(to);
	}
	return n;
}

/*
 * Moves of the pieces in `from`, all of type pt; for PT_GOLD the set holds
 * every gold-moving type and the moving piece is read off the board.
 */
static ALWAYS_INLINE int
piece_moves(struct move_list *ml, const struct position *pos, enum color us,
    enum piece_type pt, bitboard target, bitboard pinned, square k,
    bitboard from)
{
	int n = 0;

	while (from) {
		square f = bb_pop(&from);
		bitboard to = bb_attacks(us, pt, f, pos->occ) & target;

		if (bb_test(pinned, f))
			to &= bb_line[k][f];
		if (!to)
			continue;
		if (pt == PT_GOLD) {
			if (ml)
				push_all(ml, move_make(f, 0, pos->board[f], 0), to);
			n += bb_count(to);
		} else {
			n += board_moves(ml, pos, us, pt, f, to);
		}
	}
	return n;
}

/*
 * Unpinned pawns that can still move all step at once: a shift by one
 * square is one rank forward (Black's forward is the lower square).
 */
static ALWAYS_INLINE int
pawn_pushes(struct move_list *ml, const struct position *pos, enum color us,
    bitboard pawns, bitboard target)
{
	const struct variant *v = pos->v;
	bitboard to = (us == BLACK ? pawns >> 1 : pawns << 1) & target;
	bitboard promo = to & v->zone[us];
	bitboard plain = to & ~v->dead[us][PT_PAWN];

	if (ml) {
		int back = us == BLACK ? 1 : -1;
		move base = move_make(0, 0, piece_make(us, PT_PAWN), 0);

		while (promo) {
			square t = bb_pop(&promo);

			ml->m[ml->n++] = base | MOVE_PROMOTE | (move)t |
			    ((move)(t + back) << 7);
		}
		while (plain) {
			square t = bb_pop(&plain);

			ml->m[ml->n++] = base | (move)t | ((move)(t + back) << 7);
		}
		return 0;	/* listing: the caller counts ml->n */
	}
	return bb_count(promo) + bb_count(plain);
}

static ALWAYS_INLINE int
generate(const struct position *pos, struct move_list *ml)
{
	enum color us = pos->side, them = color_flip(us);
	bitboard own = pos->by_color[us];
	bitboard occ = pos->occ;
	bitboard target = ~own & pos->v->board;
	bitboard drop_target = ~occ & pos->v->board;
	bitboard checkers = BB_EMPTY, pinned = BB_EMPTY;
	square k = pos->king[us];
	int n = 0;

	if (ml)
		ml->n = 0;
	if (k != SQ_NONE) {
		bitboard to = bb_step[us][PT_KING][k] & target, safe = 0;

		checkers = position_attackers(pos, k, them, occ);
		pinned = position_pinned(pos, us);
		while (to) {
			square d = bb_pop(&to);

			if (!position_attackers(pos, d, them, occ ^ bb_sq(k)))
				safe |= bb_sq(d);
		}
		n += board_moves(ml, pos, us, PT_KING, k, safe);
		if (bb_more_than_one(checkers))
			return n;
		if (checkers) {
			square c = bb_lsb(checkers);

			drop_target = bb_between[k][c];
			target = drop_target | checkers;
		}
	}
	n += pawn_pushes(ml, pos, us, pos->by_type[PT_PAWN] & own &
	    ~pinned & ~pos->v->dead[us][PT_PAWN], target);
	n += piece_moves(ml, pos, us, PT_PAWN, target, pinned, k,
	    pos->by_type[PT_PAWN] & own & (pinned | pos->v->dead[us][PT_PAWN]));
	n += piece_moves(ml, pos, us, PT_LANCE, target, pinned, k,
	    pos->by_type[PT_LANCE] & own);
	n += piece_moves(ml, pos, us, PT_KNIGHT, target, pinned, k,
	    pos->by_type[PT_KNIGHT] & own);
	n += piece_moves(ml, pos, us, PT_SILVER, target, pinned, k,
	    pos->by_type[PT_SILVER] & own);
	n += piece_moves(ml, pos, us, PT_GOLD, target, pinned, k,
	    pos->golds & own);
	n += piece_moves(ml, pos, us, PT_BISHOP, target, pinned, k,
	    pos->by_type[PT_BISHOP] & own);
	n += piece_moves(ml, pos, us, PT_ROOK, target, pinned, k,
	    pos->by_type[PT_ROOK] & own);
	n += piece_moves(ml, pos, us, PT_HORSE, target, pinned, k,
	    pos->by_type[PT_HORSE] & own);
	n += piece_moves(ml, pos, us, PT_DRAGON, target, pinned, k,
	    pos->by_type[PT_DRAGON] & own);
	if (drop_target)
		n += drops(ml, pos, us, drop_target);
	return n;
}

int
movegen_legal(const struct position *pos, struct move_list *ml)
{
	generate(pos, ml);
	return ml->n;
}

int
movegen_count(const struct position *pos)
{
	return generate(pos, NULL);
}
