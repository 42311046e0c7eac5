/*
 * replay.c - every line of a record's tree, through the rules.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "notation.h"
#include "replay.h"
#include "rules.h"
#include "usi.h"
#include "xalloc.h"

struct pending {
	int32_t node;		/* first node of a line still to replay */
	int in_check;		/* the side to move in pos is in check */
	struct position pos;	/* the position before it */
};

enum color
replay_side_at(const struct record *r, int32_t node)
{
	return (enum color)((r->start.side + r->nodes[node].ply - 1) & 1);
}

static const char *const piece_names[PT_NB] = {
	"?", "pawn", "lance", "knight", "silver", "bishop", "rook", "gold",
	"king", "tokin", "promoted lance", "promoted knight",
	"promoted silver", "horse", "dragon"
};

/*
 * The legal moves to `to` that a spec could mean: promoting and not, from
 * every piece of the side to move that attacks the square, and the drops
 * of what it holds. Only those few claims are judged: generating every
 * legal move instead would cost most of the time of reading a KI2 record.
 */
static int
moves_to(const struct position *pos, int in_check, const struct move_spec *s,
    square to, move *out)
{
	enum color us = pos->side;
	bitboard from = BB_EMPTY;
	struct move_claim c;
	int n = 0, pt;

	if (to >= SQ_NB || !bb_test(pos->v->board, to))
		return 0;
	if (!(s->flags & SPEC_DROP))
		from = position_attackers(pos, to, us, pos->occ);
	memset(&c, 0, sizeof(c));
	c.to = to;
	c.piece = PT_NONE;
	while (bb_any(from)) {
		c.from = bb_pop(&from);
		for (c.promote = 0; c.promote < 2; c.promote++)
			if (rules_check_move_known(pos, &c, in_check,
			    &out[n]) == RULE_OK)
				n++;
	}
	if (pos->board[to] != PIECE_NONE)
		return n;
	c.drop = 1;
	c.promote = 0;
	c.from = SQ_NONE;
	for (pt = PT_PAWN; pt < HAND_NB; pt++)
		if (pos->hand[us][pt]) {
			c.piece = (enum piece_type)pt;
			if (rules_check_move_known(pos, &c, in_check,
			    &out[n]) == RULE_OK)
				n++;
		}
	return n;
}

/*
 * A record that names neither origin nor drop (KI2, some KIF) is resolved
 * by looking for the legal moves that fit what it does say, narrowed by
 * its relative words (core/notation.h). Fills fits[] and returns how
 * many there are.
 */
static int
find_fits(const struct position *pos, int in_check, const struct move_spec *s,
    square to, move fits[MAX_MOVES])
{
	move cand[2 * SQ_NB + HAND_NB];
	int i, nc, n = 0, board = 0, want_promo = (s->flags & SPEC_PROMOTE) != 0;

	nc = moves_to(pos, in_check, s, to, cand);
	for (i = 0; i < nc; i++) {
		move m = cand[i];
		enum piece_type pt = piece_type_of(move_piece(m));

		if (move_to(m) != to)
			continue;
		if (s->flags & SPEC_PIECE_AFTER)
			pt = piece_type_of(move_piece_after(m));
		if (s->piece != PT_NONE && pt != s->piece)
			continue;
		if (!(s->flags & SPEC_PIECE_AFTER) &&
		    move_is_promotion(m) != want_promo)
			continue;
		if ((s->flags & SPEC_DROP) && !move_is_drop(m))
			continue;
		fits[n++] = m;
		board += !move_is_drop(m);
	}
	/* 打 is omitted only when no board piece fits: prefer board moves. */
	if (board && board < n && !(s->flags & SPEC_DROP)) {
		int k = 0;

		for (i = 0; i < n; i++)
			if (!move_is_drop(fits[i]))
				fits[k++] = fits[i];
		n = k;
	}
	return notation_filter(pos, fits, n, s->rel);
}

/* "2 pieces fit the move: 6f, 5g" - where each candidate comes from. */
static void
describe_fits(const move *fits, int n, char *msg, size_t msgsz)
{
	size_t len;
	int i;

	snprintf(msg, msgsz, "%d pieces fit the move:", n);
	for (i = 0; i < n && (len = strlen(msg)) + 6 < msgsz; i++) {
		char sq[3];

		if (move_is_drop(fits[i])) {
			snprintf(msg + len, msgsz - len, "%s drop",
			    i ? "," : "");
			continue;
		}
		usi_format_square(move_from(fits[i]), sq);
		snprintf(msg + len, msgsz - len, "%s %s", i ? "," : "", sq);
	}
}

/*
 * Judges one node on pos (in_check: its side to move is in check).
 * Returns RULE_OK with *m set, a rule id, or -1 with a non-rule
 * diagnostic already described in *id and msg.
 */
static int
resolve(const struct record *r, int32_t idx, const struct position *pos,
    int in_check, move *m, const char **id, char *msg, size_t msgsz)
{
	const struct record_node *n = &r->nodes[idx];
	const struct move_spec *s = &n->spec;
	struct move_claim c;
	square to = s->to;

	if (s->color >= 0 && s->color != (int)pos->side) {
		*id = diag_id_name(DIAG_WRONG_SIDE);
		snprintf(msg, msgsz, "it is %s's move, but the record gives "
		    "it to %s", pos->side == BLACK ? "black" : "white",
		    pos->side == BLACK ? "white" : "black");
		return -1;
	}
	if (s->flags & SPEC_SAME) {
		const struct record_node *p = &r->nodes[n->parent];

		if (n->parent <= 0 || p->mv == MOVE_NONE) {
			*id = diag_id_name(DIAG_SYNTAX);
			snprintf(msg, msgsz, "'same square' with no previous move");
			return -1;
		}
		to = move_to(p->mv);
	}
	if (to == SQ_NONE) {
		*id = diag_id_name(DIAG_SYNTAX);
		snprintf(msg, msgsz, "move has no destination");
		return -1;
	}
	memset(&c, 0, sizeof(c));
	c.to = to;
	c.from = s->from;
	c.promote = (s->flags & SPEC_PROMOTE) != 0;
	c.piece = (enum piece_type)s->piece;
	if (s->flags & SPEC_DROP) {
		c.drop = 1;
		return rules_check_move_known(pos, &c, in_check, m);
	}
	if (s->from == SQ_NONE) {
		move fits[MAX_MOVES];
		int nfits = find_fits(pos, in_check, s, to, fits);

		if (nfits == 1) {
			*m = fits[0];
			return RULE_OK;
		}
		if (nfits) {
			*id = diag_id_name(DIAG_AMBIGUOUS);
			describe_fits(fits, nfits, msg, msgsz);
			return -1;
		}
		snprintf(msg, msgsz, "no %s can make the move",
		    s->piece < PT_NB ? piece_names[s->piece] : "piece");
		*id = rule_id_name(RULE_PIECE_MOVEMENT);
		return -1;
	}
	if (s->flags & SPEC_PIECE_AFTER) {
		/* CSA names the piece after the move: promotion is the difference. */
		piece p = s->from < SQ_NB ? pos->board[s->from] : PIECE_NONE;
		enum piece_type bt = piece_type_of(p);

		c.promote = 0;
		if (p != PIECE_NONE && s->piece != bt &&
		    pt_can_promote(bt) && (bt | PT_PROMOTED) == s->piece) {
			c.promote = 1;
			c.piece = bt;
		}
	}
	return rules_check_move_known(pos, &c, in_check, m);
}

static void
report(const struct record *r, int32_t idx, struct diag_list *d,
    enum diag_severity sev, const char *id, const char *what)
{
	const struct record_node *n = &r->nodes[idx];

	diag_add(d, sev, id, &n->loc, n->ply, "move %d '%s': %s", n->ply,
	    record_str(r, n->raw), what);
}

int
replay_record(struct record *r, struct replay *out, struct diag_list *d)
{
	return replay_record_walk(r, out, d, NULL);
}

int
replay_record_walk(struct record *r, struct replay *out, struct diag_list *d,
    const struct replay_walk *w)
{
	struct pending *stack = NULL;
	size_t nstack = 0, astack = 0;
	int errors = 0, main_line = 1;
	replay_visit_fn visit = w ? w->visit : NULL;

	memset(out, 0, sizeof(*out));
	out->illegal = out->terminal = -1;
	out->final = r->start;
	if (visit && visit(w->ctx, &r->start, 0, 1)) {
		out->stopped = 1;
		return 0;
	}
	if (r->nodes[0].next < 0)
		return 0;
	ALLOC_GROW(stack, 1, astack);
	stack[0].node = r->nodes[0].next;
	stack[0].in_check = position_in_check(&r->start);
	stack[0].pos = r->start;
	nstack = 1;
	while (nstack) {
		struct position pos = stack[nstack - 1].pos;
		int in_check = stack[nstack - 1].in_check;
		int32_t i = stack[--nstack].node;

		for (; i >= 0; i = r->nodes[i].next) {
			struct record_node *n = &r->nodes[i];
			char msg[160];
			const char *id = NULL;
			struct undo u;
			move m = MOVE_NONE;
			int rule;

			if (n->alt >= 0) {
				ALLOC_GROW(stack, nstack + 1, astack);
				stack[nstack].node = n->alt;
				stack[nstack].in_check = in_check;
				stack[nstack].pos = pos;
				nstack++;
			}
			if (n->special != SP_NONE) {
				if (main_line)
					out->terminal = i;
				break;
			}
			rule = resolve(r, i, &pos, in_check, &m, &id, msg,
			    sizeof(msg));
			if (rule == RULE_OK) {
				n->mv = m;
				n->rule = RULE_OK;
				position_do_move(&pos, m, &u);
				in_check = position_in_check_after(&pos, m);
				n->check = (uint8_t)in_check;
				n->key = position_key(&pos);
				if (main_line) {
					out->moves++;
					out->last = i;
				}
				if (visit &&
				    visit(w->ctx, &pos, i, main_line)) {
					out->stopped = 1;
					break;
				}
				continue;
			}
			n->mv = MOVE_NONE;
			n->rule = rule < 0 ? RULE_NB : (uint8_t)rule;
			if (rule >= 0) {
				id = rule_id_name(rule);
				snprintf(msg, sizeof(msg), "%s",
				    rule_description(rule));
			}
			if (main_line && out->illegal < 0) {
				int32_t t = n->next;
				enum color mover = pos.side;

				out->illegal = i;
				/* What the record says happened, though play stopped. */
				for (t = i; t >= 0 && r->nodes[t].special == SP_NONE;
				    t = r->nodes[t].next)
					;
				out->terminal = t;
				t = n->next;
				/* A foul the record itself ends the game with. */
				if (t >= 0 && (r->nodes[t].special == SP_ILLEGAL_WIN ||
				    (r->nodes[t].special == SP_ILLEGAL_BLACK &&
				    mover == BLACK) ||
				    (r->nodes[t].special == SP_ILLEGAL_WHITE &&
				    mover == WHITE))) {
					out->excused = 1;
					out->terminal = t;
				}
			}
			if (main_line && out->excused) {
				report(r, i, d, DIAG_NOTE, id, msg);
			} else {
				report(r, i, d, DIAG_ERROR, id, msg);
				errors++;
				if (!main_line)
					out->variation_errors++;
			}
			break;
		}
		if (main_line)
			out->final = pos;
		main_line = 0;
		if (out->stopped || (w && w->main_only))
			break;
	}
	free(stack);
	return errors;
}
