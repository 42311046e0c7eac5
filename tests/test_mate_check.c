/*
 * test_mate_check.c - judging composed problems (mate/check.c): sound
 * problems with their published solutions, and solutions that are
 * cooked, too short, too long, not mate, or leave pieces in hand.
 */
#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/sfen.h"
#include "core/usi.h"
#include "mate/check.h"

static struct mate_ctx *ctx;

static int
setup(void **state)
{
	(void)state;
	ctx = mate_ctx_new(64u << 20);
	return ctx ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	mate_ctx_free(ctx);
	return 0;
}

/*
 * Checks "SFEN moves M..." under the problem rules into r (released by
 * the caller); every move must be legal.
 */
static void
check(const char *line, uint64_t nodes, struct tsume_report *r)
{
	struct mate_limits lim = { nodes, 0 };
	struct position start, q;
	struct mate_error me;
	const char *p;
	move mv[2048];
	size_t used;
	int n = 0;

	if (sfen_read_prefix(&start, variant_standard(), line, &used, NULL))
		fail_msg("bad SFEN in '%s'", line);
	assert_int_equal(mate_prepare(&start, MATE_PROBLEM, &me), 0);
	q = start;
	p = strstr(line + used, "moves");
	if (p)
		p += 5;
	while (p && *p) {
		struct move_claim c;
		struct undo u;
		size_t len;

		while (*p == ' ')
			p++;
		len = strcspn(p, " ");
		if (!len)
			break;
		if (usi_parse_move(q.v, p, len, &c) ||
		    rules_check_move(&q, &c, &mv[n]) != RULE_OK)
			fail_msg("bad move at '%s'", p);
		position_do_move(&q, mv[n++], &u);
		p += len;
	}
	tsume_report_init(r);
	tsume_check(ctx, &start, mv, n, 0, MATE_PROBLEM, &lim, NULL, r);
}

static int
count(const struct tsume_report *r, enum tsume_finding_kind k, int ply)
{
	int i, n = 0;

	for (i = 0; i < r->nf; i++)
		n += r->f[i].kind == k && (ply < 0 || r->f[i].ply == ply);
	return n;
}

/* The JSA's problem of the day, 2021-11-16, with its published answer. */
static void
test_sound_jsa_daily(void **state)
{
	struct tsume_report r;

	(void)state;
	check("9/6Spk/9/5R1+B1/9/9/9/9/9 b Nrb4g3s3n4l17p 1 "
	    "moves 2d1c 1b1c N*2e 1c1b 4d1d", 0, &r);
	assert_int_equal(r.verdict, TSUME_SOUND);
	assert_int_equal(r.exact, 5);
	assert_int_equal(r.nf, 0);
	tsume_report_release(&r);
}

/*
 * The last 31 plies of ミクロコスモス (sound as published, so every
 * stretch of its solution is): sound, with the blemishes it has there,
 * the lance dropped one square nearer (非限定), move orders that come
 * back to the solution (手順前後), and defences as long (変同).
 */
static void
test_sound_microcosmos_end(void **state)
{
	FILE *f = fopen("testdata/tsume/microcosmos-end.usi", "r");
	struct tsume_report r;
	char line[2048];

	(void)state;
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	check(line + strlen("sfen "), 0, &r);
	assert_int_equal(r.verdict, TSUME_SOUND);
	assert_int_equal(r.exact, 31);
	assert_int_equal(count(&r, TF_CHOICE, 17), 1);
	assert_true(count(&r, TF_TRANSPOSITION, -1) >= 1);
	assert_true(count(&r, TF_EQUAL, -1) >= 1);
	assert_int_equal(count(&r, TF_COOK, -1), 0);
	tsume_report_release(&r);
}

/*
 * yaneurao/YaneuraOu#162's problem, mate in 3 with futile interpositions
 * set aside, written as the 5 plies that play them: the drops are
 * futile, the attacker mates at once after the first (a shorter mate,
 * a cook), and the length is not exact.
 */
static void
test_futile_interpositions_played(void **state)
{
	struct tsume_report r;

	(void)state;
	check("5pk2/7P1/4+R1+P1+b/8b/6R2/9/9/9/9 b 4g4s4n4l15p 1 "
	    "moves 3c2c N*3c 3e3c+ P*3b N*4c", 0, &r);
	assert_int_equal(r.verdict, TSUME_UNSOUND);
	assert_int_equal(r.exact, 3);
	assert_int_equal(count(&r, TF_FUTILE, 2), 1);
	assert_int_equal(count(&r, TF_FUTILE, 4), 1);
	assert_true(count(&r, TF_COOK, 3) >= 1);
	assert_int_equal(count(&r, TF_LENGTH, 0), 1);
	tsume_report_release(&r);
}

/* A defence that is not the longest: 変長, and the length is wrong. */
static void
test_longer_defence(void **state)
{
	struct tsume_report r;

	(void)state;
	check("9/6Spk/9/5R1+B1/9/9/9/9/9 b Nrb4g3s3n4l17p 1 "
	    "moves 2d1c 1b1a 4d4a+", 0, &r);
	assert_int_equal(r.verdict, TSUME_UNSOUND);
	assert_int_equal(count(&r, TF_LONGER, 2), 1);
	assert_int_equal(r.exact, 5);
	/* And the knight stays in hand. */
	assert_int_equal(count(&r, TF_PIECES_LEFT, 3), 1);
	tsume_report_release(&r);
}

/* The defender could take the silver and escape: 不詰. */
static void
test_escape(void **state)
{
	struct tsume_report r;
	int i, found = 0;

	(void)state;
	check("8k/9/9/9/9/9/9/9/9 b GS 1 moves S*2b 1a1b G*1c", 0, &r);
	assert_int_equal(r.verdict, TSUME_UNSOUND);
	for (i = 0; i < r.nf; i++)
		if (r.f[i].kind == TF_ESCAPE && r.f[i].ply == 2) {
			char buf[USI_MOVE_MAX];

			usi_format_move(r.f[i].m, buf);
			assert_string_equal(buf, "1a2b");
			found = 1;
		}
	assert_true(found);
	assert_int_equal(r.exact, -1);
	tsume_report_release(&r);
}

static void
test_pieces_left_and_not_mate(void **state)
{
	struct tsume_report r;

	(void)state;
	check("4k4/9/4P4/9/9/9/9/9/9 b 2G 1 moves G*5b", 0, &r);
	assert_int_equal(r.verdict, TSUME_UNSOUND);
	assert_int_equal(count(&r, TF_PIECES_LEFT, 1), 1);
	assert_int_equal(r.f[0].pieces, 1);
	tsume_report_release(&r);
	check("4k4/9/4P4/9/9/9/9/9/9 b 2G 1 moves G*4b 5a4b G*4c", 0, &r);
	assert_int_equal(r.verdict, TSUME_UNSOUND);
	assert_int_equal(count(&r, TF_NOT_MATE, 3), 1);
	assert_int_equal(r.exact, 1);
	tsume_report_release(&r);
}

/* Karolina (mog-core-scala's mate in 13): the other promotion choice. */
static void
test_promotion_choice(void **state)
{
	struct tsume_report r;

	(void)state;
	check("4RB1k1/5s3/7n1/5s1LP/9/7r1/9/9/6K2 b b4g2s3n3l17p 1 moves "
	    "4a2c+ L*3a N*3c 4d3c 2c3c 2f2d 5a3a+ 4b3a S*1b 2a1b L*1c 1b2a "
	    "1c1a+", 0, &r);
	assert_int_equal(r.verdict, TSUME_SOUND);
	assert_int_equal(r.exact, 13);
	assert_int_equal(count(&r, TF_CHOICE, 7), 1);
	tsume_report_release(&r);
}

/* Out of nodes: unknown, with the plies left undecided. */
static void
test_limits(void **state)
{
	struct mate_ctx *saved = ctx;
	struct tsume_report r;

	(void)state;
	ctx = mate_ctx_new(4u << 20);
	check("4RB1k1/5s3/7n1/5s1LP/9/7r1/9/9/6K2 b b4g2s3n3l17p 1 moves "
	    "4a2c+ L*3a N*3c 4d3c 2c3c 2f2d 5a3a+ 4b3a S*1b 2a1b L*1c 1b2a "
	    "1c1a+", 500, &r);
	assert_int_equal(r.verdict, TSUME_UNKNOWN);
	assert_true(count(&r, TF_UNDECIDED, -1) >= 1);
	tsume_report_release(&r);
	mate_ctx_free(ctx);
	ctx = saved;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sound_jsa_daily),
		cmocka_unit_test(test_sound_microcosmos_end),
		cmocka_unit_test(test_futile_interpositions_played),
		cmocka_unit_test(test_longer_defence),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_pieces_left_and_not_mate),
		cmocka_unit_test(test_promotion_choice),
		cmocka_unit_test(test_limits),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
