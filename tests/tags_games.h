/*
 * tags_games.h - what the tag tests share: a game given as a USI line,
 * named by a tagger, and questions about the names it got.
 */
#ifndef KIFU_TESTS_TAGS_GAMES_H
#define KIFU_TESTS_TAGS_GAMES_H

#include "reading.h"
#include "core/core.h"
#include "tags/report.h"

/*
 * Names the game of a USI line ("startpos moves ...", or an SFEN) with
 * the tagger; the record goes to r (released by the caller).
 */
static inline const struct tag_result *
tag_usi(struct tagger *tg, struct record *r, const char *usi)
{
	struct text t;
	struct reader rd;
	struct diag_list d;
	const struct tag_result *res;

	text_init(&t);
	diag_list_init(&d);
	record_init(r, variant_standard());
	if (text_from_utf8(&t, usi, strlen(usi), &d) != 0)
		fail_msg("test text does not load");
	reader_init(&rd, &t, variant_standard());
	if (usi_read(&rd, r, &d) != READ_OK) {
		dump_diags(&d);
		fail_msg("test USI '%.60s' does not read", usi);
	}
	res = tagger_record(tg, r, &d);
	assert_no_errors(&d);
	diag_list_release(&d);
	text_release(&t);
	return res;
}

/* The ply side c reached the name at (any kind, the style too), or -1. */
static inline int
tag_ply(const struct tagdefs *d, const struct tag_result *res, int c,
    const char *name)
{
	const struct tag_side *s = &res->side[c];
	size_t i;

	if (s->style >= 0 && !strcmp(tagdefs_label(d, d->v[s->style].name),
	    name))
		return s->style_ply;
	for (i = 0; i < s->nopenings; i++)
		if (!strcmp(tagdefs_label(d, d->v[s->openings[i].def].name),
		    name))
			return s->openings[i].ply;
	for (i = 0; i < s->ncastles; i++)
		if (!strcmp(tagdefs_label(d, d->v[s->castles[i].def].name),
		    name))
			return s->castles[i].ply;
	return -1;
}

/* The game-level name, "" for none. */
static inline const char *
tag_game(const struct tagdefs *d, const struct tag_result *res)
{
	return res->game >= 0 ? tagdefs_label(d, d->v[res->game].name) : "";
}

#endif /* KIFU_TESTS_TAGS_GAMES_H */
