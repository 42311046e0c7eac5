/*
 * fuzz_problems.c - the libFuzzer target of the problem-line reader of
 * `kifu mate FILE` (api/problems.h).
 *
 * Not only a crash test: lines come back in order and each at a line
 * of the input; a problem read without an error is a sound position
 * whose SFEN reads back as the same position; a stream that is not of
 * problem lines hands its bytes back whole (problem_reader_rest), as the
 * record reader must get them. A failure aborts.
 *
 *   make fuzz CC=clang && build/fuzz/fuzz_problems -max_total_time=60 \
 *       testdata/mate
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/problems.h"
#include "core/sfen.h"

#define MAX_INPUT (1 << 16)

static void
check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_problems: %s\n", what);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	struct problem_reader pr;
	struct problem p;
	size_t lines = 1, i, last = 0;
	FILE *f;
	int r;

	if (n > MAX_INPUT || n == 0)
		return 0;
	for (i = 0; i < n; i++)
		lines += data[i] == '\n';
	f = fmemopen((void *)data, n, "rb");
	check(f != NULL, "fmemopen");
	problem_reader_init(&pr, f, variant_standard(), -1);
	/* Small, so that long lines are met. */
	pr.max_line = 300;
	problem_init(&p);
	r = problem_reader_sniff(&pr);
	check(r >= 0, "a memory stream cannot fail");
	if (r == 0) {
		struct strbuf sb = STRBUF_INIT;

		check(problem_reader_rest(&pr, &sb, (size_t)MAX_INPUT) == 0,
		    "rest failed");
		check(sb.len == n && memcmp(sb.buf, data, n) == 0,
		    "the stream did not come back whole");
		strbuf_release(&sb);
	} else {
		while ((r = problem_reader_next(&pr, &p)) > 0) {
			check(p.line > last && p.line <= lines,
			    "a line out of order or past the end");
			last = p.line;
			for (i = 0; i < p.d.n; i++)
				check(p.d.v[i].loc.line == 0 ||
				    p.d.v[i].loc.line == p.line,
				    "a diagnostic at another line");
			if (!p.d.errors) {
				char sfen[SFEN_MAX];
				struct position q;

				check(position_is_ok(&p.pos), "a broken position");
				sfen_write(&p.pos, sfen);
				check(sfen_read(&q, p.pos.v, sfen, NULL) !=
				    SFEN_SYNTAX, "its SFEN does not read");
				check(position_key(&q) == position_key(&p.pos),
				    "its SFEN reads as another position");
			}
		}
		check(r == 0, "a memory stream cannot fail");
	}
	problem_release(&p);
	problem_reader_release(&pr);
	fclose(f);
	return 0;
}
