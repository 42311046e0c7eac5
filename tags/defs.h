/*
 * defs.h - the definitions of openings and castles: data, not code.
 *
 * A definition names a style (居飛車, 振り飛車), an opening (戦法), a
 * castle (囲い), a mark (a step other definitions refer to: the rook
 * pawns exchanged, the bishops in hand) or a game-level name (戦型:
 * what professional records write) by what the board shows: pieces on
 * squares as the side itself sees the board, pieces in hand, a window
 * of plies, the names it needs first or must not follow. The format is
 * text (doc/openings.md); kifu's own definitions are such a text
 * (tags/builtin.c), and a user's file adds to them or overrides them.
 *
 * Loading parses text into definitions; compiling turns them into what
 * the matcher reads (tags/tagger.h): square masks for each side, bitsets
 * of names, an index from each square to the definitions that look at
 * it. A compiled set is only read, so threads share it.
 *
 * Ownership: struct tagdefs owns every definition, string and table;
 * tagdefs_default() is built once and never freed (core_init's rule).
 */
#ifndef KIFU_TAGS_DEFS_H
#define KIFU_TAGS_DEFS_H

#include <stddef.h>
#include <stdint.h>

#include "core/bitboard.h"
#include "core/diag.h"

enum tag_kind {
	TAG_MARK, TAG_STYLE, TAG_OPENING, TAG_CASTLE, TAG_GAME, TAG_KIND_NB
};

/* "mark", "style", "opening", "castle", "game": the format's words. */
const char *tag_kind_name(enum tag_kind k);

enum tag_matchup {
	MATCHUP_NONE = -1,
	MATCHUP_STATIC,		/* 相居飛車: both 居飛車 */
	MATCHUP_OPPOSITE,	/* 対抗型: one 居飛車, one 振り飛車 */
	MATCHUP_RANGING,	/* 相振り飛車: both 振り飛車 */
	MATCHUP_NB
};

/* 相居飛車, 対抗型, 相振り飛車; "" for none. */
const char *tag_matchup_name(enum tag_matchup m);
/* The matchup the text names, or MATCHUP_NONE. */
enum tag_matchup tag_matchup_parse(const char *s, size_t n);

/* The two styles every matchup is made of. */
#define TAG_STYLE_STATIC "居飛車"
#define TAG_STYLE_RANGING "振り飛車"

/*
 * One board condition: a piece of the side (or of its opponent) on one
 * of the squares of mask, or with neg on none of them. type PT_NONE
 * means an empty square. mask[c] is the squares as they stand on the
 * board when the side is c (White sees the board turned round).
 */
struct tag_term {
	uint8_t type;		/* enum piece_type, PT_NONE: empty */
	uint8_t opp;		/* the opponent's piece */
	uint8_t neg;
	bitboard mask[2];
};

/* Hands: for each type, 0 no condition, 1 at least one, 2 none. */
struct tag_hand {
	uint8_t own[8], opp[8];
	uint8_t any;
};

/* A list of label ids (names and families, tagdefs_label). */
struct tag_ids {
	uint32_t *v;
	size_t n;
};

#define TAG_PLY_MAX 100000

struct tag_def {
	enum tag_kind kind;
	uint32_t name;		/* label id */
	uint32_t family;	/* label id; the name when none is given */
	int from, to;		/* plies, both included */
	uint8_t hold;		/* must hold at every ply of the window */
	uint8_t deflt;		/* style: given when no other is reached */
	uint8_t off;		/* a user's file switched it off */
	struct tag_term *terms;
	size_t nterms;
	struct tag_hand hand;
	struct tag_ids requires, requires_opp, unless, unless_opp;
	struct tag_ids replaces;
	/* game: */
	enum tag_matchup matchup;	/* MATCHUP_NONE: any */
	struct tag_ids either, both;
	struct tag_ids reads;	/* texts of headers that name it */
	/* where it was written: */
	uint32_t source;	/* index into tagdefs.sources */
	uint32_t line;
	char *board;		/* the board and hand fields as written */
	char *body;		/* every field line as written */
	uint32_t before;	/* label id + 1 to insert before, 0 none */
};

struct tagdefs {
	struct tag_def *v;	/* in evaluation order */
	size_t n, alloc;
	/* Labels: every name and family, interned; ids index them. */
	char **labels;
	size_t nlabels, alabels;
	char **sources;		/* "builtin", file names */
	size_t nsources;
	int compiled;
	/* --- filled by tagdefs_compile --------------------------------- */
	size_t words;		/* 64-bit words of a bitset over defs */
	size_t lwords;		/* ... over labels */
	/*
	 * Per side, the defs a move can make true, by the piece that moves
	 * and the square: arrive, when a piece of that type (the side's own,
	 * rel 0, or the opponent's, rel 1) comes onto the square and a term
	 * asks for it there; leave, when one goes and a term asks for none
	 * there. [((rel * PT_NB + type) * SQ_NB + square) * words]. The
	 * *_any tables, by square alone: empty squares asked for (leave) or
	 * asked not to be (arrive), and every def that must hold, which
	 * any change of its squares can make false. [SQ_NB * words]
	 */
	uint64_t *arrive[2], *leave[2], *arrive_any[2], *leave_any[2];
	/* For each def, its requires, requires opp, unless and unless opp
	 * as bitsets over labels: [n * 4 * lwords]. */
	uint64_t *lmasks;
	uint64_t *hand_defs;	/* defs with a hand condition */
	uint64_t *dep_defs;	/* defs with requires or unless */
	uint64_t *side_defs;	/* every def a side is matched against */
	/* For each label, the defs that refer to it for the own side
	 * (dep_own) and for the opponent (dep_opp); [nlabels * words]. */
	uint64_t *dep_own, *dep_opp;
	/* For each label, the defs that carry it as name (variants). */
	uint64_t *variants;
	/* Window starts: defs to look at first at ply starts[i].ply. */
	struct tag_start {
		int ply;
		uint64_t *defs;
	} *starts, *ends;	/* ends: defs whose window closed before ply */
	size_t nstarts, nends;
	uint32_t *holds;	/* the defs that must hold */
	size_t nholds;
	/* By ply, what starts and ends there (NULL: nothing), and whether
	 * a hold def's window ends: the work of a ply at a glance. */
	struct tag_plyset {
		const uint64_t *starts, *ends;
		int holds_end;
	} *plyset;
	int nplyset;
	int max_ply;		/* no def of a side looks past it */
	int has_hold;
};

/* The largest definitions file the commands and the library read. */
#define TAGDEFS_MAX_BYTES (1 << 20)

/* An empty set of definitions. */
struct tagdefs *tagdefs_new(void);
void tagdefs_free(struct tagdefs *d);

/*
 * Reads definitions from src[0..n) (UTF-8), written in `source` (a
 * file's name, as errors name it). A definition of a kind and name the
 * set already holds replaces every definition of that kind and name,
 * in their place; a new one goes after the others (a game name before
 * the last, catch-all game rule, or before the one `before` names: of
 * those the set held before this text), in the text's order, so that a
 * set written out reads back as itself. Returns 0, or -1 with errors in d (file:line:col), leaving d's
 * definitions as they were.
 */
int tagdefs_load(struct tagdefs *d, const char *source, const char *src,
    size_t n, struct diag_list *dl);

/* Adds kifu's own definitions (tags/builtin.c). */
int tagdefs_load_builtin(struct tagdefs *d, struct diag_list *dl);
/* kifu's own definitions, as text. */
const char *tagdefs_builtin_text(void);

/*
 * Builds the matcher's tables. Checks what only the whole set can say:
 * a name required, replaced or looked for must be defined (above the
 * definition that requires it). Returns 0, or -1 with errors in d.
 */
int tagdefs_compile(struct tagdefs *d, struct diag_list *dl);

/*
 * kifu's own definitions, compiled: built once, shared, never freed.
 * They are tested; a failure to build them aborts.
 */
const struct tagdefs *tagdefs_default(void);

/*
 * kifu's own definitions with a text's over them (a --definitions
 * file's, read as `name`), compiled; text NULL: kifu's own alone
 * (tagdefs_default). NULL with the errors in dl. Free with tagdefs_put.
 */
const struct tagdefs *tagdefs_over_builtin(const char *name,
    const char *text, size_t n, struct diag_list *dl);
/* Frees a set of tagdefs_over_builtin (kifu's own are never freed). */
void tagdefs_put(const struct tagdefs *d);

/* The label id of a text, or (uint32_t)-1 when no definition uses it. */
uint32_t tagdefs_find_label(const struct tagdefs *d, const char *s,
    size_t n);

static inline const char *
tagdefs_label(const struct tagdefs *d, uint32_t id)
{
	return d->labels[id];
}

/*
 * The game-level definition a header's text names (戦型：四間飛車,
 * 先手四間飛車、後手棒銀, 矢倉中飛車): of the names and `reads` texts of
 * the game definitions, the one found first in the text (the longest of
 * those found at the same place); -1 when none is found.
 */
int tagdefs_read_game(const struct tagdefs *d, const char *text, size_t n);

/*
 * Writes the definitions back as text, in their order: one file that
 * reads as the same set. With sources, each starts with a comment
 * naming where it was written ("# builtin:57").
 */
struct strbuf;
void tagdefs_write(const struct tagdefs *d, int sources, struct strbuf *out);

#endif /* KIFU_TAGS_DEFS_H */
