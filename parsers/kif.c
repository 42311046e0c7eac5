/*
 * kif.c - reading KIF records (formats.md section 3), every dialect met
 * in the wild: Kifu for Windows (V3 to V7, Pro), ShogiGUI, Shogidokoro,
 * Kifu for iPhone, 81Dojo, Shogi Wars converters, shogidb2, ぴよ将棋,
 * ShogiHome and the JSA live site.
 *
 * One record a file. What is not a move line is read by
 * kakinoki_read.c, which KI2 shares. A move line is
 *
 *   <blanks><number><blanks>[▲△]<move or terminal word>[<time>][+]
 *
 * where numbers are padded to four columns or not at all, 同 is followed
 * by U+3000, an ASCII blank or nothing, 不成 and 打(00) occur although
 * the spec has neither, and the time field comes in many spacings
 * ("( 0:16/00:00:16)", "(00:31 / 00:00:31)", "(0:4/0:0:4)", "( 0:7/)").
 * Move numbers must follow on: a jump is an error, never a guess.
 */
#include <stdio.h>
#include <string.h>

#include "kakinoki.h"
#include "kakinoki_read.h"

/* Digits a time field's number may have (about 31 years of seconds). */
#define TIME_DIGITS 9
/* Digits a move number may have. */
#define NUMBER_DIGITS 7
/* Lines detection looks at. */
#define DETECT_LINES 64
/* Running totals reported wrong before kif_read stops saying so. */
#define TIME_WARNINGS 8

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * One clock "[h:]m:s" of a time field, blanks allowed before each
 * number. Returns the bytes read (0 if there is no number at all) and
 * the milliseconds in *ms; *count is how many numbers it had.
 */
static size_t
read_clock(const char *p, size_t n, size_t at, int64_t *ms, int *count)
{
	int64_t v[3] = { 0, 0, 0 };
	size_t i = at;

	*count = 0;
	for (;;) {
		size_t j = i, digits = 0;
		int64_t x = 0;

		while (j < n && p[j] == ' ')
			j++;
		for (; j < n && is_digit(p[j]) && digits < TIME_DIGITS;
		    j++, digits++)
			x = x * 10 + (p[j] - '0');
		if (!digits)
			return 0;
		v[(*count)++] = x;
		i = j;
		if (*count == 3 || i >= n || p[i] != ':')
			break;
		i++;
	}
	if (*count == 2)
		*ms = (v[0] * 60 + v[1]) * 1000;
	else if (*count == 3)
		*ms = ((v[0] * 60 + v[1]) * 60 + v[2]) * 1000;
	return i - at;
}

/*
 * "( 0:16/00:00:16)": the time of the move, then the mover's running
 * total; the total may be missing ("( 0:7/)" from 81Dojo, or no '/').
 * Returns the bytes read, 0 after an error.
 */
static size_t
read_time(struct kk *st, size_t at, int ply, int64_t *t, int64_t *total)
{
	const char *p = st->p;
	size_t n = st->n, i = at + 1, k;
	int count;

	if (!(k = read_clock(p, n, i, t, &count)) || count < 2) {
		kk_error(st, DIAG_SYNTAX, at, n - at, ply,
		    "bad time field '%.*s'", kk_qlen(p + at, n - at), p + at);
		return 0;
	}
	i += k;
	while (i < n && p[i] == ' ')
		i++;
	if (i < n && p[i] == '/') {
		i++;
		while (i < n && p[i] == ' ')
			i++;
		if (i < n && p[i] != ')') {
			if (!(k = read_clock(p, n, i, total, &count)) ||
			    count < 2) {
				kk_error(st, DIAG_SYNTAX, i, n - i, ply,
				    "bad running total in '%.*s'",
				    kk_qlen(p + at, n - at), p + at);
				return 0;
			}
			i += k;
			while (i < n && p[i] == ' ')
				i++;
		}
	}
	if (i >= n || p[i] != ')') {
		kk_error(st, DIAG_SYNTAX, i, i < n ? 1 : 0, ply,
		    "time field '%.*s' does not end with ')'",
		    kk_qlen(p + at, n - at), p + at);
		return 0;
	}
	return i + 1 - at;
}

static void
add_hms(char *buf, size_t size, int64_t ms)
{
	int64_t s = ms / 1000;

	snprintf(buf, size, "%lld:%02lld:%02lld", (long long)(s / 3600),
	    (long long)(s / 60 % 60), (long long)(s % 60));
}

/*
 * The running total a line states should be the mover's previous total
 * (two nodes up, on this node's own path) plus this move's time. Edited
 * files break it; it is reported, never corrected.
 */
static void
check_total(struct kk *st, int32_t node, size_t at, size_t len)
{
	const struct record *r = st->r;
	const struct record_node *nd = &r->nodes[node];
	int64_t prev = 0;
	char want[32], got[32];

	if (nd->time_ms < 0 || nd->total_ms < 0)
		return;
	if (nd->ply > 2)
		prev = r->nodes[r->nodes[nd->parent].parent].total_ms;
	if (prev < 0 || prev + nd->time_ms == nd->total_ms)
		return;
	/* A file whose totals are all wrong says so once, not per move. */
	if (++st->time_warnings > TIME_WARNINGS) {
		if (st->time_warnings == TIME_WARNINGS + 1)
			kk_warning(st, DIAG_TIME, at, len, nd->ply,
			    "more running totals do not add up; not reported");
		return;
	}
	add_hms(want, sizeof(want), prev + nd->time_ms);
	add_hms(got, sizeof(got), nd->total_ms);
	kk_warning(st, DIAG_TIME, at, len, nd->ply,
	    "running total %s, but the previous total and this move's time "
	    "make %s", got, want);
}

/* Whether the move text at p starts with a destination. */
static int
starts_move(const char *p, size_t n)
{
	int d;

	return kakinoki_read_digit(p, n, &d) || (n >= 3 &&
	    memcmp(p, "同", 3) == 0);
}

/* A terminal word runs up to a blank or the time field. */
static size_t
word_end(const char *p, size_t n, size_t i)
{
	while (i < n && p[i] != ' ' && p[i] != '\t' && p[i] != '(' &&
	    kk_skip_blanks(p, n, i) == i)
		i += kk_char_len(p + i, n - i);
	return i;
}

/* The number that starts a move line; 0 bytes after an error. */
static size_t
read_move_number(struct kk *st, size_t at, int *num)
{
	size_t i = at;

	*num = 0;
	while (i < st->n && is_digit(st->p[i])) {
		if (i - at == NUMBER_DIGITS) {
			kk_error(st, DIAG_SYNTAX, at, i - at, 0,
			    "move number too long");
			return 0;
		}
		*num = *num * 10 + (st->p[i++] - '0');
	}
	return i - at;
}

static int
read_move_line(struct kk *st)
{
	const char *p = st->p;
	size_t n = st->n, num_at = kk_skip_blanks(p, n, 0), i, k, body, end;
	int64_t t = -1, total = -1;
	size_t time_at = 0, time_len = 0;
	enum special sp = SP_NONE;
	struct move_spec spec;
	enum color c;
	int num, ply;
	int32_t node;

	if (!(k = read_move_number(st, num_at, &num)))
		return -1;
	i = kk_skip_blanks(p, n, num_at + k);
	if (kk_settle(st) < 0)
		return -1;
	ply = kk_next_ply(st);
	if (i == n)
		return kk_error(st, DIAG_SYNTAX, num_at, k, num,
		    "move number without a move");
	memset(&spec, 0, sizeof(spec));
	spec.color = -1;
	spec.from = spec.to = SQ_NONE;
	if ((k = kakinoki_read_mark(p + i, n - i, &c))) {
		spec.color = (int8_t)c;
		i = kk_skip_blanks(p, n, i + k);
	}
	body = i;
	if (starts_move(p + i, n - i)) {
		if (!(k = kk_read_move(st, i, n, 0, num, &spec)))
			return -1;
		end = i + k;
	} else {
		enum piece_type pt;

		end = word_end(p, n, i);
		if (end == i)
			return kk_error(st, DIAG_SYNTAX, i, 1, num,
			    "no move after the move number");
		sp = kakinoki_special_by_word(p + i, end - i);
		if (sp == SP_NONE && kakinoki_read_piece(p + i, n - i, &pt))
			return kk_error(st, DIAG_SYNTAX, i, end - i, num,
			    "move '%.*s' without a destination",
			    kk_qlen(p + i, end - i), p + i);
		if (sp == SP_NONE)
			sp = SP_UNKNOWN;
	}
	i = kk_skip_blanks(p, n, end);
	if (i < n && p[i] == '(') {
		time_at = i;
		if (!(k = read_time(st, i, num, &t, &total)))
			return -1;
		time_len = k;
		i = kk_skip_blanks(p, n, i + k);
	}
	/* '+': a variation branches here (informational). */
	if (i < n && p[i] == '+')
		i = kk_skip_blanks(p, n, i + 1);
	if (i != n)
		return kk_error(st, DIAG_SYNTAX, i, n - i, num,
		    "unexpected '%.*s' after the move", kk_qlen(p + i, n - i),
		    p + i);
	if (kk_ended(st))
		return kk_after_end(st, body, end - body);
	if (num != ply)
		return kk_error(st, DIAG_SYNTAX, num_at, n - num_at, ply,
		    "move number %d where %d should follow", num, ply);
	if (sp == SP_UNKNOWN)
		kk_warning(st, DIAG_SYNTAX, body, end - body, ply,
		    "unknown terminal '%.*s'", kk_qlen(p + body, end - body),
		    p + body);
	node = kk_add(st, sp == SP_NONE ? &spec : NULL, sp, body, end - body);
	st->r->nodes[node].time_ms = t;
	st->r->nodes[node].total_ms = total;
	if (time_len)
		check_total(st, node, time_at, time_len);
	return 0;
}

/*
 * A move line starts with its number. The file numbers above a board
 * are no move line, even written in ASCII.
 */
static int
is_move_line(const struct kk *st)
{
	size_t i = kk_skip_blanks(st->p, st->n, 0);

	return i < st->n && is_digit(st->p[i]) &&
	    !kk_column_header_files(st);
}

static const struct kk_format format = {
	0, is_move_line, read_move_line
};

enum read_status
kif_read(struct reader *rd, struct record *out, struct diag_list *d)
{
	return kk_read(rd, out, d, &format);
}

int
kif_detect(const struct text *t)
{
	struct kk_evidence e;
	int score;

	kk_gather_evidence(t, DETECT_LINES, &e);
	if (!e.kif_moves && !e.separators && !e.kif_hash && !e.known)
		return 0;
	if (e.ki2_moves > e.kif_moves)
		return 5;
	score = 40 * e.separators + 20 * e.kif_moves + 40 * e.kif_hash +
	    10 * e.known;
	if (score > 100)
		score = 100;
	return e.unknown > e.kif_moves + e.known ? score / 4 : score;
}
