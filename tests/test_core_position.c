/*
 * Position bookkeeping: do/undo, the incremental key, and the identity
 * the key stands for (rules.md 1.7: board, both hands, side to move; not
 * the move number).
 *
 * The random games use their own fixed-seed xorshift, not rand(), so that
 * every run and every libc plays the same games and a failure can be
 * replayed from the game and ply it reports.
 */
#include <stdio.h>
#include <stdlib.h>

#include "helpers.h"

#define START "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL"
#define KINGS "4k4/9/9/9/9/9/9/9/4K4"

#define GAMES 200
#define MINI_GAMES 100
#define MAX_PLIES 150

static uint64_t rng = 0x9e3779b97f4a7c15u;

/* Marsaglia's xorshift64 (13, 7, 17); never zero once seeded non-zero. */
static uint64_t
xorshift64(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Every field, so that undo cannot leave a stale derived set behind. */
static void
assert_positions_equal(const struct position *a, const struct position *b)
{
	int i;

	assert_ptr_equal(a->v, b->v);
	assert_memory_equal(a->board, b->board, sizeof(a->board));
	assert_memory_equal(a->hand, b->hand, sizeof(a->hand));
	for (i = 0; i < COLOR_NB; i++) {
		assert_true(a->by_color[i] == b->by_color[i]);
		assert_int_equal(a->king[i], b->king[i]);
	}
	for (i = 0; i < PT_NB; i++)
		assert_true(a->by_type[i] == b->by_type[i]);
	assert_true(a->golds == b->golds);
	assert_true(a->occ == b->occ);
	assert_int_equal(a->side, b->side);
	assert_int_equal(a->move_number, b->move_number);
	assert_int_equal(a->board_key, b->board_key);
	assert_int_equal(a->hand_key, b->hand_key);
}

static int
cmp_move(const void *a, const void *b)
{
	move x = *(const move *)a, y = *(const move *)b;

	return x < y ? -1 : x > y;
}

/*
 * Every generated move is one the judge accepts as a claim built from
 * it, and the judge hands back that same move; its USI text reads back
 * to the same claim; the list has no move twice.
 */
static void
check_generated(const struct position *pos, const struct move_list *ml)
{
	move sorted[MAX_MOVES];
	int i;

	for (i = 0; i < ml->n; i++) {
		move m = ml->m[i], out = MOVE_NONE;
		struct move_claim c, back;
		char usi[USI_MOVE_MAX];
		enum rule_id r;

		memset(&c, 0, sizeof(c));
		c.drop = move_is_drop(m);
		c.to = move_to(m);
		c.promote = move_is_promotion(m);
		if (c.drop) {
			c.from = SQ_NONE;
			c.piece = move_drop_type(m);
			assert_int_equal(move_piece(m),
			    piece_make(pos->side, c.piece));
		} else {
			c.from = move_from(m);
			c.piece = piece_type_of(move_piece(m));
			assert_int_equal(move_piece(m), pos->board[c.from]);
		}
		assert_int_equal(piece_color(move_piece(m)), pos->side);
		r = rules_check_move(pos, &c, &out);
		usi_format_move(m, usi);
		if (r != RULE_OK)
			fail_msg("generated %s judged %s", usi, rule_id_name(r));
		if (out != m)
			fail_msg("generated %s: judge returned %#x, not %#x", usi,
			    (unsigned)out, (unsigned)m);
		assert_int_equal(usi_parse_move(pos->v, usi, strlen(usi),
		    &back), 0);
		assert_int_equal(back.drop, c.drop);
		assert_int_equal(back.to, c.to);
		assert_int_equal(back.promote, c.promote);
		if (c.drop)
			assert_int_equal(back.piece, c.piece);
		else
			assert_int_equal(back.from, c.from);
		sorted[i] = m;
	}
	qsort(sorted, (size_t)ml->n, sizeof(sorted[0]), cmp_move);
	for (i = 1; i < ml->n; i++)
		if (sorted[i] == sorted[i - 1])
			fail_msg("move %#x generated twice", (unsigned)sorted[i]);
}

/*
 * The other way round: every claim the judge accepts is a generated
 * move. Each board piece is tried on every square with and without
 * promotion, each piece in hand dropped on every square; the judge is
 * asked both as rules_check_move() and told whether the side to move is
 * in check, as replay tells it. Dear, so the random games ask it on some
 * plies only.
 */
static void
check_judge_complete(const struct position *pos, const struct move_list *ml)
{
	int in_check = position_in_check(pos), ok = 0, known;
	struct move_claim c;
	square from, to;
	int pt;

	memset(&c, 0, sizeof(c));
	for (from = 0; from < SQ_NB; from++) {
		if (pos->board[from] == PIECE_NONE ||
		    piece_color(pos->board[from]) != pos->side)
			continue;
		c.from = from;
		c.piece = piece_type_of(pos->board[from]);
		for (to = 0; to < SQ_NB; to++) {
			c.to = to;
			for (c.promote = 0; c.promote < 2; c.promote++) {
				enum rule_id r;

				r = rules_check_move(pos, &c, NULL);
				known = rules_check_move_known(pos, &c,
				    in_check, NULL);
				assert_int_equal(known, r);
				ok += r == RULE_OK;
			}
		}
	}
	c.drop = 1;
	c.promote = 0;
	c.from = SQ_NONE;
	for (pt = PT_PAWN; pt < HAND_NB; pt++) {
		c.piece = (enum piece_type)pt;
		for (to = 0; to < SQ_NB; to++) {
			enum rule_id r;

			c.to = to;
			r = rules_check_move(pos, &c, NULL);
			assert_int_equal(rules_check_move_known(pos, &c,
			    in_check, NULL), r);
			ok += r == RULE_OK;
		}
	}
	assert_int_equal(ok, ml->n);
}

struct ply {
	move m;
	struct undo u;
	struct position before;
};

static struct ply plies[MAX_PLIES];

/*
 * One random legal game of up to MAX_PLIES plies from pos, then undone
 * move by move back to pos. Returns the plies played.
 */
static int
random_game(struct position *pos, int game)
{
	struct move_list ml;
	int n, ply;

	for (ply = 0; ply < MAX_PLIES; ply++) {
		struct ply *p = &plies[ply];
		int check;

		n = movegen_legal(pos, &ml);
		check_generated(pos, &ml);
		if (ply % 8 == 0)
			check_judge_complete(pos, &ml);
		if (n == 0) {
			/* Game over: the state must say so. */
			enum play_state st = rules_play_state(pos);

			assert_true(st == (position_in_check(pos) ?
			    PLAY_CHECKMATE : PLAY_STALEMATE));
			break;
		}
		p->m = ml.m[xorshift64() % (uint64_t)n];
		p->before = *pos;
		check = rules_gives_check(pos, p->m);
		position_do_move(pos, p->m, &p->u);
		if (!position_is_ok(pos))
			fail_msg("game %d ply %d: position broken after do",
			    game, ply + 1);
		if (position_key(pos) != position_key_slow(pos))
			fail_msg("game %d ply %d: incremental key drifted",
			    game, ply + 1);
		assert_int_equal(pos->side, color_flip(p->before.side));
		assert_int_equal(pos->move_number, p->before.move_number + 1);
		assert_int_equal(position_in_check(pos), check);
		assert_int_equal(position_in_check_after(pos, p->m), check);
	}
	n = ply;
	while (ply-- > 0) {
		position_undo_move(pos, plies[ply].m, &plies[ply].u);
		if (!position_is_ok(pos))
			fail_msg("game %d ply %d: position broken after undo",
			    game, ply + 1);
		assert_int_equal(position_key(pos), position_key_slow(pos));
		assert_positions_equal(pos, &plies[ply].before);
	}
	return n;
}

static void
test_random_games(void **state)
{
	struct position pos, start;
	long total = 0;
	int g;

	(void)state;
	rng = 0x9e3779b97f4a7c15u;
	position_set_start(&start, variant_standard());
	assert_true(position_is_ok(&start));
	for (g = 0; g < GAMES; g++) {
		pos = start;
		total += random_game(&pos, g);
		assert_positions_equal(&pos, &start);
	}
	/* Guards against games that end at once and test nothing. */
	assert_true(total > GAMES * 50);
}

/* The 5x5 board has walls inside the 9x9 grid; do/undo must keep them. */
static void
test_random_minishogi_games(void **state)
{
	struct position pos, start;
	int g;

	(void)state;
	rng = 0x2545f4914f6cdd1du;
	position_set_start(&start, variant_minishogi());
	assert_true(position_is_ok(&start));
	for (g = 0; g < MINI_GAMES; g++) {
		pos = start;
		random_game(&pos, g);
		assert_positions_equal(&pos, &start);
	}
}

/*
 * Every legal move of some busy positions, each made and taken back on
 * its own: captures of promoted pieces, forced promotions and drops of
 * every type all occur here.
 */
static void
test_do_undo_every_move(void **state)
{
	static const char *const sfens[] = {
		"l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w "
		    "RGgsn5p 1",
		"R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
		"8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/"
		    "LN2+p3L w Sbgn3p 124",
		"7k1/9/9/9/l2s5/6snb/9/9/8K b 2G 1",
		/* Discovered checks by each slider, for both sides. */
		"k8/9/9/9/S8/9/9/9/L3K4 b - 1",
		"k8/9/9/9/4G4/9/9/9/4K3B b - 1",
		"k8/9/9/9/4G4/9/9/9/4K3+B b - 1",
		"k3G3+R/9/9/9/9/9/9/9/4K4 b - 1",
		"k3S3R/9/9/9/9/9/9/9/4K4 b - 1",
		"4k3+b/9/9/9/4g4/9/9/9/K8 w - 1",
		"l3k4/9/9/9/s8/9/9/9/K8 w - 1",
	};
	size_t s;

	(void)state;
	for (s = 0; s < sizeof(sfens) / sizeof(sfens[0]); s++) {
		struct position pos, before;
		struct move_list ml;
		int i;

		load_sfen(&pos, sfens[s]);
		before = pos;
		movegen_legal(&pos, &ml);
		assert_true(ml.n > 0);
		check_generated(&pos, &ml);
		check_judge_complete(&pos, &ml);
		for (i = 0; i < ml.n; i++) {
			struct undo u;

			position_do_move(&pos, ml.m[i], &u);
			assert_true(position_is_ok(&pos));
			assert_int_equal(position_in_check_after(&pos, ml.m[i]),
			    position_in_check(&pos));
			assert_int_equal(position_key(&pos),
			    position_key_slow(&pos));
			assert_true(position_key(&pos) != position_key(&before));
			position_undo_move(&pos, ml.m[i], &u);
			assert_true(position_is_ok(&pos));
			assert_positions_equal(&pos, &before);
		}
	}
}

/* Plays blank separated USI moves. */
static void
play_line(struct position *pos, const char *moves)
{
	char buf[USI_MOVE_MAX];
	size_t n;

	for (;;) {
		while (*moves == ' ')
			moves++;
		n = strcspn(moves, " ");
		if (n == 0)
			return;
		assert_true(n < sizeof(buf));
		memcpy(buf, moves, n);
		buf[n] = '\0';
		play_usi(pos, buf);
		moves += n;
	}
}

static uint64_t
key_after(const char *sfen, const char *moves)
{
	struct position pos;

	load_sfen(&pos, sfen);
	play_line(&pos, moves);
	assert_true(position_is_ok(&pos));
	return position_key(&pos);
}

static uint64_t
key_of(const char *sfen)
{
	struct position pos;

	load_sfen(&pos, sfen);
	return position_key(&pos);
}

/* One position, two roads: the key must not remember the road. */
static void
test_key_transpositions(void **state)
{
	struct position a, b;
	char sa[SFEN_MAX], sb[SFEN_MAX];

	(void)state;
	assert_int_equal(key_after(START " b - 1", "7g7f 3c3d 2g2f"),
	    key_after(START " b - 1", "2g2f 3c3d 7g7f"));
	/* With captures: both hands end up holding a bishop either way. */
	load_sfen(&a, START " b - 1");
	play_line(&a, "7g7f 3c3d 8h2b+ 3a2b 2g2f 8c8d");
	load_sfen(&b, START " b - 1");
	play_line(&b, "2g2f 8c8d 7g7f 3c3d 8h2b+ 3a2b");
	assert_int_equal(position_key(&a), position_key(&b));
	sfen_write(&a, sa);
	sfen_write(&b, sb);
	assert_string_equal(sa, sb);
	/* The captured horse went to the hand as a plain bishop. */
	assert_string_equal(sa, "lnsgkg1nl/1r5s1/p1pppp1pp/1p4p2/9/2P4P1/"
	    "PP1PPPP1P/7R1/LNSGKGSNL b Bb 7");
	/* The same position read from SFEN has the same key. */
	assert_int_equal(position_key(&a), key_of(sa));
	assert_int_equal(key_after(START " b - 1", "7g7f 3c3d"),
	    key_of("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/"
		"LNSGKGSNL b - 3"));
	/* Back to the start after a rook shuffle (rules.md 1.7 example). */
	assert_int_equal(key_after(START " b - 1", "2h5h 8b5b 5h2h 5b8b"),
	    key_of(START " b - 1"));
	/* The move number is not part of the identity. */
	assert_int_equal(key_of(START " b - 1"), key_of(START " b - 57"));
}

/* Same board, different identity. */
static void
test_key_differences(void **state)
{
	static const char *const hands[] = {
		"-", "P", "2P", "3P", "p", "2p", "Pp", "L", "l", "N", "S", "G",
		"B", "R", "PL", "2P2p", "18P", "18p",
	};
	uint64_t keys[sizeof(hands) / sizeof(hands[0])];
	char sfen[SFEN_MAX];
	size_t i, j;

	(void)state;
	/* The side to move (rules.md 1.7: a different position). */
	assert_true(key_of(START " b - 1") != key_of(START " w - 1"));
	assert_true(key_of(KINGS " b P 1") != key_of(KINGS " w P 1"));
	/* Hands: which piece, how many, whose. */
	for (i = 0; i < sizeof(hands) / sizeof(hands[0]); i++) {
		snprintf(sfen, sizeof(sfen), KINGS " b %s 1", hands[i]);
		keys[i] = key_of(sfen);
		for (j = 0; j < i; j++)
			if (keys[i] == keys[j])
				fail_msg("hands '%s' and '%s' share a key",
				    hands[i], hands[j]);
	}
	/* Promoted or not, and which colour, on the same square. */
	assert_true(key_of("4k4/9/9/9/4P4/9/9/9/4K4 b - 1") !=
	    key_of("4k4/9/9/9/4+P4/9/9/9/4K4 b - 1"));
	assert_true(key_of("4k4/9/9/9/4P4/9/9/9/4K4 b - 1") !=
	    key_of("4k4/9/9/9/4p4/9/9/9/4K4 b - 1"));
	/* A piece moved from the board to the hand. */
	assert_true(key_of("4k4/9/9/9/4P4/9/9/9/4K4 b - 1") !=
	    key_of(KINGS " b P 1"));
}

/* Editing by hand gives the position, key included, that SFEN gives. */
static void
test_edit_matches_sfen(void **state)
{
	struct position pos, ref;
	uint64_t bare;

	(void)state;
	position_clear(&pos, variant_standard());
	assert_true(position_is_ok(&pos));
	assert_int_equal(pos.king[BLACK], SQ_NONE);
	assert_int_equal(pos.side, BLACK);
	assert_int_equal(pos.move_number, 1);
	position_put(&pos, sq_make(4, 8), piece_make(BLACK, PT_KING));
	position_put(&pos, sq_make(4, 0), piece_make(WHITE, PT_KING));
	bare = position_key(&pos);
	position_put(&pos, sq_make(6, 2), piece_make(BLACK, PT_PRO_PAWN));
	position_put(&pos, sq_make(1, 6), piece_make(WHITE, PT_GOLD));
	position_hand_set(&pos, BLACK, PT_PAWN, 3);
	position_hand_set(&pos, WHITE, PT_ROOK, 1);
	assert_true(position_is_ok(&pos));
	load_sfen(&ref, "4k4/9/2+P6/9/9/9/7g1/9/4K4 b 3Pr 1");
	assert_positions_equal(&pos, &ref);
	/* Overwriting a square replaces the piece. */
	position_put(&pos, sq_make(1, 6), piece_make(BLACK, PT_SILVER));
	assert_true(position_is_ok(&pos));
	assert_int_equal(position_key(&pos),
	    key_of("4k4/9/2+P6/9/9/9/7S1/9/4K4 b 3Pr 1"));
	/* Taking it all away again gives back the first key. */
	position_remove(&pos, sq_make(1, 6));
	position_remove(&pos, sq_make(6, 2));
	position_remove(&pos, sq_make(6, 3));	/* empty: no effect */
	position_hand_set(&pos, BLACK, PT_PAWN, 0);
	position_hand_set(&pos, WHITE, PT_ROOK, 0);
	assert_true(position_is_ok(&pos));
	assert_int_equal(position_key(&pos), bare);
	assert_int_equal(position_key(&pos), key_of(KINGS " b - 1"));
	/* Removing a king forgets its square. */
	position_remove(&pos, sq_make(4, 8));
	assert_int_equal(pos.king[BLACK], SQ_NONE);
	assert_true(position_is_ok(&pos));
}

/* The attack helpers of position.h on positions drawn from rules.md 1.5. */
static void
test_checkers_and_pins(void **state)
{
	struct position pos;

	(void)state;
	/* K5i G5g r5a: the gold is pinned along the file, no check. */
	load_sfen(&pos, "k3r4/9/9/9/9/9/4G4/9/4K4 b - 1");
	assert_true(position_pinned(&pos, BLACK) == bb_sq(sq_make(4, 6)));
	assert_true(position_pinned(&pos, WHITE) == BB_EMPTY);
	assert_false(position_in_check(&pos));
	/* K2i S2c l2a: a White lance pins along Black's forward ray. */
	load_sfen(&pos, "7lk/9/7S1/9/9/9/9/9/7K1 b P 1");
	assert_true(position_pinned(&pos, BLACK) == bb_sq(sq_make(1, 2)));
	/* Double check: rook on 5a and knight on 4g. */
	load_sfen(&pos, "4r3k/9/9/9/9/9/5n3/5G3/4K4 b G 1");
	assert_true(position_checkers(&pos) ==
	    (bb_sq(sq_make(4, 0)) | bb_sq(sq_make(3, 6))));
	assert_true(position_in_check(&pos));
	/* A pinned piece still attacks: the gold on 5b checks White. */
	load_sfen(&pos, "4k4/K3G3r/9/9/9/9/9/9/9 w - 1");
	assert_true(position_checkers(&pos) == bb_sq(sq_make(4, 1)));
	assert_true(position_pinned(&pos, BLACK) == bb_sq(sq_make(4, 1)));
	assert_true(position_attackers(&pos, sq_make(3, 0), BLACK, pos.occ) ==
	    bb_sq(sq_make(4, 1)));
}

int
main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_games),
		cmocka_unit_test(test_random_minishogi_games),
		cmocka_unit_test(test_do_undo_every_move),
		cmocka_unit_test(test_key_transpositions),
		cmocka_unit_test(test_key_differences),
		cmocka_unit_test(test_edit_matches_sfen),
		cmocka_unit_test(test_checkers_and_pins),
	};

	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests_name("core/position", tests, NULL, NULL);
}
