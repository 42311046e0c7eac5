/*
 * select.c - the record selection `kifu export` and `kifu book` share.
 */
#include <stdlib.h>
#include <string.h>

#include "query/select.h"
#include "core/parse.h"
#include "core/xalloc.h"
#include "parsers/rating.h"

#define DROP_NAME(e, id) id,
static const char *const drop_names[] = { SELECT_LIST(DROP_NAME) };
#undef DROP_NAME

const char *
select_drop_name(enum select_drop d)
{
	return (unsigned)d < SELECT_NB ? drop_names[d] : "kept";
}

/* The games decided on the board, or by a rule the board shows. */
static const enum reason default_results[] = {
	REASON_RESIGN, REASON_CHECKMATE, REASON_DECLARATION,
	REASON_PERPETUAL_CHECK
};

void
select_init(struct select_opts *o)
{
	size_t i;

	memset(o, 0, sizeof(*o));
	o->winner = -1;
	for (i = 0; i < sizeof(default_results) / sizeof(default_results[0]);
	    i++)
		o->results |= 1u << default_results[i];
}

static int
reason_by_name(const char *s, size_t n)
{
	int i;

	for (i = 0; i < REASON_NB; i++)
		if (strlen(reason_name((enum reason)i)) == n &&
		    memcmp(reason_name((enum reason)i), s, n) == 0)
			return i;
	return -1;
}

static int
take_results(struct select_opts *o, const char *arg, struct strbuf *why)
{
	struct strbuf known = STRBUF_INIT;
	const char *p = arg;
	unsigned set = 0;
	int i;

	if (strcmp(arg, "all") == 0) {
		o->results = (1u << REASON_NB) - 1;
		return 1;
	}
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		int r = reason_by_name(p, n);

		if (r < 0) {
			for (i = 0; i < REASON_NB; i++)
				strbuf_addf(&known, "%s%s", i ? ", " : "",
				    reason_name((enum reason)i));
			opt_fail(why, OPT_USAGE, "--results: unknown result "
			    "'%.*s' (known: all, %s)", (int)n, p, known.buf);
			strbuf_release(&known);
			return OPT_USAGE;
		}
		set |= 1u << r;
		if (!comma)
			break;
		p = comma + 1;
	}
	o->results = set;
	return 1;
}

static int
take_rating(struct select_opts *o, const char *arg, struct strbuf *why)
{
	char *end;
	double v = strtod(arg, &end);

	if (!*arg || *end || v != v || v < -1e6 || v > 1e6)
		return opt_fail(why, OPT_USAGE, "--min-rating takes a number, "
		    "not '%s'", arg);
	o->rated = 1;
	o->min_rating = v;
	return 1;
}

int
select_take(struct select_opts *o, int opt, const char *arg,
    struct strbuf *why)
{
	switch (opt) {
	case OPT_SELECT_MIN_MOVES:
		if ((o->min_moves = parse_count(arg, 1000000)) < 0)
			return opt_fail(why, OPT_USAGE, "--min-moves takes a "
			    "number from 0 to 1000000, not '%s'", arg);
		return 1;
	case OPT_SELECT_MIN_RATING:
		return take_rating(o, arg, why);
	case OPT_SELECT_RESULTS:
		return take_results(o, arg, why);
	case OPT_SELECT_WINNER:
		if (strcmp(arg, "black") == 0)
			o->winner = WINNER_BLACK;
		else if (strcmp(arg, "white") == 0)
			o->winner = WINNER_WHITE;
		else if (strcmp(arg, "any") == 0)
			o->winner = -1;
		else
			return opt_fail(why, OPT_USAGE, "--winner takes black, "
			    "white or any, not '%s'", arg);
		return 1;
	case OPT_SELECT_UNIQ:
		o->uniq = 1;
		return 1;
	default:
		return 0;
	}
}

enum select_drop
select_record(const struct select_opts *o, const struct record *r,
    const struct replay *rp, const struct adjudication *adj)
{
	if (rp->moves < o->min_moves)
		return SELECT_MIN_MOVES;
	if (o->rated) {
		struct ratings rt;

		rating_read(r, &rt);
		if (!rt.has[BLACK] || !rt.has[WHITE])
			return SELECT_NO_RATING;
		if (rt.rate[BLACK] < o->min_rating ||
		    rt.rate[WHITE] < o->min_rating)
			return SELECT_MIN_RATING;
	}
	if (!(o->results & 1u << adj->result.reason))
		return SELECT_RESULTS;
	if (o->winner >= 0 && adj->result.winner != (enum winner)o->winner)
		return SELECT_WINNER;
	return SELECT_KEPT;
}

/* splitmix64's finaliser: every input bit moves every output bit. */
static uint64_t
mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t
select_key(const struct record *r, const struct replay *rp)
{
	uint64_t h = mix(position_key(&r->start) ^ (uint64_t)r->v->files);
	int32_t i = r->nodes[0].next;
	int n;

	for (n = 0; n < rp->moves && i >= 0; n++, i = r->nodes[i].next)
		h = mix(h ^ r->nodes[i].mv);
	h = mix(h ^ (uint64_t)n << 40);
	return h ? h : 1;
}

void
select_seen_init(struct select_seen *s)
{
	memset(s, 0, sizeof(*s));
}

void
select_seen_release(struct select_seen *s)
{
	free(s->slot);
	select_seen_init(s);
}

/* The slot key is in, or the empty slot where it would go. */
static size_t
probe(const struct select_seen *s, uint64_t key)
{
	size_t i = (size_t)key & (s->cap - 1);

	while (s->slot[i] && s->slot[i] != key)
		i = (i + 1) & (s->cap - 1);
	return i;
}

static void
grow(struct select_seen *s)
{
	struct select_seen big;
	size_t i;

	big.cap = s->cap ? s->cap * 2 : 1024;
	big.n = s->n;
	big.slot = xcalloc(big.cap, sizeof(*big.slot));
	for (i = 0; i < s->cap; i++)
		if (s->slot[i])
			big.slot[probe(&big, s->slot[i])] = s->slot[i];
	free(s->slot);
	*s = big;
}

int
select_seen_add(struct select_seen *s, uint64_t key)
{
	size_t i;

	if ((s->n + 1) * 4 > s->cap * 3)
		grow(s);
	i = probe(s, key);
	if (s->slot[i])
		return 0;
	s->slot[i] = key;
	s->n++;
	return 1;
}

int
select_seen_has(const struct select_seen *s, uint64_t key)
{
	return s->cap && s->slot[probe(s, key)] == key;
}
