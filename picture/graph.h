/*
 * graph.h - the evaluation graph of a record (`kifu show --graph`): the
 * engine's scores over the moves of the main line, Black's view, as an
 * SVG picture (PNG through picture/render.h) or as a one-line sparkline
 * for a terminal.
 *
 * The series. Point k is the position after k moves (0: the start). Its
 * evaluation is read from the comments by parsers/evaluation.h, never
 * parsed again here. Two kinds of comment carry one, and a graph draws
 * one kind:
 *
 *   analysis   another engine's view of the position after the move
 *              (kifu analyze's block, ShogiGUI's 解析, ShogiHome's
 *              #評価値=, ...): evaluation_read_analysis. When any move
 *              of the main line has one, the graph is of these.
 *   player     the players' own engines, written during the game
 *              (Floodgate's '**, ShogiGUI's 対局, ShogiHome's 評価値=):
 *              evaluation_read. The search that chose move k: drawn at
 *              move k, where the GUIs draw it.
 *
 * A point without an evaluation is a gap (has == 0), never a zero. A
 * score is drawn clipped at +-GRAPH_CLIP; a mate is drawn at the edge of
 * the side that mates.
 *
 * Flags. A move is flagged with kifu analyze's classes (疑問手, 悪手,
 * 大悪手; engine/analyze.h). When kifu analyze wrote the comments, its
 * marker lines say each move's class (engine/annotate.h): they are
 * read, not computed again (they come from the engine's best line). For
 * other analysis comments the class is computed as kifu analyze does
 * from two scores, the position's before the move and after it, both
 * from the mover's view: loss = before - after, never below 0, scores
 * on analyze_value's scale (centipawns clamped to +-30000, a mate
 * +-32000), a loss of at least thresholds[k] is class k + 1. A player's
 * evaluations are opinions of two engines, not a judgement: no flags. A
 * move into a position without an evaluation is not flagged: it has no
 * point to mark.
 */
#ifndef KIFU_PICTURE_GRAPH_H
#define KIFU_PICTURE_GRAPH_H

#include "core/record.h"
#include "core/strbuf.h"
#include "engine/analyze.h"

/* Scores beyond this are drawn at the edge. */
#define GRAPH_CLIP 3000

enum graph_source {
	GRAPH_NONE,		/* no point has an evaluation */
	GRAPH_ANALYSIS,
	GRAPH_PLAYER
};

struct graph_point {
	int has;		/* an evaluation: else a gap */
	int mate;		/* +1 Black mates, -1 White mates, 0 a score */
	long long score;	/* Black's view, as written (saturated) */
	int value;		/* what is drawn: -GRAPH_CLIP..GRAPH_CLIP */
	enum analyze_class cls;	/* the move into this position, judged */
	long long loss;		/* its loss; -1 not judged */
};

struct graph {
	struct graph_point *v;	/* v[0..n-1]: after 0..n-1 moves; owned */
	int n;
	enum graph_source source;
	int points;		/* with an evaluation */
	int flags[CLASS_NB];	/* moves of each class */
	enum color first;	/* to move at the start: plays move 1 */
	/* the players as the record names them ("" if not): borrowed */
	const char *name[COLOR_NB];
	int hg;			/* the sides are 下手/上手 (a handicap game) */
};

struct graph_opts {
	int thresholds[3];	/* ascending, as analyze_opts' */
};

/* The thresholds of kifu analyze's defaults (100, 300, 800). */
void graph_opts_init(struct graph_opts *o);

/*
 * The series of r's main line (replayed), its first `plies` moves
 * (plies < 0: all its legal moves), into g (emptied first). r must
 * outlive g (the names).
 */
void graph_init(struct graph *g);
void graph_read(struct graph *g, const struct record *r, int plies,
    const struct graph_opts *o);
void graph_release(struct graph *g);

/*
 * The SVG picture, `width` pixels wide and graph_svg_height(width)
 * high: the plot of -GRAPH_CLIP..+GRAPH_CLIP over the moves, gridlines
 * every 1000 and the zero line, move numbers under it, the line through
 * the points broken at each gap (a point alone is a dot), 詰 at a mate,
 * the flagged moves marked in their class's colour with a legend, the
 * players over it. Elements a test or a script looks for have a class
 * ("point", "flag", "mate", "zero") and data-ply / data-value.
 */
void graph_svg(const struct graph *g, int width, struct strbuf *out);
int graph_svg_height(int width);

/*
 * The sparkline: one line (no newline) of at most `columns` block
 * characters (▁..█: -GRAPH_CLIP..+GRAPH_CLIP, a space for a gap), a
 * column per position, or per run of positions when there are more
 * (their mean), then the last evaluation and the flags counted. colour:
 * each flagged column in its class's colour (ANSI escapes).
 */
void graph_sparkline(const struct graph *g, int columns, int colour,
    struct strbuf *out);
/* The sparkline's width at most, in columns, as kifu show draws it. */
#define GRAPH_COLUMNS 64

#endif /* KIFU_PICTURE_GRAPH_H */
