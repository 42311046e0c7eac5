/*
 * tt.c - the solver's tables (see tt.h).
 */
/* MADV_HUGEPAGE (Linux): glibc declares it under _DEFAULT_SOURCE. */
#define _DEFAULT_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/types.h"
#include "tt.h"

static size_t
clusters_for(size_t bytes, size_t unit)
{
	size_t n = 1;

	while (n <= bytes / unit / 2)
		n <<= 1;
	return n;
}

/* Where the prefix starts: 256 KB. */
#define TT_FIRST_CLUSTERS 2048

/*
 * The table is mapped, not allocated: its pages are zero and cost
 * nothing until written. Huge pages where the kernel gives them, for
 * the large tables long searches grow into: entries fall anywhere, and
 * with 4 KB pages nearly every first store to a cluster would fault.
 */
int
tt_init(struct tt *t, size_t bytes)
{
	size_t n = clusters_for(bytes, TT_CLUSTER * sizeof(struct tt_entry));
	size_t size = n * TT_CLUSTER * sizeof(struct tt_entry);
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -1;
#ifdef MADV_HUGEPAGE
	if (size >= (64u << 20))
		madvise(p, size, MADV_HUGEPAGE);
#endif
	t->e = p;
	t->max = n;
	t->mask = (n < TT_FIRST_CLUSTERS ? n : TT_FIRST_CLUSTERS) - 1;
	t->used = 0;
	t->gen = 1;
	return 0;
}

void
tt_release(struct tt *t)
{
	if (t->e)
		munmap(t->e, tt_bytes(t));
	t->e = NULL;
}

size_t
tt_bytes(const struct tt *t)
{
	return t->max * TT_CLUSTER * sizeof(*t->e);
}

size_t
tt_bytes_used(const struct tt *t)
{
	return (t->mask + 1) * TT_CLUSTER * sizeof(*t->e);
}

/*
 * Doubles the prefix: cluster i keeps the entries whose new key bit is
 * clear and hands the others to cluster i + n, which is still empty.
 */
static void
grow(struct tt *t)
{
	size_t n = t->mask + 1, i;
	uint64_t bit = n;

	for (i = 0; i < n; i++) {
		struct tt_entry *from = t->e + i * TT_CLUSTER;
		struct tt_entry *to = t->e + (i + n) * TT_CLUSTER;
		int j, k = 0;

		for (j = 0; j < TT_CLUSTER; j++)
			if (from[j].key && (from[j].key & bit)) {
				to[k++] = from[j];
				memset(&from[j], 0, sizeof(from[j]));
			}
	}
	t->mask = 2 * n - 1;
}

uint32_t
hand_pack(const uint8_t hand[8])
{
	return (uint32_t)hand[PT_PAWN] | (uint32_t)hand[PT_LANCE] << 6 |
	    (uint32_t)hand[PT_KNIGHT] << 10 | (uint32_t)hand[PT_SILVER] << 14 |
	    (uint32_t)hand[PT_BISHOP] << 18 | (uint32_t)hand[PT_ROOK] << 22 |
	    (uint32_t)hand[PT_GOLD] << 26;
}

static struct tt_entry *
cluster(const struct tt *t, uint64_t key)
{
	/* The low bits pick the cluster; the entry keeps the whole key. */
	return t->e + (size_t)(key & t->mask) * TT_CLUSTER;
}

void
tt_lookup(const struct tt *t, uint64_t key, uint32_t hand, int problem,
    struct tt_probe *p)
{
	const struct tt_entry *c = cluster(t, key);
	int i;

	p->pn = 1;
	p->dn = 1;
	p->len = LEN_NONE;
	p->glen = LEN_NONE;
	p->dis = DIS_NONE;
	p->best = 0;
	p->ply = 0xffff;
	p->found = 0;
	for (i = 0; i < TT_CLUSTER; i++) {
		const struct tt_entry *e = &c[i];

		if (e->key != key)
			continue;
		if (e->hand == hand) {
			p->pn = e->pn;
			p->dn = e->dn;
			p->best = e->best;
			p->ply = e->ply;
			p->found = 1;
			if (e->len < p->len)
				p->len = e->len;
			if (e->glen < p->glen)
				p->glen = e->glen;
			if (e->dis != DIS_NONE &&
			    (p->dis == DIS_NONE || e->dis > p->dis))
				p->dis = e->dis;
			continue;
		}
		/* A mate with fewer pieces in hand is one with these. */
		if (e->glen != LEN_NONE && hand_le(e->hand, hand) &&
		    e->glen < p->glen) {
			p->glen = e->glen;
			if (e->glen < p->len) {
				p->len = e->glen;
				if (e->best)
					p->best = e->best;
			}
		}
		/* No mate with more pieces is none with these either. */
		if (e->dis != DIS_NONE && hand_le(hand, e->hand) &&
		    (!problem || e->dis == DIS_ABS) &&
		    (p->dis == DIS_NONE || e->dis > p->dis))
			p->dis = e->dis;
	}
}

/* What an entry is worth keeping: work spent, and final facts. */
static int
worth(const struct tt_entry *e, uint8_t gen)
{
	int w = e->amount;

	if (e->len != LEN_NONE || e->dis != DIS_NONE)
		w += 16;
	if (e->gen != gen)
		w -= 8;
	return w;
}

void
tt_store(struct tt *t, uint64_t key, uint32_t hand, uint32_t pn, uint32_t dn,
    uint16_t len, uint16_t glen, uint16_t dis, uint16_t best, unsigned amount,
    unsigned ply)
{
	struct tt_entry *c = cluster(t, key), *e = NULL;
	int i;

	for (i = 0; i < TT_CLUSTER; i++)
		if (c[i].key == key && c[i].hand == hand) {
			e = &c[i];
			break;
		}
	if (!e) {
		int lowest = 0x7fffffff;

		for (i = 0; i < TT_CLUSTER; i++) {
			int w;

			if (c[i].key == 0) {
				e = &c[i];
				break;
			}
			w = worth(&c[i], t->gen);
			if (w < lowest) {
				lowest = w;
				e = &c[i];
			}
		}
		if (e->key == 0 && ++t->used > (t->mask + 1) * TT_CLUSTER / 2 &&
		    t->mask + 1 < t->max) {
			/* The new entry's cluster may change: place it again. */
			t->used--;
			grow(t);
			tt_store(t, key, hand, pn, dn, len, glen, dis, best, amount,
			    ply);
			return;
		}
		memset(e, 0, sizeof(*e));
		e->key = key;
		e->hand = hand;
		e->len = LEN_NONE;
		e->glen = LEN_NONE;
		e->dis = DIS_NONE;
		e->ply = 0xffff;
	}
	if (glen < e->glen)
		e->glen = glen;
	e->pn = pn;
	e->dn = dn;
	if (len != LEN_NONE && (e->len == LEN_NONE || len <= e->len)) {
		e->len = len;
		if (best)
			e->best = best;
	} else if (e->len == LEN_NONE && best) {
		e->best = best;
	}
	if (dis != DIS_NONE && (e->dis == DIS_NONE || dis > e->dis))
		e->dis = dis;
	if (ply < e->ply)
		e->ply = (uint16_t)ply;
	if (amount > e->amount)
		e->amount = (uint8_t)(amount > 255 ? 255 : amount);
	e->gen = t->gen;
}

int
path_table_init(struct path_table *t, size_t bytes)
{
	size_t n = clusters_for(bytes, sizeof(struct path_entry));

	t->e = calloc(n, sizeof(*t->e));
	if (!t->e)
		return -1;
	t->mask = n - 1;
	return 0;
}

void
path_table_release(struct path_table *t)
{
	free(t->e);
	t->e = NULL;
}

void
path_table_clear(struct path_table *t)
{
	memset(t->e, 0, (t->mask + 1) * sizeof(*t->e));
}

uint16_t
path_table_get(const struct path_table *t, uint64_t key)
{
	const struct path_entry *e = &t->e[key & t->mask];

	return e->key == key ? e->dis : DIS_NONE;
}

void
path_table_put(struct path_table *t, uint64_t key, uint16_t dis)
{
	struct path_entry *e = &t->e[key & t->mask];

	/* One slot a path: the newest result wins. */
	if (e->key == key && e->dis != DIS_NONE && e->dis > dis)
		return;
	e->key = key;
	e->dis = dis;
}
