/*
 * book.c - opening books through the library (kifu.h: kifu_book_*):
 * built from judged records one by one as `kifu book build` builds them
 * (book/build.c), combined with books read as `kifu book merge` does,
 * written as YaneuraOu's text, and a position looked up in a book file
 * as `kifu book query` does.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "api/libkifu.h"
#include "api/output.h"
#include "core/core.h"
#include "core/xalloc.h"
#include "query/filter.h"

struct kifu_book {
	struct book b;
	char *tmpdir;		/* where runs spill: $TMPDIR, else /tmp */
	int books_read;
	int written;		/* the table is gone: nothing more to do */
};

static const char *
tmp_dir(void)
{
	const char *t = getenv("TMPDIR");

	return t && *t ? t : "/tmp";
}

API int
kifu_book_new(const kifu_options *o, kifu_book **out, kifu_error **err)
{
	struct api_opts defaults;
	struct book_opts bo = api_options(o, &defaults)->book;
	struct kifu_book *k;
	const char *t = tmp_dir();

	api_ok(err);
	core_init();
	k = xcalloc(1, sizeof(*k));
	k->tmpdir = xstrndup(t, strlen(t));
	bo.tmpdir = k->tmpdir;
	bo.unreadable = NULL;
	book_init(&k->b, &bo);
	*out = k;
	return KIFU_OK;
}

API void
kifu_book_free(kifu_book *k)
{
	if (!k)
		return;
	book_release(&k->b);
	free(k->tmpdir);
	free(k);
}

static int
written(const struct kifu_book *k, kifu_error **err)
{
	return k->written ? api_fail(err, KIFU_ERR_ARG, NULL, "usage",
	    "the book has been written: its table is gone") : 0;
}

/* What a failed add or read left in b->error. */
static int
table_failed(struct kifu_book *k, kifu_error **err)
{
	if (k->b.error == EOVERFLOW)
		return api_fail(err, KIFU_ERR_WRITE, NULL, "book-overflow",
		    "the counts or evaluations of %s add up past %lld",
		    k->b.agg.overflow, LLONG_MAX);
	return api_fail(err, KIFU_ERR_IO, k->tmpdir, "io", "cannot write a "
	    "temporary run in %s: %s", k->tmpdir, strerror(k->b.error));
}

API int
kifu_book_add(kifu_book *k, const kifu_record *r, kifu_error **err)
{
	long long used = k->b.used, why[BOOK_WHY_NB];
	struct api_judged j;
	int i;

	api_ok(err);
	if (written(k, err))
		return KIFU_ERR_ARG;
	api_record_judged(r, &j);
	memcpy(why, k->b.why, sizeof(why));
	if (book_add_record(&k->b, j.status, j.r, j.rp, j.adj) < 0)
		return table_failed(k, err);
	if (k->b.used > used)
		return KIFU_OK;
	for (i = 1; i < BOOK_WHY_NB && k->b.why[i] == why[i]; i++)
		;
	return api_fail(err, KIFU_ERR_SKIP, NULL, book_why_name(i), "record "
	    "%d not in the book: %s", j.index + 1, book_why_name(i));
}

API int
kifu_book_read(kifu_book *k, const char *path, kifu_error **err)
{
	struct diag_list d;
	int rc;

	api_ok(err);
	if (written(k, err))
		return KIFU_ERR_ARG;
	if (!path)
		return api_fail(err, KIFU_ERR_ARG, NULL, "usage", "no path");
	diag_list_init(&d);
	rc = book_read(&k->b, path, k->books_read++ == 0, &d);
	if (rc < 0 && k->b.error)
		rc = table_failed(k, err);
	else
		rc = api_read_status(rc, path, &d, err);
	diag_list_release(&d);
	return rc;
}

/* The book's bytes out; the table is gone after, whatever happened. */
static int
write_out(struct kifu_book *k, book_sink_fn put, void *ctx,
    const char *shown, kifu_error **err)
{
	enum book_write_status st = book_write_to(&k->b, put, ctx);

	k->written = 1;
	switch (st) {
	case BOOK_WRITTEN:
		return KIFU_OK;
	case BOOK_WRITE_FAILED:
		return api_fail(err, KIFU_ERR_IO, shown, "io", "cannot write "
		    "'%s': %s", shown, strerror(k->b.error));
	default:
		return table_failed(k, err);
	}
}

static int
to_strbuf(void *ctx, const void *data, size_t n)
{
	strbuf_add(ctx, data, n);
	return 0;
}

API int
kifu_book_write(kifu_book *k, char **out, size_t *len, kifu_error **err)
{
	struct strbuf sb = STRBUF_INIT;
	int rc;

	*out = NULL;
	if (len)
		*len = 0;
	api_ok(err);
	if (written(k, err))
		return KIFU_ERR_ARG;
	if ((rc = write_out(k, to_strbuf, &sb, "<memory>", err)) == KIFU_OK)
		*out = strbuf_detach(&sb, len);
	strbuf_release(&sb);
	return rc;
}

static int
to_stream(void *ctx, const void *data, size_t n)
{
	return output_stream_write(ctx, data, n);
}

API int
kifu_book_write_file(kifu_book *k, const char *path, int replace,
    kifu_error **err)
{
	struct output_stream s;
	int rc;

	api_ok(err);
	if (written(k, err))
		return KIFU_ERR_ARG;
	if (!path || !strcmp(path, "-"))
		return api_fail(err, KIFU_ERR_ARG, NULL, "usage", "a book is "
		    "written to a file, not '%s'", path ? path : "");
	if (output_stream_open_untracked(&s, path, replace, -1) < 0)
		return api_fail(err, KIFU_ERR_IO, path, "io", "cannot write "
		    "'%s': %s%s", path, strerror(errno), errno == EEXIST ?
		    " (not replaced)" : "");
	if ((rc = write_out(k, to_stream, &s, path, err)) != KIFU_OK) {
		output_stream_abort(&s);
		return rc;
	}
	if (output_stream_commit(&s) < 0)
		return api_fail(err, KIFU_ERR_IO, path, "io", "cannot write "
		    "'%s': %s", path, strerror(errno));
	return KIFU_OK;
}

API long long
kifu_book_count(const kifu_book *k, const char *what)
{
	const struct book *b = &k->b;
	int i;

	if (!what)
		return -1;
	if (!strcmp(what, "records"))
		return b->records;
	if (!strcmp(what, "used"))
		return b->used;
	if (!strcmp(what, "plies"))
		return b->plies;
	if (!strcmp(what, "positions"))
		return b->positions;
	if (!strcmp(what, "moves"))
		return b->moves;
	for (i = 1; i < BOOK_WHY_NB; i++)
		if (!strcmp(what, book_why_name(i)))
			return b->why[i];
	return -1;
}

API int
kifu_book_query(const char *path, const char *position, char **out,
    kifu_error **err)
{
	struct strbuf src = STRBUF_INIT, why = STRBUF_INIT;
	struct diag_list d;
	struct book_opts bo;
	struct position pos;
	struct book b;
	int rc;

	*out = NULL;
	api_ok(err);
	if (!path || !position)
		return api_fail(err, KIFU_ERR_ARG, NULL, "usage", "a book and a "
		    "position are needed");
	core_init();
	/* A bare SFEN, as --sfen takes it, or a USI position, as --usi. */
	if (strncmp(position, "sfen ", 5) && strncmp(position, "startpos", 8))
		strbuf_adds(&src, "sfen ");
	strbuf_adds(&src, position);
	rc = position_from_usi(src.buf, "position", &pos, &why);
	strbuf_release(&src);
	if (rc) {
		rc = api_fail(err, KIFU_ERR_ARG, NULL, "usage", "%s",
		    why.buf ? why.buf : "not a position");
		strbuf_release(&why);
		return rc;
	}
	strbuf_release(&why);
	book_opts_init(&bo);
	bo.tmpdir = tmp_dir();
	book_init(&b, &bo);
	diag_list_init(&d);
	switch (book_query(&b, path, &pos, &d)) {
	case 1:
		book_query_text(&b, &why);
		*out = strbuf_detach(&why, NULL);
		rc = 1;
		break;
	case 0:
		rc = 0;
		break;
	case 2:		/* an error in the book */
		rc = api_read_status(1, path, &d, err);
		break;
	default:
		rc = api_read_status(-1, path, &d, err);
		break;
	}
	diag_list_release(&d);
	book_release(&b);
	return rc;
}
