/* The test table and the parameter table, declared once as data (fio's options.c): the command line,
 * the report's "parameters used" block and the wizard's form are all generated from them. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "fstune/units.h"
#include "probes/bench/bench_int.h"
#include "probes/bench/file_common.h"

#define Q (BENCH_SUITE_QUICK | BENCH_SUITE_FULL)
#define F BENCH_SUITE_FULL
#define KiB 1024u
#define MiB (1024u * 1024u)

/* Reads first (they read the data as laid out), then writes, then the fsync tests. File benchmarks
 * (smallfile, metadata, tree) go after these with pattern FILES and their own run function. */
const struct bench_test_def bench_tests[] = {
	{"rand_read_4k_qd1", BENCH_PATTERN_RANDOM, false, false, false, 4 * KiB, 1, Q,
	 "4 KiB random reads, one at a time: the latency of a small read", bench_io_test_run},
	{"rand_read_4k_qd32", BENCH_PATTERN_RANDOM, false, false, false, 4 * KiB, 32, Q,
	 "4 KiB random reads, 32 in flight: the device's small-read throughput", bench_io_test_run},
	{"rand_read_1k_qd1", BENCH_PATTERN_RANDOM, false, false, false, 1 * KiB, 1, F,
	 "1 KiB random reads (the small-versus-large curve)", bench_io_test_run},
	{"rand_read_2k_qd1", BENCH_PATTERN_RANDOM, false, false, false, 2 * KiB, 1, F,
	 "2 KiB random reads (the small-versus-large curve)", bench_io_test_run},
	{"rand_read_8k_qd1", BENCH_PATTERN_RANDOM, false, false, false, 8 * KiB, 1, F,
	 "8 KiB random reads (the small-versus-large curve)", bench_io_test_run},
	{"rand_read_16k_qd1", BENCH_PATTERN_RANDOM, false, false, false, 16 * KiB, 1, F,
	 "16 KiB random reads (the small-versus-large curve)", bench_io_test_run},
	{"rand_read_64k_qd1", BENCH_PATTERN_RANDOM, false, false, false, 64 * KiB, 1, F,
	 "64 KiB random reads (the small-versus-large curve)", bench_io_test_run},
	{"seq_read_1m", BENCH_PATTERN_SEQUENTIAL, false, false, false, 1 * MiB, 8, Q,
	 "1 MiB sequential reads, 8 in flight: streaming bandwidth", bench_io_test_run},
	{"rand_write_4k_qd1", BENCH_PATTERN_RANDOM, true, false, false, 4 * KiB, 1, F,
	 "4 KiB random overwrites, one at a time", bench_io_test_run},
	{"rand_write_4k_qd32", BENCH_PATTERN_RANDOM, true, false, false, 4 * KiB, 32, F,
	 "4 KiB random overwrites, 32 in flight", bench_io_test_run},
	{"seq_write_1m", BENCH_PATTERN_SEQUENTIAL, true, false, false, 1 * MiB, 8, Q,
	 "1 MiB sequential overwrites, 8 in flight", bench_io_test_run},
	{"fsync_4k_overwrite", BENCH_PATTERN_RANDOM, true, true, false, 4 * KiB, 1, Q,
	 "4 KiB overwrites, each followed by fdatasync: a commit", bench_io_test_run},
	{"fsync_4k_append", BENCH_PATTERN_APPEND, true, true, false, 4 * KiB, 1, F,
	 "4 KiB appends, each followed by fdatasync: a log", bench_io_test_run},
	/* the file benchmarks (probes/bench/file_*.c) */
	{"smallfile", BENCH_PATTERN_FILES, true, false, true, 0, 1, F,
	 "Postmark's small-file transactions (create, read, append, delete)", bench_file_smallfile_run},
	{"smallfile_fsync", BENCH_PATTERN_FILES, true, true, true, 0, 1, F,
	 "the same with an fsync per file and per create's directory", bench_file_smallfile_fsync_run},
	{"metadata", BENCH_PATTERN_FILES, true, false, true, 0, 1, F,
	 "create, stat and unlink of many files over directories", bench_file_metadata_run},
	{"tree", BENCH_PATTERN_FILES, true, false, true, 0, 1, F,
	 "write a tree of the workload's files, then read it back", bench_file_tree_run},
};
const size_t bench_n_tests = sizeof bench_tests / sizeof bench_tests[0];

/* The row named `name` of a table of n rows of `size` bytes, each a struct whose first member is its
 * name (`const char *`, as in both tables here); NULL when none. */
static const void *row_find(const void *rows, size_t n, size_t size, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const void *row = (const char *)rows + i * size;

		if (!strcmp(*(const char *const *)row, name))
			return row;
	}
	return NULL;
}

const struct bench_test_def *bench_test_find(const char *name)
{
	return row_find(bench_tests, bench_n_tests, sizeof bench_tests[0], name);
}

#define OFF(field) offsetof(struct bench_config, field)

const struct bench_param bench_params[] = {
	{"suite", BENCH_PARAM_SUITE, "quick", 0, 0, "quick|full",
	 "which tests: quick (5 tests, ~6 s) or full (all, ~45 s)", OFF(suite)},
	{"tests", BENCH_PARAM_TESTS, "", 0, 0, "LIST",
	 "comma-separated test names instead of a suite", OFF(tests)},
	{"runtime", BENCH_PARAM_SECONDS, "0", 0.05, 3600, "S",
	 "measured seconds per test; 0: until the rate settles (95% interval within 3%), at most 0.7 (quick) or 2 (full)", OFF(runtime_s)},
	{"warmup", BENCH_PARAM_SECONDS, "0.1", 0, 600, "S",
	 "seconds run before each test, not counted", OFF(warmup_s)},
	{"size", BENCH_PARAM_SIZE, "0", 0, 1099511627776.0, "BYTES",
	 "test span (>= 256 MiB); 0: min(1 GiB, 90% of free)", OFF(size_bytes)},
	{"engine", BENCH_PARAM_ENGINE, "auto", 0, 0, "E",
	 "auto, io_uring, psync, psync-threads, null (no I/O)", OFF(engine)},
	{"busy-check", BENCH_PARAM_SECONDS, "0.5", 0, 60, "S",
	 "seconds to watch the device for other I/O first",
	 OFF(busy_check_s)},
};
const size_t bench_n_params = sizeof bench_params / sizeof bench_params[0];

const struct bench_param *bench_param_find(const char *name)
{
	return row_find(bench_params, bench_n_params, sizeof bench_params[0], name);
}

void bench_config_init(struct bench_config *cfg)
{
	size_t i;

	memset(cfg, 0, sizeof *cfg);
	for (i = 0; i < bench_n_params; i++)
		bench_param_set(cfg, &bench_params[i], bench_params[i].def, NULL);
}

int bench_param_set(struct bench_config *cfg, const struct bench_param *p, const char *value,
		    struct fst_error *err)
{
	char *field = (char *)cfg + p->offset;
	double d;
	uint64_t u;

	switch (p->type) {
	case BENCH_PARAM_SUITE:
		if (!strcmp(value, "quick"))
			*(unsigned *)(void *)field = BENCH_SUITE_QUICK;
		else if (!strcmp(value, "full"))
			*(unsigned *)(void *)field = BENCH_SUITE_FULL;
		else
			return fst_error_set(err, FST_EXIT_USAGE, "--%s: '%s' is not a suite; use quick or full",
					     p->name, value);
		return FST_EXIT_OK;
	case BENCH_PARAM_TESTS:
		if (strlen(value) >= sizeof cfg->tests)
			return fst_error_set(err, FST_EXIT_USAGE, "--%s: the list is too long", p->name);
		memcpy(field, value, strlen(value) + 1);
		return FST_EXIT_OK;
	case BENCH_PARAM_SECONDS:
		/* 0 is always allowed: it means "the default of the suite" where the help says so */
		if (!units_parse_seconds(value, &d) || (d != 0 && (d < p->min || d > p->max)))
			return fst_error_set(err, FST_EXIT_USAGE,
					     "--%s: '%s' is not a duration from %g to %g seconds (e.g. 2, 500ms)",
					     p->name, value, p->min, p->max);
		*(double *)(void *)field = d;
		return FST_EXIT_OK;
	case BENCH_PARAM_SIZE:
		if (!units_parse_size(value, &u) || (u != 0 && ((double)u < p->min || (double)u > p->max)))
			return fst_error_set(err, FST_EXIT_USAGE,
					     "--%s: '%s' is not a size up to 1 TiB (e.g. 1G, 512M)", p->name, value);
		*(uint64_t *)(void *)field = u;
		return FST_EXIT_OK;
	case BENCH_PARAM_ENGINE: {
		enum bench_engine_id id;

		if (!bench_engine_parse(value, &id))
			return fst_error_set(err, FST_EXIT_USAGE,
					     "--%s: unknown engine '%s'; use auto, io_uring, psync, psync-threads "
					     "or null", p->name, value);
		*(enum bench_engine_id *)(void *)field = id;
		return FST_EXIT_OK;
	}
	}
	return fst_error_set(err, FST_EXIT_USAGE, "--%s: unknown parameter type", p->name);
}

char *bench_param_format(const struct bench_config *cfg, const struct bench_param *p)
{
	const char *field = (const char *)cfg + p->offset;
	char buf[UNITS_BUFSZ];

	switch (p->type) {
	case BENCH_PARAM_SUITE:
		return xstrdup(*(const unsigned *)(const void *)field == BENCH_SUITE_FULL ? "full" : "quick");
	case BENCH_PARAM_TESTS:
		return xstrdup(field);
	case BENCH_PARAM_SECONDS:
		return xasprintf("%g s", *(const double *)(const void *)field);
	case BENCH_PARAM_SIZE:
		if (!*(const uint64_t *)(const void *)field)
			return xstrdup("auto");
		return xstrdup(units_bytes(buf, sizeof buf, *(const uint64_t *)(const void *)field));
	case BENCH_PARAM_ENGINE:
		return xstrdup(bench_engine_name(*(const enum bench_engine_id *)(const void *)field));
	}
	return xstrdup("?");
}

static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while (*p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == n && !strncmp(p, name, n))
			return true;
		p += len + (end ? 1 : 0);
	}
	return false;
}

int bench_select(const struct bench_config *cfg, const struct bench_test_def **out, size_t *n,
		 struct fst_error *err)
{
	size_t i;

	*n = 0;
	if (cfg->tests[0]) {
		const char *p = cfg->tests;

		while (*p) {
			const char *end = strchr(p, ',');
			size_t len = end ? (size_t)(end - p) : strlen(p);
			char name[64];

			if (len == 0 || len >= sizeof name || (snprintf(name, sizeof name, "%.*s", (int)len, p),
							      !bench_test_find(name))) {
				char *known = xstrdup("");

				for (i = 0; i < bench_n_tests; i++) {
					char *t = xasprintf("%s%s%s", known, i ? ", " : "", bench_tests[i].name);

					free(known);
					known = t;
				}
				fst_error_set(err, FST_EXIT_USAGE, "--tests: unknown test '%.*s'; known tests: %s",
					      (int)len, p, known);
				free(known);
				return FST_EXIT_USAGE;
			}
			p += len + (end ? 1 : 0);
		}
		for (i = 0; i < bench_n_tests; i++)
			if (in_list(cfg->tests, bench_tests[i].name))
				out[(*n)++] = &bench_tests[i];
		return FST_EXIT_OK;
	}
	for (i = 0; i < bench_n_tests; i++)
		if (bench_tests[i].suites & cfg->suite)
			out[(*n)++] = &bench_tests[i];
	return FST_EXIT_OK;
}
