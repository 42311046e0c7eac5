#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api/input.h"

/* The rest of open file fd into out; closes fd unless it is stdin. */
static int
read_fd(int fd, struct strbuf *out)
{
	struct stat st;
	size_t want = 0;
	int saved;

	if (fstat(fd, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			if (fd)
				close(fd);
			errno = EISDIR;
			return -1;
		}
		/*
		 * A regular file is read as the size it has now: once that
		 * much has come, no further read() is spent on finding the
		 * end (batch runs open tens of thousands of small files).
		 */
		if (S_ISREG(st.st_mode) && st.st_size > 0) {
			want = (size_t)st.st_size;
			strbuf_grow(out, want + 1);
		}
	}
	while (!want || out->len < want) {
		ssize_t n;

		/* Regular files arrive in the buffer sized above: no realloc. */
		if (out->alloc - out->len < 2)
			strbuf_grow(out, 65536);
		n = read(fd, out->buf + out->len, out->alloc - out->len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			saved = errno;
			if (fd)
				close(fd);
			errno = saved;
			return -1;
		}
		if (n == 0)
			break;
		out->len += (size_t)n;
		out->buf[out->len] = '\0';
	}
	if (fd)
		close(fd);
	return 0;
}

int
input_read(const char *path, struct strbuf *out)
{
	int fd = strcmp(path, "-") == 0 ? 0 : open(path, O_RDONLY);

	strbuf_reset(out);
	if (fd < 0)
		return -1;
	return read_fd(fd, out);
}

int
input_read_at(int dirfd, const char *name, struct strbuf *out)
{
	int fd = openat(dirfd, name, O_RDONLY);

	strbuf_reset(out);
	if (fd < 0)
		return -1;
	return read_fd(fd, out);
}

const char *
input_display_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "<stdin>" : path;
}
