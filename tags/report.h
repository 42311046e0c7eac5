/*
 * report.h - what a tagger's result says, as text and as JSON, and the
 * names a record's own headers give, read and compared with kifu's.
 *
 * The headers other programs read and write (KIF and KI2 header lines;
 * CSA comment lines of the same text, since CSA has no such header):
 *
 *	戦型：四間飛車                  the game (professional records;
 *	                                 CSA's own header $OPENING:四間飛車)
 *	先手の戦型：棒銀, 早繰り銀       Black's openings (bioshogi)
 *	先手の戦法：棒銀                 the same, as Shogi Wars exports write it
 *	先手の囲い：舟囲い               Black's castles
 *	後手の… / 下手の… / 上手の…       the other side; 下手 and 上手 in
 *	                                 handicap games
 *
 * Several names in one value are separated by ", " (also read: "," and
 * "、").
 */
#ifndef KIFU_TAGS_REPORT_H
#define KIFU_TAGS_REPORT_H

#include "tags/tagger.h"
#include "core/strbuf.h"

/*
 * The line `kifu tag` prints after "FILE: ", without a newline:
 * "矢倉 (相居飛車); black 居飛車: 矢倉@17 | 金矢倉@39; white ...".
 */
void tags_text(const struct tagdefs *d, const struct tag_result *res,
    struct strbuf *out);

/*
 * The result as JSON members (", \"game\": ...": to go inside an
 * object after other members): game, game_family, matchup, handicap,
 * black and white (style, openings, castles: name, family, ply and the
 * definition that matched, "SOURCE:LINE").
 */
void tags_json(const struct tagdefs *d, const struct tag_result *res,
    struct strbuf *out);

/* The tag headers: which one, and for which side. */
enum tag_header {
	TH_GAME,		/* 戦型 */
	TH_OPENING,		/* 先手の戦型, 先手の戦法 */
	TH_CASTLE,		/* 先手の囲い */
	TH_NB
};

/* One name header as a record has it. */
struct tag_header_line {
	enum tag_header what;
	int side;		/* BLACK, WHITE; -1 for the game */
	uint32_t line;		/* in the file; 0: a CSA comment line */
	char *value;		/* as written (trimmed) */
};

struct tag_headers {
	struct tag_header_line *v;
	size_t n, alloc;
};

void tag_headers_init(struct tag_headers *h);
void tag_headers_release(struct tag_headers *h);

/*
 * The name headers of r (KIF/KI2 headers, CSA's $OPENING and comment
 * lines before the first move; JKF header keys likewise), in the
 * record's order.
 */
void tag_headers_read(struct tag_headers *h, const struct record *r);

/* Whether the key (as a record writes it, without the colon) is a name
 * header: sets *what and *side. */
int tag_header_key(const char *key, size_t n, enum tag_header *what,
    int *side);

/*
 * The key kifu writes: "戦型", "先手の戦型", "後手の囲い", "下手の戦型" ...
 * (handicap: 下手 and 上手 for Black and White).
 */
const char *tag_header_key_name(enum tag_header what, int side,
    int handicap);

/*
 * The value kifu writes for a header ("" when it has no name): the
 * game's name, or the side's names joined by ", ".
 */
void tag_header_value(const struct tagdefs *d, const struct tag_result *res,
    enum tag_header what, int side, struct strbuf *out);

/*
 * Where the record's headers and kifu's names differ: one line a
 * header ("戦型: record 矢倉; kifu 角換わり"), the game compared by the
 * game-level name either text reads as (tagdefs_read_game), a side's
 * names as sets. Returns the number of differences; text lines go to
 * out (each ending in "\n"), prefixed by `prefix`; with json, one JSON
 * array of {"header", "record", "kifu"} instead.
 */
int tags_compare(const struct tagdefs *d, const struct tag_result *res,
    const struct tag_headers *h, const char *prefix, int json,
    struct strbuf *out);

#endif /* KIFU_TAGS_REPORT_H */
