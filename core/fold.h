/*
 * fold.h - text folded for matching names and events, so that the forms
 * one name is typed in compare equal: `kifu find` folds what it looks
 * for and what it looks in, and an index folds what it stores, with this
 * one function.
 *
 * Folded, character by character (a subset of NFKC and case folding,
 * the part records written by hand and by many programs differ in):
 *   - full-width ASCII, U+FF01..U+FF5E, to ASCII (Ａ to A, ０ to 0,
 *     （ to (); the ideographic space U+3000 to a space;
 *   - half-width katakana, U+FF61..U+FF9F, to full-width (ｶ to カ), a
 *     voiced or semi-voiced mark after one joined to it (ｶﾞ to ガ, ﾊﾟ
 *     to パ, ｳﾞ to ヴ), and the half-width 。「」、・ー to theirs;
 *   - ASCII capitals, and so full-width ones, to small letters.
 * Nothing else changes: kanji, hiragana, other scripts and their case.
 */
#ifndef KIFU_CORE_FOLD_H
#define KIFU_CORE_FOLD_H

#include <stddef.h>
#include <stdint.h>

#include "strbuf.h"

/*
 * The folded code point of the character at s (n bytes left, n > 0) in
 * *cp; returns the bytes it took (two characters for a katakana and its
 * mark). A byte that starts no valid UTF-8 sequence is taken alone, as
 * U+FFFD.
 */
size_t fold_next(const char *s, size_t n, uint32_t *cp);

/* Appends the folded form of the UTF-8 text s[0..n) to out. */
void fold_append(struct strbuf *out, const char *s, size_t n);

/* Appends cp to out in UTF-8. */
void fold_put(struct strbuf *out, uint32_t cp);

#endif /* KIFU_CORE_FOLD_H */
