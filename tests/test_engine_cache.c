/*
 * The analysis cache (engine/cache.h): stored and found again by
 * position and setup, kept across opening, refused when the file is
 * another's, and merged; the note of an engine kept beside the results.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "helpers.h"
#include "db/sqlite.h"
#include "engine/cache.h"

static char dir[256];

static void
path(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", dir, name);
}

static int
setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "%s/kifu-cache.XXXXXX",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(dir) ? 0 : -1;
}

static int
teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static int
find(const struct analyze_cache *ops, const char *pos, const char *setup_text,
    char *out, size_t n)
{
	struct strbuf v = STRBUF_INIT;
	int found = ops->lookup(ops->ctx, pos, setup_text, &v);

	snprintf(out, n, "%s", v.buf ? v.buf : "");
	strbuf_release(&v);
	return found;
}

static void
test_store_find(void **state)
{
	struct analyze_cache ops;
	struct cache *c;
	char p[300], err[512], v[256];

	(void)state;
	path(p, sizeof(p), "a.db");
	c = cache_open(p, 0, err, sizeof(err));
	assert_null(c);
	c = cache_open(p, 1, err, sizeof(err));
	assert_non_null(c);
	cache_ops(c, &ops);
	assert_false(find(&ops, "POS1", "S1", v, sizeof(v)));
	ops.store(ops.ctx, "POS1", "S1", "bestmove 7g7f\n");
	ops.store(ops.ctx, "POS1", "S2", "bestmove 2g2f\n");
	ops.store(ops.ctx, "POS2", "S1", "bestmove 5g5f\n");
	assert_int_equal(cache_stored(c), 3);
	assert_true(find(&ops, "POS1", "S1", v, sizeof(v)));
	assert_string_equal(v, "bestmove 7g7f\n");
	assert_true(find(&ops, "POS1", "S2", v, sizeof(v)));
	assert_string_equal(v, "bestmove 2g2f\n");
	assert_false(find(&ops, "POS2", "S2", v, sizeof(v)));
	/* Stored again: replaced. */
	ops.store(ops.ctx, "POS1", "S1", "bestmove 6g6f\n");
	cache_close(c);
	/* Kept across opening (each store was committed). */
	c = cache_open(p, 0, err, sizeof(err));
	assert_non_null(c);
	cache_ops(c, &ops);
	assert_true(find(&ops, "POS1", "S1", v, sizeof(v)));
	assert_string_equal(v, "bestmove 6g6f\n");
	assert_int_equal(cache_failures(c), 0);
	cache_close(c);
}

static void
test_refused(void **state)
{
	char p[300], err[512];
	sqlite3 *db;
	FILE *f;

	(void)state;
	path(p, sizeof(p), "junk.db");
	f = fopen(p, "w");
	fputs("this is no database at all, not even close to one......\n", f);
	fclose(f);
	assert_null(cache_open(p, 1, err, sizeof(err)));
	assert_non_null(strstr(err, "not an SQLite file"));
	/* Another program's database. */
	path(p, sizeof(p), "other.db");
	assert_int_equal(sqlite3_open_v2(p, &db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE t(x)", NULL, NULL,
	    NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_null(cache_open(p, 1, err, sizeof(err)));
	assert_non_null(strstr(err, "not a kifu analysis cache"));
	/* A cache of another version. */
	path(p, sizeof(p), "v2.db");
	assert_int_equal(sqlite3_open_v2(p, &db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA application_id = 1263093313; "
	    "PRAGMA user_version = 2; CREATE TABLE t(x)", NULL, NULL, NULL),
	    SQLITE_OK);
	sqlite3_close(db);
	assert_null(cache_open(p, 1, err, sizeof(err)));
	assert_non_null(strstr(err, "version 2"));
}

static void
test_merge(void **state)
{
	struct analyze_cache ops;
	struct cache *c;
	char a[300], b[300], m[300], err[512], v[256];
	const char *in[2];
	long long added, conflicts;

	(void)state;
	path(a, sizeof(a), "a.db");
	path(b, sizeof(b), "b.db");
	path(m, sizeof(m), "m.db");
	c = cache_open(a, 1, err, sizeof(err));
	cache_ops(c, &ops);
	ops.store(ops.ctx, "P1", "S", "A1");
	ops.store(ops.ctx, "P2", "S", "A2");
	cache_close(c);
	c = cache_open(b, 1, err, sizeof(err));
	cache_ops(c, &ops);
	ops.store(ops.ctx, "P2", "S", "B2");	/* differs: a's is kept */
	ops.store(ops.ctx, "P3", "S", "B3");
	ops.store(ops.ctx, "P1", "T", "B1T");	/* another setup */
	cache_close(c);
	in[0] = a;
	in[1] = b;
	assert_int_equal(cache_merge(in, 2, m, 0, &added, &conflicts, err,
	    sizeof(err)), 0);
	assert_int_equal(added, 4);
	assert_int_equal(conflicts, 1);
	c = cache_open(m, 0, err, sizeof(err));
	assert_non_null(c);
	cache_ops(c, &ops);
	assert_true(find(&ops, "P2", "S", v, sizeof(v)));
	assert_string_equal(v, "A2");
	assert_true(find(&ops, "P3", "S", v, sizeof(v)));
	assert_true(find(&ops, "P1", "T", v, sizeof(v)));
	assert_string_equal(v, "B1T");
	cache_close(c);
	/* The output is never replaced unless forced; nothing is left of a
	   merge that fails. */
	assert_int_equal(cache_merge(in, 2, m, 0, &added, &conflicts, err,
	    sizeof(err)), -1);
	assert_non_null(strstr(err, "exists"));
	in[1] = "/nonexistent/x.db";
	path(m, sizeof(m), "m2.db");
	assert_int_equal(cache_merge(in, 2, m, 0, &added, &conflicts, err,
	    sizeof(err)), -1);
	assert_int_equal(access(m, F_OK), -1);
}

static void
test_engine_note(void **state)
{
	struct strbuf setup_text = STRBUF_INIT, name = STRBUF_INIT;
	struct cache *c;
	char p[300], m[300], err[512];
	const char *in[1];
	long long added, conflicts;
	sqlite3 *db;

	(void)state;
	path(p, sizeof(p), "n.db");
	c = cache_open(p, 1, err, sizeof(err));
	assert_non_null(c);
	assert_false(cache_engine_get(c, "K", &setup_text, &name));
	cache_engine_put(c, "K", "engine=E\noptions=\nlimit=nodes 1", "E");
	cache_engine_put(c, "K2", "S2", "E2");
	/* Noted again: replaced. */
	cache_engine_put(c, "K2", "S3", "E3");
	cache_close(c);
	c = cache_open(p, 1, err, sizeof(err));
	assert_true(cache_engine_get(c, "K", &setup_text, &name));
	assert_string_equal(setup_text.buf, "engine=E\noptions=\nlimit=nodes 1");
	assert_string_equal(name.buf, "E");
	strbuf_reset(&setup_text);
	strbuf_reset(&name);
	assert_true(cache_engine_get(c, "K2", &setup_text, &name));
	assert_string_equal(setup_text.buf, "S3");
	cache_engine_forget(c, "K2");
	strbuf_reset(&setup_text);
	strbuf_reset(&name);
	assert_false(cache_engine_get(c, "K2", &setup_text, &name));
	assert_int_equal(setup_text.len, 0);
	cache_close(c);
	/* A damaged note (a blob, an empty name) is no note. */
	assert_int_equal(sqlite3_open_v2(p, &db, SQLITE_OPEN_READWRITE, NULL),
	    SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "INSERT INTO engine VALUES('B', "
	    "x'00ff', 'E'); INSERT INTO engine VALUES('Z', 'S', '')", NULL,
	    NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	c = cache_open(p, 1, err, sizeof(err));
	assert_false(cache_engine_get(c, "B", &setup_text, &name));
	assert_false(cache_engine_get(c, "Z", &setup_text, &name));
	cache_close(c);
	/* Notes speak of one machine's files: a merge leaves them out. */
	in[0] = p;
	path(m, sizeof(m), "nm.db");
	assert_int_equal(cache_merge(in, 1, m, 0, &added, &conflicts, err,
	    sizeof(err)), 0);
	c = cache_open(m, 1, err, sizeof(err));
	assert_false(cache_engine_get(c, "K", &setup_text, &name));
	cache_close(c);
	/* A cache made before notes were kept gets the table when opened. */
	path(p, sizeof(p), "old.db");
	assert_int_equal(sqlite3_open_v2(p, &db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA application_id = 1263093313; "
	    "PRAGMA user_version = 1; CREATE TABLE setup(id INTEGER PRIMARY "
	    "KEY, text TEXT NOT NULL UNIQUE); CREATE TABLE result(setup "
	    "INTEGER NOT NULL, position TEXT NOT NULL, value TEXT NOT NULL, "
	    "PRIMARY KEY (setup, position)) WITHOUT ROWID", NULL, NULL, NULL),
	    SQLITE_OK);
	sqlite3_close(db);
	c = cache_open(p, 1, err, sizeof(err));
	assert_non_null(c);
	cache_engine_put(c, "K", "S", "E");
	assert_true(cache_engine_get(c, "K", &setup_text, &name));
	cache_close(c);
	strbuf_release(&setup_text);
	strbuf_release(&name);
}

int
main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_store_find, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_merge, setup, teardown),
		cmocka_unit_test_setup_teardown(test_engine_note, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
