/*
 * Statistics through the public library (kifu.h: kifu_stats_*,
 * api/stats.c): records counted one by one, merged, written as the JSON
 * `kifu stats --json` prints and read back from it, and the errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scratch.h"
#include "kifu/kifu.h"

#define RECORDS "testdata/training/records/"

static const char *const games[] = {
	RECORDS "r1-floodgate-2021.csa", RECORDS "r2-floodgate-2016.csa",
	RECORDS "r4-wcsc32.csa", RECORDS "h1-nimai-handicap.kifu",
};

static void
add_file(kifu_stats *s, const char *path)
{
	kifu_options *o = kifu_options_new();
	kifu_error *e = NULL;
	kifu_file *f;
	size_t i;

	/* As kifu stats judges: the claim is not compared. */
	assert_int_equal(kifu_options_set(o, "result-check", "no", NULL),
	    KIFU_OK);
	if (kifu_read_file(path, o, &f, &e) != KIFU_OK)
		fail_msg("%s: %s", path, kifu_error_message(e));
	for (i = 0; i < kifu_file_count(f); i++)
		assert_int_equal(kifu_stats_add(s, kifu_file_record(f, i), &e),
		    KIFU_OK);
	kifu_file_free(f);
	kifu_options_free(o);
}

static kifu_stats *
stats_of(const char *by, size_t from, size_t to)
{
	kifu_stats *s;
	size_t i;

	assert_int_equal(kifu_stats_new(by, &s, NULL), KIFU_OK);
	for (i = from; i < to; i++)
		add_file(s, games[i]);
	return s;
}

static void
test_stats_count(void **state)
{
	kifu_stats *s = stats_of("player", 0, 4);
	char *json, *text;

	(void)state;
	assert_int_equal(kifu_stats_records(s), 4);
	assert_string_equal(kifu_stats_by(s), "player");
	json = kifu_stats_json(s);
	assert_true(!strncmp(json, "{\"records\": 4, ", 15));
	assert_null(strchr(json, '\n'));
	assert_non_null(strstr(json, "\"10b_n003_1060\""));
	text = kifu_stats_text(s);
	assert_true(!strncmp(text, "kifu stats: 4 records (3 even, 1 "
	    "handicap", 40));
	kifu_free(json);
	kifu_free(text);
	kifu_stats_free(s);
	kifu_stats_free(NULL);
}

/* The parts merged are the whole, to the byte. */
static void
test_stats_merge(void **state)
{
	kifu_stats *whole = stats_of("event", 0, 4), *a = stats_of("event", 0,
	    1), *b = stats_of("event", 1, 4), *other = stats_of("year", 0, 2),
	    *none;
	kifu_error *e = NULL;
	char *x, *y;

	(void)state;
	assert_int_equal(kifu_stats_merge(a, b, &e), KIFU_OK);
	assert_null(e);
	x = kifu_stats_json(whole);
	y = kifu_stats_json(a);
	assert_string_equal(x, y);
	kifu_free(y);
	assert_int_equal(kifu_stats_merge(a, other, &e), KIFU_ERR_ARG);
	assert_non_null(strstr(kifu_error_message(e), "by year"));
	kifu_error_free(e);
	/* Made with no grouping and empty: it takes the other's. */
	assert_int_equal(kifu_stats_new(NULL, &none, NULL), KIFU_OK);
	assert_int_equal(kifu_stats_merge(none, whole, NULL), KIFU_OK);
	assert_string_equal(kifu_stats_by(none), "event");
	y = kifu_stats_json(none);
	assert_string_equal(x, y);
	kifu_free(x);
	kifu_free(y);
	kifu_stats_free(none);
	kifu_stats_free(whole);
	kifu_stats_free(a);
	kifu_stats_free(b);
	kifu_stats_free(other);
}

static void
write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

/* Shards of JSON lines, as kifu stats --merge reads them. */
static void
test_stats_read(void **state)
{
	kifu_stats *a = stats_of("player", 0, 2), *b = stats_of("player", 2,
	    4), *whole = stats_of("player", 0, 4), *back;
	kifu_error *e = NULL;
	char *ja = kifu_stats_json(a), *jb = kifu_stats_json(b), *x, *y;
	char *lines = malloc(strlen(ja) + strlen(jb) + 4);

	(void)state;
	sprintf(lines, "%s\n\n%s\n", ja, jb);
	write_file(in_dir("shards.json"), lines);
	assert_int_equal(kifu_stats_new(NULL, &back, NULL), KIFU_OK);
	assert_int_equal(kifu_stats_read(back, in_dir("shards.json"), &e),
	    KIFU_OK);
	assert_null(e);
	x = kifu_stats_json(whole);
	y = kifu_stats_json(back);
	assert_string_equal(x, y);
	kifu_free(x);
	kifu_free(y);
	kifu_stats_free(back);
	/* A bad line is named; the good ones count all the same. */
	sprintf(lines, "%s\n[1, 2]\n", ja);
	write_file(in_dir("bad.json"), lines);
	assert_int_equal(kifu_stats_new("player", &back, NULL), KIFU_OK);
	assert_int_equal(kifu_stats_read(back, in_dir("bad.json"), &e),
	    KIFU_ERR_READ);
	assert_int_equal(kifu_error_line(e), 2);
	assert_string_equal(kifu_error_file(e), in_dir("bad.json"));
	kifu_error_free(e);
	assert_int_equal(kifu_stats_records(back), 2);
	assert_int_equal(kifu_stats_read(back, in_dir("nothing.json"), &e),
	    KIFU_ERR_IO);
	assert_string_equal(kifu_error_id(e), "io");
	kifu_error_free(e);
	assert_int_equal(kifu_stats_read(back, NULL, NULL), KIFU_ERR_ARG);
	kifu_stats_free(back);
	/* Grouped otherwise: refused. */
	assert_int_equal(kifu_stats_new("event", &back, NULL), KIFU_OK);
	write_file(in_dir("player.json"), ja);
	assert_int_equal(kifu_stats_read(back, in_dir("player.json"), &e),
	    KIFU_ERR_READ);
	kifu_error_free(e);
	kifu_stats_free(back);
	free(lines);
	kifu_free(ja);
	kifu_free(jb);
	kifu_stats_free(a);
	kifu_stats_free(b);
	kifu_stats_free(whole);
}

/*
 * Counts that add up past 2^62, read or merged, are refused, where they
 * once wrapped round to negative totals.
 */
static void
test_stats_overflow(void **state)
{
	static const char huge[] = "{\"records\": 2305843009213693952, "
	    "\"results\": {\"by_reason\": {}, \"by_winner\": {\"black\": "
	    "{\"count\": 0}, \"white\": {\"count\": 0}, \"draw\": "
	    "{\"count\": 0}}}, \"even\": {\"records\": 0, \"results\": "
	    "{\"by_reason\": {}, \"by_winner\": {\"black\": {\"count\": 0}, "
	    "\"white\": {\"count\": 0}, \"draw\": {\"count\": 0}}}}, "
	    "\"handicap\": {\"records\": 0, \"results\": {\"by_reason\": {}, "
	    "\"by_winner\": {\"black\": {\"count\": 0}, \"white\": "
	    "{\"count\": 0}, \"draw\": {\"count\": 0}}}}, \"length\": "
	    "{\"histogram\": []}, \"openings\": []}\n";
	kifu_stats *a, *b;
	kifu_error *e = NULL;

	(void)state;
	write_file(in_dir("huge.json"), huge);
	assert_int_equal(kifu_stats_new(NULL, &a, NULL), KIFU_OK);
	assert_int_equal(kifu_stats_new(NULL, &b, NULL), KIFU_OK);
	assert_int_equal(kifu_stats_read(a, in_dir("huge.json"), &e),
	    KIFU_OK);
	assert_int_equal(kifu_stats_read(b, in_dir("huge.json"), &e),
	    KIFU_OK);
	assert_int_equal(kifu_stats_records(a), 2305843009213693952LL);
	/* a and b hold 2^61 each: the merge makes 2^62, and one more passes */
	assert_int_equal(kifu_stats_merge(a, b, &e), KIFU_OK);
	assert_int_equal(kifu_stats_records(a), 4611686018427387904LL);
	assert_int_equal(kifu_stats_merge(a, b, &e), KIFU_ERR_ARG);
	assert_string_equal(kifu_error_id(e), "overflow");
	kifu_error_free(e);
	assert_int_equal(kifu_stats_records(a), 4611686018427387904LL);
	/* 2^62 is the most; a third shard's count passes it */
	assert_int_equal(kifu_stats_read(b, in_dir("huge.json"), &e),
	    KIFU_OK);
	assert_int_equal(kifu_stats_read(b, in_dir("huge.json"), &e),
	    KIFU_ERR_READ);
	assert_non_null(strstr(kifu_error_message(e), "counts too large"));
	kifu_error_free(e);
	assert_true(kifu_stats_records(b) >= 0);
	kifu_stats_free(a);
	kifu_stats_free(b);
}

/*
 * Hostile shards: no object, negative and huge counts, nesting past any
 * parser's depth, a NUL, random bytes. Each is an error at its line,
 * counts nothing, and crashes nothing; an empty file counts nothing.
 */
static void
test_stats_hostile(void **state)
{
	static const struct {
		const char *text;
		size_t len;
		unsigned long line;
	} bad[] = {
		{ "{\"records\": -5}\n", 16, 1 },
		{ "\n{\"records\": 99999999999999999999999}\n", 38, 2 },
		{ "{\"records\": \"x\"}\n", 17, 1 },
		{ "{\"records\": 1}\0\n", 16, 1 },
		{ "{\"records\": 1, \"by\": \"colour\"}\n", 31, 1 },
		{ "{\"records\": 1, \"results\": 7}\n", 30, 1 },
		{ "\xff\xfe{}\n", 5, 1 },
	};
	kifu_stats *s;
	kifu_error *e = NULL;
	char *deep;
	size_t i, n = 200000;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		FILE *fp = fopen(in_dir("bad.json"), "wb");

		assert_non_null(fp);
		assert_int_equal(fwrite(bad[i].text, 1, bad[i].len, fp),
		    bad[i].len);
		fclose(fp);
		assert_int_equal(kifu_stats_new(NULL, &s, NULL), KIFU_OK);
		if (kifu_stats_read(s, in_dir("bad.json"), &e) !=
		    KIFU_ERR_READ)
			fail_msg("shard %zu read", i);
		assert_int_equal(kifu_error_line(e), bad[i].line);
		kifu_error_free(e);
		assert_int_equal(kifu_stats_records(s), 0);
		kifu_stats_free(s);
	}
	deep = malloc(2 * n + 2);
	memset(deep, '[', n);
	memset(deep + n, ']', n);
	memcpy(deep + 2 * n, "\n", 2);
	write_file(in_dir("deep.json"), deep);
	free(deep);
	assert_int_equal(kifu_stats_new(NULL, &s, NULL), KIFU_OK);
	assert_int_equal(kifu_stats_read(s, in_dir("deep.json"), &e),
	    KIFU_ERR_READ);
	kifu_error_free(e);
	write_file(in_dir("empty.json"), "");
	assert_int_equal(kifu_stats_read(s, in_dir("empty.json"), &e),
	    KIFU_OK);
	assert_int_equal(kifu_stats_records(s), 0);
	/* A directory is no shard. */
	assert_int_equal(kifu_stats_read(s, "testdata", &e), KIFU_ERR_IO);
	kifu_error_free(e);
	kifu_stats_free(s);
}

static void
test_stats_errors(void **state)
{
	static const char junk[] = "PI\n+\n+7776FU\n-3334FU\n+2277UM\n";
	static const char two[] = "PI\n+\n+7776FU\n/\nPI\n+\n+7776XX\n";
	kifu_stats *s = (kifu_stats *)&s;
	kifu_error *e = NULL;
	kifu_file *f;

	(void)state;
	assert_int_equal(kifu_stats_new("colour", &s, &e), KIFU_ERR_ARG);
	assert_null(s);
	assert_non_null(strstr(kifu_error_message(e), "colour"));
	kifu_error_free(e);
	/* An illegal record is counted, by the result the rules give it. */
	assert_int_equal(kifu_stats_new(NULL, &s, NULL), KIFU_OK);
	assert_int_equal(kifu_read_buffer(junk, strlen(junk), "x.csa", NULL,
	    &f, &e), KIFU_OK);
	assert_int_equal(kifu_stats_add(s, kifu_file_record(f, 0), &e),
	    KIFU_OK);
	assert_int_equal(kifu_stats_records(s), 1);
	kifu_file_free(f);
	/* One that could not be read is not. */
	assert_int_equal(kifu_read_buffer(two, strlen(two), "x.csa", NULL, &f,
	    &e), KIFU_OK);
	assert_string_equal(kifu_record_status(kifu_file_record(f, 1)),
	    "error");
	assert_int_equal(kifu_stats_add(s, kifu_file_record(f, 1), &e),
	    KIFU_ERR_READ);
	assert_non_null(strstr(kifu_error_message(e), "record 2"));
	kifu_error_free(e);
	assert_int_equal(kifu_stats_add(s, kifu_file_record(f, 0), NULL),
	    KIFU_OK);
	assert_int_equal(kifu_stats_records(s), 2);
	kifu_file_free(f);
	kifu_stats_free(s);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats_count),
		cmocka_unit_test(test_stats_merge),
		cmocka_unit_test(test_stats_read),
		cmocka_unit_test(test_stats_errors),
		cmocka_unit_test(test_stats_hostile),
		cmocka_unit_test(test_stats_overflow),
	};

	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests_name("api/stats", tests, scratch_setup,
	    scratch_teardown);
}
