#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api/output.h"

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

/* What the umask leaves of 0666 for mode < 0. */
static mode_t
file_mode(int mode)
{
	mode_t um;

	if (mode >= 0)
		return (mode_t)mode;
	um = umask(0);
	umask(um);
	return 0666 & ~um;
}

/*
 * Temporary files in flight, for the signal handler: an interrupted run
 * must leave none behind. Only the main thread opens and commits
 * streams; the handler reads the slots, which are set before the file is
 * made and cleared after it is gone.
 */
#define STREAMS_MAX 4
static char *volatile in_flight[STREAMS_MAX];
static volatile sig_atomic_t handlers_set;
static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
/*
 * What was installed before: a command with a handler of its own (kifu
 * analyze ends its engines) still gets the signal after the files are
 * gone.
 */
static struct sigaction before[sizeof(sigs) / sizeof(sigs[0])];

static void
on_signal(int sig)
{
	size_t k;
	int i;

	for (i = 0; i < STREAMS_MAX; i++)
		if (in_flight[i])
			unlink(in_flight[i]);
	for (k = 0; k < sizeof(sigs) / sizeof(sigs[0]); k++)
		if (sigs[k] == sig && before[k].sa_handler != SIG_IGN) {
			/* Raised again on return, to the handler before. */
			sigaction(sig, &before[k], NULL);
			raise(sig);
			return;
		}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
track(struct output_stream *s)
{
	int i;

	if (!handlers_set) {
		struct sigaction sa;
		size_t k;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		for (k = 0; k < sizeof(sigs) / sizeof(sigs[0]); k++)
			sigaction(sigs[k], &sa, &before[k]);
		handlers_set = 1;
	}
	for (i = 0; i < STREAMS_MAX; i++)
		if (!in_flight[i]) {
			in_flight[i] = s->tmp;
			s->slot = i;
			return;
		}
	s->slot = -1;
}

static void
untrack(struct output_stream *s)
{
	if (s->slot >= 0)
		in_flight[s->slot] = NULL;
	s->slot = -1;
}

static int
stream_open(struct output_stream *s, const char *path, int force, int mode,
    int tracked);

int
output_stream_open(struct output_stream *s, const char *path, int force,
    int mode)
{
	return stream_open(s, path, force, mode, 1);
}

int
output_stream_open_untracked(struct output_stream *s, const char *path,
    int force, int mode)
{
	return stream_open(s, path, force, mode, 0);
}

static int
stream_open(struct output_stream *s, const char *path, int force, int mode,
    int tracked)
{
	struct stat st;
	size_t n;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->slot = -1;
	if (!path || strcmp(path, "-") == 0) {
		fflush(stdout);
		s->fd = 1;
		return 0;
	}
	/*
	 * A device or a pipe (/dev/null, a fifo) is no file to replace:
	 * renaming over it would put a file where the node was. It is
	 * written in place, as standard output is.
	 */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) &&
	    !S_ISDIR(st.st_mode)) {
		if ((s->fd = open(path, O_WRONLY)) < 0)
			return -1;
		s->own_fd = 1;
		return 0;
	}
	if (!force && lstat(path, &st) == 0) {
		errno = EEXIST;
		return -1;
	}
	n = strlen(path);
	s->path = malloc(n + 1);
	s->tmp = malloc(n + sizeof(".kifu-tmp-XXXXXX"));
	if (!s->path || !s->tmp) {
		free(s->path);
		free(s->tmp);
		errno = ENOMEM;
		return -1;
	}
	memcpy(s->path, path, n + 1);
	memcpy(s->tmp, path, n);
	memcpy(s->tmp + n, ".kifu-tmp-XXXXXX", sizeof(".kifu-tmp-XXXXXX"));
	s->force = force;
	/* Tracked before it exists, so that no signal can miss it. */
	if (tracked)
		track(s);
	if ((s->fd = mkstemp(s->tmp)) < 0) {
		int saved = errno;

		untrack(s);
		free(s->path);
		free(s->tmp);
		s->path = s->tmp = NULL;
		errno = saved;
		return -1;
	}
	/* mkstemp makes 0600; rows and records are ordinary files. */
	fchmod(s->fd, file_mode(mode));
	return 0;
}

static int
stream_flush(struct output_stream *s)
{
	if (s->error)
		return -1;
	if (s->n && write_all(s->fd, s->buf, s->n) < 0) {
		s->error = errno;
		return -1;
	}
	s->n = 0;
	return 0;
}

int
output_stream_write(struct output_stream *s, const void *data, size_t n)
{
	if (s->error) {
		errno = s->error;
		return -1;
	}
	if (s->n + n > sizeof(s->buf)) {
		if (stream_flush(s) < 0)
			goto fail;
		if (n >= sizeof(s->buf)) {
			if (write_all(s->fd, data, n) < 0) {
				s->error = errno;
				goto fail;
			}
			s->bytes += n;
			return 0;
		}
	}
	memcpy(s->buf + s->n, data, n);
	s->n += n;
	s->bytes += n;
	return 0;
fail:
	errno = s->error;
	return -1;
}

static void
stream_free(struct output_stream *s)
{
	untrack(s);
	free(s->path);
	free(s->tmp);
	s->path = s->tmp = NULL;
	s->fd = -1;
}

int
output_stream_commit(struct output_stream *s)
{
	int saved;

	if (s->fd < 0)
		return 0;
	if (stream_flush(s) < 0) {
		if (s->tmp) {
			errno = s->error;
			goto fail;
		}
		if (s->own_fd)
			close(s->fd);
		s->fd = -1;
		errno = s->error;
		return -1;
	}
	if (!s->tmp) {		/* standard output, a device, a pipe */
		if (s->own_fd && close(s->fd) < 0) {
			s->fd = -1;
			return -1;
		}
		s->fd = -1;
		return 0;
	}
	if (fsync(s->fd) < 0) {
		saved = errno;
		close(s->fd);
		s->fd = -1;
		errno = saved;
		goto fail;
	}
	saved = close(s->fd);
	s->fd = -1;
	if (saved < 0 || place_file(s->tmp, s->path, s->force) < 0)
		goto fail;
	stream_free(s);
	return 0;
fail:
	saved = errno;
	output_stream_abort(s);
	errno = saved;
	return -1;
}

void
output_stream_abort(struct output_stream *s)
{
	int saved = errno;

	if (s->tmp) {
		if (s->fd >= 0)
			close(s->fd);
		unlink(s->tmp);
		stream_free(s);
	} else if (s->fd >= 0) {
		stream_flush(s);	/* what is written is gone */
		if (s->own_fd)
			close(s->fd);
	}
	s->fd = -1;
	errno = saved;
}

int
output_write_file(const char *path, const char *data, size_t n, int force,
    int mode)
{
	struct output_stream s;

	if (output_stream_open(&s, path, force, mode) < 0)
		return -1;
	if (output_stream_write(&s, data, n) < 0) {
		output_stream_abort(&s);
		return -1;
	}
	return output_stream_commit(&s);
}

enum output_replace_status
output_replace(const char *path, const char *orig, size_t orig_n,
    const char *data, size_t n, int no_backup, int force)
{
	struct stat st;
	size_t len = strlen(path) + 5;
	char *bak = malloc(len);
	int mode = -1, backed_up = 0, saved;
	enum output_replace_status rc = OUTPUT_REPLACED;

	if (!bak)
		abort();
	if (stat(path, &st) == 0)
		mode = (int)(st.st_mode & 07777);
	snprintf(bak, len, "%s.bak", path);
	if (!no_backup) {
		int existed = lstat(bak, &st) == 0;

		if (output_backup(path, bak, orig, orig_n, force, mode) < 0) {
			rc = errno == EEXIST ? OUTPUT_BACKUP_EXISTS :
			    OUTPUT_BACKUP_FAILED;
			goto out;
		}
		backed_up = !existed;
	}
	if (output_write_file(path, data, n, 1, mode) < 0) {
		saved = errno;
		/* The original is untouched: a new backup of it is noise. */
		if (backed_up)
			unlink(bak);
		errno = saved;
		rc = OUTPUT_WRITE_FAILED;
	}
out:
	saved = errno;
	free(bak);
	errno = saved;
	return rc;
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
