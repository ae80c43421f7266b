/* The trial's cold tree measurement, the 1999 experiment: write a source-like tree on the fresh
 * filesystem (as `tar x` does, no fsync), unmount it (the time includes writing back what was dirty,
 * as the thread's `umount` "to sync" did), mount it again, and read every file back in directory
 * order with nothing cached. Only a trial can do this: it unmounts its own filesystem, where bench
 * would need drop_caches. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app/trial_tree.h"
#include "lib/xalloc.h"
#include "fstune/bench.h"
#include "fstune/status.h"

#define BUF_SIZE (1u << 20)
#define FILE_CAP (1ull << 20) /* bytes: the largest file of the tree; bigger ones are not tree-like */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* xorshift64*: the same tree for every candidate and run, from a fixed seed */
static uint64_t rng_next(uint64_t *x)
{
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 2685821657736338717ull;
}

static uint64_t draw_size(uint64_t *rng, const struct trial_tree_plan *p)
{
	unsigned u = (unsigned)(rng_next(rng) % 1000);
	double f = (double)(rng_next(rng) >> 11) / (double)(1ull << 53);

	return bench_tree_size_draw(p->size_min, p->size_p50, p->size_p90, p->size_max, FILE_CAP, u, f);
}

static bool stopped(const volatile sig_atomic_t *stop)
{
	return stop && *stop;
}

int trial_tree_write(const char *root, const struct trial_tree_plan *p, const volatile sig_atomic_t *stop,
		     struct trial_tree_result *r, struct fst_error *err)
{
	uint64_t rng = 0x1999081313ull, i;
	char *buf = xmalloc(BUF_SIZE), path[4096];
	double t0 = now_s();
	int st = FST_EXIT_OK;

	for (i = 0; i < BUF_SIZE; i += 8) {
		uint64_t v = rng_next(&rng);

		memcpy(buf + i, &v, 8);
	}
	memset(r, 0, sizeof *r);
	for (i = 0; i < p->files && st == FST_EXIT_OK; i++) {
		uint64_t size = draw_size(&rng, p), left;
		int fd;

		if (stopped(stop))
			break;
		if (r->bytes + size > p->bytes_max)
			break;
		if (i % p->per_dir == 0) {
			snprintf(path, sizeof path, "%s/d%llu", root, (unsigned long long)(i / p->per_dir));
			if (mkdir(path, 0755) < 0) {
				st = fst_error_set(err, FST_EXIT_PARTIAL, "tree: mkdir %s: %s", path, strerror(errno));
				break;
			}
		}
		snprintf(path, sizeof path, "%s/d%llu/f%llu.c", root, (unsigned long long)(i / p->per_dir),
			 (unsigned long long)i);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0) {
			st = fst_error_set(err, FST_EXIT_PARTIAL, "tree: create %s: %s", path, strerror(errno));
			break;
		}
		for (left = size; left && st == FST_EXIT_OK;) {
			size_t n = left > BUF_SIZE ? BUF_SIZE : (size_t)left;
			ssize_t w = write(fd, buf + (size_t)(i * 64) % 4096, n > BUF_SIZE - 4096 ? BUF_SIZE - 4096 : n);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				st = fst_error_set(err, FST_EXIT_PARTIAL, "tree: write %s: %s", path,
						   w < 0 ? strerror(errno) : "short write");
			else
				left -= (uint64_t)w;
		}
		close(fd);
		r->files++;
		r->bytes += size;
	}
	r->write_s = now_s() - t0;
	free(buf);
	return st;
}

/* Stats every entry under `dir` in readdir order, descending into directories as met: `find -ls`. */
static int walk_dir(int dfd, const volatile sig_atomic_t *stop, struct trial_tree_result *r, struct fst_error *err)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;
	int st = FST_EXIT_OK;

	if (!d) {
		close(dfd);
		return fst_error_set(err, FST_EXIT_PARTIAL, "tree: opendir: %s", strerror(errno));
	}
	while (st == FST_EXIT_OK && !stopped(stop) && (de = readdir(d))) {
		struct stat sb;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") || !strcmp(de->d_name, "lost+found"))
			continue;
		if (fstatat(dirfd(d), de->d_name, &sb, AT_SYMLINK_NOFOLLOW) < 0) {
			st = fst_error_set(err, FST_EXIT_PARTIAL, "tree: stat %s: %s", de->d_name, strerror(errno));
			break;
		}
		r->walk_entries++;
		if (S_ISDIR(sb.st_mode)) {
			int sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			st = sub < 0 ? fst_error_set(err, FST_EXIT_PARTIAL, "tree: open %s: %s", de->d_name,
						     strerror(errno))
				     : walk_dir(sub, stop, r, err);
		}
	}
	closedir(d);
	return st;
}

int trial_tree_walk(const char *root, const volatile sig_atomic_t *stop, struct trial_tree_result *r,
		    struct fst_error *err)
{
	double t0 = now_s();
	int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC), st;

	r->walk_entries = 0;
	st = fd < 0 ? fst_error_set(err, FST_EXIT_PARTIAL, "tree: open %s: %s", root, strerror(errno))
		    : walk_dir(fd, stop, r, err);
	r->walk_s = now_s() - t0;
	return st;
}

/* Reads every file under `dir` in readdir order, descending into directories as met. */
static int read_dir(int dfd, char *buf, const volatile sig_atomic_t *stop, struct trial_tree_result *r,
		    struct fst_error *err)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;
	int st = FST_EXIT_OK;

	if (!d) {
		close(dfd);
		return fst_error_set(err, FST_EXIT_PARTIAL, "tree: opendir: %s", strerror(errno));
	}
	while (st == FST_EXIT_OK && !stopped(stop) && (de = readdir(d))) {
		int fd;
		ssize_t n;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") || !strcmp(de->d_name, "lost+found"))
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			st = fst_error_set(err, FST_EXIT_PARTIAL, "tree: open %s: %s", de->d_name, strerror(errno));
			break;
		}
		if (de->d_type == DT_DIR) {
			st = read_dir(fd, buf, stop, r, err);
			continue;
		}
		while ((n = read(fd, buf, BUF_SIZE)) != 0) {
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				st = fst_error_set(err, FST_EXIT_PARTIAL, "tree: read %s: %s", de->d_name,
						   strerror(errno));
				break;
			}
			r->read_bytes += (uint64_t)n;
		}
		close(fd);
		r->read_files++;
	}
	closedir(d);
	return st;
}

int trial_tree_read(const char *root, const volatile sig_atomic_t *stop, struct trial_tree_result *r,
		    struct fst_error *err)
{
	char *buf = xmalloc(BUF_SIZE);
	double t0 = now_s();
	int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC), st;

	r->read_files = r->read_bytes = 0;
	st = fd < 0 ? fst_error_set(err, FST_EXIT_PARTIAL, "tree: open %s: %s", root, strerror(errno))
		    : read_dir(fd, buf, stop, r, err);
	r->read_s = now_s() - t0;
	free(buf);
	if (st == FST_EXIT_OK && !stopped(stop) && (r->read_files != r->files || r->read_bytes != r->bytes))
		st = fst_error_set(err, FST_EXIT_PARTIAL, "tree: wrote %llu files of %llu bytes, read back %llu "
				   "of %llu", (unsigned long long)r->files, (unsigned long long)r->bytes,
				   (unsigned long long)r->read_files, (unsigned long long)r->read_bytes);
	return st;
}
