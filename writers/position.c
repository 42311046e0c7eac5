/*
 * position.c - what the writers of one position (SFEN in usi.c, BOD in
 * bod.c) share: finding the position `kifu convert --ply` asks for, and
 * saying in one warning what a single position cannot hold, so that a
 * conversion never loses data silently; and the warning every writer but
 * Kakinoki's gives for a board shown turned.
 */
#include "parsers/format.h"

int
position_writer_start(const struct record *r, int ply, const char *fmt,
    struct position *pos, int32_t *last, struct diag_list *d)
{
	int played = record_main_position(r, ply, pos, last);

	if (ply >= 0 && played < ply) {
		diag_add(d, DIAG_ERROR, diag_id_name(DIAG_LIMIT), NULL, 0,
		    "no %s for ply %d: the main line has %d legal move%s",
		    fmt, ply, played, played == 1 ? "" : "s");
		return -1;
	}
	return played;
}

/* Appends ", 3 comments" (or "3 comments" first) when n > 0. */
static void
add_count(struct strbuf *sb, size_t n, const char *one, const char *many)
{
	if (!n)
		return;
	strbuf_addf(sb, "%s%zu %s", sb->len ? ", " : "", n, n == 1 ? one :
	    many);
}

void
position_report_dropped(const struct record *r, const char *fmt, int played,
    size_t kept, struct diag_list *d)
{
	struct strbuf what = STRBUF_INIT;
	size_t moves = 0, terminals = 0, comments = 0, bookmarks = 0;
	size_t times = 0, variations = 0, i;

	for (i = 0; i < r->nnodes; i++) {
		const struct record_node *n = &r->nodes[i];

		if (i > 0 && n->special == SP_NONE)
			moves++;
		else if (i > 0)
			terminals++;
		comments += n->comment != 0;
		bookmarks += n->bookmark != 0;
		times += n->time_ms >= 0 || n->total_ms >= 0;
		variations += n->alt >= 0;
	}
	add_count(&what, moves, "move", "moves");
	add_count(&what, terminals, "terminal", "terminals");
	add_count(&what, variations, "variation", "variations");
	add_count(&what, r->nheaders - kept, "header", "headers");
	add_count(&what, comments, "comment", "comments");
	add_count(&what, bookmarks, "bookmark", "bookmarks");
	add_count(&what, times, "time", "times");
	if (r->flipped)
		strbuf_addf(&what, "%sthe turned board (盤面回転)",
		    what.len ? ", " : "");
	if (what.len && played)
		diag_add(d, DIAG_WARNING, diag_id_name(DIAG_LIMIT), NULL, 0,
		    "%s holds only the position after move %d; dropped: %s",
		    fmt, played, what.buf);
	else if (what.len)
		diag_add(d, DIAG_WARNING, diag_id_name(DIAG_LIMIT), NULL, 0,
		    "%s holds only the start position; dropped: %s", fmt,
		    what.buf);
	strbuf_release(&what);
}

void
writer_report_flipped(const struct record *r, const char *fmt,
    struct diag_list *d)
{
	if (r->flipped)
		diag_add(d, DIAG_WARNING, diag_id_name(DIAG_LIMIT),
		    &r->flipped_loc, 0, "%s cannot say the board is shown as "
		    "White sees it (盤面回転); dropped", fmt);
}
