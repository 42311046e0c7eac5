/*
 * fuzz_keys.c - the libFuzzer target of the keys files `kifu export
 * --merge` reads (parsers/keys.h).
 *
 * Not only a crash test: every line the reader accepts must be written
 * back by the writer as the very bytes it was read from (so no two texts
 * read as the same line, and nothing is half read), the lines must cover
 * the file from the header to the error or the end, and an error must
 * name a line that is in the file. A failure aborts.
 *
 *   make fuzz CC=clang && build/fuzz/fuzz_keys -max_total_time=60 \
 *       testdata/keys
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/keys.h"

#define MAX_INPUT (1 << 14)

static void
check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_keys: %s\n", what);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	struct keys_reader rd;
	struct keys_error err;
	struct keys_line k;
	unsigned long lines = 1;
	size_t before;
	int r;

	if (n > MAX_INPUT)
		return 0;
	if (keys_reader_init(&rd, data, n, &err) < 0) {
		check(err.line == 1, "a header error not on line 1");
		return 0;
	}
	keys_write_header(&sb, rd.format);
	check(sb.len == rd.off && memcmp(sb.buf, data, sb.len) == 0,
	    "the header does not write back as read");
	for (;;) {
		before = rd.off;
		r = keys_read(&rd, &k, &err);
		if (r <= 0)
			break;
		lines++;
		strbuf_reset(&sb);
		keys_write_line(&sb, &k);
		check(rd.off - before == sb.len &&
		    memcmp(sb.buf, data + before, sb.len) == 0,
		    "a line does not write back as read");
		check(k.key && k.bytes && k.rows <= k.bytes &&
		    k.bytes <= KEYS_MAX_BYTES, "a line out of bounds");
	}
	if (r == 0)
		check(rd.off == n, "the end before the end of the file");
	else
		check(err.line == lines + 1 && before < n,
		    "an error not at the next line");
	strbuf_release(&sb);
	return 0;
}
