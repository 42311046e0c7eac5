/*
 * search.h - the df-pn search inside the solver (search.c), shared with
 * the phases built on it (solve.c): the context and the bounded query.
 */
#ifndef KIFU_MATE_SEARCH_H
#define KIFU_MATE_SEARCH_H

#include <time.h>

#include "mate.h"
#include "tt.h"

/*
 * The longest line the solver follows, in plies from a query's root;
 * below it a position counts as "no mate within 0 plies", so a no-mate
 * that needed it is never reported as proved. ミクロコスモス is 1,525.
 */
#define MATE_MAX_PLY 4000

/* A child of the node being searched. */
struct kid {
	move m;
	uint64_t key;		/* salted board key (table) */
	uint64_t pkey;		/* position key (repetition) */
	uint64_t path;		/* path key (path-dependent results) */
	uint32_t hand;		/* the attacker's hand, packed */
	uint32_t pn, dn;
	uint16_t len, glen;	/* proved lengths (pn == 0) */
	uint16_t dis;		/* proved no-mate depth (dn == 0) */
	uint8_t flags;		/* KID_* */
	uint8_t group;		/* drops on one square share a group */
};

enum {
	KID_PD = 1 << 0,	/* its no-mate rests on a repetition */
	KID_NEW = 1 << 1,	/* no entry when expanded: first visit */
	KID_OLD = 1 << 2,	/* reached before from a shallower ply (TCA) */
	KID_DROP = 1 << 3,	/* a drop of the defender (MATE_PROBLEM) */
	KID_FUTILE = 1 << 4,	/* a futile drop: proved, and not counted */
	KID_REAL = 1 << 5	/* a drop found not futile */
};

/* What a search found of one node. */
struct res {
	uint32_t pn, dn;
	uint16_t len;		/* pn == 0: mate within len */
	uint16_t glen;		/* pn == 0: the same with every defence counted */
	uint16_t dis;		/* dn == 0: no mate within dis */
	uint16_t best;
	uint8_t pd;		/* dn == 0 rests on a repetition */
};

struct path_slot {
	uint64_t pkey;		/* the position's key */
	uint64_t path;		/* the path's key */
};

/*
 * Futility verdicts. A drop is futile or not whatever the bound, but a
 * "not" found because no mate after the recapture was within the
 * bound holds only up to that bound (doc/mate.md).
 */
struct futile_slot {
	uint64_t key;
	uint16_t verdict;	/* 1 futile, 2 not */
	uint16_t bound;		/* 2: up to this bound; 0xffff: any */
};

struct mate_ctx {
	size_t memory;
	struct tt tt;
	struct path_table paths;
	/*
	 * One bit a position key (hashed): set for positions that have a
	 * path-dependent result, so that the path table is asked only
	 * about them. 128 KB: it stays in the cache.
	 */
#define PD_FILTER_WORDS (1 << 14)
#define PD_FILTER_MASK (PD_FILTER_WORDS - 1)
	uint64_t pd_filter[PD_FILTER_WORDS];
	struct futile_slot *futile;
	size_t futile_mask;
	/* q0 answers by position key: 1 mated, 2 not (0: empty). */
	struct q0_slot {
		uint64_t key;
	} *q0;
	size_t q0_mask;

	/* The children of every node on the path, a stack. */
	struct kid *kids;
	size_t nkids, akids;

	/* The path: a slot a ply, and where the current query began. */
	struct path_slot path[MATE_MAX_PLY + 64];
	int ply;
	int barrier;
	uint16_t repcount[4096];	/* path keys by their low bits */

	/* The session (mate_begin). */
	struct position pos;		/* the position being searched */
	enum color attacker;
	int problem;
	uint64_t salt;

	/* Limits and statistics. */
	uint64_t nodes, node_limit, next_check;
	struct timespec start;
	double time_limit;
	int stop;
	enum mate_stop why;
	int nest;			/* queries inside queries */
};

/* A 64-bit mix (splitmix64's finaliser): keys of paths and salts. */
static inline uint64_t
mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/*
 * The bounded query at the heart of everything: does c->pos mate within
 * R plies? 1 (r->len), 0 (r->dis), -1 stopped. c->pos is unchanged.
 */
int search_query(struct mate_ctx *c, int R, struct res *r);

/* Whether the defender (to move in pos) is mated at once: see q0. */
int search_mated_now(struct mate_ctx *c, const struct position *pos);

/*
 * Futility of the defender's drop m in pos: 1, 0, -1 unknown. bound is
 * a length the mates after the defender's other replies are known not
 * to pass (an upper bound of pos's own mate will do).
 */
int search_futile(struct mate_ctx *c, const struct position *pos, move m,
    int bound);

/* The table key, position key and attacker's hand after m (k's fields). */
void search_keys_after(const struct mate_ctx *c, const struct position *pos,
    move m, struct kid *k);

/* Whether m, legal in pos, gives check. */
int search_gives_check(const struct position *pos, move m);

double search_elapsed(const struct mate_ctx *c);

/*
 * Records a fact found outside the search (a checker's backward
 * induction): pos's mate is exactly len plies.
 */
void search_record_exact(struct mate_ctx *c, const struct position *pos,
    int len);

#endif /* KIFU_MATE_SEARCH_H */
