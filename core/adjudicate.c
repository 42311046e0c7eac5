/*
 * adjudicate.c - the result of a game under a rule set, and whether the
 * record agrees with it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adjudicate.h"
#include "handicap.h"
#include "rules.h"
#include "tsume.h"
#include "xalloc.h"

void
adjudicate_special(enum special sp, enum color s, struct game_result *res)
{
	enum winner self = s == BLACK ? WINNER_BLACK : WINNER_WHITE;
	enum winner other = s == BLACK ? WINNER_WHITE : WINNER_BLACK;

	res->winner = WINNER_NONE;
	res->reason = REASON_UNFINISHED;
	switch (sp) {
	case SP_RESIGN:
		res->winner = other;
		res->reason = REASON_RESIGN;
		break;
	case SP_TIME_UP:
		res->winner = other;
		res->reason = REASON_TIME_UP;
		break;
	case SP_ILLEGAL_MOVE:
		res->winner = other;
		res->reason = REASON_ILLEGAL_MOVE;
		break;
	case SP_ILLEGAL_WIN:
		res->winner = self;
		res->reason = REASON_ILLEGAL_MOVE;
		break;
	case SP_ILLEGAL_BLACK:
		res->winner = WINNER_WHITE;
		res->reason = REASON_ILLEGAL_MOVE;
		break;
	case SP_ILLEGAL_WHITE:
		res->winner = WINNER_BLACK;
		res->reason = REASON_ILLEGAL_MOVE;
		break;
	case SP_SENNICHITE:
		res->reason = REASON_SENNICHITE;
		break;
	case SP_IMPASSE:
		res->reason = REASON_IMPASSE;
		break;
	case SP_DECLARATION:
		res->winner = self;
		res->reason = REASON_DECLARATION;
		break;
	case SP_DRAW_DECLARATION:
		res->reason = REASON_DECLARATION;
		break;
	case SP_MAX_MOVES:
		res->reason = REASON_MAX_MOVES;
		break;
	case SP_MATE:
		res->winner = other;
		res->reason = REASON_CHECKMATE;
		break;
	case SP_ABORT:
		res->reason = REASON_ABORT;
		break;
	default:
		break;
	}
}

int
adjudicate_recorded(const struct record *r, const struct replay *rp,
    struct game_result *res, const char **raw)
{
	*raw = rp->terminal >= 0 ? record_str(r, r->nodes[rp->terminal].raw) :
	    "";
	if (r->has_recorded) {
		*res = r->recorded;
		return 1;
	}
	if (rp->terminal < 0) {
		res->winner = WINNER_NONE;
		res->reason = REASON_UNFINISHED;
		res->ply = rp->moves;
		return 0;
	}
	adjudicate_special(r->nodes[rp->terminal].special,
	    replay_side_at(r, rp->terminal), res);
	res->ply = r->nodes[rp->terminal].ply - 1;
	return 1;
}

void
adjudicate_basic(const struct record *r, const struct replay *rp,
    struct game_result *res)
{
	const char *raw;

	res->ply = rp->moves;
	if (rp->illegal >= 0) {
		/* The foul ends the game: its author loses. */
		res->winner = replay_side_at(r, rp->illegal) == BLACK ?
		    WINNER_WHITE : WINNER_BLACK;
		res->reason = REASON_ILLEGAL_MOVE;
		return;
	}
	switch (rules_play_state(&rp->final)) {
	case PLAY_CHECKMATE:
	case PLAY_STALEMATE:
		res->winner = rp->final.side == BLACK ? WINNER_WHITE :
		    WINNER_BLACK;
		res->reason = position_in_check(&rp->final) ?
		    REASON_CHECKMATE : REASON_STALEMATE;
		return;
	default:
		break;
	}
	if (rp->terminal >= 0) {
		adjudicate_special(r->nodes[rp->terminal].special,
		    replay_side_at(r, rp->terminal), res);
		res->ply = rp->moves;
		return;
	}
	if (adjudicate_recorded(r, rp, res, &raw)) {
		res->ply = rp->moves;
		return;
	}
	res->winner = WINNER_NONE;
	res->reason = REASON_UNFINISHED;
}

/*
 * The full adjudicator. Section numbers are ../shared/docs/rules.md.
 *
 * The game ends at the first of: a fourth occurrence of a position
 * (1.7), the move limit (1.9), a foul (1.6), no legal move (1.6), or
 * the record's terminal. Repetition is looked at before the limit on
 * each ply, as shogi-server does (2.1), and mate before the foul that
 * can only follow it.
 */

/* Points of a piece for declarations and impasse (1.8): R/B 5, king 0. */
static int
piece_points(enum piece_type pt)
{
	pt = pt_unpromoted(pt);
	if (pt == PT_KING || pt == PT_NONE)
		return 0;
	return pt == PT_BISHOP || pt == PT_ROOK ? 5 : 1;
}

int
adjudicate_points(const struct position *pos, enum color c, int zone_only)
{
	bitboard b = pos->by_color[c];
	int pts = 0, pt;

	if (zone_only)
		b &= pos->v->zone[c];
	while (b)
		pts += piece_points(piece_type_of(pos->board[bb_pop(&b)]));
	for (pt = PT_PAWN; pt < HAND_NB; pt++)
		pts += pos->hand[c][pt] * piece_points((enum piece_type)pt);
	return pts;
}

int
adjudicate_handicap_credit(const struct position *start,
    const struct position *pos)
{
	enum handicap h = handicap_identify(start);
	int full = 0, pt;

	if (h == HANDICAP_NONE || h == HANDICAP_EVEN ||
	    h == HANDICAP_MINISHOGI)
		return 0;
	/* Pieces are never lost, so what the full set lacks was removed. */
	for (pt = PT_PAWN; pt < PT_KING; pt++)
		full += pos->v->set_count[pt] * piece_points((enum piece_type)pt);
	return full - adjudicate_points(pos, BLACK, 0) -
	    adjudicate_points(pos, WHITE, 0);
}

static enum winner
winner_of(enum color c)
{
	return c == BLACK ? WINNER_BLACK : WINNER_WHITE;
}

static const char *
side_name(enum color c)
{
	return c == BLACK ? "Black" : "White";
}

void
adjudicate_declaration(const struct position *pos,
    enum declaration_rule rule, int credit, struct declaration *out)
{
	enum color c = pos->side;
	bitboard zone = pos->v->zone[c];
	int win;

	memset(out, 0, sizeof(*out));
	out->declarer = c;
	out->king_in_zone = pos->king[c] != SQ_NONE &&
	    bb_test(zone, pos->king[c]);
	out->in_check = position_in_check(pos);
	out->pieces = bb_count(pos->by_color[c] & zone) - out->king_in_zone;
	out->points = adjudicate_points(pos, c, 1) + credit;
	out->needed = rule == DECLARATION_24 ? 31 :
	    rule == DECLARATION_27 ? (c == BLACK ? 28 : 27) : 0;
	out->result.reason = REASON_DECLARATION;
	win = rule != DECLARATION_NONE && out->king_in_zone &&
	    !out->in_check && out->pieces >= 10;
	if (win && out->points >= out->needed)
		out->result.winner = winner_of(c);
	else if (win && rule == DECLARATION_24 && out->points >= 24)
		out->result.winner = WINNER_NONE;
	else
		out->result.winner = winner_of(color_flip(c));
}

/* Everything one adjudication works with. */
struct ctx {
	const struct record *r;
	const struct replay *rp;
	const struct ruleset *rs;
	struct adjudication *out;
	int extension;		/* the JSA check extension applies */
	int record_moves;	/* move nodes on the main line, fouls included */
	int32_t end_node;	/* node of the ply the game ended on; -1 */
	int final_count;	/* occurrences of the last position replayed */
};

/* One position of the game: how often it occurred, and first when. */
struct occurrence {
	uint64_t key;
	int count;		/* 0: empty slot */
	int first;		/* ply of the first occurrence */
};

/*
 * Slots a game's history takes from the stack: games of up to 340 moves.
 * Longer ones allocate; a batch check of short games would otherwise
 * spend more on calloc() than on counting.
 */
#define HISTORY_LOCAL 512

struct history {
	struct occurrence *slot;
	size_t mask;
	struct occurrence local[HISTORY_LOCAL];
};

static void
history_init(struct history *h, int positions)
{
	size_t n = 16;

	/* At most two thirds full: short probes, and little to clear. */
	while (n < (size_t)positions + (size_t)positions / 2)
		n *= 2;
	if (n <= HISTORY_LOCAL) {
		h->slot = h->local;
		memset(h->slot, 0, n * sizeof(*h->slot));
	} else {
		h->slot = xcalloc(n, sizeof(*h->slot));
	}
	h->mask = n - 1;
}

static void
history_release(struct history *h)
{
	if (h->slot != h->local)
		free(h->slot);
}

/* Counts one more occurrence of key at ply; returns its entry. */
static struct occurrence *
history_add(struct history *h, uint64_t key, int ply)
{
	size_t i = (size_t)(key ^ (key >> 29)) & h->mask;

	while (h->slot[i].count && h->slot[i].key != key)
		i = (i + 1) & h->mask;
	if (!h->slot[i].count) {
		h->slot[i].key = key;
		h->slot[i].first = ply;
	}
	h->slot[i].count++;
	return &h->slot[i];
}

static void
set_result(struct ctx *c, enum winner w, enum reason why, int ply)
{
	c->out->result.winner = w;
	c->out->result.reason = why;
	c->out->result.ply = ply;
}

/* snprintf for messages: a message too long for its buffer is cut. */
static void
textf(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
textf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vsnprintf(buf, size, fmt, ap) >= (int)size) {
		/* Drop a UTF-8 character the cut left incomplete. */
		size_t n = size - 1, i = n, need;
		unsigned char lead;

		while (i > 0 && ((unsigned char)buf[i - 1] & 0xc0) == 0x80)
			i--;
		if (i > 0) {
			lead = (unsigned char)buf[i - 1];
			need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 :
			    lead >= 0xc0 ? 2 : 1;
			if (i - 1 + need > n)
				buf[i - 1] = '\0';
		}
	}
	va_end(ap);
}

#define detail(c, ...) textf((c)->out->detail, sizeof((c)->out->detail), \
	__VA_ARGS__)

/* The side that makes move `ply` (1-based) of the game. */
static enum color
mover_of(const struct record *r, int ply)
{
	return (enum color)((r->start.side + ply - 1) & 1);
}

/*
 * The side that made the game's first move: the side to move at move
 * 1, reckoned back from the start's move number (a record that starts
 * from the middle of a game has played move_number - 1 moves before it).
 */
static enum color
first_mover(const struct record *r)
{
	return (enum color)((r->start.side + r->start.move_number - 1) & 1);
}

/* Whether side x made a move in plies from+1..to and every one gave check. */
static int
checked_throughout(const struct record *r, const uint8_t *checks, int from,
    int to, enum color x)
{
	int k, any = 0;

	for (k = from + 1; k <= to; k++) {
		if (mover_of(r, k) != x)
			continue;
		if (!checks[k])
			return 0;
		any = 1;
	}
	return any;
}

/*
 * A fourth occurrence at ply j of the position first seen at ply first
 * (1.7): the side that checked on every move since then loses, else a
 * draw, or under first-mover-loses (minishogi) a loss for the side that
 * made the game's first move. Both sides checking throughout cannot
 * happen in a real game and the rulebook gives no answer; the side that
 * made the fourth occurrence loses then, as in shogi-server's order of
 * tests (2.4).
 */
static void
repetition(struct ctx *c, const uint8_t *checks, int first, int j)
{
	enum color order[2];
	int i;

	order[0] = mover_of(c->r, j);
	order[1] = color_flip(order[0]);
	for (i = 0; i < 2; i++) {
		if (!checked_throughout(c->r, checks, first, j, order[i]))
			continue;
		set_result(c, winner_of(color_flip(order[i])),
		    REASON_PERPETUAL_CHECK, j);
		if (first == 0)
			detail(c, "%s gave check with every move from the "
			    "start, which occurred a fourth time",
			    side_name(order[i]));
		else
			detail(c, "%s gave check with every move since move "
			    "%d, whose position occurred a fourth time",
			    side_name(order[i]), first);
		return;
	}
	if (c->rs->repetition == REPETITION_FIRST_MOVER_LOSES) {
		enum color loser = first_mover(c->r);

		set_result(c, winner_of(color_flip(loser)), REASON_SENNICHITE,
		    j);
		if (first == 0)
			detail(c, "the start position occurred a fourth time, "
			    "which %s loses for making the game's first move",
			    side_name(loser));
		else
			detail(c, "the position after move %d occurred a "
			    "fourth time, which %s loses for making the game's "
			    "first move", first, side_name(loser));
		return;
	}
	set_result(c, WINNER_NONE, REASON_SENNICHITE, j);
	if (first == 0)
		detail(c, "the start position occurred a fourth time");
	else
		detail(c, "the position after move %d occurred a fourth time",
		    first);
}

/* The limit ends the game at ply j; checker: the extension's side, or -1. */
static void
limit_reached(struct ctx *c, int j, int checker)
{
	set_result(c, WINNER_NONE, REASON_MAX_MOVES, j);
	if (checker >= 0)
		detail(c, "the limit of %d moves, extended while %s gave check",
		    c->out->max_moves, side_name((enum color)checker));
	else
		detail(c, "the limit of %d moves%s", c->out->max_moves,
		    c->out->limit_from_record ? ", as the record states" : "");
}

/*
 * Mate on the ply that also reaches the limit: a mate for the JSA (a
 * result before the limit's draw), a max-moves draw for shogi-server,
 * which never looks for mate (1.9, 1.12).
 */
static void
mate_at_limit(struct ctx *c)
{
	enum play_state ps;

	if (!c->rs->mate_ends_game)
		return;
	ps = rules_play_state(&c->rp->final);
	if (ps != PLAY_CHECKMATE && ps != PLAY_STALEMATE)
		return;
	set_result(c, winner_of(color_flip(c->rp->final.side)),
	    ps == PLAY_CHECKMATE ? REASON_CHECKMATE : REASON_STALEMATE,
	    c->rp->moves);
	detail(c, "mate on the last move the limit of %d allows",
	    c->out->max_moves);
}

/*
 * Goes over the main line's legal moves, counting positions and checks
 * (replay left each move's key and whether it gave check on its node).
 * Returns 1 if repetition or the move limit ended the game on the way
 * (the result is set), 0 if play reached the end of the record.
 */
static int
walk(struct ctx *c)
{
	const struct record *r = c->r;
	int n = c->rp->moves, limit = c->out->max_moves, j, ended = 0;
	int checker = -1;
	struct history h;
	struct occurrence *o = NULL;
	int32_t node = r->nodes[0].next;
	/* checks[j]: move j gave check, as replay found */
	uint8_t local[HISTORY_LOCAL], *checks;

	checks = (size_t)n + 1 <= sizeof(local) ? local :
	    xcalloc((size_t)n + 1, 1);
	history_init(&h, n + 1);
	if (c->rs->repetition_counts_start)
		o = history_add(&h, position_key(&r->start), 0);
	for (j = 1; j <= n && !ended; j++, node = r->nodes[node].next) {
		/* Replay left the position's key on every legal move. */
		o = history_add(&h, r->nodes[node].key, j);
		checks[j] = r->nodes[node].check;
		c->end_node = node;
		if (o->count == 4) {
			repetition(c, checks, o->first, j);
			ended = 1;
		} else if (limit && j >= limit) {
			enum color mover = mover_of(r, j);

			if (c->extension && j == limit && checks[j]) {
				checker = (int)mover;
			} else if (checker < 0 || (mover == (enum color)checker &&
			    !checks[j])) {
				limit_reached(c, j, checker);
				if (j == n)
					mate_at_limit(c);
				ended = 1;
			}
		}
	}
	c->final_count = o ? o->count : 0;
	if (!ended)
		c->end_node = -1;
	history_release(&h);
	if (checks != local)
		free(checks);
	return ended;
}

/* The side to move declares (1.8b, 1.8d) on the final position. */
static void
declaration(struct ctx *c)
{
	const struct position *fin = &c->rp->final;
	struct declaration d;
	int credit[COLOR_NB], s;
	const char *who = side_name(fin->side);

	for (s = 0; s < COLOR_NB; s++) {
		credit[s] = c->rs->handicap_credit && s == WHITE ?
		    adjudicate_handicap_credit(&c->r->start, fin) : 0;
		c->out->points[s] = adjudicate_points(fin, (enum color)s, 1) +
		    credit[s];
	}
	c->out->has_points = 1;
	adjudicate_declaration(fin, c->rs->declaration, credit[fin->side], &d);
	set_result(c, d.result.winner, REASON_DECLARATION, c->rp->moves);
	if (c->rs->declaration == DECLARATION_NONE)
		detail(c, "%s declares, but no declaration rule is in force",
		    who);
	else if (!d.king_in_zone)
		detail(c, "%s declares with the king outside the zone", who);
	else if (d.in_check)
		detail(c, "%s declares in check", who);
	else if (d.pieces < 10)
		detail(c, "%s declares with %d pieces in the zone (10 needed)",
		    who, d.pieces);
	else if (d.points < d.needed)
		detail(c, "%s declares with %d points (%d to win%s)", who,
		    d.points, d.needed, c->rs->declaration == DECLARATION_24 ?
		    ", 24 to draw" : "");
	else
		detail(c, "%s declares with %d points (%d to win), %d pieces "
		    "and the king in the zone, not in check", who, d.points,
		    d.needed, d.pieces);
}

/* An agreed impasse: every piece counts (1.8a, 1.8c). */
static void
impasse(struct ctx *c)
{
	const struct position *fin = &c->rp->final;
	int b, w, credit;
	enum winner win = WINNER_NONE;

	credit = c->rs->handicap_credit ?
	    adjudicate_handicap_credit(&c->r->start, fin) : 0;
	b = c->out->points[BLACK] = adjudicate_points(fin, BLACK, 0);
	w = c->out->points[WHITE] = adjudicate_points(fin, WHITE, 0) + credit;
	c->out->has_points = 1;
	if (c->rs->impasse == IMPASSE_24) {
		/* Under 24 loses; both under 24 (no real game) is a draw. */
		if (b < 24 && w >= 24)
			win = WINNER_WHITE;
		else if (w < 24 && b >= 24)
			win = WINNER_BLACK;
		detail(c, "Black has %d points, White %d (under 24 loses)",
		    b, w);
	} else {
		if (b >= 28 && w < 27)
			win = WINNER_BLACK;
		else if (w >= 27 && b < 28)
			win = WINNER_WHITE;
		detail(c, "Black has %d points, White %d (Black needs 28, "
		    "White 27)", b, w);
	}
	set_result(c, win, REASON_IMPASSE, c->rp->moves);
}

static int
out_of_band(enum reason why)
{
	return why == REASON_RESIGN || why == REASON_TIME_UP ||
	    why == REASON_ABORT || why == REASON_ILLEGAL_MOVE;
}

/*
 * An ending no position shows (resignation, time, abort, a foul the
 * record does not hold): the record's word is all there is. Its summary
 * or まで line when it has one, as Floodgate's summary is the only place
 * that names the winner of an "abnormal" game (%TORYO either way), else
 * the terminal.
 */
static void
take_record_word(struct ctx *c, enum special sp)
{
	struct game_result res;

	if (c->r->has_recorded && out_of_band(c->r->recorded.reason))
		res = c->r->recorded;
	else
		adjudicate_special(sp, c->rp->final.side, &res);
	set_result(c, res.winner, res.reason, c->rp->moves);
}

/*
 * What the rules make of an ending the record claims; the claim is why.
 * A foul the record names without holding the move (CSA %ILLEGAL_MOVE
 * and %±ILLEGAL_ACTION, 反則勝ち after a legal move, a Floodgate
 * 'illegal move' summary) is taken at its word: servers do not record
 * the move they refuse, and not every foul is a move.
 */
static void
claimed(struct ctx *c, enum reason why, enum special sp)
{
	switch (why) {
	case REASON_DECLARATION:
		declaration(c);
		return;
	case REASON_IMPASSE:
		impasse(c);
		return;
	case REASON_SENNICHITE:
	case REASON_PERPETUAL_CHECK:
		detail(c, "no position occurred four times (the last one %d "
		    "time%s)", c->final_count, c->final_count == 1 ? "" : "s");
		return;
	case REASON_MAX_MOVES:
		if (c->out->max_moves)
			detail(c, "the limit is %d moves", c->out->max_moves);
		else
			detail(c, "no move limit is in force");
		return;
	case REASON_CHECKMATE:
	case REASON_STALEMATE:
		detail(c, "the final position is not mate");
		return;
	default:
		break;
	}
	take_record_word(c, sp);
}

/* The game went on to the end of the record: how does it end there? */
static void
judge_end(struct ctx *c)
{
	const struct record *r = c->r;
	const struct replay *rp = c->rp;
	int32_t t = rp->terminal;
	enum special sp = t >= 0 ? (enum special)r->nodes[t].special : SP_NONE;
	enum play_state ps = rules_play_state(&rp->final);
	struct game_result res;

	set_result(c, WINNER_NONE, REASON_UNFINISHED, rp->moves);
	if (ps == PLAY_CHECK && rp->illegal < 0 &&
	    c->rs->futile_interposition && tsume_mated(&rp->final)) {
		ps = PLAY_CHECKMATE;
		detail(c, "mate: the only replies are futile interpositions");
	}
	if ((ps == PLAY_CHECKMATE || ps == PLAY_STALEMATE) &&
	    (c->rs->mate_ends_game || sp == SP_MATE ||
	    (t < 0 && !r->has_recorded))) {
		set_result(c, winner_of(color_flip(rp->final.side)),
		    ps == PLAY_CHECKMATE ? REASON_CHECKMATE : REASON_STALEMATE,
		    rp->moves);
		c->end_node = rp->last;		/* the root if no move */
		return;
	}
	if (rp->illegal >= 0) {
		const struct record_node *n = &r->nodes[rp->illegal];

		set_result(c, winner_of(color_flip(replay_side_at(r,
		    rp->illegal))), REASON_ILLEGAL_MOVE, rp->moves);
		if (n->rule > RULE_OK && n->rule < RULE_NB)
			detail(c, "move %d '%s' breaks a rule (%s)", n->ply,
			    record_str(r, n->raw),
			    rule_id_name((enum rule_id)n->rule));
		else
			detail(c, "move %d '%s' cannot be played", n->ply,
			    record_str(r, n->raw));
		return;
	}
	if (t >= 0) {
		adjudicate_special(sp, rp->final.side, &res);
		if (sp == SP_DRAW_DECLARATION)
			res.reason = REASON_DECLARATION;
		claimed(c, res.reason, sp);
		return;
	}
	if (r->has_recorded)
		claimed(c, r->recorded.reason, SP_NONE);
}

/*
 * Whether the rules' result bears out what the record claims. Different
 * words for the same ending agree: resigning or losing on time in a
 * mated position; 持将棋 for the move-limit draw (JSA calls its 500-move
 * end one, tsshogi writes it so); a foul (反則勝ち, %±ILLEGAL_ACTION) for
 * perpetual check. A suspended game or an unknown word claims nothing.
 */
static int
compatible(const struct game_result *claim, const struct game_result *res,
    const struct ruleset *rs)
{
	if (claim->reason == REASON_UNFINISHED || claim->reason == REASON_ABORT)
		return 1;
	/*
	 * 千日手, %SENNICHITE and rep_draw name the ending, not a winner:
	 * under first-mover-loses the rule set gives the winner.
	 */
	if (claim->reason == REASON_SENNICHITE &&
	    claim->winner == WINNER_NONE && res->reason == REASON_SENNICHITE &&
	    rs->repetition == REPETITION_FIRST_MOVER_LOSES)
		return 1;
	if (claim->winner != res->winner)
		return 0;
	if (claim->reason == res->reason)
		return 1;
	switch (claim->reason) {
	case REASON_RESIGN:
	case REASON_TIME_UP:
		return res->reason == REASON_CHECKMATE ||
		    res->reason == REASON_STALEMATE;
	case REASON_IMPASSE:
		return res->reason == REASON_MAX_MOVES;
	case REASON_MAX_MOVES:
		return res->reason == REASON_IMPASSE;
	case REASON_ILLEGAL_MOVE:
		return res->reason == REASON_PERPETUAL_CHECK;
	default:
		return 0;
	}
}

/* "Black wins by checkmate", "draw by sennichite", "no result". */
static void
describe(const struct game_result *res, char *buf, size_t size)
{
	if (res->reason == REASON_UNFINISHED)
		textf(buf, size, "the game is not over");
	else if (res->reason == REASON_ABORT)
		textf(buf, size, "the game was suspended");
	else if (res->winner == WINNER_NONE)
		textf(buf, size, "draw by %s", reason_name(res->reason));
	else
		textf(buf, size, "%s wins by %s",
		    side_name(res->winner == WINNER_BLACK ? BLACK : WHITE),
		    reason_name(res->reason));
}

/*
 * Quotes what the record wrote (a summary comment loses its quote), cut
 * to a readable length at a character boundary.
 */
static void
quote(const char *s, char *buf, size_t size)
{
	size_t n, max = 60;

	if (*s == '\'')
		s++;
	n = strlen(s);
	if (!n) {
		buf[0] = '\0';
		return;
	}
	if (n > max) {
		n = max;
		while (n && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	textf(buf, size, " ('%.*s%s')", (int)n, s, n < strlen(s) ?
	    "..." : "");
}

/* Compares the rules' result with the record; sets consistent and message. */
static void
compare(struct ctx *c)
{
	struct adjudication *out = c->out;
	const struct record *r = c->r;
	char said[96], ruled[96], q[96];
	char why[ADJ_TEXT_MAX + 2];
	int agrees = !out->has_claim ||
	    compatible(&out->claim, &out->result, c->rs);
	int32_t after = c->end_node >= 0 ? r->nodes[c->end_node].next : -1;
	int goes_on = after >= 0 && r->nodes[after].special == SP_NONE &&
	    out->result.reason != REASON_ILLEGAL_MOVE &&
	    out->result.ply < c->record_moves;

	out->consistent = agrees && !goes_on;
	out->node = goes_on ? after : c->rp->terminal;
	if (out->consistent)
		return;
	describe(&out->claim, said, sizeof(said));
	describe(&out->result, ruled, sizeof(ruled));
	quote(r->has_recorded ? record_str(r, r->recorded_raw) : out->raw, q,
	    sizeof(q));
	textf(why, sizeof(why), "%s%s", out->detail[0] ? ": " : "",
	    out->detail);
	if (goes_on)
		textf(out->message, sizeof(out->message), "under %s rules "
		    "the game ended at move %d, %s%s; the record goes on to "
		    "move %d%s%s%s", out->rules, out->result.ply, ruled, why,
		    c->record_moves, agrees ? "" : " and says ",
		    agrees ? "" : said, agrees ? "" : q);
	else if (out->result.reason == REASON_UNFINISHED)
		textf(out->message, sizeof(out->message), "the record says "
		    "%s%s, but under %s rules the game is not over at move "
		    "%d%s", said, q, out->rules, out->result.ply, why);
	else if (out->result.reason == REASON_ILLEGAL_MOVE)
		textf(out->message, sizeof(out->message), "the record says "
		    "%s%s, but under %s rules %s%s", said, q, out->rules,
		    ruled, why);
	else
		textf(out->message, sizeof(out->message), "the record says "
		    "%s%s, but under %s rules %s at move %d%s", said, q,
		    out->rules, ruled, out->result.ply, why);
}

/* Digits at the start of s, ASCII or full-width; -1 if none. */
static int
read_count(const char *s)
{
	long v = 0;
	int digits = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	for (;;) {
		int d;

		if (*s >= '0' && *s <= '9') {
			d = *s++ - '0';
		} else if ((unsigned char)s[0] == 0xef &&
		    (unsigned char)s[1] == 0xbc &&
		    (unsigned char)s[2] >= 0x90 && (unsigned char)s[2] <= 0x99) {
			d = (unsigned char)s[2] - 0x90;
			s += 3;
		} else {
			break;
		}
		if (v > 100000000)
			return -1;
		v = v * 10 + d;
		digits++;
	}
	return digits ? (int)v : -1;
}

/*
 * The limit a record states: CSA V3 $MAX_MOVES and KIF 最大手数 headers,
 * or the 'Max_Moves:N comment shogi-server writes before the position
 * (rules.md 2.6). -1 if it states none.
 */
int
adjudicate_stated_limit(const struct record *r)
{
	const struct record_header *h = record_find_header(r, HDR_MAX_MOVES);
	const char *s = record_str(r, r->nodes[0].comment);
	static const char key[] = "Max_Moves:";

	if (h && read_count(record_str(r, h->value)) >= 0)
		return read_count(record_str(r, h->value));
	while (*s) {
		if (strncmp(s, key, sizeof(key) - 1) == 0)
			return read_count(s + sizeof(key) - 1);
		s = strchr(s, '\n');
		if (!s)
			break;
		s++;
	}
	return -1;
}

/*
 * The limit in force: one given on the command line, else the record's,
 * else the rule set's. The JSA check extension goes with the rule set's
 * own limit only: a record that states its limit was played on a server
 * that stops on that ply.
 */
static void
set_limit(struct ctx *c)
{
	int n = adjudicate_stated_limit(c->r);

	c->out->max_moves = c->rs->max_moves;
	c->extension = c->rs->check_extension;
	if (!(c->rs->overridden & (1u << RS_MAX_MOVES)) && n >= 0) {
		c->out->max_moves = n;
		c->out->limit_from_record = 1;
		c->extension = 0;
	}
}

void
adjudicate(const struct record *r, const struct replay *rp,
    const struct ruleset *rs, struct adjudication *out)
{
	struct ctx c;

	memset(out, 0, sizeof(*out));
	memset(&c, 0, sizeof(c));
	c.r = r;
	c.rp = rp;
	c.rs = rs;
	c.out = out;
	c.end_node = -1;
	c.record_moves = record_main_moves(r);
	ruleset_describe(rs, out->rules, sizeof(out->rules));
	out->has_claim = adjudicate_recorded(r, rp, &out->claim, &out->raw);
	set_limit(&c);
	if (!walk(&c))
		judge_end(&c);
	compare(&c);
}
