/*
 * tsume.h - mate as composed problems (詰将棋) count it.
 *
 * A problem ends when the defender's only replies are futile
 * interpositions (無駄合): pieces dropped between the king and a distant
 * checker that the attacker takes with mate again. The defender of a
 * problem holds every piece not on the board, so almost every final
 * check from a distance has such drops, and a strict test would call
 * nearly every published solution "not mate".
 */
#ifndef KIFU_CORE_TSUME_H
#define KIFU_CORE_TSUME_H

#include "position.h"

/*
 * Whether the side to move of pos (borrowed, not changed) is mated once
 * futile interpositions are set aside: in check, and every legal reply
 * is a drop that the attacker can capture, giving a check that is again
 * such a mate. A king move, a capture of the checker or an interposition
 * by a board piece is a real defence. Bounded by the checker's distance.
 */
int tsume_mated(const struct position *pos);

#endif /* KIFU_CORE_TSUME_H */
