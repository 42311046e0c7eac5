/*
 * The pictures of `kifu show`: picture/diagram.c (the position drawn, and
 * its terminal board) and picture/svg.c (the SVG diagram).
 *
 * Records are USI lines read and replayed as the commands do; the text
 * boards are compared character for character, the SVG by the elements
 * it must hold (tests/cli/t0910-show-pictures.sh parses it as XML and
 * renders it).
 */
#include <stdio.h>
#include <stdlib.h>

#include "reading.h"
#include "helpers.h"
#include "core/core.h"
#include "core/record.h"
#include "core/replay.h"
#include "parsers/format.h"
#include "picture/diagram.h"

/* A USI line read into r (initialised here) and replayed without error. */
static void
load_usi(struct record *r, const struct variant *v, const char *line)
{
	load_usi_variant(r, v, line, 0);
}

static void
add_header(struct record *r, enum header_id id, const char *value)
{
	record_add_header(r, "x", 1, value, strlen(value), id, NULL);
}

static void
assert_text(const struct diagram *dg, int ascii, int colour,
    const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	struct text_style ts;

	ts.ascii = ascii;
	ts.colour = colour;
	diagram_text(dg, &ts, &sb);
	if (strcmp(sb.buf, want) != 0) {
		print_message("want:\n%s\ngot:\n%s\n", want, sb.buf);
		fail_msg("the board differs");
	}
	strbuf_release(&sb);
}

static void
test_moves(void **state)
{
	struct record r;
	struct diagram dg;

	(void)state;
	/* Bishops traded, a drop: 同, 成, 打 and the relative words. */
	load_usi(&r, variant_standard(), "position startpos moves 7g7f 3c3d "
	    "8h2b+ 3a2b B*4e 2b3c");
	assert_int_equal(diagram_at(&dg, &r, 0), 0);
	assert_int_equal(dg.last, MOVE_NONE);
	assert_int_equal(dg.number, 0);
	assert_int_equal(diagram_at(&dg, &r, 3), 3);
	assert_string_equal(dg.kif, "２二角成(88)");
	assert_string_equal(dg.ki2, "２二角成");
	assert_string_equal(dg.csa, "+8822UM");
	assert_int_equal(dg.number, 3);
	assert_int_equal(diagram_at(&dg, &r, 4), 4);
	assert_string_equal(dg.kif, "同　銀(31)");
	assert_string_equal(dg.ki2, "同　銀");
	assert_string_equal(dg.csa, "-3122GI");
	assert_int_equal(diagram_at(&dg, &r, 5), 5);
	assert_string_equal(dg.kif, "４五角打");
	assert_string_equal(dg.ki2, "４五角");
	assert_string_equal(dg.csa, "+0045KA");
	assert_int_equal(dg.pos.side, WHITE);
	/* Past the end: the last position, and how many moves there were. */
	assert_int_equal(diagram_at(&dg, &r, 99), 6);
	assert_int_equal(diagram_at(&dg, &r, -1), 6);
	assert_string_equal(dg.ki2, "３三銀");
	record_release(&r);

	/* Two golds can go to 5h: KI2 needs the word; KIF gives the origin. */
	load_usi(&r, variant_standard(), "position startpos moves 6i5h");
	diagram_at(&dg, &r, -1);
	assert_string_equal(dg.ki2, "５八金左");
	assert_string_equal(dg.kif, "５八金(69)");
	record_release(&r);
}

static void
test_text_start(void **state)
{
	struct record r;
	struct diagram dg;

	(void)state;
	load_usi(&r, variant_standard(), "position startpos");
	add_header(&r, HDR_BLACK, "羽生善治");
	add_header(&r, HDR_WHITE, "A\033[2Jb");
	diagram_at(&dg, &r, -1);
	/* Black to move is said too; an escape in a name is not sent. */
	assert_text(&dg, 0, 1,
	    "先手：羽生善治\n"
	    "後手：A?[2Jb\n"
	    "後手の持駒：なし\n"
	    "  ９ ８ ７ ６ ５ ４ ３ ２ １\n"
	    "+---------------------------+\n"
	    "|v香v桂v銀v金v玉v金v銀v桂v香|一\n"
	    "| ・v飛 ・ ・ ・ ・ ・v角 ・|二\n"
	    "|v歩v歩v歩v歩v歩v歩v歩v歩v歩|三\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n"
	    "| 歩 歩 歩 歩 歩 歩 歩 歩 歩|七\n"
	    "| ・ 角 ・ ・ ・ ・ ・ 飛 ・|八\n"
	    "| 香 桂 銀 金 玉 金 銀 桂 香|九\n"
	    "+---------------------------+\n"
	    "先手の持駒：なし\n"
	    "先手番\n");
	record_release(&r);
}

static void
test_text_move(void **state)
{
	struct record r;
	struct diagram dg;

	(void)state;
	load_usi(&r, variant_standard(), "position startpos moves 7g7f 3c3d "
	    "8h2b+");
	diagram_at(&dg, &r, -1);
	/* The last move's square in colour, and only with colour. */
	assert_text(&dg, 0, 1,
	    "後手の持駒：なし\n"
	    "  ９ ８ ７ ６ ５ ４ ３ ２ １\n"
	    "+---------------------------+\n"
	    "|v香v桂v銀v金v玉v金v銀v桂v香|一\n"
	    "| ・v飛 ・ ・ ・ ・ ・" DIAGRAM_MARK_ON " 馬" DIAGRAM_MARK_OFF
	    " ・|二\n"
	    "|v歩v歩v歩v歩v歩v歩 ・v歩v歩|三\n"
	    "| ・ ・ ・ ・ ・ ・v歩 ・ ・|四\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n"
	    "| ・ ・ 歩 ・ ・ ・ ・ ・ ・|六\n"
	    "| 歩 歩 ・ 歩 歩 歩 歩 歩 歩|七\n"
	    "| ・ ・ ・ ・ ・ ・ ・ 飛 ・|八\n"
	    "| 香 桂 銀 金 玉 金 銀 桂 香|九\n"
	    "+---------------------------+\n"
	    "先手の持駒：角　\n"
	    "手数＝3  ▲２二角成(88)  まで\n"
	    "後手番\n");
	assert_text(&dg, 1, 0,
	    "'  9  8  7  6  5  4  3  2  1\n"
	    "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n"
	    "P2 * -HI *  *  *  *  * +UM * \n"
	    "P3-FU-FU-FU-FU-FU-FU * -FU-FU\n"
	    "P4 *  *  *  *  *  * -FU *  * \n"
	    "P5 *  *  *  *  *  *  *  *  * \n"
	    "P6 *  * +FU *  *  *  *  *  * \n"
	    "P7+FU+FU * +FU+FU+FU+FU+FU+FU\n"
	    "P8 *  *  *  *  *  *  * +HI * \n"
	    "P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n"
	    "P+00KA\n"
	    "P-\n"
	    "'3: +8822UM\n"
	    "-\n");
	record_release(&r);
}

static void
test_text_hands(void **state)
{
	struct record r;
	struct diagram dg;

	(void)state;
	/* Every piece but the kings in White's hand; White to move. */
	load_usi(&r, variant_standard(), "position sfen 4k4/9/9/9/9/9/9/9/4K4 w "
	    "2r2b4g4s4n4l18p 1");
	diagram_at(&dg, &r, -1);
	assert_text(&dg, 0, 0,
	    "後手の持駒：飛二　角二　金四　銀四　桂四　香四　歩十八　\n"
	    "  ９ ８ ７ ６ ５ ４ ３ ２ １\n"
	    "+---------------------------+\n"
	    "| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n"
	    "| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n"
	    "+---------------------------+\n"
	    "先手の持駒：なし\n"
	    "後手番\n");
	record_release(&r);

	/* A start from move 40 keeps its number. */
	load_usi(&r, variant_standard(), "position sfen 4k4/9/9/9/9/9/9/9/4K4 b "
	    "P 41");
	diagram_at(&dg, &r, -1);
	assert_int_equal(dg.number, 40);
	assert_text(&dg, 1, 0,
	    "'  9  8  7  6  5  4  3  2  1\n"
	    "P1 *  *  *  * -OU *  *  *  * \n"
	    "P2 *  *  *  *  *  *  *  *  * \n"
	    "P3 *  *  *  *  *  *  *  *  * \n"
	    "P4 *  *  *  *  *  *  *  *  * \n"
	    "P5 *  *  *  *  *  *  *  *  * \n"
	    "P6 *  *  *  *  *  *  *  *  * \n"
	    "P7 *  *  *  *  *  *  *  *  * \n"
	    "P8 *  *  *  *  *  *  *  *  * \n"
	    "P9 *  *  *  * +OU *  *  *  * \n"
	    "P+00FU\n"
	    "P-\n"
	    "'40\n"
	    "+\n");
	record_release(&r);
}

static void
test_text_minishogi(void **state)
{
	struct record r;
	struct diagram dg;

	(void)state;
	load_usi(&r, variant_minishogi(), "position startpos moves 5d5c");
	diagram_at(&dg, &r, -1);
	assert_text(&dg, 0, 0,
	    "手合割：5五将棋\n"
	    "後手の持駒：なし\n"
	    "  ５ ４ ３ ２ １\n"
	    "+---------------+\n"
	    "|v飛v角v銀v金v玉|一\n"
	    "| ・ ・ ・ ・v歩|二\n"
	    "| 歩 ・ ・ ・ ・|三\n"
	    "| ・ ・ ・ ・ ・|四\n"
	    "| 玉 金 銀 角 飛|五\n"
	    "+---------------+\n"
	    "先手の持駒：なし\n"
	    "手数＝1  ▲５三歩(54)  まで\n"
	    "後手番\n");
	record_release(&r);
}

static char *
svg(const struct diagram *dg, int width, int flip)
{
	struct strbuf sb = STRBUF_INIT;
	struct svg_style st;

	st.width = width;
	st.flip = flip;
	diagram_svg(dg, &st, &sb);
	return strbuf_detach(&sb, NULL);
}

/* The x attribute of the element that holds `attr`. */
static double
x_of(const char *s, const char *attr)
{
	const char *p = strstr(s, attr), *x;

	if (!p)
		fail_msg("no element with %s", attr);
	while (p > s && *p != '<')
		p--;
	if (!(x = strstr(p, " x=\"")))
		fail_msg("no x for %s", attr);
	return strtod(x + 4, NULL);
}

static void
test_svg(void **state)
{
	struct record r;
	struct diagram dg;
	char *s, *f;

	(void)state;
	load_usi(&r, variant_standard(), "position startpos moves 7g7f 3c3d "
	    "8h2b+ 3a2b");
	add_header(&r, HDR_BLACK, "Tom & <Jerry>\x01");
	diagram_at(&dg, &r, -1);
	s = svg(&dg, 480, 0);
	assert_non_null(strstr(s, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "width=\"480\" height=\"428\" viewBox=\"0 0 480 428\""));
	assert_int_equal(diagram_svg_height(variant_standard(), 480), 428);
	assert_non_null(strstr(s, "font-family=\"'Noto Serif CJK JP'"));
	assert_non_null(strstr(s, ",serif\""));
	/* 39 pieces on the board, a bishop in each hand. */
	assert_int_equal(count_of(s, "class=\"piece\""), 38);
	assert_int_equal(count_of(s, "data-color=\"white\" data-piece"), 19);
	assert_int_equal(count_of(s, "rotate(180"), 19);
	assert_non_null(strstr(s, "data-square=\"22\" data-color=\"white\" "
	    "data-piece=\"GI\">銀</text>"));
	assert_non_null(strstr(s, "data-square=\"59\" data-color=\"black\" "
	    "data-piece=\"OU\">玉</text>"));
	assert_int_equal(count_of(s, "class=\"hand-piece\""), 2);
	assert_int_equal(count_of(s, "data-piece=\"KA\" data-count=\"1\""), 2);
	assert_int_equal(count_of(s, "class=\"last\""), 1);
	assert_int_equal(count_of(s, "class=\"star\""), 4);
	assert_int_equal(count_of(s, "class=\"file\""), 9);
	assert_int_equal(count_of(s, "class=\"rank\""), 9);
	/* The name escaped, its control character left out. */
	assert_non_null(strstr(s, "☗Tom &amp; &lt;Jerry&gt;</text>"));
	assert_non_null(strstr(s, "☖後手</text>"));
	assert_non_null(strstr(s, "4手目　△同　銀まで</text>"));
	/* Square 9a is at the left; as White sees it, at the right. */
	f = svg(&dg, 480, 1);
	assert_true(x_of(s, "data-square=\"91\"") <
	    x_of(s, "data-square=\"11\""));
	assert_true(x_of(f, "data-square=\"91\"") >
	    x_of(f, "data-square=\"11\""));
	assert_int_equal(count_of(f, "data-color=\"black\" data-piece"), 19);
	assert_int_equal(count_of(f, "rotate(180"), 19);
	assert_non_null(strstr(f, "data-color=\"black\" data-piece=\"OU\">"));
	free(f);
	free(s);
	record_release(&r);
}

static void
test_svg_hands(void **state)
{
	struct record r;
	struct diagram dg;
	char *s;

	(void)state;
	load_usi(&r, variant_standard(), "position sfen 4k4/9/9/9/9/9/9/9/4K4 b "
	    "2R2B4G4S4N4L18P 1");
	add_header(&r, HDR_WHITE, "一二三四五六七八九十一二三四五");
	diagram_at(&dg, &r, -1);
	s = svg(&dg, 600, 0);
	assert_int_equal(count_of(s, "class=\"piece\""), 2);
	assert_int_equal(count_of(s, "class=\"hand-piece\""), 7);
	assert_non_null(strstr(s, "data-piece=\"FU\" data-count=\"18\""));
	assert_int_equal(count_of(s, "class=\"count\""), 7);
	assert_non_null(strstr(s, ">18</text>"));
	/* White holds nothing; a long name is cut. */
	assert_int_equal(count_of(s, "class=\"none\""), 2);
	assert_non_null(strstr(s, "☖一二三四五六…</text>"));
	assert_non_null(strstr(s, "先手番</text>"));
	free(s);
	record_release(&r);
}

static void
test_svg_minishogi(void **state)
{
	struct record r;
	struct diagram dg;
	char *s;

	(void)state;
	load_usi(&r, variant_minishogi(), "position startpos moves 5d5c");
	diagram_at(&dg, &r, -1);
	s = svg(&dg, 480, 0);
	assert_int_equal(count_of(s, "class=\"piece\""), 12);
	assert_int_equal(count_of(s, "class=\"file\""), 5);
	assert_int_equal(count_of(s, "class=\"rank\""), 5);
	assert_int_equal(count_of(s, "class=\"star\""), 0);
	assert_non_null(strstr(s, "data-square=\"53\" data-color=\"black\" "
	    "data-piece=\"FU\""));
	assert_non_null(strstr(s, ">５</text>"));
	assert_null(strstr(s, ">６</text>"));
	assert_non_null(strstr(s, "1手目　▲５三歩まで</text>"));
	free(s);
	record_release(&r);
}

static void
test_svg_changes(void **state)
{
	struct record r;
	struct diagram a, b;
	struct svg_rect ch[SVG_MAX_CHANGES];
	struct svg_style st;
	int i, n;

	(void)state;
	st.width = 480;
	st.flip = 0;
	load_usi(&r, variant_standard(), "position startpos moves 7g7f 3c3d "
	    "8h2b+");
	/* The first move: its two squares and the move line. */
	diagram_at(&a, &r, 0);
	diagram_at(&b, &r, 1);
	n = diagram_svg_changes(&a, &b, &st, ch);
	assert_int_equal(n, 3);
	for (i = 0; i < 2; i++) {
		assert_in_range(ch[i].w, 37, 41);
		assert_in_range(ch[i].h, 37, 41);
	}
	assert_int_equal(ch[2].x, 0);
	assert_int_equal(ch[2].w, 480);
	assert_in_range(ch[2].y + ch[2].h, 428, 430);
	/* The next: its squares, the last one's shade, the move line. */
	diagram_at(&a, &r, 2);
	n = diagram_svg_changes(&b, &a, &st, ch);
	assert_int_equal(n, 4);
	/* A capture: Black's hand (at the right) changes too. */
	diagram_at(&b, &r, 3);
	n = diagram_svg_changes(&a, &b, &st, ch);
	assert_int_equal(n, 5);
	assert_true(ch[3].x > 400);
	/* Three moves apart: six squares, a hand, the move line. */
	diagram_at(&a, &r, 0);
	n = diagram_svg_changes(&a, &b, &st, ch);
	assert_int_equal(n, 8);
	record_release(&r);

	load_usi(&r, variant_standard(), "position sfen 4k4/9/9/9/9/9/9/9/4K4 b "
	    "- 1");
	diagram_at(&a, &r, 0);
	record_release(&r);
	load_usi(&r, variant_standard(), "position startpos");
	diagram_at(&b, &r, 0);
	/* More than eight squares: the whole board. */
	n = diagram_svg_changes(&a, &b, &st, ch);
	assert_int_equal(n, 2);
	assert_in_range(ch[0].w, 333, 337);
	record_release(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_moves),
		cmocka_unit_test(test_text_start),
		cmocka_unit_test(test_text_move),
		cmocka_unit_test(test_text_hands),
		cmocka_unit_test(test_text_minishogi),
		cmocka_unit_test(test_svg),
		cmocka_unit_test(test_svg_hands),
		cmocka_unit_test(test_svg_minishogi),
		cmocka_unit_test(test_svg_changes),
	};

	core_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
