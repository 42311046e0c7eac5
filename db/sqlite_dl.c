/*
 * sqlite_dl.c - SQLite loaded on first use: the wrappers db/sqlite.h
 * renames SQLite's functions to.
 */
#include <pthread.h>
#include <stddef.h>

#include "db/sqlite.h"
#include "core/dl.h"

struct sqlite_api {
#define FIELD(ret, name, params, args) ret (*name) params;
	SQLITE_DL_GUARDED(FIELD)
	SQLITE_DL_PLAIN(FIELD)
#undef FIELD
};

#define SYM(ret, name, params, args) \
	{ "sqlite3_" #name, offsetof(struct sqlite_api, name) },
static const struct dl_sym syms[] = {
	SQLITE_DL_GUARDED(SYM)
	SQLITE_DL_PLAIN(SYM)
};
#undef SYM

static const char *const names[] = {
	"libsqlite3.so.0", "libsqlite3.so", NULL
};
static pthread_once_t once = PTHREAD_ONCE_INIT;
/* Written once under pthread_once, read-only after. */
static struct sqlite_api api;
static const struct sqlite_api *loaded;
static struct dl_library lib = {
	names, syms, sizeof(syms) / sizeof(syms[0]), &api, "SQLite",
	"libsqlite3-0", 0, "SQLite was not loaded"
};

static void
load(void)
{
	dl_library_load(&lib);
	loaded = lib.loaded ? &api : NULL;
}

int
sqlite_dl_open_v2(const char *f, sqlite3 **db, int flags, const char *vfs)
{
	pthread_once(&once, load);
	if (!loaded) {
		*db = NULL;
		return SQLITE_CANTOPEN;
	}
	return loaded->open_v2(f, db, flags, vfs);
}

/* What the library says of db; unloaded, why it is not there. */
const char *
sqlite_dl_errmsg(sqlite3 *db)
{
	return loaded ? loaded->errmsg(db) : lib.failure;
}

int
sqlite_dl_close(sqlite3 *db)
{
	return loaded ? loaded->close(db) : SQLITE_OK;
}

int
sqlite_dl_finalize(sqlite3_stmt *st)
{
	return loaded ? loaded->finalize(st) : SQLITE_OK;
}

void
sqlite_dl_free(void *p)
{
	if (loaded)
		loaded->free(p);
}

#define CALL(ret, name, params, args) \
	ret sqlite_dl_##name params { return loaded->name args; }
SQLITE_DL_PLAIN(CALL)
#undef CALL
