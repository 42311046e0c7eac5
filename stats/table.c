/*
 * table.c - aligned text tables (table.h).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "stats/table.h"
#include "core/text.h"
#include "core/xalloc.h"

void
table_init(struct table *t, size_t ncols, unsigned right)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols;
	t->right = right;
}

void
table_release(struct table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

void
table_addf(struct table *t, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	size_t i;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	/* A name from a record cannot drive the terminal. */
	for (i = 0; i < sb.len; i++)
		if ((unsigned char)sb.buf[i] < 0x20 || sb.buf[i] == 0x7f)
			sb.buf[i] = '?';
	ALLOC_GROW(t->cells, t->n + 1, t->alloc);
	t->cells[t->n++] = strbuf_detach(&sb, NULL);
}

static void
pad(struct strbuf *out, size_t n)
{
	while (n--)
		strbuf_addc(out, ' ');
}

void
table_write(const struct table *t, const char *indent, struct strbuf *out)
{
	size_t *width = xcalloc(t->ncols ? t->ncols : 1, sizeof(*width));
	size_t i, c, rows = t->ncols ? t->n / t->ncols : 0;

	for (i = 0; i < rows * t->ncols; i++) {
		size_t w = utf8_width(t->cells[i], strlen(t->cells[i]));

		if (w > width[i % t->ncols])
			width[i % t->ncols] = w;
	}
	for (i = 0; i < rows; i++) {
		size_t line = out->len, end;

		strbuf_adds(out, indent);
		for (c = 0; c < t->ncols; c++) {
			const char *s = t->cells[i * t->ncols + c];
			size_t w = utf8_width(s, strlen(s));

			if (c)
				strbuf_adds(out, "  ");
			if (t->right & (1u << c))
				pad(out, width[c] - w);
			strbuf_adds(out, s);
			if (!(t->right & (1u << c)))
				pad(out, width[c] - w);
		}
		end = out->len;
		while (end > line && out->buf[end - 1] == ' ')
			end--;
		out->len = end;
		out->buf[end] = '\0';
		strbuf_addc(out, '\n');
	}
	free(width);
}
