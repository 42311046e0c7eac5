#include <stddef.h>
#include <string.h>

#include "handicap.h"
#include "sfen.h"

#define HC_NAME(e, id, sfen) id,
static const char *const names[] = { HANDICAP_LIST(HC_NAME) };
#undef HC_NAME
#define HC_SFEN(e, id, sfen) sfen,
static const char *const sfens[] = { HANDICAP_LIST(HC_SFEN) };
#undef HC_SFEN

const char *
handicap_name(enum handicap h)
{
	return (unsigned)h < HANDICAP_NB ? names[h] : "none";
}

const char *
handicap_sfen(enum handicap h)
{
	return (unsigned)h < HANDICAP_NB ? sfens[h] : NULL;
}

void
handicap_position(enum handicap h, struct position *pos)
{
	if (h == HANDICAP_MINISHOGI || !handicap_sfen(h)) {
		position_set_start(pos, h == HANDICAP_MINISHOGI ?
		    variant_minishogi() : variant_standard());
		return;
	}
	/* The table's SFENs are constants that always read. */
	(void)sfen_read(pos, variant_standard(), sfens[h], NULL);
}

enum handicap
handicap_identify(const struct position *pos)
{
	struct position q;
	int h;

	if (pos->v == variant_minishogi()) {
		position_set_start(&q, pos->v);
		return position_key(&q) == position_key(pos) ?
		    HANDICAP_MINISHOGI : HANDICAP_NONE;
	}
	for (h = HANDICAP_EVEN; h < HANDICAP_MINISHOGI; h++) {
		handicap_position(h, &q);
		if (position_key(&q) == position_key(pos) &&
		    memcmp(q.board, pos->board, sizeof(q.board)) == 0 &&
		    memcmp(q.hand, pos->hand, sizeof(q.hand)) == 0 &&
		    q.side == pos->side)
			return h;
	}
	return HANDICAP_NONE;
}
