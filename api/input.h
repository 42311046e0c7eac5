/*
 * input.h - reading a named input ("-" is standard input) whole.
 */
#ifndef KIFU_API_INPUT_H
#define KIFU_API_INPUT_H

#include "core/strbuf.h"

/*
 * Reads the file (or stdin for "-") into out. Returns 0, or -1 with errno
 * set. Standard input is never closed.
 */
int input_read(const char *path, struct strbuf *out);

/*
 * The same for a file named relative to the open directory dirfd
 * (openat): a walk of a directory reads its files so, sparing the kernel
 * the lookup of every component of a long path for each small file.
 */
int input_read_at(int dirfd, const char *name, struct strbuf *out);

/* How a path is shown in messages: "<stdin>" for "-". */
const char *input_display_name(const char *path);

#endif /* KIFU_API_INPUT_H */
