/*
 * openings.h - the openings a match starts its games from: lines of
 * SFEN/USI (`startpos moves ...`, `sfen ... moves ...`, with or without
 * a leading `position `), or the first plies of the records of any
 * format kifu reads.
 *
 * Every opening is replayed by the rules core when it is read: an
 * illegal move, a bad SFEN, an opening that leaves no legal move is an
 * error naming the file and line, before any game is played.
 */
#ifndef KIFU_ENGINE_OPENINGS_H
#define KIFU_ENGINE_OPENINGS_H

#include <stddef.h>

#include "core/position.h"
#include "core/variant.h"

/* The plies taken from a record when none are asked. */
#define OPENINGS_RECORD_PLIES 16

struct opening {
	struct position start;	/* where the opening starts */
	move *moves;		/* owned: legal from start */
	int nmoves;
	char *where;		/* owned: "file:line" ("" for the default) */
};

struct openings {
	struct opening *v;	/* owned */
	size_t n, alloc;
};

void openings_init(struct openings *o);
void openings_release(struct openings *o);

/* The variant's initial position, no moves: a match without openings. */
void openings_add_start(struct openings *o, const struct variant *v);

/*
 * Reads an openings file (name for messages; text its bytes): SFEN/USI
 * lines, one opening a line ('#' comments and blank lines skipped), or
 * when the text is no such file, records of any format (detected), of
 * which the first `plies` moves of the main line are the opening (plies
 * < 0: OPENINGS_RECORD_PLIES). With plies >= 0 a line of moves is cut
 * there too; with plies < 0 it is taken whole.
 * Returns 0, or -1 with "file:line: what" in err (nothing added).
 */
int openings_read(struct openings *o, const char *name, const char *text,
    size_t len, const struct variant *v, int plies, char *err, size_t n);

/*
 * Whether the text is a DB2016 book: its header line, or (as ShogiHome
 * writes books, with none) a position line followed by a move line.
 */
int openings_is_book(const char *text, size_t len);

/*
 * Openings from a DB2016 book (`kifu book`'s format, parsers/book.h):
 * `count` walks from the variant's initial position, each move chosen
 * at random in proportion to the book's counts for it, up to `plies`
 * moves (< 0: OPENINGS_RECORD_PLIES) or a position the book does not
 * have. The walks are a function of seed. Every move of the book is
 * judged when it is read: an illegal one is an error naming its line.
 * Returns 0, or -1 with "file:line: what" in err (nothing added).
 */
int openings_read_book(struct openings *o, const char *name, const char *text,
    size_t len, const struct variant *v, int plies, size_t count,
    unsigned long long seed, char *err, size_t n);

/*
 * The openings of a match: the variant's initial position when path is
 * NULL, else the file at path (api/input.h: "-" is standard input),
 * read as a book when it is one (count walks), else as lines or records.
 * Returns 0, or -1 with "file:line: what" (or why the file cannot be
 * read, or that it holds none) in err.
 */
int openings_load(struct openings *o, const char *path,
    const struct variant *v, int plies, size_t count,
    unsigned long long seed, char *err, size_t n);

/* The order openings are played in: as read, or shuffled by seed. */
void openings_order(size_t *order, size_t n, int random,
    unsigned long long seed);

/* The opening as a USI position ("sfen ... moves ..."), into buf. */
void opening_usi(const struct opening *op, char *buf, size_t n);

/*
 * A permutation of 0..n-1 from seed (splitmix64 and Fisher-Yates): the
 * same seed gives the same order on every machine.
 */
void openings_shuffle(size_t *order, size_t n, unsigned long long seed);

#endif /* KIFU_ENGINE_OPENINGS_H */
