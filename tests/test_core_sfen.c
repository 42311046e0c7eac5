/*
 * SFEN text in and out (sfen.h) and USI move text (usi.h).
 *
 * Round trips use canonical strings, so reading and writing back must
 * give the very same bytes. Every error names the byte it is about: the
 * tables give that byte as a marker, a piece of the text that starts
 * there, rather than as a bare number that nobody could check by eye.
 */
#include <stdio.h>

#include "helpers.h"
#include "core/handicap.h"
#include "core/movegen.h"
#include "core/zobrist.h"

#define START "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL"
/* Bare kings: room for hands without breaking the piece counts. */
#define KINGS "4k4/9/9/9/9/9/9/9/4K4"

struct trip_case {
	const char *name;
	const char *variant;
	const char *sfen;
};

static const struct trip_case trip_cases[] = {
	{ "start position", "standard", START " b - 1" },
	/* rules.md 1.10: the handicap giver plays White and moves first. */
	{ "lance handicap", "standard",
	    "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1" },
	{ "right lance handicap", "standard",
	    "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1" },
	{ "bishop handicap", "standard",
	    "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1" },
	{ "rook handicap", "standard",
	    "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1" },
	{ "rook and lance handicap", "standard",
	    "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1" },
	{ "two-piece handicap", "standard",
	    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1" },
	{ "four-piece handicap", "standard",
	    "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1" },
	{ "six-piece handicap", "standard",
	    "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1" },
	{ "eight-piece handicap", "standard",
	    "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1" },
	{ "ten-piece handicap", "standard",
	    "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1" },
	{ "matsuri", "standard",
	    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w "
	    "RGgsn5p 1" },
	{ "middle game, Black to move", "standard",
	    "l7l/3s5/prnp2kp1/2p1Gppnp/1P7/PnPP1P3/3BP2PP/1S1G5/LN1K1G1+rL b "
	    "BGSs3p 91" },
	{ "middle game, White to move", "standard",
	    "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/"
	    "LN2+p3L w Sbgn3p 124" },
	{ "every promoted type", "standard",
	    "+R+N+SGKG+S+N+R/+B+N+SG+LG+S+N+B/P+LPP+LPP+LP/1P2P2P1/9/9/9/9/"
	    "4k4 b 9P 200" },
	{ "two-digit hand count for each side", "standard",
	    KINGS " b 8P10p 1" },
	{ "all eighteen pawns in one hand", "standard", KINGS " w 18p 1" },
	{ "every piece in Black's hand", "standard",
	    KINGS " b 2R2B4G4S4N4L18P 1" },
	{ "both hands mixed", "standard",
	    KINGS " w R2B3GS2NL9Prg3s2n3l9p 123" },
	{ "most legal moves", "standard",
	    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1" },
	{ "move number 1000", "standard", START " w - 1000" },
	{ "eight-digit move number", "standard", START " b - 99999999" },
	{ "no kings at all", "standard", "9/9/9/9/9/9/9/9/9 b - 1" },
	{ "tsume: only the defending king", "standard",
	    "7lk/9/8S/9/9/9/9/7L1/9 b GP 1" },
	{ "minishogi start", "minishogi", "rbsgk/4p/5/P4/KGSBR b - 1" },
	{ "minishogi with hands and a tokin", "minishogi",
	    "rb1gk/5/3+P1/G4/K1SBR w Sp 12" },
};

#define N_TRIP_CASES (sizeof(trip_cases) / sizeof(trip_cases[0]))

static void
test_trip_case(void **state)
{
	const struct trip_case *tc = *state;
	const struct variant *v = variant_by_name(tc->variant);
	struct position pos;
	struct sfen_error e;
	char buf[SFEN_MAX], board[SFEN_MAX];
	enum sfen_status st;

	assert_non_null(v);
	st = sfen_read(&pos, v, tc->sfen, &e);
	if (st != SFEN_OK)
		fail_msg("%s: %s at %zu", tc->sfen, e.message, e.offset);
	assert_ptr_equal(pos.v, v);
	assert_true(position_is_ok(&pos));
	sfen_write(&pos, buf);
	assert_string_equal(buf, tc->sfen);
	/* The board field alone is the text up to the first blank. */
	sfen_write_board(&pos, board);
	assert_int_equal(strlen(board), strcspn(tc->sfen, " "));
	assert_memory_equal(board, tc->sfen, strlen(board));
}

/* Facts the round trip alone would not show. */
static void
test_read_fields(void **state)
{
	struct position pos;

	(void)state;
	load_sfen(&pos, KINGS " w R2B3GS2NL9Prg3s2n3l9p 123");
	assert_int_equal(pos.side, WHITE);
	assert_int_equal(pos.move_number, 123);
	assert_int_equal(pos.king[BLACK], sq_make(4, 8));
	assert_int_equal(pos.king[WHITE], sq_make(4, 0));
	assert_int_equal(pos.hand[BLACK][PT_ROOK], 1);
	assert_int_equal(pos.hand[BLACK][PT_BISHOP], 2);
	assert_int_equal(pos.hand[BLACK][PT_GOLD], 3);
	assert_int_equal(pos.hand[BLACK][PT_SILVER], 1);
	assert_int_equal(pos.hand[BLACK][PT_KNIGHT], 2);
	assert_int_equal(pos.hand[BLACK][PT_LANCE], 1);
	assert_int_equal(pos.hand[BLACK][PT_PAWN], 9);
	assert_int_equal(pos.hand[WHITE][PT_ROOK], 1);
	assert_int_equal(pos.hand[WHITE][PT_BISHOP], 0);
	assert_int_equal(pos.hand[WHITE][PT_GOLD], 1);
	assert_int_equal(pos.hand[WHITE][PT_SILVER], 3);
	assert_int_equal(pos.hand[WHITE][PT_KNIGHT], 2);
	assert_int_equal(pos.hand[WHITE][PT_LANCE], 3);
	assert_int_equal(pos.hand[WHITE][PT_PAWN], 9);
	/* Ranks a..i top to bottom, files 9..1 left to right. */
	load_sfen(&pos, "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/"
	    "1KSG3+r1/LN2+p3L w Sbgn3p 124");
	assert_int_equal(pos.board[sq_make(0, 0)], piece_make(WHITE, PT_LANCE));
	assert_int_equal(pos.board[sq_make(6, 1)],
	    piece_make(BLACK, PT_DRAGON));
	assert_int_equal(pos.board[sq_make(8, 3)], piece_make(WHITE, PT_KING));
	assert_int_equal(pos.board[sq_make(1, 7)],
	    piece_make(WHITE, PT_DRAGON));
	assert_int_equal(pos.board[sq_make(4, 8)],
	    piece_make(WHITE, PT_PRO_PAWN));
	assert_int_equal(pos.board[sq_make(8, 8)], piece_make(BLACK, PT_LANCE));
	assert_int_equal(pos.board[sq_make(0, 8)], piece_make(BLACK, PT_LANCE));
	assert_int_equal(pos.king[BLACK], sq_make(7, 7));
	/* Without kings both king squares are SQ_NONE. */
	load_sfen(&pos, "9/9/9/9/9/9/9/9/9 b - 1");
	assert_int_equal(pos.king[BLACK], SQ_NONE);
	assert_int_equal(pos.king[WHITE], SQ_NONE);
}

struct canon_case {
	const char *name;
	const char *variant;
	const char *in;
	const char *out;
};

/* Accepted spellings that are not canonical, and what they become. */
static const struct canon_case canon_cases[] = {
	{ "leading sfen keyword", "standard", "sfen " START " b - 1",
	    START " b - 1" },
	{ "missing move number", "standard", START " b -", START " b - 1" },
	{ "missing move number after hands", "standard", KINGS " w 2Pp",
	    KINGS " w 2Pp 1" },
	{ "keyword and no move number", "standard", "sfen " START " w -",
	    START " w - 1" },
	{ "blanks around and between", "standard",
	    "  " START "  b  -  7 \n", START " b - 7" },
	{ "hands out of order", "standard", KINGS " b p2PgRB 1",
	    KINGS " b RB2Pgp 1" },
	{ "White's hand before Black's", "standard", KINGS " w 3pGR2n 5",
	    KINGS " w RG2n3p 5" },
	/* As published in a perft table (rules.md section 4). */
	{ "hands in the perft table's order", "standard",
	    "l7l/3s5/prnp2kp1/2p1Gppnp/1P7/PnPP1P3/3BP2PP/1S1G5/LN1K1G1+rL b "
	    "SBG3ps 91",
	    "l7l/3s5/prnp2kp1/2p1Gppnp/1P7/PnPP1P3/3BP2PP/1S1G5/LN1K1G1+rL b "
	    "BGSs3p 91" },
	{ "minishogi keyword, no move number", "minishogi",
	    "sfen rbsgk/4p/5/P4/KGSBR w -", "rbsgk/4p/5/P4/KGSBR w - 1" },
};

#define N_CANON_CASES (sizeof(canon_cases) / sizeof(canon_cases[0]))

static void
test_canon_case(void **state)
{
	const struct canon_case *cc = *state;
	struct position pos;
	struct sfen_error e;
	char buf[SFEN_MAX];

	if (sfen_read(&pos, variant_by_name(cc->variant), cc->in, &e) !=
	    SFEN_OK)
		fail_msg("'%s': %s at %zu", cc->in, e.message, e.offset);
	assert_true(position_is_ok(&pos));
	sfen_write(&pos, buf);
	assert_string_equal(buf, cc->out);
}

struct error_case {
	const char *name;
	const char *variant;
	const char *sfen;
	enum sfen_status status;
	const char *id;
	/*
	 * For SFEN_SYNTAX, where the error offset must point: the first place
	 * in sfen where this text begins; "" means the end of the text.
	 */
	const char *at;
};

#define SYNTAX(name, sfen, at) \
	{ name, "standard", sfen, SFEN_SYNTAX, "sfen-syntax", at }
#define IMPOSSIBLE(name, sfen, id) \
	{ name, "standard", sfen, SFEN_IMPOSSIBLE, id, NULL }

static const struct error_case error_cases[] = {
	/* Board field. */
	SYNTAX("bad piece letter",
	    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGXGSNL b - 1",
	    "XGSNL"),
	SYNTAX("digit zero on the board",
	    "lnsgkgsnl/1r5b1/ppppppppp/0/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
	    "0/"),
	SYNTAX("too many squares: a digit runs past file 1",
	    "lnsgkgsnl/1r5b2/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
	    "2/"),
	SYNTAX("too many squares: a tenth piece",
	    "lnsgkgsnlp/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
	    "p/"),
	SYNTAX("too many squares: a tenth promoted piece",
	    "lnsgkgsnl/1r5b1/ppppppppp/9+P/9/9/PPPPPPPP1/1B5R1/LNSGKGSNL b - 1",
	    "+P"),
	SYNTAX("too few squares in a rank",
	    "lnsgkgsn/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
	    "/1r5b1"),
	SYNTAX("too few squares in the last rank",
	    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1",
	    " b - 1"),
	SYNTAX("too many ranks",
	    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL/9 b - 1",
	    "/9 b"),
	SYNTAX("too few ranks",
	    "lnsgkgsnl/1r5b1/ppppppppp/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
	    " b - 1"),
	SYNTAX("promoted gold",
	    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNS+GKGSNL b - 1",
	    "+G"),
	SYNTAX("promoted king",
	    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSG+KGSNL b - 1",
	    "+K"),
	SYNTAX("promoted white gold",
	    "lnsgk+gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
	    "+g"),
	SYNTAX("empty text", "", ""),
	SYNTAX("blanks only", "   ", ""),
	/* Side to move. */
	SYNTAX("bad side letter", START " x - 1", "x - 1"),
	SYNTAX("upper-case side", START " B - 1", "B - 1"),
	SYNTAX("side glued to more letters", START " bw - 1", "bw"),
	SYNTAX("side missing", START, ""),
	SYNTAX("side missing after a blank", START " ", ""),
	/* Hands. */
	SYNTAX("hands missing", START " b", ""),
	SYNTAX("hands missing after a blank", START " w ", ""),
	SYNTAX("hand count zero", KINGS " b 0P 1", "0P"),
	SYNTAX("hand count of three digits", KINGS " b 100p 1", "100p"),
	SYNTAX("hand count without a piece", KINGS " b 2 1", " 1"),
	SYNTAX("king in hand", KINGS " b K 1", "K 1"),
	SYNTAX("white king in hand", KINGS " b Pk 1", "k 1"),
	SYNTAX("bad hand letter", KINGS " b X 1", "X 1"),
	SYNTAX("promoted piece in hand", KINGS " b +P 1", "+P"),
	SYNTAX("duplicate hand letter", KINGS " b P2P 1", "P 1"),
	SYNTAX("duplicate white hand letter", KINGS " b p3Sp 1", "p 1"),
	SYNTAX("text glued to the dash", KINGS " b -P 1", "P 1"),
	/* Move number. */
	SYNTAX("move number zero", KINGS " b - 0", "0"),
	SYNTAX("move number with letters", KINGS " b - 12a", "12a"),
	SYNTAX("negative move number", KINGS " b - -3", "-3"),
	/* After the SFEN. */
	SYNTAX("trailing moves", START " b - 1 moves 7g7f", "moves"),
	SYNTAX("trailing junk", KINGS " b - 1 x", "x"),
	SYNTAX("trailing junk without move number", KINGS " w - x", "x"),

	/* Well formed, but no game can reach it. */
	IMPOSSIBLE("two black kings", "4k4/9/9/9/9/9/9/9/3KK4 b - 1",
	    "two-kings"),
	IMPOSSIBLE("two white kings", "3kk4/9/9/9/9/9/9/9/4K4 b - 1",
	    "two-kings"),
	IMPOSSIBLE("black pawn on rank a", "P3k4/9/9/9/9/9/9/9/4K4 b - 1",
	    "dead-piece-on-board"),
	IMPOSSIBLE("black lance on rank a", "L3k4/9/9/9/9/9/9/9/4K4 b - 1",
	    "dead-piece-on-board"),
	IMPOSSIBLE("black knight on rank a", "N3k4/9/9/9/9/9/9/9/4K4 b - 1",
	    "dead-piece-on-board"),
	IMPOSSIBLE("black knight on rank b", "4k4/N8/9/9/9/9/9/9/4K4 b - 1",
	    "dead-piece-on-board"),
	IMPOSSIBLE("white pawn on rank i", "4k4/9/9/9/9/9/9/9/p3K4 b - 1",
	    "dead-piece-on-board"),
	IMPOSSIBLE("white lance on rank i", "4k4/9/9/9/9/9/9/9/l3K4 b - 1",
	    "dead-piece-on-board"),
	IMPOSSIBLE("white knight on rank h", "4k4/9/9/9/9/9/9/n8/4K4 b - 1",
	    "dead-piece-on-board"),
	IMPOSSIBLE("white knight on rank i", "4k4/9/9/9/9/9/9/9/n3K4 b - 1",
	    "dead-piece-on-board"),
	IMPOSSIBLE("two black pawns on file 5",
	    "4k4/9/9/9/4P4/9/4P4/9/4K4 b - 1", "nifu-on-board"),
	IMPOSSIBLE("two white pawns on file 1",
	    "4k4/8p/9/9/8p/9/9/9/4K4 b - 1", "nifu-on-board"),
	IMPOSSIBLE("nineteen pawns: start position and a pawn in hand",
	    START " b P 1", "too-many-pieces"),
	IMPOSSIBLE("nineteen pawns: nineteen in hand", KINGS " b 19p 1",
	    "too-many-pieces"),
	IMPOSSIBLE("three rooks counting the hand", START " w r 1",
	    "too-many-pieces"),
	IMPOSSIBLE("three rooks counting a dragon and both hands",
	    "4k4/9/9/9/9/9/9/9/+R3K4 b Rr 1", "too-many-pieces"),
	IMPOSSIBLE("five golds", START " b G 1", "too-many-pieces"),
	IMPOSSIBLE("five lances counting promoted ones",
	    "+L+L+L1k4/9/9/9/9/9/9/9/4K4 b 2L 1", "too-many-pieces"),
	IMPOSSIBLE("white in check with Black to move",
	    "4k4/4G4/4P4/9/9/9/9/9/4K4 b - 1", "side-not-to-move-in-check"),
	IMPOSSIBLE("black in check with White to move",
	    "4k4/9/9/9/9/9/9/4g4/4K4 w - 1", "side-not-to-move-in-check"),
	IMPOSSIBLE("check by a slider from afar",
	    "4k4/9/9/9/9/9/9/9/4K3r w - 1", "side-not-to-move-in-check"),
	/* rules.md 1.5: a pinned piece still gives check. */
	IMPOSSIBLE("check by a pinned gold",
	    "4k4/K3G3r/9/9/9/9/9/9/9 b - 1", "side-not-to-move-in-check"),

	/* Minishogi: its own set and its one-rank zone. */
	{ "minishogi rank too long", "minishogi", "rbsgk1/4p/5/P4/KGSBR b - 1",
	    SFEN_SYNTAX, "sfen-syntax", "1/4p" },
	{ "minishogi sixth rank", "minishogi",
	    "rbsgk/4p/5/P4/KGSBR/5 b - 1", SFEN_SYNTAX, "sfen-syntax",
	    "/5 b" },
	{ "minishogi has no knights", "minishogi",
	    "rbsgk/4p/5/P3N/KGSBR b - 1", SFEN_IMPOSSIBLE, "too-many-pieces",
	    NULL },
	{ "minishogi third pawn", "minishogi", "rbsgk/4p/5/P4/KGSBR b P 1",
	    SFEN_IMPOSSIBLE, "too-many-pieces", NULL },
	{ "minishogi pawn on the last rank", "minishogi",
	    "Pbsgk/4p/5/5/KGSBR w r 1", SFEN_IMPOSSIBLE,
	    "dead-piece-on-board", NULL },
};

#define N_ERROR_CASES (sizeof(error_cases) / sizeof(error_cases[0]))

static void
test_error_case(void **state)
{
	const struct error_case *ec = *state;
	struct position pos;
	struct sfen_error e;
	enum sfen_status st;

	memset(&e, 0, sizeof(e));
	st = sfen_read(&pos, variant_by_name(ec->variant), ec->sfen, &e);
	if (st != ec->status)
		fail_msg("'%s': status %d, expected %d (%s)", ec->sfen, (int)st,
		    (int)ec->status, st ? e.message : "read fine");
	assert_int_equal(e.status, ec->status);
	assert_non_null(e.id);
	assert_string_equal(e.id, ec->id);
	assert_true(e.message[0] != '\0');
	if (ec->at) {
		const char *at = *ec->at ? strstr(ec->sfen, ec->at) :
		    ec->sfen + strlen(ec->sfen);

		assert_non_null(at);
		if (e.offset != (size_t)(at - ec->sfen))
			fail_msg("'%s': offset %zu, expected %zu (%s)", ec->sfen,
			    e.offset, (size_t)(at - ec->sfen), e.message);
	}
	/* err is optional. */
	assert_int_equal(sfen_read(&pos, variant_by_name(ec->variant),
	    ec->sfen, NULL), ec->status);
}

/* Texts that are fine although they look close to the errors above. */
static void
test_not_errors(void **state)
{
	static const char *const ok[] = {
		/* Promoted pieces may stand anywhere. */
		"+P+L+N1k4/9/9/9/9/9/9/9/4K4 b - 1",
		"4k4/9/9/9/9/9/9/+n8/+p+l2K4 b - 1",
		/* Each side's own back ranks hold no trap for it. */
		"p3k4/n8/9/9/9/9/9/N8/P3K4 b - 1",
		/* Lance on the second-last rank, knight on the third. */
		"4k4/L8/N8/9/9/9/n8/l8/4K4 b - 1",
		/* Pawn and tokin, Black and White pawn on one file. */
		"4k4/8+P/8P/9/9/8p/9/9/4K4 b - 1",
		/* The side to move may be in check. */
		"4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1",
		/* Exactly the set: eighteen pawns, four golds. */
		START " b - 1",
		KINGS " b 9P9p 1",
		KINGS " w 2G2g 1",
		/* One king only, and none. */
		"4k4/9/9/9/9/9/9/9/9 b 2R 1",
		"9/9/9/9/9/9/9/9/4K4 w 2r 1",
		"9/9/9/9/9/9/9/9/9 w - 1",
		/* The same letter for both colours is not a duplicate. */
		KINGS " b Pp 1",
	};
	struct position pos;
	struct sfen_error e;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (sfen_read(&pos, variant_standard(), ok[i], &e) != SFEN_OK)
			fail_msg("'%s': %s (%s at %zu)", ok[i], e.id, e.message,
			    e.offset);
}

/* sfen_read_prefix stops after the SFEN so that "moves ..." can follow. */
static void
test_read_prefix(void **state)
{
	static const struct {
		const char *text;
		const char *rest;	/* what must be left unconsumed */
	} cases[] = {
		{ START " b - 1 moves 7g7f 3c3d", " moves 7g7f 3c3d" },
		{ START " b - moves 7g7f", " moves 7g7f" },
		{ "sfen " START " w - 12 moves", " moves" },
		{ KINGS " b 2P 3", "" },
		{ KINGS " b 2P", "" },
	};
	struct position pos;
	struct sfen_error e;
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *t = cases[i].text;

		n = 0;
		if (sfen_read_prefix(&pos, variant_standard(), t, &n, &e) !=
		    SFEN_OK)
			fail_msg("'%s': %s", t, e.message);
		assert_string_equal(t + n, cases[i].rest);
	}
	load_sfen(&pos, START " w - 12");
	assert_int_equal(pos.move_number, 12);
	/* The prefix reader still rejects what is not SFEN. */
	assert_int_equal(sfen_read_prefix(&pos, variant_standard(),
	    START " x - 1", &n, &e), SFEN_SYNTAX);
	assert_int_equal(e.offset, strlen(START) + 1);
}

static void
test_piece_letters(void **state)
{
	static const char letters[] = "PLNSBRGK";
	int i;

	(void)state;
	for (i = 0; letters[i]; i++) {
		enum piece_type pt = (enum piece_type)(PT_PAWN + i);

		assert_int_equal(sfen_piece_letter(pt), letters[i]);
		assert_int_equal(sfen_letter_type(letters[i]), pt);
		assert_int_equal(sfen_letter_type((char)(letters[i] | 0x20)),
		    pt);
	}
	assert_int_equal(sfen_piece_letter(PT_NONE), 0);
	assert_int_equal(sfen_piece_letter(PT_DRAGON), 0);
	assert_int_equal(sfen_letter_type('x'), PT_NONE);
	assert_int_equal(sfen_letter_type('+'), PT_NONE);
	assert_int_equal(sfen_letter_type('1'), PT_NONE);
}

/* USI moves: the claim fields, and text -> claim -> move -> text. */
static void
test_usi_round_trips(void **state)
{
	static const char *const texts[] = {
		"7g7f", "8h2b+", "P*5e", "1a9i", "9i1a+", "L*1b", "G*9i",
		"R*1a", "B*9a", "N*5c", "S*5i",
	};
	const struct variant *v = variant_standard();
	struct move_claim c;
	char buf[USI_MOVE_MAX];
	size_t i;

	(void)state;
	assert_int_equal(usi_parse_move(v, "7g7f", 4, &c), 0);
	assert_false(c.drop);
	assert_int_equal(c.from, sq_make(6, 6));
	assert_int_equal(c.to, sq_make(6, 5));
	assert_int_equal(c.piece, PT_NONE);
	assert_false(c.promote);
	assert_int_equal(usi_parse_move(v, "8h2b+", 5, &c), 0);
	assert_false(c.drop);
	assert_int_equal(c.from, sq_make(7, 7));
	assert_int_equal(c.to, sq_make(1, 1));
	assert_true(c.promote);
	assert_int_equal(usi_parse_move(v, "P*5e", 4, &c), 0);
	assert_true(c.drop);
	assert_int_equal(c.piece, PT_PAWN);
	assert_int_equal(c.to, sq_make(4, 4));
	assert_false(c.promote);
	/* Only len bytes are read: a record line can be parsed in place. */
	assert_int_equal(usi_parse_move(v, "7g7f 3c3d", 4, &c), 0);
	assert_int_equal(c.to, sq_make(6, 5));

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		move m;

		if (usi_parse_move(v, texts[i], strlen(texts[i]), &c))
			fail_msg("'%s' does not parse", texts[i]);
		m = c.drop ? move_make_drop(c.piece, c.to, WHITE) :
		    move_make(c.from, c.to, piece_make(BLACK, PT_ROOK),
			c.promote);
		usi_format_move(m, buf);
		assert_string_equal(buf, texts[i]);
	}
	/* A legal move from the core formats the same way. */
	{
		struct position pos;
		move m;

		load_sfen(&pos, "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/"
		    "PP1PPPPPP/1B5R1/LNSGKGSNL b - 3");
		assert_int_equal(usi_parse_move(v, "8h2b+", 5, &c), 0);
		assert_int_equal(rules_check_move(&pos, &c, &m), RULE_OK);
		usi_format_move(m, buf);
		assert_string_equal(buf, "8h2b+");
	}
	usi_format_square(sq_make(0, 0), buf);
	assert_string_equal(buf, "1a");
	usi_format_square(sq_make(8, 8), buf);
	assert_string_equal(buf, "9i");
	usi_format_square(sq_make(6, 5), buf);
	assert_string_equal(buf, "7f");
}

static void
test_usi_rejects(void **state)
{
	static const char *const bad[] = {
		"7g7", "P*5j", "K*5e", "p*5e", "0a1b", "7g7f=", "", "7g7f++",
		"7j7f", "7g7j", "7G7F", "P*5e+", "+P*5e", "X*5e", "P*0e", "P5e",
		"7g 7f", "7g7f7e", "k*5e", "P*55",
	};
	const struct variant *v = variant_standard();
	struct move_claim c;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (usi_parse_move(v, bad[i], strlen(bad[i]), &c) != -1)
			fail_msg("'%s' was accepted", bad[i]);
}

/* On the 5x5 board squares beyond file 5 and rank e do not exist. */
static void
test_usi_minishogi(void **state)
{
	const struct variant *v = variant_minishogi();
	struct move_claim c;

	(void)state;
	assert_int_equal(usi_parse_move(v, "5e5d", 4, &c), 0);
	assert_int_equal(c.from, sq_make(4, 4));
	assert_int_equal(c.to, sq_make(4, 3));
	assert_int_equal(usi_parse_move(v, "1a1b+", 5, &c), 0);
	assert_int_equal(usi_parse_move(v, "P*3c", 4, &c), 0);
	assert_int_equal(usi_parse_move(v, "6e5d", 4, &c), -1);
	assert_int_equal(usi_parse_move(v, "1f1e", 4, &c), -1);
	assert_int_equal(usi_parse_move(v, "P*6a", 4, &c), -1);
	assert_int_equal(usi_parse_move(v, "P*1f", 4, &c), -1);
}

/* The board's shape names the game, whatever follows it. */
static void
test_board_variant(void **state)
{
	static const char mini[] = "rbsgk/4p/5/P4/KGSBR b - 1";
	static const char *const std =
	    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";

	(void)state;
	assert_ptr_equal(sfen_board_variant(mini, strlen(mini)),
	    variant_minishogi());
	assert_ptr_equal(sfen_board_variant(std, strlen(std)),
	    variant_standard());
	/* the keyword and blanks before the board, as sfen_read takes them */
	assert_ptr_equal(sfen_board_variant(" sfen \t4k/2S2/3G1/5/K4 b P", 26),
	    variant_minishogi());
	/* only the board counts: slashes after it do not */
	assert_ptr_equal(sfen_board_variant("4k/5/5/K4 b - 1 / /", 19), NULL);
	assert_ptr_equal(sfen_board_variant("", 0), NULL);
	assert_ptr_equal(sfen_board_variant("sfen", 4), NULL);
	/* n bounds the look: four ranks are no board */
	assert_ptr_equal(sfen_board_variant(mini, 13), NULL);
	assert_ptr_equal(sfen_board_variant(mini, 15), variant_minishogi());
}

/*
 * Every standard start can occur, with either side to move: the CSA
 * reader relies on it to skip position_validate() for the starts
 * handicap_identify() knows.
 */
static void
test_standard_starts_valid(void **state)
{
	int h, side;

	(void)state;
	for (h = HANDICAP_NONE + 1; h < HANDICAP_NB; h++) {
		struct position pos;
		struct sfen_error e;

		handicap_position((enum handicap)h, &pos);
		assert_int_equal(handicap_identify(&pos), h);
		for (side = 0; side < COLOR_NB; side++) {
			if (pos.side != (enum color)side) {
				pos.side = (enum color)side;
				pos.board_key ^= zobrist_side;
			}
			if (position_validate(&pos, &e) != SFEN_OK)
				fail_msg("%s with %s to move: %s",
				    handicap_name((enum handicap)h),
				    side == BLACK ? "black" : "white",
				    e.message);
		}
	}
}

/* lishogi's minishogi handicaps, and nothing else, are odds starts. */
static void
test_minishogi_odds(void **state)
{
	static const char *const odds[] = {
		"r1sgk/4p/5/P4/KGSBR w - 1", "1bsgk/4p/5/P4/KGSBR w - 1",
		"2sgk/4p/5/P4/KGSBR w - 1", "3gk/4p/5/P4/KGSBR w - 1",
		"4k/4p/5/P4/KGSBR w - 1",
	};
	static const char *const not_odds[] = {
		"rbsgk/4p/5/P4/KGSBR b - 1", "rbsgk/4p/5/P4/KGSBR w - 1",
		"2sgk/4p/5/P4/KGSBR b - 1", "2sgk/4p/5/P4/KGSBR w Rb 1",
		"r1sgk/4p/5/P4/KGS1R w - 1",
	};
	struct position pos;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(odds) / sizeof(odds[0]); i++) {
		assert_int_equal(sfen_read(&pos, variant_minishogi(), odds[i],
		    NULL), SFEN_OK);
		if (!handicap_minishogi_odds(&pos))
			fail_msg("'%s' is a lishogi handicap", odds[i]);
		assert_int_equal(handicap_identify(&pos), HANDICAP_NONE);
	}
	for (i = 0; i < sizeof(not_odds) / sizeof(not_odds[0]); i++) {
		assert_int_equal(sfen_read(&pos, variant_minishogi(),
		    not_odds[i], NULL), SFEN_OK);
		if (handicap_minishogi_odds(&pos))
			fail_msg("'%s' is no lishogi handicap", not_odds[i]);
	}
	handicap_position(HANDICAP_BISHOP, &pos);
	assert_false(handicap_minishogi_odds(&pos));
}

/*
 * The key cache against the plain writer over random games, both
 * variants: every position of a walk, captures, drops and promotions
 * among them, and a cache taken from one game into another.
 */
static void
test_key_cache(void **state)
{
	const struct variant *vs[2] = { variant_standard(),
	    variant_minishogi() };
	struct sfen_key_cache c;
	uint64_t seed = 12345;
	int g, ply, k;

	(void)state;
	sfen_key_cache_init(&c);
	for (g = 0; g < 200; g++) {
		struct position pos;

		position_set_start(&pos, vs[g % 2]);
		for (ply = 0; ply < 150; ply++) {
			char plain[SFEN_MAX], cached[SFEN_MAX], full[SFEN_MAX];
			struct move_list ml;
			struct undo u;
			size_t n = sfen_write_key(&pos, plain);

			assert_int_equal(sfen_write_key_cached(&c, &pos,
			    cached), n);
			assert_string_equal(cached, plain);
			sfen_write(&pos, full);
			assert_memory_equal(full, plain, n);
			assert_int_equal(full[n], ' ');
			if (movegen_legal(&pos, &ml) == 0)
				break;
			seed = seed * 6364136223846793005ULL +
			    1442695040888963407ULL;
			k = (int)((seed >> 33) % (uint64_t)ml.n);
			position_do_move(&pos, ml.m[k], &u);
		}
	}
}

/* The longest SFEN there is fits SFEN_MAX (a 170-byte board once wrote
   past a 160-byte buffer). */
static void
test_longest(void **state)
{
	struct position pos;
	char buf[SFEN_MAX], key[SFEN_MAX];
	struct sfen_key_cache c;
	square sq;
	int pt;

	(void)state;
	position_clear(&pos, variant_standard());
	for (sq = 0; sq < SQ_NB; sq++)
		position_put(&pos, sq, piece_make(sq % 2 ? WHITE : BLACK,
		    PT_DRAGON));
	for (pt = PT_PAWN; pt <= PT_GOLD; pt++) {
		position_hand_set(&pos, BLACK, (enum piece_type)pt, 255);
		position_hand_set(&pos, WHITE, (enum piece_type)pt, 255);
	}
	pos.side = WHITE;
	pos.move_number = -2147483647 - 1;
	sfen_write(&pos, buf);
	assert_true(strlen(buf) < SFEN_MAX);
	assert_int_equal(strlen(buf), 170 + 3 + 56 + 12);
	sfen_key_cache_init(&c);
	assert_int_equal(sfen_write_key_cached(&c, &pos, key), 170 + 3 + 56);
	assert_memory_equal(key, buf, 170 + 3 + 56);
}

#define N_FIXED 12
#define N_TESTS (N_FIXED + N_TRIP_CASES + N_CANON_CASES + N_ERROR_CASES)

int
main(int argc, char **argv)
{
	static struct CMUnitTest tests[N_TESTS];
	static char names[N_TESTS][128];
	size_t i, n = 0;

	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_read_fields);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_not_errors);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_read_prefix);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(
	    test_standard_starts_valid);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_piece_letters);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_usi_round_trips);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_usi_rejects);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_usi_minishogi);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_minishogi_odds);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_board_variant);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_key_cache);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_longest);
	for (i = 0; i < N_TRIP_CASES; i++, n++) {
		snprintf(names[n], sizeof(names[n]), "round trip: %s",
		    trip_cases[i].name);
		tests[n].name = names[n];
		tests[n].test_func = test_trip_case;
		tests[n].initial_state = (void *)&trip_cases[i];
	}
	for (i = 0; i < N_CANON_CASES; i++, n++) {
		snprintf(names[n], sizeof(names[n]), "canonical: %s",
		    canon_cases[i].name);
		tests[n].name = names[n];
		tests[n].test_func = test_canon_case;
		tests[n].initial_state = (void *)&canon_cases[i];
	}
	for (i = 0; i < N_ERROR_CASES; i++, n++) {
		snprintf(names[n], sizeof(names[n]), "%s: %s",
		    error_cases[i].id, error_cases[i].name);
		tests[n].name = names[n];
		tests[n].test_func = test_error_case;
		tests[n].initial_state = (void *)&error_cases[i];
	}
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return _cmocka_run_group_tests("core/sfen", tests, n, NULL, NULL);
}
