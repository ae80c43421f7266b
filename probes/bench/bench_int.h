/* Internals shared by the files of probes/bench/: the engine ops struct, one I/O, the latency
 * histogram, the random generator and the run context. Not a public header. */
#ifndef FSTUNE_PROBES_BENCH_INT_H
#define FSTUNE_PROBES_BENCH_INT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fstune/bench.h"

/* ---- One I/O ---- */

struct bench_io {
	uint64_t offset;   /* bytes */
	uint32_t len;      /* bytes */
	bool is_write;
	bool sync_after;   /* fdatasync after the write, counted in the I/O's latency */
	void *buf;         /* aligned to the direct-I/O memory alignment, `len` bytes at least */
	uint64_t start_ns; /* set by the driver before the I/O is handed to the engine */
	uint64_t done_ns;  /* set by the driver when it sees the completion */
	int64_t result;    /* bytes transferred, or -errno; set by the engine at completion */
	int64_t pending;   /* engine scratch: an error of the first half of a linked pair */
	unsigned slot;     /* index in the driver's array */
};

/* ---- Engines (fio's ioengine ops, reduced) ---- */

struct bench_engine_cfg {
	int fd;
	unsigned depth;    /* the most I/Os the driver keeps queued */
};

enum bench_queue_result {
	BENCH_Q_QUEUED,    /* in flight; getevents returns it later */
	BENCH_Q_COMPLETED, /* done during queue (a synchronous engine); getevents returns it next */
};

struct bench_engine {
	const struct bench_engine_ops *ops;
	void *priv;        /* the engine's own state */
};

struct bench_engine_ops {
	const char *name;
	bool is_sync;      /* queue() performs the I/O: the driver timestamps each I/O just before it */
	/* 0 or -errno (io_uring not permitted, ...). */
	int (*init)(struct bench_engine *e, const struct bench_engine_cfg *cfg);
	int (*queue)(struct bench_engine *e, struct bench_io *io);
	/* Hands queued I/Os to the kernel. 0 or -errno. */
	int (*commit)(struct bench_engine *e);
	/* Waits for at least `min` completions and stores up to `max` in `out`. Count or -errno. */
	int (*getevents)(struct bench_engine *e, unsigned min, struct bench_io **out, unsigned max);
	/* Frees the state init made; called once, only after init succeeded, and every queued I/O must
	 * have been reaped first (the driver drains; it clears priv after). */
	void (*cleanup)(struct bench_engine *e);
	/* A virtual clock (null engine); NULL: CLOCK_MONOTONIC. */
	uint64_t (*now_ns)(struct bench_engine *e);
};

/* The commit of an engine with nothing to hand over: psync performs each I/O in queue(), the null
 * engine completes them on its virtual clock. engines.c. */
int bench_engine_commit_none(struct bench_engine *e);

extern const struct bench_engine_ops bench_engine_psync;
extern const struct bench_engine_ops bench_engine_io_uring;
extern const struct bench_engine_ops bench_engine_null;

/* True when io_uring can be set up here (not disabled by kernel.io_uring_disabled or a sandbox). */
bool bench_io_uring_available(void);

/* ---- Latency histogram: log-linear, HDR style. 64 linear sub-buckets per power of two above 128 ns
 * (exact below), so a bucket is at most 1/64 of its lower bound wide and its midpoint is within
 * 0.8% of any value in it. ---- */

#define BENCH_HIST_SUB_BITS 6
#define BENCH_HIST_MAX_MSB 44 /* 2^44 ns = 4.9 h: longer latencies are clamped */
#define BENCH_HIST_BUCKETS (128 + (BENCH_HIST_MAX_MSB - 6) * 64)

struct bench_hist {
	uint64_t count;
	uint64_t min_ns, max_ns;
	double sum_ns;
	uint64_t bucket[BENCH_HIST_BUCKETS];
};

void bench_hist_init(struct bench_hist *h);
void bench_hist_add(struct bench_hist *h, uint64_t ns);
void bench_hist_merge(struct bench_hist *into, const struct bench_hist *from);
/* The q-quantile (0 < q <= 1) by nearest rank, as a bucket midpoint clamped to [min, max]. 0 when
 * empty. */
double bench_hist_quantile(const struct bench_hist *h, double q);
/* The fewest samples for which a q-quantile is reported: at least 10 samples beyond it. */
uint64_t bench_hist_min_samples(double q);

/* ---- The run context ---- */

enum bench_direct {
	BENCH_DIRECT_YES,
	BENCH_DIRECT_NO,
	BENCH_DIRECT_UNVERIFIED,
	BENCH_DIRECT_MEMORY,
};
const char *bench_direct_name(enum bench_direct d);

/* The result of statx(STATX_DIOALIGN) and the memory check for one file or device. */
struct bench_dio {
	bool is_direct;        /* O_DIRECT is used */
	enum bench_direct label;
	uint32_t mem_align;    /* buffer alignment, bytes (>= 512 when direct; page size otherwise) */
	uint32_t offset_align; /* offset and size alignment, bytes; 1 when buffered */
	char reason[160];      /* why, for the notes and debug output */
};

struct bench_ctx {
	const struct bench_config *cfg;
	const volatile sig_atomic_t *stop;
	bool is_raw_device;      /* an unmounted block device: reads only, no scratch directory */
	bool is_memory;          /* tmpfs, ramfs, zram, brd */
	char *dir;               /* the directory benchmarked (NULL for a raw device) */
	char *scratch;           /* the scratch directory's path; NULL until created */
	int scratch_fd;          /* -1 until created */
	int data_fd;             /* the laid-out data file or the device; -1 until opened */
	bool is_laid_out;        /* the data file holds span_bytes of written data */
	uint64_t span_bytes;
	bool is_adaptive;        /* runtime_s was not given: each I/O test stops once its rate settles */
	uint64_t append_limit;   /* bytes the append test's file may grow to before it starts over */
	uint64_t free_bytes;     /* f_bavail of the directory at the start, bytes */
	uint64_t budget_bytes;   /* the most the whole run may write, bytes */
	uint64_t avail_floor;    /* f_bavail (bytes) the run never goes below: the file tests stop there */
	json_t *leftovers;       /* {path, pid, bytes} of killed runs' scratch directories (owned) */
	uint64_t leftover_bytes; /* their sum */
	char unwritten_reason[640]; /* a raw device whose span looks never written: why its reads are
				       cache_suspect; "" otherwise */
	struct bench_dio dio;
	uint64_t min_span;       /* the floor: 256 MiB, lower only under FSTUNE_TEST_SCALE */
	json_t *notes;           /* borrowed from the result */
	double layout_s;         /* time the layout took */
	char errbuf[512];        /* the message of a failed test */
	int err_status;          /* FST_EXIT_PARTIAL after an I/O error */
	uint64_t seed;           /* base of the per-test random seeds */
	const char *const *file_dirs; /* the file tests' directory names in the scratch directory
					 (NULL-terminated, from the test table): what the clean-up
					 removes besides the run's own files */
	int lock_fd;             /* the filesystem's benchmark lock (lock.c) while held; else -1 */
};

/* Takes the lock of the filesystem holding ctx->dir (one benchmark per filesystem). FST_EXIT_OK
 * (ctx->lock_fd held, or -1 with a note when a plain user cannot take part in locking);
 * FST_EXIT_REFUSED naming the run that holds it, or why the lock cannot be taken. */
int bench_lock_take(struct bench_ctx *ctx, struct fst_error *err);
void bench_lock_release(struct bench_ctx *ctx);

/* Opens the data file (laying it out on first use), probes direct I/O. FST_EXIT_* or 128+n. */
int bench_layout_ensure(struct bench_ctx *ctx, struct fst_error *err);
/* Creates the data file in the scratch directory, decides direct I/O on it (ctx->dio) and keeps it open
 * (with O_DIRECT when used) in ctx->data_fd. FST_EXIT_OK or FST_EXIT_REFUSED. */
int bench_data_open(struct bench_ctx *ctx, struct fst_error *err);
/* Creates the scratch directory with its pid file. FST_EXIT_OK or FST_EXIT_REFUSED. */
int bench_scratch_create(struct bench_ctx *ctx, struct fst_error *err);
/* Removes <scratch>/<name> and everything below it (the file tests' directories), never following a
 * symbolic link. 0 or -errno. Also for the leftovers of a killed run. */
int bench_files_remove_tree(int parent_fd, const char *name);
/* Closes files and removes everything the run created. Safe to call twice. */
void bench_scratch_remove(struct bench_ctx *ctx);
/* Empties the scratch directory at `path` of what a run creates (its files and the directories
 * `dirs` names, NULL-terminated) and removes it. 0 or -errno; -EINVAL for a name not fstune's. */
int bench_scratch_clear(const char *path, const char *const *dirs);
/* The file tests' directory names, NULL-terminated (bench.c, from the test table). */
const char *const *bench_file_dirs(void);
/* Opens a new file in the scratch directory (for the append test), with the data file's flags. */
int bench_scratch_open(struct bench_ctx *ctx, const char *name);
void bench_scratch_unlink(struct bench_ctx *ctx, const char *name);

/* On a raw device open in ctx->data_fd: fills ctx->unwritten_reason when the span looks never written
 * (blocks reading back all zeros, holes in a loop device's backing file). */
void bench_unwritten_check(struct bench_ctx *ctx, const char *dev_name);

/* Decides direct I/O for an open file or device (statx STATX_DIOALIGN, then the memory check). */
void bench_dio_probe(int fd, const char *path, bool is_memory, struct bench_dio *out);
/* True when an I/O of `size` bytes can be issued under these alignments. */
bool bench_dio_allows(const struct bench_dio *d, uint32_t size);

/* The run function of the block I/O tests (every row with a pattern other than FILES). */
int bench_io_test_run(struct bench_ctx *ctx, const struct bench_test_def *def, struct facts *f);

/* Engine choice for a test: the engine id that will run it (never AUTO). */
enum bench_engine_id bench_engine_for(const struct bench_config *cfg, const struct bench_test_def *def);

/* Adds a note (printf style) to ctx->notes. */
void bench_note(struct bench_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Allocation that never fails (lib/xalloc.h). */
void *bench_aligned_alloc(size_t align, size_t size);

#endif
