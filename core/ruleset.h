/*
 * ruleset.h - the rules a result is judged under, as named bundles of
 * settings (../shared/docs/rules.md sections 1.6-1.10 and 2).
 *
 * The same record can end differently under different rules: a cycle
 * through the start position is sennichite one ply later on Floodgate
 * than under the JSA rules, 28 declaration points win under the CSA rule
 * and draw under the JSA one, a mate on the last allowed ply is a mate
 * for the JSA and a max-moves draw for shogi-server. So every result
 * names the rule set it was computed under.
 *
 * The named sets are static and read-only; a caller copies one and
 * overrides single settings with ruleset_set().
 */
#ifndef KIFU_CORE_RULESET_H
#define KIFU_CORE_RULESET_H

#include <stddef.h>

/*
 * How an entering-king declaration is judged (CSA %KACHI, KIF 入玉勝ち,
 * USI win).
 */
enum declaration_rule {
	DECLARATION_NONE,	/* no declaration rule: declaring loses */
	DECLARATION_24,		/* JSA 24-point: 31+ wins, 24-30 draws */
	DECLARATION_27		/* CSA 27-point: Black 28+, White 27+ wins */
};

/*
 * How an agreed impasse (持将棋, %JISHOGI) is scored; every piece on the
 * board and in hand counts (rules.md 1.8a, 1.8c).
 */
enum impasse_rule {
	IMPASSE_24,		/* JSA: under 24 loses, both 24+ draw */
	IMPASSE_27		/* amateur count: Black 28+ / White 27+ wins */
};

/*
 * What a fourth occurrence of a position is when neither side checked
 * throughout (perpetual check loses for the checker under both).
 */
enum repetition_rule {
	REPETITION_DRAW,		/* sennichite is a draw (shogi) */
	/*
	 * The side that made the game's first move loses: Japanese
	 * minishogi rules, lishogi, cutechess, pychess-variants.
	 */
	REPETITION_FIRST_MOVER_LOSES
};

/*
 * X(enum name, key) for every setting, in the order they are printed.
 * The keys are what --rule KEY=VALUE and the rule set's printed form
 * use; they are promises to scripts: add, never rename.
 */
#define RULESET_SETTINGS(X) \
	X(RS_DECLARATION, "declaration") \
	X(RS_MAX_MOVES, "max-moves") \
	X(RS_CHECK_EXTENSION, "check-extension") \
	X(RS_REPETITION_START, "repetition-counts-start") \
	X(RS_MATE_ENDS_GAME, "mate-ends-game") \
	X(RS_IMPASSE, "impasse") \
	X(RS_HANDICAP_CREDIT, "handicap-credit") \
	X(RS_FUTILE_INTERPOSITION, "futile-interposition") \
	X(RS_REPETITION, "repetition")

#define RS_ENUM(e, key) e,
enum ruleset_setting { RULESET_SETTINGS(RS_ENUM) RS_NB };
#undef RS_ENUM

struct ruleset {
	const char *name;		/* "jsa", "csa", "wars", "minishogi" */
	enum declaration_rule declaration;
	/*
	 * Moves after which the game is drawn; 0 = no limit. A limit the
	 * record states ('Max_Moves:, $MAX_MOVES, 最大手数) replaces it,
	 * unless this setting was overridden (RS_MAX_MOVES in overridden).
	 */
	int max_moves;
	/*
	 * JSA 500-move rule (rules.md 1.9): if the move reaching the limit
	 * gives check, play goes on while that side keeps checking, and the
	 * game is drawn after its first move that does not. Applies to the
	 * rule set's own limit only, never to one the record states (those
	 * come from servers that end the game on the limit ply).
	 */
	int check_extension;
	/*
	 * Whether the start position is the first occurrence of itself for
	 * sennichite (rules.md 1.7: JSA yes; shogi-server no, so a cycle
	 * through the start ends one ply later).
	 */
	int repetition_counts_start;
	/*
	 * Whether checkmate and stalemate end the game. shogi-server never
	 * looks (rules.md 2.2): a mated program must resign, so its records
	 * end as the terminal says, and a mate on the last allowed ply is
	 * still a max-moves draw (2.1, 1.9). Without it a mate is reported
	 * only when the record says nothing else.
	 */
	int mate_ends_game;
	enum impasse_rule impasse;
	/*
	 * Whether, in a game from a standard handicap start, the pieces the
	 * handicap removed count for 上手 in declarations and impasse
	 * (rules.md 1.8a, 1.10; formats.md 8.3).
	 */
	int handicap_credit;
	/*
	 * Whether a record that ends with the defender in check, with no
	 * reply but drops the attacker takes with mate again (無駄合), ends
	 * in mate, as composed problems count it (core/tsume.h). Only the
	 * record's final position is judged so: a record that goes on plays
	 * the drop, which is legal.
	 */
	int futile_interposition;
	enum repetition_rule repetition;
	unsigned overridden;		/* 1 << enum ruleset_setting */
};

/* The named rule set ("jsa", "csa", "wars", "problem"), or NULL. */
const struct ruleset *ruleset_by_name(const char *name);
/* The default: "jsa". */
const struct ruleset *ruleset_default(void);
/* "jsa, csa, wars, problem, minishogi": for usage messages. */
const char *ruleset_names(void);

const char *ruleset_setting_name(enum ruleset_setting s);

/*
 * Overrides one setting by its key ("max-moves", ...) with a value as a
 * user writes it: a number, yes/no, 24/27/none, draw/first-mover-loses.
 * Returns 0, or -1 if the key or the value is not one the setting takes
 * (rs is then unchanged).
 */
int ruleset_set(struct ruleset *rs, const char *key, const char *value);

/*
 * Copies every setting overrides has overridden into dst, and marks it
 * overridden there: the user's settings on top of a set chosen later.
 */
void ruleset_merge(struct ruleset *dst, const struct ruleset *overrides);

/*
 * The rule set as printed with every result: its name, then each
 * overridden setting, "jsa" or "jsa,max-moves=300,declaration=27".
 */
#define RULESET_DESC_MAX 192
void ruleset_describe(const struct ruleset *rs, char *buf, size_t size);

/*
 * Reads a rule set as ruleset_describe() prints it ("csa,max-moves=0":
 * a set's name, then KEY=VALUE settings, each marked overridden) into
 * *out. Returns 0, or -1 if the name or a setting is not one kifu knows
 * (*out is then unspecified).
 */
int ruleset_parse(const char *desc, size_t n, struct ruleset *out);

#endif /* KIFU_CORE_RULESET_H */
