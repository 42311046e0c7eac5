/*
 * formats.h - the table of record formats and how one is chosen.
 */
#ifndef KIFU_API_FORMATS_H
#define KIFU_API_FORMATS_H

#include "parsers/format.h"

/* NULL for an unknown name; knows aliases ("sfen" reads as usi). */
const struct format *formats_by_name(const char *name);
/* The format whose extension the file name has, or NULL. */
const struct format *formats_by_ext(const char *filename);
/* Whether f lists the file name's extension as one of its own. */
int formats_owns_ext(const struct format *f, const char *filename);
/*
 * The format whose detector is surest of t; the file name's extension
 * breaks ties. NULL when no detector scores at least 1. *score (when
 * not NULL) gets the winner's score, 0 to 100.
 */
const struct format *formats_detect(const struct text *t,
    const char *filename, int *score);

/* A detection this sure reads a file whose name says nothing. */
#define FORMATS_CERTAIN 90

/* What a file's name says of it, when a walk meets it. */
enum formats_name {
	NAME_RECORD,	/* a record format's extension, in any case */
	NAME_PROBE,	/* none, or one other files share (.json) */
	NAME_OTHER	/* another kind of file (.md, .txt, .hcpe) */
};
enum formats_name formats_classify_name(const char *filename);
/* "csa, usi, sfen": the names, for messages. */
const char *formats_names(void);

#endif /* KIFU_API_FORMATS_H */
