/* Burst versus sustained: whether a write test's rate fell clearly, and for good, after its first part
 * (an SLC or DRAM cache filling, a page cache reaching its dirty limit, a throttle starting), found in
 * the completions per slice of time from the test's start. Internal to probes/bench/. */
#ifndef FSTUNE_PROBES_BENCH_BURST_H
#define FSTUNE_PROBES_BENCH_BURST_H

#include <stdbool.h>
#include <stdint.h>

/* Our own heuristic lines: the rate after the drop is at most this share of the rate before it, and
 * the drop is this many standard errors of the difference of the two means. */
#define BENCH_BURST_DROP 0.6
#define BENCH_BURST_SIGMAS 4.0

struct bench_burst {
	uint64_t burst_bytes;  /* written before the drop, from the test's start (warm-up included) */
	double burst_rate;     /* bytes/s before the drop */
	double sustained_rate; /* bytes/s after it */
	unsigned split;        /* the slice the drop starts at */
};

/* `counts[i]` completions of `io_size` bytes in slice i (each `width_ns` long) from the test's start;
 * only complete slices. The split is the one change point that explains the most of the slices'
 * variance (two constant rates); it is a burst when at least 3 slices, and a quarter of them, follow
 * it, the rate after is at most BENCH_BURST_DROP of the rate before and stays down to the end, and the
 * difference is at least BENCH_BURST_SIGMAS standard errors. Sparse slices are merged first (to 8 at
 * the fewest). */
bool bench_burst_find(const uint64_t *counts, unsigned n, uint64_t width_ns, uint32_t io_size,
		      struct bench_burst *out);

#endif
