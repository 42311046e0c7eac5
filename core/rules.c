/*
 * rules.c - the rule a claimed move breaks, and mate/stalemate.
 */
#include "movegen.h"
#include "rules.h"

#define RULE_NAME(e, id, desc) id,
static const char *const names[] = { RULE_LIST(RULE_NAME) };
#undef RULE_NAME
#define RULE_DESC(e, id, desc) desc,
static const char *const descs[] = { RULE_LIST(RULE_DESC) };
#undef RULE_DESC

const char *
rule_id_name(enum rule_id r)
{
	return (unsigned)r < RULE_NB ? names[r] : "unknown";
}

const char *
rule_description(enum rule_id r)
{
	return (unsigned)r < RULE_NB ? descs[r] : "unknown rule";
}

static int
on_board(const struct position *pos, square sq)
{
	return sq >= 0 && sq < SQ_NB && bb_test(pos->v->board, sq);
}

/*
 * Whether the piece on `from`, on a line with its own king k, is pinned
 * to it: an enemy slider on that line sees k past `from` alone. Cheaper
 * than position_pinned(), which looks at every line.
 */
static inline __attribute__((always_inline)) int
pinned_on_line(const struct position *pos, square k, square from)
{
	bitboard sliders = position_sliders_to(pos, k,
	    color_flip(pos->side)) & bb_line[k][from];

	while (bb_any(sliders)) {
		bitboard between = bb_between[k][bb_pop(&sliders)];

		if (bb_test(between, from) && (between & pos->occ) ==
		    bb_sq(from))
			return 1;
	}
	return 0;
}

/*
 * In check from checkers (not empty), a move other than the king's
 * answers it only by taking the one checker or by standing between, and
 * only with a piece that is not pinned: a pinned piece stays on its pin
 * line, which meets the line of the check at the king alone.
 */
static int
leaves_check(const struct position *pos, move m, square k, bitboard checkers)
{
	square c = bb_lsb(checkers), to = move_to(m), from;

	if (bb_more_than_one(checkers))
		return 1;
	if (to != c && !bb_test(bb_between[k][c], to))
		return 1;
	if (move_is_drop(m))
		return 0;
	from = move_from(m);
	return bb_any(bb_line[k][from]) && pinned_on_line(pos, k, from);
}

/*
 * Whether making m leaves the mover's own king attacked; in_check as
 * rules_check_move_known() takes it.
 */
static int
leaves_king_attacked(const struct position *pos, move m, int in_check)
{
	enum color them = color_flip(pos->side);
	square k = pos->king[pos->side], from = move_from(m), to = move_to(m);

	/*
	 * Replaying records calls this for every move, so it decides from
	 * attacks and pins instead of trying the move.
	 */
	if (k == SQ_NONE)
		return 0;
	if (piece_type_of(move_piece(m)) == PT_KING)
		return position_attacked(pos, to, them, pos->occ ^ bb_sq(k));
	if (in_check) {
		/* -1 (not known) asks for the checkers, which tell. */
		bitboard checkers = position_attackers(pos, k, them, pos->occ);

		if (bb_any(checkers))
			return leaves_check(pos, m, k, checkers);
	}
	if (move_is_drop(m) || !bb_line[k][from] ||
	    bb_test(bb_line[k][from], to))
		return 0;
	return pinned_on_line(pos, k, from);
}

static enum rule_id
check_drop(const struct position *pos, const struct move_claim *c,
    int in_check, move *out)
{
	enum color us = pos->side;
	enum piece_type pt = c->piece;
	move m;

	if (c->promote)
		return RULE_NOT_PROMOTABLE;
	if (pt < PT_PAWN || pt >= HAND_NB || !pos->hand[us][pt])
		return RULE_NOT_IN_HAND;
	if (!on_board(pos, c->to))
		return RULE_PIECE_MOVEMENT;
	if (pos->board[c->to] != PIECE_NONE)
		return RULE_OCCUPIED;
	if (bb_test(pos->v->dead[us][pt], c->to))
		return RULE_DEAD_PIECE;
	if (pt == PT_PAWN && (pos->by_type[PT_PAWN] & pos->by_color[us] &
	    bb_file[sq_file(c->to)]))
		return RULE_NIFU;
	m = move_make_drop(pt, c->to, us);
	if (leaves_king_attacked(pos, m, in_check))
		return RULE_SELF_CHECK;
	if (pt == PT_PAWN && pos->king[color_flip(us)] != SQ_NONE &&
	    bb_test(bb_step[color_flip(us)][PT_PAWN][pos->king[color_flip(us)]],
		c->to) &&
	    movegen_pawn_drop_mates(pos, c->to))
		return RULE_UCHIFUZUME;
	if (out)
		*out = m;
	return RULE_OK;
}

enum rule_id
rules_check_move(const struct position *pos, const struct move_claim *c,
    move *out)
{
	return rules_check_move_known(pos, c, -1, out);
}

enum rule_id
rules_check_move_known(const struct position *pos, const struct move_claim *c,
    int in_check, move *out)
{
	const struct variant *v = pos->v;
	enum color us = pos->side;
	piece p;
	enum piece_type pt;
	move m;

	if (c->drop)
		return check_drop(pos, c, in_check, out);
	if (!on_board(pos, c->from) || pos->board[c->from] == PIECE_NONE)
		return RULE_NO_PIECE;
	p = pos->board[c->from];
	pt = piece_type_of(p);
	if (piece_color(p) != us)
		return RULE_NOT_OWN_PIECE;
	if (c->piece != PT_NONE && c->piece != pt)
		return RULE_WRONG_PIECE;
	if (on_board(pos, c->to) && pos->board[c->to] != PIECE_NONE &&
	    piece_color(pos->board[c->to]) == us)
		return RULE_OWN_CAPTURE;
	if (!on_board(pos, c->to) ||
	    !bb_reaches(us, pt, c->from, c->to, pos->occ))
		return RULE_PIECE_MOVEMENT;
	if (c->promote && (!pt_can_promote(pt) ||
	    !(bb_test(v->zone[us], c->from) || bb_test(v->zone[us], c->to))))
		return RULE_NOT_PROMOTABLE;
	if (!c->promote && bb_test(v->dead[us][pt], c->to))
		return RULE_DEAD_PIECE;
	m = move_make(c->from, c->to, p, c->promote);
	if (leaves_king_attacked(pos, m, in_check))
		return RULE_SELF_CHECK;
	if (out)
		*out = m;
	return RULE_OK;
}

enum play_state
rules_play_state(const struct position *pos)
{
	int check = position_in_check(pos);

	/* Counting alone: the list would only be thrown away. */
	if (movegen_count(pos) == 0)
		return check ? PLAY_CHECKMATE : PLAY_STALEMATE;
	return check ? PLAY_CHECK : PLAY_NORMAL;
}

int
rules_gives_check(const struct position *pos, move m)
{
	struct position q = *pos;
	struct undo u;

	position_do_move(&q, m, &u);
	return position_in_check(&q);
}
