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
tagopts_from_text(const char *name, const char *text, size_t n)
{
	struct diag_list dl = DIAG_LIST_INIT;
	const struct tagdefs *d = tagdefs_over_builtin(name, text, n, &dl);

	if (!d)
		cmd_print_diags(name, &dl);
	diag_list_release(&dl);
	return d;
}

const struct tagdefs *
tagopts_load_text(const char *file, char **text_out)
{
	struct strbuf data = STRBUF_INIT;
	const struct tagdefs *d;

	if (text_out)
		*text_out = NULL;
	if (!file)
		return tagdefs_default();
	if (input_read(file, &data) < 0) {
		cmd_error("cannot read '%s': %s", file, strerror(errno));
		strbuf_release(&data);
		return NULL;
	}
	if (data.len > TAGDEFS_MAX_BYTES) {
		cmd_error("'%s': a definitions file of more than %d bytes",
		    file, TAGDEFS_MAX_BYTES);
		strbuf_release(&data);
		return NULL;
	}
	d = tagopts_from_text(file, data.buf, data.len);
	if (d && text_out)
		*text_out = strbuf_detach(&data, NULL);
	strbuf_release(&data);
	return d;
}

const struct tagdefs *
tagopts_load(const char *file)
{
	return tagopts_load_text(file, NULL);
}

void
tagopts_free(const struct tagdefs *d)
{
	tagdefs_put(d);
}
