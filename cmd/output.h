/*
 * output.h - putting converted text where the user asked, safely.
 */
#ifndef KIFU_CMD_OUTPUT_H
#define KIFU_CMD_OUTPUT_H

#include <stddef.h>

#include "core/strbuf.h"

/*
 * Writes data to path through a temporary file in the same directory and
 * a rename, so a reader never sees half a file and a failure leaves none.
 * An existing path is refused (errno EEXIST) unless force. The file gets
 * `mode`, or with mode < 0 what the umask leaves of 0666. Returns 0 or -1
 * with errno set.
 */
int output_write_file(const char *path, const char *data, size_t n,
    int force, int mode);

/*
 * Keeps the file at path (whose bytes are data) as bak before it is
 * replaced: a hard link to it, so that the backup is the very file with
 * its times and owner, else a copy (mode as for output_write_file). An
 * existing bak is refused (errno EEXIST) unless force. Returns 0 or -1
 * with errno set.
 */
int output_backup(const char *path, const char *bak, const char *data,
    size_t n, int force, int mode);

/* Writes all of data to standard output; 0 or -1 with errno set. */
int output_write_stdout(const char *data, size_t n);

#endif /* KIFU_CMD_OUTPUT_H */
