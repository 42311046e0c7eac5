/*
 * tourney.h - an engine match played out: its games (engine/schedule.h)
 * played by a pool of worker threads, each with engine processes of its
 * own, each game refereed by match_play (engine/match.h), and handed
 * back to the caller one at a time in game order as they finish, counted
 * (stats/matchtally.h) and, with an SPRT, stopped on its verdict.
 *
 * Engines. tourney_start_engines starts every engine once before any
 * game (the handshake, UCI_Variant for another variant, the options,
 * isready, and a try of the time control: an engine that refuses any of
 * it is an error before the match), takes each engine's id name (made
 * unique with " #2", ...) and keeps the process for the first worker.
 * Each worker starts the engines its games need on first use, and an
 * engine that died or was ended in a game (a crash, a hang) is started
 * again for the next; one that cannot be started stops the match (the
 * games in play finish). With affinity, worker k and the engines it
 * starts are pinned to CPU k modulo the CPUs online.
 *
 * Stopping. The caller's stop flag (SIGINT, set by its handler) makes
 * the games in play abandoned at their next move and starts no new
 * one; abandoned games are not handed back or counted. An SPRT verdict
 * on the only pairing starts no new game but the second of a pair
 * begun, so that the pairs stay whole.
 *
 * Nothing here prints or exits: messages go to the warn callback,
 * errors come back as text. No global state; signals are the caller's.
 */
#ifndef KIFU_ENGINE_TOURNEY_H
#define KIFU_ENGINE_TOURNEY_H

#include <signal.h>
#include <stddef.h>

#include "match.h"
#include "schedule.h"
#include "usi.h"
#include "stats/elo.h"
#include "stats/matchtally.h"

#define TOURNEY_ENGINES_MAX 16

struct tourney_engine {
	const char *arg;		/* as the user named it: for messages */
	/*
	 * How to start it: argv, log, env, init timeout, on_spawn and
	 * on_reap (the caller's list of live processes); warn is replaced
	 * by the tourney's. Borrowed, as are the strings it points to.
	 */
	struct usi_start_opts start;
	const char *const *options;	/* "Name=Value", in order; borrowed */
	size_t noptions;
};

/* A finished game, handed back in game order. */
struct tourney_game {
	size_t index;			/* 0-based: game index + 1 is its number */
	const struct schedule_game *s;
	const struct match_game *g;	/* valid for the callback only */
	/* The pairing's tally, this game counted; for progress lines. */
	const struct match_tally *t;
};

struct tourney_opts {
	const struct tourney_engine *engines;	/* borrowed */
	int nengines;			/* 2 to TOURNEY_ENGINES_MAX */
	const struct match_rules *mr;	/* borrowed */
	const struct openings *ops;	/* borrowed; schedule's indexes */
	const struct schedule *sched;	/* borrowed */
	int concurrency;		/* games at once, 1 or more */
	int affinity;			/* pin each worker to a CPU */
	const struct sprt *sprt;	/* NULL: none */
	volatile sig_atomic_t *stop;	/* NULL: never */
	/* Engines' warnings, from any thread; NULL drops them. */
	usi_warn_fn warn;
	void *warn_ctx;
	/* Each finished game, on tourney_run's thread, in game order. */
	void (*game)(void *ctx, const struct tourney_game *tg);
	void *game_ctx;
	/* When not NULL: the referee's per-move samples (the bench). */
	struct match_overhead *overhead;
};

struct tourney;

/* A match to be played; opts and what it points to must outlive it. */
struct tourney *tourney_new(const struct tourney_opts *o);
void tourney_free(struct tourney *t);

/*
 * Starts each engine once (see above). Returns 0, or -1 with "arg: why"
 * in err (n bytes).
 */
int tourney_start_engines(struct tourney *t, char *err, size_t n);

/* Engine i's name (its id name, unique); after tourney_start_engines. */
const char *tourney_engine_name(const struct tourney *t, int i);

/*
 * Plays the games. Returns 0 when the match was played out or stopped
 * by the stop flag or the SPRT, or -1 when it could not go on (an
 * engine that cannot be started again), why in err.
 */
int tourney_run(struct tourney *t, char *err, size_t n);

/* The counts so far: one tally a pairing, in the schedule's order. */
const struct match_tallies *tourney_tallies(const struct tourney *t);
/* Games counted by how they ended, indexed by enum match_end. */
const long long *tourney_ends(const struct tourney *t);

#endif /* KIFU_ENGINE_TOURNEY_H */
