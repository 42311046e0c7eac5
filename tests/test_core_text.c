/*
 * core/text.c: display width (utf8_width), what kifu stats aligns its
 * tables by, checked against the East Asian Width of Unicode for the
 * characters records hold; and whether a decoded text is all ASCII
 * (text.ascii), which kifu find passes texts over by.
 */
#include <stdlib.h>

#include "helpers.h"
#include "core/text.h"

static void
expect_width(const char *s, size_t want)
{
	size_t w = utf8_width(s, strlen(s));

	if (w != want)
		fail_msg("width('%s') = %zu, want %zu", s, w, want);
}

static void
test_width(void **state)
{
	(void)state;
	expect_width("", 0);
	expect_width("Habu", 4);
	expect_width("羽生善治", 8);
	expect_width("ひふみん", 8);
	expect_width("カタカナ", 8);
	expect_width("ｶﾀｶﾅ", 4);		/* half-width katakana */
	expect_width("ＡＢＣ　１", 10);	/* full-width forms, U+3000 */
	expect_width("▲７六歩", 7);		/* ▲ is ambiguous: one */
	expect_width("☗☖", 2);		/* neutral */
	expect_width("한국", 4);
	expect_width("e\xcc\x81", 1);		/* e and a combining acute */
	expect_width("か\xe3\x82\x99", 2);	/* か, a combining voiced mark */
	expect_width("\xf0\xa0\x80\x8b", 2);	/* a CJK ideograph beyond BMP */
	expect_width("\xf0\x9f\x98\x80", 2);	/* an emoji */
	expect_width("a\xff" "b", 3);		/* an invalid byte counts one */
}

/* text.ascii after decoding src, on each path decoding may take. */
static void
expect_ascii(const char *src, size_t n, int want)
{
	struct diag_list d = DIAG_LIST_INIT;
	struct text t;

	text_init(&t);
	if (text_decode(&t, src, n, &d) != 0)
		fail_msg("'%s' does not decode", src);
	if (t.ascii != want)
		fail_msg("ascii('%s') = %d, want %d (%s)", src, t.ascii, want,
		    t.encoding);
	text_release(&t);
	diag_list_release(&d);
}

#define EXPECT_ASCII(s, want) expect_ascii(s, sizeof(s) - 1, want)

static void
test_ascii(void **state)
{
	char big[4096];
	size_t i;

	(void)state;
	EXPECT_ASCII("", 1);
	EXPECT_ASCII("V2.2\nN+Habu\n", 1);	/* the one-pass path */
	EXPECT_ASCII("V2.2\r\nN+Habu\r\n", 1);	/* CR: the general path */
	EXPECT_ASCII("\xef\xbb\xbfN+Habu\n", 1);	/* the BOM is not text */
	EXPECT_ASCII("N+\xe7\xbe\xbd\xe7\x94\x9f\n", 0);	/* 羽生 */
	EXPECT_ASCII("N+\xe7\xbe\xbd\r\n", 0);
	EXPECT_ASCII("N+\x89\x48\x90\xb6\n", 0);	/* CP932 羽生 */
	EXPECT_ASCII("\x7f\t\x01\n", 1);	/* controls are ASCII */
	/* One wide character after a long ASCII run, in every place. */
	for (i = 0; i + 3 < sizeof(big); i += 509) {
		memset(big, 'a', sizeof(big));
		memcpy(big + i, "\xe3\x80\x80", 3);
		expect_ascii(big, sizeof(big), 0);
		memcpy(big + i, "\r\n\n", 3);
		expect_ascii(big, sizeof(big), 1);
	}
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_width),
		cmocka_unit_test(test_ascii),
	};

	(void)argc;
	(void)argv;
	return cmocka_run_group_tests_name("core/text", tests, NULL, NULL);
}
