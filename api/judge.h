/*
 * judge.h - judging records: read, decode, detect, parse, replay and
 * adjudicate every record of one input, and say what was found, as text
 * or JSON. `kifu validate` and `kifu check` both stand on it.
 *
 * A struct judge holds the buffers it reuses from record to record; it is
 * not shared between threads (each worker has its own).
 */
#ifndef KIFU_API_JUDGE_H
#define KIFU_API_JUDGE_H

#include "parsers/format.h"
#include "core/adjudicate.h"
#include "core/replay.h"
#include "core/venue.h"

struct judge_opts {
	const struct format *from;	/* NULL: detect */
	/*
	 * NULL: ruleset_default() (jsa). Under auto_rules, only the
	 * settings it overrides count: the set is the one each record's
	 * text points at (core/venue.h).
	 */
	const struct ruleset *rules;
	int auto_rules;
	/* Do not compare the record's claim: no result-mismatch error. */
	int no_result_check;
	const struct limits *limits;	/* NULL: limits_default */
	/*
	 * The game a record is of when its text does not say (USI
	 * startpos, a KIF without 手合割 or board, a CSA record without a
	 * board); NULL: standard shogi.
	 */
	const struct variant *variant;
};

/* One record's outcome; every pointer is borrowed for the callback. */
struct verdict {
	const char *file;		/* as shown: "<stdin>", "a.zip//x.csa" */
	int index;			/* record number in the file, from 0 */
	const char *format;		/* NULL when unknown */
	const char *encoding;		/* NULL when undecodable */
	const struct record *r;		/* NULL when nothing could be read */
	const struct replay *rp;	/* NULL when the record was not replayed */
	const struct diag_list *d;
	struct game_result result;	/* valid when rp */
	int has_recorded;
	struct game_result recorded;
	const char *terminal;		/* raw terminal token, "" if none */
	/* The full adjudication under the rule set; valid when rp. */
	const struct adjudication *adj;
	/* Under --rules auto: what chose the set; NULL with --rules. */
	const struct venue *venue;
	int result_checked;		/* the claim was compared */
	/*
	 * A probed input (JUDGE_PROBE) that is not certainly a record: the
	 * callback is told once, with no record, and it is no finding.
	 */
	int skipped;
};

/*
 * ok; mismatch: every move legal, but the record's claim contradicts
 * the rules (or it goes on after the end); illegal: a move breaks a
 * rule; error: unreadable.
 */
enum verdict_status {
	VERDICT_OK, VERDICT_MISMATCH, VERDICT_ILLEGAL, VERDICT_ERROR
};

typedef void (*verdict_fn)(void *ctx, const struct verdict *v);

struct judge {
	struct judge_opts opts;
	struct record r;
	struct diag_list d;
	struct text t;
};

void judge_init(struct judge *j, const struct judge_opts *o);
void judge_release(struct judge *j);
/* A judge of its own for a pipeline's worker (walk/pipeline.h). */
struct judge *judge_new(const struct judge_opts *o);
void judge_free(struct judge *j);

/*
 * One input read record by record, for the commands that want less than
 * judge_bytes does for each (kifu find reads headers, replays only as
 * far as it must); judge_bytes is made of these.
 */
struct judge_input {
	const struct format *f;	/* what the records are read as */
	struct reader rd;
	struct reader before;	/* rd before the last record read */
	int index;		/* records read so far */
	int decoded;		/* the text was decoded (into j->t) */
};

enum judge_open_status {
	JUDGE_READY,		/* records to read */
	JUDGE_SKIPPED,		/* probed (JUDGE_PROBE), and no record */
	JUDGE_UNREADABLE	/* undecodable, or no format: see j->d */
};

/*
 * Decodes data (the judge may take its buffer) into j->t and chooses
 * the format as judge_bytes does (--from, else detected; a probed input
 * must be certainly a record). in->f stays NULL unless JUDGE_READY.
 */
enum judge_open_status judge_open(struct judge *j, struct judge_input *in,
    const char *path_hint, struct strbuf *data, unsigned flags);

/*
 * The next record into j->r, its diagnostics into j->d (both cleared
 * first). READ_ERROR and READ_FATAL come with an error in j->d; nothing
 * can be read after READ_FATAL. headers_only: as struct reader's.
 */
enum read_status judge_next(struct judge *j, struct judge_input *in,
    int headers_only);

/* The record judge_next read last, read again whole. */
enum read_status judge_reread(struct judge *j, struct judge_input *in);

/*
 * The result of j->r (replayed into rp, read as format f) under the
 * judge's rule set; under auto_rules the set its text points at, with
 * the evidence in *venue. Returns venue, or NULL when the set was given.
 */
const struct venue *judge_adjudicate(struct judge *j, const struct format *f,
    const struct replay *rp, struct adjudication *adj, struct venue *venue);

/*
 * Judges every record in data (the bytes of one input; the judge may
 * take its buffer) and calls fn once per record, or once for an input
 * that holds none or cannot be decoded. Returns the number of records
 * reported. Each record is replayed and adjudicated under the rule set;
 * one that the rules contradict gets the error "result-mismatch".
 */
int judge_bytes(struct judge *j, const char *file, const char *path_hint,
    struct strbuf *data, unsigned flags, verdict_fn fn, void *ctx);

enum judge_flags {
	/*
	 * An input the walk found whose name says nothing (no extension):
	 * judged only if its content is certainly a record, else reported
	 * as skipped (verdict.skipped).
	 */
	JUDGE_PROBE = 1 << 0
};

/*
 * The rule set as printed after a result: "csa (auto: 'summary, line
 * 241)", or the set alone when it was given with --rules.
 */
void verdict_rules_text(struct strbuf *out, const struct verdict *v);

enum verdict_status verdict_status(const struct verdict *v);
const char *verdict_status_name(enum verdict_status s);

/* The first error, or NULL. */
const struct diag *verdict_error(const struct verdict *v);

/* One JSON object (and "\n") describing v: the validate schema. */
void verdict_json(struct strbuf *out, const struct verdict *v);

/*
 * "FILE:LINE:COL: SEVERITY: MESSAGE [ID]\n" for each diagnostic of at
 * least severity min; control characters shown as '?'.
 */
void verdict_diags(struct strbuf *out, const struct verdict *v,
    enum diag_severity min, enum diag_severity max);

#endif /* KIFU_API_JUDGE_H */
