/*
 * jsonplace.h - where a value of a JSON text starts, by its path.
 *
 * jansson builds a tree and keeps no places; the JKF reader asks this for
 * the place of what it reports ("moves[12].move.piece"). Each question
 * resumes from the answer before where the paths agree, and an array
 * index past the last one asked continues from that element, so that
 * asking for moves[1], moves[2], ... in turn reads the text once. A
 * budget of bytes to scan bounds the work whatever is asked: once spent,
 * every answer is JSON_NO_PLACE.
 */
#ifndef KIFU_PARSERS_JSONPLACE_H
#define KIFU_PARSERS_JSONPLACE_H

#include <stddef.h>

#include "core/strbuf.h"

#define JSON_NO_PLACE ((size_t)-1)

struct json_place_seg {
	int is_index;
	size_t index;		/* is_index: the element */
	size_t key, keylen;	/* else: the key, in last (offset, bytes) */
	size_t at;		/* offset of the value the path so far names */
};

struct json_places {
	const char *p;		/* the text (borrowed) */
	size_t n;
	size_t root;		/* offset of the top value */
	size_t budget;		/* bytes it may still scan */
	struct strbuf last;	/* the path asked last */
	struct json_place_seg *seg;	/* its segments, each found */
	size_t nseg, aseg;
};

/* text: n bytes of JSON, borrowed until json_places_release. */
void json_places_init(struct json_places *jp, const char *text, size_t n,
    size_t budget);
void json_places_release(struct json_places *jp);

/*
 * Byte offset of the first character of the value at path, in the
 * syntax of the JKF reader's messages: keys joined by '.', indices in
 * brackets ("header.先手", "moves[3].forks[0][1]"); "" is the top value.
 * JSON_NO_PLACE if there is none, the text is not well formed on the
 * way, or the budget is spent.
 */
size_t json_places_find(struct json_places *jp, const char *path);

#endif /* KIFU_PARSERS_JSONPLACE_H */
