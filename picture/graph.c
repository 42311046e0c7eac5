/*
 * graph.c - the evaluation graph (graph.h): the series read from a
 * record's comments, drawn as SVG or as a sparkline.
 *
 * The SVG is built like the board's (picture/svgout.h): lengths in
 * pixels with the viewBox the picture's size, text in the same fonts,
 * every element a reader may look for named by its class.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "picture/graph.h"
#include "picture/svgout.h"
#include "core/xalloc.h"
#include "engine/annotate.h"
#include "parsers/evaluation.h"
#include "parsers/kakinoki.h"

/* --- the series -------------------------------------------------------- */

void
graph_opts_init(struct graph_opts *o)
{
	struct analyze_opts ao;

	analyze_opts_init(&ao);
	memcpy(o->thresholds, ao.thresholds, sizeof(o->thresholds));
}

void
graph_init(struct graph *g)
{
	memset(g, 0, sizeof(*g));
}

void
graph_release(struct graph *g)
{
	free(g->v);
	graph_init(g);
}

static const char *
header_value(const struct record *r, enum header_id id)
{
	const struct record_header *h = record_find_header(r, id);

	return h ? record_str(r, h->value) : "";
}

static const char *
comment_of(const struct record *r, int32_t node)
{
	uint32_t c = r->nodes[node].comment;

	return c ? record_str(r, c) : NULL;
}

/* The main line's nodes, the root first: at most plies + 1 of them. */
static int32_t *
main_line(const struct record *r, int plies, int *n)
{
	int32_t *nodes, i;
	int k = 1;

	for (i = r->nodes[0].next; i >= 0 && (plies < 0 || k <= plies) &&
	    r->nodes[i].special == SP_NONE && r->nodes[i].mv != MOVE_NONE;
	    i = r->nodes[i].next)
		k++;
	nodes = xcalloc((size_t)k, sizeof(*nodes));
	nodes[0] = 0;
	for (i = r->nodes[0].next, *n = 1; *n < k; i = r->nodes[i].next)
		nodes[(*n)++] = i;
	return nodes;
}

/* A score on kifu analyze's judgement scale (analyze.h), Black's view. */
static long long
judgement_value(const struct graph_point *p)
{
	if (p->mate)
		return p->mate * ANALYZE_MATE;
	if (p->score > ANALYZE_CP_MAX)
		return ANALYZE_CP_MAX;
	if (p->score < -ANALYZE_CP_MAX)
		return -ANALYZE_CP_MAX;
	return p->score;
}

/* The mover of move k (k >= 1). */
static enum color
mover(const struct graph *g, int k)
{
	return k % 2 ? g->first : color_flip(g->first);
}

static enum analyze_class
classify(const struct graph_opts *o, long long loss)
{
	int k;

	for (k = 2; k >= 0; k--)
		if (loss >= o->thresholds[k])
			return (enum analyze_class)(k + 1);
	return CLASS_NONE;
}

/* Each move's class from the scores before and after it. */
static void
judge_series(struct graph *g, const struct graph_opts *o)
{
	int k;

	for (k = 1; k < g->n; k++) {
		struct graph_point *p = &g->v[k];
		long long d;

		if (!p->has || !g->v[k - 1].has)
			continue;
		d = judgement_value(&g->v[k - 1]) - judgement_value(p);
		p->loss = mover(g, k) == BLACK ? d : -d;
		if (p->loss < 0)
			p->loss = 0;
		p->cls = classify(o, p->loss);
	}
}

static void
set_point(struct graph_point *p, const struct evaluation *e)
{
	p->has = e->has;
	p->mate = e->mate;
	p->score = e->score;
	if (e->mate)
		p->value = e->mate * GRAPH_CLIP;
	else
		p->value = (int)(e->score > GRAPH_CLIP ? GRAPH_CLIP :
		    e->score < -GRAPH_CLIP ? -GRAPH_CLIP : e->score);
}

void
graph_read(struct graph *g, const struct record *r, int plies,
    const struct graph_opts *o)
{
	struct evaluation e;
	int32_t *nodes;
	int k, n = 0, kifu = 0;

	graph_release(g);
	nodes = main_line(r, plies, &n);
	g->n = n;
	g->v = xcalloc((size_t)n, sizeof(*g->v));
	g->first = r->start.side;
	g->name[BLACK] = header_value(r, HDR_BLACK);
	g->name[WHITE] = header_value(r, HDR_WHITE);
	g->hg = kakinoki_handicap_labels(r);
	for (k = 0; k < n; k++) {
		g->v[k].loss = -1;
		evaluation_read_analysis(comment_of(r, nodes[k]), &e);
		if (e.has) {
			set_point(&g->v[k], &e);
			g->source = GRAPH_ANALYSIS;
		}
	}
	if (g->source == GRAPH_ANALYSIS) {
		for (k = 1; k < n; k++)
			kifu |= annotate_read_class(comment_of(r, nodes[k]),
			    &g->v[k].cls, &g->v[k].loss);
		if (!kifu)
			judge_series(g, o);
	} else {
		/* Before the first move is no player's search (training.md 8). */
		for (k = 1; k < n; k++) {
			evaluation_read(comment_of(r, nodes[k]), &e);
			if (e.has) {
				set_point(&g->v[k], &e);
				g->source = GRAPH_PLAYER;
			}
		}
	}
	for (k = 0; k < n; k++) {
		/* A judgement where no evaluation is drawn has no point to
		   mark (kifu analyze judges a move whose position got no
		   score by the line before it). */
		if (!g->v[k].has) {
			g->v[k].cls = CLASS_NONE;
			g->v[k].loss = -1;
		}
		g->points += g->v[k].has;
		g->flags[g->v[k].cls]++;
	}
	g->flags[CLASS_NONE] = 0;
	free(nodes);
}

/* --- the picture ------------------------------------------------------- */

/* The colours of the flags, by class; the line's. */
static const char *const flag_colour[CLASS_NB] = {
	NULL, "#e0a800", "#f06400", "#d01010"
};
#define LINE_COLOUR "#1f4e79"
#define FILL_COLOUR "#c5d5e8"
#define GRID_COLOUR "#dddddd"
#define AXIS_COLOUR "#555555"
#define FAINT_COLOUR "#888888"

#define HEIGHT_RATIO 0.5

struct plot {
	const struct graph *g;
	struct strbuf *sb;
	double f;		/* the text size */
	double x0, y0, x1, y1;	/* the plot area */
	int w, h;
};

int
graph_svg_height(int width)
{
	return (int)(width * HEIGHT_RATIO + 0.5);
}

static double
px(const struct plot *p, int k)
{
	int last = p->g->n > 1 ? p->g->n - 1 : 1;

	return p->x0 + (p->x1 - p->x0) * k / last;
}

static double
py(const struct plot *p, int v)
{
	return p->y0 + (p->y1 - p->y0) * (GRAPH_CLIP - v) /
	    (2.0 * GRAPH_CLIP);
}

static void
attr(struct strbuf *sb, const char *name, double v)
{
	strbuf_addf(sb, " %s=\"", name);
	svg_num(sb, v);
	strbuf_addc(sb, '"');
}

static void
line(struct plot *p, const char *cls, double xa, double ya, double xb,
    double yb, const char *colour, double width)
{
	strbuf_addf(p->sb, "<line class=\"%s\"", cls);
	attr(p->sb, "x1", xa);
	attr(p->sb, "y1", ya);
	attr(p->sb, "x2", xb);
	attr(p->sb, "y2", yb);
	strbuf_addf(p->sb, " stroke=\"%s\"", colour);
	attr(p->sb, "stroke-width", width);
	strbuf_adds(p->sb, "/>\n");
}

static void
text(struct plot *p, const char *cls, double cx, double cy, double size,
    const char *anchor, const char *fill, const char *s)
{
	svg_open_text(p->sb, cls, cx, cy, size, anchor, 0);
	if (fill)
		strbuf_addf(p->sb, " fill=\"%s\"", fill);
	strbuf_addc(p->sb, '>');
	svg_xml(p->sb, s, 0);
	strbuf_adds(p->sb, "</text>\n");
}

/* The step of the move numbers: 1, 2 or 5 times a power of ten. */
static int
x_step(int moves)
{
	static const int m[3] = { 1, 2, 5 };
	int step = 1, k = 0, scale = 1;

	while (moves / step > 10) {
		if (++k == 3) {
			k = 0;
			scale *= 10;
		}
		step = m[k] * scale;
	}
	return step;
}

static void
draw_axes(struct plot *p)
{
	char buf[32];
	int v, k, step = x_step(p->g->n - 1);

	strbuf_adds(p->sb, "<rect class=\"plot\"");
	attr(p->sb, "x", p->x0);
	attr(p->sb, "y", p->y0);
	attr(p->sb, "width", p->x1 - p->x0);
	attr(p->sb, "height", p->y1 - p->y0);
	strbuf_adds(p->sb, " fill=\"#fbfbfb\"/>\n");
	for (k = step; k < p->g->n - 1; k += step)
		line(p, "grid", px(p, k), p->y0, px(p, k), p->y1, GRID_COLOUR,
		    p->f / 12);
	for (v = -GRAPH_CLIP + 1000; v < GRAPH_CLIP; v += 1000)
		if (v)
			line(p, "grid", p->x0, py(p, v), p->x1, py(p, v),
			    GRID_COLOUR, p->f / 12);
	for (v = -GRAPH_CLIP; v <= GRAPH_CLIP; v += 1000) {
		snprintf(buf, sizeof(buf), v > 0 ? "+%d" : "%d", v);
		text(p, "y-label", p->x0 - 0.4 * p->f, py(p, v), p->f, "end",
		    NULL, buf);
	}
	for (k = 0; k <= p->g->n - 1; k += step) {
		snprintf(buf, sizeof(buf), "%d", k);
		text(p, "x-label", px(p, k), p->y1 + 0.9 * p->f, p->f,
		    "middle", NULL, buf);
	}
	text(p, "x-label", p->x1, p->y1 + 1.9 * p->f, 0.85 * p->f, "end",
	    FAINT_COLOUR, "手数");
	strbuf_adds(p->sb, "<rect class=\"frame\" fill=\"none\"");
	attr(p->sb, "x", p->x0);
	attr(p->sb, "y", p->y0);
	attr(p->sb, "width", p->x1 - p->x0);
	attr(p->sb, "height", p->y1 - p->y0);
	strbuf_addf(p->sb, " stroke=\"%s\"", AXIS_COLOUR);
	attr(p->sb, "stroke-width", p->f / 12);
	strbuf_adds(p->sb, "/>\n");
}

/* Points a..b (inclusive, all evaluated) as the d of a path. */
static void
run_path(struct plot *p, int a, int b, int closed)
{
	int k;

	for (k = a; k <= b; k++) {
		strbuf_addc(p->sb, k == a ? 'M' : 'L');
		svg_num(p->sb, px(p, k));
		strbuf_addc(p->sb, ' ');
		svg_num(p->sb, py(p, p->g->v[k].value));
	}
	if (closed) {
		strbuf_adds(p->sb, "L");
		svg_num(p->sb, px(p, b));
		strbuf_addc(p->sb, ' ');
		svg_num(p->sb, py(p, 0));
		strbuf_adds(p->sb, "L");
		svg_num(p->sb, px(p, a));
		strbuf_addc(p->sb, ' ');
		svg_num(p->sb, py(p, 0));
		strbuf_addc(p->sb, 'Z');
	}
}

/*
 * The runs of evaluated points: the area to the zero line, then the line
 * (fill first, so that the zero line and the curve are over it).
 */
static void
draw_runs(struct plot *p, int fill)
{
	const struct graph *g = p->g;
	int a = 0, b;

	while (a < g->n) {
		if (!g->v[a].has) {
			a++;
			continue;
		}
		for (b = a; b + 1 < g->n && g->v[b + 1].has; b++)
			;
		if (b > a) {
			strbuf_addf(p->sb, "<path class=\"%s\" d=\"",
			    fill ? "area" : "line");
			run_path(p, a, b, fill);
			if (fill)
				strbuf_addf(p->sb, "\" fill=\"%s\"/>\n",
				    FILL_COLOUR);
			else {
				strbuf_addf(p->sb, "\" fill=\"none\" stroke="
				    "\"%s\" stroke-linejoin=\"round\"",
				    LINE_COLOUR);
				attr(p->sb, "stroke-width", p->f / 6);
				strbuf_adds(p->sb, "/>\n");
			}
		}
		a = b + 1;
	}
}

static void
circle(struct plot *p, double cx, double cy, double r, const char *fill)
{
	attr(p->sb, "cx", cx);
	attr(p->sb, "cy", cy);
	attr(p->sb, "r", r);
	strbuf_addf(p->sb, " fill=\"%s\"", fill);
}

static void
draw_points(struct plot *p)
{
	const struct graph *g = p->g;
	double step = g->n > 1 ? (p->x1 - p->x0) / (g->n - 1) : p->x1 - p->x0;
	double r = step * 0.45, label_x[2] = { -1e9, -1e9 };
	int k, before = 0;	/* the mate of the point before, if any */

	/* Dots apart where the moves are far apart, never specks. */
	if (r > p->f / 5)
		r = p->f / 5;
	if (r < p->f / 10)
		r = p->f / 10;
	for (k = 0; k < g->n; k++) {
		const struct graph_point *v = &g->v[k];
		int alone = !(k > 0 && g->v[k - 1].has) &&
		    !(k + 1 < g->n && g->v[k + 1].has);

		if (!v->has)
			continue;
		strbuf_addf(p->sb, "<circle class=\"point\" data-ply=\"%d\" "
		    "data-value=\"%d\" data-score=\"%lld\"", k, v->value,
		    v->score);
		if (v->mate)
			strbuf_addf(p->sb, " data-mate=\"%s\"",
			    v->mate > 0 ? "black" : "white");
		/* A point alone (gaps around it) is all there is to see. */
		circle(p, px(p, k), py(p, v->value), alone && r < p->f / 4 ?
		    p->f / 4 : r, LINE_COLOUR);
		strbuf_adds(p->sb, "/>\n");
		/*
		 * 詰 where a run of mates for one side begins (gaps apart),
		 * unless the last one for that side is near.
		 */
		if (v->mate && v->mate != before &&
		    px(p, k) - label_x[v->mate > 0] > 3 * p->f) {
			text(p, "mate", px(p, k), py(p, v->value) +
			    (v->mate > 0 ? 0.8 : -0.8) * p->f, 0.9 * p->f,
			    "middle", flag_colour[CLASS_BLUNDER], "詰");
			label_x[v->mate > 0] = px(p, k);
		}
		before = v->mate;
	}
}

static void
flag_mark(struct plot *p, int k)
{
	const struct graph_point *v = &p->g->v[k];

	strbuf_addf(p->sb, "<circle class=\"flag\" data-ply=\"%d\" "
	    "data-class=\"%s\" data-loss=\"%lld\"", k,
	    analyze_class_name(v->cls), v->loss);
	circle(p, px(p, k), py(p, v->value), p->f * (0.25 + 0.05 * v->cls),
	    flag_colour[v->cls]);
	strbuf_adds(p->sb, " stroke=\"#ffffff\"");
	attr(p->sb, "stroke-width", p->f / 12);
	strbuf_adds(p->sb, "/>\n");
}

/*
 * The flagged moves, and the numbers of the 悪手 and 大悪手 (the 疑問手
 * are too many to name) over everything, away from the zero line, on a
 * white halo so that the curve does not cross them out.
 */
static void
draw_flags(struct plot *p)
{
	const struct graph *g = p->g;
	double last_x = -1e9;
	char buf[16];
	int k;

	for (k = 1; k < g->n; k++)
		if (g->v[k].has && g->v[k].cls != CLASS_NONE)
			flag_mark(p, k);
	for (k = 1; k < g->n; k++) {
		const struct graph_point *v = &g->v[k];
		double x = px(p, k), y = py(p, v->value), ly;

		if (!v->has || v->cls < CLASS_MISTAKE || x - last_x < 1.6 * p->f)
			continue;
		last_x = x;
		ly = v->value >= 0 ? y - 0.95 * p->f : y + 0.95 * p->f;
		if (ly < p->y0 + 0.6 * p->f || ly > p->y1 - 0.6 * p->f)
			ly = v->value >= 0 ? y + 0.95 * p->f : y - 0.95 * p->f;
		snprintf(buf, sizeof(buf), "%d", k);
		svg_open_text(p->sb, "flag-label", x, ly, 0.75 * p->f,
		    "middle", 0);
		strbuf_addf(p->sb, " fill=\"%s\" stroke=\"#ffffff\" "
		    "paint-order=\"stroke\"", flag_colour[v->cls]);
		attr(p->sb, "stroke-width", p->f / 4);
		strbuf_addf(p->sb, " data-ply=\"%d\">%s</text>\n", k, buf);
	}
}

/* The players at the left over the plot; the legend at the right. */
static void
draw_heading(struct plot *p)
{
	const struct graph *g = p->g;
	struct strbuf s = STRBUF_INIT;
	double y = p->y0 / 2, x = p->x1;
	int c;

	for (c = BLACK; c <= WHITE; c++) {
		const char *name = g->name[c];

		if (c == WHITE)
			strbuf_adds(&s, "　");
		strbuf_adds(&s, c == BLACK ? "☗" : "☖");
		if (*name)
			strbuf_adds(&s, name);
		else
			strbuf_adds(&s, c == BLACK ? (g->hg ? "下手" : "先手") :
			    (g->hg ? "上手" : "後手"));
	}
	svg_open_text(p->sb, "players", p->x0, y, p->f, "start", 0);
	strbuf_addc(p->sb, '>');
	/* Cut short of the legend (about 12 ems); a column is half an em. */
	svg_xml(p->sb, s.buf, (size_t)((p->x1 - p->x0 - 12 * p->f) /
	    (0.5 * p->f)));
	strbuf_adds(p->sb, "</text>\n");
	strbuf_release(&s);
	if (g->source == GRAPH_PLAYER) {
		text(p, "legend", x, y, 0.8 * p->f, "end", FAINT_COLOUR,
		    "対局者の評価値");
	} else {
		double fs = 0.8 * p->f, r;

		/* Right to left: "● 疑問手 2  ● 悪手 1  ● 大悪手 0". */
		for (c = CLASS_BLUNDER; c > CLASS_NONE; c--) {
			char buf[64];

			snprintf(buf, sizeof(buf), "%s %d",
			    analyze_class_ja((enum analyze_class)c),
			    g->flags[c]);
			text(p, "legend", x, y, fs, "end", NULL, buf);
			/* A column of text is half an em wide. */
			x -= kakinoki_width(buf, strlen(buf)) * 0.5 * fs;
			r = p->f * (0.25 + 0.05 * c);
			strbuf_addf(p->sb, "<circle class=\"legend\" "
			    "data-class=\"%s\"",
			    analyze_class_name((enum analyze_class)c));
			circle(p, x - 0.3 * fs - r, y, r, flag_colour[c]);
			strbuf_adds(p->sb, "/>\n");
			x -= 0.3 * fs + 2 * r + 1.2 * fs;
		}
	}
	/* Which side is up. */
	text(p, "side", p->x0 + 0.4 * p->f, p->y0 + 0.8 * p->f, 0.8 * p->f,
	    "start", FAINT_COLOUR, g->hg ? "☗下手有利" : "☗先手有利");
	text(p, "side", p->x0 + 0.4 * p->f, p->y1 - 0.8 * p->f, 0.8 * p->f,
	    "start", FAINT_COLOUR, g->hg ? "☖上手有利" : "☖後手有利");
}

void
graph_svg(const struct graph *g, int width, struct strbuf *out)
{
	struct plot p;

	p.g = g;
	p.sb = out;
	p.w = width;
	p.h = graph_svg_height(width);
	p.f = width / 40.0;
	p.x0 = 4.2 * p.f;
	p.x1 = p.w - 1.2 * p.f;
	p.y0 = 2.2 * p.f;
	p.y1 = p.h - 2.6 * p.f;
	strbuf_addf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"%s\" "
	    "fill=\"#000000\" data-moves=\"%d\" data-source=\"%s\">\n", p.w,
	    p.h, p.w, p.h, SVG_FONTS, g->n - 1,
	    g->source == GRAPH_PLAYER ? "player" :
	    g->source == GRAPH_ANALYSIS ? "analysis" : "none");
	strbuf_addf(out, "<rect class=\"page\" x=\"0\" y=\"0\" width=\"%d\" "
	    "height=\"%d\" fill=\"#ffffff\"/>\n", p.w, p.h);
	draw_axes(&p);
	draw_runs(&p, 1);
	line(&p, "zero", p.x0, py(&p, 0), p.x1, py(&p, 0), AXIS_COLOUR,
	    p.f / 8);
	draw_heading(&p);
	draw_runs(&p, 0);
	draw_points(&p);
	draw_flags(&p);
	strbuf_adds(out, "</svg>\n");
}

/* --- the sparkline ----------------------------------------------------- */

static const char *const blocks[8] = {
	"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"
};
static const char *const ansi[CLASS_NB] = {
	NULL, "\033[33m", "\033[31m", "\033[1;37;41m"
};

static void
add_value(struct strbuf *out, const struct graph_point *v)
{
	if (v->mate)
		strbuf_addf(out, "%s詰", v->mate > 0 ? "☗" : "☖");
	else
		strbuf_addf(out, v->score ? "%+lld" : "%lld", v->score);
}

void
graph_sparkline(const struct graph *g, int columns, int colour,
    struct strbuf *out)
{
	int cols = g->n < columns ? g->n : columns, j, k, last = -1;

	if (cols < 1)
		cols = 1;
	for (j = 0; j < cols; j++) {
		int a = (int)((long long)j * g->n / cols);
		int b = (int)((long long)(j + 1) * g->n / cols);
		long long sum = 0;
		int m = 0, worst = CLASS_NONE, level;

		for (k = a; k < b; k++) {
			if (!g->v[k].has)
				continue;
			sum += g->v[k].value;
			m++;
			if ((int)g->v[k].cls > worst)
				worst = (int)g->v[k].cls;
		}
		if (!m) {
			strbuf_addc(out, ' ');
			continue;
		}
		/* Even and above is ▅ and up. */
		level = (int)((sum / m + GRAPH_CLIP) * 8 / (2 * GRAPH_CLIP));
		if (level > 7)
			level = 7;
		if (colour && worst != CLASS_NONE)
			strbuf_adds(out, ansi[worst]);
		strbuf_adds(out, blocks[level]);
		if (colour && worst != CLASS_NONE)
			strbuf_adds(out, "\033[0m");
	}
	for (k = 0; k < g->n; k++)
		if (g->v[k].has)
			last = k;
	strbuf_addf(out, "  %d move%s, %d of %d positions evaluated",
	    g->n - 1, g->n == 2 ? "" : "s", g->points, g->n);
	if (last >= 0) {
		strbuf_adds(out, "; ");
		add_value(out, &g->v[last]);
		strbuf_addf(out, " at move %d", last);
	}
	if (g->source == GRAPH_PLAYER) {
		strbuf_adds(out, " (the players' evaluations)");
		return;
	}
	for (k = CLASS_INACCURACY; k < CLASS_NB; k++)
		strbuf_addf(out, "%s%s %d", k == CLASS_INACCURACY ? "; " : ", ",
		    analyze_class_ja((enum analyze_class)k), g->flags[k]);
}
