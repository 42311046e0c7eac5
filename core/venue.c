/*
 * venue.c - which rule set a record's own text points at.
 *
 * The evidence, strongest first (doc/rules.md, "Which set"):
 *   stated   a rules header (kifu-rules, $KIFU_RULES): the set kifu
 *            judged a record by, written when it was converted to a
 *            format that cannot hold the evidence it had;
 *   minishogi  a 5x5 board: the game, whatever else the text says;
 *   problem  the start has fewer than two kings; a header names 詰将棋;
 *            a problem collection's headers (作品番号, 発表誌...); a
 *            まで line in Kifu for Windows' problem form "まで49手詰";
 *   csa      shogi-server's 'summary line (or a comment keeping it); a
 *            game id of shogi-server's
 *            form (wdoor+floodgate-300-10F+A+B+20170302210003) or an
 *            event naming Floodgate, a CSA tournament (WCSC, 電竜戦) in
 *            any header; the server's way of writing a game: a T time
 *            after every move and a % terminal;
 *   wars     a header or comment naming Shogi Wars or its URLs;
 * and otherwise jsa. A professional game typed into CSA has none of the
 * server's marks and stays jsa.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "adjudicate.h"
#include "venue.h"

/* Bytes of a quoted value in the evidence. */
#define QUOTE_MAX 40

/* Words searched for, with their lengths: every record's headers are. */
struct word {
	const char *s;
	size_t n;
};
#define WORD(w) { w, sizeof(w) - 1 }
#define NWORDS(a) (sizeof(a) / sizeof(a[0]))

/* Whether s holds w at some place whose first byte is c. */
static int
has_from(const char *s, size_t len, const struct word *w, unsigned char c)
{
	const char *p = s, *end = s + len;

	while ((p = memchr(p, c, (size_t)(end - p)))) {
		if ((size_t)(end - p) >= w->n &&
		    strncasecmp(p, w->s, w->n) == 0)
			return 1;
		p++;
	}
	return 0;
}

/*
 * The first of the n words (in their order) that s holds, ASCII letters
 * in any case; NULL if none. Each word is looked for with memchr on its
 * first byte, in both cases: records' comments can be long, and every
 * record's are searched.
 */
static const char *
find_word(const char *s, const struct word *w, size_t n)
{
	size_t len = strlen(s), i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)w[i].s[0];

		if (has_from(s, len, &w[i], c) || (isalpha(c) &&
		    has_from(s, len, &w[i], (unsigned char)(c ^ 0x20))))
			return w[i].s;
	}
	return NULL;
}

static int
all_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return n > 0;
}

/*
 * shogi-server's game id: <server>+<game name>+<black>+<white>+<start>,
 * the game name ending in -<total>-<byoyomi> or -<total>-<increment>F
 * and the start time 14 digits (rules.md 2.7).
 */
static int
is_game_id(const char *s)
{
	const char *part[5], *end = s + strlen(s), *p = s, *q;
	size_t len[5];
	int k = 0, dashes = 0;

	while (k < 5) {
		q = memchr(p, '+', (size_t)(end - p));
		if (!q)
			q = end;
		if (q == p)
			return 0;
		part[k] = p;
		len[k++] = (size_t)(q - p);
		if (q == end)
			break;
		p = q + 1;
	}
	if (k != 5 || len[4] != 14 || !all_digits(part[4], 14))
		return 0;
	/* "floodgate-300-10F": two numbers after the last two dashes. */
	p = part[1] + len[1];
	if (p[-1] == 'F')
		p--;
	for (q = p; q > part[1]; q--) {
		if (q[-1] == '-') {
			if (q == p || !all_digits(q, (size_t)(p - q)))
				return 0;
			if (++dashes == 2)
				return 1;
			p = q - 1;
		}
	}
	return 0;
}

/* Words in an event or title that name a server or a CSA tournament. */
static const struct word server_words[] = {
	WORD("floodgate"), WORD("wdoor"), WORD("WCSC"),
	WORD("World Computer Shogi"), WORD("世界コンピュータ将棋"),
	WORD("電竜戦"), WORD("denryu"), WORD("shogi-server")
};

static const struct word wars_words[] = {
	WORD("将棋ウォーズ"), WORD("shogiwars"), WORD("heroz.jp"),
	WORD("/swars/")
};

static const struct word floodgate[] = { WORD("floodgate") };
static const struct word kifu_for_windows[] = { WORD("Kifu for Windows") };

/* Header keys of a problem collection (Kifu for Windows' 詰将棋 form). */
static const char *const problem_keys[] = {
	"作品名", "作品番号", "発表誌", "受賞", NULL
};

static void
found(struct venue *out, const char *set, uint32_t line, const char *fmt,
    const char *a, const char *b)
{
	out->set = set;
	out->line = line;
	snprintf(out->what, sizeof(out->what), fmt, a, b ? b : "");
}

/* A header key as the format writes it: CSA's with its '$'. */
static const char *
key_as_written(const struct record *r, const struct record_header *h,
    const char *format, char *buf, size_t size)
{
	const char *key = record_str(r, h->key);

	if (format && !strcmp(format, "csa") && h->id != HDR_BLACK &&
	    h->id != HDR_WHITE)
		snprintf(buf, size, "$%s", key);
	else
		snprintf(buf, size, "%s", key);
	return buf;
}

/*
 * The line of text at or after the record's start that holds s: the
 * place of evidence found in a comment. 0 if there is no text.
 */
static uint32_t
line_of(const struct record *r, const struct text *t, const char *s)
{
	size_t i, n = strlen(s);

	if (!t || !n)
		return 0;
	for (i = r->loc.line ? r->loc.line - 1 : 0; i < t->nlines; i++) {
		const char *p = text_line_ptr(t, i);
		size_t len = t->lines[i].len, k;

		for (k = 0; k + n <= len; k++)
			if (strncasecmp(p + k, s, n) == 0)
				return (uint32_t)i + 1;
	}
	return 0;
}

/* Long values are cut, never inside a character: the line finds the rest. */
static void
cut_quote(char *quote, const char *v)
{
	size_t k = QUOTE_MAX - 3;

	snprintf(quote, QUOTE_MAX + 1, "%s", v);
	if (strlen(v) <= QUOTE_MAX)
		return;
	while (k > 0 && ((unsigned char)quote[k] & 0xc0) == 0x80)
		k--;
	memcpy(quote + k, "...", 4);
}

/*
 * Whether a header may name a venue: an event, a site, a title, a note
 * or a line kept whole; not the players, dates, times or the handicap,
 * which every record has and no venue is named in.
 */
static int
names_venue(const struct record_header *h)
{
	switch (h->id) {
	case HDR_EVENT: case HDR_SITE: case HDR_OTHER: case HDR_NOTE:
	case HDR_RAW:
		return 1;
	default:
		return 0;
	}
}

static int
count_kings(const struct position *pos)
{
	return (pos->king[BLACK] != SQ_NONE) + (pos->king[WHITE] != SQ_NONE);
}

/* "まで49手詰": the problem form; a game writes "まで49手で詰み". */
static int
problem_summary(const char *s)
{
	static const char head[] = "まで";
	const char *p;

	if (strncmp(s, head, sizeof(head) - 1) != 0)
		return 0;
	p = s + sizeof(head) - 1;
	if (*p < '0' || *p > '9')
		return 0;
	while (*p >= '0' && *p <= '9')
		p++;
	return strcmp(p, "手詰") == 0;
}

static int
find_problem(const struct record *r, const char *format, struct venue *out)
{
	uint32_t start_line = r->start_loc.line ? r->start_loc.line :
	    r->loc.line;
	char key[64];
	size_t i;
	int kings = count_kings(&r->start);

	if (kings < 2) {
		found(out, "problem", start_line, "%s at the start",
		    kings ? "one king" : "no king", NULL);
		return 1;
	}
	for (i = 0; i < r->nheaders; i++) {
		const struct record_header *h = &r->headers[i];
		const char *k = record_str(r, h->key);
		const char *v = record_str(r, h->value);
		size_t j;

		if (h->id == HDR_RAW)
			continue;
		if (strstr(v, "詰将棋") || strstr(v, "詰め将棋") ||
		    strstr(k, "詰将棋")) {
			found(out, "problem", h->loc.line, "%s 詰将棋",
			    key_as_written(r, h, format, key, sizeof(key)),
			    NULL);
			return 1;
		}
		for (j = 0; problem_keys[j]; j++)
			if (!strcmp(k, problem_keys[j])) {
				found(out, "problem", h->loc.line, "%s", k,
				    NULL);
				return 1;
			}
	}
	if (r->has_recorded &&
	    problem_summary(record_str(r, r->recorded_raw))) {
		found(out, "problem", r->recorded_loc.line, "%s",
		    record_str(r, r->recorded_raw), NULL);
		return 1;
	}
	return 0;
}

/* The summary's type, "'summary:toryo:...": the statement as written. */
static int
is_summary(const struct record *r)
{
	const char *s = record_str(r, r->recorded_raw);

	return r->has_recorded && strncmp(s, "'summary:", 9) == 0;
}

/*
 * A 'summary a converter kept as a comment (Floodgate logs in KIF keep
 * it as "*summary:toryo:..." after the terminal): a line of the last
 * node's comment, or its move's. NULL if none.
 */
static const char *
summary_comment(const struct record *r, int32_t end)
{
	int k;

	for (k = 0; k < 2 && end > 0; k++, end = r->nodes[end].parent) {
		const char *s = record_str(r, r->nodes[end].comment);

		for (; *s; s++) {
			if (s[0] == '\'')
				s++;
			if (strncmp(s, "summary:", 8) == 0)
				return s;
			if (!(s = strchr(s, '\n')))
				break;
		}
	}
	return NULL;
}

/*
 * A server writes a T line after every move and ends with a % line.
 * Kifu for Windows' CSA export does too, for any game it holds, and
 * says so in its banner: that is no evidence.
 */
static int
server_terminal(const struct record *r, int32_t end)
{
	int32_t i;

	if (end <= 0 || r->nodes[end].special == SP_NONE ||
	    record_str(r, r->nodes[end].raw)[0] != '%' ||
	    r->nodes[end].parent == 0 ||
	    find_word(record_str(r, r->nodes[0].comment), kifu_for_windows,
	    1))
		return 0;
	for (i = r->nodes[0].next; i != end; i = r->nodes[i].next)
		if (r->nodes[i].time_ms < 0)
			return 0;
	return 1;
}

static int
find_server(const struct record *r, const char *format, const struct text *t,
    struct venue *out)
{
	char key[64], quote[QUOTE_MAX + 1];
	const char *w;
	int32_t end = record_main_end(r);
	size_t i;

	for (i = 0; i < r->nheaders; i++) {
		const struct record_header *h = &r->headers[i];
		const char *v = record_str(r, h->value);

		if (h->id == HDR_RAW || !*v)
			continue;
		if (is_game_id(v)) {
			cut_quote(quote, v);
			found(out, "csa", h->loc.line, "%s '%s'",
			    key_as_written(r, h, format, key, sizeof(key)),
			    quote);
			out->max_moves = find_word(v, floodgate, 1) != NULL ? 256 : 0;
			return 1;
		}
		if (names_venue(h) &&
		    (w = find_word(v, server_words, NWORDS(server_words)))) {
			found(out, "csa", h->loc.line, "%s %s",
			    key_as_written(r, h, format, key, sizeof(key)), w);
			out->max_moves = find_word(v, floodgate, 1) != NULL ? 256 : 0;
			return 1;
		}
	}
	if (is_summary(r)) {
		found(out, "csa", r->recorded_loc.line, "%s", "'summary", NULL);
		out->max_moves = 0;
		return 1;
	}
	if (summary_comment(r, end)) {
		found(out, "csa", line_of(r, t, "summary:"), "%s",
		    "a 'summary in a comment", NULL);
		out->max_moves = 0;
		return 1;
	}
	if (server_terminal(r, end)) {
		found(out, "csa", r->nodes[end].loc.line,
		    "T times and %s", record_str(r, r->nodes[end].raw), NULL);
		out->max_moves = 0;
		return 1;
	}
	return 0;
}

static int
find_wars(const struct record *r, const char *format, const struct text *t,
    struct venue *out)
{
	const char *root = record_str(r, r->nodes[0].comment), *w;
	char key[64];
	size_t i;

	for (i = 0; i < r->nheaders; i++) {
		const struct record_header *h = &r->headers[i];
		const char *v = record_str(r, h->id == HDR_RAW ? h->key :
		    h->value);

		if (!names_venue(h))
			continue;
		if ((w = find_word(v, wars_words, NWORDS(wars_words)))) {
			if (h->id == HDR_RAW)
				found(out, "wars", h->loc.line, "%s", w, NULL);
			else
				found(out, "wars", h->loc.line, "%s %s",
				    key_as_written(r, h, format, key,
				    sizeof(key)), w);
			return 1;
		}
	}
	if ((w = find_word(root, wars_words, NWORDS(wars_words)))) {
		found(out, "wars", line_of(r, t, w), "%s in a comment", w,
		    NULL);
		return 1;
	}
	return 0;
}

/* A rules header kifu can read; one it cannot is no evidence. */
static int
find_stated(const struct record *r, const char *format, struct venue *out)
{
	char key[64], quote[QUOTE_MAX + 1];
	size_t i;

	for (i = 0; i < r->nheaders; i++) {
		const struct record_header *h = &r->headers[i];
		const char *v = record_str(r, h->value);

		if (h->id != HDR_RULES ||
		    ruleset_parse(v, strlen(v), &out->rules) < 0)
			continue;
		cut_quote(quote, v);
		found(out, out->rules.name, h->loc.line, "%s '%s'",
		    key_as_written(r, h, format, key, sizeof(key)), quote);
		out->stated = 1;
		return 1;
	}
	return 0;
}

void
venue_detect(const struct record *r, const char *format,
    const struct text *t, struct venue *out)
{
	memset(out, 0, sizeof(*out));
	out->set = "jsa";
	out->max_moves = -1;
	if (find_stated(r, format, out))
		return;
	/* The board says which game it is before anything says where. */
	if (r->start.v == variant_minishogi()) {
		found(out, "minishogi", r->start_loc.line ? r->start_loc.line :
		    r->loc.line, "%s", "a 5x5 board", NULL);
		return;
	}
	if (find_problem(r, format, out) || find_server(r, format, t, out) ||
	    find_wars(r, format, t, out))
		return;
}

void
venue_ruleset(const struct venue *v, const struct record *r,
    const struct ruleset *overrides, struct ruleset *out)
{
	const struct ruleset *base = ruleset_by_name(v->set);

	if (v->stated) {
		/* As stated: the set printed with the result is the header's. */
		*out = v->rules;
		if (overrides)
			ruleset_merge(out, overrides);
		return;
	}
	*out = *(base ? base : ruleset_default());
	out->overridden = 0;
	/*
	 * The venue's limit is printed with the set ("csa,max-moves=0"):
	 * the printed set must reproduce the result with --rules. Marking
	 * it overridden changes nothing else, as the record states none.
	 */
	if (v->max_moves >= 0 && v->max_moves != out->max_moves &&
	    adjudicate_stated_limit(r) < 0) {
		out->max_moves = v->max_moves;
		out->overridden |= 1u << RS_MAX_MOVES;
	}
	if (overrides)
		ruleset_merge(out, overrides);
}
