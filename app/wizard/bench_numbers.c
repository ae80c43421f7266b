/* What the Bench and Charts screens show of a finished benchmark test: its headline number and
 * unit, and what the run found about it, read from the facts, decided once so the two screens cannot
 * disagree. */
#include "config.h"

#include <stdio.h>

#include "app/render/bench_table.h"
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
	char key[128];
	size_t i;

	for (i = 0; i < bench_n_flag_marks; i++)
		if (bench_flagged(f, t->name, bench_flag_marks[i].leaf))
			return bench_flag_marks[i].mark;
	snprintf(key, sizeof(key), "bench.%s.burst", t->name);
	return json_is_object(facts_get(f, key)) ? "burst" : NULL;
}
