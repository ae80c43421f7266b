/* The whole driver through the null engine: queue depth held, mean in-flight reported, the numbers
 * the null engine's deterministic latencies imply (mean 40 µs: QD1 25,000 IOPS, QD32 800,000), the
 * consistency checks passing, and two runs giving identical results. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fstune/bench.h"
#include "fstune/probe.h"

static int failures;

static double get(const struct facts *f, const char *test, const char *leaf)
{
	char k[128];
	double v = NAN;

	snprintf(k, sizeof k, "bench.%s.%s", test, leaf);
	if (!facts_get_real(f, k, &v)) {
		fprintf(stderr, "FAIL %s: absent\n", k);
		failures++;
	}
	return v;
}

static void near(const char *what, double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol * want)) {
		fprintf(stderr, "FAIL %s: got %g, want %g (±%.1f%%)\n", what, got, want, tol * 100);
		failures++;
	} else {
		printf("ok %s: %g (want %g)\n", what, got, want);
	}
}

static struct facts *run(const char *dir, const char *tests)
{
	struct bench_config cfg;
	struct probe_target t;
	struct bench_result res;
	struct fst_error err = FST_ERROR_INIT;
	struct facts *f = facts_new();
	int r;

	memset(&t, 0, sizeof t);
	if (target_resolve(dir, &t, &err) != FST_EXIT_OK) {
		fprintf(stderr, "target_resolve %s: %s\n", dir, err.msg);
		exit(99);
	}
	bench_config_init(&cfg);
	bench_param_set(&cfg, bench_param_find("engine"), "null", NULL);
	bench_param_set(&cfg, bench_param_find("tests"), tests, NULL);
	bench_param_set(&cfg, bench_param_find("runtime"), "0.2", NULL);
	bench_param_set(&cfg, bench_param_find("warmup"), "0.05", NULL);
	r = bench_run(&t, &cfg, f, &res, &err);
	if (r != FST_EXIT_OK) {
		fprintf(stderr, "FAIL bench_run: status %d: %s\n", r, err.msg);
		failures++;
	}
	bench_result_free(&res);
	target_free(&t);
	return f;
}

int main(void)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	struct facts *a = run(dir, "rand_read_4k_qd1,rand_read_4k_qd32,seq_write_1m");
	struct facts *b = run(dir, "rand_read_4k_qd1,rand_read_4k_qd32,seq_write_1m");
	bool ok = false;
	const char *s;

	near("qd32 inflight_mean", get(a, "rand_read_4k_qd32", "inflight_mean"), 32, 0.01);
	near("qd32 iops", get(a, "rand_read_4k_qd32", "iops"), 32 / 40e-6, 0.02);
	near("qd32 lat_mean_us", get(a, "rand_read_4k_qd32", "lat_mean_us"), 40, 0.01);
	near("qd32 lat_p50_us", get(a, "rand_read_4k_qd32", "lat_p50_us"), 40, 0.03);
	near("qd32 lat_p99_us", get(a, "rand_read_4k_qd32", "lat_p99_us"), 59.6, 0.03);
	near("qd32 lat_max_us", get(a, "rand_read_4k_qd32", "lat_max_us"), 60, 0.01);
	near("qd32 queue_depth", get(a, "rand_read_4k_qd32", "queue_depth"), 32, 0);
	near("qd32 runtime_s", get(a, "rand_read_4k_qd32", "runtime_s"), 0.2, 0.001);
	near("qd1 iops", get(a, "rand_read_4k_qd1", "iops"), 25000, 0.02);
	near("qd1 inflight_mean", get(a, "rand_read_4k_qd1", "inflight_mean"), 1, 0.01);
	near("qd1 samples", get(a, "rand_read_4k_qd1", "samples"), 5000, 0.02);
	near("seq_write_1m bw", get(a, "seq_write_1m", "bw_bytes_per_s"), 8 / 40e-6 * 1048576, 0.02);
	near("seq_write_1m inflight_mean", get(a, "seq_write_1m", "inflight_mean"), 8, 0.01);
	/* 5000 samples: p99 yes, p99.9 absent with its reason */
	if (facts_has(a, "bench.rand_read_4k_qd1.lat_p999_us") ||
	    !facts_unavailable(a, "bench.rand_read_4k_qd1.lat_p999_us", NULL, &s) || !strstr(s, "10000")) {
		fprintf(stderr, "FAIL qd1 p99.9 should be absent with a reason\n");
		failures++;
	}
	if (!facts_get_bool(a, "bench.rand_read_4k_qd32.checks_ok", &ok) || !ok) {
		fprintf(stderr, "FAIL qd32 checks_ok\n");
		failures++;
	}
	if (!facts_get_bool(a, "bench.rand_read_4k_qd1.checks_ok", &ok) || !ok) {
		fprintf(stderr, "FAIL qd1 checks_ok\n");
		failures++;
	}
	s = facts_get_string(a, "bench.rand_read_4k_qd32.engine");
	if (!s || strcmp(s, "null")) {
		fprintf(stderr, "FAIL engine: %s\n", s ? s : "(absent)");
		failures++;
	}
	near("deterministic iops", get(b, "rand_read_4k_qd32", "iops"), get(a, "rand_read_4k_qd32", "iops"), 0);
	near("deterministic p99", get(b, "rand_read_4k_qd32", "lat_p99_us"), get(a, "rand_read_4k_qd32", "lat_p99_us"), 0);
	facts_free(a);
	facts_free(b);
	return failures ? 1 : 0;
}
