/*
 * render.h - SVG text to pixels, with librsvg (the standard SVG renderer
 * of the free desktops, on cairo and pango), for `kifu show --png/--gif`.
 *
 * librsvg pulls in glib, cairo, pango, fontconfig and freetype: linked,
 * they would make every start of kifu several times slower, and most runs
 * draw nothing. So they are dlopen()ed on the first picture (only their
 * headers are needed to build), and a system without them gets an error
 * naming the Debian package, from the command that needs them alone.
 */
#ifndef KIFU_PICTURE_RENDER_H
#define KIFU_PICTURE_RENDER_H

#include <stddef.h>

#include "core/strbuf.h"

/* A rectangle of the picture, in pixels. */
struct render_rect {
	int x, y, w, h;
};

/* A w x h picture kept from one drawing to the next (for animations). */
struct renderer;

/*
 * A renderer, or NULL with the reason appended to why (librsvg cannot be
 * loaded, or the picture is too large).
 */
struct renderer *render_open(int w, int h, struct strbuf *why);
/*
 * Draws the SVG (n bytes) over the picture, inside the nclip rectangles
 * only (all of it when nclip is 0: the first frame must be whole), then
 * copies the picture into rgb (w * h * 3 bytes, the caller's: red,
 * green, blue, row by row) when rgb is not NULL. Drawing only what
 * changed makes a frame of an animation several times cheaper; what is
 * drawn is the same as a whole drawing there. Returns 0, or -1 with the
 * reason appended to why.
 */
int render_draw(struct renderer *rd, const char *svg, size_t n,
    const struct render_rect *clip, int nclip, unsigned char *rgb,
    struct strbuf *why);
/* The picture as a PNG file, appended to png. 0, or -1 as above. */
int render_png(struct renderer *rd, struct strbuf *png, struct strbuf *why);
void render_close(struct renderer *rd);

#endif /* KIFU_PICTURE_RENDER_H */
