/*
 * ruleset.c - the named rule sets and their overrides.
 *
 * Each set is what one body actually applies, so that a record comes out
 * as that body decided it; section numbers are ../shared/docs/rules.md.
 */
#include <stdio.h>
#include <string.h>

#include "ruleset.h"

static const struct ruleset sets[] = {
	/*
	 * jsa: the Japan Shogi Association's professional rules as amended
	 * on 2019-10-01. Declarations by the 24-point method, 31 to win
	 * and 24-30 a draw (1.8b); an agreed impasse counts all pieces, and
	 * under 24 loses (1.8a); 500 moves, continued while the side that
	 * reached it keeps checking (1.9); the start position is an
	 * occurrence for sennichite (1.7); mate ends the game (1.6); the
	 * pieces a handicap removes count for 上手 (1.10).
	 */
	{
		.name = "jsa",
		.declaration = DECLARATION_24,
		.max_moves = 500,
		.check_extension = 1,
		.repetition_counts_start = 1,
		.mate_ends_game = 1,
		.impasse = IMPASSE_24,
		.handicap_credit = 1,
		.repetition = REPETITION_DRAW,
	},
	/*
	 * csa: shogi-server, which runs Floodgate and the CSA tournaments
	 * (section 2). %KACHI by the 27-point rule, Black 28 and White 27,
	 * no handicap credit (good_kachi?, 2.5); Default_Max_Moves 256,
	 * checked after repetition and fouls and ending the game on that
	 * ply whatever the position (2.1, 2.6); the start position never
	 * enters its history (2.4); it never looks for mate (2.2). It has
	 * no agreed impasse: a record that claims one (%JISHOGI) agreed it
	 * outside the server, and is scored by the JSA count (1.8a).
	 */
	{
		.name = "csa",
		.declaration = DECLARATION_27,
		.max_moves = 256,
		.check_extension = 0,
		.repetition_counts_start = 0,
		.mate_ends_game = 0,
		.impasse = IMPASSE_24,
		.handicap_credit = 0,
		.repetition = REPETITION_DRAW,
	},
	/*
	 * wars: Shogi Wars since 2014-09-30: the amateur declaration rule,
	 * Black 28 and White 27, made automatically (1.8e). rules.md knows
	 * no move limit for it, so there is none unless the record states
	 * one; repetition, mate, handicaps and an impasse agreed outside
	 * the app follow the general rules (1.6, 1.7, 1.10, 1.8a).
	 */
	{
		.name = "wars",
		.declaration = DECLARATION_27,
		.max_moves = 0,
		.check_extension = 0,
		.repetition_counts_start = 1,
		.mate_ends_game = 1,
		.impasse = IMPASSE_24,
		.handicap_credit = 1,
		.repetition = REPETITION_DRAW,
	},
	/*
	 * problem: a composed problem (詰将棋), not a game. It is as long
	 * as its composer made it (ミクロコスモス has 1,525 moves), so no
	 * move limit; nobody declares in one; it ends in mate, where the
	 * defender's only replies are futile interpositions (無駄合).
	 */
	{
		.name = "problem",
		.declaration = DECLARATION_NONE,
		.max_moves = 0,
		.check_extension = 0,
		.repetition_counts_start = 1,
		.mate_ends_game = 1,
		.impasse = IMPASSE_24,
		.handicap_credit = 0,
		.futile_interposition = 1,
		.repetition = REPETITION_DRAW,
	},
	/*
	 * minishogi: 5五将棋 as its Japanese rules, lishogi, cutechess and
	 * pychess-variants play it (rules.md 1.11, formats.md 7): a fourth
	 * occurrence without perpetual check loses for the side that made
	 * the game's first move, the start position counting; perpetual
	 * check loses for the checker as in shogi; mate and stalemate end
	 * the game. There are no declarations (declaring loses) and no move
	 * limit unless the record states one; an impasse agreed anyway is
	 * counted as in shogi, and no handicap credit applies.
	 */
	{
		.name = "minishogi",
		.declaration = DECLARATION_NONE,
		.max_moves = 0,
		.check_extension = 0,
		.repetition_counts_start = 1,
		.mate_ends_game = 1,
		.impasse = IMPASSE_24,
		.handicap_credit = 0,
		.repetition = REPETITION_FIRST_MOVER_LOSES,
	},
};

#define NSETS (sizeof(sets) / sizeof(sets[0]))

/* The most moves a limit may name: far beyond any real game. */
#define MAX_MOVES_LIMIT 100000000

#define RS_KEY(e, key) key,
static const char *const keys[RS_NB] = { RULESET_SETTINGS(RS_KEY) };
#undef RS_KEY

const struct ruleset *
ruleset_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < NSETS; i++)
		if (strcmp(name, sets[i].name) == 0)
			return &sets[i];
	return NULL;
}

const struct ruleset *
ruleset_default(void)
{
	return &sets[0];
}

const char *
ruleset_names(void)
{
	return "jsa, csa, wars, problem, minishogi";
}

const char *
ruleset_setting_name(enum ruleset_setting s)
{
	return s < RS_NB ? keys[s] : "?";
}

int
ruleset_parse(const char *desc, size_t n, struct ruleset *out)
{
	char buf[RULESET_DESC_MAX], *part, *eq, *next;
	const struct ruleset *base;

	if (n >= sizeof(buf))
		return -1;
	memcpy(buf, desc, n);
	buf[n] = '\0';
	if ((next = strchr(buf, ',')))
		*next++ = '\0';
	if (!(base = ruleset_by_name(buf)))
		return -1;
	*out = *base;
	while ((part = next)) {
		if ((next = strchr(part, ',')))
			*next++ = '\0';
		if (!(eq = strchr(part, '=')) || eq == part)
			return -1;
		*eq = '\0';
		if (ruleset_set(out, part, eq + 1) < 0)
			return -1;
	}
	return 0;
}

/* yes/no (also true/false, on/off, 1/0); -1 if neither. */
static int
parse_bool(const char *s)
{
	if (!strcmp(s, "yes") || !strcmp(s, "true") || !strcmp(s, "on") ||
	    !strcmp(s, "1"))
		return 1;
	if (!strcmp(s, "no") || !strcmp(s, "false") || !strcmp(s, "off") ||
	    !strcmp(s, "0"))
		return 0;
	return -1;
}

/* A count of moves, digits only; -1 if it is not one. */
static int
parse_count(const char *s)
{
	long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (*s - '0');
		if (v > MAX_MOVES_LIMIT)
			return -1;
	}
	return (int)v;
}

/* Stores a parsed value; -1 if it is not one the setting takes. */
static int
apply(struct ruleset *rs, enum ruleset_setting s, const char *value)
{
	int b = parse_bool(value), n;

	switch (s) {
	case RS_DECLARATION:
		if (!strcmp(value, "24"))
			rs->declaration = DECLARATION_24;
		else if (!strcmp(value, "27"))
			rs->declaration = DECLARATION_27;
		else if (!strcmp(value, "none"))
			rs->declaration = DECLARATION_NONE;
		else
			return -1;
		return 0;
	case RS_IMPASSE:
		if (!strcmp(value, "24"))
			rs->impasse = IMPASSE_24;
		else if (!strcmp(value, "27"))
			rs->impasse = IMPASSE_27;
		else
			return -1;
		return 0;
	case RS_MAX_MOVES:
		if ((n = parse_count(value)) < 0)
			return -1;
		rs->max_moves = n;
		return 0;
	case RS_REPETITION:
		if (!strcmp(value, "draw"))
			rs->repetition = REPETITION_DRAW;
		else if (!strcmp(value, "first-mover-loses"))
			rs->repetition = REPETITION_FIRST_MOVER_LOSES;
		else
			return -1;
		return 0;
	default:
		break;
	}
	if (b < 0)
		return -1;
	if (s == RS_CHECK_EXTENSION)
		rs->check_extension = b;
	else if (s == RS_REPETITION_START)
		rs->repetition_counts_start = b;
	else if (s == RS_MATE_ENDS_GAME)
		rs->mate_ends_game = b;
	else if (s == RS_FUTILE_INTERPOSITION)
		rs->futile_interposition = b;
	else
		rs->handicap_credit = b;
	return 0;
}

int
ruleset_set(struct ruleset *rs, const char *key, const char *value)
{
	int s;

	for (s = 0; s < RS_NB; s++) {
		if (strcmp(key, keys[s]) != 0)
			continue;
		if (apply(rs, (enum ruleset_setting)s, value) < 0)
			return -1;
		rs->overridden |= 1u << s;
		return 0;
	}
	return -1;
}

static void value_of(const struct ruleset *rs, enum ruleset_setting s,
    char *buf, size_t size);

void
ruleset_merge(struct ruleset *dst, const struct ruleset *overrides)
{
	int s;

	for (s = 0; s < RS_NB; s++) {
		char v[24];

		if (!(overrides->overridden & (1u << s)))
			continue;
		/* Through the printed value: one path for every setting. */
		value_of(overrides, (enum ruleset_setting)s, v, sizeof(v));
		(void)apply(dst, (enum ruleset_setting)s, v);
		dst->overridden |= 1u << s;
	}
}

static const char *
yes_no(int b)
{
	return b ? "yes" : "no";
}

/* The value of one setting as ruleset_set() reads it. */
static void
value_of(const struct ruleset *rs, enum ruleset_setting s, char *buf,
    size_t size)
{
	static const char *const decl[] = { "none", "24", "27" };

	switch (s) {
	case RS_DECLARATION:
		snprintf(buf, size, "%s", decl[rs->declaration]);
		break;
	case RS_MAX_MOVES:
		snprintf(buf, size, "%d", rs->max_moves);
		break;
	case RS_CHECK_EXTENSION:
		snprintf(buf, size, "%s", yes_no(rs->check_extension));
		break;
	case RS_REPETITION_START:
		snprintf(buf, size, "%s", yes_no(rs->repetition_counts_start));
		break;
	case RS_MATE_ENDS_GAME:
		snprintf(buf, size, "%s", yes_no(rs->mate_ends_game));
		break;
	case RS_IMPASSE:
		snprintf(buf, size, "%s", rs->impasse == IMPASSE_24 ? "24" :
		    "27");
		break;
	case RS_FUTILE_INTERPOSITION:
		snprintf(buf, size, "%s", yes_no(rs->futile_interposition));
		break;
	case RS_REPETITION:
		snprintf(buf, size, "%s", rs->repetition == REPETITION_DRAW ?
		    "draw" : "first-mover-loses");
		break;
	default:
		snprintf(buf, size, "%s", yes_no(rs->handicap_credit));
		break;
	}
}

void
ruleset_describe(const struct ruleset *rs, char *buf, size_t size)
{
	size_t len;
	int s;

	snprintf(buf, size, "%s", rs->name);
	for (s = 0; s < RS_NB; s++) {
		char v[24];

		if (!(rs->overridden & (1u << s)))
			continue;
		value_of(rs, (enum ruleset_setting)s, v, sizeof(v));
		len = strlen(buf);
		snprintf(buf + len, size - len, ",%s=%s", keys[s], v);
	}
}
