/*
 * cache.c - the analysis cache in SQLite (cache.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "core/xalloc.h"
#include "db/sqlite.h"

/* A stored value longer than this is damage, not a result. */
#define VALUE_MAX (1 << 20)

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS setup(id INTEGER PRIMARY KEY, "
    "text TEXT NOT NULL UNIQUE);"
    "CREATE TABLE IF NOT EXISTS result(setup INTEGER NOT NULL, "
    "position TEXT NOT NULL, value TEXT NOT NULL, "
    "PRIMARY KEY (setup, position)) WITHOUT ROWID;";

/* Added to version 1 files when they are opened (cache.h: the engine). */
static const char engine_schema[] =
    "CREATE TABLE IF NOT EXISTS engine(key TEXT PRIMARY KEY, "
    "setup TEXT NOT NULL, name TEXT NOT NULL) WITHOUT ROWID";

struct cache {
	pthread_mutex_t mu;
	sqlite3 *db;
	sqlite3_stmt *find_setup, *add_setup, *get, *put;
	sqlite3_stmt *engine_get, *engine_put, *engine_forget; /* NULL: none */
	/* The setup last asked for, and its id (one a run, usually). */
	char *setup;
	long long setup_id;	/* -1: not in the file yet */
	long long stored, failures;
	char error[256];
};

static long long
pragma_int(sqlite3 *db, const char *sql, int *ok)
{
	sqlite3_stmt *st;
	long long v = 0;

	*ok = 0;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_type(st, 0) == SQLITE_INTEGER) {
		v = sqlite3_column_int64(st, 0);
		*ok = 1;
	}
	sqlite3_finalize(st);
	return v;
}

static void
say(char *err, size_t n, const char *path, const char *what, sqlite3 *db)
{
	snprintf(err, n, "'%s': %s%s%s", path, what, db ? ": " : "",
	    db ? sqlite3_errmsg(db) : "");
}

/* Opens path and checks (or, when empty and create, makes) the schema. */
static sqlite3 *
open_db(const char *path, int create, char *err, size_t n)
{
	sqlite3 *db = NULL;
	int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
	long long app, version, tables;
	int ok;
	char sql[160];

	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
		say(err, n, path, "cannot open the cache", db);
		sqlite3_close(db);
		return NULL;
	}
	sqlite3_busy_timeout(db, 10000);
	app = pragma_int(db, "PRAGMA application_id", &ok);
	if (!ok) {
		say(err, n, path, "not an SQLite file", NULL);
		goto fail;
	}
	tables = pragma_int(db, "SELECT count(*) FROM sqlite_master", &ok);
	if (!ok) {
		say(err, n, path, "not an SQLite file", NULL);
		goto fail;
	}
	if (app == 0 && tables == 0) {
		snprintf(sql, sizeof(sql), "PRAGMA application_id = %d; "
		    "PRAGMA user_version = %d; PRAGMA journal_mode = WAL",
		    CACHE_APP_ID, CACHE_VERSION);
		if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK ||
		    sqlite3_exec(db, schema, NULL, NULL, NULL) != SQLITE_OK) {
			say(err, n, path, "cannot make the cache", db);
			goto fail;
		}
	} else if (app != CACHE_APP_ID) {
		say(err, n, path, "not a kifu analysis cache (another SQLite "
		    "file)", NULL);
		goto fail;
	}
	version = pragma_int(db, "PRAGMA user_version", &ok);
	if (!ok || version != CACHE_VERSION) {
		snprintf(err, n, "'%s': a kifu analysis cache of version %lld; "
		    "this kifu reads version %d", path, version, CACHE_VERSION);
		goto fail;
	}
	/* A result committed is a result kept, without a sync each. */
	sqlite3_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = "
	    "NORMAL", NULL, NULL, NULL);
	return db;
fail:
	sqlite3_close(db);
	return NULL;
}

struct cache *
cache_open(const char *path, int create, char *err, size_t n)
{
	sqlite3 *db = open_db(path, create, err, n);
	struct cache *c;

	if (!db)
		return NULL;
	c = xcalloc(1, sizeof(*c));
	c->db = db;
	c->setup_id = -1;
	pthread_mutex_init(&c->mu, NULL);
	if (sqlite3_prepare_v2(db, "SELECT id FROM setup WHERE text = ?", -1,
	    &c->find_setup, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO setup(text) VALUES "
	    "(?)", -1, &c->add_setup, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT value FROM result WHERE setup = ? "
	    "AND position = ?", -1, &c->get, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO result(setup, "
	    "position, value) VALUES (?, ?, ?)", -1, &c->put, NULL) !=
	    SQLITE_OK) {
		say(err, n, path, "not a kifu analysis cache", db);
		cache_close(c);
		return NULL;
	}
	/* A file kifu may not write has no note of engines: it still reads. */
	if (sqlite3_exec(db, engine_schema, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT setup, name FROM engine WHERE key "
	    "= ?", -1, &c->engine_get, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO engine(key, setup, "
	    "name) VALUES (?, ?, ?)", -1, &c->engine_put, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "DELETE FROM engine WHERE key = ?", -1,
	    &c->engine_forget, NULL) != SQLITE_OK) {
		sqlite3_finalize(c->engine_get);
		sqlite3_finalize(c->engine_put);
		sqlite3_finalize(c->engine_forget);
		c->engine_get = c->engine_put = c->engine_forget = NULL;
	}
	return c;
}

void
cache_close(struct cache *c)
{
	if (!c)
		return;
	sqlite3_finalize(c->find_setup);
	sqlite3_finalize(c->add_setup);
	sqlite3_finalize(c->get);
	sqlite3_finalize(c->put);
	sqlite3_finalize(c->engine_get);
	sqlite3_finalize(c->engine_put);
	sqlite3_finalize(c->engine_forget);
	sqlite3_close(c->db);
	pthread_mutex_destroy(&c->mu);
	free(c->setup);
	free(c);
}

/* The id of a setup, made when make; -1 when it has none. Locked. */
static long long
setup_id(struct cache *c, const char *setup, int make)
{
	long long id = -1;

	if (c->setup && !strcmp(c->setup, setup) && (c->setup_id >= 0 || !make))
		return c->setup_id;
	for (;;) {
		sqlite3_reset(c->find_setup);
		sqlite3_bind_text(c->find_setup, 1, setup, -1, SQLITE_STATIC);
		if (sqlite3_step(c->find_setup) == SQLITE_ROW &&
		    sqlite3_column_type(c->find_setup, 0) == SQLITE_INTEGER)
			id = sqlite3_column_int64(c->find_setup, 0);
		sqlite3_reset(c->find_setup);
		if (id >= 0 || !make)
			break;
		sqlite3_reset(c->add_setup);
		sqlite3_bind_text(c->add_setup, 1, setup, -1, SQLITE_STATIC);
		if (sqlite3_step(c->add_setup) != SQLITE_DONE) {
			sqlite3_reset(c->add_setup);
			return -1;
		}
		sqlite3_reset(c->add_setup);
		make = 0;
	}
	free(c->setup);
	c->setup = xstrndup(setup, strlen(setup));
	c->setup_id = id;
	return id;
}

static int
lookup(void *ctx, const char *position, const char *setup,
    struct strbuf *value)
{
	struct cache *c = ctx;
	long long id;
	int found = 0;

	pthread_mutex_lock(&c->mu);
	if ((id = setup_id(c, setup, 0)) >= 0) {
		sqlite3_reset(c->get);
		sqlite3_bind_int64(c->get, 1, id);
		sqlite3_bind_text(c->get, 2, position, -1, SQLITE_STATIC);
		if (sqlite3_step(c->get) == SQLITE_ROW &&
		    sqlite3_column_type(c->get, 0) == SQLITE_TEXT) {
			const unsigned char *t = sqlite3_column_text(c->get, 0);
			int n = sqlite3_column_bytes(c->get, 0);

			if (t && n > 0 && n < VALUE_MAX && !memchr(t, '\0',
			    (size_t)n)) {
				strbuf_add(value, t, (size_t)n);
				found = 1;
			}
		}
		sqlite3_reset(c->get);
	}
	pthread_mutex_unlock(&c->mu);
	return found;
}

static void
store(void *ctx, const char *position, const char *setup, const char *value)
{
	struct cache *c = ctx;
	long long id;
	int rc = SQLITE_ERROR;

	pthread_mutex_lock(&c->mu);
	if ((id = setup_id(c, setup, 1)) >= 0) {
		sqlite3_reset(c->put);
		sqlite3_bind_int64(c->put, 1, id);
		sqlite3_bind_text(c->put, 2, position, -1, SQLITE_STATIC);
		sqlite3_bind_text(c->put, 3, value, -1, SQLITE_STATIC);
		rc = sqlite3_step(c->put);
		sqlite3_reset(c->put);
	}
	if (rc == SQLITE_DONE) {
		c->stored++;
	} else {
		if (!c->failures)
			snprintf(c->error, sizeof(c->error), "%s",
			    sqlite3_errmsg(c->db));
		c->failures++;
	}
	pthread_mutex_unlock(&c->mu);
}

void
cache_ops(struct cache *c, struct analyze_cache *ops)
{
	ops->lookup = lookup;
	ops->store = store;
	ops->ctx = c;
}

long long
cache_stored(const struct cache *c)
{
	return c->stored;
}

long long
cache_failures(const struct cache *c)
{
	return c->failures;
}

const char *
cache_error(const struct cache *c)
{
	return c->error;
}

/* --- the engine's note ------------------------------------------------ */

/* A text column of the row st stands on, or NULL when it is none. */
static const char *
text_column(sqlite3_stmt *st, int i, int *n)
{
	const unsigned char *t;

	if (sqlite3_column_type(st, i) != SQLITE_TEXT)
		return NULL;
	t = sqlite3_column_text(st, i);
	*n = sqlite3_column_bytes(st, i);
	if (!t || *n <= 0 || *n >= VALUE_MAX || memchr(t, '\0', (size_t)*n))
		return NULL;
	return (const char *)t;
}

int
cache_engine_get(struct cache *c, const char *key, struct strbuf *setup,
    struct strbuf *name)
{
	int found = 0;

	if (!c->engine_get)
		return 0;
	pthread_mutex_lock(&c->mu);
	sqlite3_reset(c->engine_get);
	sqlite3_bind_text(c->engine_get, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(c->engine_get) == SQLITE_ROW) {
		int ns, nn;
		const char *s = text_column(c->engine_get, 0, &ns);
		const char *m = text_column(c->engine_get, 1, &nn);

		if (s && m) {
			strbuf_add(setup, s, (size_t)ns);
			strbuf_add(name, m, (size_t)nn);
			found = 1;
		}
	}
	sqlite3_reset(c->engine_get);
	pthread_mutex_unlock(&c->mu);
	return found;
}

void
cache_engine_put(struct cache *c, const char *key, const char *setup,
    const char *name)
{
	if (!c->engine_put)
		return;
	pthread_mutex_lock(&c->mu);
	sqlite3_bind_text(c->engine_put, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(c->engine_put, 2, setup, -1, SQLITE_STATIC);
	sqlite3_bind_text(c->engine_put, 3, name, -1, SQLITE_STATIC);
	/* A note not kept costs the next run an engine start, nothing more. */
	sqlite3_step(c->engine_put);
	sqlite3_reset(c->engine_put);
	pthread_mutex_unlock(&c->mu);
}

void
cache_engine_forget(struct cache *c, const char *key)
{
	if (!c->engine_forget)
		return;
	pthread_mutex_lock(&c->mu);
	sqlite3_bind_text(c->engine_forget, 1, key, -1, SQLITE_STATIC);
	sqlite3_step(c->engine_forget);
	sqlite3_reset(c->engine_forget);
	pthread_mutex_unlock(&c->mu);
}

/* --- merging ----------------------------------------------------------- */

static long long
count(sqlite3 *db, const char *sql)
{
	int ok;

	return pragma_int(db, sql, &ok);
}

int
cache_merge(const char *const *inputs, int n, const char *out, int force,
    long long *added, long long *conflicts, char *err, size_t errn)
{
	struct stat st;
	char *tmp;
	size_t len = strlen(out) + 16;
	sqlite3 *db;
	int i, rc = -1;

	*added = *conflicts = 0;
	if (!force && lstat(out, &st) == 0) {
		snprintf(err, errn, "'%s' exists; not replaced (use --force)",
		    out);
		return -1;
	}
	/* Made aside and renamed: a failed merge leaves nothing. */
	tmp = xmalloc(len);
	snprintf(tmp, len, "%s.tmp%ld", out, (long)getpid());
	unlink(tmp);
	if (!(db = open_db(tmp, 1, err, errn)))
		goto out;
	for (i = 0; i < n; i++) {
		sqlite3 *in;
		sqlite3_stmt *att;
		long long before, same;

		/* Each input is checked as a cache on its own first. */
		if (!(in = open_db(inputs[i], 0, err, errn)))
			goto fail;
		sqlite3_close(in);
		if (sqlite3_prepare_v2(db, "ATTACH ? AS src", -1, &att, NULL) !=
		    SQLITE_OK) {
			say(err, errn, inputs[i], "cannot read the cache", db);
			goto fail;
		}
		sqlite3_bind_text(att, 1, inputs[i], -1, SQLITE_STATIC);
		if (sqlite3_step(att) != SQLITE_DONE) {
			sqlite3_finalize(att);
			say(err, errn, inputs[i], "cannot read the cache", db);
			goto fail;
		}
		sqlite3_finalize(att);
		before = count(db, "SELECT count(*) FROM main.result");
		same = count(db, "SELECT count(*) FROM src.result r JOIN "
		    "src.setup s ON s.id = r.setup JOIN main.setup m ON "
		    "m.text = s.text JOIN main.result o ON o.setup = m.id AND "
		    "o.position = r.position WHERE o.value != r.value");
		if (sqlite3_exec(db, "BEGIN; INSERT OR IGNORE INTO "
		    "main.setup(text) SELECT text FROM src.setup; INSERT OR "
		    "IGNORE INTO main.result(setup, position, value) SELECT "
		    "m.id, r.position, r.value FROM src.result r JOIN "
		    "src.setup s ON s.id = r.setup JOIN main.setup m ON m.text "
		    "= s.text WHERE typeof(r.value) = 'text'; COMMIT; DETACH "
		    "src", NULL, NULL,
		    NULL) != SQLITE_OK) {
			say(err, errn, inputs[i], "cannot merge the cache", db);
			goto fail;
		}
		*added += count(db, "SELECT count(*) FROM main.result") - before;
		*conflicts += same;
	}
	if (sqlite3_exec(db, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL) !=
	    SQLITE_OK || sqlite3_close(db) != SQLITE_OK) {
		say(err, errn, out, "cannot write the cache", NULL);
		db = NULL;
		goto fail;
	}
	db = NULL;
	if (rename(tmp, out) < 0) {
		snprintf(err, errn, "cannot write '%s': %s", out,
		    strerror(errno));
		goto fail;
	}
	rc = 0;
	goto out;
fail:
	if (db)
		sqlite3_close(db);
	unlink(tmp);
	{
		char side[4096];

		snprintf(side, sizeof(side), "%s-wal", tmp);
		unlink(side);
		snprintf(side, sizeof(side), "%s-shm", tmp);
		unlink(side);
	}
out:
	free(tmp);
	return rc;
}
