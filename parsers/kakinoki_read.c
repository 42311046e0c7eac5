/*
 * kakinoki_read.c - the half of reading KIF and KI2 that the two formats
 * share (formats.md 3 and 4).
 *
 * What the real files taught: header values keep ASCII colons and
 * trailing U+3000 (trimmed), and some writers use an ASCII colon after
 * the key; header lines also come after the board (9fu.kif puts the
 * player names there); the BOD board wins over 手合割 (Kifu for iPhone
 * writes 平手 above a tsume diagram); hands are separated by U+3000, by
 * ASCII blanks with one left at the end, or not at all; 変化 blocks come
 * depth-first and may be nested; a まで line ends most lines of play and
 * is the only result a KI2 file has.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/adjudicate.h"
#include "core/sfen.h"
#include "core/xalloc.h"
#include "core/zobrist.h"
#include "kakinoki.h"
#include "kakinoki_read.h"

enum kk_line { KK_LINE_OK, KK_LINE_NOT_MINE, KK_LINE_FAILED };

/* Quoted input is cut to this many bytes, so a junk line stays readable. */
#define QUOTE_MAX 48
/* Digits a move number or a まで count may have. */
#define NUMBER_DIGITS 7

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static size_t
starts(const char *s, size_t n, const char *word)
{
	size_t k = strlen(word);

	return n >= k && memcmp(s, word, k) == 0 ? k : 0;
}

static int
equals(const char *s, size_t n, const char *word)
{
	return strlen(word) == n && memcmp(s, word, n) == 0;
}

size_t
kk_skip_blanks(const char *p, size_t n, size_t i)
{
	/* U+3000 is E3 80 80; called for every token of every line. */
	for (;;) {
		if (i < n && (p[i] == ' ' || p[i] == '\t'))
			i++;
		else if (i + 3 <= n && (unsigned char)p[i] == 0xe3 &&
		    (unsigned char)p[i + 1] == 0x80 &&
		    (unsigned char)p[i + 2] == 0x80)
			i += 3;
		else
			return i;
	}
}

int
kk_qlen(const char *s, size_t n)
{
	size_t k = n < QUOTE_MAX ? n : QUOTE_MAX;

	while (k < n && k > 0 && ((unsigned char)s[k] & 0xc0) == 0x80)
		k--;
	return (int)k;
}

size_t
kk_char_len(const char *s, size_t n)
{
	size_t k = n ? utf8_valid_seq((const unsigned char *)s, n) : 0;

	return k ? k : 1;
}

/*
 * The span of len bytes at byte `at` of the current line. Columns are
 * counted on from the previous span of the line, so that a KI2 line of
 * many moves stays linear.
 */
static struct span
kk_span(struct kk *st, size_t at, size_t len)
{
	struct span sp = text_span(st->t, st->li, 0, len);

	if (st->col_li != st->li || at < st->col_at) {
		st->col_li = st->li;
		st->col_at = 0;
		st->col = 0;
	}
	st->col += (uint32_t)utf8_count(st->p + st->col_at, at - st->col_at);
	st->col_at = at;
	sp.col = st->col + 1;
	sp.byte += (uint32_t)at;
	return sp;
}

static void
vreport(struct kk *st, enum diag_severity sev, enum diag_id id, size_t at,
    size_t len, int ply, const char *fmt, va_list ap)
{
	struct span sp = kk_span(st, at, len);
	char msg[256];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	diag_add(st->d, sev, diag_id_name(id), &sp, ply, "%s", msg);
}

int
kk_error(struct kk *st, enum diag_id id, size_t at, size_t len, int ply,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(st, DIAG_ERROR, id, at, len, ply, fmt, ap);
	va_end(ap);
	return -1;
}

void
kk_warning(struct kk *st, enum diag_id id, size_t at, size_t len, int ply,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(st, DIAG_WARNING, id, at, len, ply, fmt, ap);
	va_end(ap);
}

/* "unexpected 'x' in <what>": the character at `at` is quoted. */
static int
unexpected(struct kk *st, size_t at, int ply, const char *what)
{
	size_t k = at < st->n ? kk_char_len(st->p + at, st->n - at) : 0;

	if (!k)
		return kk_error(st, DIAG_SYNTAX, at, 0, ply, "%s ends too soon",
		    what);
	return kk_error(st, DIAG_SYNTAX, at, k, ply, "unexpected '%.*s' in %s",
	    (int)k, st->p + at, what);
}

static void
kk_init(struct kk *st, struct reader *rd, struct record *r,
    struct diag_list *d, int ki2)
{
	memset(st, 0, sizeof(*st));
	st->rd = rd;
	st->t = rd->t;
	st->r = r;
	st->d = d;
	st->v = rd->v ? rd->v : variant_standard();
	st->ki2 = ki2;
	st->li = rd->line;
	st->col_li = (size_t)-1;
	st->handicap = HANDICAP_NONE;
	comment_batch_init(&st->cb);
	position_clear(&st->pos, st->v);
	r->v = st->v;
	ALLOC_GROW(st->at_ply, 1, st->aply);
	st->at_ply[0] = 0;
	st->nply = 1;
}

static void
kk_release(struct kk *st)
{
	comment_batch_release(&st->cb);
	free(st->at_ply);
	st->at_ply = NULL;
}

static void
kk_load_line(struct kk *st)
{
	st->p = text_line_ptr(st->t, st->li);
	st->n = text_trim_end(st->p, st->t->lines[st->li].len);
}

/*
 * The start position is on the board of v from here on: what 手合割
 * names, or the shape of the board diagram, which says more than the
 * caller's default. Only before a rank is read, so nothing is lost.
 */
static void
use_variant(struct kk *st, const struct variant *v)
{
	if (st->v == v || st->ranks)
		return;
	st->v = v;
	st->r->v = v;
	position_clear(&st->pos, v);
}

/* ---- comments and bookmarks ---- */

static void
flush_comments(struct kk *st)
{
	comment_batch_flush(&st->cb, st->r);
}

static void
add_comment(struct kk *st, const char *s, size_t n)
{
	comment_batch_add(&st->cb, st->r, st->cur, s, n);
}

/* "*text": the comment keeps its trailing blanks, as written. */
static void
read_comment(struct kk *st, size_t at)
{
	size_t whole = st->t->lines[st->li].len;

	add_comment(st, st->p + at + 1, whole - at - 1);
}

static void
read_bookmark(struct kk *st, size_t at)
{
	struct record_node *nd = &st->r->nodes[st->cur];
	size_t n = st->n - at - 1;

	if (!n)
		return;
	if (nd->bookmark) {
		kk_warning(st, DIAG_SYNTAX, at, st->n - at, nd->ply,
		    "ignoring a second bookmark '%.*s' for one move",
		    kk_qlen(st->p + at + 1, n), st->p + at + 1);
		return;
	}
	nd->bookmark = record_intern(st->r, st->p + at + 1, n);
}

/* ---- headers ---- */

/* Where the first colon (ASCII or full-width) is; n if none. */
static size_t
colon_at(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] == ':' || starts(p + i, n - i, "："))
			break;
	return i;
}

/* What 手合割 names: the start, unless a board follows. */
static void
read_handicap(struct kk *st, size_t at, size_t vat)
{
	const char *s = st->p + vat;
	size_t n = st->n - vat;
	enum handicap h;

	if (!n)
		return;
	if (st->started) {
		kk_warning(st, DIAG_UNKNOWN_HANDICAP, at, st->n - at, 0,
		    "ignoring '手合割' after the moves");
		return;
	}
	h = kakinoki_handicap_by_name(s, n);
	st->handicap = h;
	st->handicap_odd = 0;
	st->handicap_loc = kk_span(st, at, st->n - at);
	if (h == HANDICAP_NONE) {
		st->handicap_odd = equals(s, n, "その他") ? 2 : 1;
		if (st->handicap_odd == 1)
			kk_warning(st, DIAG_UNKNOWN_HANDICAP, vat, n, 0,
			    "unknown handicap '%.*s'", kk_qlen(s, n), s);
	} else {
		/* The name says which game the board is of. */
		use_variant(st, h == HANDICAP_MINISHOGI ? variant_minishogi() :
		    variant_standard());
	}
}

/* "KEY：VALUE" or "KEY:VALUE": the key runs up to the first colon. */
static enum kk_line
read_header(struct kk *st, size_t at)
{
	const char *p = st->p;
	size_t i = at + colon_at(p + at, st->n - at), clen, vat;
	enum header_id id;
	struct span sp;

	if (i == st->n)
		return KK_LINE_NOT_MINE;
	clen = p[i] == ':' ? 1 : strlen("：");
	if (i == at)
		return kk_error(st, DIAG_SYNTAX, at, clen, 0,
		    "header line without a key"), KK_LINE_FAILED;
	vat = i + clen;
	id = kakinoki_header_id(p + at, i - at);
	sp = kk_span(st, at, st->n - at);
	record_add_header(st->r, p + at, i - at, p + vat, st->n - vat, id,
	    &sp);
	if (id == HDR_HANDICAP)
		read_handicap(st, at, vat);
	return KK_LINE_OK;
}

/*
 * "#KIF version=2.0 encoding=Shift_JIS" (and "#KI2 ..."): text.c has
 * decoded by it already; it is kept as version and encoding headers so
 * that a writer knows what the file said. Other '#' lines are comments
 * for programs (banners, URLs): kept whole as raw headers.
 */
static void
read_hash(struct kk *st, size_t at)
{
	const char *p = st->p + at;
	size_t n = st->n - at, i = 4;
	struct span sp = kk_span(st, at, n);

	if (!starts(p, n, "#KIF ") && !starts(p, n, "#KI2 ")) {
		record_add_header(st->r, p, n, NULL, 0, HDR_RAW, &sp);
		return;
	}
	while (i < n) {
		size_t k, eq;

		while (i < n && p[i] == ' ')
			i++;
		for (k = i; k < n && p[k] != ' '; k++)
			;
		for (eq = i; eq < k && p[eq] != '='; eq++)
			;
		if (eq == k || eq == i) {
			/* Not the line kifu knows: keep it as written. */
			record_add_header(st->r, p, n, NULL, 0, HDR_RAW, &sp);
			return;
		}
		i = k;
	}
	for (i = 4; i < n;) {
		size_t k, eq;

		while (i < n && p[i] == ' ')
			i++;
		if (i == n)
			break;
		for (k = i; k < n && p[k] != ' '; k++)
			;
		for (eq = i; p[eq] != '='; eq++)
			;
		if (equals(p + i, eq - i, "version")) {
			char key[16];

			snprintf(key, sizeof(key), "%.3s version", p + 1);
			record_add_header(st->r, key, strlen(key), p + eq + 1,
			    k - eq - 1, HDR_VERSION, &sp);
		} else {
			record_add_header(st->r, p + i, eq - i, p + eq + 1,
			    k - eq - 1, equals(p + i, eq - i, "encoding") ?
			    HDR_ENCODING : HDR_OTHER, &sp);
		}
		i = k;
	}
}

/* ---- the start position (BOD) ---- */

static int
board_too_late(struct kk *st, size_t at)
{
	return kk_error(st, DIAG_SYNTAX, at, st->n - at, kk_next_ply(st),
	    "start position after the moves");
}

/*
 * "|v香v桂 ・ ... v香|一": cells are found by scanning rather than by
 * column, so odd spacing reads; the owner is 'v'/'V' (White) or a blank,
 * '+' or '^' (Black); a cell may hold a two-character name (成香).
 */
static int
read_rank(struct kk *st, size_t at)
{
	const char *p = st->p;
	size_t n = st->n, i = at + 1;
	int files = st->ranks ? st->v->files : FILE_NB, cell, rank, count = 0;
	piece cells[FILE_NB];
	unsigned r;

	if (st->started)
		return board_too_late(st, at);
	if (!st->ranks) {
		st->board_loc = kk_span(st, at, n - at);
		st->r->start_loc = st->board_loc;
	}
	for (cell = 0; cell < files; cell++) {
		enum color c = BLACK;
		enum piece_type pt;
		size_t k;

		i = kk_skip_blanks(p, n, i);
		/* The first rank says the board: five cells are minishogi. */
		if (!st->ranks && cell == variant_minishogi()->files &&
		    i < n && p[i] == '|')
			break;
		if (i < n && (p[i] == 'v' || p[i] == 'V')) {
			c = WHITE;
			i++;
		} else if (i < n && (p[i] == '+' || p[i] == '^')) {
			i++;
		}
		if ((k = starts(p + i, n - i, "・"))) {
			cells[cell] = PIECE_NONE;
		} else if ((k = kakinoki_read_piece(p + i, n - i, &pt))) {
			cells[cell] = piece_make(c, pt);
		} else {
			return unexpected(st, i, 0, "a board rank");
		}
		i += k;
	}
	if (!st->ranks)
		use_variant(st, cell == FILE_NB ? variant_standard() :
		    variant_minishogi());
	files = st->v->files;
	i = kk_skip_blanks(p, n, i);
	if (i >= n || p[i] != '|')
		return unexpected(st, i, 0, "a board rank");
	i = kk_skip_blanks(p, n, i + 1);
	for (r = st->ranks; r; r &= r - 1)
		count++;
	rank = count + 1;
	if (i < n) {
		size_t k = kakinoki_read_digit(p + i, n - i, &rank);

		if (!k)
			return unexpected(st, i, 0, "a board rank");
		if (kk_skip_blanks(p, n, i + k) != n)
			return unexpected(st, kk_skip_blanks(p, n, i + k), 0,
			    "a board rank");
	}
	if (rank > st->v->ranks)
		return kk_error(st, DIAG_BAD_POSITION, at, n - at, 0,
		    "rank %d is off a board of %d ranks", rank, st->v->ranks);
	if (st->ranks & (1u << (rank - 1)))
		return kk_error(st, DIAG_BAD_POSITION, at, n - at, 0,
		    "rank %d given twice", rank);
	st->ranks |= 1u << (rank - 1);
	for (cell = 0; cell < files; cell++)
		position_put(&st->pos, sq_make(files - 1 - cell, rank - 1),
		    cells[cell]);
	return 0;
}

/* The side a 先手/後手/下手/上手 word names; returns bytes read. */
static size_t
read_side_word(const char *s, size_t n, enum color *c)
{
	size_t k;

	if ((k = starts(s, n, "先手")) || (k = starts(s, n, "下手")))
		*c = BLACK;
	else if ((k = starts(s, n, "後手")) || (k = starts(s, n, "上手")))
		*c = WHITE;
	else
		k = kakinoki_read_mark(s, n, c);
	return k;
}

/*
 * "先手の持駒：歩十七　香三" and the other spellings: items are a piece
 * and a count, separated by blanks, '、' or nothing; なし or nothing at
 * all is an empty hand.
 */
static int
read_hand(struct kk *st, size_t at, enum color c, size_t i)
{
	const char *p = st->p;
	size_t n = st->n;
	int pt;

	if (st->started)
		return board_too_late(st, at);
	if (!st->hand_lines++)
		st->hand_loc = kk_span(st, at, n - at);
	for (pt = 0; pt < HAND_NB; pt++)
		st->hand[c][pt] = 0;
	i = kk_skip_blanks(p, n, i);
	if (equals(p + i, n - i, "なし"))
		return 0;
	while (i < n) {
		enum piece_type t;
		size_t k;
		int count = 1;

		if ((k = starts(p + i, n - i, "、")) ||
		    (k = starts(p + i, n - i, ",")) ||
		    (k = starts(p + i, n - i, "，"))) {
			i = kk_skip_blanks(p, n, i + k);
			continue;
		}
		if (!(k = kakinoki_read_piece(p + i, n - i, &t)))
			return unexpected(st, i, 0, "pieces in hand");
		if (t == PT_KING || pt_is_promoted(t))
			return kk_error(st, DIAG_BAD_POSITION, i, k, 0,
			    "'%.*s' cannot be in hand", (int)k, p + i);
		i += k;
		if ((k = kakinoki_read_count(p + i, n - i, &count)))
			i += k;
		st->hand[c][t] += count;
		if (st->hand[c][t] > KK_HAND_CAP)
			st->hand[c][t] = KK_HAND_CAP;
		i = kk_skip_blanks(p, n, i);
	}
	return 0;
}

/*
 * The files of a board the line is the file numbers above: nine, five
 * (minishogi), or 0 if it is no such line. Move lines start with a
 * number too and ask this every time: the first number alone says which
 * width to try.
 */
int
kk_column_header_files(const struct kk *st)
{
	size_t i = kk_skip_blanks(st->p, st->n, 0), k;
	int want, files, d;

	/* The widths of shogi's and minishogi's boards (core/variant.c). */
	if (!(k = kakinoki_read_digit(st->p + i, st->n - i, &want)) ||
	    (want != FILE_NB && want != 5))
		return 0;
	files = want;
	while (--want >= 1) {
		i = kk_skip_blanks(st->p, st->n, i + k);
		if (!(k = kakinoki_read_digit(st->p + i, st->n - i, &d)) ||
		    d != want)
			return 0;
	}
	return kk_skip_blanks(st->p, st->n, i + k) == st->n ? files : 0;
}

/* ASCII or full-width decimal digits; bytes read, 0 if none or too long. */
static size_t
read_number(const char *s, size_t n, int *value)
{
	size_t i = 0, k;
	int v = 0, digits = 0;

	for (;;) {
		if (i < n && s[i] >= '0' && s[i] <= '9') {
			v = v * 10 + (s[i] - '0');
			k = 1;
		} else if (n - i >= 3 && (unsigned char)s[i] == 0xef &&
		    (unsigned char)s[i + 1] == 0xbc &&
		    (unsigned char)s[i + 2] >= 0x90 &&
		    (unsigned char)s[i + 2] <= 0x99) {
			v = v * 10 + ((unsigned char)s[i + 2] - 0x90);
			k = 3;
		} else {
			break;
		}
		if (++digits > NUMBER_DIGITS)
			return 0;
		i += k;
	}
	*value = v;
	return i;
}

/*
 * "手数＝12  ▲７六歩  まで": the trailer of a bare BOD. The position is
 * the one after that many moves, which only changes its move number; the
 * line is kept as written.
 */
static int
read_bod_trailer(struct kk *st, size_t at, size_t i)
{
	struct span sp = kk_span(st, at, st->n - at);
	int moves;
	size_t k = read_number(st->p + i, st->n - i, &moves);

	if (!k)
		return unexpected(st, i, 0, "a '手数＝' line");
	if (!st->started)
		st->move_number = moves + 1;
	record_add_header(st->r, st->p + at, st->n - at, NULL, 0, HDR_RAW,
	    &sp);
	return 0;
}

static void
set_side(struct position *pos, enum color side)
{
	if (side != pos->side) {
		pos->side = side;
		pos->board_key ^= zobrist_side;
	}
}

/*
 * The start position: the board if there is one, else the 手合割 start,
 * else the even game. A position with two kings of a side cannot be
 * played; other impossibilities are kept with a warning (the 9fu
 * puzzles put nine pawns on one file), as in parsers/csa.c.
 */
int
kk_settle(struct kk *st)
{
	struct position *pos = &st->pos;
	struct sfen_error e;
	struct span sp = st->r->loc;
	int c, pt;

	if (st->started)
		return 0;
	st->started = 1;
	if (st->ranks) {
		unsigned all = (1u << st->v->ranks) - 1;

		sp = st->board_loc;
		if (st->ranks != all) {
			diag_add(st->d, DIAG_ERROR,
			    diag_id_name(DIAG_BAD_POSITION), &sp, 0,
			    "the board lacks ranks");
			return -1;
		}
		for (c = 0; c < COLOR_NB; c++)
			for (pt = PT_PAWN; pt < HAND_NB; pt++)
				position_hand_set(pos, (enum color)c,
				    (enum piece_type)pt, st->hand[c][pt]);
		set_side(pos, st->side_line ? st->side : BLACK);
	} else {
		for (c = 0; c < COLOR_NB; c++)
			for (pt = PT_PAWN; pt < HAND_NB; pt++)
				if (st->hand[c][pt]) {
					diag_add(st->d, DIAG_ERROR,
					    diag_id_name(DIAG_BAD_POSITION),
					    &st->hand_loc, 0,
					    "pieces in hand but no board");
					return -1;
				}
		if (st->handicap != HANDICAP_NONE)
			handicap_position(st->handicap, pos);
		else
			position_set_start(pos, st->v);
		if (st->handicap_odd == 2)
			diag_add(st->d, DIAG_WARNING,
			    diag_id_name(DIAG_UNKNOWN_HANDICAP),
			    &st->handicap_loc, 0,
			    "'手合割：その他' without a board: assuming the "
			    "even game");
		if (st->side_line)
			set_side(pos, st->side);
	}
	if (st->move_number)
		pos->move_number = st->move_number;
	if (position_validate(pos, &e) != SFEN_OK) {
		int fatal = !sfen_impossible_is_playable(&e);

		diag_add(st->d, fatal ? DIAG_ERROR : DIAG_WARNING,
		    diag_id_name(DIAG_BAD_POSITION), &sp, 0,
		    "impossible start position (%s): %s", e.id, e.message);
		if (fatal)
			return -1;
	}
	st->r->start = *pos;
	st->r->v = pos->v;
	st->r->handicap = handicap_identify(pos);
	return 0;
}

static int
kk_finish(struct kk *st)
{
	if (kk_settle(st) < 0)
		return -1;
	flush_comments(st);
	return 0;
}

/* ---- the tree ---- */

int32_t
kk_add(struct kk *st, const struct move_spec *spec, enum special sp,
    size_t at, size_t len)
{
	struct record *r = st->r;
	int32_t node = record_add_node(r, st->cur);
	struct record_node *nd;
	size_t ply;

	nd = &r->nodes[node];
	ply = (size_t)nd->ply;
	ALLOC_GROW(st->at_ply, ply + 1, st->aply);
	if (st->nply <= ply)
		st->nply = ply + 1;
	st->at_ply[ply] = node;
	if (spec)
		nd->spec = *spec;
	nd->special = (uint8_t)sp;
	nd->loc = kk_span(st, at, len);
	nd->raw = record_intern(r, st->p + at, len);
	st->cur = node;
	if (!st->in_variation)
		st->main_end = node;
	return node;
}

int
kk_after_end(struct kk *st, size_t at, size_t len)
{
	const struct record_node *t = &st->r->nodes[st->cur];

	if (!st->after_end)
		kk_warning(st, DIAG_MOVE_AFTER_END, at, len, t->ply + 1,
		    "ignoring '%.*s' and what follows after '%s'",
		    kk_qlen(st->p + at, len), st->p + at,
		    record_str(st->r, t->raw));
	st->after_end = 1;
	return 0;
}

/*
 * "変化：N手" where no line reaches move N: some editors write the rest
 * of the line that ends at move N-1 so (formats.md 3.8 has only
 * alternatives). That line is the one written last that reaches N-1; it
 * goes on, with a warning, unless it ended with a terminal.
 */
static int
continue_line(struct kk *st, size_t at, int ply)
{
	int32_t end = st->at_ply[ply - 1];
	const struct record_node *nd = &st->r->nodes[end];

	if (nd->special != SP_NONE)
		return kk_error(st, DIAG_SYNTAX, at, st->n - at, ply,
		    "variation of move %d, but no line reaches it (the line "
		    "of move %d ends with '%s')", ply, ply - 1,
		    record_str(st->r, nd->raw));
	kk_warning(st, DIAG_SYNTAX, at, st->n - at, ply,
	    "'%.*s': no line reaches move %d, so this continues the line "
	    "that ends at move %d", kk_qlen(st->p + at, st->n - at),
	    st->p + at, ply, ply - 1);
	st->cur = end;
	st->in_variation = end != st->main_end;
	return 0;
}

/*
 * "変化：N手" (also with blanks before N): an alternative to move N of
 * the line written last among those that reach N.
 */
static int
read_variation(struct kk *st, size_t at)
{
	const char *p = st->p;
	size_t n = st->n, i = at + strlen("変化"), k;
	int ply;

	i = kk_skip_blanks(p, n, i);
	if ((k = starts(p + i, n - i, "：")) || (k = starts(p + i, n - i, ":")))
		i += k;
	else
		return unexpected(st, i, 0, "a '変化' line");
	i = kk_skip_blanks(p, n, i);
	if (!(k = read_number(p + i, n - i, &ply)))
		return unexpected(st, i, 0, "a '変化' line");
	i = kk_skip_blanks(p, n, i + k);
	if (!(k = starts(p + i, n - i, "手")))
		return unexpected(st, i, 0, "a '変化' line");
	if (kk_skip_blanks(p, n, i + k) != n)
		return unexpected(st, kk_skip_blanks(p, n, i + k), 0,
		    "a '変化' line");
	if (kk_settle(st) < 0)
		return -1;
	st->played = 1;
	st->after_end = 0;
	st->summary_line = 0;
	/* Move 1 has no line before it to go on. */
	if (ply >= 2 && (size_t)ply == st->nply)
		return continue_line(st, at, ply);
	if (ply < 1 || (size_t)ply >= st->nply)
		return kk_error(st, DIAG_SYNTAX, at, n - at, ply,
		    "variation of move %d, but no line reaches it", ply);
	st->cur = st->r->nodes[st->at_ply[ply]].parent;
	st->in_variation = 1;
	return 0;
}

/* ---- まで lines (formats.md 3.9) ---- */

enum sum_kind {
	SUM_WIN, SUM_TIME_WIN, SUM_FOUL_WIN, SUM_FOUL_LOSS, SUM_DECL_WIN,
	SUM_DECLARE, SUM_ABORT, SUM_SENNICHITE, SUM_IMPASSE, SUM_MATE,
	SUM_NO_MATE, SUM_SEALED, SUM_MAX_MOVES
};

struct summary {
	int moves;		/* the N of "まで N手" */
	enum sum_kind kind;
	enum color side;	/* the player named, for the *_WIN/LOSS kinds */
};

/* Endings that name no player ("まで3手で中断"). */
static const struct {
	const char *word;
	enum sum_kind kind;
} plain_words[] = {
	{ "中断", SUM_ABORT },
	{ "千日手", SUM_SENNICHITE },
	{ "持将棋", SUM_IMPASSE },
	{ "詰み", SUM_MATE },
	{ "詰", SUM_MATE },
	{ "不詰", SUM_NO_MATE },
	{ "封じ手", SUM_SEALED },
	{ "最大手数", SUM_MAX_MOVES },
	/* cshogi's exporter */
	{ "入玉宣言", SUM_DECLARE },
};

/* Endings after "<player>の". */
static const struct {
	const char *word;
	enum sum_kind kind;
} player_words[] = {
	{ "勝ち", SUM_WIN },
	{ "反則勝ち", SUM_FOUL_WIN },
	{ "反則負け", SUM_FOUL_LOSS },
	{ "入玉勝ち", SUM_DECL_WIN },
};

static int
parse_summary(const char *p, size_t n, struct summary *s)
{
	size_t i = strlen("まで"), k, j;

	if ((k = starts(p + i, n - i, "、")))
		i += k;
	i = kk_skip_blanks(p, n, i);
	if (!(k = read_number(p + i, n - i, &s->moves)))
		return -1;
	i += k;
	if (!(k = starts(p + i, n - i, "手")))
		return -1;
	i += k;
	if (equals(p + i, n - i, "詰") || equals(p + i, n - i, "詰み")) {
		s->kind = SUM_MATE;
		return 0;
	}
	if (!(k = starts(p + i, n - i, "で")))
		return -1;
	i += k;
	for (j = 0; j < NELEM(plain_words); j++)
		if (equals(p + i, n - i, plain_words[j].word)) {
			s->kind = plain_words[j].kind;
			return 0;
		}
	if ((k = starts(p + i, n - i, "時間切れにより"))) {
		i += k;
		if (!(k = read_side_word(p + i, n - i, &s->side)))
			return -1;
		s->kind = SUM_TIME_WIN;
		return equals(p + i + k, n - i - k, "の勝ち") ? 0 : -1;
	}
	if (!(k = read_side_word(p + i, n - i, &s->side)))
		return -1;
	i += k;
	if (!(k = starts(p + i, n - i, "の")))
		return -1;
	i += k;
	for (j = 0; j < NELEM(player_words); j++)
		if (equals(p + i, n - i, player_words[j].word)) {
			s->kind = player_words[j].kind;
			return 0;
		}
	return -1;
}

static enum winner
winner_of(enum color c)
{
	return c == BLACK ? WINNER_BLACK : WINNER_WHITE;
}

/* The side to move at slot `slot` (1 = the first move). */
static enum color
side_at(const struct kk *st, int slot)
{
	return (enum color)((st->r->start.side + slot - 1) & 1);
}

/*
 * The result the words state. *stated is 0 when they name no reason
 * ("先手の勝ち": nearly always a resignation, but a record of a foul or
 * of a resignation out of turn writes the same).
 */
static void
summary_result(const struct kk *st, const struct summary *s,
    struct game_result *res, int *stated)
{
	enum color s_side = side_at(st, s->moves + 1);

	*stated = 1;
	res->ply = s->moves;
	res->winner = WINNER_NONE;
	switch (s->kind) {
	case SUM_WIN:
		res->winner = winner_of(s->side);
		res->reason = REASON_RESIGN;
		*stated = 0;
		break;
	case SUM_TIME_WIN:
		res->winner = winner_of(s->side);
		res->reason = REASON_TIME_UP;
		break;
	case SUM_FOUL_WIN:
		res->winner = winner_of(s->side);
		res->reason = REASON_ILLEGAL_MOVE;
		break;
	case SUM_FOUL_LOSS:
		res->winner = winner_of(color_flip(s->side));
		res->reason = REASON_ILLEGAL_MOVE;
		break;
	case SUM_DECL_WIN:
		res->winner = winner_of(s->side);
		res->reason = REASON_DECLARATION;
		break;
	case SUM_DECLARE:
		res->winner = winner_of(s_side);
		res->reason = REASON_DECLARATION;
		break;
	case SUM_MATE:
		res->winner = winner_of(color_flip(s_side));
		res->reason = REASON_CHECKMATE;
		break;
	case SUM_ABORT: res->reason = REASON_ABORT; break;
	case SUM_SENNICHITE: res->reason = REASON_SENNICHITE; break;
	case SUM_IMPASSE: res->reason = REASON_IMPASSE; break;
	case SUM_MAX_MOVES: res->reason = REASON_MAX_MOVES; break;
	case SUM_NO_MATE:
	case SUM_SEALED:
		res->reason = REASON_UNFINISHED;
		break;
	}
}

/*
 * The terminal the words mean at a slot whose side to move is s_side;
 * SP_NONE when no terminal says it ("先手の勝ち" with Black to move).
 */
static enum special
summary_special(const struct summary *s, enum color s_side)
{
	switch (s->kind) {
	case SUM_WIN:
		return s->side != s_side ? SP_RESIGN : SP_NONE;
	case SUM_TIME_WIN:
		return s->side != s_side ? SP_TIME_UP : SP_NONE;
	case SUM_FOUL_WIN:
		return s->side == s_side ? SP_ILLEGAL_WIN : SP_ILLEGAL_MOVE;
	case SUM_FOUL_LOSS:
		return s->side == s_side ? SP_ILLEGAL_MOVE : SP_ILLEGAL_WIN;
	case SUM_DECL_WIN:
		return s->side == s_side ? SP_DECLARATION : SP_NONE;
	case SUM_DECLARE: return SP_DECLARATION;
	case SUM_ABORT: return SP_ABORT;
	case SUM_SENNICHITE: return SP_SENNICHITE;
	case SUM_IMPASSE: return SP_IMPASSE;
	case SUM_MATE: return SP_MATE;
	case SUM_NO_MATE: return SP_NO_MATE;
	case SUM_SEALED: return SP_SEALED;
	case SUM_MAX_MOVES: return SP_MAX_MOVES;
	}
	return SP_NONE;
}

/*
 * Checks the まで line against the terminal of its line (KIF: the
 * terminal is what counts). A plain "<player>の勝ち" takes its reason
 * from the terminal when they agree on the winner.
 */
static void
check_summary(struct kk *st, size_t at, int32_t term,
    struct game_result *res, int stated)
{
	const struct record_node *t = &st->r->nodes[term];
	struct game_result tr;

	if (t->special == SP_UNKNOWN)
		return;
	adjudicate_special((enum special)t->special, side_at(st, t->ply), &tr);
	if (tr.winner != res->winner || (stated && tr.reason != res->reason)) {
		kk_warning(st, DIAG_RESULT_MISMATCH, at, st->n - at, t->ply,
		    "'%.*s' says %s (%s), but the line ends with '%s'",
		    kk_qlen(st->p + at, st->n - at), st->p + at,
		    res->winner == WINNER_NONE ? "no winner" :
		    res->winner == WINNER_BLACK ? "black wins" : "white wins",
		    reason_name(res->reason), record_str(st->r, t->raw));
		/* The terminal line is authoritative (formats.md 3.9). */
		res->winner = tr.winner;
		res->reason = tr.reason;
	} else if (!stated) {
		res->reason = tr.reason;
	}
}

/*
 * "まで77手で先手の勝ち" and the other forms. The first one of the main
 * line is the record's stated result; in KI2 each one also ends its line
 * with the terminal it means (KI2 has no terminal lines).
 */
static int
read_summary(struct kk *st, size_t at)
{
	const char *p = st->p + at;
	size_t n = st->n - at;
	struct game_result res;
	struct summary s;
	int stated, main_line = !st->in_variation, played;
	int32_t term;

	if (kk_settle(st) < 0)
		return -1;
	if (parse_summary(p, n, &s) < 0) {
		kk_warning(st, DIAG_SYNTAX, at, n, 0,
		    "unreadable result line '%.*s'", kk_qlen(p, n), p);
		if (main_line && !st->r->recorded_raw)
			st->r->recorded_raw = record_intern(st->r, p, n);
		return 0;
	}
	if (st->summary_line) {
		kk_warning(st, DIAG_RESULT_MISMATCH, at, n, 0,
		    "ignoring a second result line for one line of play");
		return 0;
	}
	st->summary_line = 1;
	summary_result(st, &s, &res, &stated);
	term = kk_ended(st) ? st->cur : -1;
	if (term < 0 && st->ki2) {
		enum special sp = summary_special(&s,
		    side_at(st, kk_next_ply(st)));

		if (sp != SP_NONE)
			term = kk_add(st, NULL, sp, at, n);
	} else if (term >= 0) {
		check_summary(st, at, term, &res, stated);
	}
	played = term >= 0 ? st->r->nodes[term].ply - 1 :
	    st->r->nodes[st->cur].ply;
	if (s.moves != played)
		kk_warning(st, DIAG_RESULT_MISMATCH, at, n, played + 1,
		    "'%.*s' counts %d moves, but the line has %d",
		    kk_qlen(p, n), p, s.moves, played);
	if (main_line && !st->r->has_recorded) {
		st->r->has_recorded = 1;
		st->r->recorded = res;
		st->r->recorded_raw = record_intern(st->r, p, n);
		st->r->recorded_loc = kk_span(st, at, n);
	}
	return 0;
}

/* ---- move text ---- */

static const struct {
	const char *word;
	uint8_t rel;
} rel_words[] = {
	{ "右", REL_RIGHT }, { "左", REL_LEFT }, { "直", REL_STRAIGHT },
	{ "上", REL_UP }, { "寄", REL_SIDEWAYS }, { "引", REL_DOWN },
	/* older print usage for 上 (formats.md 4.2) */
	{ "行", REL_UP }, { "入", REL_UP },
};

/* One ASCII or full-width digit 0..9; bytes read, 0 if none. */
static size_t
read_origin_digit(const char *s, size_t n, int *d)
{
	if (n >= 1 && s[0] >= '0' && s[0] <= '9') {
		*d = s[0] - '0';
		return 1;
	}
	return read_number(s, n < 3 ? n : 3, d) == 3 ? 3 : 0;
}

/* "(77)" after a move; "(00)" marks a drop. */
static size_t
read_origin(struct kk *st, size_t at, size_t n, int ply,
    struct move_spec *spec)
{
	const char *p = st->p;
	size_t i = at + 1, k;
	int f, r;

	if (!(k = read_origin_digit(p + i, n - i, &f)))
		return unexpected(st, i, ply, "a move's origin"), 0;
	i += k;
	if (!(k = read_origin_digit(p + i, n - i, &r)))
		return unexpected(st, i, ply, "a move's origin"), 0;
	i += k;
	if (i >= n || p[i] != ')')
		return unexpected(st, i, ply, "a move's origin"), 0;
	i++;
	if (f == 0 && r == 0) {
		spec->flags |= SPEC_DROP;
		return i - at;
	}
	if (spec->flags & SPEC_DROP)
		return kk_error(st, DIAG_SYNTAX, at, i - at, ply,
		    "a drop cannot have an origin"), 0;
	if (f < 1 || r < 1 || f > st->v->files || r > st->v->ranks)
		return kk_error(st, DIAG_SYNTAX, at, i - at, ply,
		    "origin '%.*s' is off the board", (int)(i - at), p + at),
		    0;
	spec->from = (uint8_t)sq_make(f - 1, r - 1);
	return i - at;
}

/* The destination: a square or 同; returns the bytes read, 0 on error. */
static size_t
read_destination(struct kk *st, size_t at, size_t n, unsigned flags,
    int ply, struct move_spec *spec)
{
	const char *p = st->p;
	size_t i = at, k;
	int f, r;

	if ((k = starts(p + i, n - i, "同"))) {
		spec->flags |= SPEC_SAME;
		return kk_skip_blanks(p, n, i + k) - at;
	}
	if (!(k = kakinoki_read_digit(p + i, n - i, &f)))
		return unexpected(st, i, ply, "a move"), 0;
	i += k;
	if (!(k = kakinoki_read_digit(p + i, n - i, &r)))
		return unexpected(st, i, ply, "a move's destination"), 0;
	i += k;
	if (f > st->v->files || r > st->v->ranks)
		return kk_error(st, DIAG_SYNTAX, at, i - at, ply,
		    "square '%.*s' is off the board", (int)(i - at), p + at),
		    0;
	spec->to = (uint8_t)sq_make(f - 1, r - 1);
	/* "３三同金": printed sources write both. */
	if ((flags & KK_KI2) && (k = starts(p + i, n - i, "同"))) {
		kk_warning(st, DIAG_SYNTAX, at, i + k - at, ply,
		    "'%.*s': a square and '同' together", (int)(i + k - at),
		    p + at);
		i = kk_skip_blanks(p, n, i + k);
	}
	return i - at;
}

size_t
kk_read_move(struct kk *st, size_t at, size_t n, unsigned flags, int ply,
    struct move_spec *spec)
{
	const char *p = st->p;
	size_t i = at, k, j;
	enum piece_type pt;

	if (!(k = read_destination(st, i, n, flags, ply, spec)))
		return 0;
	i += k;
	if (starts(p + i, n - i, "合"))
		return kk_error(st, DIAG_SYNTAX, i, 3, ply,
		    "'合' (any interposition) names no move"), 0;
	if (!(k = kakinoki_read_piece(p + i, n - i, &pt))) {
		if (i >= n)
			return kk_error(st, DIAG_SYNTAX, i, 0, ply,
			    "move '%.*s' names no piece", (int)(i - at),
			    p + at), 0;
		k = kk_char_len(p + i, n - i);
		return kk_error(st, DIAG_SYNTAX, i, k, ply,
		    "unexpected '%.*s' where the move's piece should be",
		    (int)k, p + i), 0;
	}
	spec->piece = (uint8_t)pt;
	i += k;
	while ((flags & KK_KI2) && i < n) {
		for (j = 0; j < NELEM(rel_words); j++)
			if ((k = starts(p + i, n - i, rel_words[j].word)))
				break;
		if (j == NELEM(rel_words))
			break;
		if (spec->rel & rel_words[j].rel)
			return kk_error(st, DIAG_SYNTAX, i, k, ply,
			    "'%s' written twice", rel_words[j].word), 0;
		spec->rel |= rel_words[j].rel;
		i += k;
	}
	if ((k = starts(p + i, n - i, "成"))) {
		spec->flags |= SPEC_PROMOTE;
		i += k;
	} else if ((k = starts(p + i, n - i, "不成"))) {
		spec->flags |= SPEC_NO_PROMOTE;
		i += k;
	} else if ((flags & KK_KI2) && (k = starts(p + i, n - i, "生"))) {
		kk_warning(st, DIAG_SYNTAX, i, k, ply,
		    "'生' read as '不成'");
		spec->flags |= SPEC_NO_PROMOTE;
		i += k;
	} else if ((k = starts(p + i, n - i, "打"))) {
		spec->flags |= SPEC_DROP;
		i += k;
	}
	if (i < n && p[i] == '(') {
		if (!(k = read_origin(st, i, n, ply, spec)))
			return 0;
		i += k;
	}
	/*
	 * "同　歩打" reads: a drop onto the square just moved to, which
	 * replay refuses (occupied), as it judges every move.
	 */
	return i - at;
}

/* ---- the shared line classes ---- */

/* "手数----指手---------消費時間--": the optional line before the moves. */
static int
read_separator(struct kk *st, size_t i)
{
	const char *p = st->p;
	size_t n = st->n, k;

	st->played = 1;
	for (i += strlen("手数"); i < n; i += k) {
		if (p[i] == '-')
			k = 1;
		else if (!(k = starts(p + i, n - i, "指手")) &&
		    !(k = starts(p + i, n - i, "消費時間")))
			return unexpected(st, i, 0,
			    "the line before the moves");
	}
	return 0;
}

/*
 * "先手の持駒：" and its spellings (下手 for 先手, 上手 for 後手 in
 * handicap games); returns the offset after the colon, 0 if none.
 */
static size_t
hand_label(const char *p, size_t n, enum color *c)
{
	size_t k, j;

	/* Side marks name a side too, but never a hand. */
	if (!starts(p, n, "先手") && !starts(p, n, "後手") &&
	    !starts(p, n, "下手") && !starts(p, n, "上手"))
		return 0;
	k = read_side_word(p, n, c);
	if (!(j = starts(p + k, n - k, "の持駒")))
		return 0;
	k += j;
	if ((j = starts(p + k, n - k, "：")) || (j = starts(p + k, n - k, ":")))
		return k + j;
	return 0;
}

static enum kk_line
line_result(int rc)
{
	return rc < 0 ? KK_LINE_FAILED : KK_LINE_OK;
}

/*
 * 盤面回転 (Kifu for Windows; users and some programs say 盤面反転): the
 * record was saved with its board shown as White sees it. Kifu for
 * Windows writes it among the headers, before or after the board; a
 * viewer reads it anywhere, and so does kifu.
 */
static enum kk_line
read_flipped(struct kk *st, size_t at)
{
	if (!st->r->flipped)
		st->r->flipped_loc = kk_span(st, at, st->n - at);
	st->r->flipped = 1;
	return KK_LINE_OK;
}

static enum kk_line
kk_read_line(struct kk *st)
{
	const char *p = st->p;
	size_t n = st->n, i = kk_skip_blanks(p, n, 0), k;
	enum color c;

	if (i == n)
		return KK_LINE_OK;
	st->lines++;
	switch (p[i]) {
	case '#':
		read_hash(st, i);
		return KK_LINE_OK;
	case '*':
		read_comment(st, i);
		return KK_LINE_OK;
	case '&':
		read_bookmark(st, i);
		return KK_LINE_OK;
	case '|':
		return line_result(read_rank(st, i));
	case '+':
		for (k = i; k < n && (p[k] == '+' || p[k] == '-'); k++)
			;
		if (k == n)
			return line_result(st->started ?
			    board_too_late(st, i) : 0);
		return KK_LINE_NOT_MINE;
	default:
		break;
	}
	if (starts(p + i, n - i, "まで"))
		return line_result(read_summary(st, i));
	if (starts(p + i, n - i, "変化"))
		return line_result(read_variation(st, i));
	if ((k = starts(p + i, n - i, "手数")) && k < n - i && p[i + k] == '-')
		return line_result(read_separator(st, i));
	if ((k = starts(p + i, n - i, "手数＝")))
		return line_result(read_bod_trailer(st, i, i + k));
	if (equals(p + i, n - i, "盤面回転") || equals(p + i, n - i, "盤面反転"))
		return read_flipped(st, i);
	if (equals(p + i, n - i, "先手番") || equals(p + i, n - i, "下手番") ||
	    equals(p + i, n - i, "後手番") || equals(p + i, n - i, "上手番")) {
		if (st->started)
			return line_result(board_too_late(st, i));
		read_side_word(p + i, n - i, &st->side);
		st->side_line = 1;
		return KK_LINE_OK;
	}
	if ((k = hand_label(p + i, n - i, &c)))
		return line_result(read_hand(st, i, c, i + k));
	if ((k = (size_t)kk_column_header_files(st))) {
		if (st->started)
			return line_result(board_too_late(st, i));
		use_variant(st, (int)k == variant_minishogi()->files ?
		    variant_minishogi() : variant_standard());
		return KK_LINE_OK;
	}
	return read_header(st, i);
}

/* ---- lines after the game ---- */

/*
 * Whether the line is part of the play: a move line of the format, a
 * move that lacks its number or mark ("７六歩", "▲同　銀" in KIF), a 変化
 * line or the separator. What follows the last of them is after the
 * game; a damaged move is never taken for a trailer.
 */
static int
is_play_line(const struct kk *st, const struct kk_format *f)
{
	const char *p = st->p;
	size_t n = st->n, i = kk_skip_blanks(p, n, 0), k, j;
	enum piece_type pt;
	enum color c;
	int d;

	if (i == n)
		return 0;
	if (f->is_move_line(st) || starts(p + i, n - i, "変化") ||
	    ((k = starts(p + i, n - i, "手数")) && k < n - i &&
	    p[i + k] == '-'))
		return 1;
	if ((k = kakinoki_read_mark(p + i, n - i, &c)))
		i = kk_skip_blanks(p, n, i + k);
	if ((k = starts(p + i, n - i, "同")))
		i = kk_skip_blanks(p, n, i + k);
	else if ((k = kakinoki_read_digit(p + i, n - i, &d)) &&
	    (j = kakinoki_read_digit(p + i + k, n - i - k, &d)))
		i += k + j;
	else
		return 0;
	return kakinoki_read_piece(p + i, n - i, &pt) != 0;
}

/*
 * The line after the last play line of the text. Looked for once, from
 * the end, and only when a line cannot be read: what comes after a game
 * is a few lines, so reading stays linear and costs nothing otherwise.
 * Lines up to the current one are not looked at.
 */
static size_t
find_tail(struct kk *st, const struct kk_format *f)
{
	size_t li = st->t->nlines, tail = st->li;

	while (--li > st->li) {
		st->p = text_line_ptr(st->t, li);
		st->n = text_trim_end(st->p, st->t->lines[li].len);
		if (is_play_line(st, f)) {
			tail = li + 1;
			break;
		}
	}
	kk_load_line(st);
	return tail;
}

/*
 * Whether the current line, which kifu cannot read, comes after the game:
 * after its play lines, and no damaged one itself.
 */
static int
after_game(struct kk *st, const struct kk_format *f)
{
	if (!st->played || is_play_line(st, f))
		return 0;
	if (!st->tail)
		st->tail = find_tail(st, f);
	return st->li >= st->tail;
}

/* A rule drawn under the game ("-----", "=====", "─────"). */
static int
is_rule(const char *p, size_t n)
{
	static const char *const strokes[] = {
		"-", "=", "_", "─", "━", "－", "＝",
	};
	size_t i = 0, j, k;

	while (i < n) {
		for (j = 0; j < NELEM(strokes); j++)
			if ((k = starts(p + i, n - i, strokes[j])))
				break;
		if (j == NELEM(strokes))
			return 0;
		i += k;
	}
	return 1;
}

/*
 * A line after the game that kifu cannot read (a site's "後手時間切れ", a
 * program's "generated by ..."): kept whole as a raw header, which the
 * KIF and KI2 writers write as a '#' line, and said, unless it is a rule.
 */
static void
keep_after_game(struct kk *st)
{
	size_t b = kk_skip_blanks(st->p, st->n, 0), len = st->n - b;
	struct span sp = kk_span(st, b, len);

	record_add_header(st->r, st->p + b, len, NULL, 0, HDR_RAW, &sp);
	if (!is_rule(st->p + b, len))
		kk_warning(st, DIAG_UNKNOWN_LINE, b, len, 0,
		    "unknown line '%.*s' after the game: kept as a '#' line",
		    kk_qlen(st->p + b, len), st->p + b);
}

/* ---- the record ---- */

static enum read_status
read_record(struct kk *st, const struct kk_format *f)
{
	size_t lines = st->t->nlines;

	for (; st->li < lines; st->li++) {
		enum kk_line lr;

		kk_load_line(st);
		if (!st->n)
			continue;
		if (st->r->loc.line == 0)
			st->r->loc = text_span(st->t, st->li, 0, st->n);
		if (f->is_move_line(st)) {
			st->lines++;
			st->played = 1;
			if (f->read_move_line(st) < 0)
				return READ_ERROR;
		} else {
			lr = kk_read_line(st);
			if (lr == KK_LINE_FAILED)
				return READ_ERROR;
			if (lr == KK_LINE_NOT_MINE && after_game(st, f)) {
				keep_after_game(st);
			} else if (lr == KK_LINE_NOT_MINE) {
				size_t b = kk_skip_blanks(st->p, st->n, 0);

				kk_error(st, DIAG_SYNTAX, b, st->n - b,
				    kk_next_ply(st), "unreadable line '%.*s'",
				    kk_qlen(st->p + b, st->n - b), st->p + b);
				return READ_ERROR;
			}
		}
		if (reader_check_limits(st->rd, st->r, st->li, st->d) < 0)
			return READ_ERROR;
	}
	if (!st->lines)
		return READ_EOF;
	return kk_finish(st) < 0 ? READ_ERROR : READ_OK;
}

enum read_status
kk_read(struct reader *rd, struct record *out, struct diag_list *d,
    const struct kk_format *f)
{
	enum read_status rs;
	struct kk st;

	if (rd->done || !rd->t || rd->line >= rd->t->nlines) {
		rd->done = 1;
		return READ_EOF;
	}
	kk_init(&st, rd, out, d, f->ki2);
	rs = read_record(&st, f);
	kk_release(&st);
	/* One record a file: whatever happened, the text is used up. */
	rd->line = rd->t->nlines;
	rd->done = 1;
	if (rs != READ_EOF)
		rd->nread++;
	return rs;
}

/* ---- detection ---- */

/* Bytes of a line detection looks at. */
#define DETECT_BYTES 256

/* Whether p starts a move text: a destination or 同. */
static int
looks_like_move(const char *p, size_t n)
{
	size_t k;
	int d;

	if (starts(p, n, "同"))
		return 1;
	return (k = kakinoki_read_digit(p, n, &d)) &&
	    kakinoki_read_digit(p + k, n - k, &d);
}

/*
 * The moves of a KI2 line: marks followed by a move. Every side mark
 * (▲△▼▽☗☖) starts with the byte 0xE2, and most characters of a line do
 * not: looking for the marks only there keeps detection cheap, which
 * every file read pays for, KIF and KI2 alike.
 */
static int
count_ki2_moves(const char *p, size_t n)
{
	size_t i = 0, k;
	enum color c;
	int moves = 0;

	while (i < n) {
		if ((unsigned char)p[i] == 0xE2 &&
		    (k = kakinoki_read_mark(p + i, n - i, &c))) {
			moves += looks_like_move(p + i + k, n - i - k);
			i += k;
		} else {
			i += kk_char_len(p + i, n - i);
		}
	}
	return moves;
}

/* "   1 ７六歩(77)" or "  5 投了": a number, blanks, a move or a word. */
static int
looks_like_kif_move(const char *p, size_t n)
{
	size_t i = kk_skip_blanks(p, n, 0), j, k;
	enum color c;

	for (j = i; j < n && p[j] >= '0' && p[j] <= '9'; j++)
		;
	if (j == i)
		return 0;
	i = kk_skip_blanks(p, n, j);
	if ((k = kakinoki_read_mark(p + i, n - i, &c)))
		i += k;
	if (looks_like_move(p + i, n - i))
		return 1;
	for (j = i; j < n && p[j] != ' ' && p[j] != '('; j++)
		;
	return kakinoki_special_by_word(p + i, j - i) != SP_NONE;
}

/*
 * A header line: a key KIF knows, or any key before a full-width colon
 * (users make up keys; an ASCII colon alone says little).
 */
static int
is_header(const char *p, size_t n)
{
	size_t i = colon_at(p, n);

	return i < n && i > 0 && (kakinoki_header_id(p, i) != HDR_OTHER ||
	    starts(p + i, n - i, "："));
}

void
kk_gather_evidence(const struct text *t, size_t max_lines,
    struct kk_evidence *e)
{
	size_t li, lines = t->nlines < max_lines ? t->nlines : max_lines;

	memset(e, 0, sizeof(*e));
	for (li = 0; li < lines; li++) {
		const char *p = text_line_ptr(t, li);
		size_t n = text_trim_end(p, t->lines[li].len), i, k;
		enum color c;

		if (n > DETECT_BYTES)
			n = DETECT_BYTES;
		i = kk_skip_blanks(p, n, 0);
		if (i == n)
			continue;
		p += i;
		n -= i;
		if (starts(p, n, "#KIF "))
			e->kif_hash++;
		else if (starts(p, n, "#KI2 "))
			e->ki2_hash++;
		else if (p[0] == '#' || p[0] == '*' || p[0] == '&')
			continue;
		else if ((k = kakinoki_read_mark(p, n, &c)) &&
		    looks_like_move(p + k, n - k))
			e->ki2_moves += count_ki2_moves(p, n);
		else if (looks_like_kif_move(p, n))
			e->kif_moves++;
		else if (starts(p, n, "手数-"))
			e->separators++;
		else if (p[0] == '|' || starts(p, n, "+-") ||
		    starts(p, n, "まで") ||
		    starts(p, n, "変化") || is_header(p, n) ||
		    starts(p, n, "先手の持駒") || starts(p, n, "後手の持駒") ||
		    starts(p, n, "下手の持駒") || starts(p, n, "上手の持駒"))
			e->known++;
		else if (colon_at(p, n) == n)
			e->unknown++;
	}
}
