/*
 * trainformats.c - every training-row format kifu knows, in one table.
 *
 * Adding a format:
 *   1. parsers/<fmt>.c (reader) and writers/<fmt>.c (writer), declared
 *      in parsers/train.h;
 *   2. a row below;
 *   3. golden rows in testdata/training/, tests in
 *      tests/test_writers_train.c and tests/test_parsers_train.c, a
 *      section of doc/training.md.
 */
#include <string.h>
#include <strings.h>

#include "api/trainformats.h"

static const char *const hcpe_ext[] = { ".hcpe", NULL };
static const char *const hcpe3_ext[] = { ".hcpe3", NULL };
/* YaneuraOu's learner calls its files .bin; .psv says what they are. */
static const char *const psv_ext[] = { ".psv", ".bin", NULL };
static const char *const hcp_ext[] = { ".hcp", NULL };
static const char *const sfen_ext[] = { ".txt", NULL };

static const struct train_format table[] = {
	{ "hcpe", hcpe_ext, 38, 1, hcpe_write, hcpe_read },
	{ "hcpe3", hcpe3_ext, 0, 1, hcpe3_write, hcpe3_read },
	{ "psv", psv_ext, 40, 1, psv_write, psv_read },
	{ "hcp", hcp_ext, POSCODE_BYTES, 1, hcp_write, hcp_read },
	{ "sfen", sfen_ext, 0, 0, sfen_rows_write, NULL },
};

#define NFORMATS (sizeof(table) / sizeof(table[0]))

const struct train_format *
train_formats_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < NFORMATS; i++)
		if (strcasecmp(table[i].name, name) == 0)
			return &table[i];
	return NULL;
}

const struct train_format *
train_formats_by_ext(const char *filename)
{
	const char *dot = filename ? strrchr(filename, '.') : NULL;
	size_t i, j;

	for (i = 0; dot && i < NFORMATS; i++)
		for (j = 0; table[i].extensions[j]; j++)
			if (strcasecmp(dot, table[i].extensions[j]) == 0)
				return &table[i];
	return NULL;
}

const char *
train_formats_names(void)
{
	return "hcpe, hcpe3, psv, hcp, sfen";
}

const char *
train_formats_readable(void)
{
	return "hcpe, hcpe3, psv, hcp";
}
