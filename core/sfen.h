/*
 * sfen.h - SFEN position text in and out.
 *
 * Reading tells apart text that is not SFEN at all (SFEN_SYNTAX) from
 * well-formed text describing a position that cannot occur
 * (SFEN_IMPOSSIBLE: two kings of one side, a piece that could never move,
 * nifu on the board, more pieces than the set has, the side not to move
 * in check). A position without a king for one or both sides (tsume) is
 * valid.
 */
#ifndef KIFU_CORE_SFEN_H
#define KIFU_CORE_SFEN_H

#include <stddef.h>

#include "position.h"

enum sfen_status {
	SFEN_OK = 0,
	SFEN_SYNTAX,
	SFEN_IMPOSSIBLE
};

struct sfen_error {
	enum sfen_status status;
	/*
	 * Stable id, a static string: "sfen-syntax", "two-kings",
	 * "dead-piece-on-board", "nifu-on-board", "too-many-pieces",
	 * "side-not-to-move-in-check".
	 */
	const char *id;
	size_t offset;		/* byte offset into the text */
	char message[128];
};

/*
 * Longest SFEN sfen_write() can produce, with its NUL: a board of 81
 * promoted pieces (170 bytes: positions past the set are replayed, with
 * a warning), the side, 14 hand counts of up to 255 (56), a move number
 * of any int (12) and the NUL make 242.
 */
#define SFEN_MAX 256

/*
 * Reads a whole SFEN (an optional leading "sfen " keyword, board, side,
 * hands and an optional move number; surrounding blanks allowed) into
 * pos. On failure pos is unspecified and err says why; err may be NULL.
 */
enum sfen_status sfen_read(struct position *pos, const struct variant *v,
    const char *text, struct sfen_error *err);

/*
 * Like sfen_read, but stops after the SFEN's fields and stores in
 * *consumed how many bytes of text they took, so that a caller can go on
 * with what follows ("moves ...").
 */
enum sfen_status sfen_read_prefix(struct position *pos,
    const struct variant *v, const char *text, size_t *consumed,
    struct sfen_error *err);

/*
 * The game an SFEN's board is of, by its shape: five ranks minishogi,
 * nine shogi (the files of a rank are the reader's to count). Looks at
 * the first n bytes of text, which may start with blanks and the "sfen"
 * keyword, up to the blank that ends the board. NULL when the board has
 * neither shape: read it on any variant, whose reader names what is
 * wrong. Every place that takes an SFEN asks this, so that a 5x5 board
 * is minishogi wherever it is given.
 */
const struct variant *sfen_board_variant(const char *text, size_t n);

/*
 * Checks that a position built by other means (a CSA or KIF board) could
 * occur: SFEN_OK or SFEN_IMPOSSIBLE with err filled (offset 0).
 */
enum sfen_status position_validate(const struct position *pos,
    struct sfen_error *err);

/*
 * Whether the rules can still play from a position position_validate()
 * called impossible. Only two kings of one side break them (a side has
 * one king to keep safe); a record with, say, a pawn on its last rank is
 * replayed with a warning rather than refused.
 */
int sfen_impossible_is_playable(const struct sfen_error *err);

/* Writes the canonical SFEN of pos into buf (SFEN_MAX bytes). */
void sfen_write(const struct position *pos, char buf[SFEN_MAX]);

/* Writes only the board field. */
void sfen_write_board(const struct position *pos, char buf[SFEN_MAX]);
/*
 * The SFEN without its move number ("board side hands"), the identity
 * books and indexes key positions by; returns its length.
 */
size_t sfen_write_key(const struct position *pos, char buf[SFEN_MAX]);

/*
 * sfen_write_key for the positions of one game in turn: each rank's text
 * is kept and written again only when one of its squares changed. Plain
 * data, one per walk (not shared between threads).
 */
struct sfen_key_cache {
	const struct variant *v;	/* NULL: nothing kept yet */
	uint8_t board[SQ_NB];
	uint8_t len[RANK_NB];
	char rank[RANK_NB][2 * FILE_NB];
};

void sfen_key_cache_init(struct sfen_key_cache *c);
size_t sfen_write_key_cached(struct sfen_key_cache *c,
    const struct position *pos, char buf[SFEN_MAX]);

/* Upper-case SFEN letter of an unpromoted type ('P', ..., 'K'); 0 if none. */
char sfen_piece_letter(enum piece_type pt);
/* The unpromoted type an upper- or lower-case letter names; PT_NONE if none. */
enum piece_type sfen_letter_type(char c);

#endif /* KIFU_CORE_SFEN_H */
