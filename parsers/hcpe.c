/*
 * hcpe.c - reading HCPE rows (HuffmanCodedPosAndEval, 38 bytes: cshogi,
 * dlshogi): the HCP of the position, the eval (s16), the move played in
 * cshogi's 16-bit form, the result byte and a pad byte. HCPE2's flags in
 * the result byte (4 sennichite, 8 declaration, 16 move limit) are read
 * too; the pad byte is not looked at.
 */
#include "train.h"

#define HCPE_ROW 38

enum train_read_status
hcpe_read(struct train_reader *rd, struct train_row *row,
    struct train_error *err)
{
	enum train_read_status st;
	const uint8_t *p = train_fixed_row(rd, HCPE_ROW, row, err, &st);
	int res;

	if (!p)
		return st;
	if ((st = train_read_position(POSCODE_HCP, p, row, err)) != TRAIN_ROW)
		return st;
	res = p[36];
	if ((res & 3) == 3 || (res & ~0x1f))
		return train_row_error(err, row, "bad-result", "gameResult %d "
		    "is none of 0 (draw), 1 (Black), 2 (White) with HCPE2's "
		    "flags 4, 8, 16", res);
	row->has_eval = 1;
	row->eval = train_s16(p + 32);
	row->has_result = 1;
	row->result = res;
	return train_read_move(MOVE16_CSHOGI, train_u16(p + 34), row, err);
}
