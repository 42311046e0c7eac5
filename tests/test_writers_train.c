/*
 * The training-row writers (writers/hcpe.c, hcpe3.c, psv.c, hcp.c,
 * sfen_rows.c and writers/train.c): the bytes of every golden file in
 * testdata/training/ (made by cshogi, checked with dlshogi's converters)
 * for every format and record, under both rule sets the golden README
 * says give the same results; then the per-record options, the reasons a
 * record is skipped, and which comments give a row its evaluation.
 */
#include <stdio.h>

#include "helpers.h"
#include "train_game.h"
#include "core/usi.h"

#define GOLDEN "testdata/training/"

struct golden {
	const char *record;	/* under records/ */
	const char *rows;	/* the golden files' name, without extension */
	int nrows;
};

static const struct golden goldens[] = {
	{ "r1-floodgate-2021.csa", "r1-floodgate-2021", 125 },
	{ "r2-floodgate-2016.csa", "r2-floodgate-2016", 196 },
	{ "r3-floodgate-2017-maxmoves.csa", "r3-floodgate-2017-maxmoves", 256 },
	{ "r4-wcsc32.csa", "r4-wcsc32", 176 },
	{ "r5-8mai-handicap.csa", "r5-8mai-handicap", 25 },
	{ "r6-aobazero-kachi.csa", "r6-aobazero-kachi", 400 },
	{ "h1-nimai-handicap.csa", "h1-nimai-handicap", 38 },
	{ "h1-nimai-handicap.kifu", "h1-nimai-handicap.kifu", 38 },
	{ "h2-hands-drops-promotions.csa", "h2-hands-drops-promotions", 33 },
	{ "h2-hands-drops-promotions.usi", "h2-hands-drops-promotions.usi",
	    33 },
	{ "h3-fu3hei-perpetual.csa", "h3-fu3hei-perpetual", 25 },
};

#define NGOLDEN (sizeof(goldens) / sizeof(goldens[0]))

struct fmt {
	const char *ext;
	train_write_fn write;
};

static const struct fmt fmts[] = {
	{ "hcpe", hcpe_write }, { "psv", psv_write }, { "hcp", hcp_write },
	{ "hcpe3", hcpe3_write }, { "sfen.txt", sfen_rows_write },
};

static const struct train_opts no_opts = { 0, 0, 0, 0 };

static char *
golden_bytes(const char *rows, const char *ext, size_t *n)
{
	char path[256];
	char *b;

	snprintf(path, sizeof(path), GOLDEN "%s.%s", rows, ext);
	if (!(b = walk_slurp(path, n)))
		fail_msg("cannot read %s", path);
	return b;
}

/* Where two byte strings first differ, for a readable failure. */
static void
assert_bytes(const char *what, const char *got, size_t ngot,
    const char *want, size_t nwant)
{
	size_t i;

	for (i = 0; i < ngot && i < nwant && got[i] == want[i]; i++)
		;
	if (i < ngot || i < nwant)
		fail_msg("%s: %zu bytes, golden %zu; first difference at byte "
		    "%zu", what, ngot, nwant, i);
}

static void
check_golden(const struct golden *gd, const char *rules)
{
	char path[256];
	struct tgame t;
	size_t i;

	snprintf(path, sizeof(path), GOLDEN "records/%s", gd->record);
	tgame_load_file(&t, path, rules);
	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		struct strbuf out = STRBUF_INIT;
		char what[320];
		size_t n, rows;
		char *want = golden_bytes(gd->rows, fmts[i].ext, &n);

		snprintf(what, sizeof(what), "%s, %s rules, %s", gd->record,
		    rules, fmts[i].ext);
		if (fmts[i].write(&t.g, &no_opts, &out, &rows) != TRAIN_WRITTEN)
			fail_msg("%s: skipped", what);
		assert_bytes(what, out.buf, out.len, want, n);
		assert_int_equal(rows, fmts[i].write == hcp_write ? 1 :
		    (size_t)gd->nrows);
		strbuf_release(&out);
		free(want);
	}
	tgame_release(&t);
}

static void
test_golden(void **state)
{
	const struct golden *gd = *state;

	check_golden(gd, "csa");
	check_golden(gd, "jsa");
}

/* ---- options ---- */

static void
write_fmt(train_write_fn fn, const struct train_game *g,
    const struct train_opts *o, struct strbuf *out, size_t *rows)
{
	strbuf_reset(out);
	assert_int_equal(fn(g, o, out, rows), TRAIN_WRITTEN);
}

static void
test_skip_plies(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct train_opts o = no_opts;
	struct tgame t;
	size_t n, rows, i;
	char *hcpe = golden_bytes("r1-floodgate-2021", "hcpe", &n);
	char *h3 = golden_bytes("r1-floodgate-2021", "hcpe3", &n);

	(void)state;
	tgame_load_file(&t, GOLDEN "records/r1-floodgate-2021.csa", "csa");
	o.skip_plies = 10;
	write_fmt(hcpe_write, &t.g, &o, &out, &rows);
	assert_int_equal(rows, 115);
	assert_bytes("hcpe --skip-plies 10", out.buf, out.len, hcpe + 38 * 10,
	    38 * 115);
	/* hcpe3: the ten moves stay, with no candidate */
	write_fmt(hcpe3_write, &t.g, &o, &out, &rows);
	assert_int_equal(rows, 115);
	assert_int_equal(out.len, 36 + 10 * 6 + 115 * 10);
	assert_memory_equal(out.buf, h3, 36);
	for (i = 0; i < 10; i++) {
		const uint8_t *m = (const uint8_t *)out.buf + 36 + 6 * i;
		const uint8_t *g = (const uint8_t *)h3 + 36 + 10 * i;

		assert_memory_equal(m, g, 4);	/* move and eval */
		assert_int_equal(train_u16(m + 4), 0);
	}
	assert_memory_equal(out.buf + 36 + 60, h3 + 36 + 100, 115 * 10);
	/* nothing left */
	o.skip_plies = 125;
	assert_int_equal(hcpe_write(&t.g, &o, &out, &rows), TRAIN_SKIP_NO_ROWS);
	assert_int_equal(rows, 0);
	assert_int_equal(hcpe3_write(&t.g, &o, &out, &rows),
	    TRAIN_SKIP_NO_ROWS);
	o.skip_plies = 124;
	write_fmt(sfen_rows_write, &t.g, &o, &out, &rows);
	assert_int_equal(rows, 1);
	tgame_release(&t);
	strbuf_release(&out);
	free(hcpe);
	free(h3);
}

/*
 * h1's scores are 32767 on move 28, 32768 on move 29, 100000 on move 32:
 * the stop compares the score as written, which the 16-bit field clamps.
 */
static void
test_stop_at_eval(void **state)
{
	static const struct { long long n; size_t rows; } cases[] = {
		{ 32767, 28 }, { 32768, 29 }, { 99999, 31 }, { 100000, 32 },
		{ 1000000, 34 }, { 1148898, 38 }, { 5000, 26 }, { 1, 3 },
	};
	struct strbuf out = STRBUF_INIT;
	struct train_opts o = no_opts;
	struct tgame t;
	size_t n, rows, i;
	char *hcpe = golden_bytes("h1-nimai-handicap", "hcpe", &n);
	char *psv = golden_bytes("h1-nimai-handicap", "psv", &n);

	(void)state;
	tgame_load_file(&t, GOLDEN "records/h1-nimai-handicap.csa", "jsa");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		o.stop_at_eval = cases[i].n;
		write_fmt(hcpe_write, &t.g, &o, &out, &rows);
		if (rows != cases[i].rows)
			fail_msg("--stop-at-eval %lld: %zu rows, expected %zu",
			    cases[i].n, rows, cases[i].rows);
		assert_bytes("hcpe --stop-at-eval", out.buf, out.len, hcpe,
		    38 * rows);
		write_fmt(psv_write, &t.g, &o, &out, &rows);
		assert_bytes("psv --stop-at-eval", out.buf, out.len, psv,
		    40 * cases[i].rows);
		write_fmt(hcpe3_write, &t.g, &o, &out, &rows);
		assert_int_equal(rows, cases[i].rows);
		assert_int_equal(train_u16((uint8_t *)out.buf + 32),
		    cases[i].rows);
	}
	/* hcp asks for a ply, not an eval */
	o.stop_at_eval = 1;
	o.ply = 30;
	write_fmt(hcp_write, &t.g, &o, &out, &rows);
	assert_memory_equal(out.buf, hcpe + 38 * 30, 32);
	tgame_release(&t);
	strbuf_release(&out);
	free(hcpe);
	free(psv);
}

static void
test_hcp_ply(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct train_opts o = no_opts;
	struct position pos;
	struct poscode_error e;
	struct tgame t;
	size_t n, rows;
	char *hcpe = golden_bytes("h2-hands-drops-promotions", "hcpe", &n);
	int ply;

	(void)state;
	tgame_load_file(&t, GOLDEN "records/h2-hands-drops-promotions.csa",
	    "jsa");
	for (ply = 0; ply < 33; ply++) {
		o.ply = ply;
		write_fmt(hcp_write, &t.g, &o, &out, &rows);
		assert_int_equal(rows, 1);
		assert_int_equal(out.len, 32);
		assert_memory_equal(out.buf, hcpe + 38 * ply, 32);
	}
	/* the mate position itself, after the last move */
	o.ply = 33;
	write_fmt(hcp_write, &t.g, &o, &out, &rows);
	assert_int_equal(poscode_decode(POSCODE_HCP, (uint8_t *)out.buf, &pos,
	    &e), 0);
	assert_int_equal(position_key(&pos), position_key(&t.rp.final));
	o.ply = 34;
	strbuf_reset(&out);
	assert_int_equal(hcp_write(&t.g, &o, &out, &rows), TRAIN_SKIP_SHORT);
	assert_int_equal(out.len, 0);
	tgame_release(&t);
	strbuf_release(&out);
	free(hcpe);
}

static void
test_require_eval(void **state)
{
	static const struct { const char *record; enum train_skip want; }
	    cases[] = {
		{ "r1-floodgate-2021.csa", TRAIN_WRITTEN },
		{ "h1-nimai-handicap.kifu", TRAIN_WRITTEN },
		/* five evaluations, three of Black's, two of White's */
		{ "h2-hands-drops-promotions.csa", TRAIN_WRITTEN },
		{ "h2-hands-drops-promotions.usi", TRAIN_SKIP_NO_EVAL },
		{ "h3-fu3hei-perpetual.csa", TRAIN_SKIP_NO_EVAL },
		{ "r5-8mai-handicap.csa", TRAIN_SKIP_NO_EVAL },
	};
	struct strbuf out = STRBUF_INIT;
	struct train_opts o = no_opts;
	size_t i, j, rows;

	(void)state;
	o.require_eval = 1;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[256];
		struct tgame t;

		snprintf(path, sizeof(path), GOLDEN "records/%s",
		    cases[i].record);
		tgame_load_file(&t, path, "jsa");
		for (j = 0; j < sizeof(fmts) / sizeof(fmts[0]); j++) {
			strbuf_reset(&out);
			if (fmts[j].write(&t.g, &o, &out, &rows) !=
			    cases[i].want)
				fail_msg("%s, %s: expected %s", cases[i].record,
				    fmts[j].ext,
				    train_skip_name(cases[i].want));
			if (cases[i].want != TRAIN_WRITTEN)
				assert_int_equal(out.len, 0);
		}
		tgame_release(&t);
	}
	strbuf_release(&out);
}

/* ---- records the formats cannot take ---- */

/* Every writer says why, writes nothing and keeps what out held. */
static void
expect_skip(const struct train_game *g, enum train_skip want,
    const char *what)
{
	struct strbuf out = STRBUF_INIT;
	size_t i, rows = 7;

	strbuf_adds(&out, "kept");
	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		enum train_skip got = fmts[i].write(g, &no_opts, &out, &rows);

		if (got != want)
			fail_msg("%s, %s: %s, expected %s", what, fmts[i].ext,
			    train_skip_name(got), train_skip_name(want));
		assert_int_equal(rows, 0);
		assert_string_equal(out.buf, "kept");
	}
	strbuf_release(&out);
}

/*
 * The kings walk rings that never meet: Black around ranks g-i (20
 * squares), White around ranks a-c, files 1-8 (18): no position comes
 * back within 360 plies.
 */
static void
ring_sq(char sq[3], int file, char rank)
{
	sq[0] = (char)('1' + file);
	sq[1] = rank;
	sq[2] = '\0';
}

static void
long_game(struct strbuf *sb, int start_number, int plies)
{
	char ring[2][20][3];
	int len[2] = { 20, 18 }, i, f, n = 0;

	/* Black: 1i..9i, 9h, 9g..1g, 1h; White: 1a..8a, 8b, 8c..1c, 1b */
	for (f = 0; f < 9; f++)
		ring_sq(ring[0][n++], f, 'i');
	ring_sq(ring[0][n++], 8, 'h');
	for (f = 8; f >= 0; f--)
		ring_sq(ring[0][n++], f, 'g');
	ring_sq(ring[0][n++], 0, 'h');
	for (n = 0, f = 0; f < 8; f++)
		ring_sq(ring[1][n++], f, 'a');
	ring_sq(ring[1][n++], 7, 'b');
	for (f = 7; f >= 0; f--)
		ring_sq(ring[1][n++], f, 'c');
	ring_sq(ring[1][n++], 0, 'b');
	strbuf_addf(sb, "sfen 8k/9/9/9/9/9/9/9/8K b - %d moves",
	    start_number);
	for (i = 0; i < plies; i++) {
		int c = i % 2, k = i / 2;

		strbuf_addf(sb, " %s%s", ring[c][k % len[c]],
		    ring[c][(k + 1) % len[c]]);
	}
	strbuf_addc(sb, '\n');
}

static void
test_skips(void **state)
{
	struct strbuf text = STRBUF_INIT, out = STRBUF_INIT;
	struct tgame t;
	size_t rows;

	(void)state;
	tgame_load_text(&t, "x.usi", "sfen 7lk/9/8S/9/9/9/9/7L1/9 b GP 1 "
	    "moves G*2b\n", "jsa", -1);
	expect_skip(&t.g, TRAIN_SKIP_NO_KING, "tsume");
	tgame_release(&t);
	tgame_load_text(&t, "x.usi", "sfen 4k4/9/9/9/9/9/9/9/4K4 b 19P 1 "
	    "moves P*5e\n", "jsa", -1);
	expect_skip(&t.g, TRAIN_SKIP_TOO_MANY_PIECES, "19 pawns");
	tgame_release(&t);
	tgame_load_text(&t, "x.usi", "sfen 4k4/9/9/9/9/9/P8/P8/4K4 b - 1 "
	    "moves 5i5h\n", "jsa", -1);
	expect_skip(&t.g, TRAIN_SKIP_IMPOSSIBLE, "nifu start");
	tgame_release(&t);
	tgame_load_text(&t, "x.usi", "startpos moves 7g7f 7f7e\n", "jsa",
	    -1);
	expect_skip(&t.g, TRAIN_SKIP_ILLEGAL, "illegal move");
	tgame_release(&t);
	/* a foul the record itself reports is the end of the game */
	tgame_load_text(&t, "x.csa", "PI\n+\n+7776FU\n-3334FU\n+7674FU\n"
	    "%+ILLEGAL_ACTION\n", "jsa", -1);
	assert_int_equal(hcpe_write(&t.g, &no_opts, &out, &rows),
	    TRAIN_WRITTEN);
	assert_int_equal(rows, 2);
	tgame_release(&t);
	tgame_load_text(&t, "x.usi", "startpos\n", "jsa", -1);
	assert_int_equal(hcpe_write(&t.g, &no_opts, &out, &rows),
	    TRAIN_SKIP_NO_ROWS);
	assert_int_equal(psv_write(&t.g, &no_opts, &out, &rows),
	    TRAIN_SKIP_NO_ROWS);
	assert_int_equal(hcpe3_write(&t.g, &no_opts, &out, &rows),
	    TRAIN_SKIP_NO_ROWS);
	assert_int_equal(sfen_rows_write(&t.g, &no_opts, &out, &rows),
	    TRAIN_SKIP_NO_ROWS);
	strbuf_reset(&out);
	assert_int_equal(hcp_write(&t.g, &no_opts, &out, &rows),
	    TRAIN_WRITTEN);
	assert_int_equal(out.len, 32);
	tgame_release(&t);
	/* 600 plies and no limit: too long for hcpe3 alone */
	long_game(&text, 1, 600);
	tgame_load_text(&t, "x.usi", text.buf, "jsa", 0);
	assert_int_equal(t.adj.result.ply, 600);
	strbuf_reset(&out);
	assert_int_equal(hcpe3_write(&t.g, &no_opts, &out, &rows),
	    TRAIN_SKIP_TOO_LONG);
	assert_int_equal(out.len, 0);
	write_fmt(hcpe_write, &t.g, &no_opts, &out, &rows);
	assert_int_equal(rows, 600);
	tgame_release(&t);
	/* 513 moves are still fine */
	strbuf_reset(&text);
	long_game(&text, 1, 513);
	tgame_load_text(&t, "x.usi", text.buf, "jsa", 0);
	write_fmt(hcpe3_write, &t.g, &no_opts, &out, &rows);
	assert_int_equal(rows, 513);
	assert_int_equal(train_u16((uint8_t *)out.buf + 32), 513);
	tgame_release(&t);
	/* gamePly is 16 bits: move 65535 is the last it holds */
	strbuf_reset(&text);
	long_game(&text, 65530, 6);
	tgame_load_text(&t, "x.usi", text.buf, "jsa", 0);
	write_fmt(psv_write, &t.g, &no_opts, &out, &rows);
	assert_int_equal(train_u16((uint8_t *)out.buf + 5 * 40 + 36), 65535);
	tgame_release(&t);
	strbuf_reset(&text);
	long_game(&text, 65530, 7);
	tgame_load_text(&t, "x.usi", text.buf, "jsa", 0);
	assert_int_equal(psv_write(&t.g, &no_opts, &out, &rows),
	    TRAIN_SKIP_GAME_PLY);
	write_fmt(hcpe_write, &t.g, &no_opts, &out, &rows);
	tgame_release(&t);
	strbuf_release(&text);
	strbuf_release(&out);
}

static void
test_variant(void **state)
{
	struct tgame t;

	(void)state;
	memset(&t, 0, sizeof(t));
	record_init(&t.r, variant_minishogi());
	diag_list_init(&t.d);
	replay_record(&t.r, &t.rp, &t.d);
	adjudicate(&t.r, &t.rp, ruleset_default(), &t.adj);
	t.g.r = &t.r;
	t.g.rp = &t.rp;
	t.g.adj = &t.adj;
	expect_skip(&t.g, TRAIN_SKIP_VARIANT, "minishogi");
	tgame_release(&t);
}

/* ---- evaluations: which comment is whose ---- */

static void
test_eval_placement(void **state)
{
	/*
	 * Before the first move and after the terminal: no row's. Inline
	 * and separate '** lines after a move: that move's position.
	 */
	static const char csa[] =
	    "PI\n+\n"
	    "'** 900 before the first move\n"
	    "+7776FU\n'** 50 -3334FU\n"
	    "-3334FU,'** -70 +2726FU\n"
	    "+2726FU\nT3\n'** 0\n"
	    "-8384FU\n'** -100000\n"
	    "+2625FU\n"
	    "%TORYO\n'** 123 after the terminal\n";
	static const char want[] =
	    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
	    "\t7g7f\t50\t0\n"
	    "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
	    "\t3c3d\t70\t0\n"
	    "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b "
	    "- 3\t2g2f\t0\t0\n"
	    "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL "
	    "w - 4\t8c8d\t32767\t0\n"
	    "lnsgkgsnl/1r5b1/p1pppp1pp/1p4p2/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL "
	    "b - 5\t2f2e\t-\t0\n";
	struct strbuf out = STRBUF_INIT;
	struct train_opts o = no_opts;
	struct tgame t;
	size_t rows;

	(void)state;
	tgame_load_text(&t, "x.csa", csa, "jsa", -1);
	write_fmt(sfen_rows_write, &t.g, &no_opts, &out, &rows);
	/* White resigned after Black's fifth move: Black won */
	assert_int_equal(rows, 5);
	strbuf_reset(&out);
	tgame_release(&t);
	/* the same without the result, to see the evals alone */
	{
		struct strbuf text = STRBUF_INIT;

		strbuf_add(&text, csa, sizeof(csa) - 1);
		text.len = (size_t)(strstr(text.buf, "%TORYO") - text.buf);
		text.buf[text.len] = '\0';
		strbuf_adds(&text, "%CHUDAN\n'** 123 after the terminal\n");
		tgame_load_text(&t, "x.csa", text.buf, "jsa", -1);
		strbuf_release(&text);
	}
	write_fmt(sfen_rows_write, &t.g, &no_opts, &out, &rows);
	assert_string_equal(out.buf, want);
	/* --require-eval: both sides have one */
	o.require_eval = 1;
	write_fmt(sfen_rows_write, &t.g, &o, &out, &rows);
	tgame_release(&t);
	/* White's only evaluation is before the first move: none counts */
	tgame_load_text(&t, "x.csa", "PI\n+\n'** 5\n+7776FU\n'** 50\n-3334FU\n"
	    "%TORYO\n'** 7\n", "jsa", -1);
	assert_int_equal(sfen_rows_write(&t.g, &o, &out, &rows),
	    TRAIN_SKIP_NO_EVAL);
	tgame_release(&t);
	strbuf_release(&out);
}

/* KIF's forms land in the same place: the move before them. */
static void
test_eval_kif(void **state)
{
	static const char kif[] =
	    "手合割：平手\n"
	    "手数----指手---------消費時間--\n"
	    "*対局 評価値 999 before the first move\n"
	    "   1 ７六歩(77)\n"
	    "**評価値=-40\n"
	    "   2 ３四歩(33)\n"
	    "**解析 0 候補1 評価値 500 読み筋 ▲２六歩(27)\n"
	    "   3 ２六歩(27)\n"
	    "**対局 時間 00:01.0 深さ 3/6 ノード数 100 評価値 +詰 5 読み筋 "
	    "△８四歩(83)\n"
	    "   4 ８四歩(83)\n"
	    "*#評価値=300\n"
	    "** 25 ▲２五歩(26)\n"
	    "   5 ２五歩(26)\n"
	    "**詰み=後手勝ち:7手\n"
	    "   6 中断\n";
	static const char *const want[] = { "-40", "-", "32767", "-25",
	    "-32767" };
	struct strbuf out = STRBUF_INIT;
	struct tgame t;
	const char *p;
	size_t rows, i;

	(void)state;
	tgame_load_text(&t, "x.kifu", kif, "jsa", -1);
	write_fmt(sfen_rows_write, &t.g, &no_opts, &out, &rows);
	assert_int_equal(rows, 5);
	for (i = 0, p = out.buf; i < 5; i++) {
		const char *eval = strchr(strchr(p, '\t') + 1, '\t') + 1;

		if (strncmp(eval, want[i], strlen(want[i])) != 0 ||
		    eval[strlen(want[i])] != '\t')
			fail_msg("row %zu: eval '%.8s', expected %s", i, eval,
			    want[i]);
		p = strchr(p, '\n') + 1;
	}
	tgame_release(&t);
	strbuf_release(&out);
}

int
main(int argc, char **argv)
{
	static struct CMUnitTest tests[NGOLDEN + 16];
	static char names[NGOLDEN][96];
	size_t i, n = 0;

	for (i = 0; i < NGOLDEN; i++, n++) {
		snprintf(names[i], sizeof(names[i]), "golden: %s",
		    goldens[i].record);
		tests[n].name = names[i];
		tests[n].test_func = test_golden;
		tests[n].initial_state = (void *)&goldens[i];
	}
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_skip_plies);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_stop_at_eval);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_hcp_ply);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_require_eval);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_skips);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_variant);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_eval_placement);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_eval_kif);
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return _cmocka_run_group_tests("writers/train", tests, n, NULL, NULL);
}
