/* Unit tests of the workload facts: flag parsing, presets and overrides with their sources, the
 * observer's arithmetic on a fake sysfs stat file (through --sysroot), the sampler's reservoir. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fstune/path.h"
#include "fstune/workload.h"
#include "tests/lib/check.h"

static long long get_int(const struct facts *f, const char *key)
{
	long long v = -1;

	CHECK(facts_get_int(f, key, &v));
	return v;
}

static void test_parsing(void)
{
	struct workload_spec w = WORKLOAD_SPEC_INIT;
	struct fst_error err = FST_ERROR_INIT;

	CHECK(workload_spec_set_file_size(&w, "1k-64k", &err) == FST_EXIT_OK);
	CHECK(w.file_size_min_bytes == 1024 && w.file_size_max_bytes == 65536);
	CHECK(workload_spec_set_file_size(&w, "4096", &err) == FST_EXIT_OK);
	CHECK(w.file_size_min_bytes == 4096 && w.file_size_max_bytes == 4096);
	CHECK(workload_spec_set_file_size(&w, "64k-1k", &err) == FST_EXIT_USAGE);
	CHECK_CONTAINS(err.msg, "minimum is larger");
	CHECK(workload_spec_set_file_size(&w, "1k-", &err) == FST_EXIT_USAGE);
	CHECK(workload_spec_set_file_size(&w, "-5", &err) == FST_EXIT_USAGE);
	CHECK(workload_spec_set_file_size(&w, "x-y", &err) == FST_EXIT_USAGE);
	CHECK_CONTAINS(err.msg, "--file-size x-y");
	CHECK(workload_spec_set_files(&w, "1000000", &err) == FST_EXIT_OK && w.files_total == 1000000);
	CHECK(workload_spec_set_files(&w, "0", &err) == FST_EXIT_USAGE);
	CHECK(workload_spec_set_files(&w, "1M", &err) == FST_EXIT_USAGE);
	CHECK(workload_spec_set_files(&w, "-3", &err) == FST_EXIT_USAGE);
	CHECK(workload_spec_set_files_per_dir(&w, "1000", &err) == FST_EXIT_OK);
	CHECK(workload_spec_set_access(&w, "sequential", &err) == FST_EXIT_OK);
	CHECK(w.access == WORKLOAD_ACCESS_SEQUENTIAL);
	CHECK(workload_spec_set_access(&w, "Random", &err) == FST_EXIT_USAGE);
	CHECK(workload_spec_set_io_size(&w, "8k", &err) == FST_EXIT_OK && w.io_size_bytes == 8192);
	CHECK(workload_spec_set_io_size(&w, "1000", &err) == FST_EXIT_USAGE);
	CHECK_CONTAINS(err.msg, "multiple of 512");
	CHECK(workload_spec_set_io_size(&w, "0", &err) == FST_EXIT_USAGE);
	CHECK(workload_spec_set_io_mode(&w, "mmap", &err) == FST_EXIT_OK && w.io_mode == WORKLOAD_IO_MMAP);
	CHECK(workload_spec_set_io_mode(&w, "async", &err) == FST_EXIT_USAGE);
	CHECK(workload_spec_set_preset(&w, "mail", &err) == FST_EXIT_USAGE);
	CHECK_CONTAINS(err.msg, "smallfiles, source-tree, database, largefiles or general");
	CHECK(workload_spec_set_observe(&w, "2s", &err) == FST_EXIT_OK && w.observe_s == 2.0);
	CHECK(workload_spec_set_observe(&w, "0", &err) == FST_EXIT_USAGE);
	CHECK(workload_spec_set_sample_time(&w, "10m", &err) == FST_EXIT_OK && w.sample_time_s == 600.0);
}

static void test_presets(void)
{
	struct workload_spec w = WORKLOAD_SPEC_INIT;
	struct fst_error err = FST_ERROR_INIT;
	struct facts *f = facts_new();
	size_t i;

	/* Every preset is internally ordered: min <= p50 <= p90 <= max, mean within range. */
	for (i = 0; i < workload_preset_count; i++) {
		const struct workload_preset *p = &workload_presets[i];

		CHECK(p->file_size_min_bytes <= p->file_size_p50_bytes);
		CHECK(p->file_size_p50_bytes <= p->file_size_p90_bytes);
		CHECK(p->file_size_p90_bytes <= p->file_size_max_bytes);
		CHECK(p->file_size_mean_bytes >= p->file_size_min_bytes);
		CHECK(p->file_size_mean_bytes <= p->file_size_max_bytes);
		CHECK(p->io_size_bytes % 512 == 0 && p->files_total && p->files_per_dir);
	}
	workload_spec_apply_preset(&w, f);
	workload_spec_apply_overrides(&w, f);
	CHECK_STR(facts_get_string(f, "workload.profile"), "general");
	CHECK_STR(facts_source(f, "workload.profile"), "default");
	CHECK_STR(facts_source(f, "workload.files_total"), "default");
	facts_free(f);

	f = facts_new();
	CHECK(workload_spec_set_preset(&w, "database", &err) == FST_EXIT_OK);
	CHECK(workload_spec_set_io_size(&w, "16k", &err) == FST_EXIT_OK);
	CHECK(workload_spec_set_file_size(&w, "1000-2000", &err) == FST_EXIT_OK);
	w.sync_heavy = 0;
	workload_spec_apply_preset(&w, f);
	workload_spec_apply_overrides(&w, f);
	CHECK_STR(facts_get_string(f, "workload.profile"), "database");
	CHECK_STR(facts_source(f, "workload.profile"), "preset");
	CHECK(get_int(f, "workload.io_size_bytes") == 16384);
	CHECK_STR(facts_source(f, "workload.io_size_bytes"), "user");
	CHECK_STR(facts_get_string(f, "workload.access"), "random");
	CHECK_STR(facts_source(f, "workload.access"), "preset");
	CHECK(get_int(f, "workload.file_size_p50_bytes") == 1500);
	CHECK(get_int(f, "workload.file_size_p90_bytes") == 1900);
	CHECK(get_int(f, "workload.bytes_total") == 1000 * 1500);
	CHECK_STR(facts_source(f, "workload.bytes_total"), "user");
	{
		bool b = true;

		CHECK(facts_get_bool(f, "workload.sync_heavy", &b) && !b);
		CHECK_STR(facts_source(f, "workload.sync_heavy"), "user");
	}
	facts_free(f);
}

static char sysroot[64];
static int ticks;

static void write_stat(const char *line)
{
	char path[256];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/sys/class/block/fake0/stat", sysroot);
	fp = fopen(path, "w");
	CHECK(fp != NULL);
	if (fp) {
		fputs(line, fp);
		fclose(fp);
	}
}

/* Rewrites the counters during the observation, as a running workload would. */
static bool tick(double done_s, double total_s, void *arg)
{
	(void)done_s, (void)total_s, (void)arg;
	if (ticks++ == 0)
		/* +300 reads of 8 sectors, +100 writes of 24 sectors, io_ticks +100 ms, queue +400 ms */
		write_stat("    1300 0 10800 50 200 0 2800 40 0 1100 1400 0 0 0 0 0 0\n");
	return true;
}

static void test_observe(void)
{
	struct workload_diskstat a, b;
	struct workload_observation o;
	char cmd[128];
	struct facts *f;

	strcpy(sysroot, "/tmp/fstune-wl-unit.XXXXXX");
	CHECK(mkdtemp(sysroot) != NULL);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/sys/class/block/fake0", sysroot);
	CHECK(system(cmd) == 0);
	path_set_sysroot(sysroot);
	write_stat("    1000 0 8400 50 100 0 400 40 0 1000 1000\n");
	CHECK(workload_diskstat_read("fake0", &a) == 0);
	CHECK(a.read_ios == 1000 && a.read_sectors == 8400 && a.write_ios == 100 && a.io_ticks_ms == 1000);
	CHECK(a.time_in_queue_ms == 1000 && a.discard_ios == 0);
	CHECK(workload_diskstat_read("nosuch", &b) == -2); /* -ENOENT */
	CHECK(workload_diskstat_read("../x", &b) == -22);

	ticks = 0;
	CHECK(workload_observe("fake0", 0.5, tick, NULL, &o) == 0);
	CHECK(o.reads == 300 && o.writes == 100);
	CHECK(o.read_bytes == 300 * 8 * 512 && o.write_bytes == 100 * 24 * 512);
	CHECK(o.read_share == 0.75);
	CHECK(o.mean_request_bytes == (300.0 * 4096 + 100.0 * 12288) / 400);
	CHECK(o.elapsed_s >= 0.5 && o.elapsed_s < 1.5);
	CHECK(o.busy_share > 0.1 / o.elapsed_s - 1e-9 && o.busy_share < 0.1 / o.elapsed_s + 1e-9);
	CHECK(o.inflight_mean > 0.4 / o.elapsed_s - 1e-9 && o.inflight_mean < 0.4 / o.elapsed_s + 1e-9);

	/* The busy check before benchmarks: an idle second is not busy. */
	{
		bool busy = true;

		CHECK(workload_busy_check("fake0", &busy, &o) == 0);
		CHECK(!busy && o.busy_share == 0 && o.elapsed_s >= 1.0);
		CHECK(workload_busy_check("nosuch", &busy, NULL) == -2);
		/* The one threshold, also behind bench.busy_check.busy: busy from 5% on. */
		CHECK(workload_observation_busy(&(struct workload_observation){.busy_share = WORKLOAD_BUSY_SHARE}));
		CHECK(!workload_observation_busy(&(struct workload_observation){.busy_share = 0.049}));
	}

	/* Counters going backwards (a re-attached device) are refused, not turned into nonsense. */
	a = (struct workload_diskstat){.read_ios = 5, .when_s = 0};
	b = (struct workload_diskstat){.read_ios = 4, .when_s = 1};
	CHECK(!workload_diskstat_delta(&a, &b, &o));

	/* An idle interval: no requests, so no read share or request size, but busy 0. */
	a = (struct workload_diskstat){.read_ios = 5, .when_s = 0};
	b = (struct workload_diskstat){.read_ios = 5, .when_s = 2};
	CHECK(workload_diskstat_delta(&a, &b, &o) && !o.has_io && o.busy_share == 0);
	f = facts_new();
	workload_observation_to_facts(&o, "fake0", f);
	CHECK(!facts_has(f, "workload.read_share"));
	CHECK(facts_unavailable(f, "workload.read_share", NULL, NULL));
	CHECK_STR(facts_source(f, "workload.busy_share"), "observe");
	facts_free(f);

	path_set_sysroot(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", sysroot);
	CHECK(system(cmd) == 0);
}

static int progress_calls;

/* A progress callback that cancels: the walk stops and says so. */
static bool stop_at_once(const struct workload_sample_progress *p, void *arg)
{
	(void)arg;
	progress_calls++;
	CHECK(p->files == 256 && p->dirs == 1);
	return false;
}

/* Past reservoir_max the percentiles come from a uniform sample: close, and flagged inexact. */
static void test_reservoir(void)
{
	char dir[] = "/tmp/fstune-wl-res.XXXXXX", path[128], cmd[128];
	struct workload_sample_options opt = {.reservoir_max = 200};
	struct workload_sample_result r;
	struct fst_error err = FST_ERROR_INIT;
	int i;

	CHECK(mkdtemp(dir) != NULL);
	for (i = 1; i <= 2000; i++) {
		snprintf(path, sizeof(path), "%s/f%d", dir, i);
		FILE *fp = fopen(path, "w");

		CHECK(fp != NULL);
		if (fp) {
			fclose(fp);
			CHECK(truncate(path, i) == 0);
		}
	}
	CHECK(workload_sample(dir, &opt, &r, &err) == FST_EXIT_OK);
	CHECK(r.files == 2000 && r.size_min == 1 && r.size_max == 2000);
	CHECK(!r.percentiles_exact);
	CHECK(r.size_p50 > 800 && r.size_p50 < 1200);
	CHECK(r.size_p90 > 1650 && r.size_p90 < 1950);
	CHECK(r.bytes == 2000ULL * 2001 / 2);
	opt.reservoir_max = 0;
	CHECK(workload_sample(dir, &opt, &r, &err) == FST_EXIT_OK);
	CHECK(r.percentiles_exact && r.size_p50 == 1000 && r.size_p90 == 1800);
	opt.progress = stop_at_once;
	CHECK(workload_sample(dir, &opt, &r, &err) == FST_EXIT_OK);
	CHECK(r.partial && r.cancelled && r.files > 0 && r.files < 2000);
	CHECK(progress_calls == 1);
	opt.progress = NULL;
	snprintf(path, sizeof(path), "%s/f1", dir);
	CHECK(workload_sample(path, &opt, &r, &err) == FST_EXIT_USAGE);
	CHECK_CONTAINS(err.msg, "Not a directory");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
}

int main(void)
{
	test_parsing();
	test_presets();
	test_observe();
	test_reservoir();
	return CHECK_DONE();
}
