/*
 * annotate.c - analysis comments (annotate.h): the blocks written, and
 * kifu's earlier ones found and replaced.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "parsers/format.h"
#include "parsers/kakinoki.h"

/* The lines a marker may count: kifu's forms, and nothing else. */
static const char *const forms[] = {
	"#評価値=", "#読み筋=", "#深さ=", "#ノード数=", "#エンジン=", "#詰み=",
	"*解析 ", "** ",
};

static int
is_form(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		size_t k = strlen(forms[i]);

		if (n >= k && !memcmp(s, forms[i], k))
			return 1;
	}
	return 0;
}

int
annotate_is_marker(const char *s, size_t n, int *count)
{
	size_t k = strlen(ANNOTATE_MARKER), i;
	int c = 0;

	if (n < k || memcmp(s, ANNOTATE_MARKER, k))
		return 0;
	for (i = k; i < n && s[i] >= '0' && s[i] <= '9' && c < 1000; i++)
		c = c * 10 + (s[i] - '0');
	if (i == k || n - i < 5 || memcmp(s + i, " line", 5))
		return 0;
	*count = c;
	return 1;
}

/* "; 悪手 (loss 412)" in the marker line s (n bytes). */
static void
read_judgement(const char *s, size_t n, enum analyze_class *cls,
    long long *loss)
{
	int c;

	for (c = CLASS_BLUNDER; c > CLASS_NONE; c--) {
		const char *name = analyze_class_ja((enum analyze_class)c);
		size_t k = strlen(name), i;

		for (i = 0; i + k + 2 + 7 <= n; i++) {
			const char *p = s + i;
			long long v = 0;
			size_t j;

			if (memcmp(p, "; ", 2) || memcmp(p + 2, name, k) ||
			    memcmp(p + 2 + k, " (loss ", 7))
				continue;
			for (j = i + 2 + k + 7; j < n && s[j] >= '0' &&
			    s[j] <= '9' && v < ANALYZE_MATE * 2; j++)
				v = v * 10 + (s[j] - '0');
			if (j == i + 2 + k + 7 || j == n || s[j] != ')')
				continue;
			*cls = (enum analyze_class)c;
			*loss = v;
			return;
		}
	}
}

int
annotate_read_class(const char *comment, enum analyze_class *cls,
    long long *loss)
{
	const char *p = comment;
	int count;

	*cls = CLASS_NONE;
	*loss = -1;
	while (p && *p) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (annotate_is_marker(p, n, &count)) {
			read_judgement(p, n, cls, loss);
			return 1;
		}
		p = e ? e + 1 : NULL;
	}
	return 0;
}

/* --- the block --------------------------------------------------------- */

/* A score as the comment forms write it: Black's view, a mate +-30000. */
static long long
black_value(const struct usi_score *s, enum color side)
{
	long long v = s->kind == USI_SCORE_CP ? s->cp : s->sign < 0 ?
	    -ANALYZE_CP_MAX : ANALYZE_CP_MAX;

	return side == WHITE ? -v : v;
}

/* The moves of a line: its PV, else the bestmove and ponder. */
static int
line_moves(const struct usi_result *r, const struct usi_line *l, move *mv)
{
	int n = 0;

	if (l && l->npv) {
		memcpy(mv, l->pv, (size_t)l->npv * sizeof(*mv));
		return l->npv;
	}
	if (r->best_kind == USI_BEST_MOVE) {
		mv[n++] = r->best;
		if (r->ponder)
			mv[n++] = r->ponder;
	}
	return n;
}

/*
 * The PV as KIF moves from pos: "▲７六歩(77) △同　歩(33)" (ShogiGUI),
 * or with kif == 0 as ShogiHome writes it: "▲７六歩△同　歩". last: the
 * square the move before landed on, for 同 (SQ_NONE: none).
 */
static void
add_pv(struct strbuf *out, const struct position *from, const move *mv,
    int n, square last, int kif)
{
	struct position pos = *from;
	int k;

	for (k = 0; k < n; k++) {
		struct undo u;
		int same = move_to(mv[k]) == last;

		if (kif && k)
			strbuf_addc(out, ' ');
		strbuf_adds(out, kakinoki_mark(pos.side));
		if (kif)
			kakinoki_write_move(out, mv[k], same);
		else
			kakinoki_write_ki2_move(out, &pos, mv[k], same);
		last = move_to(mv[k]);
		position_do_move(&pos, mv[k], &u);
	}
}

static void
add_time(struct strbuf *out, long long ms)
{
	strbuf_addf(out, " 時間 %02lld:%02lld.%lld", ms / 60000,
	    (ms / 1000) % 60, (ms / 100) % 10);
}

static void
shogihome(struct strbuf *b, int *lines, const struct analyze_pos *p,
    const struct position *pos, square last, const char *engine)
{
	const struct usi_result *r = &p->r;
	const struct usi_line *l = r->nlines ? &r->lines[0] : NULL;
	move mv[USI_PV_MAX + 2];
	int n = line_moves(r, l, mv);

	if (l && l->score.kind == USI_SCORE_MATE) {
		int black_wins = (l->score.sign > 0) == (p->side == BLACK);

		strbuf_addf(b, "\n#詰み=%s", black_wins ? "先手勝ち" :
		    "後手勝ち");
		if (l->score.mate_known)
			strbuf_addf(b, ":%d手", l->score.plies);
		(*lines)++;
	}
	if (l && l->score.kind != USI_SCORE_NONE) {
		strbuf_addf(b, "\n#評価値=%lld", black_value(&l->score, p->side));
		(*lines)++;
	}
	if (n) {
		strbuf_adds(b, "\n#読み筋=");
		add_pv(b, pos, mv, n, last, 0);
		(*lines)++;
	}
	if (l && l->depth >= 0) {
		strbuf_addf(b, "\n#深さ=%d", l->depth);
		(*lines)++;
	}
	if ((l && l->nodes >= 0) || r->nodes >= 0) {
		strbuf_addf(b, "\n#ノード数=%lld", l && l->nodes >= 0 ? l->nodes :
		    r->nodes);
		(*lines)++;
	}
	strbuf_addf(b, "\n#エンジン=%s", engine);
	(*lines)++;
}

static void
shogigui_line(struct strbuf *b, const struct analyze_pos *p,
    const struct usi_line *l, int rank, const struct position *pos,
    square last)
{
	const struct usi_result *r = &p->r;
	move mv[USI_PV_MAX + 2];
	int n = line_moves(r, l, mv);
	long long t = l && l->time_ms >= 0 ? l->time_ms : r->time_ms;

	strbuf_addf(b, "\n*解析 0  候補%d", rank);
	if (t >= 0)
		add_time(b, t);
	if (l && l->depth >= 0) {
		strbuf_addf(b, " 深さ %d", l->depth);
		if (l->seldepth >= 0)
			strbuf_addf(b, "/%d", l->seldepth);
	}
	if (l && l->nodes >= 0)
		strbuf_addf(b, " ノード数 %lld", l->nodes);
	if (l && l->score.kind != USI_SCORE_NONE) {
		strbuf_addf(b, " 評価値 %lld", black_value(&l->score, p->side));
		if (l->score.bound == USI_BOUND_LOWER)
			strbuf_adds(b, "↑");
		else if (l->score.bound == USI_BOUND_UPPER)
			strbuf_adds(b, "↓");
	}
	if (n) {
		strbuf_adds(b, " 読み筋 ");
		add_pv(b, pos, mv, n, last, 1);
	}
}

void
annotate_block(const struct record *r, const struct analyze_record *ar,
    const struct analyze_pos *p, const struct analyze_opts *o, int csa,
    struct strbuf *out)
{
	const struct usi_result *res = &p->r;
	const struct usi_line *l = res->nlines ? &res->lines[0] : NULL;
	const char *engine = o->engine_name ? o->engine_name : "";
	struct strbuf body = STRBUF_INIT;
	struct position pos;
	square last = p->node ? move_to(r->nodes[p->node].mv) : SQ_NONE;
	int lines = 0, k;

	(void)ar;
	if (p->status != AN_SEARCHED && p->status != AN_CACHED)
		return;
	analyze_node_position(r, p->node, &pos);
	if (o->comments & ANALYZE_SHOGIHOME)
		shogihome(&body, &lines, p, &pos, last, engine);
	if (o->comments & ANALYZE_SHOGIGUI) {
		for (k = 0; k < res->nlines; k++, lines++)
			shogigui_line(&body, p, &res->lines[k], k + 1, &pos, last);
		if (!res->nlines) {
			shogigui_line(&body, p, NULL, 1, &pos, last);
			lines++;
		}
	}
	if (csa && l && l->score.kind != USI_SCORE_NONE) {
		move mv[USI_PV_MAX + 2];
		int n = line_moves(res, l, mv);
		char buf[8];

		strbuf_addf(&body, "\n** %lld", black_value(&l->score, p->side));
		for (k = 0; k < n; k++) {
			csa_format_move(mv[k], buf);
			strbuf_addf(&body, " %s", buf);
		}
		lines++;
	}
	strbuf_addf(out, "%s%d line%s; %s; %s %lld", ANNOTATE_MARKER, lines,
	    lines == 1 ? "" : "s", engine, usi_limit_name(o->limit.kind),
	    o->limit.value);
	if (!l || l->score.kind == USI_SCORE_NONE)
		strbuf_adds(out, "; no score");
	if (p->judged && p->cls != CLASS_NONE)
		strbuf_addf(out, "; %s (loss %lld)", analyze_class_ja(p->cls),
		    p->loss);
	strbuf_add(out, body.buf ? body.buf : "", body.len);
	strbuf_release(&body);
}

/* --- replacing --------------------------------------------------------- */

void
annotate_replace(const char *old, const char *block, struct strbuf *out)
{
	const char *p;
	int placed = 0, skip = 0, first = 1;

	if (!old)
		old = "";
	p = old;
	if (!*block) {
		/* Nothing new: what was there stays, kifu's too. */
		strbuf_adds(out, old);
		return;
	}
	/* Lines as '\n' splits them: a final '\n' ends with an empty line. */
	while (*old && p) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		int count;

		if (skip && is_form(p, n)) {
			skip--;
		} else if (annotate_is_marker(p, n, &count)) {
			skip = count;
			if (!placed && *block) {
				if (!first)
					strbuf_addc(out, '\n');
				strbuf_adds(out, block);
				first = 0;
			}
			placed = 1;
		} else {
			skip = 0;
			if (!first)
				strbuf_addc(out, '\n');
			strbuf_add(out, p, n);
			first = 0;
		}
		p = e ? e + 1 : NULL;
	}
	if (!placed) {
		if (!first)
			strbuf_addc(out, '\n');
		strbuf_adds(out, block);
	}
}

void
annotate_record(struct record *r, const struct analyze_record *ar,
    const struct analyze_opts *o, int csa)
{
	struct strbuf block = STRBUF_INIT, text = STRBUF_INIT;
	size_t i;

	if (!o->comments && !csa)
		return;
	for (i = 0; i < ar->n; i++) {
		const struct analyze_pos *p = &ar->v[i];
		struct record_node *n;

		strbuf_reset(&block);
		annotate_block(r, ar, p, o, csa, &block);
		if (!block.len)
			continue;
		strbuf_reset(&text);
		n = &r->nodes[p->node];
		annotate_replace(n->comment ? record_str(r, n->comment) : NULL,
		    block.buf, &text);
		/* Interned after the text is made: the pool may move. */
		r->nodes[p->node].comment = record_intern(r, text.buf, text.len);
	}
	strbuf_release(&block);
	strbuf_release(&text);
}
