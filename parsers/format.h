/*
 * format.h - the interface every record format implements.
 *
 * One format = one parser file (parsers/<fmt>.c) and one writer file
 * (writers/<fmt>.c), each exporting what this header declares for it;
 * the table that lists them is api/formats.c. Adding a format touches no
 * other format.
 *
 * Parsers read decoded UTF-8 text (core/text.h) and only describe what the
 * text says: they fill a record with move specs and never decide legality
 * (core/replay.h does). Writers take a replayed record (every node's `mv`
 * set up to the first illegal move of its line) and append text to a
 * strbuf; the caller encodes and writes it.
 */
#ifndef KIFU_PARSERS_FORMAT_H
#define KIFU_PARSERS_FORMAT_H

#include "core/diag.h"
#include "core/limit.h"
#include "core/record.h"
#include "core/strbuf.h"
#include "core/text.h"

enum read_status {
	READ_OK,		/* a record was read (it may carry warnings) */
	READ_EOF,		/* no more records */
	READ_ERROR,		/* this record is damaged; the next may be fine */
	READ_FATAL		/* the rest of the stream cannot be read */
};

/*
 * Where a parser is in a text that may hold several records (CSA "/",
 * one USI game per line). Zeroed by reader_init(); the parser owns every
 * field but `t` and `v`.
 */
struct reader {
	const struct text *t;	/* borrowed */
	const struct variant *v;
	const struct limits *lim;	/* borrowed; reader_init: the defaults */
	size_t line;		/* index of the next line to read */
	int nread;		/* records returned so far */
	int version;		/* format-specific (CSA: version seen) */
	int done;
	/*
	 * Set by the caller: only the headers and the start position are
	 * wanted (a search that looks at nothing else). A parser may then
	 * leave the moves, times and terminals unread (and what else their
	 * lines hold: a raw header, HDR_RAW, for an unknown statement among
	 * them), and the record holds no node but the root, or the first
	 * move where that is what starts the game; it moves on to the next
	 * record as ever.
	 * The caller reads a record again whole (from a copy of the reader
	 * made before) when it wants more of it.
	 */
	int headers_only;
};

void reader_init(struct reader *rd, const struct text *t,
    const struct variant *v);

/*
 * Checks the record being read against rd->lim once line li (0-based) has
 * been read into it. Returns 0, or -1 after adding a "limit" error at the
 * move, header or line that went over; the parser then gives up on the
 * record. Parsers call it once a line (once a move where one line holds
 * many), so that no record grows far past a limit before it is stopped.
 * li may be READER_NO_LINE where no line applies (JKF's moves).
 * Called for every line: the comparisons are inline, the report
 * (reader_limit_error, which returns -1) out of line.
 */
#define READER_NO_LINE ((size_t)-1)
int reader_limit_error(const struct reader *rd, const struct record *r,
    size_t li, struct diag_list *d);

static inline int
reader_check_limits(const struct reader *rd, const struct record *r,
    size_t li, struct diag_list *d)
{
	const struct limits *lim = rd->lim;

	if ((lim->moves && r->nnodes - 1 > lim->moves) ||
	    (lim->depth && (uint32_t)r->depth > lim->depth) ||
	    (lim->headers && r->nheaders > lim->headers) ||
	    (lim->record && r->loc.line && li < rd->t->nlines &&
	    (size_t)rd->t->lines[li].off + rd->t->lines[li].len -
	    r->loc.byte > lim->record))
		return reader_limit_error(rd, r, li, d);
	return 0;
}

struct write_opts {
	int csa_version;	/* 2 (V2.2, default) or 3 (V3.0) */
	/*
	 * The encoding the caller will convert the output to ("UTF-8",
	 * "CP932", "EUC-JP"), for formats that declare it in the text;
	 * writers still produce UTF-8.
	 */
	const char *encoding;
	/*
	 * A rule set to state in the record's header (KIF kifu-rules, CSA
	 * $KIFU_RULES, a JKF "kifu-rules" key), as ruleset_describe()
	 * prints it, in place of any rules header the record has; "": no
	 * rules header at all; NULL: the record's headers as they are.
	 * api/keeprules.c sets it where the target cannot hold the evidence
	 * the record's rules came from, or holds it again.
	 */
	const char *rules;
};

enum format_caps {
	CAP_VARIATIONS = 1 << 0,
	CAP_COMMENTS = 1 << 1,
	CAP_TIME = 1 << 2,
	CAP_MULTI = 1 << 3,	/* several records in one file */
	CAP_HEADERS = 1 << 4,
	/*
	 * Every header value read is a slice of one line of the text as
	 * written (trimmed at most): no escapes undone, no lines joined. A
	 * search may then pass over a text in which what it looks for
	 * occurs nowhere (JKF's "\u" escapes rule that out).
	 */
	CAP_HEADERS_AS_WRITTEN = 1 << 5
};

struct format {
	const char *name;		/* "csa", "usi", "sfen", ... */
	const char *const *extensions;	/* NULL-terminated, with the dot */
	/* Written between two records in one file; NULL: one record a file. */
	const char *separator;
	const char *default_encoding;	/* of written files */
	unsigned caps;
	/*
	 * How sure the format is that t is one of its files: 0 (not mine) to
	 * 100 (certain). Only looks; never allocates.
	 */
	int (*detect)(const struct text *t);
	/* Reads the next record into out (reset by the caller). */
	enum read_status (*read)(struct reader *rd, struct record *out,
	    struct diag_list *d);
	/* NULL if the format cannot be written. Returns 0, or -1 on error. */
	int (*write)(const struct record *r, const struct write_opts *o,
	    struct strbuf *out, struct diag_list *d);
	/*
	 * Formats of one position (sfen, bod): writes the position after
	 * `ply` moves of the main line instead (`kifu convert --ply`). NULL
	 * for formats of whole records.
	 */
	int (*write_at)(const struct record *r, int ply,
	    const struct write_opts *o, struct strbuf *out,
	    struct diag_list *d);
	/*
	 * Optional, for a caller that would pass over t unread (a search
	 * that knows from the text alone that nothing in it matches) and
	 * still owes the warning for a file without a record: 1 when read
	 * surely gives at least one record (READ_EOF not at once), 0 when
	 * it may give none. Only looks; cheap, as it stops at the first
	 * line that settles it.
	 */
	int (*has_record)(const struct text *t);
};

/* Parsers and writers, one pair per format. */
int csa_detect(const struct text *t);
int csa_has_record(const struct text *t);
enum read_status csa_read(struct reader *rd, struct record *out,
    struct diag_list *d);
int csa_write(const struct record *r, const struct write_opts *o,
    struct strbuf *out, struct diag_list *d);
/* A move as CSA writes it, "+7776FU" (the piece as it is after the
   move), NUL-terminated. */
void csa_format_move(move m, char buf[8]);

int usi_detect(const struct text *t);
enum read_status usi_read(struct reader *rd, struct record *out,
    struct diag_list *d);
int usi_write(const struct record *r, const struct write_opts *o,
    struct strbuf *out, struct diag_list *d);
/* KIF (.kif, .kifu) and KI2 (.ki2, .ki2u): Kakinoki's formats. */
int kif_detect(const struct text *t);
enum read_status kif_read(struct reader *rd, struct record *out,
    struct diag_list *d);
int kif_write(const struct record *r, const struct write_opts *o,
    struct strbuf *out, struct diag_list *d);
/*
 * Only the moves of the main line as kif_write writes them (the separator
 * line, times, comments, the terminal and its まで line), for people to
 * read (`kifu show --moves`).
 */
int kif_write_main_line(const struct record *r, struct strbuf *out,
    struct diag_list *d);

int ki2_detect(const struct text *t);
enum read_status ki2_read(struct reader *rd, struct record *out,
    struct diag_list *d);
int ki2_write(const struct record *r, const struct write_opts *o,
    struct strbuf *out, struct diag_list *d);

/*
 * Formats of one position. The *_write_at functions write the position
 * after `ply` moves of the main line (ply < 0: after its last legal move)
 * and fail with an error in d when the main line has fewer legal moves;
 * sfen_write_record and bod_write are them with ply -1. What the position
 * leaves out (moves, headers, comments...) is one warning.
 */
int sfen_write_record(const struct record *r, const struct write_opts *o,
    struct strbuf *out, struct diag_list *d);
int sfen_write_at(const struct record *r, int ply, const struct write_opts *o,
    struct strbuf *out, struct diag_list *d);
/* BOD: the KIF board diagram (formats.md 3.4), written by writers/bod.c. */
int bod_write(const struct record *r, const struct write_opts *o,
    struct strbuf *out, struct diag_list *d);
int bod_write_at(const struct record *r, int ply, const struct write_opts *o,
    struct strbuf *out, struct diag_list *d);
/*
 * For the position writers: the position after `ply` moves (see above)
 * into *pos and the node of the last move played into *last; returns the
 * moves played, or -1 (with an error in d naming `fmt`) when the main line
 * is shorter than ply. Then, after writing, position_report_dropped() adds
 * the one warning naming what the position left out (all but `kept` of
 * the headers).
 */
int position_writer_start(const struct record *r, int ply, const char *fmt,
    struct position *pos, int32_t *last, struct diag_list *d);
void position_report_dropped(const struct record *r, const char *fmt,
    int played, size_t kept, struct diag_list *d);

/*
 * For the writers of formats that cannot say the board was shown turned
 * (record.flipped: KIF's 盤面回転): the warning that it was dropped.
 */
void writer_report_flipped(const struct record *r, const char *fmt,
    struct diag_list *d);

#endif /* KIFU_PARSERS_FORMAT_H */
