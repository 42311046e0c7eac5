/*
 * fuzz_stats.c - the libFuzzer target of `kifu stats --merge`'s reader
 * of shards (stats/gamestats.c): the input is read as JSON Lines of
 * `kifu stats --json` objects.
 *
 * Not only a crash test: whatever a shard is accepted as must come out
 * as JSON that reads back to the same counts (written again, the same
 * bytes), and as tables; nothing a shard says may make the reader
 * allocate without bound. A failure aborts, which libFuzzer reports
 * like a crash.
 *
 *   make fuzz CC=clang && build/fuzz/fuzz_stats -max_total_time=60 \
 *       testdata/stats
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/gamestats.h"

#define MAX_INPUT (1 << 16)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	struct strbuf out = STRBUF_INIT, again = STRBUF_INIT;
	struct gamestats s, back;
	const char *p = (const char *)data, *end = p + n;
	char why[160];
	json_error_t je;
	json_t *o;
	int by = -1;

	if (n > MAX_INPUT)
		return 0;
	for (; p < end; p++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if ((o = json_loadb(p, len, 0, &je)) && json_is_object(o)) {
			if (by < 0) {
				by = gamestats_json_by(o);
				gamestats_init(&s, (enum group_by)by);
				s.vs = gamestats_json_vs(o);
			}
			(void)gamestats_read_json(&s, o, why, sizeof(why));
		}
		json_decref(o);
		p += len;
	}
	if (by < 0)
		return 0;
	gamestats_json(&s, &out);
	gamestats_init(&back, (enum group_by)by);
	back.vs = s.vs;
	o = json_loadb(out.buf, out.len, 0, &je);
	if (!o || gamestats_read_json(&back, o, why, sizeof(why)) < 0) {
		fprintf(stderr, "fuzz_stats: its own JSON does not read: "
		    "%s\n%s", o ? why : je.text, out.buf);
		abort();
	}
	gamestats_json(&back, &again);
	if (out.len != again.len || memcmp(out.buf, again.buf, out.len)) {
		fprintf(stderr, "fuzz_stats: JSON read back differs:\n%s%s",
		    out.buf, again.buf);
		abort();
	}
	strbuf_reset(&out);
	gamestats_text(&s, NULL, &out);
	json_decref(o);
	gamestats_release(&s);
	gamestats_release(&back);
	strbuf_release(&out);
	strbuf_release(&again);
	return 0;
}
