/* Burst detection on fixed slice counts: a cache that fills (long or in one slice) is a burst with its
 * bytes and both rates; a steady rate with noise, a stall that recovers, a slow start, a drop in the
 * last two slices, a mild drop, a noisy drop and a device that speeds up are not; sparse slices are
 * merged before they are judged. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "probes/bench/burst.h"

#define MS 1000000ull
#define MIB (1024u * 1024u)

static int failures;

static void check(int ok, const char *what, double got)
{
	if (!ok) {
		fprintf(stderr, "FAIL: %s (got %g)\n", what, got);
		failures++;
	}
}

/* counts: `n1` slices of `r1`, then `n2` of `r2`, each nudged by a fixed pattern of +-`jitter`. */
static unsigned two_rates(uint64_t *c, unsigned n1, uint64_t r1, unsigned n2, uint64_t r2, uint64_t jitter)
{
	static const int pattern[] = {1, -1, 0, 1, 0, -1, -1, 1};
	unsigned i;

	for (i = 0; i < n1 + n2; i++)
		c[i] = (i < n1 ? r1 : r2) + (uint64_t)((int64_t)jitter * pattern[i % 8]);
	return n1 + n2;
}

/* Two rates of 4 KiB writes that are no burst: two_rates' arguments and what the case is. */
static const struct two_rates_case {
	unsigned n1;
	uint64_t r1;
	unsigned n2;
	uint64_t r2, jitter;
	const char *what;
} no_burst[] = {
	/* the same rate throughout, jittered by 10% */
	{20, 100, 20, 100, 10, "a steady rate with noise: no burst"},
	/* a slow first slice (queues filling), then steady */
	{1, 30, 30, 100, 5, "a slow start: no burst"},
	/* the drop in the last two slices only */
	{30, 100, 2, 10, 0, "two slow slices at the end: not a sustained rate"},
	/* a mild drop, to 75% */
	{10, 100, 20, 75, 3, "a drop to 75%: not clearly below"},
	/* a drop to 55% within noise of +-50 on a mean of 100 over few slices */
	{3, 100, 4, 55, 50, "a noisy drop over few slices: not shown"},
	/* a device that speeds up */
	{10, 50, 20, 200, 5, "a rate that rises: no burst"},
	/* fewer than 4 slices say nothing */
	{1, 400, 2, 40, 0, "three slices: too few"},
};

static bool find(const uint64_t *c, unsigned n, uint32_t io_size, struct bench_burst *b)
{
	return bench_burst_find(c, n, 100 * MS, io_size, b);
}

int main(void)
{
	uint64_t c[64];
	struct bench_burst b;
	unsigned n, i;

	/* 4 KiB writes: 10 slices of 200 (8.2 MB/s), then 30 at a quarter of that: a cache of 10 slices */
	n = two_rates(c, 10, 200, 30, 50, 5);
	check(find(c, n, 4096, &b), "a cache filling: a burst", 0);
	check(b.split == 10, "the drop at slice 10", b.split);
	check(b.burst_bytes == 2000ull * 4096, "burst_bytes: the 2000 writes before the drop", (double)b.burst_bytes);
	check(fabs(b.burst_rate - 2000 * 4096.0) < 0.02 * 2000 * 4096, "burst_rate: 200 writes per 100 ms",
	      b.burst_rate);
	check(fabs(b.sustained_rate - 500 * 4096.0) < 0.02 * 500 * 4096, "sustained_rate: 50 per 100 ms",
	      b.sustained_rate);

	/* the whole cache in the first slice (1 MiB writes): one fast slice, then 12 slow ones */
	n = two_rates(c, 1, 400, 12, 40, 2);
	check(find(c, n, MIB, &b) && b.split == 1, "a cache filled within one slice", b.split);
	check(b.burst_bytes == c[0] * MIB, "its bytes: the first slice's", (double)b.burst_bytes / MIB);

	for (i = 0; i < sizeof no_burst / sizeof no_burst[0]; i++) {
		const struct two_rates_case *k = &no_burst[i];

		n = two_rates(c, k->n1, k->r1, k->n2, k->r2, k->jitter);
		check(!find(c, n, 4096, &b), k->what, b.split);
	}

	/* a stall in the middle that recovers */
	n = two_rates(c, 20, 100, 5, 20, 0);
	for (i = 0; i < 15; i++)
		c[n++] = 100;
	check(!find(c, n, 4096, &b), "a stall that recovers: no burst", b.split);

	/* 64 sparse slices (4 then 1 per slice) are merged to 8 of 32, then 8: a burst of 16 slices */
	n = two_rates(c, 16, 4, 48, 1, 0);
	check(find(c, n, 4096, &b), "sparse slices merged: a burst", 0);
	check(b.split == 2, "the drop at merged slice 2 (of 800 ms each)", b.split);
	check(fabs(b.burst_rate - 32 * 4096 / 0.8) < 1, "burst_rate over the merged slices", b.burst_rate);

	if (failures)
		return 1;
	printf("burst detection: all cases pass\n");
	return 0;
}
