/* Burst versus sustained, from the completions per slice of a write test (burst.h). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "probes/bench/burst.h"
#include "probes/bench/slices.h"

#define MIN_EVENTS 20.0 /* completions a slice should hold before the rates are compared */
#define MIN_KEPT 8      /* slices sparse ones are merged down to at the most */
#define MIN_AFTER 3     /* slices after the drop: one slow slice is a stall, not a sustained rate */
#define MIN_AFTER_SHARE 4 /* and at least a quarter of the run: a stall near the end is no cache */

struct segment {
	double mean, var; /* completions per slice; the variance at least the mean (Poisson counts) */
	unsigned n;
};

static struct segment segment_of(const double *c, unsigned from, unsigned to)
{
	struct segment s = {0, 0, to - from};
	unsigned i;

	for (i = from; i < to; i++)
		s.mean += c[i];
	s.mean /= s.n;
	for (i = from; s.n > 1 && i < to; i++)
		s.var += (c[i] - s.mean) * (c[i] - s.mean);
	s.var = s.n > 1 ? s.var / (s.n - 1) : 0;
	if (s.var < s.mean)
		s.var = s.mean;
	return s;
}

/* The split 1..n-after that explains the most variance with a higher rate before than after
 * (between-group sum of squares of two constant rates); 0 when none is higher before. */
static unsigned best_split(const double *c, unsigned n)
{
	double total = 0, before = 0, best = 0;
	unsigned k, split = 0, after = n / MIN_AFTER_SHARE > MIN_AFTER ? n / MIN_AFTER_SHARE : MIN_AFTER;

	for (k = 0; k < n; k++)
		total += c[k];
	for (k = 1; k + after <= n; k++) {
		double b, a, between;

		before += c[k - 1];
		b = before / k;
		a = (total - before) / (n - k);
		between = (double)k * (n - k) / n * (b - a) * (b - a);
		if (b > a && between > best) {
			best = between;
			split = k;
		}
	}
	return split;
}

bool bench_burst_find(const uint64_t *counts, unsigned n, uint64_t width_ns, uint32_t io_size,
		      struct bench_burst *out)
{
	double c[BENCH_MAX_SLICES], events = 0, width_s;
	struct segment before, after, tail;
	unsigned i, k;

	memset(out, 0, sizeof *out);
	if (n > BENCH_MAX_SLICES)
		n = BENCH_MAX_SLICES;
	for (i = 0; i < n; i++) {
		c[i] = (double)counts[i];
		events += c[i];
	}
	/* merge neighbours while the slices are too sparse for their rates to be compared */
	while (n / 2 >= MIN_KEPT && events < MIN_EVENTS * n) {
		for (i = 0; i < n / 2; i++)
			c[i] = c[2 * i] + c[2 * i + 1];
		n /= 2;
		width_ns *= 2;
	}
	if (n < 1 + MIN_AFTER || !width_ns || !(k = best_split(c, n)))
		return false;
	before = segment_of(c, 0, k);
	after = segment_of(c, k, n);
	if (before.n == 1)
		before.var = after.var > before.var ? after.var : before.var;
	/* the rate must stay down: the last third of what follows the drop is no better than halfway */
	tail = segment_of(c, n - (after.n + 2) / 3, n);
	if (after.mean > BENCH_BURST_DROP * before.mean || tail.mean > (before.mean + after.mean) / 2 ||
	    before.mean - after.mean < BENCH_BURST_SIGMAS * sqrt(before.var / before.n + after.var / after.n))
		return false;
	width_s = (double)width_ns / 1e9;
	out->split = k;
	out->burst_bytes = (uint64_t)llround(before.mean * k) * io_size;
	out->burst_rate = before.mean * io_size / width_s;
	out->sustained_rate = after.mean * io_size / width_s;
	return true;
}
