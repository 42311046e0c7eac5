/*
 * queryopts.c - the options of find's criteria and of the record
 * selection (query/filter.h, query/select.h) for the commands that take
 * them, with what they refuse printed.
 */
#include "cmd.h"
#include "queryopts.h"
#include "core/parse.h"

/* 1 or 0 as the call said, else its message printed and EXIT_TROUBLE. */
static int
said(int rc, struct strbuf *why, const char *usage)
{
	if (rc < 0)
		rc = cmd_opt_error(rc, why, usage);
	strbuf_release(why);
	return rc;
}

int
cmd_filter_take(struct filter *f, int opt, const char *arg,
    const char *usage)
{
	struct strbuf why = STRBUF_INIT;

	return said(filter_take(f, opt, arg, &why), &why, usage);
}

int
cmd_filter_finish(struct filter *f, const struct limits *lim,
    const char *usage)
{
	struct strbuf why = STRBUF_INIT;

	return said(filter_finish(f, lim, &why), &why, usage);
}

int
cmd_select_take(struct select_opts *o, int opt, const char *arg,
    const char *usage)
{
	struct strbuf why = STRBUF_INIT;

	return said(select_take(o, opt, arg, &why), &why, usage);
}

int
cmd_position_from_usi(const char *src, const char *opt, struct position *pos)
{
	struct strbuf why = STRBUF_INIT;

	return said(position_from_usi(src, opt, pos, &why), &why, NULL);
}
