/*
 * Dates out of headers (core/date.c): the forms of the shared corpus'
 * records (../shared/testdata, each quoted as written), the Japanese
 * forms real files hold, and texts that are no date.
 */
#include <stdlib.h>

#include "helpers.h"
#include "reading.h"
#include "core/core.h"
#include "core/date.h"

static void
expect_date(const char *in, const char *want)
{
	char out[DATE_MAX];
	int n = date_parse(in, strlen(in), out);

	if (strcmp(out, want) != 0 || n != (int)strlen(want))
		fail_msg("date('%s') = '%s' (%d), want '%s'", in, out, n,
		    want);
}

static void
test_date_corpus_forms(void **state)
{
	(void)state;
	expect_date("2014/10/13 18:51:20", "2014-10-13");
	expect_date("2026/08/05", "2026-08-05");
	expect_date("2017-03-22T01:00:00.000Z", "2017-03-22");
	expect_date("1999/07/15(木) 19:07:12", "1999-07-15");
	expect_date("2008/12/20(土)", "2008-12-20");
	expect_date("2005/11/29･30日", "2005-11-29");
	expect_date("2014/09/13 14：59", "2014-09-13");
	expect_date("2016/12/24 9:00:00", "2016-12-24");
	expect_date("12/30/2018 10:29:48 PM", "2018-12-30");
	/* Floodgate's time alone, and an empty $END_TIME. */
	expect_date(" 13:28:35", "");
	expect_date("", "");
}

static void
test_date_japanese(void **state)
{
	(void)state;
	expect_date("2021年4月5日", "2021-04-05");
	expect_date("２０２１年４月５日（月）", "2021-04-05");
	expect_date("2021年 4月 5日", "2021-04-05");
	expect_date("令和3年4月5日", "2021-04-05");
	expect_date("令和元年5月1日", "2019-05-01");
	expect_date("平成31年4月30日", "2019-04-30");
	expect_date("昭和６０年１２月１日", "1985-12-01");
	expect_date("大正15年12月24日", "1926-12-24");
	expect_date("明治45年7月29日", "1912-07-29");
	expect_date("2021年4月", "2021-04");
	expect_date("平成元年", "1989");
	/* A 年 date says 月 and 日. */
	expect_date("2021年4/5", "");
	expect_date("2021年4月5", "");
}

static void
test_date_partial_and_compact(void **state)
{
	(void)state;
	expect_date("2021", "2021");
	expect_date("2021/04", "2021-04");
	expect_date("2021-04-05", "2021-04-05");
	expect_date("2021.04.05", "2021-04-05");
	/* The separators must agree. */
	expect_date("2021/04-05", "2021-04");
	expect_date("20141013", "2014-10-13");
	expect_date("　2014/10/13", "2014-10-13");
}

static void
test_date_invalid(void **state)
{
	(void)state;
	expect_date("2021/02/29", "");
	expect_date("2020/02/29", "2020-02-29");
	expect_date("2021/13/01", "");
	expect_date("2021/04/31", "");
	expect_date("20211301", "");
	expect_date("14/10/13", "");
	expect_date("第61期王位戦", "");
	expect_date("202110130", "");
	expect_date("令和年4月5日", "");
	expect_date("0000/01/01", "");
}

/* The header a record's date comes from, in each format. */
static void
test_date_of_record(void **state)
{
	static const struct {
		read_fn read;
		const char *src, *want;
	} cases[] = {
		{ csa_read, "V2.2\nN+a\nN-b\n$START_TIME:2014/10/12 14:46:51\n"
		    "$END_TIME:2014/10/12 14:47:55\nPI\n+\n", "2014-10-12" },
		{ csa_read, "V2.2\n$START_TIME: 13:28:35\n"
		    "$END_TIME:2021/04/05 16:25:34\nPI\n+\n", "2021-04-05" },
		{ kif_read, "開始日時：1999/07/15(木) 19:07:12\n"
		    "終了日時：1999/07/16(金) 01:00:00\n"
		    "手合割：平手\n", "1999-07-15" },
		{ kif_read, "対局日：2026/08/05\n手合割：平手\n",
		    "2026-08-05" },
		{ kif_read, "終了日時：2005/08/23(火) 22:50\n手合割：平手\n",
		    "2005-08-23" },
		{ kif_read, "棋戦：王位戦\n手合割：平手\n", "" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct session s;
		char out[DATE_MAX];

		session_start(&s, cases[i].read, cases[i].src,
		    strlen(cases[i].src), variant_standard());
		if (session_next(&s) != READ_OK) {
			dump_diags(&s.d);
			fail_msg("case %zu does not read", i);
		}
		date_of_record(&s.r, out);
		if (strcmp(out, cases[i].want) != 0)
			fail_msg("case %zu: '%s', want '%s'", i, out,
			    cases[i].want);
		session_close(&s);
	}
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_date_corpus_forms),
		cmocka_unit_test(test_date_japanese),
		cmocka_unit_test(test_date_partial_and_compact),
		cmocka_unit_test(test_date_invalid),
		cmocka_unit_test(test_date_of_record),
	};

	(void)argc;
	(void)argv;
	core_init();
	return cmocka_run_group_tests_name("core/date", tests, NULL, NULL);
}
