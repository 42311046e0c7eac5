/*
 * The training-row readers (parsers/hcpe.c, hcpe3.c, psv.c, hcp.c and
 * parsers/train.c): every golden file of testdata/training/ reads back to
 * rows that, written again field by field, are its very bytes; then what
 * a reader says of damaged files, and where it goes on.
 */
#include <stdio.h>

#include "helpers.h"
#include "walk_records.h"
#include "parsers/train.h"

#define GOLDEN "testdata/training/"

static const char *const names[] = {
	"r1-floodgate-2021", "r2-floodgate-2016",
	"r3-floodgate-2017-maxmoves", "r4-wcsc32", "r5-8mai-handicap",
	"r6-aobazero-kachi", "h1-nimai-handicap", "h1-nimai-handicap.kifu",
	"h2-hands-drops-promotions", "h2-hands-drops-promotions.usi",
	"h3-fu3hei-perpetual",
};

#define NNAMES (sizeof(names) / sizeof(names[0]))

static struct train_row row;	/* big: candidates */

static char *
golden(const char *name, const char *ext, size_t *n)
{
	char path[256];
	char *b;

	snprintf(path, sizeof(path), GOLDEN "%s.%s", name, ext);
	if (!(b = walk_slurp(path, n)))
		fail_msg("cannot read %s", path);
	return b;
}

/* The bytes a row's fields make again, as the writers lay them out. */
static size_t
rebuild(const char *fmt, const struct train_row *r, uint8_t *out)
{
	enum poscode_kind k = strcmp(fmt, "psv") ? POSCODE_HCP :
	    POSCODE_PSFEN;

	assert_int_equal(poscode_encode(k, &r->pos, out), POSCODE_OK);
	if (!strcmp(fmt, "hcp"))
		return 32;
	train_put16(out + 32, (unsigned)r->eval);
	if (!strcmp(fmt, "hcpe")) {
		train_put16(out + 34, move16_encode(MOVE16_CSHOGI, r->mv));
		out[36] = (uint8_t)r->result;
		out[37] = 0;
		return 38;
	}
	train_put16(out + 34, move16_encode(MOVE16_YANEURAOU, r->mv));
	train_put16(out + 36, (unsigned)r->ply);
	out[38] = (uint8_t)(int8_t)r->result;
	out[39] = 0;
	return 40;
}

static void
check_fixed(const char *name, const char *fmt, train_read_fn read)
{
	struct train_reader rd;
	struct train_error e;
	enum train_read_status st;
	uint8_t again[40];
	size_t n, size = 0;
	char *b = golden(name, fmt, &n);
	long long rows = 0;

	train_reader_init(&rd, b, n);
	while ((st = read(&rd, &row, &e)) == TRAIN_ROW) {
		size = rebuild(fmt, &row, again);
		assert_int_equal(row.index, rows);
		assert_int_equal(row.offset, rows * (long long)size);
		if (memcmp(again, b + row.offset, size) != 0)
			fail_msg("%s.%s: row %lld differs", name, fmt, rows);
		assert_true(position_is_ok(&row.pos));
		rows++;
	}
	if (st != TRAIN_EOF)
		fail_msg("%s.%s: %s", name, fmt, e.message);
	assert_int_equal((size_t)rows * size, n);
	free(b);
}

/* An HCPE3 file is games: each is rebuilt from its rows. */
static void
check_hcpe3(const char *name)
{
	struct strbuf again = STRBUF_INIT;
	struct train_reader rd;
	struct train_error e;
	enum train_read_status st;
	struct position start;
	size_t n, head = 0;
	char *b = golden(name, "hcpe3", &n);
	int moves = 0, i;

	train_reader_init(&rd, b, n);
	while ((st = hcpe3_read(&rd, &row, &e)) == TRAIN_ROW) {
		uint8_t info[6], h[36];

		if (moves == 0) {
			start = row.pos;
			assert_int_equal(poscode_encode(POSCODE_HCP, &start, h),
			    POSCODE_OK);
			h[34] = (uint8_t)row.result;
			h[35] = (uint8_t)row.opponent;
			head = again.len;
			strbuf_add(&again, h, 36);
		}
		assert_int_equal(row.game, 0);
		assert_int_equal(row.pos.move_number, moves + 1);
		train_put16(info, move16_encode(MOVE16_CSHOGI, row.mv));
		train_put16(info + 2, (unsigned)row.eval);
		train_put16(info + 4, (unsigned)row.ncand);
		strbuf_add(&again, info, 6);
		for (i = 0; i < row.ncand; i++) {
			train_put16(info, move16_encode(MOVE16_CSHOGI,
			    row.cand[i]));
			train_put16(info + 2, row.visits[i]);
			strbuf_add(&again, info, 4);
		}
		moves++;
	}
	if (st != TRAIN_EOF)
		fail_msg("%s.hcpe3: %s", name, e.message);
	train_put16((uint8_t *)again.buf + head + 32, (unsigned)moves);
	assert_int_equal(again.len, n);
	assert_memory_equal(again.buf, b, n);
	strbuf_release(&again);
	free(b);
}

static void
test_golden(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < NNAMES; i++) {
		check_fixed(names[i], "hcpe", hcpe_read);
		check_fixed(names[i], "psv", psv_read);
		check_fixed(names[i], "hcp", hcp_read);
		check_hcpe3(names[i]);
	}
}

/* ---- damaged files ---- */

static enum train_read_status
next(struct train_reader *rd, train_read_fn read, struct train_error *e)
{
	memset(e, 0, sizeof(*e));
	return read(rd, &row, e);
}

static void
test_fixed_damage(void **state)
{
	struct train_reader rd;
	struct train_error e;
	size_t n;
	char *b = golden("r5-8mai-handicap", "hcpe", &n);

	(void)state;
	/* 2 rows and 5 bytes: the rows, then the cut one, then the end */
	train_reader_init(&rd, b, 2 * 38 + 5);
	assert_int_equal(next(&rd, hcpe_read, &e), TRAIN_ROW);
	assert_int_equal(next(&rd, hcpe_read, &e), TRAIN_ROW);
	assert_int_equal(next(&rd, hcpe_read, &e), TRAIN_BAD_ROW);
	assert_string_equal(e.id, "truncated");
	assert_int_equal(e.row, 2);
	assert_int_equal(e.offset, 76);
	assert_int_equal(next(&rd, hcpe_read, &e), TRAIN_EOF);
	/* a bad row in the middle: the next one is read */
	b[38 + 34] = 0;
	b[38 + 35] = 0;
	train_reader_init(&rd, b, n);
	assert_int_equal(next(&rd, hcpe_read, &e), TRAIN_ROW);
	assert_int_equal(next(&rd, hcpe_read, &e), TRAIN_BAD_ROW);
	assert_string_equal(e.id, "no-move");
	assert_int_equal(e.row, 1);
	assert_int_equal(next(&rd, hcpe_read, &e), TRAIN_ROW);
	assert_int_equal(row.index, 2);
	/* HCPE2's flags are results too; bits above them are not */
	b[36] = 1 | 16;
	train_reader_init(&rd, b, n);
	assert_int_equal(next(&rd, hcpe_read, &e), TRAIN_ROW);
	assert_int_equal(row.result, 17);
	b[36] = 32;
	train_reader_init(&rd, b, n);
	assert_int_equal(next(&rd, hcpe_read, &e), TRAIN_BAD_ROW);
	assert_string_equal(e.id, "bad-result");
	free(b);
	/* special and impossible 16-bit moves */
	b = golden("r5-8mai-handicap", "psv", &n);
	train_put16((uint8_t *)b + 34, 387);		/* YaneuraOu's win */
	train_put16((uint8_t *)b + 40 + 34, 0x4000 | (9 << 7) | 40);
	train_put16((uint8_t *)b + 80 + 36, 0);		/* gamePly 0 */
	train_reader_init(&rd, b, n);
	assert_int_equal(next(&rd, psv_read, &e), TRAIN_BAD_ROW);
	assert_string_equal(e.id, "special-move");
	assert_int_equal(next(&rd, psv_read, &e), TRAIN_BAD_ROW);
	assert_string_equal(e.id, "bad-move");	/* a drop of type 9 */
	assert_int_equal(next(&rd, psv_read, &e), TRAIN_ROW);
	assert_int_equal(row.ply, 0);
	assert_int_equal(row.pos.move_number, 1);
	free(b);
}

static void
test_hcpe3_damage(void **state)
{
	struct train_reader rd;
	struct train_error e;
	uint8_t h[36 + 10];
	size_t n;
	char *b = golden("h3-fu3hei-perpetual", "hcpe3", &n);
	char *two = malloc(2 * n);
	int rows;

	(void)state;
	memcpy(two, b, n);
	memcpy(two + n, b, n);
	/* a candidate that is not legal: the row is bad, the game goes on */
	train_put16((uint8_t *)two + 36 + 6, 0);
	train_reader_init(&rd, two, 2 * n);
	assert_int_equal(next(&rd, hcpe3_read, &e), TRAIN_BAD_ROW);
	assert_string_equal(e.id, "no-move");
	assert_int_equal(e.row, 0);
	assert_int_equal(e.game, 0);
	for (rows = 0; next(&rd, hcpe3_read, &e) == TRAIN_ROW; rows++)
		;
	assert_int_equal(rows, 24 + 25);
	/* a result byte of 3: the game is passed over whole */
	memcpy(two, b, n);
	two[34] = 3;
	train_reader_init(&rd, two, 2 * n);
	assert_int_equal(next(&rd, hcpe3_read, &e), TRAIN_BAD_ROW);
	assert_string_equal(e.id, "bad-result");
	assert_int_equal(e.row, -1);
	assert_int_equal(next(&rd, hcpe3_read, &e), TRAIN_ROW);
	assert_int_equal(row.index, 25);
	assert_int_equal(row.game, 1);
	assert_int_equal(row.offset, n + 36);
	/* games of no move are no rows */
	memcpy(h, b, 36);
	train_put16(h + 32, 0);
	memcpy(two, h, 36);
	memcpy(two + 36, b, n);
	train_reader_init(&rd, two, 36 + n);
	assert_int_equal(next(&rd, hcpe3_read, &e), TRAIN_ROW);
	assert_int_equal(row.game, 1);
	assert_int_equal(row.index, 0);
	/* a header cut short stops the file */
	train_reader_init(&rd, b, 20);
	assert_int_equal(next(&rd, hcpe3_read, &e), TRAIN_FATAL);
	assert_string_equal(e.id, "truncated");
	assert_int_equal(next(&rd, hcpe3_read, &e), TRAIN_EOF);
	free(two);
	free(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
		cmocka_unit_test(test_fixed_damage),
		cmocka_unit_test(test_hcpe3_damage),
	};

	return cmocka_run_group_tests_name("parsers/train", tests, NULL, NULL);
}
