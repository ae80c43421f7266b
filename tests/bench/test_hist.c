/* The latency histogram against exact percentiles: 10^5 samples from three distributions (uniform,
 * log-normal, bimodal), every reported percentile within 3% of the exact nearest-rank value. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "probes/bench/bench_int.h"
#include "fstune/rng.h"

#define N 100000

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static double unit(struct fst_rng *r)
{
	return ((double)(fst_rng_next(r) >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(struct fst_rng *r)
{
	return sqrt(-2 * log(unit(r))) * cos(2 * M_PI * unit(r));
}

static int check_dist(const char *name, uint64_t (*gen)(struct fst_rng *))
{
	static const double qs[] = {0.01, 0.25, 0.5, 0.9, 0.99, 0.999, 1.0};
	uint64_t *v = malloc(N * sizeof *v);
	struct bench_hist *h = malloc(sizeof *h);
	struct fst_rng r;
	double worst = 0;
	size_t i;
	int failures = 0;

	fst_rng_seed(&r, 42);
	bench_hist_init(h);
	for (i = 0; i < N; i++) {
		v[i] = gen(&r);
		bench_hist_add(h, v[i]);
	}
	qsort(v, N, sizeof *v, cmp);
	for (i = 0; i < sizeof qs / sizeof qs[0]; i++) {
		size_t rank = (size_t)ceil(qs[i] * N);
		double exact = (double)v[rank - 1], got = bench_hist_quantile(h, qs[i]);
		double rel = fabs(got - exact) / exact;

		if (rel > worst)
			worst = rel;
		if (rel > 0.03) {
			fprintf(stderr, "FAIL %s q=%g: exact %.0f, histogram %.0f (%.2f%%)\n", name, qs[i], exact,
				got, rel * 100);
			failures++;
		}
	}
	if (h->count != N || h->min_ns != v[0] || h->max_ns != v[N - 1]) {
		fprintf(stderr, "FAIL %s: count/min/max\n", name);
		failures++;
	}
	printf("%s: worst relative error %.3f%%\n", name, worst * 100);
	free(v);
	free(h);
	return failures;
}

static uint64_t gen_uniform(struct fst_rng *r)
{
	return 1000 + fst_rng_below(r, 10000000); /* 1 µs .. 10 ms */
}

static uint64_t gen_lognormal(struct fst_rng *r)
{
	return (uint64_t)(100000.0 * exp(normal(r))); /* median 100 µs, sigma 1 */
}

static uint64_t gen_bimodal(struct fst_rng *r)
{
	if (fst_rng_below(r, 10) < 9)
		return (uint64_t)fmax(1000, 50000 + 5000 * normal(r)); /* 50 µs ± 5 */
	return (uint64_t)(5e6 * -log(unit(r))) + 1000;           /* a 5 ms exponential tail */
}

int main(void)
{
	int failures = 0;
	struct bench_hist *h = malloc(sizeof *h);

	failures += check_dist("uniform", gen_uniform);
	failures += check_dist("lognormal", gen_lognormal);
	failures += check_dist("bimodal", gen_bimodal);
	if (bench_hist_min_samples(0.5) != 20 || bench_hist_min_samples(0.99) != 1000 ||
	    bench_hist_min_samples(0.999) != 10000) {
		fprintf(stderr, "FAIL min_samples: %llu %llu %llu\n", (unsigned long long)bench_hist_min_samples(0.5),
			(unsigned long long)bench_hist_min_samples(0.99),
			(unsigned long long)bench_hist_min_samples(0.999));
		failures++;
	}
	/* tiny values are exact; a huge one is clamped into the last bucket but max stays exact */
	bench_hist_init(h);
	bench_hist_add(h, 7);
	bench_hist_add(h, 1ull << 50);
	if (bench_hist_quantile(h, 0.5) != 7 || h->max_ns != (1ull << 50) ||
	    bench_hist_quantile(h, 1.0) > (double)(1ull << 50)) {
		fprintf(stderr, "FAIL edges\n");
		failures++;
	}
	free(h);
	return failures ? 1 : 0;
}
