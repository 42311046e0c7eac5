/*
 * strmap.c - strings to dense ids (strmap.h): open addressing, FNV-1a.
 */
#include <stdlib.h>
#include <string.h>

#include "stats/strmap.h"
#include "core/xalloc.h"

void
strmap_init(struct strmap *m)
{
	memset(m, 0, sizeof(*m));
}

void
strmap_release(struct strmap *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

static uint64_t
hash(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return h;
}

/* The slot s[0..n) is in, or the empty one where it would go. */
static size_t
slot_of(const struct strmap *m, const char *s, size_t n)
{
	size_t mask = m->nslots - 1, i = (size_t)hash(s, n) & mask;

	for (;; i = (i + 1) & mask) {
		uint32_t id = m->slots[i];

		if (!id || (strlen(m->keys[id - 1]) == n &&
		    !memcmp(m->keys[id - 1], s, n)))
			return i;
	}
}

static void
grow(struct strmap *m)
{
	size_t i, old = m->nslots;
	uint32_t *was = m->slots;

	m->nslots = old ? old * 2 : 64;
	m->slots = xcalloc(m->nslots, sizeof(*m->slots));
	for (i = 0; i < old; i++)
		if (was[i]) {
			const char *k = m->keys[was[i] - 1];

			m->slots[slot_of(m, k, strlen(k))] = was[i];
		}
	free(was);
}

size_t
strmap_find(const struct strmap *m, const char *s, size_t n)
{
	uint32_t id;

	if (!m->nslots)
		return (size_t)-1;
	id = m->slots[slot_of(m, s, n)];
	return id ? id - 1 : (size_t)-1;
}

size_t
strmap_intern(struct strmap *m, const char *s, size_t n)
{
	size_t i;

	/* At most half full, so that probes stay short. */
	if ((m->n + 1) * 2 > m->nslots)
		grow(m);
	i = slot_of(m, s, n);
	if (m->slots[i])
		return m->slots[i] - 1;
	ALLOC_GROW(m->keys, m->n + 1, m->akeys);
	m->keys[m->n] = xstrndup(s, n);
	m->slots[i] = (uint32_t)++m->n;
	return m->n - 1;
}
