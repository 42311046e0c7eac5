/*
 * picture.h - the pictures `kifu show` makes and the library hands out,
 * made of the drawing (picture/diagram.h), the renderer (render.h) and
 * the GIF encoder (gif.h): a diagram as PNG, a game as an animated GIF,
 * the main line listed under the terminal board.
 *
 * Nothing here prints: what fails comes back as text in `why`.
 */
#ifndef KIFU_PICTURE_PICTURE_H
#define KIFU_PICTURE_PICTURE_H

#include <stdint.h>

#include "picture/diagram.h"

/*
 * An SVG picture (a diagram's, a graph's), w x h pixels, as a PNG
 * appended to out. Returns 0, or -1 with the reason appended to why
 * (librsvg cannot be loaded, cannot draw).
 */
int picture_svg_png(const struct strbuf *svg, int w, int h,
    struct strbuf *out, struct strbuf *why);
/* The diagram as a PNG, as picture_svg_png. */
int picture_png(const struct diagram *dg, const struct svg_style *st,
    struct strbuf *out, struct strbuf *why);

/* How long the frames of a GIF stay. */
struct gif_timing {
	int64_t delay_ms;	/* each frame's time */
	/*
	 * Above 0: a frame stays the time the record gives the next move,
	 * times this (frames of moves without a time stay delay_ms).
	 */
	double real_time;
};

/* The last frame of a GIF stays this long, or a frame's time if longer. */
#define GIF_HOLD_MS 3000

/*
 * The game as an animated GIF, appended to out: the start, then a frame
 * for each of the first `frames` moves of the main line (which must
 * have that many legal moves: diagram_at tells). r must have been
 * replayed. Returns 0, or -1 with the reason appended to why.
 */
int picture_gif(const struct record *r, int frames,
    const struct svg_style *st, const struct gif_timing *t,
    struct strbuf *out, struct strbuf *why);

/*
 * The main line as KIF lists it (times, comments), after a blank line,
 * as `kifu show --moves` prints it under the board: with colour, the
 * line of move `ply` wrapped in DIAGRAM_MARK_ON/OFF. Control characters
 * of the record's text are shown as '?'. What the listing leaves out
 * goes to d as warnings.
 */
void picture_moves_text(const struct record *r, int ply, int colour,
    struct strbuf *out, struct diag_list *d);

#endif /* KIFU_PICTURE_PICTURE_H */
