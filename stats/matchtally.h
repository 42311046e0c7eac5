/*
 * matchtally.h - the count of an engine match, pairing by pairing: W/D/L
 * from the first engine's (A's) view, the same by the colour A had, the
 * pentanomial pairs as the second game of each pair comes in, and the
 * SPRT's verdict once it is reached. `kifu match` counts the games it
 * plays with it and `kifu match --report` the games of results files,
 * so that both print the same figures (stats/elo.h computes them).
 *
 * Pure: no I/O, no global state; a tally set belongs to one thread.
 */
#ifndef KIFU_STATS_MATCHTALLY_H
#define KIFU_STATS_MATCHTALLY_H

#include <stddef.h>

#include "elo.h"
#include "core/strbuf.h"
#include "core/types.h"

/* A pair's first game, waiting for its partner. */
struct match_pending {
	long long source, pair;		/* which pair: see match_tally_add */
	int half;			/* A's half points in it */
};

struct match_tally {
	int a, b;			/* the engines (the caller's numbers) */
	long long w, d, l;		/* A's */
	long long color[COLOR_NB][3];	/* A as that colour: w, d, l */
	long long pairs[PAIR_NB];
	struct match_pending *pend;	/* owned */
	size_t npend, apend;
	/* The verdict the match stopped on (match_tally_sprt). */
	int sprt_done;
	enum sprt_verdict verdict;
	double verdict_llr;
	long long verdict_games;
};

/* The tallies of a match, in the order their pairings were first seen. */
struct match_tallies {
	struct match_tally *v;		/* owned */
	size_t n, alloc;
};

void match_tallies_init(struct match_tallies *ts);
void match_tallies_release(struct match_tallies *ts);

/*
 * The tally of engines a and b in either order, or NULL. The pointer is
 * valid until the next match_tallies_get or match_tallies_add.
 */
struct match_tally *match_tallies_find(const struct match_tallies *ts,
    int a, int b);

/* The tally of a and b in either order; a new one (a as A) if none. */
struct match_tally *match_tallies_get(struct match_tallies *ts, int a, int b);

/*
 * Counts one game of black against white, black's half points (2 win,
 * 1 draw, 0 loss), into their tally (made when new), and returns it.
 * source and pair as match_tally_add's.
 */
struct match_tally *match_tallies_add(struct match_tallies *ts, int black,
    int white, int black_half, long long source, long long pair);

/*
 * Counts one game: A's colour and A's half points. A game of a pair
 * (pair >= 0) waits for the other game of the same source and pair
 * number, and the two are then counted as a pair; pair < 0: a game of
 * no pair. The source keeps the pair numbers of different results files
 * (shards of one match) apart.
 */
void match_tally_add(struct match_tally *t, int a_black, int a_half,
    long long source, long long pair);

long long match_tally_games(const struct match_tally *t);
long long match_tally_npairs(const struct match_tally *t);

/* The estimate of the pairs when any pair is complete, else of games. */
void match_tally_elo(const struct match_tally *t, struct elo_estimate *e);

/* The LLR on the pairs when any is complete, else on W, D, L. */
double match_tally_llr(const struct match_tally *t, const struct sprt *s);

/*
 * Whether the match stops on this tally now: once, when the SPRT accepts
 * a hypothesis and no pair is half played (a pair begun is finished),
 * the verdict is kept in t and 1 returned; else 0.
 */
int match_tally_sprt(struct match_tally *t, const struct sprt *s);

/*
 * The tally as `kifu match` prints it (na, nb: A's and B's names): the
 * games, by colour, Elo with its interval, LOS, the pairs, and with s
 * the SPRT, into out (appended).
 */
void match_tally_text(const struct match_tally *t, const char *na,
    const char *nb, const struct sprt *s, struct strbuf *out);

#endif /* KIFU_STATS_MATCHTALLY_H */
