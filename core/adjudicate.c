#include "adjudicate.h"
#include "rules.h"

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
