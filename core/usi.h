/*
 * usi.h - USI move text: "7g7f", "8h2b+", "P*5e".
 */
#ifndef KIFU_CORE_USI_H
#define KIFU_CORE_USI_H

#include <stddef.h>

#include "rules.h"

/* Longest USI move text with its NUL. */
#define USI_MOVE_MAX 8

/*
 * Reads len bytes of s as one USI move on the variant's board into a
 * claim (piece left PT_NONE for board moves). Returns 0, or -1 if the
 * text is not a USI move.
 */
int usi_parse_move(const struct variant *v, const char *s, size_t len,
    struct move_claim *claim);

/* Writes m as USI text into buf. */
void usi_format_move(move m, char buf[USI_MOVE_MAX]);

/* Writes a square ("7g") into buf (3 bytes). */
void usi_format_square(square sq, char buf[3]);

#endif /* KIFU_CORE_USI_H */
