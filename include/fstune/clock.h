/* The monotonic clock every timing reads: durations, deadlines and rates, never the time of day. */
#ifndef FSTUNE_CLOCK_H
#define FSTUNE_CLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t fst_clock_ns(void);
/* The same in seconds. */
double fst_clock_s(void);

#endif
