/*
 * example-walk.c - walk a directory or an archive as kifu check does,
 * count every record's result as kifu stats does and build an opening
 * book of them as kifu book build does.
 *
 *	cc example-walk.c $(pkg-config --cflags --libs kifu) -o example-walk
 *	./example-walk games/ book.db
 */
#include <stdio.h>

#include <kifu/kifu.h>

/* Prints an error the library returned, and frees it. */
static int
report(kifu_error *e)
{
	fprintf(stderr, "%s\n", kifu_error_message(e));
	kifu_error_free(e);
	return 1;
}

int
main(int argc, char **argv)
{
	kifu_walk *w;
	kifu_stats *s;
	kifu_book *b;
	kifu_error *e;
	const char *name;
	const void *data;
	size_t len, i;
	int rc, status = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: example-walk PATH BOOK\n");
		return 2;
	}
	if (kifu_walk_open(argv[1], NULL, &w, &e) != KIFU_OK)
		return report(e) + 1;
	kifu_stats_new("none", &s, NULL);
	kifu_book_new(NULL, &b, NULL);
	/* A file that cannot be read is reported, and the walk goes on. */
	while ((rc = kifu_walk_next(w, &name, &data, &len, &e)) != 0) {
		kifu_file *f;

		if (rc < 0 || kifu_read_buffer(data, len, name, NULL, &f,
		    &e) != KIFU_OK) {
			status = report(e);
			continue;
		}
		for (i = 0; i < kifu_file_count(f); i++) {
			const kifu_record *r = kifu_file_record(f, i);

			/* A record that could not be read counts nowhere. */
			if (kifu_stats_add(s, r, NULL) != KIFU_OK)
				continue;
			/* Left out of the book: the error's id says why. */
			rc = kifu_book_add(b, r, &e);
			if (rc == KIFU_ERR_SKIP)
				kifu_error_free(e);
			else if (rc != KIFU_OK)
				status = report(e);
		}
		kifu_file_free(f);
	}
	kifu_walk_free(w);
	/* Written whole or not at all, replacing an older book. */
	if (kifu_book_write_file(b, argv[2], 1, &e) != KIFU_OK)
		status = report(e);
	printf("%lld records; %s: %lld positions, %lld moves from %lld "
	    "records\n", kifu_stats_records(s), argv[2],
	    kifu_book_count(b, "positions"), kifu_book_count(b, "moves"),
	    kifu_book_count(b, "used"));
	kifu_book_free(b);
	kifu_stats_free(s);
	return status;
}
