/*
 * JSA relative words: core/notation.c (notation_words, notation_filter)
 * and their use by replay (core/replay.c find_fits).
 *
 * Every table case runs for Black as written and for White on the board
 * turned through 180 degrees with the colours swapped: the words must
 * not change, since they are taken from the mover's seat (White's right
 * is Black's left). Each case also checks the round trip for every legal
 * move of its position, as the property test does for random games and
 * for random crowds of pieces around one square: what notation_words
 * writes, notation_filter (and replay) reads back as exactly that move.
 *
 * Positions are listed piece by piece above their SFEN: "G6f" is a
 * Black gold on 6f (6六), "g4d" a White gold on 4d, "+P7e" a Black tokin.
 */
#include <stdio.h>
#include <stdlib.h>

#include "helpers.h"
#include "core/core.h"
#include "core/notation.h"
#include "core/record.h"
#include "core/replay.h"

/* Room for any SFEN these tests write. */
#define SFEN_BUF 256

/* The words as KI2 writes them: position word, movement word, 打. */
static void
words_text(unsigned rel, int drop_word, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s%s%s%s%s%s",
	    rel & REL_RIGHT ? "右" : "", rel & REL_LEFT ? "左" : "",
	    rel & REL_STRAIGHT ? "直" : "", rel & REL_UP ? "上" : "",
	    rel & REL_SIDEWAYS ? "寄" : "", rel & REL_DOWN ? "引" : "",
	    drop_word ? "打" : "");
}

/* The legal move a USI text names in pos, or a test failure. */
static move
usi_move(const struct position *pos, const char *usi)
{
	struct move_claim c;
	enum rule_id rule;
	move m;

	if (usi_parse_move(pos->v, usi, strlen(usi), &c))
		fail_msg("bad test move '%s'", usi);
	if ((rule = rules_check_move(pos, &c, &m)) != RULE_OK)
		fail_msg("test move '%s' is illegal: %s", usi,
		    rule_id_name(rule));
	return m;
}

/* pos turned through 180 degrees, colours swapped, the other side to move. */
static void
mirror_position(const struct position *pos, struct position *out)
{
	static const enum piece_type hand_order[] = {
		PT_ROOK, PT_BISHOP, PT_GOLD, PT_SILVER, PT_KNIGHT, PT_LANCE,
		PT_PAWN
	};
	char sfen[SFEN_BUF];
	struct sfen_error e;
	size_t len = 0, i;
	int rank, file, empty, c;

	for (rank = 0; rank < RANK_NB; rank++) {
		empty = 0;
		for (file = FILE_NB - 1; file >= 0; file--) {
			piece p = pos->board[80 - sq_make(file, rank)];
			enum piece_type pt = piece_type_of(p);
			char letter;

			if (p == PIECE_NONE) {
				empty++;
				continue;
			}
			if (empty)
				sfen[len++] = (char)('0' + empty);
			empty = 0;
			if (pt_is_promoted(pt))
				sfen[len++] = '+';
			letter = sfen_piece_letter(pt_unpromoted(pt));
			/* Colours swap: a White piece becomes upper case. */
			sfen[len++] = piece_color(p) == WHITE ? letter :
			    (char)(letter - 'A' + 'a');
		}
		if (empty)
			sfen[len++] = (char)('0' + empty);
		sfen[len++] = rank < RANK_NB - 1 ? '/' : ' ';
	}
	sfen[len++] = pos->side == BLACK ? 'w' : 'b';
	sfen[len++] = ' ';
	i = len;
	for (c = WHITE; c >= BLACK; c--) {
		size_t k, nk = sizeof(hand_order) / sizeof(hand_order[0]);

		for (k = 0; k < nk; k++) {
			int count = pos->hand[c][hand_order[k]];
			char letter = sfen_piece_letter(hand_order[k]);

			if (!count)
				continue;
			if (count > 1)
				len += (size_t)snprintf(sfen + len,
				    sizeof(sfen) - len, "%d", count);
			sfen[len++] = c == WHITE ? letter :
			    (char)(letter - 'A' + 'a');
		}
	}
	if (len == i)
		sfen[len++] = '-';
	snprintf(sfen + len, sizeof(sfen) - len, " 1");
	if (sfen_read(out, variant_standard(), sfen, &e) != SFEN_OK)
		fail_msg("mirrored SFEN '%s' does not read: %s", sfen,
		    e.message);
}

static move
mirror_move(move m)
{
	piece p = move_piece(m);
	enum color c = color_flip(piece_color(p));

	if (move_is_drop(m))
		return move_make_drop(move_drop_type(m), 80 - move_to(m), c);
	return move_make(80 - move_from(m), 80 - move_to(m),
	    piece_make(c, piece_type_of(p)), move_is_promotion(m));
}

/*
 * What replay's find_fits keeps for m's words: the legal moves of m's
 * kind to its square with its promotion, board moves first, then the
 * words. A drop written with 打 is read as a drop outright.
 */
static int
read_back(const struct position *pos, move m, move *out)
{
	struct move_list ml;
	move c[MAX_MOVES];
	int drop_word, i, n = 0, board = 0;
	unsigned rel = notation_words(pos, m, &drop_word);
	enum piece_type pt = move_is_drop(m) ? move_drop_type(m) :
	    piece_type_of(move_piece(m));

	movegen_legal(pos, &ml);
	for (i = 0; i < ml.n; i++) {
		move x = ml.m[i];
		enum piece_type xt = move_is_drop(x) ? move_drop_type(x) :
		    piece_type_of(move_piece(x));

		if (move_to(x) != move_to(m) || xt != pt ||
		    move_is_promotion(x) != move_is_promotion(m))
			continue;
		if (drop_word && !move_is_drop(x))
			continue;
		c[n++] = x;
		board += !move_is_drop(x);
	}
	if (!drop_word && board && board < n) {
		int k = 0;

		for (i = 0; i < n; i++)
			if (!move_is_drop(c[i]))
				c[k++] = c[i];
		n = k;
	}
	n = notation_filter(pos, c, n, rel);
	if (n == 1)
		*out = c[0];
	return n;
}

/* Asserts the round trip for every legal move of pos; returns how many. */
static int
assert_round_trips(const struct position *pos)
{
	struct move_list ml;
	int i;

	movegen_legal(pos, &ml);
	for (i = 0; i < ml.n; i++) {
		move got = MOVE_NONE;
		int n = read_back(pos, ml.m[i], &got);

		if (n != 1 || got != ml.m[i]) {
			char sfen[SFEN_MAX], usi[USI_MOVE_MAX], w[64];
			int dw;

			unsigned rel = notation_words(pos, ml.m[i], &dw);

			sfen_write(pos, sfen);
			usi_format_move(ml.m[i], usi);
			words_text(rel, dw, w, sizeof(w));
			fail_msg("%s in '%s': words '%s' read back as %d moves",
			    usi, sfen, w, n);
		}
	}
	return ml.n;
}

static void
assert_words_in(const struct position *pos, move m, const char *expect,
    const char *what)
{
	char got[64];
	int dw;
	unsigned rel = notation_words(pos, m, &dw);

	words_text(rel, dw, got, sizeof(got));
	if (strcmp(got, expect) != 0) {
		char sfen[SFEN_MAX], usi[USI_MOVE_MAX];

		sfen_write(pos, sfen);
		usi_format_move(m, usi);
		fail_msg("%s%s in '%s': expected '%s', got '%s'", usi, what,
		    sfen, expect, got);
	}
}

/*
 * The words of one move, for Black as written and for White mirrored,
 * and the round trip of every move of both positions.
 */
static void
check_words(const char *sfen, const char *usi, const char *expect)
{
	struct position pos, mir;
	move m;

	load_sfen(&pos, sfen);
	m = usi_move(&pos, usi);
	assert_words_in(&pos, m, expect, "");
	assert_round_trips(&pos);
	mirror_position(&pos, &mir);
	assert_words_in(&mir, mirror_move(m), expect, " [mirrored]");
	assert_round_trips(&mir);
}

struct words_case {
	const char *name;
	const char *sfen;
	const char *usi;
	const char *words;
};

/* K9i k1a G6f G5f G6e: formats.md 4.3 rule 5, golds on 6六 5六 6五. */
#define P_THREE_GOLDS "8k/9/9/9/3G5/3GG4/9/9/K8 b - 1"
/* K9i k1a G6f G4f */
#define P_GOLDS_UP "8k/9/9/9/9/3G1G3/9/9/K8 b - 1"
/* K9i k1a G6f G5f */
#define P_GOLD_STRAIGHT "8k/9/9/9/9/3GG4/9/9/K8 b - 1"
/* K9i k1a G6f G6e */
#define P_GOLD_UP_SIDE "8k/9/9/9/3G5/3G5/9/9/K8 b - 1"
/* K9i k1a G6e G4e */
#define P_GOLDS_SIDE "8k/9/9/9/3G1G3/9/9/9/K8 b - 1"
/* K9i k1a G5d G5f */
#define P_GOLDS_UP_DOWN "8k/9/9/4G4/9/4G4/9/9/K8 b - 1"
/* K9i k1a S4f S4d */
#define P_SILVERS_UP_DOWN "8k/9/9/5S3/9/5S3/9/9/K8 b - 1"
/* K9i k1a S4d S6d */
#define P_SILVERS_DOWN "8k/9/9/3S1S3/9/9/9/9/K8 b - 1"
/* K9i k1a S4f S5f S4d S6d */
#define P_FOUR_SILVERS "8k/9/9/3S1S3/9/4SS3/9/9/K8 b - 1"
/* K9i k1a +P4f +P5f +P6f +P4e +P6e +P5d: the six squares a gold-like
 * piece can come to 5e from. */
#define P_TOKIN_RING "8k/9/9/4+P4/3+P1+P3/3+P+P+P3/9/9/K8 b - 1"
/* K9i k1a N6g N4g */
#define P_KNIGHTS "8k/9/9/9/9/9/3N1N3/9/K8 b - 1"
/* K9i k1a N6e N4e: both may promote on 5c. */
#define P_KNIGHTS_ZONE "8k/9/9/9/3N1N3/9/9/9/K8 b - 1"
/* K9i k1a N6g */
#define P_KNIGHT "8k/9/9/9/9/9/3N5/9/K8 b - 1"
/* K9i k3a R9e R1e */
#define P_ROOKS_SIDE "6k2/9/9/9/R7R/9/9/9/K8 b - 1"
/* K9i k3a R5i R1e */
#define P_ROOKS_UP_SIDE "6k2/9/9/9/8R/9/9/9/K3R4 b - 1"
/* K8i k1c R5a R5i */
#define P_ROOKS_UP_DOWN "4R4/9/8k/9/9/9/9/9/1K2R4 b - 1"
/* K9i k2a B7g B3g */
#define P_BISHOPS_UP "7k1/9/9/9/9/9/2B3B2/9/K8 b - 1"
/* K9i k2a B7g B3c */
#define P_BISHOPS_UP_DOWN "7k1/9/6B2/9/9/9/2B6/9/K8 b - 1"
/* K9i k2a B3c B6d: both come down to 5e, one of them from the zone. */
#define P_BISHOPS_DOWN "7k1/9/6B2/3B5/9/9/9/9/K8 b - 1"
/* K9i k1a +R5i +R4f: both go up to 5e; the one on 5i must not be 直. */
#define P_DRAGONS_UP "8k/9/9/9/9/5+R3/9/9/K3+R4 b - 1"
/* K9i k5a +R9b +R1b */
#define P_DRAGONS_SIDE "4k4/+R7+R/9/9/9/9/9/9/K8 b - 1"
/* K9i k1a +R5b +R5h: one file, so the movement word decides. */
#define P_DRAGONS_FILE "8k/4+R4/9/9/9/9/9/4+R4/K8 b - 1"
/*
 * K9i k5a +R2b +R1c: Wikipedia's example (棋譜, 竜馬): both come down
 * to 2d; the one on 1c is 右 and the one on 2b, straight above the
 * square, 左.
 */
#define P_DRAGONS_DOWN "4k4/7+R1/8+R/9/9/9/9/9/K8 b - 1"
/* K9i k3a +R5i +R1e */
#define P_DRAGONS_UP_SIDE "6k2/9/9/9/8+R/9/9/9/K3+R4 b - 1"
/* K5i k2a +B9i +B1i */
#define P_HORSES_UP "7k1/9/9/9/9/9/9/9/+B3K3+B b - 1"
/* K9i k2a +B5f +B7g: the one straight behind 5e is 右, not 直. */
#define P_HORSES_BEHIND "7k1/9/9/9/9/4+B4/2+B6/9/K8 b - 1"
/* K9i k9a +B5d +B7g: 上 and 引 tell them apart. */
#define P_HORSES_UP_DOWN "k8/9/9/4+B4/9/9/2+B6/9/K8 b - 1"
/* K9i k1a G6f, Black holds G. */
#define P_GOLD_AND_HAND "8k/9/9/9/9/3G5/9/9/K8 b G 1"
/* K9i k1a G9a, Black holds G: the board gold cannot reach 5e. */
#define P_FAR_GOLD_AND_HAND "G7k/9/9/9/9/9/9/9/K8 b G 1"
/* K5i k1a G5h r5a, Black holds G: the rook pins the gold to the king,
 * so it cannot go to 6g and a drop there needs no 打. */
#define P_PINNED_GOLD "4r3k/9/9/9/9/9/9/4G4/4K4 b G 1"
/* K9i k1a S4d S6d: both may promote on 5c, neither word changes. */
#define P_SILVERS_ZONE "8k/9/9/3S1S3/9/9/9/9/K8 b - 1"
/* K9i k1a G4f, a single gold. */
#define P_ONE_GOLD "8k/9/9/9/9/5G3/9/9/K8 b - 1"

static const struct words_case words_cases[] = {
	{ "rule 1: one gold, no word", P_ONE_GOLD, "4f5e", "" },
	{ "rule 1: a silver and a gold are two kinds",
	    "8k/9/9/9/9/3S1G3/9/9/K8 b - 1", "6f5e", "" },
	{ "rule 1: a tokin is no pawn",
	    "8k/9/9/9/9/4P+P3/9/9/K8 b - 1", "4f5e", "" },
	{ "rule 5: 5五金左上", P_THREE_GOLDS, "6f5e", "左上" },
	{ "rule 5: 5五金直", P_THREE_GOLDS, "5f5e", "直" },
	{ "rule 5: 5五金寄", P_THREE_GOLDS, "6e5e", "寄" },
	{ "rule 4: golds both up, left", P_GOLDS_UP, "6f5e", "左" },
	{ "rule 4: golds both up, right", P_GOLDS_UP, "4f5e", "右" },
	{ "rule 4: 直 beside 左", P_GOLD_STRAIGHT, "5f5e", "直" },
	{ "rule 4: 左 beside 直", P_GOLD_STRAIGHT, "6f5e", "左" },
	{ "rule 3: up beats position", P_GOLD_UP_SIDE, "6f5e", "上" },
	{ "rule 3: sideways", P_GOLD_UP_SIDE, "6e5e", "寄" },
	{ "rule 4: both sideways, right", P_GOLDS_SIDE, "4e5e", "右" },
	{ "rule 4: both sideways, left", P_GOLDS_SIDE, "6e5e", "左" },
	{ "rule 3: gold up", P_GOLDS_UP_DOWN, "5f5e", "上" },
	{ "rule 3: gold down", P_GOLDS_UP_DOWN, "5d5e", "引" },
	{ "rule 3: silver up", P_SILVERS_UP_DOWN, "4f5e", "上" },
	{ "rule 3: silver down", P_SILVERS_UP_DOWN, "4d5e", "引" },
	{ "rule 4: silvers down, right", P_SILVERS_DOWN, "4d5e", "右" },
	{ "rule 4: silvers down, left", P_SILVERS_DOWN, "6d5e", "左" },
	{ "rule 5: four silvers, 右上", P_FOUR_SILVERS, "4f5e", "右上" },
	{ "rule 5: four silvers, 直", P_FOUR_SILVERS, "5f5e", "直" },
	{ "rule 5: four silvers, 右引", P_FOUR_SILVERS, "4d5e", "右引" },
	{ "rule 5: four silvers, 左", P_FOUR_SILVERS, "6d5e", "左" },
	{ "tokin ring: 右上", P_TOKIN_RING, "4f5e", "右上" },
	{ "tokin ring: 直", P_TOKIN_RING, "5f5e", "直" },
	{ "tokin ring: 左上", P_TOKIN_RING, "6f5e", "左上" },
	{ "tokin ring: 右寄", P_TOKIN_RING, "4e5e", "右寄" },
	{ "tokin ring: 左寄", P_TOKIN_RING, "6e5e", "左寄" },
	{ "tokin ring: 引", P_TOKIN_RING, "5d5e", "引" },
	{ "knights: right", P_KNIGHTS, "4g5e", "右" },
	{ "knights: left", P_KNIGHTS, "6g5e", "左" },
	{ "knights: promoting, still right", P_KNIGHTS_ZONE, "4e5c+",
	    "右" },
	{ "knights: not promoting, left", P_KNIGHTS_ZONE, "6e5c", "左" },
	{ "knight alone", P_KNIGHT, "6g5e", "" },
	{ "rooks both sideways: right", P_ROOKS_SIDE, "1e5e", "右" },
	{ "rooks both sideways: left", P_ROOKS_SIDE, "9e5e", "左" },
	{ "rooks: up", P_ROOKS_UP_SIDE, "5i5e", "上" },
	{ "rooks: sideways", P_ROOKS_UP_SIDE, "1e5e", "寄" },
	{ "rooks one file: up", P_ROOKS_UP_DOWN, "5i5e", "上" },
	{ "rooks one file: down", P_ROOKS_UP_DOWN, "5a5e", "引" },
	{ "bishops up: right", P_BISHOPS_UP, "3g5e", "右" },
	{ "bishops up: left", P_BISHOPS_UP, "7g5e", "左" },
	{ "bishops: up", P_BISHOPS_UP_DOWN, "7g5e", "上" },
	{ "bishops: down", P_BISHOPS_UP_DOWN, "3c5e", "引" },
	{ "bishops down: right, promoting", P_BISHOPS_DOWN, "3c5e+", "右" },
	{ "bishops down: right, not promoting", P_BISHOPS_DOWN, "3c5e",
	    "右" },
	{ "bishops down: left", P_BISHOPS_DOWN, "6d5e", "左" },
	{ "rule 6: dragon behind is 左, never 直", P_DRAGONS_UP, "5i5e",
	    "左" },
	{ "rule 6: dragon stepping up is 右", P_DRAGONS_UP, "4f5e", "右" },
	{ "rule 6: dragons sideways, right", P_DRAGONS_SIDE, "1b5b", "右" },
	{ "rule 6: dragons sideways, left", P_DRAGONS_SIDE, "9b5b", "左" },
	{ "rule 6: dragons on one file, up", P_DRAGONS_FILE, "5h5e", "上" },
	{ "rule 6: dragons on one file, down", P_DRAGONS_FILE, "5b5e",
	    "引" },
	{ "rule 6: dragons down, right (Wikipedia)", P_DRAGONS_DOWN, "1c2d",
	    "右" },
	{ "rule 6: dragons down, left (Wikipedia)", P_DRAGONS_DOWN, "2b2d",
	    "左" },
	{ "rule 6: dragon up", P_DRAGONS_UP_SIDE, "5i5e", "上" },
	{ "rule 6: dragon sideways", P_DRAGONS_UP_SIDE, "1e5e", "寄" },
	{ "rule 6: horses up, right", P_HORSES_UP, "1i5e", "右" },
	{ "rule 6: horses up, left", P_HORSES_UP, "9i5e", "左" },
	{ "rule 6: horse behind is 右, never 直", P_HORSES_BEHIND, "5f5e",
	    "右" },
	{ "rule 6: horse beside it is 左", P_HORSES_BEHIND, "7g5e", "左" },
	{ "rule 6: horse down", P_HORSES_UP_DOWN, "5d5e", "引" },
	{ "rule 6: horse up", P_HORSES_UP_DOWN, "7g5e", "上" },
	{ "rule 2: drop where a board gold reaches: 打", P_GOLD_AND_HAND,
	    "G*5e", "打" },
	{ "rule 2: board gold beside a gold in hand", P_GOLD_AND_HAND,
	    "6f5e", "" },
	{ "rule 2: drop with no board gold in reach", P_FAR_GOLD_AND_HAND,
	    "G*5e", "" },
	{ "rule 2: a pinned gold does not count", P_PINNED_GOLD, "G*6g",
	    "" },
	{ "rule 2: the pinned gold may go along the pin", P_PINNED_GOLD,
	    "G*5g", "打" },
	{ "rule 7: promoting does not tell them apart", P_SILVERS_ZONE,
	    "4d5c+", "右" },
	{ "rule 7: not promoting neither", P_SILVERS_ZONE, "4d5c", "右" },
	{ "rule 7: left, promoting", P_SILVERS_ZONE, "6d5c+", "左" },
};

#define N_WORDS_CASES (sizeof(words_cases) / sizeof(words_cases[0]))

static void
test_words_case(void **state)
{
	const struct words_case *wc = *state;

	check_words(wc->sfen, wc->usi, wc->words);
}

/* The mirror is right, or the White half of every case proves nothing. */
static void
test_mirror(void **state)
{
	struct position pos, mir, back;
	char a[SFEN_MAX], b[SFEN_MAX];
	move m;

	(void)state;
	load_sfen(&pos, "8k/9/9/9/3G5/3+PG4/9/9/K8 b GP2n 1");
	mirror_position(&pos, &mir);
	sfen_write(&mir, a);
	assert_string_equal(a, "8k/9/9/4g+p3/5g3/9/9/9/K8 w 2Ngp 1");
	mirror_position(&mir, &back);
	sfen_write(&pos, a);
	sfen_write(&back, b);
	assert_string_equal(a, b);
	m = usi_move(&pos, "6f5e");
	m = mirror_move(m);
	usi_format_move(m, a);
	assert_string_equal(a, "4d5e");
}

/* The reader side alone: words in, moves out, sloppy words included. */
static void
test_filter(void **state)
{
	struct position pos;
	move c[8];
	int n;

	(void)state;
	load_sfen(&pos, P_THREE_GOLDS);
	c[0] = usi_move(&pos, "6f5e");
	c[1] = usi_move(&pos, "5f5e");
	c[2] = usi_move(&pos, "6e5e");
	assert_int_equal(notation_filter(&pos, c, 3, 0), 3);
	assert_int_equal(notation_filter(&pos, c, 3, REL_UP), 2);
	c[1] = usi_move(&pos, "5f5e");
	c[2] = usi_move(&pos, "6e5e");
	/* 左 alone fits two: the reader reports, never guesses. */
	assert_int_equal(notation_filter(&pos, c, 3, REL_LEFT), 2);
	c[0] = usi_move(&pos, "6f5e");
	c[1] = usi_move(&pos, "5f5e");
	c[2] = usi_move(&pos, "6e5e");
	assert_int_equal(notation_filter(&pos, c, 3, REL_LEFT | REL_UP), 1);
	assert_int_equal(c[0], usi_move(&pos, "6f5e"));
	c[0] = usi_move(&pos, "6f5e");
	c[1] = usi_move(&pos, "5f5e");
	c[2] = usi_move(&pos, "6e5e");
	assert_int_equal(notation_filter(&pos, c, 3, REL_RIGHT), 0);
	/* Two position words at once name nothing. */
	assert_int_equal(notation_filter(&pos, c, 3, REL_LEFT | REL_RIGHT),
	    0);

	/* A drop never has a relative word. */
	load_sfen(&pos, P_GOLD_AND_HAND);
	c[0] = usi_move(&pos, "6f5e");
	c[1] = usi_move(&pos, "G*5e");
	n = notation_filter(&pos, c, 2, REL_LEFT);
	assert_int_equal(n, 1);
	assert_int_equal(c[0], usi_move(&pos, "6f5e"));

	/* 直 written for a rook (a sloppy writer's 上) still reads. */
	load_sfen(&pos, P_ROOKS_UP_SIDE);
	c[0] = usi_move(&pos, "5i5e");
	c[1] = usi_move(&pos, "1e5e");
	assert_int_equal(notation_filter(&pos, c, 2, REL_STRAIGHT), 1);
	assert_int_equal(c[0], usi_move(&pos, "5i5e"));

	/* 右 among candidates narrowed by promotion: the one left fits. */
	load_sfen(&pos, P_BISHOPS_DOWN);
	c[0] = usi_move(&pos, "3c5e+");
	assert_int_equal(notation_filter(&pos, c, 1, REL_RIGHT), 1);

	/* White's right is Black's left. */
	load_sfen(&pos, "k8/9/9/9/3g1g3/9/9/9/8K w - 1");
	c[0] = usi_move(&pos, "6e5e");
	c[1] = usi_move(&pos, "4e5e");
	assert_int_equal(notation_filter(&pos, c, 2, REL_RIGHT), 1);
	assert_int_equal(c[0], usi_move(&pos, "6e5e"));
}

/* xorshift64: the same games on every run. */
static uint64_t
next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Random legal games: every move of every position reads back as itself. */
static void
test_property_games(void **state)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	long checked = 0;
	int game;

	(void)state;
	for (game = 0; game < 24; game++) {
		struct position pos, mir;
		int ply;

		load_sfen(&pos, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/"
		    "1B5R1/LNSGKGSNL b - 1");
		for (ply = 0; ply < 160; ply++) {
			struct move_list ml;
			struct undo u;

			if (movegen_legal(&pos, &ml) == 0)
				break;
			if (ply % 4 == 0) {
				checked += assert_round_trips(&pos);
				mirror_position(&pos, &mir);
				checked += assert_round_trips(&mir);
			}
			position_do_move(&pos,
			    ml.m[next_rand(&seed) % (uint64_t)ml.n], &u);
		}
	}
	assert_true(checked > 10000);
}

/*
 * Crowds of pieces around one square, the cases games rarely make: two
 * to six golds, silvers, tokins, knights, rooks, dragons and horses of
 * both colours near 5e, kings out of the way.
 */
static void
test_property_crowds(void **state)
{
	static const enum piece_type kinds[] = {
		PT_GOLD, PT_SILVER, PT_PRO_PAWN, PT_PRO_SILVER, PT_KNIGHT,
		PT_ROOK, PT_DRAGON, PT_BISHOP, PT_HORSE, PT_PRO_KNIGHT,
		PT_PRO_LANCE, PT_LANCE, PT_PAWN
	};
	uint64_t seed = 0x2545f4914f6cdd1dull;
	long checked = 0, ambiguous = 0;
	int trial;

	(void)state;
	core_init();
	for (trial = 0; trial < 6000; trial++) {
		struct position pos;
		struct sfen_error e;
		enum piece_type pt = kinds[next_rand(&seed) %
		    (sizeof(kinds) / sizeof(kinds[0]))];
		int k, pieces = 2 + (int)(next_rand(&seed) % 6);
		square center = sq_make(2 + (int)(next_rand(&seed) % 5),
		    2 + (int)(next_rand(&seed) % 5));

		position_clear(&pos, variant_standard());
		position_put(&pos, sq_make(8, 8), piece_make(BLACK, PT_KING));
		position_put(&pos, sq_make(0, 0), piece_make(WHITE, PT_KING));
		for (k = 0; k < pieces; k++) {
			/* Mostly the chosen kind, of the side to move. */
			int df = (int)(next_rand(&seed) % 5) - 2;
			int dr = (int)(next_rand(&seed) % 5) - 2;
			int f = sq_file(center) + df, r = sq_rank(center) + dr;
			enum piece_type t = next_rand(&seed) % 4 ? pt :
			    kinds[next_rand(&seed) %
			    (sizeof(kinds) / sizeof(kinds[0]))];
			enum color c = next_rand(&seed) % 5 ? BLACK : WHITE;
			square sq;

			if (f < 0 || f > 8 || r < 0 || r > 8)
				continue;
			sq = sq_make(f, r);
			if (pos.board[sq] != PIECE_NONE)
				continue;
			position_put(&pos, sq, piece_make(c, t));
		}
		if (next_rand(&seed) % 3 == 0)
			position_hand_set(&pos, BLACK,
			    pt_unpromoted(pt) == PT_KING ? PT_GOLD :
			    pt_unpromoted(pt), 1);
		if (position_validate(&pos, &e) != SFEN_OK)
			continue;
		checked += assert_round_trips(&pos);
		{
			struct position mir;
			struct move_list ml;
			int i;

			mirror_position(&pos, &mir);
			checked += assert_round_trips(&mir);
			movegen_legal(&pos, &ml);
			for (i = 0; i < ml.n; i++) {
				int dw;

				ambiguous += notation_words(&pos, ml.m[i],
				    &dw) != 0;
			}
		}
	}
	assert_true(checked > 10000);
	/* The crowds must have made the words work for their living. */
	assert_true(ambiguous > 3000);
}

/*
 * Real games with the words other programs wrote (JKF "relative":
 * L 左, C 直, R 右, U 上, M 寄, D 引, H 打), from the peers' test data:
 * shogi-kifu-converter's piyo-shogi_KY.json, simple.json (a KI2),
 * WCSC32_F7_NBS_DLS.json, floodgate.json, and json-kifu-format's
 * ryuou201409020101.jkf, tsshogi's sample04.jkf. Moves are USI, with
 * "/code" where the game wrote words.
 *
 * One word is changed on purpose: simple.ki2 writes ▲５九銀左 at ply 55,
 * counting the silver on 4h that the dragon on 4i pins to the king on
 * 4g. That silver cannot legally go to 5i, so JSA's rule (the pieces
 * that can move there) gives ▲５九銀 alone; the vector says 6h5i with
 * no words. (A reader still takes ５九銀左: 左 fits the one candidate.)
 */
struct game_vector {
	const char *name;
	const char *sfen;
	const char *moves;
};

static const struct game_vector game_vectors[] = {
	{ "piyo-shogi_KY.json",
	    "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
	    "5c5d 7g7f 8b5b 5g5f 3c3d 3i4h 5a6b 5i6h 6b7b 6h7h 7b8b 7i6h 7a7b "
	    "8h2b+ 5b2b 7h8h 3a4b 6i7h 4b5a 6h7i 5a6b 4i5i 9c9d 5i6h/U 7c7d "
	    "6g6f 9d9e 9i9h 6a7a 3g3f 8c8d 8h9i 2b3b 2g2f 7b8c 2f2e 3b2b 2i3g "
	    "4c4d B*1a 2b4b 2e2d 5d5e 5f5e 8b9c 2d2c+ 4a3a 5e5d 7a6a 2c3c 4b5b "
	    "3c4c 5b5d 1a4d+ 5d4d 4c4d B*4i P*5d P*2g 2h1h 4i7f+ 7i8h 7f6f "
	    "4d5c B*7e 5c6b 6a6b S*8f 7e6d R*7a 6d8f 8g8f 6f8h 9i8h S*7b/H "
	    "7a3a+ 6b6a B*4f P*5e 5d5c+ S*7e P*6b P*4e 4f5e 7e6d 5e4d 6a5b "
	    "B*7a 9c9d 5c5b 6d7e G*7g/H 8d8e 8f8e 8a9c 7a8b+ 2g2h+ 3a9a P*8a "
	    "9a9c 9d8e L*8g 7e8f 7g8f" },
	{ "simple.json",
	    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
	    "2g2f 8c8d 2f2e 4a3b 7g7f 3c3d 6i7h 8d8e 2e2d 2c2d 2h2d 8e8f 8g8f "
	    "8b8f 5i5h 2b8h+ 7i8h B*3c 2d2a+ 3c8h+ B*6h 8f8c 7h8h 8c8h+ 2a3a "
	    "G*4a 3a1a S*7i B*1e 5a5b S*7g 8h8i L*3c 3b4b/M 3c3a+ 7i6h+ 7g6h "
	    "B*6i 5h4h 6i4g+ 4h4g 8i4i S*4h/H 4a5a/L 3g3f 1c1d 1a1d P*2f 1d1b "
	    "5b6b P*8b P*1a 1b2b 7a8b 6h5i 2f2g+ 2b2g 7c7d 3i3h P*2f 1e2f "
	    "N*5e 4g3g P*2e 3h4i 2e2f 2g2f 5e6g+ P*6h 6g7h P*8c 8b8c P*8b B*5e "
	    "P*4f 5e8b 2f2a P*2h P*8d 8c8d 3a3b 4b5b/M 3g2h 8b4f 4h3g 4f6d "
	    "R*8c 3d3e 2h2g 3e3f 2g3f P*2h 8c8a+ 2h2i+ 5i4h/L P*8b N*6f 6b7c "
	    "2a2i P*3e 3f3e 6d5e 6h6g P*3a 3b2b 5e4d 3e3f G*3e 3f4g N*5e 4g3h "
	    "5e6g+ P*3f 4d6f 3f3e 6f9i+ P*8e 8d8e 8a9a 9i6f G*5f 6f8d N*6e "
	    "7c8c L*9f 8e9f 9g9f P*2f 2i2f 5a6b/LU P*8f 6a7b/U B*8a 7b7a S*8e "
	    "8d8e 8a9b+ 8c7b 8f8e P*2e 2f2e P*2d 2e2d N*4d B*8a 7b6a 9b8b 7a8b "
	    "8a9b+ L*8a 9b8b S*9b 6e7c 6a5a 2b3a B*1d 2d1d 5b4b 8b7a 4b4a 9a9b "
	    "L*8b/H B*1e 4a4b G*4a 5a5b 4a4b" },
	{ "WCSC32_F7_NBS_DLS.json",
	    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
	    "2g2f 8c8d 2f2e 8d8e 7g7f 4a3b 8h7g 3c3d 7i8h 2b7g+ 8h7g 3a2b 6i7h "
	    "2b3c 3i3h 7c7d 3g3f 7a6b 4g4f 5a4b 3h4g 1c1d 1g1f 9c9d 9g9f 8a7c "
	    "5i6h 6c6d 2i3g 6b6c 4i4h 6a6b 4g5f 8b8a 6g6f 6c5d 2h2i 4b5b 6h7i "
	    "4c4d 7i8h 8a4a 2i2h 4a8a 4h5h 6d6e 6f6e 7c6e 7g6f P*6d 5h6h/R "
	    "8e8f 8g8f 8a8f P*8g 8f8a 4f4e 4d4e 3g4e 3c4d 2e2d 2c2d 2h2d B*4f "
	    "3f3e P*2c 2d3d 5d4c 3d3b+ 4c3b P*2b P*8f 8g8f P*8e 8f8e 4f1i+ "
	    "2b2a+ L*8f G*8g/H 8f8g 7h8g R*4h P*6i 1i4f N*7h 8a2a L*3d P*3c "
	    "4e3c+ 4d3c/D 3d3c+ 3b3c B*2e 5b4b P*4d 3c4d S*4c 4b3a P*4e 4d3c "
	    "3e3d 3c2b 6f6e/C 4f2d N*3c G*5a 3c2a+ 3a2a P*2f 6d6e R*8a L*6a "
	    "8a9a+ N*6d 9a9b N*7b L*6c P*3b 6c6b+ 5a6b 9b7b 6b7b 4c3b+ 2a3b "
	    "N*4d 3b2a G*3b 2a1b 3b2b 1b2b S*3c 2b1c 3c2d+ 1c2d 3d3c+ 2d3e "
	    "B*3g 6d5f 3g4h 5f4h+ R*3f 3e4e P*4f 4e5d 2e6a+ G*6b/H 6a7b 6b7b "
	    "3c4c P*8f 3f3c+ B*5e L*7g 8f8g+ 8h8g L*6a 4c5c 5d6d G*5d 6d7c "
	    "5d5e 7c8b B*4e 7b7a 7h8f B*4i 5c6c 8b9a 6h7h G*6f 8g8h S*6g 8h9g "
	    "6g7h 4e7h R*7i" },
	{ "floodgate.json",
	    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
	    "2g2f 3c3d 7g7f 8c8d 2f2e 8d8e 6i7h 8e8f 8g8f 8b8f 2e2d 2c2d 2h2d "
	    "4a3b 2d3d 2b3c 3d3f 8f8e 3f2f 3a2b P*8g 5a5b 5i6h 7c7d 3i3h 7d7e "
	    "7f7e 8e7e 2f2h 8a7c 4i5h 7a7b 4g4f P*2f 3g3f 7c6e 6g6f P*7g "
	    "7h6g/L 7e8e 6f6e 8e8g+ 6g7g 3c7g+ 8h7g P*7f 7g8h G*7h 7i7h 8g8h "
	    "G*9h 8h8d 6h7i B*5e P*8f 8d8f P*8g 8f8d B*8h 5e4f 3h3g 4f7c 6e6d "
	    "P*3h P*4d 4c4d N*5f 5b6b 3g2f 6c6d 2i3g 6d6e 2h3h P*2e 2f3e P*3d "
	    "3e4d P*4c P*6c 6b7a 4d5e 5c5d 5e6d 7c6d 5f6d 8d6d 3g4e 7a8a 9g9f "
	    "S*4i 8h9g 6d7c P*7d 7c7d 9g5c+ N*6f 6c6b+ 6f7h+ 7i7h S*7g 7h7i "
	    "4i3h 6b6a 8a9b P*7h 3h4g B*5b 7d7c 7h7g 4g5h 7i8h 7f7g+ 8i7g R*7f "
	    "N*8d 7c8d S*8e 8d8e 5b8e+ S*7i 8h9g 5h6g 8e7f G*8a 7f6e" },
	{ "ryuou201409020101.jkf",
	    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
	    "7g7f 3c3d 2g2f 4a3b 2f2e 2b8h+ 7i8h 3a2b 3i3h 2b3c 5i6h 7a7b 8h7g "
	    "6c6d 3h2g 7b6c 2g2f 1c1d 3g3f 4c4d 3f3e 8b4b 3e3d 3c3d 4i5h/R "
	    "7c7d 6h7h 6a7b 2f3g 3b3c 7h8h 8a7c 6g6f 4d4e 6i7h 5a6b 5h6g/R "
	    "9c9d 9g9f 3d3e 3g2f 3e4d 5g5f B*4i 7h6h/M P*3h B*5g 6d6e 2f3g "
	    "6c5d 2e2d 2c2d 3g4h 4e4f 5g4f 4d4e/C 4f3e 3h3i+ 4h3i 3c3d 3e5g "
	    "7c8e 7g8f P*4f 3i4h 8c8d 6f6e 5d6e 4g4f 4e4f 5g8d 7b7c 8d7c+ 6b7c "
	    "8f8e P*6f 6g7g/M 6e5f 7g6f B*3c P*4d 3c4d G*7g/H P*6g 6h6i 4f5e "
	    "P*4e 4d3c 6f5f 5e5f P*3e 3d4e 3e3d 3c5e 2h2d 4b8b 8e7d 7c7d 3d3c+ "
	    "7d8c N*7e 8c9b S*8c 8b8c 7e8c+ 9b8c R*8e 8c7b 2d2a+ 6g6h+ 2a8a "
	    "7b6c 8e5e 6h6i N*7e 6c6d B*7c" },
	{ "sample04.jkf",
	    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
	    "2g2f 3c3d 2f2e 2b3c 7g7f 4c4d 3i4h 3a4b 5g5f 5c5d 5i6h 4b4c 6h7h "
	    "8b5b 4h5g 5a6b 8h7g 4a3b 7h8h 6a7b 9i9h 6b6a 8h9i 7a6b 7i8h 6a7a "
	    "4i5i/R 7a8b 6i7i 6c6d 5i6h/R 6b6c 5g6f 3d3e 6h7h/M 4d4e 7g6h 4c4d "
	    "9g9f 1c1d 9f9e 1d1e 3g3f 3e3f 2e2d 3f3g+ 2i3g P*3f 2d2c+ 3f3g+ "
	    "2h2i 3g3h 2i2f N*3d 2f2e 6d6e 6f6e 3b2c 2e2c+ P*3f 2c2a 3f3g+ "
	    "N*7e 6c7d 6e7d 7c7d S*7a 7b7a 7e8c+ 8b8c 2a7a 5b8b G*8d 8c9b "
	    "G*8c/H 8b8c 8d8c 9b8c R*8b" },
};

static void
jkf_words(const char *code, char *buf, size_t n)
{
	unsigned rel = 0;
	int drop = 0;

	for (; *code; code++) {
		switch (*code) {
		case 'L': rel |= REL_LEFT; break;
		case 'C': rel |= REL_STRAIGHT; break;
		case 'R': rel |= REL_RIGHT; break;
		case 'U': rel |= REL_UP; break;
		case 'M': rel |= REL_SIDEWAYS; break;
		case 'D': rel |= REL_DOWN; break;
		case 'H': drop = 1; break;
		default: fail_msg("bad JKF relative code '%c'", *code);
		}
	}
	words_text(rel, drop, buf, n);
}

static void
test_game_vector(void **state)
{
	const struct game_vector *g = *state;
	struct position pos;
	const char *p = g->moves;
	int ply = 0;

	load_sfen(&pos, g->sfen);
	while (*p) {
		char tok[32], usi[USI_MOVE_MAX], want[64], what[48];
		const char *slash;
		size_t len = strcspn(p, " ");
		struct undo u;
		move m;

		if (len >= sizeof(tok))
			fail_msg("bad vector token");
		memcpy(tok, p, len);
		tok[len] = '\0';
		p += len + (p[len] == ' ');
		slash = strchr(tok, '/');
		snprintf(usi, sizeof(usi), "%.*s", slash ?
		    (int)(slash - tok) : (int)len, tok);
		want[0] = '\0';
		if (slash)
			jkf_words(slash + 1, want, sizeof(want));
		m = usi_move(&pos, usi);
		ply++;
		snprintf(what, sizeof(what), " (ply %d of %s)", ply, g->name);
		assert_words_in(&pos, m, want, what);
		position_do_move(&pos, m, &u);
	}
}

/* A record of one move spec after sfen, replayed. */
static void
replay_spec(const char *sfen, enum piece_type pt, const char *to,
    unsigned rel, unsigned flags, struct record *r, struct diag_list *d)
{
	struct replay rp;
	int32_t n;

	record_init(r, variant_standard());
	diag_list_init(d);
	load_sfen(&r->start, sfen);
	n = record_add_node(r, 0);
	r->nodes[n].spec.flags = (uint8_t)flags;
	r->nodes[n].spec.color = -1;
	r->nodes[n].spec.from = SQ_NONE;
	r->nodes[n].spec.to = (uint8_t)sq_make(to[0] - '1', to[1] - 'a');
	r->nodes[n].spec.piece = (uint8_t)pt;
	r->nodes[n].spec.rel = (uint8_t)rel;
	r->nodes[n].raw = record_intern(r, "test", 4);
	replay_record(r, &rp, d);
}

static void
assert_replayed(const char *sfen, enum piece_type pt, const char *to,
    unsigned rel, unsigned flags, const char *usi)
{
	struct record r;
	struct diag_list d;
	char got[USI_MOVE_MAX] = "none";

	replay_spec(sfen, pt, to, rel, flags, &r, &d);
	if (r.nodes[1].mv != MOVE_NONE)
		usi_format_move(r.nodes[1].mv, got);
	if (strcmp(got, usi) != 0)
		fail_msg("expected %s, replay gave %s (%s)", usi, got,
		    d.n ? d.v[0].message : "no diagnostic");
	assert_int_equal(d.errors, 0);
	record_release(&r);
	diag_list_release(&d);
}

/* find_fits in replay: words, 打, and what an ambiguity says. */
static void
test_replay_words(void **state)
{
	struct record r;
	struct diag_list d;

	(void)state;
	assert_replayed(P_THREE_GOLDS, PT_GOLD, "5e", REL_LEFT | REL_UP, 0,
	    "6f5e");
	assert_replayed(P_THREE_GOLDS, PT_GOLD, "5e", REL_STRAIGHT, 0,
	    "5f5e");
	assert_replayed(P_THREE_GOLDS, PT_GOLD, "5e", REL_SIDEWAYS, 0,
	    "6e5e");
	assert_replayed(P_GOLDS_UP, PT_GOLD, "5e", REL_RIGHT, 0, "4f5e");
	assert_replayed(P_SILVERS_ZONE, PT_SILVER, "5c", REL_RIGHT,
	    SPEC_PROMOTE, "4d5c+");
	/* No 打 and a board gold that fits: the board gold moves. */
	assert_replayed(P_GOLD_AND_HAND, PT_GOLD, "5e", 0, 0, "6f5e");
	/* No 打 and no board gold in reach: the drop. */
	assert_replayed(P_FAR_GOLD_AND_HAND, PT_GOLD, "5e", 0, 0, "G*5e");

	/* Too few words: the candidates are named. */
	replay_spec(P_THREE_GOLDS, PT_GOLD, "5e", REL_UP, 0, &r, &d);
	assert_int_equal(r.nodes[1].mv, MOVE_NONE);
	assert_int_equal(d.errors, 1);
	assert_string_equal(d.v[0].id, diag_id_name(DIAG_AMBIGUOUS));
	if (!strstr(d.v[0].message, "2 pieces fit the move: ") ||
	    !strstr(d.v[0].message, "6f") || !strstr(d.v[0].message, "5f") ||
	    strstr(d.v[0].message, "6e"))
		fail_msg("message: %s", d.v[0].message);
	record_release(&r);
	diag_list_release(&d);

	replay_spec(P_GOLDS_UP, PT_GOLD, "5e", 0, 0, &r, &d);
	assert_int_equal(d.errors, 1);
	assert_string_equal(d.v[0].id, diag_id_name(DIAG_AMBIGUOUS));
	if (!strstr(d.v[0].message, "2 pieces fit the move: 6f, 4f") &&
	    !strstr(d.v[0].message, "2 pieces fit the move: 4f, 6f"))
		fail_msg("message: %s", d.v[0].message);
	record_release(&r);
	diag_list_release(&d);

	/* Words that fit no piece. */
	replay_spec(P_GOLDS_UP, PT_GOLD, "5e", REL_DOWN, 0, &r, &d);
	assert_int_equal(r.nodes[1].mv, MOVE_NONE);
	assert_int_equal(d.errors, 1);
	assert_string_equal(d.v[0].id, rule_id_name(RULE_PIECE_MOVEMENT));
	record_release(&r);
	diag_list_release(&d);
}

#define N_GAMES (sizeof(game_vectors) / sizeof(game_vectors[0]))
#define N_TESTS (N_WORDS_CASES + N_GAMES + 8)

int
main(int argc, char **argv)
{
	static struct CMUnitTest tests[N_TESTS];
	static char names[N_TESTS][128];
	size_t i, n = 0;

	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_mirror);
	for (i = 0; i < N_WORDS_CASES; i++, n++) {
		snprintf(names[n], sizeof(names[n]), "words: %s",
		    words_cases[i].name);
		tests[n].name = names[n];
		tests[n].test_func = test_words_case;
		tests[n].initial_state = (void *)&words_cases[i];
	}
	for (i = 0; i < N_GAMES; i++, n++) {
		snprintf(names[n], sizeof(names[n]), "game: %s",
		    game_vectors[i].name);
		tests[n].name = names[n];
		tests[n].test_func = test_game_vector;
		tests[n].initial_state = (void *)&game_vectors[i];
	}
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_filter);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_replay_words);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_property_games);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_property_crowds);
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return _cmocka_run_group_tests("core/notation", tests, n, NULL, NULL);
}
