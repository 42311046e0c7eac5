/*
 * elo.h - what a match's results say about the strength of two engines:
 * the Elo difference with its 95% interval, the likelihood of
 * superiority, the normalized Elo, and the GSPRT log-likelihood ratio
 * that stops a match once one hypothesis wins.
 *
 * The formulas are fishtest's and fastchess's (../shared/docs/engines.md
 * section 3; fishtest server/fishtest/stats/LLRcalc.py and stat_util.py,
 * fastchess app/src/matchmaking/sprt/sprt.cpp and elo/): games scored
 * 1, 1/2, 0 (trinomial), or pairs of games with the colours swapped,
 * scored 0, 1/4, 1/2, 3/4, 1 (pentanomial). Every figure is a function of
 * the counts, so shards of a match merge by adding them.
 *
 * Counts are always from the first engine's (A's) side: wins are A's.
 */
#ifndef KIFU_STATS_ELO_H
#define KIFU_STATS_ELO_H

#include <stddef.h>

/* Pair classes, by A's score in the pair: fishtest's result vector. */
enum pair_class {
	PAIR_LL,		/* 0 */
	PAIR_LD,		/* 1/4, either order */
	PAIR_DD_WL,		/* 1/2: two draws, or a win and a loss */
	PAIR_WD,		/* 3/4 */
	PAIR_WW,		/* 1 */
	PAIR_NB
};

/* The class of a pair from A's two game scores, each 0, 1 (draw) or 2. */
enum pair_class elo_pair_class(int half_points_1, int half_points_2);

struct elo_estimate {
	long long n;		/* games, or pairs */
	double score;		/* mu: A's mean score per game, 0..1 */
	double elo, elo95;	/* logistic Elo and the interval's half-width */
	double los;		/* likelihood of superiority, 0..1 */
	double nelo, nelo95;	/* normalized Elo, half-width */
	double draw_ratio;	/* draws per game (pairs: DD+WL per pair) */
	/*
	 * Elo is infinite when A scored everything or nothing; elo and the
	 * interval are then +-HUGE_VAL and finite is 0 (also with no
	 * games). The interval alone is infinite (HUGE_VAL) when it reaches
	 * past a score of 0 or 1.
	 */
	int finite;
};

/* From W, D, L of A (games). */
void elo_trinomial(long long w, long long d, long long l,
    struct elo_estimate *out);

/* From the counts of pairs, indexed by enum pair_class. */
void elo_pentanomial(const long long pairs[PAIR_NB], struct elo_estimate *out);

/* The logistic Elo of a score, -400 log10(1/x - 1). */
double elo_of_score(double score);

enum sprt_model {
	SPRT_NORMALIZED,	/* elo0, elo1 in normalized Elo (the default) */
	SPRT_LOGISTIC		/* in logistic Elo */
};

struct sprt {
	double elo0, elo1, alpha, beta;
	enum sprt_model model;
};

/*
 * Reads "elo0=0,elo1=5,alpha=0.05,beta=0.05[,model=normalized|logistic]"
 * (any order; alpha and beta default to 0.05, the model to normalized;
 * elo0 and elo1 are required, elo0 < elo1). Returns 0, or -1 with why in
 * err.
 */
int sprt_parse(const char *text, struct sprt *out, char *err, size_t n);

/* ln(beta/(1-alpha)) and ln((1-beta)/alpha). */
void sprt_bounds(const struct sprt *s, double *lower, double *upper);

/* The GSPRT LLR on pairs (pentanomial) or on games (W, D, L). */
double sprt_llr_pentanomial(const struct sprt *s,
    const long long pairs[PAIR_NB]);
double sprt_llr_trinomial(const struct sprt *s, long long w, long long d,
    long long l);

enum sprt_verdict { SPRT_CONTINUE, SPRT_H0, SPRT_H1 };

/* H1 when llr >= upper, H0 when llr <= lower (fastchess's rule). */
enum sprt_verdict sprt_verdict(const struct sprt *s, double llr);

#endif /* KIFU_STATS_ELO_H */
