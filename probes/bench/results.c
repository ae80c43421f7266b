/* From a block I/O test's statistics to bench.<test>.* facts: rates, latencies, percentiles when there
 * are enough samples, spread across intervals, the internal consistency checks and cache suspicion. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "fstune/debug.h"
#include "fstune/units.h"
#include "probes/bench/bench_int.h"
#include "probes/bench/burst.h"
#include "probes/bench/run.h"

#define SRC "bench"
#define CACHE_READ_US 5.0  /* no device reads 4 KiB in under ~5 µs: below that it is a cache */
#define QD1_OVERHEAD_US 5.0 /* the driver's own time per I/O the QD1 check allows */
#define CACHE_WRITE_RATIO 4.0 /* writes this much faster than reads of the same shape: a cache */
/* A submitting thread that was on a CPU, or runnable and waiting for one, this share of the run
 * never waited for the device: the CPU set the rate. Our own heuristic line: every quick-suite test
 * on zram here came to 0.99-1.10 (the hypervisor's steal, read machine-wide, left out), the VM's
 * virtio disk to 0.10-0.35, and up to 0.70 for its fsync test with the CPU waits of a machine at
 * load 5. */
#define CPU_BOUND_SHARE 0.85

void bench_stats_init(struct bench_stats *s)
{
	memset(s, 0, sizeof *s);
	bench_hist_init(&s->hist);
	bench_slices_init(&s->timeline, BENCH_TIMELINE_NS);
	s->first_done_ns = UINT64_MAX;
}

void bench_stats_merge(struct bench_stats *into, const struct bench_stats *from)
{
	size_t i;

	bench_hist_merge(&into->hist, &from->hist);
	into->ios += from->ios;
	into->bytes += from->bytes;
	into->lat_sum_ns += from->lat_sum_ns;
	for (i = 0; i < BENCH_MAX_SLICES; i++)
		into->intervals[i] += from->intervals[i];
	bench_slices_merge(&into->timeline, &from->timeline);
	if (from->first_done_ns < into->first_done_ns)
		into->first_done_ns = from->first_done_ns;
	if (from->last_done_ns > into->last_done_ns)
		into->last_done_ns = from->last_done_ns;
	if (from->stop_ns > into->stop_ns)
		into->stop_ns = from->stop_ns;
	into->all_ios += from->all_ios;
	if (from->cpu_wait_s < 0 || into->cpu_wait_s < 0)
		into->cpu_wait_s = -1;
	else
		into->cpu_wait_s += from->cpu_wait_s;
}

static char *key(const struct bench_test_def *def, const char *leaf)
{
	return xasprintf("bench.%s.%s", def->name, leaf);
}

static void set_real(struct facts *f, const struct bench_test_def *def, const char *leaf, double v)
{
	char *k = key(def, leaf);

	facts_set_real(f, k, round(v * 1000.0) / 1000.0, SRC);
	free(k);
}

static void set_int(struct facts *f, const struct bench_test_def *def, const char *leaf, long long v)
{
	char *k = key(def, leaf);

	facts_set_int(f, k, v, SRC);
	free(k);
}

static void set_str(struct facts *f, const struct bench_test_def *def, const char *leaf, const char *v)
{
	char *k = key(def, leaf);

	facts_set_string(f, k, v, SRC);
	free(k);
}

/* One percentile: set when the window has enough samples, else unavailable with the reason. */
static void set_quantile(struct facts *f, const struct bench_test_def *def, const char *leaf,
			 const struct bench_stats *s, double q, double *out)
{
	uint64_t need = bench_hist_min_samples(q);
	char *k = key(def, leaf);

	if (s->hist.count >= need) {
		*out = bench_hist_quantile(&s->hist, q) / 1000.0;
		facts_set_real(f, k, round(*out * 1000.0) / 1000.0, SRC);
	} else {
		*out = NAN;
		facts_set_unavailable(f, k, FACTS_NOT_APPLICABLE,
				      "too few samples for this percentile: %llu, needs at least %llu "
				      "(a longer --runtime gives more)",
				      (unsigned long long)s->hist.count, (unsigned long long)need);
	}
	free(k);
}

/* spread_pct: the coefficient of variation of the completions per slice, in percent. */
static double spread_pct(const struct bench_stats *s)
{
	double mean = 0, var = 0;
	size_t i;

	if (!s->n_intervals)
		return 0;
	for (i = 0; i < s->n_intervals; i++)
		mean += (double)s->intervals[i];
	mean /= s->n_intervals;
	if (mean <= 0)
		return 0;
	for (i = 0; i < s->n_intervals; i++)
		var += ((double)s->intervals[i] - mean) * ((double)s->intervals[i] - mean);
	return 100.0 * sqrt(var / s->n_intervals) / mean;
}

double bench_ci95_pct(const uint64_t *counts, unsigned n)
{
	/* Student's t, two-sided 95%, for 1..30 degrees of freedom; 1.96 beyond */
	static const double t975[31] = {0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262,
					2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093,
					2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045,
					2.042};
	double mean = 0, var = 0;
	unsigned i;

	if (n < 2)
		return INFINITY;
	for (i = 0; i < n; i++)
		mean += (double)counts[i];
	mean /= n;
	if (mean <= 0)
		return INFINITY;
	for (i = 0; i < n; i++)
		var += ((double)counts[i] - mean) * ((double)counts[i] - mean);
	var /= n - 1;
	return 100.0 * (n - 1 <= 30 ? t975[n - 1] : 1.96) * sqrt(var / n) / mean;
}

struct checks {
	json_t *failed; /* array of strings */
};

static void check(struct checks *c, bool is_ok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void check(struct checks *c, bool is_ok, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	if (is_ok)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	json_array_append_new(c->failed, json_string(buf));
}

/* What one run measured, derived once from its statistics for the facts and the checks. */
struct figures {
	double window, iops, bw, mean_us, max_us, p50, p99, p999, inflight;
	double asked, took; /* seconds asked for (warm-up included) and taken */
};

/* cpu_bound: the threads that submit I/O were on a CPU, or runnable and waiting for one, nearly all
 * the run: they never waited for the device, so the CPU set the rate (zram, tmpfs, a fast NVMe on few
 * cores, a machine busy with other work). The CPU time is the whole process's (io_uring's workers
 * included); a run that used every CPU online is CPU-bound whatever its threads waited. */
static void store_cpu_bound(struct bench_ctx *ctx, const struct bench_test_def *def,
			    const struct bench_stats *s, struct facts *f, const struct figures *x)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	/* time the hypervisor stole was neither on a CPU nor waiting for one, as the guest counts it */
	double running = x->took * (1 - fmin(s->steal_share, 0.9));
	double span = running * (s->workers ? s->workers : 1), on_cpu, waiting;
	bool is_bound;
	char *k, why[420], steal[80] = "";

	if (x->took <= 0 || !s->all_ios)
		return;
	on_cpu = s->cpu_s / span;
	waiting = s->cpu_wait_s > 0 ? s->cpu_wait_s / span : 0;
	is_bound = on_cpu + waiting >= CPU_BOUND_SHARE ||
		   (online > 0 && s->cpu_s / running >= CPU_BOUND_SHARE * (double)online);
	DBG(DEBUG_BENCH, "bench: %s: on a CPU %.2f, waiting %.2f, steal %.2f of the run (cpu_bound at %.2f)",
	    def->name, on_cpu, waiting, s->steal_share, CPU_BOUND_SHARE);
	k = key(def, "cpu_bound");
	facts_set_bool(f, k, is_bound, SRC);
	free(k);
	if (!is_bound)
		return;
	if (s->steal_share >= 0.01)
		snprintf(steal, sizeof steal, "; the hypervisor took %.0f%% of the CPUs' time, left out",
			 s->steal_share * 100);
	snprintf(why, sizeof why, "the %s that submitted I/O %s on a CPU %.0f%% of the run and waiting for one "
		 "%.0f%%, never for the device (%.2f us of CPU per I/O at %.0f IOPS, %.2f CPUs of %ld%s): the CPU, "
		 "not the device, set this rate", s->workers > 1 ? "threads" : "thread",
		 s->workers > 1 ? "were" : "was", on_cpu * 100, waiting * 100, s->cpu_s * 1e6 / (double)s->all_ios,
		 x->iops, s->cpu_s / running, online, steal);
	set_str(f, def, "cpu_bound_reason", why);
	bench_note(ctx, "%s: cpu_bound: %s", def->name, why);
}

static void store_figures(struct bench_ctx *ctx, const struct bench_test_def *def, enum bench_engine_id engine,
			  const struct bench_stats *s, struct facts *f, struct figures *x)
{
	x->window = (double)s->runtime_ns / 1e9;
	x->iops = (double)s->ios / x->window;
	x->bw = (double)s->bytes / x->window;
	x->mean_us = s->ios ? s->lat_sum_ns / (double)s->ios / 1000.0 : 0;
	x->max_us = (double)s->hist.max_ns / 1000.0;
	x->inflight = s->lat_sum_ns / (double)s->runtime_ns;
	x->asked = (double)(s->warmup_ns + s->runtime_ns) / 1e9;
	x->took = (double)(s->stop_ns - s->t_start_ns) / 1e9;

	set_real(f, def, "iops", x->iops);
	set_real(f, def, "bw_bytes_per_s", x->bw);
	set_real(f, def, "lat_mean_us", x->mean_us);
	set_quantile(f, def, "lat_p50_us", s, 0.50, &x->p50);
	set_quantile(f, def, "lat_p99_us", s, 0.99, &x->p99);
	set_quantile(f, def, "lat_p999_us", s, 0.999, &x->p999);
	set_real(f, def, "lat_max_us", x->max_us);
	set_int(f, def, "samples", (long long)s->ios);
	set_real(f, def, "spread_pct", spread_pct(s));
	if (isfinite(bench_ci95_pct(s->intervals, s->n_intervals)))
		set_real(f, def, "ci95_pct", bench_ci95_pct(s->intervals, s->n_intervals));
	set_real(f, def, "runtime_s", x->window);
	set_int(f, def, "io_size_bytes", def->io_size);
	set_int(f, def, "queue_depth", def->queue_depth);
	set_str(f, def, "engine", bench_engine_name(engine));
	set_real(f, def, "inflight_mean", x->inflight);
	set_str(f, def, "direct", bench_direct_name(ctx->dio.label));
	set_int(f, def, "span_bytes", (long long)ctx->span_bytes);
	if (s->all_ios)
		set_real(f, def, "cpu_us_per_io", s->cpu_s * 1e6 / (double)s->all_ios);
	/* A worker that waits for a CPU stamps its completions late, so the wait is counted as I/O
	 * latency and no consistency check can see it: the share is kept as evidence, and a large one
	 * is said, as the busy check says a busy device. */
	if (s->cpu_wait_s >= 0 && x->took > 0 && s->workers > 0) {
		double wait_pct = 100.0 * s->cpu_wait_s / s->workers / x->took;

		set_real(f, def, "cpu_wait_pct", wait_pct);
		if (wait_pct > BENCH_CPU_WAIT_NOTE_PCT)
			bench_note(ctx, "%s: the benchmark thread waited for a CPU %.0f%% of the run: other work "
				   "competed for the CPUs, and the latencies include that wait", def->name, wait_pct);
	}
	store_cpu_bound(ctx, def, s, f, x);
}

/* The consistency checks of DESIGN.md, on every real run: the messages of those that failed. */
static json_t *failed_checks(const struct bench_test_def *def, const struct bench_stats *s,
			     const struct figures *x)
{
	struct checks c = {json_array()};
	unsigned qd = def->queue_depth;

	check(&c, s->ios > 0, "no I/O completed in the measured window");
	check(&c, fabs(x->bw - x->iops * def->io_size) <= 1e-6 * x->bw + 1,
	      "iops x io_size = %.0f B/s, but bw = %.0f B/s", x->iops * def->io_size, x->bw);
	if (!isnan(x->p50))
		check(&c, x->p50 * 1000.0 >= (double)s->hist.min_ns * 0.99 && x->p50 <= x->max_us * 1.0001,
		      "p50 %.1f us outside [min, max]", x->p50);
	if (!isnan(x->p50) && !isnan(x->p99))
		check(&c, x->p50 <= x->p99, "p50 %.1f us > p99 %.1f us", x->p50, x->p99);
	if (!isnan(x->p99) && !isnan(x->p999))
		check(&c, x->p99 <= x->p999, "p99 %.1f us > p99.9 %.1f us", x->p99, x->p999);
	if (!isnan(x->p999))
		check(&c, x->p999 <= x->max_us * 1.0001, "p99.9 %.1f us > max %.1f us", x->p999, x->max_us);
	if (qd == 1 && s->workers == 1 && s->ios > 0)
		/* up to 5 µs of the driver's own time per I/O (it matters only for RAM-speed I/O), and an
		 * I/O straddling the window's start counts whole: one max latency over 1 s */
		check(&c, x->iops * (x->mean_us + QD1_OVERHEAD_US) / 1e6 >= 0.90 &&
			      x->iops * x->mean_us / 1e6 <= 1.02 + x->max_us / 1e6 / x->window,
		      "at QD1 iops x mean latency should be ~1 s of busy time per second, is %.3f s",
		      x->iops * x->mean_us / 1e6);
	if (qd > 1)
		check(&c, x->inflight >= 0.9 * qd, "queue not held full: %.1f in flight on average, asked %u",
		      x->inflight, qd);
	check(&c, x->took >= x->asked * 0.999 && x->took <= x->asked * 1.10 + 0.05,
	      "ran %.3f s, asked %.3f s (warm-up included)", x->took, x->asked);
	check(&c, s->ios == 0 || (s->first_done_ns - s->t_start_ns - s->warmup_ns <= s->runtime_ns / 4 &&
				   s->t_start_ns + s->warmup_ns + s->runtime_ns - s->last_done_ns <=
					   s->runtime_ns / 4),
	      "completions do not cover the measured window (a stall at its start or end)");
	return c.failed;
}

/* A read faster than any device is the page cache (or memory) answering; a read of never-written
 * blocks may be answered without the media at all. */
static void store_cache_suspect(struct bench_ctx *ctx, const struct bench_test_def *def, double p50,
				struct facts *f)
{
	bool is_fast = !def->is_write && !isnan(p50) && p50 < CACHE_READ_US;
	bool is_unwritten = !def->is_write && ctx->unwritten_reason[0];
	char *k = key(def, "cache_suspect");

	facts_set_bool(f, k, is_fast || is_unwritten, SRC);
	free(k);
	if (is_unwritten)
		set_str(f, def, "cache_suspect_reason", ctx->unwritten_reason);
	else if (is_fast)
		set_str(f, def, "cache_suspect_reason", "reads completed in under 5 us at the median: no "
			"device is that fast; the page cache or memory answered");
}

/* FSTUNE_DEBUG=bench: the completions per slice from the test's start, warm-up included. */
static void timeline_debug(const struct bench_test_def *def, const struct bench_stats *s)
{
	const struct bench_slices *t = &s->timeline;
	unsigned n = (unsigned)((s->stop_ns - s->t_start_ns) / t->width_ns), i;
	char line[BENCH_MAX_SLICES * 8 + 1] = "";
	size_t len = 0;

	if (!debug_on(DEBUG_BENCH))
		return;
	for (i = 0; i < n && i < BENCH_MAX_SLICES; i++)
		len += (size_t)snprintf(line + len, sizeof line - len, " %llu", (unsigned long long)t->counts[i]);
	DBG(DEBUG_BENCH, "bench: %s: completions per %.0f ms from the start:%s", def->name,
	    (double)t->width_ns / 1e6, line);
}

/* A write test: what it wrote (warm-up included: the most a cache could have absorbed unseen), and a
 * burst when its rate fell clearly, for good, after a first part. Not for fsync'd writes: each is
 * flushed from any cache before the next, so nothing fills, and a drop there is the device's or its
 * neighbours' doing. */
static void store_burst(struct bench_ctx *ctx, const struct bench_test_def *def, const struct bench_stats *s,
			struct facts *f)
{
	struct bench_burst b;
	char r1[UNITS_BUFSZ], r2[UNITS_BUFSZ], by[UNITS_BUFSZ];
	unsigned n;
	char *k;

	if (!def->is_write)
		return;
	set_int(f, def, "bytes_written", (long long)(s->all_ios * def->io_size));
	if (def->is_fsync)
		return;
	n = (unsigned)((s->stop_ns - s->t_start_ns) / s->timeline.width_ns);
	if (!bench_burst_find(s->timeline.counts, n, s->timeline.width_ns, def->io_size, &b))
		return;
	k = key(def, "burst");
	facts_set_json(f, k, json_pack("{s:I, s:f, s:f}", "burst_bytes", (json_int_t)b.burst_bytes, "burst_rate",
				       round(b.burst_rate), "sustained_rate", round(b.sustained_rate)), SRC);
	free(k);
	bench_note(ctx, "%s: burst: %s for the first %s, then %s (a write cache filled, or something began to "
		   "throttle the writes)", def->name, units_rate(r1, sizeof r1, b.burst_rate),
		   units_bytes(by, sizeof by, b.burst_bytes), units_rate(r2, sizeof r2, b.sustained_rate));
}

int bench_results_store(struct bench_ctx *ctx, const struct bench_test_def *def, enum bench_engine_id engine,
			const struct bench_stats *s, struct facts *f)
{
	struct figures x;
	json_t *failed;
	int n_failed;
	char *k;

	store_figures(ctx, def, engine, s, f, &x);
	failed = failed_checks(def, s, &x);
	n_failed = (int)json_array_size(failed);
	k = key(def, "checks_ok");
	facts_set_bool(f, k, n_failed == 0, SRC);
	free(k);
	if (n_failed) {
		size_t i;
		json_t *v;

		json_array_foreach(failed, i, v)
			bench_note(ctx, "%s: consistency check failed: %s", def->name, json_string_value(v));
		k = key(def, "checks_failed");
		facts_set_json(f, k, failed, SRC);
		free(k);
	} else {
		json_decref(failed);
	}
	store_cache_suspect(ctx, def, x.p50, f);
	timeline_debug(def, s);
	store_burst(ctx, def, s, f);
	return n_failed;
}

void bench_results_cache_pairs(struct facts *f)
{
	static const char *const pairs[][2] = {
		{"rand_write_4k_qd1", "rand_read_4k_qd1"},
		{"rand_write_4k_qd32", "rand_read_4k_qd32"},
		{"seq_write_1m", "seq_read_1m"},
	};
	size_t i;

	for (i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
		double w, r, wp50 = 1e9;
		char *kw = xasprintf("bench.%s.iops", pairs[i][0]);
		char *kr = xasprintf("bench.%s.iops", pairs[i][1]);
		char *kl = xasprintf("bench.%s.lat_p50_us", pairs[i][0]);
		char *kc = xasprintf("bench.%s.cache_suspect", pairs[i][0]);

		if (facts_get_real(f, kw, &w) && facts_get_real(f, kr, &r)) {
			facts_get_real(f, kl, &wp50);
			facts_set_bool(f, kc, (r > 0 && w > CACHE_WRITE_RATIO * r) || wp50 < CACHE_READ_US, SRC);
		} else if (facts_get_real(f, kw, &w)) {
			facts_set_bool(f, kc, facts_get_real(f, kl, &wp50) && wp50 < CACHE_READ_US, SRC);
		}
		free(kw);
		free(kr);
		free(kl);
		free(kc);
	}
}

/* The value of bench.<test>.<leaf>; NULL when absent. */
static const json_t *test_value(const struct facts *f, const char *test, const char *leaf)
{
	char *k = xasprintf("bench.%s.%s", test, leaf);
	const json_t *v = facts_get(f, k);

	free(k);
	return v;
}

double bench_figure(const struct facts *f, const char *test, const char *leaf)
{
	const json_t *v = test_value(f, test, leaf);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

bool bench_flagged(const struct facts *f, const char *test, const char *leaf)
{
	return json_is_true(test_value(f, test, leaf));
}
