/*
 * annotate.h - an analysis written into a record's comments, in the
 * forms other programs read (../shared/docs/engines.md section 2), and
 * kifu's own earlier analysis found again and replaced.
 *
 * A position's analysis is one block of comment lines on its node (the
 * position after the node's move), as the record stores them (KIF adds
 * '*' before each, CSA "'"):
 *
 *   #kifu-analyze: 4 lines; Fairy-Stockfish 11.1 LB 64; nodes 20000; 悪手 (loss 412)
 *   #評価値=-255                      ShogiHome: Black's view
 *   #読み筋=△５二玉▲２六歩 ...       (its PV: marks, no origin squares)
 *   #深さ=10
 *   #ノード数=20012
 *   #エンジン=Fairy-Stockfish 11.1 LB 64
 *   *解析 0  候補1 時間 00:00.1 深さ 10/13 ノード数 20012 評価値 -255 読み筋 △５二玉(51) ▲２六歩(27)
 *   ** -255 -5152OU +2726FU          CSA output only: the Floodgate form
 *
 * The first line is kifu's marker: it says how many lines after it are
 * kifu's, and carries the judgement of the move that led here. A mate
 * adds ShogiHome's #詰み=先手勝ち:N手 (N plies; without the distance
 * when the engine gave none) before #評価値, and every score of a mate
 * is written +-30000, as ShogiHome writes them; a bound is ↑ (lower)
 * or ↓ (upper) after the ShogiGUI score. The ShogiGUI line's mark after
 * "0" is left blank ("0  候補1"): its meaning is undocumented.
 *
 * Re-analysis finds each marker and removes it and the lines it counts
 * that are in one of these forms (stopping at the first that is not),
 * and puts the new block where the first one was; every other comment
 * line stays as it was, byte for byte. A record without a marker gets
 * the block after its own comment lines.
 */
#ifndef KIFU_ENGINE_ANNOTATE_H
#define KIFU_ENGINE_ANNOTATE_H

#include "analyze.h"

#include "parsers/evaluation.h"

#define ANNOTATE_MARKER EVALUATION_KIFU_MARKER

/* Whether a stored comment line is the start of kifu's block. */
int annotate_is_marker(const char *line, size_t n, int *count);

/*
 * The judgement kifu analyze wrote on the move into a node: the class
 * and loss its marker line names ("; 悪手 (loss 412)") in the comment
 * (lines joined by '\n', may be NULL). Returns 1 when the comment has
 * kifu's marker (*cls CLASS_NONE and *loss -1 if it names no judgement),
 * 0 without one.
 */
int annotate_read_class(const char *comment, enum analyze_class *cls,
    long long *loss);

/*
 * The block for position p of ar (its node in r) into out: lines joined
 * by '\n', no final newline; nothing for a position that was not
 * analysed or has no move. csa: add the Floodgate line.
 */
void annotate_block(const struct record *r, const struct analyze_record *ar,
    const struct analyze_pos *p, const struct analyze_opts *o, int csa,
    struct strbuf *out);

/*
 * The comment text old (lines joined by '\n', may be NULL) with kifu's
 * blocks replaced by block (see the top of the file), into out.
 */
void annotate_replace(const char *old, const char *block, struct strbuf *out);

/*
 * Writes every analysed position's block into r's comments (r's pool
 * grows: pointers into it are invalidated). A position that failed
 * keeps whatever kifu wrote there before.
 */
void annotate_record(struct record *r, const struct analyze_record *ar,
    const struct analyze_opts *o, int csa);

#endif /* KIFU_ENGINE_ANNOTATE_H */
