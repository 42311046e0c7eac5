/*
 * enginepool.h - the engines of one analysis run: every worker's engine
 * started from the same command and given the same options, so that
 * they are one setup (analyze_setup), the key of the cache's results.
 *
 * The options every engine gets are the engines file's, then --option's
 * (the later wins), then kifu's own where the user set none: analysis
 * mode (USI_AnalyseMode true), no own book (USI_OwnBook false; gpsusi's
 * BookDepth 0, since its book moves come unscored), and the MultiPV.
 * They are decided from the first engine's declarations and sorted, so
 * that one set of options is one cache key whatever their order.
 *
 * enginepool_prepare starts the first engine before the walk, settles
 * the options, sends them and tries the limit (usi_check_limit), so that
 * an option refused or a limit not taken stops the run before anything
 * is analysed. With a cache it first looks for the cache's note of an
 * earlier run asking the same of the same program file (engine/cache.h,
 * analyze_engine_key): when there is one, no engine is started, and the
 * first engine a worker needs settles the options and must give the
 * noted setup, or the note is dropped and no position is searched by it.
 *
 * Nothing here prints: errors come back in struct usi_error, warnings
 * and notes go to the caller's functions.
 */
#ifndef KIFU_ENGINE_ENGINEPOOL_H
#define KIFU_ENGINE_ENGINEPOOL_H

#include <pthread.h>
#include <sys/types.h>

#include "usi.h"
#include "core/strbuf.h"

struct cache;
struct engine_entry;

struct enginepool_opts {
	char *const *argv;		/* the command's words (argv[0] runs) */
	/* The engines file's entry, for its options and environment (its
	   log and timeout are the caller's to take); NULL: none. */
	const struct engine_entry *entry;
	const char *const *asked;	/* --option's "Name=Value" */
	size_t nasked;
	const char *log_path;		/* the engines' stderr; NULL: dropped */
	long long init_timeout_ms;	/* 0: usi.h's default */
	struct usi_limit limit;
	int multipv;
	struct cache *cache;		/* the note's; NULL: no cache */
	/*
	 * The first engine's warnings (worker engines get the worker's, see
	 * enginepool_take), and the note that --option's MultiPV is
	 * overridden by --multipv 1. Called on the thread that prepares.
	 * NULL: dropped.
	 */
	usi_warn_fn warn, note;
	void *warn_ctx;
	/* usi_start_opts's: the caller's list of live process groups. */
	void (*on_spawn)(void *ctx, pid_t pgid, const char *home);
	void (*on_reap)(void *ctx, pid_t pgid);
	void *spawn_ctx;
};

struct engine_pool {
	struct enginepool_opts o;	/* borrowed pointers, as given */
	char **options;			/* "Name=Value", sorted; owned */
	size_t noptions;
	char *name;			/* id name, else argv[0]; owned */
	struct strbuf setup;		/* analyze_setup's text */
	struct strbuf key;		/* the note's; "" when none */
	int noted;			/* setup and name from the note */
	/* All under mu: */
	pthread_mutex_t mu;
	struct usi_engine *first;	/* started to check, not handed yet */
	int settled;			/* options settled by an engine */
	char note_wrong[512];		/* "" until an engine gave another */
};

/* The options are copied (pointers borrowed); nothing starts yet. */
void enginepool_init(struct engine_pool *p, const struct enginepool_opts *o);
/* Ends the first engine if no worker took it. */
void enginepool_release(struct engine_pool *p);

/*
 * Takes the cache's note, or starts the first engine: started, options
 * settled and sent, the limit tried, started again when the probe ended
 * it, the setup made, and noted in the cache. Returns 0, or -1 with err
 * filled (USI_ERR_UNSUPPORTED: the engine does not take the limit) and
 * nothing left running.
 */
int enginepool_prepare(struct engine_pool *p, struct usi_error *err);

/* After prepare: the setup text and the engine's name (owned by p). */
const char *enginepool_setup(const struct engine_pool *p);
const char *enginepool_name(const struct engine_pool *p);

/*
 * A configured engine for a worker, its warnings to warn: the first
 * engine if no other worker took it, else a new one. Any thread. Returns
 * the engine (the caller's: usi_close), or NULL with err filled (a
 * noted run's engine that is not the noted one gives the same error to
 * every worker).
 */
struct usi_engine *enginepool_take(struct engine_pool *p, usi_warn_fn warn,
    void *warn_ctx, struct usi_error *err);

#endif /* KIFU_ENGINE_ENGINEPOOL_H */
