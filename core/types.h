/*
 * types.h - the scalar encodings every part of kifu shares.
 *
 * Numbering follows YaneuraOu so that published test vectors port
 * directly: square = file * 9 + rank with file 0 = "1" and rank 0 = "a";
 * piece types PAWN 1 .. ROOK 6, GOLD 7, KING 8, promoted = type | 8;
 * a piece is its type plus 16 for White.
 *
 * Boards smaller than 9x9 (minishogi) use the same numbering: they occupy
 * files 0..files-1 and ranks 0..ranks-1 of the 9x9 grid, and the squares
 * outside are walls (see struct variant in variant.h).
 */
#ifndef KIFU_CORE_TYPES_H
#define KIFU_CORE_TYPES_H

#include <stdint.h>

enum color { BLACK = 0, WHITE = 1 };
#define COLOR_NB 2

static inline enum color
color_flip(enum color c)
{
	return (enum color)(c ^ 1);
}

typedef int square;		/* 0..80, or SQ_NONE */
#define FILE_NB 9
#define RANK_NB 9
#define SQ_NB 81
#define SQ_NONE 81

static inline square
sq_make(int file, int rank)
{
	return file * RANK_NB + rank;
}

static inline int
sq_file(square sq)
{
	return sq / RANK_NB;
}

static inline int
sq_rank(square sq)
{
	return sq % RANK_NB;
}

enum piece_type {
	PT_NONE = 0,
	PT_PAWN, PT_LANCE, PT_KNIGHT, PT_SILVER, PT_BISHOP, PT_ROOK,
	PT_GOLD, PT_KING,
	PT_PRO_PAWN, PT_PRO_LANCE, PT_PRO_KNIGHT, PT_PRO_SILVER,
	PT_HORSE, PT_DRAGON
};
#define PT_NB 15
#define PT_PROMOTED 8
/* Types a hand can hold: PT_PAWN .. PT_GOLD. */
#define HAND_NB 8

typedef int piece;		/* 0 = empty; type | (color << 4) */
#define PIECE_NONE 0
#define PIECE_WHITE 16
#define PIECE_NB 32

static inline piece
piece_make(enum color c, enum piece_type pt)
{
	return (piece)(pt | (c << 4));
}

static inline enum piece_type
piece_type_of(piece p)
{
	return (enum piece_type)(p & 15);
}

static inline enum color
piece_color(piece p)
{
	return (enum color)(p >> 4);
}

static inline int
pt_can_promote(enum piece_type pt)
{
	return pt >= PT_PAWN && pt <= PT_ROOK;
}

static inline int
pt_is_promoted(enum piece_type pt)
{
	return pt > PT_KING;
}

/* The type a piece reverts to when captured (KING stays KING). */
static inline enum piece_type
pt_unpromoted(enum piece_type pt)
{
	return pt > PT_KING ? (enum piece_type)(pt & 7) : pt;
}

/*
 * A move in 32 bits:
 *   bits  0- 6  destination square
 *   bits  7-13  origin square, or the dropped piece type for a drop
 *   bit  14     drop
 *   bit  15     promotion
 *   bits 16-20  the moving piece (with colour) before the move
 * MOVE_NONE is 0, which no real move encodes (from == to == 0, no drop).
 */
typedef uint32_t move;
#define MOVE_NONE 0u
#define MOVE_DROP (1u << 14)
#define MOVE_PROMOTE (1u << 15)

static inline move
move_make(square from, square to, piece p, int promote)
{
	return (move)to | ((move)from << 7) | (promote ? MOVE_PROMOTE : 0) |
	    ((move)p << 16);
}

static inline move
move_make_drop(enum piece_type pt, square to, enum color c)
{
	return (move)to | ((move)pt << 7) | MOVE_DROP |
	    ((move)piece_make(c, pt) << 16);
}

static inline square
move_to(move m)
{
	return (square)(m & 0x7f);
}

static inline square
move_from(move m)
{
	return (square)((m >> 7) & 0x7f);
}

static inline int
move_is_drop(move m)
{
	return (m & MOVE_DROP) != 0;
}

static inline int
move_is_promotion(move m)
{
	return (m & MOVE_PROMOTE) != 0;
}

static inline enum piece_type
move_drop_type(move m)
{
	return (enum piece_type)((m >> 7) & 0x7f);
}

/* The moving piece as it stood before the move (for drops: the dropped piece). */
static inline piece
move_piece(move m)
{
	return (piece)((m >> 16) & 0x1f);
}

/* The piece as it stands after the move. */
static inline piece
move_piece_after(move m)
{
	return move_piece(m) | (move_is_promotion(m) ? PT_PROMOTED : 0);
}

#endif /* KIFU_CORE_TYPES_H */
