/*
 * gif.c - animated GIFs with giflib, loaded on first use (see gif.h).
 * Pointers are checked against giflib's prototypes at compile time, as
 * in render.c.
 */
#include <gif_lib.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "picture/gif.h"
#include "core/dl.h"
#include "core/xalloc.h"

struct gif_api {
	GifFileType *(*open)(void *, OutputFunc, int *);
	void (*set_version)(GifFileType *, const bool);
	int (*screen)(GifFileType *, const int, const int, const int,
	    const int, const ColorMapObject *);
	int (*ext_leader)(GifFileType *, const int);
	int (*ext_block)(GifFileType *, const int, const void *);
	int (*ext_trailer)(GifFileType *);
	int (*ext)(GifFileType *, const int, const int, const void *);
	int (*image)(GifFileType *, const int, const int, const int,
	    const int, const bool, const ColorMapObject *);
	int (*line)(GifFileType *, GifPixelType *, int);
	int (*close)(GifFileType *, int *);
	const char *(*error_string)(int);
};

#define SYM(field, fn) { #fn, offsetof(struct gif_api, field) + \
	0 * sizeof(((struct gif_api *)0)->field = fn) }
static const struct dl_sym syms[] = {
	SYM(open, EGifOpen),
	SYM(set_version, EGifSetGifVersion),
	SYM(screen, EGifPutScreenDesc),
	SYM(ext_leader, EGifPutExtensionLeader),
	SYM(ext_block, EGifPutExtensionBlock),
	SYM(ext_trailer, EGifPutExtensionTrailer),
	SYM(ext, EGifPutExtension),
	SYM(image, EGifPutImageDesc),
	SYM(line, EGifPutLine),
	SYM(close, EGifCloseFile),
	SYM(error_string, GifErrorString),
};
#undef SYM

static pthread_once_t once = PTHREAD_ONCE_INIT;
/* Written once under pthread_once, read-only after. */
static struct gif_api api;
static const struct gif_api *loaded;
static const char *failure = "giflib was not loaded";

static void
load(void)
{
	static const char *const names[] = { "libgif.so.7", NULL };
	const char *missing;

	if (dl_load(names, syms, sizeof(syms) / sizeof(syms[0]), &api,
	    &missing))
		loaded = &api;
	else if (missing)
		failure = "giflib lacks a function kifu needs (install "
		    "libgif7 5.1 or later)";
	else
		failure = "cannot load giflib (install libgif7)";
}

/* The palette's last entry is the transparent pixel of later frames. */
#define TRANSPARENT 255
#define LUT_BITS 5		/* per channel: 32768 cells */

struct gif {
	const struct gif_api *a;
	GifFileType *f;
	int w, h, frames;
	GifColorType colours[256];
	ColorMapObject map;
	unsigned char lut[1 << (3 * LUT_BITS)];
	unsigned char *prev, *cur;	/* w * h palette indices */
	GifPixelType *line;		/* one row of a frame */
};

static unsigned
cell(unsigned r, unsigned g, unsigned b)
{
	return (r >> (8 - LUT_BITS)) << (2 * LUT_BITS) |
	    (g >> (8 - LUT_BITS)) << LUT_BITS | b >> (8 - LUT_BITS);
}

static void
set_colour(GifColorType *c, uint32_t rgb)
{
	c->Red = (GifByteType)(rgb >> 16);
	c->Green = (GifByteType)(rgb >> 8);
	c->Blue = (GifByteType)rgb;
}

static uint32_t
blend(uint32_t a, uint32_t b, int num, int den)
{
	uint32_t out = 0;
	int shift;

	for (shift = 0; shift <= 16; shift += 8) {
		int x = (int)(a >> shift & 0xff), y = (int)(b >> shift & 0xff);

		out |= (uint32_t)((x * (den - num) + y * num + den / 2) / den)
		    << shift;
	}
	return out;
}

/*
 * The colours, then the blends of each pair as evenly as the 255 entries
 * allow; then, for every cell of a 15-bit colour cube, its nearest entry,
 * so that quantising a pixel is one look-up. A colour of the picture
 * itself always maps to its own entry.
 */
static void
make_palette(struct gif *g, const uint32_t *colours, int n)
{
	int pairs = n * (n - 1) / 2, steps = pairs ? (255 - n) / pairs : 0;
	int used = 0, i, j, k;
	unsigned c;

	for (i = 0; i < n; i++)
		set_colour(&g->colours[used++], colours[i]);
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			for (k = 1; k <= steps; k++)
				set_colour(&g->colours[used++],
				    blend(colours[i], colours[j], k, steps + 1));
	for (i = used; i < 256; i++)
		g->colours[i] = g->colours[0];
	for (c = 0; c < sizeof(g->lut); c++) {
		int r = (int)(c >> (2 * LUT_BITS) << (8 - LUT_BITS)) + 4;
		int gr = (int)((c >> LUT_BITS & 31) << (8 - LUT_BITS)) + 4;
		int b = (int)((c & 31) << (8 - LUT_BITS)) + 4;
		long best = -1;

		for (i = 0; i < used; i++) {
			const GifColorType *p = &g->colours[i];
			long d = (long)(p->Red - r) * (p->Red - r) +
			    (long)(p->Green - gr) * (p->Green - gr) +
			    (long)(p->Blue - b) * (p->Blue - b);

			if (best < 0 || d < best) {
				best = d;
				g->lut[c] = (unsigned char)i;
			}
		}
	}
	for (i = 0; i < n; i++)
		g->lut[cell(colours[i] >> 16 & 0xff, colours[i] >> 8 & 0xff,
		    colours[i] & 0xff)] = (unsigned char)i;
	g->map.ColorCount = 256;
	g->map.BitsPerPixel = 8;
	g->map.SortFlag = false;
	g->map.Colors = g->colours;
}

static int
add_bytes(GifFileType *f, const GifByteType *data, int len)
{
	strbuf_add(f->UserData, data, (size_t)len);
	return len;
}

static int
fail(struct gif *g, struct strbuf *why)
{
	strbuf_addf(why, "giflib: %s", g->a->error_string(g->f->Error));
	return -1;
}

struct gif *
gif_begin(int w, int h, const uint32_t *colours, int n, struct strbuf *out,
    struct strbuf *why)
{
	/* Loop forever: the NETSCAPE2.0 block every browser reads. */
	static const unsigned char loop[3] = { 1, 0, 0 };
	struct gif *g;
	int err = 0;

	pthread_once(&once, load);
	if (!loaded) {
		strbuf_adds(why, failure);
		return NULL;
	}
	g = xcalloc(1, sizeof(*g));
	g->a = loaded;
	g->w = w;
	g->h = h;
	if (!(g->f = g->a->open(out, add_bytes, &err))) {
		strbuf_addf(why, "giflib: %s", g->a->error_string(err));
		free(g);
		return NULL;
	}
	g->prev = xmalloc((size_t)w * (size_t)h);
	g->cur = xmalloc((size_t)w * (size_t)h);
	g->line = xmalloc((size_t)w);
	make_palette(g, colours, n > 8 ? 8 : n);
	g->a->set_version(g->f, true);
	if (g->a->screen(g->f, w, h, 8, 0, &g->map) == GIF_ERROR ||
	    g->a->ext_leader(g->f, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
	    g->a->ext_block(g->f, 11, "NETSCAPE2.0") == GIF_ERROR ||
	    g->a->ext_block(g->f, 3, loop) == GIF_ERROR ||
	    g->a->ext_trailer(g->f) == GIF_ERROR) {
		fail(g, why);
		gif_end(g, NULL);
		return NULL;
	}
	return g;
}

int
gif_frame(struct gif *g, const unsigned char *rgb, int64_t delay_ms,
    struct strbuf *why)
{
	int64_t cs = (delay_ms + 5) / 10;
	unsigned char gce[4];
	int x0 = g->w, y0 = g->h, x1 = -1, y1 = -1, x, y;
	size_t i, npx = (size_t)g->w * (size_t)g->h;
	unsigned char *t;

	for (i = 0; i < npx; i++, rgb += 3)
		g->cur[i] = g->lut[cell(rgb[0], rgb[1], rgb[2])];
	if (g->frames == 0) {
		x0 = y0 = 0;
		x1 = g->w - 1;
		y1 = g->h - 1;
	} else {
		/* The rectangle that changed; the rest is the last frame. */
		for (y = 0; y < g->h; y++)
			for (x = 0; x < g->w; x++) {
				i = (size_t)y * (size_t)g->w + (size_t)x;
				if (g->cur[i] == g->prev[i])
					continue;
				x0 = x < x0 ? x : x0;
				x1 = x > x1 ? x : x1;
				y0 = y < y0 ? y : y0;
				y1 = y > y1 ? y : y1;
			}
		if (x1 < 0)
			x0 = x1 = y0 = y1 = 0;	/* the same picture */
	}
	cs = cs < 2 ? 2 : cs > 65535 ? 65535 : cs;
	/* Disposal 1 (keep the frame), transparency on after the first. */
	gce[0] = (unsigned char)(1 << 2 | (g->frames > 0));
	gce[1] = (unsigned char)(cs & 0xff);
	gce[2] = (unsigned char)(cs >> 8);
	gce[3] = TRANSPARENT;
	if (g->a->ext(g->f, GRAPHICS_EXT_FUNC_CODE, 4, gce) == GIF_ERROR ||
	    g->a->image(g->f, x0, y0, x1 - x0 + 1, y1 - y0 + 1, false,
	    NULL) == GIF_ERROR)
		return fail(g, why);
	for (y = y0; y <= y1; y++) {
		const unsigned char *c = g->cur + (size_t)y * (size_t)g->w;
		const unsigned char *p = g->prev + (size_t)y * (size_t)g->w;

		for (x = x0; x <= x1; x++)
			g->line[x - x0] = g->frames > 0 && c[x] == p[x] ?
			    TRANSPARENT : c[x];
		if (g->a->line(g->f, g->line, x1 - x0 + 1) == GIF_ERROR)
			return fail(g, why);
	}
	t = g->prev;
	g->prev = g->cur;
	g->cur = t;
	g->frames++;
	return 0;
}

int
gif_end(struct gif *g, struct strbuf *why)
{
	int err = 0, rc = 0;

	if (g->a->close(g->f, &err) == GIF_ERROR) {
		if (why)
			strbuf_addf(why, "giflib: %s",
			    g->a->error_string(err));
		rc = -1;
	}
	free(g->prev);
	free(g->cur);
	free(g->line);
	free(g);
	return rc;
}
