/*
 * diagram.c - the position `kifu show` draws, and its board for the
 * terminal: a KIF board diagram (parsers/kakinoki.c draws it, as for BOD)
 * or CSA position lines, each of which reads back as its format.
 */
#include <stdio.h>
#include <string.h>

#include "picture/diagram.h"
#include "core/replay.h"
#include "parsers/jkf.h"
#include "parsers/kakinoki.h"

const enum piece_type diagram_hand_order[DIAGRAM_HAND_KINDS] = {
	PT_ROOK, PT_BISHOP, PT_GOLD, PT_SILVER, PT_KNIGHT, PT_LANCE, PT_PAWN
};

static const char *
header_value(const struct record *r, enum header_id id)
{
	const struct record_header *h = record_find_header(r, id);

	return h ? record_str(r, h->value) : "";
}

void
diagram_start(struct diagram *dg, const struct record *r)
{
	memset(dg, 0, sizeof(*dg));
	dg->pos = r->start;
	dg->last = MOVE_NONE;
	dg->number = r->start.move_number - 1;
	dg->hg = kakinoki_handicap_labels(r);
	dg->name[BLACK] = header_value(r, HDR_BLACK);
	dg->name[WHITE] = header_value(r, HDR_WHITE);
}

/* Writes sb's text into a fixed field, cut at a character if need be. */
static void
take(char *dst, size_t size, const struct strbuf *sb)
{
	size_t n = sb->len < size - 1 ? sb->len : size - 1;

	while (n > 0 && n < sb->len && ((unsigned char)sb->buf[n] & 0xc0) ==
	    0x80)
		n--;
	memcpy(dst, sb->buf, n);
	dst[n] = '\0';
}

void
diagram_play(struct diagram *dg, const struct record *r, int32_t i)
{
	struct strbuf sb = STRBUF_INIT;
	move m = r->nodes[i].mv;
	int same = kakinoki_is_same(r, i);
	struct undo u;

	kakinoki_write_move(&sb, m, same);
	take(dg->kif, sizeof(dg->kif), &sb);
	strbuf_reset(&sb);
	/* KI2's relative words are about the position before the move. */
	kakinoki_write_ki2_move(&sb, &dg->pos, m, same);
	take(dg->ki2, sizeof(dg->ki2), &sb);
	strbuf_release(&sb);
	snprintf(dg->csa, sizeof(dg->csa), "%c%c%c%d%d%s",
	    piece_color(move_piece(m)) == BLACK ? '+' : '-',
	    move_is_drop(m) ? '0' : '1' + sq_file(move_from(m)),
	    move_is_drop(m) ? '0' : '1' + sq_rank(move_from(m)),
	    sq_file(move_to(m)) + 1, sq_rank(move_to(m)) + 1,
	    jkf_kind(piece_type_of(move_piece_after(m))));
	position_do_move(&dg->pos, m, &u);
	dg->last = m;
	dg->number++;
}

int
diagram_at(struct diagram *dg, const struct record *r, int ply)
{
	struct position after;
	int32_t last;
	int played = record_main_position(r, ply, &after, &last);

	diagram_start(dg, r);
	if (played > 0) {
		/* The position before the last move, for its KI2 words. */
		record_main_position(r, played - 1, &dg->pos, &last);
		dg->number += played - 1;
		diagram_play(dg, r, r->nodes[last].next);
	}
	return played;
}

const char *
diagram_side_label(const struct diagram *dg, enum color c)
{
	if (dg->hg)
		return c == BLACK ? "下手" : "上手";
	return c == BLACK ? "先手" : "後手";
}

/* Text from a record, with no control character to drive the terminal. */
static void
add_clean(struct strbuf *sb, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	for (; *u; u++) {
		/* C0 controls, DEL, and C1 controls (U+0080-U+009F). */
		if (*u < 0x20 || *u == 0x7f) {
			strbuf_addc(sb, '?');
		} else if (*u == 0xc2 && u[1] >= 0x80 && u[1] <= 0x9f) {
			strbuf_addc(sb, '?');
			u++;
		} else {
			strbuf_addc(sb, (char)*u);
		}
	}
}

static void
text_kanji(const struct diagram *dg, const struct text_style *st,
    struct strbuf *out)
{
	struct strbuf trailer = STRBUF_INIT;
	struct bod_style bs;
	enum color c;

	/* As BOD does: a reader takes a board for 9x9 unless told. */
	if (dg->pos.v == variant_minishogi())
		kakinoki_write_handicap_line(
		    kakinoki_handicap_name(HANDICAP_MINISHOGI), out);
	for (c = BLACK; c <= WHITE; c++)
		if (*dg->name[c]) {
			strbuf_adds(out, diagram_side_label(dg, c));
			strbuf_adds(out, "：");
			add_clean(out, dg->name[c]);
			strbuf_addc(out, '\n');
		}
	if (dg->last != MOVE_NONE)
		strbuf_addf(&trailer, "手数＝%d  %s%s  まで", dg->number,
		    kakinoki_mark(piece_color(move_piece(dg->last))), dg->kif);
	else if (dg->number > 0)
		strbuf_addf(&trailer, "手数＝%d", dg->number);
	bs.mark = st->colour && dg->last != MOVE_NONE ? move_to(dg->last) :
	    SQ_NONE;
	bs.on = DIAGRAM_MARK_ON;
	bs.off = DIAGRAM_MARK_OFF;
	bs.side_always = 1;
	kakinoki_write_bod_styled(&dg->pos, dg->hg, trailer.len ?
	    trailer.buf : NULL, &bs, out);
	strbuf_release(&trailer);
}

static void
text_ascii(const struct diagram *dg, const struct text_style *st,
    struct strbuf *out)
{
	const struct position *pos = &dg->pos;
	int files = pos->v->files, ranks = pos->v->ranks, f, rk, k;
	square mark = st->colour && dg->last != MOVE_NONE ?
	    move_to(dg->last) : SQ_NONE;
	size_t i;
	enum color c;

	for (c = BLACK; c <= WHITE; c++)
		if (*dg->name[c]) {
			strbuf_adds(out, c == BLACK ? "N+" : "N-");
			add_clean(out, dg->name[c]);
			strbuf_addc(out, '\n');
		}
	strbuf_addc(out, '\'');
	for (f = files; f >= 1; f--)
		strbuf_addf(out, "  %d", f);
	strbuf_addc(out, '\n');
	for (rk = 0; rk < ranks; rk++) {
		strbuf_addf(out, "P%d", rk + 1);
		for (f = files - 1; f >= 0; f--) {
			square sq = sq_make(f, rk);
			piece p = pos->board[sq];

			if (sq == mark)
				strbuf_adds(out, DIAGRAM_MARK_ON);
			if (p == PIECE_NONE)
				strbuf_adds(out, " * ");
			else
				strbuf_addf(out, "%c%s", piece_color(p) ==
				    BLACK ? '+' : '-',
				    jkf_kind(piece_type_of(p)));
			if (sq == mark)
				strbuf_adds(out, DIAGRAM_MARK_OFF);
		}
		strbuf_addc(out, '\n');
	}
	for (c = BLACK; c <= WHITE; c++) {
		strbuf_adds(out, c == BLACK ? "P+" : "P-");
		for (i = 0; i < DIAGRAM_HAND_KINDS; i++)
			for (k = 0; k < pos->hand[c][diagram_hand_order[i]];
			    k++)
				strbuf_addf(out, "00%s",
				    jkf_kind(diagram_hand_order[i]));
		strbuf_addc(out, '\n');
	}
	if (dg->last != MOVE_NONE)
		strbuf_addf(out, "'%d: %s\n", dg->number, dg->csa);
	else if (dg->number > 0)
		strbuf_addf(out, "'%d\n", dg->number);
	strbuf_adds(out, pos->side == BLACK ? "+\n" : "-\n");
}

void
diagram_text(const struct diagram *dg, const struct text_style *st,
    struct strbuf *out)
{
	if (st->ascii)
		text_ascii(dg, st, out);
	else
		text_kanji(dg, st, out);
}
