#include "sfen.h"
#include "usi.h"

static int
parse_square(const struct variant *v, const char *s, square *sq)
{
	int f = s[0] - '1', r = s[1] - 'a';

	if (f < 0 || f >= v->files || r < 0 || r >= v->ranks)
		return -1;
	*sq = sq_make(f, r);
	return 0;
}

int
usi_parse_move(const struct variant *v, const char *s, size_t len,
    struct move_claim *c)
{
	c->drop = 0;
	c->from = SQ_NONE;
	c->piece = PT_NONE;
	c->promote = 0;
	if (len == 4 && s[1] == '*') {
		enum piece_type pt = sfen_letter_type(s[0]);

		/* USI writes drops with an upper-case letter for both sides. */
		if (s[0] < 'A' || s[0] > 'Z' || pt == PT_NONE || pt == PT_KING)
			return -1;
		c->drop = 1;
		c->piece = pt;
		return parse_square(v, s + 2, &c->to);
	}
	if (len == 5 && s[4] == '+')
		c->promote = 1;
	else if (len != 4)
		return -1;
	if (parse_square(v, s, &c->from) || parse_square(v, s + 2, &c->to))
		return -1;
	return 0;
}

void
usi_format_square(square sq, char buf[3])
{
	buf[0] = (char)('1' + sq_file(sq));
	buf[1] = (char)('a' + sq_rank(sq));
	buf[2] = '\0';
}

void
usi_format_move(move m, char buf[USI_MOVE_MAX])
{
	if (move_is_drop(m)) {
		buf[0] = sfen_piece_letter(move_drop_type(m));
		buf[1] = '*';
		usi_format_square(move_to(m), buf + 2);
		return;
	}
	usi_format_square(move_from(m), buf);
	usi_format_square(move_to(m), buf + 2);
	if (move_is_promotion(m)) {
		buf[4] = '+';
		buf[5] = '\0';
	}
}
