/*
 * rating.c - ratings in records: the forms rating.h lists, and nothing
 * that only looks like them (a name with digits in it, a rate line
 * without its number).
 */
#include <stdlib.h>
#include <string.h>

#include "rating.h"

/* Ratings beyond this are no ratings (nothing rates a player so). */
#define RATING_MAX 1e6

/*
 * A decimal number filling [p, end): an optional sign, digits, an
 * optional fraction. Returns 0 and *v, or -1.
 */
static int
read_rate(const char *p, const char *end, double *v)
{
	char buf[32], *stop;
	const char *q = p;
	size_t n = (size_t)(end - p);
	int digits = 0;

	if (q < end && (*q == '+' || *q == '-'))
		q++;
	for (; q < end && *q >= '0' && *q <= '9'; q++)
		digits++;
	if (q < end && *q == '.')
		for (q++; q < end && *q >= '0' && *q <= '9'; q++)
			digits++;
	if (!digits || q != end || n >= sizeof(buf))
		return -1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	*v = strtod(buf, &stop);
	return *v > -RATING_MAX && *v < RATING_MAX ? 0 : -1;
}

/* shogi-server: "black_rate:NAME:3382.0"; the number after the last ':'. */
static void
server_line(const char *p, const char *end, struct ratings *out)
{
	static const char *const keys[COLOR_NB] = {
		"black_rate:", "white_rate:"
	};
	const char *colon;
	int c;
	double v;

	while (end > p && (end[-1] == '\r' || end[-1] == ' '))
		end--;
	for (c = 0; c < COLOR_NB; c++) {
		size_t k = strlen(keys[c]);

		if ((size_t)(end - p) <= k || memcmp(p, keys[c], k) != 0 ||
		    out->has[c])
			continue;
		for (colon = end; colon > p + k && colon[-1] != ':'; colon--)
			;
		if (colon > p + k && read_rate(colon, end, &v) == 0) {
			out->has[c] = 1;
			out->rate[c] = v;
		}
	}
}

/* Piyo Shogi: a player's name ending in "(R990)", blanks after it. */
static void
player_header(const char *s, enum color c, struct ratings *out)
{
	const char *end = s + strlen(s), *open;
	double v;

	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if (out->has[c] || end - s < 4 || end[-1] != ')')
		return;
	for (open = end - 1; open > s && open[-1] != '('; open--)
		;
	if (open == s || *open != 'R' ||
	    read_rate(open + 1, end - 1, &v) < 0 || open[1] == '+' ||
	    open[1] == '-')
		return;
	out->has[c] = 1;
	out->rate[c] = v;
}

void
rating_read(const struct record *r, struct ratings *out)
{
	const char *p = r->nnodes ? record_str(r, r->nodes[0].comment) : "";
	size_t i;

	memset(out, 0, sizeof(*out));
	while (*p) {
		const char *end = strchr(p, '\n');

		if (!end)
			end = p + strlen(p);
		server_line(p, end, out);
		p = *end ? end + 1 : end;
	}
	for (i = 0; i < r->nheaders; i++) {
		const struct record_header *h = &r->headers[i];

		if (h->id == HDR_BLACK || h->id == HDR_WHITE)
			player_header(record_str(r, h->value),
			    h->id == HDR_BLACK ? BLACK : WHITE, out);
	}
}
