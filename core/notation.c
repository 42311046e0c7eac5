/*
 * notation.c - JSA relative words (formats.md 4.3 and 4.4).
 *
 * Writer and reader share one predicate, word_fits(): the writer picks
 * the first set of words (movement, then position, then both) that this
 * predicate grants to the moving piece alone, and the reader keeps the
 * candidates the predicate grants the words to. So whatever the writer
 * writes, the reader reads back as the one move.
 *
 * Only legal moves count as candidates: a piece that cannot legally go
 * to the square needs no telling apart (the rule says "can move there").
 */
#include "movegen.h"
#include "notation.h"

#define REL_MOVEMENT (REL_UP | REL_SIDEWAYS | REL_DOWN)
#define REL_POSITION (REL_RIGHT | REL_LEFT | REL_STRAIGHT)

/*
 * What the words are judged against: the mover's orientation, the
 * destination, and how far right and left (from the mover's seat) the
 * board candidates stand, for pieces whose 右/左 compares them with each
 * other.
 */
struct frame {
	enum color side;
	square to;
	int rightmost, leftmost;
};

/* Gold-like movers compare with the destination's file and may use 直. */
static int
gold_like(enum piece_type pt)
{
	switch (pt) {
	case PT_GOLD: case PT_SILVER: case PT_PRO_PAWN: case PT_PRO_LANCE:
	case PT_PRO_KNIGHT: case PT_PRO_SILVER:
		return 1;
	default:
		return 0;
	}
}

/* How far to the mover's right a file lies: Black's right is file 1. */
static int
rightness(enum color side, square sq)
{
	return side == BLACK ? -sq_file(sq) : sq_file(sq);
}

/* How far toward the enemy a move goes: > 0 forward, < 0 backward. */
static int
advance(enum color side, square from, square to)
{
	int d = sq_rank(from) - sq_rank(to);

	return side == BLACK ? d : -d;
}

static unsigned
movement_word(const struct frame *f, square from)
{
	int a = advance(f->side, from, f->to);

	return a > 0 ? REL_UP : a < 0 ? REL_DOWN : REL_SIDEWAYS;
}

static void
frame_init(struct frame *f, enum color side, square to, const move *c,
    int n)
{
	int i;

	f->side = side;
	f->to = to;
	f->rightmost = -FILE_NB;
	f->leftmost = FILE_NB;
	for (i = 0; i < n; i++) {
		int r;

		if (move_is_drop(c[i]))
			continue;
		r = rightness(side, move_from(c[i]));
		if (r > f->rightmost)
			f->rightmost = r;
		if (r < f->leftmost)
			f->leftmost = r;
	}
}

/* Whether one position word (a single bit) describes the board move m. */
static int
position_fits(const struct frame *f, move m, unsigned word)
{
	square from = move_from(m);
	int r = rightness(f->side, from), rt = rightness(f->side, f->to);

	if (word == REL_STRAIGHT)
		/* Read for any piece; written only for gold-like ones. */
		return sq_file(from) == sq_file(f->to) &&
		    advance(f->side, from, f->to) > 0;
	if (gold_like(piece_type_of(move_piece(m))))
		return word == REL_RIGHT ? r > rt : r < rt;
	/* Knights, rooks, bishops, dragons, horses: against each other. */
	return word == REL_RIGHT ? r == f->rightmost : r == f->leftmost;
}

static int
word_fits(const struct frame *f, move m, unsigned rel)
{
	unsigned mw = rel & REL_MOVEMENT, pw = rel & REL_POSITION;

	if (!rel)
		return 1;
	if (move_is_drop(m))
		return 0;
	if (mw && mw != movement_word(f, move_from(m)))
		return 0;
	if (pw && (pw & (pw - 1)))
		return 0;	/* two position words at once name nothing */
	return !pw || position_fits(f, m, pw);
}

/* The position word the writer would use for m, or 0 if none applies. */
static unsigned
position_word(const struct frame *f, move m)
{
	square from = move_from(m);
	int r = rightness(f->side, from);

	if (gold_like(piece_type_of(move_piece(m)))) {
		int rt = rightness(f->side, f->to);

		if (r == rt)
			return position_fits(f, m, REL_STRAIGHT) ?
			    REL_STRAIGHT : 0;
		return r > rt ? REL_RIGHT : REL_LEFT;
	}
	if (f->rightmost == f->leftmost)
		return 0;	/* all on one file: movement must tell them */
	return r == f->rightmost ? REL_RIGHT : r == f->leftmost ?
	    REL_LEFT : 0;
}

static int
count_fits(const struct frame *f, const move *c, int n, unsigned rel)
{
	int i, k = 0;

	for (i = 0; i < n; i++)
		k += word_fits(f, c[i], rel);
	return k;
}

unsigned
notation_words(const struct position *pos, move m, int *drop_word)
{
	struct move_list ml;
	move c[SQ_NB];
	struct frame f;
	piece p = move_piece(m);
	square to = move_to(m);
	unsigned mw, pw, tries[3];
	int i, j, n = 0, t;

	*drop_word = 0;
	movegen_legal(pos, &ml);
	/* Board moves of this very piece kind to the square, one per origin. */
	for (i = 0; i < ml.n; i++) {
		move x = ml.m[i];

		if (move_to(x) != to || move_is_drop(x) || move_piece(x) != p)
			continue;
		for (j = 0; j < n && move_from(c[j]) != move_from(x); j++)
			;
		if (j == n)
			c[n++] = x;	/* promoting or not, one origin */
	}
	if (move_is_drop(m)) {
		*drop_word = n > 0;
		return 0;
	}
	if (n <= 1)
		return 0;
	frame_init(&f, piece_color(p), to, c, n);
	mw = movement_word(&f, move_from(m));
	pw = position_word(&f, m);
	tries[0] = mw;
	tries[1] = pw;
	tries[2] = pw | mw;
	for (t = 0; t < 3; t++)
		if (tries[t] && count_fits(&f, c, n, tries[t]) == 1)
			return tries[t];
	/* Only a position no game reaches (three rooks) gets here. */
	return pw | mw;
}

int
notation_filter(const struct position *pos, move *cands, int n,
    unsigned rel)
{
	struct frame f;
	int i, k = 0;

	if (!rel || n <= 0)
		return n;
	frame_init(&f, pos->side, move_to(cands[0]), cands, n);
	for (i = 0; i < n; i++)
		if (word_fits(&f, cands[i], rel))
			cands[k++] = cands[i];
	return k;
}
