/*
 * The CSA record format: parsers/csa.c (csa_detect, csa_read) and
 * writers/csa.c (csa_write).
 *
 * Errors are checked by id, line and column only; the column is worked
 * out by hand from the line written next to it. The writer is fed
 * records whose moves were resolved by a small stand-in for replay
 * (resolve_main_line) that reads CSA specs the way replay does.
 */
#include <stdio.h>
#include <stdlib.h>

#include "reading.h"
#include "walk_records.h"
#include "helpers.h"
#include "core/core.h"
#include "core/handicap.h"
#include "core/record.h"
#include "core/text.h"
#include "parsers/format.h"

#define START "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL"
#define START_SFEN START " b - 1"

#define EMPTY_ROW "P1 *  *  *  *  *  *  *  *  * \n"

#define HIRATE_ROWS \
	"P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n" \
	"P2 * -HI *  *  *  *  * -KA * \n" \
	"P3-FU-FU-FU-FU-FU-FU-FU-FU-FU\n" \
	"P4 *  *  *  *  *  *  *  *  * \n" \
	"P5 *  *  *  *  *  *  *  *  * \n" \
	"P6 *  *  *  *  *  *  *  *  * \n" \
	"P7+FU+FU+FU+FU+FU+FU+FU+FU+FU\n" \
	"P8 * +KA *  *  *  *  * +HI * \n" \
	"P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n"

/* A text being read: everything one csa_read loop needs. */

static void
session_open(struct session *s, const char *src, size_t n)
{
	session_start(s, csa_read, src, n, variant_standard());
}

static void
session_opens(struct session *s, const char *src)
{
	session_open(s, src, strlen(src));
}

/* Asserts a diagnostic id at line:col with the given severity. */

/* Reads the first record of src, which must read. */
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

static const char *
comment_of(const struct record *r, int32_t node)
{
	return record_str(r, r->nodes[node].comment);
}

static const char *
header_value(const struct record *r, enum header_id id)
{
	const struct record_header *h = record_find_header(r, id);

	if (!h)
		fail_msg("no '%s' header", header_id_name(id));
	return record_str(r, h->value);
}

static void
assert_start(const struct record *r, const char *sfen)
{
	char buf[SFEN_MAX];

	sfen_write(&r->start, buf);
	assert_string_equal(buf, sfen);
}

/*
 * A stand-in for replay: resolves the main line's CSA specs with
 * rules_check_move (promotion is a piece after the move that differs
 * from the board's) and stores each move. Returns the moves resolved.
 */
static int
resolve_main_line(struct record *r)
{
	struct position pos = r->start;
	int32_t i;
	int n = 0;

	for (i = r->nodes[0].next; i >= 0; i = r->nodes[i].next) {
		struct record_node *nd = &r->nodes[i];
		struct move_claim c;
		struct undo u;
		move m;

		if (nd->special != SP_NONE)
			break;
		memset(&c, 0, sizeof(c));
		c.drop = (nd->spec.flags & SPEC_DROP) != 0;
		c.from = nd->spec.from;
		c.to = nd->spec.to;
		if (c.drop) {
			c.piece = (enum piece_type)nd->spec.piece;
		} else {
			if (c.from >= SQ_NB)
				break;
			c.piece = piece_type_of(pos.board[c.from]);
			c.promote = nd->spec.piece != c.piece;
		}
		if (rules_check_move(&pos, &c, &m) != RULE_OK)
			break;
		nd->mv = m;
		position_do_move(&pos, m, &u);
		n++;
	}
	return n;
}

/* ---- detection ---- */

struct detect_case {
	const char *name;
	const char *text;
	int min, max;
};

static const struct detect_case detect_cases[] = {
	{ "floodgate head", "V2\nN+a\nN-b\n$EVENT:x\n" HIRATE_ROWS "+\n"
	    "+7776FU\nT1\n", 90, 100 },
	{ "PI and moves", "PI\n+\n+7776FU\n-3334FU\n%TORYO\n", 90, 100 },
	{ "moves only", "+7776FU\n-3334FU\n", 25, 100 },
	{ "a KIF file", "手合割：平手\n手数----指手---------消費時間--\n"
	    "   1 ７六歩(77)   ( 0:00/00:00:00)\n", 0, 0 },
	{ "a USI line", "position startpos moves 7g7f 3c3d\n", 0, 0 },
	{ "an SFEN", START " b - 1\n", 0, 0 },
	{ "empty", "", 0, 0 },
	{ "comments only", "'hello\n'world\n", 0, 0 },
};

#define N_DETECT_CASES (sizeof(detect_cases) / sizeof(detect_cases[0]))

static void
test_detect_case(void **state)
{
	const struct detect_case *c = *state;
	struct session s;
	int score;

	session_opens(&s, c->text);
	score = csa_detect(&s.t);
	if (score < c->min || score > c->max)
		fail_msg("score %d, expected %d..%d", score, c->min, c->max);
	session_close(&s);
}

/* ---- versions and game information ---- */

struct version_case {
	const char *name;
	const char *text;
	int version;		/* rd.version after the record */
	const char *value;	/* HDR_VERSION value; NULL: no header */
};

static const struct version_case version_cases[] = {
	{ "no version line (1997)", "PI\n+\n", 0, NULL },
	{ "V2 (floodgate)", "V2\nPI\n+\n", 20, "2" },
	{ "V2.1", "V2.1\nPI\n+\n", 21, "2.1" },
	{ "V2.2", "V2.2\nPI\n+\n", 22, "2.2" },
	{ "V3.0", "'CSA encoding=UTF-8\nV3.0\nPI\n+\n", 30, "3.0" },
	{ "V2.22 (an unknown minor)", "V2.22\nPI\n+\n", 22, "2.22" },
};

#define N_VERSION_CASES (sizeof(version_cases) / sizeof(version_cases[0]))

static void
test_version_case(void **state)
{
	const struct version_case *c = *state;
	struct session s;

	read_ok(&s, c->text);
	assert_no_diags(&s.d);
	assert_int_equal(s.rd.version, c->version);
	if (c->value)
		assert_string_equal(header_value(&s.r, HDR_VERSION), c->value);
	else
		assert_null(record_find_header(&s.r, HDR_VERSION));
	assert_start(&s.r, START_SFEN);
	session_close(&s);
}

static void
test_csa_unknown_version(void **state)
{
	struct session s;

	(void)state;
	read_ok(&s, "V4.0\nPI\n+\n");
	assert_diag(&s.d, DIAG_WARNING, DIAG_SYNTAX, 1, 1);
	assert_int_equal(s.rd.version, 40);
	session_close(&s);
}

static void
test_csa_headers(void **state)
{
	static const struct {
		const char *key;
		enum header_id id;
	} keys[] = {
		{ "EVENT", HDR_EVENT }, { "SITE", HDR_SITE },
		{ "START_TIME", HDR_START_TIME }, { "END_TIME", HDR_END_TIME },
		{ "TIME_LIMIT", HDR_TIME_LIMIT }, { "TIME", HDR_TIME },
		{ "TIME+", HDR_TIME_BLACK }, { "TIME-", HDR_TIME_WHITE },
		{ "TIMET+", HDR_TIME_BLACK }, { "TIMET-", HDR_TIME_WHITE },
		{ "OPENING", HDR_OPENING }, { "MAX_MOVES", HDR_MAX_MOVES },
		{ "JISHOGI", HDR_JISHOGI }, { "NOTE", HDR_NOTE },
		{ "START", HDR_OTHER }, { "Custom_Key", HDR_OTHER },
	};
	struct session s;
	struct strbuf src = STRBUF_INIT;
	size_t i;

	(void)state;
	strbuf_adds(&src, "V3.0\nN+Black, the first\nN-\n");
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		strbuf_addf(&src, "$%s:value %zu, with: a colon\n", keys[i].key,
		    i);
	strbuf_adds(&src, "PI\n+\n+7776FU\n$END_TIME:2024/01/01 12:00:00\n");
	read_ok(&s, src.buf);
	assert_no_diags(&s.d);
	/* V, N+, N-, the $ keys, the $END_TIME after the move. */
	assert_int_equal(s.r.nheaders, 3 + i + 1);
	assert_int_equal(s.r.headers[1].id, HDR_BLACK);
	assert_string_equal(record_str(&s.r, s.r.headers[1].key), "N+");
	assert_string_equal(record_str(&s.r, s.r.headers[1].value),
	    "Black, the first");
	assert_int_equal(s.r.headers[2].id, HDR_WHITE);
	assert_string_equal(record_str(&s.r, s.r.headers[2].key), "N-");
	assert_string_equal(record_str(&s.r, s.r.headers[2].value), "");
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const struct record_header *h = &s.r.headers[3 + i];
		char want[64];

		snprintf(want, sizeof(want), "value %zu, with: a colon", i);
		assert_int_equal(h->id, keys[i].id);
		assert_string_equal(record_str(&s.r, h->key), keys[i].key);
		assert_string_equal(record_str(&s.r, h->value), want);
		assert_int_equal(h->loc.line, 4 + i);
		assert_int_equal(h->loc.col, 1);
	}
	assert_int_equal(s.r.headers[3 + i].id, HDR_END_TIME);
	assert_int_equal(main_len(&s.r), 1);
	session_close(&s);
	strbuf_release(&src);
}

static void
test_csa_encoding_line(void **state)
{
	struct session s;
	const struct record_header *h;

	(void)state;
	read_ok(&s, "'CSA encoding=UTF-8\nV3.0\nPI\n+\n");
	h = record_find_header(&s.r, HDR_ENCODING);
	assert_non_null(h);
	assert_string_equal(record_str(&s.r, h->key), "CSA encoding");
	assert_string_equal(record_str(&s.r, h->value), "UTF-8");
	assert_int_equal(s.r.nodes[0].comment, 0);
	session_close(&s);

	/* Kifu for Windows: no "CSA", and its banner is a plain comment. */
	read_ok(&s, "'encoding=Shift_JIS\n' ---- Kifu for Windows V7 ----\n"
	    "V2.2\nPI\n+\n");
	h = record_find_header(&s.r, HDR_ENCODING);
	assert_non_null(h);
	assert_string_equal(record_str(&s.r, h->key), "encoding");
	assert_string_equal(record_str(&s.r, h->value), "Shift_JIS");
	assert_string_equal(comment_of(&s.r, 0),
	    " ---- Kifu for Windows V7 ----");
	session_close(&s);

	/* After the first statement it is only a comment. */
	read_ok(&s, "V2.2\n'encoding=UTF-8\nPI\n+\n");
	assert_null(record_find_header(&s.r, HDR_ENCODING));
	assert_string_equal(comment_of(&s.r, 0), "encoding=UTF-8");
	session_close(&s);
}

static void
test_csa_bad_headers(void **state)
{
	struct session s;

	(void)state;
	/* ruby-json-kifu-format's error fixtures: kept raw, with warnings. */
	read_ok(&s, "V2.2\n$START_TIME\n$:END_TIME:2014\nPI\n+\n");
	assert_diag(&s.d, DIAG_WARNING, DIAG_UNKNOWN_LINE, 2, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_UNKNOWN_LINE, 3, 1);
	assert_int_equal(s.r.headers[1].id, HDR_RAW);
	assert_string_equal(record_str(&s.r, s.r.headers[1].key),
	    "$START_TIME");
	assert_int_equal(s.r.headers[2].id, HDR_RAW);
	session_close(&s);
}

/* ---- start positions ---- */

struct position_case {
	const char *name;
	const char *text;
	const char *sfen;
	int handicap;
};

static const struct position_case position_cases[] = {
	{ "PI, even", "PI\n+\n", START_SFEN, HANDICAP_EVEN },
	{ "P1..P9, even", HIRATE_ROWS "+\n", START_SFEN, HANDICAP_EVEN },
	{ "PI, two-piece", "PI82HI22KA\n-\n",
	    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
	    HANDICAP_2 },
	{ "PI, four-piece", "PI82HI22KA11KY91KY\n-\n",
	    "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
	    HANDICAP_4 },
	{ "PI, lance, but Black to move", "PI11KY\n+\n",
	    "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
	    HANDICAP_NONE },
	/* Spaces lost in mail (formats.md 2.5): cells found by their start. */
	{ "collapsed spaces",
	    "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI * * * * * -KA *\n"
	    "P3-FU-FU-FU-FU-FU-FU-FU-FU-FU\nP4 * * * * * * * * *\n"
	    "P5* * * * * * * * *\nP6 *  *  *  *  *  *  *  *  *\n"
	    "P7+FU+FU+FU+FU+FU+FU+FU+FU+FU\nP8 * +KA * * * * * +HI *\n"
	    "P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\n", START_SFEN, HANDICAP_EVEN },
	{ "missing ranks are empty, P+ and P- hands",
	    "P1 *  *  *  *  * -OU *  *  * \nP+00KI00FU\nP-00FU00FU\n+\n",
	    "5k3/9/9/9/9/9/9/9/9 b GP2p 1", HANDICAP_NONE },
	{ "pieces on squares from P+/P-", "P-11OU21FU\nP+00HI\n+\n",
	    "7pk/9/9/9/9/9/9/9/9 b R 1", HANDICAP_NONE },
	{ "empty P+ and P- lines (Shogi.js)", HIRATE_ROWS "P+\nP-\n+\n",
	    START_SFEN, HANDICAP_EVEN },
	/* shogi-kifu-converter tsumeshogi.csa: White holds all the rest. */
	{ "00AL",
	    "P1 *  *  *  *  *  *  *  *  * \nP2 *  *  *  *  *  *  *  *  * \n"
	    "P3 *  *  * -FU-FU *  *  *  * \nP4-RY *  * -OU * -FU *  *  * \n"
	    "P5 *  * +KY * -TO *  *  *  * \nP6 *  * +RY *  *  *  *  *  * \n"
	    "P7+KA *  *  *  *  *  *  *  * \nP8+KA *  *  *  *  *  *  *  * \n"
	    "P9 *  *  *  *  *  *  *  *  * \nP-00AL\n+\n",
	    "9/9/3pp4/+r2k1p3/2L1+p4/2+R6/B8/B8/9 b 4g4s4n3l14p 1",
	    HANDICAP_NONE },
	{ "00AL after some hand pieces",
	    "P1 *  *  *  * -OU *  *  *  * \nP+00HI00FU\nP-00AL\n+\n",
	    "4k4/9/9/9/9/9/9/9/9 b RPr2b4g4s4n4l17p 1", HANDICAP_NONE },
};

#define N_POSITION_CASES (sizeof(position_cases) / sizeof(position_cases[0]))

static void
test_position_case(void **state)
{
	const struct position_case *c = *state;
	struct session s;

	read_ok(&s, c->text);
	assert_no_diags(&s.d);
	assert_start(&s.r, c->sfen);
	assert_int_equal(s.r.handicap, c->handicap);
	session_close(&s);
}

struct error_case {
	const char *name;
	const char *text;
	enum diag_id id;
	unsigned line, col;
};

/* Texts whose first record cannot be read: READ_ERROR and one error. */
static const struct error_case error_cases[] = {
	{ "PI removes a piece that is not there", "V2.2\nPI82HI22HI\n-\n",
	    DIAG_BAD_POSITION, 2, 7 },
	{ "PI removal on a bad square", "PI8AHI\n+\n", DIAG_SYNTAX, 1, 4 },
	{ "PI removal of an unknown piece", "PI82XX\n+\n", DIAG_SYNTAX, 1, 5 },
	{ "PI removal cut short", "PI82H\n+\n", DIAG_SYNTAX, 1, 3 },
	{ "PI after P+", "P+00FU\nPI\n+\n", DIAG_BAD_POSITION, 2, 1 },
	{ "P1 after PI", "PI\nP1 *  *  *  *  *  *  *  *  * \n+\n",
	    DIAG_BAD_POSITION, 2, 1 },
	{ "a rank given twice", EMPTY_ROW EMPTY_ROW "+\n", DIAG_BAD_POSITION,
	    2, 1 },
	{ "a rank of eight squares",
	    "P2 * -HI *  *  *  *  * -KA\n+\n", DIAG_SYNTAX, 1, 27 },
	{ "an unknown piece on the board",
	    "P2 * -HX *  *  *  *  * -KA * \n+\n", DIAG_SYNTAX, 1, 7 },
	{ "junk in a rank", "P2 * -HI x\n+\n", DIAG_SYNTAX, 1, 10 },
	{ "a promoted piece in hand", "P+00TO\n+\n", DIAG_BAD_POSITION, 1, 3 },
	{ "a king in hand", "P-00KI00OU\n+\n", DIAG_BAD_POSITION, 1, 7 },
	{ "a hand piece cut short", "P+00KI00F\n+\n", DIAG_SYNTAX, 1, 7 },
	{ "two pieces on one square", "P+55FU\nP-55FU\n+\n",
	    DIAG_BAD_POSITION, 2, 3 },
	{ "two black kings", "P+59OU51OU\n+\n", DIAG_BAD_POSITION, 2, 1 },
	{ "two black kings", "P+59OU19OU\nP-51OU\n+\n",
	    DIAG_BAD_POSITION, 3, 1 },
	/* ruby-json-kifu-format error fixtures, and others. */
	{ "move: a letter for a rank", "PI\n+\n+7Y76FU\n", DIAG_SYNTAX, 3, 3 },
	{ "move: digits for a piece", "PI\n+\n+777675\n", DIAG_SYNTAX, 3, 6 },
	{ "move: half a piece", "PI\n+\n+7776F5\n", DIAG_SYNTAX, 3, 7 },
	{ "move: 0 as a file", "PI\n+\n+0776FU\n", DIAG_SYNTAX, 3, 2 },
	{ "move: 0 as a rank", "PI\n+\n+7770FU\n", DIAG_SYNTAX, 3, 5 },
	{ "move: a drop to 00", "PI\n+\n+0000FU\n", DIAG_SYNTAX, 3, 4 },
	{ "move: an unknown piece", "PI\n+\n+7776XY\n", DIAG_SYNTAX, 3, 6 },
	{ "move: too short", "PI\n+\n+7776\n", DIAG_SYNTAX, 3, 6 },
	{ "move: too long", "PI\n+\n+7776FUU\n", DIAG_SYNTAX, 3, 8 },
	{ "move: lower case", "PI\n+\n+7776fu\n", DIAG_SYNTAX, 3, 6 },
	{ "move after a statement", "PI\n+\n+7776FU,T1,-33 4FU\n",
	    DIAG_SYNTAX, 3, 15 },
	/* Bytes 16, code points 14: columns count code points. */
	{ "column after a full-width statement", "PI\n+\n+7776FU,あ,-33x4FU\n",
	    DIAG_SYNTAX, 3, 14 },
};

#define N_ERROR_CASES (sizeof(error_cases) / sizeof(error_cases[0]))

static void
test_error_case(void **state)
{
	const struct error_case *c = *state;
	struct session s;
	enum read_status rs;

	session_opens(&s, c->text);
	rs = session_next(&s);
	if (rs != READ_ERROR) {
		dump_diags(&s.d);
		fail_msg("status %d, expected an error", (int)rs);
	}
	assert_int_equal(s.d.errors, 1);
	assert_diag(&s.d, DIAG_ERROR, c->id, c->line, c->col);
	assert_int_equal(session_next(&s), READ_EOF);
	session_close(&s);
}

static void
test_csa_impossible_but_kept(void **state)
{
	struct session s;

	(void)state;
	/* Kifu for Windows' 9fu puzzle: nine pawns on a file, on purpose. */
	read_ok(&s, "P-11OU21FU22FU23FU24FU25FU26FU27FU28FU29FU\n"
	    "P+00HI00HI00KY00KY00KY00KY\nP-00GI00GI00GI00GI00KE00KE00KE00KE\n"
	    "+\n+0013KY,T2\n");
	assert_diag(&s.d, DIAG_WARNING, DIAG_BAD_POSITION, 4, 1);
	assert_int_equal(s.d.errors, 0);
	assert_int_equal(main_len(&s.r), 1);
	session_close(&s);
}

static void
test_csa_side_line(void **state)
{
	struct session s;

	(void)state;
	/* No side line: the first move says who moves. */
	read_ok(&s, "PI82HI\n-3334FU\n");
	assert_diag(&s.d, DIAG_WARNING, DIAG_BAD_POSITION, 2, 1);
	assert_int_equal(s.r.start.side, WHITE);
	assert_int_equal(s.r.handicap, HANDICAP_ROOK);
	assert_int_equal(main_len(&s.r), 1);
	session_close(&s);

	/* No position at all: the even game, with a warning. */
	read_ok(&s, "V2.2\nN+a\n+\n+7776FU\n");
	assert_diag(&s.d, DIAG_WARNING, DIAG_BAD_POSITION, 3, 1);
	assert_start(&s.r, START_SFEN);
	session_close(&s);

	/* Position lines after the side line are not the position. */
	read_ok(&s, "PI\n+\nP+00FU\n+7776FU\n+\n");
	assert_diag(&s.d, DIAG_WARNING, DIAG_UNKNOWN_LINE, 3, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_UNKNOWN_LINE, 5, 1);
	assert_start(&s.r, START_SFEN);
	assert_int_equal(main_len(&s.r), 1);
	session_close(&s);
}

static void
test_csa_trailing_junk_in_rank(void **state)
{
	struct session s;

	(void)state;
	/* mog-core-scala 002.csa ends some ranks with '.'. */
	read_ok(&s, "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n"
	    "P2 * -HI *  *  *  *  * -KA *.\n"
	    "P3-FU-FU-FU-FU-FU-FU-FU-FU-FU\nP7+FU+FU+FU+FU+FU+FU+FU+FU+FU\n"
	    "P8 * +KA *  *  *  *  * +HI * \nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n"
	    "+\n");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_SYNTAX, 2, 29);
	assert_start(&s.r, START_SFEN);
	session_close(&s);
}

/* ---- moves, times, comments ---- */

static void
test_csa_moves(void **state)
{
	struct session s;
	const struct record_node *n;

	(void)state;
	read_ok(&s, "PI\n+\n+7776FU\n-3334FU\n+8822UM\n-3122GI\n+0055KA\n");
	assert_no_diags(&s.d);
	assert_int_equal(main_len(&s.r), 5);
	n = &s.r.nodes[nth(&s.r, 1)];
	assert_int_equal(n->spec.color, BLACK);
	assert_int_equal(n->spec.from, sq_make(6, 6));
	assert_int_equal(n->spec.to, sq_make(6, 5));
	assert_int_equal(n->spec.piece, PT_PAWN);
	assert_int_equal(n->spec.flags, SPEC_PIECE_AFTER);
	assert_int_equal(n->special, SP_NONE);
	assert_int_equal(n->ply, 1);
	assert_string_equal(record_str(&s.r, n->raw), "+7776FU");
	assert_int_equal(n->loc.line, 3);
	assert_int_equal(n->loc.col, 1);
	assert_int_equal(n->loc.len, 7);
	assert_int_equal(n->time_ms, -1);
	n = &s.r.nodes[nth(&s.r, 2)];
	assert_int_equal(n->spec.color, WHITE);
	/* The piece after the move: the bishop that promotes is a horse. */
	n = &s.r.nodes[nth(&s.r, 3)];
	assert_int_equal(n->spec.piece, PT_HORSE);
	assert_int_equal(n->spec.from, sq_make(7, 7));
	assert_int_equal(n->spec.to, sq_make(1, 1));
	n = &s.r.nodes[nth(&s.r, 5)];
	assert_int_equal(n->spec.flags, SPEC_PIECE_AFTER | SPEC_DROP);
	assert_int_equal(n->spec.from, SQ_NONE);
	assert_int_equal(n->spec.to, sq_make(4, 4));
	assert_int_equal(n->spec.piece, PT_BISHOP);
	assert_int_equal(resolve_main_line(&s.r), 5);
	session_close(&s);
}

static void
test_csa_times(void **state)
{
	struct session s;

	(void)state;
	read_ok(&s, "V3.0\nPI\n+\n+7776FU\nT12\n-3334FU\nT1.5\n+2726FU\nT1.\n"
	    "-8384FU\nT0.125\n+2625FU,T0\n-8485FU\n%TORYO\nT3\n");
	assert_no_diags(&s.d);
	assert_int_equal(s.r.nodes[nth(&s.r, 1)].time_ms, 12000);
	assert_int_equal(s.r.nodes[nth(&s.r, 2)].time_ms, 1500);
	assert_int_equal(s.r.nodes[nth(&s.r, 3)].time_ms, 1000);
	assert_int_equal(s.r.nodes[nth(&s.r, 4)].time_ms, 125);
	assert_int_equal(s.r.nodes[nth(&s.r, 5)].time_ms, 0);
	assert_int_equal(s.r.nodes[nth(&s.r, 6)].time_ms, -1);
	assert_int_equal(s.r.nodes[nth(&s.r, 7)].time_ms, 3000);
	session_close(&s);
}

static void
test_csa_bad_times(void **state)
{
	struct session s;

	(void)state;
	/* cshogi #60: a T before any move (a damaged Floodgate file). */
	read_ok(&s, "PI\n+\nT5\n+7776FU\nT1.2345\nT\n+2726FU,T9999999999\n"
	    "-3334FU,T3,T4\n");
	assert_diag(&s.d, DIAG_WARNING, DIAG_TIME, 3, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_TIME, 5, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_TIME, 6, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_TIME, 7, 9);
	assert_diag(&s.d, DIAG_WARNING, DIAG_TIME, 8, 12);
	assert_int_equal(s.d.n, 5);
	assert_int_equal(s.r.nodes[0].time_ms, -1);
	assert_int_equal(s.r.nodes[nth(&s.r, 1)].time_ms, -1);
	assert_int_equal(s.r.nodes[nth(&s.r, 2)].time_ms, -1);
	assert_int_equal(s.r.nodes[nth(&s.r, 3)].time_ms, 3000);
	session_close(&s);
}

static void
test_csa_comments(void **state)
{
	struct session s;

	(void)state;
	read_ok(&s, "'first\nV2.2\n'second\nPI\n+\n' third \n+7776FU\nT1\n"
	    "'** 123 -3334FU +2726FU\n'* read by programs\n'\n-3334FU\n"
	    "%TORYO\n'after the end\n");
	assert_no_diags(&s.d);
	assert_string_equal(comment_of(&s.r, 0), "first\nsecond\n third ");
	assert_string_equal(comment_of(&s.r, nth(&s.r, 1)),
	    "** 123 -3334FU +2726FU\n* read by programs\n");
	assert_int_equal(s.r.nodes[nth(&s.r, 2)].comment, 0);
	assert_string_equal(comment_of(&s.r, nth(&s.r, 3)), "after the end");
	session_close(&s);
}

static void
test_csa_statements_on_one_line(void **state)
{
	struct session s;
	int32_t n;

	(void)state;
	/* 2005_YAMADA_GPS.csa, and commas inside comments. */
	read_ok(&s, "PI\n+\n"
	    "+7776FU  ,T0       ,'T0      ,'7776   ,'   1手目  ▲7六歩\n"
	    "-3334FU,'a comment, with a comma\n"
	    "+2726FU , T3 , 'x,y ,'z\n"
	    "%TORYO,T5,'* -5000 win\n");
	assert_no_diags(&s.d);
	n = nth(&s.r, 1);
	assert_int_equal(s.r.nodes[n].time_ms, 0);
	assert_string_equal(comment_of(&s.r, n),
	    "T0\n7776\n   1手目  ▲7六歩");
	assert_int_equal(s.r.nodes[n].loc.col, 1);
	assert_string_equal(comment_of(&s.r, nth(&s.r, 2)),
	    "a comment, with a comma");
	assert_string_equal(comment_of(&s.r, nth(&s.r, 3)), "x,y\nz");
	assert_int_equal(s.r.nodes[nth(&s.r, 3)].time_ms, 3000);
	n = nth(&s.r, 4);
	assert_int_equal(s.r.nodes[n].special, SP_RESIGN);
	assert_int_equal(s.r.nodes[n].time_ms, 5000);
	assert_string_equal(comment_of(&s.r, n), "* -5000 win");
	session_close(&s);

	/* Names and $ values are never split. */
	read_ok(&s, "N+a,b\n$EVENT:c,+7776FU\nPI\n+\n");
	assert_no_diags(&s.d);
	assert_string_equal(header_value(&s.r, HDR_BLACK), "a,b");
	assert_string_equal(header_value(&s.r, HDR_EVENT), "c,+7776FU");
	assert_int_equal(main_len(&s.r), 0);
	session_close(&s);
}

/* ---- terminals ---- */

struct terminal_case {
	const char *word;
	enum special sp;
};

static const struct terminal_case terminal_cases[] = {
	{ "%TORYO", SP_RESIGN },
	{ "%CHUDAN", SP_ABORT },
	{ "%SENNICHITE", SP_SENNICHITE },
	{ "%TIME_UP", SP_TIME_UP },
	{ "%ILLEGAL_MOVE", SP_ILLEGAL_MOVE },
	{ "%+ILLEGAL_ACTION", SP_ILLEGAL_BLACK },
	{ "%-ILLEGAL_ACTION", SP_ILLEGAL_WHITE },
	{ "%JISHOGI", SP_IMPASSE },
	{ "%KACHI", SP_DECLARATION },
	{ "%HIKIWAKE", SP_DRAW_DECLARATION },
	{ "%MAX_MOVES", SP_MAX_MOVES },
	{ "%TSUMI", SP_MATE },
	{ "%FUZUMI", SP_NO_MATE },
	{ "%ERROR", SP_ERROR },
	{ "%MATTA", SP_MATTA },
};

#define N_TERMINAL_CASES (sizeof(terminal_cases) / sizeof(terminal_cases[0]))

static void
test_terminal_case(void **state)
{
	const struct terminal_case *c = *state;
	struct session s;
	char src[128];
	int32_t n;

	snprintf(src, sizeof(src), "PI\n+\n+7776FU\n%s,T7\n'why\n", c->word);
	read_ok(&s, src);
	assert_no_diags(&s.d);
	assert_int_equal(main_len(&s.r), 2);
	n = nth(&s.r, 2);
	assert_int_equal(s.r.nodes[n].special, c->sp);
	assert_string_equal(record_str(&s.r, s.r.nodes[n].raw), c->word);
	assert_int_equal(s.r.nodes[n].time_ms, 7000);
	assert_string_equal(comment_of(&s.r, n), "why");
	assert_int_equal(s.r.nodes[n].loc.line, 4);
	assert_int_equal(s.r.nodes[n].ply, 2);
	session_close(&s);
}

static void
test_csa_unknown_terminal(void **state)
{
	struct session s;
	int32_t n;

	(void)state;
	read_ok(&s, "PI\n+\n+7776FU,%PASS\n");
	assert_diag(&s.d, DIAG_WARNING, DIAG_SYNTAX, 3, 9);
	n = nth(&s.r, 2);
	assert_int_equal(s.r.nodes[n].special, SP_UNKNOWN);
	assert_string_equal(record_str(&s.r, s.r.nodes[n].raw), "%PASS");
	session_close(&s);
}

static void
test_csa_double_kachi(void **state)
{
	struct session s;
	int32_t n;

	(void)state;
	/* The Denryu-sen server (dr1...csa) and shogi-server's own kachi. */
	read_ok(&s, "PI\n+\n+7776FU\n%KACHI,'* -5000 win\nT10\n%KACHI\n"
	    "'summary:kachi:a lose:b win\n");
	assert_no_diags(&s.d);
	assert_int_equal(main_len(&s.r), 2);
	n = nth(&s.r, 2);
	assert_int_equal(s.r.nodes[n].special, SP_DECLARATION);
	assert_int_equal(s.r.nodes[n].time_ms, 10000);
	assert_string_equal(comment_of(&s.r, n),
	    "* -5000 win\nsummary:kachi:a lose:b win");
	session_close(&s);

	/* A different second terminal, and a move after the end. */
	read_ok(&s, "PI\n+\n+7776FU\n%TORYO\n%CHUDAN\n-3334FU\n");
	assert_diag(&s.d, DIAG_WARNING, DIAG_MOVE_AFTER_END, 5, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_MOVE_AFTER_END, 6, 1);
	assert_int_equal(main_len(&s.r), 2);
	assert_int_equal(s.r.nodes[nth(&s.r, 2)].special, SP_RESIGN);
	session_close(&s);
}

/* ---- the Floodgate 'summary ---- */

struct summary_case {
	const char *name;
	const char *line;
	enum winner winner;
	enum reason reason;
};

static const struct summary_case summary_cases[] = {
	{ "toryo", "'summary:toryo:alice win:bob lose", WINNER_BLACK,
	    REASON_RESIGN },
	{ "abnormal", "'summary:abnormal:alice lose:bob win", WINNER_WHITE,
	    REASON_RESIGN },
	{ "time up", "'summary:time up:alice lose:bob win", WINNER_WHITE,
	    REASON_TIME_UP },
	{ "kachi", "'summary:kachi:alice win:bob lose", WINNER_BLACK,
	    REASON_DECLARATION },
	{ "illegal kachi", "'summary:illegal kachi:alice win:bob lose",
	    WINNER_BLACK, REASON_DECLARATION },
	{ "illegal move", "'summary:illegal move:alice lose:bob win",
	    WINNER_WHITE, REASON_ILLEGAL_MOVE },
	{ "uchifuzume", "'summary:uchifuzume:alice win:bob lose",
	    WINNER_BLACK, REASON_ILLEGAL_MOVE },
	{ "oute_kaihimore", "'summary:oute_kaihimore:alice win:bob lose",
	    WINNER_BLACK, REASON_ILLEGAL_MOVE },
	{ "oute_sennichite", "'summary:oute_sennichite:alice win:bob lose",
	    WINNER_BLACK, REASON_PERPETUAL_CHECK },
	{ "sennichite", "'summary:sennichite:alice draw:bob draw",
	    WINNER_NONE, REASON_SENNICHITE },
	{ "max_moves", "'summary:max_moves:alice draw:bob draw", WINNER_NONE,
	    REASON_MAX_MOVES },
	/* The names decide the sides, not the order. */
	{ "names in the other order", "'summary:toryo:bob lose:alice win",
	    WINNER_BLACK, REASON_RESIGN },
	{ "unknown names: order", "'summary:toryo:carol lose:dave win",
	    WINNER_WHITE, REASON_RESIGN },
};

#define N_SUMMARY_CASES (sizeof(summary_cases) / sizeof(summary_cases[0]))

static void
test_summary_case(void **state)
{
	const struct summary_case *c = *state;
	struct session s;
	char src[256];

	snprintf(src, sizeof(src), "V2\nN+alice\nN-bob\nPI\n+\n+7776FU\nT1\n"
	    "-3334FU\nT1\n%%TORYO\n'P1 * \n%s\n'$END_TIME:2024/01/01\n",
	    c->line);
	read_ok(&s, src);
	assert_no_diags(&s.d);
	assert_true(s.r.has_recorded);
	assert_int_equal(s.r.recorded.winner, c->winner);
	assert_int_equal(s.r.recorded.reason, c->reason);
	assert_int_equal(s.r.recorded.ply, 2);
	assert_string_equal(record_str(&s.r, s.r.recorded_raw), c->line);
	/* It stays a comment of the terminal too. */
	assert_non_null(strstr(comment_of(&s.r, nth(&s.r, 3)), c->line + 1));
	session_close(&s);
}

static void
test_csa_bad_summary(void **state)
{
	struct session s;

	(void)state;
	read_ok(&s, "PI\n+\n'summary:toryo:alice win\n");
	assert_diag(&s.d, DIAG_WARNING, DIAG_SYNTAX, 3, 1);
	assert_false(s.r.has_recorded);
	session_close(&s);
	read_ok(&s, "PI\n+\n'summary:outfoxed:a win:b lose\n");
	assert_diag(&s.d, DIAG_WARNING, DIAG_SYNTAX, 3, 1);
	assert_false(s.r.has_recorded);
	session_close(&s);
	read_ok(&s, "PI\n+\n'summary:toryo:a win:b win\n");
	assert_diag(&s.d, DIAG_WARNING, DIAG_SYNTAX, 3, 1);
	assert_false(s.r.has_recorded);
	session_close(&s);
}

/* ---- several records, unknown lines ---- */

static void
test_csa_several_records(void **state)
{
	struct session s;

	(void)state;
	session_opens(&s, "'CSA encoding=UTF-8\nV3.0\nN+a\nPI\n+\n+7776FU\n"
	    "%TORYO\n/\nN+b\nPI82HI\n-\n-3334FU\n/\n'c\nP+00FU\n+\n"
	    "+7776FU\n/\n");
	assert_int_equal(session_next(&s), READ_OK);
	assert_string_equal(header_value(&s.r, HDR_BLACK), "a");
	assert_int_equal(main_len(&s.r), 2);
	assert_int_equal(s.r.loc.line, 1);
	assert_int_equal(session_next(&s), READ_OK);
	assert_string_equal(header_value(&s.r, HDR_BLACK), "b");
	assert_int_equal(s.r.handicap, HANDICAP_ROOK);
	assert_int_equal(s.r.nodes[nth(&s.r, 1)].loc.line, 12);
	assert_int_equal(s.r.loc.line, 9);
	assert_int_equal(s.rd.version, 30);
	assert_int_equal(session_next(&s), READ_OK);
	assert_string_equal(comment_of(&s.r, 0), "c");
	assert_start(&s.r, "9/9/9/9/9/9/9/9/9 b P 1");
	/* The empty record after the final '/' is none. */
	assert_int_equal(session_next(&s), READ_EOF);
	assert_int_equal(session_next(&s), READ_EOF);
	assert_int_equal(s.rd.nread, 3);
	assert_no_diags(&s.d);
	session_close(&s);
}

static void
test_csa_error_then_next(void **state)
{
	struct session s;

	(void)state;
	session_opens(&s, "PI\n+\n+7776FU\n/\nPI\n+\n+77X6FU\n-3334FU\n/\n"
	    "PI\n+\n+2726FU\n");
	assert_int_equal(session_next(&s), READ_OK);
	assert_int_equal(session_next(&s), READ_ERROR);
	assert_diag(&s.d, DIAG_ERROR, DIAG_SYNTAX, 7, 4);
	assert_int_equal(session_next(&s), READ_OK);
	assert_int_equal(s.r.nodes[nth(&s.r, 1)].loc.line, 12);
	assert_int_equal(session_next(&s), READ_EOF);
	assert_int_equal(s.d.n, 1);
	session_close(&s);
}

static void
test_csa_empty_records(void **state)
{
	struct session s;

	(void)state;
	session_opens(&s, "PI\n+\n/\n\n/\n'only a comment\n/\nPI\n-\n");
	assert_int_equal(session_next(&s), READ_OK);
	assert_int_equal(session_next(&s), READ_OK);
	assert_int_equal(s.r.start.side, WHITE);
	assert_int_equal(s.r.nodes[0].comment, 0);
	/* Two empty records in a row: one warning, where the run starts. */
	assert_diag(&s.d, DIAG_WARNING, DIAG_EMPTY, 5, 1);
	assert_int_equal(s.d.warnings, 1);
	assert_int_equal(session_next(&s), READ_EOF);
	session_close(&s);

	session_opens(&s, "");
	assert_int_equal(session_next(&s), READ_EOF);
	assert_no_diags(&s.d);
	session_close(&s);

	/*
	 * After the last record: the warning goes with that record, since
	 * a caller stops at the end and would never see it. Reading on
	 * finds the end at once.
	 */
	session_opens(&s, "PI\n+\n+7776FU\n/\n\n/\n'x\n/\n");
	assert_int_equal(session_next(&s), READ_OK);
	assert_diag(&s.d, DIAG_WARNING, DIAG_EMPTY, 6, 1);
	assert_int_equal(s.d.n, 1);
	assert_int_equal(s.rd.nread, 1);
	/* Nothing more: the session keeps the one warning. */
	assert_int_equal(session_next(&s), READ_EOF);
	assert_int_equal(s.d.n, 1);
	session_close(&s);
}

static void
test_csa_unknown_lines(void **state)
{
	struct session s;

	(void)state;
	/* 81Dojo through its API (formats.md 2.9). */
	read_ok(&s, "V2\nN+a\nN-b\nTo_Move:+\nI+1500,1400,x2|81WS\nPI\n+\n"
	    "+7776FU\n'ILLEGAL_MOVE(-3377FU)\n#ILLEGAL_MOVE\n  #SENTE_WIN\n"
	    "Nonsense\n");
	assert_diag(&s.d, DIAG_WARNING, DIAG_UNKNOWN_LINE, 4, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_UNKNOWN_LINE, 5, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_UNKNOWN_LINE, 10, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_UNKNOWN_LINE, 11, 3);
	assert_diag(&s.d, DIAG_WARNING, DIAG_UNKNOWN_LINE, 12, 1);
	assert_int_equal(s.d.n, 5);
	assert_int_equal(s.r.headers[3].id, HDR_RAW);
	assert_string_equal(record_str(&s.r, s.r.headers[3].key), "To_Move:+");
	assert_string_equal(record_str(&s.r, s.r.headers[4].key),
	    "I+1500,1400,x2|81WS");
	assert_string_equal(record_str(&s.r, s.r.headers[6].key),
	    "#SENTE_WIN");
	assert_int_equal(main_len(&s.r), 1);
	session_close(&s);

	/* An unknown statement among others is kept alone. */
	read_ok(&s, "PI\n+\n+7776FU,X9,T1\n");
	assert_diag(&s.d, DIAG_WARNING, DIAG_UNKNOWN_LINE, 3, 9);
	assert_string_equal(record_str(&s.r, s.r.headers[0].key), "X9");
	assert_int_equal(s.r.nodes[nth(&s.r, 1)].time_ms, 1000);
	session_close(&s);
}

/* ---- hostile input ---- */

static uint32_t
lcg(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* Reads every record of n bytes; anything but a crash or a hang passes. */
static void
read_all(const char *buf, size_t n)
{
	struct session s;
	enum read_status rs;
	int guard = 0;

	session_open(&s, buf, n);
	(void)csa_detect(&s.t);
	while ((rs = session_next(&s)) != READ_EOF && rs != READ_FATAL) {
		if (rs == READ_OK) {
			struct strbuf out = STRBUF_INIT;
			struct write_opts o = { 3, NULL, NULL };

			resolve_main_line(&s.r);
			assert_int_equal(csa_write(&s.r, &o, &out, &s.d), 0);
			strbuf_release(&out);
		}
		assert_true(++guard <= (int)n + 1);
	}
	session_close(&s);
}

static void
test_csa_hostile(void **state)
{
	static const char *const bits[] = {
		"P", "PI", "P1", "P+", "P-", "N", "N+", "$", "$:", "V", "V9",
		"T",
		"T.", "T1.", "%", "%+", "+", "-", "+7", "+77", "+7776", "00AL",
		"00", "'", "'summary:", "'summary:toryo:", " win", ":", ",",
		"/",
		" * ", "*", "+FU", "-OU", "\n", "\n", "\n", "'CSA encoding=",
		"あ", "\xe3\x80\x80", "\t", "99", "11", "KY", "AL", "PI11KY",
		"P-00AL", "+0055FU", "%KACHI", "%TORYO", "T9999999999",
	};
	static const char base[] = "'CSA encoding=UTF-8\nV3.0\nN+a\nN-b\n"
	    "$EVENT:e\nPI\n+\n+7776FU,T1\n-3334FU\nT2.5\n+8822UM\n"
	    "'summary:toryo:a win:b lose\n%TORYO\n/\nP1 * \nP-00AL\n+\n";
	char buf[512];
	uint32_t seed = 12345;
	int iter;

	(void)state;
	for (iter = 0; iter < 3000; iter++) {
		size_t n = 0;
		int k, parts = (int)(lcg(&seed) % 40);

		if (iter % 2) {
			/* Random statements glued together. */
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
			/* The base record with bytes changed or cut. */
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
					buf[at] = bits[lcg(&seed) % 8][0];
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
test_csa_long_input_is_linear(void **state)
{
	struct strbuf src = STRBUF_INIT;
	struct session s;
	int i;

	(void)state;
	/* One line of many statements, and a node with many comment lines. */
	strbuf_adds(&src, "PI\n+\n");
	for (i = 0; i < 100000; i++)
		strbuf_adds(&src, i % 2 ? "-3334FU,T1," : "+7776FU,T2,");
	strbuf_adds(&src, "%TORYO\n");
	for (i = 0; i < 100000; i++)
		strbuf_adds(&src, "'comment line\n$KEY:interleaved header\n");
	read_unlimited(&s, csa_read, src.buf);
	assert_no_diags(&s.d);
	assert_int_equal(main_len(&s.r), 100001);
	assert_int_equal(s.r.nodes[nth(&s.r, 100000)].loc.col, 1 + 99999 * 11);
	session_close(&s);
	strbuf_release(&src);
}

/* ---- writing ---- */

/* Reads text, resolves its main line (which must be legal) and writes it. */
static void
write_text(const char *src, int version, struct strbuf *out,
    struct diag_list *wd)
{
	struct session s;
	struct write_opts o = { version, NULL, NULL };
	int32_t end;

	read_ok(&s, src);
	end = record_main_end(&s.r);
	assert_int_equal(resolve_main_line(&s.r),
	    main_len(&s.r) - (s.r.nodes[end].special != SP_NONE));
	assert_int_equal(csa_write(&s.r, &o, out, wd), 0);
	session_close(&s);
}

struct write_case {
	const char *name;
	int version;
	const char *in;
	const char *out;
};

static const struct write_case write_cases[] = {
	{ "V2.2, even game", 2,
	    "'encoding=UTF-8\nV2.2\nN+sente\nN-gote\n'root 1\n"
	    "$EVENT:test, with comma\n$START_TIME:2024/01/01 10:00:00\n"
	    "$X_CUSTOM:kept\n" HIRATE_ROWS "+\n'root 2\n"
	    "+7776FU,T12,'move comment\n-3334FU\nT6\n+8822UM\n-3122GI\n"
	    "+0055KA\n%TORYO\nT1\n'end\n",
	    "V2.2\nN+sente\nN-gote\n$EVENT:test, with comma\n"
	    "$START_TIME:2024/01/01 10:00:00\n$X_CUSTOM:kept\nPI\n+\n"
	    "'root 1\n'root 2\n+7776FU\nT12\n'move comment\n-3334FU\nT6\n"
	    "+8822UM\n-3122GI\n+0055KA\n%TORYO\nT1\n'end\n" },
	{ "V3.0 times", 3,
	    "PI\n+\n+7776FU\nT1.5\n-3334FU\nT2\n+2726FU\nT0.125\n-8384FU\n"
	    "T0.1\n+2625FU\nT1.\n",
	    "'CSA encoding=UTF-8\nV3.0\nPI\n+\n+7776FU\nT1.5\n-3334FU\nT2\n"
	    "+2726FU\nT0.125\n-8384FU\nT0.1\n+2625FU\nT1\n" },
	{ "a standard handicap is PI", 2, "PI82HI22KA\n-\n-5142OU\n",
	    "V2.2\nPI82HI22KA\n-\n-5142OU\n" },
	{ "six-piece", 2, "PI82HI22KA21KE81KE11KY91KY\n-\n",
	    "V2.2\nPI82HI22KA11KY91KY21KE81KE\n-\n" },
	{ "the even board with White to move is no PI", 2, "PI\n-\n",
	    "V2.2\n" HIRATE_ROWS "-\n" },
	{ "a board and hands", 2,
	    "P1 *  *  *  *  * -OU *  *  * \nP+00KI00FU00HI\nP-00FU00FU\n+\n"
	    "+0042KI\n%TSUMI\n",
	    "V2.2\nP1 *  *  *  *  * -OU *  *  * \n"
	    "P2 *  *  *  *  *  *  *  *  * \nP3 *  *  *  *  *  *  *  *  * \n"
	    "P4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \n"
	    "P6 *  *  *  *  *  *  *  *  * \nP7 *  *  *  *  *  *  *  *  * \n"
	    "P8 *  *  *  *  *  *  *  *  * \nP9 *  *  *  *  *  *  *  *  * \n"
	    "P+00HI00KI00FU\nP-00FU00FU\n+\n+0042KI\n%TSUMI\n" },
	{ "raw lines", 2,
	    "To_Move:+\nPI\n+\n+7776FU\n#SENTE_WIN\n",
	    "V2.2\nTo_Move:+\n#SENTE_WIN\nPI\n+\n+7776FU\n" },
	{ "V3.0 headers", 3,
	    "V3.0\n$TIME:900+0+5\n$TIME+:600+10+0\n$TIMET-:300+10+0\n"
	    "$MAX_MOVES:320\n$JISHOGI:27\n$NOTE:a\\nb\nPI\n+\n%MAX_MOVES\n",
	    "'CSA encoding=UTF-8\nV3.0\n$TIME:900+0+5\n$TIME+:600+10+0\n"
	    "$TIME-:300+10+0\n$MAX_MOVES:320\n$JISHOGI:27\n$NOTE:a\\nb\nPI\n"
	    "+\n%MAX_MOVES\n" },
	{ "illegal actions", 2, "PI\n+\n+7776FU\n%-ILLEGAL_ACTION\n",
	    "V2.2\nPI\n+\n+7776FU\n%-ILLEGAL_ACTION\n" },
};

#define N_WRITE_CASES (sizeof(write_cases) / sizeof(write_cases[0]))

static void
test_write_case(void **state)
{
	const struct write_case *c = *state;
	struct strbuf out = STRBUF_INIT, again = STRBUF_INIT;
	struct diag_list wd = DIAG_LIST_INIT;

	write_text(c->in, c->version, &out, &wd);
	assert_no_diags(&wd);
	assert_string_equal(out.buf, c->out);
	/* What the writer writes, it reads back and writes the same. */
	write_text(out.buf, c->version, &again, &wd);
	assert_string_equal(again.buf, out.buf);
	diag_list_release(&wd);
	strbuf_release(&out);
	strbuf_release(&again);
}

/* A resolved record built in code, for what CSA text cannot produce. */
static void
build_record(struct record *r, const char *const *csa_moves, int n)
{
	struct session s;
	struct strbuf src = STRBUF_INIT;
	int i;

	strbuf_adds(&src, "PI\n+\n");
	for (i = 0; i < n; i++)
		strbuf_addf(&src, "%s\n", csa_moves[i]);
	read_ok(&s, src.buf);
	assert_int_equal(resolve_main_line(&s.r), n);
	/* Hand the record over: the session keeps an empty one. */
	*r = s.r;
	record_init(&s.r, variant_standard());
	s.read = csa_read;
	session_close(&s);
	strbuf_release(&src);
}

static void
test_csa_write_terminals(void **state)
{
	static const char *const moves[] = { "+7776FU", "-3334FU" };
	static const struct {
		enum special sp;
		int version;
		int32_t ply;	/* moves before the terminal */
		const char *code;
		int warns;
	} cases[] = {
		/* After Black's move White is to move: Black fouled. */
		{ SP_ILLEGAL_WIN, 2, 1, "%+ILLEGAL_ACTION\n", 0 },
		{ SP_ILLEGAL_WIN, 2, 2, "%-ILLEGAL_ACTION\n", 0 },
		{ SP_MAX_MOVES, 3, 2, "%MAX_MOVES\n", 0 },
		{ SP_MAX_MOVES, 2, 2, "%CHUDAN\n'封\n", 1 },
		{ SP_MATTA, 2, 2, "%MATTA\n", 0 },
		{ SP_MATTA, 3, 2, "%CHUDAN\n'封\n", 1 },
		{ SP_SEALED, 2, 2, "%CHUDAN\n'封\n", 1 },
		{ SP_UNKNOWN, 3, 2, "%CHUDAN\n'封\n", 1 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct record r;
		struct strbuf out = STRBUF_INIT;
		struct diag_list wd = DIAG_LIST_INIT;
		struct write_opts o = { cases[i].version, NULL, NULL };
		int32_t t;
		const char *tail;

		build_record(&r, moves, cases[i].ply);
		t = record_add_node(&r, record_main_end(&r));
		r.nodes[t].special = (uint8_t)cases[i].sp;
		r.nodes[t].raw = record_intern(&r, "封", strlen("封"));
		assert_int_equal(csa_write(&r, &o, &out, &wd), 0);
		tail = out.buf + out.len - strlen(cases[i].code);
		if (out.len < strlen(cases[i].code) ||
		    strcmp(tail, cases[i].code) != 0)
			fail_msg("case %zu: wrote\n%s", i, out.buf);
		assert_int_equal(wd.n, (size_t)cases[i].warns);
		if (cases[i].warns)
			assert_string_equal(wd.v[0].id,
			    diag_id_name(DIAG_LIMIT));
		diag_list_release(&wd);
		strbuf_release(&out);
		record_release(&r);
	}
}

static void
test_csa_write_drops(void **state)
{
	static const char *const moves[] = {
		"+7776FU", "-3334FU", "+2726FU"
	};
	struct record r;
	struct strbuf out = STRBUF_INIT;
	struct diag_list wd = DIAG_LIST_INIT;
	int32_t a, b, m2;

	(void)state;
	build_record(&r, moves, 3);
	/* Two variations off move 2, one nested, and two bookmarks. */
	m2 = nth(&r, 2);
	a = record_add_node(&r, nth(&r, 1));
	b = record_add_node(&r, nth(&r, 1));
	(void)record_add_node(&r, a);
	(void)record_add_node(&r, a);
	r.nodes[a].mv = r.nodes[b].mv = r.nodes[m2].mv;
	r.nodes[m2].bookmark = record_intern(&r, "mark", 4);
	r.nodes[b].bookmark = record_intern(&r, "mark", 4);
	/* Move 3 unresolved: the line stops before it. */
	r.nodes[nth(&r, 3)].mv = MOVE_NONE;
	assert_int_equal(csa_write(&r, NULL, &out, &wd), 0);
	assert_string_equal(out.buf, "V2.2\nPI\n+\n+7776FU\n-3334FU\n");
	assert_int_equal(wd.n, 3);
	assert_non_null(strstr(wd.v[0].message, "move 3"));
	assert_non_null(strstr(wd.v[1].message, "variations; dropped 3"));
	assert_non_null(strstr(wd.v[2].message, "bookmarks; dropped 2"));
	diag_list_release(&wd);
	strbuf_release(&out);
	record_release(&r);
}

/* V2.2 times are whole seconds: the fractions go, with one warning. */
static void
test_csa_write_fractions(void **state)
{
	struct strbuf out = STRBUF_INIT, again = STRBUF_INIT;
	struct diag_list wd = DIAG_LIST_INIT;

	(void)state;
	write_text("PI\n+\n+7776FU\nT1.5\n-3334FU\nT0.999\n+2726FU\nT2\n",
	    2, &out, &wd);
	assert_string_equal(out.buf,
	    "V2.2\nPI\n+\n+7776FU\nT1\n-3334FU\nT0\n+2726FU\nT2\n");
	assert_int_equal(wd.n, 1);
	assert_int_equal(wd.warnings, 1);
	assert_non_null(strstr(wd.v[0].message, "fractions of 2 time(s)"));
	/* Whole seconds read back and write the same, with nothing lost. */
	diag_list_clear(&wd);
	write_text(out.buf, 2, &again, &wd);
	assert_string_equal(again.buf, out.buf);
	assert_no_diags(&wd);
	diag_list_release(&wd);
	strbuf_release(&out);
	strbuf_release(&again);
}

static void
test_csa_write_foreign_headers(void **state)
{
	static const char *const moves[] = { "+7776FU" };
	struct record r;
	struct strbuf out = STRBUF_INIT;
	struct diag_list wd = DIAG_LIST_INIT;

	(void)state;
	build_record(&r, moves, 1);
	/* What a KIF parser might leave. */
	record_add_header(&r, "先手", 6, "羽生\n善治", 13, HDR_BLACK, NULL);
	record_add_header(&r, "棋戦", 6, "竜王戦", 9, HDR_EVENT, NULL);
	record_add_header(&r, "手合割", 9, "平手", 6, HDR_HANDICAP, NULL);
	record_add_header(&r, "戦型", 6, "矢倉", 6, HDR_OTHER, NULL);
	record_add_header(&r, "Opening_Note", 12, "x", 1, HDR_OTHER, NULL);
	record_add_header(&r, "*KIF raw line", 13, NULL, 0, HDR_RAW, NULL);
	record_add_header(&r, "P9 raw", 6, NULL, 0, HDR_RAW, NULL);
	record_add_header(&r, "＊生の行", 12, NULL, 0, HDR_RAW, NULL);
	r.nodes[nth(&r, 1)].comment = record_intern(&r, "a\nb", 3);
	assert_int_equal(csa_write(&r, NULL, &out, &wd), 0);
	/* Headers CSA has no line for follow the position, as comments. */
	assert_string_equal(out.buf, "V2.2\nN+羽生 善治\n$EVENT:竜王戦\n"
	    "$Opening_Note:x\n*KIF raw line\nPI\n+\n'戦型:矢倉\n'P9 raw\n"
	    "'＊生の行\n+7776FU\n'a\n'b\n");
	assert_no_diags(&wd);
	diag_list_release(&wd);
	strbuf_release(&out);
	record_release(&r);
}

/* ---- minishogi (the MSK format, formats.md 7) ---- */

#define MINI_ROWS \
	"P1-HI-KA-GI-KI-OU\n" \
	"P2 *  *  *  * -FU\n" \
	"P3 *  *  *  *  * \n" \
	"P4+FU *  *  *  * \n" \
	"P5+OU+KI+GI+KA+HI\n"
#define MINI_SFEN "rbsgk/4p/5/P4/KGSBR b - 1"

/* Reads the first record of src with v the caller's variant. */
static void
read_ok_variant(struct session *s, const char *src, const struct variant *v)
{
	enum read_status rs;

	session_start(s, csa_read, src, strlen(src), v);
	if ((rs = session_next(s)) != READ_OK) {
		dump_diags(&s->d);
		fail_msg("record does not read (status %d)", (int)rs);
	}
}

/* Ranks of five cells are minishogi, whatever the caller expected. */
static void
test_csa_minishogi_board(void **state)
{
	struct session s;

	(void)state;
	read_ok(&s, "V2.2\n" MINI_ROWS "+\n+1514HI\n-4132KA\n%TORYO\n");
	assert_ptr_equal(s.r.start.v, variant_minishogi());
	assert_ptr_equal(s.r.v, variant_minishogi());
	assert_start(&s.r, MINI_SFEN);
	assert_int_equal(s.r.handicap, HANDICAP_MINISHOGI);
	assert_int_equal(main_len(&s.r), 3);
	assert_int_equal(resolve_main_line(&s.r), 2);
	assert_no_diags(&s.d);
	session_close(&s);
	/* Hands, the side to move and padding lost in mail. */
	read_ok_variant(&s, "P1-HI * -GI-KI-OU\nP2 * * * * -FU\nP3 * * * * *\n"
	    "P4+FU * * * *\nP5+OU+KI+GI * +HI\nP+00KA\nP-00KA\n-\n",
	    variant_standard());
	assert_start(&s.r, "r1sgk/4p/5/P4/KGS1R w Bb 1");
	session_close(&s);
}

/* Without a board, the caller's variant decides; PI is always 9x9. */
static void
test_csa_minishogi_default(void **state)
{
	struct session s;

	(void)state;
	/* The MSK format needs only the version and the moves. */
	read_ok_variant(&s, "V2.2\n+1514HI\n", variant_minishogi());
	assert_start(&s.r, MINI_SFEN);
	assert_int_equal(resolve_main_line(&s.r), 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_BAD_POSITION, 2, 1);
	assert_non_null(strstr(s.d.v[s.d.n - 1].message,
	    "the minishogi start"));
	session_close(&s);
	read_ok_variant(&s, "P-11OU\nP+55OU00GI\n+\n", variant_minishogi());
	assert_start(&s.r, "4k/5/5/5/K4 b S 1");
	session_close(&s);
	read_ok_variant(&s, "PI\n+\n+7776FU\n", variant_minishogi());
	assert_ptr_equal(s.r.start.v, variant_standard());
	assert_start(&s.r, START_SFEN);
	session_close(&s);
	read_ok_variant(&s, HIRATE_ROWS "+\n", variant_minishogi());
	assert_start(&s.r, START_SFEN);
	session_close(&s);
}

/* A line that ends in ',' goes on on the next one (MSK). */
static void
test_csa_minishogi_continued(void **state)
{
	struct session s;

	(void)state;
	read_ok(&s, "V2.2\nP1-HI-KA-GI,\n-KI-OU\n"
	    "P2 *  *  *  * -FU\nP3 *  *  *  *  * \nP4+FU *  *  *  * \n"
	    "P5+OU+KI+GI+KA+HI\nP+00KI,\n00GI,T9\nP-\n+\n+1514HI,\nT3,\n"
	    "-4132KA,T5\n");
	assert_start(&s.r, "rbsgk/4p/5/P4/KGSBR b GS 1");
	assert_int_equal(main_len(&s.r), 2);
	assert_int_equal(s.r.nodes[nth(&s.r, 1)].time_ms, 3000);
	assert_int_equal(s.r.nodes[nth(&s.r, 2)].time_ms, 5000);
	/* "T9" after the continued hand is read as a statement: too early. */
	assert_diag(&s.d, DIAG_WARNING, DIAG_TIME, 9, 6);
	session_close(&s);
	/* A nine-cell rank continued is still a rank of shogi. */
	read_ok(&s, "P1-KY-KE-GI-KI-OU,\n-KI-GI-KE-KY\n"
	    "P2 * -HI *  *  *  *  * -KA * \nP3-FU-FU-FU-FU-FU-FU-FU-FU-FU\n"
	    "P4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \n"
	    "P6 *  *  *  *  *  *  *  *  * \nP7+FU+FU+FU+FU+FU+FU+FU+FU+FU\n"
	    "P8 * +KA *  *  *  *  * +HI * \nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n"
	    "+\n");
	assert_start(&s.r, START_SFEN);
	session_close(&s);
}

static void
test_csa_minishogi_errors(void **state)
{
	static const struct {
		const char *name;
		const char *src;
		enum diag_id id;
		unsigned line, col;
	} cases[] = {
		{ "sixth rank", MINI_ROWS "P6 *  *  *  *  * \n+\n",
		    DIAG_BAD_POSITION, 6, 1 },
		{ "nine cells after five",
		    "P1-HI-KA-GI-KI-OU\nP2 *  *  *  * -FU *  *  *  * \n+\n",
		    DIAG_SYNTAX, 2, 19 },
		{ "five cells after nine",
		    "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 *  *  *  * -FU\n+\n",
		    DIAG_SYNTAX, 2, 18 },
		{ "seven cells", "P1-HI-KA-GI-KI-OU *  * \n+\n",
		    DIAG_SYNTAX, 1, 23 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct session s;

		session_opens(&s, cases[i].src);
		if (session_next(&s) != READ_ERROR)
			fail_msg("%s: read", cases[i].name);
		assert_diag(&s.d, DIAG_ERROR, cases[i].id, cases[i].line,
		    cases[i].col);
		session_close(&s);
	}
	{
		struct session s;

		/* The set has no lance: impossible, played with a warning. */
		read_ok(&s, "P1-KY-KA-GI-KI-OU\nP2 *  *  *  * -FU\n"
		    "P3 *  *  *  *  * \nP4+FU *  *  *  * \nP5+OU+KI+GI+KA+HI\n"
		    "+\n");
		assert_diag(&s.d, DIAG_WARNING, DIAG_BAD_POSITION, 6, 1);
		assert_non_null(strstr(s.d.v[0].message, "too-many-pieces"));
		session_close(&s);
		/* On the minishogi board, 16 is no square. */
		session_start(&s, csa_read, "P+16OU\n+\n", 10,
		    variant_minishogi());
		assert_int_equal(session_next(&s), READ_ERROR);
		assert_diag(&s.d, DIAG_ERROR, DIAG_BAD_POSITION, 1, 3);
		session_close(&s);
	}
}

/* Written as MSK writes it, never PI; it reads back the same. */
static void
test_csa_write_minishogi(void **state)
{
	static const char want[] =
	    "V2.2\nP1-HI * -GI-KI-OU\nP2 *  *  *  * -FU\nP3 *  *  *  *  * \n"
	    "P4+FU *  *  *  * \nP5+OU+KI+GI * +HI\nP+00KA\nP-00KA\n-\n"
	    "-2132KI\n+1514HI\n%TORYO\n";
	struct strbuf out = STRBUF_INIT, again = STRBUF_INIT;
	struct diag_list wd = DIAG_LIST_INIT;

	(void)state;
	/* A lishogi handicap, hands on both sides: all that a board says. */
	write_text("P1-HI * -GI-KI-OU\nP2 * * * * -FU\nP3 * * * * *\n"
	    "P4+FU * * * *\nP5+OU+KI+GI * +HI\nP-00KA\nP+00KA\n-\n"
	    "-2132KI\n+1514HI\n%TORYO\n", 2, &out, &wd);
	assert_string_equal(out.buf, want);
	assert_no_diags(&wd);
	write_text(out.buf, 2, &again, &wd);
	assert_string_equal(again.buf, want);
	assert_no_diags(&wd);
	/* The start itself: five ranks, no PI. */
	strbuf_reset(&out);
	write_text("V2.2\n" MINI_ROWS "+\n", 3, &out, &wd);
	assert_string_equal(out.buf, "'CSA encoding=UTF-8\nV3.0\n" MINI_ROWS
	    "+\n");
	strbuf_release(&out);
	strbuf_release(&again);
	diag_list_release(&wd);
}

/* ---- round trips: CSA -> record -> CSA -> record ---- */

/* One line per header, names first, without the ones the writer makes. */
static void
header_digest(const struct record *r, struct strbuf *sb)
{
	size_t i;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < r->nheaders; i++) {
			const struct record_header *h = &r->headers[i];
			int name = h->id == HDR_BLACK || h->id == HDR_WHITE;

			if (h->id == HDR_VERSION || h->id == HDR_ENCODING ||
			    name != (pass == 0))
				continue;
			strbuf_addf(sb, "%s %s=%s\n", header_id_name(h->id),
			    record_str(r, h->key), record_str(r, h->value));
		}
	}
}

static int64_t
seconds(int64_t ms)
{
	return ms < 0 ? -1 : ms / 1000;
}

/*
 * Whether two records say the same (start, headers, main line, result);
 * `whole` compares times in whole seconds, all V2.2 holds.
 */
static void
assert_same_record(const struct record *a, const struct record *b, int whole)
{
	struct strbuf ha, hb;
	int32_t i, j;

	strbuf_init(&ha);
	strbuf_init(&hb);
	assert_int_equal(position_key(&a->start), position_key(&b->start));
	assert_int_equal(a->handicap, b->handicap);
	header_digest(a, &ha);
	header_digest(b, &hb);
	assert_string_equal(ha.buf, hb.buf);
	assert_string_equal(comment_of(a, 0), comment_of(b, 0));
	assert_int_equal(main_len(a), main_len(b));
	for (i = a->nodes[0].next, j = b->nodes[0].next; i >= 0 && j >= 0;
	    i = a->nodes[i].next, j = b->nodes[j].next) {
		const struct record_node *x = &a->nodes[i], *y = &b->nodes[j];

		assert_int_equal(x->special, y->special);
		assert_memory_equal(&x->spec, &y->spec, sizeof(x->spec));
		if (whole)
			assert_int_equal(seconds(x->time_ms),
			    seconds(y->time_ms));
		else
			assert_int_equal(x->time_ms, y->time_ms);
		assert_string_equal(record_str(a, x->raw),
		    record_str(b, y->raw));
		assert_string_equal(comment_of(a, i), comment_of(b, j));
	}
	assert_int_equal(a->has_recorded, b->has_recorded);
	assert_int_equal(a->recorded.winner, b->recorded.winner);
	assert_int_equal(a->recorded.reason, b->recorded.reason);
	assert_int_equal(a->recorded.ply, b->recorded.ply);
	strbuf_release(&ha);
	strbuf_release(&hb);
}

/* Reads every record of s, writes each, reads it back and compares. */
static int
round_trip_all(struct session *s, int version)
{
	struct write_opts o = { version, NULL, NULL };
	enum read_status rs;
	int records = 0;

	while ((rs = session_next(s)) != READ_EOF) {
		struct strbuf out = STRBUF_INIT;
		struct diag_list wd = DIAG_LIST_INIT;
		struct session back;
		int32_t end = record_main_end(&s->r);

		if (rs != READ_OK) {
			dump_diags(&s->d);
			fail_msg("record %d does not read", records + 1);
		}
		assert_int_equal(resolve_main_line(&s->r), main_len(&s->r) -
		    (s->r.nodes[end].special != SP_NONE));
		assert_int_equal(csa_write(&s->r, &o, &out, &wd), 0);
		assert_int_equal(wd.errors, 0);
		read_ok(&back, out.buf);
		assert_no_errors(&back.d);
		assert_same_record(&s->r, &back.r, version != 3);
		session_close(&back);
		diag_list_release(&wd);
		strbuf_release(&out);
		records++;
	}
	return records;
}

static const char *const trip_texts[] = {
	"'encoding=UTF-8\nV2.2\nN+先手\nN-後手\n$EVENT:e\n$SITE:s\n"
	    "$START_TIME:2003/05/03 10:30:00\n$END_TIME:2003/05/03 11:11:05\n"
	    "$TIME_LIMIT:00:25+00\n$OPENING:YAGURA\n'平手の局面\n"
	    HIRATE_ROWS "+\n'指し手と消費時間\n+2726FU\nT12\n-3334FU\nT6\n"
	    "%CHUDAN\n'----\n",
	"V2\nN+a\nN-b\n'Max_Moves:256\n$EVENT:wdoor+floodgate-300-10F+a+b\n"
	    HIRATE_ROWS "+\n'rating:a:b\n+7776FU\nT3\n'** 30 -3334FU\n"
	    "-3334FU\nT0\n%TORYO\n'P1 * \n'summary:toryo:a win:b lose\n"
	    "'$END_TIME:2024/01/01 00:00:00\n",
	"V3.0\n$TIME:900+0+5\nPI82HI22KA\n-\n-5142OU\nT0.5\n+7776FU\n"
	    "T1.25\n%KACHI,T2,'* 100\n",
	"P1 *  *  *  *  * -OU *  *  * \nP+00KI00FU\nP-00AL\n+\n+0042KI\n"
	    "%TSUMI\n/\nPI\n+\n+5756FU\n'*\n/\n",
};

#define N_TRIP_TEXTS (sizeof(trip_texts) / sizeof(trip_texts[0]))

/*
 * csa_has_record says what the first csa_read gives, without reading:
 * a record (read or failed) exactly when some line is a statement.
 */
static void
test_csa_has_record(void **state)
{
	static const struct {
		const char *src;
		int want;
	} cases[] = {
		{ "", 0 },
		{ "\n  \n", 0 },
		{ "/\n", 0 },
		{ "/\n/\n/\n", 0 },
		{ "'only a comment\n", 0 },
		{ "'CSA encoding=UTF-8\n/\n", 0 },
		{ " /\t\n'c\n/\xe3\x80\x80\n", 0 },	/* blanks, U+3000 */
		{ "V2.2\n", 1 },
		{ "N+Habu\n", 1 },
		{ "$EVENT:x\n/\n", 1 },
		{ "/\n/\n+\n+7776FU\n", 1 },		/* past empty records */
		{ "// two slashes\n", 1 },		/* an unknown line */
		{ "/ x\n", 1 },
		{ "+9999XX\n", 1 },			/* a record that fails */
		{ "P\n", 1 },
		{ "T\n", 1 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct session s;
		int has;
		enum read_status rs;

		session_opens(&s, cases[i].src);
		has = csa_has_record(&s.t);
		rs = session_next(&s);
		if (has != cases[i].want || has != (rs != READ_EOF))
			fail_msg("'%s': has_record %d, want %d; read %d",
			    cases[i].src, has, cases[i].want, (int)rs);
		session_close(&s);
	}
}

static void
test_csa_round_trips(void **state)
{
	size_t i;
	int version;

	(void)state;
	for (i = 0; i < N_TRIP_TEXTS; i++) {
		for (version = 2; version <= 3; version++) {
			struct session s;

			session_opens(&s, trip_texts[i]);
			assert_true(round_trip_all(&s, version) >= 1);
			assert_no_diags(&s.d);
			session_close(&s);
		}
	}
}

/* ---- real files (testdata/csa/<source>/, see testdata/README.md) ---- */

struct file_case {
	const char *path;
	const char *encoding;
	int moves;		/* on the main line, terminal excluded */
	enum special end;
	int recorded;		/* the 'summary gives a result */
	enum winner winner;
	enum reason reason;
};

static const struct file_case file_cases[] = {
	{ "testdata/csa/floodgate/floodgate.csa", "UTF-8", 125, SP_RESIGN, 1,
	    WINNER_BLACK, REASON_RESIGN },
	{ "testdata/csa/json-kifu-format/test/files/csa/dr1test1test0+tu-1_aobazero_viper-300-5F+aobazero+"
	    "viper+20200719201040.csa", "UTF-8", 400, SP_DECLARATION, 1,
	    WINNER_BLACK, REASON_DECLARATION },
	{ "testdata/csa/json-kifu-format/test/files/csa/2005_YAMADA_GPS.csa", "EUC-JP", 107, SP_RESIGN, 0,
	    WINNER_NONE, REASON_UNFINISHED },
	{ "testdata/csa/json-kifu-format/test/files/csa/8mai.csa", "CP932", 25, SP_ABORT, 0, WINNER_NONE,
	    REASON_UNFINISHED },
	{ "testdata/csa/shogi-kifu-converter/data/tests/csa/tsumeshogi.csa", "UTF-8", 3, SP_MATE, 0, WINNER_NONE,
	    REASON_UNFINISHED },
	{ "testdata/csa/shogi-kifu-converter/data/tests/csa/WCSC32_F7_NBS_DLS.csa", "UTF-8", 176, SP_RESIGN, 0,
	    WINNER_NONE, REASON_UNFINISHED },
};

#define N_FILE_CASES (sizeof(file_cases) / sizeof(file_cases[0]))

static void
test_file_case(void **state)
{
	const struct file_case *c = *state;
	struct session s;
	size_t n;
	char *buf = slurp(c->path, &n);
	int32_t end;

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
	s.read = csa_read;
	assert_true(csa_detect(&s.t) >= 90);
	assert_int_equal(session_next(&s), READ_OK);
	assert_no_diags(&s.d);
	end = record_main_end(&s.r);
	assert_int_equal(s.r.nodes[end].special, c->end);
	if (c->moves)
		assert_int_equal(main_len(&s.r) - 1, c->moves);
	assert_int_equal(resolve_main_line(&s.r), main_len(&s.r) - 1);
	assert_int_equal(s.r.has_recorded, c->recorded);
	if (c->recorded) {
		assert_int_equal(s.r.recorded.winner, c->winner);
		assert_int_equal(s.r.recorded.reason, c->reason);
		assert_int_equal(s.r.recorded.ply, c->moves);
	}
	assert_int_equal(session_next(&s), READ_EOF);
	/* And they survive the trip through the writer, both versions. */
	reader_init(&s.rd, &s.t, variant_standard());
	assert_int_equal(round_trip_all(&s, 2), 1);
	reader_init(&s.rd, &s.t, variant_standard());
	assert_int_equal(round_trip_all(&s, 3), 1);
	assert_no_diags(&s.d);
	session_close(&s);
	free(buf);
}

/* ---- the test list ---- */

#define N_FIXED 34
#define N_TESTS (N_FIXED + N_DETECT_CASES + N_VERSION_CASES + \
	N_POSITION_CASES + N_ERROR_CASES + N_TERMINAL_CASES + \
	N_SUMMARY_CASES + N_WRITE_CASES + N_FILE_CASES)

static void
add_cases(struct CMUnitTest *tests, char (*names)[128], size_t *n,
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

/*
 * A reader asked for the headers only (kifu find's first look) must give
 * every record the headers and start position a whole read gives, no
 * moves, and move on through the file the same way: over every CSA file
 * of testdata/, in lockstep with a whole read.
 */
static void
headers_only_text(const char *path, const char *data, size_t n)
{
	struct diag_list d1 = DIAG_LIST_INIT, d2 = DIAG_LIST_INIT;
	struct reader whole, heads;
	struct record r1, r2;
	struct text t;
	size_t h;

	text_init(&t);
	if (text_decode(&t, data, n, &d1) == 0) {
		record_init(&r1, variant_standard());
		record_init(&r2, variant_standard());
		reader_init(&whole, &t, variant_standard());
		reader_init(&heads, &t, variant_standard());
		heads.headers_only = 1;
		for (;;) {
			enum read_status s1, s2;

			record_reset(&r1, variant_standard());
			record_reset(&r2, variant_standard());
			s1 = csa_read(&whole, &r1, &d1);
			s2 = csa_read(&heads, &r2, &d2);
			if (whole.line != heads.line)
				fail_msg("%s: line %zu, headers only %zu", path,
				    whole.line, heads.line);
			if (s1 == READ_EOF || s2 == READ_EOF) {
				assert_int_equal(s1, s2);
				break;
			}
			/* A bad move is not seen when moves are not read. */
			if (s1 == READ_OK && s2 != READ_OK)
				fail_msg("%s: record %d not read headers only",
				    path, whole.nread);
			if (s1 == READ_OK) {
				/*
				 * The first move of a record without a side
				 * line is read: it starts the game.
				 */
				if (r2.nnodes > 2) {
					print_message("%s: record %d\n", path,
					    whole.nread);
					fail_msg("moves read headers only");
				}
				assert_int_equal(position_key(&r1.start),
				    position_key(&r2.start));
				/* Raw lines (81Dojo's) are no move lines. */
				if (r1.nheaders != r2.nheaders)
					fail_msg("%s: record %d: %zu headers, "
					    "headers only %zu", path,
					    whole.nread, r1.nheaders,
					    r2.nheaders);
				for (h = 0; h < r1.nheaders; h++) {
					assert_int_equal(r1.headers[h].id,
					    r2.headers[h].id);
					assert_string_equal(
					    record_str(&r1, r1.headers[h].value),
					    record_str(&r2, r2.headers[h].value));
					assert_int_equal(r1.headers[h].loc.line,
					    r2.headers[h].loc.line);
				}
			}
			if (s1 == READ_FATAL)
				break;
		}
		record_release(&r1);
		record_release(&r2);
	}
	text_release(&t);
	diag_list_release(&d1);
	diag_list_release(&d2);
}

static void
headers_only_file(const char *path)
{
	size_t n;
	char *data;

	if (!(data = walk_slurp(path, &n)))
		fail_msg("%s: cannot read", path);
	headers_only_text(path, data, n);
	free(data);
}

static const char *headers_only_last;
static size_t headers_only_files;

static void
headers_only_each(void *ctx, const char *path, const struct record *r,
    const struct replay *rp)
{
	size_t n = strlen(path);

	(void)ctx;
	(void)r;
	(void)rp;
	/* Records of one file come in a row: compare each file once. */
	if (n < 4 || strcmp(path + n - 4, ".csa") != 0 ||
	    (headers_only_last && strcmp(headers_only_last, path) == 0))
		return;
	free((void *)headers_only_last);
	headers_only_last = strdup(path);
	headers_only_file(path);
	headers_only_files++;
}

static void
test_csa_headers_only(void **state)
{
	struct session s;

	(void)state;
	walk_records("testdata/csa", headers_only_each, NULL);
	free((void *)headers_only_last);
	headers_only_last = NULL;
	if (headers_only_files < 100)
		fail_msg("only %zu CSA files", headers_only_files);
	/* Headers after the moves are read; a bad move is not seen. */
	session_opens(&s, "N+a\nPI\n+\n+7776FU\nT1\n+77X6FU\n%TORYO\n"
	    "$END_TIME:2020/01/02\n/\nN+b\nPI\n-\n-3334FU\n");
	s.rd.headers_only = 1;
	assert_int_equal(session_next(&s), READ_OK);
	assert_int_equal(s.r.nnodes, 1);
	assert_string_equal(header_value(&s.r, HDR_END_TIME), "2020/01/02");
	assert_int_equal(session_next(&s), READ_OK);
	assert_string_equal(header_value(&s.r, HDR_BLACK), "b");
	assert_int_equal(s.r.start.side, WHITE);
	assert_int_equal(session_next(&s), READ_EOF);
	session_close(&s);
}

/*
 * The headers-only reader passes over move lines 16 bytes at a time (or
 * line by line after a CR): every line that stops it, at every place in
 * a block and near the end of the text, under every line end, must stop
 * it as it stops a whole read.
 */
static void
test_csa_headers_only_skip(void **state)
{
	static const char *const stops[] = {
		"$END_TIME:2020/01/02 10:00:00", "'a comment", "'summary:toryo:a win:b lose",
		"/", "N+late", "  +7776FU", "+", "-", "T", "T.5", "Tx", "+x",
		"%TORYO", "%+ILLEGAL_ACTION", "%%", "", " ", "\t", "+7776FU,T3",
		"+7776FU, T3", "To_Move:+", "V2.2", "PI", "P1-KY", "$EVENT:x,y",
		"+0055KA", "-2233UM", "T12,+7776FU",
	};
	static const char *const eols[] = { "\n", "\r\n", "\r" };
	static const char *const moves[] = {
		"+7776FU", "T1", "-3334FU", "T12", "+2726FU", "T123",
	};
	struct strbuf sb = STRBUF_INIT;
	char name[64];
	size_t i, e, k, m;
	int last;

	(void)state;
	for (i = 0; i < sizeof(stops) / sizeof(stops[0]); i++)
		for (e = 0; e < sizeof(eols) / sizeof(eols[0]); e++)
			for (k = 0; k < 24; k++)
				for (last = 0; last < 2; last++) {
					strbuf_reset(&sb);
					strbuf_addf(&sb, "V2.2%sN+a%sN-b%sPI%s+%s",
					    eols[e], eols[e], eols[e], eols[e],
					    eols[e]);
					/* k short lines move the stop through a block. */
					for (m = 0; m < k + 6; m++)
						strbuf_addf(&sb, "%s%s",
						    m < k ? "T1" : moves[m % 6],
						    eols[e]);
					strbuf_addf(&sb, "%s%s", stops[i],
					    last ? "" : eols[e]);
					if (!last)
						strbuf_addf(&sb, "+7776FU%sT1%s"
						    "$EVENT:after%s%%TORYO%s/%s"
						    "N+c%sPI%s-%s-3334FU%s",
						    eols[e], eols[e], eols[e],
						    eols[e], eols[e], eols[e],
						    eols[e], eols[e], eols[e]);
					snprintf(name, sizeof(name),
					    "stop %zu, eol %zu, %zu lines%s", i,
					    e, k, last ? ", at the end" : "");
					headers_only_text(name, sb.buf, sb.len);
				}
	strbuf_release(&sb);
}

int
main(int argc, char **argv)
{
	static struct CMUnitTest tests[N_TESTS];
	static char names[N_TESTS][128];
	static const struct CMUnitTest fixed[] = {
		cmocka_unit_test(test_csa_unknown_version),
		cmocka_unit_test(test_csa_headers),
		cmocka_unit_test(test_csa_encoding_line),
		cmocka_unit_test(test_csa_bad_headers),
		cmocka_unit_test(test_csa_impossible_but_kept),
		cmocka_unit_test(test_csa_side_line),
		cmocka_unit_test(test_csa_trailing_junk_in_rank),
		cmocka_unit_test(test_csa_moves),
		cmocka_unit_test(test_csa_times),
		cmocka_unit_test(test_csa_bad_times),
		cmocka_unit_test(test_csa_comments),
		cmocka_unit_test(test_csa_statements_on_one_line),
		cmocka_unit_test(test_csa_unknown_terminal),
		cmocka_unit_test(test_csa_double_kachi),
		cmocka_unit_test(test_csa_bad_summary),
		cmocka_unit_test(test_csa_several_records),
		cmocka_unit_test(test_csa_error_then_next),
		cmocka_unit_test(test_csa_headers_only),
		cmocka_unit_test(test_csa_headers_only_skip),
		cmocka_unit_test(test_csa_empty_records),
		cmocka_unit_test(test_csa_unknown_lines),
		cmocka_unit_test(test_csa_hostile),
		cmocka_unit_test(test_csa_long_input_is_linear),
		cmocka_unit_test(test_csa_write_terminals),
		cmocka_unit_test(test_csa_write_drops),
		cmocka_unit_test(test_csa_write_fractions),
		cmocka_unit_test(test_csa_write_foreign_headers),
		cmocka_unit_test(test_csa_minishogi_board),
		cmocka_unit_test(test_csa_minishogi_default),
		cmocka_unit_test(test_csa_minishogi_continued),
		cmocka_unit_test(test_csa_minishogi_errors),
		cmocka_unit_test(test_csa_write_minishogi),
		cmocka_unit_test(test_csa_round_trips),
		cmocka_unit_test(test_csa_has_record),
	};
	size_t i, n = 0;

	_Static_assert(sizeof(fixed) / sizeof(fixed[0]) == N_FIXED,
	    "N_FIXED is the length of fixed[]");
	core_init();
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		tests[n++] = fixed[i];
	ADD("detect", test_detect_case, detect_cases, N_DETECT_CASES);
	ADD("version", test_version_case, version_cases, N_VERSION_CASES);
	ADD("position", test_position_case, position_cases, N_POSITION_CASES);
	ADD("error", test_error_case, error_cases, N_ERROR_CASES);
	ADD("terminal", test_terminal_case, terminal_cases, N_TERMINAL_CASES);
	ADD("summary", test_summary_case, summary_cases, N_SUMMARY_CASES);
	ADD("write", test_write_case, write_cases, N_WRITE_CASES);
	ADD("file", test_file_case, file_cases, N_FILE_CASES);
	if (n != N_TESTS) {
		fprintf(stderr, "test list has %zu tests, not %zu\n", n,
		    (size_t)N_TESTS);
		return 1;
	}
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests_name("parsers/csa", tests, NULL, NULL);
}
