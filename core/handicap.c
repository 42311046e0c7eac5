#include <stddef.h>
#include <string.h>

#include "core.h"
#include "core_private.h"
#include "handicap.h"
#include "sfen.h"
#include "zobrist.h"

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

/*
 * lishogi's minishogi handicaps (shogiops src/handicaps.ts): the files
 * of White's first rank they take the pieces off, White (上手) to move.
 */
static const char *const mini_odds_files[] = {
	"4",		/* 角落ち    r1sgk/4p/5/P4/KGSBR w - 1 */
	"5",		/* 飛車落ち  1bsgk/4p/5/P4/KGSBR w - 1 */
	"54",		/* 二枚落ち  2sgk/4p/5/P4/KGSBR w - 1 */
	"543",		/* 三枚落ち  3gk/4p/5/P4/KGSBR w - 1 */
	"5432",		/* 四枚落ち  4k/4p/5/P4/KGSBR w - 1 */
};

#define N_MINI_ODDS (sizeof(mini_odds_files) / sizeof(mini_odds_files[0]))

static struct position mini_odds[N_MINI_ODDS];

void
handicap_init(void)
{
	const char *f;
	size_t i;
	int h;

	for (h = HANDICAP_EVEN; h < HANDICAP_NB; h++)
		build(h, &starts[h]);
	for (i = 0; i < N_MINI_ODDS; i++) {
		mini_odds[i] = starts[HANDICAP_MINISHOGI];
		for (f = mini_odds_files[i]; *f; f++)
			position_remove(&mini_odds[i], sq_make(*f - '1', 0));
		mini_odds[i].side = WHITE;
		mini_odds[i].board_key ^= zobrist_side;
	}
}

void
handicap_position(enum handicap h, struct position *pos)
{
	core_init();
	*pos = starts[h > HANDICAP_NONE && h < HANDICAP_NB ? h : HANDICAP_EVEN];
}

/* The same board, hands and side to move. */
static int
same_start(const struct position *q, const struct position *pos)
{
	return position_key(q) == position_key(pos) &&
	    memcmp(q->board, pos->board, sizeof(q->board)) == 0 &&
	    memcmp(q->hand, pos->hand, sizeof(q->hand)) == 0 &&
	    q->side == pos->side;
}

int
handicap_minishogi_odds(const struct position *pos)
{
	size_t i;

	core_init();
	if (pos->v != variant_minishogi())
		return 0;
	for (i = 0; i < N_MINI_ODDS; i++)
		if (same_start(&mini_odds[i], pos))
			return 1;
	return 0;
}

enum handicap
handicap_identify(const struct position *pos)
{
	int h;

	core_init();
	if (pos->v == variant_minishogi())
		return same_start(&starts[HANDICAP_MINISHOGI], pos) ?
		    HANDICAP_MINISHOGI : HANDICAP_NONE;
	for (h = HANDICAP_EVEN; h < HANDICAP_MINISHOGI; h++)
		if (same_start(&starts[h], pos))
			return h;
	return HANDICAP_NONE;
}
