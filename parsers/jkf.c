/*
 * jkf.c - reading JSON Kifu Format (formats.md section 6).
 *
 * jansson parses the text; this file walks the tree it builds: header
 * (KIF keys), initial (a preset or a board), and moves, whose entry 0
 * holds the start's comments and whose entries carry a move or a special
 * and maybe times, comments and forks. The first entry of each fork
 * stands in for the move that carries the fork: it becomes another
 * continuation of the same parent. Only structure is judged here;
 * replay decides whether the moves are legal.
 *
 * jansson keeps no places once the text is parsed: a problem found in
 * the tree names its path in the message ("moves[12].move.piece"), and
 * jsonplace.c finds where that path is in the text for its line and
 * column; every entry's node gets the place of its entry the same way,
 * for replay's diagnostics. Unknown keys are skipped with one warning
 * for them all. Where the schema and real producers part, the reader
 * takes what is unambiguous: a missing header, a move without a colour
 * (the side is then the one to move), moves[0].comment as a string.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/core.h"
#include "core/sfen.h"
#include "core/zobrist.h"
#include "jkf.h"
#include "jsonplace.h"
#include "kakinoki.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Quoted input is cut to this many bytes. */
#define QUOTE_MAX 48
/* Longest move text kept as a node's raw text. */
#define RAW_MAX 160
/* Bytes detection looks at. */
#define DETECT_BYTES 65536
/* Hand counts stop here; position_validate then reports too many pieces. */
#define HAND_CAP 99
/* Largest h, m or s of a time; more is no clock reading. */
#define CLOCK_MAX 10000000

static const char kinds[PT_NB][3] = {
	"", "FU", "KY", "KE", "GI", "KA", "HI", "KI", "OU",
	"TO", "NY", "NK", "NG", "UM", "RY"
};

static const struct {
	const char *name;
	enum handicap h;
} presets[] = {
	{ "HIRATE", HANDICAP_EVEN },
	{ "KY", HANDICAP_LANCE },
	{ "KY_R", HANDICAP_RIGHT_LANCE },
	{ "KA", HANDICAP_BISHOP },
	{ "HI", HANDICAP_ROOK },
	{ "HIKY", HANDICAP_ROOK_LANCE },
	{ "2", HANDICAP_2 },
	{ "3", HANDICAP_3 },
	{ "4", HANDICAP_4 },
	{ "5", HANDICAP_5 },
	{ "5_L", HANDICAP_5_LEFT },
	{ "6", HANDICAP_6 },
	{ "7_L", HANDICAP_7_LEFT },
	{ "7_R", HANDICAP_7_RIGHT },
	{ "8", HANDICAP_8 },
	{ "10", HANDICAP_10 },
};

/*
 * The CSA words without '%'. An unsigned ILLEGAL_ACTION is what JKF
 * parsers write before normalisation (KIF 反則勝ち): the previous mover
 * fouled. MAX_MOVES is tsshogi's addition.
 */
static const struct {
	const char *word;
	enum special sp;
} specials[] = {
	{ "TORYO", SP_RESIGN },
	{ "CHUDAN", SP_ABORT },
	{ "SENNICHITE", SP_SENNICHITE },
	{ "TIME_UP", SP_TIME_UP },
	{ "ILLEGAL_MOVE", SP_ILLEGAL_MOVE },
	{ "+ILLEGAL_ACTION", SP_ILLEGAL_BLACK },
	{ "-ILLEGAL_ACTION", SP_ILLEGAL_WHITE },
	{ "ILLEGAL_ACTION", SP_ILLEGAL_WIN },
	{ "JISHOGI", SP_IMPASSE },
	{ "KACHI", SP_DECLARATION },
	{ "HIKIWAKE", SP_DRAW_DECLARATION },
	{ "MAX_MOVES", SP_MAX_MOVES },
	{ "MATTA", SP_MATTA },
	{ "TSUMI", SP_MATE },
	{ "FUZUMI", SP_NO_MATE },
	{ "ERROR", SP_ERROR },
};

/* JKF relative letters and the KI2 words they stand for. */
static const struct {
	char letter;
	unsigned rel;
} relatives[] = {
	{ 'L', REL_LEFT }, { 'C', REL_STRAIGHT }, { 'R', REL_RIGHT },
	{ 'U', REL_UP }, { 'M', REL_SIDEWAYS }, { 'D', REL_DOWN },
};

/* The keys each kind of object may have; NULL-terminated. */
static const char *const top_keys[] = { "header", "initial", "moves", NULL };
static const char *const initial_keys[] = { "preset", "data", NULL };
static const char *const data_keys[] = { "color", "board", "hands", NULL };
static const char *const square_keys[] = { "color", "kind", NULL };
static const char *const start_keys[] = { "comments", "comment", "move",
	"special", NULL };
static const char *const entry_keys[] = { "comments", "move", "time",
	"special", "forks", NULL };
static const char *const move_keys[] = { "color", "from", "to", "piece",
	"same", "promote", "capture", "relative", NULL };
static const char *const place_keys[] = { "x", "y", NULL };
static const char *const time_keys[] = { "now", "total", NULL };
static const char *const clock_keys[] = { "h", "m", "s", NULL };

const char *
jkf_kind(enum piece_type pt)
{
	return (unsigned)pt < PT_NB ? kinds[pt] : "";
}

const char *
jkf_preset(enum handicap h)
{
	size_t i;

	for (i = 0; i < NELEM(presets); i++)
		if (presets[i].h == h)
			return presets[i].name;
	return NULL;
}

const char *
jkf_special(enum special sp, enum color fouler)
{
	size_t i;

	if (sp == SP_ILLEGAL_WIN)
		return fouler == BLACK ? "+ILLEGAL_ACTION" : "-ILLEGAL_ACTION";
	for (i = 0; i < NELEM(specials); i++)
		if (specials[i].sp == sp)
			return specials[i].word;
	return NULL;
}

/* Everything jkf_read keeps while it walks one document. */
struct jkf {
	const struct reader *rd;	/* borrowed: its limits */
	const struct text *t;
	struct record *r;
	struct diag_list *d;
	const struct variant *v;
	struct strbuf path;	/* the place being read: "moves[3].move" */
	struct json_places places;	/* where paths are in the text */
	struct strbuf where;	/* scratch: the path being placed */
	size_t base;		/* offset of the JSON in the text (a BOM) */
	/* Column cache: code points before byte col_off of line col_line. */
	size_t col_line, col_off;
	uint32_t col;
	struct strbuf text;	/* scratch: a node's comment */
	size_t unknown;		/* keys kifu does not know, skipped */
	struct strbuf unknown_at;	/* the first of them and its place */
};

/*
 * How many bytes of s (n bytes) to quote: at most QUOTE_MAX, never
 * splitting a UTF-8 sequence.
 */
static int
qlen(const char *s, size_t n)
{
	size_t k = n < QUOTE_MAX ? n : QUOTE_MAX;

	while (k < n && k > 0 && ((unsigned char)s[k] & 0xc0) == 0x80)
		k--;
	return (int)k;
}

static const char *
type_name(const json_t *j)
{
	switch (json_typeof(j)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a number";
	case JSON_TRUE: case JSON_FALSE: return "a boolean";
	default: return "null";
	}
}

/* A member that is there and not null; NULL otherwise. */
static json_t *
member(const json_t *obj, const char *key)
{
	json_t *j = json_object_get(obj, key);

	return j && !json_is_null(j) ? j : NULL;
}

static size_t
path_push(struct jkf *st, const char *fmt, size_t i)
{
	size_t mark = st->path.len;

	strbuf_addf(&st->path, fmt, i);
	return mark;
}

static size_t
path_push_key(struct jkf *st, const char *key)
{
	size_t mark = st->path.len;

	if (mark)
		strbuf_addc(&st->path, '.');
	strbuf_adds(&st->path, key);
	return mark;
}

static void
path_pop(struct jkf *st, size_t mark)
{
	st->path.len = mark;
	st->path.buf[mark] = '\0';
}

static size_t line_of(const struct text *t, size_t off);

/*
 * The place of the value st->path names, as a span of its first byte,
 * or of the nearest value around it that is there (the object a missing
 * member belongs in); 0 when none can be found. Entries are asked for in
 * the order of the text, so on a long line the column is counted on from
 * the one before.
 */
static int
path_place(struct jkf *st, struct span *sp)
{
	struct strbuf *w = &st->where;
	size_t at, off, li;
	const struct text_line *l;

	strbuf_reset(w);
	strbuf_add(w, st->path.buf, st->path.len);
	while ((at = json_places_find(&st->places, w->buf)) ==
	    JSON_NO_PLACE && w->len && st->places.budget) {
		/* Drop the last ".key" or "[n]". */
		size_t k = w->len;

		while (k > 0 && w->buf[k - 1] != '.' && w->buf[k - 1] != '[')
			k--;
		w->len = k > 0 ? k - 1 : 0;
		w->buf[w->len] = '\0';
	}
	if (at == JSON_NO_PLACE || !st->t->nlines)
		return 0;
	off = st->base + at;
	li = line_of(st->t, off);
	l = &st->t->lines[li];
	if (off > l->off + l->len)
		return 0;	/* in a line break: not a value's start */
	sp->line = (uint32_t)li + 1;
	sp->byte = (uint32_t)off;
	if (st->col_line == sp->line && st->col_off <= off) {
		st->col += (uint32_t)utf8_count(st->t->buf + st->col_off,
		    off - st->col_off);
	} else {
		st->col = (uint32_t)utf8_count(st->t->buf + l->off,
		    off - l->off);
	}
	st->col_line = sp->line;
	st->col_off = off;
	sp->col = st->col + 1;
	sp->len = 1;
	return 1;
}

static void
report(struct jkf *st, enum diag_severity sev, enum diag_id id, int ply,
    const char *fmt, va_list ap)
{
	char msg[256];
	struct span sp;
	int placed = path_place(st, &sp);

	vsnprintf(msg, sizeof(msg), fmt, ap);
	diag_add(st->d, sev, diag_id_name(id), placed ? &sp : NULL, ply,
	    "%s: %s", st->path.len ? st->path.buf : "top level", msg);
}

/* A damaged document: the record is lost. Always returns -1. */
__attribute__((format(printf, 4, 5)))
static int
fail(struct jkf *st, enum diag_id id, int ply, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(st, DIAG_ERROR, id, ply, fmt, ap);
	va_end(ap);
	return -1;
}

__attribute__((format(printf, 4, 5)))
static void
warn(struct jkf *st, enum diag_id id, int ply, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(st, DIAG_WARNING, id, ply, fmt, ap);
	va_end(ap);
}

static int
wrong_type(struct jkf *st, int ply, const char *want, const json_t *j)
{
	return fail(st, DIAG_SYNTAX, ply, "expected %s, found %s", want,
	    type_name(j));
}

/* Counts the keys of obj that are not in `known` (one warning at the end). */
static void
check_keys(struct jkf *st, json_t *obj, const char *const *known)
{
	void *it;

	for (it = json_object_iter(obj); it;
	    it = json_object_iter_next(obj, it)) {
		const char *key = json_object_iter_key(it);
		const char *const *k;

		for (k = known; *k && strcmp(*k, key) != 0; k++)
			;
		if (*k || st->unknown++)
			continue;
		strbuf_addf(&st->unknown_at, "'%.*s' in %s",
		    qlen(key, strlen(key)), key,
		    st->path.len ? st->path.buf : "the top level");
	}
}

static enum piece_type
kind_of(const char *s)
{
	int pt;

	for (pt = PT_PAWN; pt < PT_NB; pt++)
		if (strcmp(s, kinds[pt]) == 0)
			return (enum piece_type)pt;
	return PT_NONE;
}

/* The piece kind a member names; PT_NONE and an error if it names none. */
static enum piece_type
read_kind(struct jkf *st, json_t *j, int ply)
{
	enum piece_type pt;

	if (!json_is_string(j)) {
		wrong_type(st, ply, "a piece kind", j);
		return PT_NONE;
	}
	if ((pt = kind_of(json_string_value(j))) == PT_NONE)
		fail(st, DIAG_SYNTAX, ply, "unknown piece kind '%.*s'",
		    qlen(json_string_value(j), json_string_length(j)),
		    json_string_value(j));
	return pt;
}

/* 0 (Black) or 1 (White); -1 with an error otherwise. */
static int
read_color(struct jkf *st, json_t *j, int ply)
{
	json_int_t c;

	if (!json_is_integer(j))
		return wrong_type(st, ply, "a color (0 or 1)", j);
	c = json_integer_value(j);
	if (c != 0 && c != 1)
		return fail(st, DIAG_SYNTAX, ply,
		    "color must be 0 or 1, not %" JSON_INTEGER_FORMAT, c);
	return (int)c;
}

static int
read_coord(struct jkf *st, json_t *obj, const char *key, int max, int ply)
{
	json_t *j = member(obj, key);
	size_t mark = path_push_key(st, key);
	json_int_t k;
	int rc;

	if (!j)
		rc = fail(st, DIAG_SYNTAX, ply, "missing");
	else if (!json_is_integer(j))
		rc = wrong_type(st, ply, "an integer", j);
	else if ((k = json_integer_value(j)) < 1 || k > max)
		rc = fail(st, DIAG_SYNTAX, ply,
		    "%" JSON_INTEGER_FORMAT " is off the board (1..%d)", k,
		    max);
	else
		rc = (int)k - 1;
	path_pop(st, mark);
	return rc;
}

/* {"x": file, "y": rank}, 1-based; SQ_NONE with an error if it is not. */
static square
read_place(struct jkf *st, json_t *j, int ply)
{
	int file, rank;

	if (!json_is_object(j)) {
		wrong_type(st, ply, "a square {\"x\", \"y\"}", j);
		return SQ_NONE;
	}
	check_keys(st, j, place_keys);
	if ((file = read_coord(st, j, "x", st->v->files, ply)) < 0 ||
	    (rank = read_coord(st, j, "y", st->v->ranks, ply)) < 0)
		return SQ_NONE;
	return sq_make(file, rank);
}

/* ---- header ---- */

static int
read_header(struct jkf *st, json_t *h)
{
	void *it;

	if (!json_is_object(h))
		return wrong_type(st, 0, "an object", h);
	for (it = json_object_iter(h); it; it = json_object_iter_next(h, it)) {
		const char *key = json_object_iter_key(it);
		json_t *val = json_object_iter_value(it);
		size_t klen = strlen(key), mark;

		if (!json_is_string(val)) {
			mark = path_push_key(st, key);
			wrong_type(st, 0, "a string", val);
			path_pop(st, mark);
			return -1;
		}
		record_add_header(st->r, key, klen, json_string_value(val),
		    json_string_length(val), kakinoki_header_id(key, klen),
		    NULL);
		if (reader_check_limits(st->rd, st->r, READER_NO_LINE,
		    st->d) < 0)
			return -1;
	}
	return 0;
}

/* ---- initial ---- */

/* One square of initial.data.board: {} or {"color", "kind"}. */
static int
read_square(struct jkf *st, json_t *j, square sq, struct position *pos)
{
	json_t *c, *k;
	enum piece_type pt;
	int color;

	if (!json_is_object(j))
		return wrong_type(st, 0, "a square {} or {\"color\", \"kind\"}",
		    j);
	check_keys(st, j, square_keys);
	c = member(j, "color");
	k = member(j, "kind");
	if (!c && !k)
		return 0;
	if (!c || !k)
		return fail(st, DIAG_SYNTAX, 0, "a piece needs both %s",
		    "'color' and 'kind'");
	if ((color = read_color(st, c, 0)) < 0 ||
	    (pt = read_kind(st, k, 0)) == PT_NONE)
		return -1;
	position_put(pos, sq, piece_make((enum color)color, pt));
	return 0;
}

/* board[x-1][y-1]: the outer index is the file. */
static int
read_board(struct jkf *st, json_t *b, struct position *pos)
{
	size_t file, rank, nfiles = (size_t)st->v->files;
	size_t nranks = (size_t)st->v->ranks;

	/* The schema lets an empty object stand for an empty board. */
	if (json_is_object(b) && json_object_size(b) == 0)
		return 0;
	if (!json_is_array(b))
		return wrong_type(st, 0, "an array of files", b);
	if (json_array_size(b) != nfiles)
		return fail(st, DIAG_SYNTAX, 0, "%zu files, not %zu",
		    json_array_size(b), nfiles);
	for (file = 0; file < nfiles; file++) {
		json_t *col = json_array_get(b, file);
		size_t mark = path_push(st, "[%zu]", file);

		if (!json_is_array(col) || json_array_size(col) != nranks) {
			if (json_is_array(col))
				fail(st, DIAG_SYNTAX, 0, "%zu squares, not %zu",
				    json_array_size(col), nranks);
			else
				wrong_type(st, 0, "an array of squares", col);
			return -1;
		}
		for (rank = 0; rank < nranks; rank++) {
			size_t m2 = path_push(st, "[%zu]", rank);

			if (read_square(st, json_array_get(col, rank),
			    sq_make((int)file, (int)rank), pos) < 0)
				return -1;
			path_pop(st, m2);
		}
		path_pop(st, mark);
	}
	return 0;
}

static int
read_hand(struct jkf *st, json_t *h, enum color c, struct position *pos)
{
	void *it;

	if (!json_is_object(h))
		return wrong_type(st, 0, "an object of piece counts", h);
	for (it = json_object_iter(h); it; it = json_object_iter_next(h, it)) {
		const char *key = json_object_iter_key(it);
		json_t *val = json_object_iter_value(it);
		enum piece_type pt = kind_of(key);
		size_t mark = path_push_key(st, key);
		json_int_t n;

		if (pt == PT_NONE)
			return fail(st, DIAG_SYNTAX, 0, "unknown piece kind");
		if (!json_is_integer(val))
			return wrong_type(st, 0, "a count", val);
		if ((n = json_integer_value(val)) < 0)
			return fail(st, DIAG_SYNTAX, 0, "negative count");
		if (n && pt >= HAND_NB)
			return fail(st, DIAG_BAD_POSITION, 0,
			    "'%s' cannot be in hand", kinds[pt]);
		if (pt < HAND_NB)
			position_hand_set(pos, c, pt,
			    n > HAND_CAP ? HAND_CAP : (int)n);
		path_pop(st, mark);
	}
	return 0;
}

/*
 * Settles a start of its own. The CSA reader's policy: two kings of a
 * side or more pieces than the set has cannot be played and lose the
 * record; the other impossibilities (a pawn that can never move, nifu)
 * are kept with a warning, because puzzles have them.
 */
static int
settle(struct jkf *st, struct position *pos, enum color side)
{
	struct sfen_error e;

	if (side != pos->side) {
		pos->side = side;
		pos->board_key ^= zobrist_side;
	}
	pos->move_number = 1;
	if (position_validate(pos, &e) != SFEN_OK) {
		if (!sfen_impossible_is_playable(&e))
			return fail(st, DIAG_BAD_POSITION, 0,
			    "impossible start position (%s): %s", e.id,
			    e.message);
		warn(st, DIAG_BAD_POSITION, 0,
		    "impossible start position (%s): %s", e.id, e.message);
	}
	st->r->start = *pos;
	st->r->handicap = handicap_identify(pos);
	return 0;
}

static int
read_data(struct jkf *st, json_t *data)
{
	struct position pos;
	json_t *c, *b, *h;
	size_t mark;
	int color, i;

	if (!data)
		return fail(st, DIAG_SYNTAX, 0,
		    "preset 'OTHER' needs 'data' with the position");
	mark = path_push_key(st, "data");
	if (!json_is_object(data))
		return wrong_type(st, 0, "an object", data);
	check_keys(st, data, data_keys);
	c = member(data, "color");
	b = member(data, "board");
	h = member(data, "hands");
	if (!c || !b || !h)
		return fail(st, DIAG_SYNTAX, 0, "missing '%s'",
		    !c ? "color" : !b ? "board" : "hands");
	position_clear(&pos, st->v);
	path_push_key(st, "color");
	if ((color = read_color(st, c, 0)) < 0)
		return -1;
	path_pop(st, mark);
	path_push_key(st, "data.board");
	if (read_board(st, b, &pos) < 0)
		return -1;
	path_pop(st, mark);
	path_push_key(st, "data.hands");
	if (!json_is_array(h) || json_array_size(h) != COLOR_NB)
		return json_is_array(h) ? fail(st, DIAG_SYNTAX, 0,
		    "%zu hands, not 2", json_array_size(h)) :
		    wrong_type(st, 0, "an array of two hands", h);
	for (i = 0; i < COLOR_NB; i++) {
		size_t m2 = path_push(st, "[%zu]", (size_t)i);

		if (read_hand(st, json_array_get(h, (size_t)i), (enum color)i,
		    &pos) < 0)
			return -1;
		path_pop(st, m2);
	}
	path_pop(st, mark);
	return settle(st, &pos, (enum color)color);
}

/* initial: absent or null is the even game. */
static int
read_initial(struct jkf *st, json_t *ini)
{
	json_t *preset;
	const char *name;
	size_t i, mark;

	if (!ini) {
		/* The caller's reset set its own variant's start. */
		if (st->r->start.v != st->v)
			position_set_start(&st->r->start, st->v);
		st->r->handicap = HANDICAP_EVEN;
		return 0;
	}
	mark = path_push_key(st, "initial");
	if (!json_is_object(ini))
		return wrong_type(st, 0, "an object", ini);
	check_keys(st, ini, initial_keys);
	if (!(preset = member(ini, "preset")))
		return fail(st, DIAG_SYNTAX, 0, "missing 'preset'");
	if (!json_is_string(preset))
		return wrong_type(st, 0, "a preset name", preset);
	name = json_string_value(preset);
	if (strcmp(name, "OTHER") == 0) {
		if (read_data(st, member(ini, "data")) < 0)
			return -1;
		path_pop(st, mark);
		return 0;
	}
	/* Named starts: the schema uses data for OTHER only. */
	for (i = 0; i < NELEM(presets); i++)
		if (strcmp(name, presets[i].name) == 0) {
			handicap_position(presets[i].h, &st->r->start);
			st->r->handicap = presets[i].h;
			path_pop(st, mark);
			return 0;
		}
	return fail(st, DIAG_UNKNOWN_HANDICAP, 0, "unknown preset '%.*s'",
	    qlen(name, json_string_length(preset)), name);
}

/* ---- moves ---- */

/*
 * Comment lines of a node. A line starting with '&' is a KIF bookmark
 * (formats.md 6); a node has one, so a second stays a comment line.
 */
static int
read_comments(struct jkf *st, json_t *c, int32_t node)
{
	size_t i, lines = 0, mark;

	if (!json_is_array(c))
		return wrong_type(st, st->r->nodes[node].ply,
		    "an array of strings", c);
	strbuf_reset(&st->text);
	for (i = 0; i < json_array_size(c); i++) {
		json_t *line = json_array_get(c, i);
		const char *s;
		size_t n;

		if (!json_is_string(line)) {
			mark = path_push(st, "[%zu]", i);
			wrong_type(st, st->r->nodes[node].ply, "a string",
			    line);
			path_pop(st, mark);
			return -1;
		}
		s = json_string_value(line);
		n = json_string_length(line);
		if (n > 1 && s[0] == '&' && !st->r->nodes[node].bookmark) {
			st->r->nodes[node].bookmark = record_intern(st->r,
			    s + 1, n - 1);
			continue;
		}
		if (lines++)
			strbuf_addc(&st->text, '\n');
		strbuf_add(&st->text, s, n);
	}
	if (lines)
		record_add_comment(st->r, node, st->text.buf, st->text.len);
	return 0;
}

/*
 * {"h"?, "m", "s"} into *ms, which is -1 (with a warning) when the
 * numbers are no clock reading. Returns -1 on a damaged document.
 */
static int
read_clock(struct jkf *st, json_t *j, int ply, int64_t *ms)
{
	static const char *const parts[] = { "h", "m", "s" };
	json_int_t v[3] = { 0, 0, 0 };
	size_t i;

	*ms = -1;
	if (!json_is_object(j))
		return wrong_type(st, ply, "a time {\"m\", \"s\"}", j);
	check_keys(st, j, clock_keys);
	for (i = 0; i < NELEM(parts); i++) {
		json_t *p = member(j, parts[i]);
		size_t mark;

		if (!p && i == 0)
			continue;
		mark = path_push_key(st, parts[i]);
		if (!p)
			return fail(st, DIAG_SYNTAX, ply, "missing");
		if (!json_is_integer(p))
			return wrong_type(st, ply, "an integer", p);
		v[i] = json_integer_value(p);
		if (v[i] < 0 || v[i] > CLOCK_MAX) {
			warn(st, DIAG_TIME, ply, "ignoring the time: %"
			    JSON_INTEGER_FORMAT " is no clock reading", v[i]);
			path_pop(st, mark);
			return 0;
		}
		path_pop(st, mark);
	}
	*ms = ((int64_t)v[0] * 3600 + (int64_t)v[1] * 60 + (int64_t)v[2]) *
	    1000;
	return 0;
}

static int
read_time(struct jkf *st, json_t *t, int32_t node)
{
	int ply = st->r->nodes[node].ply;
	json_t *now, *total;
	int64_t ms;
	size_t mark;

	if (!json_is_object(t))
		return wrong_type(st, ply, "an object", t);
	check_keys(st, t, time_keys);
	if ((now = member(t, "now"))) {
		mark = path_push_key(st, "now");
		if (read_clock(st, now, ply, &ms) < 0)
			return -1;
		st->r->nodes[node].time_ms = ms;
		path_pop(st, mark);
	}
	if ((total = member(t, "total"))) {
		mark = path_push_key(st, "total");
		if (read_clock(st, total, ply, &ms) < 0)
			return -1;
		st->r->nodes[node].total_ms = ms;
		path_pop(st, mark);
	}
	return 0;
}

/* "L", "RU", "H"...: the KI2 words; H (打) says the move is a drop. */
static int
read_relative(struct jkf *st, json_t *j, struct move_spec *s, int ply)
{
	const char *p;
	size_t i, k;

	if (!json_is_string(j))
		return wrong_type(st, ply, "relative letters", j);
	p = json_string_value(j);
	for (i = 0; i < json_string_length(j); i++) {
		if (p[i] == 'H') {
			s->flags |= SPEC_DROP;
			continue;
		}
		for (k = 0; k < NELEM(relatives) &&
		    relatives[k].letter != p[i]; k++)
			;
		if (k == NELEM(relatives))
			return fail(st, DIAG_SYNTAX, ply,
			    "unknown relative '%.*s'",
			    qlen(p, json_string_length(j)), p);
		s->rel |= (uint8_t)relatives[k].rel;
	}
	return 0;
}

static int
read_flag(struct jkf *st, json_t *m, const char *key, int ply, int *value)
{
	json_t *j = member(m, key);
	size_t mark;

	*value = -1;
	if (!j)
		return 0;
	if (!json_is_boolean(j)) {
		mark = path_push_key(st, key);
		wrong_type(st, ply, "a boolean", j);
		path_pop(st, mark);
		return -1;
	}
	*value = json_is_true(j);
	return 0;
}

/* The move as written, compact, for diagnostics about it. */
static uint32_t
move_raw(struct jkf *st, json_t *m)
{
	char *s = json_dumps(m, JSON_COMPACT);
	uint32_t off;
	size_t n;

	if (!s)
		return 0;
	n = strlen(s);
	if (n > RAW_MAX) {
		n = RAW_MAX - 3;
		while (n && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
		memcpy(s + n, "...", 4);
		n += 3;
	}
	off = record_intern(st->r, s, n);
	free(s);
	return off;
}

/* Reads member `key` of m as a place (from, to) into *sq. */
static int
read_member_place(struct jkf *st, json_t *m, const char *key, int ply,
    square *sq)
{
	json_t *j = member(m, key);
	size_t mark;

	*sq = SQ_NONE;
	if (!j)
		return 0;
	mark = path_push_key(st, key);
	if ((*sq = read_place(st, j, ply)) == SQ_NONE)
		return -1;
	path_pop(st, mark);
	return 0;
}

/*
 * The move of an entry. A move without "from" is a drop; "to" may be
 * missing when "same" says where (raw JKF does that); "piece" is the
 * kind before the move.
 */
static int
read_move(struct jkf *st, json_t *m, int32_t node)
{
	int ply = st->r->nodes[node].ply, promote, same;
	struct move_spec s = st->r->nodes[node].spec;
	square from, to;
	json_t *j;
	size_t mark;

	if (!json_is_object(m))
		return wrong_type(st, ply, "an object", m);
	check_keys(st, m, move_keys);
	if ((j = member(m, "color"))) {
		mark = path_push_key(st, "color");
		if ((s.color = (int8_t)read_color(st, j, ply)) < 0)
			return -1;
		path_pop(st, mark);
	}
	if (!(j = member(m, "piece")))
		return fail(st, DIAG_SYNTAX, ply, "missing 'piece'");
	mark = path_push_key(st, "piece");
	if ((s.piece = (uint8_t)read_kind(st, j, ply)) == PT_NONE)
		return -1;
	path_pop(st, mark);
	if (read_member_place(st, m, "from", ply, &from) < 0 ||
	    read_member_place(st, m, "to", ply, &to) < 0 ||
	    read_flag(st, m, "same", ply, &same) < 0 ||
	    read_flag(st, m, "promote", ply, &promote) < 0)
		return -1;
	if (to == SQ_NONE && same != 1)
		return fail(st, DIAG_SYNTAX, ply, "missing 'to'");
	if ((j = member(m, "capture"))) {
		mark = path_push_key(st, "capture");
		if (read_kind(st, j, ply) == PT_NONE)
			return -1;
		path_pop(st, mark);
	}
	if ((j = member(m, "relative"))) {
		mark = path_push_key(st, "relative");
		if (read_relative(st, j, &s, ply) < 0)
			return -1;
		path_pop(st, mark);
	}
	s.from = (uint8_t)from;
	s.to = (uint8_t)to;
	if (from == SQ_NONE)
		s.flags |= SPEC_DROP;
	else
		s.flags &= (uint8_t)~SPEC_DROP;
	if (to == SQ_NONE)
		s.flags |= SPEC_SAME;
	if (promote >= 0)
		s.flags |= promote ? SPEC_PROMOTE : SPEC_NO_PROMOTE;
	st->r->nodes[node].spec = s;
	st->r->nodes[node].raw = move_raw(st, m);
	return 0;
}

static int
read_special(struct jkf *st, json_t *j, int32_t node)
{
	int ply = st->r->nodes[node].ply;
	enum special sp = SP_UNKNOWN;
	const char *w;
	size_t i, n;

	if (!json_is_string(j))
		return wrong_type(st, ply, "a special word", j);
	w = json_string_value(j);
	n = json_string_length(j);
	for (i = 0; i < NELEM(specials); i++)
		if (strcmp(w, specials[i].word) == 0)
			sp = specials[i].sp;
	if (sp == SP_UNKNOWN)
		warn(st, DIAG_SYNTAX, ply, "unknown special '%.*s'",
		    qlen(w, n), w);
	st->r->nodes[node].special = (uint8_t)sp;
	st->r->nodes[node].raw = record_intern(st->r, w, n);
	return 0;
}

static int read_line(struct jkf *st, json_t *arr, size_t first,
    int32_t parent, int depth);

/*
 * forks: alternatives to the move that carries them, each a line whose
 * first entry is another continuation of that move's parent.
 */
static int
read_forks(struct jkf *st, json_t *forks, int32_t parent, int depth)
{
	int ply = st->r->nodes[parent].ply + 1;
	size_t i, mark;

	if (!json_is_array(forks))
		return wrong_type(st, ply, "an array of forks", forks);
	if (json_array_size(forks) && depth >= JKF_MAX_FORK_DEPTH)
		return fail(st, DIAG_LIMIT, ply,
		    "forks nested more than %d deep", JKF_MAX_FORK_DEPTH);
	for (i = 0; i < json_array_size(forks); i++) {
		json_t *fork = json_array_get(forks, i);

		mark = path_push(st, "[%zu]", i);
		if (!json_is_array(fork))
			return wrong_type(st, ply, "an array of moves", fork);
		if (read_line(st, fork, 0, parent, depth + 1) < 0)
			return -1;
		path_pop(st, mark);
	}
	return 0;
}

/* One entry of moves (or of a fork): a new continuation of parent. */
static int32_t
read_entry(struct jkf *st, json_t *e, int32_t parent, int depth)
{
	int ply = st->r->nodes[parent].ply + 1;
	json_t *mv, *sp, *j;
	int32_t node;
	size_t mark;

	if (!json_is_object(e))
		return wrong_type(st, ply, "an object", e);
	check_keys(st, e, entry_keys);
	mv = member(e, "move");
	sp = member(e, "special");
	if (mv && sp)
		return fail(st, DIAG_SYNTAX, ply,
		    "both a 'move' and a 'special'");
	if (!mv && !sp)
		return fail(st, DIAG_SYNTAX, ply,
		    "neither a 'move' nor a 'special'");
	node = record_add_node(st->r, parent);
	path_place(st, &st->r->nodes[node].loc);
	mark = path_push_key(st, mv ? "move" : "special");
	if ((mv ? read_move(st, mv, node) : read_special(st, sp, node)) < 0 ||
	    reader_check_limits(st->rd, st->r, READER_NO_LINE, st->d) < 0)
		return -1;
	path_pop(st, mark);
	if ((j = member(e, "time"))) {
		mark = path_push_key(st, "time");
		if (read_time(st, j, node) < 0)
			return -1;
		path_pop(st, mark);
	}
	if ((j = member(e, "comments"))) {
		mark = path_push_key(st, "comments");
		if (read_comments(st, j, node) < 0)
			return -1;
		path_pop(st, mark);
	}
	if ((j = member(e, "forks"))) {
		mark = path_push_key(st, "forks");
		if (read_forks(st, j, parent, depth) < 0)
			return -1;
		path_pop(st, mark);
	}
	return node;
}

/* Entries first.. of arr, each continuing the one before. */
static int
read_line(struct jkf *st, json_t *arr, size_t first, int32_t parent,
    int depth)
{
	size_t i, n = json_array_size(arr), mark;
	int32_t node;

	for (i = first; i < n; i++) {
		mark = path_push(st, "[%zu]", i);
		if ((node = read_entry(st, json_array_get(arr, i), parent,
		    depth)) < 0)
			return -1;
		if (st->r->nodes[node].special != SP_NONE && i + 1 < n) {
			warn(st, DIAG_MOVE_AFTER_END, st->r->nodes[node].ply,
			    "ignoring %zu entr%s after the special '%s'",
			    n - i - 1, n - i - 1 == 1 ? "y" : "ies",
			    record_str(st->r, st->r->nodes[node].raw));
			path_pop(st, mark);
			return 0;
		}
		path_pop(st, mark);
		parent = node;
	}
	return 0;
}

/* moves[0]: the start position's comments, never a move. */
static int
read_start(struct jkf *st, json_t *e)
{
	json_t *c;
	size_t mark = path_push(st, "[%zu]", 0);

	if (!json_is_object(e))
		return wrong_type(st, 0, "an object", e);
	check_keys(st, e, start_keys);
	if (member(e, "move") || member(e, "special"))
		return fail(st, DIAG_SYNTAX, 0, "moves[0] is the start "
		    "position: its move or special belongs in moves[1]");
	if ((c = member(e, "comment"))) {
		size_t m2 = path_push_key(st, "comment");

		if (!json_is_string(c))
			return wrong_type(st, 0, "a string", c);
		record_add_comment(st->r, 0, json_string_value(c),
		    json_string_length(c));
		path_pop(st, m2);
	}
	if ((c = member(e, "comments"))) {
		size_t m2 = path_push_key(st, "comments");

		if (read_comments(st, c, 0) < 0)
			return -1;
		path_pop(st, m2);
	}
	path_pop(st, mark);
	return 0;
}

static int
read_moves(struct jkf *st, json_t *moves)
{
	size_t mark = path_push_key(st, "moves");

	if (!json_is_array(moves))
		return wrong_type(st, 0, "an array", moves);
	if (!json_array_size(moves))
		return 0;
	if (read_start(st, json_array_get(moves, 0)) < 0 ||
	    read_line(st, moves, 1, 0, 0) < 0)
		return -1;
	path_pop(st, mark);
	return 0;
}

static int
read_document(struct jkf *st, json_t *root)
{
	json_t *h, *moves;
	size_t mark;

	if (!json_is_object(root))
		return wrong_type(st, 0, "an object", root);
	check_keys(st, root, top_keys);
	if (!(moves = member(root, "moves")))
		return fail(st, DIAG_SYNTAX, 0, "no 'moves'");
	if ((h = member(root, "header"))) {
		mark = path_push_key(st, "header");
		if (read_header(st, h) < 0)
			return -1;
		path_pop(st, mark);
	} else {
		warn(st, DIAG_SYNTAX, 0, "no 'header'; reading on");
	}
	if (read_initial(st, member(root, "initial")) < 0 ||
	    read_moves(st, moves) < 0)
		return -1;
	if (st->unknown)
		diag_add(st->d, DIAG_WARNING, diag_id_name(DIAG_UNKNOWN_LINE),
		    NULL, 0, "ignoring %zu key%s JKF does not define, the "
		    "first %s", st->unknown, st->unknown == 1 ? "" : "s",
		    st->unknown_at.buf);
	return 0;
}

/* The line (0-based) byte `off` of the text is on; the text has lines. */
static size_t
line_of(const struct text *t, size_t off)
{
	size_t lo = 0, hi = t->nlines;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->lines[mid].off <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Where byte `off` of the text is: line and column in code points. */
static struct span
span_at_offset(const struct text *t, size_t off)
{
	size_t lo, at;
	struct span sp;

	if (!t->nlines) {
		memset(&sp, 0, sizeof(sp));
		sp.line = sp.col = 1;
		return sp;
	}
	lo = line_of(t, off);
	at = off - t->lines[lo].off;
	if (at > t->lines[lo].len)
		at = t->lines[lo].len;
	return text_span(t, lo, at, 0);
}

static size_t
skip_bom(const struct text *t)
{
	return t->len >= 3 && memcmp(t->buf, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
}

static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * Where a jansson error is. Its position counts the bytes it read, and
 * its message ends "near '<token>'", quoting the bytes of the token it
 * choked on as written (up to 20): the place reported is the first
 * character of that token ("羽生" where a value should be, the key given
 * twice, the string that does not end). Without a token it is the last
 * character read (or the end of the text), never the middle of one.
 */
static size_t
json_error_offset(const struct text *t, const json_error_t *err, size_t base)
{
	static const char near[] = " near '";
	const char *q = strstr(err->text, near);
	size_t end = base + (err->position > 0 ? (size_t)err->position : 0);
	size_t tn = strlen(err->text), off;

	if (end > t->len)
		end = t->len;
	if (q && tn && err->text[tn - 1] == '\'') {
		const char *tok = q + strlen(near);
		size_t k = (size_t)(err->text + tn - 1 - tok);

		if (k && k <= end - base &&
		    memcmp(t->buf + end - k, tok, k) == 0)
			return end - k;
	}
	off = end > base ? end - 1 : base;
	while (off > base && ((unsigned char)t->buf[off] & 0xc0) == 0x80)
		off--;
	return off;
}

static void
json_syntax(struct jkf *st, enum diag_severity sev, const json_error_t *err,
    size_t base)
{
	struct span sp = span_at_offset(st->t,
	    json_error_offset(st->t, err, base));

	diag_add(st->d, sev, diag_id_name(DIAG_SYNTAX), &sp, 0, "%s: %s",
	    sev == DIAG_ERROR ? "invalid JSON" : "the last value is kept",
	    err->text);
}

static void
jkf_init(struct jkf *st, const struct reader *rd, struct record *r,
    struct diag_list *d, const struct variant *v)
{
	memset(st, 0, sizeof(*st));
	st->rd = rd;
	st->t = rd->t;
	st->r = r;
	st->d = d;
	st->v = v;
	r->v = v;
	strbuf_init(&st->path);
	strbuf_init(&st->text);
	strbuf_init(&st->unknown_at);
	strbuf_init(&st->where);
	st->base = skip_bom(st->t);
	/* Eight readings of the text: linear, whatever the paths asked. */
	json_places_init(&st->places, st->t->buf + st->base,
	    st->t->len - st->base, 8 * st->t->len + 65536);
}

static void
jkf_release(struct jkf *st)
{
	json_places_release(&st->places);
	strbuf_release(&st->where);
	strbuf_release(&st->path);
	strbuf_release(&st->text);
	strbuf_release(&st->unknown_at);
}

enum read_status
jkf_read(struct reader *rd, struct record *out, struct diag_list *d)
{
	/*
	 * JKF has no variant field and its presets and boards are 9x9: a
	 * JKF record is standard shogi, whatever the caller expected.
	 */
	const struct variant *v = variant_standard();
	const struct text *t = rd->t;
	size_t base, i;
	json_error_t err;
	json_t *root;
	struct jkf st;
	int rc;

	core_init();
	if (rd->done || !t) {
		rd->done = 1;
		return READ_EOF;
	}
	rd->done = 1;
	rd->line = t->nlines;
	base = skip_bom(t);
	for (i = base; i < t->len && is_space(t->buf[i]); i++)
		;
	if (i == t->len)
		return READ_EOF;
	jkf_init(&st, rd, out, d, v);
	out->loc = span_at_offset(t, i);
	rd->nread++;
	/* The record size limit, before jansson builds the whole tree. */
	if (reader_check_limits(rd, out, t->nlines - 1, d) < 0) {
		jkf_release(&st);
		return READ_ERROR;
	}
	root = json_loadb(t->buf + base, t->len - base, JSON_REJECT_DUPLICATES,
	    &err);
	if (!root && json_error_code(&err) == json_error_duplicate_key) {
		/* A sloppy producer: said, then read as JavaScript would. */
		json_syntax(&st, DIAG_WARNING, &err, base);
		root = json_loadb(t->buf + base, t->len - base, 0, &err);
	}
	if (!root) {
		json_syntax(&st, DIAG_ERROR, &err, base);
		jkf_release(&st);
		return READ_ERROR;
	}
	rc = read_document(&st, root);
	json_decref(root);
	jkf_release(&st);
	return rc < 0 ? READ_ERROR : READ_OK;
}

/* ---- detection ---- */

static int
top_key(const char *s, size_t n)
{
	static const char *const keys[] = { "header", "moves", "initial" };
	size_t i;

	for (i = 0; i < NELEM(keys); i++)
		if (strlen(keys[i]) == n && memcmp(s, keys[i], n) == 0)
			return 1;
	return 0;
}

/*
 * A look at the first bytes without parsing: an object, and among its
 * own keys (depth 1, a string followed by ':') one JKF defines.
 */
int
jkf_detect(const struct text *t)
{
	size_t i = skip_bom(t), n = t->len < DETECT_BYTES ? t->len :
	    DETECT_BYTES, start = 0;
	const char *p = t->buf;
	int depth = 0, in_str = 0;

	while (i < n && is_space(p[i]))
		i++;
	if (i == n || p[i] != '{')
		return 0;
	for (; i < n; i++) {
		char c = p[i];

		if (in_str) {
			if (c == '\\') {
				i++;
			} else if (c == '"') {
				size_t k = i + 1;

				in_str = 0;
				while (k < n && is_space(p[k]))
					k++;
				if (depth == 1 && k < n && p[k] == ':' &&
				    top_key(p + start, i - start))
					return 100;
			}
			continue;
		}
		switch (c) {
		case '"':
			in_str = 1;
			start = i + 1;
			break;
		case '{': case '[':
			depth++;
			break;
		case '}': case ']':
			if (--depth <= 0)
				return 0;
			break;
		default:
			break;
		}
	}
	return 0;
}
