/* What a trial makes and must take away: the image file, its loop device (direct I/O, autoclear), the
 * private mount namespace, the mount point and the mounts; and the real mkfs, run without a shell. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/trial/trial_record.h"
#include "app/trial/trial_scratch.h"
#include "lib/xalloc.h"
#include "fstune/clock.h"
#include "fstune/status.h"

void trial_scratch_init(struct trial_scratch *s)
{
	memset(s, 0, sizeof *s);
	s->loop_fd = -1;
}

int trial_scratch_namespace(struct fst_error *err)
{
	/* Mounts made after this are seen by this process only, and vanish with it even on SIGKILL; the
	 * loop device (autoclear) is then released too. */
	if (unshare(CLONE_NEWNS) < 0)
		return fst_error_set(err, errno == EPERM ? FST_EXIT_REFUSED : FST_EXIT_PARTIAL,
				     "a private mount namespace (unshare): %s%s", strerror(errno),
				     errno == EPERM ? ": trial needs root" : "");
	if (mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return fst_error_set(err, FST_EXIT_PARTIAL, "making the mount namespace private: %s",
				     strerror(errno));
	return FST_EXIT_OK;
}

/* Attaches the image to a free loop device with LOOP_CONFIGURE: direct I/O, so the trial measures
 * the disk under the image and not the page cache, and autoclear, so the device goes when the last
 * user (this process, its mounts) does. */
static int attach_loop(struct trial_scratch *s, int img_fd, struct fst_error *err)
{
	int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	int tries;

	if (ctl < 0)
		return fst_error_set(err, FST_EXIT_REFUSED, "/dev/loop-control: %s: loop devices are needed for "
				     "--image", strerror(errno));
	for (tries = 0; tries < 8; tries++) {
		struct loop_config cfg;
		int n = ioctl(ctl, LOOP_CTL_GET_FREE), fd;
		char path[64];

		if (n < 0)
			break;
		snprintf(path, sizeof path, "/dev/loop%d", n);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		memset(&cfg, 0, sizeof cfg);
		cfg.fd = (unsigned)img_fd;
		cfg.info.lo_flags = LO_FLAGS_DIRECT_IO | LO_FLAGS_AUTOCLEAR;
		if (ioctl(fd, LOOP_CONFIGURE, &cfg) == 0) {
			char sys[96], v = '0';
			int dio;

			s->loop_fd = fd;
			s->dev = xstrdup(path);
			snprintf(sys, sizeof sys, "/sys/block/loop%d/loop/dio", n);
			dio = open(sys, O_RDONLY | O_CLOEXEC);
			if (dio >= 0) {
				if (read(dio, &v, 1) != 1)
					v = '0';
				close(dio);
			}
			s->is_loop_direct = v == '1';
			close(ctl);
			return FST_EXIT_OK;
		}
		close(fd);
		if (errno != EBUSY)
			break;
	}
	fst_error_set(err, FST_EXIT_PARTIAL, "attaching a loop device to %s: %s", s->image, strerror(errno));
	close(ctl);
	return err->status;
}

int trial_scratch_image(struct trial_scratch *s, const char *path, uint64_t size, struct fst_error *err)
{
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600), rc;

	if (fd < 0 && errno == EEXIST)
		return fst_error_set(err, FST_EXIT_REFUSED, "--image %s exists: trial makes its own image and "
				     "removes it afterwards, so it never writes over a file", path);
	if (fd < 0)
		return fst_error_set(err, FST_EXIT_USAGE, "--image %s: %s", path, strerror(errno));
	s->image = xstrdup(path);
	s->size_bytes = size;
	s->record_status = trial_record_write(s);
	/* preallocated, so the filesystem under test is not also measuring the host's allocator */
	rc = posix_fallocate(fd, 0, (off_t)size);
	if (rc) {
		close(fd);
		return fst_error_set(err, rc == ENOSPC ? FST_EXIT_REFUSED : FST_EXIT_PARTIAL,
				     "--image %s: preallocating %llu bytes: %s", path, (unsigned long long)size,
				     strerror(rc));
	}
	rc = attach_loop(s, fd, err);
	close(fd);
	if (rc == FST_EXIT_OK)
		s->record_status = trial_record_write(s);
	return rc;
}

void trial_scratch_set_device(struct trial_scratch *s, const char *dev, uint64_t size)
{
	s->dev = xstrdup(dev);
	s->size_bytes = size;
	s->record_status = trial_record_write(s);
}

/* Runs argv (argv[0] looked up in PATH) with no shell, stdin and stdout on /dev/null; the first
 * bytes of its stderr go to `msg`. Returns the exit status, 128+n for a signal, -errno when it could
 * not start. */
static int run_tool(char *const argv[], char *msg, size_t len)
{
	int pfd[2], status = 0;
	size_t got = 0;
	pid_t pid;

	msg[0] = '\0';
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -errno;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		struct sigaction sa;

		memset(&sa, 0, sizeof sa);
		sa.sa_handler = SIG_DFL;
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
		dup2(null, 0);
		dup2(null, 1);
		dup2(pfd[1], 2);
		execvp(argv[0], argv);
		dprintf(2, "cannot run %s: %s", argv[0], strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	for (;;) {
		char buf[512];
		ssize_t n = read(pfd[0], buf, sizeof buf);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (got + 1 < len) {
			size_t k = (size_t)n < len - 1 - got ? (size_t)n : len - 1 - got;

			memcpy(msg + got, buf, k);
			got += k;
			msg[got] = '\0';
		}
	}
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	for (char *p = msg; *p; p++)
		if (*p == '\n' && p[1])
			*p = ' ';
	msg[strcspn(msg, "\n")] = '\0';
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static bool is_ext(const char *fs)
{
	return !strncmp(fs, "ext", 3);
}

static bool has_word(const struct trial_candidate *c, const char *w)
{
	for (size_t i = 0; i < c->n_args; i++)
		if (!strcmp(c->args[i], w))
			return true;
	return false;
}

/* The argument vector: the tool, its force and quiet switches, the candidate's options, the device.
 * Nothing is discarded, so the image stays preallocated (a discard on the loop device punches holes
 * in the image, and the next candidate would measure the host's allocator): ext's -E is joined with
 * nodiscard and the lazy-init options (mke2fs keeps only the last -E), xfs and btrfs get -K. */
static char **mkfs_argv(const struct trial_scratch *s, const struct trial_candidate *c)
{
	char **argv = xcalloc(c->n_args + 8, sizeof *argv);
	const char *ext_e = "lazy_itable_init=0,lazy_journal_init=0,nodiscard";
	bool has_e = false;
	size_t n = 0, i;

	argv[n++] = xasprintf("mkfs.%s", c->fs);
	argv[n++] = xstrdup(is_ext(c->fs) ? "-F" : "-f");
	argv[n++] = xstrdup("-q");
	for (i = 0; i < c->n_args; i++) {
		if (is_ext(c->fs) && !strcmp(c->args[i], "-E") && i + 1 < c->n_args) {
			argv[n++] = xstrdup("-E");
			argv[n++] = xasprintf("%s,%s", c->args[++i], ext_e);
			has_e = true;
			continue;
		}
		argv[n++] = xstrdup(c->args[i]);
	}
	if (is_ext(c->fs) && !has_e) {
		argv[n++] = xstrdup("-E");
		argv[n++] = xstrdup(ext_e);
	}
	if (!is_ext(c->fs) && !has_word(c, "-K"))
		argv[n++] = xstrdup("-K");
	argv[n++] = xstrdup(s->dev);
	argv[n] = NULL;
	return argv;
}

char *trial_scratch_mkfs_command(const struct trial_scratch *s, const struct trial_candidate *c)
{
	char **argv = mkfs_argv(s, c);
	size_t len = 1;
	char *out;

	for (size_t i = 0; argv[i]; i++)
		len += strlen(argv[i]) + 1;
	out = xcalloc(1, len);
	for (size_t i = 0; argv[i]; i++) {
		if (i)
			strcat(out, " ");
		strcat(out, argv[i]);
		free(argv[i]);
	}
	free(argv);
	return out;
}

int trial_scratch_mkfs(struct trial_scratch *s, const struct trial_candidate *c, double *secs,
		       struct fst_error *err)
{
	char **argv = mkfs_argv(s, c), msg[512];
	double t0 = fst_clock_s();
	int rc = run_tool(argv, msg, sizeof msg);

	*secs = fst_clock_s() - t0;
	s->is_written = true;
	for (size_t i = 0; argv[i]; i++)
		free(argv[i]);
	free(argv);
	if (rc == 0)
		return FST_EXIT_OK;
	if (rc < 0)
		return fst_error_set(err, FST_EXIT_PARTIAL, "%s: mkfs.%s: %s", c->spec, c->fs, strerror(-rc));
	if (rc > 128)
		return fst_error_set(err, rc, "%s: mkfs.%s ended by signal %d", c->spec, c->fs, rc - 128);
	return fst_error_set(err, FST_EXIT_PARTIAL, "%s: mkfs.%s failed (status %d)%s%s", c->spec, c->fs, rc,
			     *msg ? ": " : "", msg);
}

int trial_scratch_mount(struct trial_scratch *s, const char *fs, struct fst_error *err)
{
	if (!s->mnt) {
		const char *dir = getenv("TMPDIR");
		char *tmpl = xasprintf("%s/fstune-trial.XXXXXX", dir && *dir == '/' ? dir : "/tmp");

		if (!mkdtemp(tmpl)) {
			fst_error_set(err, FST_EXIT_PARTIAL, "a mount point %s: %s", tmpl, strerror(errno));
			free(tmpl);
			return err->status;
		}
		s->mnt = tmpl;
		s->record_status = trial_record_write(s);
	}
	/* btrfs discards asynchronously by default where the device can: on a loop device that punches
	 * the image again */
	if (mount(s->dev, s->mnt, fs, 0, !strcmp(fs, "btrfs") ? "nodiscard" : NULL) < 0)
		return fst_error_set(err, FST_EXIT_PARTIAL, "mounting %s (%s) on %s: %s", s->dev, fs, s->mnt,
				     strerror(errno));
	s->is_mounted = true;
	return FST_EXIT_OK;
}

int trial_scratch_umount(struct trial_scratch *s, double *secs, struct fst_error *err)
{
	double t0 = fst_clock_s();
	int rc;

	if (!s->is_mounted)
		return FST_EXIT_OK;
	/* a signal interrupts nothing here: umount writes back what is dirty, then returns */
	while ((rc = umount2(s->mnt, 0)) < 0 && errno == EINTR)
		;
	if (secs)
		*secs = fst_clock_s() - t0;
	if (rc < 0)
		return fst_error_set(err, FST_EXIT_PARTIAL, "unmounting %s: %s", s->mnt, strerror(errno));
	s->is_mounted = false;
	return FST_EXIT_OK;
}

/* A scratch device is left as blank as it was found: the primary superblocks of ext2/3/4 (1 KiB),
 * XFS (0) and btrfs (64 KiB), all that libblkid probes, lie in the first MiB, so zeroing it lets the
 * next trial's signature check pass. The rest of the old filesystem is garbage, as after wipefs. */
static void wipe_device(const char *dev)
{
	static const char zero[1 << 16];
	int fd = open(dev, O_WRONLY | O_EXCL | O_CLOEXEC);

	if (fd < 0)
		return;
	for (off_t off = 0; off < (1 << 20); off += (off_t)sizeof zero)
		if (pwrite(fd, zero, sizeof zero, off) != (ssize_t)sizeof zero)
			break;
	fsync(fd);
	close(fd);
}

void trial_scratch_cleanup(struct trial_scratch *s)
{
	if (s->is_mounted && umount2(s->mnt, 0) < 0)
		umount2(s->mnt, MNT_DETACH);
	s->is_mounted = false;
	/* O_EXCL: never while a detached mount still holds the device */
	if (!s->image && s->is_written && s->dev)
		wipe_device(s->dev);
	s->is_written = false;
	if (s->mnt)
		rmdir(s->mnt);
	if (s->loop_fd >= 0) {
		ioctl(s->loop_fd, LOOP_CLR_FD, 0);
		close(s->loop_fd);
	}
	s->loop_fd = -1;
	if (s->image)
		unlink(s->image);
	free(s->mnt);
	free(s->image);
	s->mnt = s->image = NULL;
	trial_record_remove();
}

void trial_scratch_free(struct trial_scratch *s)
{
	trial_scratch_cleanup(s);
	free(s->dev);
	s->dev = NULL;
}
