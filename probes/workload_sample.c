/* The sampler behind `--sample DIR`: one read-only pass over a directory tree that measures the file
 * sizes, the directory fan-out, allocation and tail waste the rules need (workload.* keys).
 *
 * Speed matters (millions of files on a mail spool): every name is looked up relative to its
 * directory's descriptor (fstatat with AT_SYMLINK_NOFOLLOW, no path strings per file), directories are
 * read with readdir on fdopendir, and only regular files and directories are stat-ed. Directories on
 * the current path stay open; past FD_DEPTH_OPEN levels a parent's descriptor is closed while its
 * child is walked and reopened through "..", checked against the inode it had. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "fstune/clock.h"
#include "fstune/debug.h"
#include "fstune/rng.h"
#include "fstune/workload.h"

const uint32_t workload_tail_units[WORKLOAD_TAIL_UNITS] = {1024, 2048, 4096, 16384, 32768, 65536};

/* Directory levels whose descriptors stay open; deeper trees cost two extra syscalls per level. */
#define FD_DEPTH_OPEN 64
/* Files between two looks at the clock. */
#define CLOCK_EVERY 256
#define PROGRESS_INTERVAL_S 0.1

/* Values kept for percentiles: all of them up to `max`, then a uniform reservoir (algorithm R). */
struct reservoir {
	uint64_t *v;
	size_t n, cap, max;
	uint64_t seen;  /* values offered */
};

/* Inodes with more than one link already counted (open addressing; 0 marks an empty slot, and
 * inode 0 never names a file). */
struct inode_set {
	uint64_t *slot;
	size_t cap, used;
};

struct frame {
	int fd;          /* -1 while closed to save descriptors (deeper than FD_DEPTH_OPEN) */
	ino_t ino;       /* to check a reopen through ".." */
	char *name;      /* name in the parent ("" for the root), for error messages */
	char *children;  /* names of subdirectories to walk, each NUL-terminated */
	size_t children_len, pos;
};

struct walk {
	struct workload_sample_result *r;
	const struct workload_sample_options *opt;
	dev_t dev;                 /* the sampled filesystem */
	uint64_t frsize;           /* its allocation unit, for the sparse test */
	bool use_noatime;          /* O_NOATIME allowed so far (owner or CAP_FOWNER) */
	struct reservoir sizes, per_dir;
	struct inode_set links;
	uint64_t rng;
	struct frame *stack;
	size_t depth, stack_cap;
	double start_s, deadline_s, next_progress_s;
	unsigned clock_count;
	bool stop;
};

static void reservoir_add(struct reservoir *res, uint64_t value, uint64_t *rng)
{
	res->seen++;
	if (res->n < res->max) {
		if (res->n == res->cap) {
			res->cap = res->cap ? res->cap * 2 : 4096;
			if (res->cap > res->max)
				res->cap = res->max;
			res->v = xrealloc(res->v, res->cap * sizeof(*res->v));
		}
		res->v[res->n++] = value;
		return;
	}
	uint64_t j = fst_splitmix64(rng) % res->seen;
	if (j < res->max)
		res->v[j] = value;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Nearest rank: the ⌈pct·n/100⌉-th smallest value (1-based). */
static uint64_t percentile(const struct reservoir *res, unsigned pct)
{
	size_t rank = (pct * res->n + 99) / 100;

	return res->v[rank ? rank - 1 : 0];
}

/* True when the inode was already counted; records it otherwise. */
static bool inode_seen(struct inode_set *s, uint64_t ino)
{
	size_t i;

	if (s->used * 2 >= s->cap) {
		struct inode_set bigger = {xcalloc(s->cap ? s->cap * 2 : 1024, sizeof(uint64_t)),
					   s->cap ? s->cap * 2 : 1024, 0};

		for (i = 0; i < s->cap; i++)
			if (s->slot[i])
				(void)inode_seen(&bigger, s->slot[i]);
		free(s->slot);
		*s = bigger;
	}
	for (i = (size_t)(ino * 0x9e3779b97f4a7c15ULL) & (s->cap - 1); s->slot[i];
	     i = (i + 1) & (s->cap - 1))
		if (s->slot[i] == ino)
			return true;
	s->slot[i] = ino;
	s->used++;
	return false;
}

/* Records the first error as "<path below the root>: <strerror>"; the path is built only here. */
static void note_error(struct walk *w, const char *name, int err)
{
	struct workload_sample_result *r = w->r;
	size_t i, used = 0;

	if (err == EACCES || err == EPERM)
		r->denied++;
	else
		r->errors++;
	if (r->first_error[0])
		return;
	for (i = 1; i < w->depth && used < sizeof(r->first_error); i++)
		used += (size_t)snprintf(r->first_error + used, sizeof(r->first_error) - used, "%s/",
					 w->stack[i].name);
	if (used < sizeof(r->first_error))
		snprintf(r->first_error + used, sizeof(r->first_error) - used, "%s: %s",
			 name ? name : ".", strerror(err));
	DBG(DEBUG_PROBES, "sample: %s", r->first_error);
}

/* Looks at the clock now and then: the time limit and the progress callback. */
static void check_clock(struct walk *w, bool force)
{
	double t;

	if (!force && ++w->clock_count < CLOCK_EVERY)
		return;
	w->clock_count = 0;
	t = fst_clock_s();
	if (w->deadline_s > 0 && t >= w->deadline_s) {
		w->r->partial = true;
		w->stop = true;
	}
	if (w->opt->progress && t >= w->next_progress_s) {
		struct workload_sample_progress p = {w->r->files, w->r->dirs, w->r->bytes,
						     w->r->denied + w->r->errors, t - w->start_s};

		w->next_progress_s = t + PROGRESS_INTERVAL_S;
		if (!w->opt->progress(&p, w->opt->progress_arg)) {
			w->r->partial = true;
			w->r->cancelled = true;
			w->stop = true;
		}
	}
}

static void count_file(struct walk *w, const struct stat *st)
{
	struct workload_sample_result *r = w->r;
	uint64_t size = (uint64_t)st->st_size, alloc = (uint64_t)st->st_blocks * 512;
	size_t i;

	if (st->st_nlink > 1 && inode_seen(&w->links, (uint64_t)st->st_ino)) {
		r->hardlinks_skipped++;
		return;
	}
	if (r->files == 0 || size < r->size_min)
		r->size_min = size;
	if (size > r->size_max)
		r->size_max = size;
	r->files++;
	r->bytes += size;
	r->allocated += alloc;
	r->inline_candidates += size <= 60;
	r->under_1k += size <= 1024;
	r->under_2k += size <= 2048;
	r->under_4k += size <= 4096;
	/* A whole allocation unit missing: a hole. A smaller gap is an inline or compressed tail. */
	r->sparse += alloc + w->frsize <= size;
	for (i = 0; i < WORKLOAD_TAIL_UNITS; i++) {
		uint64_t u = workload_tail_units[i];

		r->tail_waste[i] += (u - size % u) % u;
	}
	reservoir_add(&w->sizes, size, &w->rng);
	check_clock(w, false);
}

static void add_child(struct frame *fr, const char *name)
{
	size_t len = strlen(name) + 1;

	fr->children = xrealloc(fr->children, fr->children_len + len);
	memcpy(fr->children + fr->children_len, name, len);
	fr->children_len += len;
}

/* Reads one directory: counts its files, queues its subdirectories. Takes no ownership of `fd`. */
static void read_dir(struct walk *w, struct frame *fr)
{
	struct workload_sample_result *r = w->r;
	uint64_t entries = 0;
	struct dirent *de;
	struct stat st;
	DIR *d;
	int fd;

	fd = fcntl(fr->fd, F_DUPFD_CLOEXEC, 0);
	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		note_error(w, NULL, errno);
		if (fd >= 0)
			close(fd);
		return;
	}
	r->dirs++;
	while (!w->stop) {
		unsigned char type;

		errno = 0;
		de = readdir(d);
		if (!de) {
			if (errno)
				note_error(w, NULL, errno);
			break;
		}
		if (de->d_name[0] == '.' &&
		    (de->d_name[1] == '\0' || (de->d_name[1] == '.' && de->d_name[2] == '\0')))
			continue;
		entries++;
		type = de->d_type;
		if (type == DT_REG || type == DT_UNKNOWN) {
			if (fstatat(fr->fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT)) {
				if (errno != ENOENT) /* removed meanwhile: not an error of ours */
					note_error(w, de->d_name, errno);
				continue;
			}
			type = S_ISREG(st.st_mode) ? DT_REG : S_ISDIR(st.st_mode) ? DT_DIR
							 : S_ISLNK(st.st_mode) ? DT_LNK : DT_FIFO;
			if (type == DT_REG) {
				if (st.st_dev != w->dev)
					r->mounts_skipped++; /* a file bind-mounted over another */
				else
					count_file(w, &st);
				continue;
			}
		}
		if (type == DT_DIR)
			add_child(fr, de->d_name);
		else if (type == DT_LNK)
			r->symlinks++;
		else
			r->others++;
	}
	closedir(d);
	reservoir_add(&w->per_dir, entries, &w->rng);
	if (entries > r->per_dir_max)
		r->per_dir_max = entries;
	check_clock(w, true);
}

static int open_dir_at(struct walk *w, int dirfd, const char *name)
{
	int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	int fd = -1;

	/* Reading a directory would update its atime; O_NOATIME needs ownership or CAP_FOWNER. */
	if (w->use_noatime) {
		fd = openat(dirfd, name, flags | O_NOATIME);
		if (fd < 0 && errno == EPERM)
			w->use_noatime = false;
	}
	if (fd < 0 && (!w->use_noatime || errno == EPERM))
		fd = openat(dirfd, name, flags);
	return fd;
}

static void push(struct walk *w, int fd, ino_t ino, const char *name)
{
	if (w->depth == w->stack_cap) {
		w->stack_cap = w->stack_cap ? w->stack_cap * 2 : 64;
		w->stack = xrealloc(w->stack, w->stack_cap * sizeof(*w->stack));
	}
	w->stack[w->depth++] = (struct frame){fd, ino, xstrdup(name), NULL, 0, 0};
}

static void pop(struct walk *w)
{
	struct frame *fr = &w->stack[--w->depth];

	if (fr->fd >= 0)
		close(fr->fd);
	free(fr->name);
	free(fr->children);
}

/* Gives the parent of the top frame its descriptor back (closed while a deep child was walked). */
static void reopen_parent(struct walk *w)
{
	struct frame *child = &w->stack[w->depth - 1], *parent = &w->stack[w->depth - 2];
	struct stat st;

	if (parent->fd >= 0)
		return;
	parent->fd = openat(child->fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (parent->fd >= 0 && fstat(parent->fd, &st) == 0 && st.st_ino == parent->ino &&
	    st.st_dev == w->dev)
		return;
	/* Moved while we were below it: leave the rest of it rather than walk somewhere else. */
	note_error(w, "..", parent->fd < 0 ? errno : ESTALE);
	if (parent->fd >= 0)
		close(parent->fd);
	parent->fd = -1;
	parent->pos = parent->children_len;
}

/* Descends into the next queued subdirectory of the top frame; false when it has none left. */
static bool descend(struct walk *w)
{
	struct frame *fr = &w->stack[w->depth - 1];
	struct stat st;
	const char *name;
	int fd;

	while (fr->pos < fr->children_len && fr->fd >= 0 && !w->stop) {
		name = fr->children + fr->pos;
		fr->pos += strlen(name) + 1;
		/* Stat first, without automounting: a mount point shows the mounted filesystem. */
		if (fstatat(fr->fd, name, &st, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT)) {
			if (errno != ENOENT)
				note_error(w, name, errno);
			continue;
		}
		if (st.st_dev != w->dev) {
			w->r->mounts_skipped++;
			continue;
		}
		if (!S_ISDIR(st.st_mode))
			continue; /* replaced meanwhile */
		fd = open_dir_at(w, fr->fd, name);
		if (fd < 0) {
			note_error(w, name, errno);
			continue;
		}
		push(w, fd, st.st_ino, name);
		fr = &w->stack[w->depth - 2];
		if (w->depth > FD_DEPTH_OPEN && w->depth > 2) {
			close(fr->fd);
			fr->fd = -1;
		}
		return true;
	}
	return false;
}

static void walk_tree(struct walk *w)
{
	read_dir(w, &w->stack[0]);
	while (w->depth > 0 && !w->stop) {
		if (descend(w)) {
			read_dir(w, &w->stack[w->depth - 1]);
			continue;
		}
		if (w->depth > 1)
			reopen_parent(w);
		pop(w);
	}
	while (w->depth > 0)
		pop(w);
}

static void finish(struct walk *w)
{
	struct workload_sample_result *r = w->r;

	r->percentiles_exact = w->sizes.seen == w->sizes.n && w->per_dir.seen == w->per_dir.n;
	if (w->sizes.n) {
		qsort(w->sizes.v, w->sizes.n, sizeof(uint64_t), cmp_u64);
		r->size_p50 = percentile(&w->sizes, 50);
		r->size_p90 = percentile(&w->sizes, 90);
	}
	if (w->per_dir.n) {
		qsort(w->per_dir.v, w->per_dir.n, sizeof(uint64_t), cmp_u64);
		r->per_dir_p50 = percentile(&w->per_dir, 50);
		r->per_dir_p90 = percentile(&w->per_dir, 90);
	}
	r->elapsed_s = fst_clock_s() - w->start_s;
}

int workload_sample(const char *dir, const struct workload_sample_options *opt,
		    struct workload_sample_result *out, struct fst_error *err)
{
	static const struct workload_sample_options no_options;
	struct walk w = {.r = out, .opt = opt ? opt : &no_options, .use_noatime = true};
	struct statvfs sv;
	struct stat st;
	int fd;

	memset(out, 0, sizeof(*out));
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOATIME);
	if (fd < 0 && errno == EPERM)
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return fst_error_set(err, FST_EXIT_USAGE, "--sample %s: %s%s", dir, strerror(e),
				     e == ENOTDIR ? "; give the directory whose files to sample" : "");
	}
	w.dev = st.st_dev;
	w.frsize = fstatvfs(fd, &sv) == 0 && sv.f_frsize ? sv.f_frsize : 4096;
	w.sizes.max = w.per_dir.max = w.opt->reservoir_max ? w.opt->reservoir_max
							    : WORKLOAD_SAMPLE_EXACT_MAX;
	w.rng = w.opt->seed ? w.opt->seed : 0x243f6a8885a308d3ULL;
	w.start_s = fst_clock_s();
	w.deadline_s = w.opt->time_limit_s > 0 ? w.start_s + w.opt->time_limit_s : 0;
	w.next_progress_s = w.start_s; /* the first look reports at once */
	push(&w, fd, st.st_ino, "");
	walk_tree(&w);
	finish(&w);
	DBG(DEBUG_PROBES, "sample %s: %llu files, %llu dirs in %.3f s%s", dir,
	    (unsigned long long)out->files, (unsigned long long)out->dirs, out->elapsed_s,
	    out->partial ? " (partial)" : "");
	free(w.sizes.v);
	free(w.per_dir.v);
	free(w.links.slot);
	free(w.stack);
	return FST_EXIT_OK;
}

static void set_u64(struct facts *f, const char *key, uint64_t v)
{
	facts_set_int(f, key, (long long)v, "sample");
}

void workload_sample_to_facts(const struct workload_sample_result *r, const char *dir,
			      struct facts *f)
{
	static const char *const size_keys[] = {
		"workload.file_size_min_bytes", "workload.file_size_max_bytes",
		"workload.file_size_p50_bytes", "workload.file_size_p90_bytes",
		"workload.file_size_mean_bytes", "workload.share_under_1k", "workload.share_under_2k",
		"workload.share_under_4k",
	};
	size_t i;

	set_u64(f, "workload.files_total", r->files);
	set_u64(f, "workload.bytes_total", r->bytes);
	set_u64(f, "workload.allocated_bytes", r->allocated);
	set_u64(f, "workload.inline_candidates", r->inline_candidates);
	set_u64(f, "workload.sparse_files", r->sparse);
	/* One source per leaf, so that a rule citing workload.tail_waste_bytes.u4k finds its source. */
	for (i = 0; i < WORKLOAD_TAIL_UNITS; i++) {
		char key[64];

		snprintf(key, sizeof(key), "workload.tail_waste_bytes.u%uk",
			 (unsigned)(workload_tail_units[i] / 1024));
		set_u64(f, key, r->tail_waste[i]);
	}
	if (r->files) {
		double n = (double)r->files;

		set_u64(f, "workload.file_size_min_bytes", r->size_min);
		set_u64(f, "workload.file_size_max_bytes", r->size_max);
		set_u64(f, "workload.file_size_p50_bytes", r->size_p50);
		set_u64(f, "workload.file_size_p90_bytes", r->size_p90);
		set_u64(f, "workload.file_size_mean_bytes", (r->bytes + r->files / 2) / r->files);
		facts_set_real(f, "workload.share_under_1k", (double)r->under_1k / n, "sample");
		facts_set_real(f, "workload.share_under_2k", (double)r->under_2k / n, "sample");
		facts_set_real(f, "workload.share_under_4k", (double)r->under_4k / n, "sample");
	} else {
		for (i = 0; i < sizeof(size_keys) / sizeof(size_keys[0]); i++)
			facts_set_unavailable(f, size_keys[i], FACTS_NOT_FOUND,
					      "no regular file under %s", dir);
	}
	set_u64(f, "workload.files_per_dir", r->per_dir_p50);
	set_u64(f, "workload.files_per_dir_p90", r->per_dir_p90);
	set_u64(f, "workload.files_per_dir_max", r->per_dir_max);
	facts_set_bool(f, "workload.partial", r->partial, "sample");

	facts_set_string(f, "workload.sample.root", dir, "sample");
	set_u64(f, "workload.sample.dirs", r->dirs);
	set_u64(f, "workload.sample.hardlinks_skipped", r->hardlinks_skipped);
	set_u64(f, "workload.sample.symlinks", r->symlinks);
	set_u64(f, "workload.sample.others", r->others);
	set_u64(f, "workload.sample.mounts_skipped", r->mounts_skipped);
	set_u64(f, "workload.sample.denied", r->denied);
	set_u64(f, "workload.sample.errors", r->errors);
	if (r->first_error[0])
		facts_set_string(f, "workload.sample.first_error", r->first_error, "sample");
	facts_set_bool(f, "workload.sample.percentiles_exact", r->percentiles_exact, "sample");
	facts_set_bool(f, "workload.sample.cancelled", r->cancelled, "sample");
	facts_set_real(f, "workload.sample.elapsed_s", r->elapsed_s, "sample");
}
