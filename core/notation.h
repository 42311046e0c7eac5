/*
 * notation.h - the JSA rules for relative words (右 左 直 上 寄 引, and
 * 打), both ways: which words a move needs, and which moves words name.
 * formats.md section 4.3 states the rules; KI2 is their main user, but
 * they belong to shogi notation, not to one file format.
 *
 * Words are bits of enum spec_rel (core/record.h): REL_RIGHT 右,
 * REL_LEFT 左, REL_STRAIGHT 直, REL_UP 上 (also written 行, 入),
 * REL_SIDEWAYS 寄, REL_DOWN 引.
 */
#ifndef KIFU_CORE_NOTATION_H
#define KIFU_CORE_NOTATION_H

#include "record.h"

/*
 * The relative words JSA notation writes for the legal move m in pos:
 * never more and never fewer than the rules ask. *drop_word is set to 1
 * when a drop must be written with 打 (a board piece of that kind could
 * also reach the square), else 0.
 */
unsigned notation_words(const struct position *pos, move m, int *drop_word);

/*
 * Keeps the moves of cands[0..n) that the words `rel` describe and
 * returns how many are left (compacted to the front). cands are legal
 * moves of one piece kind to one square; rel 0 keeps them all.
 */
int notation_filter(const struct position *pos, move *cands, int n,
    unsigned rel);

#endif /* KIFU_CORE_NOTATION_H */
