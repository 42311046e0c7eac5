/*
 * tally.h - the summary of a batch run: how many records, how many
 * valid, what was wrong with the others, formats, encodings, results.
 *
 * Everything here is derived from fields of the validate JSON schema, so
 * that `kifu summary` can rebuild the same summary from JSON Lines shards
 * that `kifu check` builds while it runs.
 */
#ifndef KIFU_STATS_TALLY_H
#define KIFU_STATS_TALLY_H

#include <stddef.h>

#include "core/strbuf.h"

/* A count per name, in first-seen order; names are owned copies. */
struct tally_names {
	struct tally_name {
		char *name;
		long long n;
	} *v;
	size_t n, alloc;
};

struct tally {
	/* invalid = disputed (status "mismatch") + illegal */
	long long records, valid, disputed, illegal, unreadable;
	long long skipped;		/* files read as no record */
	/* "mismatch", "illegal": error.rule */
	struct tally_names invalid_by_rule;
	struct tally_names unreadable_by_id;	/* status "error": error.rule */
	struct tally_names skipped_by_ext;	/* ".md", "(none)" */
	struct tally_names formats, encodings, results;
	/* the rule set each record was judged by */
	struct tally_names rules;
	double seconds;			/* < 0: unknown (merged shards) */
};

void tally_init(struct tally *s);
void tally_release(struct tally *s);

/*
 * Counts one record as the validate schema describes it: status "ok",
 * "mismatch", "illegal" or "error"; rule is error.rule (NULL for ok);
 * format, encoding, reason and rules (the set as printed) may be NULL or
 * "" when unknown.
 */
void tally_add(struct tally *s, const char *status, const char *rule,
    const char *format, const char *encoding, const char *reason,
    const char *rules);

/* Counts a file a walk did not read as a record, by its extension. */
void tally_skip(struct tally *s, const char *name);

/* Adds b's counts to a. */
void tally_merge(struct tally *a, const struct tally *b);

/* Human summary (several lines) and the one-line JSON object. */
void tally_text(const struct tally *s, const char *rules, struct strbuf *out);
void tally_json(const struct tally *s, const char *rules, struct strbuf *out);

#endif /* KIFU_STATS_TALLY_H */
