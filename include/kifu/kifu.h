/*
 * kifu.h - the kifu library: shogi game records in KIF, KI2, CSA,
 * USI/SFEN and JKF read into one form, every move replayed through a
 * complete rules core, the result judged under a rule set, written back
 * in any format, and turned into training rows.
 *
 *	kifu_file *f;
 *	kifu_error *e;
 *
 *	if (kifu_read_file("game.kif", NULL, &f, &e) != KIFU_OK) {
 *		fprintf(stderr, "%s\n", kifu_error_message(e));
 *		kifu_error_free(e);
 *		return 1;
 *	}
 *	const kifu_record *r = kifu_file_record(f, 0);
 *	printf("%s %s\n", kifu_record_final_sfen(r),
 *	    kifu_record_result_reason(r));
 *	kifu_file_free(f);
 *
 * Conventions, for every function below:
 * - Every symbol starts with kifu_ (constants with KIFU_); objects are
 *   opaque. A function that creates an object hands it to the caller,
 *   who frees it with that object's _free function (NULL is accepted and
 *   ignored). Memory returned as `char *` or `void *` is the caller's,
 *   freed with kifu_free().
 * - A `const` pointer a function returns (a string, a record of a file)
 *   belongs to the object it came from and stays valid until that object
 *   is freed. Strings are UTF-8 and end with NUL.
 * - A function that can fail returns KIFU_OK (0) or a negative enum
 *   kifu_status, and, when err is not NULL, stores a description in *err
 *   (which the caller frees with kifu_error_free) and NULL on success.
 * - The library has no mutable global state: distinct objects may be
 *   used from different threads at once; one object must not be used
 *   from two threads while either may change it. Nothing here prints or
 *   exits.
 * - Names are those of `kifu validate --json` and the kifu commands
 *   (doc/rules.md, doc/formats.md): formats "kif", "csa"..., rule sets
 *   "auto", "jsa"..., statuses "ok", "mismatch", "illegal", "error",
 *   rule ids "nifu"...
 */
#ifndef KIFU_KIFU_H
#define KIFU_KIFU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KIFU_VERSION_MAJOR 0
#define KIFU_VERSION_MINOR 1
#define KIFU_VERSION_PATCH 0

/* The library's version, "0.1.0": the one linked, not the header's. */
const char *kifu_version(void);

enum kifu_status {
	KIFU_OK = 0,
	KIFU_ERR_IO = -1,	/* a file could not be read */
	KIFU_ERR_READ = -2,	/* the input holds no record kifu can read */
	KIFU_ERR_ARG = -3,	/* a bad argument: an unknown format, option */
	KIFU_ERR_WRITE = -4,	/* the record cannot be written as asked */
	KIFU_ERR_SKIP = -5,	/* no training rows: the reason is the id */
	KIFU_ERR_ENGINE = -6	/* an engine did not start, refused, failed:
				   the id says how ("start", "timeout",
				   "died", "option", "unsupported"...) */
};

/* --- errors and findings ---------------------------------------------- */

/*
 * A problem with its place: an error a function returned, or one of a
 * record's findings (its errors and warnings).
 */
typedef struct kifu_error kifu_error;

/* "game.kif:12:7: error: move 8 '同　歩打': ... [occupied]" */
const char *kifu_error_message(const kifu_error *e);
/* The bare message, without place and id. */
const char *kifu_error_text(const kifu_error *e);
/* A rule id ("nifu") or a reading error ("syntax", "encoding", "io"...). */
const char *kifu_error_id(const kifu_error *e);
/* "error", "warning" or "note". */
const char *kifu_error_severity(const kifu_error *e);
/* The file as shown ("<buffer>" for a buffer without a name). */
const char *kifu_error_file(const kifu_error *e);
/* 1-based line and column (columns count characters); 0 when none. */
unsigned kifu_error_line(const kifu_error *e);
unsigned kifu_error_column(const kifu_error *e);
/* The move it is about (1 = the first move); 0 when none. */
int kifu_error_ply(const kifu_error *e);
void kifu_error_free(kifu_error *e);

/* Frees memory the library handed over as char * or void *. */
void kifu_free(void *p);

/* --- options ------------------------------------------------------------ */

/*
 * Settings for reading, judging, writing and exporting, by the names of
 * the command-line options (without the dashes):
 *   reading:  "from" (a format), "variant" ("standard", "minishogi"),
 *             "limit.line", "limit.record", "limit.moves", "limit.depth",
 *             "limit.headers" (numbers, 0 for none);
 *   judging:  "rules" ("auto", the default, "jsa", "csa", "wars",
 *             "problem", "minishogi"), "rule.<key>" for any setting of
 *             a set ("rule.max-moves" = "300", "rule.declaration" =
 *             "27"...), "result-check" ("yes", "no");
 *   writing:  "encoding" ("UTF-8", "CP932", "EUC-JP"), "csa-version"
 *             ("2", "3"), "ply" (for sfen and bod), "strict" ("yes":
 *             anything the target cannot hold is an error),
 *             "rules-header" ("yes", the default: state the rule set
 *             in a header where the target cannot hold the evidence
 *             it came from, as kifu convert does; "no": a warning);
 *   export:   "skip-plies", "stop-at-eval", "ply" (hcp), "require-eval";
 *   mates:    "mate.rules" ("game", the default, or "problem"),
 *             "mate.nodes" (a number, 0 for none), "mate.time" (seconds,
 *             0 for none), "mate.memory" ("256M", the default: the
 *             solver's tables, a ceiling), and "ply" for the position
 *             after that many moves of a USI line.
 * A NULL options pointer means every default.
 *
 * The pictures, books and walks below take the options of their
 * commands too (each function says which): `kifu show`'s "flip" ("yes",
 * "no"), "size", "ascii", "color" ("always", "never"), "moves",
 * "delay", "real-time"; `kifu book build`'s "max-ply", "min-count",
 * "side" ("black", "white", "both"), "memory" ("512M"), and the
 * selection `kifu export` shares, "min-moves", "min-rating", "results"
 * ("resign,checkmate" or "all"), "winner" ("black", "white", "any"),
 * "uniq" ("yes", "no"); the walk's "all-files" ("yes", "no").
 */
typedef struct kifu_options kifu_options;

kifu_options *kifu_options_new(void);
/* KIFU_ERR_ARG for an unknown key or a value the key does not take. */
int kifu_options_set(kifu_options *o, const char *key, const char *value,
    kifu_error **err);
void kifu_options_free(kifu_options *o);

/* --- reading ------------------------------------------------------------ */

typedef struct kifu_file kifu_file;
typedef struct kifu_record kifu_record;

/*
 * Reads every record of a file ("-": standard input), decoding its
 * encoding and detecting its format (options "from" overrides), and
 * replays and judges each one. A record with an illegal move or a result
 * the rules contradict is still read: its status says so. Fails with
 * KIFU_ERR_IO when the file cannot be read and KIFU_ERR_READ when it
 * cannot be decoded or holds no record at all; *out is then NULL.
 */
int kifu_read_file(const char *path, const kifu_options *o,
    kifu_file **out, kifu_error **err);
/*
 * The same for bytes in memory (borrowed; copied as needed). name is
 * shown in messages and its extension breaks ties in detection; NULL
 * means "<buffer>".
 */
int kifu_read_buffer(const void *data, size_t len, const char *name,
    const kifu_options *o, kifu_file **out, kifu_error **err);
void kifu_file_free(kifu_file *f);

const char *kifu_file_name(const kifu_file *f);
/* "kif", "kifu", "ki2", "ki2u", "csa", "usi", "jkf". */
const char *kifu_file_format(const kifu_file *f);
/* "UTF-8", "CP932" or "EUC-JP": what the bytes were decoded from. */
const char *kifu_file_encoding(const kifu_file *f);
size_t kifu_file_count(const kifu_file *f);
/* Record i (from 0), or NULL past the end; it belongs to f. */
const kifu_record *kifu_file_record(const kifu_file *f, size_t i);

/* --- a record's verdict -------------------------------------------------- */

/* "ok", "mismatch", "illegal" or "error" (unreadable). */
const char *kifu_record_status(const kifu_record *r);
/* The number of the record in its file, from 0. */
int kifu_record_index(const kifu_record *r);
/* Legal moves replayed on the main line. */
int kifu_record_moves(const kifu_record *r);
/* The start position and the one after the main line's last legal move. */
const char *kifu_record_start_sfen(const kifu_record *r);
const char *kifu_record_final_sfen(const kifu_record *r);
/*
 * The result under the rule set: winner "black", "white" or "none";
 * reason "checkmate", "resign", "sennichite"... (doc/rules.md); the ply the
 * game ended on. NULL and 0 for an unreadable record.
 */
const char *kifu_record_result_winner(const kifu_record *r);
const char *kifu_record_result_reason(const kifu_record *r);
int kifu_record_result_ply(const kifu_record *r);
/* What the record itself claims; NULL when it claims nothing. */
const char *kifu_record_recorded_winner(const kifu_record *r);
const char *kifu_record_recorded_reason(const kifu_record *r);
/* The terminal as written ("%TORYO", "投了", "まで72手で..."); "" if none. */
const char *kifu_record_recorded_terminal(const kifu_record *r);
/* The rule set as printed ("csa,max-moves=0"), and "auto" or "option". */
const char *kifu_record_rules(const kifu_record *r);
const char *kifu_record_rules_from(const kifu_record *r);
/* What chose the set under auto ("'summary"), and its line; NULL, 0. */
const char *kifu_record_rules_evidence(const kifu_record *r);
unsigned kifu_record_rules_evidence_line(const kifu_record *r);
/* 1 the claim agrees with the rules, 0 it does not, -1 not compared. */
int kifu_record_consistent(const kifu_record *r);
/*
 * 1 when the record says its board is shown as White sees it (KIF's
 * 盤面回転 line, also spelt 盤面反転; "flipped" in the JSON), else 0.
 */
int kifu_record_flipped(const kifu_record *r);
/* Its errors and warnings, in the order found; they belong to r. */
size_t kifu_record_finding_count(const kifu_record *r);
const kifu_error *kifu_record_finding(const kifu_record *r, size_t i);
/* The first error, or NULL when the record is ok. */
const kifu_error *kifu_record_error(const kifu_record *r);
/* The record as one line of `kifu validate --json`, without "\n". */
const char *kifu_record_json(const kifu_record *r);

/* --- headers ---------------------------------------------------------------- */

size_t kifu_record_header_count(const kifu_record *r);
/* The key and value of header i as written ("先手", "$EVENT" is "EVENT"). */
const char *kifu_record_header_key(const kifu_record *r, size_t i);
const char *kifu_record_header_value(const kifu_record *r, size_t i);
/*
 * The kind of header i whatever the format calls it: "black", "white",
 * "event", "site", "start-time", "end-time", "time-limit", "opening",
 * "handicap", "max-moves"...; "other" for the rest, "raw" for a line kept
 * whole (its text is the key).
 */
const char *kifu_record_header_kind(const kifu_record *r, size_t i);
/* The value of the first header of that kind, or NULL. */
const char *kifu_record_header(const kifu_record *r, const char *kind);

/* --- the moves: a tree of nodes ---------------------------------------------- */

/*
 * Node 0 is the start position; every other node is a move or a
 * terminal (投了, %TORYO...). next() is the first continuation, which is
 * the main line's; alternative() the next variation branching at the
 * same place. -1 for none.
 */
typedef int32_t kifu_node;

size_t kifu_record_node_count(const kifu_record *r);
kifu_node kifu_node_next(const kifu_record *r, kifu_node n);
kifu_node kifu_node_alternative(const kifu_record *r, kifu_node n);
kifu_node kifu_node_parent(const kifu_record *r, kifu_node n);
/* Moves from the start to this node (0 for the start). */
int kifu_node_ply(const kifu_record *r, kifu_node n);
/* 1 when n is a move the rules accepted. */
int kifu_node_is_move(const kifu_record *r, kifu_node n);
/* The rule the move breaks ("nifu"), or NULL when it is legal. */
const char *kifu_node_rule(const kifu_record *r, kifu_node n);
/* A terminal's reason ("resign", "abort", ...); NULL for a move. */
const char *kifu_node_terminal(const kifu_record *r, kifu_node n);
/* The move or terminal as the record wrote it. */
const char *kifu_node_text(const kifu_record *r, kifu_node n);
/* The comment after it (lines joined by "\n"); "" when none. */
const char *kifu_node_comment(const kifu_record *r, kifu_node n);
/* Milliseconds the move took; -1 unknown. */
int64_t kifu_node_time_ms(const kifu_record *r, kifu_node n);
/*
 * Written into buf (size bytes, NUL-terminated; cut if too small), each
 * returning the length it needed, or -1 when there is nothing to write
 * (not a legal move, a terminal):
 *   usi:  "7g7f", "P*5e", "2c2b+";
 *   kif:  the move as KIF writes it, "７六歩(77)", "同　銀(33)";
 *   sfen: the position after the node (for node 0, the start), with its
 *         move number. Costs a replay from the start to the node.
 */
int kifu_node_usi(const kifu_record *r, kifu_node n, char *buf, size_t size);
int kifu_node_kif(const kifu_record *r, kifu_node n, char *buf, size_t size);
int kifu_node_sfen(const kifu_record *r, kifu_node n, char *buf,
    size_t size);

/* --- writing and exporting ------------------------------------------------------- */

/*
 * The record in another format ("kif", "kifu", "ki2", "ki2u", "csa",
 * "usi", "sfen", "jkf", "bod"), encoded as options "encoding" says
 * (default: the format's own), into *out (len bytes, NUL-terminated;
 * the caller frees it with kifu_free). What the target cannot hold is
 * left out, as `kifu convert` does, unless option "strict" is "yes"
 * (KIFU_ERR_WRITE). A record with an illegal move is written up to it.
 * As convert, it keeps the rule set the record's own text points at
 * (the set "rules" "auto" picks, whatever set judged it): where the
 * target cannot hold that evidence, a rules header states the set
 * (KIF/KI2 "kifu-rules", CSA "$KIFU_RULES", JKF "kifu-rules"), unless
 * option "rules-header" is "no"; a format without headers (USI) loses
 * it with a warning, an error under "strict".
 */
int kifu_record_write(const kifu_record *r, const char *format,
    const kifu_options *o, char **out, size_t *len, kifu_error **err);

/*
 * Every record of the file in one text, as `kifu convert` writes a file:
 * records joined by the format's separator (CSA "/", a line each in USI
 * and SFEN); a format of one record a file (KIF, KI2, JKF, BOD) takes a
 * file of one record only (KIFU_ERR_WRITE). Options and *out as for
 * kifu_record_write.
 */
int kifu_file_write(const kifu_file *f, const char *format,
    const kifu_options *o, char **out, size_t *len, kifu_error **err);

/*
 * The record's training rows ("hcpe", "hcpe3", "psv", "hcp", "sfen"), as
 * `kifu export` writes them, into *out (len bytes, the caller frees it
 * with kifu_free) and *rows. A record the format cannot hold, or one the
 * options drop, fails with KIFU_ERR_SKIP and the reason as the error's
 * id ("no-king", "illegal", ...).
 */
int kifu_record_export(const kifu_record *r, const char *format,
    const kifu_options *o, void **out, size_t *len, size_t *rows,
    kifu_error **err);

/* --- mates --------------------------------------------------------------------- */

/*
 * The mate solver of `kifu mate` (doc/mate.md): whether the side to move
 * can mate by checking on every move, and in how many plies exactly
 * (the shortest mate against the longest defence), under option
 * "mate.rules". The answer is "mate" with the length and a line that
 * has been replayed through the rules, "nomate" (proved: no mate by
 * checks at all; a repetition is none), or "unknown" when the limits
 * ran out first, never a guess. Each call has a solver of its own, so
 * threads may solve at once; "mate.memory" is each call's ceiling.
 */
typedef struct kifu_mate kifu_mate;

/*
 * Solves sfen: an SFEN (with or without "sfen"), "startpos", or a USI
 * position line with "moves ...". A text that is no position fails with
 * KIFU_ERR_READ; a position the solver cannot take with KIFU_ERR_ARG,
 * the error's id naming why: "no-kings", "no-defender-king" (the side
 * not to move has no king), "defender-in-check" (it is in check
 * already), "impossible".
 */
int kifu_mate_solve(const char *sfen, const kifu_options *o, kifu_mate **out,
    kifu_error **err);
void kifu_mate_free(kifu_mate *m);

/* "mate", "nomate" or "unknown". */
const char *kifu_mate_status(const kifu_mate *m);
/* Plies of the mate; -1 unless the status is "mate". */
int kifu_mate_length(const kifu_mate *m);
/*
 * The line, move by move (i from 0; NULL past the end): "G*5b", and as
 * KIF writes it after its side's mark, "▲５二金打".
 */
size_t kifu_mate_line_count(const kifu_mate *m);
const char *kifu_mate_line_usi(const kifu_mate *m, size_t i);
const char *kifu_mate_line_kif(const kifu_mate *m, size_t i);
/* The position solved: under "problem", with the defender's hand filled. */
const char *kifu_mate_sfen(const kifu_mate *m);
/* For "unknown": why ("nodes", "time", "memory", "depth"); else "". */
const char *kifu_mate_stop(const kifu_mate *m);
/* For "unknown": the length of a mate found but not proved shortest, -1. */
int kifu_mate_found(const kifu_mate *m);
uint64_t kifu_mate_nodes(const kifu_mate *m);
double kifu_mate_seconds(const kifu_mate *m);
/* The answer as one line of `kifu mate --json`, without "\n". */
const char *kifu_mate_json(const kifu_mate *m);

/* --- engines ---------------------------------------------------------------------- */

/*
 * A USI engine process, as `kifu analyze` runs one: the command line
 * split as a shell would (no shell runs), the program looked up in PATH
 * and /usr/games, in a process group of its own; every option checked
 * against the ones the engine declares before it is sent; every move it
 * answers judged by the rules. kifu_engine_close ends the group and
 * reaps it. On Linux the engine is killed when the thread that started
 * it ends, so that a killed program leaves none behind: a program that
 * starts engines in one thread and uses them in another passes
 * KIFU_ENGINE_OUTLIVE_THREAD. One engine is used by one thread at a
 * time.
 */
typedef struct kifu_engine kifu_engine;

#define KIFU_ENGINE_OUTLIVE_THREAD 1

/*
 * Starts the engine: usi, the options ("name=value" strings, a
 * NULL-terminated list, or NULL), isready. log: a file the engine's
 * stderr is appended to (NULL: dropped); init_timeout_ms: the longest
 * wait for usiok and readyok (0: 30000). KIFU_ERR_ENGINE when it cannot
 * be started or refuses an option (nothing left running).
 */
int kifu_engine_start(const char *command, const char *const *options,
    const char *log, long init_timeout_ms, unsigned flags, kifu_engine **out,
    kifu_error **err);
/* As the engine's `id name` and `id author` say. */
const char *kifu_engine_name(const kifu_engine *e);
const char *kifu_engine_author(const kifu_engine *e);

/*
 * Analyses one position: sfen ("startpos", or an SFEN with or without
 * the "sfen" keyword; five ranks are minishogi) with the USI moves
 * (space-separated; NULL or "" none) played from it, which the engine is
 * sent too. limit: "nodes N", "depth N" or "movetime MS"; multipv: the
 * lines (1 to 64); timeout_ms: the longest the search may take before
 * it is stopped (0: the movetime and 10 s, or 300 s). Each search
 * starts from a cleared hash (usinewgame), so that node searches repeat.
 * *json gets one JSON object, the fields of `kifu analyze --json` for
 * the position (the caller frees it with kifu_free). KIFU_ERR_ARG for a
 * bad position, move or limit; KIFU_ERR_ENGINE when the engine does not
 * take the limit or the search fails (an engine that died is started
 * again for the next call).
 */
int kifu_engine_analyse(kifu_engine *e, const char *sfen, const char *moves,
    const char *limit, int multipv, long timeout_ms, char **json,
    kifu_error **err);

/* Stops and quits the engine, ends its process group, frees e. */
void kifu_engine_close(kifu_engine *e);

/* --- pictures ------------------------------------------------------------------ */

/*
 * A position of the record as `kifu show` draws it (doc/pictures.md),
 * into *out (len bytes, NUL-terminated; the caller frees it with
 * kifu_free):
 *   "text": the board for a terminal, in kanji as a KIF diagram draws it
 *           (it reads back as KIF), or with option "ascii" "yes" as CSA's
 *           P1..P9 lines; "color" "always" marks the last move's square
 *           with ANSI escapes ("never", the default); "moves" "yes" lists
 *           the main line after it;
 *   "svg":  an SVG diagram (text);
 *   "png":  the diagram as a PNG (bytes), drawn by librsvg;
 *   "gif":  the game as an animated GIF (bytes), from the start to the
 *           position, a frame a move (librsvg and giflib), each frame
 *           "delay" milliseconds (default 1000), or with "real-time" (a
 *           factor) the time the record gives the next move times it;
 *   "graph", "graph-svg", "graph-png": the evaluations the comments of
 *           the main line's moves give, to the position, as `kifu show
 *           --graph` draws them: a sparkline line (with "color"
 *           "always", the flagged moves in colour), an SVG, a PNG;
 *           KIFU_ERR_WRITE (id "no-evaluation") for a record without
 *           any.
 * The position is the one after option "ply" moves of the main line,
 * else after its last legal move (an illegal record is drawn up to its
 * first illegal move). Pictures take "flip" ("yes": as White sees it;
 * default: as the record says, kifu_record_flipped) and "size" (the
 * width in pixels, 120-4000, default 480, a graph 640); they show the players the
 * headers name and shade the last move's square. o NULL: the options
 * the file was read with. r and o are only read, during the call; on
 * failure *out is NULL and *len 0. Fails with KIFU_ERR_ARG for an unknown kind,
 * or a "ply" past the main line (id "limit"); KIFU_ERR_WRITE for a
 * record that could not be read, or when librsvg or giflib cannot be
 * loaded or fail (id "picture": the message names the Debian package).
 * The libraries are loaded on the first PNG or GIF, once a process.
 */
int kifu_record_show(const kifu_record *r, const char *what,
    const kifu_options *o, char **out, size_t *len, kifu_error **err);

/* --- statistics ---------------------------------------------------------------- */

/*
 * What `kifu stats` counts over many games (doc/archives.md): results
 * by reason and by winner (all, even and handicap games), the game
 * lengths, the first two moves, and per player or per group. Counts
 * only add, so statistics of parts merge into those of the whole.
 */
typedef struct kifu_stats kifu_stats;

/*
 * New, empty statistics grouped as `kifu stats --by` groups: "none",
 * "player", "event", "year", "first-moves", and by kifu's own names of
 * each side's openings and castles, "opening", "castle", "matchup"
 * (doc/openings.md). by NULL: "none", or the
 * grouping of the first JSON kifu_stats_read reads, as `kifu stats
 * --merge` without --by. KIFU_ERR_ARG for an unknown grouping (*out
 * NULL). *out is the caller's, freed with kifu_stats_free; it keeps no
 * pointer to what it was given: records, other statistics and paths
 * are only read during the calls below.
 */
int kifu_stats_new(const char *by, kifu_stats **out, kifu_error **err);
void kifu_stats_free(kifu_stats *s);
/*
 * Counts one record (borrowed for the call) by the result the rules
 * gave it when it was read: read it with the options of `kifu stats`
 * (its rule set, "auto" by default) to count as the command does. A
 * record that could not be read is not counted (KIFU_ERR_READ).
 */
int kifu_stats_add(kifu_stats *s, const kifu_record *r, kifu_error **err);
/*
 * Adds b's counts to a (b is left as it was). KIFU_ERR_ARG when b is
 * grouped otherwise (and has groups), unless a is empty and was made
 * with by NULL, or (id "overflow") when the counts both read from files
 * add up past 2^62; a is then unchanged.
 */
int kifu_stats_merge(kifu_stats *a, const kifu_stats *b, kifu_error **err);
/*
 * Adds the counts of a file of `kifu stats --json` objects, one a line
 * ("-": standard input), as `kifu stats --merge` does. KIFU_ERR_IO when
 * it cannot be read; KIFU_ERR_READ, the error at the first bad line's
 * line and column, when a line is no such object or is grouped
 * otherwise (the other lines are added all the same).
 */
int kifu_stats_read(kifu_stats *s, const char *path, kifu_error **err);
/*
 * The object `kifu stats --json` prints, without "\n", and the tables
 * `kifu stats` prints; the caller frees either with kifu_free.
 */
char *kifu_stats_json(const kifu_stats *s);
char *kifu_stats_text(const kifu_stats *s);
/* The grouping ("none", "player"...: a static string) and the records
 * counted. */
const char *kifu_stats_by(const kifu_stats *s);
long long kifu_stats_records(const kifu_stats *s);

/* --- walking archives ------------------------------------------------------------ */

/*
 * Every record file under a path as `kifu check` walks it
 * (doc/archives.md): a file, a directory (recursively, in name order),
 * "-" (standard input), or an archive read in place (.tar, .tar.gz,
 * .tar.xz, .tar.bz2, .zip, .7z, through libarchive, loaded on the first
 * archive), a member named "archive.zip//dir/x.kif". In a directory or
 * an archive only record files are read: those whose extension is a
 * record format's, and those without one whose content is certainly a
 * record; option "all-files" "yes" reads every file. The walk holds one
 * file and the listing of each directory it is in, whatever the number
 * of files.
 *
 *	kifu_walk *w;
 *	const char *name;
 *	const void *data;
 *	size_t len;
 *	int rc;
 *
 *	if (kifu_walk_open("games/", NULL, &w, &e) != KIFU_OK) ...
 *	while ((rc = kifu_walk_next(w, &name, &data, &len, &e)) != 0) {
 *		if (rc < 0) {	   (a file that cannot be read: go on)
 *			fprintf(stderr, "%s\n", kifu_error_message(e));
 *			kifu_error_free(e);
 *			continue;
 *		}
 *		kifu_read_buffer(data, len, name, NULL, &f, &e) ...
 *	}
 *	kifu_walk_free(w);
 */
typedef struct kifu_walk kifu_walk;

/*
 * Starts a walk of path ("-": standard input, read once and named
 * "<stdin>" as kifu check names it). path is copied and o only read
 * during the call. *out is the caller's, freed with kifu_walk_free,
 * which may be called at any point of the walk (it closes what is
 * open). KIFU_ERR_IO when path does not exist or cannot be looked at
 * (*out NULL); what is under it is read as the walk goes.
 */
int kifu_walk_open(const char *path, const kifu_options *o, kifu_walk **out,
    kifu_error **err);
/*
 * The next file: 1, with its name (as shown in messages) and its bytes
 * in *name, *data and *len, which belong to w and stay valid until the
 * next call or kifu_walk_free; 0 at the end. KIFU_ERR_IO for a file, a
 * directory, an archive or a member that cannot be read (id "io"), or a
 * path passed over on purpose (a fifo, a device, a symlink loop: id
 * "skipped", severity "warning"); *err names it, and the walk goes on
 * at the next call.
 */
int kifu_walk_next(kifu_walk *w, const char **name, const void **data,
    size_t *len, kifu_error **err);
void kifu_walk_free(kifu_walk *w);

/* --- opening books ------------------------------------------------------------- */

/*
 * Opening books in YaneuraOu's text format (doc/books.md), built as
 * `kifu book build` builds them: for the positions at plies 0..N-1 of
 * the main line of every selected record, each move played there with
 * its count and the mean of the evaluations the records' comments give
 * it. Positions are merged by board, hands and side to move, and the
 * book is the same bytes whatever order the records' positions come
 * in but for "uniq". Past option "memory" the table spills sorted runs
 * to $TMPDIR (else /tmp) and merges them when written.
 */
typedef struct kifu_book kifu_book;

/*
 * An empty book taking options "max-ply" (default 40), "min-count"
 * (moves played fewer times are left out when written; default 0),
 * "side" ("black", "white": only the positions with that side to move;
 * "both", the default), "memory" (default "512M"), and the selection:
 * "min-moves", "min-rating", "results" (default: games decided on the
 * board, "resign,checkmate,declaration,perpetual-check"), "winner",
 * "uniq" (drop a game whose start and moves repeat an earlier one's).
 * o NULL: every default. o is only read during the call. *out is the
 * caller's, freed with kifu_book_free, written or not (its spilled
 * runs are files removed from their directory once opened: nothing is
 * left behind, whatever ends the process).
 */
int kifu_book_new(const kifu_options *o, kifu_book **out, kifu_error **err);
void kifu_book_free(kifu_book *b);
/*
 * Adds the record (borrowed for the call) by the verdict it was read
 * with, as build does: KIFU_OK when its positions went in; KIFU_ERR_SKIP
 * when it is left out, the error's id saying why ("unreadable",
 * "illegal", "variant" (not standard shogi), a selection's
 * "min-moves", "no-rating", "min-rating", "results", "winner", "uniq",
 * or the training walk's refusal of its start, "no-king"...);
 * KIFU_ERR_IO when a run cannot be spilled. The book keeps no pointer
 * to the record: what it takes is copied.
 */
int kifu_book_add(kifu_book *b, const kifu_record *r, kifu_error **err);
/*
 * Combines the book at path ("-": standard input) with b, as `kifu book
 * merge` does: counts added, values averaged over the evaluated plays,
 * the deepest depth, the first ponder; the first book's comment lines
 * before its first position are kept. Every position and move is
 * checked: KIFU_ERR_READ with the line and column of the first error
 * (what came before it is in b); KIFU_ERR_IO when it cannot be read.
 */
int kifu_book_read(kifu_book *b, const char *path, kifu_error **err);
/*
 * The book, sorted by position, moves most played first, into *out
 * (len bytes, NUL-terminated; the caller frees it with kifu_free), or
 * written to the file at path, whole or not at all (a temporary file
 * beside it, then a rename; an existing file is replaced only if
 * replace is not 0). Either ends the book: its table is emptied as it
 * is written, and adding, reading or writing again fails with
 * KIFU_ERR_ARG. KIFU_ERR_WRITE (id "book-overflow") when a sum passes
 * the range of a 64-bit count; KIFU_ERR_IO for a file or run that
 * cannot be written.
 */
int kifu_book_write(kifu_book *b, char **out, size_t *len, kifu_error **err);
int kifu_book_write_file(kifu_book *b, const char *path, int replace,
    kifu_error **err);
/*
 * What the book has counted: "records" added, "used", "plies" put in,
 * and, once written, "positions" and "moves" written; or the records
 * left out for a reason kifu_book_add names. -1 for an unknown name.
 */
long long kifu_book_count(const kifu_book *b, const char *what);

/*
 * The moves of a position in the book at path, as `kifu book query`
 * prints them: "move ponder value depth count" lines, most played
 * first, into *out (the caller frees it with kifu_free). position is an
 * SFEN (its move number ignored) or a USI position ("startpos moves
 * 7g7f", "sfen ... moves ..."). A sorted book is searched by binary
 * search in the file. Returns 1 found, 0 not in the book (*out NULL),
 * KIFU_ERR_ARG for a position that is none, KIFU_ERR_IO when the book
 * cannot be read, KIFU_ERR_READ for an error in it (line and column);
 * *out is NULL but on 1. A file with no position line in its first
 * 64 KiB is read through: an empty book (nothing, or only comments)
 * has no position, 0; a file that is no book at all is KIFU_ERR_READ at
 * its first line that is no book's, as `kifu book query` says.
 */
int kifu_book_query(const char *path, const char *position, char **out,
    kifu_error **err);

/* --- openings and castles ----------------------------------------------- */

/*
 * The definitions openings and castles are named by (doc/openings.md):
 * kifu's own, or kifu's own with a file's added over them, as
 * `kifu tag --definitions FILE` reads it. Reading fails with
 * KIFU_ERR_IO when the file cannot be read and KIFU_ERR_READ, the
 * error at the definition's line and column, when it is not one of
 * definitions.
 */
typedef struct kifu_definitions kifu_definitions;

int kifu_definitions_read(const char *path, kifu_definitions **out,
    kifu_error **err);
void kifu_definitions_free(kifu_definitions *d);

/*
 * The record's openings and castles, as `kifu tag --json` names them:
 * one JSON object of its members after "file" and "index" ("named",
 * "handicap", "game", "matchup", "black" and "white" with their
 * "style", "openings" and "castles", each with its ply) into *out
 * (NUL-terminated; the caller frees it with kifu_free). d NULL: kifu's
 * own definitions. A record with an illegal move is named up to it; a
 * record that could not be read fails with KIFU_ERR_READ.
 */
int kifu_record_tags(const kifu_record *r, const kifu_definitions *d,
    char **out, kifu_error **err);

#ifdef __cplusplus
}
#endif

#endif /* KIFU_KIFU_H */
