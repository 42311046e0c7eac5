/*
 * stats.c - `kifu stats` through the library (kifu.h: kifu_stats_*):
 * game statistics counted a judged record at a time (stats/gamestats.c),
 * merged, and written as the JSON `kifu stats --json` prints.
 */
#include <stdlib.h>

#include "api/libkifu.h"
#include "core/xalloc.h"
#include "stats/gamestats.h"
#include "stats/jsonl.h"
#include "tags/defs.h"
#include "tags/tagger.h"

struct kifu_stats {
	struct gamestats gs;
	int by_given;	/* else the first shard read that shows one */
	struct tagger *tg;	/* by the names: made on the first add */
};

API int
kifu_stats_new(const char *by, kifu_stats **out, kifu_error **err)
{
	int g = by ? group_by_parse(by) : BY_NONE;

	*out = NULL;
	api_ok(err);
	if (g < 0)
		return api_fail(err, KIFU_ERR_ARG, NULL, "usage", "no grouping "
		    "'%s' (known: none, player, event, year, first-moves, "
		    "opening, castle, matchup)", by);
	*out = xcalloc(1, sizeof(**out));
	gamestats_init(&(*out)->gs, (enum group_by)g);
	(*out)->by_given = by != NULL;
	return KIFU_OK;
}

API void
kifu_stats_free(kifu_stats *s)
{
	if (!s)
		return;
	gamestats_release(&s->gs);
	tagger_free(s->tg);
	free(s);
}

API int
kifu_stats_add(kifu_stats *s, const kifu_record *r, kifu_error **err)
{
	struct api_judged j;

	api_ok(err);
	api_record_judged(r, &j);
	if (!j.r)
		return api_fail(err, KIFU_ERR_READ, NULL, j.error ?
		    kifu_error_id(j.error) : "syntax", "record %d could not "
		    "be read: not counted", j.index + 1);
	if (group_by_tags(s->gs.by)) {
		/* Named with kifu's own definitions, as `kifu stats` names. */
		if (!s->tg)
			s->tg = tagger_new(tagdefs_default());
		gamestats_add_judged(&s->gs, j.r, j.adj, tagger_defs(s->tg),
		    tagger_replayed(s->tg, j.r));
	} else {
		gamestats_add_judged(&s->gs, j.r, j.adj, NULL, NULL);
	}
	return KIFU_OK;
}

/* Whether counts grouped by `by` can join a's (adopting it if a may). */
static int
fits(struct kifu_stats *a, enum group_by by, int says_nothing)
{
	if (a->gs.by == by || says_nothing)
		return 1;
	if (!a->by_given && a->gs.by == BY_NONE && !a->gs.names.n &&
	    !a->gs.total.all.records) {
		a->gs.by = by;
		return 1;
	}
	return 0;
}

API int
kifu_stats_merge(kifu_stats *a, const kifu_stats *b, kifu_error **err)
{
	api_ok(err);
	if (!fits(a, b->gs.by, !b->gs.names.n))
		return api_fail(err, KIFU_ERR_ARG, NULL, "usage", "statistics "
		    "by %s do not merge into statistics by %s",
		    group_by_name(b->gs.by), group_by_name(a->gs.by));
	if (b->gs.read_total > GAMESTATS_READ_MAX - a->gs.read_total)
		return api_fail(err, KIFU_ERR_ARG, NULL, "overflow", "counts "
		    "too large in all (past 2^62): the statistics do not merge");
	gamestats_merge(&a->gs, &b->gs);
	return KIFU_OK;
}

static int
merge_object(void *ctx, json_t *o, char *why, size_t n)
{
	struct kifu_stats *s = ctx;

	(void)fits(s, gamestats_json_by(o), 0);
	return gamestats_read_json(&s->gs, o, why, n);
}

API int
kifu_stats_read(kifu_stats *s, const char *path, kifu_error **err)
{
	struct diag_list d;
	int rc;

	api_ok(err);
	if (!path)
		return api_fail(err, KIFU_ERR_ARG, NULL, "usage", "no path");
	diag_list_init(&d);
	rc = api_read_status(jsonl_read(path, merge_object, s, &d), path, &d,
	    err);
	diag_list_release(&d);
	return rc;
}

API char *
kifu_stats_json(const kifu_stats *s)
{
	struct strbuf sb = STRBUF_INIT;

	gamestats_json(&s->gs, &sb);
	if (sb.len && sb.buf[sb.len - 1] == '\n')
		sb.buf[--sb.len] = '\0';
	return strbuf_detach(&sb, NULL);
}

API char *
kifu_stats_text(const kifu_stats *s)
{
	struct strbuf sb = STRBUF_INIT;

	gamestats_text(&s->gs, NULL, &sb);
	return strbuf_detach(&sb, NULL);
}

API const char *
kifu_stats_by(const kifu_stats *s)
{
	return group_by_name(s->gs.by);
}

API long long
kifu_stats_records(const kifu_stats *s)
{
	return s->gs.total.all.records;
}
