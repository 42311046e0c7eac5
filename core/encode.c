/*
 * encode.c - UTF-8 text into the encodings record files are written in.
 */
#include <errno.h>
#include <iconv.h>
#include <string.h>
#include <strings.h>

#include "encode.h"
#include "text.h"

/*
 * Line and column of byte `at` of text, counting on from where the
 * cursor last stopped (each call must be at or after the previous one),
 * so that reporting every replaced character stays linear.
 */
struct cursor {
	size_t at, line, start;
};

static void
place(const char *text, struct cursor *cu, size_t at, struct span *sp)
{
	size_t i;

	for (i = cu->at; i < at; i++)
		if (text[i] == '\n') {
			cu->line++;
			cu->start = i + 1;
		}
	cu->at = at;
	sp->line = (uint32_t)cu->line;
	sp->col = (uint32_t)(utf8_count(text + cu->start, at - cu->start) + 1);
	sp->byte = (uint32_t)at;
	sp->len = 1;
}

/*
 * Converts what is left of *in into out, growing it as needed. Returns
 * 0 when all is converted, or -1 (errno EILSEQ or EINVAL) with *in at the
 * character that cannot be converted.
 */
static int
convert_some(iconv_t cd, char **in, size_t *inleft, struct strbuf *out)
{
	while (*inleft) {
		size_t used = out->len, outleft;
		char *o;

		strbuf_grow(out, *inleft * 2 + 16);
		o = out->buf + used;
		outleft = out->alloc - used - 1;
		if (iconv(cd, in, inleft, &o, &outleft) != (size_t)-1) {
			out->len = (size_t)(o - out->buf);
			break;
		}
		out->len = (size_t)(o - out->buf);
		if (errno != E2BIG)
			return -1;
	}
	out->buf[out->len] = '\0';
	return 0;
}

int
encode_text(const char *text, size_t n, const char *encoding,
    encode_miss_fn *miss, void *ctx, struct strbuf *out, struct span *bad,
    char cp[8])
{
	struct cursor cu = { 0, 1, 0 };
	iconv_t cd;
	char *in = (char *)text;
	size_t inleft = n;

	if (!strcmp(encoding, "UTF-8")) {
		strbuf_add(out, text, n);
		return 0;
	}
	if ((cd = iconv_open(encoding, "UTF-8")) == (iconv_t)-1)
		return -2;
	while (convert_some(cd, &in, &inleft, out) < 0) {
		/* EILSEQ: a character the target cannot hold. */
		size_t at = (size_t)(in - text);
		size_t k = utf8_valid_seq((const unsigned char *)in, inleft);
		char *mark = (char *)ENCODE_SUBSTITUTE;
		size_t markleft = strlen(ENCODE_SUBSTITUTE);

		if (!k || k > 7)
			k = 1;
		place(text, &cu, at, bad);
		memcpy(cp, in, k);
		cp[k] = '\0';
		if (!miss || convert_some(cd, &mark, &markleft, out) < 0) {
			iconv_close(cd);
			return -1;
		}
		miss(ctx, bad, cp);
		in += k;
		inleft -= k;
	}
	iconv_close(cd);
	return 0;
}


const char *
encode_name(const char *s)
{
	if (!strcasecmp(s, "UTF-8") || !strcasecmp(s, "UTF8"))
		return "UTF-8";
	if (!strcasecmp(s, "CP932") || !strcasecmp(s, "SJIS") ||
	    !strcasecmp(s, "Shift_JIS") || !strcasecmp(s, "Windows-31J"))
		return "CP932";
	if (!strcasecmp(s, "EUC-JP") || !strcasecmp(s, "EUCJP"))
		return "EUC-JP";
	return NULL;
}
