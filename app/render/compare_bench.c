/* The benchmark figures of a comparison (compare.h, "bench", with --bench): each rate a test measured,
 * in every report with its 95% interval, and whether a later report differs from the baseline. Two
 * figures whose intervals overlap are not a difference: a rate measured twice on the same disk moves
 * within its interval, and saying "slower" there would be a claim the measurement does not carry. */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "app/render/compare.h"
#include "lib/xalloc.h"

/* The rates fstune's tests measure, each with the fact that holds its interval (doc/facts.md: a file
 * test's ci95_pct is the widest of its phases', the fallback when the phase has none of its own). */
static const struct rate {
	const char *metric, *ci95;
} rates[] = {
	{"iops", "ci95_pct"},
	{"bw_bytes_per_s", "ci95_pct"},
	{"tps", "transactions_ci95_pct"},
	{"create_per_s", "create_ci95_pct"},
	{"delete_per_s", "delete_ci95_pct"},
	{"stat_per_s", "stat_ci95_pct"},
	{"unlink_per_s", "unlink_ci95_pct"},
	{"write_files_per_s", "write_ci95_pct"},
	{"write_bw_bytes_per_s", "write_ci95_pct"},
	{"read_files_per_s", "read_ci95_pct"},
	{"read_bw_bytes_per_s", "read_ci95_pct"},
};

static const struct rate *rate_of(const char *metric)
{
	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
		if (strcmp(rates[i].metric, metric) == 0)
			return &rates[i];
	return NULL;
}

/* The interval of a rate in report `i`: its own, else the test's widest; -1 when it has none. */
static double ci95_of(const json_t *index, const char *test, const struct rate *r, size_t i)
{
	for (const char *const *k = (const char *const[]){r->ci95, "ci95_pct", NULL}; *k; k++) {
		char *key = xasprintf("bench.%s.%s", test, *k);
		const json_t *row = json_object_get(index, key);
		const json_t *v = json_array_get(json_object_get(row, "values"), i);

		free(key);
		if (json_is_number(v) && json_number_value(v) >= 0)
			return json_number_value(v);
	}
	return -1;
}

/* A later figure against the baseline's: "same" when the intervals overlap, else "faster" or
 * "slower" (every rate here is better higher); "no interval" when either lacks one. */
static const char *verdict(double base, double base_ci, double v, double v_ci)
{
	double base_lo = base * (1 - base_ci / 100), base_hi = base * (1 + base_ci / 100);
	double lo = v * (1 - v_ci / 100), hi = v * (1 + v_ci / 100);

	if (base_ci < 0 || v_ci < 0)
		return "no interval";
	if (lo <= base_hi && hi >= base_lo)
		return "same";
	return v > base ? "faster" : "slower";
}

/* One rate's row: the figure and interval of each report, and each later report's verdict. */
static json_t *bench_row(const json_t *index, const char *test, const struct rate *r, const json_t *values)
{
	const json_t *v;
	json_t *cells = json_array(), *base = json_array_get(values, 0);
	double base_ci = ci95_of(index, test, r, 0);
	bool differs = false;
	size_t i;

	json_array_foreach(values, i, v) {
		double ci = ci95_of(index, test, r, i);
		json_t *cell;

		if (!json_is_number(v)) {
			json_array_append_new(cells, json_null());
			continue;
		}
		cell = json_pack("{s:f}", "value", json_number_value(v));
		if (ci >= 0)
			json_object_set_new(cell, "ci95_pct", json_real(ci));
		if (i > 0 && json_is_number(base)) {
			const char *w = verdict(json_number_value(base), base_ci, json_number_value(v), ci);

			json_object_set_new(cell, "verdict", json_string(w));
			if (json_number_value(base) != 0)
				json_object_set_new(cell, "change_pct", json_real(round(
					1000 * (json_number_value(v) / json_number_value(base) - 1)) / 10));
			differs |= strcmp(w, "faster") == 0 || strcmp(w, "slower") == 0;
		}
		json_array_append_new(cells, cell);
	}
	return json_pack("{s:s, s:s, s:b, s:o}", "test", test, "metric", r->metric, "differs", differs, "reports",
			 cells);
}

json_t *compare_bench_block(const json_t *model)
{
	json_t *index = json_object(), *rows = json_array(), *f;
	size_t i;

	json_array_foreach(json_object_get(model, "facts"), i, f)
		json_object_set(index, json_string_value(json_object_get(f, "key")), f);
	json_array_foreach(json_object_get(model, "facts"), i, f) {
		const char *key = json_string_value(json_object_get(f, "key")), *dot;
		const struct rate *r;
		char *test;

		if (strncmp(key, "bench.", 6) != 0 || !(dot = strchr(key + 6, '.')) || strchr(dot + 1, '.') ||
		    !(r = rate_of(dot + 1)))
			continue;
		test = xasprintf("%.*s", (int)(dot - key - 6), key + 6);
		json_array_append_new(rows, bench_row(index, test, r, json_object_get(f, "values")));
		free(test);
	}
	json_decref(index);
	return rows;
}
