/*
 * tagger.h - naming a game's openings and castles as replay plays it.
 *
 * The tagger is given every position of a record's main line, in turn,
 * as replay makes them (tagger_visit, a replay_visit_fn), and matches
 * the definitions (tags/defs.h) against them: per ply it looks only at
 * the definitions whose squares the move touched, whose window opens
 * then, or whose names a definition just reached or ruled out, and only
 * while they can still be reached. When none of either side's can
 * change any more it asks replay to stop. tagger_end then settles the
 * styles, the matchup and the game-level name.
 *
 * A tagger is one worker's: it keeps its arrays from record to record.
 * It borrows the definitions, which must outlive it.
 *
 * Who is named: games from the standard start and from a standard
 * handicap start (the upper player, White, only by definitions whose
 * pieces it has; no game-level name); none from any other start, and
 * none in minishogi.
 */
#ifndef KIFU_TAGS_TAGGER_H
#define KIFU_TAGS_TAGGER_H

#include "tags/defs.h"
#include "core/record.h"
#include "core/replay.h"

/* A name reached: the definition that matched and the ply. */
struct tag_hit {
	uint32_t def;		/* index into the tagdefs */
	int ply;		/* moves played when it was first reached */
};

struct tag_side {
	int style;		/* def index, -1: none */
	int style_ply;
	/* What the side reached, by ply (then by the definitions' order),
	 * without those a later name replaces. */
	struct tag_hit *openings;
	size_t nopenings;
	struct tag_hit *castles;
	size_t ncastles;
};

struct tag_result {
	int named;		/* 0: no names for this record at all */
	const char *why;	/* why not: "minishogi", "not a standard start" */
	int handicap;		/* a standard handicap start */
	enum tag_matchup matchup;
	int game;		/* def index of the game-level name, -1 none */
	int plies;		/* positions looked at, after the start */
	struct tag_side side[2];
};

struct tagger;

struct tagger *tagger_new(const struct tagdefs *d);
void tagger_free(struct tagger *t);
/* The definitions it names by. */
const struct tagdefs *tagger_defs(const struct tagger *t);

/*
 * Starts a record: r is the record whose main line will be visited (its
 * start position says who is named). may_stop: the visits may ask
 * replay to stop once nothing can change (a caller that needs the whole
 * replay, to adjudicate, passes 0).
 */
void tagger_begin(struct tagger *t, const struct record *r, int may_stop);

/*
 * A replay_visit_fn (ctx: the tagger): the position at a node of the
 * main line (the start at node 0). Variations are ignored. Returns
 * nonzero to stop the replay (only after tagger_begin's may_stop).
 */
int tagger_visit(void *t, const struct position *pos, int32_t node,
    int main);

/* Ends the record; the result stays valid until the next tagger_begin. */
const struct tag_result *tagger_end(struct tagger *t);

/*
 * The whole of it for a record that has been read: replays its main
 * line (replay's nodes are written, as replay_record_walk writes them;
 * errors go to d, which may be NULL), naming as it goes, with replay
 * stopped as early as the names allow.
 */
const struct tag_result *tagger_record(struct tagger *t, struct record *r,
    struct diag_list *d);

/*
 * The same for a record replay has already resolved (its nodes' mv
 * set, as a judged record's are), left as it is: the main line's moves
 * are played again from the start, up to its first illegal or unplayed
 * node, and none of the record is written.
 */
const struct tag_result *tagger_replayed(struct tagger *t,
    const struct record *r);

/* Whether side c of the result has the label (a name or a family). */
int tag_side_has(const struct tagdefs *d, const struct tag_result *res,
    int c, uint32_t label);

#endif /* KIFU_TAGS_TAGGER_H */
