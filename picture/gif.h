/*
 * gif.h - an animated GIF from RGB frames, with giflib (loaded on first
 * use, like librsvg: see render.h).
 *
 * The frames are quantised to one global palette of 255 colours made of
 * the picture's own colours and the blends between each two of them
 * (which is what anti-aliased edges are), so no frame needs a palette of
 * its own. Each frame after the first holds only the rectangle that
 * changed, with the unchanged pixels in it transparent: a move costs a
 * few hundred bytes.
 */
#ifndef KIFU_PICTURE_GIF_H
#define KIFU_PICTURE_GIF_H

#include <stdint.h>

#include "core/strbuf.h"

struct gif;

/*
 * Starts a GIF of w x h pixels, appended to out (which must outlive the
 * writer), looping forever, its palette built from colours[0..n)
 * (0xRRGGBB, at most 8). Returns NULL with the reason appended to why.
 */
struct gif *gif_begin(int w, int h, const uint32_t *colours, int n,
    struct strbuf *out, struct strbuf *why);
/*
 * Adds a frame (w * h * 3 bytes of RGB) shown for delay_ms, which GIF
 * keeps in hundredths of a second: rounded, at least 2 (browsers slow
 * anything faster down to 10), at most 65535. Returns 0, or -1 as above.
 */
int gif_frame(struct gif *g, const unsigned char *rgb, int64_t delay_ms,
    struct strbuf *why);
/* Ends the file and frees g (also after a failure). Returns 0 or -1. */
int gif_end(struct gif *g, struct strbuf *why);

#endif /* KIFU_PICTURE_GIF_H */
