/*
 * hcpe.c - HCPE rows (38 bytes, as cshogi and dlshogi's csa_to_hcpe.py
 * write them): per position, its HCP, the eval for the side to move, the
 * move played from it in cshogi's 16-bit form, the winner (0 draw, 1
 * Black, 2 White) and a zero byte.
 */
#include "parsers/train.h"

#define HCPE_ROW 38

enum train_skip
hcpe_write(const struct train_game *g, const struct train_opts *o,
    struct strbuf *out, size_t *rows)
{
	struct train_walk w;
	enum train_skip why = train_walk_start(&w, g, o,
	    TRAIN_TRACK_HCP);
	enum poscode_refusal r;
	size_t len = out->len;
	uint8_t winner = (uint8_t)train_winner(g), *row;

	*rows = 0;
	if (why != TRAIN_WRITTEN)
		return why;
	while (train_walk_next(&w)) {
		if (w.ply < o->skip_plies)
			continue;
		row = train_append(out, HCPE_ROW);
		if ((r = poscode_inc_write(&w.code, row)) != POSCODE_OK)
			return train_undo(out, len, rows, train_refusal(r));
		train_put16(row + 32, (unsigned)w.eval);
		train_put16(row + 34, move16_encode(MOVE16_CSHOGI, w.mv));
		row[36] = winner;
		row[37] = 0;
		(*rows)++;
	}
	return *rows ? TRAIN_WRITTEN :
	    train_undo(out, len, rows, TRAIN_SKIP_NO_ROWS);
}
