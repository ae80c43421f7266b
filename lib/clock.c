/* The monotonic clock (fstune/clock.h). */
#include "config.h"

#include <time.h>

#include "fstune/clock.h"

uint64_t fst_clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double fst_clock_s(void)
{
	return (double)fst_clock_ns() / 1e9;
}
