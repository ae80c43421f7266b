/* tree: the 1999 experiment (untar a kernel tree, sync, read it back): write a tree of files with the
 * workload's size distribution and files per directory, syncfs, then read every file's data back in
 * directory (readdir) order, as `tar cf` walks a tree but reading the data for real (GNU tar skips the
 * data of a tar written to /dev/null). Between the two, each file's pages are dropped from the page cache
 * (posix_fadvise on our own files only: drop_caches is never used), so the data is read from the
 * device while the directories and inodes stay cached: cache "warm". */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "fstune/debug.h"
#include "fstune/rng.h"
#include "probes/bench/file_common.h"

#define FILES_CAP 100000u
#define FILES_MIN 10u
#define FILE_SIZE_CAP (64ull << 20)  /* bytes: one file at most; larger ones are seq_write_1m's job */
#define BYTES_CAP (1ull << 30)       /* bytes written at most */
#define SPACE_SHARE 0.25             /* of the free space and inodes, at most */
#define BUF_SIZE (1u << 20)          /* bytes per write() and read() */
#define NAME_LEN 48

struct tree {
	struct file_run *r;
	struct fst_rng rng;
	char *buf;
	uint64_t per_dir;
	uint64_t top;                 /* bytes: the largest size drawn (tree_top) */
	uint64_t files, bytes, dirs;  /* written */
	const struct file_workload *w;
	uint64_t max_bytes;           /* the space bound of the write phase */
	uint64_t *dir_bytes;          /* written into each directory d<k> */
	DIR *top_dir;                 /* the read phase's walk of the top directory */
	uint64_t files_read, bytes_read;
	uint64_t files_due, bytes_due; /* what the directories read so far were written with */
};

/* The mean of exp(U) - 1 for U uniform on [ln(a+1), ln(b+1)]: one part of tree_size's distribution. */
static double logu_mean(double a, double b)
{
	return b <= a ? a : (b - a) / (log(b + 1) - log(a + 1));
}

uint64_t bench_tree_size_top(uint64_t min, uint64_t p50, uint64_t p90, uint64_t mean, uint64_t max, uint64_t cap)
{
	double lo = (double)p90, hi = (double)(max < cap ? max : cap);
	double base = 0.5 * logu_mean((double)min, (double)p50) + 0.4 * logu_mean((double)p50, (double)p90);
	int i;

	if (hi <= lo || base + 0.1 * logu_mean(lo, hi) <= (double)mean)
		return (uint64_t)(hi > lo ? hi : lo);
	for (i = 0; i < 60; i++) {
		double mid = (lo + hi) / 2;

		if (base + 0.1 * logu_mean((double)p90, mid) > (double)mean)
			hi = mid;
		else
			lo = mid;
	}
	return (uint64_t)lo;
}

static uint64_t tree_top(const struct file_workload *w)
{
	return bench_tree_size_top(w->size_min, w->size_p50, w->size_p90, w->size_mean, w->size_max, FILE_SIZE_CAP);
}

uint64_t bench_tree_size_draw(uint64_t min, uint64_t p50, uint64_t p90, uint64_t top, uint64_t cap,
			      unsigned u, double f)
{
	uint64_t lo = u < 500 ? min : u < 900 ? p50 : p90;
	uint64_t hi = u < 500 ? p50 : u < 900 ? p90 : top;
	double a, b, x;

	if (hi > cap)
		hi = cap;
	if (lo > hi)
		lo = hi;
	a = log((double)lo + 1);
	b = log((double)hi + 1);
	x = exp(a + (b - a) * f) - 1;
	return x < (double)lo ? lo : x > (double)hi ? hi : (uint64_t)x;
}

static uint64_t tree_size(struct tree *t, const struct file_workload *w)
{
	unsigned u = (unsigned)fst_rng_below(&t->rng, 1000);
	double f = (double)fst_rng_below(&t->rng, 1u << 30) / (double)(1u << 30);

	return bench_tree_size_draw(w->size_min, w->size_p50, w->size_p90, t->top, FILE_SIZE_CAP, u, f);
}

static bool tree_write_file(struct tree *t, const char *name, uint64_t size)
{
	int fd = openat(t->r->dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	uint64_t left = size;

	if (fd < 0)
		return file_fail(t->r, errno, "create %s", name);
	while (left) {
		size_t n = left > BUF_SIZE ? BUF_SIZE : (size_t)left, k;
		int e;

		/* a fresh word in every 4 KiB block: no block repeats another (compression, dedup) */
		for (k = 0; k < n / 8; k += 512)
			((uint64_t *)(void *)t->buf)[k] = fst_rng_next(&t->rng);
		if ((e = file_write_all(fd, t->buf, n, 0)) < 0) {
			close(fd);
			return file_fail(t->r, -e, "write %s", name);
		}
		left -= n;
	}
	if (close(fd) < 0)
		return file_fail(t->r, errno, "close %s", name);
	t->files++;
	t->bytes += size;
	return true;
}

/* Drops the written data of every file from the page cache (ours only), after syncfs made it clean. */
static void tree_drop_pages(struct tree *t)
{
	uint64_t n;

	for (n = 0; n < t->files; n++) {
		char name[NAME_LEN];
		int fd;

		if (file_should_stop(t->r, 0.5 + 0.1 * (double)n / (double)t->files, n))
			break;

		snprintf(name, sizeof name, "d%llu/f%llu", (unsigned long long)(n / t->per_dir), (unsigned long long)n);
		fd = openat(t->r->dirfd, name, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		close(fd);
	}
}

/* Reads one directory's files in readdir order. */
static void tree_read_dir(struct tree *t, int dfd)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;

	if (!d) {
		file_fail(t->r, errno, "opendir");
		close(dfd);
		return;
	}
	while (!file_done(t->r) && (de = readdir(d))) {
		ssize_t n;
		int fd;

		if (de->d_name[0] == '.')
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			file_fail(t->r, errno, "open %s", de->d_name);
			break;
		}
		while ((n = read(fd, t->buf, BUF_SIZE)) != 0) {
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				file_fail(t->r, errno, "read %s", de->d_name);
				break;
			}
			t->bytes_read += (uint64_t)n;
		}
		close(fd);
		t->files_read++;
		file_should_stop(t->r, 0.6 + 0.4 * fmin(1, (double)t->files_read / (double)(t->files ? t->files : 1)),
				 t->r->ops + t->files_read);
	}
	closedir(d);
}

/* The write phase's step: the n-th file, in its directory; false at the space bound or a failure. */
static bool tree_step_write(void *arg, uint64_t n)
{
	struct tree *t = arg;
	uint64_t size = tree_size(t, t->w);
	char name[NAME_LEN];

	if (t->bytes + size > t->max_bytes)
		return false;
	if (n % t->per_dir == 0) {
		snprintf(name, sizeof name, "d%llu", (unsigned long long)(n / t->per_dir));
		if (mkdirat(t->r->dirfd, name, 0700) < 0)
			return file_fail(t->r, errno, "mkdir %s", name);
		t->dirs++;
	}
	snprintf(name, sizeof name, "d%llu/f%llu", (unsigned long long)(n / t->per_dir), (unsigned long long)n);
	if (!tree_write_file(t, name, size))
		return false;
	t->dir_bytes[n / t->per_dir] += size;
	return true;
}

/* What directory `name` (d<k>) was written with joins what the read must find; a name fstune did
 * not write adds nothing, so the check fails. */
static void tree_due_add(struct tree *t, const char *name)
{
	unsigned long long k;
	char *end;

	if (name[0] != 'd' || !name[1])
		return;
	k = strtoull(name + 1, &end, 10);
	if (*end || k >= t->dirs)
		return;
	t->files_due += t->files - k * t->per_dir < t->per_dir ? t->files - k * t->per_dir : t->per_dir;
	t->bytes_due += t->dir_bytes[k];
}

/* The read phase's step: the next directory of the top one, as readdir gives them; false at the end. */
static bool tree_step_read(void *arg, uint64_t n)
{
	struct tree *t = arg;
	struct dirent *de;
	int sub;

	(void)n;
	while ((de = readdir(t->top_dir)) && de->d_name[0] == '.')
		;
	if (!de)
		return false;
	sub = openat(dirfd(t->top_dir), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sub < 0)
		return file_fail(t->r, errno, "open %s", de->d_name);
	tree_due_add(t, de->d_name);
	tree_read_dir(t, sub);
	return true;
}

/* Writes through syncfs, to the time or the space bound; then reads back in directory order (the top
 * directory's entries as readdir gives them, each one's files likewise) with the data's pages dropped
 * in between, outside the timing, to the time bound too: cold reads of small files can be several
 * times slower than writing them was. */
static void tree_phases(struct tree *t, uint64_t max_files, double *tw, double *tr)
{
	struct file_run *r = t->r;
	const struct file_phase write_ph = {"write", "writing", "files", max_files, true, true, 0, 0.5,
					    tree_step_write, t};
	struct file_phase read_ph = {"read", "reading", "directories", 0, true, false, 0.6, 0.4,
				     tree_step_read, t};
	int top;

	file_phase_run(r, &write_ph, tw);
	read_ph.count = t->dirs;
	tree_drop_pages(t);
	top = file_done(r) ? -1 : openat(r->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	t->top_dir = top >= 0 ? fdopendir(top) : NULL;
	if (!t->top_dir && !file_done(r)) {
		file_fail(r, errno, "opendir");
		if (top >= 0)
			close(top);
	}
	if (t->top_dir) {
		file_phase_run(r, &read_ph, tr);
		closedir(t->top_dir);
	}
}

/* The checks and the figures; the read may have stopped at the time bound, so what it read is checked
 * against what those directories were written with. */
static void tree_report(struct tree *t, double tw, double tr)
{
	struct file_run *r = t->r;

	if (t->files_read != t->files_due || t->bytes_read != t->bytes_due)
		file_check_failed(r, "the directories read back were written with %llu files of %llu bytes; "
				  "read: %llu of %llu", (unsigned long long)t->files_due,
				  (unsigned long long)t->bytes_due, (unsigned long long)t->files_read,
				  (unsigned long long)t->bytes_read);
	file_set_real(r, "write_s", tw);
	file_set_real(r, "read_s", tr);
	file_set_int(r, "files", (long long)t->files);
	file_set_int(r, "files_read", (long long)t->files_read);
	file_set_int(r, "bytes", (long long)t->bytes);
	file_set_int(r, "directories", (long long)t->dirs);
	file_set_int(r, "files_per_dir", (long long)t->per_dir);
	file_set_rate(r, "write_bw_bytes_per_s", t->bytes, tw);
	file_set_rate(r, "read_bw_bytes_per_s", t->bytes_read, tr);
	file_set_rate(r, "write_files_per_s", t->files, tw);
	file_set_rate(r, "read_files_per_s", t->files_read, tr);
	file_set_int(r, "file_size_mean_bytes", t->files ? (long long)(t->bytes / t->files) : 0);
	file_set_int(r, "file_size_top_bytes", (long long)t->top);
	file_set_str(r, "cache", "warm");
	file_set_real(r, "runtime_s", tw + tr);
	file_set_common(r);
}

int bench_file_tree_run(struct bench_ctx *ctx, const struct bench_test_def *def, struct facts *f)
{
	struct file_run r;
	struct file_workload w;
	struct file_space sp;
	struct tree t;
	uint64_t want, max_files;
	double tw = 0, tr = 0;
	int status;

	if (!file_run_begin(&r, ctx, def, f, &status))
		return status;
	memset(&t, 0, sizeof t);
	t.r = &r;
	file_workload_get(f, &w);
	file_space_get(&r, SPACE_SHARE, &sp);
	max_files = file_count_capped(&w, FILES_CAP);
	want = max_files < FILES_MIN ? max_files : FILES_MIN; /* fewer than this: no room to measure */
	max_files = file_count_fit_inodes(max_files, &w, &sp);
	t.max_bytes = sp.bytes < BYTES_CAP ? sp.bytes : BYTES_CAP;
	{
		/* the tree is removed afterwards: as many files as unlinking takes the time bound for */
		double cap = file_unlink_rate(&r) * file_secs(file_phase_ns(&r));

		if (cap < (double)max_files)
			max_files = cap < want ? want : (uint64_t)cap;
	}
	if (max_files < want || t.max_bytes < (1u << 20)) {
		file_set_not_applicable(&r, "too little free space or too few free inodes in %s", ctx->dir);
		file_run_end(&r);
		return FST_EXIT_OK;
	}
	t.per_dir = w.files_per_dir > max_files ? max_files : w.files_per_dir;
	t.w = &w;
	fst_rng_seed(&t.rng, ctx->seed ^ 0x74726565ull);
	t.dir_bytes = xcalloc(max_files / t.per_dir + 1, sizeof *t.dir_bytes);
	t.buf = bench_aligned_alloc(4096, BUF_SIZE);
	fst_rng_fill(&t.rng, t.buf, BUF_SIZE);
	t.top = tree_top(&w);
	if (w.size_max > FILE_SIZE_CAP && t.top >= FILE_SIZE_CAP)
		bench_note(ctx, "%s: file sizes capped at %llu MiB (the workload's largest is %llu bytes)", def->name,
			   (unsigned long long)(FILE_SIZE_CAP >> 20), (unsigned long long)w.size_max);

	tree_phases(&t, max_files, &tw, &tr);
	if (!file_done(&r))
		tree_report(&t, tw, tr);
	free(t.buf);
	free(t.dir_bytes);
	return file_run_end(&r);
}
