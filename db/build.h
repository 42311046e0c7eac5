/*
 * build.h - the game database of db/indexdb.h built from the records
 * under some paths, and brought up to date: what `kifu index build` and
 * `kifu index update` do, for any program that keeps an index.
 *
 * Workers read, judge and replay each input as `kifu find` reads it
 * (headers, then the whole record: the index answers exactly what a scan
 * answers), name its openings and castles on the same replay
 * (tags/tagger.h), and turn it into rows in their batch; the main thread writes
 * the rows in input order (the pipeline's emit, walk/pipeline.h), the
 * only thread that touches SQLite.
 *
 * A build writes a temporary file beside the target, with every index
 * made after the bulk insert, syncs it and renames it over the target: a
 * build that fails or is killed leaves the previous database as it was
 * (and a temporary file, removed by the next build). An update runs in
 * one transaction in WAL mode: readers go on reading the old state until
 * it commits, and an update that fails or is killed changes nothing.
 *
 * Nothing is printed. What is wrong comes back in `why`, one message a
 * line (each naming the file); the walk's progress and the paths it
 * passes over go to the pipeline's report (pipeline_opts.report), and
 * the messages of a run to the caller's indexdb_report, in their turn.
 */
#ifndef KIFU_DB_BUILD_H
#define KIFU_DB_BUILD_H

#include "core/strbuf.h"

struct judge_opts;
struct pipeline_opts;

/* What a run tells its caller as it goes; either may be NULL. */
struct indexdb_report {
	void *ctx;
	/*
	 * An input that could not be read, which is indexed as such (and
	 * reported so again by find --db): "cannot read 'NAME': WHY".
	 */
	void (*warning)(void *ctx, const char *msg);
	/*
	 * Anything else worth telling: "removed 'NAME', left by a build that
	 * did not finish".
	 */
	void (*note)(void *ctx, const char *msg);
};

/*
 * The names (kifu tag) a build stores with each record: the definitions
 * they are made with, and the text of the --definitions file they came
 * from over kifu's own (NULL: kifu's own alone) with its name, which
 * the index keeps so that update names as the build did.
 */
struct indexdb_tags {
	const struct tagdefs *defs;	/* NULL: kifu's own */
	const char *text, *file;
};

/* How a run reads and walks; every pointer is borrowed for the call. */
struct indexdb_run {
	/*
	 * How the records are read and judged (the result is all the index
	 * asks of the rules: no_result_check is set whatever it says).
	 */
	const struct judge_opts *judge;
	/* The walk: jobs, all_files, progress and its report. */
	const struct pipeline_opts *walk;
	const struct indexdb_report *report;	/* may be NULL */
	/*
	 * build: the names stored (NULL: kifu's own definitions). update
	 * names with the index's own, and an index of schema version 1
	 * stays without names (a note says so).
	 */
	const struct indexdb_tags *tags;
};

/* What a run did, for its summary. */
struct indexdb_counts {
	long long files, records;	/* indexed (again) */
	long long positions;		/* new positions */
	double seconds;			/* the whole run, sync included */
};

/*
 * Builds the index at path from the records under paths[0..npaths-1]
 * (files, directories, archives; update walks them again, so never
 * standard input), relative paths as seen from the current directory,
 * which the index remembers. options are the reading and rule options
 * run->judge was made from, one a line ("--rules=csa\n"), which update
 * reads back to read as the build did. An existing file at path is
 * replaced only with force, and only if it is a kifu index. Returns 0
 * with *counts filled, or -1 with why set (the old index, if any, left
 * as it was).
 */
int indexdb_build(const char *path, char *const *paths, int npaths,
    const char *options, int force, const struct indexdb_run *run,
    struct indexdb_counts *counts, struct strbuf *why);

/*
 * An update, in steps: open the index, read the options it was built
 * with (for the caller to make its judge_opts from them), run, close.
 */
struct indexdb_update;

/*
 * The index at path opened for an update (path borrowed for u's life),
 * or NULL with why set.
 */
struct indexdb_update *indexdb_update_open(const char *path,
    struct strbuf *why);

/* The build's options, as indexdb_build was given them; owned by u. */
const char *indexdb_update_options(const struct indexdb_update *u);

/*
 * Brings the index up to date with the paths it was built from and
 * paths[0..npaths-1], which join them: files new or changed (size,
 * content hash) are read again, files gone are dropped, the rest is kept.
 * Relative paths must be seen from the directory the build ran in.
 * Returns 0 with *counts filled, or -1 with why set (nothing changed).
 * Once per u.
 */
int indexdb_update_run(struct indexdb_update *u, char *const *paths,
    int npaths, const struct indexdb_run *run,
    struct indexdb_counts *counts, struct strbuf *why);

/* Closes the index and frees u (may be NULL). */
void indexdb_update_close(struct indexdb_update *u);

/*
 * Names every record of the index at path again from its stored moves
 * (the rows a build would store) with tags (NULL: kifu's own), which the
 * index keeps from then on, in one transaction; an index of schema
 * version 1 becomes version 2. Returns 0 with *named (records named)
 * and *was (the version it had), or -1 with why set (nothing changed).
 */
int indexdb_retag(const char *path, const struct indexdb_tags *tags,
    long long *named, int *was, struct strbuf *why);

#endif /* KIFU_DB_BUILD_H */
