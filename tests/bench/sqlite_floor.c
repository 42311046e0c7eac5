/*
 * sqlite_floor.c - the least SQLite work `kifu index build` can do for a
 * corpus (make bench): NPOS distinct positions (key, board key and a
 * 65-byte SFEN) and NOCC occurrence rows (position, record, ply,
 * variation, move), the two biggest tables of the schema in
 * db/indexdb.c, inserted through prepared statements in one
 * transaction with no journal and no sync, then their two lookup
 * indexes. No parsing, no replay, no record, header or name row: what
 * is timed is SQLite alone, so that the build's figure has a floor.
 *
 *   sqlite_floor DB NPOS NOCC
 *
 * DB is removed first and left behind (the caller removes it).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

static int
run(sqlite3 *db, const char *sql)
{
	char *err = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &err) == SQLITE_OK)
		return 0;
	fprintf(stderr, "sqlite_floor: %s: %s\n", sql, err ? err : "?");
	sqlite3_free(err);
	return -1;
}

/* xorshift64: keys spread over the index as real position keys do */
static uint64_t
next_key(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

int
main(int argc, char **argv)
{
	char sfen[] = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/"
	    "LNSGKGSNL w - 2";
	sqlite3_stmt *pos = NULL, *occ = NULL;
	uint64_t seed = 88172645463325252ULL;
	long long npos, nocc, i;
	sqlite3 *db;
	int rc = 1;

	if (argc != 4 || (npos = atoll(argv[2])) < 1 ||
	    (nocc = atoll(argv[3])) < 1) {
		fputs("usage: sqlite_floor DB NPOS NOCC\n", stderr);
		return 2;
	}
	remove(argv[1]);
	if (sqlite3_open(argv[1], &db) != SQLITE_OK) {
		fprintf(stderr, "sqlite_floor: %s: %s\n", argv[1],
		    sqlite3_errmsg(db));
		return 1;
	}
	/* the build's own settings (db/build.c), minus its safety */
	if (run(db, "PRAGMA page_size=16384; PRAGMA journal_mode=OFF;"
	    " PRAGMA synchronous=OFF; PRAGMA cache_size=-262144;"
	    " PRAGMA temp_store=FILE;"
	    " CREATE TABLE position(id INTEGER PRIMARY KEY,"
	    " key INTEGER NOT NULL, board_key INTEGER NOT NULL,"
	    " sfen TEXT NOT NULL);"
	    " CREATE TABLE occurrence(id INTEGER PRIMARY KEY,"
	    " position INTEGER NOT NULL, record INTEGER NOT NULL,"
	    " ply INTEGER NOT NULL, variation INTEGER NOT NULL, move TEXT);"
	    " BEGIN") < 0)
		goto out;
	if (sqlite3_prepare_v2(db, "INSERT INTO position VALUES(?,?,?,?)", -1,
	    &pos, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO occurrence"
	    " VALUES(?,?,?,?,0,?)", -1, &occ, NULL) != SQLITE_OK) {
		fprintf(stderr, "sqlite_floor: %s\n", sqlite3_errmsg(db));
		goto out;
	}
	for (i = 1; i <= npos || i <= nocc; i++) {
		/* a different SFEN each row, of the real length */
		sfen[20 + i % 30] = (char)('a' + i % 26);
		if (i <= npos) {
			sqlite3_bind_int64(pos, 1, i);
			sqlite3_bind_int64(pos, 2, (int64_t)next_key(&seed));
			sqlite3_bind_int64(pos, 3, (int64_t)next_key(&seed));
			sqlite3_bind_text(pos, 4, sfen, (int)strlen(sfen),
			    SQLITE_STATIC);
			if (sqlite3_step(pos) != SQLITE_DONE)
				goto fail;
			sqlite3_reset(pos);
		}
		if (i <= nocc) {
			sqlite3_bind_int64(occ, 1, i);
			sqlite3_bind_int64(occ, 2, 1 + (i - 1) % npos);
			sqlite3_bind_int64(occ, 3, i / 120);
			sqlite3_bind_int64(occ, 4, i % 120);
			sqlite3_bind_text(occ, 5, "7g7f", 4, SQLITE_STATIC);
			if (sqlite3_step(occ) != SQLITE_DONE)
				goto fail;
			sqlite3_reset(occ);
		}
	}
	if (run(db, "COMMIT; CREATE INDEX position_key ON position(key);"
	    " CREATE INDEX occurrence_position ON occurrence(position,"
	    " record, ply, variation, move)") < 0)
		goto out;
	rc = 0;
	goto out;
fail:
	fprintf(stderr, "sqlite_floor: %s\n", sqlite3_errmsg(db));
out:
	sqlite3_finalize(pos);
	sqlite3_finalize(occ);
	sqlite3_close(db);
	return rc;
}
