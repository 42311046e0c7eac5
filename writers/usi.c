/*
 * usi.c - writing a record as one USI position line, or as the SFEN of
 * where its main line ends (formats.md section 5).
 *
 * USI holds a start position, moves and at most one result token; all
 * else is dropped, and each kind of thing dropped is reported once, with
 * a count, so that a conversion never loses data silently.
 */
#include <string.h>

#include "core/handicap.h"
#include "core/sfen.h"
#include "core/usi.h"
#include "parsers/format.h"

/* The result token for a terminal (parsers/usi.c in reverse); NULL if none. */
static const char *
terminal_token(enum special sp)
{
	switch (sp) {
	case SP_RESIGN: return "resign";
	case SP_DECLARATION: return "win";
	case SP_DRAW_DECLARATION: return "draw";
	case SP_SENNICHITE: return "rep_draw";
	case SP_ABORT: return "break";
	case SP_TIME_UP: return "timeout";
	default: return NULL;
	}
}

/* What the record holds beyond a main line of moves. */
struct extras {
	size_t comments, bookmarks, times, variations;
};

static void
count_extras(const struct record *r, struct extras *x)
{
	size_t i;

	memset(x, 0, sizeof(*x));
	for (i = 0; i < r->nnodes; i++) {
		const struct record_node *n = &r->nodes[i];

		x->comments += n->comment != 0;
		x->bookmarks += n->bookmark != 0;
		x->times += n->time_ms >= 0 || n->total_ms >= 0;
		/* Each alternative link starts one variation. */
		x->variations += n->alt >= 0;
	}
}

static void
warn(struct diag_list *d, const char *fmt, const char *what, size_t n)
{
	diag_add(d, DIAG_WARNING, diag_id_name(DIAG_LIMIT), NULL, 0, fmt, what,
	    n);
}

int
usi_write(const struct record *r, const struct write_opts *o,
    struct strbuf *out, struct diag_list *d)
{
	const char *fmt = "usi cannot hold %s: %zu dropped";
	struct extras x;
	int32_t i;
	int any = 0;
	size_t unresolved = 0;

	(void)o;
	if (handicap_identify(&r->start) == HANDICAP_EVEN) {
		strbuf_adds(out, "position startpos");
	} else {
		char sfen[SFEN_MAX];

		sfen_write(&r->start, sfen);
		strbuf_adds(out, "position sfen ");
		strbuf_adds(out, sfen);
	}
	for (i = r->nodes[0].next; i >= 0; i = r->nodes[i].next) {
		const struct record_node *n = &r->nodes[i];
		char buf[USI_MOVE_MAX];
		const char *tok = buf;

		if (n->special != SP_NONE) {
			if (!(tok = terminal_token((enum special)n->special))) {
				diag_add(d, DIAG_WARNING,
				    diag_id_name(DIAG_LIMIT), &n->loc, n->ply,
				    "usi cannot hold the terminal '%s': "
				    "dropped",
				    special_name((enum special)n->special));
				break;
			}
		} else if (n->mv == MOVE_NONE) {
			/* Nothing after an unresolved move can be written. */
			for (; i >= 0; i = r->nodes[i].next)
				unresolved++;
			break;
		} else {
			usi_format_move(n->mv, buf);
		}
		strbuf_adds(out, any++ ? " " : " moves ");
		strbuf_adds(out, tok);
	}
	strbuf_addc(out, '\n');
	if (unresolved)
		warn(d, fmt, "moves after an unresolved one", unresolved);
	count_extras(r, &x);
	if (r->nheaders)
		warn(d, fmt, "headers", r->nheaders);
	if (x.comments)
		warn(d, fmt, "comments", x.comments);
	if (x.bookmarks)
		warn(d, fmt, "bookmarks", x.bookmarks);
	if (x.times)
		warn(d, fmt, "times", x.times);
	if (x.variations)
		warn(d, fmt, "variations", x.variations);
	writer_report_flipped(r, "usi", d);
	return 0;
}

int
sfen_write_at(const struct record *r, int ply, const struct write_opts *o,
    struct strbuf *out, struct diag_list *d)
{
	struct position pos;
	char sfen[SFEN_MAX];
	int32_t last;
	int played;

	(void)o;
	if ((played = position_writer_start(r, ply, "sfen", &pos, &last,
	    d)) < 0)
		return -1;
	sfen_write(&pos, sfen);
	strbuf_adds(out, sfen);
	strbuf_addc(out, '\n');
	position_report_dropped(r, "sfen", played, 0, d);
	return 0;
}

int
sfen_write_record(const struct record *r, const struct write_opts *o,
    struct strbuf *out, struct diag_list *d)
{
	return sfen_write_at(r, -1, o, out, d);
}
