/*
 * fuzz_results.c - the libFuzzer target of `kifu match --report`'s
 * reader of results files (engine/results.c): the input is read as a
 * results file.
 *
 * Not only a crash test: the counts must add up (every game in one
 * tally, W+D+L per tally, pairs no more than half the games, endings no
 * more than the games), every line is either counted or an error, and
 * the games accepted, written again as the fewest fields --report reads
 * and read back, must give the same counts. A failure aborts, which
 * libFuzzer reports like a crash.
 *
 *   make fuzz CC=clang && build/fuzz/fuzz_results -max_total_time=60 \
 *       -dict=tests/fuzz/dict/results.dict testdata/results
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/results.h"
#include "stats/jsonl.h"

#define MAX_INPUT (1 << 16)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);

static void
fail(const char *what)
{
	fprintf(stderr, "fuzz_results: %s\n", what);
	abort();
}

/* A game --report counted, as the fewest fields that say the same. */
static void
canonical(json_t *o, struct strbuf *out)
{
	json_t *c = json_object(), *pair = json_object_get(o, "pair");
	static const char *const keep[] = { "black", "white", "result",
	    "reason" };
	size_t i;
	char *s;

	for (i = 0; i < sizeof(keep) / sizeof(keep[0]); i++) {
		json_t *v = json_object_get(o, keep[i]);

		if (json_is_string(v))
			json_object_set(c, keep[i], v);
	}
	if (json_is_integer(pair))
		json_object_set(c, "pair", pair);
	if (!(s = json_dumps(c, JSON_COMPACT)))
		fail("json_dumps failed");
	strbuf_adds(out, s);
	strbuf_addc(out, '\n');
	free(s);
	json_decref(c);
}

static void
check_sums(const struct results_report *r)
{
	long long games = 0, ends = 0;
	size_t i;
	int k;

	for (i = 0; i < r->t.n; i++) {
		const struct match_tally *t = &r->t.v[i];
		long long g = match_tally_games(t), by = 0, c;

		if (t->a < 0 || t->a >= r->nnames || t->b < 0 ||
		    t->b >= r->nnames)
			fail("a tally of an unknown engine");
		for (c = 0; c < 2; c++)
			by += t->color[c][0] + t->color[c][1] + t->color[c][2];
		if (by != g || 2 * match_tally_npairs(t) + (long long)t->npend >
		    g)
			fail("a tally does not add up");
		games += g;
	}
	for (k = 0; k < END_NB; k++)
		ends += r->ends[k];
	if (games != r->games || ends > games)
		fail("the games do not add up");
}

/*
 * The same counts, tally by tally in order. By names, not numbers: a
 * line turned down for its result has had its names numbered already.
 */
static int
same(const struct results_report *a, const struct results_report *b)
{
	size_t i;
	int k;

	if (a->games != b->games || a->t.n != b->t.n)
		return 0;
	for (k = 0; k < END_NB; k++)
		if (a->ends[k] != b->ends[k])
			return 0;
	for (i = 0; i < a->t.n; i++) {
		const struct match_tally *x = &a->t.v[i], *y = &b->t.v[i];

		if (strcmp(a->names[x->a], b->names[y->a]) ||
		    strcmp(a->names[x->b], b->names[y->b]) || x->w != y->w ||
		    x->d != y->d || x->l != y->l || x->npend != y->npend ||
		    memcmp(x->color, y->color, sizeof(x->color)) ||
		    memcmp(x->pairs, y->pairs, sizeof(x->pairs)))
			return 0;
	}
	return 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	const char *p = (const char *)data, *end = p + n;
	struct results_report r, back;
	struct diag_list d;
	struct strbuf again = STRBUF_INIT, text = STRBUF_INIT;
	size_t lines = 0, counted = 0, i;

	if (n > MAX_INPUT)
		return 0;
	results_report_init(&r);
	diag_list_init(&d);
	(void)results_report_parse(&r, p, n, &d);
	check_sums(&r);
	/* line by line as jsonl_parse splits: counted, or its error */
	results_report_init(&back);
	for (; p < end; p++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		json_error_t je;
		json_t *o;
		char why[160];

		if (len) {
			lines++;
			o = json_loadb(p, len, 0, &je);
			if (o && json_is_object(o) &&
			    results_report_line(&back, o, why, sizeof(why)) == 0) {
				counted++;
				canonical(o, &again);
			}
			json_decref(o);
		}
		p += len;
	}
	if (lines != counted + d.n)
		fail("a line neither counted nor an error");
	results_report_release(&back);
	results_report_init(&back);
	diag_list_clear(&d);
	if (results_report_parse(&back, again.buf ? again.buf : "", again.len,
	    &d) != 0)
		fail("its own lines do not read");
	if (!same(&r, &back))
		fail("the lines written again count otherwise");
	for (i = 0; i < r.t.n; i++) {
		static const struct sprt s = { 0, 5, 0.05, 0.05,
		    SPRT_NORMALIZED };

		match_tally_text(&r.t.v[i], r.names[r.t.v[i].a],
		    r.names[r.t.v[i].b], &s, &text);
	}
	results_ends_text(r.ends, &text);
	results_report_release(&r);
	results_report_release(&back);
	diag_list_release(&d);
	strbuf_release(&again);
	strbuf_release(&text);
	return 0;
}
