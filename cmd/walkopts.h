/*
 * walkopts.h - the options every command that walks archives shares
 * (-j, --stdin, -z, --all-files, --progress, --no-progress), and the run
 * of the walk's pipeline (walk/pipeline.h) with kifu's progress bar and
 * warnings on stderr.
 */
#ifndef KIFU_CMD_WALKOPTS_H
#define KIFU_CMD_WALKOPTS_H

#include "walk/pipeline.h"

/* getopt_long codes; the short forms need "j:z" in the getopt string. */
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
	/*
	 * What a library call that walks takes (po.report points at
	 * report: the bar and the warnings below, on stderr).
	 */
	struct pipeline_opts po;
	struct pipeline_report report;
	const char *unit;	/* what the bar counts: "records", "files" */
	int from_stdin, nul;
	int want_progress;	/* -1: when stderr is a terminal */
};

/*
 * Defaults: one job a core; batches' text to stdout and stderr; a bar
 * counting unit and the paths passed over as warnings, on stderr. w
 * must not move after this (po.report points into it).
 */
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

/*
 * pipeline_run() over paths with the options. Returns 0, or
 * EXIT_TROUBLE after an error printed (no thread could be started).
 */
int walkopts_run(struct walkopts *w, const struct pipeline_ops *ops,
    void *ctx, char *const *paths, int npaths, int *stopped,
    double *seconds);

#endif /* KIFU_CMD_WALKOPTS_H */
