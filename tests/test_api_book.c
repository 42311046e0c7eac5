/*
 * Opening books through the public library (kifu.h: kifu_book_*,
 * api/book.c): built from records one by one (the bytes `kifu book
 * build` writes), why a record is left out, merged with book files,
 * written to memory and to a file, queried, and the errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "scratch.h"
#include "kifu/kifu.h"

#define SOURCE "testdata/book/source/"
#define START "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"

static const char *const sources[] = {
	SOURCE "src01.ki2", SOURCE "src02.kifu", SOURCE "src03.csa",
	SOURCE "src04.csa", SOURCE "src05.sfen",
};

static kifu_options *
options(const char *key, const char *value)
{
	kifu_options *o = kifu_options_new();

	if (key && kifu_options_set(o, key, value, NULL) != KIFU_OK)
		fail_msg("%s=%s refused", key, value);
	return o;
}

/* Every record of the sources into b: the number it used. */
static int
add_sources(kifu_book *b)
{
	size_t i, k;
	int used = 0;

	for (i = 0; i < sizeof(sources) / sizeof(sources[0]); i++) {
		kifu_file *f;
		kifu_error *e = NULL;

		if (kifu_read_file(sources[i], NULL, &f, &e) != KIFU_OK)
			fail_msg("%s: %s", sources[i], kifu_error_message(e));
		for (k = 0; k < kifu_file_count(f); k++) {
			int rc = kifu_book_add(b, kifu_file_record(f, k), &e);

			if (rc == KIFU_OK) {
				used++;
				continue;
			}
			assert_int_equal(rc, KIFU_ERR_SKIP);
			assert_non_null(strstr(kifu_error_message(e),
			    "not in the book"));
			kifu_error_free(e);
		}
		kifu_file_free(f);
	}
	return used;
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf = malloc(1 << 20);

	assert_non_null(fp);
	*len = fread(buf, 1, (1 << 20) - 1, fp);
	buf[*len] = '\0';
	fclose(fp);
	return buf;
}

static void
test_book_build(void **state)
{
	/* They have no result: "results" "all" takes them, as ShogiHome. */
	kifu_options *o = options("results", "all");
	kifu_book *b;
	kifu_error *e = NULL;
	char *text, *golden;
	size_t len, glen;

	(void)state;
	assert_int_equal(kifu_book_new(o, &b, &e), KIFU_OK);
	assert_null(e);
	assert_int_equal(add_sources(b), 6);
	assert_int_equal(kifu_book_count(b, "records"),
	    kifu_book_count(b, "used") + kifu_book_count(b, "results") +
	    kifu_book_count(b, "illegal") + kifu_book_count(b, "unreadable"));
	assert_int_equal(kifu_book_count(b, "positions"), 0);
	assert_int_equal(kifu_book_write(b, &text, &len, &e), KIFU_OK);
	assert_int_equal(strlen(text), len);
	assert_true(!strncmp(text, "#YANEURAOU-DB2016 1.00\nsfen ", 28));
	assert_int_equal(kifu_book_count(b, "plies"), 47);
	assert_int_equal(kifu_book_count(b, "positions"), 38);
	assert_int_equal(kifu_book_count(b, "moves"), 43);
	/* The bytes `kifu book build --results all` wrote from them. */
	golden = slurp("testdata/book/shogihome-source.db", &glen);
	assert_int_equal(len, glen);
	assert_string_equal(text, golden);
	free(golden);
	kifu_free(text);
	/* A book written is gone. */
	assert_int_equal(kifu_book_write(b, &text, &len, &e), KIFU_ERR_ARG);
	assert_null(text);
	kifu_error_free(e);
	assert_int_equal(kifu_book_read(b, SOURCE "../shogihome-style.db",
	    NULL), KIFU_ERR_ARG);
	kifu_book_free(b);
	kifu_book_free(NULL);
	kifu_options_free(o);
}

/* Why a record is left out, by the names of build's summary. */
static void
test_book_selection(void **state)
{
	static const char two[] = "PI\n+\n+7776FU\n-3334FU\n%TORYO\n/\n"
	    "PI\n+\n+7776FU\n-3334FU\n%TORYO\n/\nPI\n+\n+7776FU\n%CHUDAN\n";
	kifu_options *o = options("uniq", "yes");
	kifu_book *b;
	kifu_file *f;
	kifu_error *e = NULL;

	(void)state;
	assert_int_equal(kifu_options_set(o, "side", "black", NULL), KIFU_OK);
	assert_int_equal(kifu_book_new(o, &b, NULL), KIFU_OK);
	assert_int_equal(kifu_read_buffer(two, strlen(two), "x.csa", NULL, &f,
	    &e), KIFU_OK);
	assert_int_equal(kifu_file_count(f), 3);
	assert_int_equal(kifu_book_add(b, kifu_file_record(f, 0), &e),
	    KIFU_OK);
	assert_int_equal(kifu_book_add(b, kifu_file_record(f, 1), &e),
	    KIFU_ERR_SKIP);
	assert_string_equal(kifu_error_id(e), "uniq");
	kifu_error_free(e);
	assert_int_equal(kifu_book_add(b, kifu_file_record(f, 2), &e),
	    KIFU_ERR_SKIP);
	assert_string_equal(kifu_error_id(e), "results");
	kifu_error_free(e);
	assert_int_equal(kifu_book_count(b, "uniq"), 1);
	assert_int_equal(kifu_book_count(b, "results"), 1);
	assert_int_equal(kifu_book_count(b, "used"), 1);
	/* Black's positions only: the start. */
	assert_int_equal(kifu_book_count(b, "plies"), 1);
	assert_int_equal(kifu_book_count(b, "nothing"), -1);
	assert_int_equal(kifu_book_count(b, NULL), -1);
	kifu_book_free(b);
	kifu_file_free(f);
	/* The options' values are checked. */
	assert_int_equal(kifu_options_set(o, "side", "both", NULL), KIFU_OK);
	assert_int_equal(kifu_options_set(o, "side", "up", &e), KIFU_ERR_ARG);
	kifu_error_free(e);
	assert_int_equal(kifu_options_set(o, "max-ply", "-1", NULL),
	    KIFU_ERR_ARG);
	assert_int_equal(kifu_options_set(o, "memory", "1", NULL),
	    KIFU_ERR_ARG);
	assert_int_equal(kifu_options_set(o, "memory", "64M", NULL), KIFU_OK);
	assert_int_equal(kifu_options_set(o, "min-moves", "x", NULL),
	    KIFU_ERR_ARG);
	assert_int_equal(kifu_options_set(o, "results", "nonsense", NULL),
	    KIFU_ERR_ARG);
	assert_int_equal(kifu_options_set(o, "results", "all", NULL),
	    KIFU_OK);
	assert_int_equal(kifu_options_set(o, "winner", "nobody", NULL),
	    KIFU_ERR_ARG);
	assert_int_equal(kifu_options_set(o, "min-rating", "3000", NULL),
	    KIFU_OK);
	kifu_options_free(o);
}

/* Merged with a book file, written to a file, queried. */
static void
test_book_read_write_query(void **state)
{
	kifu_book *b;
	kifu_error *e = NULL;
	char *text, *got;
	size_t len;

	(void)state;
	assert_int_equal(kifu_book_new(NULL, &b, NULL), KIFU_OK);
	assert_int_equal(kifu_book_read(b, "testdata/book/shogihome-style.db",
	    &e), KIFU_OK);
	assert_int_equal(kifu_book_read(b, "testdata/book/shogihome-style.db",
	    &e), KIFU_OK);
	assert_int_equal(kifu_book_write_file(b, in_dir("twice.db"), 0, &e),
	    KIFU_OK);
	kifu_book_free(b);
	/* Read twice: every count doubled. */
	assert_int_equal(kifu_book_query(in_dir("twice.db"), START, &text,
	    &e), 1);
	assert_int_equal(kifu_book_query("testdata/book/shogihome-style.db",
	    "startpos", &got, &e), 1);
	{
		long long a, c;
		char mv[16], mv2[16];

		assert_int_equal(sscanf(text, "%15s %*s %*s %*s %lld", mv, &a),
		    2);
		assert_int_equal(sscanf(got, "%15s %*s %*s %*s %lld", mv2, &c),
		    2);
		assert_string_equal(mv, mv2);
		assert_int_equal(a, 2 * c);
	}
	kifu_free(text);
	kifu_free(got);
	/* Not there; a USI position; no position at all. */
	assert_int_equal(kifu_book_query(in_dir("twice.db"),
	    "startpos moves 1g1f 9c9d 1f1e", &text, &e), 0);
	assert_null(text);
	assert_int_equal(kifu_book_query(in_dir("twice.db"), "9/9 b", &text,
	    &e), KIFU_ERR_ARG);
	kifu_error_free(e);
	assert_int_equal(kifu_book_query(in_dir("none.db"), START, &text, &e),
	    KIFU_ERR_IO);
	assert_string_equal(kifu_error_id(e), "io");
	kifu_error_free(e);
	assert_int_equal(kifu_book_query(NULL, START, &text, NULL),
	    KIFU_ERR_ARG);
	/* An existing file is not replaced unless asked. */
	assert_int_equal(kifu_book_new(NULL, &b, NULL), KIFU_OK);
	assert_int_equal(kifu_book_write_file(b, in_dir("twice.db"), 0, &e),
	    KIFU_ERR_IO);
	assert_non_null(strstr(kifu_error_message(e), "not replaced"));
	kifu_error_free(e);
	assert_int_equal(kifu_book_write_file(b, "-", 0, &e), KIFU_ERR_ARG);
	kifu_error_free(e);
	assert_int_equal(kifu_book_write_file(b, in_dir("twice.db"), 1, &e),
	    KIFU_OK);
	kifu_book_free(b);
	assert_int_equal(kifu_book_query(in_dir("twice.db"), START, &text,
	    &e), 0);
	(void)len;
}

static void
write_bytes(const char *path, const void *data, size_t n)
{
	FILE *fp = fopen(path, "wb");

	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, n, fp), n);
	fclose(fp);
}

/* What a book file that is not one gets: the error, its place, no crash. */
static void
expect_read_error(const char *name, const void *data, size_t n,
    const char *id, unsigned long line, unsigned long col)
{
	kifu_book *b;
	kifu_error *e = NULL;
	char *text;
	size_t len;

	write_bytes(in_dir(name), data, n);
	assert_int_equal(kifu_book_new(NULL, &b, NULL), KIFU_OK);
	if (kifu_book_read(b, in_dir(name), &e) != KIFU_ERR_READ)
		fail_msg("%s read", name);
	assert_string_equal(kifu_error_id(e), id);
	assert_string_equal(kifu_error_file(e), in_dir(name));
	if (kifu_error_line(e) != line || (col && kifu_error_column(e) != col))
		fail_msg("%s: at %lu:%lu, not %lu:%lu", name,
		    (unsigned long)kifu_error_line(e),
		    (unsigned long)kifu_error_column(e), line, col);
	kifu_error_free(e);
	/* What came before the error is in the book, whole. */
	assert_int_equal(kifu_book_write(b, &text, &len, &e), KIFU_OK);
	assert_int_equal(strlen(text), len);
	kifu_free(text);
	kifu_book_free(b);
}

#define HEAD "#YANEURAOU-DB2016 1.00\nsfen " START "\n"

/*
 * Hostile book files: random bytes, a NUL inside a line, a move before
 * any position, a board that is none, a line of a megabyte, sums that
 * pass a 64-bit count; and queries of them.
 */
static void
test_book_hostile(void **state)
{
	static const char nul[] = HEAD "7g7f no\0ne 0 0 1\n";
	static const char big[] = HEAD "7g7f none 1000000000 0 1000000000\n";
	unsigned char junk[4096];
	kifu_book *b;
	kifu_error *e = NULL;
	char *text, *line;
	size_t i, n = 1 << 20, len;
	unsigned x = 12345;

	(void)state;
	for (i = 0; i < sizeof(junk); i++) {
		x = x * 1103515245u + 12345u;
		junk[i] = (unsigned char)(x >> 16);
	}
	junk[0] = 0xc3;	/* no '#', no 's': the first line is no book's */
	expect_read_error("junk.db", junk, sizeof(junk), "book-syntax", 1, 0);
	expect_read_error("nul.db", nul, sizeof(nul) - 1, "book-syntax", 3, 8);
	expect_read_error("nosfen.db", "#YANEURAOU-DB2016 1.00\n7g7f none 0 "
	    "0 1\n", 38, "book-syntax", 2, 1);
	expect_read_error("board.db", "sfen 9/9/9 b - 1\n7g7f\n", 22,
	    "sfen-syntax", 1, 0);
	expect_read_error("count.db", HEAD "7g7f none 0 0 99999999999999999999"
	    "\n", strlen(HEAD) + 36, "book-syntax", 3, 15);
	/* A megabyte of a move: refused, not kept. */
	line = malloc(n + strlen(HEAD) + 2);
	memcpy(line, HEAD, strlen(HEAD));
	memset(line + strlen(HEAD), 'a', n);
	line[strlen(HEAD) + n] = '\n';
	expect_read_error("long.db", line, strlen(HEAD) + n + 1, "book-limit",
	    3, 0);
	free(line);
	/* Ten books of sums near the top: past LLONG_MAX is an error. */
	write_bytes(in_dir("big.db"), big, sizeof(big) - 1);
	assert_int_equal(kifu_book_new(NULL, &b, NULL), KIFU_OK);
	for (i = 0; i < 10; i++) {
		int rc = kifu_book_read(b, in_dir("big.db"), &e);

		if (rc == KIFU_OK)
			continue;
		assert_int_equal(rc, KIFU_ERR_READ);
		assert_string_equal(kifu_error_id(e), "book-overflow");
		kifu_error_free(e);
		break;
	}
	assert_true(i > 1 && i < 10);
	kifu_book_free(b);
	/* A book without its last newline, and an empty one, read. */
	write_bytes(in_dir("nonl.db"), big, sizeof(big) - 2);
	assert_int_equal(kifu_book_query(in_dir("nonl.db"), START, &text, &e),
	    1);
	assert_string_equal(text, "7g7f none 1000000000 0 1000000000\n");
	kifu_free(text);
	write_bytes(in_dir("empty.db"), "", 0);
	assert_int_equal(kifu_book_new(NULL, &b, NULL), KIFU_OK);
	assert_int_equal(kifu_book_read(b, in_dir("empty.db"), &e), KIFU_OK);
	assert_int_equal(kifu_book_write(b, &text, &len, &e), KIFU_OK);
	assert_string_equal(text, "#YANEURAOU-DB2016 1.00\n");
	kifu_free(text);
	kifu_book_free(b);
	assert_int_equal(kifu_book_query(in_dir("empty.db"), START, &text, &e),
	    0);
	/*
	 * Queries: of random bytes (no line of it is a position: no book,
	 * the first line named, as kifu book query says), with a position
	 * far too long.
	 */
	text = (char *)&text;
	assert_int_equal(kifu_book_query(in_dir("junk.db"), START, &text, &e),
	    KIFU_ERR_READ);
	assert_null(text);
	assert_int_equal(kifu_error_line(e), 1);
	kifu_error_free(e);
	/* A bad line among the position's moves is an error, placed. */
	assert_int_equal(kifu_book_query(in_dir("nul.db"), START, &text, &e),
	    KIFU_ERR_READ);
	assert_null(text);
	assert_int_equal(kifu_error_line(e), 3);
	assert_int_equal(kifu_error_column(e), 8);
	kifu_error_free(e);
	line = malloc(n + 1);
	memset(line, '1', n);
	line[n] = '\0';
	memcpy(line, "sfen ", 5);
	assert_int_equal(kifu_book_query("testdata/book/shogihome-style.db",
	    line, &text, &e), KIFU_ERR_ARG);
	kifu_error_free(e);
	free(line);
	assert_int_equal(kifu_book_query("testdata/book/shogihome-style.db",
	    "startpos moves 7g7f 7g7f", &text, &e), KIFU_ERR_ARG);
	kifu_error_free(e);
	/* A directory is no book. */
	assert_true(kifu_book_query("testdata/book", START, &text, &e) < 0);
	kifu_error_free(e);
}

/* Records no book takes: unreadable, illegal, not standard shogi. */
static void
test_book_hostile_records(void **state)
{
	static const char bad[] = "PI\n+\n+7776FU\n-3334FU\n+2277UM\n-8822UM\n"
	    "%TORYO\n/\nPI\n+\n+7776XX\n%TORYO\n";
	kifu_options *o = options("results", "all");
	kifu_book *b;
	kifu_file *f;
	kifu_error *e = NULL;
	char *text;
	size_t len;

	(void)state;
	assert_int_equal(kifu_book_new(o, &b, NULL), KIFU_OK);
	assert_int_equal(kifu_read_buffer(bad, strlen(bad), "x.csa", NULL, &f,
	    &e), KIFU_OK);
	assert_int_equal(kifu_book_add(b, kifu_file_record(f, 0), &e),
	    KIFU_ERR_SKIP);
	assert_string_equal(kifu_error_id(e), "illegal");
	kifu_error_free(e);
	assert_int_equal(kifu_book_add(b, kifu_file_record(f, 1), &e),
	    KIFU_ERR_SKIP);
	assert_string_equal(kifu_error_id(e), "unreadable");
	kifu_error_free(e);
	kifu_file_free(f);
	assert_int_equal(kifu_read_file("testdata/show/minishogi.kifu", NULL,
	    &f, &e), KIFU_OK);
	assert_int_equal(kifu_book_add(b, kifu_file_record(f, 0), &e),
	    KIFU_ERR_SKIP);
	assert_string_equal(kifu_error_id(e), "variant");	/* minishogi */
	kifu_error_free(e);
	kifu_file_free(f);
	assert_int_equal(kifu_book_count(b, "records"), 3);
	assert_int_equal(kifu_book_count(b, "variant"), 1);
	assert_int_equal(kifu_book_count(b, "used"), 0);
	assert_int_equal(kifu_book_count(b, "illegal"), 1);
	assert_int_equal(kifu_book_count(b, "unreadable"), 1);
	/* Nothing went in: a book of its header alone. */
	assert_int_equal(kifu_book_write(b, &text, &len, &e), KIFU_OK);
	assert_string_equal(text, "#YANEURAOU-DB2016 1.00\n");
	kifu_free(text);
	kifu_book_free(b);
	kifu_options_free(o);
}

static void
test_book_errors(void **state)
{
	kifu_book *b;
	kifu_error *e = NULL;

	(void)state;
	assert_int_equal(kifu_book_new(NULL, &b, NULL), KIFU_OK);
	assert_int_equal(kifu_book_read(b, "testdata/book/illegal-move.db",
	    &e), KIFU_ERR_READ);
	assert_true(kifu_error_line(e) > 1);
	assert_string_equal(kifu_error_file(e),
	    "testdata/book/illegal-move.db");
	kifu_error_free(e);
	assert_int_equal(kifu_book_read(b, "testdata/book/bad-header.db",
	    &e), KIFU_ERR_READ);
	kifu_error_free(e);
	assert_int_equal(kifu_book_read(b, "testdata/book/none.db", &e),
	    KIFU_ERR_IO);
	kifu_error_free(e);
	assert_int_equal(kifu_book_read(b, NULL, NULL), KIFU_ERR_ARG);
	/* In a directory that cannot be written: nothing left behind. */
	assert_int_equal(kifu_book_write_file(b, in_dir("no/such/dir.db"), 0,
	    &e), KIFU_ERR_IO);
	kifu_error_free(e);
	kifu_book_free(b);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_book_build),
		cmocka_unit_test(test_book_selection),
		cmocka_unit_test(test_book_read_write_query),
		cmocka_unit_test(test_book_errors),
		cmocka_unit_test(test_book_hostile),
		cmocka_unit_test(test_book_hostile_records),
	};

	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests_name("api/book", tests, scratch_setup,
	    scratch_teardown);
}
