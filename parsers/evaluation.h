/*
 * evaluation.h - the player's engine evaluation, where a record's comments
 * carry one (../shared/docs/training.md section 8).
 *
 * Readers keep comment lines in the node of the move before them (the
 * root before the first move, the terminal's node after it), without
 * their comment mark: CSA drops the quote, KIF and KI2 the first '*'. So
 * the forms below are matched as the record stores them:
 *
 *   stored                      in the file
 *   "** 123 -3334FU ..."        CSA '** 123 ... (shogi-server, Floodgate)
 *   "* 123 ..."                 KIF ** 123 ... (Floodgate-style); CSA '* 123
 *   "*評価値=123"               KIF **評価値=123 (ShogiHome); its CSA '*評価値=
 *   "*詰み=先手勝ち:5手"        KIF **詰み=先手勝ち / 後手勝ち (ShogiHome)
 *   "*対局 ... 評価値 123 ..."  KIF **対局 ... (ShogiGUI), also "評価値 +詰 5"
 *
 * All are Black's view and evaluate the position the move was played
 * from. Analysis comments (ShogiGUI's **解析, ShogiHome's *#評価値=, ...)
 * are another engine's view of the position after the move, and are not
 * read. The first line in one of the forms counts.
 */
#ifndef KIFU_PARSERS_EVALUATION_H
#define KIFU_PARSERS_EVALUATION_H

#include "core/types.h"

/* Scores are kept up to this size; larger ones are saturated. */
#define EVALUATION_SCORE_MAX 1000000000LL

/* The largest eval of a 16-bit training field; also what a mate is. */
#define EVALUATION_EVAL_MAX 32767

struct evaluation {
	int has;		/* the comment holds the player's evaluation */
	int mate;		/* +1 Black mates, -1 White mates, 0 a score */
	long long score;	/* Black's view, as written (saturated) */
};

/*
 * Reads the evaluation in a node's comment (NUL-terminated lines joined
 * by '\n'; NULL or "" for none) into *out; out->has is 0 without one.
 */
void evaluation_read(const char *comment, struct evaluation *out);

/*
 * Reads the analysis in a node's comment instead: another engine's view
 * of the position after the move, Black's view, in the forms
 *
 *   stored                      in the file (KIF; CSA puts ' for *)
 *   "#評価値=123"               *#評価値=123 (ShogiHome; kifu analyze)
 *   "#詰み=後手勝ち:3手"        *#詰み=... (ShogiHome; kifu analyze)
 *   "*解析 0  候補1 ... 評価値 123"   **解析 ... (ShogiGUI; kifu analyze;
 *                               also 評価値 +詰 5, and 123↑ / 123↓ bounds)
 *   "#指し手[123]..."           *#指し手[123] (Piyo Shogi)
 *   "#形勢[123]"                *#形勢[123] (K-Shogi)
 *
 * The first line in one of them counts, except that kifu's own
 * analysis (the block after kifu analyze's marker line, "#kifu-analyze:
 * N lines; ...", engine/annotate.h) comes before any other; Piyo
 * Shogi's #推奨手 (a line from the position before the move) is not
 * read.
 */
void evaluation_read_analysis(const char *comment, struct evaluation *out);

/* The first line of kifu analyze's block in a comment (engine/annotate.h). */
#define EVALUATION_KIFU_MARKER "#kifu-analyze: "

/*
 * The eval of a training row for the side to move of its position:
 * clamp(score, +-32767) if Black is to move, else its negation; a mate
 * is +-32767 from Black's view; 0 without an evaluation.
 */
int evaluation_for(const struct evaluation *e, enum color to_move);

/*
 * Whether |score| >= n, a mate counting as larger than any n (what
 * --stop-at-eval compares: dlshogi stops at the written 100000, which
 * the 16-bit field cannot hold).
 */
int evaluation_at_least(const struct evaluation *e, long long n);

#endif /* KIFU_PARSERS_EVALUATION_H */
