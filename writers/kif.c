/*
 * kif.c - writing a record as KIF in the layout Kifu for Windows writes
 * (formats.md 3.12): the "#KIF" line, headers, 手合割 or a board, the
 * separator, one numbered line per move with its origin and time, the
 * terminal and its まで line, then the variations depth first, each as a
 * 変化 block.
 *
 * A line stops at its first unresolved move. What KIF cannot say (a
 * terminal it has no word for) is written the nearest way it can, with a
 * warning, so that a conversion never loses data silently.
 */
#include <stdlib.h>
#include <string.h>

#include "core/handicap.h"
#include "core/xalloc.h"
#include "parsers/format.h"
#include "parsers/kakinoki.h"

/* Kifu for Windows starts the time field at this column of the move. */
#define MOVE_COLUMNS 13

struct out {
	const struct record *r;
	struct strbuf *sb;
	struct diag_list *d;
	int64_t *totals;	/* running_totals() */
};

static enum color
side_at(const struct record *r, int32_t i)
{
	return (enum color)((r->start.side + r->nodes[i].ply - 1) & 1);
}

/*
 * Each side's running total after every node: the nearest total the
 * record states on the path to it, plus the times after that. A node
 * comes after its parent in r->nodes, so one pass fills the table.
 */
static int64_t *
running_totals(const struct record *r)
{
	int64_t *tot = xreallocarray(NULL, r->nnodes,
	    COLOR_NB * sizeof(*tot));
	size_t i;

	tot[BLACK] = tot[WHITE] = 0;
	for (i = 1; i < r->nnodes; i++) {
		const struct record_node *n = &r->nodes[i];
		int64_t *t = tot + COLOR_NB * i;
		enum color c = side_at(r, (int32_t)i);

		memcpy(t, tot + COLOR_NB * (size_t)n->parent,
		    COLOR_NB * sizeof(*t));
		if (n->total_ms >= 0)
			t[c] = n->total_ms;
		else if (n->time_ms >= 0)
			t[c] += n->time_ms;
	}
	return tot;
}

/* Appends n as decimal, at least `width` digits wide, padded with pad. */
static void
add_num(struct strbuf *sb, int64_t n, int width, char pad)
{
	char buf[24];
	int k = 0;

	do
		buf[k++] = (char)('0' + n % 10);
	while ((n /= 10) != 0 && k < (int)sizeof(buf));
	for (; k < width; width--)
		strbuf_addc(sb, pad);
	while (k)
		strbuf_addc(sb, buf[--k]);
}

/*
 * Pads the move text written since `at` to the time column and adds
 * "( m:ss/hh:mm:ss)" when the node has a time, then "+" when an
 * alternative branches off here.
 */
static void
finish_move_line(struct out *w, int32_t i, size_t at, int64_t *totals)
{
	const struct record_node *n = &w->r->nodes[i];
	struct strbuf *sb = w->sb;
	size_t width = kakinoki_width(sb->buf + at, sb->len - at);
	enum color c = side_at(w->r, i);

	if (n->time_ms >= 0 || n->alt >= 0)
		do
			strbuf_addc(sb, ' ');
		while (++width < MOVE_COLUMNS);
	if (n->time_ms >= 0) {
		int64_t s = n->time_ms / 1000, t;

		totals[c] = n->total_ms >= 0 ? n->total_ms :
		    totals[c] + n->time_ms;
		t = totals[c] / 1000;
		strbuf_addc(sb, '(');
		add_num(sb, s / 60, 2, ' ');
		strbuf_addc(sb, ':');
		add_num(sb, s % 60, 2, '0');
		strbuf_addc(sb, '/');
		add_num(sb, t / 3600, 2, '0');
		strbuf_addc(sb, ':');
		add_num(sb, t / 60 % 60, 2, '0');
		strbuf_addc(sb, ':');
		add_num(sb, t % 60, 2, '0');
		strbuf_addc(sb, ')');
	} else if (n->total_ms >= 0) {
		totals[c] = n->total_ms;
	}
	if (n->alt >= 0)
		strbuf_addc(sb, '+');
	strbuf_addc(sb, '\n');
}

/* "７六歩(77)", "同　銀(31)": 同 when the previous move landed there. */
static void
write_move(struct out *w, int32_t i)
{
	kakinoki_write_move(w->sb, w->r->nodes[i].mv,
	    kakinoki_is_same(w->r, i));
}

/*
 * The word for a terminal. Those KIF has no word for are written as the
 * nearest one, an unknown word as it was read; either way, a warning.
 */
static const char *
terminal_word(struct out *w, int32_t i)
{
	const struct record_node *n = &w->r->nodes[i];
	enum special sp = (enum special)n->special;
	enum color s = side_at(w->r, i);
	const char *raw = record_str(w->r, n->raw);
	const char *word;
	enum color mark;

	switch (sp) {
	case SP_ILLEGAL_BLACK: case SP_ILLEGAL_WHITE:
		/* The foul was the last move, or is the side to move's own. */
		return (sp == SP_ILLEGAL_BLACK) == (s == BLACK) ?
		    "反則負け" : "反則勝ち";
	case SP_UNKNOWN:
		/*
		 * Only a single word reads back as the same terminal, and
		 * not one that starts with a mark the reader skips.
		 */
		if (*raw && !strpbrk(raw, " \t(") &&
		    !strstr(raw, "\xe3\x80\x80") &&
		    !kakinoki_read_mark(raw, strlen(raw), &mark)) {
			diag_add(w->d, DIAG_WARNING, diag_id_name(DIAG_LIMIT),
			    &n->loc, n->ply, "terminal '%s' is no word kifu "
			    "knows; written as it was", raw);
			return raw;
		}
		break;
	default:
		if ((word = kakinoki_special_word(sp)) != NULL)
			return word;
		break;
	}
	word = sp == SP_DRAW_DECLARATION ? "持将棋" : "中断";
	diag_add(w->d, DIAG_WARNING, diag_id_name(DIAG_LIMIT), &n->loc,
	    n->ply, "kif has no terminal for '%s'; wrote '%s'",
	    *raw ? raw : special_name(sp), word);
	return word;
}

/*
 * The move at node i was not resolved. When the record's terminal says
 * that move was the foul that ended the game, the slot says so
 * (反則負け: the side to move there fouled) and the move goes into a
 * comment; otherwise the line just stops.
 */
static void
write_stop(struct out *w, int32_t i, int64_t *totals)
{
	const struct record *r = w->r;
	const struct record_node *n = &r->nodes[i];
	int32_t t = kakinoki_foul_terminal(r, i);
	size_t at;

	if (t < 0) {
		diag_add(w->d, DIAG_WARNING, diag_id_name(DIAG_LIMIT), &n->loc,
		    n->ply, "move %d was not resolved; the kif line stops "
		    "before it", n->ply);
		return;
	}
	add_num(w->sb, n->ply, 4, ' ');
	strbuf_addc(w->sb, ' ');
	at = w->sb->len;
	strbuf_adds(w->sb, "反則負け");
	finish_move_line(w, i, at, totals);
	strbuf_addf(w->sb, "*illegal move: %s\n", record_str(r, n->raw));
	kakinoki_write_notes(w->r, n, w->sb);
	kakinoki_write_notes(w->r, &r->nodes[t], w->sb);
	kakinoki_write_summary(r, SP_ILLEGAL_MOVE, n->ply, w->sb);
	diag_add(w->d, DIAG_WARNING, diag_id_name(DIAG_LIMIT), &n->loc,
	    n->ply, "illegal move %d '%s' kept as a comment; the line ends "
	    "with 反則負け", n->ply, record_str(r, n->raw));
}

/* One line of play from node `first` to its end. */
static void
write_line(struct out *w, int32_t first)
{
	const struct record *r = w->r;
	int64_t totals[COLOR_NB];
	int32_t i;

	memcpy(totals, w->totals + COLOR_NB * (size_t)r->nodes[first].parent,
	    sizeof(totals));
	for (i = first; i >= 0; i = r->nodes[i].next) {
		const struct record_node *n = &r->nodes[i];
		size_t at;

		if (n->special == SP_NONE && n->mv == MOVE_NONE) {
			write_stop(w, i, totals);
			return;
		}
		add_num(w->sb, n->ply, 4, ' ');
		strbuf_addc(w->sb, ' ');
		at = w->sb->len;
		if (n->special != SP_NONE) {
			strbuf_adds(w->sb, terminal_word(w, i));
			finish_move_line(w, i, at, totals);
			kakinoki_write_notes(w->r, n, w->sb);
			kakinoki_write_summary(r, (enum special)n->special,
			    n->ply, w->sb);
			return;
		}
		write_move(w, i);
		finish_move_line(w, i, at, totals);
		kakinoki_write_notes(w->r, n, w->sb);
	}
}

static void
write_variation(void *ctx, int32_t first, int attached,
    const struct position *before)
{
	struct out *w = ctx;
	const struct record_node *n = &w->r->nodes[first];

	(void)before;
	if (!kakinoki_variation_ok(w->r, first, attached, "kif", w->d))
		return;
	strbuf_addf(w->sb, "\n変化：%d手\n", n->ply);
	write_line(w, first);
}

/* The separator line, then the main line, and its variations when asked. */
static void
write_moves(const struct record *r, int variations, struct strbuf *out,
    struct diag_list *d)
{
	struct out w;

	w.r = r;
	w.sb = out;
	w.d = d;
	w.totals = running_totals(r);
	strbuf_adds(out, "手数----指手---------消費時間--\n");
	if (r->nodes[0].comment || r->nodes[0].bookmark)
		kakinoki_write_notes(w.r, &r->nodes[0], w.sb);
	if (r->nodes[0].next >= 0)
		write_line(&w, r->nodes[0].next);
	if (variations)
		kakinoki_walk_variations(r, write_variation, &w);
	free(w.totals);
}

int
kif_write(const struct record *r, const struct write_opts *o,
    struct strbuf *out, struct diag_list *d)
{
	/* Room for every move line and comment: one allocation, mostly. */
	strbuf_grow(out, r->pool.len + r->nnodes * 40 + 1024);
	kakinoki_write_head(r, o, "KIF", out);
	write_moves(r, 1, out, d);
	return 0;
}

int
kif_write_main_line(const struct record *r, struct strbuf *out,
    struct diag_list *d)
{
	write_moves(r, 0, out, d);
	return 0;
}
