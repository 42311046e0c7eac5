/*
 * fold.c - the folding of fold.h.
 */
#include "fold.h"
#include "text.h"

/* Full-width forms of U+FF61..U+FF9F (half-width katakana and marks). */
static const uint16_t halfwidth[] = {
	0x3002, 0x300C, 0x300D, 0x3001, 0x30FB, 0x30F2, 0x30A1, 0x30A3,
	0x30A5, 0x30A7, 0x30A9, 0x30E3, 0x30E5, 0x30E7, 0x30C3, 0x30FC,
	0x30A2, 0x30A4, 0x30A6, 0x30A8, 0x30AA, 0x30AB, 0x30AD, 0x30AF,
	0x30B1, 0x30B3, 0x30B5, 0x30B7, 0x30B9, 0x30BB, 0x30BD, 0x30BF,
	0x30C1, 0x30C4, 0x30C6, 0x30C8, 0x30CA, 0x30CB, 0x30CC, 0x30CD,
	0x30CE, 0x30CF, 0x30D2, 0x30D5, 0x30D8, 0x30DB, 0x30DE, 0x30DF,
	0x30E0, 0x30E1, 0x30E2, 0x30E4, 0x30E6, 0x30E8, 0x30E9, 0x30EA,
	0x30EB, 0x30EC, 0x30ED, 0x30EF, 0x30F3, 0x309B, 0x309C
};

#define VOICED_MARK 0xFF9E
#define SEMI_VOICED_MARK 0xFF9F

/*
 * The katakana base with a voiced (semi = 0) or semi-voiced (semi = 1)
 * mark joined, as NFKC composes them; 0 when the two do not join.
 */
static uint32_t
voiced(uint32_t base, int semi)
{
	if (base >= 0x30CF && base <= 0x30DB && (base - 0x30CF) % 3 == 0)
		return base + 1 + (uint32_t)semi;	/* ハ to バ, パ */
	if (semi)
		return 0;
	if ((base >= 0x30AB && base <= 0x30C1 && (base - 0x30AB) % 2 == 0) ||
	    base == 0x30C4 || base == 0x30C6 || base == 0x30C8)
		return base + 1;			/* カ to ガ, ツ to ヅ */
	switch (base) {
	case 0x30A6: return 0x30F4;			/* ウ to ヴ */
	case 0x30EF: return 0x30F7;			/* ワ to ヷ */
	case 0x30F2: return 0x30FA;			/* ヲ to ヺ */
	default: return 0;
	}
}

size_t
fold_next(const char *s, size_t n, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t k, k2;
	uint32_t c, mark, joined;

	if (u[0] < 0x80) {
		c = u[0];
		*cp = c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
		return 1;
	}
	if (!(k = utf8_decode(s, n, &c))) {
		*cp = c;
		return 1;
	}
	if (c >= 0xFF01 && c <= 0xFF5E) {
		c -= 0xFEE0;
		*cp = c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
		return k;
	}
	if (c == 0x3000) {
		*cp = ' ';
		return k;
	}
	if (c < 0xFF61 || c > 0xFF9F) {
		*cp = c;
		return k;
	}
	*cp = halfwidth[c - 0xFF61];
	if (k < n && (k2 = utf8_decode(s + k, n - k, &mark)) == 3 &&
	    (mark == VOICED_MARK || mark == SEMI_VOICED_MARK) &&
	    (joined = voiced(*cp, mark == SEMI_VOICED_MARK)) != 0) {
		*cp = joined;
		return k + k2;
	}
	return k;
}

void
fold_put(struct strbuf *out, uint32_t cp)
{
	char b[4];
	size_t n;

	if (cp < 0x80) {
		strbuf_addc(out, (char)cp);
		return;
	}
	if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | cp >> 18);
		b[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		b[2] = (char)(0x80 | (cp >> 6 & 0x3f));
		n = 4;
	}
	b[n - 1] = (char)(0x80 | (cp & 0x3f));
	strbuf_add(out, b, n);
}

void
fold_append(struct strbuf *out, const char *s, size_t n)
{
	size_t i = 0;
	uint32_t cp;

	while (i < n) {
		/*
		 * Runs of plain ASCII, as most names are, need no decoding,
		 * and take no more room than they had: written in place.
		 */
		if ((unsigned char)s[i] < 0x80) {
			strbuf_grow(out, n - i);
			for (; i < n && (unsigned char)s[i] < 0x80; i++) {
				char c = s[i];

				out->buf[out->len++] = c >= 'A' && c <= 'Z' ?
				    (char)(c + ('a' - 'A')) : c;
			}
			out->buf[out->len] = '\0';
			continue;
		}
		i += fold_next(s + i, n - i, &cp);
		fold_put(out, cp);
	}
}
