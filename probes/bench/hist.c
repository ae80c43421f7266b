/* The latency histogram (log-linear, HDR style: at most 0.8% relative error per bucket midpoint) and the
 * random generator every test draws its offsets and data from. */
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

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void bench_rng_seed(struct bench_rng *r, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t bench_rng_next(struct bench_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t bench_rng_below(struct bench_rng *r, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)bench_rng_next(r) * n;
	uint64_t low = (uint64_t)m;

	if (low < n) {
		uint64_t threshold = -n % n;

		while (low < threshold) {
			m = (unsigned __int128)bench_rng_next(r) * n;
			low = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

void bench_rng_fill(struct bench_rng *r, void *buf, size_t len)
{
	uint64_t *p = buf;
	size_t i;

	for (i = 0; i < len / 8; i++)
		p[i] = bench_rng_next(r);
}
