/*
 * book.h - opening books in YaneuraOu's text format (`#YANEURAOU-DB2016
 * 1.00`; the lines themselves: parsers/book.h, writers/book.c), made and
 * read in a memory budget (book/bookagg.h):
 *
 *   build  the moves played from the first plies of every selected game
 *          (query/select.h, as `kifu export` selects), the games walked
 *          as `check` walks them (walk/pipeline.h) or handed over one by
 *          one (book_add_record); the bytes are the same for every -j;
 *   read   books combined as one build over all their games would
 *          (`kifu book merge`, and `sort` with one book);
 *   write  the table out, sorted by position as YaneuraOu sorts a book;
 *   query  a position's moves, by binary search in a sorted book.
 *
 * Every book read is checked: each position by core/sfen, each move and
 * ponder move by core/rules against it. Nothing here prints: what is
 * wrong comes back as diagnostics (with the book's line and column) or a
 * status, and the counts of a build are in struct book.
 *
 * A struct book is used by one thread at a time; a build walks with
 * worker threads of its own (book_build).
 */
#ifndef KIFU_BOOK_BOOK_H
#define KIFU_BOOK_BOOK_H

#include <pthread.h>
#include <stddef.h>

#include "api/judge.h"
#include "api/output.h"
#include "book/bookagg.h"
#include "core/diag.h"
#include "core/position.h"
#include "core/strbuf.h"
#include "parsers/train.h"
#include "query/select.h"
#include "walk/pipeline.h"

/* The positions' budget when none is given: `--memory`'s default. */
#define BOOK_DEFAULT_MEMORY ((size_t)512 << 20)

/* Why a record is not in the book: reading, then the selection's. */
enum {
	BOOK_WHY_USED = 0, BOOK_WHY_UNREADABLE, BOOK_WHY_ILLEGAL,
	BOOK_WHY_SELECT = 3,
	BOOK_WHY_TRAIN = BOOK_WHY_SELECT + SELECT_NB,	/* a start refused */
	BOOK_WHY_NB = BOOK_WHY_TRAIN + TRAIN_SKIP_NB
};

/* "unreadable", "illegal", a selection's drop or a start's refusal. */
const char *book_why_name(int why);

struct book_opts {
	int max_ply;		/* build: positions at plies 0..max_ply-1 */
	int min_count;		/* moves played fewer times are dropped */
	int side;		/* build: BLACK, WHITE, or -1 for both */
	int by_seq;		/* ties of count and value in read order */
	size_t memory;		/* the positions' budget, bytes */
	const char *tmpdir;	/* where runs spill (borrowed) */
	struct select_opts so;	/* build: which records */
	struct judge_opts jo;	/* build: how they are read and judged */
	/*
	 * build: an input the walk could not read, in its turn (on the
	 * thread that called book_build). May be NULL.
	 */
	void (*unreadable)(void *ctx, const char *name, const char *why);
	void *ctx;
};

/* Defaults: 40 plies, both sides, every move, 512M, the directory ".". */
void book_opts_init(struct book_opts *o);

struct book {
	struct book_opts o;
	struct bookagg agg;
	struct select_seen seen;
	struct strbuf preamble;	/* comment lines before any position */
	/* counts */
	long long records, used, files_skipped, why[BOOK_WHY_NB];
	long long plies, positions, moves;
	int failed;		/* an input could not be read */
	int error;		/* errno of a failed run or write; 0 none */
	/* internal: the workers' tables join agg one at a time */
	pthread_mutex_t join;
	struct strbuf w;	/* an entry's text, reused */
	size_t *idx, aidx;
};

/* o is copied; its pointers are borrowed for the book's life. */
void book_init(struct book *b, const struct book_opts *o);
void book_release(struct book *b);

/* --- build ---------------------------------------------------------------- */

/*
 * One judged record into the book, if the selection keeps it (the
 * counts say why not): its status, and unless it is VERDICT_ERROR the
 * record replayed and adjudicated (borrowed for the call; a kifu_record
 * of the library holds them). Returns 0, or -1 with b->error set (a run
 * could not be spilled; EOVERFLOW: b->agg.overflow names the move).
 */
int book_add_record(struct book *b, enum verdict_status st,
    const struct record *r, const struct replay *rp,
    const struct adjudication *adj);

/*
 * Every record under the paths (with from_stdin, also the paths standard
 * input names, NUL-separated with nul), walked with po's jobs: each
 * worker keeps a table of its own unless --uniq (o.so.uniq) needs the
 * records in input order, and the tables join at the end. po->judge is
 * set from the book's options. Returns 0, -1 with errno set when the
 * walk could not start, or 1 with b->error set (a run could not be
 * spilled, or EOVERFLOW).
 */
int book_build(struct book *b, struct pipeline_opts *po, char *const *paths,
    int npaths, int from_stdin, int nul, double *seconds);

/* --- read -------------------------------------------------------------------- */

/*
 * Reads the book at path ("-": standard input; name as shown in d),
 * every position and move into the table; with preamble, the comment
 * lines before its first position are kept in b->preamble. Returns 0;
 * 1 after an error in the book, added to d with its line and column
 * (nothing more is read); or -1 with errno set when it cannot be read
 * (or a run could not be spilled: b->error).
 */
int book_read(struct book *b, const char *path, int preamble,
    struct diag_list *d);

/* --- write ------------------------------------------------------------------- */

enum book_write_status {
	BOOK_WRITTEN = 0,
	BOOK_WRITE_FAILED,	/* the output: errno */
	BOOK_RUN_FAILED,	/* a temporary run: errno */
	BOOK_OVERFLOW		/* a sum past LLONG_MAX: b->agg.overflow */
};

/*
 * The header, the preamble and every position (the moves of at least
 * o.min_count plays, most played first) to out, the table emptied.
 * Commits nothing: the caller commits or aborts out.
 */
enum book_write_status book_write(struct book *b, struct output_stream *out);
/*
 * The same bytes to put(ctx, data, n), which returns 0, or -1 with
 * errno set (BOOK_WRITE_FAILED).
 */
typedef int (*book_sink_fn)(void *ctx, const void *data, size_t n);
enum book_write_status book_write_to(struct book *b, book_sink_fn put,
    void *ctx);

/* --- query --------------------------------------------------------------------- */

/*
 * The moves of pos in the book at path, into the table (b->agg): found
 * by binary search in the file when the book is sorted, else by
 * reading it through. Returns 1 found, 0 not, -1 with errno set when it
 * cannot be read, or 2 after an error in the book (in d).
 */
int book_query(struct book *b, const char *path, const struct position *pos,
    struct diag_list *d);

/*
 * The table's positions in order, each move as a query prints it:
 * "move ponder value depth count\n", most played first.
 */
void book_query_text(struct book *b, struct strbuf *out);

#endif /* KIFU_BOOK_BOOK_H */
