/*
 * output.h - putting converted text where the user asked, safely.
 */
#ifndef KIFU_CMD_OUTPUT_H
#define KIFU_CMD_OUTPUT_H

#include <stddef.h>

#include "core/diag.h"
#include "core/strbuf.h"

/*
 * Appends text (UTF-8) to out in `encoding` ("UTF-8", "CP932", "EUC-JP").
 * Returns 0, or -1 when a character cannot be held: *bad then gives its
 * line and column in the text, and *cp the character (UTF-8, NUL-ended).
 */
int output_encode(const char *text, size_t n, const char *encoding,
    struct strbuf *out, struct span *bad, char cp[8]);

/*
 * Writes data to path through a temporary file in the same directory and
 * a rename, so a reader never sees half a file and a failure leaves none.
 * An existing path is refused (errno EEXIST) unless force. Returns 0 or -1
 * with errno set.
 */
int output_write_file(const char *path, const char *data, size_t n,
    int force);

/* Writes all of data to standard output; 0 or -1 with errno set. */
int output_write_stdout(const char *data, size_t n);

#endif /* KIFU_CMD_OUTPUT_H */
