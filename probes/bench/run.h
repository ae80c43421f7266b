/* The interface between the I/O driver (run.c) and the code that turns its statistics into facts
 * (results.c): the statistics of one test's measured window. Internal to probes/bench/. */
#ifndef FSTUNE_PROBES_BENCH_RUN_H
#define FSTUNE_PROBES_BENCH_RUN_H

#include "probes/bench/bench_int.h"
#include "probes/bench/slices.h"

/* The measured window is cut into slices: their completion counts give spread_pct and the 95%
 * confidence interval of the rate (ci95_pct, batch means). A fixed --runtime is cut into
 * BENCH_INTERVALS slices; the adaptive runtime uses slices of BENCH_SLICE_NS and stops once the interval
 * is within BENCH_CI95_TARGET_PCT of the rate (at least BENCH_MIN_SLICES, at most the test's cap). */
#define BENCH_INTERVALS 10
#define BENCH_SLICE_NS 100000000ull
#define BENCH_MIN_SLICES 5
#define BENCH_CI95_TARGET_PCT 3.0
#define BENCH_TIMELINE_NS 10000000ull /* the timeline's first slice width; it widens as the run lasts */

struct bench_stats {
	struct bench_hist hist;    /* latencies of the I/Os completed in the window, ns */
	uint64_t ios;              /* I/Os completed in the window */
	uint64_t bytes;            /* bytes they transferred */
	double lat_sum_ns;         /* sum of their latencies (Little's law: / window = mean in flight) */
	uint64_t intervals[BENCH_MAX_SLICES]; /* completions per slice of the window */
	struct bench_slices timeline; /* completions from the test's start, warm-up included: a write
				       * cache filling shows there (burst.h) */
	unsigned n_intervals;      /* slices in the window */
	uint64_t first_done_ns, last_done_ns; /* first and last completion in the window */
	uint64_t stop_ns;          /* when the last worker stopped issuing (deadline noticed) */
	uint64_t t_start_ns;       /* when the test started (warm-up start) */
	uint64_t warmup_ns, runtime_ns;
	uint64_t all_ios;          /* every completion, warm-up included (CPU per I/O) */
	double cpu_s;              /* user + system CPU time of the whole process during the run, s */
	double steal_share;        /* share of all CPUs' time the hypervisor took during the run (steal in
	                            * /proc/stat): neither the workers' CPU time nor their wait; 0 when
	                            * unknown */
	double cpu_wait_s;         /* time the workers were runnable but waited for a CPU (schedstat
	                            * run_delay), s; -1 when the kernel does not keep it */
	unsigned workers, depth;   /* threads, and I/Os each held in flight */
};

struct bench_run_error {
	int error;                 /* -errno of the first failed I/O; 0 when none */
	uint64_t offset;           /* bytes */
	bool is_write;
	int cancel_sig;            /* non-zero: the run was stopped by this signal */
};

void bench_stats_init(struct bench_stats *s);
/* The half-width of the 95% confidence interval of the mean of `n` per-slice counts, in percent of the
 * mean (Student's t); INFINITY with fewer than two slices or no completions. */
double bench_ci95_pct(const uint64_t *counts, unsigned n);
void bench_stats_merge(struct bench_stats *into, const struct bench_stats *from);

/* Runs one test with `engine` on `fd` over `span` bytes. Returns 0, or -errno when the engine could not
 * be set up (nothing ran). I/O errors and cancellation are reported in `rerr`; `out` always holds the
 * merged statistics. */
int bench_io_run(struct bench_ctx *ctx, const struct bench_test_def *def, enum bench_engine_id engine,
		 int fd, uint64_t span, struct bench_stats *out, struct bench_run_error *rerr);

/* Sets bench.<test>.* from the statistics of a finished, error-free run (source "bench"). Returns the
 * number of failed consistency checks (each also a note and an entry of bench.<test>.checks_failed). */
int bench_results_store(struct bench_ctx *ctx, const struct bench_test_def *def, enum bench_engine_id engine,
			const struct bench_stats *s, struct facts *f);
/* After all tests: cache_suspect of the write tests, from writes far faster than the matching reads. */
void bench_results_cache_pairs(struct facts *f);

#endif
