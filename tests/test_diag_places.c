/*
 * Where diagnostics point (issue 8): for every format kifu reads, for
 * replay and for decoding, a sample whose offending token sits in the
 * middle of a line of full-width text, and the exact id, line, column
 * and ply a user would expect.
 *
 * Columns count code points of the decoded line (core/diag.h), so "　"
 * (U+3000) and "７" are one column each, never three. Besides the place,
 * each parser case says which text the diagnostic's byte offset must
 * start with: the column and the byte then have to agree on the same
 * character, the first one of the offending token (or the first
 * character that does not fit in it, where the parser says which).
 *
 * JKF is parsed by jansson, which keeps no places: what the reader finds
 * in the tree carries the JSON path in its message, and its place is the
 * first character of the value that path names, found in the text again
 * (parsers/jsonplace.c); a move's place, for replay, is its entry's.
 */
#include <stdio.h>
#include <stdlib.h>

#include "reading.h"
#include "core/core.h"
#include "core/limit.h"
#include "core/replay.h"
#include "core/rules.h"
#include "parsers/jkf.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

struct place_case {
	const char *name;
	read_fn read;
	const char *text;
	int replay;		/* replay the record (which must read) */
	const struct limits *lim;	/* NULL: limits_default */
	enum diag_severity sev;
	enum diag_id id;	/* used when rule is RULE_OK */
	enum rule_id rule;	/* a replay finding */
	unsigned line, col;
	int ply;
	const char *at;		/* the text at the diagnostic's byte */
	const char *path;	/* JKF: the path its message names */
};

/* The id a case expects, as diagnostics carry it. */
static const char *
case_id(const struct place_case *c)
{
	return c->rule != RULE_OK ? rule_id_name(c->rule) : diag_id_name(c->id);
}

/* The diagnostic of that severity, id and place; NULL if there is none. */
static const struct diag *
find_diag(const struct diag_list *d, enum diag_severity sev, const char *id,
    unsigned line, unsigned col)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (!strcmp(d->v[i].id, id) && d->v[i].severity == sev &&
		    d->v[i].loc.line == line && d->v[i].loc.col == col)
			return &d->v[i];
	return NULL;
}

/* Fails unless every message is UTF-8: quotes never split a character. */
static void
assert_messages_utf8(const struct diag_list *d)
{
	size_t i, j, n, k;

	for (i = 0; i < d->n; i++)
		for (j = 0, n = strlen(d->v[i].message); j < n; j += k)
			if (!(k = utf8_valid_seq((const unsigned char *)
			    d->v[i].message + j, n - j)))
				fail_msg("message '%s' splits a character",
				    d->v[i].message);
}

/*
 * Fails unless the diagnostic the case names is in d, with its ply, and
 * (for a text that was decoded) a byte offset on the same character as
 * its column.
 */
static void
assert_place(const struct place_case *c, const struct text *t,
    const struct diag_list *d)
{
	const struct diag *g;

	assert_messages_utf8(d);
	if (c->rule == RULE_OK)
		assert_diag(d, c->sev, c->id, c->line, c->col);
	if (!(g = find_diag(d, c->sev, case_id(c), c->line, c->col))) {
		dump_diags(d);
		fail_msg("expected '%s' at %u:%u", case_id(c), c->line,
		    c->col);
	}
	if (g->ply != c->ply) {
		dump_diags(d);
		fail_msg("'%s' at %u:%u: ply %d, expected %d", g->id,
		    c->line, c->col, g->ply, c->ply);
	}
	if (c->path) {
		size_t k = strlen(c->path);

		if (strncmp(g->message, c->path, k) != 0 ||
		    strncmp(g->message + k, ": ", 2) != 0)
			fail_msg("'%s' does not name the path '%s'",
			    g->message, c->path);
	}
	if (t && g->loc.line) {
		const struct text_line *ln = &t->lines[g->loc.line - 1];

		assert_true(g->loc.byte >= ln->off);
		assert_true(g->loc.byte <= ln->off + ln->len);
		/* The column and the byte name the same character. */
		assert_int_equal(utf8_count(t->buf + ln->off,
		    g->loc.byte - ln->off) + 1, g->loc.col);
		if (c->at && strncmp(t->buf + g->loc.byte, c->at,
		    strlen(c->at)) != 0)
			fail_msg("%u:%u is at '%.12s', not at '%s'",
			    g->loc.line, g->loc.col, t->buf + g->loc.byte,
			    c->at);
	}
}

static void
test_place_case(void **state)
{
	const struct place_case *c = *state;
	struct session s;
	enum read_status rs;
	struct replay rp;

	session_start_limited(&s, c->read, c->text, strlen(c->text),
	    variant_standard(), c->lim ? c->lim : &limits_default);
	rs = session_next(&s);
	if (c->replay) {
		if (rs != READ_OK) {
			dump_diags(&s.d);
			fail_msg("record does not read (status %d)", (int)rs);
		}
		replay_record(&s.r, &rp, &s.d);
	}
	assert_place(c, &s.t, &s.d);
	session_close(&s);
}

/* ---- KIF ---- */

/* Seven lines of headers: the first move line is line 8. */
#define KIF_HEAD "#KIF version=2.0 encoding=UTF-8\n" \
	"開始日時：2024/07/05 09:00\n" \
	"棋戦：第３７期竜王戦　決勝トーナメント\n" \
	"先手：羽生善治　九段\n" \
	"後手：藤井聡太　竜王\n" \
	"手合割：平手\n" \
	"手数----指手---------消費時間--\n"
#define KIF_1 "   1 ７六歩(77)   ( 0:01/00:00:01)\n"
#define KIF_2 "   2 ３四歩(33)   ( 0:02/00:00:02)\n"
/* A board with the two kings: line 1 is the hand, line 4 the first rank. */
#define BOD_TOP "後手の持駒：なし\n" \
	"  ９ ８ ７ ６ ５ ４ ３ ２ １\n" \
	"+---------------------------+\n" \
	"| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n"

#define KIF(name_, text_, sev_, id_, line_, col_, ply_, at_) \
	{ .name = "kif: " name_, .read = kif_read, .text = text_, \
	  .sev = sev_, .id = id_, .line = line_, .col = col_, .ply = ply_, \
	  .at = at_ }
#define KIF_RULE(name_, text_, rule_, line_, col_, ply_, at_) \
	{ .name = "kif replay: " name_, .read = kif_read, .text = text_, \
	  .replay = 1, .sev = DIAG_ERROR, .rule = rule_, .line = line_, \
	  .col = col_, .ply = ply_, .at = at_ }
#define KIF_REPLAY(name_, text_, id_, line_, col_, ply_, at_) \
	{ .name = "kif replay: " name_, .read = kif_read, .text = text_, \
	  .replay = 1, .sev = DIAG_ERROR, .id = id_, .line = line_, \
	  .col = col_, .ply = ply_, .at = at_ }

static const struct place_case kif_cases[] = {
	KIF("a remark after the time field", KIF_HEAD KIF_1
	    "   2 ３四歩(33)   ( 0:02/00:00:02)　（好手）\n",
	    DIAG_ERROR, DIAG_SYNTAX, 9, 33, 2, "（好手）"),
	KIF("a bad time after U+3000", KIF_HEAD KIF_1
	    "   2 ３四歩(33)　　( 0:0x/00:00:02)\n",
	    DIAG_ERROR, DIAG_SYNTAX, 9, 20, 2, "x/"),
	KIF("a bad running total", KIF_HEAD KIF_1
	    "   2 ３四歩(33)   ( 0:02/00:0x:02)\n",
	    DIAG_ERROR, DIAG_SYNTAX, 9, 27, 2, "x:02)"),
	KIF("a move number that skips one", KIF_HEAD KIF_1 KIF_2
	    "   4 ２六歩(27)   ( 0:03/00:00:04)\n",
	    DIAG_ERROR, DIAG_SYNTAX, 10, 4, 3, "4 ２六歩"),
	KIF("a piece without a square after ▲", KIF_HEAD KIF_1 KIF_2
	    "   3 ▲金(49)\n",
	    DIAG_ERROR, DIAG_SYNTAX, 10, 7, 3, "金(49)"),
	KIF("合", KIF_HEAD KIF_1 KIF_2 "   3 ５八合\n",
	    DIAG_ERROR, DIAG_SYNTAX, 10, 8, 3, "合"),
	KIF("an origin off the board", KIF_HEAD KIF_1 KIF_2
	    "   3 ２六歩(20)   ( 0:01/00:00:02)\n",
	    DIAG_ERROR, DIAG_SYNTAX, 10, 9, 3, "(20)"),
	KIF("an origin on a drop", KIF_HEAD KIF_1 KIF_2 "   3 ５五歩打(56)\n",
	    DIAG_ERROR, DIAG_SYNTAX, 10, 10, 3, "(56)"),
	KIF("a misspelt piece", KIF_HEAD KIF_1 KIF_2 "   3 ２六步(27)\n",
	    DIAG_ERROR, DIAG_SYNTAX, 10, 8, 3, "步(27)"),
	KIF("an unknown terminal", KIF_HEAD KIF_1 KIF_2
	    "   3 投げ捨て   ( 0:01/00:00:02)\n",
	    DIAG_WARNING, DIAG_SYNTAX, 10, 6, 3, "投げ捨て"),
	KIF("a move after 投了", KIF_HEAD KIF_1 KIF_2 "   3 投了\n"
	    "   4 ２六歩(27)\n",
	    DIAG_WARNING, DIAG_MOVE_AFTER_END, 11, 6, 4, "２六歩(27)"),
	KIF("a running total that does not add up", KIF_HEAD KIF_1
	    "   2 ３四歩(33)   ( 0:02/00:00:09)\n",
	    DIAG_WARNING, DIAG_TIME, 9, 16, 2, "( 0:02/00:00:09)"),
	KIF("an unknown handicap", "先手：羽生善治　九段\n"
	    "手合割：八枚半落ち\n" "手数----指手---------消費時間--\n" KIF_1,
	    DIAG_WARNING, DIAG_UNKNOWN_HANDICAP, 2, 5, 0, "八枚半落ち"),
	KIF("手合割 after the moves", KIF_HEAD KIF_1 KIF_2 "　手合割：香落ち\n",
	    DIAG_WARNING, DIAG_UNKNOWN_HANDICAP, 10, 2, 0, "手合割"),
	KIF("a header without a key", "先手：羽生善治　九段\n　　：藤井聡太\n",
	    DIAG_ERROR, DIAG_SYNTAX, 2, 3, 0, "：藤井聡太"),
	KIF("an unreadable line indented with U+3000", KIF_HEAD KIF_1 KIF_2
	    "　　何か変な行です\n   3 ２六歩(27)\n",
	    DIAG_ERROR, DIAG_SYNTAX, 10, 3, 3, "何か変な行です"),
	KIF("a line after the game", KIF_HEAD KIF_1 KIF_2 "   3 投了\n"
	    "　　後手時間切れ\nまで2手で後手の勝ち\n",
	    DIAG_WARNING, DIAG_UNKNOWN_LINE, 11, 3, 0, "後手時間切れ"),
	KIF("a 変化 that continues a line", KIF_HEAD KIF_1 KIF_2
	    "変化：　３手\n   3 ２六歩(27)\n",
	    DIAG_WARNING, DIAG_SYNTAX, 10, 1, 3, "変化：　３手"),
	KIF("a junk board cell", BOD_TOP
	    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n"
	    "| ・ ・ ・ ・ Ｘ ・ ・ ・ ・|三\n",
	    DIAG_ERROR, DIAG_SYNTAX, 6, 11, 0, "Ｘ ・"),
	KIF("a rank given twice", BOD_TOP "| ・ ・ ・ ・ ・ ・ ・ ・ ・|一\n",
	    DIAG_ERROR, DIAG_BAD_POSITION, 5, 1, 0, "| ・"),
	KIF("a king in hand", "先手の持駒：歩二　角　玉\n" BOD_TOP,
	    DIAG_ERROR, DIAG_BAD_POSITION, 1, 12, 0, "玉"),
	KIF("junk among the pieces in hand", "後手の持駒：歩二、角、Ｘ\n",
	    DIAG_ERROR, DIAG_SYNTAX, 1, 12, 0, "Ｘ"),
	KIF("junk on a 変化 line", KIF_HEAD KIF_1 KIF_2 "変化：２手目\n",
	    DIAG_ERROR, DIAG_SYNTAX, 10, 6, 0, "目"),
	KIF("a 変化 that no line reaches", KIF_HEAD KIF_1 KIF_2
	    "変化：５手\n   5 ２六歩(27)\n",
	    DIAG_ERROR, DIAG_SYNTAX, 10, 1, 5, "変化：５手"),
	KIF("a まで line that miscounts", KIF_HEAD KIF_1 KIF_2
	    "   3 投了\nまで５手で後手の勝ち\n",
	    DIAG_WARNING, DIAG_RESULT_MISMATCH, 11, 1, 3, "まで５手"),
	KIF("a まで line that names the wrong winner", KIF_HEAD KIF_1 KIF_2
	    "   3 投了\n　まで2手で先手の勝ち\n",
	    DIAG_WARNING, DIAG_RESULT_MISMATCH, 11, 2, 3, "まで2手"),
	KIF("an unreadable まで line", KIF_HEAD KIF_1 KIF_2
	    "   3 投了\nまで2手で後手の勝ちです\n",
	    DIAG_WARNING, DIAG_SYNTAX, 11, 1, 0, "まで"),
	KIF("a second bookmark", KIF_HEAD KIF_1 "&序盤\n　　&二つ目\n",
	    DIAG_WARNING, DIAG_SYNTAX, 10, 3, 1, "&二つ目"),
	KIF("junk in the separator", "先手：羽生善治　九段\n"
	    "手数----指手--ｘ--消費時間--\n",
	    DIAG_ERROR, DIAG_SYNTAX, 2, 11, 0, "ｘ"),
	KIF("junk in a 手数＝ line", BOD_TOP "手数＝ｘ　▲７六歩　まで\n",
	    DIAG_ERROR, DIAG_SYNTAX, 5, 4, 0, "ｘ"),
	KIF_RULE("nifu", KIF_HEAD
	    "   1 ２六歩(27)\n   2 ３四歩(33)\n   3 ２五歩(26)\n"
	    "   4 ８四歩(83)\n   5 ２四歩(25)\n   6 同　歩(23)\n"
	    "   7 同　飛(28)\n   8 ８五歩(84)\n"
	    "   9 ７五歩打   ( 0:03/00:00:06)\n",
	    RULE_NIFU, 16, 6, 9, "７五歩打"),
	KIF_RULE("a drop of a piece not in hand", KIF_HEAD KIF_1 KIF_2
	    "   3 ５五歩打(00)\n",
	    RULE_NOT_IN_HAND, 10, 6, 3, "５五歩打(00)"),
	KIF_RULE("an empty origin", KIF_HEAD KIF_1 KIF_2 "   3 ５五歩(56)\n",
	    RULE_NO_PIECE, 10, 6, 3, "５五歩(56)"),
	KIF_RULE("a rook that cannot get there", KIF_HEAD KIF_1 KIF_2
	    "   3 ５五飛(28)\n",
	    RULE_PIECE_MOVEMENT, 10, 6, 3, "５五飛(28)"),
	KIF_RULE("a drop on a piece", KIF_HEAD KIF_1 KIF_2
	    "   3 ２二角成(88)\n   4 同　銀(31)\n   5 ２二角打\n",
	    RULE_OCCUPIED, 12, 6, 5, "２二角打"),
	KIF_RULE("a drop onto 同", KIF_HEAD KIF_1 KIF_2
	    "   3 ２二角成(88)\n   4 同　銀(31)\n   5 同　角打\n",
	    RULE_OCCUPIED, 12, 6, 5, "同　角打"),
	KIF_REPLAY("the wrong side's mark", KIF_HEAD KIF_1
	    "   2 ▲３四歩(33)\n",
	    DIAG_WRONG_SIDE, 9, 7, 2, "３四歩(33)"),
	KIF_REPLAY("two golds fit", KIF_HEAD KIF_1 "   2　５二金\n",
	    DIAG_AMBIGUOUS, 9, 6, 2, "５二金"),
	KIF_REPLAY("同 with no move before", KIF_HEAD
	    "   1 同　歩(77)\n",
	    DIAG_SYNTAX, 8, 6, 1, "同　歩"),
};

/* ---- KI2 ---- */

/* Five lines of headers: the first move line is line 6. */
#define KI2_HEAD "開始日時：2024/07/05 09:00\n" \
	"先手：羽生善治　九段\n" \
	"後手：藤井聡太　竜王\n" \
	"手合割：平手\n" \
	"\n"
#define KI2_12 "▲７六歩    △３四歩    "

static const struct limits two_moves = { 0, 0, 2, 0, 0 };

#define KI2(name_, text_, sev_, id_, line_, col_, ply_, at_) \
	{ .name = "ki2: " name_, .read = ki2_read, .text = KI2_HEAD text_, \
	  .sev = sev_, .id = id_, .line = line_, .col = col_, .ply = ply_, \
	  .at = at_ }
#define KI2_RULE(name_, text_, rule_, line_, col_, ply_, at_) \
	{ .name = "ki2 replay: " name_, .read = ki2_read, \
	  .text = KI2_HEAD text_, .replay = 1, .sev = DIAG_ERROR, \
	  .rule = rule_, .line = line_, .col = col_, .ply = ply_, .at = at_ }
#define KI2_REPLAY(name_, text_, id_, line_, col_, ply_, at_) \
	{ .name = "ki2 replay: " name_, .read = ki2_read, \
	  .text = KI2_HEAD text_, .replay = 1, .sev = DIAG_ERROR, \
	  .id = id_, .line = line_, .col = col_, .ply = ply_, .at = at_ }

static const struct place_case ki2_cases[] = {
	KI2("不 twice in the third move", KI2_12 "▲２二角不不成\n",
	    DIAG_ERROR, DIAG_SYNTAX, 6, 21, 3, "不不成"),
	KI2("生", KI2_12 "▲２二角生\n",
	    DIAG_WARNING, DIAG_SYNTAX, 6, 21, 3, "生"),
	KI2("a square and 同", KI2_12 "▲２二角成    △３三同銀\n",
	    DIAG_WARNING, DIAG_SYNTAX, 6, 27, 4, "３三同銀"),
	KI2("a line after the game", KI2_12 "\n　後手時間切れ\n",
	    DIAG_WARNING, DIAG_UNKNOWN_LINE, 7, 2, 0, "後手時間切れ"),
	KI2("a relative word twice", KI2_12 "▲６八銀右右\n",
	    DIAG_ERROR, DIAG_SYNTAX, 6, 22, 3, "右\n"),
	KI2("a move after △投了", "▲７六歩    △投了    ▲２六歩\n",
	    DIAG_WARNING, DIAG_MOVE_AFTER_END, 6, 16, 3, "▲２六歩"),
	KI2("a remark after the move", KI2_12 "▲２六歩 （定跡）\n",
	    DIAG_ERROR, DIAG_SYNTAX, 6, 22, 3, "（定跡）"),
	KI2("a word that is no move", KI2_12 "▲何か\n",
	    DIAG_ERROR, DIAG_SYNTAX, 6, 18, 3, "何か"),
	KI2("a まで line that miscounts", KI2_12 "▲２六歩\n"
	    "まで4手で先手の勝ち\n",
	    DIAG_WARNING, DIAG_RESULT_MISMATCH, 7, 1, 4, "まで4手"),
	KI2("a second line after U+3000", KI2_12 "▲２二角成\n"
	    "　　△同　銀　　▲５五角打　　△５四歩歩\n",
	    DIAG_ERROR, DIAG_SYNTAX, 7, 20, 6, "歩\n"),
	{ .name = "ki2: over the moves limit", .read = ki2_read,
	  .text = KI2_HEAD KI2_12 "▲２六歩\n", .lim = &two_moves,
	  .sev = DIAG_ERROR, .id = DIAG_LIMIT, .line = 6, .col = 17, .ply = 3,
	  .at = "▲２六歩" },
	KI2_RULE("a rook that cannot get there", KI2_12 "▲２二飛\n",
	    RULE_PIECE_MOVEMENT, 6, 17, 3, "▲２二飛"),
	KI2_RULE("a drop of a piece not in hand", KI2_12 "▲２二角打\n",
	    RULE_NOT_IN_HAND, 6, 17, 3, "▲２二角打"),
	KI2_RULE("a drop onto 同", KI2_12 "▲２二角成    △同　銀    ▲同角打\n",
	    RULE_OCCUPIED, 6, 34, 5, "▲同角打"),
	KI2_RULE("nifu", "▲２六歩    △３四歩    ▲２五歩    △８四歩    "
	    "▲２四歩    △同　歩    ▲同　飛    △８五歩    ▲７五歩打\n",
	    RULE_NIFU, 6, 65, 9, "▲７五歩打"),
	KI2_REPLAY("two golds fit", KI2_12 "▲５八金\n",
	    DIAG_AMBIGUOUS, 6, 17, 3, "▲５八金"),
	KI2_REPLAY("the wrong side's mark", KI2_12 "△２六歩\n",
	    DIAG_WRONG_SIDE, 6, 17, 3, "△２六歩"),
};

/* ---- CSA ---- */

/* Eight lines: names, events, the start and a comment; moves on line 9. */
#define CSA_HEAD "V2.2\n" \
	"N+羽生善治\n" \
	"N-藤井聡太\n" \
	"$EVENT:第３７期竜王戦　決勝トーナメント\n" \
	"$SITE:東京都渋谷区「セルリアンタワー能楽堂」\n" \
	"PI\n" \
	"+\n" \
	"'▲７六歩から始まる\n"
#define ROW1 "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY"

#define CSA(name_, text_, sev_, id_, line_, col_, ply_, at_) \
	{ .name = "csa: " name_, .read = csa_read, .text = text_, \
	  .sev = sev_, .id = id_, .line = line_, .col = col_, .ply = ply_, \
	  .at = at_ }
#define CSA_RULE(name_, text_, rule_, line_, col_, ply_, at_) \
	{ .name = "csa replay: " name_, .read = csa_read, .text = text_, \
	  .replay = 1, .sev = DIAG_ERROR, .rule = rule_, .line = line_, \
	  .col = col_, .ply = ply_, .at = at_ }

static const struct place_case csa_cases[] = {
	CSA("a bad move on a line of three", CSA_HEAD "+7776FU,T12,-33X4FU\n",
	    DIAG_ERROR, DIAG_SYNTAX, 9, 16, 2, "X4FU"),
	CSA("a move cut short", CSA_HEAD "+7776FU,-3334\n",
	    DIAG_ERROR, DIAG_SYNTAX, 9, 14, 2, "\n"),
	CSA("full-width digits in a time", CSA_HEAD "+7776FU,T１２\n",
	    DIAG_WARNING, DIAG_TIME, 9, 9, 1, "T１２"),
	CSA("a time before the first move", CSA_HEAD "T10,+7776FU\n",
	    DIAG_WARNING, DIAG_TIME, 9, 1, 0, "T10"),
	CSA("a terminal in kanji", CSA_HEAD "+7776FU,%投了\n",
	    DIAG_WARNING, DIAG_SYNTAX, 9, 9, 2, "%投了"),
	CSA("a move after %TORYO", CSA_HEAD "+7776FU\n%TORYO\n-3334FU\n",
	    DIAG_WARNING, DIAG_MOVE_AFTER_END, 11, 1, 3, "-3334FU"),
	CSA("a KIF move", CSA_HEAD "  ７六歩\n",
	    DIAG_WARNING, DIAG_UNKNOWN_LINE, 9, 3, 0, "７六歩"),
	CSA("full-width text after a rank", "V2.2\nN+羽生善治\n"
	    ROW1 "　香車,+77X6FU\n",
	    DIAG_WARNING, DIAG_SYNTAX, 3, 30, 0, "　香車"),
	CSA("a bad move after full-width text", "V2.2\nN+羽生善治\n"
	    ROW1 "　香車,+77X6FU\n",
	    DIAG_ERROR, DIAG_SYNTAX, 3, 37, 1, "X6FU"),
	CSA("a kanji piece in a rank", "V2.2\nN+羽生善治\n" ROW1 "\n"
	    "P2 * -飛 *  *  *  *  * -KA * \n",
	    DIAG_ERROR, DIAG_SYNTAX, 4, 7, 0, "飛"),
	CSA("U+3000 between hand pieces", "V2.2\nN+羽生善治\nP+00HI　00KA\n",
	    DIAG_ERROR, DIAG_SYNTAX, 3, 7, 0, "　00KA"),
	CSA("a rank given twice", "V2.2\nN+羽生善治\n" ROW1 "\n" ROW1 "\n",
	    DIAG_ERROR, DIAG_BAD_POSITION, 4, 1, 0, ROW1),
	CSA("an unknown result in a summary", CSA_HEAD "+7776FU,%TORYO\n"
	    "'summary:投了:羽生善治 win:藤井聡太 lose\n",
	    DIAG_WARNING, DIAG_SYNTAX, 10, 1, 0, "'summary:投了"),
	CSA("a record of comments only", "'対局前のコメントだけ\n/\n" CSA_HEAD,
	    DIAG_WARNING, DIAG_EMPTY, 1, 1, 0, "'対局前"),
	CSA_RULE("nifu on a line of nine moves", CSA_HEAD
	    "+2726FU,-3334FU,+2625FU,-8384FU,+2524FU,-2324FU,+2824HI,"
	    "-8485FU,+0075FU\n",
	    RULE_NIFU, 9, 65, 9, "+0075FU"),
	CSA_RULE("a drop of a piece not in hand", CSA_HEAD
	    "+7776FU,-3334FU,+0055KA\n",
	    RULE_NOT_IN_HAND, 9, 17, 3, "+0055KA"),
	{ .name = "csa replay: the wrong side", .read = csa_read,
	  .text = CSA_HEAD "+7776FU,+3334FU\n", .replay = 1,
	  .sev = DIAG_ERROR, .id = DIAG_WRONG_SIDE, .line = 9, .col = 9,
	  .ply = 2, .at = "+3334FU" },
};

/* ---- USI and SFEN ---- */

#define USI_HEAD "# 第３７期竜王戦　羽生善治 対 藤井聡太\n"
#define START "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/"

#define USI(name_, text_, sev_, id_, line_, col_, at_) \
	{ .name = "usi: " name_, .read = usi_read, .text = text_, \
	  .sev = sev_, .id = id_, .line = line_, .col = col_, .at = at_ }
#define USI_RULE(name_, text_, rule_, line_, col_, ply_, at_) \
	{ .name = "usi replay: " name_, .read = usi_read, .text = text_, \
	  .replay = 1, .sev = DIAG_ERROR, .rule = rule_, .line = line_, \
	  .col = col_, .ply = ply_, .at = at_ }

static const struct place_case usi_cases[] = {
	USI("a full-width move", USI_HEAD
	    "position startpos moves 7g7f 3c3d ８h2b+\n",
	    DIAG_ERROR, DIAG_SYNTAX, 2, 35, "８h2b+"),
	USI("a full-width letter in the SFEN", USI_HEAD
	    "position sfen " START "LNSGKGSNＬ b - 1 moves 7g7f\n",
	    DIAG_ERROR, DIAG_SYNTAX, 2, 71, "Ｌ b"),
	USI("U+3000 between moves", USI_HEAD
	    "position startpos moves 7g7f　3c3d\n",
	    DIAG_ERROR, DIAG_SYNTAX, 2, 25, "7g7f　3c3d"),
	USI("a result before the last move", USI_HEAD
	    "position startpos moves 7g7f resign 3c3d\n",
	    DIAG_ERROR, DIAG_SYNTAX, 2, 30, "resign"),
	USI("moves without 'moves'", USI_HEAD "position startpos 7g7f\n",
	    DIAG_ERROR, DIAG_SYNTAX, 2, 19, "7g7f"),
	USI("two pawns on a file", USI_HEAD
	    "position sfen 4k4/9/9/9/9/9/4P4/4P4/4K4 b - 1 moves 5i4h\n",
	    DIAG_WARNING, DIAG_BAD_POSITION, 2, 15, "4k4/"),
	{ .name = "usi: over the moves limit", .read = usi_read,
	  .text = USI_HEAD "position startpos moves 7g7f 3c3d 2g2f\n",
	  .lim = &two_moves, .sev = DIAG_ERROR, .id = DIAG_LIMIT, .line = 2,
	  .col = 35, .ply = 3, .at = "2g2f" },
	USI_RULE("an empty origin", USI_HEAD
	    "position startpos moves 7g7f 3c3d 5e5d\n",
	    RULE_NO_PIECE, 2, 35, 3, "5e5d"),
	USI_RULE("nifu", USI_HEAD "position startpos moves 2g2f 3c3d 2f2e "
	    "8c8d 2e2d 2c2d 2h2d 8d8e P*7e\n",
	    RULE_NIFU, 2, 65, 9, "P*7e"),
};

/* ---- JKF ---- */

#define JKF(name_, text_, sev_, id_, line_, col_, at_) \
	{ .name = "jkf: " name_, .read = jkf_read, .text = text_, \
	  .sev = sev_, .id = id_, .line = line_, .col = col_, .at = at_ }
#define JKF_PATH(name_, text_, id_, ply_, path_, line_, col_, at_) \
	{ .name = "jkf: " name_, .read = jkf_read, .text = text_, \
	  .sev = DIAG_ERROR, .id = id_, .ply = ply_, .path = path_, \
	  .line = line_, .col = col_, .at = at_ }

#define JKF_MOVE(from, to, piece) "{\"move\": {" from "\"to\": " to \
	", \"piece\": \"" piece "\"}}"

static const struct place_case jkf_cases[] = {
	JKF("a name without quotes",
	    "{\"header\": {\"棋戦\": \"第３７期竜王戦\", \"先手\": 羽生善治},\n"
	    " \"moves\": [{}]}\n",
	    DIAG_ERROR, DIAG_SYNTAX, 1, 36, "羽生善治"),
	JKF("a key given twice",
	    "{\"header\": {\"棋戦\": \"第３７期竜王戦\", \"棋戦\": \"竜王戦\"},\n"
	    " \"moves\": [{}]}\n",
	    DIAG_WARNING, DIAG_SYNTAX, 1, 30, "\"棋戦\": \"竜王戦\""),
	JKF("a missing comma after full-width text",
	    "{\"header\": {\"棋戦\": \"第３７期竜王戦\"},\n"
	    " \"moves\": [{\"comments\": [\"▲７六歩から\"] \"x\": 1}]}\n",
	    DIAG_ERROR, DIAG_SYNTAX, 2, 36, "\"x\""),
	JKF("a string that does not end",
	    "{\"header\": {\"棋戦\": \"竜王戦\n", DIAG_ERROR, DIAG_SYNTAX,
	    1, 19, "\"竜王戦"),
	JKF_PATH("a piece in kanji",
	    "{\"header\": {\"棋戦\": \"第３７期竜王戦\"},\n \"moves\": [{}, "
	    JKF_MOVE("", "{\"x\": 7, \"y\": 6}", "FU") ", "
	    JKF_MOVE("", "{\"x\": 3, \"y\": 4}", "歩") "]}\n",
	    DIAG_SYNTAX, 2, "moves[2].move.piece", 2, 110, "\"歩\""),
	JKF_PATH("an unknown preset",
	    "{\"header\": {\"棋戦\": \"第３７期竜王戦\"},\n"
	    " \"initial\": {\"preset\": \"八枚落ち\"}, \"moves\": [{}]}\n",
	    DIAG_UNKNOWN_HANDICAP, 0, "initial", 2, 13, "{\"preset\""),
	JKF_PATH("a header that is no string",
	    "{\"header\": {\"棋戦\": \"第３７期竜王戦\", \"先手\": 1},\n"
	    " \"moves\": [{}]}\n",
	    DIAG_SYNTAX, 0, "header.先手", 1, 36, "1}"),
	{ .name = "jkf replay: a pawn that cannot get there",
	  .read = jkf_read, .text = "{\"header\": {\"棋戦\": \"竜王戦\"},\n"
	    " \"moves\": [{}, "
	    JKF_MOVE("\"from\": {\"x\": 7, \"y\": 7}, ",
	    "{\"x\": 7, \"y\": 6}", "FU") ", "
	    JKF_MOVE("\"from\": {\"x\": 5, \"y\": 3}, ",
	    "{\"x\": 5, \"y\": 5}", "FU") "]}\n",
	  .replay = 1, .sev = DIAG_ERROR, .rule = RULE_PIECE_MOVEMENT,
	  .ply = 2, .line = 2, .col = 93, .at = "{\"move\"" },
};

/* ---- decoding ---- */

struct decode_case {
	const char *name;
	const char *bytes;
	size_t len;
	size_t max_line;	/* 0: the default */
	enum diag_id id;
	unsigned line, col;
};

/* CP932 for 先手：羽生善治, 後手：藤井 and 聡太. */
#define SJIS_SENTE "\x90\xe6\x8e\xe8\x81\x46\x89\x48\x90\xb6\x91\x50\x8e\xa1"
#define SJIS_GOTE "\x8c\xe3\x8e\xe8\x81\x46\x93\xa1\x88\xe4"
#define SJIS_SOTA "\x91\x8f\x91\xbe"
/* A lead byte with a byte no CP932 character has second. */
#define SJIS_BAD "\x81\x7f"
#define BYTES(s) s, sizeof(s) - 1

static const struct decode_case decode_cases[] = {
	{ "UTF-8 (BOM) with a bad byte after kanji",
	    BYTES("\xef\xbb\xbf先手：羽生善治\n後手：藤井\xff聡太\n"), 0,
	    DIAG_ENCODING, 2, 6 },
	{ "CP932 (declared) with a bad byte after kanji",
	    BYTES("#KIF version=2.0 encoding=Shift_JIS\n" SJIS_SENTE "\n"
	    SJIS_GOTE SJIS_BAD SJIS_SOTA "\n"), 0, DIAG_ENCODING, 3, 6 },
	{ "CP932 (undeclared) with a bad byte after kanji",
	    BYTES(SJIS_SENTE "\r\n" SJIS_GOTE SJIS_BAD SJIS_SOTA "\r\n"), 0,
	    DIAG_ENCODING, 2, 6 },
	{ "a NUL byte after kanji (UTF-8)",
	    BYTES("先手：羽生善治\n後手：藤井\0聡太\n"), 0,
	    DIAG_ENCODING, 2, 6 },
	{ "a NUL byte after kanji (CP932)",
	    BYTES(SJIS_SENTE "\n" SJIS_GOTE "\0" SJIS_SOTA "\n"), 0,
	    DIAG_ENCODING, 2, 6 },
	{ "a line over the limit",
	    BYTES("先手：羽生善治\n後手：藤井聡太\n"
	    "*あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほ\n"),
	    64, DIAG_LIMIT, 3, 1 },
};

static void
test_decode_case(void **state)
{
	const struct decode_case *c = *state;
	struct diag_list d;
	struct text t;

	text_init(&t);
	diag_list_init(&d);
	if (c->max_line)
		t.max_line = c->max_line;
	assert_int_equal(text_decode(&t, c->bytes, c->len, &d), -1);
	assert_int_equal(d.errors, 1);
	assert_diag(&d, DIAG_ERROR, c->id, c->line, c->col);
	diag_list_release(&d);
	text_release(&t);
}

/* ---- the list ---- */

#define N_CASES (NELEM(kif_cases) + NELEM(ki2_cases) + NELEM(csa_cases) + \
	NELEM(usi_cases) + NELEM(jkf_cases))
#define N_TESTS (N_CASES + NELEM(decode_cases))

static void
add(struct CMUnitTest *tests, size_t *n, const char *name,
    CMUnitTestFunction f, const void *state)
{
	tests[*n].name = name;
	tests[*n].test_func = f;
	tests[*n].setup_func = NULL;
	tests[*n].teardown_func = NULL;
	tests[*n].initial_state = (void *)(uintptr_t)state;
	(*n)++;
}

#define ADD_CASES(table) do { \
	size_t i_; \
	for (i_ = 0; i_ < NELEM(table); i_++) \
		add(tests, &n, table[i_].name, test_place_case, &table[i_]); \
} while (0)

int
main(int argc, char **argv)
{
	static struct CMUnitTest tests[N_TESTS];
	size_t i, n = 0;

	core_init();
	ADD_CASES(kif_cases);
	ADD_CASES(ki2_cases);
	ADD_CASES(csa_cases);
	ADD_CASES(usi_cases);
	ADD_CASES(jkf_cases);
	for (i = 0; i < NELEM(decode_cases); i++)
		add(tests, &n, decode_cases[i].name, test_decode_case,
		    &decode_cases[i]);
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests_name("diag places", tests, NULL, NULL);
}
