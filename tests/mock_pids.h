/*
 * mock_pids.h - for the unit tests that start the mock engine
 * (tests/mock_engine.c --pidfile FILE): every pid it wrote must be gone
 * after a test, and not left a zombie of the test's process.
 */
#ifndef KIFU_TESTS_MOCK_PIDS_H
#define KIFU_TESTS_MOCK_PIDS_H

#include <stdio.h>
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

#endif /* KIFU_TESTS_MOCK_PIDS_H */
