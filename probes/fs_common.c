/* Helpers shared by the filesystem probes (see fs_common.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "fstune/path.h"
#include "probes/fs_common.h"
#include "probes/probe_util.h"

const char *fs_content_path(const struct probe_target *t)
{
	switch (t->kind) {
	case TARGET_IMAGE:
		return t->path;
	case TARGET_BLOCKDEV:
		return t->dev_path ? t->dev_path : t->path;
	case TARGET_DIRECTORY:
		return t->dev_name ? t->dev_path : NULL;
	}
	return NULL;
}

const char *fs_type(const struct probe_target *t, const struct facts *f)
{
	const char *type = facts_get_string(f, "fs.type");

	return type ? type : t->mount_fstype;
}

bool fs_branch_absent(const struct facts *f)
{
	enum facts_status status;
	const char *reason;

	return facts_get(f, "fs") == NULL && facts_unavailable(f, "fs", &status, &reason);
}

void fs_mark_unavailable(struct facts *f, const char *const *names, enum facts_status status,
			 const char *reason)
{
	for (; *names; names++) {
		char key[128];

		snprintf(key, sizeof(key), "fs.%s", *names);
		if (!facts_has(f, key))
			facts_set_unavailable(f, key, status, "%s", reason);
	}
}

bool fs_content_unreachable(const struct probe_target *t, struct facts *f, const char *const *names,
			    const char *what)
{
	char reason[512];

	if (path_is_sysroot()) {
		snprintf(reason, sizeof(reason), "%s is not read under --sysroot (no device is opened)",
			 what);
		fs_mark_unavailable(f, names, FACTS_NOT_APPLICABLE, reason);
		return true;
	}
	if (!fs_content_path(t)) {
		snprintf(reason, sizeof(reason), "%s: no block device to read (%s)", what,
			 t->no_device_reason ? t->no_device_reason : "unknown device");
		fs_mark_unavailable(f, names, FACTS_NOT_APPLICABLE, reason);
		return true;
	}
	return false;
}

int fs_open_content(const struct probe_target *t, struct facts *f, const char *const *names)
{
	const char *path = fs_content_path(t);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0) {
		int err = errno;
		char reason[600];

		snprintf(reason, sizeof(reason), "open %s: %s", path, strerror(err));
		fs_mark_unavailable(f, names, probe_status_from_errno(err), reason);
		return -1;
	}
	return fd;
}

ssize_t fs_pread_full(int fd, void *buf, size_t len, off_t offset)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done, offset + (off_t)done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

unsigned char *fs_read_content(const struct probe_target *t, struct facts *f, const char *const *names,
			       const char *what, size_t len, off_t offset, size_t *got)
{
	unsigned char *buf;
	char reason[600];
	ssize_t n;
	int fd;

	if (fs_content_unreachable(t, f, names, what))
		return NULL;
	fd = fs_open_content(t, f, names);
	if (fd < 0)
		return NULL;
	buf = xmalloc(len);
	n = fs_pread_full(fd, buf, len, offset);
	close(fd);
	if (n < 0) {
		snprintf(reason, sizeof(reason), "reading %s: %s", fs_content_path(t), strerror((int)-n));
		fs_mark_unavailable(f, names, FACTS_FAILED, reason);
		free(buf);
		return NULL;
	}
	*got = (size_t)n;
	return buf;
}

bool fs_check_size(const struct probe_target *t, struct facts *f, unsigned long long size,
		   const char *what)
{
	const char *path = fs_content_path(t);
	unsigned long long have = 0;
	struct stat st;
	int fd;

	if (!path || (fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)) < 0)
		return true;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		have = (unsigned long long)st.st_size;
	else if (S_ISBLK(st.st_mode) && ioctl(fd, BLKGETSIZE64, &have) < 0)
		have = 0;
	close(fd);
	if (have == 0 || size <= have)
		return true;
	facts_set_unavailable(f, "fs.size_bytes", FACTS_FAILED,
			      "%s says %llu bytes but %s holds only %llu: a truncated image or device",
			      what, size, path, have);
	return false;
}

void fs_set_text(struct facts *f, const char *key, const char *value, const char *source)
{
	char *copy;

	if (!value || !*value)
		return;
	copy = xstrdup(value);
	for (char *p = copy; *p; p++)
		if ((unsigned char)*p < 0x20)
			*p = '?';
	facts_set_string(f, key, copy, source);
	free(copy);
}
