/*
 * KIF and KI2 against the JKF their source projects expect: each record
 * is read (parsers/kif.c, parsers/ki2.c), replayed (core/replay.c) and
 * written as JKF (writers/jkf.c); the JKF beside it in testdata/jkf/ is
 * what its project's own converter made of the same file. Both are parsed
 * with jansson and compared move for move on the main line and in every
 * fork, recursively: the color, from, to, piece, promote, same, capture
 * and relative members of each move, and each special.
 *
 * Headers, times and comments are left to the parser tests and to the
 * round trips of tests/cli/t0510-roundtrip-kakinoki.sh: converters choose
 * differently there (which header keys to keep, where a comment before
 * move 1 goes) without being wrong. Where a source is judged wrong on a
 * move, the case skips that member, with a comment saying why.
 */
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include <jansson.h>

#include "helpers.h"
#include "reading.h"
#include "core/core.h"
#include "core/record.h"
#include "core/replay.h"
#include "core/text.h"
#include "parsers/format.h"
#include "parsers/jkf.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* The members of a move that are compared. */
static const char *const move_keys[] = {
	"color", "from", "to", "piece", "promote", "same", "capture", "relative"
};

/*
 * A place the comparison leaves alone: the member `key` of the move at
 * `path` ("moves[55]", "moves[3].forks[0][2]"), or, with key NULL, the
 * whole entry there, on whichever side has it.
 */
struct skip {
	const char *path;
	const char *key;
};

struct pair_case {
	const char *record;	/* the KIF or KI2 file */
	const char *jkf;	/* the JKF its project expects */
	struct skip skips[2];	/* path NULL: none */
};

#define SKC_KIF "testdata/kif/shogi-kifu-converter/data/tests/kif/"
#define SKC_KI2 "testdata/ki2/shogi-kifu-converter/data/tests/ki2/"
#define SKC_JKF "testdata/jkf/shogi-kifu-converter/data/tests/"
#define JKFMT "json-kifu-format/test/files/"
#define RUBY "ruby-json-kifu-format/spec/fixtures/"

static const struct pair_case pair_cases[] = {
	{ SKC_KIF "Shogidokoro.kif", SKC_JKF "kif/Shogidokoro.json", {{0}} },
	{ SKC_KIF "Shogidokoro.kifu", SKC_JKF "kif/Shogidokoro.json", {{0}} },
	{ SKC_KIF "empty.kif", SKC_JKF "kif/empty.json", {{0}} },
	{ SKC_KIF "empty.kifu", SKC_JKF "kif/empty.json", {{0}} },
	{ SKC_KIF "everyday_20211107.kif", SKC_JKF "kif/everyday_20211107.json",
	    {{0}} },
	{ SKC_KIF "everyday_20211107.kifu",
	    SKC_JKF "kif/everyday_20211107.json", {{0}} },
	{ SKC_KIF "everyday_20220604.kif", SKC_JKF "kif/everyday_20220604.json",
	    {{0}} },
	{ SKC_KIF "everyday_20220604.kifu",
	    SKC_JKF "kif/everyday_20220604.json", {{0}} },
	{ SKC_KIF "example.kif", SKC_JKF "kif/example.json", {{0}} },
	{ SKC_KIF "example.kifu", SKC_JKF "kif/example.json", {{0}} },
	{ SKC_KIF "forks.kif", SKC_JKF "kif/forks.json", {{0}} },
	{ SKC_KIF "forks.kifu", SKC_JKF "kif/forks.json", {{0}} },
	{ SKC_KIF "oui202106290101.kif", SKC_JKF "kif/oui202106290101.json",
	    {{0}} },
	{ SKC_KIF "piyo-shogi_KY.kif", SKC_JKF "kif/piyo-shogi_KY.json",
	    {{0}} },
	{ SKC_KIF "piyo-shogi_KY.kifu", SKC_JKF "kif/piyo-shogi_KY.json",
	    {{0}} },
	/*
	 * The KI2 ends "まで102手で下手の勝ち", the only place KI2 states a
	 * result (formats.md 4.1): kifu makes it the terminal the KIF would
	 * have, 投了 (TORYO) at 103. shogi-kifu-converter keeps no special
	 * for a まで line, so its JKF ends at move 102.
	 */
	{ SKC_KI2 "4.ki2", SKC_JKF "ki2/4.json", { { "moves[103]", NULL } } },
	{ SKC_KI2 "4.ki2u", SKC_JKF "ki2/4.json", { { "moves[103]", NULL } } },
	/*
	 * ▲５九銀左 in the KI2: the other silver, on 4八, is pinned against
	 * the king on 4七 by the dragon on 4九, so it cannot go to 5九 and
	 * JSA notation needs no 左. core/notation.c counts legal moves only,
	 * as the rule says ("can move there"); shogi-kifu-converter kept the
	 * word the KI2 wrote.
	 */
	{ SKC_KI2 "simple.ki2", SKC_JKF "ki2/simple.json",
	    { { "moves[55]", "relative" } } },
	{ SKC_KI2 "simple.ki2u", SKC_JKF "ki2/simple.json",
	    { { "moves[55]", "relative" } } },
	{ "testdata/kif/" JKFMT "kif/ryuou201409020101.kif",
	    "testdata/jkf/" JKFMT "jkf/ryuou201409020101.jkf", {{0}} },
	{ "testdata/kif/" RUBY "kif/ryuou201409020101.kif",
	    "testdata/jkf/" RUBY "jkf/ryuou201409020101.jkf", {{0}} },
};

/* ---- reading ---- */

/* The file at path, whole; the test fails if it cannot be read. */
static char *
read_whole(const char *path, size_t *n)
{
	char *buf = slurp(path, n);

	if (!buf)
		fail_msg("cannot read '%s'", path);
	return buf;
}

static int
has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcasecmp(s + n - k, suffix) == 0;
}

/*
 * Reads the KIF or KI2 record at path (by its extension; the detector
 * must agree), replays it, which must find nothing illegal, and writes it
 * as JKF. Returns the parsed JKF.
 */
static json_t *
record_as_jkf(const char *path)
{
	int ki2 = has_suffix(path, ".ki2") || has_suffix(path, ".ki2u");
	struct text t;
	struct reader rd;
	struct record r;
	struct replay rp;
	struct diag_list d = DIAG_LIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	json_error_t e;
	json_t *j;
	size_t n;
	char *buf = read_whole(path, &n);

	text_init(&t);
	assert_int_equal(text_decode(&t, buf, n, &d), 0);
	free(buf);
	if (ki2)
		assert_true(ki2_detect(&t) > kif_detect(&t));
	else
		assert_true(kif_detect(&t) > ki2_detect(&t));
	reader_init(&rd, &t, variant_standard());
	record_init(&r, variant_standard());
	if ((ki2 ? ki2_read(&rd, &r, &d) : kif_read(&rd, &r, &d)) != READ_OK ||
	    d.errors) {
		dump_diags(&d);
		fail_msg("'%s' does not read", path);
	}
	if (replay_record(&r, &rp, &d) != 0 || d.errors) {
		dump_diags(&d);
		fail_msg("'%s' does not replay", path);
	}
	/* Warnings are fine: JKF has no place for '#' lines, for one. */
	if (jkf_write(&r, NULL, &sb, &d) != 0 || d.errors) {
		dump_diags(&d);
		fail_msg("'%s': jkf_write failed", path);
	}
	j = json_loadb(sb.buf, sb.len, 0, &e);
	if (!j)
		fail_msg("written JKF does not parse at %d:%d: %s", e.line,
		    e.column, e.text);
	strbuf_release(&sb);
	record_release(&r);
	diag_list_release(&d);
	text_release(&t);
	return j;
}

static json_t *
load_jkf(const char *path)
{
	size_t n;
	char *text = read_whole(path, &n);
	json_error_t e;
	json_t *j = json_loadb(text, n, 0, &e);

	if (!j)
		fail_msg("'%s' does not parse at %d:%d: %s", path, e.line,
		    e.column, e.text);
	free(text);
	return j;
}

/* ---- skipping ---- */

/*
 * The entry a path like "moves[3].forks[0][2]" names and the array that
 * holds it (*index its place there); NULL if there is none.
 */
static json_t *
entry_at(json_t *doc, const char *path, json_t **array, size_t *index)
{
	json_t *j = doc;
	const char *p = path;

	*array = NULL;
	while (*p && j) {
		if (*p == '.')
			p++;
		if (*p == '[') {
			char *end;

			*index = strtoul(p + 1, &end, 10);
			*array = j;
			j = json_array_get(j, *index);
			p = end + 1;
		} else {
			size_t k = strcspn(p, ".[");
			char key[32];

			snprintf(key, sizeof(key), "%.*s", (int)k, p);
			j = json_object_get(j, key);
			p += k;
		}
	}
	return j;
}

/*
 * Applies a skip to one side. Returns whether it found something to
 * leave out, so that a skip that no longer skips anything is noticed.
 */
static int
apply_skip(json_t *doc, const struct skip *s)
{
	json_t *array, *e = NULL;
	size_t index = 0;

	e = entry_at(doc, s->path, &array, &index);
	if (!e)
		return 0;
	if (!s->key)
		return json_array_remove(array, index) == 0;
	e = json_object_get(e, "move");
	return e && json_object_del(e, s->key) == 0;
}

/* ---- comparing ---- */

/* Where the first difference is and what it is, for the message. */
struct diff {
	char where[160];
	char what[160];
	const json_t *got, *want;	/* borrowed, for showing */
};

static int
differ(struct diff *df, const char *where, const json_t *got,
    const json_t *want, const char *what)
{
	snprintf(df->where, sizeof(df->where), "%s", where);
	snprintf(df->what, sizeof(df->what), "%s", what);
	df->got = got;
	df->want = want;
	return 1;
}

static int compare_line(const json_t *got, const json_t *want,
    const char *where, struct diff *df);

/* A member of an object; null is no member, as the JKF schema has it. */
static const json_t *
member(const json_t *o, const char *key)
{
	const json_t *j = json_object_get(o, key);

	return json_is_null(j) ? NULL : j;
}

/*
 * One entry of a line: the same move members (a member missing on one
 * side must be missing on the other), the same special, the same forks.
 * Returns 0, or 1 with the first difference in *df.
 */
static int
compare_entry(const json_t *got, const json_t *want, const char *where,
    struct diff *df)
{
	const json_t *gm = member(got, "move");
	const json_t *wm = member(want, "move");
	const json_t *gs = member(got, "special");
	const json_t *ws = member(want, "special");
	const json_t *gf = member(got, "forks");
	const json_t *wf = member(want, "forks");
	char sub[160];
	size_t i;

	if (!gm != !wm)
		return differ(df, where, got, want,
		    "a move on one side only");
	if ((gs || ws) && !(gs && ws && json_equal(gs, ws)))
		return differ(df, where, got, want, "another special");
	for (i = 0; gm && i < NELEM(move_keys); i++) {
		const json_t *g = member(gm, move_keys[i]);
		const json_t *w = member(wm, move_keys[i]);

		if ((g || w) && !(g && w && json_equal(g, w)))
			return differ(df, where, gm, wm, move_keys[i]);
	}
	if (json_array_size(gf) != json_array_size(wf))
		return differ(df, where, gf, wf, "another number of forks");
	for (i = 0; i < json_array_size(wf); i++) {
		snprintf(sub, sizeof(sub), "%.120s.forks[%zu]", where, i);
		if (compare_line(json_array_get(gf, i), json_array_get(wf, i),
		    sub, df))
			return 1;
	}
	return 0;
}

static int
compare_line(const json_t *got, const json_t *want, const char *where,
    struct diff *df)
{
	size_t i, gn = json_array_size(got), wn = json_array_size(want);
	char sub[160];

	if (!json_is_array(got) || !json_is_array(want))
		return differ(df, where, got, want, "not a list of moves");
	for (i = 0; i < gn && i < wn; i++) {
		snprintf(sub, sizeof(sub), "%.120s[%zu]", where, i);
		if (compare_entry(json_array_get(got, i),
		    json_array_get(want, i), sub, df))
			return 1;
	}
	if (gn != wn) {
		snprintf(sub, sizeof(sub), "%.120s[%zu]", where, i);
		return differ(df, sub, json_array_get(got, i),
		    json_array_get(want, i), "an entry on one side only");
	}
	return 0;
}

/* Counts the moves of a line and of all its forks. */
static size_t
count_moves(const json_t *line)
{
	size_t i, j, n = 0;

	for (i = 0; i < json_array_size(line); i++) {
		const json_t *e = json_array_get(line, i);
		const json_t *forks = json_object_get(e, "forks");

		n += json_object_get(e, "move") != NULL;
		for (j = 0; j < json_array_size(forks); j++)
			n += count_moves(json_array_get(forks, j));
	}
	return n;
}

static void
show(const char *what, const json_t *j)
{
	char *s = j ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS |
	    JSON_ENCODE_ANY) : NULL;

	print_message("  %s: %s\n", what, s ? s : "(none)");
	free(s);
}

static void
assert_same_moves(const json_t *got, const json_t *want)
{
	struct diff df;

	if (compare_line(json_object_get(got, "moves"),
	    json_object_get(want, "moves"), "moves", &df)) {
		show("got ", df.got);
		show("want", df.want);
		fail_msg("%s: %s", df.where, df.what);
	}
	/* Not a vacuous pass: the record has the moves its JKF has. */
	assert_int_equal(count_moves(json_object_get(got, "moves")),
	    count_moves(json_object_get(want, "moves")));
}

static void
test_pair_case(void **state)
{
	const struct pair_case *c = *state;
	json_t *got = record_as_jkf(c->record);
	json_t *want = load_jkf(c->jkf);
	size_t i;

	for (i = 0; i < NELEM(c->skips) && c->skips[i].path; i++) {
		int g = apply_skip(got, &c->skips[i]);
		int w = apply_skip(want, &c->skips[i]);

		if (!g && !w)
			fail_msg("skip '%s' finds nothing", c->skips[i].path);
	}
	assert_same_moves(got, want);
	json_decref(got);
	json_decref(want);
}

/*
 * The comparison itself: forks.kif has variations of variations, and a
 * change deep in one of them, or a fork more or less, is a difference.
 */
static json_t *
deepest_fork(json_t *line, size_t *depth)
{
	size_t i;

	for (i = 0; i < json_array_size(line); i++) {
		json_t *forks = json_object_get(json_array_get(line, i),
		    "forks");

		if (json_array_size(forks)) {
			(*depth)++;
			return deepest_fork(json_array_get(forks, 0), depth);
		}
	}
	return line;
}

static void
test_comparison_sees_forks(void **state)
{
	json_t *got = record_as_jkf(SKC_KIF "forks.kif");
	json_t *want = load_jkf(SKC_JKF "kif/forks.json");
	json_t *fork, *mv;
	struct diff df;
	size_t depth = 0;

	(void)state;
	assert_same_moves(got, want);
	fork = deepest_fork(json_object_get(want, "moves"), &depth);
	assert_true(depth >= 2);
	mv = json_object_get(json_array_get(fork, 0), "move");
	assert_non_null(mv);
	json_object_set_new(mv, "promote", json_true());
	assert_int_equal(compare_line(json_object_get(got, "moves"),
	    json_object_get(want, "moves"), "moves", &df), 1);
	assert_string_equal(df.what, "promote");
	json_object_del(mv, "promote");
	assert_int_equal(compare_line(json_object_get(got, "moves"),
	    json_object_get(want, "moves"), "moves", &df), 0);
	/* A move more at the end of that fork. */
	json_array_append(fork, json_array_get(fork, 0));
	assert_int_equal(compare_line(json_object_get(got, "moves"),
	    json_object_get(want, "moves"), "moves", &df), 1);
	assert_string_equal(df.what, "an entry on one side only");
	json_decref(got);
	json_decref(want);
}

/* ---- the test list ---- */

#define N_FIXED 1
#define N_TESTS (N_FIXED + NELEM(pair_cases))

int
main(int argc, char **argv)
{
	static struct CMUnitTest tests[N_TESTS];
	static char names[N_TESTS][160];
	size_t i, n = 0;

	core_init();
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(
	    test_comparison_sees_forks);
	for (i = 0; i < NELEM(pair_cases); i++, n++) {
		/* Named after the record, without "testdata/". */
		snprintf(names[n], sizeof(names[n]), "pair: %s",
		    pair_cases[i].record + strlen("testdata/"));
		tests[n].name = names[n];
		tests[n].test_func = test_pair_case;
		tests[n].setup_func = NULL;
		tests[n].teardown_func = NULL;
		tests[n].initial_state = (void *)(uintptr_t)&pair_cases[i];
	}
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests_name("kakinoki/jkf", tests, NULL, NULL);
}
