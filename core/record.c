#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "sfen.h"
#include "xalloc.h"

#define NAME(e, id) id,
static const char *const header_names[] = { HEADER_LIST(NAME) };
static const char *const special_names[] = { SPECIAL_LIST(NAME) };
static const char *const reason_names[] = { REASON_LIST(NAME) };
#undef NAME

const char *
header_id_name(enum header_id id)
{
	return (unsigned)id < HDR_NB ? header_names[id] : "other";
}

const char *
special_name(enum special sp)
{
	return (unsigned)sp < SP_NB ? special_names[sp] : "unknown";
}

const char *
reason_name(enum reason r)
{
	return (unsigned)r < REASON_NB ? reason_names[r] : "unfinished";
}

const char *
winner_name(enum winner w)
{
	return w == WINNER_BLACK ? "black" : w == WINNER_WHITE ? "white" : "none";
}

/*
 * A node as record_add_node starts it: times unknown, no links, nothing
 * else. Field by field rather than a memset and then the fields that are
 * not zero: a record of a game adds one node per move, and gcc turns
 * either a memset or a copy of a constant node into a "rep stos", which
 * costs more than these few stores.
 */
static inline void
node_start(struct record_node *n, int32_t parent)
{
	n->spec.flags = 0;
	n->spec.color = -1;
	n->spec.from = SQ_NONE;
	n->spec.to = SQ_NONE;
	n->spec.piece = 0;
	n->spec.rel = 0;
	n->mv = MOVE_NONE;
	n->key = 0;
	n->rule = 0;
	n->special = SP_NONE;
	n->check = 0;
	n->raw = 0;
	n->time_ms = -1;
	n->total_ms = -1;
	n->comment = 0;
	n->bookmark = 0;
	memset(&n->loc, 0, sizeof(n->loc));
	n->parent = parent;
	n->next = -1;
	n->alt = -1;
	n->last = -1;
	n->ply = 0;
	n->depth = 0;
}

static void
add_root(struct record *r)
{
	ALLOC_GROW(r->nodes, 1, r->anodes);
	r->nnodes = 1;
	node_start(&r->nodes[0], -1);
}

void
record_init(struct record *r, const struct variant *v)
{
	memset(r, 0, sizeof(*r));
	strbuf_init(&r->pool);
	record_reset(r, v);
}

void
record_reset(struct record *r, const struct variant *v)
{
	r->v = v;
	position_set_start(&r->start, v);
	r->handicap = 0;
	r->nheaders = 0;
	strbuf_reset(&r->pool);
	strbuf_addc(&r->pool, '\0');	/* offset 0 is "" */
	memset(&r->loc, 0, sizeof(r->loc));
	memset(&r->start_loc, 0, sizeof(r->start_loc));
	memset(&r->recorded_loc, 0, sizeof(r->recorded_loc));
	r->depth = 0;
	r->has_recorded = 0;
	memset(&r->recorded, 0, sizeof(r->recorded));
	r->recorded.winner = WINNER_NONE;
	r->recorded_raw = 0;
	r->flipped = 0;
	memset(&r->flipped_loc, 0, sizeof(r->flipped_loc));
	add_root(r);
}

void
record_release(struct record *r)
{
	free(r->headers);
	free(r->nodes);
	strbuf_release(&r->pool);
	memset(r, 0, sizeof(*r));
}

uint32_t
record_intern_grow(struct record *r, const char *s, size_t n)
{
	strbuf_grow_slow(&r->pool, n + 1);
	return record_intern(r, s, n);
}

struct record_header *
record_add_header(struct record *r, const char *key, size_t klen,
    const char *value, size_t vlen, enum header_id id,
    const struct span *loc)
{
	struct record_header *h;
	uint32_t k = record_intern(r, key, klen);
	uint32_t val = record_intern(r, value, vlen);

	ALLOC_GROW(r->headers, r->nheaders + 1, r->aheaders);
	h = &r->headers[r->nheaders++];
	h->key = k;
	h->value = val;
	h->id = id;
	if (loc)
		h->loc = *loc;
	else
		memset(&h->loc, 0, sizeof(h->loc));
	return h;
}

const struct record_header *
record_find_header(const struct record *r, enum header_id id)
{
	size_t i;

	for (i = 0; i < r->nheaders; i++)
		if (r->headers[i].id == id)
			return &r->headers[i];
	return NULL;
}

/* Out of line, so that record_add_node itself needs no stack frame. */
static __attribute__((noinline, cold)) void
grow_nodes(struct record *r)
{
	ALLOC_GROW(r->nodes, r->nnodes + 1, r->anodes);
}

int32_t
record_add_node(struct record *r, int32_t parent)
{
	struct record_node *n, *p;
	int32_t idx = (int32_t)r->nnodes;

	if (r->nnodes >= r->anodes)
		grow_nodes(r);
	r->nnodes++;
	n = &r->nodes[idx];
	p = &r->nodes[parent];
	node_start(n, parent);
	n->ply = p->ply + 1;
	n->depth = p->depth;
	if (p->next < 0) {
		p->next = idx;
	} else {
		r->nodes[p->last].alt = idx;
		n->depth++;
		if (r->depth < n->depth)
			r->depth = n->depth;
	}
	p->last = idx;
	return idx;
}

void
record_add_comment(struct record *r, int32_t node, const char *s, size_t n)
{
	uint32_t old = r->nodes[node].comment;
	size_t off = r->pool.len;

	/*
	 * The usual first line: interned like any string (an empty one must
	 * still be a comment, which offset 0 would not be).
	 */
	if (!old && n) {
		r->nodes[node].comment = record_intern(r, s, n);
		return;
	}
	if (old) {
		size_t olen = strlen(r->pool.buf + old);

		/*
		 * The comment being written is usually the last string in the
		 * pool: extend it in place, so that a node with many comment
		 * lines costs linear time, not quadratic.
		 */
		if (old + olen + 1 == r->pool.len) {
			r->pool.buf[r->pool.len - 1] = '\n';
			strbuf_add(&r->pool, s, n);
			strbuf_addc(&r->pool, '\0');
			return;
		}

		strbuf_grow(&r->pool, olen + n + 2);
		strbuf_add(&r->pool, r->pool.buf + old, olen);
		strbuf_addc(&r->pool, '\n');
	}
	strbuf_add(&r->pool, s, n);
	strbuf_addc(&r->pool, '\0');
	r->nodes[node].comment = (uint32_t)off;
}

void
comment_batch_init(struct comment_batch *b)
{
	b->node = -1;
	b->first = NULL;
	b->first_n = 0;
	strbuf_init(&b->more);
}

void
comment_batch_release(struct comment_batch *b)
{
	strbuf_release(&b->more);
	comment_batch_init(b);
}

void
comment_batch_flush(struct comment_batch *b, struct record *r)
{
	if (b->node < 0)
		return;		/* and `more` is empty */
	if (b->more.len) {
		record_add_comment(r, b->node, b->more.buf, b->more.len);
		strbuf_reset(&b->more);
	} else {
		record_add_comment(r, b->node, b->first, b->first_n);
	}
	b->node = -1;
}

void
comment_batch_add(struct comment_batch *b, struct record *r, int32_t node,
    const char *s, size_t n)
{
	if (b->node != node) {
		comment_batch_flush(b, r);
		b->node = node;
		b->first = s;
		b->first_n = n;
		return;
	}
	if (!b->more.len)
		strbuf_add(&b->more, b->first, b->first_n);
	strbuf_addc(&b->more, '\n');
	strbuf_add(&b->more, s, n);
}

int32_t
record_main_end(const struct record *r)
{
	int32_t i = 0;

	while (r->nodes[i].next >= 0)
		i = r->nodes[i].next;
	return i;
}

int
record_main_moves(const struct record *r)
{
	int32_t i;
	int n = 0;

	for (i = r->nodes[0].next; i >= 0 && r->nodes[i].special == SP_NONE;
	    i = r->nodes[i].next)
		n++;
	return n;
}

int
record_main_position(const struct record *r, int ply, struct position *pos,
    int32_t *last)
{
	int32_t i;
	int played = 0;

	*pos = r->start;
	*last = 0;
	for (i = r->nodes[0].next; i >= 0 && (ply < 0 || played < ply);
	    i = r->nodes[i].next) {
		struct undo u;

		if (r->nodes[i].special != SP_NONE ||
		    r->nodes[i].mv == MOVE_NONE)
			break;
		position_do_move(pos, r->nodes[i].mv, &u);
		*last = i;
		played++;
	}
	return played;
}
