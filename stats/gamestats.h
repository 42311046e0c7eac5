/*
 * gamestats.h - what `kifu stats` counts over many games: results by
 * reason and by winner (all games, even games, handicap games), the
 * whole distribution of game lengths, the first two moves, and per
 * player or per group. Counts only add, so that batches of a parallel
 * run, and shards read back from their JSON, merge into what one run
 * over everything gives, to the byte.
 */
#ifndef KIFU_STATS_GAMESTATS_H
#define KIFU_STATS_GAMESTATS_H

#include <jansson.h>

#include "stats/strmap.h"
#include "core/date.h"
#include "core/record.h"
#include "core/strbuf.h"

/*
 * BY_FIRST_MOVES groups by the first two moves (what --by opening was
 * before the tags; its JSON is the same, "opening" in each group).
 * BY_OPENING and BY_CASTLE count each side's names (tags/tagger.h) as
 * players are counted, from the side that played them; BY_MATCHUP
 * groups by the game's matchup.
 */
enum group_by { BY_NONE, BY_PLAYER, BY_EVENT, BY_YEAR, BY_FIRST_MOVES,
	BY_OPENING, BY_CASTLE, BY_MATCHUP, BY_NB };

/* What --vs crosses BY_OPENING and BY_CASTLE with: the opponent's. */
enum vs_by { VS_NONE, VS_OPENING, VS_CASTLE };

/* Whether the grouping needs the games' tags. */
static inline int
group_by_tags(enum group_by by)
{
	return by == BY_OPENING || by == BY_CASTLE || by == BY_MATCHUP;
}

/* "none", "player", ... and back; -1 for an unknown name. */
const char *group_by_name(enum group_by by);
int group_by_parse(const char *name);
/* "opening", "castle" (VS_*), -1 for anything else. */
int vs_by_parse(const char *name);

/* The kinds of start a game has. */
enum start_kind { START_EVEN, START_HANDICAP, START_OTHER };

/* One game, as gamestats_add counts it; strings borrowed, "" for none. */
struct game {
	struct game_result result;	/* under the rules */
	enum start_kind start;
	const char *black, *white;	/* the players' names */
	const char *event;
	const char *date;		/* date_of_record's */
	const char *opening;		/* "7g7f 3c3d"; "" under two moves */
	/* Each side's names (BY_OPENING, BY_CASTLE: a list, "" if none),
	   and the matchup ("" if none). Borrowed. */
	const char *const *names[2];
	size_t nnames[2];
	const char *const *vs[2];	/* --vs: each side's names */
	size_t nvs[2];
	const char *matchup;
};

/*
 * How a game ended for the tables: a winner, a draw (no winner, the game
 * over: sennichite, an impasse, the move limit), or none (no winner and
 * no ending: unfinished or aborted, which is no draw).
 */
enum outcome { OUTCOME_BLACK, OUTCOME_WHITE, OUTCOME_DRAW, OUTCOME_NONE,
	OUTCOME_NB };

enum outcome outcome_of(enum winner w, enum reason r);

struct outcomes {
	long long records;
	long long winner[OUTCOME_NB];	/* by enum outcome */
	long long reason[REASON_NB];
};

/* What every group has, and the whole run too. */
struct summary {
	struct outcomes all, even, handicap;
	long long *length;		/* length[ply]: games that long */
	size_t nlength;
	struct strmap openings;
	long long *opening;		/* by id */
	size_t aopening;
};

struct player_stats {
	long long games;
	/* As Black, as White: wins, losses, draws, unfinished (by the
	   player's side of enum outcome). */
	long long as[2][OUTCOME_NB];
	char first[DATE_MAX], last[DATE_MAX];
};

struct gamestats {
	enum group_by by;
	enum vs_by vs;
	struct summary total;
	struct strmap names;		/* the players, or the groups */
	struct player_stats *player;	/* by id: BY_PLAYER, BY_OPENING,
					   BY_CASTLE */
	struct summary *group;		/* by id, the other groupings */
	size_t alloc;
	/* --vs: "NAME\x1fOPPONENT" to the name's side's outcomes. */
	struct strmap pairs;
	long long (*pair)[OUTCOME_NB];
	size_t apair;
	/*
	 * Every count read from shards so far, summed: no counter is more
	 * than this, so keeping it under GAMESTATS_READ_MAX keeps every
	 * sum of hostile shards from wrapping.
	 */
	long long read_total;
};

#define GAMESTATS_READ_MAX (1LL << 62)

/* Whether the grouping counts names from a side, as players. */
static inline int
group_by_side(enum group_by by)
{
	return by == BY_PLAYER || by == BY_OPENING || by == BY_CASTLE;
}

void gamestats_init(struct gamestats *s, enum group_by by);
void gamestats_release(struct gamestats *s);

void gamestats_add(struct gamestats *s, const struct game *g);

/*
 * One record read whole into j->r (judge_next): replayed on its main
 * line, its result under j's rules (read as format f), its start, its
 * players, event, date and first two moves counted; with a tagger (a
 * grouping by the names, group_by_tags), its openings, castles and
 * matchup too, named from the positions of that replay. The replay's
 * diagnostics go to j->d. Any thread, on a gamestats and a tagger of
 * its own.
 */
struct judge;
struct format;
struct tagger;
void gamestats_add_record(struct gamestats *s, struct judge *j,
    const struct format *f, struct tagger *tg);
/*
 * A record replayed and adjudicated already (a kifu_record: the library
 * judged it whole), counted as gamestats_add_record counts it; res: its
 * names by d (tags/tagger.h) for a grouping by them, else NULL.
 */
struct adjudication;
struct tagdefs;
struct tag_result;
void gamestats_add_judged(struct gamestats *s, const struct record *r,
    const struct adjudication *adj, const struct tagdefs *d,
    const struct tag_result *res);
/* Adds b's counts to a (the same grouping). */
void gamestats_merge(struct gamestats *a, const struct gamestats *b);

/*
 * The object `kifu stats --json` prints (one line), and the tables for
 * people; rules is the rule set as printed ("auto"), NULL if unknown.
 */
void gamestats_json(const struct gamestats *s, struct strbuf *out);
void gamestats_text(const struct gamestats *s, const char *rules,
    struct strbuf *out);

/*
 * Adds an object gamestats_json wrote to s. Its grouping must be s's
 * (a shard with no player and no group says nothing and fits any).
 * Returns 0, or -1 with the reason in why.
 */
int gamestats_read_json(struct gamestats *s, json_t *o, char *why,
    size_t n);

/* The grouping an object gamestats_json wrote was made with. */
enum group_by gamestats_json_by(json_t *o);
/* ... and its cross table (VS_NONE without one). */
enum vs_by gamestats_json_vs(json_t *o);

#endif /* KIFU_STATS_GAMESTATS_H */
