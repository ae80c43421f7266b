/* The scratch directory (the only place a benchmark writes), its pid file, the laid-out data file, the
 * cleanup on every exit path, and the leftovers of killed runs. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "fstune/clock.h"
#include "fstune/debug.h"
#include "fstune/path.h"
#include "fstune/rng.h"
#include "fstune/utf8.h"
#include "probes/bench/bench_int.h"

#define SCRATCH_PREFIX ".fstune-bench."
#define PID_FILE "pid"
#define DATA_FILE "data"
#define LAYOUT_CHUNK (4u << 20) /* bytes per layout write */
#define REMOVE_DEPTH_MAX 16      /* the file tests nest two levels; anything deeper is not ours */

/* Every name a run creates inside its scratch directory: removal touches nothing else. */
static const char *const scratch_files[] = {PID_FILE, DATA_FILE, "append"};

/* Empties the directory `fd` (its own descriptor: closed here). */
static int remove_below(int fd, int depth)
{
	DIR *d = fdopendir(fd);
	struct dirent *de;
	int first = 0;

	if (!d) {
		int e = errno;

		close(fd);
		return -e;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (unlinkat(dirfd(d), de->d_name, 0) == 0)
			continue;
		if (errno == EISDIR || errno == EPERM) {
			int sub;

			if (depth >= REMOVE_DEPTH_MAX) {
				first = first ? first : -ELOOP;
				continue;
			}
			sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub >= 0) {
				int r = remove_below(sub, depth + 1);

				first = first ? first : r;
			}
			if (unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR) < 0 && !first)
				first = -errno;
		} else if (errno != ENOENT && !first) {
			first = -errno;
		}
	}
	closedir(d);
	return first;
}

int bench_files_remove_tree(int parent_fd, const char *name)
{
	int fd, r;

	if (parent_fd < 0)
		return -EBADF;
	fd = openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = remove_below(fd, 0);
	if (unlinkat(parent_fd, name, AT_REMOVEDIR) < 0)
		return r ? r : -errno;
	return r;
}

/* Removes the names a run creates in its scratch directory `dfd`: the I/O tests' files and the file
 * tests' directories `dirs` (named after the tests; a SIGKILL leaves them full). */
static void scratch_names_remove(int dfd, const char *const *dirs)
{
	size_t i;

	for (i = 0; i < sizeof scratch_files / sizeof scratch_files[0]; i++)
		unlinkat(dfd, scratch_files[i], 0);
	for (i = 0; dirs && dirs[i]; i++)
		bench_files_remove_tree(dfd, dirs[i]);
}

void bench_note(struct bench_ctx *ctx, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	DBG(DEBUG_BENCH, "bench: note: %s", buf);
	if (ctx->notes)
		json_array_append_new(ctx->notes, fst_json_text(buf));
}

void *bench_aligned_alloc(size_t align, size_t size)
{
	void *p = NULL;

	if (posix_memalign(&p, align, size ? size : align) != 0) {
		fprintf(stderr, "fstune: out of memory\n");
		abort();
	}
	return p;
}

/* The start of process `pid` in clock ticks after boot (/proc/PID/stat field 22: after the command
 * name in parentheses, which may hold anything, the 20th field), or 0 when it cannot be read. */
static unsigned long long proc_start_time(long pid)
{
	char *stat = path_read_string("/proc/%ld/stat", pid), *p = stat ? strrchr(stat, ')') : NULL;
	unsigned long long start = 0;

	for (int field = 2; p && *p && field < 22; p++)
		if (*p == ' ' && ++field == 22)
			start = strtoull(p + 1, NULL, 10);
	free(stat);
	return start;
}

/* This boot's id (/proc/sys/kernel/random/boot_id), "" when unknown. Static storage. */
static const char *boot_id(void)
{
	static char id[40];

	if (!id[0]) {
		char *s = path_read_string("/proc/sys/kernel/random/boot_id");

		snprintf(id, sizeof id, "%s", s && strlen(s) < sizeof id && !strpbrk(s, " \t\n") ? s : "-");
		free(s);
	}
	return id;
}

int bench_scratch_create(struct bench_ctx *ctx, struct fst_error *err)
{
	char name[64], pid[128];
	int fd, n;

	snprintf(name, sizeof name, SCRATCH_PREFIX "%ld", (long)getpid());
	ctx->scratch = xasprintf("%s/%s", ctx->dir, name);
	if (mkdir(ctx->scratch, 0700) < 0) {
		int e = errno;

		free(ctx->scratch);
		ctx->scratch = NULL;
		if (e == EROFS)
			return fst_error_set(err, FST_EXIT_REFUSED, "%s is on a read-only mount: nothing can be "
					     "benchmarked there", ctx->dir);
		return fst_error_set(err, FST_EXIT_REFUSED, "cannot create the scratch directory in %s: %s",
				     ctx->dir, strerror(e));
	}
	ctx->scratch_fd = open(ctx->scratch, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	fd = ctx->scratch_fd < 0 ? -1
				 : openat(ctx->scratch_fd, PID_FILE, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		int e = errno;

		bench_scratch_remove(ctx);
		return fst_error_set(err, FST_EXIT_REFUSED, "cannot write in %s: %s", ctx->dir, strerror(e));
	}
	/* the pid, and what tells this process from a later one given the same pid */
	n = snprintf(pid, sizeof pid, "%ld %llu %s\n", (long)getpid(), proc_start_time((long)getpid()), boot_id());
	if (write(fd, pid, (size_t)n) != n) {
		int e = errno;

		close(fd);
		bench_scratch_remove(ctx);
		return fst_error_set(err, FST_EXIT_REFUSED, "cannot write in %s: %s", ctx->dir, strerror(e));
	}
	close(fd);
	DBG(DEBUG_BENCH, "bench: scratch directory %s", ctx->scratch);
	return FST_EXIT_OK;
}

int bench_scratch_open(struct bench_ctx *ctx, const char *name)
{
	int flags = O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | (ctx->dio.is_direct ? O_DIRECT : 0);
	int fd = openat(ctx->scratch_fd, name, flags, 0600);

	return fd < 0 ? -errno : fd;
}

void bench_scratch_unlink(struct bench_ctx *ctx, const char *name)
{
	if (ctx->scratch_fd >= 0)
		unlinkat(ctx->scratch_fd, name, 0);
}

/* Removes the (emptied) scratch directory `path`, open in `fd` (-1: by its path alone): from its
 * own parent, reached through it, so that a filesystem unmounted lazily meanwhile (the path leads
 * elsewhere now, or nowhere) is left without it all the same. 0 or -1 with errno. */
static int scratch_rmdir(const char *path, int fd)
{
	const char *base = strrchr(path, '/');
	struct stat own, named;
	int parent = fd >= 0 ? openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1, r, e;

	if (parent < 0)
		return rmdir(path);
	base = base ? base + 1 : path;
	/* the name in that parent must still be this directory, not one made in its place */
	if (fstat(fd, &own) != 0 || fstatat(parent, base, &named, AT_SYMLINK_NOFOLLOW) != 0 ||
	    own.st_ino != named.st_ino || own.st_dev != named.st_dev) {
		close(parent);
		errno = ESTALE;
		return -1;
	}
	r = unlinkat(parent, base, AT_REMOVEDIR);
	e = errno;
	close(parent);
	errno = e;
	return r;
}

void bench_scratch_remove(struct bench_ctx *ctx)
{
	int scratch_fd = ctx->scratch_fd;

	if (ctx->data_fd >= 0)
		close(ctx->data_fd);
	ctx->data_fd = -1;
	ctx->scratch_fd = -1;
	if (scratch_fd >= 0)
		scratch_names_remove(scratch_fd, ctx->file_dirs);
	if (ctx->scratch) {
		if (scratch_rmdir(ctx->scratch, scratch_fd) < 0)
			DBG(DEBUG_BENCH, "bench: rmdir %s: %s", ctx->scratch, strerror(errno));
		free(ctx->scratch);
		ctx->scratch = NULL;
	}
	if (scratch_fd >= 0)
		close(scratch_fd);
}

/* Writes the whole span with incompressible data, then makes it durable and drops this file's pages
 * from the page cache (only this file's: drop_caches is never used), so reads start cold. */
static int layout_write(struct bench_ctx *ctx, struct fst_error *err)
{
	size_t align = ctx->dio.mem_align < 4096 ? 4096 : ctx->dio.mem_align;
	char *buf = bench_aligned_alloc(align, LAYOUT_CHUNK);
	struct fst_rng rng;
	uint64_t off = 0, t0 = fst_clock_ns(), last = t0;
	int status = FST_EXIT_OK;

	fst_rng_seed(&rng, ctx->seed);
	fst_rng_fill(&rng, buf, LAYOUT_CHUNK);
	while (off < ctx->span_bytes) {
		size_t len = ctx->span_bytes - off < LAYOUT_CHUNK ? (size_t)(ctx->span_bytes - off) : LAYOUT_CHUNK;
		size_t k;
		ssize_t w;

		if (*ctx->stop) {
			status = 128 + *ctx->stop;
			break;
		}
		/* a fresh word per 4 KiB block: no block repeats another */
		for (k = 0; k < len / 8; k += 512)
			((uint64_t *)(void *)buf)[k] = fst_rng_next(&rng);
		w = pwrite(ctx->data_fd, buf, len, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = w < 0 ? errno : EIO;

			status = fst_error_set(err, FST_EXIT_PARTIAL, "laying out the %llu-byte test file in %s "
					       "failed at offset %llu: %s", (unsigned long long)ctx->span_bytes,
					       ctx->dir, (unsigned long long)off, strerror(e));
			break;
		}
		off += (uint64_t)w;
		if (ctx->cfg->progress && fst_clock_ns() - last > 100000000ull) {
			struct bench_live live = {(double)off / ((double)(fst_clock_ns() - t0) / 1e9), 0, 0};

			last = fst_clock_ns();
			if (!ctx->cfg->progress(ctx->cfg->progress_arg, "layout", (double)off / (double)ctx->span_bytes,
						&live)) {
				status = 128 + SIGINT;
				break;
			}
		}
	}
	if (status == FST_EXIT_OK && fdatasync(ctx->data_fd) < 0)
		status = fst_error_set(err, FST_EXIT_PARTIAL, "laying out the test file in %s: fdatasync: %s",
				       ctx->dir, strerror(errno));
	if (status == FST_EXIT_OK)
		posix_fadvise(ctx->data_fd, 0, 0, POSIX_FADV_DONTNEED);
	free(buf);
	ctx->layout_s = (double)(fst_clock_ns() - t0) / 1e9;
	DBG(DEBUG_BENCH, "bench: layout of %llu bytes in %.2f s", (unsigned long long)off, ctx->layout_s);
	return status;
}

/* Creates the data file, decides direct I/O on it, and reopens it with O_DIRECT when that is used. */
int bench_data_open(struct bench_ctx *ctx, struct fst_error *err)
{
	char *path = xasprintf("%s/%s", ctx->scratch, DATA_FILE);
	int fd = openat(ctx->scratch_fd, DATA_FILE, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0) {
		int e = errno;

		free(path);
		return fst_error_set(err, FST_EXIT_REFUSED, "cannot create the test file in %s: %s", ctx->dir,
				     strerror(e));
	}
	bench_dio_probe(fd, path, ctx->is_memory, &ctx->dio);
	free(path);
	if (ctx->dio.is_direct) {
		int dfd = openat(ctx->scratch_fd, DATA_FILE, O_RDWR | O_DIRECT | O_CLOEXEC);

		if (dfd < 0) {
			ctx->dio.is_direct = false;
			ctx->dio.offset_align = 1;
			ctx->dio.label = ctx->is_memory ? BENCH_DIRECT_MEMORY : BENCH_DIRECT_NO;
			snprintf(ctx->dio.reason, sizeof ctx->dio.reason, "O_DIRECT failed: %s: buffered I/O",
				 strerror(errno));
		} else {
			close(fd);
			fd = dfd;
		}
	}
	ctx->data_fd = fd;
	return FST_EXIT_OK;
}

int bench_layout_ensure(struct bench_ctx *ctx, struct fst_error *err)
{
	int r;

	if (ctx->is_laid_out || ctx->is_raw_device)
		return FST_EXIT_OK;
	if (ctx->data_fd < 0 && (r = bench_data_open(ctx, err)) != FST_EXIT_OK)
		return r;
	r = layout_write(ctx, err);
	if (r == FST_EXIT_OK)
		ctx->is_laid_out = true;
	return r;
}

static bool is_scratch_name(const char *name, long *pid)
{
	char *end;

	if (strncmp(name, SCRATCH_PREFIX, strlen(SCRATCH_PREFIX)))
		return false;
	*pid = strtol(name + strlen(SCRATCH_PREFIX), &end, 10);
	return *end == '\0' && *pid > 0 && *pid <= INT_MAX; /* a pid_t, never -1 (kill's "every process") */
}

/* Space allocated to everything below `path`, not following links nor crossing mounts. */
static uint64_t tree_allocated_bytes(const char *path)
{
	char *const roots[] = {(char *)path, NULL};
	FTS *fts = fts_open(roots, FTS_PHYSICAL | FTS_XDEV | FTS_NOCHDIR, NULL);
	FTSENT *e;
	uint64_t bytes = 0;

	if (!fts)
		return 0;
	while ((e = fts_read(fts)))
		if (e->fts_info == FTS_F || e->fts_info == FTS_D)
			bytes += (uint64_t)e->fts_statp->st_blocks * 512;
	fts_close(fts);
	return bytes;
}

/* Whether the run that made scratch directory `sfd` (named for `pid`) is alive: the pid is a
 * process's (kill succeeds or is not permitted), and, when the pid file says when the run started
 * and in which boot, that process started then (a pid reused since is another process's). A pid
 * file of the older form, or none yet (a run between its mkdir and its write), has the pid alone. */
static bool is_run_alive(int sfd, long pid)
{
	char buf[128] = "", boot[40];
	unsigned long long start;
	long recorded;
	int fd = sfd >= 0 ? openat(sfd, PID_FILE, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) : -1;
	struct stat st;
	ssize_t n = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? read(fd, buf, sizeof buf - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (kill((pid_t)pid, 0) != 0 && errno != EPERM)
		return false;
	buf[n > 0 ? n : 0] = '\0';
	if (sscanf(buf, "%ld %llu %39s", &recorded, &start, boot) != 3 || recorded != pid)
		return true;
	return !strcmp(boot, boot_id()) && proc_start_time(pid) == start;
}

/* Whether the scratch directory `sfd` holds nothing a run writes but its pid file: what a run leaves
 * when its filesystem was unmounted lazily under it (or it was killed before it wrote). */
static bool is_empty_scratch(int sfd)
{
	int fd = sfd >= 0 ? dup(sfd) : -1;
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;
	bool empty = d != NULL;

	if (!d && fd >= 0)
		close(fd);
	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") && strcmp(de->d_name, PID_FILE))
			empty = false;
	if (d)
		closedir(d);
	return empty;
}

json_t *bench_leftovers_find(const char *dir)
{
	json_t *out = json_array();
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return out;
	while ((de = readdir(d))) {
		char *path;
		long pid;
		int sfd;

		if (!is_scratch_name(de->d_name, &pid) || pid == (long)getpid())
			continue;
		sfd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		/* a concurrent run's, not a leftover */
		if (is_run_alive(sfd, pid)) {
			if (sfd >= 0)
				close(sfd);
			continue;
		}
		path = xasprintf("%s/%s", strcmp(dir, "/") ? dir : "", de->d_name);
		/* the path stays bytes (nocheck): `bench --clean` removes it by this name */
		json_array_append_new(out, json_pack("{s:o, s:I, s:I, s:b}", "path", json_string_nocheck(path), "pid",
						     (json_int_t)pid, "bytes", (json_int_t)tree_allocated_bytes(path),
						     "empty", is_empty_scratch(sfd)));
		if (sfd >= 0)
			close(sfd);
		free(path);
	}
	closedir(d);
	return out;
}

uint64_t bench_leftovers_bytes(const json_t *leftovers)
{
	uint64_t sum = 0;
	size_t i;
	json_t *v;

	json_array_foreach(leftovers, i, v)
		sum += (uint64_t)json_integer_value(json_object_get(v, "bytes"));
	return sum;
}

int bench_scratch_clear(const char *path, const char *const *dirs)
{
	const char *base = strrchr(path, '/');
	int dfd;
	long pid;

	if (!is_scratch_name(base ? base + 1 : path, &pid))
		return -EINVAL;
	dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	scratch_names_remove(dfd, dirs);
	close(dfd);
	return rmdir(path) < 0 ? -errno : 0;
}
