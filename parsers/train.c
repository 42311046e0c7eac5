/*
 * train.c - what the training-row readers share: framing fixed-size rows,
 * and reading a row's position and move with errors that say which row.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "train.h"

void
train_reader_init(struct train_reader *rd, const void *data, size_t n)
{
	memset(rd, 0, sizeof(*rd));
	rd->p = data;
	rd->n = n;
}

void
train_row_start(struct train_row *row, long long index, size_t offset)
{
	row->index = index;
	row->offset = offset;
	row->has_move = row->has_eval = row->has_result = row->has_ply = 0;
	row->mv = MOVE_NONE;
	row->eval = row->result = row->ply = 0;
	row->game = -1;
	row->opponent = 0;
	row->ncand = 0;
}

enum train_read_status
train_row_error(struct train_error *err, const struct train_row *row,
    const char *id, const char *fmt, ...)
{
	va_list ap;

	err->id = id;
	err->row = row->index;
	err->game = row->game;
	err->offset = row->offset;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	return TRAIN_BAD_ROW;
}

const uint8_t *
train_fixed_row(struct train_reader *rd, size_t size, struct train_row *row,
    struct train_error *err, enum train_read_status *st)
{
	const uint8_t *p = rd->p + rd->off;
	size_t left = rd->n - rd->off;

	if (!left) {
		*st = TRAIN_EOF;
		return NULL;
	}
	train_row_start(row, rd->row++, rd->off);
	if (left < size) {
		rd->off = rd->n;
		*st = train_row_error(err, row, "truncated", "the file ends %zu "
		    "byte%s into a %zu-byte row (its size is no whole number "
		    "of rows)", left, left == 1 ? "" : "s", size);
		return NULL;
	}
	rd->off += size;
	*st = TRAIN_ROW;
	return p;
}

enum train_read_status
train_read_position(enum poscode_kind k, const uint8_t *code,
    struct train_row *row, struct train_error *err)
{
	struct poscode_error e;

	if (poscode_decode(k, code, &row->pos, &e) == 0)
		return TRAIN_ROW;
	return train_row_error(err, row, e.id, "%s: %s", k == POSCODE_HCP ?
	    "HCP" : "PackedSfen", e.message);
}

enum train_read_status
train_read_move(enum move16_form form, unsigned m16, struct train_row *row,
    struct train_error *err)
{
	struct move16_error e;

	if (move16_decode(form, &row->pos, (uint16_t)m16, &row->mv, &e) == 0) {
		row->has_move = 1;
		return TRAIN_ROW;
	}
	return train_row_error(err, row, e.id, "%s", e.message);
}
