/*
 * core.h - one-time set-up of the core's read-only tables.
 *
 * core_init() builds the attack tables, the variants and the position
 * keys. It is idempotent and thread-safe; every entry point that makes a
 * position (position_set_start, sfen_read) calls it, so callers only need
 * it before touching the tables directly.
 */
#ifndef KIFU_CORE_CORE_H
#define KIFU_CORE_CORE_H

void core_init(void);

#endif /* KIFU_CORE_CORE_H */
