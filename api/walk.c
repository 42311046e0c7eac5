/*
 * walk.c - the walk `kifu check` makes, through the library (kifu.h:
 * kifu_walk_*): every record file under a path, directories in name
 * order, archives read in place, pulled a file at a time
 * (walk/walk.h's iterator), so that memory does not grow with the
 * number of files.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "api/libkifu.h"
#include "core/core.h"
#include "core/xalloc.h"
#include "walk/walk.h"

struct kifu_walk {
	struct walk w;
	char *path;
	struct judge j;		/* says whether a probed file is a record */
	struct strbuf copy;	/* what the judge may take of a probed file */
};

API int
kifu_walk_open(const char *path, const kifu_options *o, kifu_walk **out,
    kifu_error **err)
{
	struct api_opts defaults;
	struct judge_opts jo;
	struct kifu_walk *k;
	struct stat st;

	*out = NULL;
	api_ok(err);
	if (!path)
		return api_fail(err, KIFU_ERR_ARG, NULL, "usage", "no path");
	if (strcmp(path, "-") && stat(path, &st) < 0)
		return api_fail(err, KIFU_ERR_IO, path, "io", "cannot read "
		    "'%s': %s", path, strerror(errno));
	core_init();
	k = xcalloc(1, sizeof(*k));
	k->path = xstrndup(path, strlen(path));
	walk_init(&k->w, NULL);
	k->w.all_files = api_options(o, &defaults)->all_files;
	walk_start(&k->w, k->path);
	memset(&jo, 0, sizeof(jo));
	judge_init(&k->j, &jo);
	strbuf_init(&k->copy);
	*out = k;
	return KIFU_OK;
}

API void
kifu_walk_free(kifu_walk *k)
{
	if (!k)
		return;
	walk_release(&k->w);
	judge_release(&k->j);
	strbuf_release(&k->copy);
	free(k->path);
	free(k);
}

/* A file whose name says nothing: whether it is certainly a record. */
static int
is_record(struct kifu_walk *k, const char *name, const struct strbuf *data)
{
	struct judge_input in;

	strbuf_reset(&k->copy);
	strbuf_add(&k->copy, data->buf ? data->buf : "", data->len);
	return judge_open(&k->j, &in, name, &k->copy, JUDGE_PROBE) ==
	    JUDGE_READY;
}

/* A path passed over on purpose: a warning with its name. */
static int
skipped(kifu_error **err, const char *name, const char *why)
{
	struct diag d;
	char msg[64];

	if (!err)
		return KIFU_ERR_IO;
	memset(&d, 0, sizeof(d));
	d.severity = DIAG_WARNING;
	d.id = "skipped";
	snprintf(msg, sizeof(msg), "passed over: %s", why);
	d.message = msg;
	*err = api_error_from_diag(name, &d);
	return KIFU_ERR_IO;
}

API int
kifu_walk_next(kifu_walk *k, const char **name, const void **data,
    size_t *len, kifu_error **err)
{
	struct walk_event ev;

	*name = NULL;
	*data = NULL;
	*len = 0;
	api_ok(err);
	for (;;) {
		switch (walk_next(&k->w, &ev)) {
		case WALK_END:
			return 0;
		case WALK_FILE:
			if (ev.probe && !is_record(k, ev.name, ev.data))
				continue;
			*name = ev.name;
			*data = ev.data->buf ? ev.data->buf : "";
			*len = ev.data->len;
			return 1;
		case WALK_FAIL:
			return api_fail(err, KIFU_ERR_IO, ev.name, "io", "cannot "
			    "read '%s': %s", ev.name, ev.why);
		case WALK_SKIP:
			return skipped(err, ev.name, ev.why);
		default:	/* WALK_IGNORE; no WALK_PATH without a sink */
			continue;
		}
	}
}
