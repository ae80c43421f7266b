/* What the Bench and Charts screens show of a finished benchmark test: its headline number and
 * unit, and what the run found about it, read from the facts, decided once so the two screens cannot
 * disagree. */
#include "config.h"

#include <stdio.h>

#include "app/wizard/ui_int.h"

bool ui_bench_headline(const struct facts *f, const struct bench_test_def *t, double *v, const char **unit)
{
	char key[128];

	*unit = t->pattern == BENCH_PATTERN_FILES ? "ops/s" : t->io_size >= 65536 ? "MB/s" : "IOPS";
	snprintf(key, sizeof(key), "bench.%s.%s", t->name,
		 t->pattern == BENCH_PATTERN_FILES ? "tps" : t->io_size >= 65536 ? "bw_bytes_per_s" : "iops");
	if (!facts_get_real(f, key, v)) {
		snprintf(key, sizeof(key), "bench.%s.create_per_s", t->name);
		if (!facts_get_real(f, key, v))
			return false;
	}
	if (t->io_size >= 65536 && t->pattern != BENCH_PATTERN_FILES)
		*v /= 1e6;
	return true;
}

const char *ui_bench_flag(const struct facts *f, const struct bench_test_def *t)
{
	static const struct {
		const char *leaf, *mark;
	} flags[] = {
		{"implausible", "implausible"},
		{"cache_suspect", "cache?"},
		{"cpu_bound", "cpu-bound"},
	};
	char key[128];
	size_t i;

	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (bench_flagged(f, t->name, flags[i].leaf))
			return flags[i].mark;
	snprintf(key, sizeof(key), "bench.%s.burst", t->name);
	return json_is_object(facts_get(f, key)) ? "burst" : NULL;
}
