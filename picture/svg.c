/*
 * svg.c - a position as an SVG diagram, the way printed shogi diagrams
 * look: the board with its grid and star points, file numerals over it
 * and rank numerals at its right, the side at the top's hand to the left
 * from the top and the other's to the right from the bottom, players and
 * the last move under it.
 *
 * Pieces are text in a CJK font, so the file is small and any renderer
 * draws it: a list of the common Japanese fonts of each system ends with
 * the generic serif. Every element a reader may look for has a class
 * (piece, hand, last...) and pieces say their square and colour, so a
 * test or a script can find them.
 *
 * Lengths are in units of one square (u); the picture is `width` pixels
 * wide and its viewBox is the same, so one user unit is one pixel.
 */
#include <stdio.h>
#include <string.h>

#include "picture/diagram.h"
#include "picture/svgout.h"
#include "parsers/jkf.h"
#include "parsers/kakinoki.h"

const uint32_t diagram_svg_colours[SVG_NCOLOURS] = {
	0xffffff,	/* page */
	0xf0d39b,	/* board: light kaya */
	0x000000,	/* ink: pieces, lines, text */
	0xee9a4d,	/* shade: the last move's square */
};

/* The layout, in squares. */
#define PAD 0.25	/* around everything */
#define HAND 1.2	/* a hand's column */
#define GAP 0.25	/* between a hand and the board (or its labels) */
#define LABEL 0.55	/* the numerals over and beside the board */
#define CAPTION 1.5	/* the two lines under the board */
#define PIECE 0.8	/* a piece's font size */
#define TEXT 0.42	/* labels and captions */

/* The wide-character width a caption line gives each player's name. */
#define NAME_COLUMNS(files) ((files) * 2 - 4)

/* Where the move line starts under the board; the names are above it. */
#define MOVE_LINE 0.75

struct svg {
	const struct diagram *dg;
	struct strbuf *sb;
	double u;		/* one square, in pixels */
	double bx, by;		/* the board's top left corner */
	int w, h;		/* the picture */
	int files, ranks;
	int flip;
	const struct svg_rect *only;	/* draw what meets these (n > 0) */
	int nonly;
};

/* A part of the picture: its pieces of text all lie inside. */
struct box {
	double x0, y0, x1, y1;
};

static double
width_units(const struct variant *v)
{
	return 2 * PAD + 2 * HAND + 2 * GAP + LABEL + v->files;
}

static double
height_units(const struct variant *v)
{
	return 2 * PAD + LABEL + v->ranks + CAPTION;
}

int
diagram_svg_height(const struct variant *v, int width)
{
	return (int)(width * height_units(v) / width_units(v) + 0.5);
}

static void
colour(struct strbuf *sb, int which)
{
	strbuf_addf(sb, "#%06x", (unsigned)diagram_svg_colours[which]);
}

static void
text(struct svg *s, const char *cls, double cx, double cy, double size,
    const char *anchor, const char *str)
{
	svg_open_text(s->sb, cls, cx, cy, size, anchor, 0);
	strbuf_addc(s->sb, '>');
	svg_xml(s->sb, str, 0);
	strbuf_adds(s->sb, "</text>\n");
}

static void
rect(struct svg *s, const char *cls, double x, double y, double w, double h,
    int fill)
{
	struct strbuf *sb = s->sb;

	strbuf_addf(sb, "<rect class=\"%s\" x=\"", cls);
	svg_num(sb, x);
	strbuf_adds(sb, "\" y=\"");
	svg_num(sb, y);
	strbuf_adds(sb, "\" width=\"");
	svg_num(sb, w);
	strbuf_adds(sb, "\" height=\"");
	svg_num(sb, h);
	strbuf_adds(sb, "\" fill=\"");
	colour(sb, fill);
	strbuf_adds(sb, "\"/>\n");
}

/* The column and row on the picture of a square (0, 0: top left). */
static void
place(const struct svg *s, square sq, int *col, int *row)
{
	if (s->flip) {
		*col = sq_file(sq);
		*row = s->ranks - 1 - sq_rank(sq);
	} else {
		*col = s->files - 1 - sq_file(sq);
		*row = sq_rank(sq);
	}
}

static void
draw_grid(struct svg *s)
{
	struct strbuf *sb = s->sb;
	double u = s->u, w = s->files * u, h = s->ranks * u;
	int i;

	rect(s, "board", s->bx, s->by, w, h, SVG_BOARD);
	if (s->dg->last != MOVE_NONE) {
		int col, row;

		place(s, move_to(s->dg->last), &col, &row);
		rect(s, "last", s->bx + col * u, s->by + row * u, u, u,
		    SVG_SHADE);
	}
	strbuf_adds(sb, "<path class=\"grid\" fill=\"none\" stroke=\"");
	colour(sb, SVG_INK);
	strbuf_adds(sb, "\" stroke-width=\"");
	svg_num(sb, u / 36);
	strbuf_adds(sb, "\" d=\"");
	for (i = 1; i < s->files; i++) {
		strbuf_addc(sb, 'M');
		svg_num(sb, s->bx + i * u);
		strbuf_addc(sb, ' ');
		svg_num(sb, s->by);
		strbuf_addc(sb, 'v');
		svg_num(sb, h);
	}
	for (i = 1; i < s->ranks; i++) {
		strbuf_addc(sb, 'M');
		svg_num(sb, s->bx);
		strbuf_addc(sb, ' ');
		svg_num(sb, s->by + i * u);
		strbuf_addc(sb, 'h');
		svg_num(sb, w);
	}
	strbuf_adds(sb, "\"/>\n<rect class=\"frame\" x=\"");
	svg_num(sb, s->bx);
	strbuf_adds(sb, "\" y=\"");
	svg_num(sb, s->by);
	strbuf_adds(sb, "\" width=\"");
	svg_num(sb, w);
	strbuf_adds(sb, "\" height=\"");
	svg_num(sb, h);
	strbuf_adds(sb, "\" fill=\"none\" stroke=\"");
	colour(sb, SVG_INK);
	strbuf_adds(sb, "\" stroke-width=\"");
	svg_num(sb, u / 14);
	strbuf_adds(sb, "\"/>\n");
	/* The star points of the 9x9 board: the corners of its centre. */
	if (s->files == 9 && s->ranks == 9) {
		int x, y;

		for (x = 3; x <= 6; x += 3)
			for (y = 3; y <= 6; y += 3) {
				strbuf_adds(sb, "<circle class=\"star\" cx=\"");
				svg_num(sb, s->bx + x * u);
				strbuf_adds(sb, "\" cy=\"");
				svg_num(sb, s->by + y * u);
				strbuf_adds(sb, "\" r=\"");
				svg_num(sb, u / 14);
				strbuf_adds(sb, "\" fill=\"");
				colour(sb, SVG_INK);
				strbuf_adds(sb, "\"/>\n");
			}
	}
}

/* Whether the box meets a rectangle the drawing is limited to. */
static int
wanted(const struct svg *s, struct box b)
{
	int i;

	for (i = 0; i < s->nonly; i++) {
		const struct svg_rect *r = &s->only[i];

		if (b.x0 < r->x + r->w && r->x < b.x1 && b.y0 < r->y + r->h &&
		    r->y < b.y1)
			return 1;
	}
	return s->nonly == 0;
}

static struct box
make_box(double x0, double y0, double x1, double y1)
{
	struct box b;

	b.x0 = x0;
	b.y0 = y0;
	b.x1 = x1;
	b.y1 = y1;
	return b;
}

static struct box
square_box(const struct svg *s, int col, int row)
{
	return make_box(s->bx + col * s->u, s->by + row * s->u,
	    s->bx + (col + 1) * s->u, s->by + (row + 1) * s->u);
}

/* The x of the hand column at the right, after the rank numerals. */
static double
right_column(const struct svg *s)
{
	return s->bx + (s->files + LABEL + GAP) * s->u;
}

/* A hand's column (the left one from the picture's edge to the board). */
static struct box
hand_box(const struct svg *s, int left)
{
	double bottom = s->by + s->ranks * s->u;

	if (left)
		return make_box(0, s->by, s->bx, bottom);
	return make_box(right_column(s) - GAP / 2 * s->u, s->by, s->w, bottom);
}

/* The lines under the board: the names, then the move. */
static struct box
caption_box(const struct svg *s, int move_line)
{
	double bottom = s->by + s->ranks * s->u;

	if (move_line)
		return make_box(0, bottom + MOVE_LINE * s->u, s->w, s->h);
	return make_box(0, bottom, s->w, bottom + MOVE_LINE * s->u);
}

static void
draw_labels(struct svg *s)
{
	double u = s->u;
	int i;

	for (i = 0; i < s->files; i++) {
		int file = s->flip ? i + 1 : s->files - i;

		if (!wanted(s, make_box(s->bx + i * u, s->by - LABEL * u,
		    s->bx + (i + 1) * u, s->by)))
			continue;
		text(s, "file", s->bx + (i + 0.5) * u, s->by - LABEL / 2 * u,
		    TEXT * u, "middle", kakinoki_file_digit(file));
	}
	for (i = 0; i < s->ranks; i++) {
		int rank = s->flip ? s->ranks - i : i + 1;

		if (!wanted(s, make_box(s->bx + s->files * u, s->by + i * u,
		    s->bx + (s->files + LABEL) * u, s->by + (i + 1) * u)))
			continue;
		text(s, "rank", s->bx + (s->files + LABEL / 2) * u,
		    s->by + (i + 0.5) * u, TEXT * u, "middle",
		    kakinoki_rank_kanji(rank));
	}
}

static void
draw_pieces(struct svg *s)
{
	const struct position *pos = &s->dg->pos;
	double u = s->u;
	square sq;

	for (sq = 0; sq < SQ_NB; sq++) {
		piece p = pos->board[sq];
		enum color c = piece_color(p);
		int col, row;

		if (p == PIECE_NONE)
			continue;
		place(s, sq, &col, &row);
		if (!wanted(s, square_box(s, col, row)))
			continue;
		svg_open_text(s->sb, "piece", s->bx + (col + 0.5) * u,
		    s->by + (row + 0.5) * u, PIECE * u, "middle",
		    c != (s->flip ? WHITE : BLACK));
		strbuf_addf(s->sb, " data-square=\"%d%d\" data-color=\"%s\" "
		    "data-piece=\"%s\">%s</text>\n", sq_file(sq) + 1,
		    sq_rank(sq) + 1, c == BLACK ? "black" : "white",
		    jkf_kind(piece_type_of(p)),
		    kakinoki_piece_cell(piece_type_of(p)));
	}
}

/* How many kinds of piece a hand of the variant can hold. */
static int
hand_kinds(const struct variant *v)
{
	int i, n = 0;

	for (i = 0; i < DIAGRAM_HAND_KINDS; i++)
		n += v->set_count[diagram_hand_order[i]] > 0;
	return n;
}

/*
 * A hand as a column of items a square apart (closer on a small board, so
 * that a full hand fits beside it): the side's mark, then each kind held
 * with its count, or なし. The hand at the left starts at the board's
 * top, the one at the right ends at its bottom.
 */
static void
draw_hand(struct svg *s, enum color c, int left)
{
	const struct position *pos = &s->dg->pos;
	double u = s->u, pitch = u, y;
	double cx = (left ? PAD * u : right_column(s)) + 0.45 * u;
	int kinds = hand_kinds(pos->v), items = 1, empty;
	size_t i;

	if (!wanted(s, hand_box(s, left)))
		return;
	if (kinds + 1 > s->ranks)
		pitch = u * s->ranks / (kinds + 1);
	for (i = 0; i < DIAGRAM_HAND_KINDS; i++)
		items += pos->hand[c][diagram_hand_order[i]] > 0;
	if ((empty = items == 1))
		items = 3;	/* な, し */
	y = left ? s->by : s->by + s->ranks * u - items * pitch;
	strbuf_addf(s->sb, "<g class=\"hand\" data-color=\"%s\">\n",
	    c == BLACK ? "black" : "white");
	text(s, "mark", cx, y + pitch / 2, 0.7 * pitch, "middle",
	    c == BLACK ? "☗" : "☖");
	y += pitch;
	for (i = 0; i < DIAGRAM_HAND_KINDS; i++) {
		enum piece_type pt = diagram_hand_order[i];
		int k = pos->hand[c][pt];

		if (!k)
			continue;
		svg_open_text(s->sb, "hand-piece", cx, y + pitch / 2,
		    0.7 * pitch, "middle", 0);
		strbuf_addf(s->sb, " data-piece=\"%s\" data-count=\"%d\">%s"
		    "</text>\n", jkf_kind(pt), k, kakinoki_piece_cell(pt));
		if (k > 1) {
			char n[8];

			snprintf(n, sizeof(n), "%d", k);
			text(s, "count", cx + 0.38 * pitch, y + 0.62 * pitch,
			    0.4 * pitch, "start", n);
		}
		y += pitch;
	}
	if (empty) {
		text(s, "none", cx, y + pitch / 2, 0.5 * pitch, "middle", "な");
		text(s, "none", cx, y + pitch * 1.5, 0.5 * pitch, "middle",
		    "し");
	}
	strbuf_adds(s->sb, "</g>\n");
}

/* A player's name, or the side's label when the record names nobody. */
static void
draw_name(struct svg *s, enum color c, double x, const char *anchor)
{
	const struct diagram *dg = s->dg;
	struct strbuf *sb = s->sb;

	if (!wanted(s, caption_box(s, 0)))
		return;
	svg_open_text(s->sb, "name", x, s->by + (s->ranks + 0.55) * s->u,
	    TEXT * s->u, anchor, 0);
	strbuf_addf(sb, " data-color=\"%s\">%s", c == BLACK ? "black" :
	    "white", c == BLACK ? "☗" : "☖");
	svg_xml(sb, *dg->name[c] ? dg->name[c] : diagram_side_label(dg, c),
	    NAME_COLUMNS(s->files));
	strbuf_adds(sb, "</text>\n");
}

/* "12手目　△３四歩まで", or at the start, the side to move. */
static void
draw_move(struct svg *s)
{
	const struct diagram *dg = s->dg;
	struct strbuf line = STRBUF_INIT;

	if (!wanted(s, caption_box(s, 1)))
		return;
	if (dg->number > 0)
		strbuf_addf(&line, "%d手目　", dg->number);
	if (dg->last != MOVE_NONE)
		strbuf_addf(&line, "%s%sまで",
		    kakinoki_mark(piece_color(move_piece(dg->last))), dg->ki2);
	else
		strbuf_addf(&line, "%s番", diagram_side_label(dg,
		    dg->pos.side));
	text(s, "move", s->bx + s->files * s->u / 2,
	    s->by + (s->ranks + 1.15) * s->u, TEXT * s->u, "middle", line.buf);
	strbuf_release(&line);
}

static void
layout(struct svg *s, const struct diagram *dg, const struct svg_style *st,
    struct strbuf *out)
{
	const struct variant *v = dg->pos.v;

	s->dg = dg;
	s->sb = out;
	s->u = st->width / width_units(v);
	s->files = v->files;
	s->ranks = v->ranks;
	s->flip = st->flip;
	s->bx = (PAD + HAND + GAP) * s->u;
	s->by = (PAD + LABEL) * s->u;
	s->w = st->width;
	s->h = diagram_svg_height(v, st->width);
	s->only = NULL;
	s->nonly = 0;
}

void
diagram_svg(const struct diagram *dg, const struct svg_style *st,
    struct strbuf *out)
{
	diagram_svg_part(dg, st, NULL, 0, out);
}

void
diagram_svg_part(const struct diagram *dg, const struct svg_style *st,
    const struct svg_rect *only, int n, struct strbuf *out)
{
	enum color top = st->flip ? BLACK : WHITE;
	struct svg s;
	int w, h;

	layout(&s, dg, st, out);
	s.only = only;
	s.nonly = n;
	w = s.w;
	h = s.h;
	strbuf_addf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"%s\" fill=\"",
	    w, h, w, h, SVG_FONTS);
	colour(out, SVG_INK);
	strbuf_adds(out, "\">\n");
	rect(&s, "page", 0, 0, w, h, SVG_PAGE);
	draw_grid(&s);
	draw_labels(&s);
	draw_pieces(&s);
	draw_hand(&s, top, 1);
	draw_hand(&s, color_flip(top), 0);
	draw_name(&s, top, s.bx, "start");
	draw_name(&s, color_flip(top), s.bx + s.files * s.u, "end");
	draw_move(&s);
	strbuf_adds(out, "</svg>\n");
}

/*
 * Adds the rectangle, grown to whole pixels and a pixel of margin, and
 * kept inside the w x h picture.
 */
static void
add_rect(const struct svg *s, struct svg_rect *out, int *n, struct box b)
{
	struct svg_rect *r = &out[(*n)++];
	int right = (int)b.x1 + 2, bottom = (int)b.y1 + 2;

	r->x = b.x0 < 1 ? 0 : (int)b.x0 - 1;
	r->y = b.y0 < 1 ? 0 : (int)b.y0 - 1;
	r->w = (right > s->w ? s->w : right) - r->x;
	r->h = (bottom > s->h ? s->h : bottom) - r->y;
}

static square
shaded(const struct diagram *dg)
{
	return dg->last != MOVE_NONE ? move_to(dg->last) : SQ_NONE;
}

int
diagram_svg_changes(const struct diagram *a, const struct diagram *b,
    const struct svg_style *st, struct svg_rect out[SVG_MAX_CHANGES])
{
	square sq, diff[8];
	int n = 0, nd = 0, i;
	struct svg s;
	enum color c;

	layout(&s, a, st, NULL);
	for (sq = 0; sq < SQ_NB && nd <= 8; sq++)
		if (a->pos.board[sq] != b->pos.board[sq] ||
		    ((sq == shaded(a)) != (sq == shaded(b)))) {
			if (nd == 8) {
				nd++;
				break;
			}
			diff[nd++] = sq;
		}
	if (nd > 8) {
		add_rect(&s, out, &n, make_box(s.bx, s.by,
		    s.bx + s.files * s.u, s.by + s.ranks * s.u));
	} else {
		for (i = 0; i < nd; i++) {
			int col, row;

			place(&s, diff[i], &col, &row);
			add_rect(&s, out, &n, square_box(&s, col, row));
		}
	}
	for (c = BLACK; c <= WHITE; c++)
		if (memcmp(a->pos.hand[c], b->pos.hand[c],
		    sizeof(a->pos.hand[c])) != 0)
			/* The side at the top has its hand at the left. */
			add_rect(&s, out, &n, hand_box(&s,
			    (c == WHITE) != st->flip));
	/* The move line changes with every move; the names never do. */
	add_rect(&s, out, &n, caption_box(&s, 1));
	return n;
}
