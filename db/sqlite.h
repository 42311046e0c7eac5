/*
 * sqlite.h - SQLite, for kifu's modules: include this, not <sqlite3.h>.
 *
 * kifu is not linked with libsqlite3: linked, the library (built with
 * BIND_NOW) had the dynamic loader resolve its 1,600 symbol relocations,
 * and load libm for it, at every start of kifu and of every program
 * using libkifu, though only the game database opens it. So the SQLite
 * functions kifu calls are renamed here to wrappers (db/sqlite_dl.c)
 * that call the library through pointers, loaded by the first
 * sqlite3_open_v2 (every use starts with one). When it cannot be loaded,
 * sqlite3_open_v2 fails with SQLITE_CANTOPEN and a NULL handle, and
 * sqlite3_errmsg(NULL) says why and which package to install; close,
 * finalize and free take what a failed open leaves (NULL) unloaded.
 * The names are kifu's own, so a program that links SQLite itself is
 * untouched.
 */
#ifndef KIFU_DB_SQLITE_H
#define KIFU_DB_SQLITE_H

#include <sqlite3.h>

/*
 * X(return type, name, parameters, arguments) for every function kifu
 * calls: first those a failed open may be followed by, whose wrappers
 * work unloaded, then the rest, which take what only a loaded library
 * hands out.
 */
#define SQLITE_DL_GUARDED(X) \
	X(int, open_v2, (const char *f, sqlite3 **db, int flags, \
	    const char *vfs), (f, db, flags, vfs)) \
	X(int, close, (sqlite3 *db), (db)) \
	X(const char *, errmsg, (sqlite3 *db), (db)) \
	X(int, finalize, (sqlite3_stmt *st), (st)) \
	X(void, free, (void *p), (p))
#define SQLITE_DL_PLAIN(X) \
	X(int, busy_timeout, (sqlite3 *db, int ms), (db, ms)) \
	X(int, exec, (sqlite3 *db, const char *sql, \
	    int (*cb)(void *, int, char **, char **), void *arg, \
	    char **err), (db, sql, cb, arg, err)) \
	X(int, prepare_v2, (sqlite3 *db, const char *sql, int n, \
	    sqlite3_stmt **st, const char **tail), (db, sql, n, st, tail)) \
	X(int, step, (sqlite3_stmt *st), (st)) \
	X(int, reset, (sqlite3_stmt *st), (st)) \
	X(int, clear_bindings, (sqlite3_stmt *st), (st)) \
	X(int, bind_int, (sqlite3_stmt *st, int i, int v), (st, i, v)) \
	X(int, bind_int64, (sqlite3_stmt *st, int i, sqlite3_int64 v), \
	    (st, i, v)) \
	X(int, bind_null, (sqlite3_stmt *st, int i), (st, i)) \
	X(int, bind_text, (sqlite3_stmt *st, int i, const char *s, int n, \
	    void (*del)(void *)), (st, i, s, n, del)) \
	X(int, column_count, (sqlite3_stmt *st), (st)) \
	X(int, column_type, (sqlite3_stmt *st, int i), (st, i)) \
	X(int, column_bytes, (sqlite3_stmt *st, int i), (st, i)) \
	X(sqlite3_int64, column_int64, (sqlite3_stmt *st, int i), (st, i)) \
	X(const unsigned char *, column_text, (sqlite3_stmt *st, int i), \
	    (st, i)) \
	X(sqlite3_int64, last_insert_rowid, (sqlite3 *db), (db)) \
	X(int, changes, (sqlite3 *db), (db))

#define SQLITE_DL_PROTO(ret, name, params, args) ret sqlite_dl_##name params;
SQLITE_DL_GUARDED(SQLITE_DL_PROTO)
SQLITE_DL_PLAIN(SQLITE_DL_PROTO)
#undef SQLITE_DL_PROTO

/* The names the code writes, as SQLite spells them. */
#define sqlite3_open_v2 sqlite_dl_open_v2
#define sqlite3_close sqlite_dl_close
#define sqlite3_errmsg sqlite_dl_errmsg
#define sqlite3_finalize sqlite_dl_finalize
#define sqlite3_free sqlite_dl_free
#define sqlite3_busy_timeout sqlite_dl_busy_timeout
#define sqlite3_exec sqlite_dl_exec
#define sqlite3_prepare_v2 sqlite_dl_prepare_v2
#define sqlite3_step sqlite_dl_step
#define sqlite3_reset sqlite_dl_reset
#define sqlite3_clear_bindings sqlite_dl_clear_bindings
#define sqlite3_bind_int sqlite_dl_bind_int
#define sqlite3_bind_int64 sqlite_dl_bind_int64
#define sqlite3_bind_null sqlite_dl_bind_null
#define sqlite3_bind_text sqlite_dl_bind_text
#define sqlite3_column_count sqlite_dl_column_count
#define sqlite3_column_type sqlite_dl_column_type
#define sqlite3_column_bytes sqlite_dl_column_bytes
#define sqlite3_column_int64 sqlite_dl_column_int64
#define sqlite3_column_text sqlite_dl_column_text
#define sqlite3_last_insert_rowid sqlite_dl_last_insert_rowid
#define sqlite3_changes sqlite_dl_changes

#endif /* KIFU_DB_SQLITE_H */
