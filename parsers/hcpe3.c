/*
 * hcpe3.c - reading HCPE3 files (DeepLearningShogi): games, each a
 * 36-byte header (the start's HCP, the number of moves (u16), the result
 * byte, the opponent byte), then per move a MoveInfo (the move played in
 * cshogi's form, its eval (s16), the number of candidates (u16)) and that
 * many MoveVisits (a move, its visit count). Each MoveInfo is a row; its
 * position comes from replaying the game's moves from the header.
 *
 * A game's extent is known from its header and counts alone, so a game
 * whose header or a move is bad is passed over whole and the next game
 * read; only a game that runs past the end of the file stops the file.
 */
#include "train.h"

#define HEADER 36
#define MOVE_INFO 6
#define MOVE_VISITS 4
/* No position has more legal moves to list as candidates. */
#define MAX_CANDIDATES 593

/* The rest of the current game: its rows are counted, not read. */
static void
pass_game(struct train_reader *rd)
{
	rd->row += rd->moves_left;
	rd->moves_left = 0;
	rd->off = rd->game_end;
}

/* Reads the header at rd->off; TRAIN_ROW when the game can be replayed. */
static enum train_read_status
start_game(struct train_reader *rd, struct train_row *row,
    struct train_error *err)
{
	const uint8_t *h = rd->p + rd->off;
	size_t left = rd->n - rd->off, q;
	unsigned moves, i;
	int g = rd->game++, res;

	train_row_start(row, -1, rd->off);
	row->game = g;
	if (left < HEADER) {
		rd->off = rd->n;
		train_row_error(err, row, "truncated", "the file ends %zu "
		    "byte%s into game %d's 36-byte header", left,
		    left == 1 ? "" : "s", g);
		return TRAIN_FATAL;
	}
	moves = train_u16(h + 32);
	for (i = 0, q = rd->off + HEADER; i < moves; i++) {
		unsigned cand;

		if (rd->n - q < MOVE_INFO)
			break;
		cand = train_u16(rd->p + q + 4);
		q += MOVE_INFO;
		if ((rd->n - q) / MOVE_VISITS < cand)
			break;
		q += (size_t)cand * MOVE_VISITS;
	}
	if (i < moves) {
		rd->off = rd->n;
		train_row_error(err, row, "truncated", "game %d has %u moves, "
		    "and the file ends in move %u", g, moves, i + 1);
		return TRAIN_FATAL;
	}
	rd->off += HEADER;
	rd->game_end = q;
	rd->moves_left = (int)moves;
	rd->ply = 0;
	rd->game_result = res = h[34];
	rd->opponent = h[35];
	if (train_read_position(POSCODE_HCP, h, row, err) != TRAIN_ROW) {
		pass_game(rd);
		return TRAIN_BAD_ROW;
	}
	if ((res & 3) == 3 || (res & ~0x1f)) {
		pass_game(rd);
		return train_row_error(err, row, "bad-result", "game %d: result "
		    "%d is none of 0 (draw), 1 (Black), 2 (White) with the "
		    "flags 4, 8, 16", g, res);
	}
	rd->pos = row->pos;
	return TRAIN_ROW;
}

enum train_read_status
hcpe3_read(struct train_reader *rd, struct train_row *row,
    struct train_error *err)
{
	enum train_read_status st;
	const uint8_t *p;
	struct undo u;
	unsigned cand, i;

	while (rd->moves_left == 0) {
		if (rd->off >= rd->n)
			return TRAIN_EOF;
		if ((st = start_game(rd, row, err)) != TRAIN_ROW)
			return st;
	}
	p = rd->p + rd->off;
	train_row_start(row, rd->row++, rd->off);
	row->game = rd->game - 1;
	row->opponent = rd->opponent;
	row->pos = rd->pos;
	cand = train_u16(p + 4);
	rd->off += MOVE_INFO + (size_t)cand * MOVE_VISITS;
	rd->moves_left--;
	row->has_eval = 1;
	row->eval = train_s16(p + 2);
	row->has_result = 1;
	row->result = rd->game_result;
	if ((st = train_read_move(MOVE16_CSHOGI, train_u16(p), row, err)) !=
	    TRAIN_ROW) {
		/* The positions after it cannot be known. */
		pass_game(rd);
		return st;
	}
	rd->ply++;
	position_do_move(&rd->pos, row->mv, &u);
	if (cand > MAX_CANDIDATES)
		return train_row_error(err, row, "bad-count", "%u candidate "
		    "moves; no position has more than %d legal moves", cand,
		    MAX_CANDIDATES);
	for (i = 0; i < cand; i++) {
		const uint8_t *v = p + MOVE_INFO + i * MOVE_VISITS;
		struct move16_error e;

		if (move16_decode(MOVE16_CSHOGI, &row->pos,
		    (uint16_t)train_u16(v), &row->cand[i], &e) < 0)
			return train_row_error(err, row, e.id, "candidate %u: "
			    "%s", i + 1, e.message);
		row->visits[i] = (uint16_t)train_u16(v + 2);
	}
	row->ncand = (int)cand;
	return TRAIN_ROW;
}
