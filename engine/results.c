/*
 * results.c - the results file of an engine match (results.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "core/ruleset.h"
#include "core/xalloc.h"
#include "stats/jsonl.h"

/* jansson's quoting, so that lines read back by any JSON reader. */
static void
json_str(struct strbuf *sb, const char *s)
{
	json_t *j = json_string(s);
	char *t = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;

	strbuf_adds(sb, t ? t : "\"\"");
	free(t);
	json_decref(j);
}

void
results_line(struct strbuf *sb, size_t index, const struct schedule_game *s,
    const struct match_game *g, const char *black, const char *white,
    const struct opening *op, const struct match_rules *mr,
    const char *record)
{
	char buf[4096];

	strbuf_reset(sb);
	strbuf_addf(sb, "{\"game\":%zu,\"round\":%d", index + 1, s->round);
	if (s->pair)
		strbuf_addf(sb, ",\"pair\":%d", s->pair);
	strbuf_adds(sb, ",\"black\":");
	json_str(sb, black);
	strbuf_adds(sb, ",\"white\":");
	json_str(sb, white);
	strbuf_addf(sb, ",\"black_engine\":%d,\"white_engine\":%d", s->black,
	    s->white);
	strbuf_adds(sb, ",\"opening\":");
	json_str(sb, op->where);
	opening_usi(op, buf, sizeof(buf));
	strbuf_adds(sb, ",\"opening_position\":");
	json_str(sb, buf);
	strbuf_addf(sb, ",\"result\":\"%s\",\"reason\":\"%s\"",
	    match_winner_name(g), match_end_name(g->end));
	strbuf_adds(sb, ",\"how\":");
	json_str(sb, g->how);
	strbuf_addf(sb, ",\"plies\":%d,\"opening_plies\":%d", g->plies,
	    g->opening_plies);
	strbuf_addf(sb, ",\"time_black_ms\":%lld,\"time_white_ms\":%lld",
	    g->used_ms[BLACK], g->used_ms[WHITE]);
	match_tc_describe(&mr->tc, buf, sizeof(buf));
	strbuf_adds(sb, ",\"tc\":");
	json_str(sb, buf);
	ruleset_describe(&mr->rs, buf, sizeof(buf));
	strbuf_adds(sb, ",\"rules\":");
	json_str(sb, buf);
	if (record) {
		strbuf_adds(sb, ",\"record\":");
		json_str(sb, record);
	}
	strbuf_adds(sb, "}\n");
}

void
results_ends_text(const long long ends[END_NB], struct strbuf *out)
{
	int i, any = 0;

	strbuf_adds(out, "Endings:");
	for (i = 0; i < END_NB; i++)
		if (ends[i]) {
			strbuf_addf(out, "%s %s %lld", any ? "," : "",
			    match_end_name((enum match_end)i), ends[i]);
			any = 1;
		}
	strbuf_adds(out, any ? "\n" : " none\n");
}

/* --- reading --------------------------------------------------------------- */

void
results_report_init(struct results_report *r)
{
	memset(r, 0, sizeof(*r));
	match_tallies_init(&r->t);
}

void
results_report_release(struct results_report *r)
{
	int i;

	for (i = 0; i < r->nnames; i++)
		free(r->names[i]);
	match_tallies_release(&r->t);
	results_report_init(r);
}

static int
report_name(struct results_report *r, const char *name)
{
	int i;

	for (i = 0; i < r->nnames; i++)
		if (!strcmp(r->names[i], name))
			return i;
	if (r->nnames == TOURNEY_ENGINES_MAX)
		return -1;
	r->names[r->nnames] = xstrndup(name, strlen(name));
	return r->nnames++;
}

int
results_report_line(void *ctx, json_t *o, char *why, size_t n)
{
	struct results_report *r = ctx;
	json_t *b = json_object_get(o, "black"), *w = json_object_get(o,
	    "white"), *res = json_object_get(o, "result"), *reason =
	    json_object_get(o, "reason"), *pair = json_object_get(o, "pair");
	const char *result;
	int ib, iw, half, e;

	if (!json_is_string(b) || !json_is_string(w) || !json_is_string(res)) {
		snprintf(why, n, "a game needs \"black\", \"white\" and "
		    "\"result\" strings");
		return -1;
	}
	result = json_string_value(res);
	if (!strcmp(result, "none"))
		return 0;
	if (!strcmp(result, "black"))
		half = 2;
	else if (!strcmp(result, "white"))
		half = 0;
	else if (!strcmp(result, "draw"))
		half = 1;
	else
		half = -1;
	/* the names first: a 17th engine is the error before a bad result */
	ib = report_name(r, json_string_value(b));
	iw = report_name(r, json_string_value(w));
	if (ib < 0 || iw < 0) {
		snprintf(why, n, "more than %d engines", TOURNEY_ENGINES_MAX);
		return -1;
	}
	if (half < 0) {
		snprintf(why, n, "\"result\" is black, white, draw or none");
		return -1;
	}
	match_tallies_add(&r->t, ib, iw, half, r->source, json_is_integer(pair) ?
	    json_integer_value(pair) : -1);
	if (json_is_string(reason) && (e = match_end_by_name(
	    json_string_value(reason))) >= 0)
		r->ends[e]++;
	r->games++;
	return 0;
}

int
results_report_parse(struct results_report *r, const char *text, size_t len,
    struct diag_list *d)
{
	return jsonl_parse(text, len, results_report_line, r, d);
}
