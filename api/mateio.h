/*
 * mateio.h - the solver's answers and a problem check's findings as
 * text and JSON: what `kifu mate`, `kifu tsume check` and the library's
 * kifu_mate_* print or return. Nothing here prints.
 */
#ifndef KIFU_API_MATEIO_H
#define KIFU_API_MATEIO_H

#include "core/strbuf.h"
#include "mate/check.h"
#include "mate/mate.h"

/* "game" or "problem"; and back (-1: neither). */
const char *mateio_rules_name(enum mate_rules r);
int mateio_rules_by_name(const char *name, enum mate_rules *out);

/*
 * The line from pos, moves separated by spaces: USI ("G*5b 4a5b"), or
 * with kanji as KIF writes moves, each after its side's mark
 * ("▲５二金打 △同　玉(41)").
 */
void mateio_line(struct strbuf *out, const struct position *pos,
    const struct mate_line *line, int kanji);

/* "mate 7: G*5b ...", "nomate" or "unknown" (no newline). */
void mateio_result_text(struct strbuf *out, const struct position *pos,
    const struct mate_result *r, int kanji);

/*
 * The fields of a result as JSON members, each after ", " (the caller
 * opens and closes the object): "sfen", "rules", "status", "length",
 * "line" (USI), "line_kif" (with kanji), "found" and "found_line" (an
 * unknown that found a mate not proved shortest), "stop", "nodes",
 * "time" (seconds).
 */
void mateio_result_json(struct strbuf *out, const struct position *pos,
    enum mate_rules rules, const struct mate_result *r, int kanji);

/*
 * A check's findings as text: the verdict line's tail ("sound, mate in
 * 9" ...) and one indented line a finding, each ending in "\n".
 */
void mateio_report_text(struct strbuf *out, const struct position *start,
    const move *solution, const struct tsume_report *r, int kanji);

/* The report as JSON members, each after ", ". */
void mateio_report_json(struct strbuf *out, const struct position *start,
    const move *solution, enum mate_rules rules,
    const struct tsume_report *r, int kanji);

#endif /* KIFU_API_MATEIO_H */
