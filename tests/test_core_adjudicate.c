/*
 * Results under rule sets: core/adjudicate.c (adjudicate) and
 * core/ruleset.c.
 *
 * Every game is a USI line read by usi_read and replayed by
 * replay_record, as kifu validate does; what the record says beyond USI
 * (a Floodgate summary, a 'Max_Moves comment, %JISHOGI) is added to the
 * record between replay and adjudication. Expected results are worked
 * out by hand from ../shared/docs/rules.md; the long games for the move
 * limits are generated (long_game) so that no position repeats.
 */
#include <stdio.h>
#include <stdlib.h>

#include "helpers.h"
#include "core/adjudicate.h"
#include "core/core.h"
#include "core/handicap.h"
#include "core/record.h"
#include "core/ruleset.h"
#include "core/text.h"
#include "parsers/format.h"

/* The start-position shuffle of rules.md 1.7: 4 plies back to the start. */
#define SHUFFLE "2h5h 8b5b 5h2h 5b8b "
#define SHUFFLE3 SHUFFLE SHUFFLE SHUFFLE

/*
 * Perpetual check by Black (rules.md 1.7): the rook checks along file 5,
 * the king steps to 4a, the rook checks along file 4, the king steps
 * back. Every Black move is a check.
 */
#define BLACK_CHECKS_SFEN "4k4/9/9/9/5R3/9/9/9/K8 b - 1"
#define BLACK_CHECKS "4e5e 5a4a 5e4e 4a5a "
/* The same by White against Black's king on 5i. */
#define WHITE_CHECKS_SFEN "k8/9/9/9/3r5/9/9/9/4K4 w - 1"
#define WHITE_CHECKS "6e5e 5i6i 5e6e 6i5i "
/*
 * A cycle from the same start in which Black's first move (4e -> 6e, the
 * rook away from the king's file) is no check: 4e6e 5a4a 6e4e+ 4a5a.
 */
#define ONE_QUIET "4e6e 5a4a 6e4e 4a5a "

/* A game read, replayed and judged. */
struct game {
	struct text t;
	struct reader rd;
	struct record r;
	struct diag_list d;
	struct replay rp;
	struct adjudication a;
};

/* Reads and replays one USI line; judge it with game_judge. */
static void
game_read(struct game *g, const char *line)
{
	text_init(&g->t);
	diag_list_init(&g->d);
	if (text_from_utf8(&g->t, line, strlen(line), &g->d) != 0)
		fail_msg("test text does not load");
	reader_init(&g->rd, &g->t, variant_standard());
	record_init(&g->r, variant_standard());
	if (usi_read(&g->rd, &g->r, &g->d) != READ_OK)
		fail_msg("test game does not read: %s", line);
	replay_record(&g->r, &g->rp, &g->d);
}

/* Adjudicates under the named set, with one override when key is set. */
static void
game_judge(struct game *g, const char *rules, const char *key,
    const char *value)
{
	const struct ruleset *base = ruleset_by_name(rules);
	struct ruleset rs;

	if (!base)
		fail_msg("no rule set '%s'", rules);
	rs = *base;
	if (key && ruleset_set(&rs, key, value) != 0)
		fail_msg("bad test setting %s=%s", key, value);
	adjudicate(&g->r, &g->rp, &rs, &g->a);
}

static void
game_free(struct game *g)
{
	record_release(&g->r);
	diag_list_release(&g->d);
	text_release(&g->t);
}

/* Asserts a result, and whether the record agrees with it. */
#define assert_result(g, win, why, at, agrees) do { \
	const struct adjudication *a_ = &(g)->a; \
	if (a_->result.winner != (win) || a_->result.reason != (why) || \
	    a_->result.ply != (at) || a_->consistent != (agrees)) \
		fail_msg("%s: got %s %s at %d (%s%s), expected %s %s at " \
		    "%d (%s)", a_->rules, winner_name(a_->result.winner), \
		    reason_name(a_->result.reason), a_->result.ply, \
		    a_->consistent ? "consistent" : "inconsistent: ", \
		    a_->message, winner_name(win), reason_name(why), (at), \
		    (agrees) ? "consistent" : "inconsistent"); \
} while (0)

/* Reads line, judges it under rules and checks the result. */
static void
check_game(const char *line, const char *rules, enum winner win,
    enum reason why, int ply, int agrees)
{
	struct game g;

	game_read(&g, line);
	game_judge(&g, rules, NULL, NULL);
	assert_result(&g, win, why, ply, agrees);
	game_free(&g);
}

/* ---- sennichite ---- */

static void
test_sennichite_start_jsa(void **state)
{
	(void)state;
	/* JSA counts the start position: its fourth occurrence is ply 12. */
	check_game("startpos moves " SHUFFLE3, "jsa", WINNER_NONE,
	    REASON_SENNICHITE, 12, 1);
	check_game("startpos moves " SHUFFLE3 "rep_draw", "jsa", WINNER_NONE,
	    REASON_SENNICHITE, 12, 1);
	check_game("startpos moves " SHUFFLE3, "wars", WINNER_NONE,
	    REASON_SENNICHITE, 12, 1);
}

static void
test_sennichite_start_csa(void **state)
{
	(void)state;
	/* shogi-server does not: the position after 2h5h is first, ply 13. */
	check_game("startpos moves " SHUFFLE3 "2h5h", "csa", WINNER_NONE,
	    REASON_SENNICHITE, 13, 1);
	check_game("startpos moves " SHUFFLE3 "2h5h rep_draw", "csa",
	    WINNER_NONE, REASON_SENNICHITE, 13, 1);
	/* The override does the same to the JSA set. */
	{
		struct game g;

		game_read(&g, "startpos moves " SHUFFLE3 "2h5h");
		game_judge(&g, "jsa", "repetition-counts-start", "no");
		assert_result(&g, WINNER_NONE, REASON_SENNICHITE, 13, 1);
		assert_string_equal(g.a.rules,
		    "jsa,repetition-counts-start=no");
		game_free(&g);
	}
}

static void
test_sennichite_not_start(void **state)
{
	(void)state;
	/* rules.md 1.7: after 7g7f 3c3d the shuffle ends at ply 14 for both. */
	check_game("startpos moves 7g7f 3c3d " SHUFFLE3, "jsa", WINNER_NONE,
	    REASON_SENNICHITE, 14, 1);
	check_game("startpos moves 7g7f 3c3d " SHUFFLE3, "csa", WINNER_NONE,
	    REASON_SENNICHITE, 14, 1);
}

static void
test_sennichite_claim_too_early(void **state)
{
	struct game g;

	(void)state;
	/* Under csa the start position has occurred only three times. */
	game_read(&g, "startpos moves " SHUFFLE3 "rep_draw");
	game_judge(&g, "csa", NULL, NULL);
	assert_result(&g, WINNER_NONE, REASON_UNFINISHED, 12, 0);
	assert_int_equal(g.a.node, record_main_end(&g.r));
	assert_non_null(strstr(g.a.message, "3 times"));
	game_free(&g);
	/* Under jsa at ply 8 it is the third occurrence too. */
	check_game("startpos moves " SHUFFLE SHUFFLE "rep_draw", "jsa",
	    WINNER_NONE, REASON_UNFINISHED, 8, 0);
}

static void
test_sennichite_record_goes_on(void **state)
{
	struct game g;
	int32_t n;

	(void)state;
	/* A thirteenth move after the JSA end: the record goes on. */
	game_read(&g, "startpos moves " SHUFFLE3 "2h5h");
	game_judge(&g, "jsa", NULL, NULL);
	assert_result(&g, WINNER_NONE, REASON_SENNICHITE, 12, 0);
	n = record_main_end(&g.r);
	assert_int_equal(g.a.node, n);
	assert_int_equal(g.r.nodes[n].ply, 13);
	assert_non_null(strstr(g.a.message, "goes on to move 13"));
	game_free(&g);
}

/* ---- perpetual check ---- */

static void
test_perpetual_black(void **state)
{
	const char *line = "sfen " BLACK_CHECKS_SFEN " moves " BLACK_CHECKS
	    BLACK_CHECKS BLACK_CHECKS BLACK_CHECKS;

	(void)state;
	/* JSA: the start again at ply 12, made by White's escape. */
	check_game(line, "jsa", WINNER_WHITE, REASON_PERPETUAL_CHECK, 12, 0);
	/* csa: the position after the first check, made by a check. */
	check_game(line, "csa", WINNER_WHITE, REASON_PERPETUAL_CHECK, 13, 0);
	/* Ending where the game ends, the record agrees. */
	check_game("sfen " BLACK_CHECKS_SFEN " moves " BLACK_CHECKS
	    BLACK_CHECKS BLACK_CHECKS, "jsa", WINNER_WHITE,
	    REASON_PERPETUAL_CHECK, 12, 1);
}

static void
test_perpetual_white(void **state)
{
	const char *line = "sfen " WHITE_CHECKS_SFEN " moves " WHITE_CHECKS
	    WHITE_CHECKS WHITE_CHECKS "6e5e";

	(void)state;
	check_game(line, "csa", WINNER_BLACK, REASON_PERPETUAL_CHECK, 13, 1);
	check_game(line, "jsa", WINNER_BLACK, REASON_PERPETUAL_CHECK, 12, 0);
}

static void
test_perpetual_claimed_as_sennichite(void **state)
{
	struct game g;

	(void)state;
	/* 千日手 where the rules say the checking side lost. */
	game_read(&g, "sfen " BLACK_CHECKS_SFEN " moves " BLACK_CHECKS
	    BLACK_CHECKS BLACK_CHECKS "rep_draw");
	game_judge(&g, "jsa", NULL, NULL);
	assert_result(&g, WINNER_WHITE, REASON_PERPETUAL_CHECK, 12, 0);
	assert_non_null(strstr(g.a.message, "draw by sennichite"));
	assert_non_null(strstr(g.a.message, "White wins by perpetual-check"));
	game_free(&g);
}

static void
test_checker_stops_once(void **state)
{
	(void)state;
	/* One quiet move by Black in the window: a plain draw. */
	check_game("sfen " BLACK_CHECKS_SFEN " moves " BLACK_CHECKS
	    BLACK_CHECKS ONE_QUIET, "jsa", WINNER_NONE, REASON_SENNICHITE,
	    12, 1);
	/*
	 * csa: the position after 6e4e+ (plies 3, 7, 11, 15) is the first to
	 * occur four times; the quiet move at ply 9 lies in its window.
	 */
	check_game("sfen " BLACK_CHECKS_SFEN " moves " BLACK_CHECKS
	    BLACK_CHECKS ONE_QUIET BLACK_CHECKS, "csa", WINNER_NONE,
	    REASON_SENNICHITE, 15, 0);
	/* The quiet cycle first: still a draw under jsa. */
	check_game("sfen " BLACK_CHECKS_SFEN " moves " ONE_QUIET BLACK_CHECKS
	    BLACK_CHECKS, "jsa", WINNER_NONE, REASON_SENNICHITE, 12, 1);
}

/* ---- declarations ---- */

/*
 * Black declares with the king on 5b and ten tokins in the zone (10
 * points); the hand makes up the rest. White declares from the mirror
 * image, king on 5h.
 */
#define B_ZONE "+P+P+P+P1+P+P+P+P/+P3K3+P/9/9/9/9/9/9/4k4 b "
#define W_ZONE "4K4/9/9/9/9/9/9/+p3k3+p/+p+p+p+p1+p+p+p+p w "

struct decl_case {
	const char *name;
	const char *sfen;	/* the declarer is the side to move */
	int points;		/* the declarer's */
	enum winner jsa, csa;	/* 24-point and 27-point verdicts */
};

static const struct decl_case decl_cases[] = {
	{ "black 31: 24-point win exactly", B_ZONE "RB4G4S3N 1", 31,
	    WINNER_BLACK, WINNER_BLACK },
	{ "black 30: 24-point draw, one short", B_ZONE "RB4G4S2N 1", 30,
	    WINNER_NONE, WINNER_BLACK },
	{ "black 28: 27-point win exactly", B_ZONE "RB4G4S 1", 28,
	    WINNER_NONE, WINNER_BLACK },
	{ "black 27: 27-point loss, one short", B_ZONE "RB4G3S 1", 27,
	    WINNER_NONE, WINNER_WHITE },
	{ "black 24: 24-point draw exactly", B_ZONE "RB4G 1", 24,
	    WINNER_NONE, WINNER_WHITE },
	{ "black 23: 24-point loss, one short", B_ZONE "RB3G 1", 23,
	    WINNER_WHITE, WINNER_WHITE },
	{ "white 27: 27-point win exactly", W_ZONE "rb4g3s 1", 27,
	    WINNER_NONE, WINNER_WHITE },
	{ "white 26: 27-point loss, one short", W_ZONE "rb4g2s 1", 26,
	    WINNER_NONE, WINNER_BLACK },
	{ "white 31: 24-point win", W_ZONE "rb4g4s3n 1", 31,
	    WINNER_WHITE, WINNER_WHITE },
	/* Each condition failing alone, with 31 points otherwise. */
	{ "king outside the zone",
	    "+P+P+P+P1+P+P+P+P/+P7+P/9/4K4/9/9/9/9/4k4 b RB4G4S3N 1", 31,
	    WINNER_WHITE, WINNER_WHITE },
	{ "king on the third rank is inside",
	    "+P+P+P+P1+P+P+P+P/+P7+P/4K4/9/9/9/9/9/4k4 b RB4G4S3N 1", 31,
	    WINNER_BLACK, WINNER_BLACK },
	{ "nine pieces in the zone",
	    "+P+P+P+P1+P+P+P+P/+P3K4/9/8+P/9/9/9/9/4k4 b RB4G4S4N 1", 31,
	    WINNER_WHITE, WINNER_WHITE },
	{ "in check", "+P+P+P+P1+P+P+P+P/+P3K3+P/9/9/4r4/9/9/9/4k4 b "
	    "RB4G4S3N 1", 31, WINNER_WHITE, WINNER_WHITE },
	{ "pieces outside the zone do not count",
	    "+P+P+P+P1+P+P+P+P/+P3K3+P/9/RB7/9/9/9/9/4k4 b 4G4S3N 1", 21,
	    WINNER_WHITE, WINNER_WHITE },
	{ "big pieces in the zone count 5",
	    "+P+P+P+P1+P+P+P+P/+P2+RK+B2+P/9/9/9/9/9/9/4k4 b 4G4S3N 1", 31,
	    WINNER_BLACK, WINNER_BLACK },
};

static void
test_declaration_case(void **state)
{
	const struct decl_case *c = *state;
	static const char *const sets[] = { "jsa", "csa", "wars" };
	char line[256];
	int i;

	snprintf(line, sizeof(line), "sfen %s moves win", c->sfen);
	for (i = 0; i < 3; i++) {
		struct game g;
		enum winner want = i == 0 ? c->jsa : c->csa;
		enum color declarer;

		game_read(&g, line);
		game_judge(&g, sets[i], NULL, NULL);
		declarer = g.rp.final.side;
		/* The record claims a win for the declarer. */
		assert_result(&g, want, REASON_DECLARATION, 0,
		    want == (declarer == BLACK ? WINNER_BLACK : WINNER_WHITE));
		assert_true(g.a.has_points);
		assert_int_equal(g.a.points[declarer], c->points);
		game_free(&g);
	}
}

static void
test_declaration_draw_claim(void **state)
{
	struct game g;

	(void)state;
	/* USI "draw" (CSA %HIKIWAKE) at 28 points: right for jsa only. */
	game_read(&g, "sfen " B_ZONE "RB4G4S 1 moves draw");
	game_judge(&g, "jsa", NULL, NULL);
	assert_result(&g, WINNER_NONE, REASON_DECLARATION, 0, 1);
	game_judge(&g, "csa", NULL, NULL);
	assert_result(&g, WINNER_BLACK, REASON_DECLARATION, 0, 0);
	game_free(&g);
}

static void
test_declaration_overrides(void **state)
{
	struct game g;

	(void)state;
	game_read(&g, "sfen " B_ZONE "RB4G4S 1 moves win");
	game_judge(&g, "jsa", "declaration", "27");
	assert_result(&g, WINNER_BLACK, REASON_DECLARATION, 0, 1);
	assert_string_equal(g.a.rules, "jsa,declaration=27");
	game_judge(&g, "csa", "declaration", "24");
	assert_result(&g, WINNER_NONE, REASON_DECLARATION, 0, 0);
	/* No declaration rule: declaring loses. */
	game_judge(&g, "csa", "declaration", "none");
	assert_result(&g, WINNER_WHITE, REASON_DECLARATION, 0, 0);
	game_free(&g);
}

static void
test_declaration_after_moves(void **state)
{
	struct game g;

	(void)state;
	/* The king walks into the zone, White waits, then Black declares. */
	game_read(&g, "sfen +P+P+P+P1+P+P+P+P/+P7+P/4K4/9/9/9/9/9/4k4 b "
	    "RB4G4S3N 1 moves 5c5b 5i4i win");
	game_judge(&g, "jsa", NULL, NULL);
	assert_result(&g, WINNER_BLACK, REASON_DECLARATION, 2, 1);
	assert_int_equal(g.a.points[BLACK], 31);
	assert_int_equal(g.a.points[WHITE], 0);
	game_free(&g);
}

/*
 * Handicap games (rules.md 1.10): the two-piece handicap took White's
 * rook and bishop, 10 points, which count for White (上手) under jsa and
 * wars but not on shogi-server. A game reaching an entered king takes a
 * hundred moves, so the position at the declaration is put in place of
 * the replayed one; every other piece of the set is still there.
 */
#define TWO_PIECE "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
/* White declares: ten tokins and 4g4s3n in hand, 21 points + 10. */
#define HC_WHITE "4K4/9/9/9/9/9/9/+p3k3+p/+p+p+p+p1+p+p+p+p w RB8P4LN4g4s3n 1"

static void
handicap_declaration(const char *at, const char *rules, enum winner want,
    int white_points, int agrees)
{
	struct game g;

	/* White (上手) moves first: it declares at once. */
	game_read(&g, "sfen " TWO_PIECE " moves win");
	load_sfen(&g.rp.final, at);
	game_judge(&g, rules, NULL, NULL);
	assert_result(&g, want, REASON_DECLARATION, 0, agrees);
	assert_int_equal(g.a.points[WHITE], white_points);
	game_free(&g);
}

static void
test_declaration_handicap(void **state)
{
	struct position start, at;

	(void)state;
	load_sfen(&start, TWO_PIECE);
	load_sfen(&at, HC_WHITE);
	assert_int_equal(adjudicate_handicap_credit(&start, &at), 10);
	assert_int_equal(adjudicate_handicap_credit(&at, &at), 0);
	/*
	 * The HC_WHITE position has only one rook and one bishop, which
	 * the start does not know: with this start it is a handicap game.
	 */
	handicap_declaration(HC_WHITE, "jsa", WINNER_WHITE, 31, 1);
	handicap_declaration(HC_WHITE, "wars", WINNER_WHITE, 31, 1);
	handicap_declaration(HC_WHITE, "csa", WINNER_BLACK, 21, 0);
	/* The same credit makes 上手 reach 27 under the 27-point rule. */
	handicap_declaration("4K4/9/9/9/9/9/9/+p3k3+p/+p+p+p+p1+p+p+p+p w "
	    "RBS4N4L8P4g3s 1", "wars", WINNER_WHITE, 27, 1);
	handicap_declaration("4K4/9/9/9/9/9/9/+p3k3+p/+p+p+p+p1+p+p+p+p w "
	    "RB2S4N4L8P4g2s 1", "wars", WINNER_BLACK, 26, 0);
}

static void
test_declaration_handicap_shitate(void **state)
{
	struct game g;

	(void)state;
	/* 下手 (Black) gets no credit: its own 31 points win. */
	game_read(&g, "sfen " TWO_PIECE " moves 5a4b win");
	load_sfen(&g.rp.final, B_ZONE "RB4G4S3N8p4ln 1");
	game_judge(&g, "jsa", NULL, NULL);
	assert_result(&g, WINNER_BLACK, REASON_DECLARATION, 1, 1);
	assert_int_equal(g.a.points[BLACK], 31);
	/* White: 8p4ln in hand (13) and the 10 removed points. */
	assert_int_equal(g.a.points[WHITE], 23);
	game_free(&g);
}

static void
test_declaration_functions(void **state)
{
	struct position pos;
	struct declaration d;

	(void)state;
	load_sfen(&pos, "+P+P+P+P1+P+P+P+P/+P3K4/9/8+P/9/9/9/9/4k4 b "
	    "RB4G4S4N 1");
	adjudicate_declaration(&pos, DECLARATION_27, 0, &d);
	assert_int_equal(d.declarer, BLACK);
	assert_true(d.king_in_zone);
	assert_false(d.in_check);
	assert_int_equal(d.pieces, 9);
	assert_int_equal(d.points, 31);
	assert_int_equal(d.needed, 28);
	assert_int_equal(d.result.winner, WINNER_WHITE);
	adjudicate_declaration(&pos, DECLARATION_24, 0, &d);
	assert_int_equal(d.needed, 31);
	assert_int_equal(adjudicate_points(&pos, BLACK, 1), 31);
	assert_int_equal(adjudicate_points(&pos, BLACK, 0), 32);
	assert_int_equal(adjudicate_points(&pos, WHITE, 0), 0);
}

/* ---- agreed impasse ---- */

/* %JISHOGI on sfen under rules (and impasse=<count> if count is set). */
static void
impasse(const char *sfen, const char *rules, const char *count,
    enum winner want, int b, int w)
{
	struct game g;
	char line[256];

	snprintf(line, sizeof(line), "sfen %s moves resign", sfen);
	game_read(&g, line);
	g.r.nodes[record_main_end(&g.r)].special = SP_IMPASSE;
	game_judge(&g, rules, count ? "impasse" : NULL, count);
	assert_result(&g, want, REASON_IMPASSE, 0, want == WINNER_NONE);
	assert_true(g.a.has_points);
	assert_int_equal(g.a.points[BLACK], b);
	assert_int_equal(g.a.points[WHITE], w);
	game_free(&g);
}

static void
test_impasse(void **state)
{
	(void)state;
	/* The start position: 27 each, every piece counted. */
	impasse("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL "
	    "b - 1", "jsa", NULL, WINNER_NONE, 27, 27);
	impasse("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL "
	    "b - 1", "csa", NULL, WINNER_NONE, 27, 27);
	/* 27-27 under the amateur count goes to White. */
	impasse("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL "
	    "b - 1", "csa", "27", WINNER_WHITE, 27, 27);
	/* A lance short: 26 is still 24 or more. */
	impasse("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN1 "
	    "b - 1", "jsa", NULL, WINNER_NONE, 26, 27);
	/* Under 24 loses. */
	impasse("4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L10P8p 1", "jsa", NULL,
	    WINNER_BLACK, 46, 8);
	impasse("4k4/9/9/9/9/9/9/9/4K4 b 4G4S4N4L2P2r2b16p 1", "wars", NULL,
	    WINNER_WHITE, 18, 36);
	/* 30 and 24: a JSA impasse, a Black win by the amateur count. */
	impasse("4k4/9/9/9/9/9/9/9/4K4 b RB4G4S4N4L4Prb14p 1", "jsa", NULL,
	    WINNER_NONE, 30, 24);
	impasse("4k4/9/9/9/9/9/9/9/4K4 b RB4G4S4N4L4Prb14p 1", "jsa", "27",
	    WINNER_BLACK, 30, 24);
	/* 23 and 31: 23 loses either way. */
	impasse("4k4/9/9/9/9/9/9/9/4K4 b RB4G4S4NPrb4l17p 1", "csa", "27",
	    WINNER_WHITE, 23, 31);
	impasse("4k4/9/9/9/9/9/9/9/4K4 b RB4G4S4NPrb4l17p 1", "csa", NULL,
	    WINNER_WHITE, 23, 31);
}

/* ---- move limits ---- */

/* Whether m captures. */
static int
captures(const struct position *pos, move m)
{
	return !move_is_drop(m) && pos->board[move_to(m)] != PIECE_NONE;
}

/*
 * Writes into sb a USI line of `plies` moves from the start in which no
 * position repeats, no move mates or stalemates, and a move gives check
 * exactly at the plies in checks[] (ended by 0). The first move in
 * movegen order that fits is taken, non-captures first, so the game is
 * the same on every run.
 */
static void
long_game(struct strbuf *sb, int plies, const int *checks)
{
	struct position pos;
	uint64_t *seen = calloc((size_t)plies + 1, sizeof(*seen));
	int ply, nseen = 0;

	position_set_start(&pos, variant_standard());
	seen[nseen++] = position_key(&pos);
	strbuf_adds(sb, "startpos moves");
	for (ply = 1; ply <= plies; ply++) {
		struct move_list ml;
		int want = 0, i, k, pass, found = 0;
		char buf[USI_MOVE_MAX];

		for (k = 0; checks && checks[k]; k++)
			if (checks[k] == ply)
				want = 1;
		movegen_legal(&pos, &ml);
		for (pass = 0; pass < 2 && !found; pass++) {
			for (i = 0; i < ml.n && !found; i++) {
				struct position q = pos;
				struct undo u;
				enum play_state st;
				int s, dup = 0;

				if (captures(&pos, ml.m[i]) != pass)
					continue;
				position_do_move(&q, ml.m[i], &u);
				for (s = 0; s < nseen; s++)
					dup |= seen[s] == position_key(&q);
				st = rules_play_state(&q);
				if (dup || position_in_check(&q) != want ||
				    st == PLAY_CHECKMATE || st == PLAY_STALEMATE)
					continue;
				usi_format_move(ml.m[i], buf);
				strbuf_addf(sb, " %s", buf);
				pos = q;
				seen[nseen++] = position_key(&q);
				found = 1;
			}
		}
		if (!found)
			fail_msg("long_game: no move fits at ply %d", ply);
	}
	free(seen);
}

/* A long game with a terminal token appended ("" for none). */
static void
long_line(struct strbuf *sb, int plies, const int *checks, const char *end)
{
	strbuf_init(sb);
	long_game(sb, plies, checks);
	if (*end)
		strbuf_addf(sb, " %s", end);
}

static void
test_limit_csa_256(void **state)
{
	struct strbuf sb;
	struct game g;

	(void)state;
	long_line(&sb, 256, NULL, "");
	check_game(sb.buf, "csa", WINNER_NONE, REASON_MAX_MOVES, 256, 1);
	/* JSA plays on to 500. */
	check_game(sb.buf, "jsa", WINNER_NONE, REASON_UNFINISHED, 256, 1);
	/* Floodgate's record says so in a comment: JSA takes it too. */
	game_read(&g, sb.buf);
	record_add_comment(&g.r, 0, "Max_Moves:256", 13);
	game_judge(&g, "jsa", NULL, NULL);
	assert_result(&g, WINNER_NONE, REASON_MAX_MOVES, 256, 1);
	assert_int_equal(g.a.max_moves, 256);
	assert_true(g.a.limit_from_record);
	/* An override beats the record. */
	game_judge(&g, "jsa", "max-moves", "0");
	assert_result(&g, WINNER_NONE, REASON_UNFINISHED, 256, 1);
	game_judge(&g, "csa", "max-moves", "100");
	assert_result(&g, WINNER_NONE, REASON_MAX_MOVES, 100, 0);
	game_free(&g);
	strbuf_release(&sb);

	/* One move more: the record goes on after the limit. */
	long_line(&sb, 257, NULL, "");
	check_game(sb.buf, "csa", WINNER_NONE, REASON_MAX_MOVES, 256, 0);
	strbuf_release(&sb);
}

static void
test_limit_record_320(void **state)
{
	struct strbuf sb;
	struct game g;

	(void)state;
	/* The CSA championship limit, as a V3 $MAX_MOVES header. */
	long_line(&sb, 320, NULL, "");
	game_read(&g, sb.buf);
	record_add_header(&g.r, "MAX_MOVES", 9, "320", 3, HDR_MAX_MOVES, NULL);
	game_judge(&g, "csa", NULL, NULL);
	assert_result(&g, WINNER_NONE, REASON_MAX_MOVES, 320, 1);
	game_judge(&g, "jsa", NULL, NULL);
	assert_result(&g, WINNER_NONE, REASON_MAX_MOVES, 320, 1);
	game_judge(&g, "wars", NULL, NULL);
	assert_result(&g, WINNER_NONE, REASON_MAX_MOVES, 320, 1);
	game_free(&g);
	/* Without it, csa would have stopped at 256. */
	check_game(sb.buf, "csa", WINNER_NONE, REASON_MAX_MOVES, 256, 0);
	check_game(sb.buf, "wars", WINNER_NONE, REASON_UNFINISHED, 320, 1);
	strbuf_release(&sb);
}

static void
test_limit_jsa_500(void **state)
{
	struct strbuf sb;
	struct game g;

	(void)state;
	long_line(&sb, 500, NULL, "");
	check_game(sb.buf, "jsa", WINNER_NONE, REASON_MAX_MOVES, 500, 1);
	check_game(sb.buf, "csa", WINNER_NONE, REASON_MAX_MOVES, 256, 0);
	strbuf_release(&sb);
	/* 持将棋 written at the 500-move end names the same ending. */
	long_line(&sb, 500, NULL, "resign");
	game_read(&g, sb.buf);
	g.r.nodes[record_main_end(&g.r)].special = SP_IMPASSE;
	game_judge(&g, "jsa", NULL, NULL);
	assert_result(&g, WINNER_NONE, REASON_MAX_MOVES, 500, 1);
	game_free(&g);
	strbuf_release(&sb);
	/* One more move and JSA has ended the game before it. */
	long_line(&sb, 501, NULL, "");
	check_game(sb.buf, "jsa", WINNER_NONE, REASON_MAX_MOVES, 500, 0);
	strbuf_release(&sb);
}

static void
test_limit_jsa_check_extension(void **state)
{
	static const int checks[] = { 500, 502, 0 };
	struct strbuf sb;
	struct game g;

	(void)state;
	/*
	 * White checks with move 500 and 502; Black escapes; White's 504
	 * is quiet: the game is drawn after move 504.
	 */
	long_line(&sb, 506, checks, "");
	check_game(sb.buf, "jsa", WINNER_NONE, REASON_MAX_MOVES, 504, 0);
	strbuf_release(&sb);
	long_line(&sb, 504, checks, "");
	check_game(sb.buf, "jsa", WINNER_NONE, REASON_MAX_MOVES, 504, 1);
	strbuf_release(&sb);
	/* Stopping at 500 with 持将棋 while White checks: not over yet. */
	long_line(&sb, 500, checks, "resign");
	game_read(&g, sb.buf);
	g.r.nodes[record_main_end(&g.r)].special = SP_MAX_MOVES;
	game_judge(&g, "jsa", NULL, NULL);
	assert_result(&g, WINNER_NONE, REASON_UNFINISHED, 500, 0);
	/* Without the extension it is over at 500. */
	game_judge(&g, "jsa", "check-extension", "no");
	assert_result(&g, WINNER_NONE, REASON_MAX_MOVES, 500, 1);
	game_free(&g);
	strbuf_release(&sb);
}

static void
test_limit_mate_on_last_ply(void **state)
{
	struct game g;

	(void)state;
	/* G*1b mates on ply 1, the last the limit allows. */
	game_read(&g, "sfen 8k/9/8P/9/9/9/9/9/K8 b G 1 moves G*1b");
	game_judge(&g, "jsa", "max-moves", "1");
	assert_result(&g, WINNER_BLACK, REASON_CHECKMATE, 1, 1);
	/* shogi-server never looks for mate: a max-moves draw. */
	game_judge(&g, "csa", "max-moves", "1");
	assert_result(&g, WINNER_NONE, REASON_MAX_MOVES, 1, 1);
	game_judge(&g, "csa", NULL, NULL);
	assert_result(&g, WINNER_BLACK, REASON_CHECKMATE, 1, 1);
	game_free(&g);
}

/* ---- mate, stalemate and the record's own endings ---- */

static void
test_mate(void **state)
{
	struct game g;

	(void)state;
	check_game("sfen 8k/9/8P/9/9/9/9/9/K8 b G 1 moves G*1b", "jsa",
	    WINNER_BLACK, REASON_CHECKMATE, 1, 1);
	/* Resigning when mated agrees with the mate. */
	check_game("sfen 8k/9/8P/9/9/9/9/9/K8 b G 1 moves G*1b resign", "jsa",
	    WINNER_BLACK, REASON_CHECKMATE, 1, 1);
	check_game("sfen 8k/9/8P/9/9/9/9/9/K8 b G 1 moves G*1b resign", "csa",
	    WINNER_BLACK, REASON_RESIGN, 1, 1);
	/* Resigning a game one could win at once is the player's right. */
	check_game("sfen 8k/9/8P/9/9/9/9/9/K8 b G 1 moves resign", "jsa",
	    WINNER_WHITE, REASON_RESIGN, 0, 1);
	/* A record going on after the mate (with a move that is a foul). */
	game_read(&g, "sfen 8k/9/8P/9/9/9/9/9/K8 b G 1 moves G*1b 1a2a");
	game_judge(&g, "jsa", NULL, NULL);
	assert_result(&g, WINNER_BLACK, REASON_CHECKMATE, 1, 0);
	assert_int_equal(g.a.node, g.rp.illegal);
	game_free(&g);
}

static void
test_stalemate(void **state)
{
	(void)state;
	/* 1d1c leaves White's king on 1a no move and no check. */
	check_game("sfen 8k/6S2/9/8G/9/9/9/9/K8 b - 1 moves 1d1c", "jsa",
	    WINNER_BLACK, REASON_STALEMATE, 1, 1);
	check_game("sfen 8k/6S2/9/8G/9/9/9/9/K8 b - 1 moves 1d1c timeout",
	    "jsa", WINNER_BLACK, REASON_STALEMATE, 1, 1);
}

static void
test_record_endings(void **state)
{
	(void)state;
	check_game("startpos moves 7g7f resign", "jsa", WINNER_BLACK,
	    REASON_RESIGN, 1, 1);
	check_game("startpos moves 7g7f 3c3d timeout", "csa", WINNER_WHITE,
	    REASON_TIME_UP, 2, 1);
	check_game("startpos moves 7g7f break", "jsa", WINNER_NONE,
	    REASON_ABORT, 1, 1);
	check_game("startpos moves 7g7f", "jsa", WINNER_NONE,
	    REASON_UNFINISHED, 1, 1);
	/* 反則勝ち after a legal move: a foul the record does not hold. */
	{
		struct game g;

		game_read(&g, "startpos moves 7g7f resign");
		g.r.nodes[record_main_end(&g.r)].special = SP_ILLEGAL_WIN;
		game_judge(&g, "jsa", NULL, NULL);
		assert_result(&g, WINNER_WHITE, REASON_ILLEGAL_MOVE, 1, 1);
		game_free(&g);
	}
	/* A foul: its author loses, whatever the record says after. */
	check_game("startpos moves 7g7f 3c3d 7f7d resign", "jsa", WINNER_WHITE,
	    REASON_ILLEGAL_MOVE, 2, 0);
}

static void
test_floodgate_summaries(void **state)
{
	struct game g;

	(void)state;
	/*
	 * "abnormal": the player not on move left; the record says %TORYO
	 * but the summary names the side to move the winner.
	 */
	game_read(&g, "startpos moves 7g7f resign");
	g.r.has_recorded = 1;
	g.r.recorded.winner = WINNER_WHITE;
	g.r.recorded.reason = REASON_RESIGN;
	g.r.recorded.ply = 1;
	game_judge(&g, "csa", NULL, NULL);
	assert_result(&g, WINNER_WHITE, REASON_RESIGN, 1, 1);
	game_free(&g);
	/* An illegal move the server did not record: the summary says so. */
	game_read(&g, "startpos moves 7g7f 3c3d");
	g.r.has_recorded = 1;
	g.r.recorded.winner = WINNER_WHITE;
	g.r.recorded.reason = REASON_ILLEGAL_MOVE;
	game_judge(&g, "csa", NULL, NULL);
	assert_result(&g, WINNER_WHITE, REASON_ILLEGAL_MOVE, 2, 1);
	/* A summary claiming sennichite without one. */
	g.r.recorded.winner = WINNER_NONE;
	g.r.recorded.reason = REASON_SENNICHITE;
	game_judge(&g, "csa", NULL, NULL);
	assert_result(&g, WINNER_NONE, REASON_UNFINISHED, 2, 0);
	assert_int_equal(g.a.node, -1);
	game_free(&g);
	/* "illegal kachi": %KACHI in the record, the declarer lost. */
	game_read(&g, "sfen " B_ZONE "RB4G4S 1 moves win");
	g.r.has_recorded = 1;
	g.r.recorded.winner = WINNER_WHITE;
	g.r.recorded.reason = REASON_DECLARATION;
	game_judge(&g, "csa", NULL, NULL);
	assert_result(&g, WINNER_BLACK, REASON_DECLARATION, 0, 0);
	game_free(&g);
	game_read(&g, "sfen " B_ZONE "RB4G3S 1 moves win");
	g.r.has_recorded = 1;
	g.r.recorded.winner = WINNER_WHITE;
	g.r.recorded.reason = REASON_DECLARATION;
	game_judge(&g, "csa", NULL, NULL);
	assert_result(&g, WINNER_WHITE, REASON_DECLARATION, 0, 1);
	game_free(&g);
}

/* ---- minishogi (rules.md 1.11) ---- */

/*
 * A quiet cycle on the 5x5 board: Black's gold 4e-4d and back, White's
 * king 1a-1b and back; no move checks. Three times round, the start
 * occurs a fourth time at ply 12.
 */
#define MINI_QUIET_SFEN "4k/5/5/5/KG3"
#define MINI_QUIET "4e4d 1a1b 4d4e 1b1a "
#define MINI_QUIET_W "1a1b 4e4d 1b1a 4d4e "
/* Black's rook checks on every move: 2c1c+ 1a2a 1c2c+ 2a1a. */
#define MINI_CHECKS_SFEN "4k/5/3R1/5/K4 b - 1"
#define MINI_CHECKS "2c1c 1a2a 1c2c 2a1a "

static void
test_minishogi_repetition(void **state)
{
	static const char line[] = "sfen " MINI_QUIET_SFEN " b - 1 moves "
	    MINI_QUIET MINI_QUIET MINI_QUIET;
	struct game g;

	(void)state;
	/* Black made the game's first move and loses; the reason stays. */
	check_game(line, "minishogi", WINNER_WHITE, REASON_SENNICHITE, 12, 1);
	/* The record's rep_draw names the ending; the rules the winner. */
	check_game("sfen " MINI_QUIET_SFEN " b - 1 moves " MINI_QUIET
	    MINI_QUIET MINI_QUIET "rep_draw", "minishogi", WINNER_WHITE,
	    REASON_SENNICHITE, 12, 1);
	/* Shogi's rules draw it. */
	check_game(line, "jsa", WINNER_NONE, REASON_SENNICHITE, 12, 1);
	game_read(&g, line);
	game_judge(&g, "minishogi", "repetition", "draw");
	assert_result(&g, WINNER_NONE, REASON_SENNICHITE, 12, 1);
	assert_string_equal(g.a.rules, "minishogi,repetition=draw");
	game_judge(&g, "jsa", "repetition", "first-mover-loses");
	assert_result(&g, WINNER_WHITE, REASON_SENNICHITE, 12, 1);
	assert_string_equal(g.a.rules, "jsa,repetition=first-mover-loses");
	assert_non_null(strstr(g.a.detail, "Black loses"));
	game_free(&g);
	/* A claim that names a winner is still checked. */
	game_read(&g, "sfen " MINI_QUIET_SFEN " b - 1 moves " MINI_QUIET
	    MINI_QUIET MINI_QUIET "resign");
	game_judge(&g, "minishogi", NULL, NULL);
	assert_result(&g, WINNER_WHITE, REASON_SENNICHITE, 12, 0);
	game_free(&g);
	/* Under three occurrences the game goes on. */
	check_game("sfen " MINI_QUIET_SFEN " b - 1 moves " MINI_QUIET
	    MINI_QUIET "4e4d 1a1b 4d4e", "minishogi", WINNER_NONE,
	    REASON_UNFINISHED, 11, 1);
}

/* The first mover is whoever made move 1, by the start's move number. */
static void
test_minishogi_first_mover(void **state)
{
	(void)state;
	/* lishogi's handicaps: 上手 (White) moves first, and loses. */
	check_game("sfen " MINI_QUIET_SFEN " w - 1 moves " MINI_QUIET_W
	    MINI_QUIET_W MINI_QUIET_W, "minishogi", WINNER_BLACK,
	    REASON_SENNICHITE, 12, 1);
	/* Black to move at move 2: White made move 1. */
	check_game("sfen " MINI_QUIET_SFEN " b - 2 moves " MINI_QUIET
	    MINI_QUIET MINI_QUIET, "minishogi", WINNER_BLACK,
	    REASON_SENNICHITE, 12, 1);
	/* White to move at move 10: Black made move 1. */
	check_game("sfen " MINI_QUIET_SFEN " w - 10 moves " MINI_QUIET_W
	    MINI_QUIET_W MINI_QUIET_W, "minishogi", WINNER_WHITE,
	    REASON_SENNICHITE, 12, 1);
}

/* Perpetual check loses for the checker under either setting. */
static void
test_minishogi_perpetual(void **state)
{
	static const char line[] = "sfen " MINI_CHECKS_SFEN " moves "
	    MINI_CHECKS MINI_CHECKS MINI_CHECKS;
	struct game g;

	(void)state;
	check_game(line, "minishogi", WINNER_WHITE, REASON_PERPETUAL_CHECK,
	    12, 1);
	game_read(&g, line);
	game_judge(&g, "minishogi", "repetition", "draw");
	assert_result(&g, WINNER_WHITE, REASON_PERPETUAL_CHECK, 12, 1);
	game_free(&g);
	check_game(line, "jsa", WINNER_WHITE, REASON_PERPETUAL_CHECK, 12, 1);
}

static void
test_minishogi_endings(void **state)
{
	struct game g;

	(void)state;
	/* No legal move loses: stalemate (rules.md 1.6). */
	check_game("sfen 4k/2S2/5/4G/K4 b - 1 moves 1d1c", "minishogi",
	    WINNER_BLACK, REASON_STALEMATE, 1, 1);
	/* Mate. */
	check_game("sfen k4/5/G2B1/5/4K b G 1 moves G*5b", "minishogi",
	    WINNER_BLACK, REASON_CHECKMATE, 1, 1);
	/* No declarations: declaring loses. */
	game_read(&g, "sfen rbsgk/4p/5/P4/KGSBR b - 1 moves win");
	game_judge(&g, "minishogi", NULL, NULL);
	assert_result(&g, WINNER_WHITE, REASON_DECLARATION, 0, 0);
	assert_non_null(strstr(g.a.detail, "no declaration rule"));
	game_free(&g);
}

/* ---- rule sets ---- */

static void
test_ruleset_names(void **state)
{
	const struct ruleset *jsa = ruleset_by_name("jsa");
	const struct ruleset *csa = ruleset_by_name("csa");
	const struct ruleset *wars = ruleset_by_name("wars");

	(void)state;
	assert_non_null(jsa);
	assert_non_null(csa);
	assert_non_null(wars);
	assert_null(ruleset_by_name("JSA"));
	assert_ptr_equal(ruleset_default(), jsa);
	assert_int_equal(jsa->declaration, DECLARATION_24);
	assert_int_equal(jsa->max_moves, 500);
	assert_true(jsa->check_extension);
	assert_true(jsa->repetition_counts_start);
	assert_int_equal(csa->declaration, DECLARATION_27);
	assert_int_equal(csa->max_moves, 256);
	assert_false(csa->repetition_counts_start);
	assert_false(csa->mate_ends_game);
	assert_int_equal(wars->declaration, DECLARATION_27);
	assert_int_equal(wars->max_moves, 0);
	assert_int_equal(jsa->repetition, REPETITION_DRAW);
	assert_int_equal(csa->repetition, REPETITION_DRAW);
	assert_int_equal(wars->repetition, REPETITION_DRAW);
	{
		const struct ruleset *m = ruleset_by_name("minishogi");

		assert_non_null(m);
		assert_int_equal(m->repetition, REPETITION_FIRST_MOVER_LOSES);
		assert_true(m->repetition_counts_start);
		assert_int_equal(m->declaration, DECLARATION_NONE);
		assert_int_equal(m->max_moves, 0);
		assert_true(m->mate_ends_game);
		assert_false(m->check_extension);
	}
}

static void
test_ruleset_overrides(void **state)
{
	struct ruleset rs = *ruleset_by_name("csa");
	char buf[RULESET_DESC_MAX];

	(void)state;
	ruleset_describe(&rs, buf, sizeof(buf));
	assert_string_equal(buf, "csa");
	assert_int_equal(ruleset_set(&rs, "max-moves", "320"), 0);
	assert_int_equal(ruleset_set(&rs, "declaration", "none"), 0);
	assert_int_equal(ruleset_set(&rs, "repetition-counts-start", "yes"),
	    0);
	ruleset_describe(&rs, buf, sizeof(buf));
	assert_string_equal(buf, "csa,declaration=none,max-moves=320,"
	    "repetition-counts-start=yes");
	assert_int_equal(rs.max_moves, 320);
	assert_int_equal(rs.declaration, DECLARATION_NONE);
	/* Bad keys and values change nothing. */
	assert_int_equal(ruleset_set(&rs, "max-moves", "-1"), -1);
	assert_int_equal(ruleset_set(&rs, "max-moves", "12x"), -1);
	assert_int_equal(ruleset_set(&rs, "max-moves", ""), -1);
	assert_int_equal(ruleset_set(&rs, "declaration", "25"), -1);
	assert_int_equal(ruleset_set(&rs, "impasse", "none"), -1);
	assert_int_equal(ruleset_set(&rs, "mate-ends-game", "maybe"), -1);
	assert_int_equal(ruleset_set(&rs, "speed", "1"), -1);
	assert_int_equal(ruleset_set(&rs, "repetition", "loss"), -1);
	assert_int_equal(ruleset_set(&rs, "repetition", "yes"), -1);
	assert_int_equal(rs.max_moves, 320);
	assert_int_equal(ruleset_set(&rs, "mate-ends-game", "yes"), 0);
	assert_int_equal(ruleset_set(&rs, "impasse", "24"), 0);
	assert_int_equal(ruleset_set(&rs, "handicap-credit", "yes"), 0);
	assert_int_equal(ruleset_set(&rs, "check-extension", "yes"), 0);
	assert_true(rs.mate_ends_game && rs.handicap_credit &&
	    rs.check_extension && rs.impasse == IMPASSE_24);
	/* The named sets themselves are untouched. */
	assert_int_equal(ruleset_by_name("csa")->max_moves, 256);
}

#define N_CASES (sizeof(decl_cases) / sizeof(decl_cases[0]))
#define N_TESTS (31 + N_CASES)

int
main(int argc, char **argv)
{
	static struct CMUnitTest tests[N_TESTS];
	static char names[N_CASES][96];
	size_t n = 0, i;

	core_init();
#define T(f) tests[n++] = (struct CMUnitTest)cmocka_unit_test(f)
	T(test_sennichite_start_jsa);
	T(test_sennichite_start_csa);
	T(test_sennichite_not_start);
	T(test_sennichite_claim_too_early);
	T(test_sennichite_record_goes_on);
	T(test_perpetual_black);
	T(test_perpetual_white);
	T(test_perpetual_claimed_as_sennichite);
	T(test_checker_stops_once);
	for (i = 0; i < N_CASES; i++) {
		snprintf(names[i], sizeof(names[i]), "declaration: %s",
		    decl_cases[i].name);
		tests[n].name = names[i];
		tests[n].test_func = test_declaration_case;
		tests[n].setup_func = NULL;
		tests[n].teardown_func = NULL;
		tests[n].initial_state = (void *)&decl_cases[i];
		n++;
	}
	T(test_declaration_draw_claim);
	T(test_declaration_overrides);
	T(test_declaration_after_moves);
	T(test_declaration_handicap);
	T(test_declaration_handicap_shitate);
	T(test_declaration_functions);
	T(test_impasse);
	T(test_limit_csa_256);
	T(test_limit_record_320);
	T(test_limit_jsa_500);
	T(test_limit_jsa_check_extension);
	T(test_limit_mate_on_last_ply);
	T(test_mate);
	T(test_stalemate);
	T(test_record_endings);
	T(test_floodgate_summaries);
	T(test_minishogi_repetition);
	T(test_minishogi_first_mover);
	T(test_minishogi_perpetual);
	T(test_minishogi_endings);
	T(test_ruleset_names);
	T(test_ruleset_overrides);
#undef T
	if (n != N_TESTS) {
		fprintf(stderr, "%zu tests listed, %zu expected\n", n,
		    (size_t)N_TESTS);
		return 1;
	}
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests_name("core/adjudicate", tests, NULL,
	    NULL);
}
