/*
 * enginelive.c - the list of live engine process groups, and the signal
 * handlers that end them (enginelive.h).
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "enginelive.h"

#define LIVE_MAX 1100
#define HOME_MAX 512

static volatile sig_atomic_t live_pid[LIVE_MAX];
static char live_home[LIVE_MAX][HOME_MAX];
static pthread_mutex_t live_mu = PTHREAD_MUTEX_INITIALIZER;
/* SIGPIPE too: `kifu analyze ... | head` ends with the engines ended. */
static const int live_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
#define NSIGS ((int)(sizeof(live_sigs) / sizeof(live_sigs[0])))
static struct sigaction live_before[NSIGS];

void
enginelive_spawn(void *ctx, pid_t pgid, const char *home)
{
	int i;

	(void)ctx;
	pthread_mutex_lock(&live_mu);
	for (i = 0; i < LIVE_MAX; i++)
		if (!live_pid[i]) {
			snprintf(live_home[i], HOME_MAX, "%s", home ? home : "");
			live_pid[i] = pgid;
			break;
		}
	pthread_mutex_unlock(&live_mu);
}

void
enginelive_reap(void *ctx, pid_t pgid)
{
	int i;

	(void)ctx;
	pthread_mutex_lock(&live_mu);
	for (i = 0; i < LIVE_MAX; i++)
		if (live_pid[i] == pgid) {
			live_pid[i] = 0;
			break;
		}
	pthread_mutex_unlock(&live_mu);
}

/* Async-signal-safe: kill(), unlink(), rmdir() and fixed buffers only. */
static void
remove_in(const char *dir, const char *name)
{
	char path[HOME_MAX + 32];
	size_t n = strlen(dir), k = strlen(name);

	if (n + k + 2 > sizeof(path))
		return;
	memcpy(path, dir, n);
	path[n] = '/';
	memcpy(path + n + 1, name, k + 1);
	unlink(path);
}

static volatile sig_atomic_t *live_flag;

static void
kill_all(void)
{
	int i;

	for (i = 0; i < LIVE_MAX; i++) {
		pid_t p = live_pid[i];

		if (p > 0)
			kill(-p, SIGKILL);
	}
}

static void
on_signal(int sig)
{
	size_t k;
	int i;

	if (live_flag && !*live_flag) {
		*live_flag = 1;
		kill_all();
		return;
	}
	kill_all();
	/* Reaped too, so that even a killed kifu leaves no zombie. */
	for (i = 0; i < LIVE_MAX; i++) {
		pid_t p = live_pid[i];
		struct timespec ms = { 0, 1000000L };
		int tries;

		if (p <= 0)
			continue;
		for (tries = 0; tries < 1000 && waitpid(p, NULL, WNOHANG) == 0;
		    tries++)
			nanosleep(&ms, NULL);
		if (live_home[i][0]) {
			remove_in(live_home[i], "gpsusi.conf");
			remove_in(live_home[i], "data");
			rmdir(live_home[i]);
		}
	}
	for (k = 0; k < (size_t)NSIGS; k++)
		if (live_sigs[k] == sig && live_before[k].sa_handler != SIG_IGN &&
		    live_before[k].sa_handler != SIG_DFL) {
			sigaction(sig, &live_before[k], NULL);
			raise(sig);
			return;
		}
	signal(sig, SIG_DFL);
	raise(sig);
}

void
enginelive_signals(int on, volatile sig_atomic_t *flag)
{
	struct sigaction sa;
	size_t k;

	live_flag = on ? flag : NULL;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (k = 0; k < (size_t)NSIGS; k++) {
		if (!on) {
			sigaction(live_sigs[k], &live_before[k], NULL);
			continue;
		}
		/* A signal the caller ignores stays ignored (nohup, a
		   SIGPIPE a parent set aside: then writes fail with EPIPE). */
		sigaction(live_sigs[k], NULL, &live_before[k]);
		if (live_before[k].sa_handler != SIG_IGN)
			sigaction(live_sigs[k], &sa, NULL);
	}
}
