/* metadata: the 2003 experiment at the scale of a benchmark: create N files spread over D directories
 * (each file holding the text of its number), stat them all, unlink them all. Creation and unlinking
 * are timed through syncfs; the stats run on a warm cache (cache "warm": cold numbers exist only in
 * `trial`, after a remount, since drop_caches is never used). N and the files per directory come from
 * the workload facts; creation stops at the time bound (--runtime), so N is what fit. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fstune/debug.h"
#include "probes/bench/file_common.h"

#define FILES_CAP 200000u      /* files at most: creation rarely gets this far within the bound */
#define FILES_MIN 10u
#define SPACE_SHARE 0.5        /* of the free space and inodes, at most */
#define PER_FILE_BYTES 8192u   /* a small file's block and its share of a directory, generously */
#define NAME_LEN 48

struct md {
	struct file_run *r;
	uint64_t files;            /* planned */
	uint64_t per_dir;
	uint64_t created;
	uint64_t dirs_made;
	uint64_t dirs_removed;
};

static void md_name(uint64_t n, uint64_t per_dir, char *buf, size_t len)
{
	snprintf(buf, len, "d%llu/f%llu", (unsigned long long)(n / per_dir), (unsigned long long)n);
}

static bool md_step_create(void *arg, uint64_t n)
{
	struct md *m = arg;
	char name[NAME_LEN], text[24];
	int fd, len, e;

	if (n % m->per_dir == 0) {
		char dir[NAME_LEN];

		snprintf(dir, sizeof dir, "d%llu", (unsigned long long)(n / m->per_dir));
		if (mkdirat(m->r->dirfd, dir, 0700) < 0)
			return file_fail(m->r, errno, "mkdir %s", dir);
		m->dirs_made++;
	}
	md_name(n, m->per_dir, name, sizeof name);
	fd = openat(m->r->dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return file_fail(m->r, errno, "create %s", name);
	len = snprintf(text, sizeof text, "%llu\n", (unsigned long long)n);
	if ((e = file_write_all(fd, text, (size_t)len, 0)) < 0) {
		close(fd);
		return file_fail(m->r, -e, "write %s", name);
	}
	if (close(fd) < 0)
		return file_fail(m->r, errno, "close %s", name);
	m->created++;
	return true;
}

static bool md_step_stat(void *arg, uint64_t n)
{
	struct md *m = arg;
	char name[NAME_LEN];
	struct stat st;

	md_name(n, m->per_dir, name, sizeof name);
	if (fstatat(m->r->dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return file_fail(m->r, errno, "stat %s", name);
	return true;
}

static bool md_step_unlink(void *arg, uint64_t n)
{
	struct md *m = arg;
	char name[NAME_LEN];

	md_name(n, m->per_dir, name, sizeof name);
	if (unlinkat(m->r->dirfd, name, 0) < 0)
		return file_fail(m->r, errno, "unlink %s", name);
	if ((n + 1) % m->per_dir == 0 || n + 1 == m->created) {
		snprintf(name, sizeof name, "d%llu", (unsigned long long)(n / m->per_dir));
		if (unlinkat(m->r->dirfd, name, AT_REMOVEDIR) < 0)
			return file_fail(m->r, errno, "rmdir %s", name);
		m->dirs_removed++;
	}
	return true;
}

/* Sizes the run: the workload's file count, capped by the free space and inodes and by what unlinking
 * takes the time bound for. False, with the test marked not applicable, when too few files fit. */
static bool md_plan(struct md *m, const struct file_workload *w)
{
	struct file_run *r = m->r;
	struct file_space sp;
	uint64_t want;

	m->files = file_count_capped(w, FILES_CAP);
	want = m->files < FILES_MIN ? m->files : FILES_MIN; /* fewer than this: no room to measure */
	file_space_get(r, SPACE_SHARE, &sp);
	if (sp.bytes / PER_FILE_BYTES < m->files)
		m->files = sp.bytes / PER_FILE_BYTES;
	m->files = file_count_fit_inodes(m->files, w, &sp);
	{
		/* every file made is unlinked within the bound too */
		double cap = file_unlink_rate(r) * file_secs(file_phase_ns(r));

		if (cap < (double)m->files && m->files >= FILES_MIN) {
			m->files = cap < FILES_MIN ? FILES_MIN : (uint64_t)cap;
			bench_note(r->ctx, "%s: %llu files, what this filesystem unlinks within the time bound",
				   r->def->name, (unsigned long long)m->files);
		}
	}
	if (m->files < want) {
		file_set_not_applicable(r, "too little free space or too few free inodes in %s for %llu files",
					r->ctx->dir, (unsigned long long)want);
		return false;
	}
	m->per_dir = w->files_per_dir > m->files ? m->files : w->files_per_dir;
	DBG(DEBUG_BENCH, "bench: %s: up to %llu files, %llu per directory", r->def->name,
	    (unsigned long long)m->files, (unsigned long long)m->per_dir);
	return true;
}

static void md_report(struct md *m, uint64_t stats, uint64_t unlinked, double tc, double ts, double tu)
{
	struct file_run *r = m->r;

	if (stats != m->created || unlinked != m->created)
		file_check_failed(r, "created %llu, stat %llu, unlinked %llu", (unsigned long long)m->created,
				  (unsigned long long)stats, (unsigned long long)unlinked);
	if (m->dirs_removed != m->dirs_made)
		file_check_failed(r, "made %llu directories, removed %llu", (unsigned long long)m->dirs_made,
				  (unsigned long long)m->dirs_removed);
	file_set_rate(r, "create_per_s", m->created, tc);
	file_set_rate(r, "stat_per_s", stats, ts);
	file_set_rate(r, "unlink_per_s", unlinked, tu);
	file_set_int(r, "files", (long long)m->created);
	file_set_int(r, "files_planned", (long long)m->files);
	file_set_int(r, "files_per_dir", (long long)m->per_dir);
	file_set_int(r, "directories", (long long)m->dirs_made);
	file_set_int(r, "stats", (long long)stats);
	file_set_int(r, "unlinks", (long long)unlinked);
	file_set_str(r, "cache", "warm");
	file_set_real(r, "create_s", tc);
	file_set_real(r, "stat_s", ts);
	file_set_real(r, "unlink_s", tu);
	file_set_real(r, "runtime_s", tc + ts + tu);
	file_set_common(r);
}

int bench_file_metadata_run(struct bench_ctx *ctx, const struct bench_test_def *def, struct facts *f)
{
	struct file_run r;
	struct file_workload w;
	struct md m;
	uint64_t stats = 0, unlinked = 0;
	double tc = 0, ts = 0, tu = 0;
	int status;

	if (!file_run_begin(&r, ctx, def, f, &status))
		return status;
	memset(&m, 0, sizeof m);
	m.r = &r;
	file_workload_get(f, &w);
	if (!md_plan(&m, &w)) {
		file_run_end(&r);
		return FST_EXIT_OK;
	}
	{
		/* create through syncfs, bounded by the time bound; stat warm (what a mail server's
		 * directory scan or a build's up-to-date check costs); unlink through syncfs, the
		 * directories too (they are part of the cost) */
		const struct file_phase create_ph = {"create", "creation", "files", m.files, true, true, 0, 0.6,
						     md_step_create, &m};
		struct file_phase stat_ph = {"stat", "stat", "files", 0, false, false, 0.6, 0.1, md_step_stat, &m};
		struct file_phase unlink_ph = {"unlink", "unlinking", "files", 0, false, true, 0.7, 0.3,
					       md_step_unlink, &m};

		file_phase_run(&r, &create_ph, &tc);
		stat_ph.count = unlink_ph.count = m.created;
		stats = m.created ? file_phase_run(&r, &stat_ph, &ts) : 0;
		unlinked = m.created ? file_phase_run(&r, &unlink_ph, &tu) : 0;
	}
	if (!file_done(&r))
		md_report(&m, stats, unlinked, tc, ts, tu);
	return file_run_end(&r);
}
