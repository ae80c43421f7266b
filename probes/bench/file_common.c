/* The machinery the file benchmarks share: their directory inside the scratch directory and its
 * removal, stop and progress polling, failures, free-space caps, and the workload facts that size them. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "fstune/clock.h"
#include "fstune/debug.h"
#include "fstune/workload.h"
#include "probes/bench/file_common.h"
#include "probes/bench/slices.h"

#define SRC "bench"
#define PROGRESS_NS 100000000ull /* at most ten progress calls a second */

static char *key(const struct file_run *r, const char *leaf)
{
	return xasprintf("bench.%s.%s", r->def->name, leaf);
}

/* bench.<test>: the key of the whole test. */
static char *test_key(const struct file_run *r)
{
	return xasprintf("bench.%s", r->def->name);
}

void file_set_not_applicable(struct file_run *r, const char *fmt, ...)
{
	char *k = test_key(r);
	char reason[PATH_MAX + 200]; /* the longest reason names the scratch directory */
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof reason, fmt, ap);
	va_end(ap);
	facts_set_unavailable(r->f, k, FACTS_NOT_APPLICABLE, "%s", reason);
	free(k);
}

bool file_run_begin(struct file_run *r, struct bench_ctx *ctx, const struct bench_test_def *def,
		    struct facts *f, int *status)
{
	memset(r, 0, sizeof *r);
	r->ctx = ctx;
	r->def = def;
	r->f = f;
	r->dirfd = -1;
	*status = FST_EXIT_OK;
	if (ctx->cfg->engine == BENCH_ENGINE_NULL) {
		file_set_not_applicable(r, "the null engine does no I/O; file tests need a filesystem");
		return false;
	}
	r->checks_failed = json_array();
	r->t0_ns = fst_clock_ns();
	r->last_progress_ns = r->t0_ns;
	/* a leftover of an earlier test of this run (it cannot exist, but removal is cheap) */
	bench_files_remove_tree(ctx->scratch_fd, def->name);
	if (mkdirat(ctx->scratch_fd, def->name, 0700) < 0 ||
	    (r->dirfd = openat(ctx->scratch_fd, def->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
		file_fail(r, errno, "creating its directory in %s", ctx->scratch);
		*status = file_run_end(r);
		return false;
	}
	return true;
}

int file_run_end(struct file_run *r)
{
	char *k = test_key(r);
	int status = FST_EXIT_OK, rm;

	if (r->dirfd >= 0)
		close(r->dirfd);
	r->dirfd = -1;
	rm = bench_files_remove_tree(r->ctx->scratch_fd, r->def->name);
	if (rm < 0 && rm != -ENOENT && !file_done(r))
		file_fail(r, -rm, "removing its directory");
	if (r->stop_sig) {
		facts_remove(r->f, k);
		status = 128 + r->stop_sig;
	} else if (r->error) {
		/* no partial numbers: an interrupted test's rates would look like results */
		snprintf(r->ctx->errbuf, sizeof r->ctx->errbuf, "%s: %s failed: %s%s", r->def->name, r->what,
			 strerror(r->error),
			 r->error == ENOSPC || r->error == EDQUOT ? " (the filesystem filled up during the run)" : "");
		facts_set_unavailable(r->f, k, FACTS_FAILED, "%s", r->ctx->errbuf);
		status = FST_EXIT_PARTIAL;
	}
	json_decref(r->checks_failed);
	r->checks_failed = NULL;
	free(k);
	return status;
}

bool file_should_stop(struct file_run *r, double fraction, uint64_t ops)
{
	const struct bench_config *cfg = r->ctx->cfg;
	int sig = *r->ctx->stop;
	uint64_t now;

	if (sig && !r->stop_sig)
		r->stop_sig = sig;
	if (file_done(r))
		return true;
	if (!cfg->progress)
		return false;
	now = fst_clock_ns();
	if (now - r->last_progress_ns < PROGRESS_NS)
		return false;
	{
		/* a file test times phases, not single operations: a rate, no percentiles */
		struct bench_live live = {
			ops >= r->last_ops ? (double)(ops - r->last_ops) * 1e9 / (double)(now - r->last_progress_ns) : 0,
			0, 0};

		r->last_progress_ns = now;
		r->last_ops = ops;
		if (!cfg->progress(cfg->progress_arg, r->def->name, fraction < 0 ? 0 : fraction > 1 ? 1 : fraction,
				   &live))
			r->stop_sig = SIGINT;
	}
	return r->stop_sig != 0;
}

bool file_fail(struct file_run *r, int err, const char *fmt, ...)
{
	va_list ap;

	if (r->error)
		return false;
	r->error = err ? err : EIO;
	va_start(ap, fmt);
	vsnprintf(r->what, sizeof r->what, fmt, ap);
	va_end(ap);
	DBG(DEBUG_BENCH, "bench: %s: %s: %s", r->def->name, r->what, strerror(r->error));
	return false;
}

void file_check_failed(struct file_run *r, const char *fmt, ...)
{
	char buf[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	json_array_append_new(r->checks_failed, json_string(buf));
	bench_note(r->ctx, "%s: consistency check failed: %s", r->def->name, buf);
}

bool file_syncfs(struct file_run *r)
{
	if (syncfs(r->dirfd) < 0)
		return file_fail(r, errno, "syncfs");
	return true;
}

void file_space_get(struct file_run *r, double share, struct file_space *out)
{
	struct statvfs vfs;
	uint64_t avail, allowed;

	out->bytes = out->inodes = 0;
	if (fstatvfs(r->dirfd, &vfs) < 0)
		return;
	avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	/* never past the run's budget (bench_can_run): the data file has already taken its share */
	allowed = avail > r->ctx->avail_floor ? avail - r->ctx->avail_floor : 0;
	out->bytes = (uint64_t)((double)allowed * share);
	/* filesystems with dynamic inodes (btrfs) report 0 inodes: the bytes bound them */
	out->inodes = vfs.f_files ? (uint64_t)((double)vfs.f_favail * share) : UINT64_MAX;
}

/* A phase's steps are counted in slices that start 0.1 ms wide and double as the phase lasts, so a
 * phase of any length keeps 32 to 64 of them once it is longer than 6.4 ms, and a short one (a warm
 * stat of a few hundred files on tmpfs) still has several; the interval is taken over slices of 10
 * steps or more on average where the phase is long enough for that. */
#define PHASE_SLICE0_NS 100000ull
#define PHASE_SLICE_MIN_STEPS 10.0

/* A time-bound phase that ends in syncfs syncs this often as it goes: the page cache takes creates in
 * at memory speed, and one syncfs at the end paid for them after the bound (a 2 s bound of metadata's
 * creates ended 4.5 s later, 57,684 files on a loaded disk); syncing as it goes keeps the bound a bound. */
#define PHASE_SYNCS 8

uint64_t file_phase_run(struct file_run *r, const struct file_phase *ph, double *secs)
{
	uint64_t t0 = fst_clock_ns(), bound = file_phase_ns(r), i, steps_end, synced_ns = 0;
	bool syncs_as_it_goes = ph->is_time_bound && ph->ends_with_syncfs;
	struct bench_slices sl;

	bench_slices_init(&sl, PHASE_SLICE0_NS);
	for (i = 0; (!ph->count || i < ph->count) && !file_done(r); i++) {
		double elapsed = (double)(fst_clock_ns() - t0);
		double by_time = ph->is_time_bound ? fmin(1, elapsed / (double)bound) : 0;
		double by_count = ph->count ? (double)i / (double)ph->count : 0;
		uint64_t done_ns;

		if (ph->is_time_bound && !ph->count && elapsed >= (double)bound)
			break;
		if (file_should_stop(r, ph->progress_from + ph->progress_span * fmax(by_time, by_count), r->ops) ||
		    !ph->step(ph->arg, i))
			break;
		r->ops++;
		done_ns = fst_clock_ns() - t0;
		if (syncs_as_it_goes && done_ns - synced_ns >= bound / PHASE_SYNCS) {
			file_syncfs(r);
			done_ns = synced_ns = fst_clock_ns() - t0;
		}
		bench_slices_add(&sl, done_ns);
		if (ph->is_time_bound && ph->count && done_ns >= bound && i + 1 < ph->count) {
			bench_note(r->ctx, "%s: %s reached the time bound after %llu of %llu %s", r->def->name,
				   ph->what, (unsigned long long)(i + 1), (unsigned long long)ph->count, ph->unit);
			i++;
			break;
		}
	}
	steps_end = fst_clock_ns() - t0;
	if (ph->ends_with_syncfs && !file_done(r))
		file_syncfs(r);
	*secs = file_secs(fst_clock_ns() - t0);
	if (r->n_phases < FILE_PHASES_MAX) {
		r->phase_ci[r->n_phases].key = ph->key;
		r->phase_ci[r->n_phases].ci95_pct = bench_slices_ci95_pct(&sl, steps_end, PHASE_SLICE_MIN_STEPS);
		r->n_phases++;
	}
	return i;
}

uint64_t file_phase_ns(const struct file_run *r)
{
	double s = r->ctx->cfg->runtime_s > 0 ? r->ctx->cfg->runtime_s : 2;

	return (uint64_t)(s * 1e9);
}

#define CAL_FILES 128
#define CAL_DIR "unlink-sample"

double file_unlink_rate(struct file_run *r)
{
	char name[64];
	uint64_t t0;
	double secs;
	int i, made = 0;

	if (mkdirat(r->dirfd, CAL_DIR, 0700) < 0)
		return 1e9;
	for (i = 0; i < CAL_FILES; i++) {
		int fd;

		snprintf(name, sizeof name, CAL_DIR "/%d", i);
		fd = openat(r->dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd < 0)
			break;
		if (write(fd, name, 8) != 8) {
			close(fd);
			break;
		}
		close(fd);
		made++;
	}
	syncfs(r->dirfd);
	t0 = fst_clock_ns();
	for (i = 0; i < made; i++) {
		snprintf(name, sizeof name, CAL_DIR "/%d", i);
		unlinkat(r->dirfd, name, 0);
	}
	unlinkat(r->dirfd, CAL_DIR, AT_REMOVEDIR);
	syncfs(r->dirfd);
	secs = file_secs(fst_clock_ns() - t0);
	DBG(DEBUG_BENCH, "bench: %s: %d files unlinked in %.3f s", r->def->name, made, secs);
	return made && secs > 0 ? made / secs : 1e9;
}

int file_write_all(int fd, const void *buf, size_t len, uint32_t block)
{
	const char *p = buf;

	while (len) {
		size_t n = block && len > block ? block : len;
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		if (w == 0)
			return -EIO;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

static bool said(const struct facts *f, const char *k)
{
	const char *src = facts_source(f, k);

	return facts_has(f, k) && facts_get(f, k) && (!src || strcmp(src, "default"));
}

static uint64_t get_u64(const struct facts *f, const char *k, uint64_t def)
{
	long long v;

	return facts_get_int(f, k, &v) && v >= 0 ? (uint64_t)v : def;
}

void file_workload_get(const struct facts *f, struct file_workload *out)
{
	const struct workload_preset *g = workload_preset_find("general");

	memset(out, 0, sizeof *out);
	if (g) {
		out->files_total = g->files_total;
		out->files_per_dir = g->files_per_dir;
		out->size_min = g->file_size_min_bytes;
		out->size_max = g->file_size_max_bytes;
		out->size_p50 = g->file_size_p50_bytes;
		out->size_p90 = g->file_size_p90_bytes;
		out->size_mean = g->file_size_mean_bytes;
		out->io_size = g->io_size_bytes;
	}
	out->files_total = get_u64(f, "workload.files_total", out->files_total);
	out->files_per_dir = get_u64(f, "workload.files_per_dir", out->files_per_dir);
	out->size_min = get_u64(f, "workload.file_size_min_bytes", out->size_min);
	out->size_max = get_u64(f, "workload.file_size_max_bytes", out->size_max);
	out->size_p50 = get_u64(f, "workload.file_size_p50_bytes", out->size_p50);
	out->size_p90 = get_u64(f, "workload.file_size_p90_bytes", out->size_p90);
	out->size_mean = get_u64(f, "workload.file_size_mean_bytes", out->size_mean);
	out->io_size = get_u64(f, "workload.io_size_bytes", out->io_size);
	out->sizes_said = said(f, "workload.file_size_min_bytes") || said(f, "workload.file_size_max_bytes");
	out->files_said = said(f, "workload.files_total");
	out->per_dir_said = said(f, "workload.files_per_dir");
	out->io_size_said = said(f, "workload.io_size_bytes");
	if (!out->files_per_dir)
		out->files_per_dir = 1;
	if (out->size_max < out->size_min)
		out->size_max = out->size_min;
	if (!out->io_size)
		out->io_size = 4096;
}

uint64_t file_count_capped(const struct file_workload *w, uint64_t cap)
{
	return w->files_total > cap ? cap : w->files_total ? w->files_total : 1;
}

uint64_t file_count_fit_inodes(uint64_t files, const struct file_workload *w, const struct file_space *sp)
{
	if (sp->inodes < files + files / w->files_per_dir + 1)
		return sp->inodes * w->files_per_dir / (w->files_per_dir + 1);
	return files;
}

void file_set_real(struct file_run *r, const char *leaf, double v)
{
	char *k = key(r, leaf);

	facts_set_real(r->f, k, isfinite(v) ? round(v * 1000.0) / 1000.0 : 0, SRC);
	free(k);
}

void file_set_rate(struct file_run *r, const char *leaf, uint64_t count, double secs)
{
	file_set_real(r, leaf, secs > 0 ? (double)count / secs : 0);
}

void file_set_int(struct file_run *r, const char *leaf, long long v)
{
	char *k = key(r, leaf);

	facts_set_int(r->f, k, v, SRC);
	free(k);
}

void file_set_str(struct file_run *r, const char *leaf, const char *v)
{
	char *k = key(r, leaf);

	facts_set_string(r->f, k, v, SRC);
	free(k);
}

void file_set_bool(struct file_run *r, const char *leaf, bool v)
{
	char *k = key(r, leaf);

	facts_set_bool(r->f, k, v, SRC);
	free(k);
}

void file_set_common(struct file_run *r)
{
	char *k;
	double widest = -1;
	unsigned i;

	file_set_str(r, "direct", r->ctx->is_memory ? "memory" : "no");
	for (i = 0; i < r->n_phases; i++) {
		if (!isfinite(r->phase_ci[i].ci95_pct))
			continue;
		k = xasprintf("%s_ci95_pct", r->phase_ci[i].key);
		file_set_real(r, k, r->phase_ci[i].ci95_pct);
		free(k);
		widest = fmax(widest, r->phase_ci[i].ci95_pct);
	}
	if (widest >= 0)
		file_set_real(r, "ci95_pct", widest);
	file_set_bool(r, "checks_ok", json_array_size(r->checks_failed) == 0);
	if (json_array_size(r->checks_failed)) {
		k = key(r, "checks_failed");
		facts_set_json(r->f, k, json_deep_copy(r->checks_failed), SRC);
		free(k);
	}
}
