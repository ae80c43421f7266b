/* XFS: how the filesystem was made, from its primary superblock read by fstune itself (libblkid
 * 2.38 reports XFS's sector size as BLOCK_SIZE and nothing of its geometry). The parsing and every
 * bounds check live in xfs_super.c, which the fuzzer exercises. A mounted XFS keeps its superblock
 * in memory and writes the device's copy back only at unmount: what can change while it is mounted
 * (imaxpct, by xfs_growfs -m) comes from the kernel's geometry instead. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <xfs/xfs.h>

#include "lib/xalloc.h"
#include "fstune/path.h"
#include "fstune/probe.h"
#include "probes/fs_common.h"
#include "probes/registry.h"
#include "probes/xfs_super.h"

static const char *const xfs_keys[] = {
	"block_size", "fragment_size", "sector_size", "inode_size", "ag_count", "size_bytes",
	"stripe_unit_bytes", "stripe_width_bytes", "log_size_bytes", "features", NULL,
};

static void set_values(const struct probe_target *t, struct facts *f, const struct xfs_super_info *sb)
{
	char version[8];

	facts_set_int(f, "fs.block_size", sb->block_size, "xfs");
	/* XFS allocates in whole blocks: no fragments, no clusters */
	facts_set_int(f, "fs.fragment_size", sb->block_size, "xfs");
	facts_set_int(f, "fs.sector_size", sb->sector_size, "xfs");
	facts_set_int(f, "fs.inode_size", sb->inode_size, "xfs");
	facts_set_int(f, "fs.ag_count", sb->ag_count, "xfs");
	if (fs_check_size(t, f, sb->size_bytes, "the XFS superblock"))
		facts_set_int(f, "fs.size_bytes", (long long)sb->size_bytes, "xfs");
	facts_set_int(f, "fs.stripe_unit_bytes", (long long)sb->stripe_unit_bytes, "xfs");
	facts_set_int(f, "fs.stripe_width_bytes", (long long)sb->stripe_width_bytes, "xfs");
	facts_set_int(f, "fs.log_size_bytes", (long long)sb->log_size_bytes, "xfs");
	facts_set_bool(f, "fs.log_external", sb->log_is_external, "xfs");
	facts_set_int(f, "fs.inode_max_pct", sb->imax_pct, "xfs");
	facts_set_strings(f, "fs.features", sb->features, sb->n_features, "xfs");
	snprintf(version, sizeof(version), "%u", sb->version);
	if (!facts_has(f, "fs.version"))
		facts_set_string(f, "fs.version", version, "xfs");
	if (!facts_has(f, "fs.uuid"))
		facts_set_string(f, "fs.uuid", sb->uuid, "xfs");
}

/* The geometry in use on a mounted XFS (XFS_IOC_FSGEOMETRY, no privilege needed): xfs_growfs -m
 * changes imaxpct in memory at once and on the device only at unmount (tried: Linux 6.18, the
 * device's copy still said 25 a minute after -m 50). Not under --sysroot: no live mount is asked. */
static void set_mounted_geometry(const struct probe_target *t, struct facts *f)
{
	const char *dir = t->kind == TARGET_DIRECTORY ? t->path : t->mount_point;
	struct xfs_fsop_geom geo;
	int fd;

	if (!t->is_mounted || !dir || path_is_sysroot())
		return;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	memset(&geo, 0, sizeof(geo));
	if (ioctl(fd, XFS_IOC_FSGEOMETRY, &geo) == 0 && geo.imaxpct <= 100)
		facts_set_int(f, "fs.inode_max_pct", geo.imaxpct, "xfs");
	close(fd);
}

static void xfs_collect(const struct probe_target *t, struct facts *f)
{
	const char *type = fs_type(t, f);
	struct xfs_super_info sb;
	unsigned char *buf;
	size_t n;

	if (fs_branch_absent(f) || !type || strcmp(type, "xfs") != 0)
		return;
	buf = fs_read_content(t, f, xfs_keys, "the XFS superblock", XFS_SUPER_READ_SIZE, 0, &n);
	if (!buf)
		return;
	if (xfs_super_parse(buf, n, &sb) != XFS_SUPER_OK) {
		char reason[600];

		/* blkid (or the mount) said XFS, so a superblock we cannot accept is damage */
		snprintf(reason, sizeof(reason), "XFS superblock of %s: %s", fs_content_path(t), sb.why);
		fs_mark_unavailable(f, xfs_keys, FACTS_FAILED, reason);
	} else {
		set_values(t, f, &sb);
		set_mounted_geometry(t, f);
	}
	free(buf);
}

const struct probe_ops probe_xfs = {
	.name = "xfs",
	.needs_root = true,
	.collect = xfs_collect,
};
