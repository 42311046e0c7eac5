/*
 * record.h - the one record type every parser fills and every writer
 * reads: headers, start position, a tree of moves with comments and
 * times, terminal events, and what the record says the result was.
 *
 * Ownership: a record owns its headers, nodes and string pool; strings
 * are pool offsets (uint32_t, 0 = none/empty) so the arrays can grow
 * without invalidating anything. record_str() pointers stay valid until
 * the next call that adds to the record. Links between nodes are indices.
 *
 * The pipeline is parse (syntax only: nodes carry move *specs* with
 * source spans) -> replay (core/replay.h: resolves each spec against the
 * rules, the only place that decides legality) -> write.
 */
#ifndef KIFU_CORE_RECORD_H
#define KIFU_CORE_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "diag.h"
#include "position.h"
#include "strbuf.h"

/* Well-known header keys; anything else is HDR_OTHER and kept as written. */
#define HEADER_LIST(X) \
	X(HDR_OTHER, "other") \
	X(HDR_EVENT, "event") \
	X(HDR_SITE, "site") \
	X(HDR_START_TIME, "start-time") \
	X(HDR_END_TIME, "end-time") \
	X(HDR_TIME_LIMIT, "time-limit") \
	X(HDR_TIME, "time") \
	X(HDR_TIME_BLACK, "time-black") \
	X(HDR_TIME_WHITE, "time-white") \
	X(HDR_OPENING, "opening") \
	X(HDR_BLACK, "black") \
	X(HDR_WHITE, "white") \
	X(HDR_HANDICAP, "handicap") \
	X(HDR_MAX_MOVES, "max-moves") \
	X(HDR_JISHOGI, "jishogi") \
	X(HDR_NOTE, "note") \
	X(HDR_VERSION, "version") \
	X(HDR_ENCODING, "encoding") \
	/* the rule set kifu judged the record by (kifu-rules, KIFU_RULES) */ \
	X(HDR_RULES, "rules") \
	X(HDR_RAW, "raw")

#define HDR_ENUM(e, id) e,
enum header_id { HEADER_LIST(HDR_ENUM) HDR_NB };
#undef HDR_ENUM

const char *header_id_name(enum header_id id);

struct record_header {
	uint32_t key;		/* the key as written ("EVENT", "棋戦") */
	uint32_t value;
	enum header_id id;	/* HDR_RAW: a whole line kept verbatim in key */
	struct span loc;
};

/* Terminal events: how a line of play ends, as the record says. */
#define SPECIAL_LIST(X) \
	X(SP_NONE, "none") \
	X(SP_RESIGN, "resign")			/* side to move resigns */ \
	X(SP_ABORT, "abort")			/* suspended, no result */ \
	X(SP_SENNICHITE, "sennichite") \
	X(SP_TIME_UP, "time-up")		/* side to move lost on time */ \
	X(SP_ILLEGAL_MOVE, "illegal-move")	/* side to move fouled */ \
	X(SP_ILLEGAL_WIN, "illegal-win")	/* the previous mover fouled */ \
	X(SP_ILLEGAL_BLACK, "illegal-black")	/* Black fouled, White wins */ \
	X(SP_ILLEGAL_WHITE, "illegal-white")	/* White fouled, Black wins */ \
	X(SP_IMPASSE, "impasse")		/* jishogi */ \
	X(SP_DECLARATION, "declaration")	/* side to move declares a win */ \
	X(SP_DRAW_DECLARATION, "draw-declaration") \
	X(SP_MAX_MOVES, "max-moves") \
	X(SP_MATE, "mate")			/* side to move is mated */ \
	X(SP_NO_MATE, "no-mate") \
	X(SP_ERROR, "error") \
	X(SP_MATTA, "matta") \
	X(SP_SEALED, "sealed")			/* sealed move, unfinished */ \
	X(SP_UNKNOWN, "unknown")		/* a word kifu does not know */

#define SP_ENUM(e, id) e,
enum special { SPECIAL_LIST(SP_ENUM) SP_NB };
#undef SP_ENUM

const char *special_name(enum special sp);

enum winner { WINNER_BLACK, WINNER_WHITE, WINNER_NONE };

#define REASON_LIST(X) \
	X(REASON_UNFINISHED, "unfinished") \
	X(REASON_CHECKMATE, "checkmate") \
	X(REASON_STALEMATE, "stalemate") \
	X(REASON_RESIGN, "resign") \
	X(REASON_ILLEGAL_MOVE, "illegal-move") \
	X(REASON_SENNICHITE, "sennichite") \
	X(REASON_PERPETUAL_CHECK, "perpetual-check") \
	X(REASON_DECLARATION, "declaration") \
	X(REASON_IMPASSE, "impasse") \
	X(REASON_MAX_MOVES, "max-moves") \
	X(REASON_TIME_UP, "time-up") \
	X(REASON_ABORT, "abort")

#define REASON_ENUM(e, id) e,
enum reason { REASON_LIST(REASON_ENUM) REASON_NB };
#undef REASON_ENUM

const char *reason_name(enum reason r);
const char *winner_name(enum winner w);

struct game_result {
	enum winner winner;
	enum reason reason;
	int ply;		/* moves played when the game ended */
};

/* What the text of a move claims, before any rule is applied. */
enum spec_flag {
	SPEC_DROP = 1 << 0,		/* 打, CSA 00, USI P*5e */
	SPEC_PROMOTE = 1 << 1,		/* 成, USI + */
	SPEC_NO_PROMOTE = 1 << 2,	/* 不成, written explicitly */
	SPEC_SAME = 1 << 3,		/* 同: destination of the previous move */
	SPEC_PIECE_AFTER = 1 << 4	/* piece names the piece after the move (CSA) */
};

/* KI2 relative words. */
enum spec_rel {
	REL_RIGHT = 1 << 0, REL_LEFT = 1 << 1, REL_STRAIGHT = 1 << 2,
	REL_UP = 1 << 3, REL_SIDEWAYS = 1 << 4, REL_DOWN = 1 << 5
};

struct move_spec {
	uint8_t flags;		/* enum spec_flag */
	int8_t color;		/* side the text names (CSA sign, KI2 mark); -1 none */
	uint8_t from;		/* SQ_NONE when not written */
	uint8_t to;		/* SQ_NONE with SPEC_SAME */
	uint8_t piece;		/* enum piece_type; PT_NONE when not written */
	uint8_t rel;		/* enum spec_rel */
};

/* A new field needs its start value in node_start() (record.c). */
struct record_node {
	struct move_spec spec;
	move mv;		/* set by replay; MOVE_NONE until then or if illegal */
	uint64_t key;		/* set by replay: position_key() after mv */
	uint8_t rule;		/* enum rule_id replay found broken; 0 = ok */
	uint8_t special;	/* enum special; SP_NONE for a move */
	uint8_t check;		/* set by replay: mv gives check */
	uint32_t raw;		/* the move or terminal token as written */
	int64_t time_ms;	/* time spent on this move; -1 unknown */
	int64_t total_ms;	/* running total the record states; -1 unknown */
	uint32_t comment;	/* comment lines joined by '\n'; 0 none */
	uint32_t bookmark;	/* KIF '&' bookmark; 0 none */
	struct span loc;
	int32_t parent;		/* -1 for the root */
	int32_t next;		/* first continuation (main line first); -1 none */
	int32_t alt;		/* next alternative to this node; -1 none */
	int32_t last;		/* last continuation, where the next one goes */
	int32_t ply;		/* 0 for the root, 1 for the first move */
	int32_t depth;		/* alternatives on the way from the root */
};

struct record {
	const struct variant *v;
	struct position start;	/* the start position, before any move */
	int handicap;		/* enum handicap (core/handicap.h) */
	struct record_header *headers;
	size_t nheaders, aheaders;
	/* nodes[0] is the root: the start position; its comment precedes move 1 */
	struct record_node *nodes;
	size_t nnodes, anodes;
	struct strbuf pool;
	struct span loc;	/* where the record starts in its file */
	/* The first line of the start position (board, PI, SFEN); 0 none. */
	struct span start_loc;
	int32_t depth;		/* the deepest node's depth */
	/* The result the record itself states ('summary line, まで line). */
	int has_recorded;
	struct game_result recorded;
	uint32_t recorded_raw;	/* the statement as written */
	struct span recorded_loc;	/* where it is; line 0 unknown */
	/*
	 * The board is shown as White sees it (KIF's 盤面回転 line, which
	 * Kifu for Windows writes for a record saved with its board turned;
	 * also spelt 盤面反転): a display hint, no part of the game.
	 */
	int flipped;
	struct span flipped_loc;	/* the line; line 0 unknown */
};

/* An empty record: standard start position, a root node, no headers. */
void record_init(struct record *r, const struct variant *v);
void record_release(struct record *r);
/* Empties r for reuse, keeping its allocations. */
void record_reset(struct record *r, const struct variant *v);

/* record_intern() when the pool must grow first. */
uint32_t record_intern_grow(struct record *r, const char *s, size_t n);
/*
 * Copies n bytes into the pool and returns their offset (0 if n == 0).
 * Inline: parsers intern a token per move, a few bytes each, and the
 * pool has room for it nearly always.
 */
static inline uint32_t
record_intern(struct record *r, const char *s, size_t n)
{
	struct strbuf *pool = &r->pool;
	size_t off = pool->len;

	if (n == 0)
		return 0;
	/* The string and its NUL; the pool stays NUL-terminated after it. */
	if (off + n + 2 > pool->alloc)
		return record_intern_grow(r, s, n);
	memcpy(pool->buf + off, s, n);
	pool->buf[off + n] = '\0';
	pool->len = off + n + 1;
	pool->buf[pool->len] = '\0';
	return (uint32_t)off;
}
static inline const char *
record_str(const struct record *r, uint32_t off)
{
	return off ? r->pool.buf + off : "";
}

struct record_header *record_add_header(struct record *r, const char *key,
    size_t klen, const char *value, size_t vlen, enum header_id id,
    const struct span *loc);
/* The first header with the id, or NULL. */
const struct record_header *record_find_header(const struct record *r,
    enum header_id id);

/*
 * Adds a node as the last continuation of `parent` (an alternative to its
 * existing continuations, if any) and returns its index. Time fields are
 * -1, links set, everything else zero.
 */
int32_t record_add_node(struct record *r, int32_t parent);

/* Appends a line to a node's comment (joined by '\n'). */
void record_add_comment(struct record *r, int32_t node, const char *s,
    size_t n);

/*
 * Comment lines a parser reads one at a time, gathered per node and put
 * into the record when the node changes. Calling record_add_comment for
 * every line would copy the node's comment again whenever other strings
 * (headers, move tokens) were interned between its lines: quadratic on
 * files with long interleaved runs. The first line of a batch is only
 * pointed at (most nodes have one); it must stay valid until the flush.
 */
struct comment_batch {
	int32_t node;		/* -1: empty */
	const char *first;
	size_t first_n;
	struct strbuf more;	/* the whole comment once it has two lines */
};

void comment_batch_init(struct comment_batch *b);
void comment_batch_release(struct comment_batch *b);
/* Adds a line for node; flushes first when the batch was another node's. */
void comment_batch_add(struct comment_batch *b, struct record *r,
    int32_t node, const char *s, size_t n);
void comment_batch_flush(struct comment_batch *b, struct record *r);

/* The last node of the main line (the root if there are no moves). */
int32_t record_main_end(const struct record *r);
/* The moves the main line records, up to its terminal (none replayed). */
int record_main_moves(const struct record *r);

/*
 * Sets *pos to the start position with the first `ply` moves of the main
 * line played (ply < 0: every move up to its terminal or its first move
 * replay did not resolve) and *last to the node of the last move played
 * (0, the root, when none). Returns the number of moves played, which is
 * less than ply when the main line is shorter. r must have been replayed.
 */
int record_main_position(const struct record *r, int ply,
    struct position *pos, int32_t *last);

#endif /* KIFU_CORE_RECORD_H */
