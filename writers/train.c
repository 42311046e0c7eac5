/*
 * train.c - what the training-row writers share: walking a record's
 * rows, and the result fields.
 */
#include "parsers/evaluation.h"
#include "parsers/train.h"
#include "core/sfen.h"

#define SKIP_NAME(e, id, what) id,
static const char *const skip_names[] = { TRAIN_SKIP_LIST(SKIP_NAME) };
#undef SKIP_NAME
#define SKIP_WHAT(e, id, what) what,
static const char *const skip_what[] = { TRAIN_SKIP_LIST(SKIP_WHAT) };
#undef SKIP_WHAT

const char *
train_skip_name(enum train_skip s)
{
	return (unsigned)s < TRAIN_SKIP_NB ? skip_names[s] : "written";
}

const char *
train_skip_description(enum train_skip s)
{
	return (unsigned)s < TRAIN_SKIP_NB ? skip_what[s] : "";
}

/* The main line's first move node, or -1. */
static int32_t
first_move(const struct record *r)
{
	return train_next_move(r, 0);
}

/* The plies that have rows: up to the end the rules give. */
static int
rows_end(const struct train_game *g)
{
	int end = g->adj->result.ply;

	if (end > g->rp->moves)		/* cannot happen; kept safe */
		end = g->rp->moves;
	return end < 0 ? 0 : end;
}

/* Whether both sides have an evaluation on a move of theirs. */
static int
both_sides_evaluated(const struct record *r, int end)
{
	int seen[COLOR_NB] = { 0, 0 }, ply = 0;
	enum color side = r->start.side;
	int32_t i;

	for (i = first_move(r); i >= 0 && ply < end; i = train_next_move(r, i)) {
		struct evaluation e;

		if (!seen[side]) {
			evaluation_read(record_str(r, r->nodes[i].comment), &e);
			seen[side] = e.has;
		}
		if (seen[BLACK] && seen[WHITE])
			return 1;
		side = color_flip(side);
		ply++;
	}
	return 0;
}

enum train_skip
train_walk_start(struct train_walk *w, const struct train_game *g,
    const struct train_opts *o, enum train_track track)
{
	const struct record *r = g->r;
	enum poscode_refusal why;
	struct sfen_error se;

	w->g = g;
	w->o = o;
	w->track = track;
	w->side = r->start.side;
	w->move_number = r->start.move_number;
	w->ply = 0;
	w->end = rows_end(g);
	w->node = first_move(r);
	w->mv = MOVE_NONE;
	w->eval = 0;
	w->has_eval = 0;
	w->last = 0;
	w->started = 0;
	if (g->rp->illegal >= 0 && !g->rp->excused)
		return TRAIN_SKIP_ILLEGAL;
	/*
	 * Legal moves keep the piece counts, the kings and the variant: what
	 * the start's code can hold, every position's can.
	 */
	why = poscode_inc_start(&w->code, track == TRAIN_TRACK_PSFEN ?
	    POSCODE_PSFEN : POSCODE_HCP, &r->start);
	if (why != POSCODE_OK)
		return train_refusal(why);
	if (position_validate(&r->start, &se) != SFEN_OK)
		return TRAIN_SKIP_IMPOSSIBLE;
	if (o->require_eval && !both_sides_evaluated(r, w->end))
		return TRAIN_SKIP_NO_EVAL;
	if (track == TRAIN_TRACK_POSITION)
		w->pos = r->start;
	return TRAIN_WRITTEN;
}

void
train_walk_eval(struct train_walk *w, const struct record_node *n)
{
	struct evaluation e;

	evaluation_read(record_str(w->g->r, n->comment), &e);
	w->has_eval = e.has;
	w->eval = evaluation_for(&e, w->side);
	if (w->o->stop_at_eval > 0 && evaluation_at_least(&e,
	    w->o->stop_at_eval))
		w->last = 1;
}

void
train_walk_play(struct train_walk *w)
{
	struct undo u;

	position_do_move(&w->pos, w->mv, &u);
}

int
train_winner(const struct train_game *g)
{
	switch (g->adj->result.winner) {
	case WINNER_BLACK: return 1;
	case WINNER_WHITE: return 2;
	default: return 0;
	}
}

int
train_hcpe3_result(const struct train_game *g)
{
	int res = train_winner(g);

	switch (g->adj->result.reason) {
	case REASON_SENNICHITE: return res | 4;	/* a draw by repetition */
	case REASON_DECLARATION: return res | 8;
	case REASON_MAX_MOVES: return res | 16;
	default: return res;
	}
}

int
train_result_for(const struct train_game *g, enum color to_move)
{
	enum winner w = g->adj->result.winner;

	if (w == WINNER_NONE)
		return 0;
	return (w == WINNER_BLACK) == (to_move == BLACK) ? 1 : -1;
}

enum train_skip
train_refusal(enum poscode_refusal r)
{
	switch (r) {
	case POSCODE_VARIANT: return TRAIN_SKIP_VARIANT;
	case POSCODE_NO_KING: return TRAIN_SKIP_NO_KING;
	case POSCODE_TOO_MANY: return TRAIN_SKIP_TOO_MANY_PIECES;
	case POSCODE_OK: break;
	}
	return TRAIN_WRITTEN;
}

enum train_skip
train_undo(struct strbuf *out, size_t len, size_t *rows, enum train_skip why)
{
	out->len = len;
	if (out->alloc)
		out->buf[len] = '\0';
	*rows = 0;
	return why;
}
