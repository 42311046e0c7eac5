/*
 * analyze.h - a record analysed by a USI engine: which positions, each
 * searched (or found in a cache), each move judged, and the analysis
 * written back into the record's comments (engine/annotate.h) or out as
 * JSON. `kifu analyze` runs one analyzer per engine process; the library
 * offers one position at a time (kifu.h).
 *
 * Positions and moves. A record's node is the position after its move
 * (the root: the start). --from-ply A and --to-ply B choose the
 * positions after A to B moves of the main line (and of every variation
 * with `variations`). --side S chooses moves instead: each move of S in
 * that range, with the positions before and after it (a judgement needs
 * both). A move is judged when the positions before and after it were
 * both analysed: its loss is the best line's score before it minus the
 * score of the move played, from the mover's view, never below 0 (a move
 * the engine scores better after it than before lost nothing); a move
 * equal to the engine's best loses 0 whatever the numbers say. The
 * played move's score is its own MultiPV line's when the engine listed
 * it, else the score of the position after it, negated. Scores are put
 * on one scale for this (analyze_value): centipawns clamped to +-30000,
 * a mate in n plies 32000 - n, mated in n -(32000 - n).
 *
 * Determinism. Under --nodes and --depth each search starts with
 * usinewgame, which clears Fairy-Stockfish's hash (engines.md 1.5.2): a
 * position's result then depends on the position, the engine, its
 * options and the limit only, which is what the cache keys it by (the
 * moves before it, sent too, matter to an engine only for repetitions).
 * Under --movetime nothing is deterministic, and usinewgame goes once a
 * record, so that the hash carries from move to move.
 */
#ifndef KIFU_ENGINE_ANALYZE_H
#define KIFU_ENGINE_ANALYZE_H

#include <stdint.h>

#include "usi.h"
#include "core/record.h"

/* The judgement scale (see above). */
#define ANALYZE_CP_MAX 30000
#define ANALYZE_MATE 32000

/*
 * A cache of search results, keyed by the position (SFEN without the
 * move number) and the setup (engine, options, limit, MultiPV): the
 * caller's (cmd/ keeps one in SQLite, engine/cache.h). Called from any
 * worker thread: the callee locks. lookup returns 1 and the stored text
 * (usi_result_format's) in *value, or 0.
 */
struct analyze_cache {
	int (*lookup)(void *ctx, const char *position, const char *setup,
	    struct strbuf *value);
	void (*store)(void *ctx, const char *position, const char *setup,
	    const char *value);
	void *ctx;
};

enum analyze_comments {
	ANALYZE_SHOGIGUI = 1 << 0,	/* **解析 0  候補1 ... */
	ANALYZE_SHOGIHOME = 1 << 1	/* *#評価値= ... */
};

/* The judgement of a move by its loss. */
enum analyze_class {
	CLASS_NONE, CLASS_INACCURACY, CLASS_MISTAKE, CLASS_BLUNDER, CLASS_NB
};

/* "inaccuracy", ... ; and the Japanese names 疑問手, 悪手, 大悪手. */
const char *analyze_class_name(enum analyze_class c);
const char *analyze_class_ja(enum analyze_class c);

struct analyze_opts {
	struct usi_limit limit;
	int multipv;			/* 1 or more */
	int from_ply, to_ply;		/* to_ply < 0: to the end */
	int side;			/* -1 both, else enum color */
	int variations;
	unsigned comments;		/* ANALYZE_*; 0: none written */
	/* thresholds of the classes, ascending: a loss of at least [k]
	   is class k + 1 */
	int thresholds[3];
	long long timeout_ms;		/* a search's; 0: none */
	const struct analyze_cache *cache;	/* NULL: none */
	/*
	 * The setup a cached result must match (engine name, its options
	 * and the limit; analyze_setup makes it), and the engine and limit
	 * as the comments name them ("Fairy-Stockfish 11.1 LB 64",
	 * "nodes 20000"). Borrowed.
	 */
	const char *setup, *engine_name, *limit_text;
	usi_warn_fn warn;
	void *warn_ctx;
	/* Called after each position (a progress bar); may be NULL. */
	void (*progress)(void *ctx);
	void *progress_ctx;
};

/* The defaults: --movetime 1000, MultiPV 1, both comment forms, the
   thresholds 100, 300, 800, the whole main line. */
void analyze_opts_init(struct analyze_opts *o);

/*
 * The setup text of the cache key: "engine=<name>\noptions=<k=v;...>\n
 * limit=<limit>\nmultipv=<k>", the options in the order given (the
 * caller sorts them, so that the same set is one key).
 */
void analyze_setup(struct strbuf *out, const char *engine,
    const char *const *options, size_t n, const struct usi_limit *limit,
    int multipv);

/*
 * The key of the cache's note of an engine (engine/cache.h): what a run
 * asks for (the command's words, the environment added, the options
 * asked in their order, the limit, the MultiPV) and this kifu's version
 * (which options kifu adds by itself may change), with the program file
 * the command runs as it is now (its path, device, inode, size, change
 * and modification times), so that an engine rebuilt or upgraded in
 * place is started again. A wrapper script is known by its own file
 * only. Returns 0, or -1 when the program cannot be found (the caller
 * starts the engine, and meets the error there).
 */
int analyze_engine_key(struct strbuf *out, const char *const *argv,
    const char *const *env, const char *const *options, size_t n,
    const struct usi_limit *limit, int multipv);

enum analyze_status {
	AN_SEARCHED,		/* by the engine */
	AN_CACHED,		/* from the cache */
	AN_NO_MOVE,		/* the side to move has no legal move: mated */
	AN_FAILED		/* unanalysed: see error */
};

/* One position analysed (or tried). */
struct analyze_pos {
	int32_t node;		/* the record's node: the position after it */
	int32_t parent;		/* index of the position before it, -1 none */
	int ply;
	enum color side;	/* to move */
	enum analyze_status status;
	char *error;		/* AN_FAILED: why; owned */
	struct usi_result r;
	/* The move into this node, judged (when both positions were). */
	int judged;
	long long best, played, loss;	/* on the judgement scale */
	enum analyze_class cls;
};

/* What a record's side did, over its judged moves. */
#define ANALYZE_WORST 3
struct analyze_side {
	int moves;		/* judged */
	long long loss;		/* sum */
	int classes[CLASS_NB];
	int worst[ANALYZE_WORST];	/* indexes into positions, -1 none */
};

struct analyze_record {
	struct analyze_pos *v;
	size_t n, alloc;
	struct analyze_side sides[2];
	int searched, cached, failed;
	long long engine_ms;	/* the engine's own times, summed */
};

void analyze_record_init(struct analyze_record *ar);
void analyze_record_release(struct analyze_record *ar);
void analyze_record_reset(struct analyze_record *ar);

/*
 * One engine working through records. The engine is borrowed (it may be
 * started again after it dies); positions that cannot be analysed are
 * failures of that position, and the work goes on.
 */
struct analyzer {
	struct usi_engine *e;
	const struct analyze_opts *o;
	const char *variant;	/* UCI_Variant last set; NULL none */
	int dead;		/* it could not be started again */
	char dead_why[512];
	struct strbuf key, setup, value;
	/* analyzer_defer's: the engine's maker, and the record's variant
	   waiting for the engine (NULL: none waits) */
	struct usi_engine *(*start)(void *ctx, char *why, size_t n);
	void *start_ctx;
	const struct variant *want;
};

void analyzer_init(struct analyzer *a, struct usi_engine *e,
    const struct analyze_opts *o);
void analyzer_release(struct analyzer *a);

/*
 * An analyzer without an engine until a position must be searched (all
 * may be in the cache): start is called then, once, and returns the
 * engine (borrowed, as analyzer_init's), or NULL with why in why[n]
 * (every position that needs the engine then fails with it).
 */
void analyzer_defer(struct analyzer *a,
    struct usi_engine *(*start)(void *ctx, char *why, size_t n), void *ctx);

/*
 * The variant a record is of, set on the engine when it is not the one
 * set last (Fairy-Stockfish's UCI_Variant minishogi). Returns 0, or -1
 * with err filled when the engine cannot play it. A deferred analyzer
 * without its engine yet sets standard shogi when the engine comes (a
 * failure then fails the positions); another variant starts the engine.
 */
int analyzer_set_variant(struct analyzer *a, const struct variant *v,
    struct usi_error *err);

/* How many positions analyze_record would analyse in r. */
size_t analyze_count(const struct record *r, const struct analyze_opts *o);

/*
 * Analyses a replayed record into ar (reset first): the positions the
 * options choose, each searched or cached, the moves judged, the sides
 * summed. Returns the number of positions analysed (not failed).
 */
int analyze_record(struct analyzer *a, const struct record *r,
    struct analyze_record *ar);

/*
 * One position: pos, reached from start by the moves (the history sent
 * to the engine). Fills p (status, result, error). `new_game`: say
 * usinewgame first (analyze_record decides it by the limit).
 */
void analyze_position(struct analyzer *a, const struct position *start,
    const move *moves, int n, const struct position *pos, int new_game,
    struct analyze_pos *p);

/* The position after node i's move (the start for the root). */
void analyze_node_position(const struct record *r, int32_t i,
    struct position *pos);

/* A score on the judgement scale, from the side to move's view. */
long long analyze_value(const struct usi_score *s);

/*
 * The JSON objects of a record's analysis (one per position and move
 * played from it: file, record, ply, sfen, played, best, scores...; see
 * doc/analyze.md), each on its own line, into out.
 */
void analyze_json(const struct record *r, const struct analyze_record *ar,
    const char *file, int index, const char *engine, struct strbuf *out);

/*
 * One position's object alone (the library's analysis of a position):
 * pos, its result, and the played move or MOVE_NONE.
 */
void analyze_json_position(const struct analyze_pos *p,
    const struct position *pos, move played, const char *engine,
    struct strbuf *out);

/* The per-side summaries as JSON lines ("type": "summary"). */
void analyze_json_summary(const struct record *r,
    const struct analyze_record *ar, const char *file, int index,
    struct strbuf *out);

/*
 * The --summary table's rows of a record, one per side: TAB-separated
 * file, record (from 1), side, moves judged, average loss ("-" none),
 * the moves of each class, and the worst moves ("12▲同歩 350, ..."),
 * each row ended by '\n'; appended to rows.
 */
void analyze_summary_rows(const struct record *r,
    const struct analyze_record *ar, const char *file, int index,
    struct strbuf *rows);

/*
 * Rows of analyze_summary_rows (any number of records) as a table for a
 * terminal, under a header line: columns padded to their widest cell
 * in display columns (a CJK character counts two), two spaces apart.
 */
void analyze_summary_table(const struct strbuf *rows, struct strbuf *out);

#endif /* KIFU_ENGINE_ANALYZE_H */
