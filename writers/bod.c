/*
 * bod.c - writing one position of a record as a bare board diagram (BOD,
 * formats.md 3.4): the diagram KIF gives a start position, then, as Kifu
 * for Windows copies a position and tsshogi's exportBOD writes it, the
 * "手数＝N  ▲７六歩(77)  まで" line naming the move that led there, and
 * the side to move. The KIF reader reads it back (a .bod reads as KIF).
 *
 * The drawing is parsers/kakinoki.c's, shared with the KIF and KI2
 * writers. Everything but the position is dropped, with one warning.
 */
#include "parsers/format.h"
#include "parsers/kakinoki.h"

int
bod_write_at(const struct record *r, int ply, const struct write_opts *o,
    struct strbuf *out, struct diag_list *d)
{
	struct strbuf trailer = STRBUF_INIT;
	struct position pos;
	int32_t last;
	int played, kept = 0;

	(void)o;
	if ((played = position_writer_start(r, ply, "bod", &pos, &last,
	    d)) < 0)
		return -1;
	/*
	 * N counts the game's moves, not the record's: a record that starts
	 * from a diagram with 手数＝12 gives 手数＝14 two moves later, and
	 * the reader restores the move number from it.
	 */
	if (played > 0) {
		strbuf_addf(&trailer, "手数＝%d  %s", pos.move_number - 1,
		    kakinoki_mark(color_flip(pos.side)));
		kakinoki_write_move(&trailer, r->nodes[last].mv,
		    kakinoki_is_same(r, last));
		strbuf_adds(&trailer, "  まで");
	} else {
		/* A record from a later position: its own line, or number. */
		kept = kakinoki_start_trailer(r, &trailer);
	}
	/* A reader takes a board for 9x9 unless told the variant. */
	if (pos.v == variant_minishogi())
		kakinoki_write_handicap_line(
		    kakinoki_handicap_name(HANDICAP_MINISHOGI), out);
	kakinoki_write_bod(&pos, kakinoki_handicap_labels(r),
	    trailer.len ? trailer.buf : NULL, out);
	strbuf_release(&trailer);
	position_report_dropped(r, "bod", played, (size_t)kept, d);
	return 0;
}

int
bod_write(const struct record *r, const struct write_opts *o,
    struct strbuf *out, struct diag_list *d)
{
	return bod_write_at(r, -1, o, out, d);
}
