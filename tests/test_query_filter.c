/*
 * kifu find's text prefilter (query/filter.c, filter_text_may_match): a
 * text it passes over must hold no record that the header stage would
 * match, and it passes over the texts it can tell about.
 */
#include <stdio.h>
#include <stdlib.h>

#include "helpers.h"
#include "api/formats.h"
#include "query/filter.h"
#include "core/core.h"

/* Options as find's command line gives them: "-p NAME", "-e", "-r"... */
static void
set_filter(struct filter *f, const char *const *opts)
{
	struct strbuf why = STRBUF_INIT;
	size_t i;

	filter_init(f);
	for (i = 0; opts[i]; i++) {
		int opt = !strcmp(opts[i], "--exact") ? OPT_F_EXACT :
		    !strcmp(opts[i], "--regex") ? OPT_F_REGEX :
		    !strcmp(opts[i], "--black") ? OPT_F_BLACK :
		    !strcmp(opts[i], "--white") ? OPT_F_WHITE :
		    !strcmp(opts[i], "--event") ? OPT_F_EVENT : OPT_F_PLAYER;
		const char *arg = opt == OPT_F_EXACT || opt == OPT_F_REGEX ?
		    NULL : opts[++i];

		if (filter_take(f, opt, arg, &why) != 1)
			fail_msg("option '%s' not taken: %s", opts[i],
			    why.len ? why.buf : "");
	}
	if (filter_finish(f, &limits_default, &why))
		fail_msg("filter_finish failed: %s", why.buf);
	strbuf_release(&why);
}

static void
decode(struct text *t, const char *src)
{
	struct diag_list d = DIAG_LIST_INIT;

	text_init(t);
	if (text_decode(t, src, strlen(src), &d))
		fail_msg("'%s' does not decode", src);
	diag_list_release(&d);
}

/*
 * Whether some record read from t as fmt passes the header stage: what
 * find would say without the prefilter.
 */
static int
any_record_matches(const struct filter *f, const struct text *t,
    const struct format *fmt)
{
	struct filter_scratch s;
	struct diag_list d = DIAG_LIST_INIT;
	struct reader rd;
	struct record r;
	enum read_status rs;
	int any = 0;

	filter_scratch_init(f, &s);
	record_init(&r, variant_standard());
	reader_init(&rd, t, variant_standard());
	while ((rs = fmt->read(&rd, &r, &d)) != READ_EOF) {
		any |= filter_match_headers(f, &s, &r, fmt);
		record_reset(&r, variant_standard());
		diag_list_clear(&d);
		if (rs == READ_FATAL)
			break;
	}
	record_release(&r);
	diag_list_release(&d);
	filter_scratch_release(&s);
	return any;
}

/*
 * What the prefilter says of src read as format fmt, under the options,
 * checked never to pass over a text with a matching record; *matched
 * (when not NULL) gets whether a record matches.
 */
static int
prefilter(const char *fmt, const char *src, const char *const *opts,
    int *matched)
{
	const struct format *ft = formats_by_name(fmt);
	struct filter f;
	struct text t;
	int m, match;

	set_filter(&f, opts);
	decode(&t, src);
	m = filter_text_may_match(&f, &t, ft);
	match = any_record_matches(&f, &t, ft);
	text_release(&t);
	filter_release(&f);
	if (!m && match)
		fail_msg("'%s' passed over, yet a record matches", src);
	if (matched)
		*matched = match;
	return m;
}

static int
may(const char *fmt, const char *src, const char *const *opts)
{
	return prefilter(fmt, src, opts, NULL);
}

#define OPTS(...) ((const char *const[]){ __VA_ARGS__, NULL })

#define GAME(black, white) \
	"V2.2\nN+" black "\nN-" white "\n$EVENT:Ryuo\nPI\n+\n+7776FU\n%TORYO\n"

static void
test_ascii_names(void **state)
{
	(void)state;
	/* Folded: the case of either side does not matter. */
	assert_int_equal(may("csa", GAME("Black123", "w"),
	    OPTS("--player", "black123")), 1);
	assert_int_equal(may("csa", GAME("black123", "w"),
	    OPTS("--player", "BLACK123")), 1);
	assert_int_equal(may("csa", GAME("black123", "w"),
	    OPTS("--player", "ＢＬＡＣＫ１２３")), 1);
	assert_int_equal(may("csa", GAME("black12", "w"),
	    OPTS("--player", "black123")), 0);
	/* Elsewhere in the text than a name: not told apart, read. */
	assert_int_equal(may("csa", GAME("b", "w") "'ryuo\n",
	    OPTS("--black", "ryuo")), 1);
	/* A name that is not ASCII is in no header of an ASCII text. */
	assert_int_equal(may("csa", GAME("Habu", "w"),
	    OPTS("--player", "羽生")), 0);
	assert_int_equal(may("csa", GAME("Habu", "w"),
	    OPTS("--player", "ｈａｂｕ")), 1);
	/* An empty name is in every header. */
	assert_int_equal(may("csa", GAME("Habu", "w"),
	    OPTS("--player", "")), 1);
	/* Every criterion must hold: one missing is enough. */
	assert_int_equal(may("csa", GAME("Habu", "Moriuchi"),
	    OPTS("--player", "habu", "--player", "sato")), 0);
	assert_int_equal(may("csa", GAME("Habu", "Moriuchi"),
	    OPTS("--player", "habu", "--event", "RYUO")), 1);
	/* Candidates that fail, overlapping, and the needle at the end. */
	assert_int_equal(may("csa", GAME("bbbBlAcK", "w"),
	    OPTS("--player", "black")), 1);
	assert_int_equal(may("csa", "V2.2\nPI\n+\nN+xyz",
	    OPTS("--player", "xyz")), 1);
	assert_int_equal(may("csa", "V2.2\nPI\n+\nN+xy",
	    OPTS("--player", "xyz")), 0);
	/* A needle that starts with no letter. */
	assert_int_equal(may("csa", GAME("Player 2", "w"),
	    OPTS("--player", "2")), 1);
	assert_int_equal(may("csa", GAME("Player", "w"),
	    OPTS("--player", "#")), 0);
	/* CRLF takes the other way through decoding; the same answer. */
	assert_int_equal(may("csa", "V2.2\r\nN+Habu\r\nPI\r\n+\r\n",
	    OPTS("--player", "HABU")), 1);
	assert_int_equal(may("csa", "V2.2\r\nN+Habu\r\nPI\r\n+\r\n",
	    OPTS("--player", "sato")), 0);
}

/*
 * A text made to defeat the search (aaa...a against aaa...ab) is given
 * up on after about its length in bytes compared, and read.
 */
static void
test_hostile_text(void **state)
{
	char src[20000], needle[202];

	(void)state;
	memcpy(src, "V2.2\nN+", 7);
	memset(src + 7, 'a', sizeof(src) - 9);
	memcpy(src + sizeof(src) - 2, "\n", 2);
	memset(needle, 'a', 200);
	memcpy(needle + 200, "b", 2);
	assert_int_equal(may("csa", src, OPTS("--player", needle)), 1);
	/* Short of that, a failed candidate at every byte still tells. */
	assert_int_equal(may("csa", src, OPTS("--player", "ab")), 0);
}

static void
test_wide_texts(void **state)
{
	(void)state;
	/* A text that is not ASCII may fold into the name: read it. */
	assert_int_equal(may("csa", GAME("ｂｌａｃｋ１２３", "w"),
	    OPTS("--player", "black123")), 1);
	assert_int_equal(may("csa", GAME("羽生善治", "w"),
	    OPTS("--player", "sato")), 1);
	/* Under --exact the text as written: any text can be told. */
	assert_int_equal(may("csa", GAME("羽生善治", "w"),
	    OPTS("--exact", "--player", "羽生")), 1);
	assert_int_equal(may("csa", GAME("羽生善治", "w"),
	    OPTS("--exact", "--player", "佐藤")), 0);
	assert_int_equal(may("csa", GAME("Habu", "w"),
	    OPTS("--exact", "--player", "habu")), 0);
	assert_int_equal(may("csa", GAME("Habu", "w"),
	    OPTS("--exact", "--player", "Habu")), 1);
	/* KIF keeps its headers as written too. */
	assert_int_equal(may("kifu", "先手：羽生善治\n後手：森内俊之\n"
	    "手数----指手---------消費時間--\n   1 ７六歩(77)\n",
	    OPTS("--exact", "--player", "佐藤")), 0);
}

static void
test_not_judged(void **state)
{
	(void)state;
	/* Patterns are not looked for in the text. */
	assert_int_equal(may("csa", GAME("Habu", "w"),
	    OPTS("--regex", "--player", "^sato")), 1);
	/* JKF undoes "\u" escapes: a name need not be in it as written. */
	assert_int_equal(may("jkf", "{\"header\":{\"先手\":\"\\u0062lack\"},"
	    "\"moves\":[{}]}", OPTS("--player", "black")), 1);
	assert_int_equal(may("jkf", "{\"header\":{\"先手\":\"x\"},"
	    "\"moves\":[{}]}", OPTS("--player", "black")), 1);
}

/* Knuth's MMIX generator: the tests are the same every run. */
static unsigned
next_rand(uint64_t *x)
{
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)(*x >> 33);
}

/*
 * Random ASCII CSA texts, names drawn from few letters so that they
 * often nearly match: the prefilter never passes over a match, and it
 * does pass over most texts that have none.
 */
static void
test_random_texts(void **state)
{
	static const char letters[] = "abAB ";
	uint64_t x = 0x9e3779b97f4a7c15ull;
	int passed = 0, none = 0, k;

	(void)state;
	for (k = 0; k < 3000; k++) {
		char src[256], name[2][8], want[5];
		const char *opt;
		const char *const *opts;
		size_t i, j;
		int matched;

		for (i = 0; i < 2; i++) {
			for (j = 0; j < 6; j++)
				name[i][j] = letters[next_rand(&x) % 5];
			name[i][j] = '\0';
		}
		for (j = 0; j < 3; j++)
			want[j] = letters[next_rand(&x) % 4];
		want[j] = '\0';
		opt = (x >> 40) % 3 == 0 ? "--black" : (x >> 40) % 3 == 1 ?
		    "--player" : "--event";
		snprintf(src, sizeof(src), "V2.2\nN+%s\nN-%s\n$EVENT:%s%s\n"
		    "PI\n+\n+7776FU\n/\nN+%s\n", name[0], name[1], name[1],
		    name[0], name[1]);
		opts = (x >> 50) & 1 ? OPTS("--exact", opt, want) :
		    OPTS(opt, want);
		passed += !prefilter("csa", src, opts, &matched);
		none += !matched;
	}
	/* Of the texts without a match, most lack the needle outright. */
	if (passed * 2 < none)
		fail_msg("passed over %d of %d texts without a match", passed,
		    none);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ascii_names),
		cmocka_unit_test(test_hostile_text),
		cmocka_unit_test(test_wide_texts),
		cmocka_unit_test(test_not_judged),
		cmocka_unit_test(test_random_texts),
	};

	(void)argc;
	(void)argv;
	core_init();
	return cmocka_run_group_tests_name("query/filter", tests, NULL, NULL);
}
