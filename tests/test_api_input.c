/*
 * Reading inputs whole (api/input.c): a file read by its name in its
 * directory, taking a short read as the end or not, must come out the
 * same bytes at every size around the reader's block (65536), into a
 * fresh buffer and into one a bigger or smaller file left behind.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"
#include "api/input.h"

static char dir[] = "/tmp/kifu-input-XXXXXX";

static const size_t sizes[] = {
	0, 1, 2, 4095, 4096, 65534, 65535, 65536, 65537, 131072, 131073,
	300001,
};
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

/* File i's bytes: a pattern that no shift of it repeats in 251 bytes. */
static char *
content(size_t i)
{
	char *b = malloc(sizes[i] + 1);
	size_t k;

	assert_non_null(b);
	for (k = 0; k < sizes[i]; k++)
		b[k] = (char)('a' + (k * 7 + i) % 251 % 26);
	return b;
}

static int
setup(void **state)
{
	char name[32];
	size_t i;

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	for (i = 0; i < NSIZES; i++) {
		char *b = content(i);
		FILE *f;

		snprintf(name, sizeof(name), "%s/f%zu", dir, i);
		if (!(f = fopen(name, "wb")) ||
		    fwrite(b, 1, sizes[i], f) != sizes[i] || fclose(f))
			return -1;
		free(b);
	}
	snprintf(name, sizeof(name), "%s/sub", dir);
	return mkdir(name, 0700);
}

static int
teardown(void **state)
{
	char name[32];
	size_t i;

	(void)state;
	for (i = 0; i < NSIZES; i++) {
		snprintf(name, sizeof(name), "%s/f%zu", dir, i);
		unlink(name);
	}
	snprintf(name, sizeof(name), "%s/sub", dir);
	rmdir(name);
	rmdir(dir);
	return 0;
}

static void
expect_file(int dfd, size_t i, int short_is_end, struct strbuf *sb)
{
	char name[16], *want = content(i);

	snprintf(name, sizeof(name), "f%zu", i);
	if (input_read_at(dfd, name, short_is_end, sb) != 0)
		fail_msg("%s: %s", name, strerror(errno));
	if (sb->len != sizes[i] || memcmp(sb->buf, want, sizes[i]) != 0 ||
	    sb->buf[sb->len] != '\0')
		fail_msg("%s (short_is_end %d): %zu bytes read of %zu", name,
		    short_is_end, sb->len, sizes[i]);
	free(want);
}

static void
test_every_size_both_ways(void **state)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY), e;
	size_t i, j;

	(void)state;
	assert_true(dfd >= 0);
	for (e = 0; e < 2; e++)
		for (i = 0; i < NSIZES; i++) {
			struct strbuf sb = STRBUF_INIT;

			expect_file(dfd, i, e, &sb);
			/* The buffer a batch run keeps from the file before. */
			for (j = 0; j < NSIZES; j++) {
				expect_file(dfd, j, e, &sb);
				expect_file(dfd, i, e, &sb);
			}
			strbuf_release(&sb);
		}
	close(dfd);
}

static void
test_errors(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	int dfd = open(dir, O_RDONLY | O_DIRECTORY), e;

	(void)state;
	assert_true(dfd >= 0);
	for (e = 0; e < 2; e++) {
		errno = 0;
		assert_int_equal(input_read_at(dfd, "missing", e, &sb), -1);
		assert_int_equal(errno, ENOENT);
		/* A directory listed as a file (a race): no bytes, an error. */
		errno = 0;
		assert_int_equal(input_read_at(dfd, "sub", e, &sb), -1);
		assert_int_equal(errno, EISDIR);
	}
	strbuf_release(&sb);
	/* Unsure is no. */
	assert_int_equal(input_short_read_is_end(-1), 0);
	e = input_short_read_is_end(dfd);
	assert_true(e == 0 || e == 1);
	close(dfd);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_size_both_ways),
		cmocka_unit_test(test_errors),
	};

	(void)argc;
	(void)argv;
	return cmocka_run_group_tests_name("api/input", tests, setup,
	    teardown);
}
