/*
 * diagram.h - pictures of one position of a record, for people (`kifu
 * show`): a board for the terminal (picture/diagram.c), in kanji as KIF
 * diagrams draw it or in CSA letters, and an SVG diagram (picture/svg.c).
 *
 * Both are text appended to a strbuf. Turning the SVG into pixels (PNG,
 * GIF frames) is the caller's: the library links no graphics library.
 * Boards are drawn at the size of the position's variant (9x9, 5x5).
 */
#ifndef KIFU_PICTURE_DIAGRAM_H
#define KIFU_PICTURE_DIAGRAM_H

#include <stdint.h>

#include "core/record.h"
#include "core/strbuf.h"

/* The order hands are listed in, strongest first, as every diagram does. */
#define DIAGRAM_HAND_KINDS 7
extern const enum piece_type diagram_hand_order[DIAGRAM_HAND_KINDS];

/*
 * One position to draw and what is said about it. A diagram owns its
 * position (a copy); the names are borrowed from the record and must
 * outlive it.
 */
struct diagram {
	struct position pos;
	move last;		/* the move that led here; MOVE_NONE: none */
	int number;		/* moves of the game before pos: move_number - 1 */
	int hg;			/* the sides are 下手/上手 (a handicap game) */
	const char *name[COLOR_NB];	/* the players; "" when not named */
	char kif[48];		/* last in KIF: "７六歩(77)", "同　銀(31)" */
	char ki2[48];		/* last in KI2: "７六歩", "同銀引" */
	char csa[8];		/* last in CSA: "+7776FU" */
};

/*
 * The record's start position, with its players; no last move. r must
 * have been replayed.
 */
void diagram_start(struct diagram *dg, const struct record *r);
/*
 * Plays node i of r (a move replay resolved, continuing from the position
 * dg shows) and makes it the last move.
 */
void diagram_play(struct diagram *dg, const struct record *r, int32_t i);
/*
 * The position after `ply` moves of the main line (ply < 0: after its
 * last legal move). Returns the moves played, less than ply when the main
 * line is shorter.
 */
int diagram_at(struct diagram *dg, const struct record *r, int ply);

/* "先手", "後手", or "下手", "上手" in a handicap game. */
const char *diagram_side_label(const struct diagram *dg, enum color c);

/*
 * The board for a terminal. Kanji (the default) is a KIF board diagram as
 * BOD writes it (White's pieces marked v, which every KIF reader reads),
 * under the players' 先手：/後手： lines and over the 手数＝ line naming the
 * last move and the side to move: the text reads back as KIF. ascii is
 * the same position as CSA's P1..P9, P+, P- lines (N+/N- names, ' notes),
 * which reads back as CSA. colour wraps the last move's square in ANSI
 * escapes.
 */
struct text_style {
	int ascii;
	int colour;
};
/* The colour of the last move: black on yellow, and back to normal. */
#define DIAGRAM_MARK_ON "\033[30;43m"
#define DIAGRAM_MARK_OFF "\033[0m"
void diagram_text(const struct diagram *dg, const struct text_style *st,
    struct strbuf *out);

/*
 * The SVG diagram: the board with its grid, file and rank labels (１-９,
 * 一-九), pieces as text (White's turned 180 degrees), the hands beside it
 * with counts, the last move's square shaded, the players and the move
 * under it. flip: as White sees it. The picture is `width` pixels wide.
 */
struct svg_style {
	int width;
	int flip;
};
void diagram_svg(const struct diagram *dg, const struct svg_style *st,
    struct strbuf *out);
/* The height of the picture diagram_svg draws `width` wide on v's board. */
int diagram_svg_height(const struct variant *v, int width);

/* A rectangle of the picture, in pixels. */
struct svg_rect {
	int x, y, w, h;
};
#define SVG_MAX_CHANGES 12
/*
 * Where the pictures of a and b (the same style, the same board) may
 * differ, in rectangles: each square whose piece or shading differs (the
 * whole board when more than 8 do), each hand that differs, and the
 * lines under the board. Everything outside them is the same pixels, so
 * an animation redraws only these. Returns how many went into out.
 */
int diagram_svg_changes(const struct diagram *a, const struct diagram *b,
    const struct svg_style *st, struct svg_rect out[SVG_MAX_CHANGES]);
/*
 * diagram_svg with only what meets one of the n rectangles (all of it
 * when n is 0): the page, the board and its lines, and the pieces, hands,
 * numerals and lines of text whose place meets one. Drawn inside those
 * rectangles, it gives the pixels the whole picture gives there, for a
 * fraction of the renderer's work.
 */
void diagram_svg_part(const struct diagram *dg, const struct svg_style *st,
    const struct svg_rect *only, int n, struct strbuf *out);

/*
 * The colours the SVG is drawn with (0xRRGGBB): every pixel of a
 * rendering is one of them or a blend of two, so a GIF palette built
 * from their blends holds the picture.
 */
enum {
	SVG_PAGE, SVG_BOARD, SVG_INK, SVG_SHADE,
	SVG_NCOLOURS
};
extern const uint32_t diagram_svg_colours[SVG_NCOLOURS];

#endif /* KIFU_PICTURE_DIAGRAM_H */
