/*
 * hcp.c - reading HCP rows: 32-byte HuffmanCodedPos positions alone
 * (cshogi's `hcp` arrays; kifu export -t hcp writes one a record).
 */
#include "train.h"

enum train_read_status
hcp_read(struct train_reader *rd, struct train_row *row,
    struct train_error *err)
{
	enum train_read_status st;
	const uint8_t *p = train_fixed_row(rd, POSCODE_BYTES, row, err, &st);

	if (!p)
		return st;
	return train_read_position(POSCODE_HCP, p, row, err);
}
