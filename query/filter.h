/*
 * filter.h - what `kifu find` looks for: the criteria its options give,
 * each one plain data (so that an index can answer the same criteria in
 * SQL, folding names with core/fold.h and dates with core/date.h as
 * here), parsed from the options and matched against a record in
 * stages, cheapest first:
 *
 *   headers   players, event, date, handicap (the start), format: what
 *             a record's headers and start position say, read without
 *             its moves (reader.headers_only);
 *   moves     the main line's length, as recorded: the whole record read,
 *             nothing replayed;
 *   position  the positions the lines reach: replayed, no further than
 *             the answer needs (filter_visit);
 *   tags      the openings and castles (tags/tagger.h), named on the
 *             same replay of the main line;
 *   result    the result under the rules: replayed and adjudicated.
 *
 * Every criterion must hold (AND). A struct filter is read-only once
 * filter_finish has run, and threads may share it; what matching needs
 * to write goes in a struct filter_scratch, one per thread.
 */
#ifndef KIFU_QUERY_FILTER_H
#define KIFU_QUERY_FILTER_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>

#include "core/date.h"
#include "core/handicap.h"
#include "core/position.h"
#include "core/record.h"
#include "core/strbuf.h"
#include "parsers/format.h"
#include "tags/tagger.h"

/* Which headers a text criterion looks in. */
enum filter_field {
	FIELD_PLAYER,		/* Black's or White's name */
	FIELD_BLACK,		/* 先手, 下手, CSA N+ */
	FIELD_WHITE,		/* 後手, 上手, CSA N- */
	FIELD_EVENT		/* 棋戦, CSA $EVENT */
};

/*
 * One text criterion: the header holds the text (folded, unless exact),
 * or with regex matches the pattern (PCRE2, on the folded header with
 * the pattern's own full-width and half-width forms folded and case
 * ignored, unless exact).
 */
struct filter_text {
	enum filter_field field;
	const char *arg;	/* as given; borrowed from argv */
	char *folded;		/* fold_append(arg); owned; arg under exact */
	size_t len;		/* strlen(folded) */
	void *re;		/* pcre2_code *, with regex; owned */
};

/*
 * One name criterion (--opening, --castle): a side has the name or a
 * name of that family (tags/defs.h) among its openings (and its style:
 * --opening 振り飛車) or its castles.
 */
struct filter_tag {
	int castle;
	const char *arg;	/* as given; borrowed from argv */
	uint32_t label;		/* in filter.defs, by filter_finish */
};

/* Handicap criteria beyond the starts of core/handicap.h. */
enum {
	FILTER_HANDICAP_ANY = HANDICAP_NB,	/* any standard handicap */
	FILTER_HANDICAP_OTHER			/* no standard start */
};

struct filter {
	struct filter_text *texts;	/* owned */
	size_t ntexts;
	int exact;		/* --exact: compare the text as written */
	int regex;		/* --regex: the texts are patterns */

	/* --date FROM..TO: "YYYY[-MM[-DD]]", "" for an open end. */
	int has_date;
	char date_from[DATE_MAX], date_to[DATE_MAX];

	int handicap;		/* enum handicap or FILTER_HANDICAP_*; -1 */
	const struct format *format;	/* --format; NULL: any */

	int moves_min, moves_max;	/* --moves MIN..MAX; -1: open */

	int has_position;	/* --sfen, --usi or --at */
	struct position pos;	/* the position looked for */
	uint64_t key;		/* its position_key, or board key */
	int board_only;		/* --board-only: hands, side ignored */
	int variations;		/* --variations: every line, not main */

	int reason;		/* --result: enum reason; -1 any */
	int winner;		/* --winner: enum winner; -1 any */

	struct filter_tag *tags;	/* owned */
	size_t ntags;
	int tag_side;		/* --side: BLACK or WHITE; -1 either */
	/* The definitions the names are of; the caller sets them before
	 * filter_finish (borrowed). */
	const struct tagdefs *defs;
	const char *side;	/* --side as given */

	/* Options kept until filter_finish. */
	const char *sfen, *usi, *at;
};

/* getopt_long codes, above those of pipeline.h and ruleopts.h. */
enum {
	OPT_F_SFEN = 0x200, OPT_F_USI, OPT_F_AT, OPT_F_VARIATIONS,
	OPT_F_BOARD_ONLY, OPT_F_PLAYER, OPT_F_BLACK, OPT_F_WHITE, OPT_F_EVENT,
	OPT_F_DATE, OPT_F_RESULT, OPT_F_WINNER, OPT_F_MOVES, OPT_F_HANDICAP,
	OPT_F_FORMAT, OPT_F_EXACT, OPT_F_REGEX, OPT_F_OPENING, OPT_F_CASTLE,
	OPT_F_SIDE
};

#define FILTER_LONGOPTS \
	{ "sfen", required_argument, NULL, OPT_F_SFEN }, \
	{ "usi", required_argument, NULL, OPT_F_USI }, \
	{ "at", required_argument, NULL, OPT_F_AT }, \
	{ "variations", no_argument, NULL, OPT_F_VARIATIONS }, \
	{ "board-only", no_argument, NULL, OPT_F_BOARD_ONLY }, \
	{ "player", required_argument, NULL, OPT_F_PLAYER }, \
	{ "black", required_argument, NULL, OPT_F_BLACK }, \
	{ "white", required_argument, NULL, OPT_F_WHITE }, \
	{ "event", required_argument, NULL, OPT_F_EVENT }, \
	{ "date", required_argument, NULL, OPT_F_DATE }, \
	{ "result", required_argument, NULL, OPT_F_RESULT }, \
	{ "winner", required_argument, NULL, OPT_F_WINNER }, \
	{ "moves", required_argument, NULL, OPT_F_MOVES }, \
	{ "handicap", required_argument, NULL, OPT_F_HANDICAP }, \
	{ "format", required_argument, NULL, OPT_F_FORMAT }, \
	{ "exact", no_argument, NULL, OPT_F_EXACT }, \
	{ "regex", no_argument, NULL, OPT_F_REGEX }, \
	{ "opening", required_argument, NULL, OPT_F_OPENING }, \
	{ "castle", required_argument, NULL, OPT_F_CASTLE }, \
	{ "side", required_argument, NULL, OPT_F_SIDE }

#define FILTER_HELP \
    "Filters (every one given must hold):\n" \
    "    --sfen <sfen>        the position (board, hands, side to move; not\n" \
    "                         the move number) occurs on the main line\n" \
    "    --usi <position>     the same, as 'startpos moves 7g7f ...' or\n" \
    "                         'sfen <sfen> moves ...'\n" \
    "    --at <file:ply>      the same, the position of a record after ply\n" \
    "                         moves (file#index:ply: the index-th record of\n" \
    "                         the file, from 0, as find prints it)\n" \
    "    --variations         search the variations too\n" \
    "    --board-only         compare the board only, not hands or side\n" \
    "    --player <name>      Black or White is named so (repeatable: all)\n" \
    "    --black <name>, --white <name>\n" \
    "                         that side is named so\n" \
    "    --event <text>       the event names it\n" \
    "    --date <from..to>    played in the range (YYYY, YYYY-MM or\n" \
    "                         YYYY-MM-DD; either end may be left open; one\n" \
    "                         date alone is the range it names)\n" \
    "    --result <reason>    the game ended so under the rules (checkmate,\n" \
    "                         resign, sennichite, ...; as validate's\n" \
    "                         result.reason)\n" \
    "    --winner black|white|none\n" \
    "                         the winner under the rules\n" \
    "    --moves <min..max>   the main line has min to max moves (either\n" \
    "                         end may be left open; N alone: N moves)\n" \
    "    --handicap <name>    the start: even, lance, bishop, rook,\n" \
    "                         two-piece, ... or 平手, 香落ち, 角落ち, ...;\n" \
    "                         any (any handicap), other (no standard start)\n" \
    "    --format <format>    read as this format (csa, kif, kifu, ki2,\n" \
    "                         ki2u, usi, jkf)\n" \
    "    --exact              names and events as written: no folding of\n" \
    "                         full-width, half-width and case\n" \
    "    --regex              names and events are PCRE2 patterns\n" \
    "    --opening <name>     a side plays the opening (kifu tag's names:\n" \
    "                         四間飛車, 矢倉, ...; a family, 三間飛車 for\n" \
    "                         石田流 too; or a style, 振り飛車; repeatable)\n" \
    "    --castle <name>      a side builds the castle (美濃囲い; 美濃 for\n" \
    "                         the family, 穴熊, 矢倉; repeatable)\n" \
    "    --side black|white   the openings and castles asked for are that\n" \
    "                         side's (without it, each is either side's)\n"

/* What matching writes: one per thread. */
struct filter_scratch {
	struct strbuf fold;	/* a header folded */
	void *md;		/* pcre2_match_data * */
};

void filter_init(struct filter *f);

/*
 * The i of 0..n-1 whose name(i) is s, or -1 (s may be NULL); the
 * --result and --winner names (enum reason, enum winner) so.
 */
int filter_name_index(const char *s, const char *(*name)(int), int n);
int filter_reason_by_name(const char *s);
int filter_winner_by_name(const char *s);
void filter_release(struct filter *f);

/*
 * Takes one option getopt_long returned: 1 if it was a filter option, 0
 * if not, OPT_USAGE (core/parse.h) with what is wrong in why.
 */
int filter_take(struct filter *f, int opt, const char *arg,
    struct strbuf *why);

/*
 * Folds the texts, compiles the patterns and sets the position up (an
 * --at record is read and replayed, under limits lim). Returns 0, or
 * OPT_USAGE or OPT_ERROR with what is wrong in why.
 */
int filter_finish(struct filter *f, const struct limits *lim,
    struct strbuf *why);

void filter_scratch_init(const struct filter *f, struct filter_scratch *s);
void filter_scratch_release(struct filter_scratch *s);

/* Whether any criterion of a stage is given. */
int filter_has_headers(const struct filter *f);
int filter_has_moves(const struct filter *f);
int filter_has_result(const struct filter *f);
int filter_has_tags(const struct filter *f);

/* The header stage, on a record read as format fmt. */
int filter_match_headers(const struct filter *f, struct filter_scratch *s,
    const struct record *r, const struct format *fmt);

/*
 * Before the header stage, on the whole text t that records are to be
 * read from as format fmt: 0 when no record in it can meet the text
 * criteria, for the caller to pass over the text unread (a search of
 * names in a large archive of other people's games); 1 when one may.
 * It can tell only where fmt keeps header values as written
 * (CAP_HEADERS_AS_WRITTEN): then a name or event that occurs nowhere in
 * the text is in no header of it. Under exact, as written; else in an
 * ASCII text (folding only lowers its capitals), with ASCII case
 * ignored, and a folded text that is not ASCII is in no header at all.
 * Patterns (regex) are not judged so.
 */
int filter_text_may_match(const struct filter *f, const struct text *t,
    const struct format *fmt);

/* The moves stage: the main line's moves, up to its terminal. */
int filter_match_moves(const struct filter *f, const struct record *r);
/* The same on the number of moves n (as an index stores it). */
int filter_match_plies(const struct filter *f, int n);

/*
 * Whether the text criterion t holds for one header (id, value): how an
 * index looks its names up without the record.
 */
int filter_text_holds(const struct filter *f, const struct filter_text *t,
    struct filter_scratch *s, enum header_id id, const char *value);

/* The tags stage, on the names of a record (named with f->defs). */
int filter_match_tags(const struct filter *f, const struct tag_result *res);

/* The result stage, on the result the rules give. */
int filter_match_result(const struct filter *f, const struct game_result *g);

/*
 * The position stage, as a replay visit (core/replay.h): the plies at
 * which the lines searched reach the position. With first_only the
 * replay stops at the first.
 */
struct filter_hits {
	const struct filter *f;
	const struct record *r;
	int first_only;
	int *ply;		/* ascending once filter_hits_sort ran */
	size_t n, alloc;
};

/*
 * The position a USI text reaches ("startpos moves ...", "sfen ...
 * moves ..."), replayed, into *pos; opt names the option in messages.
 * 0, or OPT_ERROR with what is wrong in why. Also what `kifu book query`
 * reads.
 */
int position_from_usi(const char *src, const char *opt, struct position *pos,
    struct strbuf *why);

int filter_visit(void *hits, const struct position *pos, int32_t node,
    int main);
/* Sorts the plies and drops repeats (two lines reaching one ply). */
void filter_hits_sort(struct filter_hits *h);

#endif /* KIFU_QUERY_FILTER_H */
