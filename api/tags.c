/*
 * tags.c - `kifu tag` through the library (kifu.h: kifu_definitions_*,
 * kifu_record_tags): a record's openings and castles named by
 * tags/tagger.c from the record api/kifu.c judged, as JSON.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "api/input.h"
#include "api/libkifu.h"
#include "core/core.h"
#include "core/xalloc.h"
#include "tags/defs.h"
#include "tags/report.h"
#include "tags/tagger.h"

struct kifu_definitions {
	const struct tagdefs *d;
};

API int
kifu_definitions_read(const char *path, kifu_definitions **out,
    kifu_error **err)
{
	struct strbuf data = STRBUF_INIT;
	struct diag_list dl;
	const struct tagdefs *d;
	const char *name;
	int rc = KIFU_OK;

	*out = NULL;
	api_ok(err);
	if (!path)
		return api_fail(err, KIFU_ERR_ARG, NULL, "usage", "no path");
	core_init();
	name = input_display_name(path);
	if (input_read(path, &data) < 0) {
		rc = api_fail(err, KIFU_ERR_IO, name, "io", "cannot read "
		    "'%s': %s", name, strerror(errno));
		strbuf_release(&data);
		return rc;
	}
	if (data.len > TAGDEFS_MAX_BYTES) {
		strbuf_release(&data);
		return api_fail(err, KIFU_ERR_READ, name, "limit",
		    "a definitions file of more than %d bytes",
		    TAGDEFS_MAX_BYTES);
	}
	diag_list_init(&dl);
	if (!(d = tagdefs_over_builtin(name, data.buf, data.len, &dl))) {
		const struct diag *e = diag_first_error(&dl);

		if (err && e)
			*err = api_error_from_diag(name, e);
		else if (!e)
			api_fail(err, KIFU_ERR_READ, name, "syntax",
			    "not a definitions file");
		rc = KIFU_ERR_READ;
	} else {
		*out = xmalloc(sizeof(**out));
		(*out)->d = d;
	}
	diag_list_release(&dl);
	strbuf_release(&data);
	return rc;
}

API void
kifu_definitions_free(kifu_definitions *d)
{
	if (!d)
		return;
	tagdefs_put(d->d);
	free(d);
}

API int
kifu_record_tags(const kifu_record *r, const kifu_definitions *defs,
    char **out, kifu_error **err)
{
	const struct tagdefs *d;
	const struct tag_result *res;
	struct api_judged j;
	struct tagger *t;
	struct strbuf sb = STRBUF_INIT, members = STRBUF_INIT;

	*out = NULL;
	api_ok(err);
	api_record_judged(r, &j);
	if (!j.r)
		return api_fail(err, KIFU_ERR_READ, NULL, "syntax",
		    "record %d could not be read", j.index + 1);
	core_init();
	d = defs ? defs->d : tagdefs_default();
	t = tagger_new(d);
	res = tagger_replayed(t, j.r);
	tags_json(d, res, &members);
	tagger_free(t);
	/* The members come as ", \"named\": ...": into an object. */
	strbuf_addc(&sb, '{');
	strbuf_adds(&sb, members.len > 2 ? members.buf + 2 : "");
	strbuf_addc(&sb, '}');
	strbuf_release(&members);
	*out = strbuf_detach(&sb, NULL);
	return KIFU_OK;
}
