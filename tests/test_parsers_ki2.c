/*
 * The KI2 record format: parsers/ki2.c (ki2_detect, ki2_read). What KI2
 * shares with KIF (headers, the board, comments, 変化 and まで lines) is
 * tested in test_parsers_kif.c; here are the move tokens, the terminals
 * made from まで lines and the KI2 files of the corpus.
 *
 * Errors are checked by id, line and column; columns count characters.
 * Relative words (右 左 直 上 寄 引) are checked as parsed: which piece
 * they name is core/notation.c's business.
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

/* The square file f, rank r ("76" = 7六). */
#define SQ(f, r) (((f) - 1) * RANK_NB + (r) - 1)
#define NO SQ_NONE

static void
session_opens(struct session *s, const char *src)
{
	session_start(s, ki2_read, src, strlen(src), variant_standard());
}

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
	{ "Kifu for Windows", "開始日時：2014/10/12 14:46:51\n先手：sente\n"
	    "\n▲７六歩    △３四歩    ▲２二角成\nまで3手で中断\n", 90, 100 },
	{ "moves only", "▲７六歩 △３四歩 ▲２六歩\n", 75, 100 },
	{ "#KI2 line", "#KI2 version=2.0 encoding=UTF-8\n手合割：平手\n", 50,
	    100 },
	{ "headers only", "先手：a\n後手：b\n", 10, 30 },
	{ "a KIF record", "手合割：平手\n手数----指手---------消費時間--\n"
	    "   1 ７六歩(77)   ( 0:00/00:00:00)\n", 0, 0 },
	{ "a CSA record", "V2.2\nN+a\nN-b\nPI\n+\n+7776FU\n", 0, 0 },
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
	score = ki2_detect(&s.t);
	if (score < c->min || score > c->max)
		fail_msg("score %d, expected %d..%d", score, c->min, c->max);
	session_close(&s);
}

/* ---- tokens ---- */

struct token_case {
	const char *name;
	const char *token;
	unsigned flags;
	unsigned rel;
	int from, to;
	enum piece_type piece;
	int color;
	int warn_col;		/* a syntax warning at this column; 0 none */
};

static const struct token_case token_cases[] = {
	{ "▲", "▲７六歩", 0, 0, NO, SQ(7, 6), PT_PAWN, BLACK, 0 },
	{ "△", "△３四歩", 0, 0, NO, SQ(3, 4), PT_PAWN, WHITE, 0 },
	{ "▼", "▼７六歩", 0, 0, NO, SQ(7, 6), PT_PAWN, BLACK, 0 },
	{ "▽", "▽３四歩", 0, 0, NO, SQ(3, 4), PT_PAWN, WHITE, 0 },
	{ "☗", "☗７六歩", 0, 0, NO, SQ(7, 6), PT_PAWN, BLACK, 0 },
	{ "☖", "☖３四歩", 0, 0, NO, SQ(3, 4), PT_PAWN, WHITE, 0 },
	{ "full-width digits", "▲７６歩", 0, 0, NO, SQ(7, 6), PT_PAWN, BLACK,
	    0 },
	{ "ASCII digits", "▲76歩", 0, 0, NO, SQ(7, 6), PT_PAWN, BLACK, 0 },
	{ "同 and U+3000", "▲同　歩", SPEC_SAME, 0, NO, NO, PT_PAWN, BLACK, 0 },
	{ "同 alone", "▲同歩", SPEC_SAME, 0, NO, NO, PT_PAWN, BLACK, 0 },
	{ "右", "▲５七銀右", 0, REL_RIGHT, NO, SQ(5, 7), PT_SILVER, BLACK, 0 },
	{ "左", "▲５七銀左", 0, REL_LEFT, NO, SQ(5, 7), PT_SILVER, BLACK, 0 },
	{ "直", "▲５七銀直", 0, REL_STRAIGHT, NO, SQ(5, 7), PT_SILVER, BLACK,
	    0 },
	{ "上", "▲５七銀上", 0, REL_UP, NO, SQ(5, 7), PT_SILVER, BLACK, 0 },
	{ "寄", "△４二金寄", 0, REL_SIDEWAYS, NO, SQ(4, 2), PT_GOLD, WHITE, 0 },
	{ "引", "▲７八馬引", 0, REL_DOWN, NO, SQ(7, 8), PT_HORSE, BLACK, 0 },
	{ "左上", "▲５五金左上", 0, REL_LEFT | REL_UP, NO, SQ(5, 5), PT_GOLD,
	    BLACK, 0 },
	{ "行 is 上", "▲２一龍行", 0, REL_UP, NO, SQ(2, 1), PT_DRAGON, BLACK,
	    0 },
	{ "入 is 上", "▲２一馬入", 0, REL_UP, NO, SQ(2, 1), PT_HORSE, BLACK, 0 },
	{ "成", "▲２二角成", SPEC_PROMOTE, 0, NO, SQ(2, 2), PT_BISHOP, BLACK,
	    0 },
	{ "不成", "▲２四銀不成", SPEC_NO_PROMOTE, 0, NO, SQ(2, 4), PT_SILVER,
	    BLACK, 0 },
	{ "生 is 不成", "▲２四銀生", SPEC_NO_PROMOTE, 0, NO, SQ(2, 4),
	    PT_SILVER, BLACK, 5 },
	{ "打", "▲５五角打", SPEC_DROP, 0, NO, SQ(5, 5), PT_BISHOP, BLACK, 0 },
	{ "words and 不成", "▲５四銀右引不成", SPEC_NO_PROMOTE,
	    REL_RIGHT | REL_DOWN, NO, SQ(5, 4), PT_SILVER, BLACK, 0 },
	{ "同 and 不成", "▲同　銀不成", SPEC_SAME | SPEC_NO_PROMOTE, 0, NO, NO,
	    PT_SILVER, BLACK, 0 },
	{ "同 and words", "▲同銀引", SPEC_SAME, REL_DOWN, NO, NO, PT_SILVER,
	    BLACK, 0 },
	{ "an old origin", "▲７六歩(77)", 0, 0, SQ(7, 7), SQ(7, 6), PT_PAWN,
	    BLACK, 0 },
	{ "成香", "▲８一成香", 0, 0, NO, SQ(8, 1), PT_PRO_LANCE, BLACK, 0 },
	{ "圭", "▲８一圭", 0, 0, NO, SQ(8, 1), PT_PRO_KNIGHT, BLACK, 0 },
	{ "竜", "△６六竜", 0, 0, NO, SQ(6, 6), PT_DRAGON, WHITE, 0 },
	{ "王", "△５二王", 0, 0, NO, SQ(5, 2), PT_KING, WHITE, 0 },
	{ "square and 同 (print)", "▲３三同金", 0, 0, NO, SQ(3, 3), PT_GOLD,
	    BLACK, 2 },
};

#define N_TOKEN_CASES (sizeof(token_cases) / sizeof(token_cases[0]))

static void
test_token_case(void **state)
{
	const struct token_case *c = *state;
	struct strbuf src = STRBUF_INIT;
	const struct record_node *nd;
	struct session s;

	strbuf_addf(&src, "先手：a\n\n%s\n", c->token);
	read_ok(&s, src.buf);
	if (c->warn_col) {
		assert_int_equal(s.d.n, 1);
		assert_diag(&s.d, DIAG_WARNING, DIAG_SYNTAX, 3,
		    (unsigned)c->warn_col);
	} else {
		assert_no_diags(&s.d);
	}
	assert_int_equal(main_len(&s.r), 1);
	nd = &s.r.nodes[nth(&s.r, 1)];
	assert_int_equal(nd->special, SP_NONE);
	assert_int_equal(nd->spec.flags, c->flags);
	assert_int_equal(nd->spec.rel, c->rel);
	assert_int_equal(nd->spec.from, c->from);
	assert_int_equal(nd->spec.to, c->to);
	assert_int_equal(nd->spec.piece, c->piece);
	assert_int_equal(nd->spec.color, c->color);
	assert_string_equal(raw_of(&s.r, nth(&s.r, 1)), c->token);
	assert_int_equal(nd->loc.line, 3);
	assert_int_equal(nd->loc.col, 1);
	session_close(&s);
	strbuf_release(&src);
}

static void
test_ki2_lines_of_tokens(void **state)
{
	struct session s;
	int32_t i;

	(void)state;
	/* Kifu for Windows pads to 12 columns; a long move meets the next. */
	read_ok(&s,
	    "▲７六歩    △３四歩    ▲２六歩    △８四歩    ▲２五歩    △８五歩\n"
	    "▲７八金 △３二金 ▲２四歩　△同　歩▲同　飛△２三歩\n"
	    "  ▲２八飛\t△６二銀  \n");
	assert_no_diags(&s.d);
	assert_int_equal(main_len(&s.r), 14);
	for (i = 1; i <= 14; i++)
		assert_int_equal(s.r.nodes[nth(&s.r, i)].spec.color,
		    (i - 1) % 2);
	assert_string_equal(raw_of(&s.r, nth(&s.r, 10)), "△同　歩");
	assert_int_equal(s.r.nodes[nth(&s.r, 10)].loc.line, 2);
	assert_int_equal(s.r.nodes[nth(&s.r, 10)].loc.col, 16);
	assert_int_equal(s.r.nodes[nth(&s.r, 11)].loc.col, 20);
	assert_int_equal(s.r.nodes[nth(&s.r, 12)].loc.col, 24);
	assert_int_equal(s.r.nodes[nth(&s.r, 13)].loc.col, 3);
	assert_int_equal(s.r.nodes[nth(&s.r, 14)].loc.col, 8);
	replay_ok(&s.r, &s.d);
	assert_int_equal(move_from(s.r.nodes[nth(&s.r, 11)].mv), SQ(2, 8));
	session_close(&s);
	/* pyogi: "▲５一銀不成△８八と" */
	read_ok(&s, "▲７六歩    △３四歩    ▲２二角成  △同　銀    "
	    "▲５五角    △４二銀不成▲１一角成\n");
	assert_no_diags(&s.d);
	assert_int_equal(main_len(&s.r), 7);
	assert_string_equal(raw_of(&s.r, nth(&s.r, 6)), "△４二銀不成");
	assert_string_equal(raw_of(&s.r, nth(&s.r, 7)), "▲１一角成");
	session_close(&s);
}

static void
test_ki2_resolves(void **state)
{
	struct session s;
	struct replay rp;

	(void)state;
	/* No origins: replay finds the piece, the drop, 同 and the side. */
	read_ok(&s, "手合割：平手\n"
	    "▲７六歩 △３四歩 ▲２二角成 △同　銀 ▲４五角 △６二銀\n"
	    "▲３四角 △３三銀\nまで8手で後手の勝ち\n");
	assert_no_diags(&s.d);
	assert_int_equal(replay_record(&s.r, &rp, &s.d), 0);
	assert_int_equal(rp.moves, 8);
	assert_int_equal(move_from(s.r.nodes[nth(&s.r, 1)].mv), SQ(7, 7));
	assert_int_equal(move_to(s.r.nodes[nth(&s.r, 4)].mv), SQ(2, 2));
	assert_int_equal(move_from(s.r.nodes[nth(&s.r, 4)].mv), SQ(3, 1));
	/* ４五角: no bishop on the board reaches 4五, so it is a drop. */
	assert_true(move_is_drop(s.r.nodes[nth(&s.r, 5)].mv));
	assert_int_equal(move_from(s.r.nodes[nth(&s.r, 8)].mv), SQ(2, 2));
	assert_int_equal(rp.terminal, nth(&s.r, 9));
	assert_int_equal(s.r.nodes[rp.terminal].special, SP_RESIGN);
	session_close(&s);
}

/* ---- errors ---- */

struct error_case {
	const char *name;
	const char *text;
	enum diag_id id;
	unsigned line, col;
};

static const struct error_case error_cases[] = {
	{ "junk between moves", "▲７六歩x△３四歩\n", DIAG_SYNTAX, 1, 5 },
	{ "a second piece", "▲７六歩歩\n", DIAG_SYNTAX, 1, 5 },
	{ "合", "先手：a\n▲７六歩 △３四歩 ▲２三合\n", DIAG_SYNTAX, 2, 14 },
	{ "a word that is no move", "▲７六歩 △何か\n", DIAG_SYNTAX, 1, 7 },
	{ "no piece", "▲７六\n", DIAG_SYNTAX, 1, 4 },
	{ "a word twice", "▲５七銀右右\n", DIAG_SYNTAX, 1, 6 },
	{ "no mark", "▲７六歩\n３四歩\n", DIAG_SYNTAX, 2, 1 },
	{ "no mark, 同", "▲７六歩\n同　歩\n", DIAG_SYNTAX, 2, 1 },
	{ "an unknown line between moves", "▲７六歩\n後手時間切れ\n△３四歩\n",
	    DIAG_SYNTAX, 2, 1 },
	{ "an unknown line before a variation", "▲７六歩\nまで1手で中断\n"
	    "後手時間切れ\n変化：1手\n▲２六歩\n", DIAG_SYNTAX, 3, 1 },
	{ "変化 past the まで line's terminal", "▲７六歩\nまで1手で先手の勝ち\n"
	    "変化：3手\n▲２六歩\n", DIAG_SYNTAX, 3, 1 },
	{ "a bad origin", "▲７六歩(7x)\n", DIAG_SYNTAX, 1, 7 },
	{ "変化 without 手 (fork01.ki2)", "▲７六歩 △３四歩\n変化：   2\n"
	    "△８四歩\n", DIAG_SYNTAX, 2, 8 },
	{ "変化 without a number (fork02.ki2)", "▲７六歩\n変化：\n",
	    DIAG_SYNTAX, 2, 4 },
	{ "変化 with junk (fork03.ki2)", "▲７六歩\n変化：   1手です\n",
	    DIAG_SYNTAX, 2, 9 },
};

#define N_ERROR_CASES (sizeof(error_cases) / sizeof(error_cases[0]))

static void
test_error_case(void **state)
{
	const struct error_case *c = *state;

	read_fails(c->text, c->id, c->line, c->col);
}

/* ---- terminals ---- */

struct summary_case {
	const char *summary;	/* after ▲７六歩 △３四歩 ▲２六歩 */
	enum special sp;	/* the terminal made; SP_NONE: none */
	enum winner winner;
	enum reason reason;
};

static const struct summary_case summary_cases[] = {
	{ "まで3手で先手の勝ち", SP_RESIGN, WINNER_BLACK, REASON_RESIGN },
	{ "まで3手で後手の勝ち", SP_NONE, WINNER_WHITE, REASON_RESIGN },
	{ "まで3手で中断", SP_ABORT, WINNER_NONE, REASON_ABORT },
	{ "まで3手で時間切れにより先手の勝ち", SP_TIME_UP, WINNER_BLACK,
	    REASON_TIME_UP },
	{ "まで3手で時間切れにより後手の勝ち", SP_NONE, WINNER_WHITE,
	    REASON_TIME_UP },
	{ "まで3手で後手の反則勝ち", SP_ILLEGAL_WIN, WINNER_WHITE,
	    REASON_ILLEGAL_MOVE },
	{ "まで3手で先手の反則勝ち", SP_ILLEGAL_MOVE, WINNER_BLACK,
	    REASON_ILLEGAL_MOVE },
	{ "まで3手で後手の反則負け", SP_ILLEGAL_MOVE, WINNER_BLACK,
	    REASON_ILLEGAL_MOVE },
	{ "まで3手で先手の反則負け", SP_ILLEGAL_WIN, WINNER_WHITE,
	    REASON_ILLEGAL_MOVE },
	{ "まで3手で後手の入玉勝ち", SP_DECLARATION, WINNER_WHITE,
	    REASON_DECLARATION },
	{ "まで3手で先手の入玉勝ち", SP_NONE, WINNER_BLACK, REASON_DECLARATION },
	{ "まで3手で入玉宣言", SP_DECLARATION, WINNER_WHITE,
	    REASON_DECLARATION },
	{ "まで3手で持将棋", SP_IMPASSE, WINNER_NONE, REASON_IMPASSE },
	{ "まで3手で千日手", SP_SENNICHITE, WINNER_NONE, REASON_SENNICHITE },
	{ "まで3手詰", SP_MATE, WINNER_BLACK, REASON_CHECKMATE },
	{ "まで3手で詰み", SP_MATE, WINNER_BLACK, REASON_CHECKMATE },
	{ "まで3手で不詰", SP_NO_MATE, WINNER_NONE, REASON_UNFINISHED },
	{ "まで3手で封じ手", SP_SEALED, WINNER_NONE, REASON_UNFINISHED },
	{ "まで3手で最大手数", SP_MAX_MOVES, WINNER_NONE, REASON_MAX_MOVES },
	{ "まで３手で中断", SP_ABORT, WINNER_NONE, REASON_ABORT },
	{ "まで3手で▲の勝ち", SP_RESIGN, WINNER_BLACK, REASON_RESIGN },
};

#define N_SUMMARY_CASES (sizeof(summary_cases) / sizeof(summary_cases[0]))

static void
test_summary_case(void **state)
{
	const struct summary_case *c = *state;
	struct strbuf src = STRBUF_INIT;
	struct session s;
	int32_t end;

	strbuf_addf(&src, "▲７六歩    △３四歩    ▲２六歩\n%s\n", c->summary);
	read_ok(&s, src.buf);
	assert_no_diags(&s.d);
	assert_recorded(&s.r, c->winner, c->reason, 3);
	assert_string_equal(record_str(&s.r, s.r.recorded_raw), c->summary);
	end = record_main_end(&s.r);
	assert_int_equal(s.r.nodes[end].special, c->sp);
	if (c->sp != SP_NONE) {
		assert_int_equal(s.r.nodes[end].ply, 4);
		assert_string_equal(raw_of(&s.r, end), c->summary);
		assert_int_equal(s.r.nodes[end].loc.line, 2);
	} else {
		assert_int_equal(main_len(&s.r), 3);
	}
	session_close(&s);
	strbuf_release(&src);
}

static void
test_ki2_handicap_summary(void **state)
{
	struct session s;
	struct replay rp;

	(void)state;
	/* 8mai.ki2: White (上手) first; 下手 is Black. */
	read_ok(&s, "手合割：八枚落ち\n下手：shitate\n上手：uwate\n\n"
	    "△７二金    ▲７六歩    △３二金\nまで3手で下手の勝ち\n");
	assert_no_diags(&s.d);
	assert_start(&s.r,
	    "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
	assert_recorded(&s.r, WINNER_BLACK, REASON_RESIGN, 3);
	/* Black to move at slot 4: a Black win there is no resignation. */
	assert_int_equal(main_len(&s.r), 3);
	session_close(&s);
	read_ok(&s, "手合割：八枚落ち\n\n△７二金    ▲７六歩\n"
	    "まで2手で下手の勝ち\n");
	assert_no_diags(&s.d);
	assert_int_equal(replay_record(&s.r, &rp, &s.d), 0);
	assert_int_equal(s.r.nodes[rp.terminal].special, SP_RESIGN);
	assert_int_equal(replay_side_at(&s.r, rp.terminal), WHITE);
	session_close(&s);
}

/* KI2 shares KIF's head: 盤面回転 / 盤面反転 are the flipped flag. */
static void
test_ki2_flipped(void **state)
{
	struct session s;

	(void)state;
	read_ok(&s, "先手：a\n盤面反転\n\n▲７六歩    △３四歩\n"
	    "まで2手で中断\n");
	assert_no_diags(&s.d);
	assert_true(s.r.flipped);
	assert_int_equal(s.r.flipped_loc.line, 2);
	assert_int_equal(main_len(&s.r), 3);
	session_close(&s);
}

static void
test_ki2_summary_count(void **state)
{
	struct session s;

	(void)state;
	read_ok(&s, "▲７六歩\nまで2手で中断\n");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_RESULT_MISMATCH, 2, 1);
	assert_int_equal(s.r.nodes[nth(&s.r, 2)].special, SP_ABORT);
	session_close(&s);
}

static void
test_ki2_pseudo_moves(void **state)
{
	struct session s;

	(void)state;
	/* shogidb2 writes the terminal in the stream. */
	read_ok(&s, "▲７六歩 △３四歩 ▲投了\nまで2手で後手の勝ち\n");
	assert_no_diags(&s.d);
	assert_int_equal(main_len(&s.r), 3);
	assert_int_equal(s.r.nodes[nth(&s.r, 3)].special, SP_RESIGN);
	assert_string_equal(raw_of(&s.r, nth(&s.r, 3)), "▲投了");
	assert_recorded(&s.r, WINNER_WHITE, REASON_RESIGN, 2);
	session_close(&s);
	/* The まで line is checked against it. */
	read_ok(&s, "▲７六歩 △３四歩 ▲投了\nまで2手で先手の勝ち\n");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_RESULT_MISMATCH, 2, 1);
	session_close(&s);
	/* Moves after it are left out, with one warning. */
	read_ok(&s, "▲７六歩 △千日手 ▲２六歩 △８四歩\n▲２五歩\n");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_MOVE_AFTER_END, 1, 11);
	assert_int_equal(main_len(&s.r), 2);
	assert_int_equal(s.r.nodes[nth(&s.r, 2)].special, SP_SENNICHITE);
	session_close(&s);
}

/* ---- comments, headers, variations ---- */

static void
test_ki2_comments(void **state)
{
	struct session s;

	(void)state;
	/* comments.ki2 of ruby-json-kifu-format, and a bookmark. */
	read_ok(&s,
	    "開始日時：2014/10/22 12:28:42\n"
	    "終了日時：2014/10/22 12:28:50\n"
	    "\n"
	    "*コメント\n"
	    "▲７六歩    △３四歩\n"
	    "*コメント2\n"
	    "&しおり\n"
	    "まで2手で先手の反則負け\n"
	    "\n"
	    "変化：   1手\n"
	    "▲２六歩    △９四歩\n"
	    "*コメント3\n"
	    "まで2手で先手の反則勝ち\n");
	assert_no_diags(&s.d);
	assert_string_equal(comment_of(&s.r, 0), "コメント");
	assert_string_equal(comment_of(&s.r, nth(&s.r, 2)), "コメント2");
	assert_string_equal(record_str(&s.r, s.r.nodes[nth(&s.r, 2)].bookmark),
	    "しおり");
	assert_int_equal(s.r.nodes[nth(&s.r, 3)].special, SP_ILLEGAL_MOVE);
	assert_recorded(&s.r, WINNER_WHITE, REASON_ILLEGAL_MOVE, 2);
	assert_int_equal(children(&s.r, 0), 2);
	assert_string_equal(comment_of(&s.r, child(&s.r,
	    child(&s.r, 0, 1), 0)), "コメント3");
	assert_int_equal(s.r.nodes[child(&s.r, child(&s.r, child(&s.r, 0, 1),
	    0), 0)].special, SP_ILLEGAL_WIN);
	session_close(&s);
}

static void
test_ki2_headers(void **state)
{
	struct session s;

	(void)state;
	/* pyogi's files have blank lines inside the header. */
	read_ok(&s, "開始日時：2003/09/08\n棋戦：王位戦\n\n場所：徳島\n"
	    "持ち時間：8時間\n\n▲７六歩    △３四歩\nまで2手で後手の勝ち\n");
	assert_no_diags(&s.d);
	assert_int_equal(s.r.nheaders, 4);
	assert_int_equal(s.r.headers[2].id, HDR_SITE);
	assert_start(&s.r, START_SFEN);
	session_close(&s);
}

static void
test_ki2_board(void **state)
{
	struct session s;

	(void)state;
	/* 9fu.ki2: a board with 上手/下手 labels. */
	read_ok(&s,
	    "手合割：その他　\n上手：uwate\n上手の持駒：銀四　桂四　\n"
	    "  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n"
	    "| ・ ・ ・ ・ ・ ・ ・v歩v玉|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n"
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|九\n+---------------------------+\n"
	    "下手の持駒：飛二　香四　\n下手番\n下手：shitate\n\n"
	    "▲１三香    △１二桂    ▲同香成    △同　玉\n");
	assert_no_diags(&s.d);
	assert_start(&s.r, "7pk/9/9/9/9/9/9/9/9 b 2R4L4s4n 1");
	replay_ok(&s.r, &s.d);
	assert_true(move_is_drop(s.r.nodes[nth(&s.r, 1)].mv));
	assert_int_equal(move_from(s.r.nodes[nth(&s.r, 3)].mv), SQ(1, 3));
	session_close(&s);
}

/* fork.ki2 of json-kifu-format. */
static const char fork_ki2[] =
	"開始日時：2014/10/16 03:21:41\n"
	"終了日時：2014/10/18 18:46:58\n"
	"\n"
	"▲７六歩    △３四歩    ▲２六歩\n"
	"まで3手で先手の勝ち\n"
	"\n"
	"変化：   3手\n"
	"▲７五歩\n"
	"まで3手で中断\n"
	"\n"
	"変化：   2手\n"
	"△８四歩    ▲６八銀\n"
	"まで3手で持将棋\n"
	"\n"
	"変化：   3手\n"
	"▲２六歩\n"
	"まで3手で時間切れにより先手の勝ち\n"
	"\n"
	"変化：   1手\n"
	"▲２六歩    △３四歩    ▲２五歩\n"
	"まで3手で後手の反則勝ち\n"
	"\n"
	"変化：   3手\n"
	"▲７六歩\n"
	"まで3手で千日手\n"
	"\n"
	"変化：   2手\n"
	"△８四歩    ▲２五歩\n"
	"まで3手で詰\n"
	"\n"
	"変化：   3手\n"
	"▲７六歩\n"
	"まで3手で不詰\n";

static void
test_ki2_variations(void **state)
{
	struct session s;
	int32_t m1, m2, a2, v1, b2;

	(void)state;
	read_ok(&s, fork_ki2);
	assert_no_diags(&s.d);
	assert_int_equal(main_len(&s.r), 4);
	assert_int_equal(s.r.nodes[nth(&s.r, 4)].special, SP_RESIGN);
	assert_recorded(&s.r, WINNER_BLACK, REASON_RESIGN, 3);
	m1 = nth(&s.r, 1);
	m2 = nth(&s.r, 2);
	a2 = child(&s.r, m1, 1);
	v1 = child(&s.r, 0, 1);
	b2 = child(&s.r, v1, 1);
	assert_int_equal(children(&s.r, 0), 2);
	assert_int_equal(children(&s.r, m1), 2);
	assert_int_equal(children(&s.r, m2), 2);
	assert_int_equal(children(&s.r, a2), 2);
	assert_int_equal(children(&s.r, v1), 2);
	assert_string_equal(raw_of(&s.r, a2), "△８四歩");
	assert_string_equal(raw_of(&s.r, b2), "△８四歩");
	/* Each まで ends its own line with the terminal it means. */
	assert_int_equal(s.r.nodes[child(&s.r, child(&s.r, m2, 1), 0)].special,
	    SP_ABORT);
	assert_int_equal(s.r.nodes[child(&s.r, child(&s.r, a2, 0), 0)].special,
	    SP_IMPASSE);
	assert_int_equal(s.r.nodes[child(&s.r, child(&s.r, a2, 1), 0)].special,
	    SP_TIME_UP);
	assert_int_equal(s.r.nodes[child(&s.r, child(&s.r,
	    child(&s.r, v1, 0), 0), 0)].special, SP_ILLEGAL_WIN);
	assert_int_equal(s.r.nodes[child(&s.r, child(&s.r,
	    child(&s.r, v1, 0), 1), 0)].special, SP_SENNICHITE);
	assert_int_equal(s.r.nodes[child(&s.r, child(&s.r, b2, 0), 0)].special,
	    SP_MATE);
	assert_int_equal(s.r.nodes[child(&s.r, child(&s.r, b2, 1), 0)].special,
	    SP_NO_MATE);
	replay_ok(&s.r, &s.d);
	session_close(&s);
}

static void
test_ki2_variation_same_square(void **state)
{
	struct session s;
	int32_t v3, v4;

	(void)state;
	read_ok(&s, "▲７六歩 △３四歩 ▲２六歩\n変化：3手\n▲２二角成 △同　銀\n");
	assert_no_diags(&s.d);
	v3 = child(&s.r, nth(&s.r, 2), 1);
	v4 = child(&s.r, v3, 0);
	replay_ok(&s.r, &s.d);
	assert_int_equal(move_to(s.r.nodes[v4].mv), SQ(2, 2));
	assert_int_equal(move_from(s.r.nodes[v4].mv), SQ(3, 1));
	session_close(&s);
}

/* ---- lines after the game, 同歩打, a 変化 that continues ---- */

static void
test_ki2_after_the_game(void **state)
{
	struct session s;

	(void)state;
	/* Before the まで line, which still ends the line. */
	read_ok(&s, "先手：a\n\n▲７六歩    △３四歩\n後手時間切れ\n"
	    "まで2手で後手の勝ち\n  \n");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_UNKNOWN_LINE, 4, 1);
	assert_int_equal(s.r.nodes[nth(&s.r, 3)].special, SP_RESIGN);
	assert_recorded(&s.r, WINNER_WHITE, REASON_RESIGN, 2);
	assert_int_equal(s.r.nheaders, 2);
	assert_string_equal(record_str(&s.r, s.r.headers[1].key),
	    "後手時間切れ");
	assert_int_equal(s.r.headers[1].id, HDR_RAW);
	session_close(&s);
	/* A clipboard export: a rule and a banner after the まで line. */
	read_ok(&s, "▲７六歩    △３四歩\nまで2手で後手の勝ち\n"
	    "------------------------------\n"
	    "    generated by 激指定跡道場4\n\n");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_UNKNOWN_LINE, 4, 5);
	assert_int_equal(s.r.nheaders, 2);
	session_close(&s);
}

static void
test_ki2_drop_onto_same(void **state)
{
	struct session s;
	struct replay rp;
	const struct record_node *nd;

	(void)state;
	read_ok(&s, "▲２六歩    △３四歩    ▲２五歩    △８四歩    "
	    "▲２四歩    △同　歩\n▲同　飛    △同歩打\n");
	assert_no_diags(&s.d);
	nd = &s.r.nodes[nth(&s.r, 8)];
	assert_int_equal(nd->spec.flags, SPEC_SAME | SPEC_DROP);
	assert_int_equal(nd->spec.piece, PT_PAWN);
	assert_int_equal(replay_record(&s.r, &rp, &s.d), 1);
	assert_finding(&s.d, RULE_OCCUPIED, 2, 9, 8);
	session_close(&s);
}

static void
test_ki2_variation_continues(void **state)
{
	struct session s;

	(void)state;
	read_ok(&s, "▲７六歩    △３四歩    ▲２二角成  △同　銀\n\n"
	    "変化：5手\n▲４五角    △５二金右  ▲３四角\nまで7手で先手の勝ち\n");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_SYNTAX, 3, 1);
	assert_int_equal(main_len(&s.r), 8);
	assert_recorded(&s.r, WINNER_BLACK, REASON_RESIGN, 7);
	replay_ok(&s.r, &s.d);
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
		(void)ki2_detect(&t);
		reader_init(&rd, &t, variant_standard());
		record_init(&r, variant_standard());
		for (k = 0; k < 3; k++) {
			struct replay rp;
			enum read_status rs = ki2_read(&rd, &r, &d);

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
test_ki2_hostile(void **state)
{
	static const char *const bits[] = {
		"▲", "△", "☗", " ", "　", "7", "７", "六", "同", "歩", "銀",
		"右", "左", "直", "上", "寄", "引", "行", "生", "成", "不成",
		"打", "合", "(", ")", "77", "\n", "\n", "投了", "まで", "手で",
		"先手の", "勝ち", "変化：", "手", "*", "&", "#", "\xe3", "九",
	};
	static const char base[] = "手合割：平手\n先手：a\n\n"
	    "▲７六歩    △３四歩    ▲２二角成  △同　銀    ▲４五角\n*c\n"
	    "△５二金右  ▲３四角\nまで7手で先手の勝ち\n\n変化：   2手\n"
	    "△８四歩\nまで2手で中断\n";
	char buf[512];
	uint32_t seed = 777;
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
test_ki2_long_line_is_linear(void **state)
{
	struct strbuf src = STRBUF_INIT;
	struct session s;
	int i;

	(void)state;
	/* One line of 200000 moves, nothing between them. */
	for (i = 0; i < 100000; i++)
		strbuf_adds(&src, "▲２八飛△８二飛");
	strbuf_adds(&src, "\n");
	read_unlimited(&s, ki2_read, src.buf);
	assert_no_diags(&s.d);
	assert_int_equal(main_len(&s.r), 200000);
	assert_int_equal(s.r.nodes[nth(&s.r, 200000)].loc.col,
	    1 + 199999 * 4);
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

#define JKF "testdata/ki2/json-kifu-format/test/files/ki2/"

static const struct file_case file_cases[] = {
	{ JKF "fork.ki2", "CP932", 3, SP_RESIGN, 7, 1, WINNER_BLACK,
	    REASON_RESIGN },
	{ JKF "20091203.ki2", "CP932", 172, SP_RESIGN, 0, 1, WINNER_WHITE,
	    REASON_RESIGN },
	{ JKF "9fu.ki2", "CP932", 61, SP_MATE, 0, 1, WINNER_BLACK,
	    REASON_CHECKMATE },
	{ JKF "8mai.ki2u", "UTF-8", 25, SP_ABORT, 0, 1, WINNER_NONE,
	    REASON_ABORT },
	{ JKF "fuujite.ki2u", "UTF-8", 2, SP_SEALED, 0, 1, WINNER_NONE,
	    REASON_UNFINISHED },
	{ JKF "kobayashi_kinsho196702.ki2", "CP932", 49, SP_MATE, 0, 1,
	    WINNER_BLACK, REASON_CHECKMATE },
	{ JKF "noeol.ki2", "CP932", 3, SP_ABORT, 0, 1, WINNER_NONE,
	    REASON_ABORT },
	{ "testdata/ki2/pyogi-2chkifu-sample/data/00002.KI2", "CP932", 126,
	    SP_RESIGN, 0, 1, WINNER_WHITE, REASON_RESIGN },
	{ "testdata/ki2/shogi-kifu-converter/data/tests/ki2/4.ki2", "CP932",
	    102, SP_RESIGN, 0, 1, WINNER_BLACK, REASON_RESIGN },
	{ "testdata/ki2/mog-core-scala/ki2/game/001.ki2", "UTF-8", 111,
	    SP_RESIGN, 0, 1, WINNER_BLACK, REASON_RESIGN },
	{ "testdata/ki2/shogihome/testdata/encoding/utf8.ki2", "UTF-8", 4,
	    SP_NONE, 0, 0, WINNER_NONE, REASON_UNFINISHED },
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
	s.read = ki2_read;
	assert_true(ki2_detect(&s.t) >= 75);
	assert_true(kif_detect(&s.t) <= 5);
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
	assert_int_equal(rp.moves, c->moves);
	assert_int_equal(rp.variation_errors, 0);
	assert_int_equal(session_next(&s), READ_EOF);
	session_close(&s);
	free(buf);
}

/* ---- the test list ---- */

#define N_FIXED 16
#define N_TESTS (N_FIXED + N_DETECT_CASES + N_TOKEN_CASES + N_ERROR_CASES + \
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
		cmocka_unit_test(test_ki2_lines_of_tokens),
		cmocka_unit_test(test_ki2_resolves),
		cmocka_unit_test(test_ki2_handicap_summary),
		cmocka_unit_test(test_ki2_flipped),
		cmocka_unit_test(test_ki2_summary_count),
		cmocka_unit_test(test_ki2_pseudo_moves),
		cmocka_unit_test(test_ki2_comments),
		cmocka_unit_test(test_ki2_headers),
		cmocka_unit_test(test_ki2_board),
		cmocka_unit_test(test_ki2_variations),
		cmocka_unit_test(test_ki2_variation_same_square),
		cmocka_unit_test(test_ki2_after_the_game),
		cmocka_unit_test(test_ki2_drop_onto_same),
		cmocka_unit_test(test_ki2_variation_continues),
		cmocka_unit_test(test_ki2_hostile),
		cmocka_unit_test(test_ki2_long_line_is_linear),
	};
	size_t i, n = 0;

	_Static_assert(sizeof(fixed) / sizeof(fixed[0]) == N_FIXED,
	    "N_FIXED is the length of fixed[]");
	core_init();
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		tests[n++] = fixed[i];
	ADD("detect", test_detect_case, detect_cases, N_DETECT_CASES);
	ADD("token", test_token_case, token_cases, N_TOKEN_CASES);
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
	return cmocka_run_group_tests_name("parsers/ki2", tests, NULL, NULL);
}
