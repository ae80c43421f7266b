/* The sysroot-aware path helper: every read of /sys, /proc and /etc goes through here (path.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "fstune/path.h"

static char *sysroot; /* NULL: the live system */

void path_set_sysroot(const char *dir)
{
	free(sysroot);
	sysroot = NULL;
	if (dir && *dir) {
		size_t len = strlen(dir);

		while (len > 1 && dir[len - 1] == '/')
			len--;
		sysroot = xstrndup(dir, len);
	}
}

const char *path_sysroot(void) { return sysroot; }
bool path_is_sysroot(void) { return sysroot != NULL; }

#define CLASS_BLOCK "/sys/class/block"

/* The last component of the link `dir`/`entry` points to, or NULL. Caller frees. */
static char *link_basename(const char *dir, const char *entry)
{
	char *p = xasprintf("%s/%s", dir, entry), buf[PATH_MAX], *slash;
	ssize_t n = readlink(p, buf, sizeof(buf) - 1);

	free(p);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	return xstrdup(slash ? slash + 1 : buf);
}

/* A capture made as util-linux makes them has no sys/class/block: the kernel's other two names for
 * a block device are sys/block/NAME (whole disks) and the sys/dev/block/MAJ:MIN link (every device,
 * partitions and holders too), which is the order lsblk tries. Returns the sysroot-relative
 * directory of NAME ("sys/block/sda", "sys/dev/block/8:1"), or NULL when the capture has
 * sys/class/block itself or does not know NAME. */
static char *capture_block_dir(const char *name, size_t name_len)
{
	char *p, *hit = NULL;
	DIR *d;
	struct dirent *de;
	bool has_class;

	p = xasprintf("%s" CLASS_BLOCK, sysroot);
	has_class = access(p, F_OK) == 0;
	free(p);
	if (has_class || name_len == 0)
		return NULL;
	p = xasprintf("%s/sys/block/%.*s", sysroot, (int)name_len, name);
	if (access(p, F_OK) == 0)
		hit = xasprintf("sys/block/%.*s", (int)name_len, name);
	free(p);
	if (hit)
		return hit;
	p = xasprintf("%s/sys/dev/block", sysroot);
	d = opendir(p);
	while (d && !hit && (de = readdir(d))) {
		char *base = de->d_name[0] == '.' ? NULL : link_basename(p, de->d_name);

		if (base && strlen(base) == name_len && strncmp(base, name, name_len) == 0)
			hit = xasprintf("sys/dev/block/%s", de->d_name);
		free(base);
	}
	if (d)
		closedir(d);
	free(p);
	return hit;
}

static char *vresolve(const char *fmt, va_list ap)
{
	char *rel = NULL, *full, *alias = NULL;
	size_t cb = strlen(CLASS_BLOCK);

	if (vasprintf(&rel, fmt, ap) < 0)
		return xstrdup("");
	if (!sysroot)
		return rel;
	if (strncmp(rel, CLASS_BLOCK "/", cb + 1) == 0) {
		const char *name = rel + cb + 1, *rest = name + strcspn(name, "/");

		alias = capture_block_dir(name, (size_t)(rest - name));
		if (alias) {
			full = xasprintf("%s/%s%s", sysroot, alias, rest);
			free(alias);
			free(rel);
			return full;
		}
	}
	full = xasprintf("%s%s%s", sysroot, rel[0] == '/' ? "" : "/", rel);
	free(rel);
	return full;
}

/* Every entry point takes its path as printf arguments after `fmt`: this resolves them into `p`,
 * which the caller frees. */
#define RESOLVE_ARGS(p, fmt)                \
	do {                                \
		va_list ap_;                \
		va_start(ap_, fmt);         \
		(p) = vresolve((fmt), ap_); \
		va_end(ap_);                \
	} while (0)

/* Frees a resolved path, keeping the errno of the call that used it for the caller. */
static void free_path(char *p)
{
	int saved = errno;

	free(p);
	errno = saved;
}

char *path_resolve(const char *fmt, ...)
{
	char *p;

	RESOLVE_ARGS(p, fmt);
	return p;
}

/* A file is opened without side effects: by name O_PATH (which runs no driver's open: a FIFO does
 * not block, /dev/watchdog is not armed), checked with fstat, and only a regular file is opened for
 * reading, through its /proc/self/fd link, so it is the inode checked. Sysfs attributes and procfs
 * files are regular files. */
int path_reopen_regular(int pfd, struct stat *st)
{
	char self[64];
	int fd;

	if (fstat(pfd, st) != 0)
		return -errno;
	if (!S_ISREG(st->st_mode))
		return S_ISDIR(st->st_mode) ? -EISDIR : -PATH_ENOTREG;
	snprintf(self, sizeof self, "/proc/self/fd/%d", pfd);
	fd = open(self, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static int open_regular(const char *p, struct stat *st)
{
	int pfd = open(p, O_PATH | O_CLOEXEC), fd;

	if (pfd < 0)
		return -errno;
	fd = path_reopen_regular(pfd, st);
	close(pfd);
	return fd;
}

int path_open(const char *fmt, ...)
{
	struct stat st;
	char *p;
	int fd;

	RESOLVE_ARGS(p, fmt);
	fd = open_regular(p, &st);
	free(p);
	return fd;
}

bool path_exists(const char *fmt, ...)
{
	char *p;
	bool ok;

	RESOLVE_ARGS(p, fmt);
	ok = access(p, F_OK) == 0;
	free(p);
	return ok;
}

DIR *path_opendir(const char *fmt, ...)
{
	char *p;
	DIR *d;

	RESOLVE_ARGS(p, fmt);
	d = opendir(p);
	free_path(p);
	return d;
}

/* Reads a whole file of at most `max` bytes. A regular file's size says at once when it is larger;
 * sysfs and procfs files report a size of 0 or 4096, so the read stops at max + 1 bytes too. */
static char *read_all(const char *p, size_t max)
{
	struct stat st;
	int fd = open_regular(p, &st);
	size_t len = 0, cap = 4096;
	char *buf;
	ssize_t n;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	if (st.st_size > 0 && (uint64_t)st.st_size > max) {
		close(fd);
		errno = EFBIG;
		return NULL;
	}
	buf = xmalloc(cap + 1);
	while ((n = read(fd, buf + len, cap - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || len + (size_t)n > max) {
			int saved = n < 0 ? errno : EFBIG;

			free(buf);
			close(fd);
			errno = saved;
			return NULL;
		}
		len += (size_t)n;
		if (len == cap) {
			cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			buf = xrealloc(buf, cap + 1);
		}
	}
	close(fd);
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' ' || buf[len - 1] == '\t'))
		len--;
	buf[len] = '\0';
	return buf;
}

/* read_all of the resolved path `p`, which it frees. */
static char *read_resolved(char *p, size_t max)
{
	char *s = read_all(p, max);

	free_path(p);
	return s;
}

char *path_read_string(const char *fmt, ...)
{
	char *p;

	RESOLVE_ARGS(p, fmt);
	return read_resolved(p, PATH_READ_MAX);
}

char *path_read_table(const char *fmt, ...)
{
	char *p;

	RESOLVE_ARGS(p, fmt);
	return read_resolved(p, PATH_READ_TABLE_MAX);
}

const char *path_strerror(int err)
{
	if (err == PATH_ENOTREG)
		return "not a regular file (a FIFO, device or socket), so it is not read";
	if (err == EFBIG)
		return "larger than fstune reads of such a file (1 MiB; mountinfo and cpuinfo 16 MiB)";
	return strerror(err);
}

/* The decimal integers of sysfs and procfs files: 0, or -errno (-EINVAL when the file holds anything
 * else, as "-1" does for the unsigned parser: strtoull would wrap it). */
static int parse_s64(const char *s, void *out)
{
	char *end;

	errno = 0;
	*(long long *)out = strtoll(s, &end, 10);
	if (errno)
		return -errno;
	return end == s || *end != '\0' ? -EINVAL : 0;
}

static int parse_u64(const char *s, void *out)
{
	char *end;

	errno = 0;
	*(uint64_t *)out = strtoull(s, &end, 10);
	if (errno)
		return -errno;
	return end == s || *end != '\0' || s[0] == '-' ? -EINVAL : 0;
}

/* Reads the file at the resolved path `p` (freed here) and parses it into `out`. */
static int read_number(char *p, int (*parse)(const char *s, void *out), void *out)
{
	char *s = read_resolved(p, PATH_READ_MAX);
	int rc = s ? parse(s, out) : -errno;

	free(s);
	return rc;
}

int path_read_s64(long long *out, const char *fmt, ...)
{
	char *p;

	RESOLVE_ARGS(p, fmt);
	return read_number(p, parse_s64, out);
}

int path_read_u64(uint64_t *out, const char *fmt, ...)
{
	char *p;

	RESOLVE_ARGS(p, fmt);
	return read_number(p, parse_u64, out);
}

char *path_readlink(const char *fmt, ...)
{
	char *p, buf[PATH_MAX];
	ssize_t n;

	RESOLVE_ARGS(p, fmt);
	n = readlink(p, buf, sizeof(buf) - 1);
	free_path(p);
	if (n < 0)
		return NULL;
	buf[n] = '\0';
	return xstrdup(buf);
}

/* Version order, as a person counts: loop2 before loop10, sda2 before sda10. */
static int cmp_names(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

char **path_list_block(size_t *n)
{
	bool by_number = false;
	DIR *d = path_opendir(CLASS_BLOCK);
	char *dir = NULL, **names = NULL;
	struct dirent *de;

	*n = 0;
	if (!d && sysroot) {
		dir = path_resolve("/sys/dev/block");
		d = opendir(dir);
		by_number = true;
	}
	while (d && (de = readdir(d))) {
		char *name;

		if (de->d_name[0] == '.')
			continue;
		name = by_number ? link_basename(dir, de->d_name) : xstrdup(de->d_name);
		if (!name)
			continue;
		names = xrealloc(names, (*n + 2) * sizeof(*names));
		names[(*n)++] = name;
		names[*n] = NULL;
	}
	if (d)
		closedir(d);
	free(dir);
	if (*n)
		qsort(names, *n, sizeof(*names), cmp_names);
	return names;
}

char *path_canonical(const char *fmt, ...)
{
	char *p, *real;
	size_t plen;

	RESOLVE_ARGS(p, fmt);
	real = realpath(p, NULL);
	free(p);
	if (!real)
		return NULL;
	if (!sysroot)
		return real;
	/* A captured tree's links are relative, so they resolve inside the sysroot; strip it. A link
	 * that escaped the sysroot would name a live path: treat it as absent. */
	{
		char *root = realpath(sysroot, NULL);

		if (!root) {
			free(real);
			return NULL;
		}
		plen = strlen(root);
		if (strncmp(real, root, plen) != 0 || (real[plen] != '/' && real[plen] != '\0')) {
			free(root);
			free(real);
			errno = ENOENT;
			return NULL;
		}
		free(root);
		p = xstrdup(real[plen] ? real + plen : "/");
		free(real);
		return p;
	}
}
