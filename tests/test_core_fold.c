/*
 * Text folding (core/fold.c): each form doc/archives.md names folds as NFKC and
 * case folding fold it, and nothing else changes.
 */
#include <stdlib.h>

#include "helpers.h"
#include "core/fold.h"

static void
expect_fold(const char *in, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	fold_append(&sb, in, strlen(in));
	if (strcmp(sb.len ? sb.buf : "", want) != 0)
		fail_msg("fold('%s') = '%s', want '%s'", in,
		    sb.len ? sb.buf : "", want);
	strbuf_release(&sb);
}

static void
test_fold_ascii(void **state)
{
	(void)state;
	expect_fold("", "");
	expect_fold("Habu Yoshiharu", "habu yoshiharu");
	expect_fold("wdoor+floodgate-300-10F", "wdoor+floodgate-300-10f");
	expect_fold("AZaz09@[`{", "azaz09@[`{");
}

static void
test_fold_full_width(void **state)
{
	(void)state;
	expect_fold("ＡＢＣ　ｘｙｚ", "abc xyz");
	expect_fold("第６１期王位戦", "第61期王位戦");
	expect_fold("（！～）", "(!~)");
	expect_fold("Ｇｉｋｏｕ２", "gikou2");
	/* U+FF00 and U+FF5F lie outside the ASCII block: left alone. */
	expect_fold("\xef\xbc\x80\xef\xbd\x9f", "\xef\xbc\x80\xef\xbd\x9f");
}

static void
test_fold_half_width_kana(void **state)
{
	(void)state;
	expect_fold("ｼｮｳｷﾞ", "ショウギ");
	expect_fold("ﾊﾟﾋﾟﾌﾟﾍﾟﾎﾟ ﾊﾞ ｳﾞ ﾜﾞ ｦﾞ", "パピプペポ バ ヴ ヷ ヺ");
	expect_fold("ｶﾞｷﾞｸﾞｹﾞｺﾞｻﾞｼﾞｽﾞｾﾞｿﾞﾀﾞﾁﾞﾂﾞﾃﾞﾄﾞ",
	    "ガギグゲゴザジズゼゾダヂヅデド");
	/* A mark that joins nothing stays a mark of its own. */
	expect_fold("ｱﾞｶﾟﾞ", "ア゛カ゜゛");
	expect_fold("｡｢｣､･ｰ", "。「」、・ー");
}

static void
test_fold_unchanged(void **state)
{
	(void)state;
	expect_fold("羽生善治 ひふみん カタカナ", "羽生善治 ひふみん カタカナ");
	/* Only ASCII and full-width Latin change case. */
	expect_fold("ÀÉ Ωμ", "ÀÉ Ωμ");
}

static void
test_fold_bad_bytes(void **state)
{
	(void)state;
	/* Not UTF-8: each bad byte is U+FFFD, and the rest goes on. */
	expect_fold("a\xff" "B\xe3\x81", "a\xef\xbf\xbd" "b\xef\xbf\xbd"
	    "\xef\xbf\xbd");
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fold_ascii),
		cmocka_unit_test(test_fold_full_width),
		cmocka_unit_test(test_fold_half_width_kana),
		cmocka_unit_test(test_fold_unchanged),
		cmocka_unit_test(test_fold_bad_bytes),
	};

	(void)argc;
	(void)argv;
	return cmocka_run_group_tests_name("core/fold", tests, NULL, NULL);
}
