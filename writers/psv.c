/*
 * psv.c - PackedSfenValue rows (40 bytes, YaneuraOu's learner): per
 * position, its PackedSfen, the score for the side to move, the move
 * played in YaneuraOu's 16-bit form, gamePly, the result for the side to
 * move (1 it won, -1 it lost, 0 a draw) and a zero byte. gamePly is the
 * SFEN move number of the position (the record's start number plus the
 * plies before it), which is what YaneuraOu's game_ply() counts.
 */
#include "parsers/train.h"

#define PSV_ROW 40

enum train_skip
psv_write(const struct train_game *g, const struct train_opts *o,
    struct strbuf *out, size_t *rows)
{
	struct train_walk w;
	enum train_skip why = train_walk_start(&w, g, o,
	    TRAIN_TRACK_PSFEN);
	enum poscode_refusal r;
	size_t len = out->len;
	uint8_t *row;

	*rows = 0;
	if (why != TRAIN_WRITTEN)
		return why;
	while (train_walk_next(&w)) {
		if (w.ply < o->skip_plies)
			continue;
		if (w.move_number > 0xffff)
			return train_undo(out, len, rows, TRAIN_SKIP_GAME_PLY);
		row = train_append(out, PSV_ROW);
		if ((r = poscode_inc_write(&w.code, row)) != POSCODE_OK)
			return train_undo(out, len, rows, train_refusal(r));
		train_put16(row + 32, (unsigned)w.eval);
		train_put16(row + 34, move16_encode(MOVE16_YANEURAOU, w.mv));
		train_put16(row + 36, (unsigned)w.move_number);
		row[38] = (uint8_t)(int8_t)train_result_for(g, w.side);
		row[39] = 0;
		(*rows)++;
	}
	return *rows ? TRAIN_WRITTEN :
	    train_undo(out, len, rows, TRAIN_SKIP_NO_ROWS);
}
