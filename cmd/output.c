#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"
#include "core/text.h"

static void
place(const char *text, size_t at, struct span *sp)
{
	size_t i, line = 1, start = 0;

	for (i = 0; i < at; i++)
		if (text[i] == '\n') {
			line++;
			start = i + 1;
		}
	sp->line = (uint32_t)line;
	sp->col = (uint32_t)(utf8_count(text + start, at - start) + 1);
	sp->byte = (uint32_t)at;
	sp->len = 1;
}

int
output_encode(const char *text, size_t n, const char *encoding,
    struct strbuf *out, struct span *bad, char cp[8])
{
	iconv_t cd;
	char *in = (char *)text, *o;
	size_t inleft = n, outleft;

	if (!strcmp(encoding, "UTF-8")) {
		strbuf_add(out, text, n);
		return 0;
	}
	if ((cd = iconv_open(encoding, "UTF-8")) == (iconv_t)-1)
		return -1;
	strbuf_grow(out, n * 2 + 16);
	o = out->buf + out->len;
	outleft = out->alloc - out->len - 1;
	while (inleft) {
		if (iconv(cd, &in, &inleft, &o, &outleft) != (size_t)-1)
			break;
		if (errno == E2BIG) {
			size_t used = (size_t)(o - out->buf);

			out->len = used;
			strbuf_grow(out, inleft * 2 + 16);
			o = out->buf + used;
			outleft = out->alloc - used - 1;
			continue;
		}
		/* EILSEQ: a character the target cannot hold. */
		{
			size_t at = (size_t)(in - text);
			size_t k = utf8_valid_seq((const unsigned char *)in,
			    inleft);

			place(text, at, bad);
			if (!k || k > 7)
				k = 1;
			memcpy(cp, in, k);
			cp[k] = '\0';
		}
		iconv_close(cd);
		return -1;
	}
	out->len = (size_t)(o - out->buf);
	out->buf[out->len] = '\0';
	iconv_close(cd);
	return 0;
}

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
output_write_file(const char *path, const char *data, size_t n, int force)
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
	{
		mode_t um = umask(0);

		umask(um);
		fchmod(fd, 0666 & ~um);
	}
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
