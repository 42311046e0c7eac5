/*
 * indexdb.h - the game database of `kifu index`: an SQLite file, its
 * schema (doc/archives.md describes it for users of sqlite3), and what
 * reading it takes. db/build.h builds and updates it, db/search.h
 * answers find's criteria from it (`find --db`), db/tree.h explores
 * its openings (`tree --db`).
 *
 * Why SQLite: one file, no server, and every language reads it; the
 * field's standard embedded database. The schema is versioned (PRAGMA
 * user_version) and marked as ours (PRAGMA application_id), and both
 * are checked on open, so a file of another program or of another
 * version is refused with a clear error rather than misread.
 *
 * Every value read back is checked for its type and range: a database
 * is a file like any other, and a damaged or hand-edited one is an
 * error (exit 2), never a crash or a wrong answer.
 */
#ifndef KIFU_DB_INDEXDB_H
#define KIFU_DB_INDEXDB_H

#include <stddef.h>
#include <stdint.h>

#include "core/position.h"
#include "core/record.h"
#include "core/sfen.h"
#include "core/strbuf.h"

struct sqlite3;
struct sqlite3_stmt;

/*
 * The schema's version: PRAGMA user_version. 2 added the tag table (the
 * names kifu tag gives each record); an index of version 1 is still
 * read, as having no names, and `kifu index retag` makes it version 2.
 */
#define INDEXDB_VERSION 2
/* The oldest version read. */
#define INDEXDB_VERSION_MIN 1
/* PRAGMA application_id: "KIFU". */
#define INDEXDB_APP_ID 0x4b494655

/* The statements that create the tables (the indexes come after). */
extern const char indexdb_schema[];
/* The indexes, made once the bulk of the rows is in. */
extern const char indexdb_indexes[];
/* What version 2 added: the tag table and its indexes (retag). */
extern const char indexdb_tag_schema[];
extern const char indexdb_tag_indexes[];

/*
 * Functions that can fail append what is wrong to a `why` they are
 * given (a line of its own, naming the file: "'games.db' is not a kifu
 * index"), which may be NULL where the caller does not want it.
 *
 * Opens the index at path, read-only or for writing (never creating
 * it), and checks that it is a kifu index of this version. Returns NULL
 * with why set when it cannot.
 */
struct sqlite3 *indexdb_open(const char *path, int writable,
    struct strbuf *why);

/* Whether path is an SQLite file that is a kifu index (any version). */
int indexdb_is_index(const char *path);

/* The version of an index indexdb_open opened (1 or 2). */
int indexdb_version(struct sqlite3 *db);

/* "'PATH': WHAT: SQLITE'S MESSAGE" into why (nothing if why is NULL). */
void indexdb_why(struct strbuf *why, struct sqlite3 *db, const char *path,
    const char *what);

/* A prepared statement, or NULL with why set. */
struct sqlite3_stmt *indexdb_prepare(struct sqlite3 *db, const char *path,
    const char *sql, struct strbuf *why);

/*
 * Columns read with their type checked: a wrong type or a NULL where
 * none may be, or a number out of [min, max], sets *bad. A NULL text is
 * "" for indexdb_text_or_null's callers that allow it (*is_null set).
 */
long long indexdb_int(struct sqlite3_stmt *st, int col, long long min,
    long long max, int *bad);
const char *indexdb_text(struct sqlite3_stmt *st, int col, int *bad);
const char *indexdb_text_or_null(struct sqlite3_stmt *st, int col, int *bad);

/* A meta value (the build's options), or NULL; owned by the caller. */
char *indexdb_meta(struct sqlite3 *db, const char *key);

/*
 * The definitions the index's names were made with: kifu's own, with
 * the text of build's --definitions file (meta tag-definitions) over
 * them; what update names with, and what find --db reads the names it
 * is asked for by. NULL with why set: an index of schema version 1 (it
 * has no names: kifu index retag adds them), or a text that no longer
 * loads. Free with tagdefs_put (tags/defs.h).
 */
struct tagdefs;
const struct tagdefs *indexdb_tagdefs(struct sqlite3 *db, const char *path,
    struct strbuf *why);

/*
 * The SFEN a position is stored under: board, side and hands, without
 * the move number (positions are the same at any ply).
 */
void indexdb_sfen(const struct position *pos, char out[SFEN_MAX]);

/*
 * The ids of the stored positions equal to pos (board_only: the same
 * board), every key match confirmed against the stored SFEN. Returns
 * the number of ids put in *ids (owned by the caller), or -1 with why
 * set.
 */
int indexdb_find_position(struct sqlite3 *db, const char *path,
    const struct position *pos, int board_only, int64_t **ids,
    struct strbuf *why);

#endif /* KIFU_DB_INDEXDB_H */
