/*
 * Display width (core/text.c, utf8_width): what kifu stats aligns its
 * tables by. Checked against the East Asian Width of Unicode for the
 * characters records hold.
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

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_width),
	};

	(void)argc;
	(void)argv;
	return cmocka_run_group_tests_name("core/text", tests, NULL, NULL);
}
