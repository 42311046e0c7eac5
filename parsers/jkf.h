/*
 * jkf.h - JSON Kifu Format (formats.md section 6): parsers/jkf.c reads
 * it, writers/jkf.c writes it. The read and write functions are those of
 * the format interface (parsers/format.h); a JKF file holds one record.
 * The vocabulary (piece kinds, presets, specials) is spelled once, in
 * parsers/jkf.c, for both.
 */
#ifndef KIFU_PARSERS_JKF_H
#define KIFU_PARSERS_JKF_H

#include "core/handicap.h"
#include "format.h"

/*
 * Nested forks (variations of variations) a reader or writer handles.
 * Each level is three levels of JSON, and jansson refuses documents
 * deeper than JSON_PARSER_MAX_DEPTH (2048): what is written must read.
 */
#define JKF_MAX_FORK_DEPTH 500

int jkf_detect(const struct text *t);
enum read_status jkf_read(struct reader *rd, struct record *out,
    struct diag_list *d);
int jkf_write(const struct record *r, const struct write_opts *o,
    struct strbuf *out, struct diag_list *d);

/* "FU", ..., "RY" (the CSA codes); "" for PT_NONE. */
const char *jkf_kind(enum piece_type pt);
/* The preset of a standard start ("HIRATE", "KY", ...); NULL if none. */
const char *jkf_preset(enum handicap h);
/*
 * The special word of a terminal ("TORYO", ...); NULL for the ones JKF
 * has no word for. `fouler` is the side that broke a rule, for the signed
 * ILLEGAL_ACTION of SP_ILLEGAL_WIN.
 */
const char *jkf_special(enum special sp, enum color fouler);

#endif /* KIFU_PARSERS_JKF_H */
