/*
 * The walk of the public library (kifu.h: kifu_walk_*, api/walk.c over
 * walk/walk.c's iterator): a tree in name order, record files only
 * (and files without an extension that are certainly records), archives
 * read in place, what cannot be read or is passed over reported while
 * the walk goes on, every file with "all-files", a walk left half-way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "scratch.h"
#include "kifu/kifu.h"

#define FLOODGATE "testdata/training/records/r1-floodgate-2021.csa"
#define FORK "testdata/kif/json-kifu-format/test/files/kif/fork.kif"

static void
sh(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (system(cmd) != 0)
		fail_msg("failed: %s", cmd);
}

/* tree/: records, a file that is none, one without an extension, a tar. */
static int
make_tree(void **state)
{
	const char *t;

	if (scratch_setup(state))
		return -1;
	t = in_dir("tree");
	sh("mkdir -p %s/b/c && cp %s %s/a.csa && cp %s %s/b/c/fork.kif && "
	    "cp %s %s/b/noext && echo hello >%s/b/README && "
	    "echo notes >%s/b/notes.txt && cp %s %s/b/z.csa", t, FLOODGATE,
	    t, FORK, t, FLOODGATE, t, t, t, FORK, t);
	sh("cd %s && tar cf ../t.tar a.csa b/c b/notes.txt", t);
	sh("mv %s %s/b/t.tar && ln -s nowhere %s/b/dangling.csa && "
	    "ln -s .. %s/b/c/up", in_dir("t.tar"), t, t, t);
	return 0;
}

/* The tests run at the top of the tree; the shell commands elsewhere. */
static const char *
cwd(void)
{
	static char buf[4096];

	if (!getcwd(buf, sizeof(buf)))
		fail_msg("getcwd");
	return buf;
}

struct seen {
	char names[32][256];
	size_t len[32];
	int n;
	char errors[8][256];
	const char *ids[8];
	int nerrors;
};

static void
walk_all(const char *path, const kifu_options *o, struct seen *s)
{
	kifu_walk *w;
	kifu_error *e = NULL;
	const char *name;
	const void *data;
	size_t len;
	int rc;

	memset(s, 0, sizeof(*s));
	assert_int_equal(kifu_walk_open(path, o, &w, &e), KIFU_OK);
	assert_null(e);
	while ((rc = kifu_walk_next(w, &name, &data, &len, &e)) != 0) {
		if (rc < 0) {
			assert_int_equal(rc, KIFU_ERR_IO);
			assert_true(s->nerrors < 8);
			snprintf(s->errors[s->nerrors], 256, "%s",
			    kifu_error_message(e));
			s->ids[s->nerrors++] = !strcmp(kifu_error_id(e),
			    "skipped") ? "skipped" : "io";
			kifu_error_free(e);
			continue;
		}
		assert_null(e);
		assert_true(s->n < 32);
		snprintf(s->names[s->n], 256, "%s", name + strlen(path));
		s->len[s->n++] = len;
		assert_non_null(data);
	}
	assert_null(name);
	kifu_walk_free(w);
}

static void
test_walk_tree(void **state)
{
	const char *want[] = {
		"/a.csa", "/b/c/fork.kif", "/b/noext", "/b/t.tar//a.csa",
		"/b/t.tar//b/c/fork.kif", "/b/z.csa"
	};
	struct seen s;
	int i;

	(void)state;
	walk_all(in_dir("tree"), NULL, &s);
	assert_int_equal(s.n, 6);
	for (i = 0; i < s.n; i++)
		assert_string_equal(s.names[i], want[i]);
	assert_int_equal(s.len[0], s.len[3]);
	/* The dangling link cannot be read; the loop is passed over. */
	assert_int_equal(s.nerrors, 2);
	assert_string_equal(s.ids[0], "skipped");
	assert_non_null(strstr(s.errors[0], "/b/c/up: warning: passed over: "
	    "symlink loop [skipped]"));
	assert_string_equal(s.ids[1], "io");
	assert_non_null(strstr(s.errors[1], "dangling.csa"));
}

/* What the walk hands over reads as the file itself does. */
static void
test_walk_read(void **state)
{
	kifu_walk *w;
	kifu_file *f, *g;
	kifu_error *e = NULL;
	const char *name;
	const void *data;
	size_t len;

	(void)state;
	assert_int_equal(kifu_walk_open(FLOODGATE, NULL, &w, NULL), KIFU_OK);
	assert_int_equal(kifu_walk_next(w, &name, &data, &len, &e), 1);
	assert_string_equal(name, FLOODGATE);
	assert_int_equal(kifu_read_buffer(data, len, name, NULL, &f, &e),
	    KIFU_OK);
	assert_int_equal(kifu_read_file(FLOODGATE, NULL, &g, &e), KIFU_OK);
	assert_string_equal(kifu_record_json(kifu_file_record(f, 0)),
	    kifu_record_json(kifu_file_record(g, 0)));
	kifu_file_free(f);
	kifu_file_free(g);
	assert_int_equal(kifu_walk_next(w, &name, &data, &len, &e), 0);
	assert_int_equal(kifu_walk_next(w, &name, &data, &len, &e), 0);
	kifu_walk_free(w);
}

static void
test_walk_all_files(void **state)
{
	kifu_options *o = kifu_options_new();
	struct seen s;
	int i, readme = 0, notes = 0;

	(void)state;
	assert_int_equal(kifu_options_set(o, "all-files", "yes", NULL),
	    KIFU_OK);
	walk_all(in_dir("tree"), o, &s);
	for (i = 0; i < s.n; i++) {
		readme += !strcmp(s.names[i], "/b/README");
		notes += strstr(s.names[i], "notes.txt") != NULL;
	}
	assert_int_equal(readme, 1);
	assert_int_equal(notes, 2);	/* in the tree and in the tar */
	assert_int_equal(s.n, 9);
	assert_int_equal(kifu_options_set(o, "all-files", "maybe", NULL),
	    KIFU_ERR_ARG);
	kifu_options_free(o);
}

/*
 * The order: a directory's names as bytes compare (strcmp: capitals
 * first, "a10" before "a9", UTF-8 last), an archive's members in the
 * archive's own order, whatever the compression.
 */
static void
test_walk_order(void **state)
{
	const char *want[] = {
		"/B.csa", "/_x.csa", "/a10.csa", "/a9.csa",
		"/m.tar.xz//z.csa", "/m.tar.xz//a.csa",
		"/m.zip//z.csa", "/m.zip//d/a.csa", "/\xe5\xb0\x86.csa",
	};
	const char *o = in_dir("order");
	struct seen s;
	int i;

	(void)state;
	sh("mkdir -p %s/in/d && cd %s && for n in B _x a10 a9 "
	    "'\xe5\xb0\x86'; do cp %s/%s \"$n.csa\"; done && "
	    "cp %s/%s in/z.csa && cp %s/%s in/a.csa && cp in/a.csa in/d/ && "
	    "(cd in && tar cJf ../m.tar.xz z.csa a.csa && "
	    "zip -q ../m.zip z.csa d/a.csa) && rm -r in", o, o, cwd(),
	    FLOODGATE, cwd(), FLOODGATE, cwd(), FORK);
	walk_all(o, NULL, &s);
	assert_int_equal(s.nerrors, 0);
	assert_int_equal(s.n, 9);
	for (i = 0; i < s.n; i++)
		assert_string_equal(s.names[i], want[i]);
	/* The members' bytes are the files'. */
	assert_int_equal(s.len[4], s.len[0]);
	assert_int_equal(s.len[6], s.len[0]);
	assert_int_not_equal(s.len[5], s.len[0]);
}

/* "-": the bytes on standard input, once, named "<stdin>". */
static void
test_walk_stdin(void **state)
{
	kifu_walk *w;
	kifu_error *e = NULL;
	const char *name;
	const void *data;
	size_t len;
	FILE *fp;
	int saved = dup(0);

	(void)state;
	assert_non_null(fp = fopen(FORK, "rb"));
	assert_int_equal(dup2(fileno(fp), 0), 0);
	fclose(fp);
	assert_int_equal(kifu_walk_open("-", NULL, &w, &e), KIFU_OK);
	assert_int_equal(kifu_walk_next(w, &name, &data, &len, &e), 1);
	assert_string_equal(name, "<stdin>");	/* as kifu check names it */
	{
		char buf[1 << 16];
		FILE *in = fopen(FORK, "rb");
		size_t n;

		assert_non_null(in);
		n = fread(buf, 1, sizeof(buf), in);
		fclose(in);
		assert_true(n > 100);
		assert_int_equal(len, n);
		assert_memory_equal(data, buf, n);
	}
	assert_int_equal(kifu_walk_next(w, &name, &data, &len, &e), 0);
	kifu_walk_free(w);
	assert_int_equal(dup2(saved, 0), 0);
	close(saved);
}

/* A walk freed half-way, inside a directory and inside an archive. */
static void
test_walk_left_halfway(void **state)
{
	const char *name;
	const void *data;
	size_t len;
	kifu_walk *w;
	int k;

	(void)state;
	for (k = 1; k <= 5; k++) {
		int i;

		assert_int_equal(kifu_walk_open(in_dir("tree"), NULL, &w,
		    NULL), KIFU_OK);
		for (i = 0; i < k; i++)
			(void)kifu_walk_next(w, &name, &data, &len, NULL);
		kifu_walk_free(w);
	}
	kifu_walk_free(NULL);
}

static void
test_walk_errors(void **state)
{
	kifu_walk *w = (kifu_walk *)&w;
	kifu_error *e = NULL;

	(void)state;
	assert_int_equal(kifu_walk_open(in_dir("nothing"), NULL, &w, &e),
	    KIFU_ERR_IO);
	assert_null(w);
	assert_string_equal(kifu_error_id(e), "io");
	assert_non_null(strstr(kifu_error_message(e), "nothing"));
	kifu_error_free(e);
	assert_int_equal(kifu_walk_open(NULL, NULL, &w, &e), KIFU_ERR_ARG);
	kifu_error_free(e);
	/* A damaged archive: what can be read, then the error. */
	sh("head -c 3000 %s/b/t.tar >%s", in_dir("tree"), in_dir("cut.tar"));
	assert_int_equal(kifu_walk_open(in_dir("cut.tar"), NULL, &w, &e),
	    KIFU_OK);
	{
		const char *name;
		const void *data;
		size_t len;
		int rc, files = 0, errors = 0;

		while ((rc = kifu_walk_next(w, &name, &data, &len, &e)) != 0) {
			if (rc < 0) {
				errors++;
				assert_string_equal(kifu_error_id(e), "io");
				kifu_error_free(e);
			} else {
				files++;
			}
		}
		assert_int_equal(errors, 1);
		assert_true(files <= 1);
	}
	kifu_walk_free(w);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_walk_tree),
		cmocka_unit_test(test_walk_read),
		cmocka_unit_test(test_walk_all_files),
		cmocka_unit_test(test_walk_order),
		cmocka_unit_test(test_walk_stdin),
		cmocka_unit_test(test_walk_left_halfway),
		cmocka_unit_test(test_walk_errors),
	};

	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests_name("api/walk", tests, make_tree,
	    scratch_teardown);
}
