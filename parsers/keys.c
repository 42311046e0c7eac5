/*
 * keys.c - reading a keys file (keys.h): strictly, since a merge that
 * misread one would copy the wrong bytes.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "keys.h"

static int
fail(struct keys_error *err, unsigned long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
fail(struct keys_error *err, unsigned long line, const char *fmt, ...)
{
	va_list ap;

	err->line = line;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	return -1;
}

/* The line at rd->off, without its '\n'; NULL at the end of the file. */
static const char *
next_line(struct keys_reader *rd, size_t *len, int *ended)
{
	const char *p = rd->p + rd->off, *nl;

	if (rd->off >= rd->n)
		return NULL;
	nl = memchr(p, '\n', rd->n - rd->off);
	*ended = nl != NULL;
	*len = nl ? (size_t)(nl - p) : rd->n - rd->off;
	rd->off += *len + (nl != NULL);
	return p;
}

/*
 * A decimal number of at most 13 digits, without a leading zero, at *p;
 * moves *p past it.
 */
static int
number(const char **p, const char *end, unsigned long long *v)
{
	const char *start = *p;

	*v = 0;
	while (*p < end && **p >= '0' && **p <= '9' && *p - start < 14) {
		*v = *v * 10 + (unsigned)(**p - '0');
		(*p)++;
	}
	if (*p == start || *p - start > 13)
		return -1;
	return *p - start > 1 && *start == '0' ? -1 : 0;
}

int
keys_reader_init(struct keys_reader *rd, const void *p, size_t n,
    struct keys_error *err)
{
	const char *line, *q, *end;
	size_t len, m = strlen(KEYS_MAGIC), f;
	int ended = 0;

	memset(rd, 0, sizeof(*rd));
	rd->p = p;
	rd->n = n;
	rd->line = 1;
	if (!(line = next_line(rd, &len, &ended)) || !ended)
		return fail(err, 1, "no '%s' line: not a keys file",
		    KEYS_MAGIC);
	end = line + len;
	if (len < m + 3 || memcmp(line, KEYS_MAGIC, m) != 0 || line[m] != ' ')
		return fail(err, 1, "no '%s' line: not a keys file",
		    KEYS_MAGIC);
	q = line + m + 1;
	if (end - q < 2 || q[0] != '0' + KEYS_VERSION || q[1] != ' ')
		return fail(err, 1, "a keys file of another version (this "
		    "kifu reads version %d)", KEYS_VERSION);
	q += 2;
	f = (size_t)(end - q);
	if (f == 0 || f >= sizeof(rd->format))
		return fail(err, 1, "no format name in the '%s' line",
		    KEYS_MAGIC);
	for (len = 0; len < f; len++)
		if (!(q[len] >= 'a' && q[len] <= 'z') &&
		    !(q[len] >= '0' && q[len] <= '9'))
			return fail(err, 1, "no format name in the '%s' line",
			    KEYS_MAGIC);
	memcpy(rd->format, q, f);
	rd->format[f] = '\0';
	rd->line = 2;
	return 0;
}

int
keys_read(struct keys_reader *rd, struct keys_line *k,
    struct keys_error *err)
{
	unsigned long line = rd->line;
	const char *p, *end;
	size_t len;
	int i, ended = 0;

	if (!(p = next_line(rd, &len, &ended)))
		return 0;
	rd->line++;
	end = p + len;
	if (!ended)
		return fail(err, line, "the last line has no newline: the "
		    "file was cut");
	if (len < 16 + 4)
		return fail(err, line, "not a line '<key> <rows> <bytes>'");
	k->key = 0;
	for (i = 0; i < 16; i++) {
		char c = p[i];
		unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0') :
		    c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10) : 16;

		if (d == 16)
			return fail(err, line, "the key is not 16 hex digits");
		k->key = k->key << 4 | d;
	}
	p += 16;
	if (*p++ != ' ' || number(&p, end, &k->rows) < 0 || p == end ||
	    *p++ != ' ' || number(&p, end, &k->bytes) < 0 || p != end)
		return fail(err, line, "not a line '<key> <rows> <bytes>'");
	if (!k->key)
		return fail(err, line, "key 0 is no record's");
	if (k->bytes == 0 || k->bytes > KEYS_MAX_BYTES || k->rows > k->bytes)
		return fail(err, line, "%llu rows in %llu bytes cannot be",
		    k->rows, k->bytes);
	return 1;
}
