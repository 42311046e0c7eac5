/*
 * The SFEN/USI record format: parsers/usi.c (usi_detect, usi_read) and
 * writers/usi.c (usi_write, sfen_write_record).
 *
 * Errors are checked by id, line and column only. Columns are given as
 * numbers worked out by hand from the line next to them, so a table
 * entry can be checked by eye. The writers are fed records whose moves
 * were resolved by a small stand-in for replay (resolve_main_line) that
 * does what replay does for USI claims.
 */
#include <stdio.h>
#include <stdlib.h>

#include "reading.h"
#include "helpers.h"
#include "core/core.h"
#include "core/handicap.h"
#include "core/record.h"
#include "core/text.h"
#include "parsers/format.h"

#define START "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL"
#define START_SFEN START " b - 1"
#define BISHOP "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL"
#define BISHOP_SFEN BISHOP " w - 1"
#define TSUME_SFEN "4k4/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1"
#define TEN_SFEN "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
#define MIDDLE_SFEN "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/" \
	"1KSG3+r1/LN2+p3L w Sbgn3p 124"

/* A text being read: everything one usi_read loop needs. */

static void
session_open(struct session *s, const char *src, size_t n,
    const struct variant *v)
{
	session_start(s, usi_read, src, n, v);
}

static void
session_opens(struct session *s, const char *src)
{
	session_open(s, src, strlen(src), variant_standard());
}

static const char *
status_name(enum read_status st)
{
	switch (st) {
	case READ_OK: return "ok";
	case READ_EOF: return "eof";
	case READ_ERROR: return "error";
	default: return "fatal";
	}
}

#define assert_status(got, want) do { \
	enum read_status g_ = (got), w_ = (want); \
	if (g_ != w_) \
		fail_msg("read status %s, expected %s", status_name(g_), \
		    status_name(w_)); \
} while (0)

/* Nodes on the main line, terminal included. */
static int
main_line_length(const struct record *r)
{
	int32_t i;
	int n = 0;

	for (i = r->nodes[0].next; i >= 0; i = r->nodes[i].next)
		n++;
	return n;
}

/* The main line's raw tokens joined by blanks, into buf. */
static void
main_line_text(const struct record *r, char *buf, size_t size)
{
	int32_t i;
	size_t n = 0;

	buf[0] = '\0';
	for (i = r->nodes[0].next; i >= 0; i = r->nodes[i].next)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? " " : "",
		    record_str(r, r->nodes[i].raw));
}

/*
 * Stands in for replay: resolves each main-line spec as a USI claim,
 * stopping at the first terminal or illegal move, which keeps MOVE_NONE.
 * Returns how many moves it resolved.
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
		c.drop = (nd->spec.flags & SPEC_DROP) != 0;
		c.from = nd->spec.from;
		c.to = nd->spec.to;
		c.piece = (enum piece_type)nd->spec.piece;
		c.promote = (nd->spec.flags & SPEC_PROMOTE) != 0;
		if (rules_check_move(&pos, &c, &m) != RULE_OK)
			break;
		nd->mv = m;
		position_do_move(&pos, m, &u);
		n++;
	}
	return n;
}

/* Reads the only record of `line`, which must be fine, and resolves it. */
static void
read_resolved(struct session *s, const char *line, const struct variant *v)
{
	session_open(s, line, strlen(line), v);
	assert_status(session_next(s), READ_OK);
	assert_no_diags(&s->d);
	resolve_main_line(&s->r);
}

/* ---- accepted line forms ---- */

struct form_case {
	const char *name;
	const char *variant;
	const char *line;
	const char *sfen;	/* the start position read */
	enum handicap handicap;
	const char *moves;	/* the main line's tokens */
};

static const struct form_case form_cases[] = {
	{ "bare SFEN", "standard", START_SFEN, START_SFEN, HANDICAP_EVEN, "" },
	{ "bare SFEN without a move number", "standard", BISHOP " w -",
	    BISHOP_SFEN, HANDICAP_BISHOP, "" },
	{ "bare SFEN with a move number", "standard", START " b - 37",
	    START " b - 37", HANDICAP_EVEN, "" },
	{ "bare SFEN with moves", "standard", START_SFEN " moves 7g7f 3c3d",
	    START_SFEN, HANDICAP_EVEN, "7g7f 3c3d" },
	{ "sfen", "standard", "sfen " BISHOP_SFEN, BISHOP_SFEN,
	    HANDICAP_BISHOP, "" },
	{ "sfen with moves", "standard", "sfen " BISHOP_SFEN " moves 3c3d 7g7f",
	    BISHOP_SFEN, HANDICAP_BISHOP, "3c3d 7g7f" },
	{ "sfen without a move number, with moves", "standard",
	    "sfen " START " b - moves 7g7f", START_SFEN, HANDICAP_EVEN,
	    "7g7f" },
	{ "position startpos", "standard", "position startpos", START_SFEN,
	    HANDICAP_EVEN, "" },
	{ "position startpos moves", "standard",
	    "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e", START_SFEN,
	    HANDICAP_EVEN, "7g7f 3c3d 8h2b+ 3a2b B*4e" },
	{ "position startpos with an empty move list", "standard",
	    "position startpos moves", START_SFEN, HANDICAP_EVEN, "" },
	{ "position sfen", "standard", "position sfen " BISHOP_SFEN,
	    BISHOP_SFEN, HANDICAP_BISHOP, "" },
	{ "position sfen moves", "standard",
	    "position sfen " MIDDLE_SFEN " moves 7d7e", MIDDLE_SFEN,
	    HANDICAP_NONE, "7d7e" },
	{ "startpos", "standard", "startpos", START_SFEN, HANDICAP_EVEN, "" },
	{ "startpos moves", "standard", "startpos moves 7g7f", START_SFEN,
	    HANDICAP_EVEN, "7g7f" },
	{ "blanks and tabs", "standard",
	    "  position\tstartpos   moves\t7g7f  3c3d \t", START_SFEN,
	    HANDICAP_EVEN, "7g7f 3c3d" },
	{ "trailing ideographic space", "standard",
	    "startpos moves 7g7f\xe3\x80\x80 ", START_SFEN, HANDICAP_EVEN,
	    "7g7f" },
	{ "CRLF line end", "standard", "startpos moves 7g7f\r\n", START_SFEN,
	    HANDICAP_EVEN, "7g7f" },
	{ "a result with no moves", "standard",
	    "position startpos moves resign", START_SFEN, HANDICAP_EVEN,
	    "resign" },
	{ "tsume position without a black king", "standard",
	    "sfen " TSUME_SFEN, TSUME_SFEN, HANDICAP_NONE, "" },
	{ "ten-piece handicap", "standard",
	    "position sfen " TEN_SFEN " moves 5a4b", TEN_SFEN, HANDICAP_10,
	    "5a4b" },
	{ "minishogi startpos", "minishogi", "position startpos moves 5d5c",
	    "rbsgk/4p/5/P4/KGSBR b - 1", HANDICAP_MINISHOGI, "5d5c" },
	{ "minishogi sfen", "minishogi", "sfen rbsgk/4p/5/P4/KGSBR b - 1",
	    "rbsgk/4p/5/P4/KGSBR b - 1", HANDICAP_MINISHOGI, "" },
};

#define N_FORM_CASES (sizeof(form_cases) / sizeof(form_cases[0]))

static void
test_form_case(void **state)
{
	const struct form_case *fc = *state;
	const struct variant *v = variant_by_name(fc->variant);
	struct session s;
	char sfen[SFEN_MAX], moves[256];

	assert_non_null(v);
	session_open(&s, fc->line, strlen(fc->line), v);
	assert_status(session_next(&s), READ_OK);
	assert_no_diags(&s.d);
	assert_ptr_equal(s.r.start.v, v);
	sfen_write(&s.r.start, sfen);
	assert_string_equal(sfen, fc->sfen);
	assert_int_equal(s.r.handicap, fc->handicap);
	main_line_text(&s.r, moves, sizeof(moves));
	assert_string_equal(moves, fc->moves);
	assert_int_equal(s.r.loc.line, 1);
	assert_int_equal(s.r.loc.col, 1);
	assert_status(session_next(&s), READ_EOF);
	assert_int_equal(s.rd.nread, 1);
	session_close(&s);
}

/*
 * The SFEN's ranks say the game, whatever the caller expected; startpos
 * is the caller's. Minishogi is written back as an SFEN, never startpos.
 */
static void
test_board_says_variant(void **state)
{
	static const struct {
		const char *caller, *line, *game, *written;
	} cases[] = {
		{ "standard", "position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves "
		    "1e1d", "minishogi", "position sfen rbsgk/4p/5/P4/KGSBR "
		    "b - 1 moves 1e1d\n" },
		{ "standard", "sfen 4k/5/5/5/K4 b G 1 moves G*2b", "minishogi",
		    "position sfen 4k/5/5/5/K4 b G 1 moves G*2b\n" },
		{ "minishogi", "position sfen " START_SFEN " moves 7g7f",
		    "standard", "position startpos moves 7g7f\n" },
		{ "minishogi", "startpos moves 1e1d", "minishogi",
		    "position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 1e1d\n" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf out = STRBUF_INIT;
		struct session s;

		read_resolved(&s, cases[i].line,
		    variant_by_name(cases[i].caller));
		assert_ptr_equal(s.r.start.v, variant_by_name(cases[i].game));
		assert_ptr_equal(s.r.v, s.r.start.v);
		assert_int_equal(usi_write(&s.r, NULL, &out, &s.d), 0);
		assert_string_equal(out.buf, cases[i].written);
		strbuf_release(&out);
		session_close(&s);
	}
}

/* What each kind of token puts in its node, and where it says it was. */
static void
test_move_specs(void **state)
{
	static const char src[] =
	    "# c\n\nstartpos moves 7g7f 8h2b+ P*5e resign\n";
	const struct record_node *n;
	struct session s;
	int32_t i;

	(void)state;
	session_opens(&s, src);
	assert_status(session_next(&s), READ_OK);
	assert_no_diags(&s.d);
	assert_int_equal(s.r.nnodes, 5);
	assert_int_equal(s.r.loc.line, 3);
	assert_int_equal(s.r.loc.byte, 5);

	i = s.r.nodes[0].next;
	n = &s.r.nodes[i];
	assert_int_equal(n->spec.from, sq_make(6, 6));
	assert_int_equal(n->spec.to, sq_make(6, 5));
	assert_int_equal(n->spec.flags, 0);
	assert_int_equal(n->spec.piece, PT_NONE);
	assert_int_equal(n->spec.color, -1);
	assert_int_equal(n->special, SP_NONE);
	assert_int_equal(n->mv, MOVE_NONE);
	assert_int_equal(n->ply, 1);
	assert_int_equal(n->parent, 0);
	assert_int_equal(n->alt, -1);
	assert_string_equal(record_str(&s.r, n->raw), "7g7f");
	assert_int_equal(n->loc.line, 3);
	assert_int_equal(n->loc.col, 16);
	assert_int_equal(n->loc.byte, 5 + 15);
	assert_int_equal(n->loc.len, 4);

	i = n->next;
	n = &s.r.nodes[i];
	assert_int_equal(n->spec.from, sq_make(7, 7));
	assert_int_equal(n->spec.to, sq_make(1, 1));
	assert_int_equal(n->spec.flags, SPEC_PROMOTE);
	assert_int_equal(n->spec.piece, PT_NONE);
	assert_int_equal(n->ply, 2);
	assert_string_equal(record_str(&s.r, n->raw), "8h2b+");
	assert_int_equal(n->loc.col, 21);
	assert_int_equal(n->loc.len, 5);

	i = n->next;
	n = &s.r.nodes[i];
	assert_int_equal(n->spec.from, SQ_NONE);
	assert_int_equal(n->spec.to, sq_make(4, 4));
	assert_int_equal(n->spec.flags, SPEC_DROP);
	assert_int_equal(n->spec.piece, PT_PAWN);
	assert_int_equal(n->ply, 3);
	assert_string_equal(record_str(&s.r, n->raw), "P*5e");
	assert_int_equal(n->loc.col, 27);

	i = n->next;
	n = &s.r.nodes[i];
	assert_int_equal(n->special, SP_RESIGN);
	assert_int_equal(n->spec.from, SQ_NONE);
	assert_int_equal(n->spec.to, SQ_NONE);
	assert_int_equal(n->ply, 4);
	assert_string_equal(record_str(&s.r, n->raw), "resign");
	assert_int_equal(n->loc.line, 3);
	assert_int_equal(n->loc.col, 32);
	assert_int_equal(n->loc.len, 6);
	assert_int_equal(n->next, -1);
	session_close(&s);
}

/* One record per line; blank and '#' lines are no records. */
static void
test_several_records(void **state)
{
	static const char src[] =
	    "# games\n"
	    "\n"
	    "position startpos moves 7g7f\n"
	    "   \t\n"
	    "  # an indented comment\n"
	    "sfen " BISHOP_SFEN " moves 3c3d 7g7f\r\n"
	    "\r\n"
	    "\xe3\x80\x80\n"
	    "startpos\n"
	    "# 角落ち\n"
	    START_SFEN "\n"
	    "\n";
	static const struct {
		uint32_t line;
		int moves;
		enum handicap h;
	} want[] = {
		{ 3, 1, HANDICAP_EVEN },
		{ 6, 2, HANDICAP_BISHOP },
		{ 9, 0, HANDICAP_EVEN },
		{ 11, 0, HANDICAP_EVEN },
	};
	struct session s;
	size_t i;

	(void)state;
	session_opens(&s, src);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_status(session_next(&s), READ_OK);
		assert_int_equal(s.r.loc.line, want[i].line);
		assert_int_equal(main_line_length(&s.r), want[i].moves);
		assert_int_equal(s.r.handicap, want[i].h);
		assert_int_equal(s.rd.nread, (int)i + 1);
	}
	assert_no_diags(&s.d);
	assert_status(session_next(&s), READ_EOF);
	assert_true(s.rd.done);
	assert_status(session_next(&s), READ_EOF);
	assert_int_equal(s.rd.nread, 4);
	session_close(&s);
}

/* A damaged line costs only its own record. */
static void
test_error_then_next(void **state)
{
	struct session s;

	(void)state;
	session_opens(&s, "startpos moves 7g7f x\nstartpos moves 7g7f\n");
	assert_status(session_next(&s), READ_ERROR);
	assert_int_equal(s.d.errors, 1);
	assert_string_equal(s.d.v[0].id, "syntax");
	assert_int_equal(s.d.v[0].loc.line, 1);
	assert_int_equal(s.d.v[0].loc.col, 21);
	assert_status(session_next(&s), READ_OK);
	assert_int_equal(s.r.loc.line, 2);
	assert_int_equal(main_line_length(&s.r), 1);
	assert_status(session_next(&s), READ_EOF);
	assert_int_equal(s.d.n, 1);
	session_close(&s);
}

static void
test_empty_texts(void **state)
{
	static const char *const texts[] = {
		"", "\n", "\n\n  \n", "# only a comment\n", "\r\n\t\r\n",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct session s;

		session_opens(&s, texts[i]);
		assert_status(session_next(&s), READ_EOF);
		assert_int_equal(s.rd.nread, 0);
		assert_int_equal(s.d.n, 0);
		session_close(&s);
	}
}

/* ---- result tokens ---- */

struct terminal_case {
	const char *token;
	enum special sp;
};

/* formats.md 0.2 and 5.2; "draw" is tsshogi's declared draw. */
static const struct terminal_case terminal_cases[] = {
	{ "resign", SP_RESIGN },
	{ "win", SP_DECLARATION },
	{ "draw", SP_DRAW_DECLARATION },
	{ "rep_draw", SP_SENNICHITE },
	{ "break", SP_ABORT },
	{ "timeout", SP_TIME_UP },
};

#define N_TERMINAL_CASES (sizeof(terminal_cases) / sizeof(terminal_cases[0]))

static void
test_terminal_case(void **state)
{
	const struct terminal_case *tc = *state;
	const struct record_node *n;
	struct session s;
	char line[64];

	snprintf(line, sizeof(line), "startpos moves 7g7f %s", tc->token);
	session_opens(&s, line);
	assert_status(session_next(&s), READ_OK);
	assert_no_diags(&s.d);
	assert_int_equal(main_line_length(&s.r), 2);
	n = &s.r.nodes[record_main_end(&s.r)];
	assert_int_equal(n->special, tc->sp);
	assert_int_equal(n->ply, 2);
	assert_string_equal(record_str(&s.r, n->raw), tc->token);
	assert_int_equal(n->loc.line, 1);
	assert_int_equal(n->loc.col, 21);
	assert_int_equal(n->loc.len, strlen(tc->token));
	session_close(&s);
}

/* ---- syntax errors and impossible positions ---- */

struct error_case {
	const char *name;
	const char *text;
	const char *id;
	uint32_t line, col;
};

static const struct error_case error_cases[] = {
	{ "not a move", "startpos moves 7g7f 7x7f", "syntax", 1, 21 },
	{ "lower-case drop", "startpos moves p*5e", "syntax", 1, 16 },
	{ "king drop", "startpos moves K*5e", "syntax", 1, 16 },
	{ "null move", "position startpos moves 7g7f 0000", "syntax", 1, 30 },
	{ "square off the board", "startpos moves 7j7f", "syntax", 1, 16 },
	{ "no-promotion marker", "startpos moves 8h2b=", "syntax", 1, 16 },
	{ "move glued to a result", "startpos moves 7g7fresign", "syntax",
	    1, 16 },
	{ "unknown result word", "startpos moves 7g7f rep_win", "syntax",
	    1, 21 },
	{ "result before a move", "startpos moves 7g7f resign 3c3d",
	    "syntax", 1, 21 },
	{ "two results", "startpos moves resign win", "syntax", 1, 16 },
	{ "move without 'moves'", "startpos 7g7f", "syntax", 1, 10 },
	{ "result without 'moves'", "position startpos resign", "syntax",
	    1, 19 },
	{ "moves without a position", "moves 7g7f", "syntax", 1, 1 },
	{ "'position' alone", "position", "syntax", 1, 9 },
	{ "'position' with a wrong word", "position start", "syntax", 1, 10 },
	{ "'position moves'", "position moves 7g7f", "syntax", 1, 10 },
	{ "'sfen' alone", "sfen", "syntax", 1, 5 },
	{ "'position sfen' alone", "position sfen  ", "syntax", 1, 14 },
	{ "bad board letter",
	    "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX "
	    "b - 1", "syntax", 1, 62 },
	{ "short rank", "sfen 8/9/9/9/9/9/9/9/9 b - 1", "syntax", 1, 7 },
	{ "long rank", "sfen 4k5/9/9/9/9/9/9/9/9 b - 1", "syntax", 1, 8 },
	{ "eight ranks", "4k4/9/9/9/9/9/9/9 b - 1", "syntax", 1, 18 },
	{ "bad side", "position sfen " START " x - 1", "syntax", 1, 73 },
	{ "hands missing", "sfen " START " b", "syntax", 1, 65 },
	{ "hands missing before moves", "sfen " START " b moves 7g7f",
	    "syntax", 1, 66 },
	{ "zero count in hands", "sfen " START " b 0P 1", "syntax", 1, 66 },
	{ "move number zero", START " b - 0", "syntax", 1, 63 },
	{ "move number with a letter", START " b - 1x moves 7g7f", "syntax",
	    1, 63 },
	{ "a fifth SFEN field", START " b - 1 7g7f", "syntax", 1, 65 },
	{ "junk line", "hello world", "syntax", 1, 1 },
	{ "junk symbols", "%TORYO", "syntax", 1, 1 },
	{ "a kanji in the hands", "sfen 4k4/9/9/9/9/9/9/9/9 b 歩 1", "syntax",
	    1, 28 },
	{ "full-width digit in a move", "startpos moves ７g7f", "syntax",
	    1, 16 },
	{ "error on a later line",
	    "startpos\n\n# 角落ち\nstartpos moves 7g7f 7g7f+ 3c3x\n", "syntax",
	    4, 27 },
	{ "two kings", "sfen 4k4/9/9/9/9/9/9/9/3KK4 b - 1", "bad-position",
	    1, 6 },
	{ "two kings", "position sfen 4k4/9/9/9/9/9/9/9/3KK4 b - 1",
	    "bad-position", 1, 15 },
};

#define N_ERROR_CASES (sizeof(error_cases) / sizeof(error_cases[0]))

static void
test_error_case(void **state)
{
	const struct error_case *ec = *state;
	struct session s;
	enum read_status st;
	int errors = 0;

	session_opens(&s, ec->text);
	while ((st = session_next(&s)) != READ_EOF) {
		if (st == READ_ERROR)
			errors++;
		else
			assert_status(st, READ_OK);
	}
	assert_int_equal(errors, 1);
	assert_int_equal(s.d.n, 1);
	assert_int_equal(s.d.errors, 1);
	assert_string_equal(s.d.v[0].id, ec->id);
	if (s.d.v[0].loc.line != ec->line || s.d.v[0].loc.col != ec->col)
		fail_msg("at %u:%u, expected %u:%u (%s)", s.d.v[0].loc.line,
		    s.d.v[0].loc.col, ec->line, ec->col, s.d.v[0].message);
	session_close(&s);
}

/* The message of an impossible position names the SFEN reader's id. */
static void
test_bad_position_ids(void **state)
{
	static const struct {
		const char *line, *id;
	} cases[] = {
		{ "sfen 4k4/9/9/9/9/9/9/9/3KK4 b - 1", "two-kings" },
		{ "sfen 4k4/9/9/9/9/9/4P4/4P4/4K4 b - 1", "nifu-on-board" },
		{ "sfen P3k4/9/9/9/9/9/9/9/4K4 b - 1", "dead-piece-on-board" },
		{ "sfen 4k4/9/9/9/9/9/9/9/4K4 b 19P 1", "too-many-pieces" },
		{ "sfen 4k4/4R4/9/9/9/9/9/9/4K4 b - 1",
		    "side-not-to-move-in-check" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct session s;
		/* Only two kings break the rules; the rest replay with a warning. */
		int fatal = i == 0;

		session_opens(&s, cases[i].line);
		assert_status(session_next(&s), fatal ? READ_ERROR : READ_OK);
		assert_int_equal(s.d.n, 1);
		assert_int_equal(s.d.errors, fatal);
		assert_string_equal(s.d.v[0].id, "bad-position");
		assert_non_null(strstr(s.d.v[0].message, cases[i].id));
		assert_int_equal(s.d.v[0].loc.line, 1);
		assert_int_equal(s.d.v[0].loc.col, 6);
		session_close(&s);
	}
}

/* ---- detection ---- */

struct detect_case {
	const char *name;
	const char *text;
	int min, max;
};

static const struct detect_case detect_cases[] = {
	{ "position lines",
	    "position startpos moves 7g7f 3c3d\n"
	    "position sfen " BISHOP_SFEN " moves 3c3d\n", 80, 100 },
	{ "startpos lines with comments",
	    "# games\n\nstartpos moves 7g7f\nstartpos\n", 80, 100 },
	{ "bare SFEN lines", START_SFEN "\nsfen " TSUME_SFEN "\n", 80, 100 },
	{ "minishogi SFEN", "rbsgk/4p/5/P4/KGSBR b - 1\n", 80, 100 },
	{ "one stray line", "startpos moves 7g7f\nstartpos\nstartpos\nhello\n",
	    1, 79 },
	{ "CSA", "V2.2\nN+sente\nN-gote\nP1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n"
	    "PI\n+\n+7776FU\n-3334FU\n%TORYO\n", 0, 0 },
	{ "CSA with a comment first",
	    "'CSA encoding=UTF-8\nV3.0\nPI\n+\n+2726FU,T12\n", 0, 0 },
	{ "KIF", "# ---- Kifu for Windows ----\n手合割：平手\n"
	    "手数----指手---------消費時間--\n"
	    "   1 ７六歩(77)   ( 0:00/00:00:00)\n",
	    0, 0 },
	{ "KI2", "先手：a\n後手：b\n▲７六歩 △３四歩\n", 0, 0 },
	{ "JSON", "{\"header\":{},\"moves\":[{}]}\n", 0, 0 },
	{ "the word position", "position of the king\n", 0, 0 },
	{ "empty", "", 0, 0 },
	{ "blank lines and comments", "\n  \n# startpos\n", 0, 0 },
};

#define N_DETECT_CASES (sizeof(detect_cases) / sizeof(detect_cases[0]))

static void
test_detect_case(void **state)
{
	const struct detect_case *dc = *state;
	struct text t;
	struct diag_list d = DIAG_LIST_INIT;
	int score;

	text_init(&t);
	assert_int_equal(text_from_utf8(&t, dc->text, strlen(dc->text), &d), 0);
	score = usi_detect(&t);
	if (score < dc->min || score > dc->max)
		fail_msg("score %d, expected %d..%d", score, dc->min, dc->max);
	text_release(&t);
	diag_list_release(&d);
}

/* ---- writing ---- */

struct trip_case {
	const char *name;
	const char *variant;
	const char *line;	/* canonical: written back byte for byte */
};

static const struct trip_case trip_cases[] = {
	{ "startpos", "standard", "position startpos\n" },
	{ "startpos with moves", "standard",
	    "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e\n" },
	{ "bishop handicap", "standard",
	    "position sfen " BISHOP_SFEN " moves 3c3d 7g7f break\n" },
	{ "resign", "standard", "position startpos moves 7g7f resign\n" },
	{ "win", "standard", "position startpos moves 7g7f 3c3d win\n" },
	{ "draw", "standard", "position startpos moves 7g7f draw\n" },
	{ "rep_draw", "standard", "position startpos moves 2h3h 8b7b 3h2h "
	    "7b8b 2h3h 8b7b 3h2h 7b8b 2h3h 8b7b 3h2h 7b8b rep_draw\n" },
	{ "timeout", "standard", "position startpos moves 7g7f timeout\n" },
	{ "a result alone", "standard", "position startpos moves resign\n" },
	{ "tsume position", "standard", "position sfen " TSUME_SFEN "\n" },
	{ "middle game with hands", "standard",
	    "position sfen " MIDDLE_SFEN " moves 7d7e\n" },
	{ "minishogi", "minishogi",
	    "position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5d5c 1b1c\n" },
};

#define N_TRIP_CASES (sizeof(trip_cases) / sizeof(trip_cases[0]))

static void
test_trip_case(void **state)
{
	const struct trip_case *tc = *state;
	struct strbuf out = STRBUF_INIT;
	struct session s;

	read_resolved(&s, tc->line, variant_by_name(tc->variant));
	assert_int_equal(usi_write(&s.r, NULL, &out, &s.d), 0);
	assert_string_equal(out.buf, tc->line);
	assert_no_diags(&s.d);
	strbuf_release(&out);
	session_close(&s);
}

/* Accepted forms come out in the one canonical form. */
static void
test_canonical_output(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "startpos moves 7g7f", "position startpos moves 7g7f\n" },
		{ "startpos", "position startpos\n" },
		{ "position startpos moves", "position startpos\n" },
		{ "sfen " START_SFEN " moves 7g7f",
		    "position startpos moves 7g7f\n" },
		{ START " b - 9 moves 7g7f", "position startpos moves 7g7f\n" },
		{ START_SFEN, "position startpos\n" },
		{ BISHOP " w -", "position sfen " BISHOP_SFEN "\n" },
		{ "\tposition  startpos  moves  7g7f\t 3c3d \xe3\x80\x80",
		    "position startpos moves 7g7f 3c3d\n" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf out = STRBUF_INIT;
		struct session s;

		read_resolved(&s, cases[i].in, variant_standard());
		assert_int_equal(usi_write(&s.r, NULL, &out, &s.d), 0);
		assert_string_equal(out.buf, cases[i].out);
		assert_no_diags(&s.d);
		strbuf_release(&out);
		session_close(&s);
	}
}

/* What a writer test adds to a resolved record before writing it. */
enum extra {
	EXTRA_HEADERS = 1 << 0,
	EXTRA_COMMENTS = 1 << 1,
	EXTRA_BOOKMARKS = 1 << 2,
	EXTRA_TIMES = 1 << 3,
	EXTRA_VARIATIONS = 1 << 4,
	EXTRA_ALL = (1 << 5) - 1
};

static void
add_extras(struct record *r, unsigned extras)
{
	int32_t first = r->nodes[0].next, second = r->nodes[first].next;

	if (extras & EXTRA_HEADERS) {
		record_add_header(r, "black", 5, "a", 1, HDR_BLACK, NULL);
		record_add_header(r, "white", 5, "b", 1, HDR_WHITE, NULL);
	}
	if (extras & EXTRA_COMMENTS) {
		record_add_comment(r, 0, "before the game", 15);
		record_add_comment(r, first, "a", 1);
		record_add_comment(r, first, "second line", 11);
		record_add_comment(r, second, "b", 1);
	}
	if (extras & EXTRA_BOOKMARKS)
		r->nodes[second].bookmark = record_intern(r, "mark", 4);
	if (extras & EXTRA_TIMES) {
		r->nodes[first].time_ms = 1000;
		r->nodes[second].time_ms = 2000;
		r->nodes[second].total_ms = 2000;
	}
	if (extras & EXTRA_VARIATIONS) {
		int32_t v1 = record_add_node(r, first);
		int32_t v2 = record_add_node(r, 0);

		r->nodes[v1].raw = record_intern(r, "8c8d", 4);
		r->nodes[v2].raw = record_intern(r, "2g2f", 4);
	}
}

/* One warning per kind of thing USI cannot hold, however many there are. */
static void
test_write_drops(void **state)
{
	static const struct {
		unsigned extras;
		size_t warnings;
	} cases[] = {
		{ 0, 0 },
		{ EXTRA_HEADERS, 1 },
		{ EXTRA_COMMENTS, 1 },
		{ EXTRA_BOOKMARKS, 1 },
		{ EXTRA_TIMES, 1 },
		{ EXTRA_VARIATIONS, 1 },
		{ EXTRA_COMMENTS | EXTRA_TIMES, 2 },
		{ EXTRA_ALL, 5 },
	};
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf out = STRBUF_INIT;
		struct session s;

		read_resolved(&s, "startpos moves 7g7f 3c3d 2g2f resign",
		    variant_standard());
		add_extras(&s.r, cases[i].extras);
		assert_int_equal(usi_write(&s.r, NULL, &out, &s.d), 0);
		assert_string_equal(out.buf,
		    "position startpos moves 7g7f 3c3d 2g2f resign\n");
		assert_int_equal(s.d.errors, 0);
		assert_int_equal(s.d.warnings, cases[i].warnings);
		assert_int_equal(s.d.n, cases[i].warnings);
		for (k = 0; k < s.d.n; k++)
			assert_int_equal(s.d.v[k].severity, DIAG_WARNING);
		strbuf_release(&out);
		session_close(&s);
	}
}

/* A terminal USI has no token for is dropped with a warning. */
static void
test_write_other_terminals(void **state)
{
	static const enum special others[] = {
		SP_MATE, SP_IMPASSE, SP_ILLEGAL_MOVE, SP_MAX_MOVES, SP_UNKNOWN,
		SP_ILLEGAL_BLACK, SP_SEALED,
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		struct strbuf out = STRBUF_INIT;
		struct session s;

		read_resolved(&s, "startpos moves 7g7f resign",
		    variant_standard());
		s.r.nodes[record_main_end(&s.r)].special = (uint8_t)others[i];
		assert_int_equal(usi_write(&s.r, NULL, &out, &s.d), 0);
		assert_string_equal(out.buf, "position startpos moves 7g7f\n");
		assert_int_equal(s.d.n, 1);
		assert_int_equal(s.d.warnings, 1);
		assert_int_equal(s.d.v[0].loc.col, 21);
		strbuf_release(&out);
		session_close(&s);
	}
}

/* The line stops at the first move replay could not resolve. */
static void
test_write_unresolved(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct session s;

	(void)state;
	read_resolved(&s, "startpos moves 7g7f 7g7f 3c3d resign",
	    variant_standard());
	assert_int_equal(usi_write(&s.r, NULL, &out, &s.d), 0);
	assert_string_equal(out.buf, "position startpos moves 7g7f\n");
	assert_int_equal(s.d.n, 1);
	assert_int_equal(s.d.warnings, 1);
	strbuf_release(&out);
	session_close(&s);
}

struct sfen_out_case {
	const char *name;
	const char *line;
	const char *sfen;
	size_t warnings;
};

static const struct sfen_out_case sfen_out_cases[] = {
	{ "no moves", "position startpos", START_SFEN "\n", 0 },
	{ "two moves", "position startpos moves 7g7f 3c3d",
	    "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL "
	    "b - 3\n", 1 },
	{ "captures go to hand",
	    "position startpos moves 7g7f 3c3d 8h2b+ 3a2b",
	    "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL "
	    "b Bb 5\n", 1 },
	{ "a result ends the moves", "position startpos moves 7g7f resign",
	    "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL "
	    "w - 2\n", 1 },
	{ "a result alone", "position startpos moves resign",
	    START_SFEN "\n", 1 },
	{ "an illegal move ends the moves",
	    "position startpos moves 7g7f 7g7f 3c3d",
	    "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL "
	    "w - 2\n", 1 },
	{ "handicap", "position sfen " BISHOP_SFEN " moves 3c3d",
	    "lnsgkgsnl/1r7/pppppp1pp/6p2/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL "
	    "b - 2\n", 1 },
	{ "move number kept", "position sfen " MIDDLE_SFEN " moves 7d7e",
	    "8l/1l+R2P3/p2pBG1pp/kp2p4/NnsP2G2/P1P1P2PP/1PS6/1KSG3+r1/"
	    "LN2+p3L b Sbgn3p 125\n", 1 },
};

#define N_SFEN_OUT_CASES (sizeof(sfen_out_cases) / sizeof(sfen_out_cases[0]))

static void
test_sfen_out_case(void **state)
{
	const struct sfen_out_case *sc = *state;
	struct strbuf out = STRBUF_INIT;
	struct session s;

	read_resolved(&s, sc->line, variant_standard());
	assert_int_equal(sfen_write_record(&s.r, NULL, &out, &s.d), 0);
	assert_string_equal(out.buf, sc->sfen);
	assert_int_equal(s.d.n, sc->warnings);
	assert_int_equal(s.d.warnings, sc->warnings);
	strbuf_release(&out);
	session_close(&s);
}

/* ---- hostile input ---- */

/* A line of `n` bytes: `head`, then `fill` repeated, then `tail`. */
static char *
make_line(const char *head, const char *fill, size_t n, const char *tail)
{
	size_t h = strlen(head), f = strlen(fill), t = strlen(tail), i;
	char *s = malloc(n + 1);

	assert_non_null(s);
	assert_true(h + t <= n);
	memcpy(s, head, h);
	for (i = h; i < n - t; i++)
		s[i] = fill[(i - h) % f];
	memcpy(s + n - t, tail, t);
	s[n] = '\0';
	return s;
}

static void
test_huge_junk(void **state)
{
	static const struct {
		const char *head, *fill, *tail;
		uint32_t col;
	} cases[] = {
		{ "", "x", "", 1 },
		{ "startpos moves ", "a", "", 16 },
		{ "startpos moves 7g7f ", "\xe6\xad\xa9", "", 21 },
		{ "sfen ", "p", " b - 1", 15 },
		{ "sfen " START " b ", "P", " 1", 67 },
		{ "position sfen ", "/", "", 15 },
		{ START_SFEN " ", "1", "", 65 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *line = make_line(cases[i].head, cases[i].fill,
		    (size_t)1 << 20, cases[i].tail);
		struct session s;

		session_opens(&s, line);
		assert_status(session_next(&s), READ_ERROR);
		assert_int_equal(s.d.n, 1);
		assert_string_equal(s.d.v[0].id, "syntax");
		assert_int_equal(s.d.v[0].loc.line, 1);
		assert_int_equal(s.d.v[0].loc.col, cases[i].col);
		/* Quoting a megabyte of junk helps nobody. */
		assert_true(strlen(s.d.v[0].message) < 200);
		assert_status(session_next(&s), READ_EOF);
		session_close(&s);
		free(line);
	}
}

/* Columns and time stay right on a line of 200000 moves. */
static void
test_long_line(void **state)
{
	const size_t moves = 200000, head = strlen("startpos moves ");
	char *line = make_line("startpos moves ", "7g7f ",
	    head + moves * 5 - 1, "");
	const struct record_node *n;
	struct session s;

	(void)state;
	/* 200000 moves: past the default limit, on purpose. */
	session_start_limited(&s, usi_read, line, strlen(line),
	    variant_standard(), &limits_none);
	assert_status(session_next(&s), READ_OK);
	assert_no_diags(&s.d);
	assert_int_equal(s.r.nnodes, moves + 1);
	n = &s.r.nodes[record_main_end(&s.r)];
	assert_int_equal(n->ply, (int)moves);
	assert_int_equal(n->loc.col, head + (moves - 1) * 5 + 1);
	session_close(&s);
	free(line);
}

/* Blanks between SFEN fields are allowed, however many. */
static void
test_long_blank_runs(void **state)
{
	char *line = make_line("sfen " START, " ", 5000, "b - 1 moves 7g7f");
	struct session s;

	(void)state;
	session_opens(&s, line);
	assert_status(session_next(&s), READ_OK);
	assert_no_diags(&s.d);
	assert_int_equal(s.r.handicap, HANDICAP_EVEN);
	assert_int_equal(main_line_length(&s.r), 1);
	assert_int_equal(s.r.nodes[1].loc.col, 5000 - 3);
	session_close(&s);
	free(line);
}

/* Random lines built from the format's own words: never a crash. */
static void
test_random_lines(void **state)
{
	static const char *const words[] = {
		"position", "startpos", "sfen", "moves", "7g7f", "8h2b+",
		"P*5e", "resign", "win", "draw", "rep_draw", START, BISHOP,
		"b", "w", "-", "1", "+", "/", "9", "\t", " ", " ", " ",
		"\xe3\x80\x80", "#", "\n", "\r\n", "\r", "2P", "k", "x", "*",
		"99999999999", "%TORYO", "角",
	};
	struct strbuf src = STRBUF_INIT;
	uint32_t seed = 12345;
	struct session s;
	enum read_status st;
	int i, ok = 0, bad = 0;

	(void)state;
	for (i = 0; i < 200000; i++) {
		seed = seed * 1103515245u + 12345u;
		strbuf_adds(&src, words[(seed >> 16) %
		    (sizeof(words) / sizeof(words[0]))]);
	}
	session_open(&s, src.buf, src.len, variant_standard());
	while ((st = session_next(&s)) != READ_EOF) {
		if (st == READ_OK)
			ok++;
		else if (st == READ_ERROR)
			bad++;
		else
			fail_msg("read status %s", status_name(st));
	}
	assert_int_equal(s.rd.nread, ok + bad);
	assert_int_equal(s.d.errors, (size_t)bad);
	assert_true(bad > 0);
	(void)usi_detect(&s.t);
	session_close(&s);
	strbuf_release(&src);
}

/* ---- the bundled sample files ---- */

/* Reads a file in testdata/usi; skips when run from elsewhere. */

struct sample_case {
	const char *path;
	int records;
	int canonical;	/* every line is what usi_write writes */
};

static const struct sample_case sample_cases[] = {
	{ "testdata/usi/games.usi", 6, 1 },
	{ "testdata/usi/positions.usi", 6, 0 },
};

#define N_SAMPLE_CASES (sizeof(sample_cases) / sizeof(sample_cases[0]))

static void
test_sample_case(void **state)
{
	const struct sample_case *sc = *state;
	struct session s;
	size_t n;
	char *buf = slurp(sc->path, &n);

	if (!buf) {
		skip();
		return;
	}
	session_open(&s, buf, n, variant_standard());
	assert_true(usi_detect(&s.t) >= 80);
	while (session_next(&s) == READ_OK) {
		struct strbuf out = STRBUF_INIT;
		const struct text_line *tl = &s.t.lines[s.r.loc.line - 1];
		int32_t end = record_main_end(&s.r);
		int moves = main_line_length(&s.r) -
		    (s.r.nodes[end].special != SP_NONE);

		if (resolve_main_line(&s.r) != moves)
			fail_msg("line %u: an illegal move", s.r.loc.line);
		assert_int_equal(usi_write(&s.r, NULL, &out, &s.d), 0);
		if (sc->canonical) {
			assert_int_equal(out.len, tl->len + 1);
			assert_memory_equal(out.buf, s.t.buf + tl->off,
			    tl->len);
		}
		strbuf_release(&out);
	}
	assert_no_diags(&s.d);
	assert_int_equal(s.rd.nread, sc->records);
	session_close(&s);
	free(buf);
}

#define N_FIXED 14
#define N_TESTS (N_FIXED + N_FORM_CASES + N_TERMINAL_CASES + N_ERROR_CASES + \
	N_DETECT_CASES + N_TRIP_CASES + N_SFEN_OUT_CASES + N_SAMPLE_CASES)

static void
add_cases(struct CMUnitTest *tests, char (*names)[96], size_t *n,
    const char *prefix, CMUnitTestFunction f, const void *cases,
    size_t size, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++, (*n)++) {
		const void *c = (const char *)cases + i * size;

		/* Every case table starts with a name or a path. */
		snprintf(names[*n], sizeof(names[*n]), "%s: %s", prefix,
		    *(const char *const *)c);
		tests[*n].name = names[*n];
		tests[*n].test_func = f;
		tests[*n].setup_func = NULL;
		tests[*n].teardown_func = NULL;
		tests[*n].initial_state = (void *)(uintptr_t)c;
	}
}

#define ADD_CASES(prefix, f, table) add_cases(tests, names, &n, (prefix), \
	(f), (table), sizeof((table)[0]), sizeof(table) / sizeof((table)[0]))

int
main(int argc, char **argv)
{
	static struct CMUnitTest tests[N_TESTS];
	static char names[N_TESTS][96];
	size_t n = 0;

	core_init();
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_move_specs);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(
	    test_board_says_variant);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_several_records);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_error_then_next);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_empty_texts);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_bad_position_ids);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_canonical_output);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_write_drops);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(
	    test_write_other_terminals);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_write_unresolved);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_huge_junk);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_long_line);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_long_blank_runs);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_random_lines);
	ADD_CASES("form", test_form_case, form_cases);
	ADD_CASES("terminal", test_terminal_case, terminal_cases);
	ADD_CASES("error", test_error_case, error_cases);
	ADD_CASES("detect", test_detect_case, detect_cases);
	ADD_CASES("round trip", test_trip_case, trip_cases);
	ADD_CASES("sfen output", test_sfen_out_case, sfen_out_cases);
	ADD_CASES("sample", test_sample_case, sample_cases);
	if (n != N_TESTS) {
		fprintf(stderr, "%zu tests listed, %zu expected\n", n,
		    (size_t)N_TESTS);
		return 1;
	}
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests_name("parsers/usi", tests, NULL, NULL);
}
