/*
 * tagopts.h - the option every command that names openings takes
 * (tag, stats, find, index): --definitions FILE, a user's definitions
 * over kifu's own (tags/defs.h).
 */
#ifndef KIFU_CMD_TAGOPTS_H
#define KIFU_CMD_TAGOPTS_H

#include "tags/defs.h"

enum { OPT_TAG_DEFINITIONS = 0x1c0 };

#define TAG_DEFS_LONGOPT \
	{ "definitions", required_argument, NULL, OPT_TAG_DEFINITIONS }

#define TAG_DEFS_HELP \
    "    --definitions <file>\n" \
    "                         openings and castles defined in <file> too:\n" \
    "                         they add to kifu's own, and one of a name\n" \
    "                         kifu has replaces kifu's (kifu tag\n" \
    "                         --print-definitions shows them; the format:\n" \
    "                         doc/openings.md)\n"

/*
 * The definitions to name with: kifu's own (file NULL), or kifu's own
 * and the file's. Errors are printed (FILE:LINE:COL); NULL after one.
 * Free with tagopts_free (kifu's own alone are shared, never freed).
 */
const struct tagdefs *tagopts_load(const char *file);
/*
 * The same from a file's text already read (text NULL: kifu's own);
 * errors name `name`. With text_out, the file's text (owned by the
 * caller) is kept for it: what an index stores.
 */
const struct tagdefs *tagopts_from_text(const char *name, const char *text,
    size_t n);
const struct tagdefs *tagopts_load_text(const char *file, char **text_out);
void tagopts_free(const struct tagdefs *d);

#endif /* KIFU_CMD_TAGOPTS_H */
