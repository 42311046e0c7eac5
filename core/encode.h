/*
 * encode.h - UTF-8 text into CP932 or EUC-JP, with the place of every
 * character the target cannot hold (iconv, which CP932 and EUC-JP need).
 * Decoding is core/text.h.
 */
#ifndef KIFU_CORE_ENCODE_H
#define KIFU_CORE_ENCODE_H

#include <stddef.h>

#include "diag.h"
#include "strbuf.h"

/*
 * What a character the output encoding cannot hold becomes when the user
 * allows it (kifu convert --replace-unencodable): 〓 (U+3013, GETA MARK),
 * the mark Japanese typesetting uses for a missing glyph, which CP932 and
 * EUC-JP both hold, and which no record uses for anything else, unlike
 * '?'.
 */
#define ENCODE_SUBSTITUTE "〓"

/*
 * Called for each character encode_text replaces, with its line and
 * column in the text (the output's lines) and the character (UTF-8,
 * NUL-ended).
 */
typedef void encode_miss_fn(void *ctx, const struct span *at,
    const char *cp);

/*
 * Appends text (UTF-8) to out in `encoding` ("UTF-8", "CP932", "EUC-JP").
 * A character the encoding cannot hold becomes ENCODE_SUBSTITUTE and is
 * reported to miss(ctx, ...) when miss is not NULL; with miss NULL it
 * stops the conversion. Returns 0; -1 when a character cannot be held
 * (and is not replaced): *bad then gives its line and column in the text,
 * and *cp the character (UTF-8, NUL-ended); -2 (errno set) when this
 * system cannot convert to the encoding at all.
 */
int encode_text(const char *text, size_t n, const char *encoding,
    encode_miss_fn *miss, void *ctx, struct strbuf *out, struct span *bad,
    char cp[8]);

/*
 * "UTF-8", "CP932" or "EUC-JP" (static) for the names people and
 * locales write (utf8, Shift_JIS, SJIS, Windows-31J, eucJP...); NULL for
 * an encoding kifu does not write.
 */
const char *encode_name(const char *s);

#endif /* KIFU_CORE_ENCODE_H */
