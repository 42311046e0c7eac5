/*
 * indexdb.c - the schema of the game database, and reading it safely
 * (indexdb.h).
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/indexdb.h"
#include "db/sqlite.h"
#include "core/xalloc.h"
#include "tags/defs.h"

/*
 * One row a record file (an input: a file, or a member of an archive),
 * in walk order (seq); one row a record; its headers; the positions,
 * each once by its SFEN; one row for each position of each line of each
 * record (occurrence: a record's rows are contiguous, first..first+n-1,
 * so that dropping a record needs no index on them).
 */
const char indexdb_schema[] =
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)"
    " WITHOUT ROWID;\n"
    "CREATE TABLE root(ord INTEGER PRIMARY KEY, path TEXT NOT NULL);\n"
    "CREATE TABLE file(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE,"
    " seq INTEGER NOT NULL, size INTEGER NOT NULL, mtime INTEGER NOT NULL,"
    " hash INTEGER NOT NULL, status TEXT NOT NULL, format TEXT,"
    " encoding TEXT, records INTEGER NOT NULL, bad INTEGER NOT NULL,"
    " diag_line INTEGER, diag_col INTEGER, diag_id TEXT, message TEXT);\n"
    "CREATE TABLE record(id INTEGER PRIMARY KEY, file INTEGER NOT NULL,"
    " idx INTEGER NOT NULL, format TEXT NOT NULL, encoding TEXT,"
    " variant TEXT NOT NULL, start TEXT NOT NULL, handicap TEXT,"
    " moves TEXT NOT NULL, plies INTEGER NOT NULL, played INTEGER NOT NULL,"
    " date TEXT, black TEXT, white TEXT, event TEXT,"
    " winner TEXT, reason TEXT, result_ply INTEGER, rules TEXT,"
    " recorded_winner TEXT, recorded_reason TEXT, recorded_ply INTEGER,"
    " status TEXT NOT NULL, findings TEXT NOT NULL,"
    " diag_line INTEGER, diag_col INTEGER, diag_id TEXT, diag_message TEXT,"
    " occ_first INTEGER NOT NULL, occ_count INTEGER NOT NULL);\n"
    "CREATE TABLE header(record INTEGER NOT NULL, ord INTEGER NOT NULL,"
    " id TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,"
    " PRIMARY KEY(record, ord)) WITHOUT ROWID;\n"
    "CREATE TABLE name(id INTEGER PRIMARY KEY, field TEXT NOT NULL,"
    " value TEXT NOT NULL, folded TEXT NOT NULL, UNIQUE(field, value));\n"
    "CREATE TABLE record_name(name INTEGER NOT NULL, record INTEGER NOT NULL,"
    " PRIMARY KEY(name, record)) WITHOUT ROWID;\n"
    "CREATE TABLE position(id INTEGER PRIMARY KEY, key INTEGER NOT NULL,"
    " board_key INTEGER NOT NULL, sfen TEXT NOT NULL);\n"
    "CREATE TABLE occurrence(id INTEGER PRIMARY KEY,"
    " position INTEGER NOT NULL, record INTEGER NOT NULL,"
    " ply INTEGER NOT NULL, variation INTEGER NOT NULL, move TEXT);\n"
    "CREATE TABLE tag(record INTEGER NOT NULL, side TEXT, kind TEXT NOT"
    " NULL, name TEXT NOT NULL, family TEXT NOT NULL, ply INTEGER);\n";

/*
 * The names of a record (kifu tag): a row a side's style, opening or
 * castle (side 'black' or 'white', the ply first reached) and a row for
 * the game's name and its matchup (side NULL). A record without names
 * has no row.
 */
const char indexdb_tag_schema[] =
    "CREATE TABLE IF NOT EXISTS tag(record INTEGER NOT NULL, side TEXT,"
    " kind TEXT NOT NULL, name TEXT NOT NULL, family TEXT NOT NULL,"
    " ply INTEGER);\n";

const char indexdb_tag_indexes[] =
    "CREATE INDEX IF NOT EXISTS tag_name ON tag(name, kind, side, record);\n"
    "CREATE INDEX IF NOT EXISTS tag_family ON tag(family, kind, side,"
    " record);\n"
    "CREATE INDEX IF NOT EXISTS tag_record ON tag(record);\n";

const char indexdb_indexes[] =
    "CREATE INDEX file_seq ON file(seq);\n"
    "CREATE INDEX file_attention ON file(id) WHERE status != 'ok' OR"
    " records = 0 OR bad > 0;\n"
    "CREATE INDEX record_file ON record(file, idx);\n"
    "CREATE INDEX position_key ON position(key);\n"
    "CREATE INDEX position_board ON position(board_key);\n"
    /* Covering: find and tree read a position's rows from it alone. */
    "CREATE INDEX occurrence_position ON occurrence(position, record, ply,"
    " variation, move);\n"
    "CREATE INDEX tag_name ON tag(name, kind, side, record);\n"
    "CREATE INDEX tag_family ON tag(family, kind, side, record);\n"
    "CREATE INDEX tag_record ON tag(record);\n";

static char *
dupstr(const char *s)
{
	return xstrndup(s, strlen(s));
}

static void say(struct strbuf *why, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A message into why, on a line of its own; nothing if why is NULL. */
static void
say(struct strbuf *why, const char *fmt, ...)
{
	va_list ap;

	if (!why)
		return;
	va_start(ap, fmt);
	strbuf_vaddf_line(why, fmt, ap);
	va_end(ap);
}

void
indexdb_why(struct strbuf *why, sqlite3 *db, const char *path,
    const char *what)
{
	say(why, "'%s': %s: %s", path, what, sqlite3_errmsg(db));
}

sqlite3_stmt *
indexdb_prepare(sqlite3 *db, const char *path, const char *sql,
    struct strbuf *why)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		indexdb_why(why, db, path, "cannot read the index");
		return NULL;
	}
	return st;
}

static long long
pragma_int(sqlite3 *db, const char *sql, int *ok)
{
	sqlite3_stmt *st = NULL;
	long long v = -1;

	*ok = 0;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_type(st, 0) == SQLITE_INTEGER) {
		v = sqlite3_column_int64(st, 0);
		*ok = 1;
	}
	sqlite3_finalize(st);
	return v;
}

static sqlite3 *
open_raw(const char *path, int writable, struct strbuf *why)
{
	sqlite3 *db = NULL;
	int flags = writable ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY;

	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
		say(why, "cannot open the index '%s': %s", path,
		    sqlite3_errmsg(db));
		sqlite3_close(db);
		return NULL;
	}
	/* A reader waits for a writer's commit rather than failing. */
	sqlite3_busy_timeout(db, 10000);
	return db;
}

int
indexdb_is_index(const char *path)
{
	sqlite3 *db = NULL;
	int ok, is;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) !=
	    SQLITE_OK) {
		sqlite3_close(db);
		return 0;
	}
	is = pragma_int(db, "PRAGMA application_id", &ok) == INDEXDB_APP_ID &&
	    ok;
	sqlite3_close(db);
	return is;
}

sqlite3 *
indexdb_open(const char *path, int writable, struct strbuf *why)
{
	sqlite3 *db = open_raw(path, writable, why);
	long long app, version;
	int ok;

	if (!db)
		return NULL;
	app = pragma_int(db, "PRAGMA application_id", &ok);
	if (!ok) {
		say(why, "'%s' is not a kifu index: %s", path,
		    sqlite3_errmsg(db));
		goto fail;
	}
	if (app != INDEXDB_APP_ID) {
		say(why, "'%s' is not a kifu index (no kifu "
		    "application id; "
		    "make one with kifu index build)", path);
		goto fail;
	}
	version = pragma_int(db, "PRAGMA user_version", &ok);
	if (!ok || version < INDEXDB_VERSION_MIN || version > INDEXDB_VERSION) {
		say(why, "'%s' is a kifu index of schema version "
		    "%lld; this "
		    "kifu reads versions %d to %d: build it again with kifu "
		    "index build", path, version, INDEXDB_VERSION_MIN,
		    INDEXDB_VERSION);
		goto fail;
	}
	/* Every table there, else it is damaged: say so now, not later. */
	if (pragma_int(db, "SELECT count(*) FROM sqlite_schema WHERE "
	    "type = 'table' AND name IN ('meta', 'root', 'file', 'record', "
	    "'header', 'name', 'record_name', 'position', 'occurrence', "
	    "'tag')", &ok) != 9 + (version >= 2) || !ok) {
		say(why, "'%s' is a damaged kifu index: %s", path,
		    ok ? "tables are missing" : sqlite3_errmsg(db));
		goto fail;
	}
	return db;
fail:
	sqlite3_close(db);
	return NULL;
}

int
indexdb_version(sqlite3 *db)
{
	int ok;
	long long v = pragma_int(db, "PRAGMA user_version", &ok);

	return ok ? (int)v : 0;
}

long long
indexdb_int(sqlite3_stmt *st, int col, long long min, long long max, int *bad)
{
	long long v;

	if (sqlite3_column_type(st, col) != SQLITE_INTEGER) {
		*bad = 1;
		return min;
	}
	v = sqlite3_column_int64(st, col);
	if (v < min || v > max) {
		*bad = 1;
		return min;
	}
	return v;
}

const char *
indexdb_text(sqlite3_stmt *st, int col, int *bad)
{
	const unsigned char *s;

	if (sqlite3_column_type(st, col) != SQLITE_TEXT ||
	    !(s = sqlite3_column_text(st, col))) {
		*bad = 1;
		return "";
	}
	/* A NUL inside would cut what every caller compares. */
	if ((size_t)sqlite3_column_bytes(st, col) != strlen((const char *)s))
		*bad = 1;
	return (const char *)s;
}

const char *
indexdb_text_or_null(sqlite3_stmt *st, int col, int *bad)
{
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		return NULL;
	return indexdb_text(st, col, bad);
}

char *
indexdb_meta(sqlite3 *db, const char *key)
{
	sqlite3_stmt *st = NULL;
	char *v = NULL;

	if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = ?", -1,
	    &st, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_type(st, 0) == SQLITE_TEXT)
		v = dupstr((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return v;
}

const struct tagdefs *
indexdb_tagdefs(sqlite3 *db, const char *path, struct strbuf *why)
{
	struct diag_list dl = DIAG_LIST_INIT;
	const struct tagdefs *d;
	char *text;

	if (indexdb_version(db) < 2) {
		say(why, "'%s' has no openings and castles (schema version "
		    "%d): kifu index retag adds them", path,
		    indexdb_version(db));
		return NULL;
	}
	text = indexdb_meta(db, "tag-definitions");
	d = tagdefs_over_builtin(path, text && *text ? text : NULL,
	    text ? strlen(text) : 0, &dl);
	if (!d)
		say(why, "'%s': the definitions its names were made with do "
		    "not load: %s", path, dl.n ? dl.v[0].message : "?");
	free(text);
	diag_list_release(&dl);
	return d;
}

void
indexdb_sfen(const struct position *pos, char out[SFEN_MAX])
{
	char *sp;

	sfen_write(pos, out);
	if ((sp = strrchr(out, ' ')))
		*sp = '\0';
}

int
indexdb_find_position(sqlite3 *db, const char *path,
    const struct position *pos, int board_only, int64_t **ids,
    struct strbuf *why)
{
	char want[SFEN_MAX];
	sqlite3_stmt *st;
	size_t n = 0, alloc = 0, blen;
	int rc, bad = 0;

	*ids = NULL;
	indexdb_sfen(pos, want);
	blen = strcspn(want, " ");
	st = indexdb_prepare(db, path, board_only ?
	    "SELECT id, sfen FROM position WHERE board_key = ?" :
	    "SELECT id, sfen FROM position WHERE key = ?", why);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, (sqlite3_int64)(board_only ?
	    position_board_key(pos) : position_key(pos)));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = indexdb_int(st, 0, 1, LLONG_MAX, &bad);
		const char *s = indexdb_text(st, 1, &bad);

		if (bad)
			break;
		/* The key agreed; the position itself must (keys collide). */
		if (board_only ? strncmp(s, want, blen) || (s[blen] != ' ' &&
		    s[blen]) : strcmp(s, want))
			continue;
		ALLOC_GROW(*ids, n + 1, alloc);
		(*ids)[n++] = id;
	}
	sqlite3_finalize(st);
	if (bad) {
		free(*ids);
		*ids = NULL;
		say(why, "'%s' is a damaged kifu index: a position "
		    "row of the wrong type", path);
		return -1;
	}
	if (rc != SQLITE_DONE) {
		free(*ids);
		*ids = NULL;
		indexdb_why(why, db, path, "cannot read the index");
		return -1;
	}
	return (int)n;
}
