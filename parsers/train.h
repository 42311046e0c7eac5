/*
 * train.h - the interface every training-row format implements: hcpe,
 * hcpe3, psv, hcp and sfen (../shared/docs/training.md has the layouts).
 *
 * As for record formats (format.h): one format = one row reader
 * (parsers/<fmt>.c, which `kifu dump` uses) and one row writer
 * (writers/<fmt>.c, which `kifu export` uses), listed in one table
 * (api/trainformats.c). What readers share is in parsers/train.c, what
 * writers share in writers/train.c; the bit codes are core/poscode.h and
 * core/move16.h.
 *
 * Writers take one record that has been replayed (core/replay.h) and
 * judged under a rule set (core/adjudicate.h), and append its rows to a
 * strbuf: one row per position of the main line from the start up to the
 * ply where the rules end the game, each with the move played from it,
 * the evaluation of it (parsers/evaluation.h) and the game's result as
 * the rules give it. A record the format cannot take is not written at
 * all: the writer returns why (enum train_skip), and leaves the strbuf
 * as it found it. Writers keep no state and allocate nothing but the
 * strbuf's growth, so any number of threads may call them at once, each
 * with its own strbuf.
 *
 * Readers go through a file's bytes (borrowed) one row at a time and
 * check each: its position decodes and could occur, its move is legal
 * there, its fields hold values the format allows.
 */
#ifndef KIFU_PARSERS_TRAIN_H
#define KIFU_PARSERS_TRAIN_H

#include <stddef.h>
#include <stdint.h>

#include "core/adjudicate.h"
#include "core/move16.h"
#include "core/movegen.h"
#include "core/poscode.h"
#include "core/record.h"
#include "core/replay.h"
#include "core/strbuf.h"

/* ---- writing ----------------------------------------------------------- */

/* One record to write, every pointer borrowed. */
struct train_game {
	const struct record *r;		/* replayed: nodes' mv are set */
	const struct replay *rp;	/* replay_record's account of r */
	/*
	 * adjudicate()'s verdict: result.winner is the result written,
	 * result.reason gives HCPE3's flags, result.ply the last ply with a
	 * row (rows are the positions before plies 1 .. result.ply).
	 */
	const struct adjudication *adj;
};

/* What a writer may be asked for, per record (export's options). */
struct train_opts {
	int skip_plies;		/* no rows for the first N positions (hcpe3:
				   candidate count 0 for their moves) */
	long long stop_at_eval;	/* > 0: the first position whose |score|
				   >= N (evaluation_at_least) is the last */
	int ply;		/* hcp: the position after N plies (0: start) */
	int require_eval;	/* skip a record in which a side never has an
				   evaluation on its moves */
};

/*
 * Why a record gives no rows. X(enum, stable id, what it means): the ids
 * are promises to scripts (the export summary counts records by them).
 */
#define TRAIN_SKIP_LIST(X) \
	X(TRAIN_WRITTEN, "written", "rows written") \
	X(TRAIN_SKIP_ILLEGAL, "illegal", \
	    "the main line has an illegal move its record does not report") \
	X(TRAIN_SKIP_VARIANT, "variant", \
	    "not standard shogi: the 256-bit codes hold 9x9 positions only") \
	X(TRAIN_SKIP_NO_KING, "no-king", \
	    "a side has no king: the position would need 257 bits") \
	X(TRAIN_SKIP_TOO_MANY_PIECES, "too-many-pieces", \
	    "more pieces of a kind than a set has") \
	X(TRAIN_SKIP_IMPOSSIBLE, "impossible-position", \
	    "the start could not occur (nifu, a dead piece, a king in check " \
	    "with the other side to move)") \
	X(TRAIN_SKIP_NO_EVAL, "no-eval", \
	    "--require-eval, and a side has no evaluation on its moves") \
	X(TRAIN_SKIP_SHORT, "short", \
	    "hcp --ply N, and the game ends before ply N") \
	X(TRAIN_SKIP_TOO_LONG, "too-long", \
	    "hcpe3: more than 513 moves, which dlshogi's reader cannot take") \
	X(TRAIN_SKIP_GAME_PLY, "game-ply", \
	    "psv: a move number over 65535, which gamePly cannot hold") \
	X(TRAIN_SKIP_NO_ROWS, "no-rows", \
	    "no position left to write (no moves, or all skipped)")

#define TRAIN_SKIP_ENUM(e, id, what) e,
enum train_skip { TRAIN_SKIP_LIST(TRAIN_SKIP_ENUM) TRAIN_SKIP_NB };
#undef TRAIN_SKIP_ENUM

const char *train_skip_name(enum train_skip s);
const char *train_skip_description(enum train_skip s);

/*
 * Appends g's rows to out and stores in *rows the training positions
 * written (hcpe3: moves with a candidate; hcp: 1). Returns TRAIN_WRITTEN,
 * or the reason the record gives none (out unchanged, *rows 0).
 */
typedef enum train_skip (*train_write_fn)(const struct train_game *g,
    const struct train_opts *o, struct strbuf *out, size_t *rows);

/* HCPE3: dlshogi's readers assume at most this many moves in a game. */
#define HCPE3_MAX_MOVES 513

/* ---- reading ----------------------------------------------------------- */

/* One row as read back; positions are before the row's move. */
struct train_row {
	long long index;	/* rows counted from 0 in the file */
	size_t offset;		/* its first byte */
	struct position pos;	/* move number: psv's gamePly (if > 0),
				   hcpe3's 1 + the game's plies before it,
				   else 1 */
	int has_move;		/* hcp has none */
	move mv;
	int has_eval;
	int eval;		/* side to move's view, as stored */
	int has_result;
	int result;		/* as stored: hcpe winner (+ HCPE2 flags),
				   hcpe3 the game's result byte, psv -1/0/1 */
	int has_ply;
	int ply;		/* psv: gamePly as stored */
	int game;		/* hcpe3: the game, from 0; else -1 */
	int opponent;		/* hcpe3: the header's opponent byte */
	int ncand;		/* hcpe3: candidates of the move */
	move cand[MAX_MOVES];
	uint16_t visits[MAX_MOVES];
};

/* The bytes of one file and where a reader is in them. */
struct train_reader {
	const uint8_t *p;	/* borrowed */
	size_t n;
	size_t off;		/* the next byte to read */
	long long row;		/* the next row's index */
	/* HCPE3: the game being replayed */
	int game;		/* games started so far */
	int moves_left;		/* its MoveInfo entries not read yet */
	int ply;		/* its plies read */
	size_t game_end;	/* the byte after it */
	int game_result, opponent;
	struct position pos;	/* before its next move */
};

enum train_read_status {
	TRAIN_ROW,		/* a row was read */
	TRAIN_EOF,		/* no more rows */
	TRAIN_BAD_ROW,		/* this row (or game) is bad; the next may do */
	TRAIN_FATAL		/* the rest of the file cannot be read */
};

struct train_error {
	/*
	 * Stable id, a static string: "truncated" (not a whole row or game
	 * left), "bad-result", "bad-count" (HCPE3 candidates), a
	 * poscode_error id (the position) or a move16_error id (the move).
	 */
	const char *id;
	long long row;		/* the row; -1 for an HCPE3 game header */
	int game;		/* HCPE3: the game; -1 */
	size_t offset;		/* the byte it starts at */
	char message[200];
};

void train_reader_init(struct train_reader *rd, const void *data, size_t n);

typedef enum train_read_status (*train_read_fn)(struct train_reader *rd,
    struct train_row *row, struct train_error *err);

/* ---- the formats --------------------------------------------------------- */

struct train_format {
	const char *name;		/* "hcpe", "hcpe3", "psv", "hcp", "sfen" */
	const char *const *extensions;	/* NULL-terminated, with the dot */
	size_t row_size;		/* bytes a row; 0: per game or text */
	int binary;			/* not text: never to a terminal */
	train_write_fn write;
	train_read_fn read;		/* NULL: cannot be read back (sfen) */
};

enum train_skip hcpe_write(const struct train_game *g,
    const struct train_opts *o, struct strbuf *out, size_t *rows);
enum train_read_status hcpe_read(struct train_reader *rd,
    struct train_row *row, struct train_error *err);

enum train_skip hcpe3_write(const struct train_game *g,
    const struct train_opts *o, struct strbuf *out, size_t *rows);
enum train_read_status hcpe3_read(struct train_reader *rd,
    struct train_row *row, struct train_error *err);

enum train_skip psv_write(const struct train_game *g,
    const struct train_opts *o, struct strbuf *out, size_t *rows);
enum train_read_status psv_read(struct train_reader *rd,
    struct train_row *row, struct train_error *err);

enum train_skip hcp_write(const struct train_game *g,
    const struct train_opts *o, struct strbuf *out, size_t *rows);
enum train_read_status hcp_read(struct train_reader *rd,
    struct train_row *row, struct train_error *err);

/* SFEN<TAB>move<TAB>eval|-<TAB>result lines; no reader. */
enum train_skip sfen_rows_write(const struct train_game *g,
    const struct train_opts *o, struct strbuf *out, size_t *rows);

/* ---- what the readers share (parsers/train.c) ------------------------------- */

/* Little-endian fields. */
static inline unsigned
train_u16(const uint8_t *p)
{
	return (unsigned)p[0] | (unsigned)p[1] << 8;
}

static inline int
train_s16(const uint8_t *p)
{
	return (int)(int16_t)(uint16_t)train_u16(p);
}

/* Starts a row at index and offset: no move, eval, result nor game. */
void train_row_start(struct train_row *row, long long index, size_t offset);

/*
 * The next row of `size` bytes, or NULL at the end of the file (*st
 * TRAIN_EOF) or before a partial row (*st TRAIN_BAD_ROW, err filled, and
 * the reader moved to the end). row's index and offset are set.
 */
const uint8_t *train_fixed_row(struct train_reader *rd, size_t size,
    struct train_row *row, struct train_error *err,
    enum train_read_status *st);

/* Fills err (id static) for the row; returns TRAIN_BAD_ROW. */
enum train_read_status train_row_error(struct train_error *err,
    const struct train_row *row, const char *id, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Decodes a position code into row->pos, or reports it (TRAIN_BAD_ROW). */
enum train_read_status train_read_position(enum poscode_kind k,
    const uint8_t *code, struct train_row *row, struct train_error *err);

/* The row's move in row->mv, judged against row->pos. */
enum train_read_status train_read_move(enum move16_form form, unsigned m16,
    struct train_row *row, struct train_error *err);

/* ---- what the writers share (writers/train.c) ------------------------------- */

/*
 * The rows of one record in turn. train_walk_start checks what every
 * format needs (a legal main line, a start the codes can hold, the
 * evaluations --require-eval asks for); train_walk_next then gives one
 * position after another, with the move played from it and its
 * evaluation, up to the end the rules give or the --stop-at-eval row.
 * What the walk keeps of each position is what its writer asks for:
 * the moves alone (hcpe3 replays them from the start's code), a code
 * (struct poscode_inc: a few hundred instructions a position), or the
 * whole position (sfen lines).
 */
enum train_track {
	TRAIN_TRACK_MOVES,	/* side and move number only */
	TRAIN_TRACK_HCP,	/* w->code: HCP */
	TRAIN_TRACK_PSFEN,	/* w->code: PackedSfen */
	TRAIN_TRACK_POSITION	/* w->pos */
};

struct train_walk {
	const struct train_game *g;
	const struct train_opts *o;
	enum train_track track;
	struct position pos;	/* the row's position (TRAIN_TRACK_POSITION) */
	struct poscode_inc code;	/* its code (TRAIN_TRACK_HCP, _PSFEN) */
	enum color side;	/* the row's side to move */
	int move_number;	/* its SFEN move number */
	int ply;		/* plies before it (0: the start) */
	int end;		/* plies the game has under the rules */
	int32_t node;		/* the node of the row's move */
	move mv;		/* the move played from pos */
	int eval;		/* for pos's side to move, +-32767 */
	int has_eval;		/* the move had an evaluation comment */
	int last;		/* --stop-at-eval: this row is the last */
	int started;
};

enum train_skip train_walk_start(struct train_walk *w,
    const struct train_game *g, const struct train_opts *o,
    enum train_track track);
/* What train_walk_next does out of line: read a move's comment, play a
   move on the whole position. */
void train_walk_eval(struct train_walk *w, const struct record_node *n);
void train_walk_play(struct train_walk *w);

/* The main line's move after node i, or -1 (its terminal, its end). */
static inline int32_t
train_next_move(const struct record *r, int32_t i)
{
	i = r->nodes[i].next;
	return i >= 0 && r->nodes[i].special == SP_NONE &&
	    r->nodes[i].mv != MOVE_NONE ? i : -1;
}

/*
 * 1: w holds the next row; 0: no more. Inline: writers call it once a
 * row, and most rows have no comment to read.
 */
static inline int
train_walk_next(struct train_walk *w)
{
	const struct record *r = w->g->r;
	const struct record_node *n;

	if (w->started) {
		if (w->last)
			return 0;
		if (w->track == TRAIN_TRACK_HCP || w->track == TRAIN_TRACK_PSFEN)
			poscode_inc_move(&w->code, w->mv);
		else if (w->track == TRAIN_TRACK_POSITION)
			train_walk_play(w);
		w->side = color_flip(w->side);
		w->move_number++;
		w->ply++;
		w->node = train_next_move(r, w->node);
	}
	w->started = 1;
	if (w->ply >= w->end || w->node < 0)
		return 0;
	n = &r->nodes[w->node];
	w->mv = n->mv;
	w->has_eval = 0;
	w->eval = 0;
	if (n->comment)
		train_walk_eval(w, n);
	return 1;
}

/* The winner as HCPE writes it: 0 draw, 1 Black, 2 White. */
int train_winner(const struct train_game *g);
/* HCPE3's result byte: the winner + 4 repetition draw + 8 declaration
   + 16 move limit. */
int train_hcpe3_result(const struct train_game *g);
/* PSV's result for the side to move: 1 it won, -1 it lost, 0 a draw. */
int train_result_for(const struct train_game *g, enum color to_move);

/* The skip reason for what poscode_encode refused. */
enum train_skip train_refusal(enum poscode_refusal r);

static inline void
train_put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

/*
 * Room for a row of n bytes at the end of out, which the caller fills:
 * rows are built in place, not copied.
 */
static inline uint8_t *
train_append(struct strbuf *out, size_t n)
{
	uint8_t *p;

	strbuf_grow(out, n);
	p = (uint8_t *)out->buf + out->len;
	out->len += n;
	out->buf[out->len] = '\0';
	return p;
}

/*
 * Rolls out back to len and returns why; for writers that find, after
 * writing some rows, that the record cannot be written.
 */
enum train_skip train_undo(struct strbuf *out, size_t len, size_t *rows,
    enum train_skip why);

#endif /* KIFU_PARSERS_TRAIN_H */
