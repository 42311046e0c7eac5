/*
 * book_private.h - what the parts of book/ share and nothing else may
 * use: the values of moves (means, the evaluations tag), the reader of
 * a book's lines (read.c, which query.c runs from inside a file) and
 * the order of a position's moves (write.c, which queries print in).
 */
#ifndef KIFU_BOOK_BOOK_PRIVATE_H
#define KIFU_BOOK_BOOK_PRIVATE_H

#include <stdio.h>
#include <sys/types.h>

#include "book/book.h"
#include "core/sfen.h"
#include "core/usi.h"

/*
 * What a move's value is written with when it is no exact mean of its
 * count: the sum it was made of, so that merging loses nothing.
 */
#define BOOK_EVALS_TAG " #kifu-evals="

/*
 * The mean (n >= 1), rounded half away from zero, without overflow for
 * any sum and n a book's tag may carry.
 */
long long book_mean(long long sum, long long n);

/* Plays a value stands for when it carries no sum: its count, or 1. */
static inline long long
book_implied_evals(long long count)
{
	return count > 0 ? count : 1;
}

/* The moves kept (count >= min_count), in book order, into *idx. */
size_t book_order_moves(const struct bookagg_entry *e, int min_count,
    int by_seq, size_t **idx, size_t *alloc);

/* --- the reader ------------------------------------------------------------ */

/* A move of the position being read. */
struct book_rmove {
	char usi[USI_MOVE_MAX], ponder[USI_MOVE_MAX];
	long long count, evsum, evn, depth;
	int has_depth;
	struct strbuf tail;
	unsigned long line;		/* of the move line */
};

/* A position of a book being read, with its moves. */
struct book_rblock {
	int has;			/* a position is open */
	char key[SFEN_MAX];
	size_t key_len;
	long long ply;
	struct position pos;
	struct strbuf comment;
	struct book_rmove *m;
	size_t n, alloc;
};

/* A position read whole; returns nonzero to stop (returned by the reader). */
typedef int (*book_block_fn)(void *ctx, const struct book_rblock *b);

struct book_in {
	struct diag_list *d;		/* what is wrong goes here */
	unsigned long lineno;
	struct book_rblock blk;
	struct strbuf *preamble;	/* NULL: comments before any
					   position are dropped */
	int mid_file;			/* read from inside the file: no
					   line is its first */
	/*
	 * With mid_file, set when lineno counts from the byte offset
	 * before in file fd (a query's lines): the newlines before it are
	 * counted only for a message, as they may be most of a 500 MB
	 * book.
	 */
	int lines_after;
	int fd;
	off_t before;
};

void book_in_init(struct book_in *in, struct diag_list *d);
void book_in_release(struct book_in *in);

/*
 * One line into the open block (or a new one, given to done() when it
 * ends). 0; 1 after an error (in in->d); or done()'s nonzero.
 */
int book_in_line(struct book_in *in, const char *text, size_t len,
    book_block_fn done, void *ctx);

/*
 * Reads the file at path ("-": standard input) through done(), a
 * position at a time. 0; 1 after an error (in in->d); -1 with errno set
 * when it cannot be read; or done()'s nonzero.
 */
int book_in_file(struct book_in *in, const char *path, book_block_fn done,
    void *ctx);

/*
 * A position read into b's table. 0; 1 after a count that would pass
 * LLONG_MAX (in d, at the move's line); -1 with errno set when a run
 * could not be spilled.
 */
int book_add_block(struct book *b, const struct book_rblock *blk,
    struct diag_list *d);

#endif /* KIFU_BOOK_BOOK_PRIVATE_H */
