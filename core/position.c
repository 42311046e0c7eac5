/*
 * position.c - board state, incremental keys, attacks and pins.
 */
#include <string.h>

#include "position.h"
#include "zobrist.h"

static int
pt_is_gold_like(enum piece_type pt)
{
	return pt == PT_GOLD || (pt >= PT_PRO_PAWN && pt <= PT_PRO_SILVER);
}

void
position_clear(struct position *pos, const struct variant *v)
{
	memset(pos, 0, sizeof(*pos));
	pos->v = v;
	pos->occ = v->wall;
	pos->king[BLACK] = pos->king[WHITE] = SQ_NONE;
	pos->side = BLACK;
	pos->move_number = 1;
}

static inline void
put_piece(struct position *pos, square sq, piece p)
{
	bitboard b = bb_sq(sq);
	enum piece_type pt = piece_type_of(p);

	pos->board[sq] = (uint8_t)p;
	pos->by_color[piece_color(p)] |= b;
	pos->by_type[pt] |= b;
	if (pt_is_gold_like(pt))
		pos->golds |= b;
	pos->occ |= b;
	pos->board_key ^= zobrist_board[p][sq];
	if (pt == PT_KING)
		pos->king[piece_color(p)] = sq;
}

static inline void
remove_piece(struct position *pos, square sq)
{
	piece p = pos->board[sq];
	bitboard b = bb_sq(sq);
	enum piece_type pt = piece_type_of(p);

	pos->board[sq] = PIECE_NONE;
	pos->by_color[piece_color(p)] &= ~b;
	pos->by_type[pt] &= ~b;
	pos->golds &= ~b;
	pos->occ &= ~b;
	pos->board_key ^= zobrist_board[p][sq];
	if (pt == PT_KING && pos->king[piece_color(p)] == sq)
		pos->king[piece_color(p)] = SQ_NONE;
}

void
position_put(struct position *pos, square sq, piece p)
{
	if (pos->board[sq] != PIECE_NONE)
		remove_piece(pos, sq);
	if (p != PIECE_NONE)
		put_piece(pos, sq, p);
}

void
position_remove(struct position *pos, square sq)
{
	if (pos->board[sq] != PIECE_NONE)
		remove_piece(pos, sq);
}

void
position_hand_set(struct position *pos, enum color c, enum piece_type pt,
    int count)
{
	pos->hand_key -= zobrist_hand[c][pt] * pos->hand[c][pt];
	pos->hand[c][pt] = (uint8_t)count;
	pos->hand_key += zobrist_hand[c][pt] * pos->hand[c][pt];
}

void
position_do_move(struct position *pos, move m, struct undo *u)
{
	enum color us = pos->side;
	square to = move_to(m);

	u->board_key = pos->board_key;
	u->hand_key = pos->hand_key;
	if (move_is_drop(m)) {
		enum piece_type pt = move_drop_type(m);

		u->captured = PIECE_NONE;
		pos->hand[us][pt]--;
		pos->hand_key -= zobrist_hand[us][pt];
		put_piece(pos, to, piece_make(us, pt));
	} else {
		/*
		 * Not remove_piece() and put_piece() twice over: replay makes
		 * every move of every record here, and toggling the two
		 * squares in each set at once takes half the work.
		 */
		square from = move_from(m);
		piece p = pos->board[from];
		piece np = move_is_promotion(m) ? p | PT_PROMOTED : p;
		piece cap = pos->board[to];
		enum piece_type pt = piece_type_of(p), npt = piece_type_of(np);
		bitboard fb = bb_sq(from), tb = bb_sq(to);

		u->captured = cap;
		if (cap != PIECE_NONE) {
			enum piece_type ct = piece_type_of(cap);

			pos->by_color[color_flip(us)] ^= tb;
			pos->by_type[ct] ^= tb;
			if (pt_is_gold_like(ct))
				pos->golds ^= tb;
			pos->occ ^= tb;
			pos->board_key ^= zobrist_board[cap][to];
			ct = pt_unpromoted(ct);
			/* A king is never legally captured; keep hands sane. */
			if (ct != PT_KING) {
				pos->hand[us][ct]++;
				pos->hand_key += zobrist_hand[us][ct];
			} else if (pos->king[color_flip(us)] == to) {
				pos->king[color_flip(us)] = SQ_NONE;
			}
		}
		pos->board[from] = PIECE_NONE;
		pos->board[to] = (uint8_t)np;
		pos->by_color[us] ^= fb | tb;
		pos->by_type[pt] ^= fb;
		pos->by_type[npt] ^= tb;
		if (pt_is_gold_like(pt))
			pos->golds ^= fb;
		if (pt_is_gold_like(npt))
			pos->golds ^= tb;
		pos->occ ^= fb | tb;
		pos->board_key ^= zobrist_board[p][from] ^
		    zobrist_board[np][to];
		if (pt == PT_KING)
			pos->king[us] = to;
	}
	pos->side = color_flip(us);
	pos->board_key ^= zobrist_side;
	pos->move_number++;
}

void
position_undo_move(struct position *pos, move m, const struct undo *u)
{
	enum color us = color_flip(pos->side);
	square to = move_to(m);

	pos->side = us;
	pos->move_number--;
	if (move_is_drop(m)) {
		remove_piece(pos, to);
		pos->hand[us][move_drop_type(m)]++;
	} else {
		piece p = move_piece(m);
		piece cap = u->captured;

		remove_piece(pos, to);
		put_piece(pos, move_from(m), p);
		if (cap != PIECE_NONE) {
			enum piece_type ct = pt_unpromoted(piece_type_of(cap));

			if (ct != PT_KING)
				pos->hand[us][ct]--;
			put_piece(pos, to, cap);
		}
	}
	pos->board_key = u->board_key;
	pos->hand_key = u->hand_key;
}

bitboard
position_attackers(const struct position *pos, square sq, enum color by,
    bitboard occ)
{
	enum color op = color_flip(by);
	const bitboard *t = pos->by_type;
	bitboard them = pos->by_color[by];
	bitboard r, sliders;

	r = ((bb_step[op][PT_PAWN][sq] & t[PT_PAWN]) |
	    (bb_step[op][PT_KNIGHT][sq] & t[PT_KNIGHT]) |
	    (bb_step[op][PT_SILVER][sq] & t[PT_SILVER]) |
	    (bb_step[op][PT_GOLD][sq] & pos->golds) |
	    (bb_step[op][PT_KING][sq] &
		(t[PT_KING] | t[PT_HORSE] | t[PT_DRAGON]))) & them;
	/* Rays are dear: walk them only when a slider stands on the line. */
	sliders = bb_pseudo[op][PT_LANCE][sq] & t[PT_LANCE] & them;
	if (sliders)
		r |= bb_lance_attacks(op, sq, occ) & sliders;
	sliders = bb_pseudo[op][PT_BISHOP][sq] & (t[PT_BISHOP] | t[PT_HORSE]) &
	    them;
	if (sliders)
		r |= bb_bishop_attacks(sq, occ) & sliders;
	sliders = bb_pseudo[op][PT_ROOK][sq] & (t[PT_ROOK] | t[PT_DRAGON]) &
	    them;
	if (sliders)
		r |= bb_rook_attacks(sq, occ) & sliders;
	return r;
}

int
position_attacked(const struct position *pos, square sq, enum color by,
    bitboard occ)
{
	enum color op = color_flip(by);
	const bitboard *t = pos->by_type;
	bitboard them = pos->by_color[by], sliders;

	if (((bb_step[op][PT_PAWN][sq] & t[PT_PAWN]) |
	    (bb_step[op][PT_KNIGHT][sq] & t[PT_KNIGHT]) |
	    (bb_step[op][PT_SILVER][sq] & t[PT_SILVER]) |
	    (bb_step[op][PT_GOLD][sq] & pos->golds) |
	    (bb_step[op][PT_KING][sq] &
		(t[PT_KING] | t[PT_HORSE] | t[PT_DRAGON]))) & them)
		return 1;
	/*
	 * A slider on one of sq's lines attacks it when nothing stands
	 * between: one lookup each, no ray walked.
	 */
	sliders = position_sliders_to(pos, sq, by);
	while (bb_any(sliders))
		if (!bb_any(bb_between[sq][bb_pop(&sliders)] & occ))
			return 1;
	return 0;
}

bitboard
position_checkers(const struct position *pos)
{
	square k = pos->king[pos->side];

	if (k == SQ_NONE)
		return BB_EMPTY;
	return position_attackers(pos, k, color_flip(pos->side), pos->occ);
}

int
position_in_check(const struct position *pos)
{
	square k = pos->king[pos->side];

	return k != SQ_NONE &&
	    position_attacked(pos, k, color_flip(pos->side), pos->occ);
}

int
position_in_check_after(const struct position *pos, move m)
{
	enum color us = pos->side, them = color_flip(us);
	square k = pos->king[us], to = move_to(m), from;
	bitboard sliders;

	if (k == SQ_NONE)
		return 0;
	/* The piece that moved (promoted or not, as it now stands). */
	if (bb_reaches(them, piece_type_of(pos->board[to]), to, k, pos->occ))
		return 1;
	if (move_is_drop(m))
		return 0;
	/*
	 * A slider behind the square it left. Before m the mover's king was
	 * safe and ours not attacked (replay never passes an illegal
	 * position): nothing else can have changed.
	 */
	from = move_from(m);
	if (!bb_any(bb_line[k][from]))
		return 0;
	sliders = position_sliders_to(pos, k, them) & bb_line[k][from];
	while (bb_any(sliders))
		if (!bb_any(bb_between[k][bb_pop(&sliders)] & pos->occ))
			return 1;
	return 0;
}

bitboard
position_pinned(const struct position *pos, enum color c)
{
	square k = pos->king[c];
	bitboard snipers, pinned = BB_EMPTY;

	if (k == SQ_NONE)
		return BB_EMPTY;
	snipers = position_sliders_to(pos, k, color_flip(c));
	while (snipers) {
		square s = bb_pop(&snipers);
		bitboard b = bb_between[k][s] & pos->occ;

		if (b && !bb_more_than_one(b) && (b & pos->by_color[c]))
			pinned |= b;
	}
	return pinned;
}

uint64_t
position_key_slow(const struct position *pos)
{
	uint64_t bk = 0, hk = 0;
	square sq;
	int c, pt;

	for (sq = 0; sq < SQ_NB; sq++)
		if (pos->board[sq] != PIECE_NONE)
			bk ^= zobrist_board[pos->board[sq]][sq];
	if (pos->side == WHITE)
		bk ^= zobrist_side;
	for (c = 0; c < COLOR_NB; c++)
		for (pt = PT_PAWN; pt < HAND_NB; pt++)
			hk += zobrist_hand[c][pt] * pos->hand[c][pt];
	return bk ^ hk;
}

int
position_is_ok(const struct position *pos)
{
	struct position q;
	square sq;
	int c, pt;

	position_clear(&q, pos->v);
	for (sq = 0; sq < SQ_NB; sq++) {
		if (pos->board[sq] == PIECE_NONE)
			continue;
		if (!bb_test(pos->v->board, sq))
			return 0;
		put_piece(&q, sq, pos->board[sq]);
	}
	for (c = 0; c < COLOR_NB; c++)
		for (pt = PT_PAWN; pt < HAND_NB; pt++)
			position_hand_set(&q, c, pt, pos->hand[c][pt]);
	if (pos->side == WHITE)
		q.board_key ^= zobrist_side;
	for (c = 0; c < COLOR_NB; c++)
		if (q.by_color[c] != pos->by_color[c] ||
		    q.king[c] != pos->king[c])
			return 0;
	for (pt = 0; pt < PT_NB; pt++)
		if (q.by_type[pt] != pos->by_type[pt])
			return 0;
	return q.golds == pos->golds && q.occ == pos->occ &&
	    q.board_key == pos->board_key && q.hand_key == pos->hand_key &&
	    position_key(pos) == position_key_slow(pos);
}
