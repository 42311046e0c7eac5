/*
 * report.c - a tagger's result as text and JSON; the name headers of a
 * record, read and compared (report.h).
 */
#include <stdlib.h>
#include <string.h>

#include "tags/report.h"
#include "core/text.h"
#include "core/xalloc.h"

static const char *
label_of(const struct tagdefs *d, uint32_t def)
{
	return d->labels[d->v[def].name];
}

static void
hits_text(const struct tagdefs *d, const struct tag_hit *v, size_t n,
    struct strbuf *out)
{
	size_t i;

	if (!n)
		strbuf_adds(out, "-");
	for (i = 0; i < n; i++) {
		if (i)
			strbuf_addc(out, ' ');
		strbuf_adds(out, label_of(d, v[i].def));
		strbuf_addc(out, '@');
		strbuf_add_int(out, v[i].ply);
	}
}

void
tags_text(const struct tagdefs *d, const struct tag_result *res,
    struct strbuf *out)
{
	int c;

	if (!res->named) {
		strbuf_addf(out, "no names (%s)", res->why ? res->why : "-");
		return;
	}
	strbuf_adds(out, res->game >= 0 ? label_of(d, (uint32_t)res->game) :
	    "-");
	if (res->matchup != MATCHUP_NONE || res->handicap) {
		strbuf_adds(out, " (");
		strbuf_adds(out, res->handicap ? "handicap" : "");
		if (res->handicap && res->matchup != MATCHUP_NONE)
			strbuf_adds(out, ", ");
		strbuf_adds(out, tag_matchup_name(res->matchup));
		strbuf_addc(out, ')');
	}
	for (c = 0; c < 2; c++) {
		const struct tag_side *s = &res->side[c];

		strbuf_adds(out, c ? "; white" : "; black");
		if (s->style >= 0) {
			strbuf_addc(out, ' ');
			strbuf_adds(out, label_of(d, (uint32_t)s->style));
		}
		strbuf_adds(out, ": ");
		hits_text(d, s->openings, s->nopenings, out);
		strbuf_adds(out, " | ");
		hits_text(d, s->castles, s->ncastles, out);
	}
}

static void
json_def(const struct tagdefs *d, uint32_t def, struct strbuf *out)
{
	const struct tag_def *t = &d->v[def];

	strbuf_adds(out, "\"name\": ");
	strbuf_add_json_quoted(out, d->labels[t->name]);
	strbuf_adds(out, ", \"family\": ");
	strbuf_add_json_quoted(out, d->labels[t->family]);
	strbuf_adds(out, ", \"definition\": \"");
	strbuf_add_json_string(out, d->sources[t->source],
	    strlen(d->sources[t->source]));
	strbuf_addf(out, ":%u\"", t->line);
}

static void
json_hits(const struct tagdefs *d, const char *key, const struct tag_hit *v,
    size_t n, struct strbuf *out)
{
	size_t i;

	strbuf_addf(out, ", \"%s\": [", key);
	for (i = 0; i < n; i++) {
		strbuf_adds(out, i ? ", {" : "{");
		json_def(d, v[i].def, out);
		strbuf_addf(out, ", \"ply\": %d}", v[i].ply);
	}
	strbuf_adds(out, "]");
}

void
tags_json(const struct tagdefs *d, const struct tag_result *res,
    struct strbuf *out)
{
	int c;

	strbuf_addf(out, ", \"named\": %s", res->named ? "true" : "false");
	if (!res->named) {
		strbuf_adds(out, ", \"why\": ");
		strbuf_add_json_quoted(out, res->why ? res->why : "");
		return;
	}
	strbuf_addf(out, ", \"handicap\": %s", res->handicap ? "true" :
	    "false");
	strbuf_adds(out, ", \"game\": ");
	if (res->game >= 0) {
		strbuf_adds(out, "{");
		json_def(d, (uint32_t)res->game, out);
		strbuf_adds(out, "}");
	} else {
		strbuf_adds(out, "null");
	}
	strbuf_adds(out, ", \"matchup\": ");
	if (res->matchup != MATCHUP_NONE)
		strbuf_add_json_quoted(out, tag_matchup_name(res->matchup));
	else
		strbuf_adds(out, "null");
	for (c = 0; c < 2; c++) {
		const struct tag_side *s = &res->side[c];

		strbuf_adds(out, c ? ", \"white\": {" : ", \"black\": {");
		strbuf_adds(out, "\"style\": ");
		if (s->style >= 0) {
			strbuf_adds(out, "{");
			json_def(d, (uint32_t)s->style, out);
			strbuf_addf(out, ", \"ply\": %d}", s->style_ply);
		} else {
			strbuf_adds(out, "null");
		}
		json_hits(d, "openings", s->openings, s->nopenings, out);
		json_hits(d, "castles", s->castles, s->ncastles, out);
		strbuf_adds(out, "}");
	}
	strbuf_addf(out, ", \"plies\": %d", res->plies);
}

/* --- the record's own headers --------------------------------------------- */

void
tag_headers_init(struct tag_headers *h)
{
	memset(h, 0, sizeof(*h));
}

static void
headers_clear(struct tag_headers *h)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		free(h->v[i].value);
	h->n = 0;
}

void
tag_headers_release(struct tag_headers *h)
{
	headers_clear(h);
	free(h->v);
	memset(h, 0, sizeof(*h));
}

static const char *const side_words[4] = { "先手", "後手", "下手", "上手" };

int
tag_header_key(const char *key, size_t n, enum tag_header *what, int *side)
{
	static const char no[] = "の";
	size_t i, k;

	if (n == strlen("戦型") && memcmp(key, "戦型", n) == 0) {
		*what = TH_GAME;
		*side = -1;
		return 1;
	}
	for (i = 0; i < 4; i++) {
		k = strlen(side_words[i]);
		if (n < k + strlen(no) || memcmp(key, side_words[i], k) != 0 ||
		    memcmp(key + k, no, strlen(no)) != 0)
			continue;
		key += k + strlen(no);
		n -= k + strlen(no);
		*side = (int)(i % 2);
		if ((n == strlen("戦型") && memcmp(key, "戦型", n) == 0) ||
		    (n == strlen("戦法") && memcmp(key, "戦法", n) == 0)) {
			*what = TH_OPENING;
			return 1;
		}
		if (n == strlen("囲い") && memcmp(key, "囲い", n) == 0) {
			*what = TH_CASTLE;
			return 1;
		}
		return 0;
	}
	return 0;
}

const char *
tag_header_key_name(enum tag_header what, int side, int handicap)
{
	static const char *const keys[2][2][2] = {
		{ { "先手の戦型", "先手の囲い" }, { "後手の戦型", "後手の囲い" } },
		{ { "下手の戦型", "下手の囲い" }, { "上手の戦型", "上手の囲い" } },
	};

	if (what == TH_GAME)
		return "戦型";
	return keys[!!handicap][side][what == TH_CASTLE];
}

static void
add_line(struct tag_headers *h, enum tag_header what, int side, uint32_t line,
    const char *v, size_t n)
{
	struct tag_header_line *l;

	n = text_trim_end(v, n);
	ALLOC_GROW(h->v, h->n + 1, h->alloc);
	l = &h->v[h->n++];
	l->what = what;
	l->side = side;
	l->line = line;
	l->value = xstrndup(v, n);
}

/* "先手の戦型：棒銀" (or ':') in a CSA comment line. */
static void
comment_line(struct tag_headers *h, const char *p, size_t n)
{
	const char *colon = NULL;
	size_t i, k = 0;
	enum tag_header what;
	int side;

	for (i = 0; i + 1 <= n; i++) {
		if (p[i] == ':') {
			colon = p + i;
			k = 1;
			break;
		}
		if (i + 3 <= n && memcmp(p + i, "：", 3) == 0) {
			colon = p + i;
			k = 3;
			break;
		}
	}
	if (!colon || !tag_header_key(p, (size_t)(colon - p), &what, &side))
		return;
	add_line(h, what, side, 0, colon + k, n - (size_t)(colon - p) - k);
}

void
tag_headers_read(struct tag_headers *h, const struct record *r)
{
	const char *c;
	size_t i;

	headers_clear(h);
	for (i = 0; i < r->nheaders; i++) {
		const struct record_header *hd = &r->headers[i];
		const char *key = record_str(r, hd->key);
		const char *val = record_str(r, hd->value);
		enum tag_header what;
		int side;

		/* 戦型, and CSA's $OPENING, are the game's. */
		if (hd->id == HDR_OPENING) {
			what = TH_GAME;
			side = -1;
		} else if (hd->id == HDR_RAW || !tag_header_key(key,
		    strlen(key), &what, &side)) {
			continue;
		}
		add_line(h, what, side, hd->loc.line, val, strlen(val));
	}
	/* CSA keeps them as comment lines before the first move. */
	c = record_str(r, r->nodes[0].comment);
	while (*c) {
		const char *nl = strchr(c, '\n');
		size_t n = nl ? (size_t)(nl - c) : strlen(c);

		comment_line(h, c, n);
		c += n + (nl != NULL);
	}
}

void
tag_header_value(const struct tagdefs *d, const struct tag_result *res,
    enum tag_header what, int side, struct strbuf *out)
{
	const struct tag_side *s;
	const struct tag_hit *v;
	size_t n, i;

	if (!res->named)
		return;
	if (what == TH_GAME) {
		if (res->game >= 0)
			strbuf_adds(out, label_of(d, (uint32_t)res->game));
		return;
	}
	s = &res->side[side];
	v = what == TH_CASTLE ? s->castles : s->openings;
	n = what == TH_CASTLE ? s->ncastles : s->nopenings;
	for (i = 0; i < n; i++) {
		if (i)
			strbuf_adds(out, ", ");
		strbuf_adds(out, label_of(d, v[i].def));
	}
}

/* --- comparing ------------------------------------------------------------- */

/* The names of a header value: split at ",", "、" and blanks around them. */
struct names {
	char *v[64];
	size_t n;
};

static void
names_split(struct names *nm, const char *s)
{
	nm->n = 0;
	while (*s && nm->n < 64) {
		const char *e = s;
		size_t k;

		while (*e && *e != ',' && strncmp(e, "、", 3) != 0)
			e++;
		k = (size_t)(e - s);
		while (k && (*s == ' ' || *s == '\t')) {
			s++;
			k--;
		}
		k = text_trim_end(s, k);
		if (k)
			nm->v[nm->n++] = xstrndup(s, k);
		if (!*e)
			break;
		s = e + (*e == ',' ? 1 : 3);
	}
}

static void
names_free(struct names *nm)
{
	size_t i;

	for (i = 0; i < nm->n; i++)
		free(nm->v[i]);
	nm->n = 0;
}

static int
names_have(const struct names *nm, const char *s)
{
	size_t i;

	for (i = 0; i < nm->n; i++)
		if (strcmp(nm->v[i], s) == 0)
			return 1;
	return 0;
}

static int
same_names(const struct names *a, const struct names *b)
{
	size_t i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++)
		if (!names_have(b, a->v[i]))
			return 0;
	return 1;
}

/* Whether two game names are the same game (or of one family). */
static int
same_game(const struct tagdefs *d, const char *a, const char *b)
{
	int x, y;

	if (strcmp(a, b) == 0)
		return 1;
	x = tagdefs_read_game(d, a, strlen(a));
	y = tagdefs_read_game(d, b, strlen(b));
	if (x < 0 || y < 0)
		return 0;
	return x == y || d->v[x].family == d->v[y].family;
}

static void
difference(struct strbuf *out, int json, int *n, const char *prefix,
    const char *key, const char *rec, const char *ours)
{
	if (json) {
		strbuf_adds(out, (*n)++ ? ", {\"header\": " : "{\"header\": ");
		strbuf_add_json_quoted(out, key);
		strbuf_adds(out, ", \"record\": ");
		strbuf_add_json_quoted(out, rec);
		strbuf_adds(out, ", \"kifu\": ");
		strbuf_add_json_quoted(out, ours);
		strbuf_adds(out, "}");
		return;
	}
	(*n)++;
	strbuf_adds(out, prefix);
	strbuf_add_printable(out, key);
	strbuf_adds(out, ": record ");
	strbuf_add_printable(out, *rec ? rec : "-");
	strbuf_adds(out, "; kifu ");
	strbuf_add_printable(out, *ours ? ours : "-");
	strbuf_addc(out, '\n');
}

int
tags_compare(const struct tagdefs *d, const struct tag_result *res,
    const struct tag_headers *h, const char *prefix, int json,
    struct strbuf *out)
{
	struct strbuf ours, theirs;
	int n = 0, what, side;

	strbuf_init(&ours);
	strbuf_init(&theirs);
	if (json)
		strbuf_adds(out, "[");
	for (what = 0; what < TH_NB; what++)
		for (side = what == TH_GAME ? -1 : 0;
		    side < (what == TH_GAME ? 0 : 2); side++) {
			struct names a, b;
			size_t i;
			int seen = 0, same;

			strbuf_reset(&theirs);
			for (i = 0; i < h->n; i++) {
				if ((int)h->v[i].what != what ||
				    h->v[i].side != side)
					continue;
				if (seen++)
					strbuf_adds(&theirs, ", ");
				strbuf_adds(&theirs, h->v[i].value);
			}
			if (!seen)
				continue;
			strbuf_reset(&ours);
			tag_header_value(d, res, (enum tag_header)what,
			    side < 0 ? 0 : side, &ours);
			if (what == TH_GAME) {
				same = ours.len && same_game(d, theirs.buf,
				    ours.buf);
			} else {
				names_split(&a, theirs.buf);
				names_split(&b, ours.buf);
				same = same_names(&a, &b);
				names_free(&a);
				names_free(&b);
			}
			if (!same)
				difference(out, json, &n, prefix,
				    tag_header_key_name((enum tag_header)what,
				    side < 0 ? 0 : side, res->handicap),
				    theirs.buf, ours.buf);
		}
	if (json)
		strbuf_adds(out, "]");
	strbuf_release(&ours);
	strbuf_release(&theirs);
	return n;
}
