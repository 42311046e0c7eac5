#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/vfs.h>
#endif

#include "api/input.h"

/* What out can take in one read, up to INPUT_READ_MAX in all. */
static size_t
cap_room(const struct strbuf *out)
{
	size_t room = out->alloc - out->len - 1;

	return room < INPUT_READ_MAX - out->len ? room :
	    INPUT_READ_MAX - out->len;
}

/*
 * The rest of open file fd into out; closes fd unless it is stdin.
 * short_is_end: fd is a regular file whose reads stop short only at its
 * end (input_read_at), read without fstat() until one does.
 */
static int
read_fd(int fd, int short_is_end, struct strbuf *out)
{
	struct stat st;
	size_t want = 0;
	int saved;

	if (short_is_end) {
		strbuf_grow(out, 65536);
	} else if (fstat(fd, &st) == 0) {
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
			want = (uintmax_t)st.st_size < INPUT_READ_MAX ?
			    (size_t)st.st_size : INPUT_READ_MAX;
			strbuf_grow(out, want + 1);
		}
	}
	while ((!want || out->len < want) && out->len < INPUT_READ_MAX) {
		size_t room;
		ssize_t n;

		/* Regular files arrive in the buffer sized above: no realloc. */
		if (out->alloc - out->len < 2)
			strbuf_grow(out, 65536);
		room = cap_room(out);
		n = read(fd, out->buf + out->len, room);
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
		if (short_is_end && (size_t)n < room)
			break;
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
	return read_fd(fd, 0, out);
}

int
input_read_at(int dirfd, const char *name, int short_is_end,
    struct strbuf *out)
{
	int fd = openat(dirfd, name, O_RDONLY);

	strbuf_reset(out);
	if (fd < 0)
		return -1;
	return read_fd(fd, short_is_end, out);
}

int
input_short_read_is_end(int fd)
{
#ifdef __linux__
	struct statfs sf;

	if (fstatfs(fd, &sf) < 0)
		return 0;
	/*
	 * Local file systems that read regular files through the page
	 * cache: such a read fills the buffer unless it meets the end of
	 * the file (or a fatal signal, after which nothing is used). Not
	 * NFS, FUSE and the like, whose servers may answer short.
	 */
	switch ((unsigned long)sf.f_type) {
	case 0xEF53:		/* ext2, ext3, ext4 */
	case 0x58465342:	/* XFS */
	case 0x9123683EUL:	/* Btrfs */
	case 0x01021994:	/* tmpfs */
	case 0xF2F52010UL:	/* F2FS */
	case 0x794C7630:	/* overlayfs: its lower and upper ones read */
		return 1;
	}
#else
	(void)fd;
#endif
	return 0;
}

const char *
input_display_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "<stdin>" : path;
}
