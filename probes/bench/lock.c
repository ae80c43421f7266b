/* One benchmark per filesystem at a time: two runs sized from the same free space would each take
 * the whole budget and together fill the filesystem. A run holds an flock on
 * /run/fstune/bench-<fsid>.lock while it writes; a second run on the same filesystem is refused at
 * once, naming the first (its pid from /proc/locks, which no process can forge, and its command line).
 * Nothing is written on the target filesystem outside the scratch directory. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "fstune/debug.h"
#include "fstune/path.h"
#include "probes/bench/bench_int.h"

#define LOCK_DIR "/run/fstune"
#define CMDLINE_MAX 200 /* bytes of the holder's command line quoted in the refusal */

/* The lock directory: /run/fstune, or FSTUNE_TEST_LOCK_DIR (the tests' own, so that two tests
 * benchmarking one shared filesystem side by side under make -j do not refuse each other). */
static const char *lock_dir(void)
{
	const char *d = getenv("FSTUNE_TEST_LOCK_DIR");

	return d && *d ? d : LOCK_DIR;
}

/* The filesystem's name in the lock file's: its f_fsid, else (a filesystem reporting none) the
 * device number of the directory. */
static char *lock_name(const char *dir)
{
	struct statfs sfs;
	struct stat st;
	unsigned a, b;

	if (statfs(dir, &sfs) == 0) {
		memcpy(&a, &sfs.f_fsid, sizeof a);
		memcpy(&b, (const char *)&sfs.f_fsid + sizeof a, sizeof b);
		if (a || b)
			return xasprintf("bench-%08x%08x.lock", a, b);
	}
	if (stat(dir, &st) == 0)
		return xasprintf("bench-dev-%u-%u.lock", major(st.st_dev), minor(st.st_dev));
	return NULL;
}

/* The pid holding an flock on the file open in `fd`, from /proc/locks; 0 when none is listed (a
 * holder in another pid namespace shows as 0 too). */
static long lock_holder(int fd)
{
	char *text = path_read_table("/proc/locks"), *save = NULL;
	struct stat st;
	long pid = 0;

	if (!text || fstat(fd, &st) != 0) {
		free(text);
		return 0;
	}
	for (char *l = strtok_r(text, "\n", &save); l && !pid; l = strtok_r(NULL, "\n", &save)) {
		unsigned maj, min;
		unsigned long long ino;
		long p;

		/* "1: FLOCK  ADVISORY  WRITE 4711 08:01:1234 0 EOF"; a blocked waiter's line has "->" */
		if (!strstr(l, " FLOCK ") || strstr(l, "->"))
			continue;
		if (sscanf(strstr(l, " FLOCK "), " FLOCK %*s %*s %ld %x:%x:%llu", &p, &maj, &min, &ino) == 4 &&
		    ino == (unsigned long long)st.st_ino && maj == major(st.st_dev) && min == minor(st.st_dev))
			pid = p;
	}
	free(text);
	return pid;
}

/* The command line of `pid`, its arguments joined by spaces and cut at CMDLINE_MAX. Caller frees. */
static char *command_of(long pid)
{
	char path[64], buf[CMDLINE_MAX + 1];
	ssize_t n = -1;
	int fd;

	snprintf(path, sizeof path, "/proc/%ld/cmdline", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, CMDLINE_MAX);
		close(fd);
	}
	if (n <= 0)
		return xstrdup("(its command line cannot be read)");
	buf[n] = '\0';
	for (ssize_t i = 0; i < n - 1; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	return xasprintf("%s%s", buf, n == CMDLINE_MAX ? "..." : "");
}

/* The lock directory, made if missing: sticky and writable by all, as /run/lock is, so that a plain
 * user's run takes part too. -1 with errno when it cannot be used. */
static int lock_dir_open(const char *dir)
{
	struct stat st;
	int fd;

	if (mkdir(dir, 01777) == 0)
		chmod(dir, 01777); /* past the umask */
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* anyone may add a file, nobody may replace another's: the directory of a user other than
	 * root (or oneself), or one without the sticky bit, could hand a run someone else's lock */
	if (fstat(fd, &st) != 0 || (st.st_uid != 0 && st.st_uid != geteuid()) ||
	    ((st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX))) {
		close(fd);
		errno = EPERM;
		return -1;
	}
	return fd;
}

/* Opens the lock file (a regular file, not a link: the directory is shared), creating it when
 * missing. An existing one is opened without O_CREAT, which fs.protected_regular refuses even to
 * root for another user's file in a sticky directory. */
static int lock_file_open(int dfd, const char *name)
{
	struct stat st;
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

	if (fd < 0 && errno == ENOENT)
		fd = openat(dfd, name, O_RDONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 && errno == EEXIST)
		fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		errno = PATH_ENOTREG;
		return -1;
	}
	return fd;
}

int bench_lock_take(struct bench_ctx *ctx, struct fst_error *err)
{
	const char *dir = lock_dir();
	char *name = lock_name(ctx->dir), *path;
	int dfd, fd = -1, status = FST_EXIT_OK;

	if (!name)
		return fst_error_set(err, FST_EXIT_USAGE, "%s: %s", ctx->dir, strerror(errno));
	path = xasprintf("%s/%s", dir, name);
	dfd = lock_dir_open(dir);
	if (dfd >= 0) {
		fd = lock_file_open(dfd, name);
		close(dfd);
	}
	if (fd < 0 && geteuid() != 0 && (errno == EACCES || errno == ENOENT || errno == EPERM || errno == EROFS)) {
		/* a plain user before root made the directory: the run goes on unguarded, and says so */
		bench_note(ctx, "no lock held on %s: %s is not writable by this user, so a second benchmark of this "
			   "filesystem started meanwhile would not be refused", ctx->dir, dir);
	} else if (fd < 0) {
		status = fst_error_set(err, FST_EXIT_REFUSED, "cannot take the lock %s that keeps two benchmarks off "
				       "one filesystem: %s; remove it if it is not a regular file in a directory of root",
				       path, path_strerror(errno));
	} else if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		long pid = lock_holder(fd);
		char *cmd = pid > 0 ? command_of(pid) : NULL;

		if (pid > 0)
			status = fst_error_set(err, FST_EXIT_REFUSED, "another benchmark runs on the filesystem of %s: pid "
					       "%ld (%s) holds %s; two would each take the free space the other counts "
					       "on: wait for it to end, then run this again", ctx->dir, pid, cmd, path);
		else
			status = fst_error_set(err, FST_EXIT_REFUSED, "another benchmark runs on the filesystem of %s (a "
					       "process this one cannot see holds %s): wait for it to end, then run "
					       "this again", ctx->dir, path);
		free(cmd);
		close(fd);
		fd = -1;
	} else {
		DBG(DEBUG_BENCH, "bench: holding %s", path);
	}
	ctx->lock_fd = fd;
	free(path);
	free(name);
	return status;
}

void bench_lock_release(struct bench_ctx *ctx)
{
	if (ctx->lock_fd >= 0)
		close(ctx->lock_fd);
	ctx->lock_fd = -1;
}
