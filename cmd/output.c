#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"

static int
write_all(int fd, const char *data, size_t n)
{
	while (n) {
		ssize_t k = write(fd, data, n);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		data += k;
		n -= (size_t)k;
	}
	return 0;
}

int
output_write_stdout(const char *data, size_t n)
{
	fflush(stdout);
	return write_all(1, data, n);
}

/*
 * Without force, link() puts the file in place only if the name is still
 * free, with no window between a check and the rename; rename() is the
 * fallback where hard links are not supported.
 */
static int
place_file(const char *tmp, const char *path, int force)
{
	struct stat st;

	if (!force) {
		if (link(tmp, path) == 0)
			return unlink(tmp), 0;
		if (errno == EEXIST)
			return -1;
		if (lstat(path, &st) == 0) {
			errno = EEXIST;
			return -1;
		}
	}
	return rename(tmp, path);
}

int
output_write_file(const char *path, const char *data, size_t n, int force,
    int mode)
{
	struct strbuf tmp = STRBUF_INIT;
	struct stat st;
	int fd, saved;

	if (!force && lstat(path, &st) == 0) {
		errno = EEXIST;
		return -1;
	}
	strbuf_addf(&tmp, "%s.kifu-tmp-XXXXXX", path);
	if ((fd = mkstemp(tmp.buf)) < 0)
		goto fail;
	/* mkstemp makes 0600; a converted record is an ordinary file. */
	if (mode < 0) {
		mode_t um = umask(0);

		umask(um);
		mode = (int)(0666 & ~um);
	}
	fchmod(fd, (mode_t)mode);
	if (write_all(fd, data, n) < 0 || fsync(fd) < 0) {
		saved = errno;
		close(fd);
		unlink(tmp.buf);
		errno = saved;
		goto fail;
	}
	if (close(fd) < 0 || place_file(tmp.buf, path, force) < 0) {
		saved = errno;
		unlink(tmp.buf);
		errno = saved;
		goto fail;
	}
	strbuf_release(&tmp);
	return 0;
fail:
	saved = errno;
	strbuf_release(&tmp);
	errno = saved;
	return -1;
}

int
output_backup(const char *path, const char *bak, const char *data, size_t n,
    int force, int mode)
{
	if (link(path, bak) == 0)
		return 0;
	if (errno == EEXIST && !force)
		return -1;
	/*
	 * An old backup to replace, or no hard links here (some file
	 * systems): a copy of the bytes read, put in place atomically.
	 */
	return output_write_file(bak, data, n, force, mode);
}
