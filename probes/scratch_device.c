/* The safety checks of a scratch block device for `fstune trial` (fstune/scratch.h). */
#include "config.h"

#include <blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fstune/scratch.h"
#include "fstune/status.h"
#include "probes/mountinfo.h"

/* The mount of the device or of one of its partitions (sysfs lists them as sub-directories with a
 * `partition` file); NULL when none. `what` gets the mounted node's name. */
static const struct mountinfo_entry *mounted_part(const struct mountinfo *mi, dev_t rdev, const char *name,
						  char *what, size_t len)
{
	const struct mountinfo_entry *e = mountinfo_by_devno(mi, major(rdev), minor(rdev));
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;

	snprintf(what, len, "%s", name);
	if (e)
		return e;
	snprintf(path, sizeof path, "/sys/class/block/%s", name);
	if (!(d = opendir(path)))
		return NULL;
	while (!e && (de = readdir(d))) {
		char p2[PATH_MAX + 300], buf[32];
		unsigned ma, mi2;
		FILE *fp;

		if (de->d_name[0] == '.')
			continue;
		snprintf(p2, sizeof p2, "%s/%s/dev", path, de->d_name);
		if (!(fp = fopen(p2, "re")))
			continue;
		if (fgets(buf, sizeof buf, fp) && sscanf(buf, "%u:%u", &ma, &mi2) == 2 &&
		    (e = mountinfo_by_devno(mi, ma, mi2)))
			snprintf(what, len, "%s", de->d_name);
		fclose(fp);
	}
	closedir(d);
	return e;
}

/* Whether /proc/swaps lists the device. */
static bool is_swap(const char *real)
{
	char line[PATH_MAX + 128], path[PATH_MAX];
	FILE *fp = fopen("/proc/swaps", "re");
	bool found = false;

	if (!fp)
		return false;
	while (!found && fgets(line, sizeof line, fp))
		if (sscanf(line, "%4095s", path) == 1 && !strcmp(path, real))
			found = true;
	fclose(fp);
	return found;
}

/* The first entry of /sys/class/block/NAME/holders, "" when none. */
static void first_holder(const char *name, char *out, size_t len)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;

	out[0] = '\0';
	snprintf(path, sizeof path, "/sys/class/block/%s/holders", name);
	if (!(d = opendir(path)))
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.') {
			snprintf(out, len, "%s", de->d_name);
			break;
		}
	closedir(d);
}

/* libblkid's answer: 1 and the kind in `what` when a signature is found, 0 when none, -1 on error. */
static int signature(int fd, char *what, size_t len)
{
	blkid_probe pr = blkid_new_probe();
	const char *v = NULL;
	int rc;

	if (!pr || blkid_probe_set_device(pr, fd, 0, 0) < 0) {
		if (pr)
			blkid_free_probe(pr);
		return -1;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0) {
		if (blkid_probe_lookup_value(pr, "TYPE", &v, NULL) == 0)
			snprintf(what, len, "a %s signature", v);
		else if (blkid_probe_lookup_value(pr, "PTTYPE", &v, NULL) == 0)
			snprintf(what, len, "a %s partition table", v);
		else
			snprintf(what, len, "a signature");
	} else if (rc == -2) {
		snprintf(what, len, "several signatures");
	}
	blkid_free_probe(pr);
	return rc == 0 || rc == -2 ? 1 : rc == 1 ? 0 : -1;
}

int scratch_device_check(const char *dev, struct fst_error *err)
{
	const struct mountinfo_entry *e;
	struct mountinfo mi = {0};
	char real[PATH_MAX], what[300], holder[256];
	const char *name;
	struct stat st;
	int fd, rc;

	if (!realpath(dev, real) || stat(real, &st) < 0)
		return fst_error_set(err, FST_EXIT_USAGE, "--device %s: %s", dev, strerror(errno));
	if (!S_ISBLK(st.st_mode))
		return fst_error_set(err, FST_EXIT_USAGE, "--device %s: not a block device", dev);
	name = strrchr(real, '/') + 1;
	if (mountinfo_load(&mi) < 0)
		return fst_error_set(err, FST_EXIT_REFUSED, "--device %s: refused (check: not mounted): "
				     "/proc/self/mountinfo cannot be read", dev);
	e = mounted_part(&mi, st.st_rdev, name, what, sizeof what);
	if (e) {
		rc = fst_error_set(err, FST_EXIT_REFUSED, "--device %s: refused (check: not mounted): %s is "
				   "mounted on %s", dev, what, e->mount_point);
		mountinfo_free(&mi);
		return rc;
	}
	mountinfo_free(&mi);
	if (is_swap(real))
		return fst_error_set(err, FST_EXIT_REFUSED, "--device %s: refused (check: not swap): it is in "
				     "use as swap (/proc/swaps)", dev);
	first_holder(name, holder, sizeof holder);
	if (*holder)
		return fst_error_set(err, FST_EXIT_REFUSED, "--device %s: refused (check: no holders): %s is "
				     "stacked on it (/sys/class/block/%s/holders)", dev, holder, name);
	fd = open(real, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0 && errno == EBUSY)
		return fst_error_set(err, FST_EXIT_REFUSED, "--device %s: refused (check: opens with O_EXCL): "
				     "it is in use (a member of a mounted multi-device filesystem, or held by "
				     "another program)", dev);
	if (fd < 0)
		return fst_error_set(err, FST_EXIT_USAGE, "--device %s: %s", dev, strerror(errno));
	rc = signature(fd, what, sizeof what);
	close(fd);
	if (rc != 0)
		return fst_error_set(err, FST_EXIT_REFUSED, "--device %s: refused (check: no signature): %s",
				     dev, rc > 0 ? what : "libblkid could not read it");
	return FST_EXIT_OK;
}
