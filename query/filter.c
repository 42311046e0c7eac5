/*
 * filter.c - kifu find's criteria: parsed, then matched (filter.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query/filter.h"
#include "query/pcre2_dl.h"
#include "api/formats.h"
#include "api/input.h"
#include "api/judge.h"
#include "core/fold.h"
#include "core/parse.h"
#include "core/replay.h"
#include "core/xalloc.h"
#include "parsers/kakinoki.h"

void
filter_init(struct filter *f)
{
	memset(f, 0, sizeof(*f));
	f->handicap = -1;
	f->reason = -1;
	f->winner = -1;
	f->moves_min = f->moves_max = -1;
	f->tag_side = -1;
}

void
filter_release(struct filter *f)
{
	size_t i;

	for (i = 0; i < f->ntexts; i++) {
		free(f->texts[i].folded);
		pcre2_code_free(f->texts[i].re);
	}
	free(f->texts);
	free(f->tags);
	memset(f, 0, sizeof(*f));
}

static void
add_text(struct filter *f, enum filter_field field, const char *arg)
{
	f->texts = xreallocarray(f->texts, f->ntexts + 1, sizeof(*f->texts));
	memset(&f->texts[f->ntexts], 0, sizeof(*f->texts));
	f->texts[f->ntexts].field = field;
	f->texts[f->ntexts].arg = arg;
	f->ntexts++;
}

/*
 * "MIN..MAX", "MIN..", "..MAX" or "N" (MIN..N..): the two ends into lo
 * and hi, -1 for an open one. Returns 0 or -1.
 */
static int
parse_range(const char *arg, int *lo, int *hi)
{
	const char *dots = strstr(arg, "..");
	char a[16], b[16];
	size_t n;

	if (!dots) {
		*lo = *hi = parse_count(arg, 1000000000);
		return *lo < 0 ? -1 : 0;
	}
	n = (size_t)(dots - arg);
	if (n >= sizeof(a) || strlen(dots + 2) >= sizeof(b))
		return -1;
	memcpy(a, arg, n);
	a[n] = '\0';
	strcpy(b, dots + 2);
	*lo = n ? parse_count(a, 1000000000) : -1;
	*hi = b[0] ? parse_count(b, 1000000000) : -1;
	if ((n && *lo < 0) || (b[0] && *hi < 0) || (!n && !b[0]))
		return -1;
	return *lo >= 0 && *hi >= 0 && *lo > *hi ? -1 : 0;
}

/* One end of --date: "" (open) or what date_parse reads. */
static int
parse_date_end(const char *s, size_t n, char out[DATE_MAX])
{
	out[0] = '\0';
	if (n == 0)
		return 0;
	return date_parse(s, n, out) > 0 ? 0 : -1;
}

static int
parse_dates(struct filter *f, const char *arg)
{
	const char *dots = strstr(arg, "..");

	if (!dots) {
		if (parse_date_end(arg, strlen(arg), f->date_from) < 0 ||
		    !f->date_from[0])
			return -1;
		memcpy(f->date_to, f->date_from, DATE_MAX);
		return 0;
	}
	if (parse_date_end(arg, (size_t)(dots - arg), f->date_from) < 0 ||
	    parse_date_end(dots + 2, strlen(dots + 2), f->date_to) < 0 ||
	    (!f->date_from[0] && !f->date_to[0]))
		return -1;
	return 0;
}

/* The start --handicap names: an id, a 手合割 word, any or other. */
static int
parse_handicap(const char *arg)
{
	int h;

	if (!strcmp(arg, "any"))
		return FILTER_HANDICAP_ANY;
	if (!strcmp(arg, "other"))
		return FILTER_HANDICAP_OTHER;
	for (h = HANDICAP_EVEN; h < HANDICAP_NB; h++)
		if (!strcmp(arg, handicap_name(h)))
			return h;
	h = kakinoki_handicap_by_name(arg, strlen(arg));
	return h == HANDICAP_NONE ? -1 : h;
}

int
filter_name_index(const char *arg, const char *(*name)(int), int n)
{
	int i;

	for (i = 0; arg && i < n; i++)
		if (!strcmp(arg, name(i)))
			return i;
	return -1;
}

static const char *
reason_at(int i)
{
	return reason_name((enum reason)i);
}

static const char *
winner_at(int i)
{
	return winner_name((enum winner)i);
}

int
filter_reason_by_name(const char *s)
{
	return filter_name_index(s, reason_at, REASON_NB);
}

int
filter_winner_by_name(const char *s)
{
	return filter_name_index(s, winner_at, 3);
}

int
filter_take(struct filter *f, int opt, const char *arg, struct strbuf *why)
{
	const struct format *fmt;

	switch (opt) {
	case OPT_F_SFEN:
	case OPT_F_USI:
	case OPT_F_AT:
		if (f->sfen || f->usi || f->at)
			return opt_fail(why, OPT_USAGE,
			    "one position at a time: "
			    "--sfen, --usi or --at");
		*(opt == OPT_F_SFEN ? &f->sfen : opt == OPT_F_USI ? &f->usi :
		    &f->at) = arg;
		return 1;
	case OPT_F_VARIATIONS: f->variations = 1; return 1;
	case OPT_F_BOARD_ONLY: f->board_only = 1; return 1;
	case OPT_F_EXACT: f->exact = 1; return 1;
	case OPT_F_REGEX: f->regex = 1; return 1;
	case OPT_F_PLAYER: add_text(f, FIELD_PLAYER, arg); return 1;
	case OPT_F_BLACK: add_text(f, FIELD_BLACK, arg); return 1;
	case OPT_F_WHITE: add_text(f, FIELD_WHITE, arg); return 1;
	case OPT_F_EVENT: add_text(f, FIELD_EVENT, arg); return 1;
	case OPT_F_OPENING:
	case OPT_F_CASTLE:
		f->tags = xreallocarray(f->tags, f->ntags + 1,
		    sizeof(*f->tags));
		f->tags[f->ntags].castle = opt == OPT_F_CASTLE;
		f->tags[f->ntags].arg = arg;
		f->tags[f->ntags].label = (uint32_t)-1;
		f->ntags++;
		return 1;
	case OPT_F_SIDE:
		f->side = arg;
		if ((f->tag_side = !strcmp(arg, "black") ? BLACK :
		    !strcmp(arg, "white") ? WHITE : -1) < 0)
			return opt_fail(why, OPT_USAGE, "--side wants black or "
			    "white, not '%s'", arg);
		return 1;
	case OPT_F_DATE:
		f->has_date = 1;
		if (parse_dates(f, arg) < 0)
			return opt_fail(why, OPT_USAGE,
			    "--date wants FROM..TO, "
			    "each YYYY, YYYY-MM or YYYY-MM-DD (an end may be "
			    "left out), not '%s'", arg);
		return 1;
	case OPT_F_MOVES:
		if (parse_range(arg, &f->moves_min, &f->moves_max) < 0)
			return opt_fail(why, OPT_USAGE,
			    "--moves wants MIN..MAX "
			    "(an end may be left out) or N, not '%s'", arg);
		return 1;
	case OPT_F_RESULT:
		if ((f->reason = filter_reason_by_name(arg)) < 0)
			return opt_fail(why, OPT_USAGE,
			    "unknown --result '%s' "
			    "(known: checkmate, stalemate, resign, "
			    "illegal-move, sennichite, perpetual-check, "
			    "declaration, impasse, max-moves, time-up, abort, "
			    "unfinished)", arg);
		return 1;
	case OPT_F_WINNER:
		if ((f->winner = filter_winner_by_name(arg)) < 0)
			return opt_fail(why, OPT_USAGE,
			    "--winner wants black, "
			    "white or none, not '%s'", arg);
		return 1;
	case OPT_F_HANDICAP:
		if ((f->handicap = parse_handicap(arg)) < 0)
			return opt_fail(why, OPT_USAGE,
			    "unknown --handicap '%s' "
			    "(known: even, lance, right-lance, bishop, rook, "
			    "rook-lance, two-piece, three-piece, four-piece, "
			    "five-piece, left-five-piece, six-piece, "
			    "left-seven-piece, right-seven-piece, eight-piece, "
			    "ten-piece, minishogi, their 手合割 names, any, "
			    "other)", arg);
		return 1;
	case OPT_F_FORMAT:
		/* Only a format a record can be detected as. */
		if (!(fmt = formats_by_name(arg)) || !fmt->detect)
			return opt_fail(why, OPT_USAGE,
			    "unknown --format '%s' "
			    "(known: csa, kif, kifu, ki2, ki2u, usi, jkf)",
			    arg);
		f->format = fmt;
		return 1;
	default:
		return 0;
	}
}

/* --- the position ----------------------------------------------------- */

/* Reads one USI record from src and replays it; *pos after its moves. */
int
position_from_usi(const char *src, const char *opt, struct position *pos,
    struct strbuf *why)
{
	const struct format *usi = formats_by_name("usi");
	struct diag_list d = DIAG_LIST_INIT;
	struct record r;
	struct reader rd;
	struct replay rp;
	struct text t;
	int rc = OPT_ERROR;

	text_init(&t);
	record_init(&r, variant_standard());
	if (text_from_utf8(&t, src, strlen(src), &d) == 0) {
		reader_init(&rd, &t, variant_standard());
		if (usi->read(&rd, &r, &d) == READ_OK &&
		    replay_record(&r, &rp, &d) == 0 && !d.errors) {
			*pos = rp.final;
			rc = 0;
		}
	}
	if (rc) {
		const struct diag *e = diag_first_error(&d);

		opt_fail(why, OPT_ERROR, "%s '%s': %s", opt, src,
		    e ? e->message : "no position");
	}
	record_release(&r);
	text_release(&t);
	diag_list_release(&d);
	return rc;
}

/*
 * --at FILE[#INDEX]:PLY, as find prints its matches: the position of the
 * record after PLY moves of its main line.
 */
static int
position_at(const char *arg, const struct limits *lim, struct position *pos,
    struct strbuf *why)
{
	const char *colon = strrchr(arg, ':'), *hash;
	struct strbuf data = STRBUF_INIT;
	struct judge_opts jo;
	struct judge_input in;
	struct judge j;
	char *path;
	int ply, index = 0, rc = OPT_ERROR, played = -1, n = 0;
	int32_t last;
	enum read_status st = READ_EOF;

	if (!colon || (ply = parse_count(colon + 1, 1000000)) < 0 ||
	    colon == arg)
		return opt_fail(why, OPT_ERROR, "--at wants FILE[#INDEX]:PLY, "
		    "not '%s'", arg);
	path = xstrndup(arg, (size_t)(colon - arg));
	/* A '#' with digits after it is the index, unless the file has it. */
	if ((hash = strrchr(path, '#')) && hash[1] &&
	    strspn(hash + 1, "0123456789") == strlen(hash + 1) &&
	    input_read(path, &data) < 0) {
		index = parse_count(hash + 1, 1000000000);
		path[hash - path] = '\0';
	}
	memset(&jo, 0, sizeof(jo));
	jo.limits = lim;
	judge_init(&j, &jo);
	strbuf_reset(&data);
	if (input_read(path, &data) < 0) {
		opt_fail(why, OPT_ERROR, "--at: cannot read '%s': %s", path,
		    strerror(errno));
		goto out;
	}
	if (judge_open(&j, &in, path, &data, 0) == JUDGE_READY) {
		while ((st = judge_next(&j, &in, 0)) != READ_EOF &&
		    n++ < index && st != READ_FATAL)
			;
	}
	if (st != READ_OK || n != index + 1) {
		const struct diag *e = diag_first_error(&j.d);

		opt_fail(why, OPT_ERROR, "--at: '%s' has no readable record "
		    "%d%s%s", path, index, e ? ": " : "", e ? e->message : "");
		goto out;
	}
	{
		struct replay rp;

		replay_record(&j.r, &rp, &j.d);
		played = record_main_position(&j.r, ply, pos, &last);
		if (played < ply) {
			opt_fail(why, OPT_ERROR, "--at: record %d of '%s' has "
			    "%d legal moves, not %d", index, path, played,
			    ply);
			goto out;
		}
	}
	rc = 0;
out:
	judge_release(&j);
	strbuf_release(&data);
	free(path);
	return rc;
}

static int
set_position(struct filter *f, const struct limits *lim, struct strbuf *why)
{
	struct strbuf sb = STRBUF_INIT;
	int rc;

	if (f->at) {
		rc = position_at(f->at, lim, &f->pos, why);
	} else if (f->sfen) {
		const char *s = f->sfen;

		/* "sfen ..." and "startpos" as USI has them, or the SFEN. */
		if (strncmp(s, "sfen ", 5) && strcmp(s, "startpos"))
			strbuf_adds(&sb, "sfen ");
		strbuf_adds(&sb, s);
		rc = position_from_usi(sb.buf, "--sfen", &f->pos, why);
	} else {
		rc = position_from_usi(f->usi, "--usi", &f->pos, why);
	}
	strbuf_release(&sb);
	if (rc)
		return rc;
	f->has_position = 1;
	f->key = f->board_only ? position_board_key(&f->pos) :
	    position_key(&f->pos);
	return 0;
}

/* --- texts -------------------------------------------------------------- */

/*
 * A pattern folded as the text it is matched against is: its full-width
 * and half-width characters as fold_next gives them (one that becomes
 * ASCII punctuation escaped, so that （ stays a literal), ASCII as
 * written (escapes keep their meaning; PCRE2_CASELESS does the case).
 */
static void
fold_pattern(struct strbuf *out, const char *s)
{
	size_t i = 0, n = strlen(s);
	uint32_t cp;

	while (i < n) {
		if ((unsigned char)s[i] < 0x80) {
			strbuf_addc(out, s[i++]);
			continue;
		}
		i += fold_next(s + i, n - i, &cp);
		if (cp < 0x80 && !((cp >= '0' && cp <= '9') ||
		    (cp >= 'a' && cp <= 'z') || cp == ' '))
			strbuf_addc(out, '\\');
		fold_put(out, cp);
	}
}

static int
compile_text(const struct filter *f, struct filter_text *t, struct strbuf *why)
{
	struct strbuf sb = STRBUF_INIT;
	PCRE2_SIZE off;
	const char *missing;
	int err;
	uint32_t opts = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;

	if (f->exact)
		strbuf_adds(&sb, t->arg);
	else if (f->regex)
		fold_pattern(&sb, t->arg);
	else
		fold_append(&sb, t->arg, strlen(t->arg));
	t->folded = strbuf_detach(&sb, &t->len);
	if (!f->regex)
		return 0;
	if (!f->exact)
		opts |= PCRE2_CASELESS;
	if (pcre2_dl_load(&missing) < 0)
		return opt_fail(why, OPT_ERROR, "--regex '%s': %s", t->arg,
		    missing);
	t->re = pcre2_compile((PCRE2_SPTR)t->folded, PCRE2_ZERO_TERMINATED,
	    opts, &err, &off, NULL);
	if (!t->re) {
		PCRE2_UCHAR msg[160];

		pcre2_get_error_message(err, msg, sizeof(msg));
		return opt_fail(why, OPT_ERROR, "--regex '%s': %s at offset "
		    "%zu", t->arg, (const char *)msg, (size_t)off);
	}
	/* Without the JIT (another CPU), the interpreter matches alike. */
	(void)pcre2_jit_compile(t->re, PCRE2_JIT_COMPLETE);
	return 0;
}

/* Whether a definition of the kind carries the label (name, family). */
static int
defines(const struct tagdefs *d, uint32_t label, int castle)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		const struct tag_def *t = &d->v[i];
		int kind = castle ? t->kind == TAG_CASTLE :
		    t->kind == TAG_OPENING || t->kind == TAG_STYLE;

		if (kind && !t->off && (t->name == label || t->family == label))
			return 1;
	}
	return 0;
}

/* A name looked for, as a label of the definitions: a typo is said. */
static int
resolve_tag(struct filter *f, struct filter_tag *t, struct strbuf *why)
{
	const char *what = t->castle ? "castle" : "opening";

	if (!f->defs)
		return opt_fail(why, OPT_USAGE, "--%s: no definitions", what);
	t->label = tagdefs_find_label(f->defs, t->arg, strlen(t->arg));
	if (t->label == (uint32_t)-1 || !defines(f->defs, t->label, t->castle))
		return opt_fail(why, OPT_USAGE, "no %s named '%s' (kifu tag "
		    "--print-definitions lists them)", what, t->arg);
	return 0;
}

int
filter_finish(struct filter *f, const struct limits *lim, struct strbuf *why)
{
	size_t i;
	int rc;

	if ((f->variations || f->board_only) && !(f->sfen || f->usi || f->at))
		return opt_fail(why, OPT_USAGE, "--variations and "
		    "--board-only need a position (--sfen, --usi or --at)");
	if ((f->exact || f->regex) && !f->ntexts)
		return opt_fail(why, OPT_USAGE, "--exact and --regex need a "
		    "name or event (--player, --black, --white, --event)");
	for (i = 0; i < f->ntexts; i++)
		if ((rc = compile_text(f, &f->texts[i], why)) != 0)
			return rc;
	if (f->side && !f->ntags)
		return opt_fail(why, OPT_USAGE, "--side needs an opening or a "
		    "castle (--opening, --castle)");
	for (i = 0; i < f->ntags; i++)
		if ((rc = resolve_tag(f, &f->tags[i], why)) != 0)
			return rc;
	if ((f->sfen || f->usi || f->at) &&
	    (rc = set_position(f, lim, why)) != 0)
		return rc;
	return 0;
}

void
filter_scratch_init(const struct filter *f, struct filter_scratch *s)
{
	strbuf_init(&s->fold);
	s->md = f->regex ? pcre2_match_data_create(1, NULL) : NULL;
	if (f->regex && !s->md)
		abort();	/* out of memory, as xmalloc would */
}

void
filter_scratch_release(struct filter_scratch *s)
{
	strbuf_release(&s->fold);
	pcre2_match_data_free(s->md);
	s->md = NULL;
}

/* --- matching ------------------------------------------------------------ */

int
filter_has_headers(const struct filter *f)
{
	return f->ntexts || f->has_date || f->handicap >= 0 || f->format;
}

int
filter_has_moves(const struct filter *f)
{
	return f->moves_min >= 0 || f->moves_max >= 0;
}

int
filter_has_result(const struct filter *f)
{
	return f->reason >= 0 || f->winner >= 0;
}

int
filter_has_tags(const struct filter *f)
{
	return f->ntags > 0;
}

/* Whether side c of res has the label among its names of the kind. */
static int
side_has(const struct tagdefs *d, const struct tag_side *s, uint32_t label,
    int castle)
{
	const struct tag_hit *v = castle ? s->castles : s->openings;
	size_t n = castle ? s->ncastles : s->nopenings, i;

	if (!castle && s->style >= 0 && (d->v[s->style].name == label ||
	    d->v[s->style].family == label))
		return 1;
	for (i = 0; i < n; i++)
		if (d->v[v[i].def].name == label ||
		    d->v[v[i].def].family == label)
			return 1;
	return 0;
}

int
filter_match_tags(const struct filter *f, const struct tag_result *res)
{
	size_t i;

	for (i = 0; i < f->ntags; i++) {
		const struct filter_tag *t = &f->tags[i];
		int c, found = 0;

		for (c = 0; c < 2 && !found; c++)
			if (f->tag_side < 0 || f->tag_side == c)
				found = side_has(f->defs, &res->side[c],
				    t->label, t->castle);
		if (!found)
			return 0;
	}
	return 1;
}

static int
text_holds(const struct filter *f, const struct filter_text *t,
    struct filter_scratch *s, const char *value)
{
	const char *hay = value;
	size_t n;
	int rc;

	if (!f->exact) {
		strbuf_reset(&s->fold);
		fold_append(&s->fold, value, strlen(value));
		hay = s->fold.len ? s->fold.buf : "";
	}
	if (!t->re)
		return strstr(hay, t->folded) != NULL;
	n = strlen(hay);
	rc = pcre2_match(t->re, (PCRE2_SPTR)hay, n, 0, 0, s->md, NULL);
	return rc >= 0;
}

int
filter_text_holds(const struct filter *f, const struct filter_text *t,
    struct filter_scratch *s, enum header_id id, const char *value)
{
	int want;

	switch (t->field) {
	case FIELD_PLAYER: want = id == HDR_BLACK || id == HDR_WHITE; break;
	case FIELD_BLACK: want = id == HDR_BLACK; break;
	case FIELD_WHITE: want = id == HDR_WHITE; break;
	default: want = id == HDR_EVENT; break;
	}
	return want && text_holds(f, t, s, value);
}

static int
text_matches(const struct filter *f, const struct filter_text *t,
    struct filter_scratch *s, const struct record *r)
{
	size_t i;

	for (i = 0; i < r->nheaders; i++)
		if (filter_text_holds(f, t, s, r->headers[i].id,
		    record_str(r, r->headers[i].value)))
			return 1;
	return 0;
}

/* The index of the first c in s[i..n), or n. */
static size_t
find_byte(const char *s, size_t n, size_t i, unsigned char c)
{
	const char *p = memchr(s + i, c, n - i);

	return p ? (size_t)(p - s) : n;
}

static unsigned char
ascii_lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

/*
 * 0 when needle[0..k) (k > 0) surely does not occur in s[0..n); with
 * caseless, ASCII capitals of s taken as small letters (the needle has
 * none). Each candidate comes from memchr on the needle's first byte in
 * either case, which passes a text without the needle at memchr's
 * speed. The bytes compared after candidates are bounded by about n: a
 * text made to defeat the search (aaa...ab against aaa...a) is given
 * up on, 1, and read as if the needle were in it.
 */
static int
may_contain(const char *s, size_t n, const char *needle, size_t k,
    int caseless)
{
	unsigned char lo = (unsigned char)needle[0];
	unsigned char up = caseless && lo >= 'a' && lo <= 'z' ?
	    (unsigned char)(lo - 'a' + 'A') : lo;
	size_t na, nb, i, j, budget = n + 4096;

	if (n < k)
		return 0;
	na = find_byte(s, n, 0, lo);
	nb = up == lo ? n : find_byte(s, n, 0, up);
	for (;;) {
		size_t c = na < nb ? na : nb;

		if (c + k > n)
			return 0;
		for (j = 1; j < k; j++)
			if ((caseless ? ascii_lower((unsigned char)s[c + j]) :
			    (unsigned char)s[c + j]) != (unsigned char)needle[j])
				break;
		if (j == k || budget < j)
			return 1;
		budget -= j;
		i = c + 1;
		if (na < i)
			na = find_byte(s, n, i, lo);
		if (nb < i)
			nb = find_byte(s, n, i, up);
	}
}

int
filter_text_may_match(const struct filter *f, const struct text *t,
    const struct format *fmt)
{
	size_t i;

	if (f->regex || !(fmt->caps & CAP_HEADERS_AS_WRITTEN))
		return 1;
	for (i = 0; i < f->ntexts; i++) {
		const struct filter_text *x = &f->texts[i];

		if (x->len == 0)
			continue;	/* in every header */
		if (f->exact) {
			if (!may_contain(t->buf, t->len, x->folded, x->len, 0))
				return 0;
		} else if (t->ascii &&
		    !may_contain(t->buf, t->len, x->folded, x->len, 1)) {
			/*
			 * Folding an ASCII header only lowers it; a needle
			 * that is not ASCII fails here too (its first byte is
			 * in no ASCII text).
			 */
			return 0;
		}
	}
	return 1;
}

/* a against the bound b, on as many characters as the shorter has. */
static int
date_cmp(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);

	return strncmp(a, b, n < m ? n : m);
}

static int
handicap_matches(int want, const struct record *r)
{
	enum handicap h = handicap_identify(&r->start);

	if (want == FILTER_HANDICAP_ANY)
		return h > HANDICAP_EVEN && h <= HANDICAP_10;
	if (want == FILTER_HANDICAP_OTHER)
		return h < HANDICAP_EVEN || h > HANDICAP_10;
	return (int)h == want;
}

int
filter_match_headers(const struct filter *f, struct filter_scratch *s,
    const struct record *r, const struct format *fmt)
{
	size_t i;

	if (f->format && fmt != f->format)
		return 0;
	if (f->handicap >= 0 && !handicap_matches(f->handicap, r))
		return 0;
	if (f->has_date) {
		char d[DATE_MAX];

		if (!date_of_record(r, d) ||
		    (f->date_from[0] && date_cmp(d, f->date_from) < 0) ||
		    (f->date_to[0] && date_cmp(d, f->date_to) > 0))
			return 0;
	}
	for (i = 0; i < f->ntexts; i++)
		if (!text_matches(f, &f->texts[i], s, r))
			return 0;
	return 1;
}

int
filter_match_plies(const struct filter *f, int n)
{
	return (f->moves_min < 0 || n >= f->moves_min) &&
	    (f->moves_max < 0 || n <= f->moves_max);
}

int
filter_match_moves(const struct filter *f, const struct record *r)
{
	return !filter_has_moves(f) ||
	    filter_match_plies(f, record_main_moves(r));
}

int
filter_match_result(const struct filter *f, const struct game_result *g)
{
	return (f->reason < 0 || (int)g->reason == f->reason) &&
	    (f->winner < 0 || (int)g->winner == f->winner);
}

/* The keys agreed: the position itself must (64 bits may collide). */
static int
same_position(const struct filter *f, const struct position *p)
{
	const struct position *q = &f->pos;

	if (p->v != q->v || memcmp(p->board, q->board, sizeof(p->board)))
		return 0;
	return f->board_only || (p->side == q->side &&
	    !memcmp(p->hand, q->hand, sizeof(p->hand)));
}

int
filter_visit(void *ctx, const struct position *pos, int32_t node, int main)
{
	struct filter_hits *h = ctx;
	const struct filter *f = h->f;
	uint64_t k = f->board_only ? position_board_key(pos) :
	    position_key(pos);

	(void)main;
	if (k != f->key || !same_position(f, pos))
		return 0;
	ALLOC_GROW(h->ply, h->n + 1, h->alloc);
	h->ply[h->n++] = h->r->nodes[node].ply;
	return h->first_only;
}

static int
by_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

void
filter_hits_sort(struct filter_hits *h)
{
	size_t i, k = 0;

	if (h->n < 2)
		return;
	qsort(h->ply, h->n, sizeof(*h->ply), by_int);
	for (i = 0; i < h->n; i++)
		if (!k || h->ply[i] != h->ply[k - 1])
			h->ply[k++] = h->ply[i];
	h->n = k;
}
