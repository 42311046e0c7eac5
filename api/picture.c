/*
 * picture.c - a record's position as `kifu show` draws it, through the
 * library (kifu.h: kifu_record_show): the terminal board, SVG, PNG, and
 * the game as an animated GIF (picture/).
 */
#include <string.h>

#include "api/libkifu.h"
#include "picture/graph.h"
#include "picture/picture.h"

static const char *const kinds[] = {
	"text", "svg", "png", "gif", "graph", "graph-svg", "graph-png"
};
enum {
	SHOW_TEXT, SHOW_SVG, SHOW_PNG, SHOW_GIF, SHOW_GRAPH, SHOW_GRAPH_SVG,
	SHOW_GRAPH_PNG, SHOW_NB
};

/*
 * The evaluations of the first `played` moves of r as `kifu show
 * --graph` draws them: the sparkline, or the graph's SVG or PNG.
 */
static int
draw_graph(int k, const struct record *r, int played,
    const struct api_show *s, struct strbuf *out, kifu_error **err)
{
	struct strbuf svg = STRBUF_INIT, why = STRBUF_INIT;
	int w = s->size ? s->size : 640, rc = 0;
	struct graph_opts go;
	struct graph g;

	graph_init(&g);
	graph_opts_init(&go);
	graph_read(&g, r, played, &go);
	if (!g.points)
		rc = api_fail(err, KIFU_ERR_WRITE, NULL, "no-evaluation",
		    "no evaluation in the comments of the main line's %d "
		    "move%s (kifu analyze writes them)", played,
		    played == 1 ? "" : "s");
	else if (k == SHOW_GRAPH) {
		graph_sparkline(&g, GRAPH_COLUMNS, s->colour, out);
		strbuf_addc(out, '\n');
	} else if (k == SHOW_GRAPH_SVG) {
		graph_svg(&g, w, out);
	} else {
		graph_svg(&g, w, &svg);
		if (picture_svg_png(&svg, w, graph_svg_height(w), out,
		    &why) < 0)
			rc = api_fail(err, KIFU_ERR_WRITE, NULL, "picture",
			    "cannot draw the PNG: %s", why.buf);
	}
	graph_release(&g);
	strbuf_release(&svg);
	strbuf_release(&why);
	return rc;
}

static int
kind_of(const char *what)
{
	int i;

	for (i = 0; what && i < SHOW_NB; i++)
		if (!strcmp(what, kinds[i]))
			return i;
	return -1;
}

/* Draws kind k of the position dg, played moves into r, into out. */
static int
draw(int k, const struct record *r, const struct diagram *dg, int played,
    const struct api_show *s, struct strbuf *out, kifu_error **err)
{
	struct strbuf why = STRBUF_INIT;
	struct svg_style ss;
	struct text_style ts;
	struct gif_timing t;
	struct diag_list d;
	int rc = 0;

	if (k >= SHOW_GRAPH)
		return draw_graph(k, r, played, s, out, err);
	ss.width = s->size ? s->size : 480;
	ss.flip = s->flip >= 0 ? s->flip : r->flipped;
	switch (k) {
	case SHOW_TEXT:
		ts.ascii = s->ascii;
		ts.colour = s->colour;
		diagram_text(dg, &ts, out);
		if (s->moves) {
			diag_list_init(&d);
			picture_moves_text(r, played, s->colour, out, &d);
			diag_list_release(&d);
		}
		break;
	case SHOW_SVG:
		diagram_svg(dg, &ss, out);
		break;
	case SHOW_PNG:
		rc = picture_png(dg, &ss, out, &why);
		break;
	default:
		t.delay_ms = s->delay_ms;
		t.real_time = s->real_time;
		rc = picture_gif(r, played, &ss, &t, out, &why);
		break;
	}
	if (rc < 0)
		rc = api_fail(err, KIFU_ERR_WRITE, NULL, "picture",
		    "cannot draw the %s: %s", k == SHOW_PNG ? "PNG" : "GIF",
		    why.buf);
	strbuf_release(&why);
	return rc;
}

API int
kifu_record_show(const kifu_record *r, const char *what,
    const kifu_options *o, char **out, size_t *len, kifu_error **err)
{
	const kifu_options *opts = o ? o : api_record_options(r);
	struct api_opts defaults;
	const struct api_opts *x = api_options(opts, &defaults);
	int ply = api_options_ply(opts), k = kind_of(what), played, rc;
	struct strbuf sb = STRBUF_INIT;
	struct api_judged j;
	struct diagram dg;

	*out = NULL;
	if (len)
		*len = 0;
	api_ok(err);
	if (k < 0)
		return api_fail(err, KIFU_ERR_ARG, NULL, "usage", "no picture "
		    "'%s' (known: text, svg, png, gif, graph, graph-svg, "
		    "graph-png)", what ? what : "");
	api_record_judged(r, &j);
	if (!j.r)
		return api_fail(err, KIFU_ERR_WRITE, NULL, "syntax", "record "
		    "%d could not be read", j.index + 1);
	/* An illegal record is drawn up to its first illegal move. */
	played = diagram_at(&dg, j.r, ply);
	if (ply >= 0 && played < ply)
		return api_fail(err, KIFU_ERR_ARG, NULL, "limit", "no position "
		    "after move %d: the main line has %d legal move%s", ply,
		    played, played == 1 ? "" : "s");
	if ((rc = draw(k, j.r, &dg, played, &x->show, &sb, err)) < 0) {
		strbuf_release(&sb);
		return rc;
	}
	*out = strbuf_detach(&sb, len);
	return KIFU_OK;
}
