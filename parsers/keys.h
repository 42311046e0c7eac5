/*
 * keys.h - the keys file of `kifu export --keys-out`: which records a
 * run exported and where their rows are, so that a second pass can merge
 * the outputs of shards and drop the records another shard exported
 * first (`kifu export --merge`).
 *
 * Text, one line a record, in the order of the rows:
 *
 *   #kifu-export-keys 1 <format>
 *   <key: 16 hex digits> <rows> <bytes>
 *   ...
 *
 * key is select_key() of the record (query/select.h), rows the training
 * positions its rows hold, bytes their size in the rows file; the bytes
 * of a file's lines add up to its rows file's size. The writer is
 * writers/keys.c, the reader parsers/keys.c; neither allocates.
 */
#ifndef KIFU_PARSERS_KEYS_H
#define KIFU_PARSERS_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "core/strbuf.h"

#define KEYS_MAGIC "#kifu-export-keys"
#define KEYS_VERSION 1
/* No record's rows come near this; a line that says more is damaged. */
#define KEYS_MAX_BYTES (1ULL << 40)

struct keys_line {
	uint64_t key;
	unsigned long long rows, bytes;
};

/* ---- writing (writers/keys.c) -------------------------------------------- */

void keys_write_header(struct strbuf *out, const char *format);
void keys_write_line(struct strbuf *out, const struct keys_line *k);

/* ---- reading (parsers/keys.c) -------------------------------------------- */

struct keys_reader {
	const char *p;		/* borrowed */
	size_t n, off;
	unsigned long line;	/* of the next line, from 1 */
	char format[16];	/* the header's */
};

struct keys_error {
	unsigned long line;
	char message[128];
};

/*
 * Starts reading the n bytes at p (a whole keys file) and reads its
 * header. Returns 0, or -1 with err filled.
 */
int keys_reader_init(struct keys_reader *rd, const void *p, size_t n,
    struct keys_error *err);
/*
 * The next line: 1 and *k, 0 at the end, -1 with err filled for a line
 * that is not one (the rest of the file is not read).
 */
int keys_read(struct keys_reader *rd, struct keys_line *k,
    struct keys_error *err);

#endif /* KIFU_PARSERS_KEYS_H */
