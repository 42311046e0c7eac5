/*
 * match.h - kifu as the referee of one game between two USI engines.
 *
 * The referee keeps the position and both clocks, sends each engine the
 * game so far and its time, reads its move, and judges it with the rules
 * core: an illegal or empty bestmove loses (illegal-move), a `bestmove
 * win` is judged as a declaration (a false one loses), resignation ends
 * the game, and so do mate and stalemate (the side to move loses), the
 * fourth occurrence of a position (sennichite, or a loss for the side
 * that gave check throughout), the move limit (a draw), a move past the
 * time (time-up), and an engine that dies or hangs (it loses; it is left
 * for the caller to start again). Optional adjudication by score
 * (resign, draw) is recorded as such.
 *
 * The game is built as a record while it is played (the opening, then
 * every move with its time and the engine's score and PV in the
 * Floodgate form `** <score> <pv>`, Black's view, the PV in CSA moves
 * from the reply on), and every ending the position decides is taken
 * from core/adjudicate.h on that record, so that `kifu validate` on the
 * written record reaches the referee's verdict.
 *
 * Time (engines.md 4.3, 4.4): each side's clock is kept in milliseconds
 * from the moment the go line is written to the moment the bestmove is
 * read (usi_result.elapsed_us); a move loses on time when it took more
 * than main time left + byoyomi + increment + the margin. Byoyomi does
 * not accumulate: main time is used first, then each move has the
 * byoyomi. Fischer: the increment is added after each move. Nodes and
 * movetime are search limits, not clocks: only a move past the hang
 * limit loses (the engine is taken to hang).
 *
 * No global state; one game at a time on a pair of engines (a thread a
 * game for concurrency).
 */
#ifndef KIFU_ENGINE_MATCH_H
#define KIFU_ENGINE_MATCH_H

#include <signal.h>
#include <stddef.h>

#include "openings.h"
#include "usi.h"
#include "core/record.h"
#include "core/ruleset.h"

enum match_tc_kind { TC_NODES, TC_MOVETIME, TC_DEPTH, TC_CLOCK };

struct match_tc {
	enum match_tc_kind kind;
	long long nodes, depth, movetime_ms;
	/* TC_CLOCK */
	long long main_ms, byoyomi_ms, inc_ms;
};

/*
 * Reads a time control: `nodes=N`, `depth=N`, `movetime=S`, `M` (main
 * time only), `M+byoyomi=Y` (or `byoyomi=Y`, no main time), `M+I`
 * (Fischer), seconds with fractions allowed. Returns 0, or -1 with why
 * in err.
 */
int match_tc_parse(const char *text, struct match_tc *tc, char *err,
    size_t n);

/* The time control as match_tc_parse reads it ("600+byoyomi=10"). */
void match_tc_describe(const struct match_tc *tc, char *buf, size_t n);

/*
 * The CSA form where there is one: `$TIME:600+10+0` style is V3's
 * ("main+byoyomi+increment", seconds); "" for nodes and movetime.
 */
void match_tc_csa(const struct match_tc *tc, char *buf, size_t n);

/*
 * The search limit a time control is, both clocks at 0 (what
 * usi_check_limit tries an engine with before a match).
 */
void match_tc_limit(const struct match_tc *tc, struct usi_limit *l);

struct match_rules {
	const struct variant *v;
	struct ruleset rs;		/* the referee's rules (max-moves in it) */
	struct match_tc tc;
	long long timemargin_ms;	/* a move may take this much longer */
	/* Nodes, depth, movetime: a move longer than this loses (a hang). */
	long long hang_ms;
	/* Score adjudication, off at 0 moves: see match_play. */
	int resign_cp, resign_moves;
	int draw_cp, draw_moves, draw_after;
	const char *event;		/* the record's EVENT; NULL none */
};

/*
 * Reads score adjudication's settings into mr: resign "<cp>,<moves>"
 * (cp above 0) and draw "<cp>,<moves>[,<ply>]"; cp up to 1000000, moves
 * 1 to 100000, ply 0 to 100000. Returns 0, or -1 (mr unchanged).
 */
int match_resign_parse(const char *text, struct match_rules *mr);
int match_draw_parse(const char *text, struct match_rules *mr);

/* How a game ended, beyond the rules' reason: scripts rely on these. */
#define MATCH_END_LIST(X) \
	X(END_CHECKMATE, "checkmate") \
	X(END_STALEMATE, "stalemate") \
	X(END_RESIGN, "resign") \
	X(END_ILLEGAL_MOVE, "illegal-move") \
	X(END_FALSE_DECLARATION, "false-declaration") \
	X(END_DECLARATION, "declaration") \
	X(END_SENNICHITE, "sennichite") \
	X(END_PERPETUAL_CHECK, "perpetual-check") \
	X(END_MAX_MOVES, "max-moves") \
	X(END_TIME_UP, "time-up") \
	X(END_CRASH, "crash") \
	X(END_HANG, "hang") \
	X(END_ADJ_RESIGN, "adjudicated-resign") \
	X(END_ADJ_DRAW, "adjudicated-draw") \
	X(END_ABANDONED, "abandoned")

#define MATCH_END_ENUM(e, id) e,
enum match_end { MATCH_END_LIST(MATCH_END_ENUM) END_NB };
#undef MATCH_END_ENUM

const char *match_end_name(enum match_end e);
/* The id's enum, or -1. */
int match_end_by_name(const char *name);

/* Per-move referee overhead samples, microseconds (the bench). */
struct match_overhead {
	long long *us;		/* owned */
	size_t n, alloc;
};

struct match_game {
	struct record rec;		/* the game; replayed */
	struct game_result result;	/* winner, reason, ply */
	enum match_end end;
	char how[512];			/* one sentence: how it ended */
	/* An engine that died or was ended: to be started again. */
	int fault[COLOR_NB];
	long long used_ms[COLOR_NB];	/* clock time used */
	int plies;			/* moves played, the opening's included */
	int opening_plies;
	/*
	 * What adjudicate() makes of the record, against the referee's
	 * result: 1 when they agree (always, unless kifu has a bug).
	 */
	int agrees;
	char rules_verdict[512];
};

void match_game_init(struct match_game *g, const struct variant *v);
void match_game_release(struct match_game *g);

struct match_side {
	struct usi_engine *e;		/* running */
	const char *name;		/* for the record and messages */
};

/*
 * Plays one game, Black sides[BLACK] (the side to move at the opening's
 * end may be either), from the opening. stop, when set (SIGINT), makes
 * the game abandoned at the next move (END_ABANDONED: no result). ov,
 * when not NULL, gets one sample a move: bestmove read to the next go
 * written. Returns 0 (g filled), or -1 when the game could not be played
 * at all (g->how says why: an engine not running).
 */
int match_play(struct match_side sides[COLOR_NB], const struct opening *op,
    const struct match_rules *mr, struct match_game *g,
    volatile sig_atomic_t *stop, struct match_overhead *ov);

/* The side that won, "black", "white" or "draw" / "none" (no result). */
const char *match_winner_name(const struct match_game *g);

#endif /* KIFU_ENGINE_MATCH_H */
