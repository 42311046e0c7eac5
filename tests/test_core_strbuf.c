/*
 * The growing string (core/strbuf.c): strbuf_add_int, which writers call
 * for every number of a large output instead of printf, must write what
 * "%lld" writes, at the ends of the range too.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "helpers.h"
#include "core/strbuf.h"

static void
expect_int(long long v)
{
	struct strbuf sb = STRBUF_INIT;
	char want[32];

	snprintf(want, sizeof(want), "%lld", v);
	strbuf_adds(&sb, "x");
	strbuf_add_int(&sb, v);
	if (strcmp(sb.buf + 1, want) != 0 || sb.len != strlen(want) + 1)
		fail_msg("strbuf_add_int(%s) wrote '%s'", want, sb.buf + 1);
	strbuf_release(&sb);
}

static void
test_add_int_like_printf(void **state)
{
	static const long long v[] = {
		0, 1, -1, 9, 10, -10, 99, 100, 32767, -32767, 123456789,
		-987654321, INT_MAX, INT_MIN, LLONG_MAX, LLONG_MIN,
		LLONG_MIN + 1,
	};
	size_t i;
	long long x;

	(void)state;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		expect_int(v[i]);
	/* every length, both signs */
	for (x = 1; x > 0 && x < LLONG_MAX / 10; x *= 10) {
		expect_int(x - 1);
		expect_int(-x);
		expect_int(x * 7 + 3);
	}
}

static void
test_add_int_appends(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	(void)state;
	for (i = 0; i < 1000; i++) {
		strbuf_add_int(&sb, i);
		strbuf_addc(&sb, ' ');
	}
	assert_int_equal(sb.len, 10 * 2 + 90 * 3 + 900 * 4);
	assert_memory_equal(sb.buf, "0 1 2 ", 6);
	assert_string_equal(sb.buf + sb.len - 4, "999 ");
	strbuf_release(&sb);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_int_like_printf),
		cmocka_unit_test(test_add_int_appends),
	};

	(void)argc;
	(void)argv;
	return cmocka_run_group_tests_name("core/strbuf", tests, NULL, NULL);
}
