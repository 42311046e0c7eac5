/*
 * sfen_rows.c - training rows as text, one line a position:
 * SFEN<TAB>move<TAB>eval<TAB>result. The SFEN carries its move number and
 * no "sfen " keyword; the move is USI; the eval is for the side to move
 * (as in HCPE), "-" when the move had no evaluation comment; the result
 * is for the side to move: 1 it won, -1 it lost, 0 a draw.
 */
#include "parsers/train.h"
#include "core/sfen.h"
#include "core/usi.h"

enum train_skip
sfen_rows_write(const struct train_game *g, const struct train_opts *o,
    struct strbuf *out, size_t *rows)
{
	struct train_walk w;
	enum train_skip why = train_walk_start(&w, g, o,
	    TRAIN_TRACK_POSITION);
	size_t len = out->len;

	*rows = 0;
	if (why != TRAIN_WRITTEN)
		return why;
	while (train_walk_next(&w)) {
		char sfen[SFEN_MAX], usi[USI_MOVE_MAX];

		if (w.ply < o->skip_plies)
			continue;
		sfen_write(&w.pos, sfen);
		usi_format_move(w.mv, usi);
		strbuf_adds(out, sfen);
		strbuf_addc(out, '\t');
		strbuf_adds(out, usi);
		if (w.has_eval)
			strbuf_addf(out, "\t%d\t%d\n", w.eval,
			    train_result_for(g, w.pos.side));
		else
			strbuf_addf(out, "\t-\t%d\n",
			    train_result_for(g, w.pos.side));
		(*rows)++;
	}
	return *rows ? TRAIN_WRITTEN :
	    train_undo(out, len, rows, TRAIN_SKIP_NO_ROWS);
}
