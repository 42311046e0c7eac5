/*
 * tt.h - the mate solver's tables: what is known of each position
 * (proof and disproof numbers, a mate length proved, a depth within
 * which no mate exists), and the results that only hold on one path.
 *
 * A position is keyed by its board (with the side to move) and the
 * attacker's hand. Within one problem every piece is on the board or in
 * a hand, so board and attacker's hand decide the defender's hand too;
 * the board key is salted with the set's piece counts (mate_begin), so
 * problems of different piece sets never share an entry.
 *
 * Entries for one board sit in one cluster, so that a lookup also finds
 * the same board with other attacker hands: a mate proved with fewer
 * pieces in hand holds with more, and no mate with more pieces holds
 * with fewer (superiority of hands, Seo 1999). Both kinds of fact carry
 * their length: "mate within L plies" and "no mate within D plies".
 *
 * The tables are fixed arrays sized once from the memory budget; nothing
 * grows during a search. Not shared between threads.
 */
#ifndef KIFU_MATE_TT_H
#define KIFU_MATE_TT_H

#include <stddef.h>
#include <stdint.h>

/* Proof and disproof numbers: PN_INF is proved (for the other number). */
#define PN_INF 0x3fffffffu
/* The largest unproved number: sums stop here, below PN_INF. */
#define PN_MAX (PN_INF - 1)

/* Lengths in plies; LEN_NONE: none proved. */
#define LEN_NONE 0xffff
/* "No mate within D plies", D = DIS_ABS: no mate at all. */
#define DIS_ABS 0xfffe
/* DIS_NONE: nothing disproved. */
#define DIS_NONE 0xffff

struct tt_entry {
	uint64_t key;		/* salted board key; 0: empty */
	uint32_t hand;		/* attacker's hand, packed (hand_pack) */
	uint32_t pn, dn;	/* the last search's numbers */
	uint16_t len;		/* mate within len plies proved; LEN_NONE */
	/*
	 * The same counting every defence (MATE_GAME's measure): only
	 * these lengths carry over to larger hands, since the problem
	 * measure's futility compares defences and is not monotone.
	 */
	uint16_t glen;
	uint16_t dis;		/* no mate within dis plies; DIS_NONE */
	uint16_t best;		/* low 16 bits of the best move; 0 none */
	uint16_t ply;		/* shallowest ply it was reached at (TCA) */
	uint8_t amount;		/* log2 of the nodes spent below it */
	uint8_t gen;		/* the solve that wrote it */
};

/* Four entries, two cache lines: one board's hands share them. */
#define TT_CLUSTER 4

/*
 * The table reserves its whole budget as address space but uses a
 * prefix of it, a power of two of clusters, which doubles (in place,
 * each cluster split in two by one more key bit) when half its slots
 * are taken: a short search stays in a few hundred KB, a long one gets
 * the whole budget, and no page is touched before it is used.
 */
struct tt {
	struct tt_entry *e;
	size_t mask;		/* clusters in use - 1 */
	size_t max;		/* clusters reserved */
	size_t used;		/* slots taken in the prefix */
	uint8_t gen;
};

/*
 * Reserves at most `bytes` (a power of two of clusters, at least one).
 * Returns 0, or -1 when the address space cannot be had.
 */
int tt_init(struct tt *t, size_t bytes);
void tt_release(struct tt *t);
/* The bytes reserved (the ceiling) and the bytes in use now. */
size_t tt_bytes(const struct tt *t);
size_t tt_bytes_used(const struct tt *t);

/*
 * Attacker's hands packed into a word with a zero guard bit above each
 * count, so that a - b borrows into a guard bit exactly when some count
 * of b exceeds a's: hand_le(b, a) is one subtraction.
 */
uint32_t hand_pack(const uint8_t hand[8]);

#define HAND_GUARDS 0x22222220u

/* Whether hand a holds no more of any kind than hand b. */
static inline int
hand_le(uint32_t a, uint32_t b)
{
	/*
	 * Pawns in bits 0-4, guard 5; then lances, knights, silvers,
	 * bishops, rooks and golds, three bits and a guard each.
	 */
	return ((b - a) & HAND_GUARDS) == 0;
}

/* What the table knows of a position, for a search bounded to `bound`. */
struct tt_probe {
	uint32_t pn, dn;
	uint16_t len;		/* proved mate length, or LEN_NONE */
	uint16_t glen;		/* the same counting every defence */
	uint16_t dis;		/* proved no-mate depth, or DIS_NONE */
	uint16_t best;
	uint16_t ply;		/* 0xffff: no entry of its own */
	int found;		/* an entry of this very hand exists */
};

/*
 * Looks the position up: its own entry, and the proofs and disproofs of
 * the same board with hands that decide it (under the problem measure,
 * `problem`, only lengths counted in the game measure and no-mates at
 * all carry over). Proof and disproof are reported whatever the bound;
 * the caller compares.
 */
void tt_lookup(const struct tt *t, uint64_t key, uint32_t hand, int problem,
    struct tt_probe *p);

/*
 * Stores what a search found. len and dis combine with what the entry
 * held (the shortest proof, the deepest disproof). amount is the log2 of
 * the nodes the search spent; ply the depth the node was searched at.
 */
void tt_store(struct tt *t, uint64_t key, uint32_t hand, uint32_t pn,
    uint32_t dn, uint16_t len, uint16_t glen, uint16_t dis, uint16_t best,
    unsigned amount, unsigned ply);

/*
 * Results that hold on one path only: a no-mate that rests on a
 * repetition of a position earlier on the path (graph history
 * interaction). Keyed by a hash of the whole path, so that another path
 * to the same position never sees them.
 */
struct path_entry {
	uint64_t key;		/* path key; 0: empty */
	uint16_t dis;		/* no mate within dis plies on this path */
	uint16_t spare[3];
};

struct path_table {
	struct path_entry *e;
	size_t mask;
};

int path_table_init(struct path_table *t, size_t bytes);
void path_table_release(struct path_table *t);
void path_table_clear(struct path_table *t);
/* DIS_NONE when the path has no entry. */
uint16_t path_table_get(const struct path_table *t, uint64_t key);
void path_table_put(struct path_table *t, uint64_t key, uint16_t dis);

#endif /* KIFU_MATE_TT_H */
