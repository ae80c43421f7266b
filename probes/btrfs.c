/* btrfs: sector size, node size, features and devices. A mounted btrfs is asked through its own
 * ioctls (BTRFS_IOC_FS_INFO and GET_FEATURES need no privilege) and /sys/fs/btrfs/<fsid>/devices/,
 * because its st_dev is an anonymous device number that names no block device; an unmounted one is
 * read from its superblock (parsed in btrfs_super.c, which the fuzzer exercises). When target.c could
 * not name the block device of a mounted btrfs, the device branch is filled here from its first
 * device, with the sysfs probe's own code; vm.bdi is its own bdi's, with the vm probe's code. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/btrfs.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "fstune/path.h"
#include "fstune/probe.h"
#include "probes/btrfs_super.h"
#include "probes/fs_common.h"
#include "probes/probe_util.h"
#include "probes/registry.h"

static const char *const btrfs_keys[] = {
	"block_size", "fragment_size", "node_size", "size_bytes", "device_count", "features", "devices", NULL,
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in /sys/fs/btrfs/<fsid>/devices/ (links named after the kernel block devices), sorted.
 * Returns the count; *out is NULL-terminated and owned by the caller. */
static size_t list_devices(const char *fsid, char ***out)
{
	DIR *d = path_opendir("/sys/fs/btrfs/%s/devices", fsid);
	struct dirent *e;
	char **v = NULL;
	size_t n = 0;

	*out = NULL;
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		v = xrealloc(v, (n + 2) * sizeof(*v));
		v[n++] = xstrdup(e->d_name);
		v[n] = NULL;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_str);
	*out = v;
	return n;
}

static void free_list(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* The device branch of a mounted btrfs whose device target.c could not name: the sysfs probe run
 * again on its first device. */
static void fill_device_branch(const struct probe_target *t, struct facts *f, const char *dev)
{
	struct probe_target copy = *t;
	char *path = xasprintf("/dev/%s", dev);
	enum facts_status status;
	const char *reason;

	if (t->dev_name || facts_get(f, "device") || !facts_unavailable(f, "device", &status, &reason)) {
		free(path);
		return;
	}
	copy.dev_name = (char *)(uintptr_t)dev;
	copy.dev_path = path;
	copy.no_device_reason = NULL;
	facts_remove(f, "device");
	probe_sysfs_device.collect(&copy, f);
	free(path);
}

static void set_devices(const struct probe_target *t, struct facts *f, const char *fsid)
{
	char **devs;
	size_t n = list_devices(fsid, &devs);

	if (n == 0) {
		facts_set_unavailable(f, "fs.devices", FACTS_NOT_FOUND,
				      "/sys/fs/btrfs/%s/devices lists no device", fsid);
		free_list(devs);
		return;
	}
	facts_set_strings(f, "fs.devices", (const char *const *)devs, n, "sysfs");
	fill_device_branch(t, f, devs[0]);
	free_list(devs);
}

/* A mounted btrfs, through its ioctls. False when the ioctls are unavailable (then the superblock
 * is read instead). */
static bool collect_mounted(const struct probe_target *t, struct facts *f)
{
	const char *dir = t->kind == TARGET_DIRECTORY ? t->path : t->mount_point;
	struct btrfs_ioctl_fs_info_args info;
	struct btrfs_ioctl_feature_flags feat;
	char label[BTRFS_LABEL_SIZE + 1] = "";
	char fsid[37];
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return false;
	memset(&info, 0, sizeof(info));
	if (ioctl(fd, BTRFS_IOC_FS_INFO, &info) < 0) {
		close(fd);
		return false;
	}
	facts_set_int(f, "fs.block_size", info.sectorsize, "btrfs");
	facts_set_int(f, "fs.fragment_size", info.sectorsize, "btrfs");
	facts_set_int(f, "fs.node_size", info.nodesize, "btrfs");
	facts_set_int(f, "fs.device_count", (long long)info.num_devices, "btrfs");
	btrfs_super_format_uuid(info.fsid, fsid);
	if (!facts_has(f, "fs.uuid"))
		facts_set_string(f, "fs.uuid", fsid, "btrfs");
	if (ioctl(fd, BTRFS_IOC_GET_FEATURES, &feat) == 0) {
		const char *names[BTRFS_SUPER_MAX_FEATURES];
		size_t n = btrfs_super_feature_names(feat.incompat_flags, feat.compat_ro_flags, names,
						     BTRFS_SUPER_MAX_FEATURES);

		facts_set_strings(f, "fs.features", names, n, "btrfs");
	}
	if (!facts_has(f, "fs.label") && ioctl(fd, BTRFS_IOC_GET_FSLABEL, label) == 0) {
		label[BTRFS_LABEL_SIZE] = '\0';
		if (label[0])
			fs_set_text(f, "fs.label", label, "btrfs");
	}
	close(fd);
	set_devices(t, f, fsid);
	/* btrfs reads and writes through a bdi of its own, not the member disks' (fs/btrfs/disk-io.c) */
	if (path_exists("/sys/fs/btrfs/%s/bdi", fsid)) {
		char *bdi = xasprintf("/sys/fs/btrfs/%s/bdi", fsid);

		probe_vm_read_bdi(f, bdi);
		free(bdi);
	}
	return true;
}

static void set_super_values(const struct probe_target *t, struct facts *f,
			     const struct btrfs_super_info *sb)
{
	facts_set_int(f, "fs.block_size", sb->sector_size, "btrfs");
	facts_set_int(f, "fs.fragment_size", sb->sector_size, "btrfs");
	facts_set_int(f, "fs.node_size", sb->node_size, "btrfs");
	/* total_bytes spans every device: only a single-device filesystem can be checked */
	if (sb->num_devices > 1 || fs_check_size(t, f, sb->total_bytes, "the btrfs superblock"))
		facts_set_int(f, "fs.size_bytes", (long long)sb->total_bytes, "btrfs");
	facts_set_int(f, "fs.device_count", (long long)sb->num_devices, "btrfs");
	facts_set_strings(f, "fs.features", sb->features, sb->n_features, "btrfs");
	if (!facts_has(f, "fs.uuid"))
		facts_set_string(f, "fs.uuid", sb->fsid, "btrfs");
	if (!facts_has(f, "fs.label") && sb->label[0])
		fs_set_text(f, "fs.label", sb->label, "btrfs");
	if (sb->num_devices == 1 && t->dev_name) {
		const char *one[] = {t->dev_name};

		facts_set_strings(f, "fs.devices", one, 1, "btrfs");
	} else {
		facts_set_unavailable(f, "fs.devices", FACTS_NOT_APPLICABLE,
				      "not mounted: the superblock holds only the device count (%llu)",
				      (unsigned long long)sb->num_devices);
	}
}

static void collect_super(const struct probe_target *t, struct facts *f)
{
	struct btrfs_super_info sb;
	char reason[600];
	size_t n;
	unsigned char *buf = fs_read_content(t, f, btrfs_keys, "the btrfs superblock", BTRFS_SUPER_SIZE,
					     BTRFS_SUPER_OFFSET, &n);

	if (!buf)
		return;
	if (btrfs_super_parse(buf, n, &sb) != BTRFS_SUPER_OK) {
		snprintf(reason, sizeof(reason), "btrfs superblock of %s: %s", fs_content_path(t), sb.why);
		fs_mark_unavailable(f, btrfs_keys, FACTS_FAILED, reason);
	} else {
		set_super_values(t, f, &sb);
	}
	free(buf);
}

static void btrfs_collect(const struct probe_target *t, struct facts *f)
{
	const char *type = fs_type(t, f);

	if (fs_branch_absent(f) || !type || strcmp(type, "btrfs") != 0)
		return;
	if (t->is_mounted && !path_is_sysroot() && collect_mounted(t, f))
		return;
	collect_super(t, f);
}

const struct probe_ops probe_btrfs = {
	.name = "btrfs",
	.needs_root = false,
	.collect = btrfs_collect,
};
