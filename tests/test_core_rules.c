/*
 * The rules of rules.md 1.1-1.5, one rule id at a time, each on a
 * position written from the rules text rather than from the code.
 *
 * Every table case is run twice, as two tests: as written, and on the
 * board turned through 180 degrees with the colours swapped (mirror_sfen,
 * mirror_usi; the second test's name ends in "[mirrored]"), so each rule
 * is exercised for Black and for White without writing every position
 * twice. assert_rule also makes the move generator agree with the judge,
 * so a case covers movegen_legal as well. When the tables were written,
 * the legal/illegal verdict of every case, both ways round, was also
 * checked against shogiops 0.18, an independent implementation.
 *
 * Positions are listed piece by piece above their SFEN: "K5i" is a Black
 * king on 5i, "p2b" a White pawn on 2b, "+P7e" a Black tokin.
 */
#include <stdio.h>

#include "helpers.h"

/* Room for any SFEN these tests write, mirrored or not. */
#define SFEN_BUF 256

/* The start position. */
#define P_START \
	"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
/* K5i k5a P5f L1i p1e N7i G7h S6h S3f G4h B8h P7g R2h P2g: one piece
 * of each kind with room to move; G7h and S6h stand in the knight's way
 * (it jumps them), P7g blocks the bishop, P2g and G4h the rook. */
#define P_MOVEMENT \
	"4k4/9/9/9/8p/4P1S2/2P4P1/1BGS1G1R1/2N1K3L b - 1"
/* K5i k5a +B5e +R2e +P7e +S3g +N8g +L1g: the promoted pieces on an
 * open board. */
#define P_PROMOTED \
	"4k4/9/9/9/2+P1+B2+R1/9/1+N4+S1+L/9/4K4 b - 1"
/* K5i k5a P7g p3c, Black holds G and P, White holds N. */
#define P_DROPS \
	"4k4/9/6p2/9/9/9/2P6/9/4K4 b GPn 1"
/* K5i k9a P3b L7c N8d N1e S6b, Black holds P, L and N. */
#define P_DEAD \
	"k8/3S2P2/2L6/1N7/8N/9/9/9/4K4 b PLN 1"
/* K5i k9i G4d +P9c S3f P8d S2c R6b S4b B2h: pieces in, entering,
 * leaving and outside Black's zone (ranks a-c). */
#define P_PROMOTE \
	"9/3R1S3/+P6S1/1P3G3/9/6S2/9/7B1/k3K4 b - 1"
/* K5i k5a P7g +P3d p4c, Black holds P: file 7 has a Black pawn, file
 * 3 only a tokin, file 4 only a White pawn. */
#define P_NIFU \
	"4k4/9/5p3/6+P2/9/9/2P6/9/4K4 b P 1"
/* K5e k5a P3g r1e, Black holds P: the rook on 1e checks along rank
 * e; 3e would block it but file 3 already has a Black pawn. */
#define P_NIFU_CHECK \
	"4k4/9/9/9/4K3r/9/6P2/9/9 b P 1"
/* K5i k1a n2a p2b, Black holds P. After P*1b the king's own pieces
 * fill 2a and 2b, but nothing protects the pawn: the king takes it. */
#define P_UCHI_KING_TAKES \
	"7nk/7p1/9/9/9/9/9/9/4K4 b P 1"
/* K5i k1a n2a p2b N2d, Black holds P and L. N2d protects 1b, 2a and
 * 2b are the king's own pieces and neither of them reaches 1b. */
#define P_UCHI_PROTECTED \
	"7nk/7p1/9/7N1/9/9/9/9/4K4 b PL 1"
/* K5i k1a n2a p2b B4e, Black holds P: the bishop protects 1b from
 * afar (rules.md 1.4: sliders protect from a distance). */
#define P_UCHI_BISHOP_PROTECTS \
	"7nk/7p1/9/9/5B3/9/9/9/4K4 b P 1"
/* As above with a Black pawn on 2c cutting the bishop's diagonal. */
#define P_UCHI_BISHOP_BLOCKED \
	"7nk/7p1/7P1/9/5B3/9/9/9/4K4 b P 1"
/* K5i k1a n2a R5b, Black holds P: along rank b the rook covers 2b and,
 * once the pawn stands on 1b, protects it. */
#define P_UCHI_ROOK_PROTECTS \
	"7nk/4R4/9/9/9/9/9/9/4K4 b P 1"
/* K5i k1a g2a p2b N2d R5a, Black holds P. The gold could take on 1b
 * but R5a pins it to the king along rank a. */
#define P_UCHI_PINNED_DEFENDER \
	"4R2gk/7p1/9/7N1/9/9/9/9/4K4 b P 1"
/* K5i k1a g2a p2b N2d, Black holds P: as above without the pinning
 * rook, so the gold may take the pawn. */
#define P_UCHI_FREE_DEFENDER \
	"7gk/7p1/9/7N1/9/9/9/9/4K4 b P 1"
/* K2i k1a l2a S2c, Black holds P. S2c protects 1b and covers 2b
 * although the lance pins it to its own king on 2i: a pinned piece still
 * attacks. */
#define P_UCHI_PINNED_PROTECTOR \
	"7lk/9/7S1/9/9/9/9/9/7K1 b P 1"
/* K5i k1a p2b N2d, Black holds P: 2a is free and unattacked. */
#define P_UCHI_ESCAPE \
	"8k/7p1/9/7N1/9/9/9/9/4K4 b P 1"
/* K5i k1a n2a P2b N2d, Black holds P: the king escapes by taking
 * the unprotected Black pawn on 2b. */
#define P_UCHI_ESCAPE_CAPTURE \
	"7nk/7P1/9/7N1/9/9/9/9/4K4 b P 1"
/* K5i k1a n2a p2b N2d P1c: the protected pawn arrives on 1b by a
 * move, not a drop. */
#define P_UCHI_PAWN_MOVE \
	"7nk/7p1/8P/7N1/9/9/9/9/4K4 b - 1"
/* K5i k1a g2a b2b l1b, Black holds N: N*2c mates, nothing of White's
 * reaches 2c. */
#define P_KNIGHT_DROP_MATE \
	"7gk/7bl/9/9/9/9/9/9/4K4 b N 1"
/* K5i k1a N3c N2d, Black holds P: the knights cover 2a and 1b without
 * checking; P*2c covers 2b and leaves White no move, but gives no check. */
#define P_PAWN_DROP_STALEMATE \
	"8k/9/6N2/7N1/9/9/9/9/4K4 b P 1"
/* K5i k9a G5g r5a: the gold is pinned along file 5. */
#define P_PIN_FILE \
	"k3r4/9/9/9/9/9/4G4/9/4K4 b - 1"
/* K5i k9a S6h b8f: the silver is pinned along the 8f-5i diagonal. */
#define P_PIN_DIAGONAL \
	"k8/9/9/9/9/1b7/9/3S5/4K4 b - 1"
/* K5i k9a g4g: the gold covers 5h, 4h, 3h, 5g, 3g and 4f. */
#define P_INTO_CHECK \
	"k8/9/9/9/9/9/5g3/9/4K4 b - 1"
/* K5e k5c. */
#define P_KINGS \
	"9/9/4k4/9/4K4/9/9/9/9 b - 1"
/* K5i k9a r5a P7g, Black holds G: Black is in check along file 5. */
#define P_IGNORING_CHECK \
	"k3r4/9/9/9/9/9/2P6/9/4K4 b G 1"
/* K5i k9a g5h p5g: the checking gold is protected by the pawn. */
#define P_PROTECTED_CHECKER \
	"k8/9/9/9/9/9/4p4/4g4/4K4 b - 1"
/* K5i k9a g5h: the checking gold is alone. */
#define P_UNPROTECTED_CHECKER \
	"k8/9/9/9/9/9/9/4g4/4K4 b - 1"
/* K5e k9a r5a: check along file 5. */
#define P_RETREAT_FILE \
	"k3r4/9/9/9/4K4/9/9/9/9 b - 1"
/* K5e k9a b1a: check along the 1a-9i diagonal. */
#define P_RETREAT_DIAGONAL \
	"k7b/9/9/9/4K4/9/9/9/9 b - 1"
/* K5i k1a r5a n4g G4h, Black holds G: the rook and the knight both
 * check; G4h could take the knight, G*5e would block the rook. */
#define P_DOUBLE_CHECK \
	"4r3k/9/9/9/9/9/5n3/5G3/4K4 b G 1"
/* K5i k9a G4h b1e p5h: the pawn checks, the gold that could take it
 * is pinned by the bishop. */
#define P_PINNED_CAPTURER \
	"k8/9/9/9/8b/9/9/4pG3/4K4 b - 1"
/* K5i k5a R5h S5c: the silver is all that stands between the rook and
 * the White king. */
#define P_DISCOVERED \
	"4k4/9/4S4/9/9/9/9/4R4/4K4 b - 1"
/* k5a G5b r1b K9b, White to move: the gold checks although the rook
 * pins it to its own king. */
#define P_PINNED_CHECKER \
	"4k4/K3G3r/9/9/9/9/9/9/9 w - 1"
/* k1a K9i p5h n3f n7e s8g r2c l1g, White to move, written for White
 * directly (White's zone is ranks g-i) so that the mirroring is not the
 * only White coverage. */
#define P_WHITE_PROMOTION \
	"8k/9/7r1/9/2n6/6n2/1s6l/4p4/K8 w - 1"

/*
 * Minishogi (rules.md 1.11): the 5x5 board, files 5..1 and ranks a..e,
 * the zone the last rank alone (a for Black, e for White).
 *
 * K1e k5a P2b S3b R1d, Black holds P: pawn, silver and rook next to or
 * on the last rank.
 */
#define M_LAST_RANK \
	"k4/2SP1/5/4R/4K b P 1"
/* K1e k5a P2c R1c: pieces on the third rank, outside the zone. */
#define M_OUTSIDE_ZONE \
	"k4/5/3PR/5/4K b - 1"
/* K1e k1a P4d, Black holds P (the set has two pawns). */
#define M_NIFU \
	"4k/5/5/1P3/4K b P 1"
/* K1e k1a +P2c, Black holds P: file 2 has only a tokin. */
#define M_NIFU_TOKIN \
	"4k/5/3+P1/5/4K b P 1"
/*
 * K5e k1a g2a R5a G2c, Black holds P. P*1b checks; the king's own gold
 * fills 2a, G2c covers 2b and protects the pawn, and the gold that could
 * take it is pinned by R5a along rank a: uchifuzume.
 */
#define M_UCHI_PINNED \
	"R2gk/5/3G1/5/K4 b P 1"
/* As above, the rook in hand: the gold is free to take the pawn. */
#define M_UCHI_FREE \
	"3gk/5/3G1/5/K4 b RP 1"
/*
 * K1e k5a G5c B2c, Black holds P. P*5b checks the king in the corner:
 * 4a is the bishop's, 4b and 5b the gold's, and the squares past file 5
 * are no squares: uchifuzume. A board of walls must not offer them.
 */
#define M_UCHI_CORNER \
	"k4/5/G2B1/5/4K b P 1"

struct rule_case {
	const char *name;
	const char *sfen;
	const char *usi;
	enum rule_id rule;
};

static const struct rule_case rule_cases[] = {
	{ "empty origin square", P_START, "5e5d", RULE_NO_PIECE },
	{ "empty square in the own camp", P_START, "5h5g", RULE_NO_PIECE },
	{ "moving an enemy pawn", P_START, "3c3d", RULE_NOT_OWN_PIECE },
	{ "moving the enemy king", P_START, "5a5b", RULE_NOT_OWN_PIECE },
	{ "king onto own gold", P_START, "5i4i", RULE_OWN_CAPTURE },
	{ "bishop onto own pawn", P_START, "8h7g", RULE_OWN_CAPTURE },
	{ "own-capture is reported before piece-movement", P_START, "5i5g", RULE_OWN_CAPTURE },
	{ "legal opening move", P_START, "7g7f", RULE_OK },
	{ "pawn two steps from the start", P_START, "7g7e", RULE_PIECE_MOVEMENT },
	{ "pawn one step", P_MOVEMENT, "5f5e", RULE_OK },
	{ "pawn two steps", P_MOVEMENT, "5f5d", RULE_PIECE_MOVEMENT },
	{ "pawn diagonal", P_MOVEMENT, "5f4e", RULE_PIECE_MOVEMENT },
	{ "pawn backwards", P_MOVEMENT, "5f5g", RULE_PIECE_MOVEMENT },
	{ "lance captures down an open file", P_MOVEMENT, "1i1e", RULE_OK },
	{ "lance short move", P_MOVEMENT, "1i1h", RULE_OK },
	{ "lance cannot pass a piece", P_MOVEMENT, "1i1d", RULE_PIECE_MOVEMENT },
	{ "lance sideways", P_MOVEMENT, "1i2i", RULE_PIECE_MOVEMENT },
	{ "knight jumps over pieces (left)", P_MOVEMENT, "7i6g", RULE_OK },
	{ "knight jumps over pieces (right)", P_MOVEMENT, "7i8g", RULE_OK },
	{ "knight sideways", P_MOVEMENT, "7i8i", RULE_PIECE_MOVEMENT },
	{ "knight three ranks", P_MOVEMENT, "7i6f", RULE_PIECE_MOVEMENT },
	{ "knight straight", P_MOVEMENT, "7i7e", RULE_PIECE_MOVEMENT },
	{ "silver forward", P_MOVEMENT, "3f3e", RULE_OK },
	{ "silver forward diagonal", P_MOVEMENT, "3f2e", RULE_OK },
	{ "silver backward diagonal", P_MOVEMENT, "3f4g", RULE_OK },
	{ "silver onto own pawn", P_MOVEMENT, "3f2g", RULE_OWN_CAPTURE },
	{ "silver straight back", P_MOVEMENT, "3f3g", RULE_PIECE_MOVEMENT },
	{ "silver sideways", P_MOVEMENT, "3f2f", RULE_PIECE_MOVEMENT },
	{ "gold forward", P_MOVEMENT, "4h4g", RULE_OK },
	{ "gold forward diagonal", P_MOVEMENT, "4h3g", RULE_OK },
	{ "gold sideways", P_MOVEMENT, "4h3h", RULE_OK },
	{ "gold straight back", P_MOVEMENT, "4h4i", RULE_OK },
	{ "gold backward diagonal", P_MOVEMENT, "4h3i", RULE_PIECE_MOVEMENT },
	{ "bishop blocked by own pawn", P_MOVEMENT, "8h6f", RULE_PIECE_MOVEMENT },
	{ "bishop diagonal step", P_MOVEMENT, "8h9g", RULE_OK },
	{ "bishop orthogonal", P_MOVEMENT, "8h8g", RULE_PIECE_MOVEMENT },
	{ "rook blocked by own pawn", P_MOVEMENT, "2h2c", RULE_PIECE_MOVEMENT },
	{ "rook blocked by own gold", P_MOVEMENT, "2h5h", RULE_PIECE_MOVEMENT },
	{ "rook sideways", P_MOVEMENT, "2h3h", RULE_OK },
	{ "rook diagonal", P_MOVEMENT, "2h3g", RULE_PIECE_MOVEMENT },
	{ "king two squares", P_MOVEMENT, "5i5g", RULE_PIECE_MOVEMENT },
	{ "king one square", P_MOVEMENT, "5i6i", RULE_OK },
	{ "horse orthogonal step", P_PROMOTED, "5e5d", RULE_OK },
	{ "horse orthogonal step sideways", P_PROMOTED, "5e4e", RULE_OK },
	{ "horse cannot slide orthogonally", P_PROMOTED, "5e5c", RULE_PIECE_MOVEMENT },
	{ "horse slides diagonally", P_PROMOTED, "5e2b", RULE_OK },
	{ "horse diagonal back", P_PROMOTED, "5e6f", RULE_OK },
	{ "dragon diagonal step", P_PROMOTED, "2e3d", RULE_OK },
	{ "dragon cannot slide diagonally", P_PROMOTED, "2e4c", RULE_PIECE_MOVEMENT },
	{ "dragon slides orthogonally", P_PROMOTED, "2e2a", RULE_OK },
	{ "tokin forward", P_PROMOTED, "7e7d", RULE_OK },
	{ "tokin forward diagonal", P_PROMOTED, "7e6d", RULE_OK },
	{ "tokin sideways", P_PROMOTED, "7e6e", RULE_OK },
	{ "tokin straight back", P_PROMOTED, "7e7f", RULE_OK },
	{ "tokin cannot move diagonally back", P_PROMOTED, "7e6f", RULE_PIECE_MOVEMENT },
	{ "tokin cannot move diagonally back (other side)", P_PROMOTED, "7e8f", RULE_PIECE_MOVEMENT },
	{ "promoted silver straight back", P_PROMOTED, "3g3h", RULE_OK },
	{ "promoted silver lost its backward diagonal", P_PROMOTED, "3g2h", RULE_PIECE_MOVEMENT },
	{ "promoted knight steps like gold", P_PROMOTED, "8g8f", RULE_OK },
	{ "promoted knight lost its jump", P_PROMOTED, "8g9e", RULE_PIECE_MOVEMENT },
	{ "promoted lance steps like gold", P_PROMOTED, "1g1f", RULE_OK },
	{ "promoted lance lost its slide", P_PROMOTED, "1g1e", RULE_PIECE_MOVEMENT },
	{ "drop on an enemy piece", P_DROPS, "G*3c", RULE_OCCUPIED },
	{ "drop on an own piece", P_DROPS, "G*7g", RULE_OCCUPIED },
	{ "pawn drop on an enemy pawn", P_DROPS, "P*3c", RULE_OCCUPIED },
	{ "drop on the enemy king", P_DROPS, "P*5a", RULE_OCCUPIED },
	{ "drop on an empty square", P_DROPS, "G*5e", RULE_OK },
	{ "silver not in hand", P_DROPS, "S*5e", RULE_NOT_IN_HAND },
	{ "opponent's knight is not ours", P_DROPS, "N*5e", RULE_NOT_IN_HAND },
	{ "pawn to the last rank unpromoted", P_DEAD, "3b3a", RULE_DEAD_PIECE },
	{ "pawn to the last rank promoting", P_DEAD, "3b3a+", RULE_OK },
	{ "lance to the last rank unpromoted", P_DEAD, "7c7a", RULE_DEAD_PIECE },
	{ "lance to the last rank promoting", P_DEAD, "7c7a+", RULE_OK },
	{ "lance may stay on the second-last rank", P_DEAD, "7c7b", RULE_OK },
	{ "knight to the second-last rank unpromoted", P_DEAD, "8d7b", RULE_DEAD_PIECE },
	{ "knight to the second-last rank promoting", P_DEAD, "8d7b+", RULE_OK },
	{ "knight may stay on the third-last rank", P_DEAD, "1e2c", RULE_OK },
	{ "knight may promote entering the zone", P_DEAD, "1e2c+", RULE_OK },
	{ "silver may stay unpromoted on the last rank", P_DEAD, "6b6a", RULE_OK },
	{ "pawn drop on the last rank", P_DEAD, "P*4a", RULE_DEAD_PIECE },
	{ "lance drop on the last rank", P_DEAD, "L*4a", RULE_DEAD_PIECE },
	{ "knight drop on the last rank", P_DEAD, "N*4a", RULE_DEAD_PIECE },
	{ "knight drop on the second-last rank", P_DEAD, "N*4b", RULE_DEAD_PIECE },
	{ "lance drop on the second-last rank", P_DEAD, "L*4b", RULE_OK },
	{ "knight drop on the third-last rank", P_DEAD, "N*4c", RULE_OK },
	{ "pawn drop on the second-last rank", P_DEAD, "P*4b", RULE_OK },
	{ "gold cannot promote", P_PROMOTE, "4d4c+", RULE_NOT_PROMOTABLE },
	{ "king cannot promote", P_PROMOTE, "5i5h+", RULE_NOT_PROMOTABLE },
	{ "tokin cannot promote again", P_PROMOTE, "9c9b+", RULE_NOT_PROMOTABLE },
	{ "no promotion entirely outside the zone", P_PROMOTE, "3f3e+", RULE_NOT_PROMOTABLE },
	{ "bishop outside the zone", P_PROMOTE, "2h3g+", RULE_NOT_PROMOTABLE },
	{ "pawn promotes entering the zone", P_PROMOTE, "8d8c+", RULE_OK },
	{ "pawn may decline entering the zone", P_PROMOTE, "8d8c", RULE_OK },
	{ "silver promotes inside the zone", P_PROMOTE, "2c2b+", RULE_OK },
	{ "silver promotes leaving the zone", P_PROMOTE, "2c3d+", RULE_OK },
	{ "silver may leave the zone unpromoted", P_PROMOTE, "2c3d", RULE_OK },
	{ "rook promotes leaving the zone", P_PROMOTE, "6b6h+", RULE_OK },
	{ "rook may stay unpromoted", P_PROMOTE, "6b6e", RULE_OK },
	{ "silver promotes on the last rank", P_PROMOTE, "4b4a+", RULE_OK },
	{ "silver stays unpromoted on the last rank", P_PROMOTE, "4b4a", RULE_OK },
	{ "bishop promotes entering the zone", P_PROMOTE, "2h7c+", RULE_OK },
	{ "bishop may decline entering the zone", P_PROMOTE, "2h7c", RULE_OK },
	{ "second pawn on a file", P_NIFU, "P*7e", RULE_NIFU },
	{ "tokin on the file does not count", P_NIFU, "P*3e", RULE_OK },
	{ "enemy pawn on the file does not count", P_NIFU, "P*4e", RULE_OK },
	{ "pawn on a free file", P_NIFU, "P*1e", RULE_OK },
	{ "nifu while interposing against a check", P_NIFU_CHECK, "P*3e", RULE_NIFU },
	{ "interposing pawn on a free file", P_NIFU_CHECK, "P*4e", RULE_OK },
	{ "pawn drop ignoring the check", P_NIFU_CHECK, "P*8e", RULE_SELF_CHECK },
	{ "king can take the unprotected pawn", P_UCHI_KING_TAKES, "P*1b", RULE_OK },
	{ "protected pawn and no escape", P_UCHI_PROTECTED, "P*1b", RULE_UCHIFUZUME },
	{ "lance drop on the same square mates legally", P_UCHI_PROTECTED, "L*1b", RULE_OK },
	{ "bishop protects the pawn from a distance", P_UCHI_BISHOP_PROTECTS, "P*1b", RULE_UCHIFUZUME },
	{ "bishop's protection blocked by an own pawn", P_UCHI_BISHOP_BLOCKED, "P*1b", RULE_OK },
	{ "rook protects the pawn and covers the escape", P_UCHI_ROOK_PROTECTS, "P*1b", RULE_UCHIFUZUME },
	{ "pinned defender that could take", P_UCHI_PINNED_DEFENDER, "P*1b", RULE_UCHIFUZUME },
	{ "unpinned defender takes the pawn", P_UCHI_FREE_DEFENDER, "P*1b", RULE_OK },
	{ "pinned protector still protects", P_UCHI_PINNED_PROTECTOR, "P*1b", RULE_UCHIFUZUME },
	{ "king escapes to a free square", P_UCHI_ESCAPE, "P*1b", RULE_OK },
	{ "king escapes by taking another piece", P_UCHI_ESCAPE_CAPTURE, "P*1b", RULE_OK },
	{ "pawn move that mates (tsuki-fu-zume)", P_UCHI_PAWN_MOVE, "1c1b", RULE_OK },
	{ "knight drop that mates", P_KNIGHT_DROP_MATE, "N*2c", RULE_OK },
	{ "pawn drop that stalemates without check", P_PAWN_DROP_STALEMATE, "P*2c", RULE_OK },
	{ "pinned gold leaves the file", P_PIN_FILE, "5g4g", RULE_SELF_CHECK },
	{ "pinned gold leaves the file diagonally", P_PIN_FILE, "5g4f", RULE_SELF_CHECK },
	{ "pinned gold moves along the file", P_PIN_FILE, "5g5f", RULE_OK },
	{ "pinned silver leaves the diagonal", P_PIN_DIAGONAL, "6h6g", RULE_SELF_CHECK },
	{ "pinned silver moves along the diagonal", P_PIN_DIAGONAL, "6h7g", RULE_OK },
	{ "king steps next to a gold", P_INTO_CHECK, "5i5h", RULE_SELF_CHECK },
	{ "king steps beside the gold", P_INTO_CHECK, "5i4h", RULE_SELF_CHECK },
	{ "king steps to a free square", P_INTO_CHECK, "5i4i", RULE_OK },
	{ "king next to the enemy king", P_KINGS, "5e5d", RULE_SELF_CHECK },
	{ "king diagonally next to the enemy king", P_KINGS, "5e4d", RULE_SELF_CHECK },
	{ "king away from the enemy king", P_KINGS, "5e5f", RULE_OK },
	{ "pawn move ignoring a rook check", P_IGNORING_CHECK, "7g7f", RULE_SELF_CHECK },
	{ "gold drop ignoring a rook check", P_IGNORING_CHECK, "G*1e", RULE_SELF_CHECK },
	{ "gold drop interposing", P_IGNORING_CHECK, "G*5e", RULE_OK },
	{ "king steps out of the file", P_IGNORING_CHECK, "5i4h", RULE_OK },
	{ "king takes a protected checker", P_PROTECTED_CHECKER, "5i5h", RULE_SELF_CHECK },
	{ "king takes an unprotected checker", P_UNPROTECTED_CHECKER, "5i5h", RULE_OK },
	{ "king retreats along the rook's file", P_RETREAT_FILE, "5e5f", RULE_SELF_CHECK },
	{ "king leaves the rook's file", P_RETREAT_FILE, "5e4e", RULE_OK },
	{ "king retreats along the bishop's diagonal", P_RETREAT_DIAGONAL, "5e6f", RULE_SELF_CHECK },
	{ "king leaves the bishop's diagonal", P_RETREAT_DIAGONAL, "5e4e", RULE_OK },
	{ "capturing one of two checkers", P_DOUBLE_CHECK, "4h4g", RULE_SELF_CHECK },
	{ "blocking one of two checkers", P_DOUBLE_CHECK, "G*5e", RULE_SELF_CHECK },
	{ "king answers a double check", P_DOUBLE_CHECK, "5i6h", RULE_OK },
	{ "pinned gold takes the checker", P_PINNED_CAPTURER, "4h5h", RULE_SELF_CHECK },
	{ "king takes the checker", P_PINNED_CAPTURER, "5i5h", RULE_OK },
	{ "discovered check is legal", P_DISCOVERED, "5c4d", RULE_OK },
	{ "rook move leaves the check by a pinned gold", P_PINNED_CHECKER, "1b1c", RULE_SELF_CHECK },
	{ "king steps where the pinned gold attacks", P_PINNED_CHECKER, "5a4a", RULE_SELF_CHECK },
	{ "king takes the pinned checker", P_PINNED_CHECKER, "5a5b", RULE_OK },
	{ "white pawn to the last rank unpromoted", P_WHITE_PROMOTION, "5h5i", RULE_DEAD_PIECE },
	{ "white pawn to the last rank promoting", P_WHITE_PROMOTION, "5h5i+", RULE_OK },
	{ "white knight to the second-last rank unpromoted", P_WHITE_PROMOTION, "3f2h", RULE_DEAD_PIECE },
	{ "white knight to the second-last rank promoting", P_WHITE_PROMOTION, "3f2h+", RULE_OK },
	{ "white knight to the third-last rank unpromoted", P_WHITE_PROMOTION, "7e6g", RULE_OK },
	{ "white knight promotes entering the zone", P_WHITE_PROMOTION, "7e6g+", RULE_OK },
	{ "white silver promotes leaving the zone", P_WHITE_PROMOTION, "8g7f+", RULE_OK },
	{ "white silver leaves the zone unpromoted", P_WHITE_PROMOTION, "8g7f", RULE_OK },
	{ "white silver promotes inside the zone", P_WHITE_PROMOTION, "8g8h+", RULE_OK },
	{ "white rook move entirely outside the zone", P_WHITE_PROMOTION, "2c2d+", RULE_NOT_PROMOTABLE },
	{ "white rook promotes entering the zone", P_WHITE_PROMOTION, "2c2g+", RULE_OK },
	{ "white lance to the second-last rank unpromoted", P_WHITE_PROMOTION, "1g1h", RULE_OK },
	{ "white lance to the last rank unpromoted", P_WHITE_PROMOTION, "1g1i", RULE_DEAD_PIECE },
	{ "white lance to the last rank promoting", P_WHITE_PROMOTION, "1g1i+", RULE_OK },
	{ "minishogi: pawn to the last rank unpromoted", M_LAST_RANK, "2b2a", RULE_DEAD_PIECE },
	{ "minishogi: pawn to the last rank promoting", M_LAST_RANK, "2b2a+", RULE_OK },
	{ "minishogi: silver may stay unpromoted on the last rank", M_LAST_RANK, "3b3a", RULE_OK },
	{ "minishogi: silver promotes on the last rank", M_LAST_RANK, "3b3a+", RULE_OK },
	{ "minishogi: silver from the second rank cannot promote", M_LAST_RANK, "3b2c+", RULE_NOT_PROMOTABLE },
	{ "minishogi: rook promotes entering the zone", M_LAST_RANK, "1d1a+", RULE_OK },
	{ "minishogi: the second rank is outside the zone", M_LAST_RANK, "1d1b+", RULE_NOT_PROMOTABLE },
	{ "minishogi: pawn to the second rank cannot promote", M_OUTSIDE_ZONE, "2c2b+", RULE_NOT_PROMOTABLE },
	{ "minishogi: pawn to the second rank", M_OUTSIDE_ZONE, "2c2b", RULE_OK },
	{ "minishogi: rook from the third rank cannot promote", M_OUTSIDE_ZONE, "1c1b+", RULE_NOT_PROMOTABLE },
	{ "minishogi: pawn drop on the last rank", M_LAST_RANK, "P*4a", RULE_DEAD_PIECE },
	{ "minishogi: pawn drop on the second rank", M_LAST_RANK, "P*4b", RULE_OK },
	{ "minishogi: pawn drop beside its own pawn's file", M_LAST_RANK, "P*3c", RULE_OK },
	{ "minishogi: second pawn on the file", M_NIFU, "P*4b", RULE_NIFU },
	{ "minishogi: a tokin does not count for nifu", M_NIFU_TOKIN, "P*2b", RULE_OK },
	{ "minishogi: pawn drop on a free file", M_NIFU, "P*5b", RULE_OK },
	{ "minishogi: a pawn drop mate with a pinned defender", M_UCHI_PINNED, "P*1b", RULE_UCHIFUZUME },
	{ "minishogi: the free defender takes the pawn", M_UCHI_FREE, "P*1b", RULE_OK },
	{ "minishogi: a pawn drop mate in the corner", M_UCHI_CORNER, "P*5b", RULE_UCHIFUZUME },
};

#define N_RULE_CASES (sizeof(rule_cases) / sizeof(rule_cases[0]))

static int
is_letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The files of an SFEN's board (it is square): 9, or 5 for minishogi. */
static int
board_files(const char *sfen)
{
	int ranks = 1;

	for (; *sfen && *sfen != ' '; sfen++)
		ranks += *sfen == '/';
	return ranks;
}

/*
 * The same position seen from the other side: the board turned through
 * 180 degrees (square f,r goes to 10-f, i-r on the 9x9 board, 6-f, e-r
 * on the 5x5 one; in SFEN reading order that is simply the squares
 * reversed), every piece changing colour, the hands swapped and the
 * other side to move. Done on the text alone so that it does not lean
 * on the SFEN code under test.
 */
static void
mirror_sfen(const char *in, char out[SFEN_BUF])
{
	char cell[SQ_NB][3];
	const char *s = in;
	char *o = out;
	int n = 0, i, empty = 0, files = board_files(in);
	int squares = files * files;

	memset(cell, 0, sizeof(cell));
	for (; *s && *s != ' '; s++) {
		if (*s == '/')
			continue;
		if (*s >= '1' && *s <= '9') {
			n += *s - '0';
			continue;
		}
		if (n >= squares)
			fail_msg("mirror_sfen: too many squares in '%s'", in);
		if (*s == '+')
			cell[n][0] = *s++;
		cell[n][cell[n][0] ? 1 : 0] = *s;
		n++;
	}
	if (n != squares)
		fail_msg("mirror_sfen: %d squares in '%s'", n, in);
	for (i = 0; i < squares; i++) {
		const char *c = cell[squares - 1 - i];

		if (i && i % files == 0) {
			if (empty)
				*o++ = (char)('0' + empty);
			empty = 0;
			*o++ = '/';
		}
		if (!*c) {
			empty++;
			continue;
		}
		if (empty)
			*o++ = (char)('0' + empty);
		empty = 0;
		for (; *c; c++)
			*o++ = is_letter(*c) ? (char)(*c ^ 0x20) : *c;
	}
	if (empty)
		*o++ = (char)('0' + empty);
	while (*s == ' ')
		*o++ = *s++;
	if (*s != 'b' && *s != 'w')
		fail_msg("mirror_sfen: no side to move in '%s'", in);
	*o++ = *s++ == 'b' ? 'w' : 'b';
	/* Hands in any order read fine, so swapping case is enough. */
	for (; *s; s++)
		*o++ = is_letter(*s) ? (char)(*s ^ 0x20) : *s;
	*o = '\0';
}

/*
 * A USI move on the mirrored board of `files` files: 7g7f becomes 3c3d
 * and N*1b N*9h on the 9x9 board, 1e1d 5a5b on the 5x5 one.
 */
static void
mirror_usi(const char *in, int files, char out[USI_MOVE_MAX])
{
	size_t i, len = strlen(in);
	char last_file = (char)('0' + files);
	char last_rank = (char)('a' + files - 1);

	if (len >= USI_MOVE_MAX)
		fail_msg("mirror_usi: '%s' too long", in);
	snprintf(out, USI_MOVE_MAX, "%s", in);
	for (i = in[1] == '*' ? 2 : 0; i + 1 < len; i += 2) {
		if (in[i] < '1' || in[i] > last_file || in[i + 1] < 'a' ||
		    in[i + 1] > last_rank)
			break;
		out[i] = (char)('1' + last_file - in[i]);
		out[i + 1] = (char)('a' + last_rank - in[i + 1]);
	}
}

/* Judges one case, checking also that judging left the position alone. */
static void
check_rule_case(const char *sfen, const char *usi, enum rule_id rule)
{
	struct position pos;
	uint64_t key;

	load_sfen(&pos, sfen);
	key = position_key(&pos);
	assert_rule(&pos, usi, rule);
	assert_int_equal(position_key(&pos), key);
	assert_true(position_is_ok(&pos));
}

/* Each table case runs twice, as written and mirrored, as two tests. */
struct rule_run {
	const struct rule_case *rc;
	int mirrored;
};

static struct rule_run rule_runs[2 * N_RULE_CASES];

static void
test_rule_case(void **state)
{
	const struct rule_run *run = *state;
	const struct rule_case *rc = run->rc;
	char sfen[SFEN_BUF], usi[USI_MOVE_MAX];

	if (!run->mirrored) {
		check_rule_case(rc->sfen, rc->usi, rc->rule);
		return;
	}
	mirror_sfen(rc->sfen, sfen);
	mirror_usi(rc->usi, board_files(rc->sfen), usi);
	check_rule_case(sfen, usi, rc->rule);
}

/* The mirror itself must be right, or the White half proves nothing. */
static void
test_mirror_helpers(void **state)
{
	char sfen[SFEN_BUF], usi[USI_MOVE_MAX];

	(void)state;
	mirror_sfen(P_START, sfen);
	assert_string_equal(sfen,
	    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
	mirror_sfen("4k4/9/9/9/2+P1+B2+R1/9/1+N4+S1+L/9/4K4 b GPn 7", sfen);
	assert_string_equal(sfen,
	    "4k4/9/+l1+s4+n1/9/1+r2+b1+p2/9/9/9/4K4 w gpN 7");
	mirror_usi("7g7f", 9, usi);
	assert_string_equal(usi, "3c3d");
	mirror_usi("8h2b+", 9, usi);
	assert_string_equal(usi, "2b8h+");
	mirror_usi("P*5e", 9, usi);
	assert_string_equal(usi, "P*5e");
	mirror_usi("N*1b", 9, usi);
	assert_string_equal(usi, "N*9h");
	/* The 5x5 board turns about 3c. */
	mirror_sfen("rbsgk/4p/5/P4/KGSBR b - 1", sfen);
	assert_string_equal(sfen, "rbsgk/4p/5/P4/KGSBR w - 1");
	mirror_sfen("k4/3P1/5/5/4K b Pg 3", sfen);
	assert_string_equal(sfen, "k4/5/5/1p3/4K w pG 3");
	mirror_usi("1e1d", 5, usi);
	assert_string_equal(usi, "5a5b");
	mirror_usi("2b2a+", 5, usi);
	assert_string_equal(usi, "4d4e+");
	mirror_usi("P*3c", 5, usi);
	assert_string_equal(usi, "P*3c");
}

/* The ids are a promise to scripts (rules.h): spelled out once here. */
static void
test_rule_ids(void **state)
{
	static const char *const ids[] = {
		"ok", "no-piece", "not-own-piece", "wrong-piece",
		"piece-movement", "own-capture", "occupied", "not-in-hand",
		"dead-piece", "not-promotable", "nifu", "uchifuzume",
		"self-check"
	};
	int r, n = (int)(sizeof(ids) / sizeof(ids[0]));

	(void)state;
	/* New rules may follow; these keep their numbers and names. */
	assert_true(RULE_NB >= n);
	for (r = 0; r < n; r++) {
		assert_string_equal(rule_id_name((enum rule_id)r), ids[r]);
		assert_non_null(rule_description((enum rule_id)r));
	}
}

static square
sq(const char *s)
{
	return sq_make(s[0] - '1', s[1] - 'a');
}

static enum rule_id
judge_board_claim(const char *sfen, const char *from, const char *to,
    enum piece_type named, int promote, move *out)
{
	struct position pos;
	struct move_claim c;

	load_sfen(&pos, sfen);
	memset(&c, 0, sizeof(c));
	c.from = sq(from);
	c.to = sq(to);
	c.piece = named;
	c.promote = promote;
	*out = MOVE_NONE;
	return rules_check_move(&pos, &c, out);
}

static enum rule_id
judge_drop_claim(const char *sfen, enum piece_type pt, const char *to,
    int promote, move *out)
{
	struct position pos;
	struct move_claim c;

	load_sfen(&pos, sfen);
	memset(&c, 0, sizeof(c));
	c.drop = 1;
	c.from = SQ_NONE;
	c.to = sq(to);
	c.piece = pt;
	c.promote = promote;
	*out = MOVE_NONE;
	return rules_check_move(&pos, &c, out);
}

/*
 * Records such as CSA and KIF name the moving piece; USI does not, so the
 * wrong-piece rule is reached only through a claim with .piece set.
 */
static void
test_wrong_piece(void **state)
{
	move m;

	(void)state;
	assert_int_equal(judge_board_claim(P_START, "7g", "7f", PT_SILVER, 0,
	    &m), RULE_WRONG_PIECE);
	assert_int_equal(m, MOVE_NONE);
	assert_int_equal(judge_board_claim(P_START, "7g", "7f", PT_PAWN, 0,
	    &m), RULE_OK);
	assert_int_equal(m, move_make(sq("7g"), sq("7f"),
	    piece_make(BLACK, PT_PAWN), 0));
	/* Unnamed is fine: the judge takes whatever stands there. */
	assert_int_equal(judge_board_claim(P_START, "7g", "7f", PT_NONE, 0,
	    &m), RULE_OK);
	/* White: a gold named for a pawn. */
	assert_int_equal(judge_board_claim(
	    "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
	    "3c", "3d", PT_GOLD, 0, &m), RULE_WRONG_PIECE);
	assert_int_equal(judge_board_claim(
	    "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
	    "3c", "3d", PT_PAWN, 0, &m), RULE_OK);
	assert_int_equal(m, move_make(sq("3c"), sq("3d"),
	    piece_make(WHITE, PT_PAWN), 0));
	/* The promoted state is part of the name: a tokin is not a pawn. */
	assert_int_equal(judge_board_claim(P_PROMOTED, "7e", "7d", PT_PAWN, 0,
	    &m), RULE_WRONG_PIECE);
	assert_int_equal(judge_board_claim(P_PROMOTED, "7e", "7d",
	    PT_PRO_PAWN, 0, &m), RULE_OK);
	assert_int_equal(judge_board_claim(P_PROMOTED, "5e", "5d", PT_BISHOP,
	    0, &m), RULE_WRONG_PIECE);
	assert_int_equal(judge_board_claim(P_PROMOTED, "5e", "5d", PT_HORSE, 0,
	    &m), RULE_OK);
	assert_int_equal(m, move_make(sq("5e"), sq("5d"),
	    piece_make(BLACK, PT_HORSE), 0));
	/* Order: no-piece and not-own-piece come first, own-capture after. */
	assert_int_equal(judge_board_claim(P_START, "5e", "5d", PT_PAWN, 0,
	    &m), RULE_NO_PIECE);
	assert_int_equal(judge_board_claim(P_START, "3c", "3d", PT_SILVER, 0,
	    &m), RULE_NOT_OWN_PIECE);
	assert_int_equal(judge_board_claim(P_START, "5i", "4i", PT_GOLD, 0,
	    &m), RULE_WRONG_PIECE);
}

/* Drop claims USI cannot even express. */
static void
test_drop_claims(void **state)
{
	move m;

	(void)state;
	/* A drop never promotes (rules.md 1.3). */
	assert_int_equal(judge_drop_claim(P_DROPS, PT_GOLD, "5e", 1, &m),
	    RULE_NOT_PROMOTABLE);
	assert_int_equal(judge_drop_claim(P_DROPS, PT_PAWN, "5e", 1, &m),
	    RULE_NOT_PROMOTABLE);
	/* No hand ever holds a king or a promoted piece. */
	assert_int_equal(judge_drop_claim(P_DROPS, PT_KING, "5e", 0, &m),
	    RULE_NOT_IN_HAND);
	assert_int_equal(judge_drop_claim(P_DROPS, PT_PRO_PAWN, "5e", 0, &m),
	    RULE_NOT_IN_HAND);
	assert_int_equal(judge_drop_claim(P_DROPS, PT_NONE, "5e", 0, &m),
	    RULE_NOT_IN_HAND);
	assert_int_equal(m, MOVE_NONE);
	assert_int_equal(judge_drop_claim(P_DROPS, PT_GOLD, "5e", 0, &m),
	    RULE_OK);
	assert_int_equal(m, move_make_drop(PT_GOLD, sq("5e"), BLACK));
	assert_int_equal(judge_drop_claim(
	    "4k4/9/6p2/9/9/9/2P6/9/4K4 w GPn 1", PT_KNIGHT, "5e", 0, &m),
	    RULE_OK);
	assert_int_equal(m, move_make_drop(PT_KNIGHT, sq("5e"), WHITE));
}

struct state_case {
	const char *name;
	const char *sfen;
	const char *moves;	/* played first, blank separated; "" for none */
	enum play_state state;
	int in_check;
};

static const struct state_case state_cases[] = {
	{ "normal: start position", P_START, "", PLAY_NORMAL, 0 },
	{ "normal: after an opening move", P_START, "7g7f", PLAY_NORMAL, 0 },
	{ "normal: tsume position without a Black king",
	    "4k4/9/9/9/9/9/9/9/9 b 2G 1", "", PLAY_NORMAL, 0 },
	{ "check: rook check with replies", P_IGNORING_CHECK, "",
	    PLAY_CHECK, 1 },
	{ "check: double check, the king can still move", P_DOUBLE_CHECK, "",
	    PLAY_CHECK, 1 },
	{ "check: pawn drop the king may take", P_UCHI_KING_TAKES, "P*1b",
	    PLAY_CHECK, 1 },
	/* K5i k5a P5c, Black holds G: G*5b is protected by the pawn and
	 * covers 4a 6a 4b 6b. */
	{ "checkmate: gold drop", "4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "G*5b",
	    PLAY_CHECKMATE, 1 },
	{ "checkmate: knight drop", P_KNIGHT_DROP_MATE, "N*2c",
	    PLAY_CHECKMATE, 1 },
	{ "checkmate: lance drop where a pawn drop is uchifuzume",
	    P_UCHI_PROTECTED, "L*1b", PLAY_CHECKMATE, 1 },
	{ "checkmate: pawn move (tsuki-fu-zume)", P_UCHI_PAWN_MOVE, "1c1b",
	    PLAY_CHECKMATE, 1 },
	{ "check: by a pinned gold", P_PINNED_CHECKER, "", PLAY_CHECK, 1 },
	{ "stalemate: rules.md section 4",
	    "+R+N+SGKG+S+N+R/+B+N+SG+LG+S+N+B/P+LPP+LPP+LP/1P2P2P1/9/9/9/9/"
	    "4k4 b 9P 200", "", PLAY_STALEMATE, 0 },
	{ "stalemate: pawn drop", P_PAWN_DROP_STALEMATE, "P*2c",
	    PLAY_STALEMATE, 0 },
	{ "minishogi: the start", "rbsgk/4p/5/P4/KGSBR b - 1", "1e1d",
	    PLAY_NORMAL, 0 },
	/* shogiops test/rules/minishogi.test.ts: Black is mated. */
	{ "minishogi checkmate: shogiops", "r1s1k/2b1g/5/r1G1B/KPS2 b p 1",
	    "", PLAY_CHECKMATE, 1 },
	/* K5e k1a S3b G1d: 1d1c leaves the king 2a (S3b), 1b and 2b
	 * (G1c) and no check. */
	{ "minishogi stalemate: the gold closes the corner",
	    "4k/2S2/5/4G/K4 b - 1", "1d1c", PLAY_STALEMATE, 0 },
	{ "minishogi checkmate: gold drop in the corner",
	    "k4/5/G2B1/5/4K b G 1", "G*5b", PLAY_CHECKMATE, 1 },
};

#define N_STATE_CASES (sizeof(state_cases) / sizeof(state_cases[0]))

/* Plays the blank separated USI moves of a case. */
static void
play_moves(struct position *pos, const char *moves)
{
	char buf[USI_MOVE_MAX];
	size_t n;

	while (*moves) {
		while (*moves == ' ')
			moves++;
		n = strcspn(moves, " ");
		if (n == 0)
			break;
		if (n >= sizeof(buf))
			fail_msg("bad test move list '%s'", moves);
		memcpy(buf, moves, n);
		buf[n] = '\0';
		play_usi(pos, buf);
		moves += n;
	}
}

static void
check_state_case(const char *sfen, const char *moves, enum play_state want,
    int in_check)
{
	struct position pos;
	struct move_list ml;
	enum play_state got;

	load_sfen(&pos, sfen);
	play_moves(&pos, moves);
	got = rules_play_state(&pos);
	if (got != want)
		fail_msg("%s after '%s': state %d, expected %d", sfen, moves,
		    (int)got, (int)want);
	assert_int_equal(position_in_check(&pos), in_check);
	/* The states are defined by the legal move count. */
	assert_int_equal(movegen_legal(&pos, &ml) == 0,
	    want == PLAY_CHECKMATE || want == PLAY_STALEMATE);
}

static void
test_state_case(void **state)
{
	const struct state_case *sc = *state;
	char sfen[SFEN_BUF], moves[64], usi[USI_MOVE_MAX];
	const char *s;
	char *o = moves;

	check_state_case(sc->sfen, sc->moves, sc->state, sc->in_check);
	mirror_sfen(sc->sfen, sfen);
	/* Mirror each move of the list. */
	for (s = sc->moves; *s;) {
		size_t n = strcspn(s, " ");
		char one[USI_MOVE_MAX];

		if (n == 0) {
			s++;
			continue;
		}
		assert_true(n < sizeof(one));
		memcpy(one, s, n);
		one[n] = '\0';
		mirror_usi(one, board_files(sc->sfen), usi);
		assert_true((size_t)(o - moves) + n + 2 < sizeof(moves));
		if (o != moves)
			*o++ = ' ';
		memcpy(o, usi, n);
		o += n;
		s += n;
	}
	*o = '\0';
	check_state_case(sfen, moves, sc->state, sc->in_check);
}

struct check_case {
	const char *name;
	const char *sfen;
	const char *usi;
	int check;
};

static const struct check_case check_cases[] = {
	{ "quiet opening move", P_START, "7g7f", 0 },
	{ "discovered check by the rook", P_DISCOVERED, "5c4d", 1 },
	{ "direct check by the silver", P_DISCOVERED, "5c5b", 1 },
	{ "rook move still screened", P_DISCOVERED, "5h5g", 0 },
	/* K5i k5a P4c: the pawn on 4b attacks 4a only, a tokin also 5a. */
	{ "pawn move without promotion", "4k4/9/5P3/9/9/9/9/9/4K4 b - 1",
	    "4c4b", 0 },
	{ "the same move promoting checks",
	    "4k4/9/5P3/9/9/9/9/9/4K4 b - 1", "4c4b+", 1 },
	{ "pawn drop in front of the king", P_UCHI_KING_TAKES, "P*1b", 1 },
	{ "pawn drop elsewhere", P_UCHI_KING_TAKES, "P*1e", 0 },
	{ "knight drop", P_KNIGHT_DROP_MATE, "N*2c", 1 },
	{ "knight drop aiming past the king", P_KNIGHT_DROP_MATE, "N*3c", 0 },
	{ "rook drop on the king's file", "4k4/9/9/9/9/9/9/9/4K4 b R 1",
	    "R*5e", 1 },
	{ "rook drop beside the king's file", "4k4/9/9/9/9/9/9/9/4K4 b R 1",
	    "R*4e", 0 },
	{ "king move never checks by itself", P_KINGS, "5e5f", 0 },
};

#define N_CHECK_CASES (sizeof(check_cases) / sizeof(check_cases[0]))

static void
check_gives_check(const char *sfen, const char *usi, int want)
{
	struct position pos;
	struct move_claim c;
	struct undo u;
	uint64_t key;
	move m;

	load_sfen(&pos, sfen);
	if (usi_parse_move(pos.v, usi, strlen(usi), &c))
		fail_msg("bad test move '%s'", usi);
	if (rules_check_move(&pos, &c, &m) != RULE_OK)
		fail_msg("test move '%s' is illegal in %s", usi, sfen);
	key = position_key(&pos);
	if (rules_gives_check(&pos, m) != want)
		fail_msg("%s in %s: gives check %d, expected %d", usi, sfen,
		    !want, want);
	assert_int_equal(position_key(&pos), key);
	/* Same answer as making the move and looking. */
	position_do_move(&pos, m, &u);
	assert_int_equal(position_in_check(&pos), want);
}

static void
test_check_case(void **state)
{
	const struct check_case *cc = *state;
	char sfen[SFEN_BUF], usi[USI_MOVE_MAX];

	check_gives_check(cc->sfen, cc->usi, cc->check);
	mirror_sfen(cc->sfen, sfen);
	mirror_usi(cc->usi, board_files(cc->sfen), usi);
	check_gives_check(sfen, usi, cc->check);
}

#define N_FIXED 4
#define N_TESTS (N_FIXED + 2 * N_RULE_CASES + N_STATE_CASES + N_CHECK_CASES)

int
main(int argc, char **argv)
{
	static struct CMUnitTest tests[N_TESTS];
	static char names[N_TESTS][128];
	size_t i, n = 0;

	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_mirror_helpers);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_rule_ids);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_wrong_piece);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_drop_claims);
	for (i = 0; i < 2 * N_RULE_CASES; i++, n++) {
		const struct rule_case *rc = &rule_cases[i / 2];

		rule_runs[i].rc = rc;
		rule_runs[i].mirrored = (int)(i % 2);
		snprintf(names[n], sizeof(names[n]), "%s: %s%s",
		    rule_id_name(rc->rule), rc->name,
		    i % 2 ? " [mirrored]" : "");
		tests[n].name = names[n];
		tests[n].test_func = test_rule_case;
		tests[n].initial_state = &rule_runs[i];
	}
	for (i = 0; i < N_STATE_CASES; i++, n++) {
		snprintf(names[n], sizeof(names[n]), "play state %s",
		    state_cases[i].name);
		tests[n].name = names[n];
		tests[n].test_func = test_state_case;
		tests[n].initial_state = (void *)&state_cases[i];
	}
	for (i = 0; i < N_CHECK_CASES; i++, n++) {
		snprintf(names[n], sizeof(names[n]), "gives check: %s",
		    check_cases[i].name);
		tests[n].name = names[n];
		tests[n].test_func = test_check_case;
		tests[n].initial_state = (void *)&check_cases[i];
	}
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return _cmocka_run_group_tests("core/rules", tests, n, NULL, NULL);
}
