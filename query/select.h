/*
 * select.h - which records of a walk a command takes: `kifu export`
 * (training rows) and `kifu book` (opening books) select by the same
 * options, with the same defaults and the same names in their summaries.
 *
 *   --min-moves N      the main line has at least N legal moves
 *   --min-rating R     both players rated R or more (parsers/rating.h);
 *                      a record without both ratings is dropped
 *   --results LIST     result.reason (validate's names), comma-separated,
 *                      or "all"; default resign,checkmate,declaration,
 *                      perpetual-check: the games decided on the board
 *   --winner W         black, white or any (the default)
 *   --uniq             drop a record whose start position and moves
 *                      repeat an earlier selected record's
 *
 * The result is the rules' (api/judge.h), not the record's claim. The
 * per-record filters (select_record) run on any thread; --uniq needs the
 * records in input order, so a command decides it where its pipeline
 * emits (walk/pipeline.h), with a select_seen set: the same records are
 * dropped for every -j.
 */
#ifndef KIFU_QUERY_SELECT_H
#define KIFU_QUERY_SELECT_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>

#include "core/adjudicate.h"
#include "core/record.h"
#include "core/replay.h"
#include "core/strbuf.h"

/*
 * Why a record is not selected. X(enum, stable id): the ids are promises
 * to scripts (summaries count records by them), in the order the filters
 * run; a record is counted by the first that drops it.
 */
#define SELECT_LIST(X) \
	X(SELECT_KEPT, "kept") \
	X(SELECT_MIN_MOVES, "min-moves") \
	X(SELECT_NO_RATING, "no-rating") \
	X(SELECT_MIN_RATING, "min-rating") \
	X(SELECT_RESULTS, "results") \
	X(SELECT_WINNER, "winner") \
	X(SELECT_REPEAT, "uniq")

#define SELECT_ENUM(e, id) e,
enum select_drop { SELECT_LIST(SELECT_ENUM) SELECT_NB };
#undef SELECT_ENUM

const char *select_drop_name(enum select_drop d);

struct select_opts {
	int min_moves;		/* 0: any */
	int rated;		/* --min-rating given */
	double min_rating;
	unsigned results;	/* bit 1 << enum reason for each taken */
	int winner;		/* enum winner, or -1 any */
	int uniq;
};

/* The defaults: any length, rating and winner; decided games; no uniq. */
void select_init(struct select_opts *o);

/* getopt_long codes, above walk's (walk/pipeline.h) and rules'. */
enum {
	OPT_SELECT_MIN_MOVES = 0x1a0, OPT_SELECT_MIN_RATING,
	OPT_SELECT_RESULTS, OPT_SELECT_WINNER, OPT_SELECT_UNIQ
};

#define SELECT_LONGOPTS \
	{ "min-moves", required_argument, NULL, OPT_SELECT_MIN_MOVES }, \
	{ "min-rating", required_argument, NULL, OPT_SELECT_MIN_RATING }, \
	{ "results", required_argument, NULL, OPT_SELECT_RESULTS }, \
	{ "winner", required_argument, NULL, OPT_SELECT_WINNER }, \
	{ "uniq", no_argument, NULL, OPT_SELECT_UNIQ }

#define SELECT_HELP \
    "Selection (each record dropped is counted by the filter's name):\n" \
    "    --min-moves <n>      at least n legal moves on the main line\n" \
    "    --min-rating <r>     both players rated at least r (Floodgate's\n" \
    "                         'black_rate/'white_rate, a '(R1500)' after a\n" \
    "                         player's name); unrated records are dropped\n" \
    "    --results <list>     the rules' result.reason, comma-separated, or\n" \
    "                         all (default: resign,checkmate,declaration,\n" \
    "                         perpetual-check)\n" \
    "    --winner black|white|any\n" \
    "                         the rules' winner (default: any, draws too)\n" \
    "    --uniq               drop a record whose start and moves repeat an\n" \
    "                         earlier one's (in input order, for every -j)\n"

/*
 * Takes one option getopt_long returned: 1 if it was a selection
 * option, 0 if not, OPT_USAGE (core/parse.h) with what is wrong in why.
 */
int select_take(struct select_opts *o, int opt, const char *arg,
    struct strbuf *why);

/*
 * The per-record filters (all but --uniq) on a replayed, adjudicated
 * record (every pointer borrowed): SELECT_KEPT or the first that drops
 * it. Any thread.
 */
enum select_drop select_record(const struct select_opts *o,
    const struct record *r, const struct replay *rp,
    const struct adjudication *adj);

/*
 * The record's identity for --uniq: a 64-bit hash of its start position
 * (board, hands, side to move; not the move number) and the legal moves
 * of its main line. Never 0. Any thread.
 */
uint64_t select_key(const struct record *r, const struct replay *rp);

/*
 * The keys seen so far: an open-addressing set of 64-bit keys, 8 bytes
 * a slot, kept at most 3/4 full (11 to 21 bytes a key). Owns its slots.
 */
struct select_seen {
	uint64_t *slot;
	size_t n, cap;
};

void select_seen_init(struct select_seen *s);
void select_seen_release(struct select_seen *s);
/* Adds key (never 0); returns 1 if it is new, 0 if it was there. */
int select_seen_add(struct select_seen *s, uint64_t key);
/* Whether key is there. */
int select_seen_has(const struct select_seen *s, uint64_t key);

#endif /* KIFU_QUERY_SELECT_H */
