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
#include <unistd.h>

#include "app/trial/trial_tree.h"
#include "lib/xalloc.h"
#include "fstune/bench.h"
#include "fstune/clock.h"
#include "fstune/rng.h"
#include "fstune/status.h"

#define BUF_SIZE (1u << 20)

static uint64_t draw_size(uint64_t *rng, const struct trial_tree_plan *p)
{
	unsigned u = (unsigned)(fst_xorshift64s(rng) % 1000);
	double f = (double)(fst_xorshift64s(rng) >> 11) / (double)(1ull << 53);

	return bench_tree_size_draw(p->size_min, p->size_p50, p->size_p90, p->size_top, TRIAL_TREE_FILE_CAP, u, f);
}

static bool stopped(const volatile sig_atomic_t *stop)
{
	return stop && *stop;
}

int trial_tree_write(const char *root, const struct trial_tree_plan *p, const volatile sig_atomic_t *stop,
		     struct trial_tree_result *r, struct fst_error *err)
{
	uint64_t rng = 0x1999081313ull, i; /* fixed: the same tree for every candidate and run */
	char *buf = xmalloc(BUF_SIZE), path[4096];
	double t0 = fst_clock_s();
	int st = FST_EXIT_OK;

	for (i = 0; i < BUF_SIZE; i += 8) {
		uint64_t v = fst_xorshift64s(&rng);

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
	r->write_s = fst_clock_s() - t0;
	free(buf);
	return st;
}

/* What a pass over the tree does with one entry (a directory is then descended into by the pass). */
typedef int (*tree_visit_fn)(int dir_fd, const char *name, bool is_dir, void *arg, struct fst_error *err);

/* Visits every entry under `dfd` (its own descriptor: closed here) in readdir order, descending into
 * directories as met, as `find` and `tar` walk a tree. The entry's type comes from readdir, and from
 * a stat only where the filesystem does not say (DT_UNKNOWN), so a pass adds no inode reads of its own. */
static int tree_pass(int dfd, const volatile sig_atomic_t *stop, tree_visit_fn visit, void *arg,
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
		struct stat sb;
		bool is_dir = de->d_type == DT_DIR;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") || !strcmp(de->d_name, "lost+found"))
			continue;
		if (de->d_type == DT_UNKNOWN)
			is_dir = fstatat(dirfd(d), de->d_name, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(sb.st_mode);
		st = visit(dirfd(d), de->d_name, is_dir, arg, err);
		if (st == FST_EXIT_OK && is_dir) {
			int sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			st = sub < 0 ? fst_error_set(err, FST_EXIT_PARTIAL, "tree: open %s: %s", de->d_name,
						     strerror(errno))
				     : tree_pass(sub, stop, visit, arg, err);
		}
	}
	closedir(d);
	return st;
}

/* The metadata walk, `find -ls`: a stat of every entry. */
static int visit_stat(int dir_fd, const char *name, bool is_dir, void *arg, struct fst_error *err)
{
	struct trial_tree_result *r = arg;
	struct stat sb;

	(void)is_dir;
	if (fstatat(dir_fd, name, &sb, AT_SYMLINK_NOFOLLOW) < 0)
		return fst_error_set(err, FST_EXIT_PARTIAL, "tree: stat %s: %s", name, strerror(errno));
	r->walk_entries++;
	return FST_EXIT_OK;
}

int trial_tree_walk(const char *root, const volatile sig_atomic_t *stop, struct trial_tree_result *r,
		    struct fst_error *err)
{
	double t0 = fst_clock_s();
	int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC), st;

	r->walk_entries = 0;
	st = fd < 0 ? fst_error_set(err, FST_EXIT_PARTIAL, "tree: open %s: %s", root, strerror(errno))
		    : tree_pass(fd, stop, visit_stat, r, err);
	r->walk_s = fst_clock_s() - t0;
	return st;
}

struct read_pass {
	struct trial_tree_result *r;
	char *buf; /* BUF_SIZE bytes */
};

/* The read-back: every file's data, `tar cf` reading for real. */
static int visit_read(int dir_fd, const char *name, bool is_dir, void *arg, struct fst_error *err)
{
	struct read_pass *p = arg;
	int fd, st = FST_EXIT_OK;
	ssize_t n;

	if (is_dir)
		return FST_EXIT_OK;
	fd = openat(dir_fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return fst_error_set(err, FST_EXIT_PARTIAL, "tree: open %s: %s", name, strerror(errno));
	while ((n = read(fd, p->buf, BUF_SIZE)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			st = fst_error_set(err, FST_EXIT_PARTIAL, "tree: read %s: %s", name, strerror(errno));
			break;
		}
		p->r->read_bytes += (uint64_t)n;
	}
	close(fd);
	p->r->read_files++;
	return st;
}

int trial_tree_read(const char *root, const volatile sig_atomic_t *stop, struct trial_tree_result *r,
		    struct fst_error *err)
{
	struct read_pass p = {r, xmalloc(BUF_SIZE)};
	double t0 = fst_clock_s();
	int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC), st;

	r->read_files = r->read_bytes = 0;
	st = fd < 0 ? fst_error_set(err, FST_EXIT_PARTIAL, "tree: open %s: %s", root, strerror(errno))
		    : tree_pass(fd, stop, visit_read, &p, err);
	r->read_s = fst_clock_s() - t0;
	free(p.buf);
	if (st == FST_EXIT_OK && !stopped(stop) && (r->read_files != r->files || r->read_bytes != r->bytes))
		st = fst_error_set(err, FST_EXIT_PARTIAL, "tree: wrote %llu files of %llu bytes, read back %llu "
				   "of %llu", (unsigned long long)r->files, (unsigned long long)r->bytes,
				   (unsigned long long)r->read_files, (unsigned long long)r->read_bytes);
	return st;
}
