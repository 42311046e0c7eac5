/*
 * results.h - the results file of an engine match: one JSON object a
 * game, a line each (doc/match.md names the fields), written as games
 * finish and read back by `kifu match --report`, which merges files
 * (shards of one match, or matches) into one count.
 *
 * Reading takes of each object only "black", "white" and "result"
 * (black, white, draw; none: a game with no result, passed over), and
 * where present "pair" (an integer: the pair's two games are counted as
 * a pair; a negative one is none) and "reason" (an ending's id; others
 * are not counted as endings). Anything else a line holds is ignored, so
 * that fields can be added.
 */
#ifndef KIFU_ENGINE_RESULTS_H
#define KIFU_ENGINE_RESULTS_H

#include <stddef.h>

#include <jansson.h>

#include "match.h"
#include "schedule.h"
#include "tourney.h"
#include "core/diag.h"
#include "core/strbuf.h"
#include "stats/matchtally.h"

/*
 * The line of game index (0-based) as scheduled (s), played (g), between
 * the engines named black and white, from opening op under mr; record:
 * the record's path, or NULL. Into out (reset first), with its newline.
 */
void results_line(struct strbuf *out, size_t index,
    const struct schedule_game *s, const struct match_game *g,
    const char *black, const char *white, const struct opening *op,
    const struct match_rules *mr, const char *record);

/* "Endings: checkmate 3, resign 1\n" (or " none"), appended to out. */
void results_ends_text(const long long ends[END_NB], struct strbuf *out);

/* What results files add up to. */
struct results_report {
	char *names[TOURNEY_ENGINES_MAX];	/* owned; the tallies' numbers */
	int nnames;
	struct match_tallies t;
	long long ends[END_NB];
	long long games;		/* counted: with a result */
	/*
	 * The file being read (0, 1, ...): set it before each file, so
	 * that the pair numbers of different files stay apart.
	 */
	long long source;
};

void results_report_init(struct results_report *r);
void results_report_release(struct results_report *r);

/*
 * Counts one object (a stats/jsonl.h jsonl_fn, ctx the report): 0, or
 * -1 with what is wrong in why (nothing counted).
 */
int results_report_line(void *ctx, json_t *o, char *why, size_t n);

/*
 * Counts the lines of a results file's text as file r->source; a line
 * that is no object or not a game is an error in d (line, column), and
 * the others count. Returns 0, or 1 when some line was an error.
 */
int results_report_parse(struct results_report *r, const char *text,
    size_t len, struct diag_list *d);

#endif /* KIFU_ENGINE_RESULTS_H */
