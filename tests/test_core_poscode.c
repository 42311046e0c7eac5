/*
 * HCP and PackedSfen (core/poscode.h): cshogi's and YaneuraOu's bytes for
 * the positions of testdata/training/vectors.tsv, what cannot be encoded,
 * damaged codes, and encode/decode round trips of both codes (and of both
 * 16-bit move forms, core/move16.h) over every position of every record
 * in testdata/.
 */
#include <stdio.h>

#include "helpers.h"
#include "walk_records.h"
#include "core/move16.h"
#include "core/poscode.h"
#include "core/zobrist.h"

#define VECTORS "testdata/training/vectors.tsv"

static void
hex(const uint8_t *b, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

static void
unhex(const char *s, uint8_t *b, size_t n)
{
	size_t i;
	unsigned x;

	for (i = 0; i < n; i++) {
		if (sscanf(s + 2 * i, "%2x", &x) != 1)
			fail_msg("bad hex '%s'", s);
		b[i] = (uint8_t)x;
	}
}

/* Same board, hands and side (the move number is in neither code). */
static int
same_position(const struct position *a, const struct position *b)
{
	return memcmp(a->board, b->board, sizeof(a->board)) == 0 &&
	    memcmp(a->hand, b->hand, sizeof(a->hand)) == 0 &&
	    a->side == b->side && position_key(a) == position_key(b);
}

static void
test_vectors(void **state)
{
	FILE *f = fopen(VECTORS, "r");
	char line[1024];
	int n = 0;

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char *sfen = strtok(line, "\t"), *hcp = strtok(NULL, "\t");
		char *psfen = strtok(NULL, "\t"), got[2 * POSCODE_BYTES + 1];
		char back[SFEN_MAX], canon[SFEN_MAX];
		uint8_t code[POSCODE_BYTES];
		struct position pos, dec;
		struct poscode_error e;

		if (sfen[0] == '#')
			continue;
		assert_non_null(psfen);
		load_sfen(&pos, sfen);
		assert_int_equal(poscode_encode(POSCODE_HCP, &pos, code),
		    POSCODE_OK);
		hex(code, POSCODE_BYTES, got);
		if (strncmp(got, hcp, 64) != 0)
			fail_msg("%s: HCP %s, cshogi %s", sfen, got, hcp);
		assert_int_equal(poscode_encode(POSCODE_PSFEN, &pos, code),
		    POSCODE_OK);
		hex(code, POSCODE_BYTES, got);
		if (strncmp(got, psfen, 64) != 0)
			fail_msg("%s: PackedSfen %s, cshogi %s", sfen, got, psfen);
		/* Read back from the published bytes, not from ours. */
		unhex(hcp, code, POSCODE_BYTES);
		if (poscode_decode(POSCODE_HCP, code, &dec, &e) < 0)
			fail_msg("%s: HCP: %s", sfen, e.message);
		/* one vector writes its hands in another order */
		sfen_write(&pos, canon);
		sfen_write(&dec, back);
		assert_string_equal(back, canon);
		assert_true(position_is_ok(&dec));
		unhex(psfen, code, POSCODE_BYTES);
		if (poscode_decode(POSCODE_PSFEN, code, &dec, &e) < 0)
			fail_msg("%s: PackedSfen: %s", sfen, e.message);
		sfen_write(&dec, back);
		assert_string_equal(back, canon);
		n++;
	}
	fclose(f);
	assert_int_equal(n, 13);
}

static void
test_refusals(void **state)
{
	uint8_t code[POSCODE_BYTES];
	struct position pos;

	(void)state;
	/* tsume: one king is missing, the code would need 257 bits */
	load_sfen(&pos, "7lk/9/8S/9/9/9/9/7L1/9 b GP 1");
	assert_int_equal(poscode_encode(POSCODE_HCP, &pos, code),
	    POSCODE_NO_KING);
	assert_int_equal(poscode_encode(POSCODE_PSFEN, &pos, code),
	    POSCODE_NO_KING);
	load_sfen(&pos, "9/9/9/9/9/9/9/9/9 b - 1");
	assert_int_equal(poscode_encode(POSCODE_HCP, &pos, code),
	    POSCODE_NO_KING);
	/* more pawns than a set has, in hand and on the board */
	load_sfen(&pos, "4k4/9/9/9/9/9/9/9/4K4 b 18P 1");
	position_hand_set(&pos, WHITE, PT_PAWN, 1);
	assert_int_equal(poscode_encode(POSCODE_HCP, &pos, code),
	    POSCODE_TOO_MANY);
	load_sfen(&pos, "4k4/9/9/9/9/9/9/9/4K4 b 2R 1");
	position_put(&pos, sq_make(0, 4), piece_make(WHITE, PT_DRAGON));
	assert_int_equal(poscode_encode(POSCODE_PSFEN, &pos, code),
	    POSCODE_TOO_MANY);
	/* a third king has no code */
	load_sfen(&pos, "4k4/9/9/9/9/9/9/9/4K4 b - 1");
	position_put(&pos, sq_make(0, 4), piece_make(WHITE, PT_KING));
	position_put(&pos, sq_make(4, 0), piece_make(WHITE, PT_KING));
	pos.king[WHITE] = sq_make(4, 0);
	assert_int_equal(poscode_encode(POSCODE_HCP, &pos, code),
	    POSCODE_TOO_MANY);
	position_set_start(&pos, variant_minishogi());
	assert_int_equal(poscode_encode(POSCODE_HCP, &pos, code),
	    POSCODE_VARIANT);
	assert_string_equal(poscode_refusal_name(POSCODE_NO_KING), "no-king");
	assert_string_equal(poscode_refusal_name(POSCODE_TOO_MANY),
	    "too-many-pieces");
	assert_string_equal(poscode_refusal_name(POSCODE_VARIANT), "variant");
}

/* A stream built bit by bit, for codes no encoder would write. */
struct stream {
	uint8_t b[POSCODE_BYTES + 8];
	unsigned n;
};

static void
sput(struct stream *s, unsigned v, unsigned bits)
{
	unsigned i;

	for (i = 0; i < bits; i++, s->n++)
		if ((v >> i) & 1)
			s->b[s->n / 8] |= (uint8_t)(1 << (s->n % 8));
}

/* Black to move, kings on 5i and 5a, the other 79 squares empty. */
static void
kings_only(struct stream *s)
{
	unsigned i;

	memset(s, 0, sizeof(*s));
	sput(s, 0, 1);
	sput(s, 44, 7);
	sput(s, 36, 7);
	for (i = 0; i < 79; i++)
		sput(s, 0, 1);
}

static void
expect_error(const struct stream *s, const char *id, int bit)
{
	struct position pos;
	struct poscode_error e;

	if (poscode_decode(POSCODE_HCP, s->b, &pos, &e) == 0)
		fail_msg("decoded; expected %s", id);
	if (strcmp(e.id, id) != 0)
		fail_msg("expected %s, got %s (%s)", id, e.id, e.message);
	if (bit >= 0)
		assert_int_equal(e.bit, bit);
}

/* Every HCP hand code of Black, in order: the whole set, 162 bits. */
static void
black_hand_all(struct stream *s, int skip_gold)
{
	static const struct { unsigned v, bits, n; } h[] = {
		{ 0x00, 3, 18 }, { 0x01, 5, 4 }, { 0x03, 5, 4 },
		{ 0x05, 5, 4 }, { 0x07, 5, 4 }, { 0x1F, 7, 2 }, { 0x3F, 7, 2 },
	};
	unsigned i, k;

	for (i = 0; i < 7; i++)
		for (k = 0; k < h[i].n - (skip_gold && i == 4); k++)
			sput(s, h[i].v, h[i].bits);
}

static void
test_damaged(void **state)
{
	struct stream s;
	struct position pos;
	struct poscode_error e;
	uint8_t code[POSCODE_BYTES];
	int i;

	(void)state;
	kings_only(&s);
	black_hand_all(&s, 0);
	assert_int_equal(s.n, 256);
	assert_int_equal(poscode_decode(POSCODE_HCP, s.b, &pos, &e), 0);
	/* a king field of 81 (cshogi's "none") and over */
	s.b[0] = (uint8_t)((s.b[0] & 1) | (81 << 1));
	expect_error(&s, "no-king", 1);
	s.b[0] = (uint8_t)((s.b[0] & 1) | (100 << 1));
	expect_error(&s, "bad-king-square", 1);
	/* both kings on 5a */
	kings_only(&s);
	black_hand_all(&s, 0);
	s.b[0] = (uint8_t)((s.b[0] & 1) | (36 << 1));
	expect_error(&s, "bad-king-square", 8);
	/* "011", a White pawn in the box, is no code */
	kings_only(&s);
	sput(&s, 0x6, 3);
	expect_error(&s, "bad-code", 94);
	/* a gold missing: the five bits left start a 7-bit code */
	kings_only(&s);
	black_hand_all(&s, 1);
	sput(&s, 0x1F, 5);
	assert_int_equal(s.n, 256);
	expect_error(&s, "bits-missing", 251);
	/* the gold's bits as three pawns' and two bits: nineteenth pawn */
	kings_only(&s);
	black_hand_all(&s, 1);
	sput(&s, 0, 5);
	expect_error(&s, "too-many-pieces", -1);
	/* a third rook on the board, said where it is */
	memset(&s, 0, sizeof(s));
	sput(&s, 0, 1);
	sput(&s, 44, 7);
	sput(&s, 36, 7);
	for (i = 0; i < 31; i++)
		sput(&s, 0xFF, 8);		/* White dragons */
	expect_error(&s, "too-many-pieces", 15 + 2 * 8);
	memset(&s, 0xff, sizeof(s));
	s.b[0] = (uint8_t)(44 << 1);
	s.b[1] = (uint8_t)(0x80 | 36);
	expect_error(&s, "too-many-pieces", 15 + 2 * 8);
	/* positions the rules cannot reach are errors with their id */
	load_sfen(&pos, "4k4/9/9/9/9/9/9/9/4K4 b - 1");
	position_put(&pos, sq_make(0, 6), piece_make(BLACK, PT_PAWN));
	position_put(&pos, sq_make(0, 5), piece_make(BLACK, PT_PAWN));
	assert_int_equal(poscode_encode(POSCODE_PSFEN, &pos, code), POSCODE_OK);
	assert_int_equal(poscode_decode(POSCODE_PSFEN, code, &pos, &e), -1);
	assert_string_equal(e.id, "nifu-on-board");
	load_sfen(&pos, "4k4/9/9/9/9/9/9/9/4K4 b - 1");
	position_put(&pos, sq_make(4, 1), piece_make(BLACK, PT_GOLD));
	assert_int_equal(poscode_encode(POSCODE_HCP, &pos, code), POSCODE_OK);
	assert_int_equal(poscode_decode(POSCODE_HCP, code, &pos, &e), -1);
	assert_string_equal(e.id, "side-not-to-move-in-check");
	load_sfen(&pos, "4k4/9/9/9/9/9/9/9/4K4 b - 1");
	position_put(&pos, sq_make(0, 0), piece_make(BLACK, PT_KNIGHT));
	assert_int_equal(poscode_encode(POSCODE_HCP, &pos, code), POSCODE_OK);
	assert_int_equal(poscode_decode(POSCODE_HCP, code, &pos, &e), -1);
	assert_string_equal(e.id, "dead-piece-on-board");
}

static const char *const known_ids[] = {
	"bad-king-square", "no-king", "bad-code", "bits-missing",
	"too-many-pieces", "pieces-missing", "nifu-on-board",
	"dead-piece-on-board", "side-not-to-move-in-check", NULL
};

static int
known(const char *id)
{
	int i;

	for (i = 0; known_ids[i]; i++)
		if (strcmp(id, known_ids[i]) == 0)
			return 1;
	return 0;
}

/*
 * Whatever the bytes, decoding ends with a position that encodes and
 * decodes to itself, or with one of the documented errors.
 */
static void
check_any(enum poscode_kind k, const uint8_t *code, int *ok)
{
	struct position a, b;
	struct poscode_error e;
	uint8_t again[POSCODE_BYTES];

	if (poscode_decode(k, code, &a, &e) < 0) {
		if (!known(e.id))
			fail_msg("unknown error id '%s'", e.id);
		return;
	}
	(*ok)++;
	assert_true(position_is_ok(&a));
	assert_int_equal(poscode_encode(k, &a, again), POSCODE_OK);
	assert_int_equal(poscode_decode(k, again, &b, &e), 0);
	assert_true(same_position(&a, &b));
}

static void
test_hostile_bytes(void **state)
{
	uint8_t code[POSCODE_BYTES], start[POSCODE_BYTES];
	struct position pos;
	uint64_t x = 0x9e3779b97f4a7c15ull;
	int i, j, k, ok = 0;

	(void)state;
	for (i = 0; i < 20000; i++) {
		for (j = 0; j < POSCODE_BYTES; j++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			code[j] = (uint8_t)x;
		}
		/* plausible kings, so that the rest gets read too */
		code[0] = (uint8_t)((code[0] & 1) | (44 << 1));
		code[1] = (uint8_t)((code[1] & 0x80) | 36);
		check_any(POSCODE_HCP, code, &ok);
		check_any(POSCODE_PSFEN, code, &ok);
	}
	/* every one-bit change of the start position, in both codes */
	position_set_start(&pos, variant_standard());
	for (k = POSCODE_HCP; k <= POSCODE_PSFEN; k++) {
		assert_int_equal(poscode_encode((enum poscode_kind)k, &pos,
		    start), POSCODE_OK);
		for (i = 0; i < 256; i++) {
			memcpy(code, start, sizeof(code));
			code[i / 8] ^= (uint8_t)(1 << (i % 8));
			check_any((enum poscode_kind)k, code, &ok);
		}
	}
	/* flipping the side bit of the start leaves a valid position */
	assert_true(ok >= 2);
}

/* ---- every position of every record in testdata/ ---- */

struct walk_counts {
	size_t positions, moves, refused, incremental;
};

static void
round_trip(const struct position *pos, struct walk_counts *c)
{
	uint8_t code[POSCODE_BYTES];
	struct position dec;
	struct poscode_error e;
	int k;

	for (k = POSCODE_HCP; k <= POSCODE_PSFEN; k++) {
		enum poscode_refusal r = poscode_encode((enum poscode_kind)k,
		    pos, code);

		if (r != POSCODE_OK) {
			/* only what the codes cannot hold */
			if (r == POSCODE_NO_KING)
				assert_true(pos->king[BLACK] == SQ_NONE ||
				    pos->king[WHITE] == SQ_NONE);
			else if (r == POSCODE_VARIANT)
				assert_ptr_not_equal(pos->v,
				    variant_standard());
			c->refused++;
			return;
		}
		if (poscode_decode((enum poscode_kind)k, code, &dec, &e) < 0) {
			char s[SFEN_MAX];

			sfen_write(pos, s);
			/* impossible starts are replayed with a warning */
			if (!strcmp(e.id, "dead-piece-on-board") ||
			    !strcmp(e.id, "nifu-on-board") ||
			    !strcmp(e.id, "side-not-to-move-in-check")) {
				c->refused++;
				return;
			}
			fail_msg("%s: %s", s, e.message);
		}
		if (!same_position(pos, &dec)) {
			char s[SFEN_MAX], t[SFEN_MAX];

			sfen_write(pos, s);
			sfen_write(&dec, t);
			fail_msg("%s decodes as %s", s, t);
		}
	}
	c->positions++;
}

static void
walk_one(void *ctx, const char *path, const struct record *r,
    const struct replay *rp)
{
	struct walk_counts *c = ctx;
	struct position pos = r->start;
	/* each code also made move by move, as export makes it */
	struct poscode_inc inc[2];
	int kinds = 0, k;
	int32_t i;

	(void)rp;
	round_trip(&pos, c);
	for (k = POSCODE_HCP; k <= POSCODE_PSFEN; k++)
		if (poscode_inc_start(&inc[k], (enum poscode_kind)k, &pos) ==
		    POSCODE_OK)
			kinds = k + 1;
	for (i = r->nodes[0].next; i >= 0 && r->nodes[i].mv != MOVE_NONE;
	    i = r->nodes[i].next) {
		move m = r->nodes[i].mv, back;
		struct move16_error e;
		struct undo u;
		int f;

		for (f = MOVE16_CSHOGI; f <= MOVE16_YANEURAOU; f++) {
			uint16_t m16 = move16_encode((enum move16_form)f, m);

			if (pos.v != variant_standard())
				break;
			if (move16_decode((enum move16_form)f, &pos, m16, &back,
			    &e) < 0)
				fail_msg("%s: move %d: %s", path,
				    r->nodes[i].ply, e.message);
			assert_int_equal(back, m);
		}
		c->moves++;
		position_do_move(&pos, m, &u);
		round_trip(&pos, c);
		for (k = 0; k < kinds; k++) {
			uint8_t a[POSCODE_BYTES], b[POSCODE_BYTES];

			poscode_inc_move(&inc[k], m);
			assert_int_equal(poscode_inc_write(&inc[k], a),
			    POSCODE_OK);
			assert_int_equal(poscode_encode((enum poscode_kind)k,
			    &pos, b), POSCODE_OK);
			if (memcmp(a, b, sizeof(a)) != 0)
				fail_msg("%s: move %d: the code made move by "
				    "move differs", path, r->nodes[i].ply);
			c->incremental++;
		}
	}
}

static void
test_every_record(void **state)
{
	struct walk_counts c = { 0, 0, 0, 0 };
	size_t records;

	(void)state;
	records = walk_records("testdata", walk_one, &c);
	printf("# %zu records, %zu positions round-tripped, %zu moves, "
	    "%zu positions no code holds, %zu codes made move by move\n",
	    records, c.positions, c.moves, c.refused, c.incremental);
	/* the corpus holds some 400 replayable records, 19,000 moves */
	assert_true(records > 350);
	assert_true(c.positions > 15000);
	assert_true(c.moves > 15000);
	assert_true(c.incremental > 2 * 15000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_hostile_bytes),
		cmocka_unit_test(test_every_record),
	};

	return cmocka_run_group_tests_name("core/poscode", tests, NULL, NULL);
}
