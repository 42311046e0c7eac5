/*
 * perft.h - counting the leaves of the legal move tree, the standard
 * oracle for move generation.
 */
#ifndef KIFU_CORE_PERFT_H
#define KIFU_CORE_PERFT_H

#include "position.h"

/*
 * Leaf nodes at depth plies below pos. The last ply is bulk-counted: the
 * legal moves there are generated (every rule checked) but not played.
 * pos is used as scratch and restored before returning.
 */
uint64_t perft(struct position *pos, int depth);

#endif /* KIFU_CORE_PERFT_H */
