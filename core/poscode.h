/*
 * poscode.h - the two 256-bit position codes of engine training data:
 * HCP (HuffmanCodedPos: cshogi, Apery; HCPE and HCPE3 rows) and PackedSfen
 * (YaneuraOu; PackedSfenValue rows). ../shared/docs/training.md sections
 * 1-3 give every code; both share the field order (side, the two kings,
 * the other 79 squares, both hands, then the pieces of the set that are
 * nowhere else, "the piece box"), and differ in their code tables.
 *
 * Any standard position with both kings and at most a full set of pieces
 * fills exactly 256 bits, handicaps included (the removed pieces are in
 * the box). Anything else cannot be held: a missing king needs a 257th
 * bit, more pieces of a kind than the set has have no code. The encoder
 * refuses those with a reason and never writes past its 32 bytes.
 *
 * No allocation and no state but the tables core_init() builds (every
 * position comes from code that has run it): safe from any thread.
 */
#ifndef KIFU_CORE_POSCODE_H
#define KIFU_CORE_POSCODE_H

#include <stdint.h>

#include "position.h"

#define POSCODE_BYTES 32

enum poscode_kind {
	POSCODE_HCP,		/* cshogi's HuffmanCodedPos */
	POSCODE_PSFEN		/* YaneuraOu's PackedSfen */
};

/* Why a position cannot be encoded (poscode_refusal_name: stable ids). */
enum poscode_refusal {
	POSCODE_OK = 0,
	POSCODE_VARIANT,	/* "variant": not the standard 9x9 game */
	POSCODE_NO_KING,	/* "no-king": a side has no king */
	POSCODE_TOO_MANY	/* "too-many-pieces": more than the set has */
};

const char *poscode_refusal_name(enum poscode_refusal r);

/*
 * Writes the code of pos into out. Returns POSCODE_OK, or the reason pos
 * cannot be held (out is then unspecified). The move number is not part
 * of either code.
 */
enum poscode_refusal poscode_encode(enum poscode_kind k,
    const struct position *pos, uint8_t out[POSCODE_BYTES]);

/*
 * A game's positions encoded one after another: start from a position,
 * then play its moves and write the code of each. Each file's squares
 * keep their code between moves, so a move costs the files it touches
 * (and the hands, after a capture or a drop) and a write puts 9 files
 * and the hands together. poscode_encode() is a start and a write.
 * Plain data: copy it to keep a position's state.
 */
struct poscode_inc {
	enum poscode_kind kind;
	enum color side;
	uint8_t king[COLOR_NB];
	uint8_t board[SQ_NB];
	/*
	 * Black's hand, White's and the box (the set's pieces nowhere
	 * else), each in the order P L N S G B R; held: the slots not 0.
	 */
	uint8_t count[21];
	uint32_t held;
	int spare_dirty;		/* the hands changed since encoded */
	unsigned spare_bits;
	uint64_t spare[3];		/* the hands' and the box's codes */
	uint64_t file[FILE_NB];		/* each file's squares' codes */
	uint8_t file_bits[FILE_NB];
};

/* The refusals of poscode_encode(); on POSCODE_OK s holds pos. */
enum poscode_refusal poscode_inc_start(struct poscode_inc *s,
    enum poscode_kind k, const struct position *pos);
/* Plays m, which must be legal in the position s holds. */
void poscode_inc_move(struct poscode_inc *s, move m);
/* The code of the position s holds; POSCODE_OK (a guard aside). */
enum poscode_refusal poscode_inc_write(struct poscode_inc *s,
    uint8_t out[POSCODE_BYTES]);

struct poscode_error {
	/*
	 * Stable id, a static string: "bad-king-square" (a king field over
	 * 81, or both kings on one square), "no-king" (king field 81),
	 * "bad-code" (bits that are no code of the table), "bits-missing" (a
	 * code runs past bit 256), "too-many-pieces", "pieces-missing", or
	 * what position_validate() says of the decoded position
	 * ("nifu-on-board", "dead-piece-on-board",
	 * "side-not-to-move-in-check").
	 */
	const char *id;
	int bit;		/* stream bit the problem is at; -1 none */
	char message[128];
};

/*
 * Reads a code into pos (standard variant, move number 1). Returns 0, or
 * -1 with err filled (err may be NULL): the code is damaged or describes
 * a position that cannot occur. Hand and box codes are accepted in any
 * order, as both projects' decoders accept them (old YaneuraOu files
 * wrote the hands in another order).
 */
int poscode_decode(enum poscode_kind k, const uint8_t in[POSCODE_BYTES],
    struct position *pos, struct poscode_error *err);

#endif /* KIFU_CORE_POSCODE_H */
