/*
 * psv.c - reading PackedSfenValue rows (YaneuraOu, 40 bytes): the
 * PackedSfen of the position, the score (s16), the move in YaneuraOu's
 * 16-bit form, gamePly (u16), the result for the side to move (s8: 1, 0,
 * -1) and a pad byte, which is not looked at.
 */
#include "train.h"

#define PSV_ROW 40

enum train_read_status
psv_read(struct train_reader *rd, struct train_row *row,
    struct train_error *err)
{
	enum train_read_status st;
	const uint8_t *p = train_fixed_row(rd, PSV_ROW, row, err, &st);
	int res;

	if (!p)
		return st;
	if ((st = train_read_position(POSCODE_PSFEN, p, row, err)) !=
	    TRAIN_ROW)
		return st;
	res = (int)(int8_t)p[38];
	if (res < -1 || res > 1)
		return train_row_error(err, row, "bad-result", "game_result %d "
		    "is none of 1 (the side to move won), 0, -1", res);
	row->has_eval = 1;
	row->eval = train_s16(p + 32);
	row->has_ply = 1;
	row->ply = (int)train_u16(p + 36);
	/* gensfen's 0-based plies start at 0, which is no move number */
	if (row->ply > 0)
		row->pos.move_number = row->ply;
	row->has_result = 1;
	row->result = res;
	return train_read_move(MOVE16_YANEURAOU, train_u16(p + 34), row, err);
}
