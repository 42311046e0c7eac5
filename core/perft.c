#include "movegen.h"
#include "perft.h"

uint64_t
perft(struct position *pos, int depth)
{
	struct move_list ml;
	uint64_t n = 0;
	int i;

	if (depth <= 0)
		return 1;
	if (depth == 1)
		return (uint64_t)movegen_count(pos);
	movegen_legal(pos, &ml);
	for (i = 0; i < ml.n; i++) {
		struct undo u;

		position_do_move(pos, ml.m[i], &u);
		n += perft(pos, depth - 1);
		position_undo_move(pos, ml.m[i], &u);
	}
	return n;
}
