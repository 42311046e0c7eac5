/*
 * parsers/jsonplace.c: the place of a JSON value by its path, asked in
 * any order, within its budget.
 */
#include <stdio.h>
#include <stdlib.h>

#include "helpers.h"
#include "core/strbuf.h"
#include "parsers/jsonplace.h"

static const char doc[] =
    "{\"header\": {\"\\u5148\\u624b\": \"a\", \"k\\\"q\": 2, \"後手\": \"b\"},\n"
    " \"moves\": [ {},\n"
    "   {\"move\": {\"to\": {\"x\": 7, \"y\": 6}, \"piece\": \"FU\"}},\n"
    "   {\"special\": \"TORYO\", \"forks\": [[{\"move\": {}}], [{\"a\": [1, "
    "\"]\"]}, {\"special\": \"CHUDAN\"}]]}\n"
    " ]}\n";

/* Where path is, asked of a fresh json_places (no memory of others). */
static size_t
fresh(const char *path)
{
	struct json_places jp;
	size_t at;

	json_places_init(&jp, doc, sizeof(doc) - 1, 1 << 20);
	at = json_places_find(&jp, path);
	json_places_release(&jp);
	return at;
}

/* path is found at the first occurrence of want after `after`. */
static void
assert_at(const char *path, const char *after, const char *want)
{
	const char *a = strstr(doc, after), *w;
	size_t got = fresh(path);

	assert_non_null(a);
	w = strstr(a, want);
	assert_non_null(w);
	if (got != (size_t)(w - doc))
		fail_msg("'%s' found at %zu ('%.10s'), expected %zu ('%.10s')",
		    path, got, got == JSON_NO_PLACE ? "" : doc + got,
		    (size_t)(w - doc), w);
}

static void
test_paths(void **state)
{
	(void)state;
	assert_at("", "", "{\"header\"");
	assert_at("header", "\"header\"", "{");
	/* keys are compared as decoded: escapes and UTF-8 alike */
	assert_at("header.先手", "\\u624b\"", "\"a\"");
	assert_at("header.k\"q", "q\"", "2");
	assert_at("header.後手", "後手", "\"b\"");
	assert_at("moves", "\"moves\"", "[");
	assert_at("moves[0]", "\"moves\"", "{}");
	assert_at("moves[1]", "{},", "{\"move\"");
	assert_at("moves[1].move.to.y", "\"y\"", "6");
	assert_at("moves[1].move.piece", "\"piece\"", "\"FU\"");
	assert_at("moves[2].special", "\"special\"", "\"TORYO\"");
	assert_at("moves[2].forks[0][0]", "\"forks\"", "{\"move\"");
	/* a bracket inside a string is no bracket */
	assert_at("moves[2].forks[1][1]", "\"]\"]}, ", "{\"special\"");
	assert_at("moves[2].forks[1][1].special", "\"]\"]}, ", "\"CHUDAN\"");
}

static void
test_not_there(void **state)
{
	struct json_places jp;
	static const char bad[] = "{\"a\": [1, 2";

	(void)state;
	assert_int_equal(fresh("moves[3]"), JSON_NO_PLACE);
	assert_int_equal(fresh("header.x"), JSON_NO_PLACE);
	assert_int_equal(fresh("moves.x"), JSON_NO_PLACE);
	assert_int_equal(fresh("header[0]"), JSON_NO_PLACE);
	assert_int_equal(fresh("moves[0][0]"), JSON_NO_PLACE);
	/* a text cut short: no place past the cut */
	json_places_init(&jp, bad, sizeof(bad) - 1, 1000);
	assert_int_equal(json_places_find(&jp, "a[1]"), 10);
	assert_int_equal(json_places_find(&jp, "a[2]"), JSON_NO_PLACE);
	assert_int_equal(json_places_find(&jp, "b"), JSON_NO_PLACE);
	json_places_release(&jp);
	/* nothing but blanks */
	json_places_init(&jp, "  \n", 3, 1000);
	assert_int_equal(json_places_find(&jp, ""), JSON_NO_PLACE);
	json_places_release(&jp);
}

/* Asked in any order, one json_places answers as fresh ones do. */
static void
test_any_order(void **state)
{
	static const char *const paths[] = {
		"moves[2].forks[1][1].special", "moves[1]", "moves[2]",
		"moves[0]", "moves[2].forks[0][0]", "moves[2].forks[1][1]",
		"moves[2].forks[1][0]", "header.後手", "header.先手",
		"moves[1].move.to.x", "moves[1].move.piece", "moves[5]",
		"moves[1].move.to.x", "", "moves[2].forks[1][1].special",
	};
	struct json_places jp;
	size_t i, round;

	(void)state;
	json_places_init(&jp, doc, sizeof(doc) - 1, 1 << 20);
	for (round = 0; round < 2; round++)
		for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
			if (json_places_find(&jp, paths[i]) != fresh(paths[i]))
				fail_msg("'%s' differs after others", paths[i]);
	json_places_release(&jp);
}

/*
 * Entries asked in order read the text once: 20,000 of them fit in a
 * budget of twice the text. Then a spent budget answers no place.
 */
static void
test_budget(void **state)
{
	struct strbuf big = STRBUF_INIT, path = STRBUF_INIT;
	struct json_places jp;
	size_t i, n = 20000, at;

	(void)state;
	strbuf_adds(&big, "{\"moves\": [");
	for (i = 0; i < n; i++)
		strbuf_addf(&big, "%s{\"move\": {\"x\": [%zu, \"]\"]}}",
		    i ? ", " : "", i);
	strbuf_adds(&big, "]}");
	json_places_init(&jp, big.buf, big.len, 2 * big.len);
	for (i = 0; i < n; i++) {
		char want[32];

		strbuf_reset(&path);
		strbuf_addf(&path, "moves[%zu].move.x", i);
		at = json_places_find(&jp, path.buf);
		assert_true(at != JSON_NO_PLACE);
		snprintf(want, sizeof(want), "[%zu,", i);
		assert_memory_equal(big.buf + at, want, strlen(want));
	}
	json_places_release(&jp);
	/* from the start each time, the same questions spend it */
	json_places_init(&jp, big.buf, big.len, 2 * big.len);
	for (i = n; i-- > 0;) {
		strbuf_reset(&path);
		strbuf_addf(&path, "moves[%zu]", i);
		if ((at = json_places_find(&jp, path.buf)) == JSON_NO_PLACE)
			break;
	}
	assert_true(i > 0);
	assert_int_equal(jp.budget, 0);
	assert_int_equal(json_places_find(&jp, "moves[0]"), JSON_NO_PLACE);
	json_places_release(&jp);
	strbuf_release(&big);
	strbuf_release(&path);
}

int
main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_not_there),
		cmocka_unit_test(test_any_order),
		cmocka_unit_test(test_budget),
	};

	return cmocka_run_group_tests_name("parsers/jsonplace", tests, NULL,
	    NULL);
}
