/*
 * queryopts.h - find's criteria and the record selection (query/) as
 * options of the commands: each call as its query/ function, with what
 * it refuses printed (a usage error with `usage`'s synopsis, or an
 * error). They return what those return, EXIT_TROUBLE for a refusal.
 */
#ifndef KIFU_CMD_QUERYOPTS_H
#define KIFU_CMD_QUERYOPTS_H

#include "query/filter.h"
#include "query/select.h"

int cmd_filter_take(struct filter *f, int opt, const char *arg,
    const char *usage);
int cmd_filter_finish(struct filter *f, const struct limits *lim,
    const char *usage);
int cmd_select_take(struct select_opts *o, int opt, const char *arg,
    const char *usage);
int cmd_position_from_usi(const char *src, const char *opt,
    struct position *pos);

#endif /* KIFU_CMD_QUERYOPTS_H */
