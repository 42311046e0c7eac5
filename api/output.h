/*
 * output.h - putting converted text where the user asked, safely.
 */
#ifndef KIFU_API_OUTPUT_H
#define KIFU_API_OUTPUT_H

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

/*
 * Replaces the file at path by data, atomically, keeping its mode; the
 * original (its bytes orig) is kept first as path.bak unless no_backup
 * (an existing .bak is refused unless force). Nothing is left changed
 * when a step fails: a backup made for a write that then failed is
 * removed. Returns OUTPUT_REPLACED or the step that failed, errno set.
 */
enum output_replace_status {
	OUTPUT_REPLACED, OUTPUT_BACKUP_EXISTS, OUTPUT_BACKUP_FAILED,
	OUTPUT_WRITE_FAILED
};
enum output_replace_status output_replace(const char *path, const char *orig,
    size_t orig_n, const char *data, size_t n, int no_backup, int force);

/*
 * A file written as it is made, for output too large to hold (training
 * rows): the bytes go to a temporary file in the target's directory, and
 * output_stream_commit() puts it in place as output_write_file does
 * (link, or rename with force); output_stream_abort(), a failed write or
 * commit, or SIGINT, SIGTERM and SIGHUP leave nothing behind. A path of
 * "-" (or NULL) is standard output, written as it comes; so is a path
 * that names a device or a pipe (/dev/null), never replaced by a file.
 *
 * Writes are buffered; the first error sticks: every later call fails
 * with it, and commit then removes the temporary file.
 */
struct output_stream {
	int fd;
	char *tmp, *path;	/* owned; NULL for standard output */
	int force;
	int own_fd;		/* a device or pipe opened by path */
	int slot;		/* in the signal handler's list; -1 none */
	int error;		/* errno of the first failed write */
	unsigned long long bytes;	/* written so far */
	size_t n;		/* bytes in buf */
	char buf[1 << 16];
};

/*
 * Opens path (refused with EEXIST if it exists, unless force; mode as
 * for output_write_file). Returns 0 or -1 with errno set.
 */
int output_stream_open(struct output_stream *s, const char *path, int force,
    int mode);
/*
 * The same for a library's caller, whose program owns its signals: no
 * handler is installed, so a signal that ends the process may leave the
 * temporary file (".kifu-tmp-" and six characters, beside path).
 */
int output_stream_open_untracked(struct output_stream *s, const char *path,
    int force, int mode);
int output_stream_write(struct output_stream *s, const void *data, size_t n);
/* Flushes, syncs and puts the file in place; 0 or -1 with errno set. */
int output_stream_commit(struct output_stream *s);
void output_stream_abort(struct output_stream *s);

/* Writes all of data to standard output; 0 or -1 with errno set. */
int output_write_stdout(const char *data, size_t n);

#endif /* KIFU_API_OUTPUT_H */
