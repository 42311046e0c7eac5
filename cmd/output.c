#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"
#include "core/text.h"

/*
 * Line and column of byte `at` of text, counting on from where the
 * cursor last stopped (each call must be at or after the previous one),
 * so that reporting every replaced character stays linear.
 */
struct cursor {
	size_t at, line, start;
};

static void
place(const char *text, struct cursor *cu, size_t at, struct span *sp)
{
	size_t i;

	for (i = cu->at; i < at; i++)
		if (text[i] == '\n') {
			cu->line++;
			cu->start = i + 1;
		}
	cu->at = at;
	sp->line = (uint32_t)cu->line;
	sp->col = (uint32_t)(utf8_count(text + cu->start, at - cu->start) + 1);
	sp->byte = (uint32_t)at;
	sp->len = 1;
}

/*
 * Converts what is left of *in into out, growing it as needed. Returns
 * 0 when all is converted, or -1 (errno EILSEQ or EINVAL) with *in at the
 * character that cannot be converted.
 */
static int
convert_some(iconv_t cd, char **in, size_t *inleft, struct strbuf *out)
{
	while (*inleft) {
		size_t used = out->len, outleft;
		char *o;

		strbuf_grow(out, *inleft * 2 + 16);
		o = out->buf + used;
		outleft = out->alloc - used - 1;
		if (iconv(cd, in, inleft, &o, &outleft) != (size_t)-1) {
			out->len = (size_t)(o - out->buf);
			break;
		}
		out->len = (size_t)(o - out->buf);
		if (errno != E2BIG)
			return -1;
	}
	out->buf[out->len] = '\0';
	return 0;
}

int
output_encode(const char *text, size_t n, const char *encoding,
    output_miss_fn *miss, void *ctx, struct strbuf *out, struct span *bad,
    char cp[8])
{
	struct cursor cu = { 0, 1, 0 };
	iconv_t cd;
	char *in = (char *)text;
	size_t inleft = n;

	if (!strcmp(encoding, "UTF-8")) {
		strbuf_add(out, text, n);
		return 0;
	}
	if ((cd = iconv_open(encoding, "UTF-8")) == (iconv_t)-1)
		return -2;
	while (convert_some(cd, &in, &inleft, out) < 0) {
		/* EILSEQ: a character the target cannot hold. */
		size_t at = (size_t)(in - text);
		size_t k = utf8_valid_seq((const unsigned char *)in, inleft);
		char *mark = (char *)OUTPUT_SUBSTITUTE;
		size_t markleft = strlen(OUTPUT_SUBSTITUTE);

		if (!k || k > 7)
			k = 1;
		place(text, &cu, at, bad);
		memcpy(cp, in, k);
		cp[k] = '\0';
		if (!miss || convert_some(cd, &mark, &markleft, out) < 0) {
			iconv_close(cd);
			return -1;
		}
		miss(ctx, bad, cp);
		in += k;
		inleft -= k;
	}
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
