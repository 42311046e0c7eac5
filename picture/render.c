/*
 * render.c - librsvg and cairo, loaded on first use (see render.h).
 *
 * Each pointer is checked against the library's own prototype at compile
 * time (the SYM macro assigns the function in an operand sizeof never
 * evaluates), so a header that disagrees fails the build, while the
 * binary holds no reference to the libraries.
 */
#include <librsvg/rsvg.h>
#include <cairo.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "picture/render.h"
#include "core/dl.h"
#include "core/xalloc.h"

struct render_api {
	RsvgHandle *(*new_from_data)(const guint8 *, gsize, GError **);
	gboolean (*render_document)(RsvgHandle *, cairo_t *,
	    const RsvgRectangle *, GError **);
	cairo_surface_t *(*surface_create)(cairo_format_t, int, int);
	cairo_status_t (*surface_status)(cairo_surface_t *);
	void (*surface_flush)(cairo_surface_t *);
	unsigned char *(*surface_data)(cairo_surface_t *);
	int (*surface_stride)(cairo_surface_t *);
	cairo_status_t (*write_png)(cairo_surface_t *, cairo_write_func_t,
	    void *);
	void (*surface_destroy)(cairo_surface_t *);
	cairo_t *(*create)(cairo_surface_t *);
	void (*destroy)(cairo_t *);
	void (*rectangle)(cairo_t *, double, double, double, double);
	void (*clip)(cairo_t *);
	const char *(*status_string)(cairo_status_t);
	void (*object_unref)(gpointer);
	void (*error_free)(GError *);
};

#define SYM(field, fn) { #fn, offsetof(struct render_api, field) + \
	0 * sizeof(((struct render_api *)0)->field = fn) }
static const struct dl_sym rsvg_syms[] = {
	SYM(new_from_data, rsvg_handle_new_from_data),
	SYM(render_document, rsvg_handle_render_document),
};
static const struct dl_sym cairo_syms[] = {
	SYM(surface_create, cairo_image_surface_create),
	SYM(surface_status, cairo_surface_status),
	SYM(surface_flush, cairo_surface_flush),
	SYM(surface_data, cairo_image_surface_get_data),
	SYM(surface_stride, cairo_image_surface_get_stride),
	SYM(write_png, cairo_surface_write_to_png_stream),
	SYM(surface_destroy, cairo_surface_destroy),
	SYM(create, cairo_create),
	SYM(destroy, cairo_destroy),
	SYM(rectangle, cairo_rectangle),
	SYM(clip, cairo_clip),
	SYM(status_string, cairo_status_to_string),
};
static const struct dl_sym gobject_syms[] = {
	SYM(object_unref, g_object_unref),
};
static const struct dl_sym glib_syms[] = {
	SYM(error_free, g_error_free),
};
#undef SYM

#define NSYMS(a) (sizeof(a) / sizeof((a)[0]))

static pthread_once_t once = PTHREAD_ONCE_INIT;
/* Written once under pthread_once, read-only after. */
static struct render_api api;
static const struct render_api *loaded;
static char failure[160] = "librsvg was not loaded";

static int
load_one(const char *const *names, const struct dl_sym *syms, size_t n,
    const char *what, const char *package)
{
	const char *missing;

	if (dl_load(names, syms, n, &api, &missing))
		return 0;
	if (missing)
		snprintf(failure, sizeof(failure), "%s lacks %s(), which kifu "
		    "needs (install a newer %s)", what, missing, package);
	else
		snprintf(failure, sizeof(failure), "cannot load %s (install "
		    "%s)", what, package);
	return -1;
}

static void
load(void)
{
	static const char *const rsvg[] = { "librsvg-2.so.2", NULL };
	static const char *const cairo[] = { "libcairo.so.2", NULL };
	static const char *const gobject[] = { "libgobject-2.0.so.0", NULL };
	static const char *const glib[] = { "libglib-2.0.so.0", NULL };

	/* librsvg first: it brings the others, and names the package. */
	if (load_one(rsvg, rsvg_syms, NSYMS(rsvg_syms), "librsvg",
	    "librsvg2-2") < 0 ||
	    load_one(cairo, cairo_syms, NSYMS(cairo_syms), "cairo",
	    "libcairo2") < 0 ||
	    load_one(gobject, gobject_syms, NSYMS(gobject_syms), "GObject",
	    "libglib2.0-0") < 0 ||
	    load_one(glib, glib_syms, NSYMS(glib_syms), "GLib",
	    "libglib2.0-0") < 0)
		return;
	loaded = &api;
}

struct renderer {
	const struct render_api *a;
	cairo_surface_t *s;
	int w, h;
};

struct renderer *
render_open(int w, int h, struct strbuf *why)
{
	struct renderer *rd;
	cairo_status_t st;

	pthread_once(&once, load);
	if (!loaded) {
		strbuf_adds(why, failure);
		return NULL;
	}
	rd = xcalloc(1, sizeof(*rd));
	rd->a = loaded;
	rd->w = w;
	rd->h = h;
	/* RGB24: the page is opaque, and the PNG needs no alpha. */
	rd->s = rd->a->surface_create(CAIRO_FORMAT_RGB24, w, h);
	if ((st = rd->a->surface_status(rd->s)) != CAIRO_STATUS_SUCCESS) {
		strbuf_addf(why, "cairo: %s", rd->a->status_string(st));
		render_close(rd);
		return NULL;
	}
	return rd;
}

void
render_close(struct renderer *rd)
{
	rd->a->surface_destroy(rd->s);
	free(rd);
}

static void
copy_rgb(const struct renderer *rd, unsigned char *rgb)
{
	const unsigned char *row = rd->a->surface_data(rd->s);
	int stride = rd->a->surface_stride(rd->s), x, y;

	for (y = 0; y < rd->h; y++, row += stride)
		for (x = 0; x < rd->w; x++) {
			uint32_t px;

			/* RGB24 pixels are native-endian 0x00RRGGBB words. */
			memcpy(&px, row + 4 * x, sizeof(px));
			*rgb++ = (unsigned char)(px >> 16);
			*rgb++ = (unsigned char)(px >> 8);
			*rgb++ = (unsigned char)px;
		}
}

int
render_draw(struct renderer *rd, const char *svg, size_t n,
    const struct render_rect *clip, int nclip, unsigned char *rgb,
    struct strbuf *why)
{
	const struct render_api *a = rd->a;
	RsvgHandle *rh;
	RsvgRectangle vp;
	GError *err = NULL;
	cairo_t *cr;
	int ok, i;

	if (!(rh = a->new_from_data((const guint8 *)svg, n, &err))) {
		strbuf_addf(why, "librsvg cannot read the SVG: %s",
		    err ? err->message : "unknown error");
		if (err)
			a->error_free(err);
		return -1;
	}
	cr = a->create(rd->s);
	if (nclip > 0) {
		for (i = 0; i < nclip; i++)
			a->rectangle(cr, clip[i].x, clip[i].y, clip[i].w,
			    clip[i].h);
		a->clip(cr);
	}
	vp.x = vp.y = 0;
	vp.width = rd->w;
	vp.height = rd->h;
	ok = a->render_document(rh, cr, &vp, &err);
	a->destroy(cr);
	a->object_unref(rh);
	if (!ok) {
		strbuf_addf(why, "librsvg cannot draw the SVG: %s",
		    err ? err->message : "unknown error");
		if (err)
			a->error_free(err);
		return -1;
	}
	a->surface_flush(rd->s);
	if (rgb)
		copy_rgb(rd, rgb);
	return 0;
}

static cairo_status_t
add_bytes(void *closure, const unsigned char *data, unsigned int len)
{
	strbuf_add(closure, data, len);
	return CAIRO_STATUS_SUCCESS;
}

int
render_png(struct renderer *rd, struct strbuf *png, struct strbuf *why)
{
	cairo_status_t st = rd->a->write_png(rd->s, add_bytes, png);

	if (st != CAIRO_STATUS_SUCCESS) {
		strbuf_addf(why, "cairo cannot write the PNG: %s",
		    rd->a->status_string(st));
		return -1;
	}
	return 0;
}
