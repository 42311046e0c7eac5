/*
 * libkifu.h - what the files that implement include/kifu/kifu.h share
 * with api/kifu.c, which owns the objects: its errors, the options the
 * subsystems beside it take (api/options.c parses them), and what a
 * kifu_record keeps of its judging. Private: no program sees it.
 *
 * The pictures (api/picture.c), books (api/book.c), statistics
 * (api/stats.c), the walk (api/walk.c) and the openings and castles
 * (api/tags.c) each live in a file of their own over these.
 */
#ifndef KIFU_API_LIBKIFU_H
#define KIFU_API_LIBKIFU_H

#include <stdint.h>

#include "kifu/kifu.h"

#include "api/judge.h"
#include "book/book.h"
#include "core/diag.h"

/* The visibility a public function needs in libkifu.so. */
#define API __attribute__((visibility("default")))

/*
 * A kifu_error of the API's own (a bad argument, an I/O error) into
 * *err when err is not NULL; id is static; file NULL shows "kifu".
 * Returns status.
 */
int api_fail(kifu_error **err, int status, const char *file, const char *id,
    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* A kifu_error for a diagnostic (its id static), shown in file. */
kifu_error *api_error_from_diag(const char *file, const struct diag *d);
/*
 * What a reader of the file at path (a book, a shard of statistics)
 * answered, as kifu.h's status: rc < 0, it could not be read (errno:
 * KIFU_ERR_IO); > 0, d's first error (KIFU_ERR_READ); else KIFU_OK. The
 * file is shown as path, "-" as "<stdin>".
 */
int api_read_status(int rc, const char *path, const struct diag_list *d,
    kifu_error **err);

static inline void
api_ok(kifu_error **err)
{
	if (err)
		*err = NULL;
}

/* `kifu show`'s options. */
struct api_show {
	int flip;		/* 1, 0; -1: as the record says */
	int size;		/* the picture's width */
	int ascii, colour, moves;	/* the terminal board */
	int64_t delay_ms;	/* GIF */
	double real_time;	/* GIF; 0: off */
};

/* The options of kifu_options that the files beside kifu.c take. */
struct api_opts {
	struct api_show show;
	struct book_opts book;	/* with its selection (book.so) */
	int all_files;		/* the walk */
};

void api_opts_init(struct api_opts *x);
/*
 * Takes one option by its name: 1 taken, 0 not one of these, -1 a value
 * the key does not take.
 */
int api_opts_set(struct api_opts *x, const char *key, const char *value);

/* Those of o; for NULL, *defaults set to the defaults. */
const struct api_opts *api_options(const kifu_options *o,
    struct api_opts *defaults);
/* "ply" of o (-1: none, the last position), -1 for NULL. */
int api_options_ply(const kifu_options *o);
/* The options the record's file was read with. */
const kifu_options *api_record_options(const kifu_record *k);

/* What a record keeps of its judging; every pointer belongs to it. */
struct api_judged {
	enum verdict_status status;
	int index;			/* in its file, from 0 */
	const struct record *r;		/* replayed; NULL: unreadable */
	const struct replay *rp;	/* NULL: unreadable */
	const struct adjudication *adj;	/* NULL: unreadable */
	const kifu_error *error;	/* the first error, or NULL */
};

void api_record_judged(const kifu_record *k, struct api_judged *out);

#endif /* KIFU_API_LIBKIFU_H */
