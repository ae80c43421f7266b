/* libblkid: which filesystem is on the target (type, UUID, label, version) and, for block devices,
 * the I/O topology as a cross-check of what sysfs said. libblkid's BLOCK_SIZE is never used: in
 * util-linux 2.38 it is the sector size for XFS and the logical sector size for vfat, so the block
 * size comes from each filesystem's own superblock (ext2fs.c, xfs.c, btrfs.c) or statfs. */
#include "config.h"

#include <blkid.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fstune/debug.h"
#include "fstune/path.h"
#include "fstune/probe.h"
#include "probes/fs_common.h"
#include "probes/probe_util.h"
#include "probes/registry.h"

static const char *const blkid_keys[] = {"type", "uuid", "label", "version", NULL};

static const char *lookup(blkid_probe pr, const char *name)
{
	const char *v = NULL;

	if (blkid_probe_lookup_value(pr, name, &v, NULL) < 0)
		return NULL;
	return v;
}

/* A signature that is not a filesystem (an md member, LUKS, swap): fstune has no fs to advise on. */
static bool not_a_filesystem(blkid_probe pr, struct facts *f, const char *path)
{
	const char *usage = lookup(pr, "USAGE"), *type = lookup(pr, "TYPE");

	if (!usage || strcmp(usage, "filesystem") == 0)
		return false;
	facts_set_unavailable(f, "fs", FACTS_NOT_FOUND,
			      "%s holds a %s signature (%s), not a filesystem", path,
			      type ? type : "?", usage);
	return true;
}

static void cross_check(struct facts *f, const char *key, unsigned long value)
{
	long long sysfs;

	if (!facts_get_int(f, key, &sysfs)) {
		facts_set_int(f, key, (long long)value, "blkid");
		return;
	}
	if (sysfs != (long long)value)
		DBG(DEBUG_PROBES, "blkid: %s is %lu, sysfs said %lld (kept sysfs)\n", key, value, sysfs);
}

/* Only for block devices (libblkid refuses others) whose device branch exists. */
static void check_topology(blkid_probe pr, struct facts *f, int fd)
{
	struct stat st;
	blkid_topology tp;
	enum facts_status status;
	const char *reason;

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode))
		return;
	if (!facts_get(f, "device") && facts_unavailable(f, "device", &status, &reason))
		return;
	tp = blkid_probe_get_topology(pr);
	if (!tp)
		return;
	cross_check(f, "device.logical_block_size", blkid_topology_get_logical_sector_size(tp));
	cross_check(f, "device.physical_block_size", blkid_topology_get_physical_sector_size(tp));
	cross_check(f, "device.minimum_io_size", blkid_topology_get_minimum_io_size(tp));
	cross_check(f, "device.optimal_io_size", blkid_topology_get_optimal_io_size(tp));
	cross_check(f, "device.alignment_offset", blkid_topology_get_alignment_offset(tp));
}

static void set_values(blkid_probe pr, struct facts *f)
{
	const char *type = lookup(pr, "TYPE");

	facts_set_string(f, "fs.type", type, "blkid");
	fs_set_text(f, "fs.uuid", lookup(pr, "UUID"), "blkid");
	if (!lookup(pr, "UUID"))
		facts_set_unavailable(f, "fs.uuid", FACTS_NOT_FOUND, "%s has no UUID", type);
	fs_set_text(f, "fs.label", lookup(pr, "LABEL"), "blkid");
	if (!lookup(pr, "LABEL"))
		facts_set_unavailable(f, "fs.label", FACTS_NOT_FOUND, "no label set");
	if (lookup(pr, "VERSION"))
		fs_set_text(f, "fs.version", lookup(pr, "VERSION"), "blkid");
	/* the member's own UUID inside a multi-device filesystem (btrfs dev_item, bcachefs member) */
	if (lookup(pr, "UUID_SUB"))
		fs_set_text(f, "fs.uuid_sub", lookup(pr, "UUID_SUB"), "blkid");
}

static void blkid_collect(const struct probe_target *t, struct facts *f)
{
	const char *path;
	blkid_probe pr;
	int fd, rc;

	/* under --sysroot the capture's udev data may already have said what the signature is */
	if (fs_branch_absent(f) || (path_is_sysroot() && facts_has(f, "fs.type")) ||
	    fs_content_unreachable(t, f, blkid_keys, "the filesystem signature"))
		return;
	path = fs_content_path(t);
	fd = fs_open_content(t, f, blkid_keys);
	if (fd < 0)
		return;
	pr = blkid_new_probe();
	if (!pr || blkid_probe_set_device(pr, fd, 0, 0) < 0) {
		facts_set_unavailable(f, "fs.type", FACTS_FAILED, "libblkid cannot probe %s", path);
		goto out;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_LABEL |
						      BLKID_SUBLKS_UUID | BLKID_SUBLKS_USAGE |
						      BLKID_SUBLKS_VERSION);
	/* a partition table is looked for only to say what to give instead */
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0 && !lookup(pr, "TYPE") && lookup(pr, "PTTYPE")) {
		facts_set_unavailable(f, "fs", FACTS_NOT_FOUND,
				      "%s holds a %s partition table, not a filesystem: give one of its "
				      "partitions", path, lookup(pr, "PTTYPE"));
	} else if (rc == 1) {
		facts_set_unavailable(f, "fs", FACTS_NOT_FOUND, "no filesystem signature on %s", path);
	} else if (rc == -2) {
		facts_set_unavailable(f, "fs", FACTS_FAILED,
				      "%s holds more than one filesystem signature; `wipefs %s` lists them",
				      path, path);
	} else if (rc < 0) {
		facts_set_unavailable(f, "fs.type", FACTS_FAILED, "libblkid failed to probe %s", path);
	} else if (!not_a_filesystem(pr, f, path)) {
		set_values(pr, f);
	}
	check_topology(pr, f, fd);
out:
	if (pr)
		blkid_free_probe(pr);
	close(fd);
}

const struct probe_ops probe_blkid = {
	.name = "blkid",
	.needs_root = true,
	.collect = blkid_collect,
};
