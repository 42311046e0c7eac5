/*
 * pipeline.h - every input of a walk handled in parallel, the results
 * taken in input order: the machinery `kifu check`, `export`, `find`,
 * `stats`, `index` and `book` share.
 *
 * The main thread walks the paths (walk/walk.h) and fills a ring of
 * batches of inputs; worker threads handle whole batches, each input
 * through the caller's input(); the main thread hands finished batches
 * to the caller's emit() strictly in input order. The ring is bounded,
 * so memory does not grow with the number of inputs, and whatever a
 * caller derives in emit() is the same for every -j.
 *
 * A batch carries the caller's own state (batch_size bytes), which
 * starts with a struct pipe_batch: what its inputs produced (text to
 * print, rows to write, counts), filled by a worker and read by emit()
 * on the main thread, never both at once.
 *
 * The pipeline prints nothing of its own: its text goes to the streams
 * the caller names (pipeline_opts.out, .err), its progress and the paths
 * it passes over to the caller's pipeline_report.
 */
#ifndef KIFU_WALK_PIPELINE_H
#define KIFU_WALK_PIPELINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/strbuf.h"

/* One input, as a worker sees it; every pointer is borrowed. */
struct pipe_input {
	const char *name;	/* as shown: "<stdin>", "a.zip//x.csa" */
	struct strbuf *data;	/* its bytes; the callee may take the buffer */
	unsigned flags;		/* JUDGE_PROBE (api/judge.h) when the name
				   says nothing of the content */
	const char *error;	/* not NULL: it could not be read, and why */
};

/*
 * The first member of every batch. The pipeline sets it up, writes out
 * and then err to pipeline_opts.out and .err after each emit() (in input
 * order: the text of a run is the same for every -j), and empties it;
 * the callbacks only append.
 */
struct pipe_batch {
	struct strbuf out;	/* for the output stream */
	struct strbuf err;	/* for the diagnostics stream, after out */
	int failed;		/* an input could not be read: trouble */
	int findings;		/* an input was a finding */
};

/*
 * For a caller that fills batches of its own outside a run (find --db
 * answers from an index as it does from files): what the pipeline does
 * with the base of each batch.
 */
void pipe_batch_init(struct pipe_batch *b);
/* out to out, then err to err (NULL drops either); then empties both. */
void pipe_batch_write(struct pipe_batch *b, FILE *out, FILE *err);
void pipe_batch_release(struct pipe_batch *b);

/*
 * "kifu: error: cannot read 'NAME': WHY [io]" into the batch's err, and
 * the batch marked failed: how a command reports an input the walk
 * could not read (pipe_input.error).
 */
void pipe_batch_unreadable(struct pipe_batch *b, const struct pipe_input *in);

struct pipeline_ops {
	/*
	 * Bytes of a batch: the caller's struct, whose first member is a
	 * struct pipe_batch. Zeroed, then batch_init (may be NULL).
	 */
	size_t batch_size;
	void (*batch_init)(void *ctx, void *batch);
	/*
	 * Empties the caller's part of a batch after emit(), keeping what
	 * it may reuse; NULL when there is nothing to empty.
	 */
	void (*batch_reset)(void *ctx, void *batch);
	void (*batch_release)(void *ctx, void *batch);
	/*
	 * What a worker keeps from input to input. NULL: a judge of
	 * pipeline_opts.judge (api/judge.h), or no worker without one.
	 */
	void *(*worker_new)(void *ctx);
	void (*worker_free)(void *ctx, void *worker);
	/*
	 * Any thread: one input into its batch. Returns nonzero when the
	 * input was a finding, after which --fail-fast handles no more.
	 */
	int (*input)(void *ctx, void *worker, void *batch,
	    const struct pipe_input *in);
	/*
	 * Main thread, batches in input order, before the batch's text is
	 * written. Returns nonzero to stop the run (nothing after it is
	 * emitted). May be NULL.
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

/* How far a run has got, for a progress bar. */
struct pipeline_progress {
	long long done;		/* ops->done(), or the batches emitted */
	double seconds;		/* since the walk began */
	/* Input bytes read so far and in all (0: unknown), for an ETA. */
	uint64_t bytes_done, bytes_total;
};

/* What a run tells its caller besides the batches' text; any may be NULL. */
struct pipeline_report {
	void *ctx;
	/*
	 * After a batch is emitted, at most ten times a second, and with
	 * last set once at the end (only with pipeline_opts.progress).
	 */
	void (*progress)(void *ctx, const struct pipeline_progress *p,
	    int last);
	/* Before any text is written: a bar on the same stream is wiped. */
	void (*clear)(void *ctx);
	/*
	 * A path passed over on purpose (a fifo, a device, a symlink loop),
	 * in its turn: everything before it has been written.
	 */
	void (*skipped)(void *ctx, const char *name, const char *why);
};

struct judge_opts;

struct pipeline_opts {
	int jobs;		/* worker threads; 1: all on the main thread */
	int fail_fast;		/* stop at the first input with a finding */
	int all_files;		/* read every file a walk meets */
	int progress;		/* report progress (see pipeline_report) */
	/* The streams the batches' text goes to; NULL drops it. */
	FILE *out, *err;
	/* Each worker's judge, when ops->worker_new is NULL (borrowed). */
	const struct judge_opts *judge;
	const struct pipeline_report *report;	/* may be NULL */
	/*
	 * Inputs a batch holds at most (0: 64). Work that takes seconds an
	 * input (an engine's analysis) wants 1, so that no worker sits on
	 * a queue of inputs while another is idle.
	 */
	size_t batch_max;
};

/*
 * Walks paths[0..npaths-1], then with from_stdin the paths standard
 * input names (one a line, NUL-separated with nul), through ops.
 * Returns 0, or -1 with errno set if a thread could not be started
 * (nothing was walked then). *stopped says whether emit() or fail_fast
 * ended the run early; the elapsed seconds go to *seconds (either may
 * be NULL).
 */
int pipeline_run(const struct pipeline_opts *o,
    const struct pipeline_ops *ops, void *ctx, char *const *paths,
    int npaths, int from_stdin, int nul, int *stopped, double *seconds);

/* --jobs' default: the number of cores. */
int pipeline_default_jobs(void);

#endif /* KIFU_WALK_PIPELINE_H */
