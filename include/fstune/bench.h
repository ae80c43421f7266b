/* The micro-benchmarks: the test table, the parameter table, and the one entry point that runs a suite on
 * a target and puts the results into the facts as bench.<test>.* (DESIGN.md, "Benchmark honesty").
 *
 * Two layers, as fio has: engines (how I/O is submitted: io_uring, psync, psync threads, null) live in
 * probes/bench/engine_*.c behind an internal ops struct; tests (what is measured) are rows of the table
 * below, each with its own run function, so file benchmarks (smallfile, metadata, tree) are new rows.
 *
 * Nothing here prints or exits. Results, refusals and notes come back as facts, a status and JSON. */
#ifndef FSTUNE_BENCH_H
#define FSTUNE_BENCH_H

#include <jansson.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fstune/error.h"
#include "fstune/facts.h"
#include "fstune/probe.h"

/* ---- Engines ---- */

enum bench_engine_id {
	BENCH_ENGINE_AUTO,          /* QD1: psync; QD>1: io_uring, else psync threads */
	BENCH_ENGINE_IO_URING,
	BENCH_ENGINE_PSYNC,         /* forced on a QD>1 test: one psync thread per slot */
	BENCH_ENGINE_PSYNC_THREADS,
	BENCH_ENGINE_NULL,          /* no I/O: a virtual clock and deterministic latencies */
};
const char *bench_engine_name(enum bench_engine_id id); /* "io_uring", "psync", ... "auto" */
bool bench_engine_parse(const char *name, enum bench_engine_id *out);

/* ---- Tests ---- */

enum bench_suite {
	BENCH_SUITE_QUICK = 1 << 0,
	BENCH_SUITE_FULL = 1 << 1,
};

enum bench_pattern {
	BENCH_PATTERN_RANDOM,     /* uniform over the span, aligned to the I/O size */
	BENCH_PATTERN_SEQUENTIAL, /* from offset 0, wrapping at the span */
	BENCH_PATTERN_APPEND,     /* past the end of a fresh file */
	BENCH_PATTERN_FILES,      /* a file benchmark (smallfile, metadata, tree): its own run function */
};

struct bench_ctx; /* one run's state: target, scratch directory, data file, stop flag (internal) */
struct bench_test_def;

/* A test's run function. Returns FST_EXIT_OK with bench.<name>.* set, FST_EXIT_PARTIAL with
 * bench.<name> marked failed (an I/O error: no numbers are kept), or 128+n when stopped by signal n. */
typedef int (*bench_test_fn)(struct bench_ctx *ctx, const struct bench_test_def *def, struct facts *f);

struct bench_test_def {
	const char *name;            /* the facts key below "bench." */
	enum bench_pattern pattern;
	bool is_write;               /* refused on an unmounted block device */
	bool is_fsync;               /* fdatasync after each write, inside the timed I/O */
	bool needs_directory;        /* a file test: cannot run on a raw device */
	uint32_t io_size;            /* bytes per I/O; 0 for file tests */
	unsigned queue_depth;        /* I/Os held in flight */
	unsigned suites;             /* BENCH_SUITE_* bits */
	const char *summary;         /* one line for --help and the report */
	bench_test_fn run;
};

/* A test whose threads waited for a CPU longer than this share of the run (bench.<test>.cpu_wait_pct)
 * is noted by the run and the report: the wait is inside its latencies. Our own heuristic line: the
 * wait was 0.01-0.7% of a run on a quiet machine here, 11-23% under `make -j2 check` on 2 CPUs. */
#define BENCH_CPU_WAIT_NOTE_PCT 10.0

/* The table, in run order (reads before writes, so the laid-out data is read as written). */
extern const struct bench_test_def bench_tests[];
extern const size_t bench_n_tests;
const struct bench_test_def *bench_test_find(const char *name);

/* ---- Parameters, declared once (fio's options.c): they drive the command line, the report's
 * "parameters used" block and the wizard's form. ---- */

enum bench_param_type {
	BENCH_PARAM_SUITE,   /* "quick" | "full" */
	BENCH_PARAM_TESTS,   /* comma-separated test names; "" = the suite's tests */
	BENCH_PARAM_SECONDS, /* a duration: "2", "500ms", "1.5s" */
	BENCH_PARAM_SIZE,    /* bytes: "1G", "512M"; 0 = automatic */
	BENCH_PARAM_ENGINE,  /* an engine name */
};

struct bench_config;

struct bench_param {
	const char *name;       /* the long option (--name) and the key in the parameters block */
	enum bench_param_type type;
	const char *def;        /* default, as the user would type it */
	double min, max;        /* range for SECONDS and SIZE (bytes); SIZE 0 is always allowed */
	const char *arg;        /* the placeholder in usage ("S", "BYTES", "LIST", "E") */
	const char *help;       /* one line */
	size_t offset;          /* where the value lives in struct bench_config */
};
extern const struct bench_param bench_params[];
extern const size_t bench_n_params;
const struct bench_param *bench_param_find(const char *name);

/* What a progress line shows, as it settles. */
struct bench_live {
	double rate;   /* of the last ~100 ms: IOPS (ops/s for a file test), bytes/s during the layout;
			  0 when unknown */
	double p50_us; /* the latencies measured so far in this test (warm-up excluded); 0 while too few
			  samples were taken for the percentile, or where the run has several workers */
	double p99_us;
};

/* `fraction` is 0..1 of the current test; during the layout `test` is "layout". Called from the
 * benchmarking thread at most ~10 times a second. Return false to cancel the run (it then ends as if
 * stopped by a signal, with status 130). */
typedef bool (*bench_progress_fn)(void *arg, const char *test, double fraction, const struct bench_live *live);

struct bench_config {
	unsigned suite;          /* BENCH_SUITE_QUICK or BENCH_SUITE_FULL */
	char tests[512];         /* comma-separated names; "" = the suite */
	double runtime_s;        /* measured time per test, after warm-up */
	double warmup_s;         /* run but not counted, before each test */
	uint64_t size_bytes;     /* the test span; 0 = automatic (bench_can_run says how much) */
	enum bench_engine_id engine;
	double busy_check_s;     /* how long to watch the device's stat before benchmarks; 0 = skip */

	bench_progress_fn progress;          /* NULL: none */
	void *progress_arg;
	/* Polled during the run: non-zero (a signal number) stops it, drains in-flight I/O, removes the
	 * scratch directory, and bench_run returns 128+n. NULL: bench_stop_flag(). */
	const volatile sig_atomic_t *stop;
	/* The filesystem is the caller's own scratch (trial made it): no benchmark lock is taken. A run
	 * anywhere else holds /run/fstune/bench-<fsid>.lock, and a second run is refused. */
	bool is_own_scratch;
};

/* Fills every parameter with its default (the table's `def`). */
void bench_config_init(struct bench_config *cfg);
/* How long one I/O test runs at most (after warm-up): cfg->runtime_s when given, else the cap at
 * which an adaptive test stops if its rate has not settled (0.7 s; 2 s for the whole full suite). */
double bench_runtime_cap_s(const struct bench_config *cfg);
/* Parses and checks one parameter. FST_EXIT_OK, or FST_EXIT_USAGE with a message naming the option,
 * the bad value and the accepted range. */
int bench_param_set(struct bench_config *cfg, const struct bench_param *p, const char *value,
		    struct fst_error *err);
/* The value as text ("2 s", "auto", "quick"), caller frees. */
char *bench_param_format(const struct bench_config *cfg, const struct bench_param *p);

/* The tests a config selects, in table order. FST_EXIT_USAGE for an unknown name (the message lists
 * the known ones). `out` has room for bench_n_tests entries; `*n` is set. */
int bench_select(const struct bench_config *cfg, const struct bench_test_def **out, size_t *n,
		 struct fst_error *err);

/* ---- Whether and how a target can be benchmarked ---- */

enum bench_mode {
	BENCH_MODE_NONE,        /* nothing can run here: the plan's status and reason say why */
	BENCH_MODE_DIRECTORY,   /* read and write tests in a scratch directory under `dir` */
	BENCH_MODE_DEVICE_READ, /* an unmounted block device: read tests only, nothing is written */
};

/* The answer of bench_can_run. Owned by the caller: bench_plan_free. */
struct bench_plan {
	enum bench_mode mode;
	int status;              /* FST_EXIT_OK when it can run; else FST_EXIT_REFUSED (safety, space) or
				    FST_EXIT_USAGE (an image file, a captured machine, a bad test list) */
	char reason[768];        /* NONE: why not, naming the numbers; otherwise how, in one line */
	char *dir;               /* DIRECTORY: the directory the run writes under; else NULL */
	uint64_t span_bytes;     /* the test span (data file or device range) */
	uint64_t budget_bytes;   /* DIRECTORY: the most the whole run may write */
	uint64_t free_bytes;     /* DIRECTORY: free space for this user (f_bavail), leftovers included */
	uint64_t leftover_bytes; /* DIRECTORY: what fstune's own dead scratch directories there hold */
	json_t *leftovers;       /* array of {path, pid, bytes}: scratch directories of killed runs */
};

/* Decides, writing nothing, whether TARGET (resolved by target_resolve) can be benchmarked with `cfg`
 * (NULL: the defaults), how, and if not why. The report's default suite, `fstune bench` (bench_run
 * asks it first) and the wizard's Target screen all ask this one function.
 *
 * A directory run never takes the filesystem past FST_SPACE_FULL_SHARE of its usable space nor below
 * 512 MiB free; an explicit cfg->size_bytes may go further, down to 256 MiB free, and the plan's
 * reason says so. fstune's own leftovers of killed runs are found first and named in every message
 * about space (they are not removed: bench_leftover_remove, `fstune bench --clean`). */
int bench_can_run(const struct probe_target *t, const struct bench_config *cfg, struct bench_plan *plan);
void bench_plan_free(struct bench_plan *plan);

/* ---- Running ---- */

/* What a run says besides the facts. Owned by the caller: bench_result_free. */
struct bench_result {
	json_t *params;    /* object: the parameters used, by name, plus span_bytes, direct, engine
			      choices and the directory used ("parameters used" block) */
	json_t *notes;     /* array of strings the user should read: the mount point used for a mounted
			      device, a busy device, skipped tests, failed consistency checks */
	json_t *leftovers; /* array of {path, pid, bytes}: scratch directories of killed runs found */
	char *dir;         /* the directory benchmarked; NULL for a raw device */
};
void bench_result_free(struct bench_result *r);

/* Runs the selected tests on TARGET (already resolved by target_resolve) and sets bench.<test>.* in
 * `f` (source "bench"), bench.parameters (the parameters used), and bench.busy_check.{busy,
 * busy_share, seconds, read_iops, write_iops, device} when the busy check ran. Every direct child of
 * "bench" is an object; the tests are those for which bench_test_find() knows the name. Tests that cannot run on this target are marked unavailable (not_applicable) with
 * the reason.
 *
 * Returns the status: FST_EXIT_OK; FST_EXIT_USAGE (an image file; a bad --tests list; err set);
 * FST_EXIT_REFUSED (no space, no inodes, a read-only mount, a span below the floor, a write test on
 * a raw device; err set, nothing ran); FST_EXIT_PARTIAL (a test failed: ENOSPC or EIO mid-run, err
 * set, bench.<test> marked failed); 128+n when stopped by signal n (nothing is left behind; the caller
 * re-raises, see bench_stop_reraise). `res` is filled in every case. */
int bench_run(const struct probe_target *t, const struct bench_config *cfg, struct facts *f,
	      struct bench_result *res, struct fst_error *err);

/* bench.<test>.<leaf> as a number, NAN when absent; as a bool, false when absent. */
double bench_figure(const struct facts *f, const char *test, const char *leaf);
bool bench_flagged(const struct facts *f, const char *test, const char *leaf);

/* Judges the bench.<test> figures in `f` against what the hardware `device` describes (its device.*
 * and host.* facts: `f` itself in a report, a private probe in `fstune bench`), and sets:
 * bench.<test>.implausible, implausible_reason (the limit and its source) and implausible_limit (IOPS)
 * where even the low end of a figure's 95% interval is above what the link carries (USB, SATA, PCIe
 * on bare metal) or a rotating disk does (random reads, fsync'd writes, where the rotational claim is
 * credible: a disk bus on bare metal, no hidden RAID); bench.rotational_claim.{contradicted_by,
 * reason} where the claim is not credible and a figure contradicts it; cache_suspect (with the
 * reason) on the reads and plain writes of a loop device without direct I/O. Each flag is also a
 * note in `notes` when given. Safe to call again on facts it judged before. */
void bench_results_judge(struct facts *f, const struct facts *device, json_t *notes);

/* The fio command line equivalent to each selected test on this target, then the clean-up of the file
 * fio lays out: `*out_lines` is set to a new array of strings, one shell line each (comments start with
 * "#"), for the caller to print. A directory target: the file fio lays out sits in the target
 * directory. Nothing is measured; on a directory an empty file is created in a scratch directory to
 * ask statx about direct I/O, and removed. Same statuses as bench_run for refusals. */
int bench_fio_commands(const struct probe_target *t, const struct bench_config *cfg, json_t **out_lines,
		       struct fst_error *err);

/* A file size from a workload's distribution, as the tree test draws them: half the files between
 * `min` and `p50`, 40% between `p50` and `p90`, 10% between `p90` and `top`, log-uniform within each
 * part (file sizes are roughly log-normal, so uniform in the logarithm is the simplest shape that meets
 * the percentiles), at most `cap` bytes. `u` is uniform in 0..999 (which part), `f` in [0, 1) (where
 * in it). Also used by trial's cold tree, so both trees have the same shape. */
uint64_t bench_tree_size_draw(uint64_t min, uint64_t p50, uint64_t p90, uint64_t top, uint64_t cap,
			      unsigned u, double f);
/* The `top` of bench_tree_size_draw that gives the distribution the workload's mean (a long tail of a
 * few large files is what puts a mean far above the median), by bisection within [p90, min(max, cap)]. */
uint64_t bench_tree_size_top(uint64_t min, uint64_t p50, uint64_t p90, uint64_t mean, uint64_t max, uint64_t cap);
/* The calling thread's run_delay: time runnable on a run queue, waiting for a CPU (ns, from
 * /proc/thread-self/schedstat); -1 without CONFIG_SCHED_INFO. The benchmarks' cpu_wait_pct and
 * trial's per-run CPU wait both come from it. */
double bench_thread_run_delay_ns(void);

/* ---- Scratch directories of killed runs ---- */

/* Scratch directories under `dir` whose owner is gone (a killed run, named by the pid file, which
 * holds the pid, the process's start time and the boot's id, so that a pid another process has now is
 * no live run): a new array of {"path": string, "pid": integer, "bytes": integer (space allocated
 * to its files), "empty": bool (nothing in it but the pid file: its filesystem was unmounted lazily
 * under a run, or the run was killed before it wrote)}. */
json_t *bench_leftovers_find(const char *dir);
/* The sum of the "bytes" of such an array. */
uint64_t bench_leftovers_bytes(const json_t *leftovers);
/* Removes one leftover: only the files a run creates, then the directory. 0 or -errno. */
int bench_leftover_remove(const char *path);

/* ---- Signals: SIGINT, SIGTERM, SIGHUP stop a run cleanly ---- */

/* Installs handlers that record the signal number in the flag bench_stop_flag() returns. */
void bench_stop_install(void);
const volatile sig_atomic_t *bench_stop_flag(void);
/* Restores the default action of the recorded signal and raises it (ends the process by the signal,
 * status 128+n). Returns only when no signal was recorded. */
void bench_stop_reraise(void);

/* ---- Device activity ----
 * The busy check before benchmarks (bench.busy_check.*) is the workload observer's code: see
 * workload_observe() and workload_observation_busy() in fstune/workload.h. */

#endif
