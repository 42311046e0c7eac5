/*
 * db.c - the game database (db/indexdb.h) for the commands that use it
 * (index, find --db, tree --db): each call's error printed, as every
 * command prints its errors.
 */
#include "cmd.h"
#include "db/indexdb.h"
#include "db/sqlite.h"

static void
print_why(struct strbuf *why)
{
	cmd_errors(why);
	strbuf_release(why);
}

int
cmd_db_error(sqlite3 *db, const char *path, const char *what)
{
	struct strbuf why = STRBUF_INIT;

	indexdb_why(&why, db, path, what);
	print_why(&why);
	return EXIT_TROUBLE;
}

sqlite3 *
cmd_db_open(const char *path, int writable)
{
	struct strbuf why = STRBUF_INIT;
	sqlite3 *db = indexdb_open(path, writable, &why);

	if (!db)
		print_why(&why);
	strbuf_release(&why);
	return db;
}

sqlite3_stmt *
cmd_db_prepare(sqlite3 *db, const char *path, const char *sql)
{
	struct strbuf why = STRBUF_INIT;
	sqlite3_stmt *st = indexdb_prepare(db, path, sql, &why);

	if (!st)
		print_why(&why);
	strbuf_release(&why);
	return st;
}

int
cmd_db_find_position(sqlite3 *db, const char *path,
    const struct position *pos, int board_only, int64_t **ids)
{
	struct strbuf why = STRBUF_INIT;
	int n = indexdb_find_position(db, path, pos, board_only, ids, &why);

	if (n < 0)
		print_why(&why);
	strbuf_release(&why);
	return n;
}
