/*
 * gamestats.c - counting games (gamestats.h): adding (a game, or a record
 * judged), merging, JSON out and back in, tables.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/gamestats.h"
#include "stats/table.h"
#include "api/judge.h"
#include "core/handicap.h"
#include "core/usi.h"
#include "core/xalloc.h"
#include "tags/tagger.h"

/* Plies in one bin of the length histogram. */
#define BIN 20
/* The longest game a shard may hold (a bound on what reading allocates). */
#define LENGTH_MAX (1 << 20)
/* Openings and groups a table shows; the JSON has them all. */
#define TOP 10

static const char *const by_names[BY_NB] = {
	"none", "player", "event", "year", "first-moves", "opening", "castle",
	"matchup"
};

/* The field a group names itself by in JSON (first-moves: "opening", as
 * --by opening wrote it before the tags, so that old shards read). */
static const char *const by_fields[BY_NB] = { "", "name", "event", "year",
	"opening", "name", "name", "matchup" };

/* The list of players or groups in JSON. */
static const char *
list_key(enum group_by by)
{
	return by == BY_PLAYER ? "players" : by == BY_OPENING ? "by_opening" :
	    by == BY_CASTLE ? "by_castle" : "groups";
}

static const char *const vs_names[] = { "none", "opening", "castle" };

const char *
group_by_name(enum group_by by)
{
	return by_names[by];
}

int
group_by_parse(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(by_names) / sizeof(by_names[0]); i++)
		if (!strcmp(name, by_names[i]))
			return (int)i;
	return -1;
}

int
vs_by_parse(const char *name)
{
	int i;

	for (i = VS_OPENING; i <= VS_CASTLE; i++)
		if (!strcmp(name, vs_names[i]))
			return i;
	return -1;
}

/* --- counting ------------------------------------------------------------ */

static void
summary_init(struct summary *sm)
{
	memset(sm, 0, sizeof(*sm));
	strmap_init(&sm->openings);
}

static void
summary_release(struct summary *sm)
{
	free(sm->length);
	strmap_release(&sm->openings);
	free(sm->opening);
	memset(sm, 0, sizeof(*sm));
}

/* The JSON keys of enum outcome (by_winner). */
static const char *const outcome_keys[OUTCOME_NB] = {
	"black", "white", "draw", "none"
};

enum outcome
outcome_of(enum winner w, enum reason r)
{
	if (w == WINNER_BLACK)
		return OUTCOME_BLACK;
	if (w == WINNER_WHITE)
		return OUTCOME_WHITE;
	return r == REASON_UNFINISHED || r == REASON_ABORT ? OUTCOME_NONE :
	    OUTCOME_DRAW;
}

static void
outcomes_add(struct outcomes *o, enum winner w, enum reason r, long long n)
{
	o->records += n;
	o->winner[outcome_of(w, r)] += n;
	o->reason[r] += n;
}

static void
outcomes_merge(struct outcomes *a, const struct outcomes *b)
{
	int i;

	a->records += b->records;
	for (i = 0; i < OUTCOME_NB; i++)
		a->winner[i] += b->winner[i];
	for (i = 0; i < REASON_NB; i++)
		a->reason[i] += b->reason[i];
}

static void
length_add(struct summary *sm, size_t ply, long long n)
{
	if (ply >= sm->nlength) {
		size_t m = sm->nlength ? sm->nlength : 256;

		while (m <= ply)
			m *= 2;
		sm->length = xreallocarray(sm->length, m, sizeof(*sm->length));
		memset(sm->length + sm->nlength, 0,
		    (m - sm->nlength) * sizeof(*sm->length));
		sm->nlength = m;
	}
	sm->length[ply] += n;
}

/*
 * Games of length ply; 0 past the array, whose size is a power of two
 * and so seldom ends where a bin of the histogram does.
 */
static long long
length_at(const struct summary *sm, size_t ply)
{
	return ply < sm->nlength ? sm->length[ply] : 0;
}

static void
opening_add(struct summary *sm, const char *moves, long long n)
{
	size_t id = strmap_intern(&sm->openings, moves, strlen(moves));

	if (id + 1 > sm->aopening) {
		size_t old = sm->aopening;

		ALLOC_GROW(sm->opening, id + 1, sm->aopening);
		memset(sm->opening + old, 0,
		    (sm->aopening - old) * sizeof(*sm->opening));
	}
	sm->opening[id] += n;
}

static void
summary_add(struct summary *sm, const struct game *g)
{
	enum winner w = g->result.winner;
	enum reason r = g->result.reason;

	outcomes_add(&sm->all, w, r, 1);
	if (g->start == START_EVEN)
		outcomes_add(&sm->even, w, r, 1);
	else if (g->start == START_HANDICAP)
		outcomes_add(&sm->handicap, w, r, 1);
	length_add(sm, (size_t)(g->result.ply > 0 ? g->result.ply : 0), 1);
	if (*g->opening)
		opening_add(sm, g->opening, 1);
}

static void
summary_merge(struct summary *a, const struct summary *b)
{
	size_t i;

	outcomes_merge(&a->all, &b->all);
	outcomes_merge(&a->even, &b->even);
	outcomes_merge(&a->handicap, &b->handicap);
	for (i = b->nlength; i-- > 0;)
		if (b->length[i])
			length_add(a, i, b->length[i]);
	for (i = 0; i < b->openings.n; i++)
		opening_add(a, b->openings.keys[i], b->opening[i]);
}

void
gamestats_init(struct gamestats *s, enum group_by by)
{
	memset(s, 0, sizeof(*s));
	s->by = by;
	summary_init(&s->total);
	strmap_init(&s->names);
	strmap_init(&s->pairs);
}

void
gamestats_release(struct gamestats *s)
{
	size_t i;

	summary_release(&s->total);
	if (s->group)
		for (i = 0; i < s->names.n; i++)
			summary_release(&s->group[i]);
	free(s->group);
	free(s->player);
	strmap_release(&s->names);
	strmap_release(&s->pairs);
	free(s->pair);
	memset(s, 0, sizeof(*s));
}

/* The id of a player or group, its row made when it is new. */
static size_t
name_id(struct gamestats *s, const char *name)
{
	size_t n = s->names.n, id = strmap_intern(&s->names, name,
	    strlen(name));

	if (id < n)
		return id;
	if (group_by_side(s->by)) {
		ALLOC_GROW(s->player, s->names.n, s->alloc);
		memset(&s->player[id], 0, sizeof(s->player[id]));
	} else {
		ALLOC_GROW(s->group, s->names.n, s->alloc);
		summary_init(&s->group[id]);
	}
	return id;
}

static void
dates_widen(struct player_stats *p, const char *first, const char *last)
{
	if (*first && (!p->first[0] || strcmp(first, p->first) < 0))
		snprintf(p->first, sizeof(p->first), "%s", first);
	if (*last && (!p->last[0] || strcmp(last, p->last) > 0))
		snprintf(p->last, sizeof(p->last), "%s", last);
}

/* wins, losses, draws, unfinished from side c's view of outcome o */
static int
side_outcome(enum outcome o, enum color c)
{
	return o >= OUTCOME_DRAW ? (int)o : (int)o == (int)c ? 0 : 1;
}

/* The counts of a pair ("NAME\x1fOPPONENT"), made when it is new. */
static long long *
pair_by_key(struct gamestats *s, const char *key, size_t len)
{
	size_t n = s->pairs.n, id = strmap_intern(&s->pairs, key, len);

	if (id >= n) {
		ALLOC_GROW(s->pair, s->pairs.n, s->apair);
		memset(s->pair[id], 0, sizeof(s->pair[id]));
	}
	return s->pair[id];
}

/* The counts of a pair of names (--vs). */
static long long *
pair_of(struct gamestats *s, const char *name, const char *opp)
{
	struct strbuf key = STRBUF_INIT;
	long long *p;

	strbuf_adds(&key, name);
	strbuf_addc(&key, '\x1f');
	strbuf_adds(&key, opp);
	p = pair_by_key(s, key.buf, key.len);
	strbuf_release(&key);
	return p;
}

static void
player_add(struct gamestats *s, const char *name, enum color c,
    const struct game *g)
{
	struct player_stats *p;
	enum outcome o = outcome_of(g->result.winner, g->result.reason);
	size_t id;

	/* A side without a name is counted as one for the tags. */
	if (!*name && s->by == BY_PLAYER)
		return;
	id = name_id(s, name);
	p = &s->player[id];
	p->games++;
	/* wins, losses, draws, unfinished from the player's side */
	p->as[c][side_outcome(o, c)]++;
	dates_widen(p, g->date, g->date);
}

/* BY_OPENING, BY_CASTLE: every name of each side, and its --vs pairs. */
static void
names_add(struct gamestats *s, const struct game *g)
{
	enum outcome o = outcome_of(g->result.winner, g->result.reason);
	size_t i, k;
	int c;

	for (c = 0; c < 2; c++) {
		size_t n = g->nnames[c] ? g->nnames[c] : 1;

		for (i = 0; i < n; i++) {
			const char *name = g->nnames[c] ? g->names[c][i] : "";
			size_t m = g->nvs[!c] ? g->nvs[!c] : 1;

			player_add(s, name, (enum color)c, g);
			if (s->vs == VS_NONE)
				continue;
			for (k = 0; k < m; k++)
				pair_of(s, name, g->nvs[!c] ?
				    g->vs[!c][k] : "")[side_outcome(o,
				    (enum color)c)]++;
		}
	}
}

void
gamestats_add(struct gamestats *s, const struct game *g)
{
	char year[5];
	const char *key;
	size_t id;

	summary_add(&s->total, g);
	switch (s->by) {
	case BY_NONE:
		return;
	case BY_PLAYER:
		player_add(s, g->black, BLACK, g);
		player_add(s, g->white, WHITE, g);
		return;
	case BY_OPENING:
	case BY_CASTLE:
		names_add(s, g);
		return;
	case BY_MATCHUP:
		key = g->matchup ? g->matchup : "";
		break;
	case BY_EVENT:
		key = g->event;
		break;
	case BY_YEAR:
		snprintf(year, sizeof(year), "%.4s", g->date);
		key = year;
		break;
	default:
		key = g->opening;
		break;
	}
	/* name_id may move the rows: the id first. */
	id = name_id(s, key);
	summary_add(&s->group[id], g);
}

/* --- a record ------------------------------------------------------- */

static const char *
first_header(const struct record *r, enum header_id id)
{
	const struct record_header *h = record_find_header(r, id);

	return h ? record_str(r, h->value) : "";
}

/* "7g7f 3c3d": the first two moves, "" if the game has fewer. */
static void
opening_of(const struct record *r, char *out)
{
	int32_t a = r->nodes[0].next, b;

	out[0] = '\0';
	if (a < 0 || r->nodes[a].mv == MOVE_NONE ||
	    (b = r->nodes[a].next) < 0 || r->nodes[b].mv == MOVE_NONE)
		return;
	usi_format_move(r->nodes[a].mv, out);
	strcat(out, " ");
	usi_format_move(r->nodes[b].mv, out + strlen(out));
}

static enum start_kind
start_of(const struct record *r)
{
	enum handicap h = handicap_identify(&r->start);

	if (h == HANDICAP_EVEN)
		return START_EVEN;
	return h > HANDICAP_EVEN && h <= HANDICAP_10 ? START_HANDICAP :
	    START_OTHER;
}

/* The names a side can be counted by, at most this many of a kind. */
#define SIDE_NAMES_MAX 64

/* A side's openings or castles (the first SIDE_NAMES_MAX), into v. */
static size_t
side_names(const struct tagdefs *d, const struct tag_side *s, int castles,
    const char **v)
{
	const struct tag_hit *h = castles ? s->castles : s->openings;
	size_t n = castles ? s->ncastles : s->nopenings, i;

	if (n > SIDE_NAMES_MAX)
		n = SIDE_NAMES_MAX;
	for (i = 0; i < n; i++)
		v[i] = tagdefs_label(d, d->v[h[i].def].name);
	return n;
}

void
gamestats_add_judged(struct gamestats *s, const struct record *r,
    const struct adjudication *adj, const struct tagdefs *d,
    const struct tag_result *res)
{
	char date[DATE_MAX], opening[2 * USI_MOVE_MAX + 1];
	/* Each side's names: those counted by, and those --vs crosses. */
	const char *names[2][2][SIDE_NAMES_MAX];
	struct game g;
	int side;

	memset(&g, 0, sizeof(g));
	if (res) {
		g.matchup = tag_matchup_name(res->matchup);
		for (side = 0; side < 2; side++) {
			g.names[side] = names[side][0];
			g.nnames[side] = side_names(d, &res->side[side],
			    s->by == BY_CASTLE, names[side][0]);
			g.vs[side] = names[side][1];
			g.nvs[side] = s->vs == VS_NONE ? 0 : side_names(d,
			    &res->side[side], s->vs == VS_CASTLE,
			    names[side][1]);
		}
	}
	date_of_record(r, date);
	opening_of(r, opening);
	g.result = adj->result;
	g.start = start_of(r);
	g.black = first_header(r, HDR_BLACK);
	g.white = first_header(r, HDR_WHITE);
	g.event = first_header(r, HDR_EVENT);
	g.date = date;
	g.opening = opening;
	gamestats_add(s, &g);
}

void
gamestats_add_record(struct gamestats *s, struct judge *j,
    const struct format *f, struct tagger *tg)
{
	const struct tag_result *res = NULL;
	struct replay_walk wk;
	struct adjudication adj;
	struct venue venue;
	struct replay rp;

	memset(&wk, 0, sizeof(wk));
	wk.main_only = 1;
	if (tg) {
		/* Names from the positions this replay makes anyway. */
		tagger_begin(tg, &j->r, 0);
		wk.visit = tagger_visit;
		wk.ctx = tg;
	}
	replay_record_walk(&j->r, &rp, &j->d, &wk);
	if (tg)
		res = tagger_end(tg);
	judge_adjudicate(j, f, &rp, &adj, &venue);
	gamestats_add_judged(s, &j->r, &adj, tg ? tagger_defs(tg) : NULL,
	    res);
}

void
gamestats_merge(struct gamestats *a, const struct gamestats *b)
{
	size_t i;
	int c, k;

	summary_merge(&a->total, &b->total);
	a->read_total += b->read_total;
	for (i = 0; i < b->pairs.n; i++) {
		long long *p = pair_by_key(a, b->pairs.keys[i],
		    strlen(b->pairs.keys[i]));

		for (k = 0; k < OUTCOME_NB; k++)
			p[k] += b->pair[i][k];
	}
	for (i = 0; i < b->names.n; i++) {
		size_t id = name_id(a, b->names.keys[i]);

		if (!group_by_side(a->by)) {
			summary_merge(&a->group[id], &b->group[i]);
			continue;
		}
		a->player[id].games += b->player[i].games;
		for (c = 0; c < 2; c++)
			for (k = 0; k < OUTCOME_NB; k++)
				a->player[id].as[c][k] += b->player[i].as[c][k];
		dates_widen(&a->player[id], b->player[i].first,
		    b->player[i].last);
	}
}

/* --- figures ------------------------------------------------------------- */

struct lengths {
	long long records, min, max;
	double mean, median;
};

/* The k-th shortest game (from 0). */
static long long
nth_length(const struct summary *sm, long long k)
{
	size_t i;

	for (i = 0; i < sm->nlength; i++) {
		if (k < sm->length[i])
			return (long long)i;
		k -= sm->length[i];
	}
	return 0;
}

static void
lengths_of(const struct summary *sm, struct lengths *l)
{
	double sum = 0;
	size_t i;

	memset(l, 0, sizeof(*l));
	l->min = -1;
	for (i = 0; i < sm->nlength; i++) {
		if (!sm->length[i])
			continue;
		if (l->min < 0)
			l->min = (long long)i;
		l->max = (long long)i;
		l->records += sm->length[i];
		sum += (double)i * (double)sm->length[i];
	}
	if (!l->records)
		return;
	l->mean = sum / (double)l->records;
	/* An even count: the mean of the middle two. */
	l->median = ((double)nth_length(sm, (l->records - 1) / 2) +
	    (double)nth_length(sm, l->records / 2)) / 2;
}

static double
percent(long long n, long long of)
{
	return of ? 100.0 * (double)n / (double)of : 0.0;
}

/* Ids sorted by falling count, then name: the same for any input order. */
struct ranked {
	const char *name;
	long long n;
	size_t id;
};

static int
by_rank(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->name, y->name);
}

static struct ranked *
rank(const struct strmap *m, const long long *count, size_t n)
{
	struct ranked *v = xreallocarray(NULL, n ? n : 1, sizeof(*v));
	size_t i;

	for (i = 0; i < n; i++) {
		v[i].name = m->keys[i];
		v[i].n = count[i];
		v[i].id = i;
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), by_rank);
	return v;
}

static struct ranked *
rank_reasons(const struct outcomes *o, size_t *n)
{
	struct ranked *v = xreallocarray(NULL, REASON_NB, sizeof(*v));
	int r;

	*n = 0;
	for (r = 0; r < REASON_NB; r++)
		if (o->reason[r]) {
			v[*n].name = reason_name((enum reason)r);
			v[*n].n = o->reason[r];
			v[*n].id = (size_t)r;
			(*n)++;
		}
	if (*n > 1)
		qsort(v, *n, sizeof(*v), by_rank);
	return v;
}

static long long
games_of(const struct gamestats *s, size_t id)
{
	return group_by_side(s->by) ? s->player[id].games :
	    s->group[id].all.records;
}

/*
 * Players by falling games, then name; groups the same, but years
 * in their order.
 */
static struct ranked *
rank_names(const struct gamestats *s)
{
	struct ranked *v = xreallocarray(NULL, s->names.n ? s->names.n : 1,
	    sizeof(*v));
	size_t i;

	for (i = 0; i < s->names.n; i++) {
		v[i].name = s->names.keys[i];
		v[i].n = s->by == BY_YEAR ? 0 : games_of(s, i);
		v[i].id = i;
	}
	if (s->names.n > 1)
		qsort(v, s->names.n, sizeof(*v), by_rank);
	return v;
}

/* --- JSON out ------------------------------------------------------------ */

static void
json_number(struct strbuf *sb, double x)
{
	if (x == (double)(long long)x)
		strbuf_addf(sb, "%lld", (long long)x);
	else
		strbuf_addf(sb, "%.2f", x);
}

static void
json_results(struct strbuf *sb, const struct outcomes *o)
{
	size_t i, n;
	struct ranked *v = rank_reasons(o, &n);

	strbuf_adds(sb, "\"results\": {\"by_reason\": {");
	for (i = 0; i < n; i++) {
		strbuf_adds(sb, i ? ", " : "");
		strbuf_add_json_quoted(sb, v[i].name);
		strbuf_addf(sb, ": %lld", v[i].n);
	}
	strbuf_adds(sb, "}, \"by_winner\": {");
	for (i = 0; i < OUTCOME_NB; i++)
		strbuf_addf(sb, "%s\"%s\": {\"count\": %lld, \"percent\": "
		    "%.1f}", i ? ", " : "", outcome_keys[i], o->winner[i],
		    percent(o->winner[i], o->records));
	strbuf_adds(sb, "}}");
	free(v);
}

static void
json_length(struct strbuf *sb, const struct summary *sm)
{
	struct lengths l;
	long long b, i;

	lengths_of(sm, &l);
	strbuf_adds(sb, "\"length\": {");
	if (!l.records) {
		strbuf_adds(sb, "\"min\": null, \"median\": null, \"mean\": "
		    "null, \"max\": null, \"histogram\": []}");
		return;
	}
	strbuf_addf(sb, "\"min\": %lld, \"median\": ", l.min);
	json_number(sb, l.median);
	strbuf_adds(sb, ", \"mean\": ");
	json_number(sb, l.mean);
	strbuf_addf(sb, ", \"max\": %lld, \"histogram\": [", l.max);
	/* Each bin with its counts by ply: the whole distribution. */
	for (b = l.min / BIN; b <= l.max / BIN; b++) {
		long long n = 0;

		for (i = 0; i < BIN; i++)
			n += length_at(sm, (size_t)(b * BIN + i));
		strbuf_addf(sb, "%s{\"from\": %lld, \"to\": %lld, \"count\": "
		    "%lld, \"plies\": [", b > l.min / BIN ? ", " : "", b * BIN,
		    b * BIN + BIN - 1, n);
		for (i = 0; i < BIN; i++)
			strbuf_addf(sb, "%s%lld", i ? ", " : "",
			    length_at(sm, (size_t)(b * BIN + i)));
		strbuf_adds(sb, "]}");
	}
	strbuf_adds(sb, "]}");
}

static void
json_openings(struct strbuf *sb, const struct summary *sm)
{
	struct ranked *v = rank(&sm->openings, sm->opening, sm->openings.n);
	size_t i;

	strbuf_adds(sb, "\"openings\": [");
	for (i = 0; i < sm->openings.n; i++) {
		strbuf_adds(sb, i ? ", {\"moves\": " : "{\"moves\": ");
		strbuf_add_json_quoted(sb, v[i].name);
		strbuf_addf(sb, ", \"count\": %lld}", v[i].n);
	}
	strbuf_adds(sb, "]");
	free(v);
}

static void
json_side(struct strbuf *sb, const char *key, const long long *wld)
{
	strbuf_addf(sb, "\"%s\": {\"wins\": %lld, \"losses\": %lld, "
	    "\"draws\": %lld, \"unfinished\": %lld}", key, wld[0], wld[1],
	    wld[2], wld[3]);
}

static void
json_date(struct strbuf *sb, const char *key, const char *d)
{
	strbuf_addf(sb, ", \"%s\": ", key);
	if (*d)
		strbuf_add_json_quoted(sb, d);
	else
		strbuf_adds(sb, "null");
}

static void json_summary(struct strbuf *sb, const struct gamestats *s,
    const struct summary *sm);

static void
json_names(struct strbuf *sb, const struct gamestats *s)
{
	struct ranked *v = rank_names(s);
	size_t i;

	strbuf_addf(sb, ", \"%s\": [", list_key(s->by));
	for (i = 0; i < s->names.n; i++) {
		size_t id = v[i].id;

		strbuf_addf(sb, "%s{\"%s\": ", i ? ", " : "", by_fields[s->by]);
		if (*v[i].name || s->by == BY_PLAYER)
			strbuf_add_json_quoted(sb, v[i].name);
		else
			strbuf_adds(sb, "null");
		if (group_by_side(s->by)) {
			const struct player_stats *p = &s->player[id];

			strbuf_addf(sb, ", \"games\": %lld, ", p->games);
			json_side(sb, "black", p->as[BLACK]);
			strbuf_adds(sb, ", ");
			json_side(sb, "white", p->as[WHITE]);
			json_date(sb, "first", p->first);
			json_date(sb, "last", p->last);
		} else {
			strbuf_adds(sb, ", ");
			json_summary(sb, NULL, &s->group[id]);
		}
		strbuf_adds(sb, "}");
	}
	strbuf_adds(sb, "]");
	free(v);
}

/* --vs pairs by falling games, then name and opponent. */
static int
by_pair_rank(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->name, y->name);
}

static struct ranked *
rank_pairs(const struct gamestats *s)
{
	struct ranked *v = xreallocarray(NULL, s->pairs.n ? s->pairs.n : 1,
	    sizeof(*v));
	size_t i;
	int k;

	for (i = 0; i < s->pairs.n; i++) {
		v[i].name = s->pairs.keys[i];
		v[i].n = 0;
		for (k = 0; k < OUTCOME_NB; k++)
			v[i].n += s->pair[i][k];
		v[i].id = i;
	}
	if (s->pairs.n > 1)
		qsort(v, s->pairs.n, sizeof(*v), by_pair_rank);
	return v;
}

/* A pair's key split: the name's length before the separator. */
static size_t
pair_split(const char *key)
{
	return strcspn(key, "\x1f");
}

static void
json_pairs(struct strbuf *sb, const struct gamestats *s)
{
	struct ranked *v = rank_pairs(s);
	size_t i;

	strbuf_addf(sb, ", \"vs\": {\"by\": \"%s\", \"pairs\": [",
	    vs_names[s->vs]);
	for (i = 0; i < s->pairs.n; i++) {
		const char *key = v[i].name;
		size_t k = pair_split(key);
		const long long *p = s->pair[v[i].id];

		/* A side without a name is null, as in the lists. */
		strbuf_adds(sb, i ? ", {\"name\": " : "{\"name\": ");
		if (k) {
			strbuf_addc(sb, '"');
			strbuf_add_json_string(sb, key, k);
			strbuf_addc(sb, '"');
		} else {
			strbuf_adds(sb, "null");
		}
		strbuf_adds(sb, ", \"opponent\": ");
		if (key[k] && key[k + 1])
			strbuf_add_json_quoted(sb, key + k + 1);
		else
			strbuf_adds(sb, "null");
		strbuf_addf(sb, ", \"games\": %lld, \"wins\": %lld, "
		    "\"losses\": %lld, \"draws\": %lld, \"unfinished\": "
		    "%lld}", v[i].n, p[0], p[1], p[2], p[3]);
	}
	strbuf_adds(sb, "]}");
	free(v);
}

/* The keys of a summary; s (not NULL at the top) adds players or groups. */
static void
json_summary(struct strbuf *sb, const struct gamestats *s,
    const struct summary *sm)
{
	strbuf_addf(sb, "\"records\": %lld, ", sm->all.records);
	json_results(sb, &sm->all);
	strbuf_addf(sb, ", \"even\": {\"records\": %lld, ", sm->even.records);
	json_results(sb, &sm->even);
	strbuf_addf(sb, "}, \"handicap\": {\"records\": %lld, ",
	    sm->handicap.records);
	json_results(sb, &sm->handicap);
	strbuf_adds(sb, "}, ");
	json_length(sb, sm);
	if (s && s->by != BY_NONE)
		json_names(sb, s);
	if (s && s->vs != VS_NONE)
		json_pairs(sb, s);
	strbuf_addf(sb, ", \"declarations\": %lld, \"sennichite\": %lld, "
	    "\"max_moves\": %lld, ", sm->all.reason[REASON_DECLARATION],
	    sm->all.reason[REASON_SENNICHITE],
	    sm->all.reason[REASON_MAX_MOVES]);
	json_openings(sb, sm);
}

void
gamestats_json(const struct gamestats *s, struct strbuf *out)
{
	strbuf_adds(out, "{");
	json_summary(out, s, &s->total);
	strbuf_adds(out, "}\n");
}

/* --- JSON in ------------------------------------------------------------- */

struct reading {
	char *why;
	size_t n;
	long long *total;	/* the gamestats' read_total */
};

static int
bad(struct reading *rd, const char *what, const char *key)
{
	snprintf(rd->why, rd->n, "%s '%s'", what, key);
	return -1;
}

static int
get_count(struct reading *rd, json_t *o, const char *key, long long *v)
{
	json_t *x = json_object_get(o, key);

	if (!json_is_integer(x) || json_integer_value(x) < 0)
		return bad(rd, "no count", key);
	*v = json_integer_value(x);
	return 0;
}

/* n more counted: a sum that would pass GAMESTATS_READ_MAX fails. */
static int
charge(struct reading *rd, long long n, const char *key)
{
	if (n > GAMESTATS_READ_MAX - *rd->total)
		return bad(rd, "counts too large in all (past 2^62), at", key);
	*rd->total += n;
	return 0;
}

/* A count that is added up: get_count, then charge. */
static int
get_sum(struct reading *rd, json_t *o, const char *key, long long *v)
{
	return get_count(rd, o, key, v) < 0 ? -1 : charge(rd, *v, key);
}

static json_t *
get_object(struct reading *rd, json_t *o, const char *key)
{
	json_t *x = json_object_get(o, key);

	if (!json_is_object(x))
		bad(rd, "no object", key);
	return json_is_object(x) ? x : NULL;
}

static json_t *
get_array(struct reading *rd, json_t *o, const char *key)
{
	json_t *x = json_object_get(o, key);

	if (!json_is_array(x))
		bad(rd, "no array", key);
	return json_is_array(x) ? x : NULL;
}

/* {"records", "results": {"by_reason", "by_winner"}} into o. */
static int
read_outcomes(struct reading *rd, json_t *obj, struct outcomes *o)
{
	json_t *res, *by, *x;
	const char *key;
	long long n;
	int i, r;

	if (get_sum(rd, obj, "records", &n) < 0 ||
	    !(res = get_object(rd, obj, "results")) ||
	    !(by = get_object(rd, res, "by_reason")))
		return -1;
	o->records += n;
	json_object_foreach(by, key, x) {
		for (r = 0; r < REASON_NB; r++)
			if (!strcmp(key, reason_name((enum reason)r)))
				break;
		if (r == REASON_NB)
			return bad(rd, "unknown reason", key);
		if (get_sum(rd, by, key, &n) < 0)
			return -1;
		o->reason[r] += n;
	}
	if (!(by = get_object(rd, res, "by_winner")))
		return -1;
	for (i = 0; i < OUTCOME_NB; i++) {
		/* "none" came later: older shards counted it as a draw */
		if (i == OUTCOME_NONE && !json_object_get(by, outcome_keys[i]))
			continue;
		if (!(x = get_object(rd, by, outcome_keys[i])) ||
		    get_sum(rd, x, "count", &n) < 0)
			return -1;
		o->winner[i] += n;
	}
	return 0;
}

static int
read_summary(struct reading *rd, json_t *obj, struct summary *sm)
{
	json_t *x, *len, *hist, *bin, *plies;
	size_t i, k;
	long long from, n;

	if (read_outcomes(rd, obj, &sm->all) < 0 ||
	    !(x = get_object(rd, obj, "even")) ||
	    read_outcomes(rd, x, &sm->even) < 0 ||
	    !(x = get_object(rd, obj, "handicap")) ||
	    read_outcomes(rd, x, &sm->handicap) < 0 ||
	    !(len = get_object(rd, obj, "length")) ||
	    !(hist = get_array(rd, len, "histogram")))
		return -1;
	json_array_foreach(hist, i, bin) {
		if (!json_is_object(bin) || get_count(rd, bin, "from",
		    &from) < 0 || !(plies = get_array(rd, bin, "plies")))
			return -1;
		if (from % BIN || from > LENGTH_MAX ||
		    json_array_size(plies) > BIN)
			return bad(rd, "bad bin", "histogram");
		json_array_foreach(plies, k, x) {
			if (!json_is_integer(x) || json_integer_value(x) < 0)
				return bad(rd, "bad count in", "plies");
			if ((n = json_integer_value(x)) &&
			    charge(rd, n, "plies") < 0)
				return -1;
			if (n)
				length_add(sm, (size_t)from + k, n);
		}
	}
	if (!(hist = get_array(rd, obj, "openings")))
		return -1;
	json_array_foreach(hist, i, x) {
		json_t *m = json_object_get(x, "moves");

		if (!json_is_string(m) || get_count(rd, x, "count", &n) < 0)
			return bad(rd, "bad entry in", "openings");
		if (charge(rd, n, "openings") < 0)
			return -1;
		opening_add(sm, json_string_value(m), n);
	}
	return 0;
}

static int
read_side(struct reading *rd, json_t *p, const char *key, long long *wld)
{
	json_t *x = get_object(rd, p, key);
	long long v[OUTCOME_NB] = { 0 };
	int i;

	if (!x || get_sum(rd, x, "wins", &v[0]) < 0 ||
	    get_sum(rd, x, "losses", &v[1]) < 0 ||
	    get_sum(rd, x, "draws", &v[2]) < 0 ||
	    /* as "none" above */
	    (json_object_get(x, "unfinished") &&
	    get_sum(rd, x, "unfinished", &v[3]) < 0))
		return -1;
	for (i = 0; i < OUTCOME_NB; i++)
		wld[i] += v[i];
	return 0;
}

/* A date or null, as json_date writes it; "" for null. */
static int
read_date(struct reading *rd, json_t *p, const char *key, char *d)
{
	json_t *x = json_object_get(p, key);

	d[0] = '\0';
	if (json_is_null(x))
		return 0;
	if (!json_is_string(x) || json_string_length(x) >= DATE_MAX)
		return bad(rd, "bad date", key);
	memcpy(d, json_string_value(x), json_string_length(x) + 1);
	return 0;
}

static int
read_player(struct reading *rd, struct gamestats *s, json_t *p)
{
	json_t *name = json_object_get(p, "name");
	struct player_stats *ps;
	char first[DATE_MAX], last[DATE_MAX];
	long long games;
	size_t id;

	/* A side without a name (the tags): null, as a group's. */
	if (!json_is_object(p) || !(json_is_string(name) ||
	    (json_is_null(name) && s->by != BY_PLAYER)))
		return bad(rd, "bad entry in", list_key(s->by));
	id = name_id(s, json_is_null(name) ? "" : json_string_value(name));
	ps = &s->player[id];
	if (get_sum(rd, p, "games", &games) < 0 ||
	    read_side(rd, p, "black", ps->as[BLACK]) < 0 ||
	    read_side(rd, p, "white", ps->as[WHITE]) < 0 ||
	    read_date(rd, p, "first", first) < 0 ||
	    read_date(rd, p, "last", last) < 0)
		return -1;
	ps->games += games;
	dates_widen(ps, first, last);
	return 0;
}

enum group_by
gamestats_json_by(json_t *o)
{
	json_t *g = json_object_get(o, "groups"), *first;
	int by;

	if (json_object_get(o, "players"))
		return BY_PLAYER;
	if (json_object_get(o, "by_opening"))
		return BY_OPENING;
	if (json_object_get(o, "by_castle"))
		return BY_CASTLE;
	if (!json_is_array(g) || !(first = json_array_get(g, 0)))
		return BY_NONE;
	for (by = BY_EVENT; by < BY_NB; by++)
		if (!group_by_side((enum group_by)by) &&
		    json_object_get(first, by_fields[by]))
			return (enum group_by)by;
	return BY_NONE;
}

enum vs_by
gamestats_json_vs(json_t *o)
{
	json_t *vs = json_object_get(o, "vs");
	json_t *by = json_is_object(vs) ? json_object_get(vs, "by") : NULL;
	int v = json_is_string(by) ? vs_by_parse(json_string_value(by)) : -1;

	return v < 0 ? VS_NONE : (enum vs_by)v;
}

/* The "vs" pairs of a shard. */
static int
read_pairs(struct reading *rd, struct gamestats *s, json_t *o)
{
	json_t *vs = json_object_get(o, "vs"), *list, *x;
	size_t i;

	if (!vs)
		return 0;
	if (!json_is_object(vs) || !(list = get_array(rd, vs, "pairs")))
		return bad(rd, "bad object", "vs");
	json_array_foreach(list, i, x) {
		json_t *name = json_object_get(x, "name");
		json_t *opp = json_object_get(x, "opponent");
		long long v[OUTCOME_NB], *p;
		int k;

		if (!json_is_object(x) || !(json_is_string(name) ||
		    json_is_null(name)) || !(json_is_string(opp) ||
		    json_is_null(opp)) || get_sum(rd, x, "wins", &v[0]) < 0
		    || get_sum(rd, x, "losses", &v[1]) < 0 ||
		    get_sum(rd, x, "draws", &v[2]) < 0 ||
		    get_sum(rd, x, "unfinished", &v[3]) < 0 ||
		    (json_is_string(name) &&
		    strchr(json_string_value(name), '\x1f')) ||
		    (json_is_string(opp) &&
		    strchr(json_string_value(opp), '\x1f')))
			return bad(rd, "bad entry in", "vs");
		p = pair_of(s, json_is_null(name) ? "" :
		    json_string_value(name), json_is_null(opp) ? "" :
		    json_string_value(opp));
		for (k = 0; k < OUTCOME_NB; k++)
			p[k] += v[k];
	}
	return 0;
}

int
gamestats_read_json(struct gamestats *s, json_t *o, char *why, size_t n)
{
	struct reading rd = { why, n, &s->read_total };
	json_t *list, *x, *key;
	enum group_by by = gamestats_json_by(o);
	size_t i, id;

	if (by != BY_NONE && by != s->by)
		return bad(&rd, "grouped by", by_names[by]);
	if (json_object_get(o, "vs") && gamestats_json_vs(o) != s->vs)
		return bad(&rd, "crossed with", vs_names[gamestats_json_vs(o)]);
	if (read_summary(&rd, o, &s->total) < 0 || read_pairs(&rd, s, o) < 0)
		return -1;
	if (s->by == BY_NONE)
		return 0;
	list = json_object_get(o, list_key(s->by));
	if (!list)
		return 0;
	if (!json_is_array(list))
		return bad(&rd, "no array", list_key(s->by));
	json_array_foreach(list, i, x) {
		if (group_by_side(s->by)) {
			if (read_player(&rd, s, x) < 0)
				return -1;
			continue;
		}
		key = json_object_get(x, by_fields[s->by]);
		if (!json_is_object(x) || !(json_is_string(key) ||
		    json_is_null(key)))
			return bad(&rd, "bad entry in", "groups");
		id = name_id(s, json_is_null(key) ? "" :
		    json_string_value(key));
		if (read_summary(&rd, x, &s->group[id]) < 0)
			return -1;
	}
	return 0;
}

/* --- tables -------------------------------------------------------------- */

static void
outcome_row(struct table *t, const char *label, const struct outcomes *o)
{
	int i;

	table_addf(t, "%s", label);
	table_addf(t, "%lld", o->records);
	for (i = 0; i < OUTCOME_NB; i++) {
		table_addf(t, "%lld", o->winner[i]);
		table_addf(t, "%.1f%%", percent(o->winner[i], o->records));
	}
}

static void
text_reasons(const struct outcomes *o, struct strbuf *out)
{
	size_t i, n;
	struct ranked *v = rank_reasons(o, &n);

	strbuf_adds(out, "  reasons     ");
	for (i = 0; i < n; i++)
		strbuf_addf(out, "%s%s %lld", i ? ", " : "", v[i].name,
		    v[i].n);
	strbuf_adds(out, n ? "\n" : "-\n");
	free(v);
}

static void
text_number(struct strbuf *out, double x)
{
	if (x == (double)(long long)x)
		strbuf_addf(out, "%lld", (long long)x);
	else
		strbuf_addf(out, "%.2f", x);
}

static void
text_lengths(const struct summary *sm, struct strbuf *out)
{
	struct lengths l;
	struct table t;
	long long b, i, most = 0;

	lengths_of(sm, &l);
	strbuf_adds(out, "  length      ");
	if (!l.records) {
		strbuf_adds(out, "-\n");
		return;
	}
	strbuf_addf(out, "min %lld, median ", l.min);
	text_number(out, l.median);
	strbuf_adds(out, ", mean ");
	text_number(out, l.mean);
	strbuf_addf(out, ", max %lld (plies)\n", l.max);
	for (b = l.min / BIN; b <= l.max / BIN; b++) {
		long long n = 0;

		for (i = 0; i < BIN; i++)
			n += length_at(sm, (size_t)(b * BIN + i));
		if (n > most)
			most = n;
	}
	table_init(&t, 3, 0x3);
	for (b = l.min / BIN; b <= l.max / BIN; b++) {
		struct strbuf bar = STRBUF_INIT;
		long long n = 0;

		for (i = 0; i < BIN; i++)
			n += length_at(sm, (size_t)(b * BIN + i));
		table_addf(&t, "%lld-%lld", b * BIN, b * BIN + BIN - 1);
		table_addf(&t, "%lld", n);
		/* Bars of at most 40 columns; any game shows. */
		for (i = 0; i < (n * 40 + most - 1) / most; i++)
			strbuf_addc(&bar, '#');
		table_addf(&t, "%s", bar.len ? bar.buf : "");
		strbuf_release(&bar);
	}
	table_write(&t, "              ", out);
	table_release(&t);
}

static void
text_openings(const struct summary *sm, struct strbuf *out)
{
	struct ranked *v = rank(&sm->openings, sm->opening, sm->openings.n);
	struct table t;
	size_t i;

	strbuf_adds(out, "  openings    ");
	if (!sm->openings.n) {
		strbuf_adds(out, "-\n");
		free(v);
		return;
	}
	strbuf_addf(out, "%zu different first two moves%s\n",
	    sm->openings.n, sm->openings.n > TOP ? ", the most played:" :
	    ":");
	table_init(&t, 3, 0x6);
	for (i = 0; i < sm->openings.n && i < TOP; i++) {
		table_addf(&t, "%s", v[i].name);
		table_addf(&t, "%lld", v[i].n);
		table_addf(&t, "%.1f%%", percent(v[i].n, sm->all.records));
	}
	table_write(&t, "              ", out);
	table_release(&t);
	free(v);
}

static void
text_summary(const struct summary *sm, struct strbuf *out)
{
	struct table t;

	table_init(&t, 10, 0x3fe);
	table_addf(&t, "games");
	table_addf(&t, "records");
	table_addf(&t, "black");
	table_addf(&t, "%%");
	table_addf(&t, "white");
	table_addf(&t, "%%");
	table_addf(&t, "draw");
	table_addf(&t, "%%");
	table_addf(&t, "none");
	table_addf(&t, "%%");
	outcome_row(&t, "all", &sm->all);
	outcome_row(&t, "even", &sm->even);
	outcome_row(&t, "handicap", &sm->handicap);
	table_write(&t, "  ", out);
	table_release(&t);
	text_reasons(&sm->all, out);
	strbuf_addf(out, "  endings     declarations %lld, sennichite %lld, "
	    "max-moves %lld\n", sm->all.reason[REASON_DECLARATION],
	    sm->all.reason[REASON_SENNICHITE],
	    sm->all.reason[REASON_MAX_MOVES]);
	text_lengths(sm, out);
	text_openings(sm, out);
}

/* Wins of the games won or lost, as a percentage ("-" without any). */
static void
win_rate(struct table *t, long long w, long long l)
{
	if (w + l)
		table_addf(t, "%.1f%%", percent(w, w + l));
	else
		table_addf(t, "-");
}

static void
text_players(const struct gamestats *s, struct strbuf *out)
{
	struct ranked *v = rank_names(s);
	struct table t;
	int tags = s->by != BY_PLAYER;
	size_t i;

	/* Names of the tags: the side that played it, and how it did. */
	table_init(&t, tags ? 8 : 6, tags ? 0xe : 0x2);
	table_addf(&t, "%s", tags ? by_names[s->by] : "player");
	table_addf(&t, "games");
	if (tags) {
		table_addf(&t, "W-L-D");
		table_addf(&t, "win");
	}
	table_addf(&t, "as black W-L-D");
	table_addf(&t, "as white W-L-D");
	table_addf(&t, "first");
	table_addf(&t, "last");
	for (i = 0; i < s->names.n; i++) {
		const struct player_stats *p = &s->player[v[i].id];

		table_addf(&t, "%s", *v[i].name ? v[i].name : "(none)");
		table_addf(&t, "%lld", p->games);
		if (tags) {
			long long w = p->as[0][0] + p->as[1][0];
			long long l = p->as[0][1] + p->as[1][1];

			table_addf(&t, "%lld-%lld-%lld", w, l,
			    p->as[0][2] + p->as[1][2]);
			win_rate(&t, w, l);
		}
		table_addf(&t, "%lld-%lld-%lld", p->as[BLACK][0],
		    p->as[BLACK][1], p->as[BLACK][2]);
		table_addf(&t, "%lld-%lld-%lld", p->as[WHITE][0],
		    p->as[WHITE][1], p->as[WHITE][2]);
		table_addf(&t, "%s", p->first[0] ? p->first : "-");
		table_addf(&t, "%s", p->last[0] ? p->last : "-");
	}
	table_write(&t, "  ", out);
	table_release(&t);
	free(v);
}

/* --vs: each name against each of the opponent's, from its side. */
static void
text_pairs(const struct gamestats *s, struct strbuf *out)
{
	struct ranked *v = rank_pairs(s);
	struct table t;
	size_t i;

	strbuf_addf(out, "\nby %s, against the opponent's %s\n",
	    by_names[s->by], vs_names[s->vs]);
	table_init(&t, 5, 0x1c);
	table_addf(&t, "%s", by_names[s->by]);
	table_addf(&t, "vs %s", vs_names[s->vs]);
	table_addf(&t, "games");
	table_addf(&t, "W-L-D");
	table_addf(&t, "win");
	for (i = 0; i < s->pairs.n; i++) {
		const char *key = v[i].name;
		size_t k = pair_split(key);
		const long long *p = s->pair[v[i].id];

		if (k)
			table_addf(&t, "%.*s", (int)k, key);
		else
			table_addf(&t, "(none)");
		table_addf(&t, "%s", key[k] && key[k + 1] ? key + k + 1 :
		    "(none)");
		table_addf(&t, "%lld", v[i].n);
		table_addf(&t, "%lld-%lld-%lld", p[0], p[1], p[2]);
		win_rate(&t, p[0], p[1]);
	}
	table_write(&t, "  ", out);
	table_release(&t);
	free(v);
}

static void
text_groups(const struct gamestats *s, struct strbuf *out)
{
	struct ranked *v = rank_names(s);
	struct table t;
	size_t i;
	int w;

	table_init(&t, 8, 0xfe);
	table_addf(&t, "%s", by_names[s->by]);
	table_addf(&t, "records");
	table_addf(&t, "black");
	table_addf(&t, "white");
	table_addf(&t, "draw");
	table_addf(&t, "none");
	table_addf(&t, "median");
	table_addf(&t, "mean");
	for (i = 0; i < s->names.n; i++) {
		const struct summary *sm = &s->group[v[i].id];
		struct lengths l;
		struct strbuf num = STRBUF_INIT;

		lengths_of(sm, &l);
		table_addf(&t, "%s", *v[i].name ? v[i].name : "(none)");
		table_addf(&t, "%lld", sm->all.records);
		for (w = 0; w < OUTCOME_NB; w++)
			table_addf(&t, "%.1f%%", percent(sm->all.winner[w],
			    sm->all.records));
		text_number(&num, l.median);
		table_addf(&t, "%s", num.buf);
		strbuf_reset(&num);
		text_number(&num, l.mean);
		table_addf(&t, "%s", num.buf);
		strbuf_release(&num);
	}
	table_write(&t, "  ", out);
	table_release(&t);
	free(v);
}

void
gamestats_text(const struct gamestats *s, const char *rules,
    struct strbuf *out)
{
	strbuf_addf(out, "kifu stats: %lld records (%lld even, %lld handicap, "
	    "%lld other starts)", s->total.all.records, s->total.even.records,
	    s->total.handicap.records, s->total.all.records -
	    s->total.even.records - s->total.handicap.records);
	if (rules)
		strbuf_addf(out, ", rules %s", rules);
	strbuf_adds(out, "\n\n");
	text_summary(&s->total, out);
	if (s->by == BY_NONE)
		return;
	strbuf_addf(out, "\nby %s\n", by_names[s->by]);
	if (group_by_side(s->by))
		text_players(s, out);
	else
		text_groups(s, out);
	if (s->vs != VS_NONE)
		text_pairs(s, out);
}
