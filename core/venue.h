/*
 * venue.h - the rules a record was played under, as its own text shows
 * them (`--rules auto`, the default of validate and check).
 *
 * A record does not say which rule set it follows, but it says where it
 * was played: shogi-server writes a 'summary line and game ids of its
 * own, Shogi Wars exports name the app, a composed problem starts from a
 * position no game starts from. Judging a Floodgate game by the JSA rules
 * (or a 1,525-move problem by a 500-move limit) reports good records as
 * invalid, so the evidence picks the set, and is printed with the result.
 */
#ifndef KIFU_CORE_VENUE_H
#define KIFU_CORE_VENUE_H

#include <stdint.h>

#include "record.h"
#include "ruleset.h"
#include "text.h"

/* Room for the evidence as printed; longer quotes are cut. */
#define VENUE_WHAT_MAX 96

struct venue {
	const char *set;	/* the rule set's name: "jsa", "csa", ... */
	/*
	 * The venue's move limit where the evidence shows one (Floodgate:
	 * 256), 0 for a venue known to have none (the CSA tournaments), -1
	 * to keep the set's own. A limit the record states wins over both.
	 */
	int max_moves;
	/*
	 * What decided, as printed after "auto: " ("'summary", "$EVENT
	 * floodgate", "one king"); "" when nothing did (the default set).
	 */
	char what[VENUE_WHAT_MAX];
	uint32_t line;		/* where, 1-based; 0 when nothing decided */
	/*
	 * A rules header (HDR_RULES: KIF's kifu-rules, CSA's $KIFU_RULES,
	 * which kifu convert writes where the target format cannot hold the
	 * evidence) states the whole set: stated is 1, rules holds it and
	 * set is its name.
	 */
	int stated;
	struct ruleset rules;
};

/*
 * Looks for the evidence in r (a rules header first: it states what
 * other evidence once showed) (read, not necessarily replayed). format
 * is the reader's name ("csa", "kif"...), which spells the header keys
 * in messages; t, when not NULL, is the text r was read from, used only
 * to give a line to evidence found in a comment (comments keep no
 * place). Never allocates.
 */
void venue_detect(const struct record *r, const char *format,
    const struct text *t, struct venue *out);

/*
 * The rule set for r under `--rules auto`: the venue's set, its limit
 * where the record states none, then every setting `overrides` has
 * overridden (the user's --max-moves, --rule ...). overrides may be
 * NULL.
 */
void venue_ruleset(const struct venue *v, const struct record *r,
    const struct ruleset *overrides, struct ruleset *out);

#endif /* KIFU_CORE_VENUE_H */
