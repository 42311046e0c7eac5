/*
 * svgout.h - the pieces of SVG text every picture of kifu writes (the
 * board of picture/svg.c, the graph of picture/graph.c): numbers as
 * short as they can be, text from records made safe for XML, text
 * centred on a point, and the fonts.
 */
#ifndef KIFU_PICTURE_SVGOUT_H
#define KIFU_PICTURE_SVGOUT_H

#include <stddef.h>

#include "core/strbuf.h"

/*
 * The common Japanese fonts of each system, then the generic serif: any
 * renderer finds one that has the kanji.
 */
#define SVG_FONTS "'Noto Serif CJK JP','Noto Sans CJK JP','IPAexMincho'," \
	"'IPAMincho','IPAPMincho','Hiragino Mincho ProN','Yu Mincho'," \
	"'MS Mincho',serif"

/* A length with two decimals at most and no trailing zeros. */
void svg_num(struct strbuf *sb, double x);

/*
 * Text from a record as XML character data, control characters (which
 * XML 1.0 cannot hold) left out, cut to `columns` display columns with
 * an ellipsis (columns 0: no limit).
 */
void svg_xml(struct strbuf *sb, const char *s, size_t columns);

/*
 * Opens a <text> element of class cls whose glyphs are centred on (cx,
 * cy), turned round the centre when `turn`; the caller adds its other
 * attributes, '>', the text and "</text>". anchor: "middle", "start" or
 * "end".
 */
void svg_open_text(struct strbuf *sb, const char *cls, double cx, double cy,
    double size, const char *anchor, int turn);

#endif /* KIFU_PICTURE_SVGOUT_H */
