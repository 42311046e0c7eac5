/*
 * schedule.h - the games of an engine match, in the order they are
 * numbered: opening by opening (the openings in play order, cycled),
 * within one opening every pairing, and within a pairing its pair of
 * games, the colours swapped for the second (--repeat), or one game,
 * the colours alternating from opening to opening (--no-repeat).
 *
 * Pairings: with two engines the one; with more, the first against each
 * other (a gauntlet) or every pair (a round robin), A the engine given
 * first. Pure: no I/O, no global state.
 */
#ifndef KIFU_ENGINE_SCHEDULE_H
#define KIFU_ENGINE_SCHEDULE_H

#include <stddef.h>

struct schedule_game {
	int black, white;	/* the engines, 0-based */
	size_t opening;		/* an index into the openings */
	int round;		/* 1-based: the how-manieth opening */
	int pair;		/* 1-based across the match; 0: no pairs */
};

struct schedule {
	int (*pairings)[2];		/* owned: A, B */
	int npairings;
	struct schedule_game *games;	/* owned */
	size_t n;
};

struct schedule_opts {
	int nengines;			/* 2 or more */
	int round_robin;		/* else a gauntlet */
	long long games;		/* per pairing, 1 or more */
	int repeat;			/* pairs of games, colours swapped */
	const size_t *order;		/* openings in play order; borrowed */
	size_t nopenings;		/* 1 or more */
};

/* The games per pairing that are played: rounded up to pairs. */
long long schedule_games_per_pairing(long long games, int repeat);

/* The openings a pairing plays: one a pair, or one a game. */
size_t schedule_openings_needed(long long games, int repeat);

/* Makes the pairings and the games (s is overwritten, not released). */
void schedule_make(struct schedule *s, const struct schedule_opts *o);
void schedule_release(struct schedule *s);

#endif /* KIFU_ENGINE_SCHEDULE_H */
