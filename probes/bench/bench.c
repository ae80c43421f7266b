/* bench_run: from a resolved TARGET to bench.* facts. Decides what may be measured there (a directory,
 * a mounted device's mount point, an unmounted device read-only; never an image), checks space and
 * the span floor, watches the device for other activity, lays out the data, runs each test, and
 * removes everything it created on every path. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "fstune/clock.h"
#include "fstune/debug.h"
#include "fstune/path.h"
#include "fstune/space.h"
#include "fstune/units.h"
#include "fstune/workload.h"
#include "probes/bench/bench_int.h"
#include "probes/bench/bench_prep.h"
#include "probes/bench/run.h"
#include "probes/mountinfo.h"

#define GiB (1024ull * 1024 * 1024)
#define MiB (1024ull * 1024)
#define SPAN_DEFAULT GiB
#define SPAN_FLOOR (256 * MiB)
#define SPAN_FLOOR_TEST (8 * MiB)  /* under make check only (FSTUNE_TEST_SCALE set) */
/* What a run leaves free for everyone else: by default at least this much, and never less than the
 * span floor even with an explicit --size (a production filesystem's other writers must not meet
 * ENOSPC because fstune measured it). Scaled down with the floor under make check. */
#define KEEP_FREE (512 * MiB)
#define KEEP_FREE_TEST (16 * MiB)
#define SPAN_SHARE_OF_BUDGET 0.75  /* the rest of the budget: the append test and the file tests */
#define APPEND_MAX (64 * MiB)
#define MIN_FREE_INODES 16
#define SRC "bench"

double bench_runtime_cap_s(const struct bench_config *cfg)
{
	/* no --runtime: each I/O test stops when its rate settles, at most at this cap (the quick suite's
	 * is what keeps it within 6 s here: a 0.5 s busy check, 0.8-0.9 s of layout, 5 x (0.1 s of
	 * warm-up + the cap); doc/bench-vs-fio.md) */
	if (cfg->runtime_s > 0)
		return cfg->runtime_s;
	return cfg->suite == BENCH_SUITE_FULL && !cfg->tests[0] ? 2.0 : 0.7;
}

const char *const *bench_file_dirs(void)
{
	static const char *dirs[64];
	size_t i, n = 0;

	if (!dirs[0])
		for (i = 0; i < bench_n_tests && n + 1 < sizeof dirs / sizeof dirs[0]; i++)
			if (bench_tests[i].pattern == BENCH_PATTERN_FILES)
				dirs[n++] = bench_tests[i].name;
	return dirs;
}

int bench_leftover_remove(const char *path)
{
	return bench_scratch_clear(path, bench_file_dirs());
}

void bench_result_free(struct bench_result *r)
{
	if (!r)
		return;
	json_decref(r->params);
	json_decref(r->notes);
	json_decref(r->leftovers);
	free(r->dir);
	memset(r, 0, sizeof *r);
}

static bool is_memory_fs(long type)
{
	return type == TMPFS_MAGIC || type == RAMFS_MAGIC;
}

static bool is_memory_dev(const char *name)
{
	return name && (!strncmp(name, "zram", 4) || (!strncmp(name, "ram", 3) && name[3] >= '0' && name[3] <= '9'));
}

static const char *bytes(char *buf, uint64_t v)
{
	return units_bytes(buf, UNITS_BUFSZ, v);
}

/* " (N of it fstune's own leftovers of killed runs: `fstune bench --clean DIR` removes them)", or "" */
static const char *leftover_clause(char *buf, size_t len, const struct bench_ctx *ctx)
{
	char b[UNITS_BUFSZ];

	if (!ctx->leftover_bytes)
		return "";
	snprintf(buf, len, " (%s of it is held by fstune's own scratch directories of killed runs: "
		 "`fstune bench --clean %s` removes them)", bytes(b, ctx->leftover_bytes), ctx->dir);
	return buf;
}

/* The space a run may write in a directory (its budget) and how it is shared: the span, the append
 * test's file, and the file tests (which stop at ctx->avail_floor). */
static int size_directory_run(struct bench_prep *p, const struct statvfs *vfs, struct fst_error *err)
{
	struct bench_ctx *ctx = &p->ctx;
	uint64_t frsize = vfs->f_frsize ? vfs->f_frsize : vfs->f_bsize;
	uint64_t avail = (uint64_t)vfs->f_bavail * frsize;
	uint64_t used = (uint64_t)(vfs->f_blocks - vfs->f_bfree) * frsize;
	uint64_t usable = used + avail; /* root's reserve is not this run's to use */
	uint64_t keep_default = getenv("FSTUNE_TEST_SCALE") ? KEEP_FREE_TEST : KEEP_FREE;
	uint64_t keep_floor = ctx->min_span;
	double full_at = FST_SPACE_FULL_SHARE * (double)usable;
	uint64_t full_cap = full_at > (double)used ? (uint64_t)(full_at - (double)used) : 0;
	uint64_t free_cap = avail > keep_default ? avail - keep_default : 0;
	uint64_t budget = full_cap < free_cap ? full_cap : free_cap;
	char b1[UNITS_BUFSZ], b2[UNITS_BUFSZ], b3[UNITS_BUFSZ], b4[UNITS_BUFSZ], b5[UNITS_BUFSZ], b6[UNITS_BUFSZ];
	char b7[UNITS_BUFSZ], lo[400];
	double full_pct = usable ? 100.0 * (double)used / (double)usable : 100;

	ctx->free_bytes = avail;
	if (p->eff.size_bytes) {
		uint64_t hard = avail > keep_floor ? avail - keep_floor : 0;
		uint64_t need = p->eff.size_bytes + 2 * MiB; /* the span and a minimal append file */

		if (p->eff.size_bytes < ctx->min_span)
			return fst_error_set(err, FST_EXIT_REFUSED,
					     "--size %s is below the %s that honest numbers need (a smaller file fits in "
					     "caches)", bytes(b1, p->eff.size_bytes), bytes(b2, ctx->min_span));
		if (need > hard)
			return fst_error_set(err, FST_EXIT_REFUSED,
					     "--size %s does not fit in %s: %s free%s, and a run always leaves %s free",
					     bytes(b1, p->eff.size_bytes), ctx->dir, bytes(b2, avail),
					     leftover_clause(lo, sizeof lo, ctx), bytes(b3, keep_floor));
		if (need > budget)
			bench_note(ctx, "--size %s goes past what a default run takes in %s (%s free, %.0f%% full): "
				   "the run takes it to %.0f%% full, leaving %s free, until it ends",
				   bytes(b1, p->eff.size_bytes), ctx->dir, bytes(b2, avail), full_pct,
				   usable ? 100.0 * (double)(used + need) / (double)usable : 100,
				   bytes(b3, avail - need));
		budget = need > budget ? hard : budget;
		ctx->span_bytes = p->eff.size_bytes;
	} else {
		ctx->span_bytes = (uint64_t)((double)budget * SPAN_SHARE_OF_BUDGET);
		if (ctx->span_bytes > SPAN_DEFAULT)
			ctx->span_bytes = SPAN_DEFAULT;
		ctx->span_bytes -= ctx->span_bytes % (1 * MiB);
		if (ctx->span_bytes < ctx->min_span)
			return fst_error_set(err, FST_EXIT_REFUSED,
					     "%s has %s free of %s usable (%.0f%% full)%s: a benchmark may write %s there "
					     "without taking it past %.0f%% full or below %s free, and its test file %.0f%% "
					     "of that, %s, less than the %s that honest numbers need (a smaller one fits in "
					     "caches); free some space, choose another directory, or give --size to go "
					     "further (down to %s free)",
					     ctx->dir, bytes(b1, avail), bytes(b2, usable), full_pct,
					     leftover_clause(lo, sizeof lo, ctx), bytes(b3, budget),
					     FST_SPACE_FULL_SHARE * 100, bytes(b4, keep_default), SPAN_SHARE_OF_BUDGET * 100,
					     bytes(b7, ctx->span_bytes), bytes(b5, ctx->min_span), bytes(b6, keep_floor));
	}
	ctx->budget_bytes = budget;
	ctx->avail_floor = avail - budget;
	ctx->append_limit = (budget - ctx->span_bytes) / 2;
	if (ctx->append_limit > APPEND_MAX)
		ctx->append_limit = APPEND_MAX;
	ctx->append_limit -= ctx->append_limit % (64 * 1024);
	return FST_EXIT_OK;
}

/* A directory: writable, not read-only, enough inodes, and the space the run may take. */
static int prep_directory(struct bench_prep *p, struct fst_error *err)
{
	struct bench_ctx *ctx = &p->ctx;
	struct statvfs vfs;
	struct statfs sfs;

	if (statvfs(ctx->dir, &vfs) < 0)
		return fst_error_set(err, FST_EXIT_USAGE, "%s: %s", ctx->dir, strerror(errno));
	if (statfs(ctx->dir, &sfs) == 0 && is_memory_fs((long)sfs.f_type))
		ctx->is_memory = true;
	if (is_memory_dev(p->target->dev_name))
		ctx->is_memory = true;
	if (vfs.f_flag & ST_RDONLY)
		return fst_error_set(err, FST_EXIT_REFUSED,
				     "%s is on a read-only mount: benchmarks need to write a scratch file there; "
				     "an unmounted device can be measured read-only by naming it (fstune bench /dev/...)",
				     ctx->dir);
	if (access(ctx->dir, W_OK) != 0)
		return fst_error_set(err, FST_EXIT_REFUSED,
				     "%s is not writable by this user (%s): benchmarks write a scratch directory "
				     "there; run as a user who can write it, or name a directory you own",
				     ctx->dir, strerror(errno));
	ctx->leftovers = bench_leftovers_find(ctx->dir);
	ctx->leftover_bytes = bench_leftovers_bytes(ctx->leftovers);
	if (p->eff.engine == BENCH_ENGINE_NULL) {
		ctx->span_bytes = p->eff.size_bytes ? p->eff.size_bytes : SPAN_DEFAULT;
		ctx->append_limit = ctx->span_bytes / 4;
		return FST_EXIT_OK;
	}
	if (vfs.f_files > 0 && vfs.f_favail < MIN_FREE_INODES)
		return fst_error_set(err, FST_EXIT_REFUSED, "%s has only %llu free inodes: the benchmark needs %d",
				     ctx->dir, (unsigned long long)vfs.f_favail, MIN_FREE_INODES);
	return size_directory_run(p, &vfs, err);
}

/* Why an unmounted device is in use all the same (swap, a holder such as md or dm, a mounted partition),
 * or NULL when nothing says so; caller frees. O_EXCL would refuse it too, without saying why. */
static char *raw_device_user(const char *name)
{
	char *swaps = path_read_string("/proc/swaps"), needle[300], *why = NULL;
	struct mountinfo mi = {0};
	struct dirent *de;
	DIR *d;

	snprintf(needle, sizeof needle, "/dev/%s ", name);
	if (swaps && strstr(swaps, needle))
		why = xstrdup("it is in use as swap");
	free(swaps);
	if (!why && (d = path_opendir("/sys/class/block/%s/holders", name))) {
		while (!why && (de = readdir(d)))
			if (de->d_name[0] != '.')
				why = xasprintf("it is held by %s (md, dm or another stacking driver)", de->d_name);
		closedir(d);
	}
	if (!why && (d = path_opendir("/sys/class/block/%s", name))) {
		mountinfo_load(&mi);
		while (!why && (de = readdir(d))) {
			unsigned maj, min;
			char *devno;

			if (de->d_name[0] == '.' || !path_exists("/sys/class/block/%s/%s/partition", name, de->d_name))
				continue;
			devno = path_read_string("/sys/class/block/%s/%s/dev", name, de->d_name);
			if (devno && sscanf(devno, "%u:%u", &maj, &min) == 2 && mountinfo_by_devno(&mi, maj, min))
				why = xasprintf("its partition %s is mounted on %s: name the partition or its mount point",
						de->d_name, mountinfo_by_devno(&mi, maj, min)->mount_point);
			free(devno);
		}
		closedir(d);
		mountinfo_free(&mi);
	}
	return why;
}

/* An unmounted block device: read-only, O_DIRECT, O_EXCL. */
static int prep_raw_device(struct bench_prep *p, struct fst_error *err)
{
	struct bench_ctx *ctx = &p->ctx;
	const char *dev = p->target->path;
	uint64_t size = 0;
	int fd, r;
	char b1[UNITS_BUFSZ], b2[UNITS_BUFSZ], b3[UNITS_BUFSZ];

	ctx->is_raw_device = true;
	ctx->is_memory = is_memory_dev(p->target->dev_name);
	if (p->target->dev_name) {
		char *why = raw_device_user(p->target->dev_name);

		if (why) {
			r = fst_error_set(err, FST_EXIT_REFUSED, "%s is not mounted, but %s", dev, why);
			free(why);
			return r;
		}
	}
	if (p->eff.engine == BENCH_ENGINE_NULL) {
		ctx->span_bytes = p->eff.size_bytes ? p->eff.size_bytes : SPAN_DEFAULT;
		return FST_EXIT_OK;
	}
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		return fst_error_set(err, e == EACCES || e == EPERM ? FST_EXIT_REFUSED : FST_EXIT_USAGE,
				     "cannot open %s: %s%s", dev, strerror(e),
				     e == EACCES || e == EPERM ? " (reading a device needs root)" : "");
	}
	if (ioctl(fd, BLKGETSIZE64, &size) < 0)
		size = 0;
	bench_dio_probe(fd, dev, ctx->is_memory, &ctx->dio);
	close(fd);
	/* the device is only ever read, and held exclusively so nobody mounts it meanwhile */
	fd = open(dev, O_RDONLY | O_EXCL | O_CLOEXEC | (ctx->dio.is_direct ? O_DIRECT : 0));
	if (fd < 0) {
		int e = errno;

		return fst_error_set(err, FST_EXIT_REFUSED, "cannot open %s exclusively: %s%s", dev, strerror(e),
				     e == EBUSY ? " (it is in use: mounted, swap, or held by md/dm)" : "");
	}
	ctx->data_fd = fd;
	ctx->span_bytes = p->eff.size_bytes ? p->eff.size_bytes : SPAN_DEFAULT;
	if (ctx->span_bytes > size)
		ctx->span_bytes = size - size % (1 * MiB);
	if (ctx->span_bytes < ctx->min_span)
		return fst_error_set(err, FST_EXIT_REFUSED, "%s holds %s: the test span would be %s, below the "
				     "%s that honest numbers need", dev, bytes(b1, size), bytes(b2, ctx->span_bytes),
				     bytes(b3, ctx->min_span));
	return FST_EXIT_OK;
}

/* A device no mount names may still be a member of a mounted filesystem (btrfs, bcachefs, under
 * md/dm): it is in use, not an idle disk to read across. */
static int refuse_member(const struct probe_target *t, struct fst_error *err)
{
	struct probe_membership m;
	int r;

	if (!probe_membership_find(t->dev_name, &m))
		return FST_EXIT_OK;
	if (m.mount_point)
		r = fst_error_set(err, FST_EXIT_REFUSED,
				  "%s is a member of the %s mounted on %s (%zu device%s%s%s): it is in use, not an "
				  "idle disk; benchmark the filesystem through its mount point: fstune bench %s",
				  t->path, m.type, m.mount_point, m.n_devices, m.n_devices == 1 ? "" : "s",
				  m.via ? ", through " : "", m.via ? m.via : "", m.mount_point);
	else
		r = fst_error_set(err, FST_EXIT_REFUSED,
				  "%s is a member of the %s %s, which the kernel has open although no mount of "
				  "it is visible here: it is in use, not an idle disk",
				  t->path, m.type, m.uuid ? m.uuid : "");
	probe_membership_free(&m);
	return r;
}

static bool any_write_named(const struct bench_prep *p, const char **name)
{
	size_t i;

	if (!p->eff.tests[0])
		return false;
	for (i = 0; i < p->n; i++)
		if (p->sel[i]->is_write || p->sel[i]->needs_directory) {
			*name = p->sel[i]->name;
			return true;
		}
	return false;
}

int bench_prepare(struct bench_prep *p, const struct probe_target *t, const struct bench_config *cfg,
		  struct bench_result *res, struct fst_error *err)
{
	struct bench_ctx *ctx = &p->ctx;
	const char *wname;
	int r;

	memset(p, 0, sizeof *p);
	memset(res, 0, sizeof *res);
	res->params = json_object();
	res->notes = json_array();
	res->leftovers = json_array();
	p->target = t;
	p->eff = *cfg;
	ctx->is_adaptive = p->eff.runtime_s == 0;
	p->eff.runtime_s = bench_runtime_cap_s(&p->eff);
	ctx->cfg = &p->eff;
	ctx->stop = cfg->stop ? cfg->stop : bench_stop_flag();
	ctx->notes = res->notes;
	ctx->scratch_fd = -1;
	ctx->data_fd = -1;
	ctx->lock_fd = -1;
	ctx->file_dirs = bench_file_dirs();
	ctx->min_span = getenv("FSTUNE_TEST_SCALE") ? SPAN_FLOOR_TEST : SPAN_FLOOR;
	/* new offsets every run (fio's randrepeat=0): a fixed sequence would meet the same blocks in any
	 * cache below us (a hypervisor's, a controller's) run after run; the null engine is deterministic */
	ctx->seed = cfg->engine == BENCH_ENGINE_NULL ? 0x66737475ull
						     : fst_clock_ns() ^ ((uint64_t)getpid() << 32);
	p->sel = xcalloc(bench_n_tests, sizeof *p->sel);
	if ((r = bench_select(&p->eff, p->sel, &p->n, err)) != FST_EXIT_OK)
		return r;

	if (path_is_sysroot())
		return fst_error_set(err, FST_EXIT_USAGE, "a captured machine (--sysroot) cannot be benchmarked: "
				     "benchmarks measure the live machine");
	if (t->kind == TARGET_IMAGE)
		return fst_error_set(err, FST_EXIT_USAGE,
				     "%s is an image file: attach it (losetup --direct-io=on --find --show %s) and "
				     "name the loop device or its mount point, or use `fstune trial`", t->path, t->path);
	if (t->kind == TARGET_BLOCKDEV && !t->is_mounted) {
		if ((r = refuse_member(t, err)) != FST_EXIT_OK)
			return r;
		if (any_write_named(p, &wname))
			return fst_error_set(err, FST_EXIT_REFUSED,
					     "%s is an unmounted block device: only read tests run on it, and %s "
					     "writes; to measure writes, use `fstune trial` on a scratch device",
					     t->path, wname);
		r = prep_raw_device(p, err);
	} else {
		if (t->kind == TARGET_BLOCKDEV) {
			if (!t->mount_point)
				return fst_error_set(err, FST_EXIT_USAGE, "%s is mounted, but its mount point is "
						     "not known", t->path);
			bench_note(ctx, "%s is mounted on %s: benchmarking the filesystem there", t->path,
				   t->mount_point);
			ctx->dir = xstrdup(t->mount_point);
		} else {
			ctx->dir = xstrdup(t->path);
		}
		res->dir = xstrdup(ctx->dir);
		/* before the free space is read: a second run must not size itself from space the first
		 * is about to take */
		r = p->eff.engine == BENCH_ENGINE_NULL || p->eff.is_own_scratch ? FST_EXIT_OK : bench_lock_take(ctx, err);
		if (r == FST_EXIT_OK)
			r = prep_directory(p, err);
		if (ctx->leftovers) {
			json_decref(res->leftovers);
			res->leftovers = json_incref(ctx->leftovers);
		}
	}
	return r;
}

int bench_can_run(const struct probe_target *t, const struct bench_config *cfg, struct bench_plan *plan)
{
	struct bench_config defaults;
	struct fst_error err = FST_ERROR_INIT;
	struct bench_result res;
	struct bench_prep p;
	char b1[UNITS_BUFSZ], b2[UNITS_BUFSZ];

	if (!cfg) {
		bench_config_init(&defaults);
		cfg = &defaults;
	}
	memset(plan, 0, sizeof *plan);
	plan->status = bench_prepare(&p, t, cfg, &res, &err);
	plan->leftovers = json_incref(res.leftovers);
	plan->span_bytes = p.ctx.span_bytes;
	if (plan->status != FST_EXIT_OK) {
		plan->mode = BENCH_MODE_NONE;
		snprintf(plan->reason, sizeof plan->reason, "%s", err.msg);
	} else if (p.ctx.is_raw_device) {
		plan->mode = BENCH_MODE_DEVICE_READ;
		snprintf(plan->reason, sizeof plan->reason, "%s is not mounted: read tests only over %s, nothing is "
			 "written", t->path, bytes(b1, p.ctx.span_bytes));
	} else {
		plan->mode = BENCH_MODE_DIRECTORY;
		plan->dir = xstrdup(p.ctx.dir);
		plan->budget_bytes = p.ctx.budget_bytes;
		plan->free_bytes = p.ctx.free_bytes;
		plan->leftover_bytes = p.ctx.leftover_bytes;
		snprintf(plan->reason, sizeof plan->reason, "tests write at most %s in a scratch directory under %s "
			 "(%s free), removed at the end", bytes(b1, p.ctx.budget_bytes), p.ctx.dir,
			 bytes(b2, p.ctx.free_bytes));
	}
	bench_prep_free(&p);
	bench_result_free(&res);
	return plan->status;
}

void bench_plan_free(struct bench_plan *plan)
{
	if (!plan)
		return;
	free(plan->dir);
	json_decref(plan->leftovers);
	memset(plan, 0, sizeof *plan);
}

/* Creates the scratch directory and the (empty) data file, which decides direct I/O. */
int bench_prepare_files(struct bench_prep *p, struct fst_error *err)
{
	int r;

	if (p->eff.engine == BENCH_ENGINE_NULL) {
		p->ctx.dio.label = BENCH_DIRECT_NO;
		snprintf(p->ctx.dio.reason, sizeof p->ctx.dio.reason, "the null engine does no I/O");
		bench_note(&p->ctx, "engine null: no I/O was done; these numbers test fstune itself");
		return FST_EXIT_OK;
	}
	if (p->ctx.is_raw_device)
		return FST_EXIT_OK;
	if ((r = bench_scratch_create(&p->ctx, err)) != FST_EXIT_OK)
		return r;
	return bench_data_open(&p->ctx, err);
}

void bench_prep_free(struct bench_prep *p)
{
	bench_scratch_remove(&p->ctx);
	bench_lock_release(&p->ctx);
	free(p->ctx.dir);
	free(p->sel);
	json_decref(p->ctx.leftovers);
	p->ctx.leftovers = NULL;
	p->ctx.dir = NULL;
	p->sel = NULL;
}

/* Polled by the observer about ten times a second: a stop signal ends the look early. */
static bool busy_check_tick(double done_s, double total_s, void *arg)
{
	const volatile sig_atomic_t *stop = *(const volatile sig_atomic_t *const *)arg;

	(void)done_s, (void)total_s;
	return !stop || !*stop;
}

/* The look at the device before the benchmarks is the workload observer's (--observe) code over
 * --busy-check seconds, so that both agree on what the counters say and on what "busy" means. */
static void busy_check(struct bench_prep *p, struct facts *f)
{
	const char *dev = p->target->dev_name;
	const volatile sig_atomic_t *stop = p->ctx.stop;
	struct workload_observation o;
	double rd_iops, wr_iops;       /* requests per second during the look */
	bool busy;
	int r;

	if (!dev || p->eff.busy_check_s <= 0 || p->eff.engine == BENCH_ENGINE_NULL)
		return;
	r = workload_observe(dev, p->eff.busy_check_s, busy_check_tick, &stop, &o);
	if (stop && *stop) /* the caller ends the run with 128+n; a partial look says nothing */
		return;
	if (r < 0) {
		facts_set_unavailable(f, "bench.busy_check", FACTS_NOT_FOUND, "/sys/class/block/%s/stat: %s",
				      dev, r == -ERANGE ? "a counter went backwards (the device was reset)"
							: strerror(-r));
		return;
	}
	busy = workload_observation_busy(&o);
	rd_iops = o.elapsed_s > 0 ? (double)o.reads / o.elapsed_s : 0;
	wr_iops = o.elapsed_s > 0 ? (double)o.writes / o.elapsed_s : 0;
	/* one subtree: every direct child of bench is an object (the schema's bench.*) */
	facts_set_bool(f, "bench.busy_check.busy", busy, SRC);
	facts_set_real(f, "bench.busy_check.busy_share", o.busy_share, SRC);
	facts_set_real(f, "bench.busy_check.seconds", o.elapsed_s, SRC);
	facts_set_real(f, "bench.busy_check.read_iops", rd_iops, SRC);
	facts_set_real(f, "bench.busy_check.write_iops", wr_iops, SRC);
	facts_set_string(f, "bench.busy_check.device", dev, SRC);
	if (busy)
		bench_note(&p->ctx, "%s was busy %.0f%% of a %.1f s look before the benchmarks (%.0f reads/s, %.0f "
			   "writes/s): other work competes with the measurement", dev, o.busy_share * 100, o.elapsed_s,
			   rd_iops, wr_iops);
}

/* The "parameters used" block: every parameter of the table, typed, plus what the run decided. */
static json_t *params_json(const struct bench_prep *p)
{
	json_t *o = json_object();
	size_t i;

	for (i = 0; i < bench_n_params; i++) {
		const struct bench_param *bp = &bench_params[i];
		const char *field = (const char *)&p->eff + bp->offset;
		char name[64];
		size_t k;

		for (k = 0; bp->name[k] && k < sizeof name - 8; k++)
			name[k] = bp->name[k] == '-' ? '_' : bp->name[k];
		name[k] = '\0';
		switch (bp->type) {
		case BENCH_PARAM_SECONDS:
			strcat(name, "_s");
			json_object_set_new(o, name, json_real(*(const double *)(const void *)field));
			break;
		case BENCH_PARAM_SIZE:
			strcat(name, "_bytes");
			json_object_set_new(o, name, json_integer((json_int_t)*(const uint64_t *)(const void *)field));
			break;
		default: {
			char *v = bench_param_format(&p->eff, bp);

			json_object_set_new(o, name, json_string(v));
			free(v);
		}
		}
	}
	json_object_set_new(o, "span_bytes", json_integer((json_int_t)p->ctx.span_bytes));
	json_object_set_new(o, "span_floor_bytes", json_integer((json_int_t)p->ctx.min_span));
	json_object_set_new(o, "runtime_mode", json_string(p->ctx.is_adaptive ? "adaptive" : "fixed"));
	if (p->ctx.is_adaptive)
		json_object_set_new(o, "ci95_target_pct", json_real(BENCH_CI95_TARGET_PCT));
	if (!p->ctx.is_raw_device && p->ctx.budget_bytes) {
		json_object_set_new(o, "budget_bytes", json_integer((json_int_t)p->ctx.budget_bytes));
		json_object_set_new(o, "free_bytes", json_integer((json_int_t)p->ctx.free_bytes));
	}
	json_object_set_new(o, "direct", json_string(bench_direct_name(p->ctx.dio.label)));
	json_object_set_new(o, "direct_reason", json_string(p->ctx.dio.reason));
	json_object_set_new(o, "mode", json_string(p->ctx.is_raw_device ? "device-read-only" : "directory"));
	json_object_set_new(o, "target", json_string_nocheck(p->ctx.dir ? p->ctx.dir : p->target->path));
	if (p->ctx.layout_s > 0)
		json_object_set_new(o, "layout_s", json_real(p->ctx.layout_s));
	return o;
}

/* On an unmounted block device a test that writes is not_applicable (with the reason): true then. */
static bool raw_device_skips(const struct bench_prep *p, const struct bench_test_def *def, struct facts *f)
{
	char *k;

	if (!p->ctx.is_raw_device || !(def->is_write || def->needs_directory))
		return false;
	k = xasprintf("bench.%s", def->name);
	facts_set_unavailable(f, k, FACTS_NOT_APPLICABLE, "%s is an unmounted block device: read tests only "
			      "(fstune trial measures writes on a scratch device)", p->target->path);
	free(k);
	return true;
}

/* The tests after a failed one are listed, not dropped: each is not_run, naming the failure. */
static void mark_not_run(struct bench_prep *p, size_t from, const char *failed, struct facts *f)
{
	size_t i;

	for (i = from; i < p->n; i++) {
		char *k = xasprintf("bench.%s", p->sel[i]->name);

		if (!raw_device_skips(p, p->sel[i], f))
			facts_set_unavailable(f, k, FACTS_NOT_RUN, "%s failed before it, and the run stopped there "
					      "(the filesystem is full or failing)", failed);
		free(k);
	}
}

/* The data file, laid out before the first test that reads or overwrites it. A failure of the layout
 * is that test's failure record (the error says what the layout met). */
static int ensure_layout(struct bench_ctx *ctx, const struct bench_test_def *def, struct facts *f,
			 struct fst_error *err)
{
	int r;

	if (def->pattern == BENCH_PATTERN_APPEND || def->pattern == BENCH_PATTERN_FILES ||
	    ctx->cfg->engine == BENCH_ENGINE_NULL)
		return FST_EXIT_OK;
	r = bench_layout_ensure(ctx, err);
	if (r != FST_EXIT_OK && r < 128) {
		char *k = xasprintf("bench.%s", def->name);

		facts_set_unavailable(f, k, FACTS_FAILED, "%s", err->msg);
		free(k);
	}
	return r;
}

static int run_tests(struct bench_prep *p, struct facts *f, struct fst_error *err)
{
	struct bench_ctx *ctx = &p->ctx;
	int status = FST_EXIT_OK;
	size_t i;

	for (i = 0; i < p->n; i++) {
		const struct bench_test_def *def = p->sel[i];
		int r;

		if (raw_device_skips(p, def, f))
			continue;
		r = ensure_layout(ctx, def, f, err);
		if (r == FST_EXIT_OK && *ctx->stop)
			r = 128 + *ctx->stop;
		if (r == FST_EXIT_OK) {
			r = def->run(ctx, def, f);
			if (r != FST_EXIT_OK && r < 128)
				fst_error_set(err, r, "%s", ctx->errbuf);
		}
		if (r >= 128)
			return r;
		if (r != FST_EXIT_OK) {
			/* stop here: the filesystem is full or failing; what was not run is listed */
			status = r;
			mark_not_run(p, i + 1, def->name, f);
			break;
		}
	}
	bench_results_cache_pairs(f);
	return status;
}

/* The figures against the hardware: by the device facts of a report, else by a probe of them here. */
static void judge(const struct probe_target *t, struct facts *f, json_t *notes)
{
	struct facts *view = NULL;

	if (!facts_get(f, "device.transport")) {
		view = facts_new();
		probe_device_view(t, view);
	}
	bench_results_judge(f, view ? view : f, notes);
	facts_free(view);
}

int bench_run(const struct probe_target *t, const struct bench_config *cfg, struct facts *f,
	      struct bench_result *res, struct fst_error *err)
{
	struct bench_prep p;
	int r;

	r = bench_prepare(&p, t, cfg, res, err);
	if (r == FST_EXIT_OK) {
		size_t i;

		for (i = 0; i < json_array_size(res->leftovers); i++) {
			json_t *l = json_array_get(res->leftovers, i);
			char b[UNITS_BUFSZ];

			if (json_is_true(json_object_get(l, "empty")))
				bench_note(&p.ctx, "an empty scratch directory of an ended run (pid %lld: its filesystem "
					   "was unmounted under it, or it was killed before it wrote): %s; `fstune bench "
					   "--clean %s` removes it", (long long)json_integer_value(json_object_get(l, "pid")),
					   json_string_value(json_object_get(l, "path")), p.ctx.dir);
			else
				bench_note(&p.ctx, "a scratch directory of a killed run (pid %lld) holds %s: %s; "
					   "`fstune bench --clean %s` removes it",
					   (long long)json_integer_value(json_object_get(l, "pid")),
					   bytes(b, (uint64_t)json_integer_value(json_object_get(l, "bytes"))),
					   json_string_value(json_object_get(l, "path")), p.ctx.dir);
		}
		busy_check(&p, f);
		if (*p.ctx.stop)
			r = 128 + *p.ctx.stop;
	}
	if (r == FST_EXIT_OK)
		r = bench_prepare_files(&p, err);
	if (r == FST_EXIT_OK) {
		const char *d;

		if (p.ctx.dio.label != BENCH_DIRECT_YES && p.eff.engine != BENCH_ENGINE_NULL)
			bench_note(&p.ctx, "direct: %s: %s", bench_direct_name(p.ctx.dio.label), p.ctx.dio.reason);
		if (p.ctx.is_raw_device && p.eff.engine != BENCH_ENGINE_NULL) {
			bench_unwritten_check(&p.ctx, t->dev_name);
			if (p.ctx.unwritten_reason[0])
				bench_note(&p.ctx, "%s: the read results are marked cache_suspect: %s", t->path,
					   p.ctx.unwritten_reason);
		}
		d = p.ctx.dio.reason;
		DBG(DEBUG_BENCH, "bench: span %llu, direct %s (%s)", (unsigned long long)p.ctx.span_bytes,
		    bench_direct_name(p.ctx.dio.label), d);
		r = run_tests(&p, f, err);
	}
	/* everything the run created goes, on every path, before anything is reported */
	bench_scratch_remove(&p.ctx);
	if ((r == FST_EXIT_OK || r == FST_EXIT_PARTIAL) && p.eff.engine != BENCH_ENGINE_NULL)
		judge(t, f, res->notes);
	if (r == FST_EXIT_OK || r == FST_EXIT_PARTIAL) {
		/* the facts make the target's name valid UTF-8; the result keeps their copy */
		facts_set_json(f, "bench.parameters", params_json(&p), SRC);
		json_decref(res->params);
		res->params = json_deep_copy(facts_get(f, "bench.parameters"));
	}
	if (r >= 128)
		fst_error_set(err, r, "stopped by signal %d; the scratch directory was removed", r - 128);
	bench_prep_free(&p);
	return r;
}
