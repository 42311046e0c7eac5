/*
 * input.h - reading a named input ("-" is standard input) whole.
 */
#ifndef KIFU_API_INPUT_H
#define KIFU_API_INPUT_H

#include "core/strbuf.h"
#include "core/text.h"

/*
 * No input is read past this: one byte more than text_decode takes is
 * enough to refuse it (a 100 GB file, or an archive member whose header
 * claims 2^62 bytes, is not loaded first).
 */
#define INPUT_READ_MAX (TEXT_MAX_SIZE + 1)

/*
 * Reads the file (or stdin for "-") into out, INPUT_READ_MAX bytes at
 * most. Returns 0, or -1 with errno set. Standard input is never closed.
 */
int input_read(const char *path, struct strbuf *out);

/*
 * The same for a file named relative to the open directory dirfd
 * (openat): a walk of a directory reads its files so, sparing the kernel
 * the lookup of every component of a long path for each small file.
 * short_is_end: name is a regular file on a file system for which
 * input_short_read_is_end() said yes, so that a read returning less
 * than it asked for is taken as the end: no fstat() and no final empty
 * read, two system calls in five for a small file.
 */
int input_read_at(int dirfd, const char *name, int short_is_end,
    struct strbuf *out);

/*
 * Whether the file system holding open file (or directory) fd is one on
 * which a short read of a regular file happens only at its end: 1 or 0
 * (0 when unsure).
 */
int input_short_read_is_end(int fd);

/* How a path is shown in messages: "<stdin>" for "-". */
const char *input_display_name(const char *path);

#endif /* KIFU_API_INPUT_H */
