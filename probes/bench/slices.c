/* Events counted in widening time slices, and the confidence interval of their rate (slices.h). */
#include "config.h"

#include <string.h>

#include "probes/bench/run.h"
#include "probes/bench/slices.h"

void bench_slices_init(struct bench_slices *s, uint64_t width_ns)
{
	memset(s->counts, 0, sizeof s->counts);
	s->width_ns = width_ns ? width_ns : 1;
}

static void fold(struct bench_slices *s)
{
	unsigned i;

	for (i = 0; i < BENCH_MAX_SLICES / 2; i++)
		s->counts[i] = s->counts[2 * i] + s->counts[2 * i + 1];
	memset(s->counts + BENCH_MAX_SLICES / 2, 0, sizeof s->counts / 2);
	s->width_ns *= 2;
}

void bench_slices_add(struct bench_slices *s, uint64_t since_start_ns)
{
	while (since_start_ns / s->width_ns >= BENCH_MAX_SLICES)
		fold(s);
	s->counts[since_start_ns / s->width_ns]++;
}

void bench_slices_merge(struct bench_slices *into, const struct bench_slices *from)
{
	struct bench_slices f = *from;
	unsigned i;

	while (into->width_ns < f.width_ns)
		fold(into);
	while (f.width_ns < into->width_ns)
		fold(&f);
	for (i = 0; i < BENCH_MAX_SLICES; i++)
		into->counts[i] += f.counts[i];
}

static unsigned complete(const struct bench_slices *s, uint64_t end_ns, uint64_t *events)
{
	unsigned n = (unsigned)(end_ns / s->width_ns), i;

	for (i = 0, *events = 0; i < n; i++)
		*events += s->counts[i];
	return n;
}

double bench_slices_ci95_pct(struct bench_slices *s, uint64_t end_ns, double min_events)
{
	uint64_t events;
	unsigned n;

	/* the end may come well after the last event (a step that failed, a slow last one) */
	while (end_ns / s->width_ns > BENCH_MAX_SLICES)
		fold(s);
	n = complete(s, end_ns, &events);
	/* batch means want batches that are not mostly empty */
	while (n / 2 >= BENCH_MIN_SLICES && (double)events < min_events * n) {
		fold(s);
		n = complete(s, end_ns, &events);
	}
	return bench_ci95_pct(s->counts, n);
}
