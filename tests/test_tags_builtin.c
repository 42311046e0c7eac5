/*
 * kifu's own definitions (tags/builtin.c), one by one: for every name a
 * short game that reaches it and one that almost does (a move short, a
 * piece on the square beside, the condition that rules it out). Games
 * given as Black's moves alone are played by both sides, White's moves
 * the mirror image of Black's (the board turned round), so that one
 * game checks that the definition names White as it names Black.
 */
#include <stdio.h>

#include "tags_games.h"

struct side_case {
	const char *name;
	/* 1: the moves are Black's, White plays the mirror, both named;
	 * 0: the whole game, Black named; 2: the whole game, both named */
	int mirror;
	const char *reach;	/* moves (after "startpos moves ") */
	const char *almost;
};

static const struct side_case cases[] = {
	/* styles and marks (marks through what needs them) */
	{ "振り飛車", 1, "6g6f 2h6h", "6g6f 2h4h" },
	{ "居飛車", 1, "6g6f 2h4h", "6g6f 2h6h" },
	/* the rook pawns exchanged before the swing: a static rook still */
	{ "居飛車", 0, "2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d P*2c 2d2f 1c1d "
	    "2f7f", "2g2f 8c8d 2f2e 8d8e 2h5h 1c1d 5h7h" },
	/* static-rook openings */
	{ "相掛かり", 1, "2g2f 2f2e", "7g7f 2g2f 2f2e" },
	{ "横歩取り", 0, "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d "
	    "2c2d 2h2d 8e8f 8g8f 8b8f 2d3d",
	    "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d 8e8f "
	    "8g8f 8b8f 2d2f" },
	{ "ひねり飛車", 0, "2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d P*2c 2d2f "
	    "1c1d 2f7f", "2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d P*2c 2d2f 1c1d "
	    "2f3f" },
	{ "角換わり", 2, "7g7f 3c3d 8h2b+ 3a2b", "7g7f 3c3d 2g2f 8c8d 2f2e "
	    "8d8e 2e2d 2c2d 2h2d 8e8f 8g8f 8b8f 8h2b+ 3a2b" },
	{ "矢倉", 1, "7g7f 7i6h 6h7g 6i7h", "7g7f 7i6h 6h7g 4i5h" },
	{ "雁木", 1, "6g6f 5g5f 7i6h 6h6g 3i4h 4h5g",
	    "6g6f 5g5f 7i6h 6h6g 3i4h" },
	{ "右四間飛車", 1, "4g4f 2h4h", "4g4f 2h3h" },
	{ "袖飛車", 1, "2h3h", "2h4h" },
	{ "棒銀", 1, "2g2f 3i3h 2f2e 3h2g 2g2f", "2g2f 3i3h 2f2e 3h2g" },
	{ "早繰り銀", 1, "3g3f 3i4h 4h3g 3g4f", "3g3f 3i4h 4h3g" },
	{ "腰掛け銀", 1, "4g4f 3i4h 4h4g 4g5f", "4g4f 3i4h 4h4g" },
	/* ranging-rook openings */
	{ "中飛車", 1, "5g5f 2h5h", "4g4f 2h4h" },
	{ "四間飛車", 1, "6g6f 2h6h", "6g6f 2h7h" },
	{ "三間飛車", 1, "6g6f 2h7h", "6g6f 2h6h" },
	/* the first file names it: 6八 then 7八 is 四間飛車 */
	{ "四間飛車", 1, "6g6f 2h6h 6h7h", "6g6f 2h7h 7h6h" },
	{ "向かい飛車", 1, "7g7f 8h7g 2h8h", "7g7f 8h7g 2h7h" },
	{ "ゴキゲン中飛車", 1, "7g7f 5g5f 2h5h", "7g7f 6g6f 5g5f 2h5h" },
	{ "早石田", 1, "7g7f 7f7e 2h7h", "6g6f 7g7f 7f7e 2h7h" },
	{ "石田流", 1, "7g7f 7f7e 2h7h 7h7f", "7g7f 7f7e 2h7h" },
	{ "角交換振り飛車", 0, "7g7f 3c3d 8h2b+ 3a2b 2h6h",
	    "7g7f 3c3d 6g6f 4c4d 2h6h" },
	/* castles */
	/* 居玉 is the king unmoved through ply 30; a shorter game is none */
	{ "居玉", 1, "1g1f 9g9f 7g7f 6g6f 2g2f 3g3f 4g4f 8g8f 5g5f 2h3h 3h4h "
	    "4h5h 5h6h 6h7h 1i1h 9i9h", "1g1f 9g9f 7g7f 6g6f 2g2f 3g3f 4g4f "
	    "8g8f 5g5f 2h3h 3h4h 4h5h 5h6h 6h7h 5i4h 9i9h" },
	{ "居玉", 1, "1g1f 9g9f 7g7f 6g6f 2g2f 3g3f 4g4f 8g8f 5g5f 2h3h 3h4h "
	    "4h5h 5h6h 6h7h 1i1h 9i9h", "1g1f 9g9f 7g7f 6g6f 2g2f 3g3f 4g4f "
	    "8g8f 5g5f 2h3h 3h4h 4h5h 5h6h 6h7h" },
	{ "中住まい", 1, "6i7h 5i5h", "6i7h 5i4h" },
	{ "カニ囲い", 1, "6i7h 4i5h 7i6h 5i6i", "6i7h 7i6h 5i6i" },
	{ "舟囲い", 1, "5i6h 6h7h 4i5h", "5i6h 6h7h" },
	{ "elmo囲い", 1, "7i6h 6i7i 5i6i 6i7h", "7i6h 6i7i 5i6i" },
	{ "金矢倉", 1, "7g7f 6g6f 7i6h 6h7g 6i7h 4i5h 5h6g 8h7i 7i6h 5i6i "
	    "6i7i 7i8h", "7g7f 6g6f 7i6h 6h7g 6i7h 4i5h 5h6g 8h7i 7i6h "
	    "5i6i 6i7i" },
	{ "銀矢倉", 1, "7g7f 6g6f 7i6h 6h7g 6i7h 5g5f 3i4h 4h5g 5g6h 6h6g "
	    "8h7i 7i6h 5i6i 6i7i 7i8h", "7g7f 6g6f 7i6h 6h7g 6i7h 5g5f "
	    "3i4h 4h5g 5g6h 6h6g 8h7i 7i6h 5i6i 6i7i" },
	{ "総矢倉", 1, "7g7f 6g6f 7i6h 6h7g 6i7h 4i5h 5h6g 8h7i 7i6h 5g5f "
	    "3i4h 4h5g 5i6i 6i7i 7i8h", "7g7f 6g6f 7i6h 6h7g 6i7h 4i5h 5h6g "
	    "8h7i 7i6h 5g5f 3i4h 5i6i 6i7i 7i8h" },
	{ "菱矢倉", 1, "7g7f 6g6f 7i6h 6h7g 6i7h 4i5h 5h6g 8h7i 7i6h 5g5f "
	    "3i4h 4h5g 6f6e 5g6f 5i6i 6i7i 7i8h", "7g7f 6g6f 7i6h 6h7g 6i7h "
	    "4i5h 5h6g 8h7i 7i6h 5g5f 3i4h 4h5g 6f6e 5i6i 6i7i 7i8h" },
	{ "菊水矢倉", 1, "7g7f 9g9f 8h9g 8i7g 6i7h 7i8h 5i6i 6i7i 7i8i",
	    "7g7f 9g9f 8h9g 8i7g 6i7h 7i8h 5i6i 6i7i" },
	{ "雁木囲い", 1, "6g6f 5g5f 7i6h 6h6g 3i4h 4h5g 6i7h 4i5h",
	    "6g6f 5g5f 7i6h 6h6g 3i4h 4h5g 6i7h" },
	{ "居飛車穴熊", 1, "7g7f 8h7g 9i9h 5i6h 6h7h 7h8h 8h9i 7i8h",
	    "7g7f 8h7g 9i9h 5i6h 6h7h 7h8h 8h9i" },
	{ "左美濃", 1, "7g7f 8h7g 5i6h 6h7h 7h8h 7i7h",
	    "7g7f 8h7g 5i6h 6h7h 7h8h" },
	{ "片美濃囲い", 1, "6g6f 2h6h 5i4h 4h3h 3h2h 3i3h",
	    "6g6f 2h6h 5i4h 4h3h 3h2h" },
	{ "美濃囲い", 1, "6g6f 2h6h 5i4h 4h3h 3h2h 3i3h 6i5h",
	    "6g6f 2h6h 5i4h 4h3h 3h2h 3i3h" },
	{ "高美濃囲い", 1, "6g6f 2h6h 5i4h 4h3h 3h2h 3i3h 6i5h 4g4f 5h4g",
	    "6g6f 2h6h 5i4h 4h3h 3h2h 3i3h 6i5h 4g4f" },
	{ "銀冠", 1, "6g6f 2h6h 5i4h 4h3h 3h2h 3i3h 6i5h 4g4f 5h4g 2g2f "
	    "3h2g 4i3h", "6g6f 2h6h 5i4h 4h3h 3h2h 3i3h 6i5h 4g4f 5h4g 2g2f "
	    "3h2g" },
	{ "木村美濃", 1, "6g6f 2h6h 4g4f 3i4h 4h4g 5i4h 4h3h 3h2h 4i3h",
	    "6g6f 2h6h 4g4f 3i4h 4h4g 5i4h 4h3h 3h2h" },
	{ "振り飛車穴熊", 1, "6g6f 2h6h 5i4h 4h3h 3h2h 1i1h 2h1i 3i2h",
	    "6g6f 2h6h 5i4h 4h3h 3h2h 1i1h 2h1i" },
	{ "金無双", 1, "7g7f 8h7g 2h8h 5i4h 4h3h 3i2h 6i5h 4i4h",
	    "7g7f 8h7g 2h8h 5i4h 4h3h 3i2h 6i5h" },
	{ NULL, 0, NULL, NULL }
};

/* "7g7f" turned round: the same move of White's, "3c3d". */
static void
mirror_move(const char *m, size_t n, struct strbuf *out)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char c = m[i];

		if (c >= '1' && c <= '9')
			c = (char)('9' - c + '1');
		else if (c >= 'a' && c <= 'i')
			c = (char)('i' - c + 'a');
		strbuf_addc(out, c);
	}
}

/* "startpos moves ..." of a case's moves (both sides' with mirror). */
static void
game_text(const char *moves, int mirror, struct strbuf *out)
{
	const char *p = moves;

	strbuf_adds(out, "startpos moves");
	while (*p) {
		size_t n = strcspn(p, " ");

		strbuf_addc(out, ' ');
		strbuf_add(out, p, n);
		if (mirror) {
			strbuf_addc(out, ' ');
			mirror_move(p, n, out);
		}
		p += n;
		while (*p == ' ')
			p++;
	}
}

static void
check_case(struct tagger *tg, const struct tagdefs *d,
    const struct side_case *c, const char *moves, int want)
{
	struct strbuf text = STRBUF_INIT, line = STRBUF_INIT;
	const struct tag_result *res;
	struct record r;
	int side;

	game_text(moves, c->mirror == 1, &text);
	res = tag_usi(tg, &r, text.buf);
	tags_text(d, res, &line);
	for (side = 0; side < (c->mirror ? 2 : 1); side++) {
		if (!want && c->mirror == 2 && side == WHITE)
			break;
		int ply = tag_ply(d, res, side, c->name);

		if ((ply >= 0) != want)
			fail_msg("%s: %s %s (%s)\n  %s", c->name,
			    side ? "white" : "black", want ? "not named" :
			    "named though it should not be", text.buf,
			    line.buf);
	}
	strbuf_release(&text);
	strbuf_release(&line);
	record_release(&r);
}

static void
test_every_side_name(void **state)
{
	const struct tagdefs *d = tagdefs_default();
	struct tagger *tg = tagger_new(d);
	size_t i, k;

	(void)state;
	for (i = 0; cases[i].name; i++) {
		check_case(tg, d, &cases[i], cases[i].reach, 1);
		if (cases[i].almost)
			check_case(tg, d, &cases[i], cases[i].almost, 0);
	}
	/* Every opening, castle and style of the set has its case. */
	for (k = 0; k < d->n; k++) {
		const struct tag_def *t = &d->v[k];
		const char *name = tagdefs_label(d, t->name);

		if (t->kind == TAG_MARK || t->kind == TAG_GAME)
			continue;
		for (i = 0; cases[i].name; i++)
			if (!strcmp(cases[i].name, name))
				break;
		if (!cases[i].name)
			fail_msg("no test game for %s %s", tag_kind_name(t->kind),
			    name);
	}
	tagger_free(tg);
}

/* 角換わり's almost: the rook pawns exchanged before the bishops. */
static void
test_bishop_exchange_after_rook_pawns(void **state)
{
	const struct tagdefs *d = tagdefs_default();
	struct tagger *tg = tagger_new(d);
	struct record r;
	const struct tag_result *res;

	(void)state;
	res = tag_usi(tg, &r, "startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e 8d8e "
	    "2e2d 2c2d 2h2d 8e8f 8g8f 8b8f 8h2b+ 3a2b");
	assert_int_equal(tag_ply(d, res, BLACK, "角換わり"), -1);
	assert_int_equal(tag_ply(d, res, WHITE, "角換わり"), -1);
	record_release(&r);
	tagger_free(tg);
}

/* The plies at which names are first reached, and what replaces what. */
static void
test_plies_and_replacing(void **state)
{
	const struct tagdefs *d = tagdefs_default();
	struct tagger *tg = tagger_new(d);
	struct record r;
	const struct tag_result *res;

	(void)state;
	/* Black's moves are plies 1, 3, 5 ...: the 7th is ply 13. */
	res = tag_usi(tg, &r, "startpos moves 6g6f 4c4d 2h6h 8b4b 5i4h 5a6b "
	    "4h3h 6b7b 3h2h 7b8b 3i3h 7a7b 6i5h 4a5b");
	assert_int_equal(tag_ply(d, res, BLACK, "四間飛車"), 3);
	assert_int_equal(tag_ply(d, res, BLACK, "振り飛車"), 3);
	assert_int_equal(tag_ply(d, res, BLACK, "美濃囲い"), 13);
	/* 片美濃囲い was reached at 11, and 美濃囲い replaces it. */
	assert_int_equal(tag_ply(d, res, BLACK, "片美濃囲い"), -1);
	assert_int_equal(tag_ply(d, res, WHITE, "美濃囲い"), 14);
	assert_int_equal(res->matchup, MATCHUP_RANGING);
	assert_string_equal(tag_game(d, res), "相振飛車");
	record_release(&r);
	tagger_free(tg);
}

struct game_case {
	const char *game;	/* the game-level name wanted */
	const char *moves;	/* the whole game */
	const char *not;	/* an almost: a game that is not it */
	const char *not_game;	/* ... and what it is */
};

static const struct game_case games[] = {
	{ "ひねり飛車", "2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d P*2c 2d2f 1c1d "
	    "2f7f", "2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d P*2c 2d2f 1c1d 2f3f",
	    "相掛かり" },
	{ "横歩取り", "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d "
	    "2h2d 8e8f 8g8f 8b8f 2d3d", "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h "
	    "4a3b 2e2d 2c2d 2h2d 8e8f 8g8f 8b8f 2d2f", "" },
	{ "相振飛車", "6g6f 4c4d 2h6h 8b4b", "6g6f 4c4d 2h6h 9c9d",
	    "四間飛車" },
	{ "四間飛車", "6g6f 3c3d 2h6h", "6g6f 3c3d 2h7h", "三間飛車" },
	{ "三間飛車", "6g6f 3c3d 2h7h 4a3b 7h6h", "6g6f 3c3d 2h5h",
	    "中飛車" },
	{ "中飛車", "5g5f 3c3d 2h5h", "7g7f 3c3d 8h7g 4a3b 2h8h", "向飛車" },
	{ "向飛車", "7g7f 3c3d 8h7g 4a3b 2h8h", "7g7f 3c3d 2h4h", "" },
	{ "角換わり", "7g7f 3c3d 8h2b+ 3a2b", "7g7f 3c3d 2g2f 8c8d 2f2e "
	    "8d8e 2e2d 2c2d 2h2d 8e8f 8g8f 8b8f 8h2b+ 3a2b", "" },
	{ "相掛かり", "2g2f 8c8d 2f2e 8d8e", "7g7f 3c3d 2g2f 8c8d 2f2e "
	    "8d8e", "" },
	{ "相矢倉", "7g7f 3c3d 7i6h 3a4b 6h7g 4b3c 6i7h 4a3b",
	    "7g7f 3c3d 7i6h 3a4b 6h7g 4b3c 6i7h 4a4b", "矢倉" },
	{ "矢倉", "7g7f 3c3d 7i6h 1c1d 6h7g 9c9d 6i7h",
	    "7g7f 3c3d 7i6h 1c1d 6h7g 9c9d", "" },
	{ "雁木", "6g6f 1c1d 5g5f 9c9d 7i6h 1d1e 6h6g 9d9e 3i4h 3c3d 4h5g",
	    "6g6f 1c1d 5g5f 9c9d 7i6h 1d1e 6h6g 9d9e 3i4h 3c3d", "" },
	{ "袖飛車", "2h3h 3c3d", "2h4h 3c3d", "" },
	/* at least 20 plies that nothing names; 19 are no game yet */
	{ "力戦", "1g1f 9c9d 9g9f 1c1d 1i1g 9a9c 9i9g 1a1c 6i6h 4a4b 6h6i "
	    "4b4a 6i6h 4a4b 6h6i 4b4a 6i6h 4a4b 6h6i 4b4a", "1g1f 9c9d 9g9f "
	    "1c1d 1i1g 9a9c 9i9g 1a1c 6i6h 4a4b 6h6i 4b4a 6i6h 4a4b 6h6i 4b4a "
	    "6i6h 4a4b 6h6i", "" },
	{ NULL, NULL, NULL, NULL }
};

static void
check_game(struct tagger *tg, const struct tagdefs *d, const char *moves,
    const char *want)
{
	struct strbuf text = STRBUF_INIT, line = STRBUF_INIT;
	const struct tag_result *res;
	struct record r;

	strbuf_adds(&text, "startpos moves ");
	strbuf_adds(&text, moves);
	res = tag_usi(tg, &r, text.buf);
	tags_text(d, res, &line);
	if (strcmp(tag_game(d, res), want))
		fail_msg("%s: the game is '%s', not '%s'\n  %s", moves,
		    tag_game(d, res), want, line.buf);
	strbuf_release(&text);
	strbuf_release(&line);
	record_release(&r);
}

static void
test_every_game_name(void **state)
{
	const struct tagdefs *d = tagdefs_default();
	struct tagger *tg = tagger_new(d);
	size_t i, k;

	(void)state;
	for (i = 0; games[i].game; i++) {
		check_game(tg, d, games[i].moves, games[i].game);
		if (games[i].not)
			check_game(tg, d, games[i].not, games[i].not_game);
	}
	for (k = 0; k < d->n; k++) {
		const char *name = tagdefs_label(d, d->v[k].name);

		if (d->v[k].kind != TAG_GAME)
			continue;
		for (i = 0; games[i].game; i++)
			if (!strcmp(games[i].game, name))
				break;
		if (!games[i].game)
			fail_msg("no test game for game %s", name);
	}
	tagger_free(tg);
}

/*
 * Handicap games: the lower player (Black) is named as in an even game;
 * the upper player only by definitions made of pieces it has, so a
 * 飛車落ち upper player has no style, no rook's opening, no matchup; and
 * no handicap game gets a game-level name.
 */
static void
test_handicap(void **state)
{
	const struct tagdefs *d = tagdefs_default();
	struct tagger *tg = tagger_new(d);
	struct record r;
	const struct tag_result *res;

	(void)state;
	/* 飛車落ち: White (上手) moves first, and has no rook. */
	res = tag_usi(tg, &r, "sfen lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/"
	    "1B5R1/LNSGKGSNL w - 1 moves 5a4b 6g6f 4b3b 2h6h 6a5b 5i4h");
	assert_true(res->named);
	assert_true(res->handicap);
	assert_int_equal(res->game, -1);
	assert_int_equal(res->side[WHITE].style, -1);
	assert_int_equal(res->matchup, MATCHUP_NONE);
	assert_int_equal(tag_ply(d, res, BLACK, "四間飛車"), 4);
	assert_int_equal(tag_ply(d, res, BLACK, "振り飛車"), 4);
	record_release(&r);
	/* 角落ち: the upper player has its rook, so a style and a matchup. */
	res = tag_usi(tg, &r, "sfen lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/"
	    "1B5R1/LNSGKGSNL w - 1 moves 3c3d 6g6f 8b3b 2h6h");
	assert_int_equal(tag_ply(d, res, WHITE, "三間飛車"), 3);
	assert_int_equal(res->matchup, MATCHUP_RANGING);
	assert_int_equal(res->game, -1);
	record_release(&r);
	tagger_free(tg);
}

/* No names for a game from another position, nor in minishogi. */
static void
test_not_named(void **state)
{
	const struct tagdefs *d = tagdefs_default();
	struct tagger *tg = tagger_new(d);
	struct record r;
	const struct tag_result *res;

	(void)state;
	res = tag_usi(tg, &r, "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/"
	    "PP1PPPPPP/1B5R1/LNSGKGSNL w - 2 moves 3c3d 6g6f 8b4b");
	assert_false(res->named);
	assert_int_equal(res->side[BLACK].nopenings, 0);
	record_release(&r);
	load_usi_variant(&r, variant_minishogi(), "startpos moves 1e1d", 0);
	res = tagger_record(tg, &r, NULL);
	assert_false(res->named);
	assert_string_equal(res->why, "minishogi");
	record_release(&r);
	tagger_free(tg);
}

/* The tagger asks replay to stop once nothing can change. */
static void
test_stops_early(void **state)
{
	const struct tagdefs *d = tagdefs_default();
	struct tagger *tg = tagger_new(d);
	struct strbuf text = STRBUF_INIT;
	struct record r;
	const struct tag_result *res;
	int i;

	(void)state;
	strbuf_adds(&text, "startpos moves");
	for (i = 0; i < 120; i++)
		strbuf_adds(&text, i % 4 == 0 ? " 5i5h" : i % 4 == 1 ?
		    " 5a5b" : i % 4 == 2 ? " 5h5i" : " 5b5a");
	res = tag_usi(tg, &r, text.buf);
	assert_true(res->plies <= d->max_ply);
	assert_true(d->max_ply < 100);
	record_release(&r);
	strbuf_release(&text);
	tagger_free(tg);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_side_name),
		cmocka_unit_test(test_bishop_exchange_after_rook_pawns),
		cmocka_unit_test(test_plies_and_replacing),
		cmocka_unit_test(test_every_game_name),
		cmocka_unit_test(test_handicap),
		cmocka_unit_test(test_not_named),
		cmocka_unit_test(test_stops_early),
	};

	core_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
