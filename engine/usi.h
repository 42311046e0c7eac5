/*
 * usi.h - one USI engine process: started, spoken to, searched with,
 * stopped. ../shared/docs/engines.md section 1 is the protocol as real
 * engines speak it; this client copes with what it describes.
 *
 * The process: the command is split as a shell would split it (no shell
 * runs), the program looked up in PATH (then /usr/games, where Debian
 * puts engines), and run in a process group of its own, with its stdin
 * and stdout on pipes and its stderr appended to a log file or dropped.
 * On Linux it gets SIGKILL when the thread that started it ends
 * (PR_SET_PDEATHSIG), so that a kifu killed outright takes its engines
 * along; a program that wants an engine to outlive the thread that
 * started it sets usi_start_opts.no_parent_death. Closing an engine
 * (usi_close) sends stop if it is searching and quit, waits a bounded
 * time, then ends the whole group (SIGTERM, then SIGKILL) and reaps the
 * process: no zombie and no process of the group is left.
 *
 * Reading: every wait has a monotonic deadline; a line longer than
 * USI_LINE_MAX is dropped (a warning); unknown lines, CR LF and blanks
 * are tolerated anywhere. Every move an engine sends is judged by the
 * rules core from its position: a PV is cut at its first illegal move (a
 * warning), an illegal bestmove is an error.
 *
 * No global state: a struct usi_engine is used by one thread at a time,
 * and warnings go to the caller's function. Signal handlers that must
 * end every engine on SIGINT live in the caller, which learns each
 * process group from usi_start_opts.on_spawn (cmd/enginelive.c keeps such
 * a list).
 */
#ifndef KIFU_ENGINE_USI_H
#define KIFU_ENGINE_USI_H

#include <stddef.h>
#include <sys/types.h>

#include "core/position.h"
#include "core/strbuf.h"

/* Longer lines from an engine are dropped with a warning. */
#define USI_LINE_MAX 65536
/* Moves of a PV kept; the rest is cut (no warning: a length, not a fault). */
#define USI_PV_MAX 128
/* The most MultiPV lines a search may ask for. */
#define USI_MULTIPV_MAX 64

enum usi_status {
	USI_OK = 0,
	USI_ERR_START,		/* no such file, not executable, exec failed */
	USI_ERR_TIMEOUT,	/* no answer in time */
	USI_ERR_DIED,		/* the engine exited or closed its output */
	USI_ERR_PROTOCOL,	/* an answer that breaks the protocol or a rule */
	USI_ERR_OPTION,		/* an option the engine did not declare, or a
				   value out of its range: nothing was sent */
	USI_ERR_UNSUPPORTED,	/* a limit or a position the engine cannot take */
	USI_ERR_SYSTEM		/* pipe, fork, poll... failed */
};

struct usi_error {
	enum usi_status status;
	char msg[512];
};

/* "timeout", "died", ...: a stable id for scripts (JSON, messages). */
const char *usi_status_name(enum usi_status s);

typedef void (*usi_warn_fn)(void *ctx, const char *msg);

/* --- the engine's options ---------------------------------------------- */

enum usi_option_type {
	USI_OPT_CHECK, USI_OPT_SPIN, USI_OPT_COMBO, USI_OPT_BUTTON,
	USI_OPT_STRING, USI_OPT_FILENAME
};

/* One `option name ... type ...` line, as the engine declared it. */
struct usi_option {
	char *name;		/* owned; may hold spaces (Fairy-Stockfish) */
	enum usi_option_type type;
	char *def;		/* owned; NULL when none given */
	long long min, max;	/* spin */
	char **vars;		/* combo: owned, nvars of them */
	size_t nvars;
};

/*
 * Reads one option line (the whole line, "option name ..."). Returns 0,
 * or -1 with why in *why (static text) when it is not a well-formed
 * option line. The option is to be freed with usi_option_release.
 */
int usi_parse_option(const char *line, size_t len, struct usi_option *out,
    const char **why);
void usi_option_release(struct usi_option *o);

/* --- searching --------------------------------------------------------- */

enum usi_limit_kind {
	USI_LIMIT_NODES, USI_LIMIT_DEPTH, USI_LIMIT_MOVETIME,
	/*
	 * A game's clocks (engines.md 1.3, 4.1): `go btime B wtime W
	 * byoyomi Y`, or `binc I winc I` in place of byoyomi when an
	 * increment is set (Shogidokoro allows not both). B is the main
	 * time left before this move's increment is added.
	 */
	USI_LIMIT_CLOCK
};

struct usi_limit {
	enum usi_limit_kind kind;
	long long value;	/* nodes, plies, or milliseconds */
	/* USI_LIMIT_CLOCK, in milliseconds */
	long long btime, wtime, byoyomi, binc, winc;
};

/* "nodes", "depth", "movetime", "clock". */
const char *usi_limit_name(enum usi_limit_kind k);

enum usi_score_kind { USI_SCORE_NONE, USI_SCORE_CP, USI_SCORE_MATE };
enum usi_bound { USI_BOUND_EXACT, USI_BOUND_LOWER, USI_BOUND_UPPER };

/* A score as the engine sent it: always the side to move's view. */
struct usi_score {
	enum usi_score_kind kind;
	long long cp;		/* USI_SCORE_CP */
	/*
	 * USI_SCORE_MATE: sign +1 the side to move mates, -1 it is mated;
	 * plies the distance when known (mate_known), which `mate +` and
	 * `mate -` leave unsaid. `mate 0` is decided from the position: no
	 * legal move means mated now, otherwise a mate of unknown length.
	 */
	int sign;
	int plies;
	int mate_known;
	enum usi_bound bound;
};

/* One line of a search (a MultiPV rank), as the engine last reported it. */
struct usi_line {
	int multipv;		/* 1 = the best line */
	struct usi_score score;
	int depth, seldepth;	/* -1 unknown */
	long long nodes, time_ms, nps;	/* -1 unknown */
	int hashfull;		/* per mille; -1 unknown */
	move pv[USI_PV_MAX];	/* legal, from the position searched */
	int npv;
	int pv_cut;		/* the engine's PV had an illegal move here */
};

enum usi_best_kind {
	USI_BEST_MOVE, USI_BEST_RESIGN, USI_BEST_WIN,
	USI_BEST_NONE		/* no bestmove (a failed search) */
};

struct usi_result {
	enum usi_best_kind best_kind;
	move best, ponder;	/* MOVE_NONE when none (or illegal) */
	/*
	 * The lines, best first: lines[0] is rank 1. At most the MultiPV
	 * asked; fewer when the engine reported fewer (none at all for a
	 * book move of gpsusi or a search of one node).
	 */
	struct usi_line *lines;	/* owned */
	int nlines, alines;
	/* The last totals the engine reported (-1 unknown). */
	long long nodes, time_ms;
	int depth, seldepth;
	long long elapsed_ms;	/* measured by kifu, go to bestmove */
	/*
	 * The same in microseconds, from the moment the go line was
	 * written to the one the bestmove line was read (monotonic): what
	 * a referee charges to the engine's clock.
	 */
	long long elapsed_us;
};

void usi_result_init(struct usi_result *r);
void usi_result_release(struct usi_result *r);
void usi_result_reset(struct usi_result *r);
void usi_result_copy(struct usi_result *dst, const struct usi_result *src);

/*
 * A result as USI lines ("info multipv 1 depth 10 ... pv ...", then
 * "bestmove ..."), the form a cache stores; usi_result_parse reads it
 * back, judging every move from pos (a damaged cache cannot put an
 * illegal move into a record). Returns 0, or -1 with err filled.
 */
void usi_result_format(const struct usi_result *r, struct strbuf *out);
int usi_result_parse(const char *text, const struct position *pos,
    int multipv, struct usi_result *r, usi_warn_fn warn, void *warn_ctx,
    struct usi_error *err);

/* --- one info line ----------------------------------------------------- */

struct usi_info {
	int multipv;		/* 0 when the line has none */
	int has_score;
	struct usi_score score;	/* mate 0 still undecided: plies 0, sign 0 */
	int depth, seldepth, hashfull;	/* -1 when absent */
	long long nodes, time_ms, nps;	/* -1 when absent */
	const char *pv;		/* into the line: the moves after "pv" */
	size_t pv_len;
	int bad;		/* a field whose value could not be read */
};

/* Reads "info ..." (the whole line). Returns 0, -1 if it is no info line. */
int usi_parse_info(const char *line, size_t len, struct usi_info *out);

/*
 * Splits a command line as a POSIX shell would split words: blanks
 * separate, '...' is literal, "..." keeps \" \\ \$ \` escapes, a
 * backslash outside quotes quotes the next character. No expansion of
 * any kind. Returns the number of words (argv NULL-terminated, owned:
 * usi_argv_free) or -1 with err filled (an unclosed quote, no word).
 */
int usi_split_command(const char *cmd, char ***argv, struct usi_error *err);
void usi_argv_free(char **argv);

/* --- the engine process ------------------------------------------------ */

/*
 * The program file a command's argv[0] runs, as usi_start finds it: the
 * name itself when it holds a '/', else the first executable of that
 * name in PATH, then /usr/games and /usr/local/games. Returns it (owned:
 * free), or NULL with err filled.
 */
char *usi_program(const char *argv0, struct usi_error *err);

struct usi_start_opts {
	const char *command;	/* split by usi_split_command */
	char *const *argv;	/* or the words themselves (argv[0] the program) */
	const char *log_path;	/* the engine's stderr is appended; NULL: none */
	/* "NAME=VALUE" entries added to the environment; NULL-terminated. */
	const char *const *env;
	long long init_timeout_ms;	/* usiok, readyok; 0: 30000 */
	long long stop_grace_ms;	/* bestmove after stop; 0: 3000 */
	long long quit_grace_ms;	/* exit after quit; 0: 3000 */
	/*
	 * gpsusi writes every setoption into $OSL_HOME/gpsusi.conf, which
	 * every later start reads (engines.md 1.6.6). Unless OSL_HOME is
	 * set or this is, kifu runs it with a private OSL_HOME: a temporary
	 * directory with a `data` link to the installed data, removed at
	 * close.
	 */
	int shared_osl_home;
	int no_parent_death;	/* see the top of the file */
	usi_warn_fn warn;	/* NULL: warnings are dropped */
	void *warn_ctx;
	/*
	 * The caller's list of live process groups, for its signal
	 * handlers: on_spawn right after each start (home is the private
	 * OSL_HOME to remove, or NULL), on_reap once the group is ended.
	 * Either may be NULL.
	 */
	void (*on_spawn)(void *ctx, pid_t pgid, const char *home);
	void (*on_reap)(void *ctx, pid_t pgid);
	void *spawn_ctx;
};

struct usi_engine;

/*
 * Starts the engine and reads its usi answer (id, options, usiok)
 * within the init timeout. The options are copied. Returns 0 and *out,
 * or -1 with err filled and nothing left running.
 */
int usi_start(const struct usi_start_opts *o, struct usi_engine **out,
    struct usi_error *err);

/*
 * Ends the engine (see the top of the file) and frees it; NULL is
 * allowed. Never blocks longer than the stop and quit graces and a
 * second.
 */
void usi_close(struct usi_engine *e);

/* As `id name` / `id author` said ("" when it did not). */
const char *usi_engine_name(const struct usi_engine *e);
const char *usi_engine_author(const struct usi_engine *e);
/* The options it declared, in its order. */
const struct usi_option *usi_engine_options(const struct usi_engine *e,
    size_t *n);
/* The declared option of that name (case-insensitive), or NULL. */
const struct usi_option *usi_engine_option(const struct usi_engine *e,
    const char *name);
/* The process (group), 0 when not running. */
pid_t usi_engine_pid(const struct usi_engine *e);
/* How often it was started again (usi_restart). */
int usi_engine_restarts(const struct usi_engine *e);

/*
 * Checks name and value against the options the engine declared and
 * only then sends `setoption`: an unknown name, a value of the wrong
 * type or out of range is USI_ERR_OPTION and nothing is sent. USI_Hash
 * and USI_Ponder, which the protocol lets a GUI send to any engine, are
 * checked as spin and check when undeclared. A button takes no value
 * (NULL or ""). Options sent are sent again by usi_restart.
 */
int usi_set_option(struct usi_engine *e, const char *name,
    const char *value, struct usi_error *err);

/* isready, and readyok within the init timeout. */
int usi_ready(struct usi_engine *e, struct usi_error *err);

/* usinewgame (no answer is expected). */
int usi_new_game(struct usi_engine *e, struct usi_error *err);

/*
 * Whether the engine takes the limit in `go`: from a table of known
 * engines by `id name` (gpsusi takes only byoyomi and infinite), else by
 * trying it once on the initial position with the smallest value
 * (an engine that dies or does not answer does not take it). A probe
 * that kills the engine leaves it to usi_restart. Returns 0, or -1 with
 * USI_ERR_UNSUPPORTED naming the engine and the limit.
 */
int usi_check_limit(struct usi_engine *e, const struct usi_limit *limit,
    struct usi_error *err);

/* The name of the MultiPV option the engine declared, or NULL. */
const char *usi_multipv_option(const struct usi_engine *e);

/*
 * The variant names the engine plays by UCI_Variant (Fairy-Stockfish):
 * whether it declares a combo UCI_Variant with that value.
 */
int usi_plays_variant(const struct usi_engine *e, const char *variant);

struct usi_search {
	const struct position *start;	/* the record's start position */
	const move *moves;		/* played from start (legal) */
	int nmoves;
	const struct position *pos;	/* start with the moves played */
	struct usi_limit limit;
	int multipv;			/* lines wanted, the option already set */
	long long timeout_ms;		/* go to bestmove; 0: none */
	int new_game;			/* send usinewgame first */
};

/*
 * One search: `position sfen <start> moves ...` (always sfen: gpsusi can
 * hang on startpos after an earlier sfen), `go` with the limit, and the
 * info lines up to bestmove, judged from s->pos.
 *
 * Past the timeout the search gets `stop`; an engine that answers within
 * the stop grace keeps running, one that does not is ended (usi_restart
 * brings it back). Either way the result is USI_ERR_TIMEOUT: a stopped
 * search is not the search asked for. An engine that exits or closes its
 * output is USI_ERR_DIED; an illegal or empty bestmove USI_ERR_PROTOCOL
 * (the engine keeps running). The result is filled only on USI_OK.
 */
int usi_search(struct usi_engine *e, const struct usi_search *s,
    struct usi_result *r, struct usi_error *err);

/*
 * The monotonic clock, in microseconds, that usi_search measures with
 * (a referee's overhead is measured against it).
 */
long long usi_now_us(void);

/* When the last search wrote its go line (usi_now_us), 0 before any. */
long long usi_engine_go_sent_us(const struct usi_engine *e);

/*
 * `gameover win|lose|draw`, which the USI protocol sends at the end of
 * a game (no answer is expected; engines that do not know it say so and
 * go on).
 */
int usi_game_over(struct usi_engine *e, const char *result,
    struct usi_error *err);

/*
 * Starts the engine again after it died or was ended: the same command,
 * the usi handshake, every option sent so far, isready. Returns 0 or -1
 * with err filled (the engine then stays down).
 */
int usi_restart(struct usi_engine *e, struct usi_error *err);

/* Whether the engine process is running. */
int usi_alive(const struct usi_engine *e);

/* Where its warnings go from now on (an engine handed to a worker). */
void usi_engine_set_warn(struct usi_engine *e, usi_warn_fn warn, void *ctx);

#endif /* KIFU_ENGINE_USI_H */
