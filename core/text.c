/*
 * text.c - decoding once, and the line table.
 */
#include <errno.h>
#include <iconv.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "limit.h"
#include "strbuf.h"
#include "text.h"
#include "xalloc.h"

void
text_init(struct text *t)
{
	memset(t, 0, sizeof(*t));
	t->encoding = "UTF-8";
	t->max_line = limits_default.line;
}

/*
 * Empties t for the next input but keeps its line table: a batch run
 * decodes tens of thousands of files into one struct text, and the table
 * would otherwise be grown from nothing each time.
 */
static void
text_clear(struct text *t)
{
	if (t->buf_alloc) {
		free(t->spare);
		t->spare = t->buf;
		t->spare_alloc = t->buf_alloc;
	} else {
		free(t->buf);
	}
	t->buf = NULL;
	t->buf_alloc = 0;
	t->any_cr = 0;
	t->ascii = 0;
	t->len = 0;
	t->nlines = 0;
	t->encoding = "UTF-8";
	t->bom = 0;
}

void
text_release(struct text *t)
{
	size_t max_line = t->max_line;

	free(t->buf);
	free(t->spare);
	free(t->lines);
	text_init(t);
	t->max_line = max_line;
}

size_t
utf8_valid_seq(const unsigned char *s, size_t n)
{
	unsigned c = s[0];

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return n >= 2 && (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		if (n < 3 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80)
			return 0;
		if (c == 0xe0 && s[1] < 0xa0)
			return 0;	/* overlong */
		if (c == 0xed && s[1] >= 0xa0)
			return 0;	/* surrogate */
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		if (n < 4 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 ||
		    (s[3] & 0xc0) != 0x80)
			return 0;
		if ((c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] >= 0x90))
			return 0;
		return 4;
	}
	return 0;
}

size_t
utf8_decode(const char *s, size_t n, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t k = utf8_valid_seq(u, n);

	switch (k) {
	case 0: *cp = 0xFFFD; break;
	case 1: *cp = u[0]; break;
	case 2: *cp = (uint32_t)(u[0] & 0x1f) << 6 | (u[1] & 0x3f); break;
	case 3: *cp = (uint32_t)(u[0] & 0x0f) << 12 |
	    (uint32_t)(u[1] & 0x3f) << 6 | (u[2] & 0x3f); break;
	default: *cp = (uint32_t)(u[0] & 0x07) << 18 |
	    (uint32_t)(u[1] & 0x3f) << 12 | (uint32_t)(u[2] & 0x3f) << 6 |
	    (u[3] & 0x3f); break;
	}
	return k;
}

struct cp_range {
	uint32_t lo, hi;
};

/* East Asian Width W and F, as Unicode 15 gives them, in the blocks used. */
static const struct cp_range wide[] = {
	{ 0x1100, 0x115F }, { 0x231A, 0x231B }, { 0x2329, 0x232A },
	{ 0x23E9, 0x23EC }, { 0x23F0, 0x23F0 }, { 0x23F3, 0x23F3 },
	{ 0x25FD, 0x25FE }, { 0x2614, 0x2615 }, { 0x2648, 0x2653 },
	{ 0x267F, 0x267F }, { 0x2693, 0x2693 }, { 0x26A1, 0x26A1 },
	{ 0x26AA, 0x26AB }, { 0x26BD, 0x26BE }, { 0x26C4, 0x26C5 },
	{ 0x26CE, 0x26CE }, { 0x26D4, 0x26D4 }, { 0x26EA, 0x26EA },
	{ 0x26F2, 0x26F3 }, { 0x26F5, 0x26F5 }, { 0x26FA, 0x26FA },
	{ 0x26FD, 0x26FD }, { 0x2705, 0x2705 }, { 0x270A, 0x270B },
	{ 0x2728, 0x2728 }, { 0x274C, 0x274C }, { 0x274E, 0x274E },
	{ 0x2753, 0x2755 }, { 0x2757, 0x2757 }, { 0x2795, 0x2797 },
	{ 0x27B0, 0x27B0 }, { 0x27BF, 0x27BF }, { 0x2B1B, 0x2B1C },
	{ 0x2B50, 0x2B50 }, { 0x2B55, 0x2B55 }, { 0x2E80, 0x303E },
	{ 0x3041, 0x33FF }, { 0x3400, 0x4DBF }, { 0x4E00, 0x9FFF },
	{ 0xA000, 0xA4CF }, { 0xA960, 0xA97F }, { 0xAC00, 0xD7A3 },
	{ 0xF900, 0xFAFF }, { 0xFE10, 0xFE19 }, { 0xFE30, 0xFE6F },
	{ 0xFF00, 0xFF60 }, { 0xFFE0, 0xFFE6 }, { 0x16FE0, 0x16FE4 },
	{ 0x17000, 0x18CFF }, { 0x1B000, 0x1B2FF }, { 0x1F004, 0x1F004 },
	{ 0x1F0CF, 0x1F0CF }, { 0x1F18E, 0x1F18E }, { 0x1F191, 0x1F19A },
	{ 0x1F200, 0x1F2FF }, { 0x1F300, 0x1F64F }, { 0x1F680, 0x1F6FF },
	{ 0x1F900, 0x1F9FF }, { 0x1FA70, 0x1FAFF }, { 0x20000, 0x2FFFD },
	{ 0x30000, 0x3FFFD },
};

/* Combining marks over Latin and kana, and the zero-width characters. */
static const struct cp_range zero[] = {
	{ 0x0300, 0x036F }, { 0x1AB0, 0x1AFF }, { 0x1DC0, 0x1DFF },
	{ 0x200B, 0x200F }, { 0x2060, 0x2064 }, { 0x20D0, 0x20FF },
	{ 0x3099, 0x309A }, { 0xFE00, 0xFE0F }, { 0xFE20, 0xFE2F },
	{ 0xFEFF, 0xFEFF }, { 0xE0100, 0xE01EF },
};

static int
in_ranges(const struct cp_range *r, size_t n, uint32_t cp)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (cp < r[mid].lo)
			hi = mid;
		else if (cp > r[mid].hi)
			lo = mid + 1;
		else
			return 1;
	}
	return 0;
}

size_t
utf8_width(const char *s, size_t n)
{
	size_t i = 0, w = 0, k;
	uint32_t cp;

	while (i < n) {
		if ((unsigned char)s[i] < 0x80) {
			w++;
			i++;
			continue;
		}
		if (!(k = utf8_decode(s + i, n - i, &cp))) {
			w++;
			i++;
			continue;
		}
		i += k;
		/* The kana voiced marks lie inside a wide block. */
		if (in_ranges(zero, sizeof(zero) / sizeof(zero[0]), cp))
			continue;
		w += in_ranges(wide, sizeof(wide) / sizeof(wide[0]), cp) ?
		    2 : 1;
	}
	return w;
}

/* Offset of the first byte that is not valid UTF-8, or n. */
static size_t
utf8_check(const char *data, size_t n)
{
	const unsigned char *s = (const unsigned char *)data;
	size_t i = 0;

	while (i < n) {
		size_t k;

		/* Records are mostly ASCII: test eight bytes at a time. */
		while (i + 8 <= n) {
			uint64_t w;

			memcpy(&w, s + i, 8);
			if (w & 0x8080808080808080ull)
				break;
			i += 8;
		}
		if (i >= n)
			break;
		if (s[i] < 0x80) {
			i++;
			continue;
		}
		if (!(k = utf8_valid_seq(s + i, n - i)))
			return i;
		i += k;
	}
	return n;
}

size_t
utf8_count(const char *s, size_t n)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			c++;
	return c;
}

/* Line and column (1-based, columns in bytes) of offset `at` in raw data. */
static void
raw_place(const char *data, size_t at, struct span *sp)
{
	size_t i, line = 1, start = 0;

	for (i = 0; i < at; i++) {
		if (data[i] == '\n' || (data[i] == '\r' && data[i + 1] != '\n')) {
			line++;
			start = i + 1;
		}
	}
	sp->line = (uint32_t)line;
	sp->col = (uint32_t)(at - start + 1);
	sp->byte = (uint32_t)at;
	sp->len = 1;
}

static void
add_line(struct text *t, size_t start, size_t end)
{
	ALLOC_GROW(t->lines, t->nlines + 1, t->alines);
	t->lines[t->nlines].off = (uint32_t)start;
	t->lines[t->nlines].len = (uint32_t)(end - start);
	t->nlines++;
}

/*
 * Whether s[0..n) has no byte from 0x80 on, a word at a time: Japanese
 * text stops it within its first words.
 */
static int
is_ascii(const char *s, size_t n)
{
	const uint64_t high = 0x8080808080808080ull;
	uint64_t w;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		memcpy(&w, s + i, 8);
		if (w & high)
			return 0;
	}
	for (; i < n; i++)
		if ((unsigned char)s[i] >= 0x80)
			return 0;
	return 1;
}

/*
 * Lines end in LF, CRLF or a lone CR. memchr finds the LFs fast; a CR
 * left inside a line is an old Mac line end and splits it further.
 */
static void
split_lines(struct text *t)
{
	const char *b = t->buf;
	/* Most files have no CR at all: then no line needs searching for one. */
	int any_cr = memchr(b, '\r', t->len) != NULL;
	size_t start = 0;

	t->any_cr = any_cr;
	t->ascii = is_ascii(b, t->len);
	t->nlines = 0;
	while (start < t->len) {
		const char *nl = memchr(b + start, '\n', t->len - start);
		size_t end = nl ? (size_t)(nl - b) : t->len;
		size_t body = end;
		const char *cr;

		if (any_cr) {
			if (end > start && b[end - 1] == '\r')
				body--;
			while ((cr = memchr(b + start, '\r', body - start))) {
				add_line(t, start, (size_t)(cr - b));
				start = (size_t)(cr - b) + 1;
			}
		}
		add_line(t, start, body);
		start = end + 1;
	}
}

/*
 * Which bytes of a block of text need a look: control characters below
 * 0x10 (NUL, tab, LF, CR...) and bytes that are not ASCII. One bit per
 * byte, the first byte lowest. SSE2 (every x86-64) takes 16 bytes with
 * one signed compare; elsewhere eight bytes in a word, where the sum of
 * two 7-bit values never carries into the next byte, so that every byte
 * is judged exactly.
 */
#ifdef __SSE2__
#include <emmintrin.h>

#define SCAN_BLOCK 16
typedef unsigned scan_mask;

static inline scan_mask
scan_special(const unsigned char *p)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);

	/* Signed: bytes from 0x80 are negative, below 0x10 as well. */
	return (scan_mask)_mm_movemask_epi8(_mm_cmplt_epi8(v,
	    _mm_set1_epi8(0x10)));
}

static inline size_t
scan_first(scan_mask m)
{
	return (size_t)__builtin_ctz(m);
}
#else
#define SCAN_BLOCK 8
typedef uint64_t scan_mask;

static inline scan_mask
scan_special(const unsigned char *p)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;
	const uint64_t high = 0x8080808080808080ull;
	uint64_t w;

	memcpy(&w, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);	/* the first byte lowest */
#endif
	return (~((w & low7) + 0x7070707070707070ull) | w) & high;
}

static inline size_t
scan_first(scan_mask m)
{
	return (size_t)__builtin_ctzll(m) / 8;
}
#endif

/*
 * The usual input in one pass: UTF-8 without NUL or CR, lines ending in
 * LF. Validates the bytes and fills the line table at once, a block at a
 * time where it is plain ASCII (records mostly are), each LF of a block
 * taken from its bit without looking at the other bytes again: lines of
 * records are short, so a block often holds several. Returns 0 with the
 * table filled, or -1 when the text needs the general path (a NUL, a CR,
 * a byte that is not UTF-8); the table is then left to be rebuilt.
 */
static int
scan_lf_utf8(struct text *t, const char *data, size_t n)
{
	const unsigned char *s = (const unsigned char *)data;
	struct text_line *lines = t->lines;
	size_t i = 0, start = 0, nl = 0, al = t->alines;
	int ascii = 1;

	while (i < n) {
		unsigned c;

		if (i + SCAN_BLOCK <= n) {
			scan_mask m;

			/* Runs of plain text: the tightest loop. */
			while (!(m = scan_special(s + i))) {
				i += SCAN_BLOCK;
				if (i + SCAN_BLOCK > n)
					break;
			}
			if (!m)
				continue;
			/* A line takes at least one byte (its LF). */
			if (nl + SCAN_BLOCK > al) {
				t->nlines = nl;
				ALLOC_GROW(t->lines, nl + SCAN_BLOCK,
				    t->alines);
				lines = t->lines;
				al = t->alines;
			}
			for (; m; m &= m - 1) {
				size_t j = i + scan_first(m);

				if (s[j] != '\n') {
					i = j;
					goto other;
				}
				lines[nl].off = (uint32_t)start;
				lines[nl].len = (uint32_t)(j - start);
				nl++;
				start = j + 1;
			}
			i += SCAN_BLOCK;
			continue;
		} else if (s[i] >= 0x10 && s[i] < 0x80) {
			i++;
			continue;
		}
other:
		c = s[i];
		if (c == '\n') {
			t->nlines = nl;
			add_line(t, start, i);
			lines = t->lines;
			al = t->alines;
			nl++;
			start = ++i;
		} else if (c >= 0x80) {
			size_t k = utf8_valid_seq(s + i, n - i);

			if (!k)
				return -1;
			ascii = 0;
			i += k;
		} else if (c == '\r' || c == '\0') {
			return -1;
		} else {
			i++;	/* a tab or another control character */
		}
	}
	t->nlines = nl;
	if (start < n)
		add_line(t, start, n);
	t->ascii = ascii;
	return 0;
}

static const char *
find(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle), i;

	for (i = 0; i + k <= n; i++)
		if (memcmp(s + i, needle, k) == 0)
			return s + i;
	return NULL;
}

/* The encoding a file names on its first lines, as an iconv name, or NULL. */
static const char *
declared_encoding(const char *data, size_t n)
{
	size_t i = 0;
	int line;

	for (line = 0; line < 3 && i < n; line++) {
		const char *lf = memchr(data + i, '\n', n - i);
		size_t end = lf ? (size_t)(lf - data) : n;
		const char *p = memchr(data + i, '\r', end - i);

		/* The line ends at its first CR or LF. */
		if (p)
			end = (size_t)(p - data);
		if ((data[i] == '#' || data[i] == '\'') &&
		    (p = find(data + i, end - i, "encoding="))) {
			size_t k = (size_t)(p - data) + 9, len = 0;
			char v[16];

			while (k + len < end && len < sizeof(v) - 1 &&
			    data[k + len] != ' ' && data[k + len] != '\t')
				len++;
			memcpy(v, data + k, len);
			v[len] = '\0';
			if (!strcasecmp(v, "UTF-8") || !strcasecmp(v, "UTF8"))
				return "UTF-8";
			if (!strcasecmp(v, "Shift_JIS") ||
			    !strcasecmp(v, "SHIFT-JIS") ||
			    !strcasecmp(v, "SJIS") || !strcasecmp(v, "CP932") ||
			    !strcasecmp(v, "Windows-31J"))
				return "CP932";
			if (!strcasecmp(v, "EUC-JP") || !strcasecmp(v, "EUCJP"))
				return "EUC-JP";
		}
		i = end;
		if (i < n && data[i] == '\r')
			i++;
		if (i < n && data[i] == '\n')
			i++;
	}
	return NULL;
}

/*
 * CP932 is what most KIF/KI2 files are written in, and glibc's iconv for
 * it goes through UCS-4 one character at a time: a third of the time of
 * validating a KIF file. The mapping is taken from iconv itself, once per
 * process and only when a CP932 file shows up, into a table of UTF-8
 * sequences; decoding is then a lookup per character. The bytes come
 * first in an entry so that the decoder copies all four with one store and
 * keeps `len` of them.
 */
struct cp932_entry {
	uint8_t utf8[3];
	uint8_t len;		/* 0: not a CP932 character */
};

static struct cp932_entry cp932_single[256];
static struct cp932_entry cp932_double[256][256];
static pthread_once_t cp932_once = PTHREAD_ONCE_INIT;

static void
cp932_fill(iconv_t cd, const unsigned char *in, size_t n,
    struct cp932_entry *e)
{
	char src[2], dst[8], *ip = src, *op = dst;
	size_t il = n, ol = sizeof(dst);

	memcpy(src, in, n);
	iconv(cd, NULL, NULL, NULL, NULL);
	if (iconv(cd, &ip, &il, &op, &ol) == (size_t)-1 || il ||
	    (size_t)(op - dst) > sizeof(e->utf8))
		return;
	e->len = (uint8_t)(op - dst);
	memcpy(e->utf8, dst, e->len);
}

static void
cp932_build(void)
{
	iconv_t cd = iconv_open("UTF-8", "CP932");
	unsigned char b[2];
	int i, j;

	if (cd == (iconv_t)-1)
		return;
	for (i = 0; i < 256; i++) {
		b[0] = (unsigned char)i;
		cp932_fill(cd, b, 1, &cp932_single[i]);
		if ((i >= 0x81 && i <= 0x9f) || (i >= 0xe0 && i <= 0xfc))
			for (j = 0x40; j <= 0xfc; j++) {
				b[1] = (unsigned char)j;
				cp932_fill(cd, b, 2, &cp932_double[i][j]);
			}
	}
	iconv_close(cd);
}

/* Like convert(), for CP932, from the table. */
static int
cp932_decode(struct text *t, const char *data, size_t n, size_t *bad)
{
	const unsigned char *s = (const unsigned char *)data;
	char *o;
	size_t i = 0;

	pthread_once(&cp932_once, cp932_build);
	if (!cp932_single['A'].len)
		return -1;	/* the table could not be built */
	/*
	 * A byte of CP932 (half-width kana) can take three of UTF-8; the
	 * last character's four-byte copy needs one more.
	 */
	t->buf = xmalloc(n * 3 + 2);
	o = t->buf;
	while (i < n) {
		const struct cp932_entry *e;
		uint64_t w;

		/* Move lines are mostly ASCII: eight bytes at a time. */
		if (i + 8 <= n) {
			memcpy(&w, s + i, 8);
			if (!(w & 0x8080808080808080u)) {
				memcpy(o, &w, 8);
				o += 8;
				i += 8;
				continue;
			}
		}
		if (s[i] < 0x80) {
			*o++ = (char)s[i++];
			continue;
		}
		e = &cp932_single[s[i]];
		if (!e->len) {
			if (i + 1 >= n)
				goto bad;
			e = &cp932_double[s[i]][s[i + 1]];
			if (!e->len)
				goto bad;
			i++;
		}
		i++;
		memcpy(o, e, sizeof(*e));
		o += e->len;
	}
	t->len = (size_t)(o - t->buf);
	t->buf[t->len] = '\0';
	t->encoding = "CP932";
	return 0;
bad:
	free(t->buf);
	t->buf = NULL;
	*bad = i;
	return -1;
}

/*
 * Converts with iconv. Returns 0, or -1 if the bytes are not in `from`,
 * with *bad the offset of the first byte that is not.
 */
static int
convert(struct text *t, const char *from, const char *data, size_t n,
    size_t *bad)
{
	iconv_t cd;
	char *in = (char *)data, *out;
	size_t inleft = n, outleft, cap;

	*bad = 0;
	if (!strcmp(from, "CP932"))
		return cp932_decode(t, data, n, bad);
	cd = iconv_open("UTF-8", from);

	if (cd == (iconv_t)-1)
		return -1;
	/* A byte of CP932 (half-width kana) can take three of UTF-8. */
	cap = n * 3 + 1;
	t->buf = xmalloc(cap);
	out = t->buf;
	outleft = cap - 1;
	if (iconv(cd, &in, &inleft, &out, &outleft) == (size_t)-1 ||
	    iconv(cd, NULL, NULL, &out, &outleft) == (size_t)-1) {
		iconv_close(cd);
		free(t->buf);
		t->buf = NULL;
		*bad = (size_t)(in - data);
		return -1;
	}
	iconv_close(cd);
	t->len = (size_t)(out - t->buf);
	t->buf[t->len] = '\0';
	t->encoding = from;
	return 0;
}

/*
 * Characters in n bytes of text in `enc` that decode (the part of a line
 * before its first bad byte), for columns in characters as everywhere.
 */
static size_t
chars_in(const char *enc, const char *s, size_t n)
{
	struct text tmp;
	size_t bad, k;

	if (!strcmp(enc, "UTF-8"))
		return utf8_count(s, n);
	text_init(&tmp);
	k = convert(&tmp, enc, s, n, &bad) == 0 ? utf8_count(tmp.buf,
	    tmp.len) : n;
	text_release(&tmp);
	return k;
}

static int
take_utf8(struct text *t, const char *data, size_t n, struct strbuf *own)
{
	if (own && own->alloc) {
		/* Steal the caller's buffer instead of copying a whole file. */
		size_t skip = (size_t)(data - own->buf), alloc = own->alloc;
		char *buf = strbuf_detach(own, NULL);

		if (skip)
			memmove(buf, buf + skip, n);
		buf[n] = '\0';
		t->buf = buf;
		t->buf_alloc = alloc;
		/* The buffer taken last time, for the caller to read into. */
		if (t->spare) {
			own->buf = t->spare;
			own->alloc = t->spare_alloc;
			own->buf[0] = '\0';
			t->spare = NULL;
		}
	} else {
		t->buf = xstrndup(data, n);
	}
	t->len = n;
	t->encoding = "UTF-8";
	return 0;
}

/* The line limit: one pass over the line table, not over the text. */
static int
check_lines(struct text *t, struct diag_list *d)
{
	size_t i;

	if (!t->max_line)
		return 0;
	for (i = 0; i < t->nlines; i++)
		if (t->lines[i].len > t->max_line) {
			struct span sp;

			sp.line = (uint32_t)(i + 1);
			sp.col = 1;
			sp.byte = t->lines[i].off;
			sp.len = 0;
			diag_add(d, DIAG_ERROR, diag_id_name(DIAG_LIMIT), &sp,
			    0, "line of %u bytes is longer than the limit "
			    "'line' (%zu bytes)", t->lines[i].len,
			    t->max_line);
			return -1;
		}
	return 0;
}

/*
 * The common case of decode() without its detours: UTF-8 (a BOM, a
 * declaration of UTF-8 or none) that scan_lf_utf8 takes in one pass.
 * Returns 0 with *ret decode()'s result, or -1 having changed nothing
 * that decode() relies on, for it to go the general way.
 */
static int
decode_plain(struct text *t, const char *data, size_t n, struct strbuf *own,
    struct diag_list *d, int *ret)
{
	const char *declared = "UTF-8";
	int bom = 0;

	if (n >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0) {
		bom = 1;
		data += 3;
		n -= 3;
	} else {
		declared = declared_encoding(data, n);
	}
	if ((declared && strcmp(declared, "UTF-8") != 0) ||
	    scan_lf_utf8(t, data, n) < 0) {
		t->nlines = 0;
		return -1;
	}
	t->bom = bom;
	t->any_cr = 0;	/* scan_lf_utf8 takes no CR */
	take_utf8(t, data, n, own);
	/* No line can be longer than the limit when the text is not. */
	*ret = t->max_line && n > t->max_line ? check_lines(t, d) : 0;
	return 0;
}

static int
decode(struct text *t, const char *data, size_t n, struct strbuf *own,
    struct diag_list *d)
{
	const char *declared, *nul, *enc;
	struct {
		const char *enc;
		size_t bad;
	} tried[4];
	size_t ntried = 0, bad, best, i;
	struct strbuf others;
	struct span sp;
	int ret;

	text_clear(t);
	if (n > TEXT_MAX_SIZE) {
		diag_add(d, DIAG_ERROR, diag_id_name(DIAG_LIMIT), NULL, 0,
		    "input larger than the %zu bytes kifu reads",
		    TEXT_MAX_SIZE);
		return -1;
	}
	if (decode_plain(t, data, n, own, d, &ret) == 0)
		return ret;
	if ((nul = memchr(data, '\0', n))) {
		const char *line;

		raw_place(data, (size_t)(nul - data), &sp);
		/* The column in characters, as the line decodes. */
		line = nul - (sp.col - 1);
		if (utf8_check(line, sp.col - 1) == sp.col - 1)
			sp.col = (uint32_t)utf8_count(line, sp.col - 1) + 1;
		else
			sp.col = (uint32_t)chars_in("CP932", line,
			    sp.col - 1) + 1;
		diag_add(d, DIAG_ERROR, diag_id_name(DIAG_ENCODING), &sp, 0,
		    "NUL byte: this is not a text file");
		return -1;
	}
	if (n >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0) {
		t->bom = 1;
		data += 3;
		n -= 3;
		declared = "UTF-8";
	} else {
		declared = declared_encoding(data, n);
	}
	/* Each encoding tried, and where its decoding failed. */
	tried[ntried].enc = "UTF-8";
	tried[ntried++].bad = utf8_check(data, n);
	if (declared && strcmp(declared, "UTF-8") != 0) {
		if (convert(t, declared, data, n, &bad) == 0)
			goto lines;
		tried[ntried].enc = declared;
		tried[ntried++].bad = bad;
	}
	if (tried[0].bad == n) {
		take_utf8(t, data, n, own);
		goto lines;
	}
	/*
	 * A file's own declaration can be wrong (Shogidokoro and others write
	 * encoding=UTF-8 into CP932 files): when its bytes are not what it
	 * says, the usual guesses still apply, with a warning. Only a BOM is
	 * taken at its word.
	 */
	for (i = 0; !t->bom && i < 2; i++) {
		const char *guess = i == 0 ? "CP932" : "EUC-JP";

		if (declared && !strcmp(declared, guess))
			continue;
		if (convert(t, guess, data, n, &bad) == 0) {
			if (declared)
				diag_add(d, DIAG_WARNING,
				    diag_id_name(DIAG_ENCODING), NULL, 0,
				    "the file says it is %s but it is %s",
				    declared, t->encoding);
			goto lines;
		}
		tried[ntried].enc = guess;
		tried[ntried++].bad = bad;
	}
	/*
	 * The decoding that got furthest is most likely the file's real one:
	 * its first bad byte is the place to show (the declared one wins a
	 * tie, then UTF-8).
	 */
	best = tried[0].bad;
	enc = tried[0].enc;
	for (i = 1; i < ntried; i++)
		if (tried[i].bad > best ||
		    (tried[i].bad == best && tried[i].enc == declared)) {
			best = tried[i].bad;
			enc = tried[i].enc;
		}
	raw_place(data, best, &sp);
	sp.col = (uint32_t)(chars_in(enc, data + best - (sp.col - 1),
	    sp.col - 1) + 1);
	if (t->bom)
		sp.byte += 3;
	strbuf_init(&others);
	for (i = 0; i < ntried; i++)
		if (tried[i].enc != enc)
			strbuf_addf(&others, "%s%s", others.len ? (i + 1 ==
			    ntried || (i + 2 == ntried && tried[i + 1].enc ==
			    enc) ? " or " : ", ") : "", tried[i].enc);
	diag_add(d, DIAG_ERROR, diag_id_name(DIAG_ENCODING), &sp, 0,
	    "byte 0x%02x is not valid %s%s%s%s", (unsigned char)data[best],
	    enc, others.len ? " (nor is the file " : "",
	    others.len ? others.buf : "", others.len ? ")" : "");
	strbuf_release(&others);
	return -1;
lines:
	split_lines(t);
	return check_lines(t, d);
}

int
text_decode(struct text *t, const char *data, size_t n, struct diag_list *d)
{
	return decode(t, data, n, NULL, d);
}

int
text_decode_strbuf(struct text *t, struct strbuf *data, struct diag_list *d)
{
	return decode(t, data->buf, data->len, data, d);
}

int
text_from_utf8(struct text *t, const char *data, size_t n,
    struct diag_list *d)
{
	text_clear(t);
	take_utf8(t, data, n, NULL);
	split_lines(t);
	return check_lines(t, d);
}

struct span
text_span(const struct text *t, size_t i, size_t at, size_t len)
{
	struct span sp;

	sp.line = (uint32_t)(i + 1);
	sp.col = (uint32_t)(utf8_count(text_line_ptr(t, i), at) + 1);
	sp.byte = t->lines[i].off + (uint32_t)at;
	sp.len = (uint32_t)len;
	return sp;
}

size_t
text_trim_end_slow(const char *p, size_t n)
{
	for (;;) {
		if (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		else if (n >= 3 && memcmp(p + n - 3, "\xe3\x80\x80", 3) == 0)
			n -= 3;
		else
			return n;
	}
}
