/*
 * cache.h - the analysis cache of `kifu analyze --cache`: search results
 * in an SQLite file, keyed by the position (SFEN without the move
 * number) and the setup (engine name, options, limit, MultiPV; see
 * analyze_setup), so that a position common to many games is searched
 * once, and a second run over an archive costs the reading.
 *
 * SQLite: the field's standard embedded database, which the game
 * database (db/) uses too. analyze.h takes any cache through a plain
 * interface (struct analyze_cache); this is the one kifu analyze uses.
 *
 * Every result is committed when it is stored (WAL, synchronous=NORMAL),
 * so that a run killed at any moment keeps what it had; several
 * processes may share a file (SQLite locks; they wait up to 10 s). The
 * file is marked as kifu's (PRAGMA application_id "KIFA", user_version
 * 1) and refused otherwise. Values are the USI lines of
 * usi_result_format and are judged again by the rules when they are read
 * (engine/usi.h): a damaged or edited cache cannot put an illegal move
 * into a record.
 *
 *   CREATE TABLE setup(id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE);
 *   CREATE TABLE result(setup INTEGER NOT NULL, position TEXT NOT NULL,
 *       value TEXT NOT NULL, PRIMARY KEY (setup, position)) WITHOUT ROWID;
 *   CREATE TABLE engine(key TEXT PRIMARY KEY, setup TEXT NOT NULL,
 *       name TEXT NOT NULL) WITHOUT ROWID;
 *
 * The engine table is a note of runs, so that a run whose positions are
 * all in the cache need not start the engine only to learn its name and
 * options (the setup): key is what the run was asked for and what its
 * program file was (analyze_engine_key), setup and name what the engine
 * turned out to be. It is made in version 1 files when they are opened,
 * and not merged: it speaks of one machine's files.
 */
#ifndef KIFU_ENGINE_CACHE_H
#define KIFU_ENGINE_CACHE_H

#include "analyze.h"

#define CACHE_APP_ID 0x4b494641	/* "KIFA" */
#define CACHE_VERSION 1

struct cache;

/*
 * Opens (creating it when create) the cache at path. Returns NULL with
 * why in err (n bytes) when it cannot be opened or is no kifu cache.
 */
struct cache *cache_open(const char *path, int create, char *err, size_t n);
void cache_close(struct cache *c);

/* The interface analyze.h takes; any thread (the cache locks). */
void cache_ops(struct cache *c, struct analyze_cache *ops);

/* Results stored by this process, and failed stores (a full disk). */
long long cache_stored(const struct cache *c);
long long cache_failures(const struct cache *c);
/* The first failure's message ("" none). */
const char *cache_error(const struct cache *c);

/*
 * The note of an engine (see above): get appends the setup and the name
 * noted under key and returns 1, or returns 0; put notes them (a failure
 * is not an error: the next run starts the engine); forget removes the
 * note, when the engine turned out to be another.
 */
int cache_engine_get(struct cache *c, const char *key, struct strbuf *setup,
    struct strbuf *name);
void cache_engine_put(struct cache *c, const char *key, const char *setup,
    const char *name);
void cache_engine_forget(struct cache *c, const char *key);

/*
 * Merges the caches inputs[0..n) into out, which must not exist (or,
 * with force, is replaced): every setup and result of each, the first
 * input's value kept where two differ (movetime results do). *added
 * and *conflicts count results. Returns 0, or -1 with why in err.
 */
int cache_merge(const char *const *inputs, int n, const char *out, int force,
    long long *added, long long *conflicts, char *err, size_t errn);

#endif /* KIFU_ENGINE_CACHE_H */
