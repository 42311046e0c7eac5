/*
 * fuzz_tags.c - the libFuzzer target of the definitions files `kifu tag
 * --definitions` reads (tags/defs.h).
 *
 * Not only a crash test. The input is loaded over kifu's own
 * definitions: a text refused leaves the set exactly as it was and names
 * a line of the text; a text taken and compiled is written back, and the
 * writing reads (into an empty set) as a set that writes the very same
 * bytes; and every compiled set names two games (one even, one handicap)
 * with every name it gives a definition of the set, at a ply of the
 * game. A failure aborts.
 *
 *   make fuzz CC=clang && build/fuzz/fuzz_tags -max_total_time=60 \
 *       testdata/tags/definitions
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "parsers/format.h"
#include "tags/tagger.h"

#define MAX_INPUT (1 << 16)

static void
check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_tags: %s\n", what);
		abort();
	}
}

static const char *const games[] = {
	"startpos moves 7g7f 3c3d 6g6f 8b4b 2h6h 5a6b 5i4h 6b7b 4h3h 7b8b "
	    "3h2h 7a7b 3i3h 6a5b 6i5h 4a5b 1g1f 1c1d",
	"sfen lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 "
	    "moves 3c3d 7g7f 8b3b 2g2f 5a6b 2f2e 6b7b 5i6h",
};

static void
name_games(const struct tagdefs *d)
{
	struct tagger *tg = tagger_new(d);
	size_t g, k;
	int c;

	for (g = 0; g < sizeof(games) / sizeof(games[0]); g++) {
		struct text t;
		struct reader rd;
		struct record r;
		struct diag_list dl = DIAG_LIST_INIT;
		const struct tag_result *res;

		text_init(&t);
		record_init(&r, variant_standard());
		check(text_from_utf8(&t, games[g], strlen(games[g]), &dl) == 0,
		    "a test game does not load");
		reader_init(&rd, &t, variant_standard());
		check(usi_read(&rd, &r, &dl) == READ_OK, "a test game reads");
		res = tagger_record(tg, &r, &dl);
		check(res->named, "a test game is not named");
		check(res->game < (int)d->n, "a game name out of the set");
		for (c = 0; c < 2; c++) {
			const struct tag_side *s = &res->side[c];

			check(s->style < (int)d->n, "a style out of the set");
			for (k = 0; k < s->nopenings; k++)
				check(s->openings[k].def < d->n &&
				    s->openings[k].ply >= 0 &&
				    s->openings[k].ply <= res->plies,
				    "an opening out of bounds");
			for (k = 0; k < s->ncastles; k++)
				check(s->castles[k].def < d->n &&
				    s->castles[k].ply >= 0 &&
				    s->castles[k].ply <= res->plies,
				    "a castle out of bounds");
		}
		record_release(&r);
		text_release(&t);
		diag_list_release(&dl);
	}
	tagger_free(tg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	struct diag_list dl = DIAG_LIST_INIT;
	struct tagdefs *d, *again;
	struct strbuf before = STRBUF_INIT, after = STRBUF_INIT;
	size_t i, lines = 1;

	if (n > MAX_INPUT)
		return 0;
	core_init();
	for (i = 0; i < n; i++)
		lines += data[i] == '\n';
	d = tagdefs_new();
	check(tagdefs_load_builtin(d, &dl) == 0, "the built-in set");
	tagdefs_write(d, 1, &before);
	if (tagdefs_load(d, "fuzz", (const char *)data, n, &dl) != 0) {
		tagdefs_write(d, 1, &after);
		check(before.len == after.len &&
		    memcmp(before.buf, after.buf, before.len) == 0,
		    "a refused text changed the set");
		check(dl.errors > 0, "refused without an error");
		for (i = 0; i < dl.n; i++)
			check(dl.v[i].loc.line <= lines, "an error past the end");
		goto out;
	}
	if (tagdefs_compile(d, &dl) != 0) {
		check(dl.errors > 0, "not compiled, without an error");
		goto out;
	}
	name_games(d);
	strbuf_reset(&before);
	tagdefs_write(d, 0, &before);
	again = tagdefs_new();
	check(tagdefs_load(again, "again", before.buf, before.len, &dl) == 0,
	    "the written set does not read");
	check(tagdefs_compile(again, &dl) == 0, "the written set does not "
	    "compile");
	strbuf_reset(&after);
	tagdefs_write(again, 0, &after);
	check(before.len == after.len &&
	    memcmp(before.buf, after.buf, before.len) == 0,
	    "the written set does not write back the same");
	tagdefs_free(again);
out:
	tagdefs_free(d);
	diag_list_release(&dl);
	strbuf_release(&before);
	strbuf_release(&after);
	return 0;
}
