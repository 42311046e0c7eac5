/*
 * The game database through the library (db/build.h, db/search.h,
 * db/tree.h), as a program other than kifu would use it: a build and an
 * update report their counts and messages without printing, a search of
 * the index prints what a scan of the files prints (query/find.h, to the
 * byte), the explorer counts what find counts, and what is wrong comes
 * back in a why.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"
#include "scratch.h"
#include "api/input.h"
#include "api/judge.h"
#include "core/position.h"
#include "core/variant.h"
#include "db/build.h"
#include "db/search.h"
#include "db/tree.h"
#include "query/find.h"
#include "tags/defs.h"
#include "walk/pipeline.h"

#define FIND "testdata/find"

/* What a run's callbacks were told. */
struct told {
	int warnings, notes;
	char last[256];
};

static void
on_warning(void *ctx, const char *msg)
{
	struct told *t = ctx;

	t->warnings++;
	snprintf(t->last, sizeof(t->last), "%s", msg);
}

static void
on_note(void *ctx, const char *msg)
{
	struct told *t = ctx;

	t->notes++;
	snprintf(t->last, sizeof(t->last), "%s", msg);
}

static const struct judge_opts plain;

static void
run_opts(struct indexdb_run *run, struct pipeline_opts *po,
    struct indexdb_report *rep, struct told *t)
{
	memset(po, 0, sizeof(*po));
	po->jobs = 2;
	memset(t, 0, sizeof(*t));
	rep->ctx = t;
	rep->warning = on_warning;
	rep->note = on_note;
	run->judge = &plain;
	run->walk = po;
	run->report = rep;
	run->tags = NULL;
}

static void
build(const char *db, char *const *paths, int n, int force,
    struct indexdb_counts *counts, struct told *t)
{
	struct indexdb_run run;
	struct indexdb_report rep;
	struct pipeline_opts po;
	struct strbuf why = STRBUF_INIT;

	run_opts(&run, &po, &rep, t);
	if (indexdb_build(db, paths, n, "", force, &run, counts, &why))
		fail_msg("build failed: %s", why.buf);
	strbuf_release(&why);
}

static void
test_build_counts(void **state)
{
	char *paths[] = { (char *)FIND };
	struct indexdb_counts n;
	struct told t;

	(void)state;
	build(in_dir("find.sqlite"), paths, 1, 0, &n, &t);
	assert_int_equal(n.files, 7);
	assert_int_equal(n.records, 8);
	assert_true(n.positions > 0);
	assert_int_equal(t.warnings, 0);
}

static void
test_build_refuses(void **state)
{
	char *paths[] = { (char *)FIND };
	struct indexdb_run run;
	struct indexdb_report rep;
	struct pipeline_opts po;
	struct indexdb_counts n;
	struct strbuf why = STRBUF_INIT;
	struct told t;
	FILE *f;

	(void)state;
	build(in_dir("twice.sqlite"), paths, 1, 0, &n, &t);
	run_opts(&run, &po, &rep, &t);
	/* An index there: only with force. */
	assert_int_equal(indexdb_build(in_dir("twice.sqlite"), paths, 1, "",
	    0, &run, &n, &why), -1);
	assert_non_null(strstr(why.buf, "exists"));
	strbuf_reset(&why);
	assert_int_equal(indexdb_build(in_dir("twice.sqlite"), paths, 1, "",
	    1, &run, &n, &why), 0);
	/* Another file: never, and it stays. */
	assert_non_null(f = fopen(in_dir("notes.txt"), "w"));
	fputs("mine\n", f);
	fclose(f);
	assert_int_equal(indexdb_build(in_dir("notes.txt"), paths, 1, "", 1,
	    &run, &n, &why), -1);
	assert_non_null(strstr(why.buf, "is not a kifu index"));
	assert_null(strchr(why.buf, '\n'));
	strbuf_release(&why);
}

static void
test_build_reports(void **state)
{
	char *paths[] = { (char *)FIND "/two-games.csa",
	    (char *)"testdata/no-such-file.csa" };
	struct indexdb_counts n;
	struct told t;
	FILE *f;

	(void)state;
	/* A temporary file of a build that died (no such process). */
	assert_non_null(f = fopen(in_dir("r.sqlite.tmp.999999999"), "w"));
	fclose(f);
	build(in_dir("r.sqlite"), paths, 2, 0, &n, &t);
	assert_int_equal(n.records, 2);
	assert_int_equal(t.warnings, 1);
	assert_int_equal(t.notes, 1);
	assert_int_equal(access(in_dir("r.sqlite.tmp.999999999"), F_OK), -1);
}

/* A stream into a buffer, and the buffer. */
struct mem {
	char *buf;
	size_t len;
	FILE *f;
};

static void
mem_open(struct mem *m)
{
	m->buf = NULL;
	m->len = 0;
	assert_non_null(m->f = open_memstream(&m->buf, &m->len));
}

static void
mem_close(struct mem *m)
{
	fclose(m->f);
	m->f = NULL;
}

/*
 * A find whose criteria are opts ("--player", "x", ...), then output;
 * names (--opening, --castle) by defs.
 */
static void
find_setup_defs(struct find *c, const int *opts, const char *const *args,
    int json, int list, const struct tagdefs *defs)
{
	struct strbuf why = STRBUF_INIT;
	size_t i;

	memset(c, 0, sizeof(*c));
	filter_init(&c->f);
	for (i = 0; opts[i]; i++)
		if (filter_take(&c->f, opts[i], args[i], &why) != 1)
			fail_msg("filter_take: %s", why.buf);
	c->f.defs = defs;
	if (filter_finish(&c->f, &limits_default, &why))
		fail_msg("filter_finish: %s", why.buf);
	strbuf_release(&why);
	c->json = json;
	c->list = list;
	find_prepare(c);
}

static void
find_setup(struct find *c, const int *opts, const char *const *args,
    int json, int list)
{
	find_setup_defs(c, opts, args, json, list, NULL);
}

/*
 * A scan of root and a search of the index db of it print the same, and
 * find want matches; the names by kifu's own definitions for the scan,
 * by the index's own for the search.
 */
static void
scan_equals_search_of(const char *root, const char *db, const int *opts,
    const char *const *args, int json, int list, long long want)
{
	char *paths[] = { (char *)root };
	struct find scan, idx;
	struct pipeline_opts po;
	struct indexdb_search_out io;
	struct strbuf why = STRBUF_INIT;
	struct mem so, se, io_out, io_err;
	const struct tagdefs *defs = indexdb_search_tagdefs(db, &why);

	if (!defs)
		fail_msg("the index's definitions: %s", why.buf);
	find_setup_defs(&scan, opts, args, json, list, tagdefs_default());
	find_setup_defs(&idx, opts, args, json, list, defs);
	mem_open(&so);
	mem_open(&se);
	mem_open(&io_out);
	mem_open(&io_err);
	memset(&po, 0, sizeof(po));
	po.jobs = 2;
	po.out = so.f;
	po.err = se.f;
	assert_int_equal(pipeline_run(&po, &find_ops, &scan, paths, 1, 0, 0,
	    NULL, NULL), 0);
	memset(&io, 0, sizeof(io));
	io.out = io_out.f;
	io.err = io_err.f;
	if (indexdb_search(&idx, db, &io, &why))
		fail_msg("search failed: %s", why.buf);
	mem_close(&so);
	mem_close(&se);
	mem_close(&io_out);
	mem_close(&io_err);
	assert_int_equal(scan.matched, want);
	assert_int_equal(idx.matched, want);
	assert_true(want == 0 || so.len > 0);
	assert_int_equal(scan.failed, idx.failed);
	assert_int_equal(so.len, io_out.len);
	assert_memory_equal(so.buf, io_out.buf, so.len);
	assert_int_equal(se.len, io_err.len);
	assert_memory_equal(se.buf, io_err.buf, se.len);
	free(so.buf);
	free(se.buf);
	free(io_out.buf);
	free(io_err.buf);
	filter_release(&scan.f);
	filter_release(&idx.f);
	tagdefs_put(defs);
	strbuf_release(&why);
}

static void
scan_equals_search(const char *db, const int *opts, const char *const *args,
    int json, int list, long long want)
{
	scan_equals_search_of(FIND, db, opts, args, json, list, want);
}

/*
 * The names (kifu tag): stored by the build, searched as a scan finds
 * them, counted by the explorer, and named again by retag.
 */
static void
test_names(void **state)
{
	char *paths[] = { (char *)"testdata/tags/records" };
	static const int opening[] = { OPT_F_OPENING, 0 };
	static const int sided[] = { OPT_F_OPENING, OPT_F_SIDE, 0 };
	static const int castle[] = { OPT_F_CASTLE, OPT_F_OPENING, 0 };
	static const char *const ranging[] = { "振り飛車", NULL };
	static const char *const white[] = { "振り飛車", "white", NULL };
	static const char *const mino[] = { "美濃", "四間飛車", NULL };
	const char *db = in_dir("names.sqlite");
	struct indexdb_counts n;
	struct indexdb_tree *tree;
	struct tree_node top;
	struct position start;
	struct strbuf why = STRBUF_INIT;
	struct told t;
	long long named;
	size_t i, k;
	int was, found = 0;

	(void)state;
	build(db, paths, 1, 0, &n, &t);
	scan_equals_search_of(paths[0], db, opening, ranging, 0, 0, 3);
	scan_equals_search_of(paths[0], db, sided, white, 1, 0, 3);
	scan_equals_search_of(paths[0], db, castle, mino, 0, 1, 1);
	/* The games from the start are named by the moves they play. */
	assert_non_null(tree = indexdb_tree_open(db, &why));
	assert_true(indexdb_tree_has_names(tree));
	position_set_start(&start, variant_standard());
	assert_int_equal(indexdb_tree_explore(tree, &start, &top, &why), 0);
	for (i = 0; i < top.n; i++)
		for (k = 0; k < top.m[i].nnames; k++)
			if (!strcmp(top.m[i].names[k].name, "四間飛車")) {
				assert_string_equal(top.m[i].move, "7g7f");
				found = 1;
			}
	assert_true(found);
	tree_node_release(&top);
	indexdb_tree_close(tree);
	/* Named again, the same records. */
	assert_int_equal(indexdb_retag(db, NULL, &named, &was, &why), 0);
	assert_int_equal(was, 2);
	assert_int_equal(named, 7);
	scan_equals_search_of(paths[0], db, opening, ranging, 0, 0, 3);
	strbuf_release(&why);
}

static void
test_search_is_a_scan(void **state)
{
	char *paths[] = { (char *)FIND };
	static const int none[] = { 0 };
	static const int player[] = { OPT_F_PLAYER, 0 };
	static const int usi[] = { OPT_F_USI, 0 };
	static const int both[] = { OPT_F_USI, OPT_F_WINNER, 0 };
	static const int var[] = { OPT_F_VARIATIONS, OPT_F_USI, 0 };
	static const char *const pa[] = { "habu", NULL };
	static const char *const ua[] = { "startpos moves 7g7f", NULL };
	static const char *const ba[] = { "startpos moves 7g7f", "white",
	    NULL };
	static const char *const va[] = { NULL, "startpos moves 7g7f 3c3d",
	    NULL };
	const char *db = in_dir("scan.sqlite");
	struct indexdb_counts n;
	struct told t;

	(void)state;
	build(db, paths, 1, 0, &n, &t);
	scan_equals_search(db, none, NULL, 0, 0, 8);
	scan_equals_search(db, none, NULL, 1, 0, 8);
	scan_equals_search(db, none, NULL, 0, 1, 8);
	scan_equals_search(db, player, pa, 0, 0, 1);
	scan_equals_search(db, usi, ua, 0, 0, 4);
	scan_equals_search(db, usi, ua, 1, 0, 4);
	scan_equals_search(db, both, ba, 0, 0, 3);
	scan_equals_search(db, var, va, 0, 0, 4);
}

static void
test_search_why(void **state)
{
	static const int none[] = { 0 };
	struct indexdb_search_out io;
	struct strbuf why = STRBUF_INIT;
	struct find c;

	(void)state;
	find_setup(&c, none, NULL, 0, 0);
	memset(&io, 0, sizeof(io));
	assert_int_equal(indexdb_search(&c, in_dir("nowhere.sqlite"), &io,
	    &why), -1);
	assert_non_null(strstr(why.buf, "nowhere.sqlite"));
	filter_release(&c.f);
	strbuf_release(&why);
}

/* The explorer's games at a position are find's records that reach it. */
static void
test_tree_counts_games(void **state)
{
	char *paths[] = { (char *)FIND };
	static const int usi[] = { OPT_F_USI, 0 };
	static const char *const ua[] = { "startpos", NULL };
	const char *db = in_dir("tree.sqlite");
	struct indexdb_search_out io;
	struct indexdb_counts n;
	struct indexdb_tree *t;
	struct tree_node top, child;
	struct position next;
	struct strbuf why = STRBUF_INIT;
	struct find c;
	struct told told;
	long long sum = 0;
	size_t i;

	(void)state;
	build(db, paths, 1, 0, &n, &told);
	find_setup(&c, usi, ua, 0, 0);
	c.count = 1;
	memset(&io, 0, sizeof(io));
	assert_int_equal(indexdb_search(&c, db, &io, &why), 0);
	assert_non_null(t = indexdb_tree_open(db, &why));
	assert_int_equal(indexdb_tree_explore(t, &c.f.pos, &top, &why), 0);
	assert_int_equal(top.games, c.matched);
	assert_true(top.n > 0);
	for (i = 0; i < top.n; i++) {
		assert_true(top.m[i].games >= top.m[i].black +
		    top.m[i].draws + top.m[i].white);
		assert_true(i == 0 || top.m[i - 1].games >= top.m[i].games);
		sum += top.m[i].games;
	}
	assert_true(sum <= top.games);
	assert_int_equal(indexdb_tree_play(t, &c.f.pos, top.m[0].move, &next,
	    &why), 0);
	assert_int_equal(indexdb_tree_explore(t, &next, &child, &why), 0);
	assert_true(child.games <= top.m[0].games + 1);
	/* A move that cannot be stored there is damage. */
	assert_int_equal(indexdb_tree_play(t, &c.f.pos, "5e5d", &next, &why),
	    -1);
	assert_non_null(strstr(why.buf, "damaged"));
	tree_node_release(&child);
	tree_node_release(&top);
	indexdb_tree_close(t);
	filter_release(&c.f);
	strbuf_release(&why);
}

static void
copy_file(const char *from, const char *to)
{
	struct strbuf sb = STRBUF_INIT;
	FILE *f;

	if (input_read(from, &sb) < 0)
		fail_msg("cannot read %s", from);
	assert_non_null(f = fopen(to, "wb"));
	fwrite(sb.buf, 1, sb.len, f);
	fclose(f);
	strbuf_release(&sb);
}

/* The records an index holds, as find --db -c counts them. */
static long long
records_in(const char *db)
{
	static const int none[] = { 0 };
	struct indexdb_search_out io;
	struct strbuf why = STRBUF_INIT;
	struct find c;

	find_setup(&c, none, NULL, 0, 0);
	c.count = 1;
	find_prepare(&c);
	memset(&io, 0, sizeof(io));
	if (indexdb_search(&c, db, &io, &why))
		fail_msg("search: %s", why.buf);
	filter_release(&c.f);
	strbuf_release(&why);
	return c.matched;
}

static void
update(const char *db, char *const *paths, int n,
    struct indexdb_counts *counts)
{
	struct indexdb_run run;
	struct indexdb_report rep;
	struct pipeline_opts po;
	struct strbuf why = STRBUF_INIT;
	struct indexdb_update *u;
	struct told t;

	if (!(u = indexdb_update_open(db, &why)))
		fail_msg("update open: %s", why.buf);
	assert_string_equal(indexdb_update_options(u), "--rules=jsa\n");
	run_opts(&run, &po, &rep, &t);
	if (indexdb_update_run(u, paths, n, &run, counts, &why))
		fail_msg("update: %s", why.buf);
	indexdb_update_close(u);
	strbuf_release(&why);
}

static void
test_update(void **state)
{
	char recs[128];
	char *paths[1];
	struct indexdb_run run;
	struct indexdb_report rep;
	struct pipeline_opts po;
	struct indexdb_counts n;
	struct strbuf why = STRBUF_INIT;
	struct told t;

	(void)state;
	snprintf(recs, sizeof(recs), "%s/recs", scratch_dir);
	assert_int_equal(mkdir(recs, 0777), 0);
	paths[0] = recs;
	copy_file(FIND "/two-games.csa", in_dir("recs/a.csa"));
	run_opts(&run, &po, &rep, &t);
	assert_int_equal(indexdb_build(in_dir("u.sqlite"), paths, 1,
	    "--rules=jsa\n", 0, &run, &n, &why), 0);
	assert_int_equal(n.records, 2);
	assert_int_equal(records_in(in_dir("u.sqlite")), 2);
	/* Nothing changed: nothing read again. */
	update(in_dir("u.sqlite"), NULL, 0, &n);
	assert_int_equal(n.files, 0);
	/* A new file is read, the old one kept; a gone one dropped. */
	copy_file(FIND "/variation.kifu", in_dir("recs/b.kifu"));
	update(in_dir("u.sqlite"), NULL, 0, &n);
	assert_int_equal(n.files, 1);
	assert_int_equal(n.records, 1);
	assert_int_equal(records_in(in_dir("u.sqlite")), 3);
	assert_int_equal(unlink(in_dir("recs/a.csa")), 0);
	update(in_dir("u.sqlite"), NULL, 0, &n);
	assert_int_equal(n.files, 0);
	assert_int_equal(records_in(in_dir("u.sqlite")), 1);
	/* Not an index: refused at the open. */
	assert_null(indexdb_update_open(in_dir("recs/b.kifu"), &why));
	assert_true(why.len > 0);
	strbuf_release(&why);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_counts),
		cmocka_unit_test(test_build_refuses),
		cmocka_unit_test(test_build_reports),
		cmocka_unit_test(test_search_is_a_scan),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_search_why),
		cmocka_unit_test(test_tree_counts_games),
		cmocka_unit_test(test_update),
	};

	return cmocka_run_group_tests(tests, scratch_setup,
	    scratch_teardown);
}
