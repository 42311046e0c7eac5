/*
 * stats.h - the summary of a batch run: how many records, how many
 * valid, what was wrong with the others, formats, encodings, results.
 *
 * Everything here is derived from fields of the validate JSON schema, so
 * that `kifu summary` can rebuild the same summary from JSON Lines shards
 * that `kifu check` builds while it runs.
 */
#ifndef KIFU_CMD_STATS_H
#define KIFU_CMD_STATS_H

#include <stddef.h>

#include "core/strbuf.h"

/* A count per name, in first-seen order; names are owned copies. */
struct tally {
	struct tally_row {
		char *name;
		long long n;
	} *v;
	size_t n, alloc;
};

struct stats {
	/* invalid = disputed (status "mismatch") + illegal */
	long long records, valid, disputed, illegal, unreadable;
	long long skipped;		/* files read as no record */
	struct tally invalid_by_rule;	/* "mismatch", "illegal": error.rule */
	struct tally unreadable_by_id;	/* status "error": error.rule */
	struct tally skipped_by_ext;	/* ".md", "(none)" */
	struct tally formats, encodings, results;
	struct tally rules;		/* the rule set each record was judged by */
	double seconds;			/* < 0: unknown (merged shards) */
};

void stats_init(struct stats *s);
void stats_release(struct stats *s);

/*
 * Counts one record as the validate schema describes it: status "ok",
 * "mismatch", "illegal" or "error"; rule is error.rule (NULL for ok);
 * format, encoding, reason and rules (the set as printed) may be NULL or
 * "" when unknown.
 */
void stats_add(struct stats *s, const char *status, const char *rule,
    const char *format, const char *encoding, const char *reason,
    const char *rules);

/* Counts a file a walk did not read as a record, by its extension. */
void stats_skip(struct stats *s, const char *name);

/* Adds b's counts to a. */
void stats_merge(struct stats *a, const struct stats *b);

/* Human summary (several lines) and the one-line JSON object. */
void stats_text(const struct stats *s, const char *rules, struct strbuf *out);
void stats_json(const struct stats *s, const char *rules, struct strbuf *out);

#endif /* KIFU_CMD_STATS_H */
