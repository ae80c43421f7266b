/* The record of what a running trial made (trial_record.h). The lock is an flock on the record itself:
 * the kernel drops it when the process ends, however it ends, so a record nobody holds belongs to a
 * trial that is gone, and no pid (which the system may reuse) is trusted. Records are read as hostile:
 * nothing in one is removed unless it is still exactly what a trial makes. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/trial/trial_record.h"
#include "fstune/utf8.h"
#include "lib/xalloc.h"

#define RECORD_DIR "/run/fstune"
#define RECORD_MAX 65536 /* bytes: a record is a few hundred */

static int record_fd = -1;
static char *record_path;

/* The directory of records: /run/fstune, or the tests' own (FSTUNE_TEST_LOCK_DIR, as bench's lock). */
static const char *record_dir(void)
{
	const char *d = getenv("FSTUNE_TEST_LOCK_DIR");

	return d && *d ? d : RECORD_DIR;
}

/* The directory, made if missing as bench's lock makes it (sticky and writable by all, as /run/lock):
 * root's or this user's, and either writable by nobody else or sticky, so nobody else can replace a
 * record in it. */
static int dir_ready(const char *dir)
{
	struct stat st;

	if (mkdir(dir, 01777) == 0)
		chmod(dir, 01777); /* past the umask */
	if (lstat(dir, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode) || (st.st_uid != 0 && st.st_uid != geteuid()) ||
	    ((st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX)) || ((st.st_mode & S_IWGRP) && !(st.st_mode & S_ISVTX)))
		return -EPERM;
	return 0;
}

int trial_record_write(const struct trial_scratch *s)
{
	json_t *rec;
	struct stat st;
	char *text;
	int rc = 0;

	if (record_fd < 0) {
		const char *dir = record_dir();

		if ((rc = dir_ready(dir)) < 0)
			return rc;
		free(record_path);
		record_path = xasprintf("%s/trial-%ld.json", dir, (long)getpid());
		/* a stale record of an earlier process with this pid, or anyone's file in its place: ours is new */
		unlink(record_path);
		record_fd = open(record_path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (record_fd < 0 || flock(record_fd, LOCK_EX | LOCK_NB) < 0) {
			rc = -errno;
			if (record_fd >= 0)
				close(record_fd);
			record_fd = -1;
			return rc;
		}
	}
	rec = json_pack("{s:s, s:I}", "schema", "fstune.trial-record/1", "pid", (json_int_t)getpid());
	if (s->image) {
		json_object_set_new(rec, "image", fst_json_text(s->image));
		if (stat(s->image, &st) == 0) {
			json_object_set_new(rec, "image_dev", json_integer((json_int_t)st.st_dev));
			json_object_set_new(rec, "image_ino", json_integer((json_int_t)st.st_ino));
			json_object_set_new(rec, "image_bytes", json_integer((json_int_t)st.st_size));
		}
		if (s->dev)
			json_object_set_new(rec, "loop_device", json_string(s->dev));
	} else if (s->dev) {
		json_object_set_new(rec, "device", fst_json_text(s->dev));
	}
	if (s->mnt)
		json_object_set_new(rec, "mount_point", fst_json_text(s->mnt));
	text = json_dumps(rec, JSON_INDENT(2));
	json_decref(rec);
	/* in place, not renamed: the lock is on this inode */
	if (!text || ftruncate(record_fd, 0) < 0 || pwrite(record_fd, text, strlen(text), 0) != (ssize_t)strlen(text))
		rc = -EIO;
	free(text);
	return rc;
}

void trial_record_remove(void)
{
	if (record_fd < 0)
		return;
	unlink(record_path);
	close(record_fd);
	record_fd = -1;
	free(record_path);
	record_path = NULL;
}

/* A record's contents when nobody holds its lock; NULL for a live trial's or an unreadable file. */
static json_t *dead_record(const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	json_t *rec = NULL;

	if (fd < 0)
		return NULL;
	/* only this user's records: in a directory writable by all, anyone else's is no trial's */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() && st.st_size < RECORD_MAX &&
	    flock(fd, LOCK_EX | LOCK_NB) == 0) {
		rec = json_loadfd(fd, 0, NULL);
		if (!json_is_object(rec)) {
			json_decref(rec);
			rec = json_object();
		}
		json_object_set_new(rec, "record", fst_json_text(path));
	}
	close(fd);
	return rec;
}

json_t *trial_record_leftovers(void)
{
	json_t *out = json_array();
	DIR *d = opendir(record_dir());
	struct dirent *e;

	if (!d)
		return out;
	while ((e = readdir(d))) {
		char *path;
		json_t *rec;

		if (strncmp(e->d_name, "trial-", 6) || !strstr(e->d_name, ".json"))
			continue;
		path = xasprintf("%s/%s", record_dir(), e->d_name);
		if (!record_path || strcmp(path, record_path))
			if ((rec = dead_record(path)))
				json_array_append_new(out, rec);
		free(path);
	}
	closedir(d);
	return out;
}

static const char *str(const json_t *rec, const char *key)
{
	return json_string_value(json_object_get(rec, key));
}

/* Whether `path` is absolute and free of control characters: the only paths a record may name. */
static bool is_plain_path(const char *path)
{
	if (!path || path[0] != '/')
		return false;
	for (const char *p = path; *p; p++)
		if ((unsigned char)*p < 0x20)
			return false;
	return true;
}

char *trial_record_describe(const json_t *rec)
{
	const char *img = str(rec, "image"), *mnt = str(rec, "mount_point"), *dev = str(rec, "device");
	char *out = xasprintf("a trial that is gone (pid %lld) left", (long long)json_integer_value(json_object_get(rec, "pid")));
	struct stat st;
	bool any = false;

#define ADD(...)                                                   \
	do {                                                       \
		char *part_ = xasprintf(__VA_ARGS__), *next_;      \
		next_ = xasprintf("%s%s %s", out, any ? "," : "", part_); \
		free(part_);                                       \
		free(out);                                         \
		out = next_;                                       \
		any = true;                                        \
	} while (0)
	if (is_plain_path(img) && lstat(img, &st) == 0)
		ADD("the image %s (%lld bytes)", img, (long long)st.st_size);
	if (is_plain_path(mnt) && lstat(mnt, &st) == 0)
		ADD("the mount point %s", mnt);
	if (is_plain_path(dev))
		ADD("its last candidate's filesystem on the scratch device %s", dev);
	if (!any)
		ADD("only its record %s", str(rec, "record") ? str(rec, "record") : "?");
#undef ADD
	return out;
}

/* The loop device still holds the image: detach it (autoclear has done it when nothing else held it). */
static int clean_loop(const char *loop, const char *img, FILE *out)
{
	char sys[96], backing[4096] = "";
	FILE *fp;
	int fd, n = 0;

	if (!loop || sscanf(loop, "/dev/loop%d", &n) != 1 || n < 0)
		return 0;
	snprintf(sys, sizeof sys, "/sys/block/loop%d/loop/backing_file", n);
	if (!(fp = fopen(sys, "re")))
		return 0; /* detached already */
	if (!fgets(backing, sizeof backing, fp))
		backing[0] = '\0';
	fclose(fp);
	backing[strcspn(backing, "\n")] = '\0';
	if (!img || strncmp(backing, img, strlen(img)) || (backing[strlen(img)] && strcmp(backing + strlen(img), " (deleted)")))
		return 0; /* another image's now */
	fd = open(loop, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, LOOP_CLR_FD, 0) < 0) {
		fprintf(out, "left %s: it still holds %s and is in use (%s)\n", loop, img, strerror(errno));
		if (fd >= 0)
			close(fd);
		return 1;
	}
	close(fd);
	fprintf(out, "detached %s from %s\n", loop, img);
	return 0;
}

/* Removes `path` with `rm` (unlink, rmdir) unless `why_not` says why it stays, and says which.
 * Returns 1 when it is left, 0 when it is removed. */
static int remove_said(const char *path, int (*rm)(const char *), const char *what, const char *why_not, FILE *out)
{
	if (!why_not && rm(path) < 0)
		why_not = strerror(errno);
	if (why_not) {
		fprintf(out, "left %s: %s\n", path, why_not);
		return 1;
	}
	fprintf(out, "removed the %s %s\n", what, path);
	return 0;
}

static int clean_image(const json_t *rec, FILE *out)
{
	const char *img = str(rec, "image");
	struct stat st;
	bool is_made;

	if (!is_plain_path(img) || lstat(img, &st) < 0)
		return 0;
	is_made = S_ISREG(st.st_mode) && (json_int_t)st.st_dev == json_integer_value(json_object_get(rec, "image_dev")) &&
		  (json_int_t)st.st_ino == json_integer_value(json_object_get(rec, "image_ino"));
	return remove_said(img, unlink, "image",
			   is_made ? NULL : "it is not the file the trial made (another file has its name now)", out);
}

static int clean_mount_point(const char *mnt, FILE *out)
{
	const char *base = mnt ? strrchr(mnt, '/') : NULL;
	struct stat st;
	bool is_made;

	if (!is_plain_path(mnt) || lstat(mnt, &st) < 0)
		return 0;
	is_made = S_ISDIR(st.st_mode) && base && !strncmp(base + 1, "fstune-trial.", 13);
	return remove_said(mnt, rmdir, "mount point", is_made ? NULL : "not a trial's mount point", out);
}

int trial_record_clean(const json_t *rec, FILE *out)
{
	int left = clean_loop(str(rec, "loop_device"), str(rec, "image"), out);
	const char *dev = str(rec, "device"), *path = str(rec, "record");

	left |= clean_mount_point(str(rec, "mount_point"), out);
	left |= clean_image(rec, out);
	if (is_plain_path(dev))
		fprintf(out, "left %s: it holds the killed trial's last candidate filesystem; if it is still a "
			"scratch disk, wipe it (wipefs -a %s) before the next trial\n", dev, dev);
	if (path && unlink(path) == 0)
		fprintf(out, "removed the record %s\n", path);
	return left;
}
