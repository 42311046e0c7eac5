/*
 * reader.c - what every parser shares: where it is, and the limits.
 */
#include <string.h>

#include "format.h"

void
reader_init(struct reader *rd, const struct text *t, const struct variant *v)
{
	memset(rd, 0, sizeof(*rd));
	rd->t = t;
	rd->v = v;
	rd->lim = &limits_default;
}

/*
 * Where to report: the thing that went over when it has a place, else
 * line li (none when li is READER_NO_LINE).
 */
static const struct span *
place(const struct text *t, size_t li, const struct span *own,
    struct span *buf)
{
	if (own->line)
		return own;
	if (li == READER_NO_LINE || li >= t->nlines)
		return NULL;
	*buf = text_span(t, li, 0, t->lines[li].len);
	return buf;
}

int
reader_limit_error(const struct reader *rd, const struct record *r,
    size_t li, struct diag_list *d)
{
	const struct limits *lim = rd->lim;
	const struct text *t = rd->t;
	uint32_t moves = (uint32_t)r->nnodes - 1;
	const struct record_node *last = &r->nodes[r->nnodes - 1];
	struct span sp;

	if (lim->moves && moves > lim->moves) {
		diag_add(d, DIAG_ERROR, diag_id_name(DIAG_LIMIT),
		    place(t, li, &last->loc, &sp), last->ply, "more than %u "
		    "moves in one record, counting every variation (the "
		    "limit 'moves')",
		    lim->moves);
		return -1;
	}
	if (lim->depth && (uint32_t)r->depth > lim->depth) {
		diag_add(d, DIAG_ERROR, diag_id_name(DIAG_LIMIT),
		    place(t, li, &last->loc, &sp), last->ply, "variations nested more "
		    "than %u deep (the limit 'depth')", lim->depth);
		return -1;
	}
	if (lim->headers && r->nheaders > lim->headers) {
		diag_add(d, DIAG_ERROR, diag_id_name(DIAG_LIMIT),
		    place(t, li, &r->headers[r->nheaders - 1].loc, &sp), 0,
		    "more than %u headers in one record (the limit "
		    "'headers')", lim->headers);
		return -1;
	}
	if (lim->record && r->loc.line && li < t->nlines &&
	    (size_t)t->lines[li].off + t->lines[li].len - r->loc.byte >
	    lim->record) {
		static const struct span none;

		diag_add(d, DIAG_ERROR, diag_id_name(DIAG_LIMIT),
		    place(t, li, &none, &sp), 0,
		    "record of more than %zu bytes (the limit 'record')",
		    lim->record);
	}
	return -1;
}
