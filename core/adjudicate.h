/*
 * adjudicate.h - the result of a game: what the record says, and what
 * the replay and the final position show.
 */
#ifndef KIFU_CORE_ADJUDICATE_H
#define KIFU_CORE_ADJUDICATE_H

#include "record.h"
#include "replay.h"

/*
 * The result the record itself claims: its summary statement when it has
 * one (Floodgate's 'summary names the real reason where its % line does
 * not), else its main line's terminal. Returns 0 if it claims nothing.
 * *raw gets the terminal token as written ("" if none); it points into r.
 */
int adjudicate_recorded(const struct record *r, const struct replay *rp,
    struct game_result *res, const char **raw);

/*
 * The result the rules give: the first foul on the main line loses; a
 * final position with no legal move loses (checkmate or stalemate);
 * otherwise the terminal or, without one, the recorded summary; otherwise
 * unfinished.
 */
void adjudicate_basic(const struct record *r, const struct replay *rp,
    struct game_result *res);

/* The result a terminal event means for the side to move at its slot. */
void adjudicate_special(enum special sp, enum color to_move,
    struct game_result *res);

#endif /* KIFU_CORE_ADJUDICATE_H */
