/*
 * trainformats.h - the table of training-row formats (parsers/train.h)
 * and how one is chosen.
 */
#ifndef KIFU_API_TRAINFORMATS_H
#define KIFU_API_TRAINFORMATS_H

#include "parsers/train.h"

/* NULL for an unknown name. */
const struct train_format *train_formats_by_name(const char *name);
/* The format whose extension the file name has, or NULL. */
const struct train_format *train_formats_by_ext(const char *filename);
/* "hcpe, hcpe3, psv, hcp, sfen": the names, for messages. */
const char *train_formats_names(void);
/* The names of the formats that can be read back (kifu dump). */
const char *train_formats_readable(void);

#endif /* KIFU_API_TRAINFORMATS_H */
