/*
 * find.h - the records of whole archives that match the criteria of
 * query/filter.h, and the text that says so: what `kifu find` prints,
 * the same bytes whether the records are read from files (a walk of
 * walk/pipeline.h, with find_ops) or answered from an index
 * (db/search.h, which fills its batches with the calls below).
 *
 * Each record goes through the stages of filter.h and stops at the
 * first that fails: its headers are read alone when a header criterion
 * can turn it down, and its moves are replayed only when a position or
 * a result is asked for (or printed), no further than the answer needs.
 *
 * The text of each input goes to its batch (struct find_batch): out, one
 * line a match, FILE[#INDEX][:PLY,...]: BLACK vs WHITE, DATE, RESULT (or
 * a JSON object, or the file's name once), err, a warning for each record
 * or input that cannot be read. The pipeline writes both in input order.
 */
#ifndef KIFU_QUERY_FIND_H
#define KIFU_QUERY_FIND_H

#include "api/judge.h"
#include "query/filter.h"
#include "walk/pipeline.h"

/*
 * A search: the caller fills the criteria and the output, then
 * find_prepare; the counts are the main thread's, merged batch by batch.
 */
struct find {
	/* The criteria, finished (filter_finish); the caller releases them. */
	struct filter f;
	struct judge_opts jo;	/* how the records are read */
	/* The output: lines unless one of these (one at most). */
	int json;		/* a JSON object a match */
	int list;		/* the names of the files with a match, once */
	int count;		/* nothing: the caller prints c->matched */
	int quiet_unreadable;	/* no warning for a record not read */

	/* Set by find_prepare. */
	int header_stage;	/* a header criterion: read headers first */
	int whole;		/* a record that passes is read whole */
	int replay_result;	/* the result is asked for or printed */

	long long matched, files;	/* so far */
	int failed;		/* an input could not be read: trouble */
};

/* What the stages ask of the reading, from the criteria and the output. */
void find_prepare(struct find *c);

/*
 * The pipeline's callbacks (walk/pipeline.h) over inputs, with a struct
 * find as their ctx: each input's text to its batch, the counts into the
 * find. The progress counts inputs (a name search passes over files
 * without reading their records).
 */
extern const struct pipeline_ops find_ops;

/* --- for a search that reads its records elsewhere (db/search.h) ------ */

/* The text of one input, and what it found. */
struct find_batch {
	struct pipe_batch b;	/* out for matches, err for warnings */
	long long matched, files;
};

/* What one thread keeps from input to input; owns every pointer. */
struct find_worker {
	struct judge j;		/* j.r: the record at hand */
	struct filter_scratch s;
	struct filter_hits hits;	/* the plies where the position is */
	struct tagger *tg;	/* with --opening or --castle */
	int tags_done, hits_done;	/* what the visits asked, so far */
	/* The matches of the input at hand, until its records are counted. */
	struct strbuf pending;
	struct pending {
		int index;
		size_t off, len;
	} *pend;
	size_t npend, apend;
};

struct find_worker *find_worker_new(const struct find *c);
void find_worker_free(struct find_worker *w);

/*
 * A match of the input at hand: w->j.r, read as the index-th record of
 * file, with w->hits for a position search and the rules' result g (NULL
 * when the record could not be read).
 */
void find_add_match(const struct find *c, struct find_worker *w,
    const char *file, int index, const struct game_result *g);

/*
 * The matches of the input at hand into the batch, once it is known to
 * hold records (which say whether a match is named FILE#INDEX).
 */
void find_flush_matches(const struct find *c, struct find_worker *w,
    struct find_batch *b, const char *file, int records);

/*
 * A warning for what cannot be read, with the first error of d: a record
 * (record set: matched by its headers alone) or a whole input (not
 * searched).
 */
void find_warn_unreadable(const struct find *c, struct find_batch *b,
    const char *file, const struct diag_list *d, int record);

/* The same for an input that holds no record at all. */
void find_warn_empty(const struct find *c, struct find_worker *w,
    struct find_batch *b, const char *file);

/*
 * The index-th record of file, w->j.r, whose headers were read and
 * matched but not the rest (w->j.d says why): warned of, and a match if
 * the headers are all the criteria ask about.
 */
void find_unreadable_record(const struct find *c, struct find_worker *w,
    struct find_batch *b, const char *file, int index);

/* The batch's counts and trouble into c, and the batch's counts zeroed. */
void find_take_batch(struct find *c, struct find_batch *b);

#endif /* KIFU_QUERY_FIND_H */
