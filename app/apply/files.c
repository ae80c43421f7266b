/* Files under --root for apply and undo, resolved as a chroot would: every path is opened with
 * openat2(RESOLVE_IN_ROOT) from a descriptor of the root, so an absolute symbolic link or a ".."
 * inside DIR stays inside DIR and nothing leads out; without --root the root is "/". Files are read
 * only when regular and small, and written atomically (a temporary beside the file, fsync'd,
 * renamed, the directory fsync'd), so a crash leaves the old or the new content, never half. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "app/apply/apply.h"
#include "fstune/path.h"
#include "lib/xalloc.h"
#include "probes/fs_crc32c.h"

/* Persistent forms and journals are small; anything larger is not the file we think it is. */
#define FILES_MAX_BYTES (4u << 20)
#define LINKS_MAX 40 /* symbolic links followed in one path, as the kernel's own limit */

char *files_rooted(const char *root, const char *path)
{
	if (!root || !*root || !strcmp(root, "/"))
		return xstrdup(path);
	return xasprintf("%s%s%s", root, path[0] == '/' ? "" : "/", path);
}

static bool is_host_root(const char *root)
{
	return !root || !*root || !strcmp(root, "/");
}

/* `path` opened inside `root` (flags as for openat; O_CLOEXEC added), or -1 with errno. Without
 * openat2 (a kernel before 5.6) only the host's own / can be used: a --root could not be confined. */
static int jail_open(const char *root, const char *path, int flags, mode_t mode)
{
	struct open_how how = {.flags = (unsigned)flags | O_CLOEXEC, .mode = flags & O_CREAT ? mode : 0,
			       .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS};
	int rfd = open(is_host_root(root) ? "/" : root, O_PATH | O_DIRECTORY | O_CLOEXEC), fd = -1, e;
	const char *rel = path;

	if (rfd < 0)
		return -1;
	while (*rel == '/')
		rel++;
	/* EAGAIN: a rename elsewhere raced the lookup; the kernel asks for a retry */
	for (int tries = 0; tries < 8; tries++) {
		fd = (int)syscall(SYS_openat2, rfd, *rel ? rel : ".", &how, sizeof how);
		if (fd >= 0 || errno != EAGAIN)
			break;
	}
	if (fd < 0 && errno == ENOSYS && is_host_root(root))
		fd = openat(rfd, *rel ? rel : ".", flags | O_CLOEXEC, mode);
	e = errno;
	close(rfd);
	errno = e;
	return fd;
}

/* Whether a failure means the path cannot be resolved inside the root (a loop of links, a file
 * where a directory should be, a magic link, no openat2): refused, not a failed write. */
static bool is_unresolvable(int e)
{
	return e == ELOOP || e == ENOTDIR || e == EXDEV || e == ENAMETOOLONG || e == EAGAIN || e == ENOSYS ||
	       e == PATH_ENOTREG || e == EISDIR;
}

/* Sets err for a failed operation on `path` under `root`: refused (4) when it cannot be resolved
 * inside, else `status`. Returns the status set. */
static int files_fail(struct fst_error *err, int status, const char *root, const char *path, const char *what,
		      int e)
{
	char *full = files_rooted(root, path);
	int st = is_unresolvable(e) ? FST_EXIT_REFUSED : status;

	if (e == ENOSYS)
		fst_error_set(err, st, "%s: this kernel has no openat2(2), so --root %s cannot be confined", full, root);
	else if (e == PATH_ENOTREG || e == EISDIR)
		fst_error_set(err, st, "cannot %s %s: not a regular file (fstune reads and writes only those)", what, full);
	else if (is_unresolvable(e))
		fst_error_set(err, st, "cannot %s %s: it cannot be resolved inside %s as a chroot would: %s", what, full,
			      is_host_root(root) ? "/" : root, strerror(e));
	else
		fst_error_set(err, st, "cannot %s %s: %s", what, full, strerror(e));
	free(full);
	return st;
}

/* The directory part of an absolute path ("/" for "/x") and its last component. Caller frees. */
static char *dir_of(const char *path, const char **base)
{
	const char *slash = strrchr(path, '/');

	*base = slash ? slash + 1 : path;
	if (!slash || slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

/* The directory holding `path` inside the root, open, and the name of the file in it (caller
 * frees), a final symbolic link followed as a chroot would: the file a write replaces. -1 with
 * errno. */
static int jail_parent(const char *root, const char *path, char **name)
{
	char *cur = xstrdup(path), buf[4096];

	for (int hops = 0;; hops++) {
		const char *base;
		char *dir = dir_of(cur, &base), *next;
		int dfd = jail_open(root, dir, O_RDONLY | O_DIRECTORY, 0);
		ssize_t n;

		if (dfd >= 0 && (!*base || !strcmp(base, ".") || !strcmp(base, ".."))) {
			close(dfd);
			dfd = -1;
			errno = EISDIR;
		}
		n = dfd >= 0 ? readlinkat(dfd, base, buf, sizeof buf - 1) : -1;
		if (dfd < 0 || n < 0) {
			int e = errno;

			if (dfd >= 0 && (e == EINVAL || e == ENOENT)) { /* not a link, or nothing yet */
				*name = xstrdup(base);
				free(dir);
				free(cur);
				return dfd;
			}
			if (dfd >= 0)
				close(dfd);
			free(dir);
			free(cur);
			errno = e;
			return -1;
		}
		close(dfd);
		buf[n] = '\0';
		next = buf[0] == '/' ? xstrdup(buf) : xasprintf("%s/%s", dir, buf);
		free(dir);
		free(cur);
		cur = next;
		if (hops == LINKS_MAX) {
			free(cur);
			errno = ELOOP;
			return -1;
		}
	}
}

/* files_read and files_read_owned: `what` names the file for the owner check, NULL for none. */
static int read_file(const char *root, const char *path, char **out, const char *what, struct fst_error *err)
{
	struct stat st;
	int pfd = jail_open(root, path, O_PATH, 0), fd;
	char *buf;
	ssize_t n;
	size_t len = 0;

	*out = NULL;
	if (pfd < 0 && errno == ENOENT)
		return 0;
	if (pfd < 0)
		return files_fail(err, FST_EXIT_REFUSED, root, path, "read", errno), -1;
	fd = path_reopen_regular(pfd, &st);
	close(pfd);
	if (fd < 0)
		return files_fail(err, FST_EXIT_REFUSED, root, path, "read", -fd), -1;
	if (what) {
		char *full = files_rooted(root, path);
		int st_owner = files_check_owner(fd, what, full, err);

		free(full);
		if (st_owner != FST_EXIT_OK) {
			close(fd);
			return -1;
		}
	}
	if ((size_t)st.st_size > FILES_MAX_BYTES) {
		close(fd);
		fst_error_set(err, FST_EXIT_REFUSED, "%s: larger than the 4 MiB of a file fstune edits", path);
		return -1;
	}
	buf = xmalloc((size_t)st.st_size + 1);
	while (len < (size_t)st.st_size && (n = read(fd, buf + len, (size_t)st.st_size - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			close(fd);
			free(buf);
			return files_fail(err, FST_EXIT_REFUSED, root, path, "read", e), -1;
		}
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	if (strlen(buf) != len) {
		fst_error_set(err, FST_EXIT_REFUSED, "%s holds a NUL byte: not a text file fstune edits", path);
		free(buf);
		return -1;
	}
	*out = buf;
	return 1;
}

int files_read(const char *root, const char *path, char **out, struct fst_error *err)
{
	return read_file(root, path, out, NULL, err);
}

int files_read_owned(const char *root, const char *path, char **out, const char *what, struct fst_error *err)
{
	return read_file(root, path, out, what, err);
}

/* A new file beside `name` in `dfd`, named .NAME.XXXXXX; its name in *tmp (caller frees). */
static int temp_beside(int dfd, const char *name, char **tmp)
{
	for (int tries = 0; tries < 100; tries++) {
		unsigned r = 0;
		int fd;

		if (getrandom(&r, sizeof r, 0) != sizeof r)
			r = (unsigned)getpid() * 2654435761u + (unsigned)tries;
		*tmp = xasprintf(".%s.%06x", name, r & 0xffffff);
		fd = openat(dfd, *tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd;
		free(*tmp);
	}
	*tmp = NULL;
	errno = EEXIST;
	return -1;
}

static int write_all(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

int files_write(const char *root, const char *path, const char *content, mode_t mode, struct fst_error *err)
{
	char *name = NULL, *tmp = NULL;
	int dfd = jail_parent(root, path, &name), fd = -1, e = 0;
	struct stat st;

	if (dfd < 0)
		return files_fail(err, FST_EXIT_PARTIAL, root, path, "write", errno);
	/* the file it replaces keeps its mode; a directory, a FIFO or a device is not replaced */
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (!S_ISREG(st.st_mode))
			e = PATH_ENOTREG;
		else
			mode = st.st_mode & 07777;
	}
	if (!e && (fd = temp_beside(dfd, name, &tmp)) < 0)
		e = errno;
	if (!e && (write_all(fd, content, strlen(content)) != 0 || fchmod(fd, mode) != 0 || fsync(fd) != 0))
		e = errno;
	if (fd >= 0 && close(fd) != 0 && !e)
		e = errno;
	if (!e && renameat(dfd, tmp, dfd, name) != 0)
		e = errno;
	if (e && tmp)
		unlinkat(dfd, tmp, 0);
	if (!e && fsync(dfd) != 0)
		e = errno;
	close(dfd);
	free(tmp);
	free(name);
	return e ? files_fail(err, FST_EXIT_PARTIAL, root, path, "write", e) : FST_EXIT_OK;
}

/* Whether the name `p` is taken in its directory inside the root (by anything, a dangling link too). */
static bool is_taken(const char *root, const char *p)
{
	const char *base;
	char *parent = dir_of(p, &base);
	int pfd = jail_open(root, parent, O_PATH | O_DIRECTORY, 0);
	struct stat st;
	bool taken = pfd >= 0 && fstatat(pfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0;

	if (pfd >= 0)
		close(pfd);
	free(parent);
	return taken;
}

/* files_mkdirs, and with `is_dry` only the check that each directory resolves inside the root or can
 * be made there (a name taken by a dangling link or a file cannot): nothing is created. */
static int make_dirs(const char *root, const char *dir, json_t *created, bool is_dry, struct fst_error *err)
{
	char *p = xstrdup(dir);
	int status = FST_EXIT_OK;

	for (char *s = p + 1;; s++) {
		bool is_end = *s == '\0', is_missing;
		int fd;

		if (*s != '/' && !is_end)
			continue;
		*s = '\0';
		fd = jail_open(root, p, O_PATH | O_DIRECTORY, 0);
		is_missing = fd < 0 && errno == ENOENT;
		if (is_missing && is_taken(root, p)) {
			char *full = files_rooted(root, p);

			status = fst_error_set(err, FST_EXIT_REFUSED, "cannot create %s: the name is a link that leads to "
					       "nothing inside %s (it is resolved there, as a chroot would)", full,
					       is_host_root(root) ? "/" : root);
			free(full);
			break;
		}
		if (is_missing && is_dry)
			break; /* missing from here down: made by the real run */
		if (is_missing) {
			const char *base;
			char *parent = dir_of(p, &base);
			int pfd = jail_open(root, parent, O_RDONLY | O_DIRECTORY, 0);

			if (pfd >= 0 && mkdirat(pfd, base, 0755) == 0) {
				if (created)
					json_array_append_new(created, json_string(p));
				fsync(pfd);
				fd = jail_open(root, p, O_PATH | O_DIRECTORY, 0);
			} else if (pfd >= 0 && errno == EEXIST) {
				fd = jail_open(root, p, O_PATH | O_DIRECTORY, 0);
			}
			if (pfd >= 0) {
				int e = errno;

				close(pfd);
				errno = e;
			}
			free(parent);
		}
		if (fd < 0) {
			status = files_fail(err, FST_EXIT_PARTIAL, root, p, "create", errno);
			break;
		}
		close(fd);
		if (is_end)
			break;
		*s = '/';
	}
	free(p);
	return status;
}

int files_mkdirs(const char *root, const char *dir, json_t *created, struct fst_error *err)
{
	return make_dirs(root, dir, created, false, err);
}

int files_check_dirs(const char *root, const char *dir, struct fst_error *err)
{
	return make_dirs(root, dir, NULL, true, err);
}

int files_remove(const char *root, const char *path, bool is_dir, struct fst_error *err)
{
	const char *base;
	char *dir = dir_of(path, &base);
	int dfd = jail_open(root, dir, O_RDONLY | O_DIRECTORY, 0), status = FST_EXIT_OK;

	if (dfd < 0) {
		status = errno == ENOENT ? FST_EXIT_OK : files_fail(err, FST_EXIT_PARTIAL, root, path, "remove", errno);
	} else if (unlinkat(dfd, base, is_dir ? AT_REMOVEDIR : 0) == 0) {
		fsync(dfd);
	} else if (errno != ENOENT && !(is_dir && (errno == ENOTEMPTY || errno == EEXIST))) {
		status = files_fail(err, FST_EXIT_PARTIAL, root, path, "remove", errno);
	}
	if (dfd >= 0)
		close(dfd);
	free(dir);
	return status;
}

int files_open_dir(const char *root, const char *dir, struct fst_error *err)
{
	int fd = jail_open(root, dir, O_RDONLY | O_DIRECTORY, 0);

	if (fd < 0 && errno != ENOENT)
		files_fail(err, FST_EXIT_REFUSED, root, dir, "open", errno);
	else if (fd < 0)
		fst_error_set(err, FST_EXIT_OK, "%s does not exist", dir);
	return fd;
}

int files_check_owner(int fd, const char *what, const char *name, struct fst_error *err)
{
	struct stat st;
	uid_t me = geteuid();

	if (fstat(fd, &st) != 0)
		return fst_error_set(err, FST_EXIT_REFUSED, "%s %s: %s", what, name, strerror(errno));
	if (st.st_uid != me)
		return fst_error_set(err, FST_EXIT_REFUSED, "%s %s is owned by uid %lu, not by %s (uid %lu) who runs "
				     "fstune: another user could have written it; check it (ls -ld %s), then chown it",
				     what, name, (unsigned long)st.st_uid, me == 0 ? "root" : "the user", (unsigned long)me,
				     name);
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return fst_error_set(err, FST_EXIT_REFUSED, "%s %s is writable by %s: another user could have "
				     "written it; check it (ls -ld %s), then chmod go-w %s", what, name,
				     st.st_mode & S_IWOTH ? "others" : "its group", name, name);
	return FST_EXIT_OK;
}

const char *files_crc(const char *s, size_t len)
{
	static char hex[9];

	snprintf(hex, sizeof hex, "%08x", ~fs_crc32c(0xffffffffu, s, len));
	return hex;
}
