/*
 * jkf.c - writing a record as JSON Kifu Format, normalised the way the
 * json-kifu-format normalizer leaves a replayed game (formats.md 6):
 * every move with its colour, origin, destination and piece, and with
 * same, promote, capture and relative filled in from the position;
 * times with running totals; variations as nested forks.
 *
 * jansson builds and prints the document; objects keep the order keys
 * were added in, so the output is stable. Two-space indentation, as
 * the JKF files of shogi-kifu-converter and tsshogi have it.
 *
 * What JKF cannot hold is reported once per kind: lines from another
 * format kept whole (raw headers), a second value for one header key,
 * fractions of seconds, terminals JKF has no word for, forks nested
 * deeper than a reader takes, moves the rules refused (each line stops
 * before its first one), and the move number of a start from the middle
 * of a game.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/notation.h"
#include "core/replay.h"
#include "parsers/jkf.h"
#include "parsers/kakinoki.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* What JKF cannot hold: one warning per kind, at the first node of each. */
enum loss {
	LOSS_RAW_HEADER,
	LOSS_DUP_HEADER,
	LOSS_FRACTION,
	LOSS_SPECIAL,
	LOSS_DEEP,
	LOSS_UNRESOLVED,
	LOSS_FOUL,
	LOSS_UTF8,
	LOSS_NB
};

static const char *const loss_text[LOSS_NB] = {
	"jkf has no place for lines kept whole from another format; "
	    "dropped %zu",
	"jkf headers hold one value a key; dropped %zu repeated key(s)",
	"jkf times are whole seconds; dropped the fractions of %zu time(s)",
	"jkf has no special for %zu terminal(s); wrote 'CHUDAN' with the "
	    "word as a comment",
	"forks nested deeper than %d are dropped: %zu variation(s)",
	"%zu line(s) stop before a move the rules refused; nothing after "
	    "it is written, variations included",
	"%zu illegal move(s) kept only as a comment before the terminal "
	    "that ends the game with it",
	"%zu string(s) were not valid UTF-8; bad bytes replaced",
};

struct out {
	const struct record *r;
	struct diag_list *d;
	int oom;			/* jansson failed to allocate */
	size_t lost[LOSS_NB];
	int32_t lost_at[LOSS_NB];	/* node of the first; -1 none */
	struct strbuf tmp;		/* scratch: repaired UTF-8 */
	struct strbuf key;		/* scratch: a repaired header key */
	const char *rules;		/* write_opts' rules; NULL none */
};

static void
lose(struct out *w, enum loss l, int32_t node, size_t count)
{
	if (!w->lost[l])
		w->lost_at[l] = node;
	w->lost[l] += count;
}

static void
report_losses(struct out *w)
{
	int l;

	for (l = 0; l < LOSS_NB; l++) {
		const struct record_node *n;

		if (!w->lost[l])
			continue;
		/* Header losses have no node. */
		n = w->lost_at[l] >= 0 ? &w->r->nodes[w->lost_at[l]] : NULL;
		if (l == LOSS_DEEP)
			diag_add(w->d, DIAG_WARNING,
			    diag_id_name(DIAG_LIMIT), &n->loc, n->ply,
			    loss_text[l], JKF_MAX_FORK_DEPTH, w->lost[l]);
		else
			diag_add(w->d, DIAG_WARNING,
			    diag_id_name(DIAG_LIMIT), n ? &n->loc : NULL,
			    n ? n->ply : 0, loss_text[l], w->lost[l]);
	}
}

/* Adds to obj, or notes that memory ran out. Takes the reference. */
static void
set(struct out *w, json_t *obj, const char *key, json_t *val)
{
	if (!val || json_object_set_new(obj, key, val) < 0)
		w->oom = 1;
}

static void
append(struct out *w, json_t *arr, json_t *val)
{
	if (!val || json_array_append_new(arr, val) < 0)
		w->oom = 1;
}

/*
 * s[0..*n) as valid UTF-8 without NULs: s itself when it is (as decoded
 * text always is), else a copy in buf with each bad byte replaced by
 * U+FFFD (*n updated).
 */
static const char *
utf8(struct out *w, const char *s, size_t *n, int32_t node,
    struct strbuf *buf)
{
	size_t i = 0, k;

	while (i < *n && s[i] && (k = utf8_valid_seq((const unsigned char *)s +
	    i, *n - i)) != 0)
		i += k;
	if (i == *n)
		return s;
	lose(w, LOSS_UTF8, node, 1);
	strbuf_reset(buf);
	for (i = 0; i < *n; i += k) {
		k = s[i] ? utf8_valid_seq((const unsigned char *)s + i,
		    *n - i) : 0;
		if (k) {
			strbuf_add(buf, s + i, k);
		} else {
			strbuf_adds(buf, "\xef\xbf\xbd");
			k = 1;
		}
	}
	*n = buf->len;
	return buf->buf;
}

static json_t *
stringn(struct out *w, const char *s, size_t n, int32_t node)
{
	const char *ok = utf8(w, s, &n, node, &w->tmp);

	return json_stringn(ok, n);
}

static json_t *
string(struct out *w, const char *s, int32_t node)
{
	return stringn(w, s, strlen(s), node);
}

/* ---- header ---- */

/*
 * The key a header is written under: a KIF key as written (下手 stays
 * 下手), else the KIF key of its id (CSA $EVENT -> 棋戦, N+ -> 先手),
 * else the key as written.
 */
static const char *
header_key(const struct record_header *h, const char *key)
{
	const char *kif;

	if (h->id == HDR_OTHER)
		return key;
	if (kakinoki_header_id(key, strlen(key)) == h->id)
		return key;
	kif = kakinoki_header_key(h->id, 0);
	return kif ? kif : key;
}

static json_t *
write_header(struct out *w)
{
	const struct record *r = w->r;
	json_t *obj = json_object();
	size_t i;

	if (!obj) {
		w->oom = 1;
		return NULL;
	}
	for (i = 0; i < r->nheaders; i++) {
		const struct record_header *h = &r->headers[i];
		const char *key;
		size_t klen;

		switch (h->id) {
		case HDR_VERSION: case HDR_ENCODING:
			/* Of the file it came from, not of the game. */
			continue;
		case HDR_RULES:
			if (w->rules)
				continue;	/* stated below instead */
			break;
		case HDR_RAW:
			lose(w, LOSS_RAW_HEADER, -1, 1);
			continue;
		default:
			break;
		}
		key = header_key(h, record_str(r, h->key));
		if (!*key)
			continue;
		klen = strlen(key);
		key = utf8(w, key, &klen, -1, &w->key);
		if (json_object_get(obj, key)) {
			lose(w, LOSS_DUP_HEADER, -1, 1);
			continue;
		}
		set(w, obj, key, string(w, record_str(r, h->value), -1));
	}
	if (w->rules && *w->rules)
		set(w, obj, kakinoki_header_key(HDR_RULES, 0),
		    string(w, w->rules, -1));
	return obj;
}

/* ---- initial ---- */

/* The order hands are listed in, as the normalizer writes them. */
static const enum piece_type hand_order[] = {
	PT_PAWN, PT_LANCE, PT_KNIGHT, PT_SILVER, PT_GOLD, PT_BISHOP, PT_ROOK
};

static json_t *
write_data(struct out *w, const struct position *pos)
{
	json_t *data = json_object(), *board = json_array(), *hands;
	int file, rank, c;
	size_t i;

	if (!data || !board) {
		json_decref(data);
		json_decref(board);
		w->oom = 1;
		return NULL;
	}
	set(w, data, "color", json_integer(pos->side));
	for (file = 0; file < FILE_NB; file++) {
		json_t *col = json_array();

		for (rank = 0; rank < RANK_NB && col; rank++) {
			piece p = pos->board[sq_make(file, rank)];
			json_t *sq = json_object();

			if (sq && p != PIECE_NONE) {
				set(w, sq, "color",
				    json_integer(piece_color(p)));
				set(w, sq, "kind",
				    json_string(jkf_kind(piece_type_of(p))));
			}
			append(w, col, sq);
		}
		append(w, board, col);
	}
	set(w, data, "board", board);
	hands = json_array();
	for (c = 0; c < COLOR_NB && hands; c++) {
		json_t *hand = json_object();

		for (i = 0; i < NELEM(hand_order) && hand; i++)
			set(w, hand, jkf_kind(hand_order[i]),
			    json_integer(pos->hand[c][hand_order[i]]));
		append(w, hands, hand);
	}
	set(w, data, "hands", hands);
	return data;
}

/* A preset for the standard starts, else OTHER with the position. */
static json_t *
write_initial(struct out *w)
{
	const struct position *pos = &w->r->start;
	const char *preset = jkf_preset(handicap_identify(pos));
	json_t *ini = json_object();

	if (!ini) {
		w->oom = 1;
		return NULL;
	}
	set(w, ini, "preset", json_string(preset ? preset : "OTHER"));
	if (!preset)
		set(w, ini, "data", write_data(w, pos));
	return ini;
}

/* ---- moves ---- */

/* Comment lines, then the bookmark as a '&' line (KIF's order). */
static void
write_comments(struct out *w, json_t *entry, const struct record_node *n,
    int32_t node, const char *extra)
{
	const char *s = record_str(w->r, n->comment);
	json_t *arr;

	if (!n->comment && !n->bookmark && !extra)
		return;
	if (!(arr = json_array())) {
		w->oom = 1;
		return;
	}
	if (extra)
		append(w, arr, string(w, extra, node));
	while (n->comment) {
		size_t k = strcspn(s, "\n");

		append(w, arr, stringn(w, s, k && s[k - 1] == '\r' ? k - 1 : k,
		    node));
		if (!s[k])
			break;
		s += k + 1;
	}
	if (n->bookmark) {
		struct strbuf line = STRBUF_INIT;

		strbuf_addc(&line, '&');
		strbuf_adds(&line, record_str(w->r, n->bookmark));
		append(w, arr, stringn(w, line.buf, line.len, node));
		strbuf_release(&line);
	}
	set(w, entry, "comments", arr);
}

static json_t *
place(struct out *w, square sq)
{
	json_t *p = json_object();

	if (p) {
		set(w, p, "x", json_integer(sq_file(sq) + 1));
		set(w, p, "y", json_integer(sq_rank(sq) + 1));
	}
	return p;
}

/* JSA words as JKF letters: the position word first ("LU", "RM"). */
static void
relative(unsigned rel, int drop_word, char buf[4])
{
	size_t k = 0;

	if (rel & REL_LEFT)
		buf[k++] = 'L';
	if (rel & REL_STRAIGHT)
		buf[k++] = 'C';
	if (rel & REL_RIGHT)
		buf[k++] = 'R';
	if (rel & REL_UP)
		buf[k++] = 'U';
	if (rel & REL_SIDEWAYS)
		buf[k++] = 'M';
	if (rel & REL_DOWN)
		buf[k++] = 'D';
	if (drop_word)
		buf[k++] = 'H';
	buf[k] = '\0';
}

/* Whether the move m (not a drop, not promoting) could have promoted. */
static int
could_promote(const struct position *pos, move m)
{
	enum piece_type pt = piece_type_of(move_piece(m));
	enum color c = piece_color(move_piece(m));

	return pt_can_promote(pt) && (bb_test(pos->v->zone[c], move_from(m)) ||
	    bb_test(pos->v->zone[c], move_to(m)));
}

/*
 * The move of node i, played in pos (before it): "same" when it goes
 * where the move before it went, "capture" as the piece stood.
 */
static json_t *
write_move(struct out *w, const struct position *pos, int32_t i)
{
	const struct record *r = w->r;
	const struct record_node *n = &r->nodes[i];
	const struct record_node *prev = &r->nodes[n->parent];
	move m = n->mv;
	square to = move_to(m);
	json_t *obj = json_object();
	unsigned rel_bits;
	char rel[4];
	int drop_word;

	if (!obj) {
		w->oom = 1;
		return NULL;
	}
	set(w, obj, "color", json_integer(piece_color(move_piece(m))));
	if (!move_is_drop(m))
		set(w, obj, "from", place(w, move_from(m)));
	set(w, obj, "to", place(w, to));
	set(w, obj, "piece", json_string(jkf_kind(move_is_drop(m) ?
	    move_drop_type(m) : piece_type_of(move_piece(m)))));
	if (n->parent > 0 && prev->special == SP_NONE &&
	    prev->mv != MOVE_NONE && move_to(prev->mv) == to)
		set(w, obj, "same", json_true());
	if (move_is_promotion(m))
		set(w, obj, "promote", json_true());
	else if (!move_is_drop(m) && could_promote(pos, m))
		set(w, obj, "promote", json_false());
	if (!move_is_drop(m) && pos->board[to] != PIECE_NONE)
		set(w, obj, "capture",
		    json_string(jkf_kind(piece_type_of(pos->board[to]))));
	rel_bits = notation_words(pos, m, &drop_word);
	relative(rel_bits, drop_word, rel);
	if (rel[0])
		set(w, obj, "relative", json_string(rel));
	return obj;
}

static json_t *
clock_json(struct out *w, int64_t ms, int hours)
{
	int64_t s = ms / 1000;
	json_t *c = json_object();

	if (!c) {
		w->oom = 1;
		return NULL;
	}
	if (hours) {
		set(w, c, "h", json_integer(s / 3600));
		set(w, c, "m", json_integer(s / 60 % 60));
	} else {
		set(w, c, "m", json_integer(s / 60));
	}
	set(w, c, "s", json_integer(s % 60));
	return c;
}

/*
 * "now" as KIF writes it, minutes and seconds; "total" with hours. A
 * total the record does not state is the side's running sum.
 */
static void
write_time(struct out *w, json_t *entry, int32_t i, enum color side,
    int64_t totals[COLOR_NB])
{
	const struct record_node *n = &w->r->nodes[i];
	json_t *t;

	if (n->time_ms < 0)
		return;
	totals[side] = n->total_ms >= 0 ? n->total_ms :
	    totals[side] + n->time_ms;
	if (n->time_ms % 1000 || totals[side] % 1000)
		lose(w, LOSS_FRACTION, i, 1);
	if (!(t = json_object())) {
		w->oom = 1;
		return;
	}
	set(w, t, "now", clock_json(w, n->time_ms, 0));
	set(w, t, "total", clock_json(w, totals[side], 1));
	set(w, entry, "time", t);
}

/* The side the previous mover of slot i is: who fouled before it. */
static enum color
fouler_at(const struct record *r, int32_t i)
{
	return color_flip(replay_side_at(r, i));
}

static json_t *
write_special(struct out *w, int32_t i, const char **extra)
{
	const struct record_node *n = &w->r->nodes[i];
	const char *word = jkf_special((enum special)n->special,
	    fouler_at(w->r, i));

	if (!word) {
		lose(w, LOSS_SPECIAL, i, 1);
		*extra = record_str(w->r, n->raw);
		if (!**extra)
			*extra = special_name((enum special)n->special);
		word = "CHUDAN";
	}
	return json_string(word);
}

/*
 * The terminal right after the refused move i when it says that very
 * move was the foul that ended the game (反則勝ち, %+ILLEGAL_ACTION
 * after that side's move), else -1.
 */
static int32_t
foul_terminal(const struct record *r, int32_t i)
{
	int32_t t = r->nodes[i].next;
	enum color mover = replay_side_at(r, i);
	enum special sp;

	if (t < 0)
		return -1;
	sp = (enum special)r->nodes[t].special;
	return sp == SP_ILLEGAL_WIN || (sp == SP_ILLEGAL_BLACK &&
	    mover == BLACK) || (sp == SP_ILLEGAL_WHITE && mover == WHITE) ?
	    t : -1;
}

static void write_line(struct out *w, json_t *arr, int32_t first,
    const struct position *start, const int64_t totals[COLOR_NB],
    int depth, int first_forks);

/*
 * The alternatives to node i (its alt chain) as forks, played from pos;
 * NULL if none can be written.
 */
static json_t *
write_forks(struct out *w, int32_t i, const struct position *pos,
    const int64_t totals[COLOR_NB], int depth)
{
	const struct record *r = w->r;
	json_t *forks;
	int32_t a;

	if (depth >= JKF_MAX_FORK_DEPTH) {
		for (a = r->nodes[i].alt; a >= 0; a = r->nodes[a].alt)
			lose(w, LOSS_DEEP, a, 1);
		return NULL;
	}
	if (!(forks = json_array())) {
		w->oom = 1;
		return NULL;
	}
	for (a = r->nodes[i].alt; a >= 0; a = r->nodes[a].alt) {
		json_t *fork = json_array();

		if (!fork) {
			w->oom = 1;
			break;
		}
		write_line(w, fork, a, pos, totals, depth + 1, 0);
		if (json_array_size(fork))
			append(w, forks, fork);
		else
			json_decref(fork);
	}
	if (!json_array_size(forks)) {
		json_decref(forks);
		return NULL;
	}
	return forks;
}

/*
 * One entry for a refused move whose terminal says it was the foul that
 * ended the game: the move itself no reader would take, so it goes into
 * a comment of the signed ILLEGAL_ACTION.
 */
static void
write_foul(struct out *w, json_t *arr, int32_t i, int32_t t)
{
	const struct record *r = w->r;
	json_t *entry = json_object();
	const char *fouled = replay_side_at(r, i) == BLACK ?
	    "+ILLEGAL_ACTION" : "-ILLEGAL_ACTION";
	struct strbuf line = STRBUF_INIT;

	if (!entry) {
		w->oom = 1;
		return;
	}
	lose(w, LOSS_FOUL, i, 1);
	strbuf_addf(&line, "illegal move: %s", record_str(r, r->nodes[i].raw));
	write_comments(w, entry, &r->nodes[t], t, line.buf);
	strbuf_release(&line);
	set(w, entry, "special", json_string(fouled));
	append(w, arr, entry);
}

/*
 * Entries for the line from node `first` on, played from start. The
 * first node's alternatives are forks of the entry before when this line
 * is itself a fork (first_forks 0): they are its siblings.
 */
static void
write_line(struct out *w, json_t *arr, int32_t first,
    const struct position *start, const int64_t totals[COLOR_NB],
    int depth, int first_forks)
{
	const struct record *r = w->r;
	struct position pos = *start;
	int64_t tot[COLOR_NB];
	int32_t i;

	tot[BLACK] = totals[BLACK];
	tot[WHITE] = totals[WHITE];
	for (i = first; i >= 0; i = r->nodes[i].next) {
		const struct record_node *n = &r->nodes[i];
		const char *extra = NULL;
		json_t *entry, *what, *forks = NULL;
		enum color side;
		struct undo u;
		int32_t t;

		if (n->special == SP_NONE && n->mv == MOVE_NONE) {
			if ((t = foul_terminal(r, i)) >= 0)
				write_foul(w, arr, i, t);
			else
				lose(w, LOSS_UNRESOLVED, i, 1);
			return;
		}
		if (!(entry = json_object())) {
			w->oom = 1;
			return;
		}
		if (n->special != SP_NONE) {
			side = replay_side_at(r, i);
			what = write_special(w, i, &extra);
		} else {
			side = piece_color(move_piece(n->mv));
			what = write_move(w, &pos, i);
		}
		write_comments(w, entry, n, i, extra);
		set(w, entry, n->special != SP_NONE ? "special" : "move", what);
		/* Forks replace this node: they start from before it. */
		if (n->alt >= 0 && (i != first || first_forks))
			forks = write_forks(w, i, &pos, tot, depth);
		write_time(w, entry, i, side, tot);
		if (forks)
			set(w, entry, "forks", forks);
		append(w, arr, entry);
		if (n->special != SP_NONE)
			return;
		position_do_move(&pos, n->mv, &u);
	}
}

static json_t *
write_moves(struct out *w)
{
	static const int64_t zero[COLOR_NB] = { 0, 0 };
	const struct record *r = w->r;
	json_t *moves = json_array(), *start = json_object();

	if (!moves || !start) {
		json_decref(moves);
		json_decref(start);
		w->oom = 1;
		return NULL;
	}
	write_comments(w, start, &r->nodes[0], 0, NULL);
	append(w, moves, start);
	write_line(w, moves, r->nodes[0].next, &r->start, zero, 0, 1);
	return moves;
}

int
jkf_write(const struct record *r, const struct write_opts *o,
    struct strbuf *out, struct diag_list *d)
{
	struct out w;
	json_t *root;
	char *text;
	int l;

	if (r->start.v != variant_standard()) {
		diag_add(d, DIAG_ERROR, diag_id_name(DIAG_LIMIT), NULL, 0,
		    "jkf cannot hold %s records: it has no field for the "
		    "variant, and its boards are 9x9", r->start.v ?
		    r->start.v->name : "unknown");
		return -1;
	}
	memset(&w, 0, sizeof(w));
	w.r = r;
	w.d = d;
	w.rules = o ? o->rules : NULL;
	for (l = 0; l < LOSS_NB; l++)
		w.lost_at[l] = -1;
	strbuf_init(&w.tmp);
	strbuf_init(&w.key);
	if (!(root = json_object())) {
		w.oom = 1;
	} else {
		set(&w, root, "header", write_header(&w));
		set(&w, root, "initial", write_initial(&w));
		set(&w, root, "moves", write_moves(&w));
	}
	strbuf_release(&w.tmp);
	strbuf_release(&w.key);
	text = w.oom ? NULL : json_dumps(root, JSON_INDENT(2));
	json_decref(root);
	if (!text) {
		diag_add(d, DIAG_ERROR, diag_id_name(DIAG_LIMIT), NULL, 0,
		    "out of memory writing jkf");
		return -1;
	}
	strbuf_adds(out, text);
	strbuf_addc(out, '\n');
	free(text);
	report_losses(&w);
	writer_report_flipped(r, "jkf", d);
	/* A board from the middle of a game (SFEN, a KIF diagram's 手数＝). */
	if (r->start.move_number > 1)
		diag_add(d, DIAG_WARNING, diag_id_name(DIAG_LIMIT), NULL, 0,
		    "jkf cannot hold the move number of the start (%d); "
		    "dropped", r->start.move_number);
	return 0;
}
