/*
 * search.h - find's criteria (query/find.h) answered from the game
 * database (db/indexdb.h): what `kifu find --db` prints, the same bytes
 * and the same counts as a scan of the indexed paths, in the order the
 * scan gives (the order the paths were walked in by the build).
 *
 * The criteria SQL can answer narrow the records first (the positions by
 * their keys, the names and events by the folded text, the openings and
 * castles by the tag table, which holds what a scan's replay names with
 * the build's definitions); then each file
 * left is read back in walk order, its records through the stages of a
 * scan on the rows the build stored (headers, start, length, result),
 * and its text written as a scan's batch would be. A file a scan would
 * warn about is always visited, whatever the criteria.
 */
#ifndef KIFU_DB_SEARCH_H
#define KIFU_DB_SEARCH_H

#include <stdio.h>

#include "core/strbuf.h"
#include "query/find.h"

/* Where a search's text goes, and what it says as it goes. */
struct indexdb_search_out {
	/* Each file's text, as the pipeline writes a batch's; NULL drops. */
	FILE *out, *err;
	void *ctx;
	/*
	 * A read error after which the search goes on, in its turn (before
	 * the text of the file at hand); NULL: not said.
	 */
	void (*error)(void *ctx, const char *msg);
};

/*
 * Searches the index at path for c's records (find_prepare done; c's
 * criteria must be those an index answers: no reading or rule options,
 * which were the build's). c->matched and c->failed come out as a
 * scan's. Returns 0, or -1 with why set (a message a line: an index that
 * cannot be opened or read, or is damaged); what was written stays.
 */
int indexdb_search(struct find *c, const char *path,
    const struct indexdb_search_out *io, struct strbuf *why);

/*
 * The definitions the names of the index at path were made with
 * (indexdb_tagdefs), for c->f.defs before filter_finish when the
 * criteria ask for openings or castles. NULL with why set. Free with
 * tagdefs_put.
 */
const struct tagdefs *indexdb_search_tagdefs(const char *path,
    struct strbuf *why);

#endif /* KIFU_DB_SEARCH_H */
