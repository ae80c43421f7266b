/* The workload facts (DESIGN.md, the `workload.*` keys): what the user said (a preset and overrides),
 * what a sample of real files shows, and what a look at the live disk shows.
 *
 * For the benchmark layer (probes/bench/): the busy check before benchmarks is workload_observe()
 * over --busy-check seconds judged by workload_observation_busy() (workload_busy_check() below looks for
 * one second, for callers without that parameter); it is the same code as `--observe`, so both agree
 * on what "busy" means.
 *
 * Order of precedence when facts are written (workload_collect): the preset (source "preset") or the
 * implicit general preset (source "default"), then the sample (source "sample") for the keys it
 * measures, then the user's overrides (source "user"), which always win for the keys they name, then
 * the observation (source "observe"), whose keys nothing else sets. */
#ifndef FSTUNE_WORKLOAD_H
#define FSTUNE_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fstune/error.h"
#include "fstune/facts.h"
#include "fstune/probe.h"

enum workload_access {
	WORKLOAD_ACCESS_UNSET,
	WORKLOAD_ACCESS_RANDOM,
	WORKLOAD_ACCESS_SEQUENTIAL,
	WORKLOAD_ACCESS_MIXED,
};

enum workload_io_mode {
	WORKLOAD_IO_UNSET,
	WORKLOAD_IO_DIRECT,
	WORKLOAD_IO_BUFFERED,
	WORKLOAD_IO_MMAP,
};

/* A preset: the documented values of doc/workload-presets.md (the reasoning is there). */
struct workload_preset {
	const char *name;               /* "smallfiles", "source-tree", "database", "largefiles", "general" */
	const char *summary;            /* one line, for --help and the wizard */
	uint64_t file_size_min_bytes;
	uint64_t file_size_max_bytes;
	uint64_t file_size_p50_bytes;
	uint64_t file_size_p90_bytes;
	uint64_t file_size_mean_bytes;
	uint64_t files_total;           /* files on the filesystem */
	uint64_t files_per_dir;         /* entries per directory, median */
	enum workload_access access;
	enum workload_io_mode io_mode;
	uint64_t io_size_bytes;         /* the typical request the application issues */
	bool sync_heavy;                /* fsync/fdatasync on the critical path */
};

extern const struct workload_preset workload_presets[];
extern const size_t workload_preset_count;
/* NULL when unknown. */
const struct workload_preset *workload_preset_find(const char *name);
const char *workload_access_name(enum workload_access a);  /* NULL for UNSET */
const char *workload_io_mode_name(enum workload_io_mode m); /* NULL for UNSET */

/* What the command line said. Zero-initialise (WORKLOAD_SPEC_INIT); every field is "not said" then.
 * Strings are borrowed (argv). */
struct workload_spec {
	const char *preset;             /* --workload NAME; NULL: the implicit general, source "default" */
	bool has_file_size;             /* --file-size MIN-MAX */
	uint64_t file_size_min_bytes;
	uint64_t file_size_max_bytes;
	bool has_files;                 /* --files N */
	uint64_t files_total;
	bool has_files_per_dir;         /* --files-per-dir N */
	uint64_t files_per_dir;
	enum workload_access access;    /* --access; UNSET: not said */
	bool has_io_size;               /* --io-size BYTES */
	uint64_t io_size_bytes;
	enum workload_io_mode io_mode;  /* --io-mode; UNSET: not said */
	int sync_heavy;                 /* --sync-heavy 1, --no-sync-heavy 0, -1 not said */
	const char *sample_dir;         /* --sample DIR; NULL: no sample */
	double sample_time_s;           /* --sample-time S; 0: WORKLOAD_SAMPLE_TIME_DEFAULT_S */
	double observe_s;               /* --observe S; 0: no observation */
};

#define WORKLOAD_SPEC_INIT {.sync_heavy = -1}
#define WORKLOAD_SAMPLE_TIME_DEFAULT_S 300.0
#define WORKLOAD_OBSERVE_MAX_S 86400.0

/* Parsers of the flag values, for every front end (the command line, the wizard's form). Each
 * returns FST_EXIT_OK, or FST_EXIT_USAGE with a one-line message in `err` naming the flag, the value
 * and what is accepted. */
int workload_spec_set_preset(struct workload_spec *w, const char *name, struct fst_error *err);
int workload_spec_set_file_size(struct workload_spec *w, const char *min_max, struct fst_error *err);
int workload_spec_set_files(struct workload_spec *w, const char *n, struct fst_error *err);
int workload_spec_set_files_per_dir(struct workload_spec *w, const char *n, struct fst_error *err);
int workload_spec_set_access(struct workload_spec *w, const char *s, struct fst_error *err);
int workload_spec_set_io_size(struct workload_spec *w, const char *s, struct fst_error *err);
int workload_spec_set_io_mode(struct workload_spec *w, const char *s, struct fst_error *err);
int workload_spec_set_sample_time(struct workload_spec *w, const char *s, struct fst_error *err);
int workload_spec_set_observe(struct workload_spec *w, const char *s, struct fst_error *err);

/* Writes the preset (or default) values and then the user's overrides into `f`. --file-size MIN-MAX
 * follows Postmark's model, sizes uniform between MIN and MAX, so it also sets p50, p90 and the mean
 * (source "user"); bytes_total is files_total × mean, with the source of the newer of the two. */
void workload_spec_apply_preset(const struct workload_spec *w, struct facts *f);
/* Whether the spec says anything at all (a preset, an override, a sample or an observation). */
bool workload_spec_is_said(const struct workload_spec *w);
void workload_spec_apply_overrides(const struct workload_spec *w, struct facts *f);

/* ---- The sampler (probes/workload_sample.c) ---- */

/* Sizes kept for exact percentiles; past this many files (or directories), a uniform reservoir of
 * this size is kept instead (Vitter's algorithm R) and workload.sample.percentiles_exact is false.
 * Counts, sums, shares and tail waste stay exact at any size. 4 Mi × 8 bytes = 32 MiB. */
#define WORKLOAD_SAMPLE_EXACT_MAX (4u << 20)

struct workload_sample_progress {
	uint64_t files;     /* regular files counted so far (hard links once) */
	uint64_t dirs;      /* directories read */
	uint64_t bytes;     /* apparent bytes of those files */
	uint64_t errors;    /* entries that could not be read */
	double elapsed_s;
};

/* Called about ten times a second. Return false to stop: the result is then partial. */
typedef bool (*workload_sample_progress_fn)(const struct workload_sample_progress *p, void *arg);

struct workload_sample_options {
	double time_limit_s;                 /* 0: no limit; past it the result is partial */
	workload_sample_progress_fn progress; /* NULL: none */
	void *progress_arg;
	uint32_t reservoir_max;              /* 0: WORKLOAD_SAMPLE_EXACT_MAX (tests lower it) */
	uint64_t seed;                       /* of the reservoir's generator; 0: a fixed default */
};

#define WORKLOAD_TAIL_UNITS 6
extern const uint32_t workload_tail_units[WORKLOAD_TAIL_UNITS]; /* 1K 2K 4K 16K 32K 64K */

struct workload_sample_result {
	uint64_t files;                 /* regular files, each inode once */
	uint64_t bytes;                 /* Σ st_size */
	uint64_t allocated;             /* Σ st_blocks × 512 */
	uint64_t size_min, size_max;
	uint64_t size_p50, size_p90;    /* nearest rank: the ⌈p·n⌉-th smallest */
	uint64_t under_1k, under_2k, under_4k; /* files of at most 1024, 2048, 4096 bytes */
	uint64_t inline_candidates;     /* files of at most 60 bytes */
	uint64_t sparse;                /* files with at least one fs block less allocated than size */
	uint64_t tail_waste[WORKLOAD_TAIL_UNITS]; /* Σ roundup(size, unit) − size, bytes */
	uint64_t dirs;                  /* directories read, the root included */
	uint64_t per_dir_p50, per_dir_p90, per_dir_max; /* entries per directory, "." and ".." excluded */
	uint64_t hardlinks_skipped;     /* further names of an inode already counted */
	uint64_t symlinks;              /* seen, never followed */
	uint64_t others;                /* FIFOs, sockets, device nodes */
	uint64_t mounts_skipped;        /* entries on another filesystem: not descended, not counted */
	uint64_t denied;                /* EACCES/EPERM: counted, not fatal */
	uint64_t errors;                /* other read errors */
	char first_error[256];          /* "<relative path>: <strerror>", "" when none */
	bool percentiles_exact;         /* false past reservoir_max files or directories */
	bool partial;                   /* stopped by the time limit or the progress callback */
	bool cancelled;                 /* stopped by the progress callback */
	double elapsed_s;
};

/* Walks DIR read-only: never follows a symbolic link below DIR (DIR itself may be one), stays on
 * DIR's filesystem (as find -xdev), counts each inode once, does not update access times where the
 * kernel lets it (O_NOATIME). Errors below DIR are counted in the result. Returns FST_EXIT_OK, or
 * FST_EXIT_USAGE when DIR itself cannot be opened as a directory (err names it). */
int workload_sample(const char *dir, const struct workload_sample_options *opt,
		    struct workload_sample_result *out, struct fst_error *err);

/* Writes the sampled keys with source "sample", and workload.sample.* (root, dirs, denied, ...).
 * With no regular file found, the size keys are marked not_found. */
void workload_sample_to_facts(const struct workload_sample_result *r, const char *dir,
			      struct facts *f);

/* ---- The observer (probes/workload_observe.c) ---- */

/* One reading of /sys/class/block/<dev>/stat (Documentation/block/stat.rst). */
struct workload_diskstat {
	uint64_t read_ios, read_sectors;    /* sectors are always 512 bytes here */
	uint64_t write_ios, write_sectors;
	uint64_t in_flight;
	uint64_t io_ticks_ms;               /* time the device had I/O in flight */
	uint64_t time_in_queue_ms;          /* Σ over requests of their time in flight */
	uint64_t discard_ios, discard_sectors; /* 0 on kernels before 4.18 */
	double when_s;                      /* CLOCK_MONOTONIC at the read */
};

struct workload_observation {
	double elapsed_s;
	uint64_t reads, writes;             /* completed requests */
	uint64_t read_bytes, write_bytes;
	bool has_io;                        /* a read or a write completed */
	double read_share;                  /* reads / (reads + writes), by requests; valid when has_io */
	double mean_request_bytes;          /* (read + write bytes) / requests; valid when has_io */
	double inflight_mean;               /* Δtime_in_queue / elapsed (Little's law) */
	double busy_share;                  /* Δio_ticks / elapsed, at most 1 */
};

/* Reads the stat file of `dev` (a kernel name: "sda", "sda1", "loop0") through path.h, so that
 * --sysroot applies. 0 or -errno (-EINVAL: not in the expected format). */
int workload_diskstat_read(const char *dev, struct workload_diskstat *out);
/* The observation between two readings; false when a counter went backwards (device reset). */
bool workload_diskstat_delta(const struct workload_diskstat *a, const struct workload_diskstat *b,
			     struct workload_observation *out);

/* Called about ten times a second with the seconds done; return false to stop early (the
 * observation then covers the time until then). */
typedef bool (*workload_observe_tick_fn)(double done_s, double total_s, void *arg);

/* Observes `dev` for `seconds`. Returns 0, or -errno when the stat file cannot be read, or -ERANGE
 * when a counter went backwards (then `out` is untouched). */
int workload_observe(const char *dev, double seconds, workload_observe_tick_fn tick, void *arg,
		     struct workload_observation *out);

/* The one definition of a busy device, for the busy check and the benchmarks' report of it:
 * busy_share ≥ WORKLOAD_BUSY_SHARE. */
#define WORKLOAD_BUSY_SHARE 0.05
bool workload_observation_busy(const struct workload_observation *o);

/* The busy check before benchmarks: a one-second observation; *is_busy per
 * workload_observation_busy. Returns 0 or -errno like workload_observe. */
int workload_busy_check(const char *dev, bool *is_busy, struct workload_observation *out);

/* Writes read_share, mean_request_bytes, inflight_mean, busy_share (source "observe") and
 * workload.observe.* (device, interval_s, requests). Without I/O, read_share and mean_request_bytes
 * are marked not_applicable with the reason. */
void workload_observation_to_facts(const struct workload_observation *o, const char *dev,
				   struct facts *f);

/* ---- Everything at once (probes/workload_collect.c), for report, bench, trial and the wizard ---- */

struct workload_hooks {
	workload_sample_progress_fn sample_progress; /* may be NULL */
	workload_observe_tick_fn observe_tick;       /* may be NULL */
	void *arg;
};

/* Preset, sample, overrides, observation, in that order (see the top of this file). `t` is needed
 * only for --observe (its dev_name); without a device the observation keys are not_applicable with
 * t->no_device_reason. Returns FST_EXIT_OK; FST_EXIT_USAGE when the sample directory cannot be
 * opened; FST_EXIT_PARTIAL when the observation failed (recorded as `failed` facts too). */
int workload_collect(const struct workload_spec *w, const struct probe_target *t, struct facts *f,
		     const struct workload_hooks *hooks, struct fst_error *err);

#endif
