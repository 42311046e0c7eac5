/*
 * evaluation.c - engine evaluations in comments: the forms evaluation.h
 * lists, and nothing that only looks like them.
 */
#include <stdlib.h>
#include <string.h>

#include "evaluation.h"

static int
is_blank_at(const char *p, const char *end)
{
	return p < end && (*p == ' ' || *p == '\t' ||
	    (end - p >= 3 && memcmp(p, "\xe3\x80\x80", 3) == 0));
}

/* Past the blanks (ASCII and U+3000) at p. */
static const char *
skip_blanks(const char *p, const char *end)
{
	while (is_blank_at(p, end))
		p += *p == ' ' || *p == '\t' ? 1 : 3;
	return p;
}

/* A number ends a word: the line ends or a blank follows it. */
static int
word_ends(const char *p, const char *end)
{
	return p == end || *p == '\r' || is_blank_at(p, end);
}

/*
 * An optionally signed decimal number that ends its word; saturated.
 * Returns 0 and *v, or -1 if there is none.
 */
static int
read_number(const char *p, const char *end, long long *v)
{
	int neg = 0;
	long long n = 0;

	if (p < end && (*p == '+' || *p == '-'))
		neg = *p++ == '-';
	if (p == end || *p < '0' || *p > '9')
		return -1;
	for (; p < end && *p >= '0' && *p <= '9'; p++)
		if ((n = n * 10 + (*p - '0')) > EVALUATION_SCORE_MAX)
			n = EVALUATION_SCORE_MAX;
	if (!word_ends(p, end))
		return -1;
	*v = neg ? -n : n;
	return 0;
}

static int
has_prefix(const char *p, const char *end, const char *pre)
{
	size_t n = strlen(pre);

	return (size_t)(end - p) >= n && memcmp(p, pre, n) == 0;
}

static const char *
find(const char *p, const char *end, const char *what)
{
	size_t n = strlen(what);

	for (; (size_t)(end - p) >= n; p++)
		if (memcmp(p, what, n) == 0)
			return p;
	return NULL;
}

static int
set_score(struct evaluation *out, const char *p, const char *end)
{
	if (read_number(p, end, &out->score) < 0)
		return 0;
	out->has = 1;
	out->mate = 0;
	return 1;
}

static int
set_mate(struct evaluation *out, int sign)
{
	out->has = 1;
	out->mate = sign;
	out->score = sign * EVALUATION_SCORE_MAX;
	return 1;
}

/*
 * A ShogiGUI score: "123", "+詰 5" / "-詰 3", or a bound "123↑" / "123↓"
 * (read as the number).
 */
static int
shogigui_score(struct evaluation *out, const char *p, const char *end)
{
	const char *q = p;

	if (has_prefix(p, end, "+詰"))
		return set_mate(out, 1);
	if (has_prefix(p, end, "-詰"))
		return set_mate(out, -1);
	if (q < end && (*q == '+' || *q == '-'))
		q++;
	while (q < end && *q >= '0' && *q <= '9')
		q++;
	if (q > p && (has_prefix(q, end, "↑") || has_prefix(q, end, "↓")) &&
	    word_ends(q + strlen("↑"), end)) {
		long long v;
		const char *digits = p;
		char buf[32];
		size_t n = (size_t)(q - digits);

		if (n >= sizeof(buf))
			n = sizeof(buf) - 1;
		memcpy(buf, digits, n);
		buf[n] = '\0';
		if (read_number(buf, buf + n, &v) < 0)
			return 0;
		out->has = 1;
		out->mate = 0;
		out->score = v;
		return 1;
	}
	return set_score(out, p, end);
}

/* ShogiGUI: "*対局 時間 ... 評価値 123 読み筋 ...", or "評価値 +詰 5". */
static int
shogigui(struct evaluation *out, const char *p, const char *end)
{
	const char *at = find(p, end, " 評価値");

	if (!at)
		return 0;
	p = at + strlen(" 評価値");
	if (!is_blank_at(p, end))
		return 0;
	return shogigui_score(out, skip_blanks(p, end), end);
}

static int
read_line(struct evaluation *out, const char *p, const char *end)
{
	if (p == end || *p != '*')
		return 0;
	p++;
	if (p < end && *p == '*') {		/* CSA '** 123 <pv> */
		p++;
		return is_blank_at(p, end) &&
		    set_score(out, skip_blanks(p, end), end);
	}
	if (is_blank_at(p, end))		/* KIF ** 123 */
		return set_score(out, skip_blanks(p, end), end);
	if (has_prefix(p, end, "評価値="))	/* ShogiHome */
		return set_score(out, p + strlen("評価値="), end);
	if (has_prefix(p, end, "詰み=先手勝ち"))
		return set_mate(out, 1);
	if (has_prefix(p, end, "詰み=後手勝ち"))
		return set_mate(out, -1);
	if (has_prefix(p, end, "対局") &&
	    (p + strlen("対局") == end || is_blank_at(p + strlen("対局"), end)))
		return shogigui(out, p, end);
	return 0;
}

/* "[123]" after Piyo Shogi's #指し手 and K-Shogi's #形勢. */
static int
bracketed(struct evaluation *out, const char *p, const char *end)
{
	const char *close;

	if (p == end || *p != '[' || !(close = memchr(p, ']', (size_t)(end - p))))
		return 0;
	return set_score(out, p + 1, close);
}

static int
read_analysis_line(struct evaluation *out, const char *p, const char *end)
{
	if (has_prefix(p, end, "#評価値="))		/* ShogiHome */
		return set_score(out, p + strlen("#評価値="), end);
	if (has_prefix(p, end, "#詰み=先手勝ち"))
		return set_mate(out, 1);
	if (has_prefix(p, end, "#詰み=後手勝ち"))
		return set_mate(out, -1);
	if (has_prefix(p, end, "*解析") &&
	    is_blank_at(p + strlen("*解析"), end))	/* ShogiGUI */
		return shogigui(out, p, end);
	if (has_prefix(p, end, "#指し手"))		/* Piyo Shogi */
		return bracketed(out, p + strlen("#指し手"), end);
	if (has_prefix(p, end, "#形勢"))		/* K-Shogi */
		return bracketed(out, p + strlen("#形勢"), end);
	return 0;
}

/*
 * The first of at most max lines (max < 0: all) from p that read_one
 * reads; out->has is 0 without one.
 */
static void
read_lines(const char *p, long max, struct evaluation *out,
    int (*read_one)(struct evaluation *, const char *, const char *))
{
	out->has = 0;
	out->mate = 0;
	out->score = 0;
	if (!p)
		return;
	for (; *p && max != 0; max--) {
		const char *end = strchr(p, '\n');

		if (!end)
			end = p + strlen(p);
		if (read_one(out, p, end))
			return;
		p = *end ? end + 1 : end;
	}
}

void
evaluation_read(const char *comment, struct evaluation *out)
{
	read_lines(comment, -1, out, read_line);
}

void
evaluation_read_analysis(const char *comment, struct evaluation *out)
{
	const char *p = comment;
	size_t k = strlen(EVALUATION_KIFU_MARKER);

	/* kifu's own block first: the lines its marker counts. */
	while (p && *p) {
		const char *end = strchr(p, '\n');

		if (!strncmp(p, EVALUATION_KIFU_MARKER, k) && p[k] >= '0' &&
		    p[k] <= '9') {
			char *after;
			long n = strtol(p + k, &after, 10);

			/* "N line" or "N lines", as annotate.c writes it. */
			if (end && n > 0 && !strncmp(after, " line", 5)) {
				read_lines(end + 1, n, out, read_analysis_line);
				if (out->has)
					return;
			}
		}
		p = end ? end + 1 : NULL;
	}
	read_lines(comment, -1, out, read_analysis_line);
}

int
evaluation_for(const struct evaluation *e, enum color to_move)
{
	long long s = e->score;

	if (!e->has)
		return 0;
	if (e->mate)
		s = e->mate * EVALUATION_EVAL_MAX;
	if (s > EVALUATION_EVAL_MAX)
		s = EVALUATION_EVAL_MAX;
	if (s < -EVALUATION_EVAL_MAX)
		s = -EVALUATION_EVAL_MAX;
	return (int)(to_move == BLACK ? s : -s);
}

int
evaluation_at_least(const struct evaluation *e, long long n)
{
	if (!e->has)
		return 0;
	return e->mate || e->score >= n || e->score <= -n;
}
