/*
 * mateio.c - answers and findings as text and JSON (see mateio.h).
 */
#include <string.h>

#include "core/sfen.h"
#include "core/usi.h"
#include "mateio.h"
#include "parsers/kakinoki.h"

const char *
mateio_rules_name(enum mate_rules r)
{
	return r == MATE_PROBLEM ? "problem" : "game";
}

int
mateio_rules_by_name(const char *name, enum mate_rules *out)
{
	if (strcmp(name, "game") == 0)
		*out = MATE_GAME;
	else if (strcmp(name, "problem") == 0)
		*out = MATE_PROBLEM;
	else
		return -1;
	return 0;
}

/*
 * The moves from pos; prev is where the move before the first landed
 * (for 同), SQ_NONE when none.
 */
static void
moves_text(struct strbuf *out, enum color side, square prev, const move *m,
    int n, int kanji)
{
	int i;

	for (i = 0; i < n; i++) {
		if (i)
			strbuf_addc(out, ' ');
		if (kanji) {
			strbuf_adds(out, side == BLACK ? "▲" : "△");
			kakinoki_write_move(out, m[i], prev == move_to(m[i]));
		} else {
			char buf[USI_MOVE_MAX];

			usi_format_move(m[i], buf);
			strbuf_adds(out, buf);
		}
		prev = move_to(m[i]);
		side = color_flip(side);
	}
}

void
mateio_line(struct strbuf *out, const struct position *pos,
    const struct mate_line *line, int kanji)
{
	moves_text(out, pos->side, SQ_NONE, line->m, line->n, kanji);
}

void
mateio_result_text(struct strbuf *out, const struct position *pos,
    const struct mate_result *r, int kanji)
{
	if (r->status == MATE_MATE) {
		strbuf_addf(out, "mate %d: ", r->length);
		mateio_line(out, pos, &r->line, kanji);
	} else {
		strbuf_adds(out, mate_status_name(r->status));
	}
}

static void
json_moves(struct strbuf *out, const char *key, const struct position *pos,
    square prev, const move *m, int n, int kanji)
{
	enum color side = pos->side;
	int i;

	strbuf_addf(out, ", \"%s\": [", key);
	for (i = 0; i < n; i++) {
		struct strbuf one = STRBUF_INIT;

		moves_text(&one, side, prev, m + i, 1, kanji);
		if (i)
			strbuf_adds(out, ", ");
		strbuf_add_json_quoted(out, one.buf);
		strbuf_release(&one);
		prev = move_to(m[i]);
		side = color_flip(side);
	}
	strbuf_addc(out, ']');
}

void
mateio_result_json(struct strbuf *out, const struct position *pos,
    enum mate_rules rules, const struct mate_result *r, int kanji)
{
	char sfen[SFEN_MAX];

	sfen_write(pos, sfen);
	strbuf_adds(out, ", \"sfen\": ");
	strbuf_add_json_quoted(out, sfen);
	strbuf_addf(out, ", \"rules\": \"%s\", \"status\": \"%s\"",
	    mateio_rules_name(rules), mate_status_name(r->status));
	if (r->status == MATE_MATE) {
		strbuf_addf(out, ", \"length\": %d", r->length);
		json_moves(out, "line", pos, SQ_NONE, r->line.m, r->line.n, 0);
		if (kanji)
			json_moves(out, "line_kif", pos, SQ_NONE, r->line.m,
			    r->line.n, 1);
	} else {
		strbuf_adds(out, ", \"length\": null, \"line\": []");
	}
	if (r->status == MATE_UNKNOWN) {
		strbuf_addf(out, ", \"stop\": \"%s\"", mate_stop_name(r->stop));
		if (r->found >= 0) {
			strbuf_addf(out, ", \"found\": %d", r->found);
			json_moves(out, "found_line", pos, SQ_NONE,
			    r->found_line.m, r->found_line.n, 0);
		}
	}
	strbuf_addf(out, ", \"nodes\": %llu, \"time\": %.3f",
	    (unsigned long long)r->nodes, r->seconds);
}

/* --- a problem check ---------------------------------------------------------- */

/* The position before ply `ply` (1-based) of the solution. */
static void
before_ply(const struct position *start, const move *sol, int ply,
    struct position *out, square *prev)
{
	int i;

	*out = *start;
	*prev = SQ_NONE;
	for (i = 0; i + 1 < ply; i++) {
		struct undo u;

		position_do_move(out, sol[i], &u);
		*prev = move_to(sol[i]);
	}
}

static const char *const hand_kanji[HAND_NB] = {
	"", "歩", "香", "桂", "銀", "角", "飛", "金"
};

/* The attacker's pieces left after the solution: "2P G" or "歩二 金". */
static void
hand_text(struct strbuf *out, const struct position *pos, enum color c,
    int kanji)
{
	static const enum piece_type order[] = {
		PT_ROOK, PT_BISHOP, PT_GOLD, PT_SILVER, PT_KNIGHT, PT_LANCE,
		PT_PAWN
	};
	static const char *const num[] = {
		"", "", "二", "三", "四", "五", "六", "七", "八", "九", "十",
		"十一", "十二", "十三", "十四", "十五", "十六", "十七", "十八"
	};
	size_t i;
	int first = 1;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		int n = pos->hand[c][order[i]];

		if (!n)
			continue;
		if (!first)
			strbuf_addc(out, ' ');
		first = 0;
		if (kanji) {
			strbuf_adds(out, hand_kanji[order[i]]);
			strbuf_adds(out, n < 19 ? num[n] : "?");
		} else {
			if (n > 1)
				strbuf_addf(out, "%d", n);
			strbuf_addc(out, sfen_piece_letter(order[i]));
		}
	}
}

static void
finding_text(struct strbuf *out, const struct position *start,
    const move *sol, const struct tsume_report *r,
    const struct tsume_finding *f, int kanji)
{
	struct position pos;
	square prev;

	before_ply(start, sol, f->ply > 0 ? f->ply : 1, &pos, &prev);
	strbuf_adds(out, tsume_finding_unsound(f->kind) ||
	    f->kind == TF_UNDECIDED ? "  " : "  note: ");
	if (f->ply > 0)
		strbuf_addf(out, "ply %d: ", f->ply);
	strbuf_adds(out, tsume_finding_text(f->kind));
	switch (f->kind) {
	case TF_PIECES_LEFT: {
		struct position end;

		before_ply(start, sol, r->length + 1, &end, &prev);
		strbuf_adds(out, ": ");
		hand_text(out, &end, start->side, kanji);
		break;
	}
	case TF_LENGTH:
		strbuf_addf(out, ": %d %s, not %d", f->length,
		    f->length == 1 ? "ply" : "plies", r->length);
		if (r->exact_line.n) {
			strbuf_adds(out, ": ");
			mateio_line(out, start, &r->exact_line, kanji);
		}
		break;
	default:
		if (f->line.n || f->m)
			strbuf_adds(out, ": ");
		/*
		 * A reason shows its line (up to 40 moves: --json has it
		 * whole); a note its move.
		 */
		if (f->line.n && tsume_finding_unsound(f->kind)) {
			moves_text(out, pos.side, prev, f->line.m,
			    f->line.n < 40 ? f->line.n : 40, kanji);
			if (f->line.n > 40)
				strbuf_adds(out, " ...");
		} else if (f->m) {
			moves_text(out, pos.side, prev, &f->m, 1, kanji);
		}
		if (f->length >= 0 && f->kind != TF_LAST_ALT)
			strbuf_addf(out, " (mate in %d)", f->length);
	}
	strbuf_addc(out, '\n');
}

void
mateio_report_text(struct strbuf *out, const struct position *start,
    const move *sol, const struct tsume_report *r, int kanji)
{
	int i;

	strbuf_addf(out, "%s: mate in %d", tsume_verdict_name(r->verdict),
	    r->length);
	if (r->exact >= 0 && r->exact != r->length)
		strbuf_addf(out, " written, exact length %d", r->exact);
	strbuf_addc(out, '\n');
	/* Reasons first, then the notes. */
	for (i = 0; i < r->nf; i++)
		if (tsume_finding_unsound(r->f[i].kind) ||
		    r->f[i].kind == TF_UNDECIDED)
			finding_text(out, start, sol, r, &r->f[i], kanji);
	for (i = 0; i < r->nf; i++)
		if (!tsume_finding_unsound(r->f[i].kind) &&
		    r->f[i].kind != TF_UNDECIDED)
			finding_text(out, start, sol, r, &r->f[i], kanji);
}

void
mateio_report_json(struct strbuf *out, const struct position *start,
    const move *sol, enum mate_rules rules, const struct tsume_report *r,
    int kanji)
{
	char sfen[SFEN_MAX];
	int i, pass;

	sfen_write(start, sfen);
	strbuf_adds(out, ", \"sfen\": ");
	strbuf_add_json_quoted(out, sfen);
	strbuf_addf(out, ", \"rules\": \"%s\", \"status\": \"%s\", "
	    "\"length\": %d, \"exact\": ", mateio_rules_name(rules),
	    tsume_verdict_name(r->verdict), r->length);
	if (r->exact >= 0)
		strbuf_addf(out, "%d", r->exact);
	else
		strbuf_adds(out, "null");
	if (r->exact_line.n)
		json_moves(out, "exact_line", start, SQ_NONE, r->exact_line.m,
		    r->exact_line.n, 0);
	for (pass = 0; pass < 2; pass++) {
		int first = 1;

		strbuf_adds(out, pass ? ", \"notes\": [" : ", \"reasons\": [");
		for (i = 0; i < r->nf; i++) {
			const struct tsume_finding *f = &r->f[i];
			int reason = tsume_finding_unsound(f->kind) ||
			    f->kind == TF_UNDECIDED;
			struct position pos;
			square prev;

			if (reason == pass)
				continue;
			before_ply(start, sol, f->ply > 0 ? f->ply : 1, &pos,
			    &prev);
			strbuf_adds(out, first ? "{" : ", {");
			first = 0;
			strbuf_addf(out, "\"kind\": \"%s\", \"ply\": %d",
			    tsume_finding_id(f->kind), f->ply);
			if (f->m)
				json_moves(out, "move", &pos, prev, &f->m, 1, 0);
			if (f->m && kanji)
				json_moves(out, "move_kif", &pos, prev, &f->m, 1,
				    1);
			if (f->length >= 0)
				strbuf_addf(out, ", \"length\": %d", f->length);
			if (f->kind == TF_PIECES_LEFT)
				strbuf_addf(out, ", \"pieces\": %d", f->pieces);
			if (f->line.n)
				json_moves(out, "line", &pos, prev, f->line.m,
				    f->line.n, 0);
			if (f->line.n && kanji)
				json_moves(out, "line_kif", &pos, prev,
				    f->line.m, f->line.n, 1);
			strbuf_addc(out, '}');
		}
		strbuf_addc(out, ']');
	}
	strbuf_addf(out, ", \"nodes\": %llu, \"time\": %.3f",
	    (unsigned long long)r->nodes, r->seconds);
}
