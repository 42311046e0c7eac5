/*
 * book.c - writing YaneuraOu's text book (parsers/book.h): every field
 * of a move line written, `none` for a missing one, as YaneuraOu writes
 * them (an empty field would merge with its neighbour in readers that
 * split on runs of blanks).
 */
#include "parsers/book.h"

void
book_write_header(struct strbuf *out)
{
	strbuf_adds(out, BOOK_HEADER "\n");
}

void
book_write_position(struct strbuf *out, const char *key, size_t keylen,
    long long ply)
{
	strbuf_adds(out, "sfen ");
	strbuf_add(out, key, keylen);
	strbuf_addc(out, ' ');
	strbuf_add_int(out, ply);
	strbuf_addc(out, '\n');
}

void
book_write_move(struct strbuf *out, const struct book_move_out *m)
{
	strbuf_adds(out, m->move);
	strbuf_addc(out, ' ');
	strbuf_adds(out, m->ponder ? m->ponder : "none");
	strbuf_addc(out, ' ');
	if (m->has_value)
		strbuf_add_int(out, m->value);
	else
		strbuf_adds(out, "none");
	strbuf_addc(out, ' ');
	if (m->has_depth)
		strbuf_add_int(out, m->depth);
	else
		strbuf_adds(out, "none");
	strbuf_addc(out, ' ');
	strbuf_add_int(out, m->count);
	if (m->tail_len)
		strbuf_add(out, m->tail, m->tail_len);
	strbuf_addc(out, '\n');
}
