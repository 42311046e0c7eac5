/*
 * picture.c - a diagram as PNG, a game as GIF, the main line's listing
 * (picture.h): what `kifu show` and kifu_record_show() share.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "picture/picture.h"
#include "picture/gif.h"
#include "picture/render.h"
#include "parsers/format.h"
#include "core/xalloc.h"

int
picture_svg_png(const struct strbuf *svg, int w, int h, struct strbuf *out,
    struct strbuf *why)
{
	struct renderer *rd;
	int rc = 0;

	if (!(rd = render_open(w, h, why)) || render_draw(rd, svg->buf,
	    svg->len, NULL, 0, NULL, why) < 0 || render_png(rd, out, why) < 0)
		rc = -1;
	if (rd)
		render_close(rd);
	return rc;
}

int
picture_png(const struct diagram *dg, const struct svg_style *st,
    struct strbuf *out, struct strbuf *why)
{
	struct strbuf svg = STRBUF_INIT;
	int rc;

	diagram_svg(dg, st, &svg);
	rc = picture_svg_png(&svg, st->width, diagram_svg_height(dg->pos.v,
	    st->width), out, why);
	strbuf_release(&svg);
	return rc;
}

/* How long the frame after node i (0: the start) stays. */
static int64_t
frame_ms(const struct record *r, const struct gif_timing *t, int32_t i,
    int last)
{
	int32_t next = r->nodes[i].next;

	if (last)
		return t->delay_ms > GIF_HOLD_MS ? t->delay_ms : GIF_HOLD_MS;
	/* The position stood while the next move was thought over. */
	if (t->real_time > 0 && next >= 0 && r->nodes[next].time_ms >= 0)
		return (int64_t)((double)r->nodes[next].time_ms *
		    t->real_time + 0.5);
	return t->delay_ms;
}

/*
 * Each frame is drawn over the last one, inside the rectangles where they
 * differ only (diagram_svg_changes), from an SVG of what meets them: the
 * picture a whole drawing gives (but for the anti-aliasing of a few edge
 * pixels), several times faster.
 */
int
picture_gif(const struct record *r, int frames, const struct svg_style *st,
    const struct gif_timing *t, struct strbuf *out, struct strbuf *why)
{
	struct strbuf svg = STRBUF_INIT;
	struct render_rect clip[SVG_MAX_CHANGES];
	struct svg_rect ch[SVG_MAX_CHANGES];
	struct diagram dg, prev;
	struct renderer *rd = NULL;
	struct gif *g = NULL;
	int w = st->width, h, k, j, nclip = 0, rc = 0;
	unsigned char *rgb = NULL;
	int32_t i = 0;

	diagram_start(&dg, r);
	h = diagram_svg_height(dg.pos.v, w);
	if (!(rd = render_open(w, h, why)) ||
	    !(g = gif_begin(w, h, diagram_svg_colours, SVG_NCOLOURS, out,
	    why))) {
		rc = -1;
		goto out;
	}
	rgb = xmalloc((size_t)w * (size_t)h * 3);
	for (k = 0; k <= frames; k++) {
		if (k > 0) {
			prev = dg;
			i = r->nodes[i].next;
			diagram_play(&dg, r, i);
			nclip = diagram_svg_changes(&prev, &dg, st, ch);
			for (j = 0; j < nclip; j++) {
				clip[j].x = ch[j].x;
				clip[j].y = ch[j].y;
				clip[j].w = ch[j].w;
				clip[j].h = ch[j].h;
			}
		}
		strbuf_reset(&svg);
		diagram_svg_part(&dg, st, ch, nclip, &svg);
		if (render_draw(rd, svg.buf, svg.len, clip, nclip, rgb,
		    why) < 0 ||
		    gif_frame(g, rgb, frame_ms(r, t, i, k == frames), why) < 0) {
			rc = -1;
			break;
		}
	}
out:
	if (g && gif_end(g, why) < 0)
		rc = -1;
	if (rd)
		render_close(rd);
	free(rgb);
	strbuf_release(&svg);
	return rc;
}

void
picture_moves_text(const struct record *r, int ply, int colour,
    struct strbuf *out, struct diag_list *d)
{
	struct strbuf list = STRBUF_INIT;
	char head[16];
	size_t i, n, hl = SIZE_MAX;

	kif_write_main_line(r, &list, d);
	n = (size_t)snprintf(head, sizeof(head), "%4d ", ply);
	for (i = 0; i < list.len && colour && ply > 0; i++)
		if ((i == 0 || list.buf[i - 1] == '\n') &&
		    strncmp(list.buf + i, head, n) == 0) {
			hl = i;
			break;
		}
	strbuf_addc(out, '\n');
	for (i = 0; i < list.len; i++) {
		unsigned char c = (unsigned char)list.buf[i];

		if (i == hl)
			strbuf_adds(out, DIAGRAM_MARK_ON);
		if (hl != SIZE_MAX && i > hl && c == '\n') {
			strbuf_adds(out, DIAGRAM_MARK_OFF);
			hl = SIZE_MAX;
		}
		strbuf_addc(out, (c < 0x20 && c != '\n') || c == 0x7f ?
		    '?' : (char)c);
	}
	strbuf_release(&list);
}
