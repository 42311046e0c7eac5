/*
 * ki2.c - writing a record as KI2 in the layout Kifu for Windows writes
 * (formats.md 4): the header and start position as in KIF, then the
 * moves as "▲７六歩" tokens, six to a line and each padded to 12
 * columns, with exactly the relative words JSA notation asks for
 * (core/notation.h); the result only in the まで line; variations as in
 * KIF.
 *
 * KI2 has no times and no terminal words of its own: what is dropped is
 * reported, once per kind, so that a conversion never loses data
 * silently.
 */
#include <string.h>

#include "parsers/format.h"
#include "parsers/kakinoki.h"

/* Kifu for Windows pads each move to 12 columns and writes 6 a line. */
#define TOKEN_COLUMNS 12
#define TOKENS_PER_LINE 6

struct out {
	const struct record *r;
	struct strbuf *sb;
	struct diag_list *d;
	size_t times;		/* moves and terminals whose time is dropped */
	int32_t first_time;
	/* The text line being filled with moves. */
	int on_line;		/* tokens on it */
	size_t last_width;	/* display width of its last token */
};

static void
end_text_line(struct out *w)
{
	if (w->on_line)
		strbuf_addc(w->sb, '\n');
	w->on_line = 0;
}

/* "▲７六歩", "△同　歩", "▲同銀引", "▲５四銀右引不成", "△５五角打". */
static void
write_token(struct out *w, int32_t i, const struct position *pos)
{
	const struct record_node *n = &w->r->nodes[i];
	struct strbuf *sb = w->sb;
	size_t at;

	if (w->on_line) {
		size_t k;

		for (k = w->last_width; k < TOKEN_COLUMNS; k++)
			strbuf_addc(sb, ' ');
	}
	at = sb->len;
	strbuf_adds(sb, kakinoki_mark(piece_color(move_piece(n->mv))));
	kakinoki_write_ki2_move(sb, pos, n->mv, kakinoki_is_same(w->r, i));
	w->last_width = kakinoki_width(sb->buf + at, sb->len - at);
	w->on_line++;
}

static void
note_time(struct out *w, int32_t i)
{
	if (w->r->nodes[i].time_ms < 0 && w->r->nodes[i].total_ms < 0)
		return;
	if (w->times++ == 0)
		w->first_time = i;
}

/*
 * The まで line of a terminal. KI2 has no place for a word kifu does not
 * know; it is written as 中断 with a warning.
 */
static void
write_terminal(struct out *w, int32_t i)
{
	const struct record_node *n = &w->r->nodes[i];
	enum special sp = (enum special)n->special;

	note_time(w, i);
	end_text_line(w);
	kakinoki_write_summary(w->r, sp, n->ply, w->sb);
	switch (sp) {
	case SP_UNKNOWN: case SP_ERROR: case SP_MATTA:
	case SP_DRAW_DECLARATION: {
		const char *raw = record_str(w->r, n->raw);

		diag_add(w->d, DIAG_WARNING, diag_id_name(DIAG_LIMIT),
		    &n->loc, n->ply, "ki2 has no まで line for '%s'; wrote "
		    "'%s'", *raw ? raw : special_name(sp),
		    sp == SP_DRAW_DECLARATION ? "持将棋" : "中断");
		break;
	}
	default:
		break;
	}
	kakinoki_write_notes(w->r, n, w->sb);
}

/*
 * The move at node i was not resolved: the line stops, or, when the
 * record's terminal says that move was the foul that ended the game, the
 * まで line says so (反則負け) and the move goes into a comment, followed
 * by the notes of the move and of the terminal, as in KIF.
 */
static void
write_stop(struct out *w, int32_t i)
{
	const struct record *r = w->r;
	const struct record_node *n = &r->nodes[i];
	int32_t t = kakinoki_foul_terminal(r, i);

	end_text_line(w);
	if (t < 0) {
		diag_add(w->d, DIAG_WARNING, diag_id_name(DIAG_LIMIT), &n->loc,
		    n->ply, "move %d was not resolved; the ki2 line stops "
		    "before it", n->ply);
		return;
	}
	kakinoki_write_summary(r, SP_ILLEGAL_MOVE, n->ply, w->sb);
	strbuf_addf(w->sb, "*illegal move: %s\n", record_str(r, n->raw));
	kakinoki_write_notes(w->r, n, w->sb);
	kakinoki_write_notes(w->r, &r->nodes[t], w->sb);
	diag_add(w->d, DIAG_WARNING, diag_id_name(DIAG_LIMIT), &n->loc,
	    n->ply, "illegal move %d '%s' kept as a comment; the line ends "
	    "with 反則負け", n->ply, record_str(r, n->raw));
}

/* One line of play from node `first`, played from `before`. */
static void
write_line(struct out *w, int32_t first, const struct position *before)
{
	const struct record *r = w->r;
	struct position pos = *before;
	int32_t i;

	w->on_line = 0;
	for (i = first; i >= 0; i = r->nodes[i].next) {
		const struct record_node *n = &r->nodes[i];
		struct undo u;

		if (n->special != SP_NONE) {
			write_terminal(w, i);
			return;
		}
		if (n->mv == MOVE_NONE) {
			write_stop(w, i);
			return;
		}
		note_time(w, i);
		write_token(w, i, &pos);
		position_do_move(&pos, n->mv, &u);
		if (n->comment || n->bookmark) {
			/* A note ends the text line after its move. */
			end_text_line(w);
			kakinoki_write_notes(w->r, n, w->sb);
		} else if (w->on_line == TOKENS_PER_LINE) {
			end_text_line(w);
		}
	}
	end_text_line(w);
}

static void
write_variation(void *ctx, int32_t first, int attached,
    const struct position *before)
{
	struct out *w = ctx;
	const struct record_node *n = &w->r->nodes[first];

	if (!kakinoki_variation_ok(w->r, first, attached, "ki2", w->d))
		return;
	strbuf_addf(w->sb, "\n変化：%4d手\n", n->ply);
	write_line(w, first, before);
}

int
ki2_write(const struct record *r, const struct write_opts *o,
    struct strbuf *out, struct diag_list *d)
{
	struct out w;

	memset(&w, 0, sizeof(w));
	w.r = r;
	w.sb = out;
	w.d = d;
	strbuf_grow(out, r->pool.len + r->nnodes * 16 + 1024);
	kakinoki_write_head(r, o, "KI2", out);
	/* Kifu for Windows leaves a blank line before the moves. */
	strbuf_addc(out, '\n');
	kakinoki_write_notes(w.r, &r->nodes[0], w.sb);
	if (r->nodes[0].next >= 0)
		write_line(&w, r->nodes[0].next, &r->start);
	kakinoki_walk_variations(r, write_variation, &w);
	if (w.times) {
		const struct record_node *n = &r->nodes[w.first_time];

		diag_add(d, DIAG_WARNING, diag_id_name(DIAG_LIMIT), &n->loc,
		    n->ply, "ki2 cannot hold times; dropped %zu", w.times);
	}
	return 0;
}
