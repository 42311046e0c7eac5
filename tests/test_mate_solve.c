/*
 * test_mate_solve.c - the mate solver (mate/): lengths, lines, no-mates,
 * the rules it must keep (uchifuzume, repetition, dead pieces), the
 * composed-problem conventions on the positions of the threads that
 * argued them (../shared/docs/engines.md 5.3), and a cross-check of
 * game positions against a plain search (tests/mate_ref.h).
 */
#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/sfen.h"
#include "core/usi.h"
#include "mate/mate.h"
#include "mate/search.h"
#include "mate/tt.h"
#include "mate_ref.h"

static struct mate_ctx *ctx;

static int
setup(void **state)
{
	(void)state;
	ctx = mate_ctx_new(32u << 20);
	return ctx ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	mate_ctx_free(ctx);
	return 0;
}

/* Solves sfen under rules; the line as USI text into line (may be NULL). */
static enum mate_status
solve(const char *sfen, enum mate_rules rules, int *length, char *line,
    size_t size)
{
	struct mate_limits lim = { 5000000, 0 };
	struct mate_error me;
	struct mate_result r;
	struct position pos;
	enum mate_status st;
	int i;

	load_sfen(&pos, sfen);
	if (mate_prepare(&pos, rules, &me) < 0)
		fail_msg("%s: %s", sfen, me.message);
	mate_result_init(&r);
	mate_solve(ctx, &pos, rules, &lim, &r);
	st = r.status;
	*length = r.status == MATE_MATE ? r.length : -1;
	if (line) {
		line[0] = '\0';
		for (i = 0; i < r.line.n; i++) {
			char buf[USI_MOVE_MAX];

			usi_format_move(r.line.m[i], buf);
			if (i)
				strncat(line, " ", size - strlen(line) - 1);
			strncat(line, buf, size - strlen(line) - 1);
		}
	}
	if (st == MATE_MATE) {
		assert_int_equal(r.line.n, r.length);
		assert_true(mate_line_replays(ctx, &pos, &r.line));
	}
	mate_result_release(&r);
	return st;
}

static void
expect_mate(const char *sfen, enum mate_rules rules, int length,
    const char *line)
{
	char got[4096];
	int len;

	assert_int_equal(solve(sfen, rules, &len, got, sizeof(got)),
	    MATE_MATE);
	assert_int_equal(len, length);
	if (line)
		assert_string_equal(got, line);
}

static void
test_short_mates(void **state)
{
	(void)state;
	/* Head mate with a gold. */
	expect_mate("4k4/9/4P4/9/9/9/9/9/9 b G 1", MATE_GAME, 1, "G*5b");
	/* Mogami's examples (TeamMogami/mog-core-scala): 9, 7, 13, 5, 11. */
	expect_mate("4k4/9/9/9/3+PP4/9/9/9/9 b 4G2r2b4s4n4l16p 1", MATE_GAME,
	    9, NULL);
	expect_mate("8k/7p1/1r7/5bS2/7N1/9/9/9/9 b RSNLb4g2s2n3l17p 1",
	    MATE_GAME, 7, NULL);
	expect_mate("4RB1k1/5s3/7n1/5s1LP/9/7r1/9/9/6K2 b b4g2s3n3l17p 1",
	    MATE_GAME, 13, NULL);
	/* "mate in 5 involving uchifuzume" */
	expect_mate("5B1n1/8k/6Rpp/9/9/9/9/9/9 b rb4g4s3n4l16p 1", MATE_GAME,
	    5, NULL);
	expect_mate("5n1k1/5ps2/7p1/8N/7P1/9/9/9/9 b RBrb4g3s2n4l15p 1",
	    MATE_GAME, 11, NULL);
}

static void
test_no_mate(void **state)
{
	int len;

	(void)state;
	/* One gold cannot mate a bare king in the middle. */
	assert_int_equal(solve("4k4/9/9/9/9/9/9/9/9 b G 1", MATE_GAME, &len,
	    NULL, 0), MATE_NOMATE);
	/* No check at all. */
	assert_int_equal(solve("4k4/9/9/9/9/9/9/9/4K4 b - 1", MATE_GAME, &len,
	    NULL, 0), MATE_NOMATE);
}

/*
 * The only mate in one is a pawn drop, which uchifuzume forbids: P*1b
 * is protected by the gold and the bishop holds 2a.
 */
static void
test_uchifuzume(void **state)
{
	const char *sfen = "8k/9/5B1G1/9/9/9/9/9/9 b P 1";
	struct position pos;
	int len, ref;

	(void)state;
	load_sfen(&pos, sfen);
	assert_int_equal(judge_usi(&pos, "P*1b"), RULE_UCHIFUZUME);
	assert_int_not_equal(solve(sfen, MATE_GAME, &len, NULL, 0),
	    MATE_UNKNOWN);
	assert_true(len != 1);
	ref = ref_mate_length(&pos, 0, 7, NULL);
	assert_int_equal(len, ref);
}

/*
 * A lone rook can check a lone king for ever but never mate: a
 * perpetual check is no mate, proved, not a loop to the node limit.
 */
static void
test_perpetual_check(void **state)
{
	const char *sfen = "8k/9/9/9/9/9/9/9/R8 b - 1";
	struct position pos;
	int len;

	(void)state;
	assert_int_equal(solve(sfen, MATE_GAME, &len, NULL, 0), MATE_NOMATE);
	load_sfen(&pos, sfen);
	assert_int_equal(ref_mate_length(&pos, 0, 7, NULL), -1);
}

/*
 * A piece may not stop where it could never move again: the mate is
 * the knight's promotion, and the line replays (replay refuses a dead
 * piece).
 */
static void
test_dead_pieces(void **state)
{
	struct position pos;

	(void)state;
	/* The knight must promote on 2a; the mate is the promotion. */
	load_sfen(&pos, "8k/9/5BNG1/9/9/9/9/9/9 b - 1");
	assert_int_equal(judge_usi(&pos, "3c2a"), RULE_DEAD_PIECE);
	expect_mate("8k/9/5BNG1/9/9/9/9/9/9 b - 1", MATE_GAME, 1, "3c2a+");
}

/* A record line given as the attacker in check must answer it with a check. */
static void
test_attacker_in_check(void **state)
{
	int len;

	(void)state;
	/* Black's king is checked by the lance; only K moves or captures. */
	assert_int_not_equal(solve("4k4/9/4P4/9/9/9/9/4l4/4K4 b G 1",
	    MATE_GAME, &len, NULL, 0), MATE_UNKNOWN);
	assert_true(len != 1);	/* G*5b would leave the king in check */
}

static void
expect_error(const char *sfen, enum mate_rules rules, const char *id)
{
	struct mate_error me;
	struct position pos;

	load_sfen(&pos, sfen);
	assert_int_equal(mate_prepare(&pos, rules, &me), -1);
	assert_string_equal(me.id, id);
}

static void
test_bad_positions(void **state)
{
	struct position pos;
	struct sfen_error e;
	struct mate_error me;

	(void)state;
	expect_error("9/9/9/9/9/9/9/9/9 b G 1", MATE_GAME, "no-kings");
	expect_error("4K4/9/9/9/9/9/9/9/9 b G 1", MATE_GAME,
	    "no-defender-king");
	/* The side not to move in check: sfen_read refuses it, so build it. */
	assert_int_equal(sfen_read(&pos, variant_standard(),
	    "4k4/4R4/9/9/9/9/9/9/4K4 b - 1", &e), SFEN_IMPOSSIBLE);
	load_sfen(&pos, "4k4/9/9/9/9/9/9/9/4K4 b R 1");
	position_put(&pos, sq_make(4, 1), piece_make(BLACK, PT_ROOK));
	position_hand_set(&pos, BLACK, PT_ROOK, 0);
	assert_int_equal(mate_prepare(&pos, MATE_GAME, &me), -1);
	assert_string_equal(me.id, "defender-in-check");
}

/* The problem rules give the defender every piece not placed. */
static void
test_problem_hands(void **state)
{
	struct mate_error me;
	struct position pos;

	(void)state;
	load_sfen(&pos, "4k4/9/4P4/9/9/9/9/9/9 b G 1");
	assert_int_equal(mate_prepare(&pos, MATE_PROBLEM, &me), 0);
	assert_int_equal(pos.hand[WHITE][PT_GOLD], 3);
	assert_int_equal(pos.hand[WHITE][PT_PAWN], 17);
	assert_int_equal(pos.hand[WHITE][PT_ROOK], 2);
	assert_int_equal(pos.hand[BLACK][PT_GOLD], 1);
}

/*
 * Futile interpositions, on the positions of the threads that argued
 * them (engines.md 5.3): the expected answers are the threads'.
 */
static void
test_futile_classics(void **state)
{
	char line[1024];
	int len;

	(void)state;
	/* yaneurao/YaneuraOu#162: 3 plies with 無駄合 ignored (it said 13). */
	expect_mate("5pk2/7P1/4+R1+P1+b/8b/6R2/9/9/9/9 b 4g4s4n4l15p 1",
	    MATE_PROBLEM, 3, NULL);
	/* The interpositions count under the game rules. */
	expect_mate("5pk2/7P1/4+R1+P1+b/8b/6R2/9/9/9/9 b 4g4s4n4l15p 1",
	    MATE_GAME, 5, NULL);
	/* YaneuraOu#162: 3 plies (it said 7). */
	expect_mate("9/5g1s1/8k/6+R2/9/6R1S/5B3/9/9 b b3g2s4n4l18p 1",
	    MATE_PROBLEM, 3, NULL);
	/* komori-n/KomoringHeights#8 (a): drops on the lance's file, 1e2d. */
	expect_mate("7l1/7pk/9/9/8+P/9/9/9/8L b 2r2b4g4s4n2l16p 1",
	    MATE_PROBLEM, 1, "1e2d");
	/* KH#8 (a): P*1c after 1e2d is futile: the line takes another way. */
	assert_int_equal(solve("6p2/8k/9/6P2/8+P/9/9/9/8L b "
	    "G2r2b3g4s4n3l15p 1", MATE_PROBLEM, &len, line, sizeof(line)),
	    MATE_MATE);
	assert_null(strstr(line, "1e2d P*1c"));
	/* hkijin/shtsume#15: the pinned knight cannot recapture: 5e at once. */
	expect_mate("3+R3nk/8p/7P1/9/9/9/9/9/8B b 16p4l3n4s4gbr 1",
	    MATE_PROBLEM, 1, "1i5e");
	/* shtsume#16: the silver that could interpose is pinned by the lance. */
	expect_mate("8k/R7s/g5N2/1R7/8L/4+b4/9/9/9 b b3g3s3n3l18p 1",
	    MATE_PROBLEM, 1, "8d8a+");
	/* KH#5: v0.5's recapture rule said 3; the reporter expected more. */
	assert_int_equal(solve("l4gknl/3g2s2/pB2pp1pp/3P5/2P6/4s3P/"
	    "P3sPPP1/1P4K2/L5GNL w RGN3Prbsn2p 84", MATE_PROBLEM, &len, NULL,
	    0), MATE_MATE);
	assert_true(len > 3);
}

/* An effective interposition (中合) is a real defence: never mate in 1. */
static void
test_effective_interposition(void **state)
{
	static const char *const sfens[] = {
		/* shtsume#14: 5五歩 after 7五飛 */
		"9/9/9/6rp1/6k2/3B2B2/2R3S2/9/9 b 4g3s4n4l17p 1",
		/* shtsume#14: 5三歩 after the lance check */
		"4k4/3P5/3+B5/3B5/9/9/9/9/9 b L2r4g4s4n3l17p 1",
		/* shtsume#14: the interposition by moving, 1四飛 then 1二角 */
		"7lk/7p1/9/+P+PL3r2/+P+P+PN1b3/+P+P+P+P+P+P2p/1L+pNNN3/"
		"+R+bgss+P+P2/gggss+P+P1L b - 1",
	};
	size_t i;
	int len;

	(void)state;
	for (i = 0; i < sizeof(sfens) / sizeof(sfens[0]); i++) {
		enum mate_status st = solve(sfens[i], MATE_PROBLEM, &len, NULL,
		    0);

		assert_true(st != MATE_MATE || len != 1);
	}
}

/* The JSA daily problem of 2021-11-16 (sugyan/tsumeshogi-solver#1). */
static void
test_jsa_daily(void **state)
{
	(void)state;
	expect_mate("9/6Spk/9/5R1+B1/9/9/9/9/9 b Nrb4g3s3n4l17p 1",
	    MATE_PROBLEM, 5, "2d1c 1b1c N*2e 1c1b 4d1d");
}

/*
 * TadaoYamaoka/cshogi#54: a position cshogi's DfPn calls mate, which is
 * none, and one whose line it returned without its last three moves.
 */
static void
test_cshogi_54(void **state)
{
	char line[256];
	int len;

	(void)state;
	assert_int_equal(solve("2+P5+N/5P1B1/p2sg2p+P/2p2s1P1/8R/5KP1s/"
	    "P3+BNN1g/1S4+p1g/+p1R1Lk2+l b NL4Pgl3p 1", MATE_GAME, &len, NULL,
	    0), MATE_NOMATE);
	assert_int_equal(solve("l5p1k/3+R1p3/3p1g+N2/p1S1p2S1/1p5Kp/"
	    "5PP2/PP2P1sPP/2P2GG2/L5+r1L b L2P2bgs3np 1", MATE_GAME, &len,
	    line, sizeof(line)), MATE_MATE);
	assert_int_equal(len, 7);
	assert_string_equal(line, "L*1c 1a2a 1c1b+ 2a1b 2d2c+ 1b1a 2c2b");
}

/*
 * Game positions (their endings, from the shared corpus) against the
 * plain search, under both conventions: every mate of up to 5 plies the
 * solver finds has the reference's length, and every no-mate has none
 * that short.
 */
static void
test_cross_check(void **state)
{
	FILE *f = fopen("testdata/mate/game-endings.sfen", "r");
	char text[512];
	int n = 0, rules;

	(void)state;
	assert_non_null(f);
	while (fgets(text, sizeof(text), f)) {
		text[strcspn(text, "\n")] = '\0';
		if (!text[0] || text[0] == '#')
			continue;
		for (rules = 0; rules < 2; rules++) {
			struct mate_limits lim = { 2000000, 0 };
			struct mate_error me;
			struct mate_result r;
			struct position pos;
			int ref;

			load_sfen(&pos, text);
			if (mate_prepare(&pos, rules, &me) < 0)
				fail_msg("%s: %s", text, me.message);
			mate_result_init(&r);
			mate_solve(ctx, &pos, rules, &lim, &r);
			assert_int_not_equal(r.status, MATE_UNKNOWN);
			if (r.status == MATE_MATE && r.length <= 5) {
				ref = ref_mate_length(&pos, rules, r.length,
				    NULL);
				if (ref != r.length)
					fail_msg("%s (%s): solver %d, plain "
					    "search %d", text, rules ? "problem" :
					    "game", r.length, ref);
				n++;
			} else if (r.status == MATE_NOMATE) {
				assert_int_equal(ref_mate_length(&pos, rules, 3,
				    NULL), -1);
			}
			mate_result_release(&r);
		}
	}
	fclose(f);
	assert_true(n >= 20);
}

/* The solver's check test agrees with the core's on every move. */
static void
test_gives_check(void **state)
{
	FILE *f = fopen("testdata/mate/game-endings.sfen", "r");
	char text[512];
	int n = 0;

	(void)state;
	assert_non_null(f);
	while (fgets(text, sizeof(text), f)) {
		struct move_list ml;
		struct position pos;
		int i;

		text[strcspn(text, "\n")] = '\0';
		if (!text[0] || text[0] == '#')
			continue;
		load_sfen(&pos, text);
		movegen_legal(&pos, &ml);
		for (i = 0; i < ml.n; i++, n++)
			assert_int_equal(search_gives_check(&pos, ml.m[i]),
			    rules_gives_check(&pos, ml.m[i]));
	}
	fclose(f);
	assert_true(n > 1000);
}

/* The guard bits of packed hands: a <= b exactly when every count is. */
static void
test_hand_order(void **state)
{
	uint8_t a[HAND_NB] = { 0 }, b[HAND_NB] = { 0 };
	int i, pt;

	(void)state;
	srand(1525);
	for (i = 0; i < 20000; i++) {
		int want = 1;

		for (pt = PT_PAWN; pt < HAND_NB; pt++) {
			int max = pt == PT_PAWN ? 18 : pt == PT_ROOK ||
			    pt == PT_BISHOP ? 2 : 4;

			a[pt] = (uint8_t)(rand() % (max + 1));
			b[pt] = (uint8_t)(rand() % 3 == 0 ? a[pt] :
			    rand() % (max + 1));
			want &= a[pt] <= b[pt];
		}
		assert_int_equal(hand_le(hand_pack(a), hand_pack(b)), want);
	}
}

/* The same answer from a context of 1 MiB: slower maybe, never wrong. */
static void
test_small_memory(void **state)
{
	struct mate_ctx *small = mate_ctx_new(1u << 20);
	struct mate_limits lim = { 5000000, 0 };
	struct mate_error me;
	struct mate_result r;
	struct position pos;

	(void)state;
	assert_non_null(small);
	assert_true(mate_ctx_bytes(small) <= (1u << 20));
	assert_null(mate_ctx_new((1u << 20) - 1));
	load_sfen(&pos, "4RB1k1/5s3/7n1/5s1LP/9/7r1/9/9/6K2 b "
	    "b4g2s3n3l17p 1");
	assert_int_equal(mate_prepare(&pos, MATE_GAME, &me), 0);
	mate_result_init(&r);
	mate_solve(small, &pos, MATE_GAME, &lim, &r);
	assert_true(r.status == MATE_MATE || r.status == MATE_UNKNOWN);
	if (r.status == MATE_MATE)
		assert_int_equal(r.length, 13);
	mate_result_release(&r);
	mate_ctx_free(small);
}

/*
 * Past the node limit: unknown, never a guess (a fresh context: the
 * shared one knows this mate from an earlier test, as a table should).
 */
static void
test_limits(void **state)
{
	struct mate_ctx *c = mate_ctx_new(4u << 20);
	struct mate_limits lim = { 100, 0 };
	struct mate_error me;
	struct mate_result r;
	struct position pos;

	(void)state;
	load_sfen(&pos, "4RB1k1/5s3/7n1/5s1LP/9/7r1/9/9/6K2 b "
	    "b4g2s3n3l17p 1");
	assert_int_equal(mate_prepare(&pos, MATE_GAME, &me), 0);
	mate_result_init(&r);
	mate_solve(c, &pos, MATE_GAME, &lim, &r);
	assert_int_equal(r.status, MATE_UNKNOWN);
	assert_int_equal(r.stop, MATE_STOP_NODES);
	assert_int_equal(r.line.n, 0);
	mate_result_release(&r);
	mate_ctx_free(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_short_mates),
		cmocka_unit_test(test_no_mate),
		cmocka_unit_test(test_uchifuzume),
		cmocka_unit_test(test_perpetual_check),
		cmocka_unit_test(test_dead_pieces),
		cmocka_unit_test(test_attacker_in_check),
		cmocka_unit_test(test_bad_positions),
		cmocka_unit_test(test_problem_hands),
		cmocka_unit_test(test_futile_classics),
		cmocka_unit_test(test_effective_interposition),
		cmocka_unit_test(test_jsa_daily),
		cmocka_unit_test(test_cshogi_54),
		cmocka_unit_test(test_cross_check),
		cmocka_unit_test(test_gives_check),
		cmocka_unit_test(test_hand_order),
		cmocka_unit_test(test_small_memory),
		cmocka_unit_test(test_limits),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
