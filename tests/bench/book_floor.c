/*
 * book_floor.c - work that any `kifu book build` still has to do after
 * judging its games, and nothing else (make bench): given every entry of
 * a finished book already made (a position's sfen line and its move
 * lines, as text, in memory, in the order random games first reach
 * them), sort the entries by the SFEN text, as a book must be sorted,
 * and write them to a file. No reading or judging of games, no position
 * keys, no hashing, no counting, no fsync: what is timed is the sort and
 * the write alone, so that the build's figure has a floor to be read
 * against. It is an estimate, not a bound: a cleverer sort would lower
 * it.
 *
 *   book_floor BOOK OUT
 *
 * BOOK is a book kifu wrote (sorted; it is shuffled first); OUT is
 * replaced and left behind (the caller removes it), and must come out
 * the same bytes as BOOK. Prints the milliseconds of the sort and of
 * the write, and the number of entries.
 *
 * The sort is multikey quicksort (Bentley and Sedgewick, 1997), the
 * usual fast sort for strings with long common prefixes, as SFEN boards
 * have, taking eight bytes at a time: kinder to the floor than qsort
 * and strcmp.
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct entry {
	uint64_t w;			/* key bytes [d, d + 8), big-endian */
	const unsigned char *key;	/* the sfen line, after "sfen " */
	const char *text;		/* the whole entry */
	size_t len;
};

/*
 * Eight bytes of the key from d on as one number that compares as the
 * bytes do: the line's newline and what follows it read as 0. Only
 * called for a d that the key reaches (an earlier word had no end).
 */
static uint64_t
word_at(const unsigned char *key, size_t d)
{
	uint64_t w = 0;
	size_t i;
	int ended = 0;

	for (i = 0; i < 8; i++) {
		unsigned c = ended ? 0 : key[d + i];

		if (c == '\n')
			c = 0, ended = 1;
		w = w << 8 | c;
	}
	return w;
}

static void
swap(struct entry *a, struct entry *b)
{
	struct entry t = *a;

	*a = *b;
	*b = t;
}

/*
 * Multikey quicksort a word at a time, each entry carrying its current
 * word: a partition pass reads the array alone, and each key's bytes are
 * fetched once per eight of them, not once per byte of every pass.
 */
static void
mkqs(struct entry *a, size_t n, size_t d)
{
	size_t i;

	while (n > 1) {
		size_t lt = 0, gt = n - 1;
		uint64_t v;

		swap(&a[0], &a[n / 2]);
		v = a[0].w;
		i = 1;
		while (i <= gt) {
			uint64_t c = a[i].w;

			if (c < v)
				swap(&a[lt++], &a[i++]);
			else if (c > v)
				swap(&a[i], &a[gt--]);
			else
				i++;
		}
		mkqs(a, lt, d);
		mkqs(a + gt + 1, n - gt - 1, d);
		/* A word holding the end: the equal keys are the same key. */
		if (!(v & 0xff))
			return;
		a += lt;
		n = gt + 1 - lt;
		d += 8;
		for (i = 0; i < n; i++)
			a[i].w = word_at(a[i].key, d);
	}
}

/* The output, a block at a time. */
struct sink {
	int fd;
	char *buf;
	size_t fill;
};

static int
put(struct sink *o, const char *s, size_t k)
{
	while (k) {
		size_t room = 65536 - o->fill, c = k < room ? k : room;

		memcpy(o->buf + o->fill, s, c);
		o->fill += c;
		s += c;
		k -= c;
		if (o->fill == 65536) {
			if (write(o->fd, o->buf, o->fill) != (ssize_t)o->fill)
				return -1;
			o->fill = 0;
		}
	}
	return 0;
}

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* xorshift64: a fixed shuffle, the same every run */
static uint64_t
next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

int
main(int argc, char **argv)
{
	uint64_t seed = 88172645463325252ULL, t0, t1, t2;
	struct entry *e = NULL;
	size_t n = 0, cap = 0, len = 0, i, fill, hlen;
	char *book = NULL, *arr, *header, *p, *end, *first = NULL;
	struct sink o = { -1, NULL, 0 };
	FILE *f;

	if (argc != 3) {
		fputs("usage: book_floor BOOK OUT\n", stderr);
		return 2;
	}
	if (!(f = fopen(argv[1], "rb"))) {
		perror(argv[1]);
		return 2;
	}
	for (;;) {
		size_t got;

		if (len + 65536 > cap) {
			cap = cap ? cap * 2 : 1 << 20;
			if (!(book = realloc(book, cap + 1)))
				return 2;
		}
		if (!(got = fread(book + len, 1, cap - len, f)))
			break;
		len += got;
	}
	fclose(f);
	book[len] = '\0';
	/* Entries: from one "sfen " line to the next. */
	cap = 0;
	end = book + len;
	for (p = book; p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		char *next = nl ? nl + 1 : end;

		if (!strncmp(p, "sfen ", 5)) {
			if (!first)
				first = p;
			if (n == cap) {
				cap = cap ? cap * 2 : 1 << 16;
				if (!(e = realloc(e, cap * sizeof(*e))))
					return 2;
			}
			e[n].key = (const unsigned char *)p + 5;
			e[n].w = 0;
			e[n].text = p;
			e[n].len = 0;
			n++;
		}
		if (n)
			e[n - 1].len += (size_t)(next - p);
		p = next;
	}
	if (!n || first - book > 65536) {
		fprintf(stderr, "book_floor: %s: no entries\n", argv[1]);
		return 2;
	}
	for (i = n - 1; i > 0; i--)
		swap(&e[i], &e[next_rand(&seed) % (i + 1)]);
	/*
	 * The entries as a build has them: each made when a game first
	 * reached it, so laid out in that order, one after the other.
	 */
	if (!(arr = malloc(len + 1)))
		return 2;
	for (i = 0, fill = 0; i < n; i++) {
		memcpy(arr + fill, e[i].text, e[i].len);
		e[i].key = (const unsigned char *)arr + fill + 5;
		e[i].text = arr + fill;
		fill += e[i].len;
	}
	/* What comes before the first entry (the header line), as it was. */
	hlen = (size_t)(first - book);
	if (!(header = malloc(hlen + 1)))
		return 2;
	memcpy(header, book, hlen);
	free(book);
	if (!(o.buf = malloc(65536)))
		return 2;
	unlink(argv[2]);
	if ((o.fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0) {
		perror(argv[2]);
		return 2;
	}

	t0 = now_ns();
	for (i = 0; i < n; i++)
		e[i].w = word_at(e[i].key, 0);
	mkqs(e, n, 0);
	t1 = now_ns();
	if (put(&o, header, hlen) < 0)
		return 2;
	for (i = 0; i < n; i++)
		if (put(&o, e[i].text, e[i].len) < 0)
			return 2;
	if ((o.fill && write(o.fd, o.buf, o.fill) != (ssize_t)o.fill) ||
	    close(o.fd))
		return 2;
	t2 = now_ns();

	printf("%llu %llu %zu\n", (unsigned long long)((t1 - t0) / 1000000),
	    (unsigned long long)((t2 - t1) / 1000000), n);
	free(header);
	free(o.buf);
	free(e);
	free(arr);
	return 0;
}
