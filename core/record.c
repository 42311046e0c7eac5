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

static void
add_root(struct record *r)
{
	struct record_node *n;

	ALLOC_GROW(r->nodes, 1, r->anodes);
	r->nnodes = 1;
	n = &r->nodes[0];
	memset(n, 0, sizeof(*n));
	n->spec.color = -1;
	n->spec.from = n->spec.to = SQ_NONE;
	n->time_ms = n->total_ms = -1;
	n->parent = n->next = n->alt = n->last = -1;
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
	r->depth = 0;
	r->has_recorded = 0;
	memset(&r->recorded, 0, sizeof(r->recorded));
	r->recorded.winner = WINNER_NONE;
	r->recorded_raw = 0;
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
record_intern(struct record *r, const char *s, size_t n)
{
	size_t off = r->pool.len;

	if (n == 0)
		return 0;
	/* The string and its NUL; the pool stays NUL-terminated after it. */
	strbuf_grow(&r->pool, n + 1);
	memcpy(r->pool.buf + off, s, n);
	r->pool.buf[off + n] = '\0';
	r->pool.len += n + 1;
	r->pool.buf[r->pool.len] = '\0';
	return (uint32_t)off;
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

int32_t
record_add_node(struct record *r, int32_t parent)
{
	struct record_node *n, *p;
	int32_t idx = (int32_t)r->nnodes;

	ALLOC_GROW(r->nodes, r->nnodes + 1, r->anodes);
	r->nnodes++;
	n = &r->nodes[idx];
	p = &r->nodes[parent];
	memset(n, 0, sizeof(*n));
	n->spec.color = -1;
	n->spec.from = n->spec.to = SQ_NONE;
	n->time_ms = n->total_ms = -1;
	n->next = n->alt = n->last = -1;
	n->parent = parent;
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
	if (b->node >= 0 && b->more.len)
		record_add_comment(r, b->node, b->more.buf, b->more.len);
	else if (b->node >= 0)
		record_add_comment(r, b->node, b->first, b->first_n);
	b->node = -1;
	strbuf_reset(&b->more);
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
