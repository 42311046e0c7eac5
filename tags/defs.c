/*
 * defs.c - reading definitions (defs.h) and compiling them for the
 * matcher. The reader is strict: a word it does not know is an error
 * at its line and column, never a guess, since a definition misread
 * would name games wrongly without a word of warning.
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tags/defs.h"
#include "core/core.h"
#include "core/strbuf.h"
#include "core/text.h"
#include "core/xalloc.h"

/* Bounds on what a file may ask for: a hostile file meets them. */
#define LINE_MAX_BYTES 4096
#define DEFS_MAX 2048
#define TERMS_MAX 64
#define IDS_MAX 64
#define LABEL_MAX_BYTES 256
#define LABELS_MAX 8192

static const char *const kind_names[TAG_KIND_NB] = {
	"mark", "style", "opening", "castle", "game"
};

static const char *const matchup_names[MATCHUP_NB] = {
	"相居飛車", "対抗型", "相振り飛車"
};

const char *
tag_kind_name(enum tag_kind k)
{
	return kind_names[k];
}

const char *
tag_matchup_name(enum tag_matchup m)
{
	return m == MATCHUP_NONE ? "" : matchup_names[m];
}

enum tag_matchup
tag_matchup_parse(const char *s, size_t n)
{
	int i;

	for (i = 0; i < MATCHUP_NB; i++)
		if (strlen(matchup_names[i]) == n &&
		    memcmp(matchup_names[i], s, n) == 0)
			return (enum tag_matchup)i;
	/* The spelling without okurigana that older records use. */
	if (n == strlen("相振飛車") && memcmp(s, "相振飛車", n) == 0)
		return MATCHUP_RANGING;
	return MATCHUP_NONE;
}

/* --- the set ------------------------------------------------------------ */

struct tagdefs *
tagdefs_new(void)
{
	struct tagdefs *d = xcalloc(1, sizeof(*d));

	return d;
}

static void
def_release(struct tag_def *t)
{
	free(t->terms);
	free(t->requires.v);
	free(t->requires_opp.v);
	free(t->unless.v);
	free(t->unless_opp.v);
	free(t->replaces.v);
	free(t->either.v);
	free(t->both.v);
	free(t->reads.v);
	free(t->board);
	free(t->body);
}

static void
compiled_release(struct tagdefs *d)
{
	size_t i;

	for (i = 0; i < 2; i++) {
		free(d->arrive[i]);
		free(d->leave[i]);
		free(d->arrive_any[i]);
		free(d->leave_any[i]);
		d->arrive[i] = d->leave[i] = NULL;
		d->arrive_any[i] = d->leave_any[i] = NULL;
	}
	free(d->lmasks);
	free(d->hand_defs);
	free(d->dep_defs);
	free(d->side_defs);
	free(d->dep_own);
	free(d->dep_opp);
	free(d->variants);
	for (i = 0; i < d->nstarts; i++)
		free(d->starts[i].defs);
	free(d->starts);
	for (i = 0; i < d->nends; i++)
		free(d->ends[i].defs);
	free(d->ends);
	free(d->holds);
	free(d->plyset);
	d->plyset = NULL;
	d->nplyset = 0;
	d->ends = NULL;
	d->holds = NULL;
	d->nends = d->nholds = 0;
	d->lmasks = NULL;
	d->hand_defs = d->dep_defs = d->side_defs = NULL;
	d->dep_own = d->dep_opp = d->variants = NULL;
	d->starts = NULL;
	d->nstarts = 0;
	d->compiled = 0;
}

void
tagdefs_free(struct tagdefs *d)
{
	size_t i;

	if (!d)
		return;
	compiled_release(d);
	for (i = 0; i < d->n; i++)
		def_release(&d->v[i]);
	free(d->v);
	for (i = 0; i < d->nlabels; i++)
		free(d->labels[i]);
	free(d->labels);
	for (i = 0; i < d->nsources; i++)
		free(d->sources[i]);
	free(d->sources);
	free(d);
}

uint32_t
tagdefs_find_label(const struct tagdefs *d, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < d->nlabels; i++)
		if (strlen(d->labels[i]) == n && memcmp(d->labels[i], s, n) == 0)
			return (uint32_t)i;
	return (uint32_t)-1;
}

static uint32_t
intern(struct tagdefs *d, const char *s, size_t n)
{
	uint32_t id = tagdefs_find_label(d, s, n);

	if (id != (uint32_t)-1)
		return id;
	ALLOC_GROW(d->labels, d->nlabels + 1, d->alabels);
	d->labels[d->nlabels] = xstrndup(s, n);
	return (uint32_t)d->nlabels++;
}

/* --- reading ------------------------------------------------------------ */

/* What reading one text needs: where it is, and where errors go. */
struct reading {
	struct tagdefs *d;	/* labels are interned here */
	struct diag_list *dl;
	const char *src;
	size_t n, off;
	uint32_t line;		/* of the line being read */
	const char *lp;		/* its first byte */
	int errors;
	struct tag_def *v;	/* what the text defines, in its order */
	size_t nv, av;
	struct strbuf body;	/* the field lines of the current definition */
	struct strbuf board;
};

static void
err_at(struct reading *rd, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
err_at(struct reading *rd, const char *at, const char *fmt, ...)
{
	struct span loc;
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	memset(&loc, 0, sizeof(loc));
	loc.line = rd->line;
	loc.col = at ? 1 + (uint32_t)utf8_count(rd->lp,
	    (size_t)(at - rd->lp)) : 0;
	loc.byte = at ? (uint32_t)(at - rd->src) : 0;
	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	diag_add(rd->dl, DIAG_ERROR, diag_id_name(DIAG_SYNTAX), &loc, 0, "%s",
	    msg.buf);
	strbuf_release(&msg);
	rd->errors++;
}

/* A word: bytes up to a blank (space, tab) or the end. */
struct word {
	const char *p;
	size_t n;
};

static int
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Splits p[0..n) into words; returns how many (at most max). */
static size_t
split(const char *p, size_t n, struct word *w, size_t max, size_t *more)
{
	size_t i = 0, k = 0;

	*more = 0;
	while (i < n) {
		size_t s;

		while (i < n && is_blank(p[i]))
			i++;
		if (i >= n)
			break;
		s = i;
		while (i < n && !is_blank(p[i]))
			i++;
		if (k < max) {
			w[k].p = p + s;
			w[k].n = i - s;
			k++;
		} else {
			(*more)++;
		}
	}
	return k;
}

static int
word_is(const struct word *w, const char *s)
{
	return w->n == strlen(s) && memcmp(w->p, s, w->n) == 0;
}

/* A label: valid UTF-8 without control characters, not too long. */
static int
check_label(struct reading *rd, const struct word *w)
{
	size_t i = 0;

	if (w->n > LABEL_MAX_BYTES) {
		err_at(rd, w->p, "a name of more than %d bytes",
		    LABEL_MAX_BYTES);
		return -1;
	}
	while (i < w->n) {
		size_t k = utf8_valid_seq((const unsigned char *)w->p + i,
		    w->n - i);

		if (!k || (unsigned char)w->p[i] < 0x20 ||
		    (unsigned char)w->p[i] == 0x7f || w->p[i] == ',') {
			err_at(rd, w->p + i, k ? "a name may not hold '%c'" :
			    "a name that is not UTF-8%c", k ? w->p[i] : ' ');
			return -1;
		}
		i += k;
	}
	return 0;
}

static int
label(struct reading *rd, const struct word *w, uint32_t *id)
{
	if (check_label(rd, w))
		return -1;
	if (rd->d->nlabels >= LABELS_MAX) {
		err_at(rd, w->p, "more than %d names", LABELS_MAX);
		return -1;
	}
	*id = intern(rd->d, w->p, w->n);
	return 0;
}

static int
ids_add(struct reading *rd, struct tag_ids *ids, const struct word *w)
{
	uint32_t id;

	if (ids->n >= IDS_MAX) {
		err_at(rd, w->p, "more than %d names in one definition",
		    IDS_MAX);
		return -1;
	}
	if (label(rd, w, &id))
		return -1;
	ids->v = xreallocarray(ids->v, ids->n + 1, sizeof(*ids->v));
	ids->v[ids->n++] = id;
	return 0;
}

static int
piece_letter(char c, enum piece_type *pt, int *opp)
{
	static const char own[] = "PLNSBRGK";
	const char *p;

	*opp = c >= 'a' && c <= 'z';
	if (*opp)
		c = (char)(c - 'a' + 'A');
	if (!c || !(p = strchr(own, c)))
		return -1;
	*pt = (enum piece_type)(PT_PAWN + (p - own));
	return 0;
}

/* The square a side's own view (file, rank from 1) is on the board. */
static square
view_square(enum color c, int file, int rank)
{
	return c == BLACK ? sq_make(file - 1, rank - 1) :
	    sq_make(9 - file, 9 - rank);
}

/* Squares "77,67,5*": a digit or '*' for the file, then for the rank. */
static int
squares(struct reading *rd, const char *p, const char *end,
    struct tag_term *t)
{
	while (p < end) {
		int f0 = 1, f1 = 9, r0 = 1, r1 = 9, f, r;

		if (end - p < 2) {
			err_at(rd, p, "a square is a file and a rank: 77, 2*");
			return -1;
		}
		if (p[0] >= '1' && p[0] <= '9')
			f0 = f1 = p[0] - '0';
		else if (p[0] != '*') {
			err_at(rd, p, "no file '%c' (1-9 or *)", p[0]);
			return -1;
		}
		if (p[1] >= '1' && p[1] <= '9')
			r0 = r1 = p[1] - '0';
		else if (p[1] != '*') {
			err_at(rd, p + 1, "no rank '%c' (1-9 or *)", p[1]);
			return -1;
		}
		for (f = f0; f <= f1; f++)
			for (r = r0; r <= r1; r++) {
				t->mask[BLACK] |= bb_sq(view_square(BLACK, f, r));
				t->mask[WHITE] |= bb_sq(view_square(WHITE, f, r));
			}
		p += 2;
		if (p < end) {
			if (*p != ',') {
				err_at(rd, p, "squares are separated by ','");
				return -1;
			}
			if (++p == end) {
				err_at(rd, p, "a square after ','");
				return -1;
			}
		}
	}
	return 0;
}

/* K88, !P66, +r28, .55: a piece (or '.', empty) and squares. */
static int
term(struct reading *rd, struct tag_def *t, const struct word *w)
{
	const char *p = w->p, *end = w->p + w->n;
	struct tag_term tm;
	enum piece_type pt = PT_NONE;
	int opp = 0, promoted = 0;

	memset(&tm, 0, sizeof(tm));
	if (t->nterms >= TERMS_MAX) {
		err_at(rd, p, "more than %d board conditions", TERMS_MAX);
		return -1;
	}
	if (p < end && *p == '!') {
		tm.neg = 1;
		p++;
	}
	if (p < end && *p == '+') {
		promoted = 1;
		p++;
	}
	if (p >= end) {
		err_at(rd, w->p, "a piece and squares: K88, !P66, +R28, .55");
		return -1;
	}
	if (*p == '.' && !promoted) {
		p++;
	} else if (piece_letter(*p, &pt, &opp) == 0) {
		if (promoted && !pt_can_promote(pt)) {
			err_at(rd, p, "no promoted '%c'", *p);
			return -1;
		}
		if (promoted)
			pt = (enum piece_type)(pt | PT_PROMOTED);
		p++;
	} else {
		err_at(rd, p, "no piece '%c' (K R B G S N L P, lower case for "
		    "the opponent's, '.' for an empty square)", *p);
		return -1;
	}
	if (p == end) {
		err_at(rd, p, "squares after the piece: K88,87");
		return -1;
	}
	tm.type = (uint8_t)pt;
	tm.opp = (uint8_t)opp;
	if (squares(rd, p, end, &tm))
		return -1;
	t->terms = xreallocarray(t->terms, t->nterms + 1, sizeof(*t->terms));
	t->terms[t->nterms++] = tm;
	return 0;
}

/* B, !b: a piece in the side's hand (upper case) or the opponent's. */
static int
hand_term(struct reading *rd, struct tag_def *t, const struct word *w)
{
	const char *p = w->p, *end = w->p + w->n;
	enum piece_type pt;
	int neg = 0, opp;

	if (p < end && *p == '!') {
		neg = 1;
		p++;
	}
	if (end - p != 1 || piece_letter(*p, &pt, &opp) || pt == PT_KING) {
		err_at(rd, w->p, "a piece in hand: P L N S G B R (lower case "
		    "for the opponent's), '!' for none");
		return -1;
	}
	(opp ? t->hand.opp : t->hand.own)[pt] = (uint8_t)(neg ? 2 : 1);
	t->hand.any = 1;
	return 0;
}

/* A ply number: 0 .. TAG_PLY_MAX. */
static int
ply_number(const char *p, const char *end, int *v)
{
	long x = 0;

	if (p == end)
		return -1;
	for (; p < end; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		x = x * 10 + (*p - '0');
		if (x > TAG_PLY_MAX)
			return -1;
	}
	*v = (int)x;
	return 0;
}

/* N, N-M, -M, N-. */
static int
plies(struct reading *rd, struct tag_def *t, const struct word *w)
{
	const char *p = w->p, *end = w->p + w->n;
	const char *dash = memchr(p, '-', w->n);
	int from = 0, to = TAG_PLY_MAX;

	if (!dash) {
		if (ply_number(p, end, &from))
			goto bad;
		to = from;
	} else {
		if (dash > p && ply_number(p, dash, &from))
			goto bad;
		if (dash + 1 < end && ply_number(dash + 1, end, &to))
			goto bad;
		if (dash == p && dash + 1 == end)
			goto bad;
	}
	if (from > to) {
		err_at(rd, w->p, "plies %d-%d end before they start", from, to);
		return -1;
	}
	t->from = from;
	t->to = to;
	return 0;
bad:
	err_at(rd, w->p, "plies are N, N-M, -M or N- (0 to %d)", TAG_PLY_MAX);
	return -1;
}

/* Which fields a kind takes. */
enum {
	F_SIDE = 1 << 0,	/* board, hand, plies, requires, unless */
	F_GAME = 1 << 1		/* matchup, either, both, reads */
};

static unsigned
kind_fields(enum tag_kind k)
{
	return k == TAG_GAME ? F_GAME : F_SIDE;
}

static void
body_line(struct reading *rd, const char *p, size_t n, int board)
{
	strbuf_adds(&rd->body, "    ");
	strbuf_add(&rd->body, p, n);
	strbuf_addc(&rd->body, '\n');
	if (board) {
		if (rd->board.len)
			strbuf_addc(&rd->board, ' ');
		strbuf_add(&rd->board, p, n);
	}
}

/* One field line of definition t (words w[0..k), w[0] the field). */
static void
field(struct reading *rd, struct tag_def *t, struct word *w, size_t k)
{
	unsigned allowed = kind_fields(t->kind);
	const struct word *f = &w[0];
	struct tag_ids *ids = NULL;
	size_t i, first = 1;
	int need_side = 0, need_game = 0, flag = 0;

	if (word_is(f, "board")) {
		need_side = 1;
		for (i = 1; i < k; i++)
			if (term(rd, t, &w[i]))
				return;
	} else if (word_is(f, "hand")) {
		need_side = 1;
		for (i = 1; i < k; i++)
			if (hand_term(rd, t, &w[i]))
				return;
	} else if (word_is(f, "plies")) {
		if (k != 2) {
			err_at(rd, f->p, "plies takes one range: plies -40");
			return;
		}
		if (plies(rd, t, &w[1]))
			return;
	} else if (word_is(f, "hold")) {
		need_side = flag = 1;
		t->hold = 1;
	} else if (word_is(f, "default")) {
		need_side = flag = 1;
		if (t->kind != TAG_STYLE) {
			err_at(rd, f->p, "only a style is a default");
			return;
		}
		t->deflt = 1;
	} else if (word_is(f, "off")) {
		flag = 1;
		t->off = 1;
	} else if (word_is(f, "requires") || word_is(f, "unless")) {
		int req = word_is(f, "requires"), opp = k > 1 &&
		    word_is(&w[1], "opp");

		need_side = 1;
		ids = req ? (opp ? &t->requires_opp : &t->requires) :
		    (opp ? &t->unless_opp : &t->unless);
		first = 1 + (size_t)opp;
	} else if (word_is(f, "replaces")) {
		need_side = 1;
		ids = &t->replaces;
	} else if (word_is(f, "family") || word_is(f, "before")) {
		uint32_t id;

		if (k != 2) {
			err_at(rd, f->p, "%.*s takes one name", (int)f->n, f->p);
			return;
		}
		if (label(rd, &w[1], &id))
			return;
		if (word_is(f, "family"))
			t->family = id;
		else
			t->before = id + 1;
		goto check;
	} else if (word_is(f, "matchup")) {
		need_game = 1;
		if (k != 2 || (t->matchup = tag_matchup_parse(w[1].p,
		    w[1].n)) == MATCHUP_NONE) {
			err_at(rd, k > 1 ? w[1].p : f->p, "matchup is 相居飛車, "
			    "対抗型 or 相振り飛車");
			return;
		}
	} else if (word_is(f, "either") || word_is(f, "both") ||
	    word_is(f, "reads")) {
		need_game = 1;
		ids = word_is(f, "either") ? &t->either :
		    word_is(f, "both") ? &t->both : &t->reads;
	} else {
		err_at(rd, f->p, "no field '%.*s' (board, hand, plies, hold, "
		    "requires, unless, replaces, family, default, matchup, "
		    "either, both, reads, before, off)", (int)f->n, f->p);
		return;
	}
	if (flag && k != 1) {
		err_at(rd, w[1].p, "%.*s takes nothing after it", (int)f->n,
		    f->p);
		return;
	}
	if (ids) {
		if (k <= first) {
			err_at(rd, f->p, "%.*s needs a name after it",
			    (int)f->n, f->p);
			return;
		}
		for (i = first; i < k; i++)
			if (ids_add(rd, ids, &w[i]))
				return;
	}
check:
	if ((need_side && !(allowed & F_SIDE)) ||
	    (need_game && !(allowed & F_GAME)))
		err_at(rd, f->p, "a %s has no field '%.*s'",
		    tag_kind_name(t->kind), (int)f->n, f->p);
}

static void
finish_def(struct reading *rd)
{
	struct tag_def *t;

	if (!rd->nv)
		return;
	t = &rd->v[rd->nv - 1];
	if (!t->body) {
		t->body = strbuf_detach(&rd->body, NULL);
		t->board = strbuf_detach(&rd->board, NULL);
	}
}

static void
start_def(struct reading *rd, struct word *w, size_t k)
{
	struct tag_def *t;
	int i;

	finish_def(rd);
	for (i = 0; i < TAG_KIND_NB; i++)
		if (word_is(&w[0], kind_names[i]))
			break;
	if (i == TAG_KIND_NB) {
		err_at(rd, w[0].p, "no kind '%.*s' (mark, style, opening, "
		    "castle, game); a field line is indented", (int)w[0].n,
		    w[0].p);
		return;
	}
	if (k != 2) {
		err_at(rd, k < 2 ? w[0].p + w[0].n : w[2].p,
		    "a definition starts with its kind and one name");
		return;
	}
	if (rd->nv + rd->d->n >= DEFS_MAX) {
		err_at(rd, w[0].p, "more than %d definitions", DEFS_MAX);
		return;
	}
	ALLOC_GROW(rd->v, rd->nv + 1, rd->av);
	t = &rd->v[rd->nv];
	memset(t, 0, sizeof(*t));
	t->kind = (enum tag_kind)i;
	t->to = TAG_PLY_MAX;
	t->matchup = MATCHUP_NONE;
	t->line = rd->line;
	if (label(rd, &w[1], &t->name))
		return;
	t->family = t->name;
	rd->nv++;
}

static void
read_lines(struct reading *rd)
{
	struct word w[TERMS_MAX + 2];
	int in_def = 0;

	rd->line = 0;
	while (rd->off < rd->n) {
		const char *p = rd->src + rd->off, *nl, *hash;
		size_t len, k, more;

		nl = memchr(p, '\n', rd->n - rd->off);
		len = nl ? (size_t)(nl - p) : rd->n - rd->off;
		rd->off += len + (nl != NULL);
		rd->line++;
		rd->lp = p;
		if (len && p[len - 1] == '\r')
			len--;
		if (len > LINE_MAX_BYTES) {
			err_at(rd, p, "a line of more than %d bytes",
			    LINE_MAX_BYTES);
			continue;
		}
		if (memchr(p, '\0', len)) {
			err_at(rd, NULL, "a NUL byte");
			continue;
		}
		if ((hash = memchr(p, '#', len)))
			len = (size_t)(hash - p);
		k = split(p, len, w, sizeof(w) / sizeof(w[0]), &more);
		if (!k)
			continue;
		if (more) {
			err_at(rd, p, "more than %d words on a line",
			    (int)(sizeof(w) / sizeof(w[0])));
			continue;
		}
		if (!is_blank(p[0])) {
			size_t before = rd->nv;

			start_def(rd, w, k);
			in_def = rd->nv > before;
			continue;
		}
		if (!in_def) {
			if (!rd->errors)
				err_at(rd, w[0].p, "a field before any "
				    "definition");
			continue;
		}
		{
			int board = word_is(&w[0], "board") ||
			    word_is(&w[0], "hand");
			const char *end = w[k - 1].p + w[k - 1].n;

			body_line(rd, w[0].p, (size_t)(end - w[0].p), board);
			field(rd, &rd->v[rd->nv - 1], w, k);
		}
	}
	finish_def(rd);
}

/* --- merging ----------------------------------------------------------- */

static int
same_def(const struct tag_def *a, const struct tag_def *b)
{
	return a->kind == b->kind && a->name == b->name;
}

static int
is_catch_all(const struct tag_def *t)
{
	return t->kind == TAG_GAME && t->matchup == MATCHUP_NONE &&
	    !t->either.n && !t->both.n && !t->off;
}

static void
insert_at(struct tagdefs *d, size_t at, const struct tag_def *t)
{
	ALLOC_GROW(d->v, d->n + 1, d->alloc);
	memmove(&d->v[at + 1], &d->v[at], (d->n - at) * sizeof(*d->v));
	d->v[at] = *t;
	d->n++;
}

static void
remove_at(struct tagdefs *d, size_t at)
{
	def_release(&d->v[at]);
	memmove(&d->v[at], &d->v[at + 1], (d->n - at - 1) * sizeof(*d->v));
	d->n--;
}

/*
 * Whether each `before` names a definition of its kind: in the set, or
 * in the text. Checked before anything moves, so that a text is merged
 * whole or not at all.
 */
static int
check_before(const struct tagdefs *d, struct reading *rd)
{
	size_t i, j;

	for (i = 0; i < rd->nv; i++) {
		const struct tag_def *t = &rd->v[i];
		int found = 0;

		if (!t->before)
			continue;
		for (j = 0; j < d->n && !found; j++)
			found = d->v[j].kind == t->kind &&
			    d->v[j].name == t->before - 1;
		for (j = 0; j < rd->nv && !found; j++)
			found = j != i && rd->v[j].kind == t->kind &&
			    rd->v[j].name == t->before - 1;
		if (!found) {
			struct span loc;

			memset(&loc, 0, sizeof(loc));
			loc.line = t->line;
			loc.col = 1;
			diag_add(rd->dl, DIAG_ERROR, diag_id_name(DIAG_SYNTAX),
			    &loc, 0, "before %s: no %s of that name",
			    d->labels[t->before - 1], tag_kind_name(t->kind));
			rd->errors++;
		}
	}
	return rd->errors ? -1 : 0;
}

/*
 * Where a new definition goes: after the variants this text gave
 * already, in the place of the ones it overrides, before what `before`
 * names, before the catch-all game rule, or last. `before` and the
 * catch-all look only at what was there before the text (kifu's own,
 * an earlier file's): within one text the definitions keep its order,
 * so that a set written out (tagdefs_write) reads back as itself.
 * Cannot fail.
 */
static void
merge(struct tagdefs *d, struct reading *rd, uint32_t source)
{
	size_t i, j;

	for (i = 0; i < rd->nv; i++) {
		struct tag_def *t = &rd->v[i];
		size_t at = d->n, last_new = (size_t)-1, first_old = (size_t)-1;

		t->source = source;
		for (j = 0; j < d->n; j++) {
			if (!same_def(&d->v[j], t))
				continue;
			if (d->v[j].source == source)
				last_new = j;
			else if (first_old == (size_t)-1)
				first_old = j;
		}
		if (last_new != (size_t)-1) {
			/* A variant of one this text gave just now. */
			insert_at(d, last_new + 1, t);
			continue;
		}
		if (first_old != (size_t)-1) {
			/* Every older variant goes; the new one takes the place. */
			at = first_old;
			for (j = d->n; j-- > 0;)
				if (same_def(&d->v[j], t)) {
					remove_at(d, j);
					if (j < at)
						at--;
				}
			insert_at(d, at, t);
			continue;
		}
		for (j = 0; t->before && j < d->n; j++)
			if (d->v[j].source != source &&
			    d->v[j].kind == t->kind &&
			    d->v[j].name == t->before - 1) {
				at = j;
				break;
			}
		for (j = 0; at == d->n && t->kind == TAG_GAME &&
		    !is_catch_all(t) && j < d->n; j++)
			if (d->v[j].source != source &&
			    is_catch_all(&d->v[j]))
				at = j;
		insert_at(d, at, t);
	}
}

int
tagdefs_load(struct tagdefs *d, const char *source, const char *src,
    size_t n, struct diag_list *dl)
{
	struct reading rd;
	size_t i, nlabels = d->nlabels;

	memset(&rd, 0, sizeof(rd));
	rd.d = d;
	rd.dl = dl;
	rd.src = src;
	rd.n = n;
	strbuf_init(&rd.body);
	strbuf_init(&rd.board);
	read_lines(&rd);
	strbuf_release(&rd.body);
	strbuf_release(&rd.board);
	if (rd.errors || check_before(d, &rd)) {
		for (i = 0; i < rd.nv; i++)
			def_release(&rd.v[i]);
		free(rd.v);
		for (i = nlabels; i < d->nlabels; i++)
			free(d->labels[i]);
		d->nlabels = nlabels;
		return -1;
	}
	d->sources = xreallocarray(d->sources, d->nsources + 1,
	    sizeof(*d->sources));
	d->sources[d->nsources] = xstrndup(source, strlen(source));
	merge(d, &rd, (uint32_t)d->nsources);
	d->nsources++;
	free(rd.v);
	compiled_release(d);
	return 0;
}

int
tagdefs_load_builtin(struct tagdefs *d, struct diag_list *dl)
{
	const char *s = tagdefs_builtin_text();

	return tagdefs_load(d, "builtin", s, strlen(s), dl);
}

/* --- compiling ----------------------------------------------------------- */

static void
bit_set(uint64_t *b, size_t i)
{
	b[i / 64] |= (uint64_t)1 << (i % 64);
}

static int
is_side_kind(enum tag_kind k)
{
	return k != TAG_GAME;
}

static void
compile_error(struct tagdefs *d, struct diag_list *dl, const struct tag_def *t,
    const char *what, uint32_t label)
{
	diag_add(dl, DIAG_ERROR, diag_id_name(DIAG_SYNTAX), NULL, 0,
	    "%s:%u: %s %s %s: no definition of that name", d->sources[t->source],
	    t->line, tag_kind_name(t->kind), d->labels[t->name], what);
	(void)label;
}

/* Whether a side definition carries the label as its name or family. */
static int
label_defined(const struct tagdefs *d, uint32_t id)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (is_side_kind(d->v[i].kind) &&
		    (d->v[i].name == id || d->v[i].family == id))
			return 1;
	return 0;
}

static int
check_ids(struct tagdefs *d, struct diag_list *dl, const struct tag_def *t,
    const struct tag_ids *ids, const char *what)
{
	size_t i;
	int bad = 0;

	for (i = 0; i < ids->n; i++)
		if (!label_defined(d, ids->v[i])) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_addf(&sb, "%s %s", what, d->labels[ids->v[i]]);
			compile_error(d, dl, t, sb.buf, ids->v[i]);
			strbuf_release(&sb);
			bad = 1;
		}
	return bad;
}

static void
deps(struct tagdefs *d, size_t i, const struct tag_ids *ids, uint64_t *into)
{
	size_t k;

	for (k = 0; k < ids->n; k++)
		bit_set(into + ids->v[k] * d->words, i);
}

/* A def's list of labels (which: 0-3, tagdefs.lmasks) as a bitset. */
static void
label_mask(struct tagdefs *d, size_t i, int which, const struct tag_ids *ids)
{
	uint64_t *m = d->lmasks + (i * 4 + (size_t)which) * d->lwords;
	size_t k;

	for (k = 0; k < ids->n; k++)
		bit_set(m, ids->v[k]);
}

/* Adds def i to the list of defs of a ply (starts or ends). */
static void
at_ply(struct tag_start **v, size_t *n, int ply, size_t w, size_t i)
{
	size_t k;

	for (k = 0; k < *n; k++)
		if ((*v)[k].ply == ply)
			break;
	if (k == *n) {
		*v = xreallocarray(*v, *n + 1, sizeof(**v));
		(*v)[k].ply = ply;
		(*v)[k].defs = xcalloc(w, sizeof(uint64_t));
		(*n)++;
	}
	bit_set((*v)[k].defs, i);
}

int
tagdefs_compile(struct tagdefs *d, struct diag_list *dl)
{
	size_t i, w, k;
	int bad = 0, c;

	compiled_release(d);
	for (i = 0; i < d->n; i++) {
		const struct tag_def *t = &d->v[i];

		bad |= check_ids(d, dl, t, &t->requires, "requires");
		bad |= check_ids(d, dl, t, &t->requires_opp, "requires opp");
		bad |= check_ids(d, dl, t, &t->unless, "unless");
		bad |= check_ids(d, dl, t, &t->unless_opp, "unless opp");
		bad |= check_ids(d, dl, t, &t->replaces, "replaces");
		bad |= check_ids(d, dl, t, &t->either, "either");
		bad |= check_ids(d, dl, t, &t->both, "both");
	}
	if (bad)
		return -1;
	w = d->words = (d->n + 63) / 64 ? (d->n + 63) / 64 : 1;
	d->lwords = (d->nlabels + 63) / 64 ? (d->nlabels + 63) / 64 : 1;
	for (c = 0; c < 2; c++) {
		d->arrive[c] = xcalloc(2 * PT_NB * SQ_NB * w, sizeof(uint64_t));
		d->leave[c] = xcalloc(2 * PT_NB * SQ_NB * w, sizeof(uint64_t));
		d->arrive_any[c] = xcalloc(SQ_NB * w, sizeof(uint64_t));
		d->leave_any[c] = xcalloc(SQ_NB * w, sizeof(uint64_t));
	}
	d->lmasks = xcalloc(d->n * 4 * d->lwords + 1, sizeof(uint64_t));
	d->hand_defs = xcalloc(w, sizeof(uint64_t));
	d->dep_defs = xcalloc(w, sizeof(uint64_t));
	d->side_defs = xcalloc(w, sizeof(uint64_t));
	d->dep_own = xcalloc(d->nlabels * w + 1, sizeof(uint64_t));
	d->dep_opp = xcalloc(d->nlabels * w + 1, sizeof(uint64_t));
	d->variants = xcalloc(d->nlabels * w + 1, sizeof(uint64_t));
	d->max_ply = 0;
	d->has_hold = 0;
	for (i = 0; i < d->n; i++) {
		const struct tag_def *t = &d->v[i];

		if (!is_side_kind(t->kind) || t->off)
			continue;
		bit_set(d->variants + t->name * w, i);
		if (t->deflt)
			continue;
		bit_set(d->side_defs, i);
		for (k = 0; k < t->nterms; k++) {
			const struct tag_term *tm = &t->terms[k];
			size_t typed = ((size_t)tm->opp * PT_NB + tm->type) *
			    SQ_NB;

			for (c = 0; c < 2; c++) {
				bitboard m = tm->mask[c];

				while (m) {
					size_t sq = (size_t)bb_pop(&m);

					if (t->hold || tm->type == PT_NONE) {
						bit_set(d->arrive_any[c] + sq * w,
						    i);
						bit_set(d->leave_any[c] + sq * w,
						    i);
					} else {
						bit_set((tm->neg ? d->leave[c] :
						    d->arrive[c]) + (typed + sq) *
						    w, i);
					}
				}
			}
		}
		label_mask(d, i, 0, &t->requires);
		label_mask(d, i, 1, &t->requires_opp);
		label_mask(d, i, 2, &t->unless);
		label_mask(d, i, 3, &t->unless_opp);
		if (t->hand.any)
			bit_set(d->hand_defs, i);
		if (t->requires.n || t->requires_opp.n || t->unless.n ||
		    t->unless_opp.n)
			bit_set(d->dep_defs, i);
		deps(d, i, &t->requires, d->dep_own);
		deps(d, i, &t->unless, d->dep_own);
		deps(d, i, &t->requires_opp, d->dep_opp);
		deps(d, i, &t->unless_opp, d->dep_opp);
		if (t->to > d->max_ply)
			d->max_ply = t->to;
		d->has_hold |= t->hold;
		if (t->from > 0)
			at_ply(&d->starts, &d->nstarts, t->from, w, i);
		if (t->to < TAG_PLY_MAX)
			at_ply(&d->ends, &d->nends, t->to + 1, w, i);
		if (t->hold) {
			d->holds = xreallocarray(d->holds, d->nholds + 1,
			    sizeof(*d->holds));
			d->holds[d->nholds++] = (uint32_t)i;
		}
	}
	d->nplyset = 1;
	for (k = 0; k < d->nstarts; k++)
		if (d->starts[k].ply >= d->nplyset)
			d->nplyset = d->starts[k].ply + 1;
	for (k = 0; k < d->nends; k++)
		if (d->ends[k].ply >= d->nplyset)
			d->nplyset = d->ends[k].ply + 1;
	d->plyset = xcalloc((size_t)d->nplyset, sizeof(*d->plyset));
	for (k = 0; k < d->nstarts; k++)
		d->plyset[d->starts[k].ply].starts = d->starts[k].defs;
	for (k = 0; k < d->nends; k++)
		d->plyset[d->ends[k].ply].ends = d->ends[k].defs;
	for (k = 0; k < d->nholds; k++)
		if (d->v[d->holds[k]].to < d->nplyset)
			d->plyset[d->v[d->holds[k]].to].holds_end = 1;
	d->compiled = 1;
	return 0;
}

/* --- reading the headers' names ------------------------------------------ */

/* Where needle first occurs in hay, or -1. */
static long
find_in(const char *hay, size_t n, const char *needle, size_t m)
{
	size_t i;

	if (!m || m > n)
		return -1;
	for (i = 0; i + m <= n; i++)
		if (memcmp(hay + i, needle, m) == 0)
			return (long)i;
	return -1;
}

int
tagdefs_read_game(const struct tagdefs *d, const char *text, size_t n)
{
	long best_at = -1;
	size_t best_len = 0, i, k;
	int best = -1;

	for (i = 0; i < d->n; i++) {
		const struct tag_def *t = &d->v[i];

		if (t->kind != TAG_GAME || t->off)
			continue;
		for (k = 0; k <= t->reads.n; k++) {
			const char *s = d->labels[k < t->reads.n ?
			    t->reads.v[k] : t->name];
			size_t m = strlen(s);
			long at = find_in(text, n, s, m);

			if (at < 0)
				continue;
			if (best < 0 || at < best_at ||
			    (at == best_at && m > best_len)) {
				best = (int)i;
				best_at = at;
				best_len = m;
			}
		}
	}
	return best;
}

/* --- writing ------------------------------------------------------------- */

void
tagdefs_write(const struct tagdefs *d, int sources, struct strbuf *out)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		const struct tag_def *t = &d->v[i];

		strbuf_addf(out, "%s%s %s", i ? "\n" : "",
		    tag_kind_name(t->kind), d->labels[t->name]);
		if (sources)
			strbuf_addf(out, "    # %s:%u", d->sources[t->source],
			    t->line);
		strbuf_addc(out, '\n');
		strbuf_adds(out, t->body ? t->body : "");
	}
}

/* --- kifu's own, built once ---------------------------------------------- */

static pthread_once_t default_once = PTHREAD_ONCE_INIT;
static struct tagdefs *default_defs;

static void
build_default(void)
{
	struct diag_list dl = DIAG_LIST_INIT;
	struct tagdefs *d = tagdefs_new();

	core_init();
	if (tagdefs_load_builtin(d, &dl) || tagdefs_compile(d, &dl)) {
		/* The built-in text is tested; this is a broken build. */
		fprintf(stderr, "kifu: the built-in tag definitions do not "
		    "load: %s\n", dl.n ? dl.v[0].message : "?");
		abort();
	}
	diag_list_release(&dl);
	default_defs = d;
}

const struct tagdefs *
tagdefs_default(void)
{
	pthread_once(&default_once, build_default);
	return default_defs;
}

const struct tagdefs *
tagdefs_over_builtin(const char *name, const char *text, size_t n,
    struct diag_list *dl)
{
	struct tagdefs *d;

	if (!text)
		return tagdefs_default();
	d = tagdefs_new();
	if (tagdefs_load_builtin(d, dl) || tagdefs_load(d, name, text, n, dl) ||
	    tagdefs_compile(d, dl)) {
		tagdefs_free(d);
		return NULL;
	}
	return d;
}

void
tagdefs_put(const struct tagdefs *d)
{
	if (d && d != tagdefs_default())
		tagdefs_free((struct tagdefs *)d);
}
