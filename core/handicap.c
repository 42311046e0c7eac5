#include <stddef.h>
#include <string.h>

#include "core.h"
#include "core_private.h"
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

static void
build(enum handicap h, struct position *pos)
{
	/* The SFENs are constants that always read. */
	if (h == HANDICAP_MINISHOGI || !handicap_sfen(h))
		(void)sfen_read_uninit(pos, h == HANDICAP_MINISHOGI ?
		    variant_minishogi() : variant_standard(),
		    h == HANDICAP_MINISHOGI ? variant_minishogi()->start_sfen :
		    sfens[HANDICAP_EVEN], NULL);
	else
		(void)sfen_read_uninit(pos, variant_standard(), sfens[h], NULL);
}

/* The standard starts, built once by core_init() and only read after. */
static struct position starts[HANDICAP_NB];

void
handicap_init(void)
{
	int h;

	for (h = HANDICAP_EVEN; h < HANDICAP_NB; h++)
		build(h, &starts[h]);
}

void
handicap_position(enum handicap h, struct position *pos)
{
	core_init();
	*pos = starts[h > HANDICAP_NONE && h < HANDICAP_NB ? h : HANDICAP_EVEN];
}

enum handicap
handicap_identify(const struct position *pos)
{
	const struct position *q;
	int h;

	core_init();
	if (pos->v == variant_minishogi()) {
		q = &starts[HANDICAP_MINISHOGI];
		return position_key(q) == position_key(pos) ?
		    HANDICAP_MINISHOGI : HANDICAP_NONE;
	}
	for (h = HANDICAP_EVEN; h < HANDICAP_MINISHOGI; h++) {
		q = &starts[h];
		if (position_key(q) == position_key(pos) &&
		    memcmp(q->board, pos->board, sizeof(q->board)) == 0 &&
		    memcmp(q->hand, pos->hand, sizeof(q->hand)) == 0 &&
		    q->side == pos->side)
			return h;
	}
	return HANDICAP_NONE;
}
