/*
 * clock.h - monotonic seconds, for rates, progress and deadlines: never
 * the wall clock, which may jump.
 */
#ifndef KIFU_CORE_CLOCK_H
#define KIFU_CORE_CLOCK_H

#include <time.h>

static inline double
clock_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#endif /* KIFU_CORE_CLOCK_H */
