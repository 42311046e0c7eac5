/*
 * scratch.h - a scratch directory for the unit tests that write files
 * (an index, training rows): made by the group's setup, removed with
 * everything in it by its teardown.
 */
#ifndef KIFU_TESTS_SCRATCH_H
#define KIFU_TESTS_SCRATCH_H

#include <stdio.h>
#include <stdlib.h>

static char scratch_dir[64];

/* name in the scratch directory; the last four answers stay valid. */
static inline const char *
in_dir(const char *name)
{
	static char buf[4][128];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", scratch_dir, name);
	return buf[k];
}

static inline int
scratch_setup(void **state)
{
	(void)state;
	snprintf(scratch_dir, sizeof(scratch_dir), "/tmp/kifu-test.XXXXXX");
	return mkdtemp(scratch_dir) ? 0 : -1;
}

static inline int
scratch_teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch_dir);
	return system(cmd);
}

#endif /* KIFU_TESTS_SCRATCH_H */
