/* Events counted in time slices that widen as the run lasts, and the 95% confidence interval of the
 * rate over them: how the file tests give each phase a ci95_pct. Internal to probes/bench/. */
#ifndef FSTUNE_PROBES_BENCH_SLICES_H
#define FSTUNE_PROBES_BENCH_SLICES_H

#include <stdint.h>

#define BENCH_MAX_SLICES 64

struct bench_slices {
	uint64_t counts[BENCH_MAX_SLICES]; /* events per slice */
	uint64_t width_ns;                 /* one slice's width: the first width times a power of two */
};

void bench_slices_init(struct bench_slices *s, uint64_t width_ns);
/* Counts an event `since_start_ns` after the start; when that is past BENCH_MAX_SLICES slices, adjacent
 * pairs are merged (the width doubles) until it fits. */
void bench_slices_add(struct bench_slices *s, uint64_t since_start_ns);
/* Adds `from` into `into`, widening the narrower of the two (both started with the same width). */
void bench_slices_merge(struct bench_slices *into, const struct bench_slices *from);
/* The half-width of the 95% confidence interval of the rate, in percent of it, over the slices complete
 * at `end_ns` (the one it falls in, cut short, is left out), merged further while they average fewer
 * than `min_events` and BENCH_MIN_SLICES would remain; INFINITY with fewer than two slices. */
double bench_slices_ci95_pct(struct bench_slices *s, uint64_t end_ns, double min_events);

#endif
