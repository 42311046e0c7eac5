/*
 * ki2.c - reading KI2 records (formats.md section 4).
 *
 * KI2 is KIF without move numbers, origins and times: headers, board,
 * comments, bookmarks and 変化 blocks are read by kakinoki_read.c, and
 * the moves are tokens that each start with a side mark, several on a
 * line. Kifu for Windows pads moves to a width, so a long one runs into
 * the next mark with nothing between ("▲同　銀不成△４二金寄"): the line
 * is cut at the marks, not at blanks. A token names the destination (or
 * 同), the piece, the relative words (右 左 直 上 寄 引, old 行 入),
 * 成/不成/打 and, in old files, the origin "(77)"; which piece moves is
 * left to replay, which knows the position.
 *
 * The result lives only in the まで line, which kakinoki_read.c turns
 * into the terminal it means. shogidb2 also writes the terminal as a
 * pseudo-move ("△投了"); it ends the line the same way.
 */
#include <string.h>

#include "kakinoki.h"
#include "kakinoki_read.h"

/* Lines detection looks at. */
#define DETECT_LINES 64

static int
starts_move(const char *p, size_t n)
{
	int d;

	return kakinoki_read_digit(p, n, &d) || (n >= 3 &&
	    memcmp(p, "同", 3) == 0);
}

/* Where the token starting at i ends if it is a word: the next mark. */
static size_t
word_end(const char *p, size_t n, size_t i)
{
	enum color c;

	while (i < n && kk_skip_blanks(p, n, i) == i &&
	    !kakinoki_read_mark(p + i, n - i, &c))
		i += kk_char_len(p + i, n - i);
	return i;
}

/* One token: a mark and a move or a terminal word. */
static int
read_token(struct kk *st, size_t at, size_t *next)
{
	const char *p = st->p;
	size_t n = st->n, i, k, end;
	enum special sp = SP_NONE;
	struct move_spec spec;
	enum color c;
	int ply;

	k = kakinoki_read_mark(p + at, n - at, &c);
	if (kk_settle(st) < 0)
		return -1;
	ply = kk_next_ply(st);
	memset(&spec, 0, sizeof(spec));
	spec.color = (int8_t)c;
	spec.from = spec.to = SQ_NONE;
	i = kk_skip_blanks(p, n, at + k);
	if (starts_move(p + i, n - i)) {
		if (!(k = kk_read_move(st, i, n, KK_KI2, ply, &spec)))
			return -1;
		end = i + k;
	} else {
		end = word_end(p, n, i);
		sp = kakinoki_special_by_word(p + i, end - i);
		if (sp == SP_NONE)
			return kk_error(st, DIAG_SYNTAX, i, end - i, ply,
			    "'%.*s' is no move", kk_qlen(p + i, end - i),
			    p + i);
	}
	*next = kk_skip_blanks(p, n, end);
	if (*next < n && !kakinoki_read_mark(p + *next, n - *next, &c))
		return kk_error(st, DIAG_SYNTAX, *next,
		    kk_char_len(p + *next, n - *next), ply,
		    "unexpected '%.*s' after the move",
		    (int)kk_char_len(p + *next, n - *next), p + *next);
	if (kk_ended(st))
		return kk_after_end(st, at, end - at);
	kk_add(st, sp == SP_NONE ? &spec : NULL, sp, at, end - at);
	return 0;
}

static int
read_move_line(struct kk *st)
{
	size_t i = kk_skip_blanks(st->p, st->n, 0);

	while (i < st->n)
		if (read_token(st, i, &i) < 0)
			return -1;
	return 0;
}

static int
is_move_line(const struct kk *st)
{
	size_t i = kk_skip_blanks(st->p, st->n, 0);
	enum color c;

	return kakinoki_read_mark(st->p + i, st->n - i, &c) != 0;
}

static const struct kk_format format = {
	1, is_move_line, read_move_line
};

enum read_status
ki2_read(struct reader *rd, struct record *out, struct diag_list *d)
{
	return kk_read(rd, out, d, &format);
}

int
ki2_detect(const struct text *t)
{
	struct kk_evidence e;
	int score;

	kk_gather_evidence(t, DETECT_LINES, &e);
	if (e.kif_moves || e.separators || e.kif_hash)
		return 0;
	if (!e.ki2_moves && !e.ki2_hash && !e.known)
		return 0;
	score = 25 * e.ki2_moves + 40 * e.ki2_hash + 10 * e.known;
	if (score > 100)
		score = 100;
	return e.unknown > e.ki2_moves + e.known ? score / 4 : score;
}
