/*
 * svgout.c - the pieces of SVG text every picture of kifu writes
 * (svgout.h).
 */
#include <stdio.h>
#include <string.h>

#include "picture/svgout.h"
#include "parsers/kakinoki.h"

/* A length with two decimals at most and no trailing zeros. */
void
svg_num(struct strbuf *sb, double x)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%.2f", x);

	while (n > 0 && buf[n - 1] == '0')
		n--;
	if (n > 0 && buf[n - 1] == '.')
		n--;
	if (n == 2 && buf[0] == '-' && buf[1] == '0')
		n = 1, buf[0] = '0';
	strbuf_add(sb, buf, (size_t)n);
}

/*
 * Text from a record as XML character data, control characters (which
 * XML 1.0 cannot hold) left out, cut to `columns` display columns with
 * an ellipsis (columns 0: no limit).
 */
void
svg_xml(struct strbuf *sb, const char *s, size_t columns)
{
	size_t w = 0;

	if (columns && kakinoki_width(s, strlen(s)) > columns)
		columns -= 2;	/* room for the ellipsis */
	else
		columns = 0;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c & 0xc0) != 0x80) {
			w += c < 0x80 ? 1 : 2;
			if (columns && w > columns) {
				strbuf_adds(sb, "…");
				return;
			}
		}
		switch (c) {
		case '&': strbuf_adds(sb, "&amp;"); break;
		case '<': strbuf_adds(sb, "&lt;"); break;
		case '>': strbuf_adds(sb, "&gt;"); break;
		case '"': strbuf_adds(sb, "&quot;"); break;
		default:
			if (c >= 0x20 && c != 0x7f)
				strbuf_addc(sb, (char)c);
			break;
		}
	}
}

/*
 * Opens a <text> element whose glyphs are centred on (cx, cy): CJK
 * glyphs sit on an em box 0.88 over and 0.12 under the baseline, so the
 * baseline is 0.38 em under the centre. Turned round the centre when
 * `turn`. anchor: "middle", "start" or "end".
 */
void
svg_open_text(struct strbuf *sb, const char *cls, double cx, double cy,
    double size, const char *anchor, int turn)
{
	strbuf_addf(sb, "<text class=\"%s\" x=\"", cls);
	svg_num(sb, cx);
	strbuf_adds(sb, "\" y=\"");
	svg_num(sb, cy + 0.38 * size);
	strbuf_adds(sb, "\" font-size=\"");
	svg_num(sb, size);
	strbuf_addc(sb, '"');
	if (strcmp(anchor, "start") != 0)
		strbuf_addf(sb, " text-anchor=\"%s\"", anchor);
	if (turn) {
		strbuf_adds(sb, " transform=\"rotate(180 ");
		svg_num(sb, cx);
		strbuf_addc(sb, ' ');
		svg_num(sb, cy);
		strbuf_addc(sb, ')');
		strbuf_addc(sb, '"');
	}
}
