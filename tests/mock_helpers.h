/*
 * mock_helpers.h - for the unit tests that start the mock engine
 * (tests/mock_engine.c --pidfile FILE --log FILE): a directory of the
 * test's own for those files, the mock's command line, what it was sent,
 * and every pid it wrote gone after a test, not left a zombie of the
 * test's process.
 */
#ifndef KIFU_TESTS_MOCK_HELPERS_H
#define KIFU_TESTS_MOCK_HELPERS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"

/*
 * Whether pid is gone: no process, or (for a grandchild, which the
 * machine's init may never reap) a zombie that is not ours. Waits up to
 * two seconds for it.
 */
static inline int
mock_pid_gone(pid_t pid)
{
	char path[64], buf[512];
	FILE *f;
	int i;

	for (i = 0; i < 200; i++) {
		char state = 0;
		long ppid = 0;
		char *p;

		snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
		if (!(f = fopen(path, "r")))
			return 1;
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
		p = strrchr(buf, ')');
		if (p && sscanf(p + 1, " %c %ld", &state, &ppid) == 2 &&
		    state == 'Z' && ppid != (long)getpid())
			return 1;
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	}
	return 0;
}

/* Fails the test for a pid of the file left running or unreaped; the
   file is removed. Returns how many pids it held. */
static inline int
mock_pids_check(const char *pidfile)
{
	FILE *f = fopen(pidfile, "r");
	char line[64];
	long pid;
	int n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f) && sscanf(line, "%ld", &pid) == 1) {
		n++;
		/* The mock's own child is not ours to reap, only to end. */
		if (strstr(line, "child")) {
			if (!mock_pid_gone((pid_t)pid))
				fail_msg("process %ld is left behind", pid);
			continue;
		}
		if (!mock_pid_gone((pid_t)pid)) {
			fclose(f);
			fail_msg("process %ld is left behind", pid);
		}
		/* Not a zombie of ours either: it was reaped. */
		assert_int_equal(waitpid((pid_t)pid, NULL, WNOHANG), -1);
	}
	fclose(f);
	unlink(pidfile);
	return n;
}

/* How many lines the mock received (its --log file) hold text. */
static inline int
mock_log_count(const char *logfile, const char *text)
{
	FILE *f = fopen(logfile, "r");
	char line[4096];
	int n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		n += strstr(line, text) != NULL;
	fclose(f);
	return n;
}

/* A new directory under $TMPDIR (else /tmp) into dir: 0, or -1. */
static inline int
mock_dir_make(char *dir, size_t n, const char *tag)
{
	snprintf(dir, n, "%s/kifu-%s.XXXXXX",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", tag);
	return mkdtemp(dir) ? 0 : -1;
}

/* The directory and all in it removed: 0, or -1. */
static inline int
mock_dir_remove(const char *dir)
{
	char cmd[400];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/*
 * The mock's words into v (max of them, NULL-terminated): --pidfile
 * and --log, then extra (NULL-terminated, may be NULL), as many as fit.
 */
static inline void
mock_command(const char **v, int max, const char *mock, const char *pidfile,
    const char *logfile, const char *const *extra)
{
	int n = 0;

	v[n++] = mock;
	v[n++] = "--pidfile";
	v[n++] = pidfile;
	v[n++] = "--log";
	v[n++] = logfile;
	while (extra && *extra && n < max - 1)
		v[n++] = *extra++;
	v[n] = NULL;
}

#endif /* KIFU_TESTS_MOCK_HELPERS_H */
