/*
 * bookagg.h - the positions and moves of a book being made (`kifu book
 * build`, `merge`, `sort`), within a memory budget. The hash table is
 * kept small (BOOKAGG_CHUNK) so that it stays in
 * the processor's caches: when full it is sorted into a compact run held
 * in memory, and emptied; when the runs in memory pass the budget they
 * are written to temporary files. At the end the runs (and what is left
 * in the table) are merged, at most BOOKAGG_FANIN at a time, and every
 * position is handed over once, in the order of its key's bytes, with
 * all its moves combined.
 *
 * A move's evaluations are kept as a sum and a number of evaluated
 * plays, so that combining runs, shards or books gives the mean one pass
 * over every game would (book/write.c rounds it when it writes).
 *
 * One thread at a time; owns its table and its runs, temporary files
 * removed from their directory as soon as they are made (nothing is
 * left behind, whatever stops kifu). Tables filled apart (one a worker
 * thread) join with bookagg_absorb.
 */
#ifndef KIFU_BOOK_BOOKAGG_H
#define KIFU_BOOK_BOOKAGG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/sfen.h"
#include "core/strbuf.h"

#define BOOKAGG_FANIN 64
/*
 * The table's size at most (and a quarter of the budget at most, the
 * rest being for the runs): a table that outgrows the caches makes every
 * position a cache miss, and sorting small runs then merging them is
 * cheaper than sorting one big table (measured: make bench).
 */
#define BOOKAGG_CHUNK (8u << 20)
/* Runs held open at most before they are merged down to BOOKAGG_FANIN. */
#define BOOKAGG_MAX_OPEN 256

/* A move as added or handed over; texts borrowed. */
struct bookagg_move {
	const char *usi;		/* NUL-terminated, at most 7 bytes */
	const char *ponder;		/* "" for none */
	long long count;
	long long evsum, evn;		/* evaluations: sum, plays with one */
	int has_depth;
	long long depth;		/* combined: the deepest */
	long long seq;			/* first seen; set by bookagg_add */
	const char *tail;		/* the line's tail and the comment
					   lines after it, '\n'-joined */
	size_t tail_len;
};

/* A position handed over: every pointer valid during the call only. */
struct bookagg_entry {
	const char *key;		/* board side hands */
	size_t key_len;
	long long ply;			/* the lowest move number seen */
	const char *comment;		/* comment lines after the sfen line */
	size_t comment_len;
	struct bookagg_move *moves;	/* in first-seen order */
	size_t n;
};

struct bookagg_pos;
struct bookagg_mv;

/* A sorted run: its bytes in memory, or (f set) in a temporary file,
   open, owned, already removed from its directory. */
struct bookagg_run {
	FILE *f;
	struct strbuf mem;
};

struct bookagg {
	size_t budget;			/* bytes */
	const char *tmpdir;		/* where runs go */
	struct strbuf arena;		/* keys, tails, comments */
	struct bookagg_pos *pos;
	size_t npos, apos;
	struct bookagg_mv *mv;
	size_t nmv, amv;
	uint64_t *slot;			/* hash table of pos (bookagg.c) */
	size_t cap;
	long long seq;
	struct bookagg_run *runs;	/* in input order */
	size_t nruns, aruns;
	size_t run_bytes;		/* held by the runs in memory */
	int spills;			/* runs written to temporary files */
	int error;			/* errno of a failed run write/read */
	/* With error EOVERFLOW: "MOVE at SFEN", the move whose count or
	   evaluations would have passed LLONG_MAX. */
	char overflow[SFEN_MAX + 16];
};

/* budget in bytes; tmpdir: the directory for runs (borrowed). */
void bookagg_init(struct bookagg *a, size_t budget, const char *tmpdir);
void bookagg_release(struct bookagg *a);

/*
 * Adds one move (m->seq is ignored) of the position key (key_len
 * bytes) seen at move number ply, or with m NULL only the position's
 * comment (comment_len bytes, may be 0). The same move of the same
 * position adds up. May spill: returns 0, or -1 with errno set (the
 * run could not be written; a->error), or EOVERFLOW when the move's
 * count or evaluations would pass LLONG_MAX (a->overflow names it).
 */
int bookagg_add(struct bookagg *a, const char *key, size_t key_len,
    long long ply, const struct bookagg_move *m, const char *comment,
    size_t comment_len);

/* The order of keys: their bytes, a prefix before what it begins. */
int bookagg_key_cmp(const char *a, size_t an, const char *b, size_t bn);

/*
 * Takes from's table and runs into into (from is left empty, to be
 * released): what bookagg_finish hands over afterwards is what one
 * table given both tables' adds would have. A move's seq then orders it
 * within its table only. Returns 0, or -1 with errno set (a run could
 * not be written; from's own error, EOVERFLOW too, passes to into).
 */
int bookagg_absorb(struct bookagg *into, struct bookagg *from);

typedef int (*bookagg_emit_fn)(void *ctx, const struct bookagg_entry *e);

/*
 * Hands every position over in key order, then empties a. Stops when
 * emit returns nonzero (returned). Returns 0, emit's nonzero, or -1
 * with errno set (a run could not be read or written; EOVERFLOW as for
 * bookagg_add, when runs add a move up).
 */
int bookagg_finish(struct bookagg *a, bookagg_emit_fn emit, void *ctx);

/*
 * A size with an optional K, M or G (powers of 1024), into *bytes.
 * Returns 0, or -1 if s is none (or is below 64K or above 1T).
 */
int bookagg_parse_size(const char *s, size_t *bytes);

#endif /* KIFU_BOOK_BOOKAGG_H */
