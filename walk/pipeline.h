/*
 * pipeline.h - every input of a walk handled in parallel, the results
 * taken in input order: the machinery `kifu check`, `export`, `find`,
 * `stats`, `index` and `book` share.
 *
 * The main thread walks the paths (walk/walk.h) and fills a ring of
 * batches of inputs; worker threads handle whole batches, each input
 * through the command's input(); the main thread hands finished batches
 * to the command's emit() strictly in input order. The ring is bounded,
 * so memory does not grow with the number of inputs, and whatever a
 * command derives in emit() is the same for every -j.
 *
 * A batch carries the command's own state (batch_size bytes): what its
 * inputs produced (text to print, rows to write, counts), filled by a
 * worker and read by emit() on the main thread, never both at once.
 */
#ifndef KIFU_WALK_PIPELINE_H
#define KIFU_WALK_PIPELINE_H

#include <stddef.h>
#include <stdint.h>

#include "core/strbuf.h"

/* One input, as a worker sees it; every pointer is borrowed. */
struct pipe_input {
	const char *name;	/* as shown: "<stdin>", "a.zip//x.csa" */
	struct strbuf *data;	/* its bytes; the callee may take the buffer */
	unsigned flags;		/* JUDGE_PROBE (api/judge.h) when the name
				   says nothing of the content */
	const char *error;	/* not NULL: it could not be read, and why */
};

struct pipeline_ops {
	/* Bytes of the command's part of a batch; zeroed, then batch_init. */
	size_t batch_size;
	void (*batch_init)(void *ctx, void *batch);
	/* Empties a batch after emit(), keeping what it may reuse. */
	void (*batch_reset)(void *ctx, void *batch);
	void (*batch_release)(void *ctx, void *batch);
	/* What a worker keeps from input to input (a judge); may be NULL. */
	void *(*worker_new)(void *ctx);
	void (*worker_free)(void *ctx, void *worker);
	/*
	 * Any thread: one input into its batch. Returns nonzero when the
	 * input was a finding, after which --fail-fast handles no more.
	 */
	int (*input)(void *ctx, void *worker, void *batch,
	    const struct pipe_input *in);
	/*
	 * Main thread, batches in input order. Returns nonzero to stop the
	 * run (nothing after it is emitted).
	 */
	int (*emit)(void *ctx, void *batch);
	/*
	 * Main thread: a file the walk did not read because its name says
	 * it is no record (walk/walk.h). May be NULL.
	 */
	void (*ignore)(void *ctx, const char *name);
	/* Main thread: units done so far, for the progress bar ("records"). */
	long long (*done)(void *ctx);
};

struct pipeline_opts {
	int jobs;		/* worker threads; 1: all on the main thread */
	int fail_fast;		/* stop at the first input with a finding */
	int all_files;		/* read every file a walk meets */
	int progress;		/* a progress bar on stderr */
	const char *unit;	/* what done() counts, for the bar */
};

/*
 * Walks paths[0..npaths-1], then with from_stdin the paths standard
 * input names (one a line, NUL-separated with nul), through ops. A
 * skipped fifo, device or symlink loop is a warning on stderr, printed
 * in its turn. Returns 0, or -1 if a thread could not be started.
 * *stopped says whether emit() or --fail-fast ended the run early; the
 * elapsed seconds go to *seconds (either may be NULL).
 */
int pipeline_run(const struct pipeline_opts *o,
    const struct pipeline_ops *ops, void *ctx, char *const *paths,
    int npaths, int from_stdin, int nul, int *stopped, double *seconds);

/* --jobs' default: the number of cores. */
int pipeline_default_jobs(void);

/*
 * The options every command that walks shares: -j, --stdin, -z,
 * --all-files, --progress, --no-progress. Their short forms need "j:z"
 * in the command's getopt string.
 */
enum {
	OPT_WALK_STDIN = 0x180, OPT_WALK_ALL_FILES, OPT_WALK_PROGRESS,
	OPT_WALK_NO_PROGRESS
};

/*
 * Whether a walk option says how the walk runs (-j, --progress,
 * --no-progress) rather than what it reads: commands that answer from
 * elsewhere (find --db) take these and ignore them.
 */
static inline int
walkopt_is_runtime(int opt)
{
	return opt == 'j' || opt == OPT_WALK_PROGRESS ||
	    opt == OPT_WALK_NO_PROGRESS;
}

#define WALK_LONGOPTS \
	{ "jobs", required_argument, NULL, 'j' }, \
	{ "stdin", no_argument, NULL, OPT_WALK_STDIN }, \
	{ "all-files", no_argument, NULL, OPT_WALK_ALL_FILES }, \
	{ "progress", no_argument, NULL, OPT_WALK_PROGRESS }, \
	{ "no-progress", no_argument, NULL, OPT_WALK_NO_PROGRESS }

#define WALK_HELP \
    "Inputs: files, directories (walked recursively, in name order), '-'\n" \
    "(standard input) and archives read in place (.tar, .tar.gz, .tar.xz,\n" \
    "tar.bz2, .zip, .7z; a member is named archive.zip//path/in/archive).\n" \
    "In a directory or an archive only record files are read.\n" \
    "    -j, --jobs <n>       worker threads (default: the number of cores)\n" \
    "    --stdin              read the paths from standard input, one a line\n" \
    "    -z                   with --stdin: paths end with NUL, not newline\n" \
    "    --all-files          read every file, not only record files (in a\n" \
    "                         walk, files whose extension is no record\n" \
    "                         format's are skipped, and files without one are\n" \
    "                         read only if they are certainly records)\n" \
    "    --progress, --no-progress\n" \
    "                         force the progress bar on stderr on or off\n" \
    "                         (default: on when stderr is a terminal)\n"

struct walkopts {
	struct pipeline_opts po;
	int from_stdin, nul;
	int want_progress;	/* -1: when stderr is a terminal */
};

void walkopts_init(struct walkopts *w, const char *unit);
/*
 * Takes one option getopt_long returned: 1 if it was a walk option, 0 if
 * not, EXIT_TROUBLE after a usage error (printed with `usage`).
 */
int walkopts_take(struct walkopts *w, int opt, const char *arg,
    const char *usage);
/*
 * Checks the options against the npaths paths given and settles the
 * progress bar. Returns 0, or EXIT_TROUBLE after a usage error.
 */
int walkopts_finish(struct walkopts *w, int npaths, const char *usage);

#endif /* KIFU_WALK_PIPELINE_H */
