/*
 * hcp.c - one 32-byte HCP per record: its start position, or with
 * --ply N the position after N plies of its main line (0 <= N <= the
 * plies of the game under the rules; the end position counts).
 */
#include "parsers/train.h"

enum train_skip
hcp_write(const struct train_game *g, const struct train_opts *o,
    struct strbuf *out, size_t *rows)
{
	struct train_opts all = *o;
	struct train_walk w;
	enum train_skip why;
	enum poscode_refusal r;
	uint8_t code[POSCODE_BYTES];

	*rows = 0;
	all.stop_at_eval = 0;	/* a ply is asked for, not an eval */
	if ((why = train_walk_start(&w, g, &all,
	    TRAIN_TRACK_HCP)) != TRAIN_WRITTEN)
		return why;
	while (w.ply < o->ply && train_walk_next(&w))
		;
	if (w.ply < o->ply)
		return TRAIN_SKIP_SHORT;
	if ((r = poscode_inc_write(&w.code, code)) != POSCODE_OK)
		return train_refusal(r);
	strbuf_add(out, code, sizeof(code));
	*rows = 1;
	return TRAIN_WRITTEN;
}
