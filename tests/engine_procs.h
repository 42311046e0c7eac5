/*
 * engine_procs.h - the engine processes of the unit tests: where the
 * mock engine (tests/mock_engine.c) is, and the check after each test
 * that every pid it wrote to its pid file is gone and was reaped (no
 * zombie of this process).
 */
#ifndef KIFU_TESTS_ENGINE_PROCS_H
#define KIFU_TESTS_ENGINE_PROCS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/*
 * Whether pid is gone: no process, or (for a grandchild, which the
 * machine's init may never reap) a zombie that is not ours.
 */
static inline int
gone(pid_t pid)
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

static inline void
check_pids(const char *pidfile)
{
	FILE *f = fopen(pidfile, "r");
	char line[64];
	long pid;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && sscanf(line, "%ld", &pid) == 1) {
		/* The mock's own child is not ours to reap, only to end. */
		if (strstr(line, "child")) {
			if (!gone((pid_t)pid))
				fail_msg("process %ld is left behind", pid);
			continue;
		}
		if (!gone((pid_t)pid)) {
			fclose(f);
			fail_msg("process %ld is left behind", pid);
		}
		/* Not a zombie of ours either: it was reaped. */
		assert_int_equal(waitpid((pid_t)pid, NULL, WNOHANG), -1);
	}
	fclose(f);
	unlink(pidfile);
}

/*
 * A fresh directory for a test's engine files, "kifu-<name>.XXXXXX"
 * under $TMPDIR, and its pid file in it. Returns 0, or -1.
 */
static inline int
procs_setup(char *dir, size_t n, char *pidfile, size_t m, const char *name)
{
	snprintf(dir, n, "%s/kifu-%s.XXXXXX",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", name);
	if (!mkdtemp(dir))
		return -1;
	snprintf(pidfile, m, "%s/pids", dir);
	return 0;
}

/* The pid check, then the directory removed with all in it. */
static inline int
procs_teardown(const char *dir, const char *pidfile)
{
	char cmd[400];

	check_pids(pidfile);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* The mock ($MOCK_ENGINE, else make's), or NULL after saying why. */
static inline const char *
mock_engine(const char *test)
{
	const char *mock = getenv("MOCK_ENGINE") ? getenv("MOCK_ENGINE") :
	    "build/san/tests/mock_engine";

	if (access(mock, X_OK) < 0) {
		fprintf(stderr, "%s: %s is not built\n", test, mock);
		return NULL;
	}
	return mock;
}

/* How many lines of the mock's --log file (what it was sent) hold text. */
static inline int
procs_log_count(const char *logfile, const char *text)
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

#endif /* KIFU_TESTS_ENGINE_PROCS_H */
