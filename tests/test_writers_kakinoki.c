/*
 * The KIF and KI2 writers: writers/kif.c (kif_write), writers/ki2.c
 * (ki2_write) and the parts they share in parsers/kakinoki.c.
 *
 * Records are built from USI lines (usi_read) plus nodes added by hand,
 * replayed, written, and compared with the text character for character.
 * The last tests read real Kifu for Windows files with the KIF and KI2
 * readers and must write them back as they were (bar the "#KIF" line
 * older versions did not write).
 */
#include <stdio.h>
#include <stdlib.h>

#include "reading.h"
#include "helpers.h"
#include "core/core.h"
#include "core/record.h"
#include "core/replay.h"
#include "core/text.h"
#include "parsers/format.h"
#include "parsers/kakinoki.h"

#define START_SFEN \
	"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"

static const struct write_opts utf8 = { 0, "UTF-8", NULL };
static const struct write_opts cp932 = { 0, "CP932", NULL };

static void
load_usi(struct record *r, const char *line)
{
	load_usi_variant(r, variant_standard(), line, 0);
}

/* Adds a USI move as the last continuation of parent (not replayed). */
static int32_t
add_usi(struct record *r, int32_t parent, const char *usi)
{
	struct move_claim c;
	int32_t i;
	struct record_node *n;

	if (usi_parse_move(r->v, usi, strlen(usi), &c))
		fail_msg("bad test move '%s'", usi);
	i = record_add_node(r, parent);
	n = &r->nodes[i];
	n->spec.flags = (uint8_t)((c.drop ? SPEC_DROP : 0) |
	    (c.promote ? SPEC_PROMOTE : 0));
	n->spec.from = (uint8_t)(c.drop ? SQ_NONE : c.from);
	n->spec.to = (uint8_t)c.to;
	n->spec.piece = (uint8_t)c.piece;
	n->raw = record_intern(r, usi, strlen(usi));
	return i;
}

static int32_t
add_terminal(struct record *r, int32_t parent, enum special sp)
{
	int32_t i = record_add_node(r, parent);

	r->nodes[i].special = (uint8_t)sp;
	return i;
}

static void
replay(struct record *r, int errors)
{
	struct diag_list d;
	struct replay rp;

	diag_list_init(&d);
	if (replay_record(r, &rp, &d) != errors) {
		dump_diags(&d);
		fail_msg("expected %d replay errors", errors);
	}
	diag_list_release(&d);
}

/* The k-th node of the main line (0 = the root). */
static int32_t
nth(const struct record *r, int k)
{
	int32_t i = 0;

	while (k-- > 0 && i >= 0)
		i = r->nodes[i].next;
	if (i < 0)
		fail_msg("the main line is shorter");
	return i;
}

static void
header(struct record *r, enum header_id id, const char *key,
    const char *value)
{
	record_add_header(r, key, strlen(key), value, value ? strlen(value) : 0,
	    id, NULL);
}

/* Compares texts; on a difference, shows both from the first bad line. */
static void
assert_text(const char *got, const char *want)
{
	const char *g = got, *w = want;
	int line = 1;

	if (strcmp(got, want) == 0)
		return;
	while (*g && *g == *w) {
		if (*g == '\n')
			line++;
		g++;
		w++;
	}
	print_message("---- expected:\n%s---- got:\n%s----\n", want, got);
	fail_msg("texts differ at line %d", line);
}

typedef int (*writer)(const struct record *, const struct write_opts *,
    struct strbuf *, struct diag_list *);

/* Writes r and checks the text and how many warnings came with it. */
static void
assert_written(writer wr, const struct record *r, const struct write_opts *o,
    const char *want, size_t warnings)
{
	struct strbuf sb = STRBUF_INIT;
	struct diag_list d;
	size_t i;

	strbuf_init(&sb);
	diag_list_init(&d);
	assert_int_equal(wr(r, o, &sb, &d), 0);
	assert_text(sb.buf, want);
	if (d.n != warnings) {
		dump_diags(&d);
		fail_msg("expected %zu warnings, got %zu", warnings, d.n);
	}
	for (i = 0; i < d.n; i++) {
		assert_int_equal(d.v[i].severity, DIAG_WARNING);
		assert_string_equal(d.v[i].id, diag_id_name(DIAG_LIMIT));
	}
	strbuf_release(&sb);
	diag_list_release(&d);
}

#define KIF_HEAD "#KIF version=2.0 encoding=UTF-8\n"
#define KI2_HEAD "#KI2 version=2.0 encoding=UTF-8\n"
#define HIRATE "手合割：平手　　\n"
#define SEPARATOR "手数----指手---------消費時間--\n"

/* ---- KIF ---- */

/* Piece words, 成, 打, origins, 同　, the terminal and its まで line. */
static void
test_kif_moves(void **state)
{
	struct record r;

	(void)state;
	load_usi(&r, "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e "
	    "resign");
	assert_written(kif_write, &r, &utf8,
	    KIF_HEAD HIRATE SEPARATOR
	    "   1 ７六歩(77)\n"
	    "   2 ３四歩(33)\n"
	    "   3 ２二角成(88)\n"
	    "   4 同　銀(31)\n"
	    "   5 ４五角打\n"
	    "   6 投了\n"
	    "まで5手で先手の勝ち\n", 0);
	record_release(&r);
}

/*
 * The rules header: stated after the record's headers in place of the
 * record's own, or left out ("").
 */
static void
test_kif_rules_header(void **state)
{
	struct write_opts stated = { 0, "UTF-8", "csa,max-moves=0" };
	struct write_opts none = { 0, "UTF-8", "" };
	struct record r;

	(void)state;
	load_usi(&r, "position startpos moves 7g7f resign");
	header(&r, HDR_BLACK, "先手", "a");
	header(&r, HDR_RULES, "kifu-rules", "jsa");
	header(&r, HDR_EVENT, "棋戦", "b");
	assert_written(kif_write, &r, &utf8,
	    KIF_HEAD HIRATE "先手：a\nkifu-rules：jsa\n棋戦：b\n" SEPARATOR
	    "   1 ７六歩(77)\n   2 投了\nまで1手で先手の勝ち\n", 0);
	assert_written(kif_write, &r, &stated,
	    KIF_HEAD HIRATE "先手：a\n棋戦：b\nkifu-rules：csa,max-moves=0\n"
	    SEPARATOR "   1 ７六歩(77)\n   2 投了\nまで1手で先手の勝ち\n", 0);
	assert_written(ki2_write, &r, &none,
	    KI2_HEAD HIRATE "先手：a\n棋戦：b\n\n▲７六歩\nまで1手で先手の勝ち\n",
	    0);
	record_release(&r);
}

/* A board shown turned: 盤面回転 after the headers, in KIF and KI2. */
static void
test_kif_flipped(void **state)
{
	struct record r;

	(void)state;
	load_usi(&r, "position startpos moves 7g7f resign");
	header(&r, HDR_BLACK, "先手", "a");
	r.flipped = 1;
	assert_written(kif_write, &r, &utf8,
	    KIF_HEAD HIRATE "先手：a\n盤面回転\n" SEPARATOR
	    "   1 ７六歩(77)\n   2 投了\nまで1手で先手の勝ち\n", 0);
	assert_written(ki2_write, &r, &utf8,
	    KI2_HEAD HIRATE "先手：a\n盤面回転\n\n▲７六歩\nまで1手で先手の勝ち\n",
	    0);
	record_release(&r);
}

/*
 * "( m:ss/hh:mm:ss)": the time of the move and the mover's running
 * total, which a total the record states replaces; the move text is
 * padded to the time column. CP932 output says Shift_JIS.
 */
static void
test_kif_times(void **state)
{
	static const int64_t times[] = { 16000, 0, 3999, 1000, 610000, 4000 };
	struct record r;
	int k;

	(void)state;
	load_usi(&r, "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e "
	    "resign");
	for (k = 1; k <= 6; k++)
		r.nodes[nth(&r, k)].time_ms = times[k - 1];
	r.nodes[nth(&r, 4)].total_ms = 3601000;
	assert_written(kif_write, &r, &cp932,
	    "#KIF version=2.0 encoding=Shift_JIS\n" HIRATE SEPARATOR
	    "   1 ７六歩(77)   ( 0:16/00:00:16)\n"
	    "   2 ３四歩(33)   ( 0:00/00:00:00)\n"
	    "   3 ２二角成(88) ( 0:03/00:00:19)\n"
	    "   4 同　銀(31)   ( 0:01/01:00:01)\n"
	    "   5 ４五角打     (10:10/00:10:29)\n"
	    "   6 投了         ( 0:04/01:00:05)\n"
	    "まで5手で先手の勝ち\n", 0);
	record_release(&r);
}

/*
 * Headers in record order, well-known ids under their KIF keys, others
 * as written, '#' lines kept as comments, the writer's own version and
 * encoding lines in place of the record's, 手合割 where the record had it.
 */
static void
test_kif_headers(void **state)
{
	struct record r;

	(void)state;
	record_init(&r, variant_standard());
	header(&r, HDR_RAW,
	    "# ---- Kifu for Windows V7 V7.08 棋譜ファイル ----", NULL);
	header(&r, HDR_VERSION, "KIF version", "2.0");
	header(&r, HDR_ENCODING, "encoding", "Shift_JIS");
	header(&r, HDR_START_TIME, "開始日時", "2014/10/16 03:21:41");
	header(&r, HDR_EVENT, "EVENT", "名人戦");
	header(&r, HDR_OTHER, "記録係", "someone");
	header(&r, HDR_NOTE, "NOTE", "line1\nline2");
	header(&r, HDR_HANDICAP, "手合割", "平手");
	header(&r, HDR_BLACK, "N+", "羽生");
	header(&r, HDR_WHITE, "後手", "");
	header(&r, HDR_RAW, "手数＝0  まで", NULL);
	assert_written(kif_write, &r, &cp932,
	    "#KIF version=2.0 encoding=Shift_JIS\n"
	    "# ---- Kifu for Windows V7 V7.08 棋譜ファイル ----\n"
	    "開始日時：2014/10/16 03:21:41\n"
	    "棋戦：名人戦\n"
	    "記録係：someone\n"
	    "備考：line1\\nline2\n"
	    HIRATE
	    "先手：羽生\n"
	    "後手：\n"
	    "#手数＝0  まで\n"
	    SEPARATOR, 0);
	record_release(&r);

	/* No 手合割 header: the start goes before the names... */
	record_init(&r, variant_standard());
	header(&r, HDR_EVENT, "棋戦", "竜王戦");
	header(&r, HDR_BLACK, "先手", "A");
	header(&r, HDR_WHITE, "後手", "B");
	assert_written(kif_write, &r, &utf8,
	    KIF_HEAD "棋戦：竜王戦\n" HIRATE "先手：A\n後手：B\n" SEPARATOR, 0);
	record_release(&r);

	/* ...or after the headers when there are none. */
	record_init(&r, variant_standard());
	header(&r, HDR_EVENT, "棋戦", "竜王戦");
	assert_written(kif_write, &r, &utf8,
	    KIF_HEAD "棋戦：竜王戦\n" HIRATE SEPARATOR, 0);
	record_release(&r);
}

/* Comments (*) and bookmarks (&) after their move; the root's first. */
static void
test_kif_comments(void **state)
{
	struct record r;

	(void)state;
	load_usi(&r, "position startpos moves 7g7f 3c3d resign");
	record_add_comment(&r, 0, "開始局面", strlen("開始局面"));
	record_add_comment(&r, 0, "line2", 5);
	r.nodes[0].bookmark = record_intern(&r, "読み込み時表示",
	    strlen("読み込み時表示"));
	record_add_comment(&r, nth(&r, 1), "初手", strlen("初手"));
	r.nodes[nth(&r, 2)].bookmark = record_intern(&r, "mark", 4);
	record_add_comment(&r, nth(&r, 3), "投了の図", strlen("投了の図"));
	assert_written(kif_write, &r, &utf8,
	    KIF_HEAD HIRATE SEPARATOR
	    "*開始局面\n"
	    "*line2\n"
	    "&読み込み時表示\n"
	    "   1 ７六歩(77)\n"
	    "*初手\n"
	    "   2 ３四歩(33)\n"
	    "&mark\n"
	    "   3 投了\n"
	    "*投了の図\n"
	    "まで2手で後手の勝ち\n", 0);
	assert_written(ki2_write, &r, &utf8,
	    KI2_HEAD HIRATE "\n"
	    "*開始局面\n"
	    "*line2\n"
	    "&読み込み時表示\n"
	    "▲７六歩\n"
	    "*初手\n"
	    "△３四歩\n"
	    "&mark\n"
	    "まで2手で後手の勝ち\n"
	    "*投了の図\n", 0);
	record_release(&r);
}

/*
 * A tree with variations at every depth, an alternative to a terminal,
 * and a nested one whose first move is 同 on its own path:
 *
 *   main  7g7f 3c3d 2g2f resign
 *           |    |    |    `- 4: 8c8d
 *           |    |    `- 3: 6i7h 8c8d 2g2f abort
 *           |    |                 `- 4: 2b8h+ 7i8h
 *           |    `- 2: 8c8d 2g2f
 *           `- 1: 2g2f 8c8d 2f2e sennichite
 *                           `- 3: 7g7f
 */
static void
build_tree(struct record *r)
{
	int32_t a, b;

	load_usi(r, "position startpos moves 7g7f 3c3d 2g2f resign");
	add_usi(r, nth(r, 3), "8c8d");
	a = add_usi(r, nth(r, 2), "6i7h");
	b = add_usi(r, a, "8c8d");
	a = add_usi(r, b, "2g2f");
	add_terminal(r, a, SP_ABORT);
	a = add_usi(r, r->nodes[b].parent, "2b8h+");
	add_usi(r, a, "7i8h");
	a = add_usi(r, nth(r, 1), "8c8d");
	add_usi(r, a, "2g2f");
	a = add_usi(r, 0, "2g2f");
	a = add_usi(r, a, "8c8d");
	b = add_usi(r, a, "2f2e");
	add_terminal(r, b, SP_SENNICHITE);
	add_usi(r, a, "7g7f");
	replay(r, 0);
}

static void
test_kif_variations(void **state)
{
	struct record r;

	(void)state;
	build_tree(&r);
	assert_written(kif_write, &r, &utf8,
	    KIF_HEAD HIRATE SEPARATOR
	    "   1 ７六歩(77)   +\n"
	    "   2 ３四歩(33)   +\n"
	    "   3 ２六歩(27)   +\n"
	    "   4 投了         +\n"
	    "まで3手で先手の勝ち\n"
	    "\n"
	    "変化：4手\n"
	    "   4 ８四歩(83)\n"
	    "\n"
	    "変化：3手\n"
	    "   3 ７八金(69)\n"
	    "   4 ８四歩(83)   +\n"
	    "   5 ２六歩(27)\n"
	    "   6 中断\n"
	    "まで5手で中断\n"
	    "\n"
	    "変化：4手\n"
	    "   4 ８八角成(22)\n"
	    "   5 同　銀(79)\n"
	    "\n"
	    "変化：2手\n"
	    "   2 ８四歩(83)\n"
	    "   3 ２六歩(27)\n"
	    "\n"
	    "変化：1手\n"
	    "   1 ２六歩(27)\n"
	    "   2 ８四歩(83)\n"
	    "   3 ２五歩(26)   +\n"
	    "   4 千日手\n"
	    "まで3手で千日手\n"
	    "\n"
	    "変化：3手\n"
	    "   3 ７六歩(77)\n", 0);
	record_release(&r);
}

/* A start of its own: the board diagram, hands, whose move it is. */
static void
test_kif_board(void **state)
{
	struct record r;

	(void)state;
	load_usi(&r, "position sfen 8l/6+P2/6Sk1/7p1/9/8P/9/9/9 w GSr2b15p 1 "
	    "moves 2c1b");
	add_terminal(&r, nth(&r, 1), SP_MATE);
	assert_written(kif_write, &r, &utf8,
	    KIF_HEAD
	    "後手の持駒：飛　角二　歩十五　\n"
	    "  ９ ８ ７ ６ ５ ４ ３ ２ １\n"
	    "+---------------------------+\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・v香|一\n"
	    "| ・ ・ ・ ・ ・ ・ と ・ ・|二\n"
	    "| ・ ・ ・ ・ ・ ・ 銀v玉 ・|三\n"
	    "| ・ ・ ・ ・ ・ ・ ・v歩 ・|四\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ 歩|六\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|九\n"
	    "+---------------------------+\n"
	    "先手の持駒：金　銀　\n"
	    "後手番\n"
	    SEPARATOR
	    "   1 １二玉(23)\n"
	    "   2 詰み\n"
	    "まで1手詰\n", 0);
	record_release(&r);

	/* Promoted pieces in one-character cells, no hands, Black to move. */
	load_usi(&r, "position sfen 4k4/9/9/9/9/9/+L+N+S+R+B4/9/4K4 b - 1");
	header(&r, HDR_BLACK, "先手", "A");
	assert_written(kif_write, &r, &utf8,
	    KIF_HEAD
	    "後手の持駒：なし\n"
	    "  ９ ８ ７ ６ ５ ４ ３ ２ １\n"
	    "+---------------------------+\n"
	    "| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n"
	    "| 杏 圭 全 龍 馬 ・ ・ ・ ・|七\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n"
	    "| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n"
	    "+---------------------------+\n"
	    "先手の持駒：なし\n"
	    "先手：A\n"
	    SEPARATOR, 0);
	record_release(&r);

	/*
	 * 手合割：その他 (as Kifu for Windows writes it for edited handicap
	 * positions) keeps its line and makes the labels 上手/下手; Black
	 * to move must then be said.
	 */
	load_usi(&r, "position sfen 8k/9/9/9/9/9/9/9/8K b R 1 moves 1i2h");
	header(&r, HDR_HANDICAP, "手合割", "その他");
	header(&r, HDR_WHITE, "後手", "uwate");
	add_terminal(&r, nth(&r, 1), SP_RESIGN);
	assert_written(kif_write, &r, &utf8,
	    KIF_HEAD
	    "手合割：その他　\n"
	    "上手の持駒：なし\n"
	    "  ９ ８ ７ ６ ５ ４ ３ ２ １\n"
	    "+---------------------------+\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・v玉|一\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ 玉|九\n"
	    "+---------------------------+\n"
	    "下手の持駒：飛　\n"
	    "下手番\n"
	    "上手：uwate\n"
	    SEPARATOR
	    "   1 ２八玉(19)\n"
	    "   2 投了\n"
	    "まで1手で下手の勝ち\n", 0);
	record_release(&r);
}

/* A standard handicap: its 手合割 name, 下手/上手, △ first. */
static void
test_handicap(void **state)
{
	struct record r;

	(void)state;
	load_usi(&r, "position sfen lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/"
	    "1B5R1/LNSGKGSNL w - 1 moves 3c3d 7g7f resign");
	header(&r, HDR_BLACK, "先手", "A");
	header(&r, HDR_WHITE, "後手", "B");
	assert_written(kif_write, &r, &utf8,
	    KIF_HEAD
	    "手合割：香落ち　\n"
	    "下手：A\n"
	    "上手：B\n"
	    SEPARATOR
	    "   1 ３四歩(33)\n"
	    "   2 ７六歩(77)\n"
	    "   3 投了\n"
	    "まで2手で下手の勝ち\n", 0);
	assert_written(ki2_write, &r, &utf8,
	    KI2_HEAD
	    "手合割：香落ち　\n"
	    "下手：A\n"
	    "上手：B\n"
	    "\n"
	    "△３四歩    ▲７六歩\n"
	    "まで2手で下手の勝ち\n", 0);
	record_release(&r);
}

/* lishogi's minishogi 二枚落ち as KIF and KI2 write its start. */
#define MINI_2_PIECE \
	"手合割：5五将棋\n" \
	"上手の持駒：なし\n" \
	"  ５ ４ ３ ２ １\n" \
	"+---------------+\n" \
	"| ・ ・v銀v金v玉|一\n" \
	"| ・ ・ ・ ・v歩|二\n" \
	"| ・ ・ ・ ・ ・|三\n" \
	"| 歩 ・ ・ ・ ・|四\n" \
	"| 玉 金 銀 角 飛|五\n" \
	"+---------------+\n" \
	"下手の持駒：なし\n" \
	"上手番\n"

/* Minishogi: 手合割：5五将棋, or a 5x5 board after it. */
static void
test_minishogi(void **state)
{
	struct record r;

	(void)state;
	load_usi_variant(&r, variant_minishogi(),
	    "position startpos moves 5d5c", 0);
	assert_written(kif_write, &r, &utf8,
	    KIF_HEAD "手合割：5五将棋\n" SEPARATOR
	    "   1 ５三歩(54)\n", 0);
	record_release(&r);

	load_usi_variant(&r, variant_minishogi(),
	    "position sfen 4k/5/5/5/K4 b - 1", 0);
	assert_written(kif_write, &r, &utf8,
	    KIF_HEAD "手合割：5五将棋\n"
	    "後手の持駒：なし\n"
	    "  ５ ４ ３ ２ １\n"
	    "+---------------+\n"
	    "| ・ ・ ・ ・v玉|一\n"
	    "| ・ ・ ・ ・ ・|二\n"
	    "| ・ ・ ・ ・ ・|三\n"
	    "| ・ ・ ・ ・ ・|四\n"
	    "| 玉 ・ ・ ・ ・|五\n"
	    "+---------------+\n"
	    "先手の持駒：なし\n"
	    SEPARATOR, 0);
	record_release(&r);

	/*
	 * lishogi's 二枚落ち: no 手合割 name of its own, so the board, with
	 * 上手 and 下手 for the sides, and 上手 to move.
	 */
	load_usi_variant(&r, variant_minishogi(),
	    "position sfen 2sgk/4p/5/P4/KGSBR w - 1 moves 2a3b 1e1d resign",
	    0);
	assert_written(kif_write, &r, &utf8,
	    KIF_HEAD MINI_2_PIECE SEPARATOR
	    "   1 ３二金(21)\n"
	    "   2 １四飛(15)\n"
	    "   3 投了\n"
	    "まで2手で下手の勝ち\n", 0);
	assert_written(ki2_write, &r, &utf8,
	    KI2_HEAD MINI_2_PIECE
	    "\n"
	    "△３二金    ▲１四飛\n"
	    "まで2手で下手の勝ち\n", 0);
	record_release(&r);
}

struct terminal_case {
	enum special sp;
	const char *raw;	/* the word as read, for SP_UNKNOWN */
	const char *word;	/* KIF terminal line, slot 2 (White to move) */
	const char *summary;	/* the まで line */
	int kif_warns, ki2_warns;
};

static const struct terminal_case terminal_cases[] = {
	{ SP_RESIGN, NULL, "投了", "まで1手で先手の勝ち", 0, 0 },
	{ SP_ABORT, NULL, "中断", "まで1手で中断", 0, 0 },
	{ SP_SENNICHITE, NULL, "千日手", "まで1手で千日手", 0, 0 },
	{ SP_TIME_UP, NULL, "切れ負け", "まで1手で時間切れにより先手の勝ち",
	    0, 0 },
	{ SP_ILLEGAL_MOVE, NULL, "反則負け", "まで1手で後手の反則負け", 0, 0 },
	{ SP_ILLEGAL_WIN, NULL, "反則勝ち", "まで1手で後手の反則勝ち", 0, 0 },
	/* CSA %+ILLEGAL_ACTION after Black's move: Black fouled. */
	{ SP_ILLEGAL_BLACK, NULL, "反則勝ち", "まで1手で後手の反則勝ち", 0, 0 },
	{ SP_ILLEGAL_WHITE, NULL, "反則負け", "まで1手で後手の反則負け", 0, 0 },
	{ SP_IMPASSE, NULL, "持将棋", "まで1手で持将棋", 0, 0 },
	{ SP_DECLARATION, NULL, "入玉勝ち", "まで1手で後手の入玉勝ち", 0, 0 },
	{ SP_MAX_MOVES, NULL, "最大手数", "まで1手で最大手数", 0, 0 },
	{ SP_MATE, NULL, "詰み", "まで1手で詰", 0, 0 },
	{ SP_NO_MATE, NULL, "不詰", "まで1手で不詰", 0, 0 },
	{ SP_SEALED, NULL, "封じ手", "まで1手で封じ手", 0, 0 },
	{ SP_DRAW_DECLARATION, NULL, "持将棋", "まで1手で持将棋", 1, 1 },
	{ SP_ERROR, NULL, "中断", "まで1手で中断", 1, 1 },
	{ SP_MATTA, NULL, "中断", "まで1手で中断", 1, 1 },
	{ SP_UNKNOWN, "トライ", "トライ", "まで1手で中断", 1, 1 },
	/* Found by fuzzing: words with blanks would not read back as one. */
	{ SP_UNKNOWN, "%TORYOE:2014/10/13 18:53:37", "中断", "まで1手で中断",
	    1, 1 },
	{ SP_UNKNOWN, "勝ち　負け", "中断", "まで1手で中断", 1, 1 },
};

#define N_TERMINAL_CASES (sizeof(terminal_cases) / sizeof(terminal_cases[0]))

static void
test_terminal_case(void **state)
{
	const struct terminal_case *tc = *state;
	struct record r;
	char kif[512], ki2[512];
	int32_t t;

	load_usi(&r, "position startpos moves 7g7f");
	t = add_terminal(&r, nth(&r, 1), tc->sp);
	if (tc->raw)
		r.nodes[t].raw = record_intern(&r, tc->raw, strlen(tc->raw));
	snprintf(kif, sizeof(kif), KIF_HEAD HIRATE SEPARATOR
	    "   1 ７六歩(77)\n   2 %s\n%s\n", tc->word, tc->summary);
	snprintf(ki2, sizeof(ki2), KI2_HEAD HIRATE "\n▲７六歩\n%s\n",
	    tc->summary);
	assert_written(kif_write, &r, &utf8, kif, (size_t)tc->kif_warns);
	assert_written(ki2_write, &r, &utf8, ki2, (size_t)tc->ki2_warns);
	record_release(&r);
}

/* The まで words from Black's seat, and a problem's "まで N手詰". */
static void
test_summary(void **state)
{
	struct record r;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	strbuf_init(&sb);
	record_init(&r, variant_standard());
	kakinoki_write_summary(&r, SP_RESIGN, 3, &sb);
	kakinoki_write_summary(&r, SP_ILLEGAL_BLACK, 3, &sb);
	kakinoki_write_summary(&r, SP_ILLEGAL_WHITE, 3, &sb);
	kakinoki_write_summary(&r, SP_DECLARATION, 3, &sb);
	kakinoki_write_summary(&r, SP_TIME_UP, 1, &sb);
	assert_text(sb.buf,
	    "まで2手で後手の勝ち\n"
	    "まで2手で先手の反則負け\n"
	    "まで2手で先手の反則勝ち\n"
	    "まで2手で先手の入玉勝ち\n"
	    "まで0手で時間切れにより後手の勝ち\n");
	strbuf_reset(&sb);
	load_sfen(&r.start, "8k/9/9/9/9/9/9/9/8K b R 1");
	kakinoki_write_summary(&r, SP_MATE, 8, &sb);
	assert_text(sb.buf, "まで7手詰\n");
	strbuf_release(&sb);
	record_release(&r);
}

/*
 * A line stops at its first unresolved move, with a warning; a
 * variation that cannot start is left out and its siblings are not.
 */
static void
test_kif_stop(void **state)
{
	struct record r;
	int32_t a;

	(void)state;
	load_usi_variant(&r, variant_standard(),
	    "position startpos moves 7g7f 3c3d 7f7d 8c8d", 1);
	assert_written(kif_write, &r, &utf8,
	    KIF_HEAD HIRATE SEPARATOR
	    "   1 ７六歩(77)\n"
	    "   2 ３四歩(33)\n", 1);
	assert_written(ki2_write, &r, &utf8,
	    KI2_HEAD HIRATE "\n▲７六歩    △３四歩\n", 1);
	record_release(&r);

	load_usi(&r, "position startpos moves 7g7f 3c3d");
	add_usi(&r, nth(&r, 1), "8b8a");	/* no piece goes there */
	a = add_usi(&r, nth(&r, 1), "8c8d");
	add_usi(&r, a, "2g2f");
	replay(&r, 1);
	assert_written(kif_write, &r, &utf8,
	    KIF_HEAD HIRATE SEPARATOR
	    "   1 ７六歩(77)\n"
	    "   2 ３四歩(33)   +\n"
	    "\n"
	    "変化：2手\n"
	    "   2 ８四歩(83)\n"
	    "   3 ２六歩(27)\n", 1);
	record_release(&r);
}

/*
 * An illegal move the record's own terminal reports (反則勝ち after it):
 * its slot says 反則負け, the move goes into a comment.
 */
static void
test_foul(void **state)
{
	struct record r;
	int32_t a, t;

	(void)state;
	load_usi(&r, "position startpos moves 7g7f 3c3d");
	add_terminal(&r, add_usi(&r, nth(&r, 2), "7f7d"), SP_ILLEGAL_WIN);
	replay(&r, 0);
	assert_written(kif_write, &r, &utf8,
	    KIF_HEAD HIRATE SEPARATOR
	    "   1 ７六歩(77)\n"
	    "   2 ３四歩(33)\n"
	    "   3 反則負け\n"
	    "*illegal move: 7f7d\n"
	    "まで2手で先手の反則負け\n", 1);
	assert_written(ki2_write, &r, &utf8,
	    KI2_HEAD HIRATE "\n"
	    "▲７六歩    △３四歩\n"
	    "まで2手で先手の反則負け\n"
	    "*illegal move: 7f7d\n", 1);
	record_release(&r);

	/* The notes of the foul and of the terminal are kept, in order. */
	load_usi(&r, "position startpos moves 7g7f 3c3d");
	a = add_usi(&r, nth(&r, 2), "7f7d");
	t = add_terminal(&r, a, SP_ILLEGAL_WIN);
	record_add_comment(&r, a, "engine: 7f7d", strlen("engine: 7f7d"));
	r.nodes[a].bookmark = record_intern(&r, "bm", 2);
	record_add_comment(&r, t, "the end", strlen("the end"));
	replay(&r, 0);
	assert_written(kif_write, &r, &utf8,
	    KIF_HEAD HIRATE SEPARATOR
	    "   1 ７六歩(77)\n"
	    "   2 ３四歩(33)\n"
	    "   3 反則負け\n"
	    "*illegal move: 7f7d\n"
	    "*engine: 7f7d\n"
	    "&bm\n"
	    "*the end\n"
	    "まで2手で先手の反則負け\n", 1);
	assert_written(ki2_write, &r, &utf8,
	    KI2_HEAD HIRATE "\n"
	    "▲７六歩    △３四歩\n"
	    "まで2手で先手の反則負け\n"
	    "*illegal move: 7f7d\n"
	    "*engine: 7f7d\n"
	    "&bm\n"
	    "*the end\n", 1);
	record_release(&r);
}

/* ---- KI2 ---- */

static void
test_ki2_moves(void **state)
{
	struct record r;

	(void)state;
	load_usi(&r, "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e "
	    "resign");
	assert_written(ki2_write, &r, &utf8,
	    KI2_HEAD HIRATE "\n"
	    "▲７六歩    △３四歩    ▲２二角成  △同　銀    ▲４五角\n"
	    "まで5手で先手の勝ち\n", 0);
	record_release(&r);
}

/*
 * Relative words in context, 不成, 成, 打, the two 同 forms, the padding
 * (a 14-column token runs into the next one) and six moves a line.
 * K9i k1a g5b p5c; Black golds on 6f 5f 6e, silvers on 4d 6d, a gold
 * in hand.
 */
#define P_WORDS "8k/4g4/4p4/3S1S3/3G5/3GG4/9/9/K8 b G 1"

static void
test_ki2_words(void **state)
{
	struct record r;

	(void)state;
	load_usi(&r, "position sfen " P_WORDS " moves 5f5e 1a1b 4d5c 5b5c "
	    "6d5c+ 1b2b G*5d resign");
	assert_written(ki2_write, &r, &utf8,
	    KI2_HEAD
	    "後手の持駒：なし\n"
	    "  ９ ８ ７ ６ ５ ４ ３ ２ １\n"
	    "+---------------------------+\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・v玉|一\n"
	    "| ・ ・ ・ ・v金 ・ ・ ・ ・|二\n"
	    "| ・ ・ ・ ・v歩 ・ ・ ・ ・|三\n"
	    "| ・ ・ ・ 銀 ・ 銀 ・ ・ ・|四\n"
	    "| ・ ・ ・ 金 ・ ・ ・ ・ ・|五\n"
	    "| ・ ・ ・ 金 金 ・ ・ ・ ・|六\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n"
	    "| 玉 ・ ・ ・ ・ ・ ・ ・ ・|九\n"
	    "+---------------------------+\n"
	    "先手の持駒：金　\n"
	    "\n"
	    "▲５五金直  △１二玉    ▲５三銀右不成△同　金    ▲同銀成    "
	    "△２二玉\n"
	    "▲５四金打\n"
	    "まで7手で先手の勝ち\n", 0);
	/* KIF says none of it: origins, 成 only, 打 always. */
	assert_written(kif_write, &r, &utf8,
	    KIF_HEAD
	    "後手の持駒：なし\n"
	    "  ９ ８ ７ ６ ５ ４ ３ ２ １\n"
	    "+---------------------------+\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・v玉|一\n"
	    "| ・ ・ ・ ・v金 ・ ・ ・ ・|二\n"
	    "| ・ ・ ・ ・v歩 ・ ・ ・ ・|三\n"
	    "| ・ ・ ・ 銀 ・ 銀 ・ ・ ・|四\n"
	    "| ・ ・ ・ 金 ・ ・ ・ ・ ・|五\n"
	    "| ・ ・ ・ 金 金 ・ ・ ・ ・|六\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n"
	    "| 玉 ・ ・ ・ ・ ・ ・ ・ ・|九\n"
	    "+---------------------------+\n"
	    "先手の持駒：金　\n"
	    SEPARATOR
	    "   1 ５五金(56)\n"
	    "   2 １二玉(11)\n"
	    "   3 ５三銀(44)\n"
	    "   4 同　金(52)\n"
	    "   5 同　銀成(64)\n"
	    "   6 ２二玉(12)\n"
	    "   7 ５四金打\n"
	    "   8 投了\n"
	    "まで7手で先手の勝ち\n", 0);
	record_release(&r);
}

/* A note ends the text line after its move; times are dropped, once. */
static void
test_ki2_breaks(void **state)
{
	struct record r;
	int k;

	(void)state;
	load_usi(&r, "position startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e 8d8e "
	    "6i7h 4a3b 2e2d 2c2d 2h2d P*2c 2d2f");
	for (k = 1; k <= 13; k++)
		r.nodes[nth(&r, k)].time_ms = 1000;
	record_add_comment(&r, nth(&r, 2), "角道", strlen("角道"));
	assert_written(ki2_write, &r, &utf8,
	    KI2_HEAD HIRATE "\n"
	    "▲７六歩    △３四歩\n"
	    "*角道\n"
	    "▲２六歩    △８四歩    ▲２五歩    △８五歩    ▲７八金    "
	    "△３二金\n"
	    "▲２四歩    △同　歩    ▲同　飛    △２三歩    ▲２六飛\n", 1);
	record_release(&r);
}

static void
test_ki2_variations(void **state)
{
	struct record r;

	(void)state;
	build_tree(&r);
	assert_written(ki2_write, &r, &utf8,
	    KI2_HEAD HIRATE "\n"
	    "▲７六歩    △３四歩    ▲２六歩\n"
	    "まで3手で先手の勝ち\n"
	    "\n"
	    "変化：   4手\n"
	    "△８四歩\n"
	    "\n"
	    "変化：   3手\n"
	    "▲７八金    △８四歩    ▲２六歩\n"
	    "まで5手で中断\n"
	    "\n"
	    "変化：   4手\n"
	    "△８八角成  ▲同　銀\n"
	    "\n"
	    "変化：   2手\n"
	    "△８四歩    ▲２六歩\n"
	    "\n"
	    "変化：   1手\n"
	    "▲２六歩    △８四歩    ▲２五歩\n"
	    "まで3手で千日手\n"
	    "\n"
	    "変化：   3手\n"
	    "▲７六歩\n", 0);
	record_release(&r);
}

/* Same moves and terminals, same continuations in the same order. */
static void
assert_same_tree(const struct record *a, int32_t i, const struct record *b,
    int32_t j)
{
	for (i = a->nodes[i].next, j = b->nodes[j].next; i >= 0 || j >= 0;
	    i = a->nodes[i].alt, j = b->nodes[j].alt) {
		if (i < 0 || j < 0)
			fail_msg("the trees branch differently");
		assert_int_equal(a->nodes[i].mv, b->nodes[j].mv);
		assert_int_equal(a->nodes[i].special, b->nodes[j].special);
		assert_same_tree(a, i, b, j);
	}
}

/*
 * What the writer writes, the readers read back: every node of a tree
 * with words in it, through KIF and through KI2.
 */
static void
test_round_trip(void **state)
{
	static const struct {
		writer wr;
		enum read_status (*rd)(struct reader *, struct record *,
		    struct diag_list *);
	} ways[] = { { kif_write, kif_read }, { ki2_write, ki2_read } };
	struct record r, back;
	size_t w;
	int32_t a;

	(void)state;
	load_usi(&r, "position sfen " P_WORDS " moves 5f5e 1a1b 4d5c 5b5c "
	    "6d5c+ 1b2b G*5d resign");
	a = add_usi(&r, nth(&r, 0), "6f5e");
	add_usi(&r, a, "1a2a");
	add_usi(&r, nth(&r, 2), "6d5c");
	add_usi(&r, nth(&r, 2), "4d5c+");
	replay(&r, 0);
	for (w = 0; w < sizeof(ways) / sizeof(ways[0]); w++) {
		struct strbuf sb = STRBUF_INIT;
		struct diag_list d;
		struct text t;
		struct reader rd;

		strbuf_init(&sb);
		diag_list_init(&d);
		text_init(&t);
		assert_int_equal(ways[w].wr(&r, &utf8, &sb, &d), 0);
		assert_int_equal(text_from_utf8(&t, sb.buf, sb.len, &d), 0);
		reader_init(&rd, &t, variant_standard());
		record_init(&back, variant_standard());
		if (ways[w].rd(&rd, &back, &d) != READ_OK) {
			dump_diags(&d);
			fail_msg("%s", sb.buf);
		}
		replay(&back, 0);
		assert_int_equal(back.nnodes, r.nnodes);
		assert_same_tree(&r, 0, &back, 0);
		record_release(&back);
		text_release(&t);
		diag_list_release(&d);
		strbuf_release(&sb);
	}
	record_release(&r);
}

/* Reads src with rd into r (initialised here) and replays it. */
static void
read_text(read_fn rd, const char *src, struct record *r)
{
	struct session s;

	session_start(&s, rd, src, strlen(src), variant_standard());
	if (session_next(&s) != READ_OK) {
		dump_diags(&s.d);
		fail_msg("test text does not read");
	}
	replay(&s.r, 0);
	*r = s.r;
	record_init(&s.r, variant_standard());
	session_close(&s);
}

/*
 * Lines after the game that the readers keep are written as '#' lines
 * with the headers, which read back as such: a second pass is the same.
 */
static void
test_after_the_game(void **state)
{
	static const char kif[] = "手合割：平手\n" SEPARATOR
	    "   1 ７六歩(77)\n   2 投了\n後手時間切れ\nまで1手で先手の勝ち\n"
	    "------------------------------\n"
	    "    generated by 激指定跡道場4\n\n";
	static const char want_kif[] = KIF_HEAD HIRATE
	    "#後手時間切れ\n#------------------------------\n"
	    "#generated by 激指定跡道場4\n" SEPARATOR
	    "   1 ７六歩(77)\n   2 投了\nまで1手で先手の勝ち\n";
	static const char want_ki2[] = KI2_HEAD HIRATE
	    "#後手時間切れ\n#------------------------------\n"
	    "#generated by 激指定跡道場4\n\n▲７六歩\nまで1手で先手の勝ち\n";
	struct record r, back;

	(void)state;
	read_text(kif_read, kif, &r);
	assert_written(kif_write, &r, &utf8, want_kif, 0);
	assert_written(ki2_write, &r, &utf8, want_ki2, 0);
	read_text(kif_read, want_kif, &back);
	assert_written(kif_write, &back, &utf8, want_kif, 0);
	record_release(&back);
	read_text(ki2_read, want_ki2, &back);
	assert_written(ki2_write, &back, &utf8, want_ki2, 0);
	record_release(&back);
	record_release(&r);
}

/* ---- real files ---- */


struct file_case {
	const char *path;
	int ki2;
	const char *added;	/* what kifu writes that the file lacks */
};

#define KIF_DIR "testdata/kif/json-kifu-format/test/files/kif/"
#define KI2_DIR "testdata/ki2/json-kifu-format/test/files/ki2/"

static const struct file_case file_cases[] = {
	/* Kifu for Windows V7: the very bytes come back. */
	{ KIF_DIR "fork.kif", 0, "" },
	{ KIF_DIR "9fu.kif", 0, "" },
	{ KIF_DIR "8mai.kif", 0, "" },
	{ KIF_DIR "chudan.kif", 0, "" },
	/* V6 and Kifu for Windows Pro wrote no "#KIF" line. */
	{ KIF_DIR "henka.kif", 0, "#KIF version=2.0 encoding=Shift_JIS\n" },
	{ KIF_DIR "meijinsen_20180508_M7_10034.kif", 0,
	    "#KIF version=2.0 encoding=Shift_JIS\n" },
	{ KIF_DIR "jt201409130101.kif", 0,
	    "#KIF version=2.0 encoding=Shift_JIS\n" },
	/* Its KI2 files have none either. */
	{ KI2_DIR "8mai.ki2", 1, "#KI2 version=2.0 encoding=Shift_JIS\n" },
	{ KI2_DIR "7mai.ki2u", 1, "#KI2 version=2.0 encoding=UTF-8\n" },
	{ KI2_DIR "fuujite.ki2u", 1, "#KI2 version=2.0 encoding=UTF-8\n" },
};

#define N_FILE_CASES (sizeof(file_cases) / sizeof(file_cases[0]))

static void
test_file_case(void **state)
{
	const struct file_case *fc = *state;
	struct strbuf want = STRBUF_INIT, got = STRBUF_INIT;
	struct write_opts o = { 0, NULL, NULL };
	struct diag_list d;
	struct text t;
	struct reader rd;
	struct record r;
	struct replay rp;
	size_t n, i;
	char *data = slurp(fc->path, &n);

	if (!data)
		skip();
	strbuf_init(&want);
	strbuf_init(&got);
	diag_list_init(&d);
	text_init(&t);
	assert_int_equal(text_decode(&t, data, n, &d), 0);
	reader_init(&rd, &t, variant_standard());
	record_init(&r, variant_standard());
	if ((fc->ki2 ? ki2_read : kif_read)(&rd, &r, &d) != READ_OK) {
		dump_diags(&d);
		fail_msg("%s does not read", fc->path);
	}
	if (replay_record(&r, &rp, &d)) {
		dump_diags(&d);
		fail_msg("%s does not replay", fc->path);
	}
	strbuf_adds(&want, fc->added);
	for (i = 0; i < t.nlines; i++) {
		strbuf_add(&want, text_line_ptr(&t, i), t.lines[i].len);
		strbuf_addc(&want, '\n');
	}
	o.encoding = t.encoding;
	diag_list_clear(&d);
	assert_int_equal((fc->ki2 ? ki2_write : kif_write)(&r, &o, &got, &d),
	    0);
	assert_text(got.buf, want.buf);
	/* Lossless: nothing to warn about but KI2's times, if any. */
	for (i = 0; i < d.n; i++)
		if (!fc->ki2 || !strstr(d.v[i].message, "times")) {
			dump_diags(&d);
			fail_msg("unexpected warning");
		}
	record_release(&r);
	text_release(&t);
	diag_list_release(&d);
	strbuf_release(&want);
	strbuf_release(&got);
	free(data);
}

#define N_TESTS (N_TERMINAL_CASES + N_FILE_CASES + 20)

int
main(int argc, char **argv)
{
	static struct CMUnitTest tests[N_TESTS];
	static char names[N_TESTS][160];
	size_t i, n = 0;

	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_kif_moves);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_kif_times);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_kif_rules_header);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_kif_flipped);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_kif_headers);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_kif_comments);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_kif_variations);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_kif_board);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_handicap);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_minishogi);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_summary);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_kif_stop);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_foul);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_ki2_moves);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_ki2_words);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_ki2_breaks);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_ki2_variations);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_round_trip);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_after_the_game);
	for (i = 0; i < N_TERMINAL_CASES; i++, n++) {
		snprintf(names[n], sizeof(names[n]), "terminal %s",
		    special_name(terminal_cases[i].sp));
		tests[n].name = names[n];
		tests[n].test_func = test_terminal_case;
		tests[n].initial_state = (void *)&terminal_cases[i];
	}
	for (i = 0; i < N_FILE_CASES; i++, n++) {
		snprintf(names[n], sizeof(names[n]), "file %s",
		    strrchr(file_cases[i].path, '/') + 1);
		tests[n].name = names[n];
		tests[n].test_func = test_file_case;
		tests[n].initial_state = (void *)&file_cases[i];
	}
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return _cmocka_run_group_tests("writers/kakinoki", tests, n, NULL,
	    NULL);
}
