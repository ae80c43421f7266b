/* The widening slices behind the file tests' ci95_pct: a steady rate gives an interval near 0 at any
 * length; slices widen to keep at most 64; the slice the end falls in is left out; sparse slices are
 * merged to 10 events each where 5 slices remain; an end long after the last event reads no slice past
 * the 64 (ASan); fewer than two complete slices give no interval. */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "probes/bench/slices.h"

#define US 1000ull
#define MS 1000000ull

static int failures;

static void check(int ok, const char *what, double got)
{
	if (!ok) {
		fprintf(stderr, "FAIL: %s (got %g)\n", what, got);
		failures++;
	}
}

/* An event every `step` ns from `step` to `len` inclusive. */
static void steady(struct bench_slices *s, uint64_t step, uint64_t len)
{
	uint64_t t;

	bench_slices_init(s, 100 * US);
	for (t = step; t <= len; t += step)
		bench_slices_add(s, t);
}

int main(void)
{
	struct bench_slices s;
	double ci;
	uint64_t t;

	/* 10 us apart for 1 s: slices of 25.6 ms (0.1 ms doubled 8 times), 39 complete ones, all equal */
	steady(&s, 10 * US, 1000 * MS);
	check(s.width_ns == 25600 * US, "1 s: slices widened to 25.6 ms", (double)s.width_ns);
	ci = bench_slices_ci95_pct(&s, 1000 * MS, 10);
	check(ci < 0.1, "steady rate over 1 s: interval near 0", ci);

	/* 1 ms apart for 100 ms: 1.6 ms slices hold 1.6 events, merged to 12.8 ms (7 slices of 12-13) */
	steady(&s, MS, 100 * MS);
	ci = bench_slices_ci95_pct(&s, 100 * MS, 10);
	check(s.width_ns == 12800 * US, "sparse slices merged to 12.8 ms", (double)s.width_ns);
	check(isfinite(ci) && ci < 10, "sparse steady rate: a narrow interval", ci);

	/* 50 ms in 0.8 ms slices: the end falls halfway through the 63rd, which is left out */
	steady(&s, 10 * US, 50 * MS);
	ci = bench_slices_ci95_pct(&s, 50 * MS, 10);
	check(ci < 0.5, "the end's partial slice left out", ci);

	/* a burst then silence up to an end 10 s later: no slice past the 64, a wide interval */
	bench_slices_init(&s, 100 * US);
	for (t = 1; t <= 1000; t++)
		bench_slices_add(&s, t * US);
	ci = bench_slices_ci95_pct(&s, 10000 * MS, 10);
	check(s.width_ns * 64 >= 10000 * MS, "an end long after the last event widens the slices", (double)s.width_ns);
	check(ci > 100, "a burst and silence: a wide interval", ci);

	/* 0.15 ms: one complete slice, no interval */
	steady(&s, 10 * US, 150 * US);
	ci = bench_slices_ci95_pct(&s, 150 * US, 10);
	check(isinf(ci), "one complete slice: no interval", ci);

	if (!failures)
		printf("slices: ok\n");
	return failures ? 1 : 0;
}
