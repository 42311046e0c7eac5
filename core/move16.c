/*
 * move16.c - 16-bit moves read back against their position.
 */
#include <stdarg.h>
#include <stdio.h>

#include "move16.h"
#include "rules.h"
#include "sfen.h"
#include "usi.h"

static int
fail(struct move16_error *err, const char *id, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
fail(struct move16_error *err, const char *id, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->id = id;
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* The fields of either form, before any rule is applied. */
static int
unpack(enum move16_form f, uint16_t m16, struct move_claim *c,
    struct move16_error *err)
{
	unsigned to = m16 & 0x7f, from = (m16 >> 7) & 0x7f;
	int drop, promote;

	if (f == MOVE16_CSHOGI) {
		if (m16 & 0x8000)
			return fail(err, "bad-move", "move 0x%04x: bit 15 is "
			    "not used by cshogi's form", m16);
		promote = (m16 >> 14) & 1;
		drop = from > 80;
		if (drop)
			from -= 80;
	} else {
		drop = (m16 >> 14) & 1;
		promote = (m16 >> 15) & 1;
	}
	if (m16 == 0)
		return fail(err, "no-move", "move 0 is no move");
	/* null 129, and YaneuraOu's resign 258 and win 387 */
	if (!drop && !promote && from == to && to >= 1 && to <= 3 &&
	    (to == 1 || f == MOVE16_YANEURAOU))
		return fail(err, "special-move", "move 0x%04x is '%s', not a "
		    "move played", m16, to == 1 ? "null" : to == 2 ?
		    "resign" : "win");
	if (to >= SQ_NB)
		return fail(err, "bad-move", "move 0x%04x: destination %u is "
		    "off the board", m16, to);
	if (drop && (from < PT_PAWN || from > PT_GOLD))
		return fail(err, "bad-move", "move 0x%04x: no piece type %u "
		    "to drop", m16, f == MOVE16_CSHOGI ? from + 80 : from);
	if (drop && promote)
		return fail(err, "bad-move", "move 0x%04x: a drop that "
		    "promotes", m16);
	if (!drop && from >= SQ_NB)
		return fail(err, "bad-move", "move 0x%04x: origin %u is off "
		    "the board", m16, from);
	if (!drop && from == to)
		return fail(err, "bad-move", "move 0x%04x: origin and "
		    "destination are both square %u", m16, to);
	c->drop = drop;
	c->from = drop ? SQ_NONE : (square)from;
	c->to = (square)to;
	c->piece = drop ? (enum piece_type)from : PT_NONE;
	c->promote = promote;
	return 0;
}

int
move16_decode(enum move16_form f, const struct position *pos, uint16_t m16,
    move *out, struct move16_error *err)
{
	struct move_claim c;
	enum rule_id r;
	char usi[USI_MOVE_MAX];

	if (unpack(f, m16, &c, err) < 0)
		return -1;
	if ((r = rules_check_move(pos, &c, out)) == RULE_OK)
		return 0;
	if (c.drop) {
		usi[0] = sfen_piece_letter(c.piece);
		usi[1] = '*';
		usi_format_square(c.to, usi + 2);
	} else {
		usi_format_square(c.from, usi);
		usi_format_square(c.to, usi + 2);
		usi[4] = c.promote ? '+' : '\0';
		usi[5] = '\0';
	}
	return fail(err, rule_id_name(r), "move 0x%04x (%s) is not legal "
	    "here: %s", m16, usi, rule_description(r));
}
