/* What the file benchmarks (smallfile, metadata, tree) share: their own directory inside the run's
 * scratch directory, removed on every path; stop and progress checks; the time bound; free-space caps;
 * the workload facts that size them; and the way results and failures become bench.<test>.* facts.
 * Internal to probes/bench/. */
#ifndef FSTUNE_PROBES_BENCH_FILE_COMMON_H
#define FSTUNE_PROBES_BENCH_FILE_COMMON_H

#include <stdbool.h>
#include <stdint.h>

#include "probes/bench/bench_int.h"

/* The most phases a file test runs (each one's confidence interval is kept for file_set_common). */
#define FILE_PHASES_MAX 4

/* Each file test works in <scratch>/<its name>: bench_files_remove_tree removes it on every path. */
struct file_run {
	struct bench_ctx *ctx;
	const struct bench_test_def *def;
	struct facts *f;
	int dirfd;               /* the test's own directory; -1 before file_run_begin */
	uint64_t t0_ns;          /* when the test began */
	uint64_t last_progress_ns;
	uint64_t last_ops;       /* operations at the last progress call (the live rate) */
	uint64_t ops;            /* steps done by every phase so far (file_phase_run) */
	int stop_sig;            /* non-zero once stopped: the signal (SIGINT for a progress cancel) */
	int error;               /* errno of the first failed operation; 0 when none */
	char what[160];          /* what failed: "create s3/120" */
	json_t *checks_failed;   /* strings: failed consistency checks */
	struct {
		const char *key;     /* the phase's key (file_phase.key) */
		double ci95_pct;     /* its rate's 95% confidence interval; INFINITY when too short */
	} phase_ci[FILE_PHASES_MAX];
	unsigned n_phases;       /* phases run so far */
};

/* Bytes and inodes the test may use: the free space (f_bavail) and free inodes (f_favail) of the
 * scratch directory's filesystem, times `share`. */
struct file_space {
	uint64_t bytes;
	uint64_t inodes;
};

/* Starts a file test. The null engine does no I/O, so a file test has nothing to measure: then marks
 * bench.<test> not applicable. Else creates <scratch>/<def->name> and opens it. True when the test
 * runs (file_run_end ends it); false with `*status` the test's status: FST_EXIT_OK when skipped,
 * FST_EXIT_PARTIAL with the test marked failed. */
bool file_run_begin(struct file_run *r, struct bench_ctx *ctx, const struct bench_test_def *def,
		    struct facts *f, int *status);
/* Marks bench.<test> not applicable, with a printf-style reason (no room for the test, ...). */
void file_set_not_applicable(struct file_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Removes the test's directory (all of it), and returns the test's status: 128+n when stopped (the
 * test's facts removed), FST_EXIT_PARTIAL after an error (the test marked failed, ctx->errbuf set),
 * else FST_EXIT_OK. */
int file_run_end(struct file_run *r);

/* Polls the stop flag and, at most ten times a second, reports progress. `fraction` 0..1 of the test,
 * `ops` the operations done so far (the live rate is computed from it). True when the test must stop
 * (r->stop_sig is then set). Cheap enough to call once per file operation. */
bool file_should_stop(struct file_run *r, double fraction, uint64_t ops);
/* Records the first failure: the errno and what was being done (printf style). Returns false. */
bool file_fail(struct file_run *r, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* True once the test has failed or been stopped. */
static inline bool file_done(const struct file_run *r)
{
	return r->error || r->stop_sig;
}
/* Records a failed consistency check (printf style); it becomes a note and bench.<test>.checks_failed. */
void file_check_failed(struct file_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* syncfs on the test's filesystem, recording a failure. */
bool file_syncfs(struct file_run *r);
/* Free bytes and inodes of the scratch filesystem times `share` (0..1). */
void file_space_get(struct file_run *r, double share, struct file_space *out);
/* The time bound of one timed phase, ns: the run's --runtime. */
uint64_t file_phase_ns(const struct file_run *r);

/* One phase of a file test (create, stat, read, transactions, unlink...), run by file_phase_run. */
struct file_phase {
	const char *key;        /* "create": names bench.<test>.<key>_ci95_pct */
	const char *what;       /* "creation": the note when the time bound ends a counted phase early */
	const char *unit;       /* "files": what a step makes, for that note */
	uint64_t count;         /* steps planned; 0: until a step returns false or the time bound */
	bool is_time_bound;     /* the phase also ends at file_phase_ns */
	bool ends_with_syncfs;  /* syncfs inside the phase's timing: the work is on disk when it ends */
	double progress_from;   /* the share of the test done when the phase starts, 0..1 */
	double progress_span;   /* the share the phase takes */
	/* The i-th step (from 0). False ends the phase: a failure (file_fail), or a bound only the step
	 * sees (space); the step is then not counted. */
	bool (*step)(void *arg, uint64_t i);
	void *arg;
};
/* Runs a phase until its count, its time bound, a false step, a stop or a failure, reporting progress,
 * then syncs when asked and the test has not failed. Returns the steps done; `*secs` is the phase's
 * time. The steps are counted in time slices, whose rates give the phase's 95% confidence interval
 * (kept in r->phase_ci for file_set_common). */
uint64_t file_phase_run(struct file_run *r, const struct file_phase *ph, double *secs);
/* Files this filesystem unlinks per second, syncfs included, from a small sample made and removed in
 * the test's directory (unlinking can be far slower than creating: online discard, journals). The
 * tests cap their file counts with it, since every file made must be removed within the time bound. */
double file_unlink_rate(struct file_run *r);
/* Writes all of `len` bytes (retrying short writes). 0 or -errno. */
int file_write_all(int fd, const void *buf, size_t len, uint32_t block);

/* The workload facts that size the file tests, each with where it came from. Absent keys fall back to
 * the `general` preset (source "default"), as workload_spec_apply_preset would have set them. */
struct file_workload {
	uint64_t files_total;
	uint64_t files_per_dir;
	uint64_t size_min, size_max, size_p50, size_p90, size_mean; /* bytes */
	uint64_t io_size;        /* bytes */
	/* the key came from a preset, a sample or the user, not "default" (nobody said) */
	bool sizes_said, files_said, per_dir_said, io_size_said;
};
void file_workload_get(const struct facts *f, struct file_workload *out);
/* The workload's file count for a test that makes at most `cap` files; 1 when it says none. */
uint64_t file_count_capped(const struct file_workload *w, uint64_t cap);
/* `files`, or fewer: as many as `sp`'s inodes hold with a directory for every w->files_per_dir. */
uint64_t file_count_fit_inodes(uint64_t files, const struct file_workload *w, const struct file_space *sp);

/* Result setters of bench.<test>.<leaf>, source "bench" (rates rounded to 0.001). */
void file_set_real(struct file_run *r, const char *leaf, double v);
/* `count` per second of `secs`; 0 when no time was measured. */
void file_set_rate(struct file_run *r, const char *leaf, uint64_t count, double secs);
void file_set_int(struct file_run *r, const char *leaf, long long v);
void file_set_str(struct file_run *r, const char *leaf, const char *v);
void file_set_bool(struct file_run *r, const char *leaf, bool v);
/* checks_ok, checks_failed, direct ("no" or "memory": file tests go through the page cache), each
 * phase's <key>_ci95_pct and the test's ci95_pct (the widest of them: the row's ±%). */
void file_set_common(struct file_run *r);


/* The run functions of the file tests' rows in the test table (table.c). */
int bench_file_smallfile_run(struct bench_ctx *ctx, const struct bench_test_def *def, struct facts *f);
int bench_file_smallfile_fsync_run(struct bench_ctx *ctx, const struct bench_test_def *def, struct facts *f);
int bench_file_metadata_run(struct bench_ctx *ctx, const struct bench_test_def *def, struct facts *f);
int bench_file_tree_run(struct bench_ctx *ctx, const struct bench_test_def *def, struct facts *f);

static inline double file_secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

#endif
