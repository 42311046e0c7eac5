/*
 * fuzz_dump.c - the libFuzzer target of `kifu dump`'s readers: the input
 * is read as every training-row format in turn (hcpe, hcpe3, psv, hcp).
 *
 * Not only a crash test: every row a reader accepts must hold a position
 * that could occur and that both codes give back unchanged, and a move
 * (and candidates) legal there that both 16-bit forms give back; every
 * call must move on through the file, so that none can loop; an error
 * must name a row or game inside the file. A failure aborts, which
 * libFuzzer reports like a crash.
 *
 *   make fuzz CC=clang && build/fuzz/fuzz_dump -max_total_time=60 \
 *       testdata/training
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rules.h"
#include "core/sfen.h"
#include "parsers/train.h"

/*
 * A few hundred good rows at most: each is checked through both codes and
 * both move forms, and the fuzzer wants thousands of inputs a second.
 */
#define MAX_INPUT (1 << 12)

static struct train_row row;

static void
check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_dump: %s\n", what);
		abort();
	}
}

static int
same(const struct position *a, const struct position *b)
{
	return memcmp(a->board, b->board, sizeof(a->board)) == 0 &&
	    memcmp(a->hand, b->hand, sizeof(a->hand)) == 0 &&
	    a->side == b->side && position_key(a) == position_key(b);
}

static void
check_move(const struct position *pos, move m)
{
	struct move_claim c;
	move again;
	int f;

	c.drop = move_is_drop(m);
	c.from = c.drop ? SQ_NONE : move_from(m);
	c.to = move_to(m);
	c.piece = c.drop ? move_drop_type(m) : PT_NONE;
	c.promote = move_is_promotion(m);
	check(rules_check_move(pos, &c, &again) == RULE_OK && again == m,
	    "a move read is not legal");
	for (f = MOVE16_CSHOGI; f <= MOVE16_YANEURAOU; f++) {
		check(move16_decode((enum move16_form)f, pos,
		    move16_encode((enum move16_form)f, m), &again, NULL) == 0 &&
		    again == m, "a move does not survive its 16-bit form");
	}
}

static void
check_row(const struct train_row *r)
{
	uint8_t code[POSCODE_BYTES];
	struct position back;
	struct sfen_error se;
	char sfen[SFEN_MAX];
	int k, i;

	check(position_is_ok(&r->pos), "inconsistent position");
	check(position_validate(&r->pos, &se) == SFEN_OK,
	    "an impossible position was read");
	for (k = POSCODE_HCP; k <= POSCODE_PSFEN; k++) {
		check(poscode_encode((enum poscode_kind)k, &r->pos, code) ==
		    POSCODE_OK, "a position read cannot be written");
		check(poscode_decode((enum poscode_kind)k, code, &back, NULL) ==
		    0 && same(&r->pos, &back), "a code round trip differs");
	}
	sfen_write(&r->pos, sfen);
	check(sfen_read(&back, variant_standard(), sfen, NULL) == SFEN_OK &&
	    same(&r->pos, &back), "the SFEN of a row reads otherwise");
	if (r->has_move)
		check_move(&r->pos, r->mv);
	for (i = 0; i < r->ncand; i++)
		check_move(&r->pos, r->cand[i]);
}

static void
read_all(const uint8_t *data, size_t n, train_read_fn read)
{
	struct train_reader rd;
	struct train_error e;
	enum train_read_status st;
	size_t calls = 0, before;

	train_reader_init(&rd, data, n);
	for (;;) {
		before = rd.off;
		st = read(&rd, &row, &e);
		check(++calls <= n + 2, "the reader does not move on");
		check(rd.off <= n, "the reader went past the end");
		if (st == TRAIN_EOF)
			break;
		check(rd.off > before || st == TRAIN_FATAL,
		    "a call read nothing");
		if (st == TRAIN_ROW) {
			check(row.offset < n, "a row outside the file");
			check_row(&row);
			continue;
		}
		check(e.id && e.offset < n, "an error outside the file");
		if (st == TRAIN_FATAL) {
			check(read(&rd, &row, &e) == TRAIN_EOF,
			    "rows after the end");
			break;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	if (n > MAX_INPUT)
		return 0;
	read_all(data, n, hcpe_read);
	read_all(data, n, hcpe3_read);
	read_all(data, n, psv_read);
	read_all(data, n, hcp_read);
	return 0;
}
