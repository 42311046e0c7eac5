/*
 * problems.h - problems from a stream, one a line, as the mate test sets
 * are written (`kifu mate FILE`): a bare SFEN, "sfen <SFEN>",
 * "startpos", or "position startpos|sfen <SFEN>", each with "moves ..."
 * if wanted; blank lines and lines starting with '#' are skipped.
 *
 * The stream is read a block at a time and a line is kept only while it
 * is read, so a set of millions of problems is never read whole. Each
 * line goes through the USI reader and replay (parsers/usi.c,
 * core/replay.h), as a record of one line would: the same errors with
 * the same ids, at the line's place in the stream.
 */
#ifndef KIFU_API_PROBLEMS_H
#define KIFU_API_PROBLEMS_H

#include <stdio.h>

#include "core/diag.h"
#include "core/record.h"
#include "core/strbuf.h"
#include "core/text.h"

struct problem_reader {
	FILE *f;			/* borrowed */
	const struct variant *v;
	size_t max_line;		/* longest line taken (bytes); 0: any */
	int ply;			/* the position after this many moves; -1: all */
	char *buf;
	size_t start, len, alloc;	/* unread bytes: buf[start..len) */
	size_t line;			/* lines read so far */
	int eof, error;			/* error: errno of a failed read */
	int keep;			/* keep every byte (until sniffed) */
	/* Reused from line to line. */
	struct text t;
	struct record r;
};

/* The outcome of one line. */
struct problem {
	size_t line;			/* 1-based, in the stream */
	struct position pos;		/* after the moves (valid unless errors) */
	int moves;			/* moves played to reach pos */
	struct diag_list d;		/* errors and warnings, at the line */
};

void problem_reader_init(struct problem_reader *pr, FILE *f,
    const struct variant *v, int ply);
void problem_reader_release(struct problem_reader *pr);
void problem_init(struct problem *p);
void problem_release(struct problem *p);

/*
 * Whether the stream is one of problem lines: its first line that is
 * neither blank nor a '#' comment starts as a position line does (a
 * stream with no such line is an empty set of problems). Reads
 * no further than that line, and keeps every byte read so far, so that
 * problem_reader_rest can still hand the whole stream to a record
 * reader. 1 yes, 0 no (or an empty stream), -1 read error (errno).
 */
int problem_reader_sniff(struct problem_reader *pr);

/*
 * The next problem into p (cleared first). Returns 1, 0 at the end, -1
 * on a read error (errno). A line that cannot be read as a position
 * comes back with errors in p->d, and the next line is read next time;
 * a line longer than max_line is a "limit" error and is skipped whole
 * without being kept.
 */
int problem_reader_next(struct problem_reader *pr, struct problem *p);

/*
 * Everything from the start of the stream (after problem_reader_sniff
 * said no) into out, at most `max` bytes (more: -1 with errno EFBIG).
 * Returns 0, or -1 (errno).
 */
int problem_reader_rest(struct problem_reader *pr, struct strbuf *out,
    size_t max);

/*
 * Reads one position line s[0..n) as problem_reader_next does: for
 * callers that hold the text (an SFEN given on the command line).
 */
void problem_from_text(const char *s, size_t n, const struct variant *v,
    int ply, size_t line, struct problem *p);

#endif /* KIFU_API_PROBLEMS_H */
