/*
 * tagopts.c - --definitions FILE (tagopts.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "tagopts.h"
#include "api/input.h"

const struct tagdefs *
tagopts_load(const char *file)
{
	struct diag_list dl = DIAG_LIST_INIT;
	struct strbuf data = STRBUF_INIT;
	struct tagdefs *d;

	if (!file)
		return tagdefs_default();
	if (input_read(file, &data) < 0) {
		cmd_error("cannot read '%s': %s", file, strerror(errno));
		strbuf_release(&data);
		return NULL;
	}
	if (data.len > TAG_DEFS_MAX_BYTES) {
		cmd_error("'%s': a definitions file of more than %d bytes",
		    file, TAG_DEFS_MAX_BYTES);
		strbuf_release(&data);
		return NULL;
	}
	d = tagdefs_new();
	if (tagdefs_load_builtin(d, &dl) ||
	    tagdefs_load(d, file, data.buf, data.len, &dl) ||
	    tagdefs_compile(d, &dl)) {
		cmd_print_diags(file, &dl);
		tagdefs_free(d);
		d = NULL;
	}
	diag_list_release(&dl);
	strbuf_release(&data);
	return d;
}

void
tagopts_free(const struct tagdefs *d)
{
	if (d && d != tagdefs_default())
		tagdefs_free((struct tagdefs *)d);
}
