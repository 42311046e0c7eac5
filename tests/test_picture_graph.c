/*
 * The evaluation graph (picture/graph.c): the series read from a record's
 * comments (Black's view, mates, clipping, gaps, flags read or computed,
 * the players' evaluations and the analysis apart), the SVG (its
 * elements where the numbers put them, text from the record escaped) and
 * the sparkline, character for character; and annotate_read_class, the
 * reader of kifu analyze's judgements it relies on.
 *
 * Records are USI lines replayed as the commands do, with comments put on
 * their nodes as the readers store them (KIF's first '*' dropped).
 * tests/cli/t0920-show-graph.sh parses the SVG as XML and renders it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "reading.h"
#include "helpers.h"
#include "core/core.h"
#include "core/record.h"
#include "engine/annotate.h"
#include "picture/graph.h"

/* A USI line read into r (initialised here) and replayed without error. */
static void
load_usi(struct record *r, const char *line)
{
	load_usi_variant(r, variant_standard(), line, 0);
}

static int
near(double a, double b)
{
	return a - b < 0.02 && b - a < 0.02;
}

#define GAME "position startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h"

/* The node of move k of the main line (0: the root). */
static int32_t
node_at(const struct record *r, int k)
{
	int32_t i = 0;

	while (k-- > 0)
		i = r->nodes[i].next;
	assert_true(i >= 0);
	return i;
}

static void
comment(struct record *r, int k, const char *s)
{
	record_add_comment(r, node_at(r, k), s, strlen(s));
}

static void
read_graph(struct graph *g, const struct record *r, int plies)
{
	struct graph_opts o;

	graph_opts_init(&o);
	graph_read(g, r, plies, &o);
}

/* kifu analyze's block, as annotate.c writes it, after move k. */
static void
kifu_block(struct record *r, int k, const char *score, const char *judged)
{
	char line[256];

	snprintf(line, sizeof(line), "#kifu-analyze: 2 lines; Fairy-Stockfish "
	    "11.1 LB 64; nodes 20000%s", judged);
	comment(r, k, line);
	comment(r, k, score);
	comment(r, k, "#エンジン=Fairy-Stockfish 11.1 LB 64");
}

static void
test_kifu_analysis(void **state)
{
	struct record r;
	struct graph g;

	(void)state;
	graph_init(&g);
	load_usi(&r, GAME);
	comment(&r, 0, "a note before the game");
	kifu_block(&r, 0, "#評価値=80", "");
	kifu_block(&r, 1, "#評価値=-150", "; 疑問手 (loss 230)");
	kifu_block(&r, 2, "#評価値=5000", "; 大悪手 (loss 5150)");
	/* 3: a gap, though judged: no point to mark */
	kifu_block(&r, 3, "#読み筋=▲７六歩", "; no score; 悪手 (loss 400)");
	kifu_block(&r, 4, "#詰み=後手勝ち:3手", "");
	kifu_block(&r, 5, "#評価値=0", "; 悪手 (loss 301)");
	/* A judgement kifu did not write is not computed: 6 loses much. */
	kifu_block(&r, 6, "#評価値=-2000", "");
	kifu_block(&r, 7, "#評価値=-2100", "");
	read_graph(&g, &r, -1);
	assert_int_equal(g.n, 8);
	assert_int_equal(g.source, GRAPH_ANALYSIS);
	assert_int_equal(g.points, 7);
	assert_int_equal(g.first, BLACK);
	assert_true(g.v[0].has);
	assert_int_equal(g.v[0].value, 80);
	/* White moved into 1: the score stays Black's. */
	assert_int_equal(g.v[1].value, -150);
	assert_int_equal(g.v[1].cls, CLASS_INACCURACY);
	assert_int_equal(g.v[1].loss, 230);
	/* Clipped for drawing, kept as written. */
	assert_int_equal(g.v[2].value, GRAPH_CLIP);
	assert_int_equal(g.v[2].score, 5000);
	assert_int_equal(g.v[2].cls, CLASS_BLUNDER);
	assert_false(g.v[3].has);
	assert_int_equal(g.v[3].value, 0);
	assert_int_equal(g.v[3].loss, -1);
	assert_int_equal(g.v[4].mate, -1);
	assert_int_equal(g.v[4].value, -GRAPH_CLIP);
	assert_int_equal(g.v[5].cls, CLASS_MISTAKE);
	assert_int_equal(g.v[6].cls, CLASS_NONE);
	assert_int_equal(g.v[6].loss, -1);
	assert_int_equal(g.flags[CLASS_INACCURACY], 1);
	assert_int_equal(g.flags[CLASS_MISTAKE], 1);
	assert_int_equal(g.flags[CLASS_BLUNDER], 1);
	assert_int_equal(g.flags[CLASS_NONE], 0);
	/* --ply: the first moves only. */
	read_graph(&g, &r, 2);
	assert_int_equal(g.n, 3);
	assert_int_equal(g.points, 3);
	assert_int_equal(g.flags[CLASS_BLUNDER], 1);
	assert_int_equal(g.flags[CLASS_MISTAKE], 0);
	graph_release(&g);
	record_release(&r);
}

/* Other analysis comments: the classes computed from the scores. */
static void
test_computed_flags(void **state)
{
	struct record r;
	struct graph g;

	(void)state;
	graph_init(&g);
	load_usi(&r, GAME);
	comment(&r, 0, "*解析 0  候補1 深さ 10 評価値 100 読み筋 ▲７六歩(77)");
	/* Black's 7g7f: 100 -> -250, a loss of 350 for Black. */
	comment(&r, 1, "*解析 0  候補1 深さ 10 評価値 -250 読み筋 △３四歩(33)");
	/* White's 3c3d: -250 -> 600, 850 for White. */
	comment(&r, 2, "#評価値=600");
	/* Black's 2g2f gains: no loss. */
	comment(&r, 3, "#評価値=700");
	/* White's: 700 -> 799, 99 lost: under the first threshold. */
	comment(&r, 4, "#評価値=799");
	/* Black's: 799 -> 699, exactly 100. */
	comment(&r, 5, "#評価値=699");
	/* 6 has none: neither 6 nor 7 is judged. */
	comment(&r, 7, "#詰み=先手勝ち");
	read_graph(&g, &r, -1);
	assert_int_equal(g.source, GRAPH_ANALYSIS);
	assert_int_equal(g.v[1].loss, 350);
	assert_int_equal(g.v[1].cls, CLASS_MISTAKE);
	assert_int_equal(g.v[2].loss, 850);
	assert_int_equal(g.v[2].cls, CLASS_BLUNDER);
	assert_int_equal(g.v[3].loss, 0);
	assert_int_equal(g.v[3].cls, CLASS_NONE);
	assert_int_equal(g.v[4].loss, 99);
	assert_int_equal(g.v[4].cls, CLASS_NONE);
	assert_int_equal(g.v[5].loss, 100);
	assert_int_equal(g.v[5].cls, CLASS_INACCURACY);
	assert_false(g.v[6].has);
	assert_int_equal(g.v[7].loss, -1);
	assert_int_equal(g.v[7].mate, 1);
	assert_int_equal(g.v[7].value, GRAPH_CLIP);
	graph_release(&g);
	record_release(&r);
}

/* A game White starts (a handicap): the movers swap. */
static void
test_white_first(void **state)
{
	struct record r;
	struct graph g;

	(void)state;
	graph_init(&g);
	load_usi(&r, "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/"
	    "1B5R1/LNSGKGSN1 w - 1 moves 3c3d 7g7f");
	comment(&r, 0, "#評価値=-900");
	comment(&r, 1, "#評価値=-500");	/* White's move loses 400 */
	comment(&r, 2, "#評価値=-200");	/* Black's gains */
	read_graph(&g, &r, -1);
	assert_int_equal(g.first, WHITE);
	assert_int_equal(g.v[1].loss, 400);
	assert_int_equal(g.v[1].cls, CLASS_MISTAKE);
	assert_int_equal(g.v[2].loss, 0);
	graph_release(&g);
	record_release(&r);
}

/* The players' evaluations: at their moves, never the root's, no flags. */
static void
test_players(void **state)
{
	struct record r;
	struct graph g;

	(void)state;
	graph_init(&g);
	load_usi(&r, GAME);
	comment(&r, 0, "** 999 before any move");
	comment(&r, 1, "** 113 -3334FU +2625FU");
	comment(&r, 2, "*対局 時間 00:01.0 深さ 10 評価値 -2000 読み筋 △３四歩(33)");
	comment(&r, 3, "*評価値=100000");
	comment(&r, 4, "*詰み=後手勝ち:5手");
	read_graph(&g, &r, -1);
	assert_int_equal(g.source, GRAPH_PLAYER);
	assert_false(g.v[0].has);
	assert_int_equal(g.v[1].value, 113);
	assert_int_equal(g.v[2].value, -2000);
	assert_int_equal(g.v[3].value, GRAPH_CLIP);
	assert_int_equal(g.v[3].mate, 0);
	assert_int_equal(g.v[4].mate, -1);
	assert_int_equal(g.points, 4);
	assert_int_equal(g.flags[CLASS_INACCURACY] + g.flags[CLASS_MISTAKE] +
	    g.flags[CLASS_BLUNDER], 0);
	/* One analysis comment anywhere: the graph is of the analysis. */
	comment(&r, 6, "#評価値=42");
	read_graph(&g, &r, -1);
	assert_int_equal(g.source, GRAPH_ANALYSIS);
	assert_int_equal(g.points, 1);
	assert_false(g.v[1].has);
	assert_int_equal(g.v[6].value, 42);
	graph_release(&g);
	record_release(&r);
}

static void
test_none(void **state)
{
	struct record r;
	struct graph g;

	(void)state;
	graph_init(&g);
	load_usi(&r, GAME);
	comment(&r, 2, "評価値は見ていない");
	comment(&r, 3, "#評価値=abc");
	read_graph(&g, &r, -1);
	assert_int_equal(g.source, GRAPH_NONE);
	assert_int_equal(g.points, 0);
	assert_int_equal(g.n, 8);
	graph_release(&g);
	record_release(&r);
}

/* The number after `attr="` in the element at s. */
static double
attr_of(const char *s, const char *attr)
{
	char key[32];
	const char *end = strchr(s, '>'), *p;

	snprintf(key, sizeof(key), " %s=\"", attr);
	p = strstr(s, key);
	if (!p || p > end)
		fail_msg("no %s in %.80s", attr, s);
	return atof(p + strlen(key));
}

/* The element of class cls whose data-ply is k. */
static const char *
element(const char *svg, const char *cls, int k)
{
	char key[64];
	const char *p;

	snprintf(key, sizeof(key), "class=\"%s\" data-ply=\"%d\"", cls, k);
	p = strstr(svg, key);
	if (!p)
		fail_msg("no %s at move %d", cls, k);
	return p;
}

static void
test_svg(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct record r;
	struct graph g;
	double top, bottom, left, right, zero, x;
	const char *plot;
	int k;

	(void)state;
	graph_init(&g);
	load_usi(&r, GAME);
	record_add_header(&r, "先手", strlen("先手"), "<Black & \"co\">",
	    strlen("<Black & \"co\">"), HDR_BLACK, NULL);
	comment(&r, 0, "#評価値=0");
	comment(&r, 1, "#評価値=1500");
	comment(&r, 2, "#評価値=-3000");
	comment(&r, 3, "#評価値=-9999");
	/* 4: a gap; 5 alone */
	comment(&r, 5, "#詰み=先手勝ち:3手");
	/* 6: a gap */
	comment(&r, 7, "#評価値=-750");
	read_graph(&g, &r, -1);
	graph_svg(&g, 640, &sb);
	assert_int_equal(graph_svg_height(640), 320);
	assert_true(!strncmp(sb.buf, "<?xml", 5));
	assert_non_null(strstr(sb.buf, "width=\"640\" height=\"320\""));
	assert_int_equal(count_of(sb.buf, "<text"), count_of(sb.buf, "</text>"));
	assert_int_equal(count_of(sb.buf, "<svg"), 1);
	assert_true(sb.len > 7 && !strcmp(sb.buf + sb.len - 7, "</svg>\n"));
	/* The name is escaped, never markup. */
	assert_non_null(strstr(sb.buf, "&lt;Black &amp; &quot;co&quot;&gt;"));
	assert_null(strstr(sb.buf, "<Black"));
	plot = strstr(sb.buf, "class=\"plot\"");
	assert_non_null(plot);
	top = attr_of(plot, "y");
	bottom = top + attr_of(plot, "height");
	left = attr_of(plot, "x");
	right = left + attr_of(plot, "width");
	zero = attr_of(strstr(sb.buf, "class=\"zero\""), "y1");
	assert_true(near(zero, (top + bottom) / 2));
	/* Every point: its move across, its value up. */
	assert_int_equal(count_of(sb.buf, "class=\"point\""), 6);
	for (k = 0; k < g.n; k++) {
		const char *e;
		double want;

		if (!g.v[k].has)
			continue;
		e = element(sb.buf, "point", k);
		x = left + (right - left) * k / 7;
		want = zero - (zero - top) * g.v[k].value / GRAPH_CLIP;
		assert_true(near(attr_of(e, "cx"), x));
		assert_true(near(attr_of(e, "cy"), want));
	}
	assert_true(near(attr_of(element(sb.buf, "point", 3), "cy"), bottom));
	assert_true(near(attr_of(element(sb.buf, "point", 5), "cy"), top));
	assert_non_null(strstr(element(sb.buf, "point", 3),
	    "data-score=\"-9999\""));
	assert_non_null(strstr(element(sb.buf, "point", 5),
	    "data-mate=\"black\""));
	assert_int_equal(count_of(sb.buf, "class=\"mate\""), 1);
	/* The line is broken at the gaps: 0-3 only is a run. */
	assert_int_equal(count_of(sb.buf, "class=\"line\""), 1);
	assert_int_equal(count_of(sb.buf, "class=\"area\""), 1);
	/* Flags, computed: 1 and 2 gain for their movers; 3 is Black's
	   loss of 6999 (clipped for drawing only); 5 and 7 follow gaps. */
	assert_int_equal(count_of(sb.buf, "class=\"flag\""), 1);
	assert_non_null(strstr(element(sb.buf, "flag", 3),
	    "data-class=\"blunder\""));
	assert_non_null(strstr(sb.buf, "大悪手 1"));
	strbuf_release(&sb);
	graph_release(&g);
	record_release(&r);
}

static void
assert_spark(const struct graph *g, int columns, int colour,
    const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	graph_sparkline(g, columns, colour, &sb);
	if (strcmp(sb.buf, want) != 0)
		fail_msg("sparkline:\nwant '%s'\n got '%s'", want, sb.buf);
	strbuf_release(&sb);
}

static void
test_sparkline(void **state)
{
	struct record r;
	struct graph g;

	(void)state;
	graph_init(&g);
	load_usi(&r, GAME);
	comment(&r, 0, "#評価値=0");
	comment(&r, 1, "#評価値=-3000");
	comment(&r, 2, "#評価値=3000");
	comment(&r, 3, "#評価値=800");
	/* 4: a gap */
	comment(&r, 5, "#評価値=-400");
	comment(&r, 6, "#詰み=後手勝ち");
	comment(&r, 7, "#評価値=1");
	read_graph(&g, &r, -1);
	/* Even and above: ▅ and up; a level is 750. Moves 1, 2 and 3 lose
	   3000, 6000 and 2200 for their movers; 6 and 7 gain. */
	assert_spark(&g, 64, 0, "▅▁█▆ ▄▁▅  7 moves, 7 of 8 positions "
	    "evaluated; +1 at move 7; 疑問手 0, 悪手 0, 大悪手 3");
	assert_spark(&g, 64, 1, "▅\033[1;37;41m▁\033[0m\033[1;37;41m█"
	    "\033[0m\033[1;37;41m▆\033[0m ▄▁▅  7 moves, 7 of 8 positions "
	    "evaluated; +1 at move 7; 疑問手 0, 悪手 0, 大悪手 3");
	/* Four columns: the means of two points each, a gap left out. */
	assert_spark(&g, 4, 0, "▃▇▄▃  7 moves, 7 of 8 positions evaluated; "
	    "+1 at move 7; 疑問手 0, 悪手 0, 大悪手 3");
	record_release(&r);
	load_usi(&r, GAME);
	comment(&r, 6, "** -100000 -0055KA");
	read_graph(&g, &r, -1);
	assert_spark(&g, 64, 0, "      ▁   7 moves, 1 of 8 positions "
	    "evaluated; -100000 at move 6 (the players' evaluations)");
	graph_release(&g);
	record_release(&r);
}

static void
test_read_class(void **state)
{
	enum analyze_class c;
	long long loss;

	(void)state;
	assert_int_equal(annotate_read_class(NULL, &c, &loss), 0);
	assert_int_equal(annotate_read_class("a\n#評価値=5", &c, &loss), 0);
	assert_int_equal(annotate_read_class("note\n#kifu-analyze: 2 lines; "
	    "E; nodes 1; 悪手 (loss 412)\n#評価値=5", &c, &loss), 1);
	assert_int_equal(c, CLASS_MISTAKE);
	assert_int_equal(loss, 412);
	assert_int_equal(annotate_read_class("#kifu-analyze: 2 lines; E 大悪手"
	    "; nodes 1; 大悪手 (loss 9000)", &c, &loss), 1);
	assert_int_equal(c, CLASS_BLUNDER);
	assert_int_equal(loss, 9000);
	assert_int_equal(annotate_read_class("#kifu-analyze: 1 line; E; "
	    "nodes 1; no score", &c, &loss), 1);
	assert_int_equal(c, CLASS_NONE);
	assert_int_equal(loss, -1);
	/* Half a judgement is none. */
	assert_int_equal(annotate_read_class("#kifu-analyze: 1 line; E; "
	    "疑問手 (loss 12", &c, &loss), 1);
	assert_int_equal(c, CLASS_NONE);
	assert_int_equal(annotate_read_class("#kifu-analyze: 1 line; E; "
	    "疑問手 (loss )", &c, &loss), 1);
	assert_int_equal(c, CLASS_NONE);
	/* Not a marker: no count of lines. */
	assert_int_equal(annotate_read_class("#kifu-analyze: many; 悪手 "
	    "(loss 3)", &c, &loss), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kifu_analysis),
		cmocka_unit_test(test_computed_flags),
		cmocka_unit_test(test_white_first),
		cmocka_unit_test(test_players),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_svg),
		cmocka_unit_test(test_sparkline),
		cmocka_unit_test(test_read_class),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
