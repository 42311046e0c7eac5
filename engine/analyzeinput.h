/*
 * analyzeinput.h - what `kifu analyze` makes of one input of its walk
 * (a file, an archive's member, standard input): its records read and
 * replayed (api/judge.h), each analysed by a worker's analyzer, and the
 * outputs asked for built as text: JSON lines, the summary's rows, the
 * records with the analysis in their comments, encoded, and where they
 * go. Nothing is written here: the caller writes the files (atomically,
 * --in-place with its .bak) and the text, in input order.
 *
 * Every message is a line of text, "NAME: error: ...", "NAME: warning:
 * ..." or "NAME: note: ...", appended to the caller's buffer (an
 * engine's words with control characters shown as '?'). A record that
 * cannot be read or replayed, or whose analysis cannot be written, keeps
 * the whole input from being written: nothing a user had is replaced by
 * a file that lost a record.
 */
#ifndef KIFU_ENGINE_ANALYZEINPUT_H
#define KIFU_ENGINE_ANALYZEINPUT_H

#include "analyze.h"
#include "api/judge.h"
#include "walk/pipeline.h"

struct format;

/* What a run wants of each input. Borrowed, and read by every worker. */
struct analyze_input_opts {
	const struct format *to;	/* records' format; NULL: the input's */
	int records_out;		/* records are written */
	int json, summary;		/* JSON lines; the summary */
	int in_place;			/* records replace the input */
	const char *out_dir;		/* records go under it (walk_mirror) */
	char *const *paths;		/* the walk's arguments (mirror) */
	int npaths;
	/*
	 * Records that go to stdout are written in this encoding (a
	 * terminal's); NULL: as into files, the input's own when the format
	 * is its own, else the format's default.
	 */
	const char *stdout_encoding;
	const char *engine_name;	/* JSON's "engine" */
};

/* What one input gave. */
struct analyze_input_out {
	/*
	 * The caller's buffers (a pipeline batch's out and err): stdout's
	 * text (JSON, records for stdout) and the messages.
	 */
	struct strbuf *out, *err;
	struct strbuf rows;	/* the summary's rows (analyze_summary_rows) */
	struct strbuf text;	/* the file to write, encoded */
	struct strbuf orig;	/* --in-place: the bytes read, for the .bak */
	struct strbuf dest;	/* where text goes; "" nowhere */
	/* 0, 1 a finding (a record unreadable or illegal, a position left
	   unanalysed), 2 trouble (not to be read or written as asked): as
	   kifu's exit statuses */
	int status;
	long long records, positions, searched, cached, failed, engine_ms;
};

/* out and err are the caller's; the rest is owned. */
void analyze_input_out_init(struct analyze_input_out *o, struct strbuf *out,
    struct strbuf *err);
void analyze_input_out_release(struct analyze_input_out *o);

/*
 * Analyses every record of in (in->error unset: the caller says that
 * one) with a, which the worker owns with j and ar, into res. Positions
 * of a record that cannot be analysed (its variant: the engine plays
 * none) are counted as failed and reported by a's progress callback all
 * the same. Returns res->status.
 */
int analyze_input(const struct analyze_input_opts *o, struct analyzer *a,
    struct judge *j, struct analyze_record *ar, const struct pipe_input *in,
    struct analyze_input_out *res);

/*
 * The positions analyze_count finds in the records of paths that can be
 * read and replayed: a progress bar's total, before the analysis. A walk
 * of its own, with po's workers (its text and progress off); nothing is
 * said of what cannot be read (the analysis says it). 0 when no thread
 * could be started.
 */
long long analyze_count_inputs(const struct pipeline_opts *po,
    const struct judge_opts *jo, const struct analyze_opts *ao,
    char *const *paths, int npaths);

#endif /* KIFU_ENGINE_ANALYZEINPUT_H */
