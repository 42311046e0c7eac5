/*
 * handicap.h - the standard start positions (formats.md section 0.3).
 *
 * Format-specific names (KIF 手合割 words, JKF presets, CSA PI lists)
 * live with their parsers and writers; this table only knows positions.
 */
#ifndef KIFU_CORE_HANDICAP_H
#define KIFU_CORE_HANDICAP_H

#include "position.h"

/* X(enum name, stable id, SFEN of the start position) */
#define HANDICAP_LIST(X) \
	X(HANDICAP_NONE, "none", NULL) \
	X(HANDICAP_EVEN, "even", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1") \
	X(HANDICAP_LANCE, "lance", "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1") \
	X(HANDICAP_RIGHT_LANCE, "right-lance", "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1") \
	X(HANDICAP_BISHOP, "bishop", "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1") \
	X(HANDICAP_ROOK, "rook", "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1") \
	X(HANDICAP_ROOK_LANCE, "rook-lance", "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1") \
	X(HANDICAP_2, "two-piece", "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1") \
	X(HANDICAP_3, "three-piece", "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1") \
	X(HANDICAP_4, "four-piece", "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1") \
	X(HANDICAP_5, "five-piece", "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1") \
	X(HANDICAP_5_LEFT, "left-five-piece", "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1") \
	X(HANDICAP_6, "six-piece", "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1") \
	X(HANDICAP_7_LEFT, "left-seven-piece", "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1") \
	X(HANDICAP_7_RIGHT, "right-seven-piece", "3gkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1") \
	X(HANDICAP_8, "eight-piece", "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1") \
	X(HANDICAP_10, "ten-piece", "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1") \
	X(HANDICAP_MINISHOGI, "minishogi", NULL)

#define HC_ENUM(e, id, sfen) e,
enum handicap { HANDICAP_LIST(HC_ENUM) HANDICAP_NB };
#undef HC_ENUM

const char *handicap_name(enum handicap h);
/* The SFEN of a standard start (NULL for NONE and MINISHOGI). */
const char *handicap_sfen(enum handicap h);
/* Sets pos to the standard start h (any but NONE). */
void handicap_position(enum handicap h, struct position *pos);
/*
 * Which standard start pos is (board, hands and side to move; the move
 * number is ignored); HANDICAP_NONE if it is none of them.
 */
enum handicap handicap_identify(const struct position *pos);

/*
 * Whether pos is one of lishogi's minishogi handicap starts (formats.md
 * 7: 角落ち, 飛車落ち, 二枚落ち, 三枚落ち, 四枚落ち, 上手 to move).
 * They have no 手合割 name of their own: KIF writes them as a 5五将棋
 * board with the 上手/下手 labels.
 */
int handicap_minishogi_odds(const struct position *pos);

#endif /* KIFU_CORE_HANDICAP_H */
