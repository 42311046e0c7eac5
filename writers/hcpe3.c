/*
 * hcpe3.c - HCPE3 games (DeepLearningShogi), as dlshogi's csa_to_hcpe3.py
 * writes a record: the header (the start's HCP, the number of moves, the
 * result byte, opponent 0), then per move a MoveInfo (the move in
 * cshogi's form, the eval for the side to move, the candidate count) and
 * one MoveVisits (the move played, visit count 1): a record's '** line
 * has a principal variation, not a candidate list. The first
 * --skip-plies moves get candidate count 0 and no MoveVisits: dlshogi
 * replays them but trains on no position of theirs.
 */
#include "parsers/train.h"

#define HEADER 36

enum train_skip
hcpe3_write(const struct train_game *g, const struct train_opts *o,
    struct strbuf *out, size_t *rows)
{
	struct train_walk w;
	enum train_skip why = train_walk_start(&w, g, o,
	    TRAIN_TRACK_MOVES);
	size_t len = out->len;
	uint8_t head[HEADER], info[10];
	unsigned moves = 0;

	*rows = 0;
	if (why != TRAIN_WRITTEN)
		return why;
	/* The walk holds the start's code; it plays no move for hcpe3. */
	if (poscode_inc_write(&w.code, head) != POSCODE_OK)
		return TRAIN_SKIP_TOO_MANY_PIECES;	/* cannot be */
	head[34] = (uint8_t)train_hcpe3_result(g);
	head[35] = 0;
	strbuf_add(out, head, sizeof(head));
	while (train_walk_next(&w)) {
		int cand = w.ply >= o->skip_plies;
		unsigned m16 = move16_encode(MOVE16_CSHOGI, w.mv);

		if (++moves > HCPE3_MAX_MOVES)
			return train_undo(out, len, rows, TRAIN_SKIP_TOO_LONG);
		train_put16(info, m16);
		train_put16(info + 2, (unsigned)w.eval);
		train_put16(info + 4, (unsigned)cand);
		train_put16(info + 6, m16);
		train_put16(info + 8, 1);
		strbuf_add(out, info, cand ? 10 : 6);
		*rows += (size_t)cand;
	}
	if (!*rows)
		return train_undo(out, len, rows, TRAIN_SKIP_NO_ROWS);
	train_put16((uint8_t *)out->buf + len + 32, moves);
	return TRAIN_WRITTEN;
}
