/*
 * date.c - dates out of headers (date.h).
 */
#include <stdio.h>
#include <string.h>

#include "date.h"
#include "fold.h"

/* Room for the characters of a date and what may follow it. */
#define SCAN_MAX 48

/* 和暦: the year before each era's first, as the era's year 1 follows it. */
static const struct {
	const char *name;
	int base;
} eras[] = {
	{ "令和", 2018 }, { "平成", 1988 }, { "昭和", 1925 },
	{ "大正", 1911 }, { "明治", 1867 },
};

/*
 * The text folded (full-width digits and blanks to ASCII) as code
 * points, at most max of them.
 */
static size_t
scan(const char *s, size_t n, uint32_t *cp, size_t max)
{
	size_t i = 0, k = 0;

	while (i < n && k < max)
		i += fold_next(s + i, n - i, &cp[k++]);
	return k;
}

/* Digits at cp[*i..k), at most max of them; -1 for none. *nd: how many. */
static int
number(const uint32_t *cp, size_t k, size_t *i, int max, int *nd)
{
	int v = 0;

	*nd = 0;
	while (*i < k && cp[*i] >= '0' && cp[*i] <= '9' && *nd < max) {
		v = v * 10 + (int)(cp[*i] - '0');
		(*i)++;
		(*nd)++;
	}
	if (*nd && *i < k && cp[*i] >= '0' && cp[*i] <= '9')
		return -1;		/* more digits than a field has */
	return *nd ? v : -1;
}

static int
is_leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int
valid_day(int y, int m, int d)
{
	static const int days[] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
	};

	return d >= 1 && d <= days[m - 1] + (m == 2 && is_leap(y));
}

/* Writes y[-m[-d]] (m, d 0: absent); 0 when a field is out of range. */
static int
put(char out[DATE_MAX], int y, int m, int d)
{
	out[0] = '\0';
	if (y < 1 || y > 9999 || m < 0 || m > 12 || (d && !m) ||
	    (d && !valid_day(y, m, d)))
		return 0;
	if (d)
		return snprintf(out, DATE_MAX, "%04d-%02d-%02d", y, m, d);
	if (m)
		return snprintf(out, DATE_MAX, "%04d-%02d", y, m);
	return snprintf(out, DATE_MAX, "%04d", y);
}

static int
is_sep(uint32_t c)
{
	return c == '/' || c == '-' || c == '.';
}

/*
 * After the year (at cp[i]): "/MM/DD", "-MM-DD", ".MM.DD", "年M月D日",
 * or less of them. The separators must agree.
 */
static int
month_day(const uint32_t *cp, size_t k, size_t i, int y, char out[DATE_MAX])
{
	uint32_t sep;
	int m, d, nd;

	if (i >= k || !(is_sep(cp[i]) || cp[i] == 0x5E74))	/* 年 */
		return put(out, y, 0, 0);
	sep = cp[i++];
	while (sep == 0x5E74 && i < k && cp[i] == ' ')
		i++;
	if ((m = number(cp, k, &i, 2, &nd)) < 0)
		return put(out, y, 0, 0);
	if (i >= k || cp[i] != (sep == 0x5E74 ? 0x6708 : sep))	/* 月 */
		return sep == 0x5E74 ? 0 : put(out, y, m, 0);
	i++;
	while (sep == 0x5E74 && i < k && cp[i] == ' ')
		i++;
	if ((d = number(cp, k, &i, 2, &nd)) < 0)
		return put(out, y, m, 0);
	if (sep == 0x5E74 && (i >= k || cp[i] != 0x65E5))	/* 日 */
		return 0;
	return put(out, y, m, d);
}

/* 令和3年4月5日, 平成元年...: the era's name is at cp[i]. */
static int
era_date(const char *s, size_t n, char out[DATE_MAX])
{
	uint32_t cp[SCAN_MAX];
	size_t e, i, k, len;
	int y, nd;

	for (e = 0; e < sizeof(eras) / sizeof(eras[0]); e++) {
		len = strlen(eras[e].name);
		if (n < len || memcmp(s, eras[e].name, len) != 0)
			continue;
		k = scan(s + len, n - len, cp, SCAN_MAX);
		i = 0;
		while (i < k && cp[i] == ' ')
			i++;
		if (i < k && cp[i] == 0x5143) {		/* 元 */
			y = 1;
			i++;
		} else if ((y = number(cp, k, &i, 2, &nd)) < 1) {
			return 0;
		}
		if (i >= k || cp[i] != 0x5E74)		/* 年 */
			return 0;
		return month_day(cp, k, i, eras[e].base + y, out);
	}
	return 0;
}

int
date_parse(const char *s, size_t n, char out[DATE_MAX])
{
	uint32_t cp[SCAN_MAX];
	size_t i = 0, k, j;
	int y, a, b, nd, r;

	out[0] = '\0';
	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	while (n >= 3 && memcmp(s, "\xe3\x80\x80", 3) == 0) {	/* U+3000 */
		s += 3;
		n -= 3;
	}
	if ((r = era_date(s, n, out)) > 0)
		return r;
	k = scan(s, n, cp, SCAN_MAX);
	a = number(cp, k, &i, 8, &nd);
	if (a < 0)
		return 0;
	if (nd == 8)			/* 20141013 */
		return put(out, a / 10000, a / 100 % 100, a % 100);
	if (nd == 4)
		return month_day(cp, k, i, a, out);
	/* 12/30/2018: month and day first, as US software writes them. */
	if (nd > 2 || i >= k || cp[i] != '/')
		return 0;
	j = i + 1;
	if ((b = number(cp, k, &j, 2, &nd)) < 0 || j >= k || cp[j] != '/')
		return 0;
	j++;
	if ((y = number(cp, k, &j, 4, &nd)) < 0 || nd != 4)
		return 0;
	return put(out, y, a, b);
}

int
date_of_record(const struct record *r, char out[DATE_MAX])
{
	static const enum header_id ids[] = { HDR_START_TIME, HDR_END_TIME };
	size_t i, h;
	int len;

	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		for (h = 0; h < r->nheaders; h++) {
			const char *v;

			if (r->headers[h].id != ids[i])
				continue;
			v = record_str(r, r->headers[h].value);
			if ((len = date_parse(v, strlen(v), out)) > 0)
				return len;
		}
	out[0] = '\0';
	return 0;
}
