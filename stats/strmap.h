/*
 * strmap.h - strings to dense ids (0, 1, 2... in the order first seen),
 * for the per-name tables of kifu stats: players, events, openings. A
 * hash table, so that a million records with ten thousand names cost a
 * lookup each, not a scan.
 */
#ifndef KIFU_STATS_STRMAP_H
#define KIFU_STATS_STRMAP_H

#include <stddef.h>
#include <stdint.h>

struct strmap {
	char **keys;		/* keys[id]: owned copies, NUL-terminated */
	size_t n, akeys;
	uint32_t *slots;	/* id + 1, 0 empty; a power of two of them */
	size_t nslots;
};

void strmap_init(struct strmap *m);
void strmap_release(struct strmap *m);

/* The id of s[0..n), added (as id m->n - 1) if it is new. */
size_t strmap_intern(struct strmap *m, const char *s, size_t n);

/* The id of s[0..n), or (size_t)-1 when it is not in the map. */
size_t strmap_find(const struct strmap *m, const char *s, size_t n);

#endif /* KIFU_STATS_STRMAP_H */
