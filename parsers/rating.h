/*
 * rating.h - the players' ratings, where a record states them: the
 * vocabulary of the producers that write one (`kifu export --min-rating`,
 * and `kifu book`, select records by them).
 *
 * The forms met in the corpus (../shared/testdata):
 *
 *   stored (root comment)       in the file
 *   "black_rate:NAME:3382.0"    CSA 'black_rate:NAME:3382.0 (shogi-server,
 *   "white_rate:NAME:3613.0"    Floodgate), kept by converters as KIF
 *                               *black_rate:... and in JKF comments
 *
 *   a player header ending in "(R990)": Piyo Shogi's 下手：Lv19 ひよな(R990)
 *   (先手, 後手, 下手, 上手, CSA N+ and N-, JKF's header).
 *
 * The comment lines are read before the first move only, where the
 * server writes them; the first form that gives a side its rating counts.
 */
#ifndef KIFU_PARSERS_RATING_H
#define KIFU_PARSERS_RATING_H

#include "core/record.h"

struct ratings {
	int has[COLOR_NB];
	double rate[COLOR_NB];	/* as written: Floodgate's are decimals */
};

/* Reads both players' ratings from r into *out. */
void rating_read(const struct record *r, struct ratings *out);

#endif /* KIFU_PARSERS_RATING_H */
