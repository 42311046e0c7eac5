/*
 * walkopts.c - the walk's options, its progress bar and its warnings
 * (walkopts.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "walkopts.h"

/* --- the bar and the warnings, on stderr ------------------------------- */

static void
bar(void *ctx, const struct pipeline_progress *p, int last)
{
	const struct walkopts *w = ctx;
	double rate = p->seconds > 0 ? (double)p->done / p->seconds : 0;

	fprintf(stderr, "\r\033[K%lld %s, %.0f/s", p->done,
	    w->unit ? w->unit : "inputs", rate);
	if (p->bytes_total && p->bytes_done && !last) {
		uint64_t seen = p->bytes_done < p->bytes_total ?
		    p->bytes_done : p->bytes_total;
		double eta = (double)(p->bytes_total - seen) * p->seconds /
		    (double)p->bytes_done;

		fprintf(stderr, ", %.0f%%, ETA %d:%02d", 100.0 *
		    (double)p->bytes_done / (double)p->bytes_total,
		    (int)eta / 60, (int)eta % 60);
	}
	if (last)
		fputs("\r\033[K", stderr);
	fflush(stderr);
}

static void
clear_bar(void *ctx)
{
	(void)ctx;
	fputs("\r\033[K", stderr);
}

static void
skipped(void *ctx, const char *name, const char *why)
{
	(void)ctx;
	fprintf(stderr, "kifu: warning: skipped '%s': %s\n", name, why);
}

void
walkopts_init(struct walkopts *w, const char *unit)
{
	memset(w, 0, sizeof(*w));
	w->po.jobs = pipeline_default_jobs();
	w->po.out = stdout;
	w->po.err = stderr;
	w->unit = unit;
	w->want_progress = -1;
	w->report.ctx = w;
	w->report.progress = bar;
	w->report.clear = clear_bar;
	w->report.skipped = skipped;
	w->po.report = &w->report;
}

int
walkopts_take(struct walkopts *w, int opt, const char *arg,
    const char *usage)
{
	switch (opt) {
	case 'j':
		if ((w->po.jobs = cmd_parse_int(arg, 1024)) < 1)
			return cmd_usage_error(usage,
			    "-j takes a number from 1 to 1024");
		return 1;
	case 'z': w->nul = 1; return 1;
	case OPT_WALK_STDIN: w->from_stdin = 1; return 1;
	case OPT_WALK_ALL_FILES: w->po.all_files = 1; return 1;
	case OPT_WALK_PROGRESS: w->want_progress = 1; return 1;
	case OPT_WALK_NO_PROGRESS: w->want_progress = 0; return 1;
	default: return 0;
	}
}

int
walkopts_finish(struct walkopts *w, int npaths, const char *usage)
{
	if (npaths == 0 && !w->from_stdin)
		return cmd_usage_error(usage, "no path given");
	if (w->nul && !w->from_stdin)
		return cmd_usage_error(usage, "-z goes with --stdin");
	w->po.progress = w->want_progress >= 0 ? w->want_progress :
	    isatty(STDERR_FILENO);
	return 0;
}

int
walkopts_run(struct walkopts *w, const struct pipeline_ops *ops, void *ctx,
    char *const *paths, int npaths, int *stopped, double *seconds)
{
	if (pipeline_run(&w->po, ops, ctx, paths, npaths, w->from_stdin,
	    w->nul, stopped, seconds) < 0)
		return cmd_error("cannot start a thread: %s",
		    strerror(errno));
	return 0;
}
