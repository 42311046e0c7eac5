#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "xalloc.h"

static char empty[1];

void
strbuf_init(struct strbuf *sb)
{
	sb->buf = empty;
	sb->len = 0;
	sb->alloc = 0;
}

void
strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb);
}

void
strbuf_reset(struct strbuf *sb)
{
	if (sb->alloc)
		sb->buf[0] = '\0';
	sb->len = 0;
}

void
strbuf_grow_slow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;

	if (!sb->buf)
		strbuf_init(sb);
	if (need <= sb->alloc)
		return;
	if (!sb->alloc)
		sb->buf = NULL;
	ALLOC_GROW(sb->buf, need, sb->alloc);
	if (sb->len == 0)
		sb->buf[0] = '\0';
}

void
strbuf_add(struct strbuf *sb, const void *data, size_t n)
{
	strbuf_grow(sb, n);
	memcpy(sb->buf + sb->len, data, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void
strbuf_adds(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void
strbuf_add_int(struct strbuf *sb, long long v)
{
	char tmp[24], *p = tmp + sizeof(tmp);
	/* The magnitude in unsigned arithmetic: -LLONG_MIN overflows. */
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v :
	    (unsigned long long)v;

	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	strbuf_add(sb, p, (size_t)(tmp + sizeof(tmp) - p));
}

void
strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	strbuf_grow(sb, 64);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if ((size_t)n >= sb->alloc - sb->len) {
		strbuf_grow(sb, (size_t)n);
		vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	sb->len += (size_t)n;
}

void
strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void
strbuf_vaddf_line(struct strbuf *sb, const char *fmt, va_list ap)
{
	if (sb->len)
		strbuf_addc(sb, '\n');
	strbuf_vaddf(sb, fmt, ap);
}

void
strbuf_addf_line(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf_line(sb, fmt, ap);
	va_end(ap);
}

void
strbuf_add_json_string(struct strbuf *sb, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '"': strbuf_add(sb, "\\\"", 2); break;
		case '\\': strbuf_add(sb, "\\\\", 2); break;
		case '\n': strbuf_add(sb, "\\n", 2); break;
		case '\r': strbuf_add(sb, "\\r", 2); break;
		case '\t': strbuf_add(sb, "\\t", 2); break;
		default:
			if (c < 0x20 || c == 0x7f)
				strbuf_addf(sb, "\\u%04x", c);
			else
				strbuf_addc(sb, (char)c);
		}
	}
}

void
strbuf_add_json_quoted(struct strbuf *sb, const char *s)
{
	strbuf_addc(sb, '"');
	strbuf_add_json_string(sb, s, strlen(s));
	strbuf_addc(sb, '"');
}

void
strbuf_add_printable(struct strbuf *sb, const char *s)
{
	for (; *s; s++)
		strbuf_addc(sb, (unsigned char)*s < 0x20 || *s == 0x7f ?
		    '?' : *s);
}

char *
strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *r;

	if (len)
		*len = sb->len;
	r = sb->alloc ? sb->buf : xstrndup("", 0);
	strbuf_init(sb);
	return r;
}
