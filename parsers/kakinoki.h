/*
 * kakinoki.h - the vocabulary KIF and KI2 share (Kakinoki's formats):
 * piece words, numerals, squares, side marks, 手合割 names, terminal
 * words and header keys. Readers and writers of both formats use it, so
 * that each word is spelled in one place.
 *
 * All text is UTF-8. Readers take (s, n) and return how many bytes they
 * consumed, 0 when the text does not start with what they read.
 */
#ifndef KIFU_PARSERS_KAKINOKI_H
#define KIFU_PARSERS_KAKINOKI_H

#include <stddef.h>

#include "core/handicap.h"
#include "core/record.h"

/* Move-text name of a piece type: "歩", ..., "成香", "馬", "龍". */
const char *kakinoki_piece_word(enum piece_type pt);
/* One-character board-cell name: "歩", ..., "杏", "圭", "全", "馬", "龍". */
const char *kakinoki_piece_cell(enum piece_type pt);
/*
 * Reads a piece word in any spelling people write (王/玉, 竜/龍, 成銀/全,
 * 成桂/圭, 成香/杏, と). Returns bytes consumed, 0 if none.
 */
size_t kakinoki_read_piece(const char *s, size_t n, enum piece_type *pt);

/* "１".."９" (full-width), for files. */
const char *kakinoki_file_digit(int file);	/* file 1..9 */
/* "一".."九", for ranks. */
const char *kakinoki_rank_kanji(int rank);	/* rank 1..9 */
/*
 * Reads a digit 1..9 written full-width, ASCII or as a kanji numeral.
 * Returns bytes consumed, 0 if none.
 */
size_t kakinoki_read_digit(const char *s, size_t n, int *value);
/*
 * Reads a kanji count as in hands ("二", "十", "十八"); also ASCII and
 * full-width digits. Returns bytes consumed, 0 if none.
 */
size_t kakinoki_read_count(const char *s, size_t n, int *value);
/* Appends a count as kanji (2 -> "二", 18 -> "十八"). */
void kakinoki_add_count(struct strbuf *sb, int value);

/* Side marks ▲△ (also ▼▽☗☖). Returns bytes consumed; *c the side. */
size_t kakinoki_read_mark(const char *s, size_t n, enum color *c);
const char *kakinoki_mark(enum color c);	/* "▲" / "△" */

/* 手合割 names <-> standard starts. NULL / HANDICAP_NONE when unknown. */
const char *kakinoki_handicap_name(enum handicap h);
enum handicap kakinoki_handicap_by_name(const char *s, size_t n);

/* Terminal words (投了, 中断, 千日手, ...). SP_NONE when not a known word. */
enum special kakinoki_special_by_word(const char *s, size_t n);
/* The word a writer uses; NULL for specials KIF has no word for. */
const char *kakinoki_special_word(enum special sp);

/* Header keys that map to well-known ids (先手, 後手, 棋戦, 開始日時...). */
enum header_id kakinoki_header_id(const char *key, size_t n);
/* The key a writer uses for an id ("先手"); NULL if KIF has none. */
const char *kakinoki_header_key(enum header_id id, int handicap_game);

/*
 * ---- For the writers (writers/kif.c, writers/ki2.c, writers/bod.c) ----
 */
struct write_opts;

/* Display columns of UTF-8 text as Kifu for Windows pads it (ASCII 1). */
size_t kakinoki_width(const char *s, size_t n);

/*
 * Whether the sides are 下手/上手 rather than 先手/後手: a standard
 * handicap start, or a board of its own whose record names the players
 * so (or calls the start その他, as Kifu for Windows does for them).
 */
int kakinoki_handicap_labels(const struct record *r);

/*
 * A move in KIF notation: "７六歩(77)", "２二角成(88)", "５五角打", or with
 * `same` (the previous move landed on the same square) "同　銀(31)".
 */
void kakinoki_write_move(struct strbuf *sb, move m, int same);

/*
 * A move as KI2 writes it, without the side mark: "７六歩", "同　歩",
 * "５四銀右引不成", "５五角打", with exactly the relative words JSA
 * notation asks for (core/notation.h). pos is the position before m.
 */
void kakinoki_write_ki2_move(struct strbuf *sb, const struct position *pos,
    move m, int same);

/* Whether node i's move lands where the move before it did (同). */
int kakinoki_is_same(const struct record *r, int32_t i);

/* "手合割：平手　　": the name padded to four characters. */
void kakinoki_write_handicap_line(const char *name, struct strbuf *sb);

/*
 * The board diagram of pos (formats.md 3.4): White's hand, the board,
 * Black's hand, then `trailer` on a line of its own when not NULL (the
 * "手数＝N  ..." line of a bare diagram) and the side to move when it needs
 * saying. hg: the sides are 上手/下手 rather than 後手/先手.
 */
void kakinoki_write_bod(const struct position *pos, int hg,
    const char *trailer, struct strbuf *sb);

/*
 * The same diagram for people (`kifu show`): the cell of square `mark`
 * (SQ_NONE: none) between the strings on and off (a terminal's colour),
 * and the side to move said even when it is Black, with side_always.
 */
struct bod_style {
	square mark;
	const char *on, *off;	/* borrowed */
	int side_always;
};
void kakinoki_write_bod_styled(const struct position *pos, int hg,
    const char *trailer, const struct bod_style *st, struct strbuf *sb);

/*
 * A start later than move 1 (a diagram from the middle of a game) keeps
 * its number in the diagram's 手数＝ line: appends the one the record had,
 * which may name the move that led there, else "手数＝N" made up from the
 * number; nothing for a start at move 1. Returns 1 when it used the
 * record's line (a header kept whole), else 0.
 */
int kakinoki_start_trailer(const struct record *r, struct strbuf *trailer);

/*
 * The "#KIF version=2.0 encoding=..." line (fmt "KIF" or "KI2"), the
 * headers in record order and the start position: 手合割 for a standard
 * start, else a board diagram (BOD, with its 手数＝ line for a start later
 * than move 1), where the record had its 手合割 line or before the
 * players' names.
 */
void kakinoki_write_head(const struct record *r, const struct write_opts *o,
    const char *fmt, struct strbuf *sb);

/* One line per line of text, each starting with mark ("*" or "&"). */
void kakinoki_write_lines(struct strbuf *sb, const char *mark,
    const char *text);

/* A node's comment ('*' lines) and bookmark ('&' line), KIF and KI2 alike. */
void kakinoki_write_notes(const struct record *r, const struct record_node *n,
    struct strbuf *sb);

/*
 * The まで line for a line of play ending with sp at slot `ply` (the
 * side to move there is the one the words are about), with its newline.
 */
void kakinoki_write_summary(const struct record *r, enum special sp, int ply,
    struct strbuf *sb);

/*
 * The last node of the line from `first` that a writer can reach: the
 * terminal, the first unresolved move, or the last move.
 */
int32_t kakinoki_line_end(const struct record *r, int32_t first);

/*
 * The terminal right after the unresolved move at node i when it says
 * that very move was the foul that ended the game, else -1.
 */
int32_t kakinoki_foul_terminal(const struct record *r, int32_t i);

/* Whether a writer writes node i: a move, a terminal, or a foul kept. */
int kakinoki_node_written(const struct record *r, int32_t i);

/*
 * Calls line(ctx, first, attached, before) for each variation in the order
 * Kifu for Windows writes them after the main line: depth first, from the
 * deepest branch point of a line back to its first move, each alternative
 * followed by its own variations and then by the next alternative.
 * `before` is the position before `first` (valid during the call).
 * attached == 0 means the line it branches from was cut before its move:
 * the writer must leave it out (the walk skips everything under it).
 * Linear in the number of nodes: r must have been replayed.
 */
typedef void (*kakinoki_line_fn)(void *ctx, int32_t first, int attached,
    const struct position *before);
void kakinoki_walk_variations(const struct record *r, kakinoki_line_fn line,
    void *ctx);

/*
 * Whether the variation at `first` can be written (see the walk below);
 * when not, adds the warning that says why, naming `format`.
 */
int kakinoki_variation_ok(const struct record *r, int32_t first,
    int attached, const char *format, struct diag_list *d);

#endif /* KIFU_PARSERS_KAKINOKI_H */
