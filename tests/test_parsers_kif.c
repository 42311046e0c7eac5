/*
 * The KIF record format: parsers/kif.c (kif_detect, kif_read) and what it
 * shares with KI2 in parsers/kakinoki_read.c (headers, '#' lines, the BOD
 * start position, comments, bookmarks, 変化 and まで lines).
 *
 * Errors are checked by id, line and column only; columns count
 * characters, so "   1 ７二二金" has its second 二 at column 8. Moves are
 * checked as parsed specs, and where it matters resolved by replay.
 */
#include <stdio.h>
#include <stdlib.h>

#include "reading.h"
#include "helpers.h"
#include "core/core.h"
#include "core/handicap.h"
#include "core/record.h"
#include "core/replay.h"
#include "core/text.h"
#include "parsers/format.h"

#define START "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL"
#define START_SFEN START " b - 1"

/* The square file f, rank r as KIF writes it ("77" = sq_make(6, 6)). */
#define SQ(f, r) (((f) - 1) * RANK_NB + (r) - 1)

#define SEP "手数----指手---------消費時間--\n"

/* Ranks 2..8 of an empty board, and the frame around a board. */
#define EMPTY_RANK(k) "| ・ ・ ・ ・ ・ ・ ・ ・ ・|" k "\n"
#define FRAME "+---------------------------+\n"
#define COLUMNS "  ９ ８ ７ ６ ５ ４ ３ ２ １\n"
/* A board with the two kings only: 5一 White, 5九 Black. */
#define KINGS_BOARD COLUMNS FRAME \
	"| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n" \
	EMPTY_RANK("二") EMPTY_RANK("三") EMPTY_RANK("四") EMPTY_RANK("五") \
	EMPTY_RANK("六") EMPTY_RANK("七") EMPTY_RANK("八") \
	"| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n" FRAME

static void
session_opens(struct session *s, const char *src)
{
	session_start(s, kif_read, src, strlen(src), variant_standard());
}

/* Asserts a diagnostic id at line:col with the given severity. */

/* Reads the record of src, which must read. */
static void
read_ok(struct session *s, const char *src)
{
	enum read_status rs;

	session_opens(s, src);
	if ((rs = session_next(s)) != READ_OK) {
		dump_diags(&s->d);
		fail_msg("record does not read (status %d)", (int)rs);
	}
}

/* Reads src, which must fail with one error: id at line:col. */
static void
read_fails(const char *src, enum diag_id id, unsigned line, unsigned col)
{
	struct session s;

	session_opens(&s, src);
	if (session_next(&s) != READ_ERROR) {
		dump_diags(&s.d);
		fail_msg("record reads, but should not");
	}
	assert_int_equal(s.d.errors, 1);
	assert_diag(&s.d, DIAG_ERROR, id, line, col);
	assert_int_equal(session_next(&s), READ_EOF);
	session_close(&s);
}

/* The k-th node of the main line (0 = the root); -1 if it is shorter. */
static int32_t
nth(const struct record *r, int k)
{
	int32_t i = 0;

	while (k-- > 0 && i >= 0)
		i = r->nodes[i].next;
	return i;
}

static int
main_len(const struct record *r)
{
	int n = 0;
	int32_t i;

	for (i = r->nodes[0].next; i >= 0; i = r->nodes[i].next)
		n++;
	return n;
}

/* The k-th child of a node (0: its main continuation); -1 if none. */
static int32_t
child(const struct record *r, int32_t node, int k)
{
	int32_t i = r->nodes[node].next;

	while (k-- > 0 && i >= 0)
		i = r->nodes[i].alt;
	return i;
}

static int
children(const struct record *r, int32_t node)
{
	int n = 0;
	int32_t i;

	for (i = r->nodes[node].next; i >= 0; i = r->nodes[i].alt)
		n++;
	return n;
}

static const char *
raw_of(const struct record *r, int32_t node)
{
	return record_str(r, r->nodes[node].raw);
}

static const char *
comment_of(const struct record *r, int32_t node)
{
	return record_str(r, r->nodes[node].comment);
}

static void
assert_header(const struct record *r, size_t i, enum header_id id,
    const char *key, const char *value)
{
	if (i >= r->nheaders)
		fail_msg("no header %zu", i);
	assert_int_equal(r->headers[i].id, id);
	assert_string_equal(record_str(r, r->headers[i].key), key);
	assert_string_equal(record_str(r, r->headers[i].value), value);
}

static void
assert_start(const struct record *r, const char *sfen)
{
	char buf[SFEN_MAX];

	sfen_write(&r->start, buf);
	assert_string_equal(buf, sfen);
}

static void
assert_recorded(const struct record *r, enum winner w, enum reason why,
    int ply)
{
	assert_true(r->has_recorded);
	assert_int_equal(r->recorded.winner, w);
	assert_int_equal(r->recorded.reason, why);
	assert_int_equal(r->recorded.ply, ply);
}

/* Replays the record, which must have no illegal move. */
static void
replay_ok(struct record *r, struct diag_list *d)
{
	struct replay rp;

	if (replay_record(r, &rp, d)) {
		dump_diags(d);
		fail_msg("record does not replay");
	}
}

/* ---- detection ---- */

struct detect_case {
	const char *name;
	const char *text;
	int min, max;
};

static const struct detect_case detect_cases[] = {
	{ "Kifu for Windows", "#KIF version=2.0 encoding=Shift_JIS\n"
	    "手合割：平手　　\n先手：\n後手：\n" SEP
	    "   1 ７六歩(77)   ( 0:02/00:00:02)\n"
	    "   2 投了         ( 0:00/00:00:01)\n", 90, 100 },
	{ "unpadded numbers, no separator", "1 ７六歩(77)\n2 ３四歩(33)\n"
	    "3 ２六歩(27)\n4 ８四歩(83)\n5 ２五歩(26)\n", 90, 100 },
	{ "a board only", "後手の持駒：なし\n" KINGS_BOARD "先手の持駒：なし\n",
	    90, 100 },
	{ "headers only", "先手：a\n後手：b\n", 10, 30 },
	{ "a KI2 record", "先手：a\n\n▲７六歩    △３四歩\nまで2手で中断\n", 0,
	    5 },
	{ "a CSA record", "V2.2\nN+a\nN-b\nPI\n+\n+7776FU\n", 0, 0 },
	{ "a USI line", "position startpos moves 7g7f 3c3d\n", 0, 0 },
	{ "plain text", "hello, world\n", 0, 0 },
	{ "empty", "", 0, 0 },
};

#define N_DETECT_CASES (sizeof(detect_cases) / sizeof(detect_cases[0]))

static void
test_detect_case(void **state)
{
	const struct detect_case *c = *state;
	struct session s;
	int score;

	session_opens(&s, c->text);
	score = kif_detect(&s.t);
	if (score < c->min || score > c->max)
		fail_msg("score %d, expected %d..%d", score, c->min, c->max);
	session_close(&s);
}

/* ---- headers and '#' lines ---- */

static void
test_kif_headers(void **state)
{
	struct session s;

	(void)state;
	read_ok(&s,
	    "開始日時：2014/10/16 03:21:41\n"
	    "手合割：平手　　\n"
	    "先手：羽生 善治\n"
	    "後手:佐藤\n"
	    "昼食休憩：12:00〜13:00\n"
	    "棋戦：\n"
	    "振り駒：なし　 \n"
	    "下手：shitate\n"
	    "備考：昼休前33手目22分\\n封じ手\n"
	    SEP
	    "   1 ７六歩(77)\n");
	assert_no_diags(&s.d);
	assert_int_equal(s.r.nheaders, 9);
	assert_header(&s.r, 0, HDR_START_TIME, "開始日時", "2014/10/16 03:21:41");
	assert_header(&s.r, 1, HDR_HANDICAP, "手合割", "平手");
	assert_header(&s.r, 2, HDR_BLACK, "先手", "羽生 善治");
	assert_header(&s.r, 3, HDR_WHITE, "後手", "佐藤");
	assert_header(&s.r, 4, HDR_OTHER, "昼食休憩", "12:00〜13:00");
	assert_header(&s.r, 5, HDR_EVENT, "棋戦", "");
	assert_header(&s.r, 6, HDR_OTHER, "振り駒", "なし");
	assert_header(&s.r, 7, HDR_BLACK, "下手", "shitate");
	assert_header(&s.r, 8, HDR_NOTE, "備考", "昼休前33手目22分\\n封じ手");
	assert_int_equal(s.r.headers[2].loc.line, 3);
	assert_int_equal(main_len(&s.r), 1);
	session_close(&s);
}

static void
test_kif_headers_after_the_board(void **state)
{
	struct session s;

	(void)state;
	/* 9fu.kif puts the player names after the diagram. */
	read_ok(&s, "後手の持駒：なし\n" KINGS_BOARD "先手の持駒：なし\n"
	    "下手：shitate\n上手：uwate\n" SEP "   1 ５八玉(59)\n");
	assert_no_diags(&s.d);
	assert_header(&s.r, 0, HDR_BLACK, "下手", "shitate");
	assert_header(&s.r, 1, HDR_WHITE, "上手", "uwate");
	session_close(&s);
}

static void
test_kif_hash_lines(void **state)
{
	struct session s;

	(void)state;
	read_ok(&s,
	    "#KIF version=2.0 encoding=Shift_JIS\n"
	    "# ---- Kifu for Windows V7 V7.08 棋譜ファイル ----\n"
	    "手合割：平手\n"
	    "#KIF version two\n"
	    SEP "   1 ７六歩(77)\n# in the moves\n   2 ３四歩(33)\n");
	assert_no_diags(&s.d);
	assert_int_equal(s.r.nheaders, 6);
	assert_header(&s.r, 0, HDR_VERSION, "KIF version", "2.0");
	assert_header(&s.r, 1, HDR_ENCODING, "encoding", "Shift_JIS");
	assert_header(&s.r, 2, HDR_RAW,
	    "# ---- Kifu for Windows V7 V7.08 棋譜ファイル ----", "");
	assert_header(&s.r, 3, HDR_HANDICAP, "手合割", "平手");
	assert_header(&s.r, 4, HDR_RAW, "#KIF version two", "");
	assert_header(&s.r, 5, HDR_RAW, "# in the moves", "");
	assert_int_equal(main_len(&s.r), 2);
	session_close(&s);
	read_ok(&s, "#KI2 version=2.0 encoding=UTF-8\n");
	assert_header(&s.r, 0, HDR_VERSION, "KI2 version", "2.0");
	assert_header(&s.r, 1, HDR_ENCODING, "encoding", "UTF-8");
	session_close(&s);
}

static void
test_kif_bad_headers(void **state)
{
	(void)state;
	/* header01.kif of ruby-json-kifu-format */
	read_fails("：\n" SEP "   1 ７二金(61)\n", DIAG_SYNTAX, 1, 1);
	/* header03.kif: not 盤面回転 */
	read_fails("下手：a\n盤面回転転\n", DIAG_SYNTAX, 2, 1);
	read_fails("先手：a\nhello\n", DIAG_SYNTAX, 2, 1);
}

/* ---- 手合割 ---- */

struct handicap_case {
	const char *name;
	const char *text;
	const char *sfen;
	int handicap;
	int warn_line, warn_col;	/* unknown-handicap warning; 0 none */
};

static const struct handicap_case handicap_cases[] = {
	{ "no 手合割", "先手：a\n", START_SFEN, HANDICAP_EVEN, 0, 0 },
	{ "平手 with full-width blanks", "手合割：平手　　\n", START_SFEN,
	    HANDICAP_EVEN, 0, 0 },
	{ "香落ち", "手合割：香落ち\n",
	    "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
	    HANDICAP_LANCE, 0, 0 },
	{ "右香落ち", "手合割：右香落ち\n",
	    "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
	    HANDICAP_RIGHT_LANCE, 0, 0 },
	{ "二枚落ち", "手合割：二枚落ち\n",
	    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
	    HANDICAP_2, 0, 0 },
	{ "左七枚落ち", "手合割：左七枚落ち\n",
	    "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
	    HANDICAP_7_LEFT, 0, 0 },
	{ "十枚落ち", "手合割：十枚落ち\n",
	    "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
	    HANDICAP_10, 0, 0 },
	{ "その他 without a board", "先手：a\n手合割：その他　\n", START_SFEN,
	    HANDICAP_EVEN, 2, 1 },
	{ "unknown name", "手合割：詰将棋\n", START_SFEN, HANDICAP_EVEN, 1, 5 },
	{ "その他 with a board", "手合割：その他\n後手の持駒：なし\n"
	    KINGS_BOARD "先手の持駒：なし\n",
	    "4k4/9/9/9/9/9/9/9/4K4 b - 1", HANDICAP_NONE, 0, 0 },
	{ "a board wins over 平手", "手合割：平手\n後手の持駒：なし\n"
	    KINGS_BOARD "先手の持駒：なし\n",
	    "4k4/9/9/9/9/9/9/9/4K4 b - 1", HANDICAP_NONE, 0, 0 },
};

#define N_HANDICAP_CASES (sizeof(handicap_cases) / sizeof(handicap_cases[0]))

static void
test_handicap_case(void **state)
{
	const struct handicap_case *c = *state;
	const struct record_header *h;
	struct session s;

	read_ok(&s, c->text);
	if (c->warn_line) {
		assert_int_equal(s.d.n, 1);
		assert_diag(&s.d, DIAG_WARNING, DIAG_UNKNOWN_HANDICAP,
		    (unsigned)c->warn_line, (unsigned)c->warn_col);
	} else {
		assert_no_diags(&s.d);
	}
	assert_start(&s.r, c->sfen);
	assert_int_equal(s.r.handicap, c->handicap);
	/* The header is kept as written, whatever it names. */
	if ((h = record_find_header(&s.r, HDR_HANDICAP)))
		assert_true(strlen(record_str(&s.r, h->value)) > 0);
	session_close(&s);
}

static void
test_kif_handicap_game(void **state)
{
	struct session s;
	struct replay rp;

	(void)state;
	/* White (上手) moves first; まで names 下手/上手. */
	read_ok(&s, "手合割：香落ち\n上手：u\n下手：s\n" SEP
	    "   1 ３四歩(33)\n   2 ７六歩(77)\n   3 投了\n"
	    "まで2手で下手の勝ち\n");
	assert_no_diags(&s.d);
	assert_recorded(&s.r, WINNER_BLACK, REASON_RESIGN, 2);
	assert_int_equal(replay_record(&s.r, &rp, &s.d), 0);
	assert_int_equal(rp.moves, 2);
	assert_int_equal(replay_side_at(&s.r, nth(&s.r, 3)), WHITE);
	session_close(&s);
}

static void
test_kif_minishogi(void **state)
{
	struct session s;

	(void)state;
	/* lishogi names the game in 手合割; its board has five files. */
	read_ok(&s, "手合割：5五将棋\n" SEP "   1 ５三歩(54)\n");
	assert_no_diags(&s.d);
	assert_true(s.r.v == variant_minishogi());
	assert_int_equal(s.r.handicap, HANDICAP_MINISHOGI);
	assert_start(&s.r, "rbsgk/4p/5/P4/KGSBR b - 1");
	replay_ok(&s.r, &s.d);
	session_close(&s);
	read_ok(&s, "手合割：5五将棋\n後手の持駒：なし\n"
	    "  ５ ４ ３ ２ １\n+---------------+\n"
	    "| ・v角v銀v金v玉|一\n| ・ ・ ・ ・v歩|二\n| ・ ・ ・ ・ ・|三\n"
	    "| 歩 ・ ・ ・ ・|四\n| 玉 金 銀 角 飛|五\n+---------------+\n"
	    "先手の持駒：飛\n" SEP "   1 ５三歩(54)\n");
	assert_no_diags(&s.d);
	assert_start(&s.r, "1bsgk/4p/5/P4/KGSBR b R 1");
	replay_ok(&s.r, &s.d);
	session_close(&s);
	/* The other spellings of the name. */
	read_ok(&s, "手合割：五々将棋\n" SEP "   1 ５三歩(54)\n");
	assert_no_diags(&s.d);
	assert_start(&s.r, "rbsgk/4p/5/P4/KGSBR b - 1");
	session_close(&s);
	read_ok(&s, "手合割：５五将棋\n" SEP "   1 ５三歩(54)\n");
	assert_int_equal(s.r.handicap, HANDICAP_MINISHOGI);
	session_close(&s);
}

#define MINI_BOARD \
	"+---------------+\n" \
	"|v飛v角v銀v金v玉|一\n| ・ ・ ・ ・v歩|二\n| ・ ・ ・ ・ ・|三\n" \
	"| 歩 ・ ・ ・ ・|四\n| 玉 金 銀 角 飛|五\n+---------------+\n"

/* A board of five columns says minishogi without 手合割. */
static void
test_kif_minishogi_board(void **state)
{
	struct session s;

	(void)state;
	read_ok(&s, "後手の持駒：なし\n  ５ ４ ３ ２ １\n" MINI_BOARD
	    "先手の持駒：なし\n" SEP "   1 １四飛(15)\n   2 ３二角(41)\n");
	assert_no_diags(&s.d);
	assert_ptr_equal(s.r.v, variant_minishogi());
	assert_int_equal(s.r.handicap, HANDICAP_MINISHOGI);
	replay_ok(&s.r, &s.d);
	session_close(&s);
	/* Without the column header, and the ASCII one lishogi writes. */
	read_ok(&s, MINI_BOARD SEP "   1 １四飛(15)\n");
	assert_start(&s.r, "rbsgk/4p/5/P4/KGSBR b - 1");
	session_close(&s);
	read_ok(&s, "5 4 3 2 1\n" MINI_BOARD "後手番\n" SEP
	    "   1 ３二角(41)\n");
	assert_start(&s.r, "rbsgk/4p/5/P4/KGSBR w - 1");
	replay_ok(&s.r, &s.d);
	session_close(&s);
	/* 上手/下手, as lishogi labels its minishogi handicaps. */
	read_ok(&s, "手合割：5五将棋\n上手の持駒：なし\n"
	    "  ５ ４ ３ ２ １\n+---------------+\n"
	    "| ・ ・v銀v金v玉|一\n| ・ ・ ・ ・v歩|二\n| ・ ・ ・ ・ ・|三\n"
	    "| 歩 ・ ・ ・ ・|四\n| 玉 金 銀 角 飛|五\n+---------------+\n"
	    "下手の持駒：なし\n上手番\n" SEP "   1 ３二金(21)\n");
	assert_start(&s.r, "2sgk/4p/5/P4/KGSBR w - 1");
	assert_true(handicap_minishogi_odds(&s.r.start));
	replay_ok(&s.r, &s.d);
	session_close(&s);
	/* A sixth rank, or nine cells on a board of five, is refused. */
	read_fails("|v飛v角v銀v金v玉|一\n| ・ ・ ・ ・ ・|六\n",
	    DIAG_BAD_POSITION, 2, 1);
	read_fails("|v飛v角v銀v金v玉|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n",
	    DIAG_SYNTAX, 2, 13);
}

/* The caller's variant is for a record that does not say. */
static void
test_kif_variant_default(void **state)
{
	struct session s;

	(void)state;
	session_start(&s, kif_read, SEP "   1 １四飛(15)\n",
	    strlen(SEP "   1 １四飛(15)\n"), variant_minishogi());
	assert_int_equal(session_next(&s), READ_OK);
	assert_start(&s.r, "rbsgk/4p/5/P4/KGSBR b - 1");
	replay_ok(&s.r, &s.d);
	session_close(&s);
	/* 手合割 and a 9x9 board say standard shogi. */
	session_start(&s, kif_read, "手合割：平手\n" SEP "   1 ７六歩(77)\n",
	    strlen("手合割：平手\n" SEP "   1 ７六歩(77)\n"),
	    variant_minishogi());
	assert_int_equal(session_next(&s), READ_OK);
	assert_ptr_equal(s.r.start.v, variant_standard());
	replay_ok(&s.r, &s.d);
	session_close(&s);
}

/* ---- the board (BOD) ---- */

static void
test_kif_board(void **state)
{
	struct session s;

	(void)state;
	/* kifu_for_iphone.kif: ASCII separators and a trailing blank. */
	read_ok(&s,
	    "手合割：平手\n"
	    "後手の持駒：飛二 角 金四 銀 桂四 香四 歩十七 \n"
	    COLUMNS FRAME
	    "| ・ ・ ・v銀v玉v銀 ・ ・ ・|一\n"
	    EMPTY_RANK("二")
	    "| ・ ・ ・ ・ と ・ ・ ・ ・|三\n"
	    "| ・ ・ ・ ・ ・ ・ 馬 ・ ・|四\n"
	    EMPTY_RANK("五") EMPTY_RANK("六") EMPTY_RANK("七")
	    EMPTY_RANK("八") EMPTY_RANK("九")
	    FRAME
	    "先手の持駒：銀 \n"
	    SEP "   1 ５二馬(34)   ( 0:02/00:00:02)\n");
	assert_no_diags(&s.d);
	assert_start(&s.r, "3sks3/9/4+P4/6+B2/9/9/9/9/9 b S2rb4gs4n4l17p 1");
	assert_int_equal(s.r.handicap, HANDICAP_NONE);
	session_close(&s);
}

static void
test_kif_board_cells(void **state)
{
	struct session s;

	(void)state;
	/* 杏/圭/全, a two-character name, '^'/'+' and 'V' owners. */
	read_ok(&s,
	    "後手の持駒：\n"
	    "|v香 圭 ・ ・ ・ ・ ・v全V玉|一\n"
	    "|^杏 ・ ・ ・ ・ ・ ・ ・ ・|二\n"
	    "|+成銀 ・ ・ ・ ・ ・ ・ ・ ・|三\n"
	    EMPTY_RANK("四") EMPTY_RANK("五") EMPTY_RANK("六")
	    EMPTY_RANK("七") EMPTY_RANK("八")
	    "| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n"
	    "先手の持駒：なし\n"
	    "後手番\n");
	assert_no_diags(&s.d);
	assert_start(&s.r, "l+N5+sk/+L8/+S8/9/9/9/9/9/4K4 w - 1");
	session_close(&s);
}

struct hand_case {
	const char *name;
	const char *line;
	int pawns, lances, rooks, golds;
};

static const struct hand_case hand_cases[] = {
	{ "full-width blanks", "先手の持駒：飛　金四　香三　歩十七　", 17, 3, 1, 4 },
	{ "ASCII blanks", "先手の持駒：飛 金四 香三 歩十七 ", 17, 3, 1, 4 },
	{ "no separators", "先手の持駒：飛金四香三歩十七", 17, 3, 1, 4 },
	{ "commas", "先手の持駒：飛、金四、香三、歩十七", 17, 3, 1, 4 },
	{ "Arabic counts", "先手の持駒：飛 金4 香３ 歩17", 17, 3, 1, 4 },
	{ "なし", "先手の持駒：なし", 0, 0, 0, 0 },
	{ "empty", "先手の持駒：", 0, 0, 0, 0 },
	{ "下手", "下手の持駒：歩二", 2, 0, 0, 0 },
	{ "ASCII colon", "先手の持駒:歩", 1, 0, 0, 0 },
};

#define N_HAND_CASES (sizeof(hand_cases) / sizeof(hand_cases[0]))

static void
test_hand_case(void **state)
{
	const struct hand_case *c = *state;
	struct strbuf src = STRBUF_INIT;
	struct session s;

	strbuf_adds(&src, "後手の持駒：なし\n" KINGS_BOARD);
	strbuf_adds(&src, c->line);
	strbuf_adds(&src, "\n");
	read_ok(&s, src.buf);
	assert_no_diags(&s.d);
	assert_int_equal(s.r.start.hand[BLACK][PT_PAWN], c->pawns);
	assert_int_equal(s.r.start.hand[BLACK][PT_LANCE], c->lances);
	assert_int_equal(s.r.start.hand[BLACK][PT_ROOK], c->rooks);
	assert_int_equal(s.r.start.hand[BLACK][PT_GOLD], c->golds);
	assert_int_equal(s.r.start.hand[WHITE][PT_PAWN], 0);
	session_close(&s);
	strbuf_release(&src);
}

static void
test_kif_board_side_and_labels(void **state)
{
	struct session s;

	(void)state;
	read_ok(&s, "上手の持駒：銀四　桂四　\n" KINGS_BOARD
	    "下手の持駒：飛二　香四　\n下手番\n");
	assert_no_diags(&s.d);
	assert_start(&s.r, "4k4/9/9/9/9/9/9/9/4K4 b 2R4L4s4n 1");
	session_close(&s);
	read_ok(&s, "後手の持駒：なし\n" KINGS_BOARD "上手番\n");
	assert_start(&s.r, "4k4/9/9/9/9/9/9/9/4K4 w - 1");
	session_close(&s);
	/* No frame, no column line, no rank names: still a board. */
	read_ok(&s,
	    "| ・ ・ ・ ・v玉 ・ ・ ・ ・|\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|\n| ・ ・ ・ ・ 玉 ・ ・ ・ ・|\n");
	assert_no_diags(&s.d);
	assert_start(&s.r, "4k4/9/9/9/9/9/9/9/4K4 b - 1");
	session_close(&s);
}

static void
test_kif_bod_trailer(void **state)
{
	struct session s;

	(void)state;
	read_ok(&s, "後手の持駒：なし\n" KINGS_BOARD "先手の持駒：なし\n後手番\n"
	    "手数＝12  ▲５八玉(59)  まで\n");
	assert_no_diags(&s.d);
	assert_start(&s.r, "4k4/9/9/9/9/9/9/9/4K4 w - 13");
	assert_int_equal(s.r.headers[s.r.nheaders - 1].id, HDR_RAW);
	session_close(&s);
}

static void
test_kif_impossible_boards(void **state)
{
	struct session s;

	(void)state;
	/* Two kings of one side: the core cannot play it. */
	read_fails(COLUMNS FRAME
	    "| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n" EMPTY_RANK("二")
	    EMPTY_RANK("三") EMPTY_RANK("四") EMPTY_RANK("五")
	    EMPTY_RANK("六") EMPTY_RANK("七") EMPTY_RANK("八")
	    "| ・ ・ ・ 玉 玉 ・ ・ ・ ・|九\n" FRAME,
	    DIAG_BAD_POSITION, 3, 1);
	/* Nifu (the 9fu puzzles) is kept with a warning. */
	read_ok(&s,
	    "| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n"
	    "| ・ ・ ・ ・ ・ ・ ・v歩 ・|二\n"
	    "| ・ ・ ・ ・ ・ ・ ・v歩 ・|三\n" EMPTY_RANK("四")
	    EMPTY_RANK("五") EMPTY_RANK("六") EMPTY_RANK("七")
	    EMPTY_RANK("八") "| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_BAD_POSITION, 1, 1);
	session_close(&s);
	/* A missing rank. */
	read_fails("先手：a\n" COLUMNS FRAME "| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n"
	    EMPTY_RANK("二") EMPTY_RANK("三") EMPTY_RANK("四")
	    EMPTY_RANK("五") EMPTY_RANK("六") EMPTY_RANK("七")
	    "| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n" FRAME,
	    DIAG_BAD_POSITION, 4, 1);
	/* A rank twice. */
	read_fails("| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|一\n", DIAG_BAD_POSITION, 2, 1);
	/* A cell kifu cannot read: X at column 7. */
	read_fails("|v香v桂 X ・ ・ ・ ・ ・ ・|一\n", DIAG_SYNTAX, 1, 7);
	/* Eight cells, then the frame. */
	read_fails("| ・ ・ ・ ・ ・ ・ ・ ・|一\n", DIAG_SYNTAX, 1, 18);
	/* Kings and promoted pieces are never in hand. */
	read_fails("先手の持駒：玉\n", DIAG_BAD_POSITION, 1, 7);
	read_fails("先手の持駒：歩二 と\n", DIAG_BAD_POSITION, 1, 10);
	read_fails("先手の持駒：歩 x\n", DIAG_SYNTAX, 1, 9);
	/* Pieces in hand need a board. */
	read_fails("手合割：平手\n先手の持駒：歩\n" SEP "   1 ７六歩(77)\n",
	    DIAG_BAD_POSITION, 2, 1);
	/* A board after the moves. */
	read_fails(SEP "   1 ７六歩(77)\n| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n",
	    DIAG_SYNTAX, 3, 1);
	read_fails(SEP "   1 ７六歩(77)\n先手の持駒：歩\n", DIAG_SYNTAX, 3, 1);
	read_fails(SEP "   1 ７六歩(77)\n後手番\n", DIAG_SYNTAX, 3, 1);
}

/* ---- move lines ---- */

struct move_case {
	const char *name;
	const char *line;
	unsigned flags;
	int from, to;		/* SQ_NONE when not written */
	enum piece_type piece;
	int color;
};

#define NO SQ_NONE

static const struct move_case move_cases[] = {
	{ "padded", "   1 ７六歩(77)", 0, SQ(7, 7), SQ(7, 6), PT_PAWN, -1 },
	{ "unpadded", "1 ７六歩(77)", 0, SQ(7, 7), SQ(7, 6), PT_PAWN, -1 },
	{ "81Dojo spacing", "1   ７八飛(28)", 0, SQ(2, 8), SQ(7, 8), PT_ROOK,
	    -1 },
	{ "a mark", "   1 ▲７六歩(77)", 0, SQ(7, 7), SQ(7, 6), PT_PAWN,
	    BLACK },
	{ "a white mark", "   1 △３四歩(33)", 0, SQ(3, 3), SQ(3, 4), PT_PAWN,
	    WHITE },
	{ "ASCII digits", "   1 76歩(77)", 0, SQ(7, 7), SQ(7, 6), PT_PAWN, -1 },
	{ "kanji digits", "   1 七六歩(77)", 0, SQ(7, 7), SQ(7, 6), PT_PAWN,
	    -1 },
	{ "no origin", "   1 ７六歩", 0, NO, SQ(7, 6), PT_PAWN, -1 },
	{ "同 and U+3000", "   1 同　歩(23)", SPEC_SAME, SQ(2, 3), NO, PT_PAWN,
	    -1 },
	{ "同 alone", "   1 同歩(23)", SPEC_SAME, SQ(2, 3), NO, PT_PAWN, -1 },
	{ "同 and a blank", "   1 同 歩(23)", SPEC_SAME, SQ(2, 3), NO, PT_PAWN,
	    -1 },
	{ "成", "   1 ２二角成(88)", SPEC_PROMOTE, SQ(8, 8), SQ(2, 2),
	    PT_BISHOP, -1 },
	{ "不成 (shogidb2)", "   1 ７七銀不成(68)", SPEC_NO_PROMOTE, SQ(6, 8),
	    SQ(7, 7), PT_SILVER, -1 },
	{ "打", "   1 ５五角打", SPEC_DROP, NO, SQ(5, 5), PT_BISHOP, -1 },
	{ "打(00) (電竜戦)", "   1 ５五角打(00)", SPEC_DROP, NO, SQ(5, 5),
	    PT_BISHOP, -1 },
	{ "(00) alone", "   1 ５五角(00)", SPEC_DROP, NO, SQ(5, 5), PT_BISHOP,
	    -1 },
	{ "成香", "   1 ８一成香(71)", 0, SQ(7, 1), SQ(8, 1), PT_PRO_LANCE,
	    -1 },
	{ "杏", "   1 ８一杏(71)", 0, SQ(7, 1), SQ(8, 1), PT_PRO_LANCE, -1 },
	{ "全", "   1 ８一全(71)", 0, SQ(7, 1), SQ(8, 1), PT_PRO_SILVER, -1 },
	{ "王", "   1 ６二王(51)", 0, SQ(5, 1), SQ(6, 2), PT_KING, -1 },
	{ "竜", "   1 ５二竜(51)", 0, SQ(5, 1), SQ(5, 2), PT_DRAGON, -1 },
	{ "と", "   1 ５二と(53)", 0, SQ(5, 3), SQ(5, 2), PT_PRO_PAWN, -1 },
	{ "branch mark", "   1 ７六歩(77)   +", 0, SQ(7, 7), SQ(7, 6), PT_PAWN,
	    -1 },
	{ "time and branch mark", "   1 ７六歩(77)   ( 0:16/00:00:16)+", 0,
	    SQ(7, 7), SQ(7, 6), PT_PAWN, -1 },
	{ "full-width digits in the origin", "   1 ７六歩(７７)", 0, SQ(7, 7),
	    SQ(7, 6), PT_PAWN, -1 },
};

#define N_MOVE_CASES (sizeof(move_cases) / sizeof(move_cases[0]))

static void
test_move_case(void **state)
{
	const struct move_case *c = *state;
	struct strbuf src = STRBUF_INIT;
	const struct record_node *nd;
	struct session s;

	strbuf_adds(&src, "手合割：平手\n" SEP);
	strbuf_adds(&src, c->line);
	strbuf_adds(&src, "\n");
	read_ok(&s, src.buf);
	assert_no_diags(&s.d);
	assert_int_equal(main_len(&s.r), 1);
	nd = &s.r.nodes[nth(&s.r, 1)];
	assert_int_equal(nd->special, SP_NONE);
	assert_int_equal(nd->spec.flags, c->flags);
	assert_int_equal(nd->spec.from, c->from);
	assert_int_equal(nd->spec.to, c->to);
	assert_int_equal(nd->spec.piece, c->piece);
	assert_int_equal(nd->spec.color, c->color);
	assert_int_equal(nd->spec.rel, 0);
	assert_int_equal(nd->ply, 1);
	assert_int_equal(nd->loc.line, 3);
	session_close(&s);
	strbuf_release(&src);
}

static void
test_kif_move_text_and_place(void **state)
{
	struct session s;
	const struct record_node *nd;

	(void)state;
	read_ok(&s, SEP "   1 ７六歩(77)   ( 0:16/00:00:16)\n"
	    "   2 同　歩(23)\n");
	nd = &s.r.nodes[nth(&s.r, 1)];
	assert_string_equal(raw_of(&s.r, nth(&s.r, 1)), "７六歩(77)");
	assert_string_equal(raw_of(&s.r, nth(&s.r, 2)), "同　歩(23)");
	assert_int_equal(nd->loc.line, 2);
	assert_int_equal(nd->loc.col, 6);
	session_close(&s);
}

struct time_case {
	const char *name;
	const char *field;
	int64_t time_ms, total_ms;
};

static const struct time_case time_cases[] = {
	{ "Kifu for Windows", "( 0:16/00:00:16)", 16000, 16000 },
	{ "Shogidokoro", "(00:31 / 00:00:31)", 31000, 31000 },
	{ "81Dojo", "(0:4/0:0:4)", 4000, 4000 },
	{ "shogidb2", "(00:00/00:00:00)", 0, 0 },
	{ "JSA minutes", "( 3:00/00:03:00)", 180000, 180000 },
	{ "more than 59 minutes", "(75:00/01:15:00)", 4500000, 4500000 },
	{ "space-padded hour", "( 0:16/ 0:00:16)", 16000, 16000 },
	{ "hours in the move time", "( 1:02:03/01:02:03)", 3723000, 3723000 },
	{ "no running total (81Dojo)", "( 0:7/)", 7000, -1 },
	{ "no '/' at all", "( 0:7)", 7000, -1 },
	{ "none", "", -1, -1 },
};

#define N_TIME_CASES (sizeof(time_cases) / sizeof(time_cases[0]))

static void
test_time_case(void **state)
{
	const struct time_case *c = *state;
	struct strbuf src = STRBUF_INIT;
	const struct record_node *nd;
	struct session s;

	strbuf_addf(&src, SEP "   1 ７六歩(77)   %s\n   2 投了   %s\n", c->field,
	    c->field);
	read_ok(&s, src.buf);
	assert_no_diags(&s.d);
	nd = &s.r.nodes[nth(&s.r, 1)];
	assert_true(nd->time_ms == c->time_ms);
	assert_true(nd->total_ms == c->total_ms);
	/* Terminal lines carry times too. */
	nd = &s.r.nodes[nth(&s.r, 2)];
	assert_int_equal(nd->special, SP_RESIGN);
	assert_true(nd->time_ms == c->time_ms);
	session_close(&s);
	strbuf_release(&src);
}

static void
test_kif_running_totals(void **state)
{
	struct session s;
	const struct record_node *nd;

	(void)state;
	/* Move 5 says 10 s where 7 + 2 make 9 (a ShogiHome record). */
	read_ok(&s, SEP
	    "   1 ２六歩(27)   ( 0:03/00:00:03)\n"
	    "   2 ８四歩(83)   ( 0:02/00:00:02)\n"
	    "   3 ２五歩(26)   ( 0:04/00:00:07)\n"
	    "   4 ８五歩(84)   ( 0:01/00:00:03)\n"
	    "   5 ７八金(69)   ( 0:02/00:00:10)\n"
	    "   6 ３四歩(33)   ( 0:01/00:00:04)\n"
	    "   7 投了         ( 0:00/00:00:10)\n");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_TIME, 6, 16);
	nd = &s.r.nodes[nth(&s.r, 5)];
	assert_true(nd->total_ms == 10000);
	session_close(&s);
	/* Variations add up along their own path. */
	read_ok(&s, SEP
	    "   1 ７六歩(77)   ( 0:02/00:00:02)\n"
	    "   2 ８四歩(83)   ( 0:01/00:00:01)+\n"
	    "   3 ２六歩(27)   ( 0:01/00:00:03)\n"
	    "\n変化：2手\n"
	    "   2 ３四歩(33)   ( 0:05/00:00:05)\n"
	    "   3 ６八飛(28)   ( 0:02/00:00:04)\n"
	    "   4 ４四歩(43)   ( 0:03/00:00:08)\n");
	assert_no_diags(&s.d);
	session_close(&s);
}

static void
test_kif_many_wrong_totals(void **state)
{
	struct strbuf src = STRBUF_INIT;
	struct session s;
	int i;

	(void)state;
	/* Every total is wrong: eight warnings, then one that says so. */
	strbuf_adds(&src, SEP);
	for (i = 1; i <= 100; i++)
		strbuf_addf(&src, "%d %s ( 0:01/00:00:00)\n", i,
		    i % 2 ? "２八飛(29)" : "８二飛(81)");
	read_ok(&s, src.buf);
	assert_int_equal(s.d.n, 9);
	assert_int_equal(s.d.warnings, 9);
	assert_diag(&s.d, DIAG_WARNING, DIAG_TIME, 2, 11);
	assert_diag(&s.d, DIAG_WARNING, DIAG_TIME, 9, 11);
	assert_diag(&s.d, DIAG_WARNING, DIAG_TIME, 10, 11);
	session_close(&s);
	strbuf_release(&src);
}

static void
test_kif_bad_times(void **state)
{
	(void)state;
	read_fails(SEP "   1 ７六歩(77)   ( 0:1x/00:00:01)\n", DIAG_SYNTAX, 2,
	    21);
	read_fails(SEP "   1 ７六歩(77)   ( 0:16/00:00:16\n", DIAG_SYNTAX, 2,
	    31);
	read_fails(SEP "   1 ７六歩(77)   (16/00:00:16)\n", DIAG_SYNTAX, 2, 16);
	read_fails(SEP "   1 ７六歩(77)   ( 0:16/00:0x:16)\n", DIAG_SYNTAX, 2,
	    27);
}

/* ---- terminals ---- */

struct terminal_case {
	const char *word;
	enum special sp;
};

static const struct terminal_case terminal_cases[] = {
	{ "投了", SP_RESIGN }, { "中断", SP_ABORT }, { "千日手", SP_SENNICHITE },
	{ "持将棋", SP_IMPASSE }, { "切れ負け", SP_TIME_UP },
	{ "時間切れ", SP_TIME_UP }, { "反則勝ち", SP_ILLEGAL_WIN },
	{ "反則負け", SP_ILLEGAL_MOVE }, { "入玉勝ち", SP_DECLARATION },
	{ "最大手数", SP_MAX_MOVES }, { "詰み", SP_MATE }, { "詰", SP_MATE },
	{ "不詰", SP_NO_MATE }, { "封じ手", SP_SEALED },
};

#define N_TERMINAL_CASES (sizeof(terminal_cases) / sizeof(terminal_cases[0]))

static void
test_terminal_case(void **state)
{
	const struct terminal_case *c = *state;
	struct strbuf src = STRBUF_INIT;
	struct session s;
	int32_t end;

	strbuf_addf(&src, SEP "   1 ７六歩(77)   ( 0:01/00:00:01)\n"
	    "   2 %s     ( 0:02/00:00:02)\n", c->word);
	read_ok(&s, src.buf);
	assert_no_diags(&s.d);
	end = nth(&s.r, 2);
	assert_int_equal(s.r.nodes[end].special, c->sp);
	assert_string_equal(raw_of(&s.r, end), c->word);
	assert_int_equal(s.r.nodes[end].ply, 2);
	assert_true(s.r.nodes[end].time_ms == 2000);
	session_close(&s);
	strbuf_release(&src);
}

static void
test_kif_unknown_terminal(void **state)
{
	struct session s;
	int32_t end;

	(void)state;
	/* A word kifu does not know is kept raw, with a warning. */
	read_ok(&s, SEP "   1 ７六歩(77)   ( 0:7/)\n   2  Walkover   ( 0:0/)\n");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_SYNTAX, 3, 7);
	end = nth(&s.r, 2);
	assert_int_equal(s.r.nodes[end].special, SP_UNKNOWN);
	assert_string_equal(raw_of(&s.r, end), "Walkover");
	session_close(&s);
	/* 81Dojo (2017) writes time-up in English: a known word. */
	read_ok(&s, SEP "   1 ７六歩(77)   ( 0:7/)\n   2  Time-up   ( 0:0/)\n");
	assert_int_equal(s.d.n, 0);
	end = nth(&s.r, 2);
	assert_int_equal(s.r.nodes[end].special, SP_TIME_UP);
	assert_string_equal(raw_of(&s.r, end), "Time-up");
	session_close(&s);
	/* A piece without a square is a broken move, not a word. */
	read_fails(SEP "   1 金打\n", DIAG_SYNTAX, 2, 6);
}

static void
test_kif_moves_after_the_end(void **state)
{
	struct session s;

	(void)state;
	read_ok(&s, SEP "   1 ７六歩(77)\n   2 投了\n   3 中断\n"
	    "   4 ７六歩(77)\n");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_MOVE_AFTER_END, 4, 6);
	assert_int_equal(main_len(&s.r), 2);
	session_close(&s);
}

/* ---- lines after the game ---- */

static void
test_kif_after_the_game(void **state)
{
	struct session s;

	(void)state;
	/* A site's trailer between the terminal and the まで line. */
	read_ok(&s, "先手：a\n" SEP "   1 ７六歩(77)\n   2 投了\n"
	    "後手時間切れ\nまで1手で先手の勝ち\n\n  \n　\n");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_UNKNOWN_LINE, 5, 1);
	assert_int_equal(s.d.v[0].ply, 0);
	assert_int_equal(s.r.nheaders, 2);
	assert_header(&s.r, 1, HDR_RAW, "後手時間切れ", "");
	assert_recorded(&s.r, WINNER_BLACK, REASON_RESIGN, 1);
	assert_int_equal(main_len(&s.r), 2);
	session_close(&s);
	/* The まで line after it is read and checked as ever. */
	read_ok(&s, SEP "   1 ７六歩(77)\n   2 投了\n後手時間切れ\n"
	    "まで2手で先手の勝ち\n");
	assert_int_equal(s.d.n, 2);
	assert_diag(&s.d, DIAG_WARNING, DIAG_UNKNOWN_LINE, 4, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_RESULT_MISMATCH, 5, 1);
	session_close(&s);
	/* A clipboard export: a rule (kept, not said) and a banner. */
	read_ok(&s, SEP "   1 ７六歩(77)\n   2 投了\nまで1手で先手の勝ち\n"
	    "------------------------------\n"
	    "    generated by 激指定跡道場4\n\n");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_UNKNOWN_LINE, 6, 5);
	assert_int_equal(s.r.nheaders, 2);
	assert_header(&s.r, 0, HDR_RAW, "------------------------------", "");
	assert_header(&s.r, 1, HDR_RAW, "generated by 激指定跡道場4", "");
	session_close(&s);
	/* After the last variation; a comment there still has its move. */
	read_ok(&s, SEP "   1 ７六歩(77)\n変化：1手\n   1 ２六歩(27)\n"
	    "　　何か変な行です\n*note\n");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_UNKNOWN_LINE, 5, 3);
	assert_string_equal(comment_of(&s.r, child(&s.r, 0, 1)), "note");
	session_close(&s);
	/* A game of no moves ends at the separator. */
	read_ok(&s, "先手：a\n" SEP "generated by 激指定跡道場4\n");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_UNKNOWN_LINE, 3, 1);
	assert_int_equal(main_len(&s.r), 0);
	session_close(&s);
	/* Other rules; a line that only starts like one is text. */
	read_ok(&s, SEP "   1 ７六歩(77)\n========\n─────\n－－－\n"
	    "--- 終 ---\n");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_UNKNOWN_LINE, 6, 1);
	assert_int_equal(s.r.nheaders, 4);
	session_close(&s);
}

/* A file of many moves and a long trailer reads in linear time. */
static void
test_kif_long_trailer_is_linear(void **state)
{
	struct strbuf src = STRBUF_INIT;
	struct session s;
	int i;

	(void)state;
	strbuf_adds(&src, SEP);
	for (i = 0; i < 100000; i++)
		strbuf_addf(&src, "%d %s\n", i + 1, i % 2 ? "８二飛(81)" :
		    i ? "２八飛(29)" : "７六歩(77)");
	for (i = 0; i < 100000; i++)
		strbuf_adds(&src, "後手時間切れ\n");
	read_unlimited(&s, kif_read, src.buf);
	assert_int_equal(s.d.n, 100000);
	assert_int_equal(s.d.errors, 0);
	assert_int_equal(s.r.nheaders, 100000);
	session_close(&s);
	strbuf_release(&src);
}

/* "同　歩打" reads; replay says the square is taken. */
static void
test_kif_drop_onto_same(void **state)
{
	static const char *const drops[] = { "同　歩打", "同歩打", "同 歩打" };
	struct session s;
	struct replay rp;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(drops) / sizeof(drops[0]); i++) {
		struct strbuf src = STRBUF_INIT;
		const struct record_node *nd;

		strbuf_addf(&src, SEP "1 ２六歩(27)\n2 ３四歩(33)\n"
		    "3 ２五歩(26)\n4 ８四歩(83)\n5 ２四歩(25)\n"
		    "6 同　歩(23)\n7 同　飛(28)\n8 %s\n9 投了\n", drops[i]);
		read_ok(&s, src.buf);
		assert_no_diags(&s.d);
		nd = &s.r.nodes[nth(&s.r, 8)];
		assert_int_equal(nd->spec.flags, SPEC_SAME | SPEC_DROP);
		assert_int_equal(nd->spec.piece, PT_PAWN);
		assert_int_equal(nd->spec.to, SQ_NONE);
		assert_string_equal(raw_of(&s.r, nth(&s.r, 8)), drops[i]);
		assert_int_equal(replay_record(&s.r, &rp, &s.d), 1);
		assert_finding(&s.d, RULE_OCCUPIED, 9, 3, 8);
		session_close(&s);
		strbuf_release(&src);
	}
}

/* ---- numbering and unreadable lines ---- */

struct error_case {
	const char *name;
	const char *text;
	enum diag_id id;
	unsigned line, col;
};

static const struct error_case error_cases[] = {
	{ "a jump", SEP "   1 ７六歩(77)\n   3 ２六歩(27)\n", DIAG_SYNTAX, 3,
	    4 },
	{ "a repeat", SEP "1 ７六歩(77)\n1 ３四歩(33)\n", DIAG_SYNTAX, 3, 1 },
	{ "not starting at 1", SEP "   2 ７六歩(77)\n", DIAG_SYNTAX, 2, 4 },
	{ "a number too long", SEP "123456789 ７六歩(77)\n", DIAG_SYNTAX, 2,
	    1 },
	{ "a number alone", SEP "   1\n", DIAG_SYNTAX, 2, 4 },
	{ "a number and a time", SEP "   1 ( 0:01/00:00:01)\n", DIAG_SYNTAX, 2,
	    6 },
	{ "two ranks (a.kif)", SEP "   1 ７二二金(61)\n", DIAG_SYNTAX, 2, 8 },
	{ "two files (b.kif)", SEP "   1 ７７二金(61)\n", DIAG_SYNTAX, 2, 8 },
	{ "three pieces (c.kif)", SEP "   1 ７二金金金(61)\n", DIAG_SYNTAX, 2,
	    9 },
	{ "no piece", SEP "   1 ７六\n", DIAG_SYNTAX, 2, 8 },
	{ "a drop with an origin", SEP "   1 １三歩打(77)\n", DIAG_SYNTAX, 2,
	    10 },
	{ "a short origin", SEP "   1 ７六歩(7)\n", DIAG_SYNTAX, 2, 11 },
	{ "origin off the board", SEP "   1 ７六歩(70)\n", DIAG_SYNTAX, 2, 9 },
	{ "junk after the move", SEP "   1 ７六歩(77) junk\n", DIAG_SYNTAX, 2,
	    14 },
	{ "a separator with junk", "手数----指手--x\n", DIAG_SYNTAX, 1, 11 },
	{ "an unknown line between moves", SEP "   1 ７六歩(77)\nhello\n"
	    "   2 ３四歩(33)\n", DIAG_SYNTAX, 3, 1 },
	{ "an unknown line before a variation", SEP "   1 ７六歩(77)\n"
	    "   2 投了\nhello\nまで1手で先手の勝ち\n変化：1手\n"
	    "   1 ２六歩(27)\n", DIAG_SYNTAX, 4, 1 },
	{ "an unknown line before the moves", "先手：a\n  hello\n" SEP
	    "   1 ７六歩(77)\n", DIAG_SYNTAX, 2, 3 },
	{ "an unknown line and no game", "先手：a\nhello\n", DIAG_SYNTAX, 2,
	    1 },
	{ "a move without its number after the game", SEP "   1 ７六歩(77)\n"
	    "   2 投了\n３四歩(33)\n", DIAG_SYNTAX, 4, 1 },
	{ "a KI2 move after the game", SEP "   1 ７六歩(77)\nまで1手で中断\n"
	    "△同　歩\n", DIAG_SYNTAX, 4, 1 },
	{ "変化 without 手 (fork02.kif)", SEP "   1 ７六歩(77)\n変化：1\n",
	    DIAG_SYNTAX, 3, 5 },
	{ "変化 with junk (fork03.kif)", SEP "   1 ７六歩(77)\n変化：1手です\n",
	    DIAG_SYNTAX, 3, 6 },
	{ "変化 without a number (fork01.kif)", SEP "   1 ７六歩(77)\n変化：\n",
	    DIAG_SYNTAX, 3, 4 },
	{ "変化 nobody reaches", SEP "   1 ７六歩(77)\n変化：3手\n", DIAG_SYNTAX,
	    3, 1 },
	{ "変化 after a terminal", SEP "   1 ７六歩(77)\n   2 投了\n変化：3手\n"
	    "   3 ２六歩(27)\n", DIAG_SYNTAX, 4, 1 },
	{ "変化 of move 0", SEP "   1 ７六歩(77)\n変化：0手\n", DIAG_SYNTAX, 3, 1 },
	{ "変化 before any move", "変化：1手\n   1 ７六歩(77)\n", DIAG_SYNTAX, 1,
	    1 },
	{ "a variation numbered wrong", SEP "   1 ７六歩(77)\n   2 ３四歩(33)\n"
	    "変化：2手\n   3 ８四歩(83)\n", DIAG_SYNTAX, 5, 4 },
};

#define N_ERROR_CASES (sizeof(error_cases) / sizeof(error_cases[0]))

static void
test_error_case(void **state)
{
	const struct error_case *c = *state;

	read_fails(c->text, c->id, c->line, c->col);
}

/* ---- comments, bookmarks and other lines ---- */

static void
test_kif_comments(void **state)
{
	struct session s;

	(void)state;
	read_ok(&s,
	    "手合割：平手\n"
	    "*start 1\n"
	    "*start 2 \n"
	    "&読み込み時表示\n"
	    SEP
	    "*after the separator\n"
	    "   1 ７六歩(77)\n"
	    "*first move\n"
	    "**評価値=8\n"
	    "*\n"
	    "&しおり１\n"
	    "   2 ３四歩(33)\n"
	    "   3 投了\n"
	    "*after the end\n"
	    "まで2手で後手の勝ち\n"
	    "*after the summary\n");
	assert_no_diags(&s.d);
	assert_string_equal(comment_of(&s.r, 0),
	    "start 1\nstart 2 \nafter the separator");
	assert_string_equal(record_str(&s.r, s.r.nodes[0].bookmark),
	    "読み込み時表示");
	assert_string_equal(comment_of(&s.r, nth(&s.r, 1)),
	    "first move\n*評価値=8\n");
	assert_string_equal(record_str(&s.r, s.r.nodes[nth(&s.r, 1)].bookmark),
	    "しおり１");
	assert_int_equal(s.r.nodes[nth(&s.r, 2)].comment, 0);
	assert_string_equal(comment_of(&s.r, nth(&s.r, 3)),
	    "after the end\nafter the summary");
	session_close(&s);
}

static void
test_kif_second_bookmark(void **state)
{
	struct session s;

	(void)state;
	read_ok(&s, SEP "   1 ７六歩(77)\n&一\n&二\n");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_SYNTAX, 4, 1);
	assert_string_equal(record_str(&s.r, s.r.nodes[nth(&s.r, 1)].bookmark),
	    "一");
	session_close(&s);
}

static void
test_kif_other_lines(void **state)
{
	struct session s;

	(void)state;
	read_ok(&s,
	    "手数----指手--\n"
	    "手数----指手---------消費時間-- \n"
	    "手数----指手---------消費時間---\n"
	    "\n   \n　\n"
	    "   1 ７六歩(77)\n");
	assert_no_diags(&s.d);
	assert_int_equal(main_len(&s.r), 1);
	assert_int_equal(s.r.nheaders, 0);
	assert_false(s.r.flipped);
	session_close(&s);
}

/*
 * 盤面回転 (Kifu for Windows) or 盤面反転: the board shown as White sees
 * it. A flag, not a header, wherever in the head it stands: first, among
 * the headers, after the board; the first line is the one kept.
 */
static void
test_kif_flipped(void **state)
{
	static const char *const texts[] = {
		"盤面回転\n" SEP "   1 ７六歩(77)\n",
		"手合割：平手\n先手：a\n盤面反転\n後手：b\n   1 ７六歩(77)\n",
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
		"　盤面回転\n"
		"盤面回転\n"
		SEP "   1 ７六歩(77)\n",
	};
	static const unsigned lines[] = { 1, 3, 15 };
	struct session s;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		read_ok(&s, texts[i]);
		assert_no_diags(&s.d);
		assert_true(s.r.flipped);
		assert_int_equal(s.r.flipped_loc.line, lines[i]);
		assert_int_equal(main_len(&s.r), 1);
		assert_null(record_find_header(&s.r, HDR_RAW));
		session_close(&s);
	}
	/* Only the line itself: a header or a comment saying it is not. */
	read_ok(&s, "備考：盤面回転\n*盤面回転\n   1 ７六歩(77)\n");
	assert_false(s.r.flipped);
	session_close(&s);
	read_fails("盤面回転する\n   1 ７六歩(77)\n", DIAG_SYNTAX, 1, 1);
}

static void
test_kif_empty(void **state)
{
	struct session s;

	(void)state;
	session_opens(&s, "");
	assert_int_equal(session_next(&s), READ_EOF);
	session_close(&s);
	session_opens(&s, "\n\n  \n");
	assert_int_equal(session_next(&s), READ_EOF);
	assert_no_diags(&s.d);
	session_close(&s);
	/* A header line is a record: an even game without moves. */
	read_ok(&s, "先手：a\n");
	assert_int_equal(main_len(&s.r), 0);
	assert_int_equal(session_next(&s), READ_EOF);
	session_close(&s);
}

/* ---- まで lines ---- */

struct summary_case {
	const char *name;
	const char *terminal;	/* the word at slot 4; "" none */
	const char *summary;
	enum winner winner;
	enum reason reason;
};

static const struct summary_case summary_cases[] = {
	{ "a win", "投了", "まで3手で先手の勝ち", WINNER_BLACK, REASON_RESIGN },
	{ "中断", "中断", "まで3手で中断", WINNER_NONE, REASON_ABORT },
	{ "持将棋", "持将棋", "まで3手で持将棋", WINNER_NONE, REASON_IMPASSE },
	{ "千日手", "千日手", "まで3手で千日手", WINNER_NONE, REASON_SENNICHITE },
	{ "time", "切れ負け", "まで3手で時間切れにより先手の勝ち", WINNER_BLACK,
	    REASON_TIME_UP },
	{ "反則勝ち", "反則勝ち", "まで3手で後手の反則勝ち", WINNER_WHITE,
	    REASON_ILLEGAL_MOVE },
	{ "反則負け", "反則負け", "まで3手で後手の反則負け", WINNER_BLACK,
	    REASON_ILLEGAL_MOVE },
	{ "詰", "詰み", "まで3手で詰", WINNER_BLACK, REASON_CHECKMATE },
	{ "詰み", "詰み", "まで3手で詰み", WINNER_BLACK, REASON_CHECKMATE },
	{ "手詰", "詰み", "まで3手詰", WINNER_BLACK, REASON_CHECKMATE },
	{ "不詰", "不詰", "まで3手で不詰", WINNER_NONE, REASON_UNFINISHED },
	{ "封じ手", "封じ手", "まで3手で封じ手", WINNER_NONE, REASON_UNFINISHED },
	{ "入玉勝ち", "入玉勝ち", "まで3手で後手の入玉勝ち", WINNER_WHITE,
	    REASON_DECLARATION },
	{ "最大手数", "最大手数", "まで3手で最大手数", WINNER_NONE,
	    REASON_MAX_MOVES },
	{ "入玉宣言 (cshogi)", "入玉勝ち", "まで3手で入玉宣言", WINNER_WHITE,
	    REASON_DECLARATION },
	{ "まで、 (tsshogi)", "投了", "まで、3手で先手の勝ち", WINNER_BLACK,
	    REASON_RESIGN },
	{ "the reason from the terminal", "反則勝ち", "まで3手で後手の勝ち",
	    WINNER_WHITE, REASON_ILLEGAL_MOVE },
	{ "a mate stated as a win", "詰み", "まで3手で先手の勝ち", WINNER_BLACK,
	    REASON_CHECKMATE },
	{ "no terminal", "", "まで3手で先手の勝ち", WINNER_BLACK,
	    REASON_RESIGN },
};

#define N_SUMMARY_CASES (sizeof(summary_cases) / sizeof(summary_cases[0]))

static void
test_summary_case(void **state)
{
	const struct summary_case *c = *state;
	struct strbuf src = STRBUF_INIT;
	struct session s;

	strbuf_adds(&src, SEP "   1 ７六歩(77)\n   2 ３四歩(33)\n"
	    "   3 ２六歩(27)\n");
	if (*c->terminal)
		strbuf_addf(&src, "   4 %s\n", c->terminal);
	strbuf_addf(&src, "%s\n", c->summary);
	read_ok(&s, src.buf);
	assert_no_diags(&s.d);
	assert_recorded(&s.r, c->winner, c->reason, 3);
	assert_string_equal(record_str(&s.r, s.r.recorded_raw), c->summary);
	/* KIF keeps its terminals as written: none is made up. */
	assert_int_equal(main_len(&s.r), 3 + (*c->terminal != '\0'));
	session_close(&s);
	strbuf_release(&src);
}

static void
test_kif_summary_mismatch(void **state)
{
	struct session s;

	(void)state;
	read_ok(&s, SEP "   1 ７六歩(77)\n   2 投了\nまで1手で後手の勝ち\n");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_RESULT_MISMATCH, 4, 1);
	/* The terminal line is authoritative (formats.md 3.9): White resigned. */
	assert_recorded(&s.r, WINNER_BLACK, REASON_RESIGN, 1);
	session_close(&s);
	read_ok(&s, SEP "   1 ７六歩(77)\n   2 投了\nまで2手で先手の勝ち\n");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_RESULT_MISMATCH, 4, 1);
	session_close(&s);
	read_ok(&s, SEP "   1 ７六歩(77)\n   2 中断\nまで1手で先手の勝ち\n");
	assert_diag(&s.d, DIAG_WARNING, DIAG_RESULT_MISMATCH, 4, 1);
	session_close(&s);
	read_ok(&s, SEP "   1 ７六歩(77)\n   2 投了\nまで1手で千日手\n");
	assert_diag(&s.d, DIAG_WARNING, DIAG_RESULT_MISMATCH, 4, 1);
	session_close(&s);
	/* Without a terminal, the count is checked against the moves. */
	read_ok(&s, SEP "   1 ７六歩(77)\nまで2手で先手の勝ち\n");
	assert_diag(&s.d, DIAG_WARNING, DIAG_RESULT_MISMATCH, 3, 1);
	session_close(&s);
	/* An unknown terminal is not checked. */
	read_ok(&s, SEP "   1 ７六歩(77)\n   2 Walkover\nまで1手で先手の勝ち\n");
	assert_int_equal(s.d.n, 1);
	session_close(&s);
}

static void
test_kif_bad_summaries(void **state)
{
	struct session s;

	(void)state;
	read_ok(&s, SEP "   1 ７六歩(77)\n   2 投了\nまで1手で何か\n");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_SYNTAX, 4, 1);
	assert_false(s.r.has_recorded);
	assert_string_equal(record_str(&s.r, s.r.recorded_raw), "まで1手で何か");
	session_close(&s);
	read_ok(&s, SEP "   1 ７六歩(77)\n   2 投了\nまで1手で先手の勝ち\n"
	    "まで1手で後手の勝ち\n");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_RESULT_MISMATCH, 5, 1);
	assert_recorded(&s.r, WINNER_BLACK, REASON_RESIGN, 1);
	session_close(&s);
}

/* ---- variations ---- */

/* fork.kif of json-kifu-format, without its header. */
static const char fork_kif[] =
	"手合割：平手　　\n" SEP
	"   1 ７六歩(77)   ( 0:02/00:00:02)+\n"
	"   2 ３四歩(33)   ( 0:01/00:00:01)+\n"
	"   3 ２六歩(27)   ( 0:01/00:00:03)+\n"
	"   4 投了         ( 0:00/00:00:01)\n"
	"まで3手で先手の勝ち\n"
	"\n"
	"変化：3手\n"
	"   3 ７五歩(76)   ( 0:01/00:00:03)\n"
	"   4 中断         ( 0:00/00:00:01)\n"
	"まで3手で中断\n"
	"\n"
	"変化：2手\n"
	"   2 ８四歩(83)   ( 0:07/00:00:07)\n"
	"   3 ６八銀(79)   ( 0:02/00:00:04)+\n"
	"   4 持将棋       ( 0:00/00:00:07)\n"
	"まで3手で持将棋\n"
	"\n"
	"変化：3手\n"
	"   3 ２六歩(27)   ( 0:08/00:00:10)\n"
	"   4 切れ負け     ( 0:00/00:00:07)\n"
	"まで3手で時間切れにより先手の勝ち\n"
	"\n"
	"変化：1手\n"
	"   1 ２六歩(27)   ( 0:05/00:00:05)\n"
	"   2 ３四歩(33)   ( 0:03/00:00:03)+\n"
	"   3 ２五歩(26)   ( 0:01/00:00:06)+\n"
	"   4 反則勝ち     ( 0:00/00:00:03)\n"
	"まで3手で後手の反則勝ち\n"
	"\n"
	"変化：3手\n"
	"   3 ７六歩(77)   ( 0:04/00:00:09)\n"
	"   4 千日手       ( 0:00/00:00:03)\n"
	"まで3手で千日手\n"
	"\n"
	"変化：2手\n"
	"   2 ８四歩(83)   ( 0:01/00:00:01)\n"
	"   3 ２五歩(26)   ( 0:01/00:00:06)+\n"
	"   4 詰み         ( 0:00/00:00:01)\n"
	"まで3手で詰\n"
	"\n"
	"変化：3手\n"
	"   3 ７六歩(77)   ( 0:02/00:00:07)\n"
	"   4 不詰         ( 0:00/00:00:01)\n"
	"まで3手で不詰\n";

static void
test_kif_variations(void **state)
{
	struct session s;
	int32_t m1, m2, m3, a2, v1, v2, b2;

	(void)state;
	read_ok(&s, fork_kif);
	assert_no_diags(&s.d);
	/* The main line and its まで are the record's. */
	assert_int_equal(main_len(&s.r), 4);
	assert_recorded(&s.r, WINNER_BLACK, REASON_RESIGN, 3);
	m1 = nth(&s.r, 1);
	m2 = nth(&s.r, 2);
	m3 = nth(&s.r, 3);
	assert_int_equal(s.r.nodes[nth(&s.r, 4)].special, SP_RESIGN);
	/* Move 1: ７六歩 or ２六歩 (変化：1手). */
	assert_int_equal(children(&s.r, 0), 2);
	v1 = child(&s.r, 0, 1);
	assert_string_equal(raw_of(&s.r, v1), "２六歩(27)");
	assert_int_equal(s.r.nodes[v1].ply, 1);
	assert_int_equal(s.r.nodes[v1].parent, 0);
	/* After ７六歩: ３四歩 or ８四歩 (the first 変化：2手). */
	assert_int_equal(children(&s.r, m1), 2);
	a2 = child(&s.r, m1, 1);
	assert_string_equal(raw_of(&s.r, a2), "８四歩(83)");
	assert_int_equal(s.r.nodes[a2].parent, m1);
	/* After ３四歩: ２六歩 or ７五歩 (the first 変化：3手). */
	assert_int_equal(children(&s.r, m2), 2);
	assert_int_equal(child(&s.r, m2, 0), m3);
	assert_string_equal(raw_of(&s.r, child(&s.r, m2, 1)), "７五歩(76)");
	assert_int_equal(s.r.nodes[child(&s.r, child(&s.r, m2, 1), 0)].special,
	    SP_ABORT);
	/*
	 * The second 変化：3手 follows the ８四歩 line, the last written
	 * that reaches move 3: ６八銀 or ２六歩 (切れ負け).
	 */
	assert_int_equal(children(&s.r, a2), 2);
	assert_string_equal(raw_of(&s.r, child(&s.r, a2, 0)), "６八銀(79)");
	assert_string_equal(raw_of(&s.r, child(&s.r, a2, 1)), "２六歩(27)");
	assert_int_equal(s.r.nodes[child(&s.r, child(&s.r, a2, 0), 0)].special,
	    SP_IMPASSE);
	assert_int_equal(s.r.nodes[child(&s.r, child(&s.r, a2, 1), 0)].special,
	    SP_TIME_UP);
	/* In the ２六歩 line: ３四歩 (２五歩 or ７六歩) or ８四歩 (the same). */
	assert_int_equal(children(&s.r, v1), 2);
	v2 = child(&s.r, v1, 0);
	b2 = child(&s.r, v1, 1);
	assert_string_equal(raw_of(&s.r, v2), "３四歩(33)");
	assert_string_equal(raw_of(&s.r, b2), "８四歩(83)");
	assert_int_equal(children(&s.r, v2), 2);
	assert_int_equal(s.r.nodes[child(&s.r, child(&s.r, v2, 0), 0)].special,
	    SP_ILLEGAL_WIN);
	assert_int_equal(s.r.nodes[child(&s.r, child(&s.r, v2, 1), 0)].special,
	    SP_SENNICHITE);
	assert_int_equal(children(&s.r, b2), 2);
	assert_int_equal(s.r.nodes[child(&s.r, child(&s.r, b2, 0), 0)].special,
	    SP_MATE);
	assert_int_equal(s.r.nodes[child(&s.r, child(&s.r, b2, 1), 0)].special,
	    SP_NO_MATE);
	assert_int_equal(s.r.nodes[child(&s.r, b2, 1)].ply, 3);
	assert_int_equal(s.r.nodes[child(&s.r, b2, 1)].parent, b2);
	replay_ok(&s.r, &s.d);
	session_close(&s);
}

static void
test_kif_variation_same_square(void **state)
{
	struct session s;
	int32_t m2, v3, v4, w4;

	(void)state;
	/* doh_branch.kifu: 同 at a variation's first move. */
	read_ok(&s, SEP
	    "   1 ７六歩(77)   ( 0:00/00:00:00)\n"
	    "   2 ３四歩(33)   ( 0:00/00:00:00)\n"
	    "   3 ２六歩(27)   ( 0:00/00:00:00)+\n"
	    "   4 中断         ( 0:00/00:00:00)\n"
	    "まで3手で中断\n\n"
	    "変化：3手\n"
	    "   3 ２二角成(88) ( 0:00/00:00:00)\n"
	    "   4 同　銀(31)   ( 0:00/00:00:00)+\n"
	    "   5 中断         ( 0:00/00:00:00)\n"
	    "まで4手で中断\n\n"
	    "変化：4手\n"
	    "   4 同　飛(82)   ( 0:00/00:00:00)\n"
	    "   5 中断         ( 0:00/00:00:00)\n"
	    "まで4手で中断\n");
	assert_no_diags(&s.d);
	m2 = nth(&s.r, 2);
	v3 = child(&s.r, m2, 1);
	v4 = child(&s.r, v3, 0);
	w4 = child(&s.r, v3, 1);
	assert_int_equal(s.r.nodes[v4].spec.flags, SPEC_SAME);
	assert_int_equal(s.r.nodes[w4].parent, v3);
	replay_ok(&s.r, &s.d);
	assert_int_equal(move_to(s.r.nodes[v4].mv), SQ(2, 2));
	assert_int_equal(move_to(s.r.nodes[w4].mv), SQ(2, 2));
	assert_int_equal(move_from(s.r.nodes[w4].mv), SQ(8, 2));
	session_close(&s);
}

static void
test_kif_variation_of_the_last_line(void **state)
{
	struct session s;
	int32_t v3, v5, w4;

	(void)state;
	/*
	 * The alternative belongs to the line written last that reaches
	 * the move: 変化：5手 after a line from move 3 goes into that line,
	 * 変化：4手 after it too, and a 変化 beyond that line's moves into
	 * the main line again.
	 */
	read_ok(&s, SEP
	    "1 ７六歩(77)\n2 ３四歩(33)\n3 ２六歩(27)\n4 ８四歩(83)\n"
	    "5 ２五歩(26)\n6 ８五歩(84)\n7 ７八金(69)\n"
	    "変化：3手\n3 ６八銀(79)\n4 ８四歩(83)\n5 ７七銀(68)\n"
	    "変化：5手\n5 ５六歩(57)\n"
	    "変化：4手\n4 ４四歩(43)\n"
	    "変化：6手\n6 ３二金(41)\n");
	assert_no_diags(&s.d);
	v3 = child(&s.r, nth(&s.r, 2), 1);
	assert_string_equal(raw_of(&s.r, v3), "６八銀(79)");
	/* 変化：5手 went into the ６八銀 line. */
	v5 = child(&s.r, child(&s.r, v3, 0), 1);
	assert_string_equal(raw_of(&s.r, v5), "５六歩(57)");
	/* 変化：4手: the ６八銀 line is the last that reaches move 4. */
	w4 = child(&s.r, v3, 1);
	assert_string_equal(raw_of(&s.r, w4), "４四歩(43)");
	/* 変化：6手: only the main line reaches move 6. */
	assert_string_equal(raw_of(&s.r, child(&s.r, nth(&s.r, 5), 1)),
	    "３二金(41)");
	replay_ok(&s.r, &s.d);
	session_close(&s);
}

static void
test_kif_variation_lines(void **state)
{
	struct session s;

	(void)state;
	/* Spaces in 変化 lines, an ASCII colon, a variation's own まで. */
	read_ok(&s, SEP "   1 ７六歩(77)\n   2 投了\nまで1手で先手の勝ち\n"
	    "変化：   1手\n   1 ２六歩(27)\n   2 中断\nまで1手で中断\n"
	    "変化:1手\n   1 ５六歩(57)\n");
	assert_no_diags(&s.d);
	assert_int_equal(children(&s.r, 0), 3);
	assert_recorded(&s.r, WINNER_BLACK, REASON_RESIGN, 1);
	session_close(&s);
	/* A variation's まで is checked against its own terminal. */
	read_ok(&s, SEP "   1 ７六歩(77)\n   2 投了\n"
	    "変化：1手\n   1 ２六歩(27)\n   2 中断\nまで1手で先手の勝ち\n");
	assert_diag(&s.d, DIAG_WARNING, DIAG_RESULT_MISMATCH, 7, 1);
	assert_false(s.r.has_recorded);
	session_close(&s);
	/* An alternative to a terminal. */
	read_ok(&s, SEP "   1 ７六歩(77)\n   2 投了\n"
	    "変化：2手\n   2 ３四歩(33)\n");
	assert_no_diags(&s.d);
	assert_int_equal(children(&s.r, nth(&s.r, 1)), 2);
	session_close(&s);
}

/*
 * "変化：N手" where no line reaches move N goes on with the line that
 * ends at move N-1: the main line, whose まで is then the record's, or
 * the variation written last.
 */
static void
test_kif_variation_continues(void **state)
{
	struct session s;
	int32_t v4;

	(void)state;
	read_ok(&s, SEP "1 ７六歩(77)\n2 ３四歩(33)\n3 ２二角成(88)\n"
	    "4 同　銀(31)\n\n変化：5手\n5 ４五角打\n6 投了\n"
	    "まで5手で先手の勝ち\n");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_SYNTAX, 7, 1);
	assert_int_equal(s.d.v[0].ply, 5);
	assert_int_equal(main_len(&s.r), 6);
	assert_int_equal(children(&s.r, nth(&s.r, 4)), 1);
	assert_recorded(&s.r, WINNER_BLACK, REASON_RESIGN, 5);
	replay_ok(&s.r, &s.d);
	session_close(&s);
	/* The line written last that reaches move 4 is the variation's. */
	read_ok(&s, SEP "1 ７六歩(77)\n2 ３四歩(33)\n3 ２六歩(27)\n"
	    "4 ８四歩(83)\n変化：3手\n3 ２二角成(88)\n4 同　銀(31)\n"
	    "変化：5手\n5 ４五角打\n6 中断\nまで5手で中断\n");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_SYNTAX, 9, 1);
	assert_int_equal(main_len(&s.r), 4);
	assert_false(s.r.has_recorded);
	v4 = child(&s.r, child(&s.r, nth(&s.r, 2), 1), 0);
	assert_string_equal(raw_of(&s.r, v4), "同　銀(31)");
	assert_string_equal(raw_of(&s.r, child(&s.r, v4, 0)), "４五角打");
	assert_int_equal(s.r.nodes[child(&s.r, child(&s.r, v4, 0), 0)].special,
	    SP_ABORT);
	replay_ok(&s.r, &s.d);
	session_close(&s);
}

static void
test_kif_replays(void **state)
{
	struct session s;
	struct replay rp;
	int32_t i;

	(void)state;
	read_ok(&s, "手合割：平手\n" SEP
	    "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n"
	    "   4 同　銀(31)\n   5 ４五角打\n   6 ５二金(61)\n"
	    "   7 ３四角(45)\n   8 ３三銀(22)\n   9 投了\n");
	assert_no_diags(&s.d);
	assert_int_equal(replay_record(&s.r, &rp, &s.d), 0);
	assert_int_equal(rp.moves, 8);
	assert_int_equal(rp.terminal, nth(&s.r, 9));
	for (i = 1; i <= 8; i++)
		assert_true(s.r.nodes[nth(&s.r, i)].mv != MOVE_NONE);
	assert_true(move_is_drop(s.r.nodes[nth(&s.r, 5)].mv));
	assert_int_equal(move_to(s.r.nodes[nth(&s.r, 4)].mv), SQ(2, 2));
	session_close(&s);
}

/* ---- hostile input ---- */

static uint32_t
lcg(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

static void
read_all(const char *buf, size_t n)
{
	struct text t;
	struct diag_list d;
	struct reader rd;
	struct record r;
	int k;

	text_init(&t);
	diag_list_init(&d);
	if (text_from_utf8(&t, buf, n, &d) == 0) {
		(void)kif_detect(&t);
		(void)ki2_detect(&t);
		reader_init(&rd, &t, variant_standard());
		record_init(&r, variant_standard());
		for (k = 0; k < 3; k++) {
			struct replay rp;
			enum read_status rs = kif_read(&rd, &r, &d);

			if (rs == READ_OK)
				replay_record(&r, &rp, &d);
			if (rs == READ_EOF)
				break;
			record_reset(&r, variant_standard());
		}
		record_release(&r);
	}
	diag_list_release(&d);
	text_release(&t);
}

static void
test_kif_hostile(void **state)
{
	static const char *const bits[] = {
		"1", " ", "　", "7", "７", "六", "同", "歩", "成", "不成", "打",
		"(", ")", "77", "00", ":", "/", "+", "\n", "\n", "投了", "まで",
		"手で", "先手の", "勝ち", "変化：", "手", "*", "&", "#", "|",
		" ・", "v玉", "先手の持駒：", "十八", "手合割：", "香落ち",
		"手数----", "手数＝", "後手番", "９", "一", "\xe3", "▲",
	};
	static const char base[] = "#KIF version=2.0 encoding=UTF-8\n"
	    "手合割：平手　　\n先手：a\n" SEP
	    "   1 ７六歩(77)   ( 0:02/00:00:02)+\n*c\n&b\n"
	    "   2 同　歩(33)   ( 0:01/00:00:01)\n   3 投了\n"
	    "まで2手で後手の勝ち\n\n変化：1手\n   1 ２六歩(27)\n"
	    "後手の持駒：なし\n| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n";
	char buf[512];
	uint32_t seed = 4242;
	int iter;

	(void)state;
	for (iter = 0; iter < 3000; iter++) {
		size_t n = 0;
		int k, parts = (int)(lcg(&seed) % 60);

		if (iter % 2) {
			for (k = 0; k < parts; k++) {
				const char *b = bits[lcg(&seed) %
				    (sizeof(bits) / sizeof(bits[0]))];
				size_t bl = strlen(b);

				if (n + bl >= sizeof(buf))
					break;
				memcpy(buf + n, b, bl);
				n += bl;
			}
		} else {
			n = sizeof(base) - 1;
			memcpy(buf, base, n);
			for (k = 0; k < 1 + parts / 8; k++) {
				size_t at = lcg(&seed) % n;

				switch (lcg(&seed) % 3) {
				case 0:
					buf[at] = (char)(lcg(&seed) % 0x7f + 1);
					break;
				case 1:
					n = at;
					break;
				default:
					memmove(buf + at, buf + at + 1,
					    n - at - 1);
					n--;
					break;
				}
				if (!n)
					break;
			}
		}
		read_all(buf, n);
	}
}

static void
test_kif_long_input_is_linear(void **state)
{
	struct strbuf src = STRBUF_INIT;
	struct session s;
	int i;

	(void)state;
	/* Many alternatives to one move, and a move with many comments. */
	strbuf_adds(&src, SEP "1 ７六歩(77)\n");
	for (i = 0; i < 100000; i++)
		strbuf_adds(&src, "*comment line\n");
	for (i = 0; i < 100000; i++)
		strbuf_adds(&src, "変化：1手\n1 ２六歩(27)\n");
	/* A long line and a long game. */
	for (i = 0; i < 200000; i++)
		strbuf_addf(&src, "%d %s\n", i + 2, i % 2 ? "２八飛(29)" :
		    "８二飛(81)");
	read_unlimited(&s, kif_read, src.buf);
	assert_no_diags(&s.d);
	assert_int_equal(children(&s.r, 0), 100001);
	assert_int_equal(s.r.nodes[child(&s.r, 0, 100000)].ply, 1);
	assert_int_equal(strlen(comment_of(&s.r, nth(&s.r, 1))),
	    100000 * 13 - 1);
	session_close(&s);
	strbuf_release(&src);
}

/* ---- real files ---- */

struct file_case {
	const char *path;
	const char *encoding;
	int moves;		/* on the main line, terminal excluded */
	enum special end;
	int alternatives;	/* nodes that are not the first child */
	int recorded;		/* a まで line on the main line */
	enum winner winner;
	enum reason reason;
};

#define JKF "testdata/kif/json-kifu-format/test/files/kif/"

static const struct file_case file_cases[] = {
	{ JKF "fork.kif", "CP932", 3, SP_RESIGN, 7, 1, WINNER_BLACK,
	    REASON_RESIGN },
	{ JKF "henka.kif", "CP932", 12, SP_ABORT, 5, 1, WINNER_NONE,
	    REASON_ABORT },
	{ JKF "doh_branch.kifu", "UTF-8", 3, SP_ABORT, 2, 1, WINNER_NONE,
	    REASON_ABORT },
	{ JKF "9fu.kif", "CP932", 61, SP_MATE, 0, 1, WINNER_BLACK,
	    REASON_CHECKMATE },
	{ JKF "20081220kyoochi.kif", "CP932", 142, SP_RESIGN, 0, 1,
	    WINNER_BLACK, REASON_RESIGN },
	{ JKF "meijinsen_20180508_M7_10034.kif", "CP932", 52, SP_SEALED, 0, 1,
	    WINNER_NONE, REASON_UNFINISHED },
	{ JKF "shogidokoro.kifu", "UTF-8", 19, SP_NONE, 0, 0, WINNER_NONE,
	    REASON_UNFINISHED },
	{ JKF "shogidb2.kifu", "UTF-8", 110, SP_RESIGN, 0, 0, WINNER_NONE,
	    REASON_UNFINISHED },
	{ JKF "kifu_for_iphone.kif", "CP932", 3, SP_MATE, 0, 0, WINNER_NONE,
	    REASON_UNFINISHED },
	{ "testdata/kif/mog-core-scala/kif/game/017.kif", "UTF-8", 27,
	    SP_ILLEGAL_WIN, 0, 1, WINNER_WHITE, REASON_ILLEGAL_MOVE },
	{ "testdata/kif/shogi-kifu-converter/data/tests/kif/example.kif",
	    "CP932", 2, SP_ABORT, 0, 0, WINNER_NONE, REASON_UNFINISHED },
	{ "testdata/kif/muzudho-kif-parser/docs/examples/bookmark[shogigui]"
	    ".kifu", "UTF-8", 7, SP_NONE, 2, 0, WINNER_NONE,
	    REASON_UNFINISHED },
};

#define N_FILE_CASES (sizeof(file_cases) / sizeof(file_cases[0]))

static void
test_file_case(void **state)
{
	const struct file_case *c = *state;
	struct session s;
	struct replay rp;
	size_t n, i;
	char *buf = slurp(c->path, &n);
	int32_t end;
	int alts = 0;

	if (!buf) {
		skip();
		return;
	}
	text_init(&s.t);
	diag_list_init(&s.d);
	assert_int_equal(text_decode(&s.t, buf, n, &s.d), 0);
	assert_string_equal(s.t.encoding, c->encoding);
	reader_init(&s.rd, &s.t, variant_standard());
	record_init(&s.r, variant_standard());
	s.read = kif_read;
	assert_true(kif_detect(&s.t) >= 90);
	assert_true(ki2_detect(&s.t) <= 5);
	assert_int_equal(session_next(&s), READ_OK);
	assert_no_errors(&s.d);
	end = record_main_end(&s.r);
	assert_int_equal(s.r.nodes[end].special, c->end);
	assert_int_equal(main_len(&s.r) - (c->end != SP_NONE), c->moves);
	for (i = 1; i < s.r.nnodes; i++)
		alts += s.r.nodes[s.r.nodes[i].parent].next != (int32_t)i;
	assert_int_equal(alts, c->alternatives);
	assert_int_equal(s.r.has_recorded, c->recorded);
	if (c->recorded) {
		assert_int_equal(s.r.recorded.winner, c->winner);
		assert_int_equal(s.r.recorded.reason, c->reason);
		assert_int_equal(s.r.recorded.ply, c->moves);
	}
	replay_record(&s.r, &rp, &s.d);
	/* A foul the terminal reports (反則勝ち) is not replayed. */
	assert_int_equal(rp.moves + rp.excused, c->moves);
	assert_int_equal(rp.variation_errors, 0);
	assert_int_equal(session_next(&s), READ_EOF);
	session_close(&s);
	free(buf);
}

/* ---- the test list ---- */

#define N_FIXED 37
#define N_TESTS (N_FIXED + N_DETECT_CASES + N_HANDICAP_CASES + N_HAND_CASES + \
	N_MOVE_CASES + N_TIME_CASES + N_TERMINAL_CASES + N_ERROR_CASES + \
	N_SUMMARY_CASES + N_FILE_CASES)

static void
add_cases(struct CMUnitTest *tests, char (*names)[160], size_t *n,
    const char *prefix, CMUnitTestFunction f, const void *cases,
    size_t size, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++, (*n)++) {
		const void *c = (const char *)cases + i * size;

		/* Every case table starts with a name, a word or a path. */
		snprintf(names[*n], sizeof(names[*n]), "%s: %s", prefix,
		    *(const char *const *)c);
		tests[*n].name = names[*n];
		tests[*n].test_func = f;
		tests[*n].setup_func = NULL;
		tests[*n].teardown_func = NULL;
		tests[*n].initial_state = (void *)(uintptr_t)c;
	}
}

#define ADD(prefix, f, table, count) add_cases(tests, names, &n, prefix, f, \
	table, sizeof(table[0]), count)

int
main(int argc, char **argv)
{
	static struct CMUnitTest tests[N_TESTS];
	static char names[N_TESTS][160];
	static const struct CMUnitTest fixed[] = {
		cmocka_unit_test(test_kif_headers),
		cmocka_unit_test(test_kif_headers_after_the_board),
		cmocka_unit_test(test_kif_hash_lines),
		cmocka_unit_test(test_kif_bad_headers),
		cmocka_unit_test(test_kif_handicap_game),
		cmocka_unit_test(test_kif_minishogi),
		cmocka_unit_test(test_kif_minishogi_board),
		cmocka_unit_test(test_kif_variant_default),
		cmocka_unit_test(test_kif_board),
		cmocka_unit_test(test_kif_board_cells),
		cmocka_unit_test(test_kif_board_side_and_labels),
		cmocka_unit_test(test_kif_bod_trailer),
		cmocka_unit_test(test_kif_impossible_boards),
		cmocka_unit_test(test_kif_move_text_and_place),
		cmocka_unit_test(test_kif_running_totals),
		cmocka_unit_test(test_kif_many_wrong_totals),
		cmocka_unit_test(test_kif_bad_times),
		cmocka_unit_test(test_kif_unknown_terminal),
		cmocka_unit_test(test_kif_moves_after_the_end),
		cmocka_unit_test(test_kif_after_the_game),
		cmocka_unit_test(test_kif_long_trailer_is_linear),
		cmocka_unit_test(test_kif_drop_onto_same),
		cmocka_unit_test(test_kif_comments),
		cmocka_unit_test(test_kif_second_bookmark),
		cmocka_unit_test(test_kif_other_lines),
		cmocka_unit_test(test_kif_flipped),
		cmocka_unit_test(test_kif_empty),
		cmocka_unit_test(test_kif_summary_mismatch),
		cmocka_unit_test(test_kif_bad_summaries),
		cmocka_unit_test(test_kif_variations),
		cmocka_unit_test(test_kif_variation_same_square),
		cmocka_unit_test(test_kif_variation_of_the_last_line),
		cmocka_unit_test(test_kif_variation_lines),
		cmocka_unit_test(test_kif_variation_continues),
		cmocka_unit_test(test_kif_replays),
		cmocka_unit_test(test_kif_hostile),
		cmocka_unit_test(test_kif_long_input_is_linear),
	};
	size_t i, n = 0;

	_Static_assert(sizeof(fixed) / sizeof(fixed[0]) == N_FIXED,
	    "N_FIXED is the length of fixed[]");
	core_init();
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		tests[n++] = fixed[i];
	ADD("detect", test_detect_case, detect_cases, N_DETECT_CASES);
	ADD("handicap", test_handicap_case, handicap_cases, N_HANDICAP_CASES);
	ADD("hand", test_hand_case, hand_cases, N_HAND_CASES);
	ADD("move", test_move_case, move_cases, N_MOVE_CASES);
	ADD("time", test_time_case, time_cases, N_TIME_CASES);
	ADD("terminal", test_terminal_case, terminal_cases, N_TERMINAL_CASES);
	ADD("error", test_error_case, error_cases, N_ERROR_CASES);
	ADD("summary", test_summary_case, summary_cases, N_SUMMARY_CASES);
	ADD("file", test_file_case, file_cases, N_FILE_CASES);
	if (n != N_TESTS) {
		fprintf(stderr, "test list has %zu tests, not %zu\n", n,
		    (size_t)N_TESTS);
		return 1;
	}
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests_name("parsers/kif", tests, NULL, NULL);
}
