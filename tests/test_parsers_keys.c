/*
 * Keys files (parsers/keys.h): what the writer writes reads back, and a
 * damaged file is refused at its line, never misread.
 */
#include <stdio.h>

#include "helpers.h"
#include "parsers/keys.h"

static void
test_round_trip(void **state)
{
	static const struct keys_line lines[] = {
		{ 0x1b4539f24269ac5dULL, 38, 1444 },
		{ 1, 1, 32 },
		{ 0xffffffffffffffffULL, 513, 5166 },
	};
	struct strbuf sb = STRBUF_INIT;
	struct keys_reader rd;
	struct keys_error err;
	struct keys_line k;
	size_t i;

	(void)state;
	keys_write_header(&sb, "hcpe3");
	for (i = 0; i < 3; i++)
		keys_write_line(&sb, &lines[i]);
	assert_string_equal(sb.buf, "#kifu-export-keys 1 hcpe3\n"
	    "1b4539f24269ac5d 38 1444\n0000000000000001 1 32\n"
	    "ffffffffffffffff 513 5166\n");
	assert_int_equal(keys_reader_init(&rd, sb.buf, sb.len, &err), 0);
	assert_string_equal(rd.format, "hcpe3");
	for (i = 0; i < 3; i++) {
		assert_int_equal(keys_read(&rd, &k, &err), 1);
		assert_true(k.key == lines[i].key);
		assert_true(k.rows == lines[i].rows);
		assert_true(k.bytes == lines[i].bytes);
	}
	assert_int_equal(keys_read(&rd, &k, &err), 0);
	strbuf_release(&sb);
}

struct bad {
	const char *name, *text;
	unsigned long line;	/* where the error is */
	const char *message;	/* a part of it */
};

static const struct bad bad[] = {
	{ "empty", "", 1, "not a keys file" },
	{ "rows, not keys", "\x58\xa4\x49\x21", 1, "not a keys file" },
	{ "no newline after the header", "#kifu-export-keys 1 hcpe", 1,
	    "not a keys file" },
	{ "another version", "#kifu-export-keys 2 hcpe\n", 1, "version" },
	{ "no format", "#kifu-export-keys 1 \n", 1, "format" },
	{ "a format with a blank", "#kifu-export-keys 1 hc pe\n", 1,
	    "format" },
	{ "cut", "#kifu-export-keys 1 hcpe\n1b4539f24269ac5d 38 14", 2,
	    "cut" },
	{ "short key", "#kifu-export-keys 1 hcpe\n1b4539f24269ac5 38 1444\n",
	    2, "16 hex digits" },
	{ "capital hex", "#kifu-export-keys 1 hcpe\n1B4539F24269AC5D 38 "
	    "1444\n", 2, "16 hex digits" },
	{ "a missing field", "#kifu-export-keys 1 hcpe\n1b4539f24269ac5d "
	    "1444\n", 2, "<key>" },
	{ "a field too many", "#kifu-export-keys 1 hcpe\n1b4539f24269ac5d 38 "
	    "1444 7\n", 2, "<key>" },
	{ "two blanks", "#kifu-export-keys 1 hcpe\n1b4539f24269ac5d  38 "
	    "1444\n", 2, "<key>" },
	{ "a sign", "#kifu-export-keys 1 hcpe\n1b4539f24269ac5d -38 1444\n",
	    2, "<key>" },
	{ "a leading zero", "#kifu-export-keys 1 hcpe\n1b4539f24269ac5d 038 "
	    "1444\n", 2, "<key>" },
	{ "huge", "#kifu-export-keys 1 hcpe\n1b4539f24269ac5d 1 "
	    "99999999999999999999\n", 2, "<key>" },
	{ "over the bound", "#kifu-export-keys 1 hcpe\n1b4539f24269ac5d 1 "
	    "9999999999999\n", 2, "cannot be" },
	{ "no bytes", "#kifu-export-keys 1 hcpe\n1b4539f24269ac5d 0 0\n", 2,
	    "cannot be" },
	{ "more rows than bytes", "#kifu-export-keys 1 hcpe\n"
	    "1b4539f24269ac5d 39 38\n", 2, "cannot be" },
	{ "key 0", "#kifu-export-keys 1 hcpe\n0000000000000000 1 38\n", 2,
	    "key 0" },
	{ "a blank line", "#kifu-export-keys 1 hcpe\n1b4539f24269ac5d 1 38\n"
	    "\n", 3, "<key>" },
	{ "CRLF", "#kifu-export-keys 1 hcpe\n1b4539f24269ac5d 1 38\r\n", 2,
	    "<key>" },
	{ "a NUL", "#kifu-export-keys 1 hcpe\n1b4539f24269ac5d 1 3\0008\n", 2,
	    "<key>" },
};

static void
test_damaged(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const struct bad *b = &bad[i];
		/* the NUL case has one in the middle: count to the end */
		size_t n = strlen(b->text);
		struct keys_reader rd;
		struct keys_error err;
		struct keys_line k;
		int r;

		if (strstr(b->name, "NUL"))
			n = sizeof("#kifu-export-keys 1 hcpe\n"
			    "1b4539f24269ac5d 1 3\0008\n") - 1;
		memset(&err, 0, sizeof(err));
		if ((r = keys_reader_init(&rd, b->text, n, &err)) == 0)
			while ((r = keys_read(&rd, &k, &err)) > 0)
				;
		if (r != -1)
			fail_msg("%s: read without an error", b->name);
		if (err.line != b->line || !strstr(err.message, b->message))
			fail_msg("%s: line %lu: %s", b->name, err.line,
			    err.message);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_damaged),
	};

	return cmocka_run_group_tests_name("parsers/keys", tests, NULL, NULL);
}
