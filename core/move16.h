/*
 * move16.h - the two 16-bit move forms of training data
 * (../shared/docs/training.md section 4): cshogi's (Apery's) Move16, in
 * HCPE and HCPE3 rows, and YaneuraOu's, in PackedSfenValue rows.
 *
 *              cshogi                        YaneuraOu
 *   bits 0-6   destination                   destination
 *   bits 7-13  origin; a drop: 80 + type     origin; a drop: the type
 *   bit 14     promotion                     drop
 *   bit 15     0                             promotion
 *
 * Types are kifu's (core/types.h: P 1 ... R 6, G 7), which both share.
 * Sixteen bits do not say which piece moves, so a move is read back
 * against the position it was played from, and judged there.
 */
#ifndef KIFU_CORE_MOVE16_H
#define KIFU_CORE_MOVE16_H

#include <stdint.h>

#include "position.h"

enum move16_form {
	MOVE16_CSHOGI,
	MOVE16_YANEURAOU
};

/* m must be a move (not MOVE_NONE). */
static inline uint16_t
move16_encode(enum move16_form f, move m)
{
	if (f == MOVE16_YANEURAOU)	/* kifu's low 16 bits are this form */
		return (uint16_t)(m & 0xffff);
	if (move_is_drop(m))
		return (uint16_t)(move_to(m) | ((80 + move_drop_type(m)) << 7));
	return (uint16_t)(move_to(m) | (move_from(m) << 7) |
	    (move_is_promotion(m) ? 1 << 14 : 0));
}

struct move16_error {
	/*
	 * Stable id, a static string: "no-move" (0), "special-move"
	 * (null, resign, win), "bad-move" (bits that are no move of the
	 * form), or the rule id (core/rules.h) of the rule the move breaks
	 * in the position.
	 */
	const char *id;
	char message[112];
};

/*
 * Reads m16 as a move of pos's side to move into *out. Returns 0, or -1
 * with err filled (err may be NULL) when the bits are no move or the move
 * is not legal in pos.
 */
int move16_decode(enum move16_form f, const struct position *pos,
    uint16_t m16, move *out, struct move16_error *err);

#endif /* KIFU_CORE_MOVE16_H */
