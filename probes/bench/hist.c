/* The latency histogram (log-linear, HDR style: at most 0.8% relative error per bucket midpoint). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "probes/bench/bench_int.h"

void bench_hist_init(struct bench_hist *h)
{
	memset(h, 0, sizeof *h);
	h->min_ns = UINT64_MAX;
}

static unsigned hist_index(uint64_t v)
{
	unsigned msb, shift;

	if (v < 128)
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	if (msb > BENCH_HIST_MAX_MSB - 1)
		return BENCH_HIST_BUCKETS - 1;
	shift = msb - BENCH_HIST_SUB_BITS;
	return 128u + (msb - 7u) * 64u + (unsigned)((v >> shift) - 64u);
}

/* The lower bound and width of bucket i. */
static void hist_bucket_range(unsigned i, double *low, double *width)
{
	unsigned octave, shift;

	if (i < 128) {
		*low = i;
		*width = 1;
		return;
	}
	octave = (i - 128u) / 64u;
	shift = octave + 1u;
	*low = (double)((uint64_t)(64u + (i - 128u) % 64u) << shift);
	*width = (double)(1ull << shift);
}

void bench_hist_add(struct bench_hist *h, uint64_t ns)
{
	h->bucket[hist_index(ns)]++;
	h->count++;
	h->sum_ns += (double)ns;
	if (ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
}

void bench_hist_merge(struct bench_hist *into, const struct bench_hist *from)
{
	size_t i;

	if (!from->count)
		return;
	for (i = 0; i < BENCH_HIST_BUCKETS; i++)
		into->bucket[i] += from->bucket[i];
	into->count += from->count;
	into->sum_ns += from->sum_ns;
	if (from->min_ns < into->min_ns)
		into->min_ns = from->min_ns;
	if (from->max_ns > into->max_ns)
		into->max_ns = from->max_ns;
}

double bench_hist_quantile(const struct bench_hist *h, double q)
{
	uint64_t rank, seen = 0;
	unsigned i;
	double low, width, v;

	if (!h->count)
		return 0;
	rank = (uint64_t)ceil(q * (double)h->count);
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
	for (i = 0; i < BENCH_HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			break;
	}
	hist_bucket_range(i, &low, &width);
	v = width <= 1 ? low : low + width / 2;
	if (v < (double)h->min_ns)
		v = (double)h->min_ns;
	if (v > (double)h->max_ns)
		v = (double)h->max_ns;
	return v;
}

uint64_t bench_hist_min_samples(double q)
{
	return (uint64_t)ceil(10.0 / (1.0 - q) - 1e-9);
}
