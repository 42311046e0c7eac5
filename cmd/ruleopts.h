/*
 * ruleopts.h - the options `kifu validate` and `kifu check` share: the
 * rule set (--rules, --declaration, --max-moves, --repetition-counts-start,
 * --rule KEY=VALUE) and the reading limits (--limit NAME=N, which `kifu
 * convert` takes too).
 */
#ifndef KIFU_CMD_RULEOPTS_H
#define KIFU_CMD_RULEOPTS_H

#include <getopt.h>

#include "core/limit.h"
#include "core/ruleset.h"

/* getopt_long codes, above every character a short option uses. */
enum {
	OPT_RULES = 0x100, OPT_DECLARATION, OPT_MAX_MOVES,
	OPT_REPETITION_START, OPT_RULE, OPT_LIMIT, OPT_NO_RESULT_CHECK,
	OPT_READ_FROM, OPT_READ_VARIANT
};

/*
 * How the commands that walk read a record (check, find, stats):
 * --from and --variant, into the judge's options.
 */
#define READ_LONGOPTS \
	{ "from", required_argument, NULL, OPT_READ_FROM }, \
	{ "variant", required_argument, NULL, OPT_READ_VARIANT }

#define READ_HELP \
    "Reading:\n" \
    "    --from <format>      read every record as this format\n" \
    "    --variant <name>     standard (default) or minishogi: the game a\n" \
    "                         record is of when its text does not say\n"

struct judge_opts;
/*
 * Takes one option getopt_long returned into jo: 1 if it was a reading
 * option, 0 if not, EXIT_TROUBLE after a usage error.
 */
int readopts_take(struct judge_opts *jo, int opt, const char *arg,
    const char *usage);

#define LIMIT_LONGOPT \
	{ "limit", required_argument, NULL, OPT_LIMIT }

#define LIMIT_HELP \
    "    --limit <name>=<n>\n" \
    "                      raise or lower a reading limit (0: none): line\n" \
    "                      (bytes, 4194304), record (bytes, 67108864),\n" \
    "                      moves (100000, all variations), depth\n" \
    "                      (variations in variations, 1000), headers (1000)\n"

/*
 * Takes --limit's argument into lim. Returns 0, or EXIT_TROUBLE after a
 * usage error (printed with `usage`).
 */
int limitopt_take(struct limits *lim, const char *arg, const char *usage);

#define RULE_LONGOPTS \
	{ "rules", required_argument, NULL, OPT_RULES }, \
	{ "declaration", required_argument, NULL, OPT_DECLARATION }, \
	{ "max-moves", required_argument, NULL, OPT_MAX_MOVES }, \
	{ "repetition-counts-start", required_argument, NULL, \
	    OPT_REPETITION_START }, \
	{ "rule", required_argument, NULL, OPT_RULE }, \
	{ "no-result-check", no_argument, NULL, OPT_NO_RESULT_CHECK }, \
	LIMIT_LONGOPT

/* The help lines for the options above, to end a usage text. */
#define RULEOPTS_HELP \
    "Rules (the set is printed with every result):\n" \
    "    --rules <set>     auto (default: the set each record's text points\n" \
    "                      at, printed with its evidence), jsa (JSA\n" \
    "                      professional rules), csa (shogi-server:\n" \
    "                      Floodgate, CSA tournaments), wars (Shogi Wars),\n" \
    "                      problem (composed problems: no move limit),\n" \
    "                      minishogi (5x5), or a set as results print it\n" \
    "                      (csa,max-moves=0)\n" \
    "    --declaration 24|27|none\n" \
    "                      entering-king declarations: JSA 24-point (31 wins,\n" \
    "                      24-30 draws), CSA 27-point (Black 28, White 27)\n" \
    "    --max-moves <n>   move limit, 0 for none; by default the record's\n" \
    "                      own limit, else the venue's or the set's (jsa\n" \
    "                      500, csa 256)\n" \
    "    --repetition-counts-start yes|no\n" \
    "                      whether the start position counts for sennichite\n" \
    "    --rule <key>=<value>\n" \
    "                      any other setting: check-extension, impasse,\n" \
    "                      mate-ends-game, handicap-credit,\n" \
    "                      futile-interposition, repetition (draw,\n" \
    "                      first-mover-loses)\n" \
    "    --no-result-check\n" \
    "                      do not compare the result the record claims with\n" \
    "                      the rules' (no 'mismatch' status)\n" \
    "Limits:\n" \
    LIMIT_HELP

#define RULEOPTS_MAX 32

struct ruleopts {
	const char *name;	/* "auto" unless --rules */
	const char *keys[RULEOPTS_MAX], *values[RULEOPTS_MAX];
	int n;
	struct limits lim;	/* limits_default unless --limit */
	int no_result_check;	/* --no-result-check */
};

void ruleopts_init(struct ruleopts *ro);
/*
 * Takes one option getopt_long returned. Returns 1 if it was a rule
 * or limit option, 0 if not, or EXIT_TROUBLE after a usage error (printed with
 * `usage`). arg is modified (--rule splits at '=').
 */
int ruleopts_take(struct ruleopts *ro, int opt, char *arg, const char *usage);
/*
 * The rule set: the named one, then every override in the order given.
 * Under --rules auto (the default) *automatic is set and rs holds only
 * the overrides, named "auto": the set itself is chosen per record
 * (core/venue.h). Returns 0, or EXIT_TROUBLE after a usage error.
 */
int ruleopts_build(const struct ruleopts *ro, struct ruleset *rs,
    int *automatic, const char *usage);
/*
 * ruleopts_build into rs, and the judge's options from it: the set (rs,
 * borrowed), auto, the result check, the limits (ro's, borrowed).
 */
int ruleopts_judge(const struct ruleopts *ro, struct ruleset *rs,
    struct judge_opts *jo, const char *usage);

/*
 * The options of the commands that walk and judge (check, find, stats):
 * reading (READ_LONGOPTS), the walk (walkopts.h) and the rules; as
 * each *_take, 1 if opt was one of them, 0 if not, or EXIT_TROUBLE.
 */
struct walkopts;
int judgeopts_take(struct judge_opts *jo, struct walkopts *wo,
    struct ruleopts *ro, int opt, char *arg, const char *usage);

#endif /* KIFU_CMD_RULEOPTS_H */
