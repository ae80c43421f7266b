/* The null engine: no I/O at all. Each I/O "completes" after a deterministic pseudo-random latency on a
 * virtual clock, so the whole driver (queue depth, histogram, intervals, checks, facts) can be tested
 * with exact expectations, as fio's null engine exists "to test fio itself".
 *
 * Latencies are 20..60 µs, uniform, from a fixed sequence: mean 40 µs, so at queue depth D the run
 * does D / 40 µs I/Os per second of virtual time. */
#include "config.h"

#include <stdlib.h>

#include "lib/xalloc.h"
#include "probes/bench/bench_int.h"

#define NULL_LAT_MIN_NS 20000u
#define NULL_LAT_SPAN_NS 40001u

struct null_engine {
	uint64_t now;            /* virtual ns */
	uint64_t seq;            /* I/Os queued so far: the latency sequence's index */
	struct bench_io **flight;/* queued, not yet reaped */
	uint64_t *done_at;       /* virtual completion time of flight[i] */
	unsigned n, depth;
};

static int null_init(struct bench_engine *e, const struct bench_engine_cfg *cfg)
{
	struct null_engine *z = xcalloc(1, sizeof *z);

	z->depth = cfg->depth ? cfg->depth : 1;
	z->flight = xcalloc(z->depth, sizeof *z->flight);
	z->done_at = xcalloc(z->depth, sizeof *z->done_at);
	e->priv = z;
	return 0;
}

static uint64_t null_latency(uint64_t seq)
{
	uint64_t x = seq * 0x9e3779b97f4a7c15ull;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	x ^= x >> 31;
	return NULL_LAT_MIN_NS + x % NULL_LAT_SPAN_NS;
}

static int null_queue(struct bench_engine *e, struct bench_io *io)
{
	struct null_engine *z = e->priv;

	if (z->n >= z->depth)
		abort(); /* the driver never queues more than the depth */
	io->result = io->len;
	z->flight[z->n] = io;
	z->done_at[z->n] = z->now + null_latency(z->seq++);
	z->n++;
	return BENCH_Q_QUEUED;
}

/* Advances the virtual clock to the earliest completion and returns everything done by then. */
static int null_getevents(struct bench_engine *e, unsigned min, struct bench_io **out, unsigned max)
{
	struct null_engine *z = e->priv;
	unsigned i, got = 0;
	uint64_t earliest = UINT64_MAX;

	if (!z->n)
		return 0;
	for (i = 0; i < z->n; i++)
		if (z->done_at[i] < earliest)
			earliest = z->done_at[i];
	if (earliest > z->now)
		z->now = earliest;
	for (i = 0; i < z->n && got < max;) {
		if (z->done_at[i] <= z->now) {
			out[got++] = z->flight[i];
			z->n--;
			z->flight[i] = z->flight[z->n];
			z->done_at[i] = z->done_at[z->n];
		} else {
			i++;
		}
	}
	return (int)got;
}

static void null_cleanup(struct bench_engine *e)
{
	struct null_engine *z = e->priv;

	free(z->flight);
	free(z->done_at);
	free(z);
}

static uint64_t null_now(struct bench_engine *e)
{
	struct null_engine *z = e->priv;

	return z->now;
}

const struct bench_engine_ops bench_engine_null = {
	.name = "null",
	.is_sync = false,
	.init = null_init,
	.queue = null_queue,
	.commit = bench_engine_commit_none,
	.getevents = null_getevents,
	.cleanup = null_cleanup,
	.now_ns = null_now,
};
