/*
 * core_private.h - what core_init() calls, in this order; not for use
 * outside core/. Each fills read-only tables once.
 */
#ifndef KIFU_CORE_CORE_PRIVATE_H
#define KIFU_CORE_CORE_PRIVATE_H

#include "sfen.h"

void variant_init(void);	/* needs the bitboard tables */
void handicap_init(void);	/* needs variants and keys */
void poscode_init(void);	/* HCP and PackedSfen decoding tables */

/* sfen_read for the tables themselves: core_init() must not recurse. */
enum sfen_status sfen_read_uninit(struct position *pos,
    const struct variant *v, const char *s, struct sfen_error *err);

#endif /* KIFU_CORE_CORE_PRIVATE_H */
