/*
 * usi.c - reading SFEN and USI position lines (formats.md section 5).
 *
 * One game per non-blank line: a bare SFEN, "sfen <SFEN>", "startpos" or
 * "position startpos|sfen <SFEN>", each optionally followed by
 * "moves m1 m2 ...". The move list may end in one result token, the
 * tsshogi extension (formats.md 0.2 and 5.2):
 *
 *   resign    SP_RESIGN            the side to move resigns
 *   win       SP_DECLARATION       the side to move declares (entering king)
 *   draw      SP_DRAW_DECLARATION  tsshogi writes "draw" for a declared
 *                                  draw (CSA %HIKIWAKE) and keeps
 *                                  "rep_draw" for repetition, so "draw"
 *                                  cannot mean sennichite here
 *   rep_draw  SP_SENNICHITE
 *   break     SP_ABORT
 *   timeout   SP_TIME_UP
 *
 * Only syntax is judged here; whether the moves are legal is replay's
 * business.
 */
#include <string.h>

#include "core/handicap.h"
#include "core/sfen.h"
#include "core/usi.h"
#include "format.h"

static const struct {
	const char *word;
	enum special sp;
} terminals[] = {
	{ "resign", SP_RESIGN },
	{ "win", SP_DECLARATION },
	{ "draw", SP_DRAW_DECLARATION },
	{ "rep_draw", SP_SENNICHITE },
	{ "break", SP_ABORT },
	{ "timeout", SP_TIME_UP },
};

#define N_TERMINALS (sizeof(terminals) / sizeof(terminals[0]))

/* A valid SFEN is far shorter; longer ones only come from junk. */
#define SFEN_COPY_MAX 512

/* How many lines detection looks at: enough to judge, bounded for speed. */
#define DETECT_LINES 64
/* Bytes of a line detection looks at. */
#define DETECT_BYTES 256

static int
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int
token_is(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && memcmp(s, word, len) == 0;
}

static enum special
terminal_of(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < N_TERMINALS; i++)
		if (token_is(s, len, terminals[i].word))
			return terminals[i].sp;
	return SP_NONE;
}


/* The next blank-separated token at or after *at; 0 if none is left. */
static int
next_token(const char *p, size_t n, size_t *at, size_t *start, size_t *len)
{
	size_t i = *at;

	while (i < n && is_blank(p[i]))
		i++;
	if (i == n) {
		*at = i;
		return 0;
	}
	*start = i;
	while (i < n && !is_blank(p[i]))
		i++;
	*len = i - *start;
	*at = i;
	return 1;
}

/*
 * Where the parser is on its line. Spans are made left to right, so the
 * column is counted on from the previous span instead of from the start
 * of the line: a line of a million moves stays linear.
 */
struct line_ctx {
	const struct text *t;
	size_t line;		/* 0-based index into t->lines */
	const char *p;
	size_t n;		/* trimmed length */
	size_t col_at;		/* byte the cached column belongs to */
	uint32_t col;
};

static struct span
span_at(struct line_ctx *lc, size_t at, size_t len)
{
	struct span sp;

	if (at < lc->col_at) {
		lc->col_at = 0;
		lc->col = 1;
	}
	lc->col += (uint32_t)utf8_count(lc->p + lc->col_at, at - lc->col_at);
	lc->col_at = at;
	sp.line = (uint32_t)(lc->line + 1);
	sp.col = lc->col;
	sp.byte = lc->t->lines[lc->line].off + (uint32_t)at;
	sp.len = (uint32_t)len;
	return sp;
}

/*
 * How much of a token to quote in a message: junk can be megabytes long,
 * and a cut must not split a UTF-8 sequence.
 */
static int
quote_len(const char *s, size_t len)
{
	size_t n = len;

	if (n > 24) {
		n = 24;
		while (n && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	return (int)n;
}

static enum read_status
syntax_error(struct line_ctx *lc, struct diag_list *d, size_t at,
    size_t len, const char *msg, const char *tok, size_t toklen)
{
	struct span sp = span_at(lc, at, len);

	if (tok)
		diag_add(d, DIAG_ERROR, diag_id_name(DIAG_SYNTAX), &sp, 0,
		    "'%.*s%s' %s", quote_len(tok, toklen), tok,
		    (size_t)quote_len(tok, toklen) < toklen ? "..." : "", msg);
	else
		diag_add(d, DIAG_ERROR, diag_id_name(DIAG_SYNTAX), &sp, 0,
		    "%s", msg);
	return READ_ERROR;
}

/*
 * Reads the SFEN starting at byte `at` into r->start and stores where it
 * ends in *end. The board's shape says which game it is; v is for one
 * whose shape is wrong. The SFEN reader wants a NUL-terminated string
 * and the line is not one, so the SFEN's own tokens (at most four, never
 * a "moves") are copied out first.
 */
static enum read_status
read_start(struct line_ctx *lc, const struct variant *v, struct record *r,
    size_t at, size_t *end, struct diag_list *d)
{
	char small[SFEN_COPY_MAX];
	struct strbuf big = STRBUF_INIT;
	struct sfen_error err;
	struct position pos;
	enum sfen_status st;
	size_t i = at, stop = at, start, len, consumed = 0;
	const char *s;
	int k;

	/*
	 * Up to a "moves" the blanks before it are kept, so that a field
	 * found missing is reported where "moves" stands.
	 */
	for (k = 0; k < 4 && next_token(lc->p, lc->n, &i, &start, &len); k++) {
		if (token_is(lc->p + start, len, "moves")) {
			stop = start;
			break;
		}
		if (k == 0) {
			const struct variant *shape =
			    sfen_board_variant(lc->p + start, len);

			if (shape)
				v = shape;
		}
		stop = start + len;
	}
	if (stop - at < sizeof(small)) {
		memcpy(small, lc->p + at, stop - at);
		small[stop - at] = '\0';
		s = small;
	} else {
		strbuf_add(&big, lc->p + at, stop - at);
		s = big.buf;
	}
	st = sfen_read_prefix(&pos, v, s, &consumed, &err);
	strbuf_release(&big);
	if (st == SFEN_SYNTAX) {
		const unsigned char *bad =
		    (const unsigned char *)lc->p + at + err.offset;
		size_t left = lc->n - (at + err.offset);
		size_t seq = left && *bad >= 0x80 ?
		    utf8_valid_seq(bad, left) : 0;
		struct span sp = span_at(lc, at + err.offset, seq ? seq :
		    left != 0);

		/* The SFEN reader quotes one byte, half a character here. */
		if (seq)
			diag_add(d, DIAG_ERROR, diag_id_name(DIAG_SYNTAX), &sp,
			    0, "bad SFEN: unexpected '%.*s'", (int)seq,
			    (const char *)bad);
		else
			diag_add(d, DIAG_ERROR, diag_id_name(DIAG_SYNTAX), &sp,
			    0, "bad SFEN: %s", err.message);
		return READ_ERROR;
	}
	if (st == SFEN_IMPOSSIBLE) {
		struct span sp = span_at(lc, at + err.offset, stop - at);
		int playable = sfen_impossible_is_playable(&err);

		diag_add(d, playable ? DIAG_WARNING : DIAG_ERROR,
		    diag_id_name(DIAG_BAD_POSITION), &sp, 0,
		    "impossible start position (%s): %s", err.id, err.message);
		if (!playable)
			return READ_ERROR;
	}
	r->start = pos;
	r->v = pos.v;
	r->handicap = handicap_identify(&r->start);
	*end = at + consumed;
	return READ_OK;
}

/* Reads the position part of the line; *at is left after it. */
static enum read_status
read_position(struct line_ctx *lc, const struct variant *v,
    struct record *r, size_t *at, struct diag_list *d)
{
	size_t i = *at, start, len;
	const char *p = lc->p;

	if (!next_token(p, lc->n, &i, &start, &len))
		return syntax_error(lc, d, i, 0, "empty line", NULL, 0);
	if (token_is(p + start, len, "position")) {
		if (!next_token(p, lc->n, &i, &start, &len))
			return syntax_error(lc, d, i, 0,
			    "'position' needs 'startpos' or 'sfen <SFEN>'",
			    NULL, 0);
		if (!token_is(p + start, len, "startpos") &&
		    !token_is(p + start, len, "sfen"))
			return syntax_error(lc, d, start, len,
			    "after 'position' is not 'startpos' or 'sfen'",
			    p + start, len);
	}
	if (token_is(p + start, len, "startpos")) {
		/*
		 * The caller's record_reset already set the variant's start;
		 * reading its SFEN again per game would cost a fifth of the
		 * time on files of many short games.
		 */
		if (r->start.v != v)
			position_set_start(&r->start, v);
		r->v = v;
		r->handicap = v == variant_minishogi() ? HANDICAP_MINISHOGI :
		    HANDICAP_EVEN;
		*at = i;
		return READ_OK;
	}
	if (token_is(p + start, len, "sfen")) {
		size_t after = i;

		if (!next_token(p, lc->n, &after, &start, &len))
			return syntax_error(lc, d, after, 0,
			    "'sfen' is not followed by a position", NULL, 0);
	} else if (token_is(p + start, len, "moves")) {
		return syntax_error(lc, d, start, len,
		    "moves without a position (startpos or an SFEN) first",
		    NULL, 0);
	}
	return read_start(lc, v, r, start, at, d);
}

static enum read_status
read_moves(struct line_ctx *lc, const struct reader *rd, struct record *r,
    size_t at, struct diag_list *d)
{
	const struct variant *v = r->start.v;
	const char *p = lc->p;
	size_t i = at, start, len, term_at = 0, term_len = 0;
	int32_t parent = 0;
	int ended = 0;

	if (!next_token(p, lc->n, &i, &start, &len))
		return READ_OK;
	if (!token_is(p + start, len, "moves"))
		return syntax_error(lc, d, start, len,
		    "where 'moves' or the end of the line was expected",
		    p + start, len);
	while (next_token(p, lc->n, &i, &start, &len)) {
		struct move_claim c;
		struct record_node *nd;
		enum special sp = SP_NONE;
		int32_t idx;

		if (ended)
			return syntax_error(lc, d, term_at, term_len,
			    "ends the game but is not the last token",
			    p + term_at, term_len);
		if (usi_parse_move(v, p + start, len, &c) != 0 &&
		    (sp = terminal_of(p + start, len)) == SP_NONE)
			return syntax_error(lc, d, start, len,
			    "is not a USI move", p + start, len);
		idx = record_add_node(r, parent);
		nd = &r->nodes[idx];
		nd->loc = span_at(lc, start, len);
		if (sp != SP_NONE) {
			nd->special = (uint8_t)sp;
			ended = 1;
			term_at = start;
			term_len = len;
		} else if (c.drop) {
			nd->spec.flags = SPEC_DROP;
			nd->spec.from = SQ_NONE;
			nd->spec.to = (uint8_t)c.to;
			nd->spec.piece = (uint8_t)c.piece;
		} else {
			nd->spec.flags = c.promote ? SPEC_PROMOTE : 0;
			nd->spec.from = (uint8_t)c.from;
			nd->spec.to = (uint8_t)c.to;
		}
		nd->raw = record_intern(r, p + start, len);
		parent = idx;
		/* One line holds the whole game: check as it grows. */
		if (reader_check_limits(rd, r, lc->line, d) < 0)
			return READ_ERROR;
	}
	return READ_OK;
}

enum read_status
usi_read(struct reader *rd, struct record *r, struct diag_list *d)
{
	const struct text *t = rd->t;
	struct line_ctx lc;
	enum read_status st;
	size_t at = 0;

	for (;;) {
		const char *p;
		size_t n, k = 0;

		if (rd->line >= t->nlines) {
			rd->done = 1;
			return READ_EOF;
		}
		p = text_line_ptr(t, rd->line);
		n = text_trim_end(p, t->lines[rd->line].len);
		while (k < n && is_blank(p[k]))
			k++;
		if (k < n && p[k] != '#')
			break;
		rd->line++;
	}
	lc.t = t;
	lc.line = rd->line++;
	lc.p = text_line_ptr(t, lc.line);
	lc.n = text_trim_end(lc.p, t->lines[lc.line].len);
	lc.col_at = 0;
	lc.col = 1;
	rd->nread++;
	r->v = rd->v;
	r->loc = span_at(&lc, 0, lc.n);
	if ((st = read_position(&lc, rd->v, r, &at, d)) != READ_OK)
		return st;
	return read_moves(&lc, rd, r, at, d);
}

/*
 * Whether a token looks like an SFEN board: piece letters, digits, '+'
 * and the slashes of a 9- or 5-rank board.
 */
static int
looks_like_board(const char *s, size_t len)
{
	size_t i, slashes = 0;

	for (i = 0; i < len; i++) {
		char c = s[i];

		if (c == '/')
			slashes++;
		else if (!(c >= '1' && c <= '9') && c != '+' &&
		    !strchr("plnsgbrkPLNSGBRK", c))
			return 0;
	}
	return slashes == 8 || slashes == 4;
}

/* Whether a line starts like one of the forms usi_read accepts. */
static int
looks_like_usi(const char *p, size_t n)
{
	size_t i = 0, start, len;

	if (n > DETECT_BYTES)
		n = DETECT_BYTES;
	if (!next_token(p, n, &i, &start, &len))
		return 0;
	if (token_is(p + start, len, "position")) {
		if (!next_token(p, n, &i, &start, &len))
			return 0;
		return token_is(p + start, len, "startpos") ||
		    token_is(p + start, len, "sfen");
	}
	if (token_is(p + start, len, "startpos"))
		return 1;
	if (token_is(p + start, len, "sfen") &&
	    !next_token(p, n, &i, &start, &len))
		return 0;
	if (!looks_like_board(p + start, len) ||
	    !next_token(p, n, &i, &start, &len))
		return 0;
	return token_is(p + start, len, "b") || token_is(p + start, len, "w");
}

int
usi_detect(const struct text *t)
{
	size_t i, good = 0, bad = 0;

	for (i = 0; i < t->nlines && good + bad < DETECT_LINES; i++) {
		const char *p = text_line_ptr(t, i);
		size_t n = text_trim_end(p, t->lines[i].len), k = 0;

		while (k < n && is_blank(p[k]))
			k++;
		if (k == n || p[k] == '#')
			continue;
		if (looks_like_usi(p + k, n - k))
			good++;
		else
			bad++;
	}
	if (!good)
		return 0;
	/* Every line a game: near certain; a stray line lowers the score. */
	return (int)(90 * good / (good + bad));
}
