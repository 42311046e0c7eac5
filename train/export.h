/*
 * export.h - training data from the records of a walk: the rows
 * (parsers/train.h) of every selected record, written in input order
 * whatever -j, and the merge of the outputs of shards; what `kifu
 * export` does (cmd/export.c).
 *
 * Workers judge each record (api/judge.h), apply the per-record filters
 * (query/select.h) and write its rows into their batch; the main thread
 * takes the batches in input order (walk/pipeline.h), drops the records
 * --uniq has seen (so the same ones for every -j), and streams the rest
 * to the output, a temporary file put in place at the end (api/output.h),
 * with each record's key, rows and bytes in a keys file (parsers/keys.h)
 * if one is asked for. A merge reads pairs of a rows file and its keys
 * file and writes what one run with --uniq over all the inputs gives.
 *
 * Nothing is printed. What is wrong comes back in `why`, one message a
 * line; the notes of a run (a record not exported, with verbose; an
 * input that cannot be read) go to the stream the caller names; the
 * counts to a struct export_tally, which export_summary_* put in words.
 */
#ifndef KIFU_TRAIN_EXPORT_H
#define KIFU_TRAIN_EXPORT_H

#include <stdio.h>

#include "api/trainformats.h"
#include "core/strbuf.h"
#include "query/select.h"
#include "walk/pipeline.h"

/*
 * Why a record is not exported, as one number: the reading verdicts,
 * then the selection's drops (query/select.h), then the format's
 * (train_skip). The names are the summary's (export_why_name).
 */
enum {
	EXPORT_EXPORTED = 0, EXPORT_UNREADABLE, EXPORT_ILLEGAL,
	EXPORT_SELECT = 3,
	EXPORT_TRAIN = EXPORT_SELECT + SELECT_NB,
	EXPORT_WHY_NB = EXPORT_TRAIN + TRAIN_SKIP_NB
};

/* "exported", "unreadable", "illegal", "min-moves", ..., "no-eval". */
const char *export_why_name(int why);

/* What an export or a merge counts, for its summary. */
struct export_tally {
	long long records, exported, disputed, files_skipped, shards;
	unsigned long long rows, bytes;
	long long why[EXPORT_WHY_NB];	/* records not exported, by why */
	double seconds;			/* the caller's to set for a walk */
	long long inputs_failed;	/* inputs that could not be read */
};

/* What to export and where; every pointer is borrowed for the export. */
struct export_opts {
	/* The rows; for a merge, the format the shards must be of, or NULL. */
	const struct train_format *fmt;
	struct train_opts rows;
	struct select_opts select;	/* export only */
	const char *out_path;		/* NULL or "-": standard output */
	const char *keys_path;		/* NULL: no keys file */
	int force;			/* replace existing files */
	int verbose;			/* a note for each record dropped */
	/* Where the notes go; NULL drops them. */
	FILE *notes;
};

/*
 * An export: export_open (the outputs opened and refused at once if
 * they cannot be written: an existing file without force, binary rows
 * to a terminal), a walk of the paths with export_ops and the export as
 * the ctx (pipeline_opts.judge: how the records are read and judged),
 * then export_finish, or export_abort after a walk that failed.
 */
struct export;

/* Counting into *t (zeroed first). NULL with why set when it cannot. */
struct export *export_open(const struct export_opts *o,
    struct export_tally *t, struct strbuf *why);

extern const struct pipeline_ops export_ops;

/*
 * Puts the files in place, the keys last: a keys file never names rows
 * that are not there. Returns 0, or -1 with why set (nothing left
 * behind, not even the rows of a failed write).
 */
int export_finish(struct export *x, struct strbuf *why);
/* Removes what was written. */
void export_abort(struct export *x);
void export_free(struct export *x);

/*
 * The merge of the shards files[0..nfiles-1], pairs of a rows file and
 * its keys file (--keys-out), in input order: their rows, dropping every
 * record whose key an earlier one had, to o->out_path (keys to
 * o->keys_path). Every shard is checked before anything is written: its
 * keys read, hold one format, and add up to its rows file's size.
 * Counts into *t (zeroed first, seconds set); *format is the rows'.
 * Returns 0, or -1 with why set (nothing left behind).
 */
int export_merge(const struct export_opts *o, char *const *files,
    int nfiles, struct export_tally *t, const char **format,
    struct strbuf *why);

/*
 * The summary of mode ("export", "merge") in format's rows, under the
 * rule set rules (as ruleset_describe says it; NULL for a merge): lines
 * for people, or one JSON object.
 */
void export_summary_text(const struct export_tally *t, const char *mode,
    const char *format, const char *rules, struct strbuf *out);
void export_summary_json(const struct export_tally *t, const char *mode,
    const char *format, const char *rules, struct strbuf *out);

#endif /* KIFU_TRAIN_EXPORT_H */
