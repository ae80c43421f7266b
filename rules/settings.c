/* The setting table: every setting a rule may recommend, one row each, declared once as data (type,
 * range, disruption, unit, where its current value lives) with the family that turns a validated
 * value into the exact shell-quoted commands an admin runs, their persistent form and their revert,
 * and reads it back (settings_<family>.c). Here too the engine's questions about a setting, each
 * answered by its family. */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lib/facts_schema.h"
#include "fstune/rules.h"
#include "rules/settings_family.h"

static const char *const sched_choices[] = {"none", "mq-deadline", "bfq", "kyber", NULL};
static const char *const wc_choices[] = {"write back", "write through", NULL};
static const char *const data_choices[] = {"ordered", "writeback", "journal", NULL};
static const char *const fs_choices[] = {"ext2", "ext3", "ext4", "xfs", "btrfs", NULL};
static const char *const usage_choices[] = {"floppy", "small", "default", "big", "huge", "news",
					    "largefile", "largefile4", "hurd", NULL};

/* In the order `rules list` and the man page list them. */
static const struct setting table[] = {
	/* Made at mkfs time (settings_mkfs.c). */
	{.name = "mkfs.fs_type", .family = &setting_family_mkfs, .type = ST_ENUM,
	 .choices = fs_choices, .disruption = "reformat", .fact_key = "fs.type",
	 .help = "filesystem type to make"},
	{.name = "mkfs.block_size", .family = &setting_family_mkfs, .type = ST_INT, .min = 512,
	 .max = 65536, .pow2 = true, .disruption = "reformat", .fact_key = "fs.block_size",
	 .help = "block size in bytes (ext -b, xfs -b size=, btrfs --sectorsize)"},
	{.name = "mkfs.cluster_size", .family = &setting_family_mkfs, .type = ST_INT, .min = 2048,
	 .max = 268435456, .pow2 = true, .disruption = "reformat", .fact_key = "fs.fragment_size",
	 .help = "ext4 bigalloc cluster size in bytes (-O bigalloc -C)"},
	{.name = "mkfs.inode_ratio", .family = &setting_family_mkfs, .type = ST_INT, .min = 1024,
	 .max = 67108864, .disruption = "reformat", .unit = UNITS_BYTES,
	 .help = "bytes per inode (mke2fs -i); fixed after creation"},
	{.name = "mkfs.inode_count", .family = &setting_family_mkfs, .type = ST_INT, .min = 16,
	 .max = 4294967295LL, .disruption = "reformat", .fact_key = "fs.inode_count",
	 .help = "number of inodes (mke2fs -N)"},
	{.name = "mkfs.inode_size", .family = &setting_family_mkfs, .type = ST_INT, .min = 128,
	 .max = 2048, .pow2 = true, .disruption = "reformat", .fact_key = "fs.inode_size",
	 .help = "inode size in bytes (mke2fs -I, mkfs.xfs -i size=)"},
	{.name = "mkfs.usage_type", .family = &setting_family_mkfs, .type = ST_ENUM,
	 .choices = usage_choices, .disruption = "reformat", .help = "mke2fs.conf usage type (-T)"},
	{.name = "mkfs.reserved_percent", .family = &setting_family_mkfs, .type = ST_REAL,
	 .rmin = 0, .rmax = 50, .disruption = "reformat", .unit = UNITS_PERCENT,
	 .help = "reserved blocks percentage at creation (mke2fs -m)"},
	{.name = "mkfs.stride", .family = &setting_family_mkfs, .type = ST_INT, .min = 1,
	 .max = 4194304, .disruption = "reformat",
	 .help = "RAID chunk in filesystem blocks (mke2fs -E stride=)"},
	{.name = "mkfs.stripe_width", .family = &setting_family_mkfs, .type = ST_INT, .min = 1,
	 .max = 4194304, .disruption = "reformat",
	 .help = "RAID stripe in filesystem blocks (mke2fs -E stripe_width=)"},
	{.name = "mkfs.xfs_su", .family = &setting_family_mkfs, .type = ST_INT, .min = 512,
	 .max = 268435456, .disruption = "reformat", .fact_key = "fs.stripe_unit_bytes",
	 .help = "XFS stripe unit in bytes (mkfs.xfs -d su=)"},
	{.name = "mkfs.xfs_sw", .family = &setting_family_mkfs, .type = ST_INT, .min = 1,
	 .max = 1024, .disruption = "reformat",
	 .help = "XFS stripe width in stripe units (mkfs.xfs -d sw=)"},
	{.name = "mkfs.features", .family = &setting_family_mkfs, .type = ST_FEATURES, .max = 32,
	 .disruption = "reformat",
	 .help = "features to turn on (name) or off (^name) at creation (mke2fs -O, mkfs.btrfs "
		 "-O)"},
	{.name = "mkfs.label", .family = &setting_family_mkfs, .type = ST_STRING, .max = 16,
	 .disruption = "reformat", .fact_key = "fs.label",
	 .help = "filesystem label (-L), at most 16 bytes"},

	/* ext2/3/4 through tune2fs (settings_ext.c). */
	{.name = "fs.feature.dir_index", .family = &setting_family_ext_feature, .type = ST_BOOL,
	 .disruption = "offline", .key = "dir_index",
	 .help = "ext2/3/4 hashed directories (tune2fs -O dir_index, then e2fsck -fDp; off: "
		 "e2fsck -fp first)"},
	{.name = "fs.feature.large_dir", .family = &setting_family_ext_feature, .type = ST_BOOL,
	 .disruption = "offline", .key = "large_dir", .alt = "once",
	 .help = "ext4 directories beyond ~10M entries or 2 GB (tune2fs -O large_dir; one-way)"},
	{.name = "fs.feature.has_journal", .family = &setting_family_ext_journal, .type = ST_BOOL,
	 .disruption = "offline", .key = "has_journal",
	 .help = "ext2/3/4 journal (tune2fs -j, then mounted as ext4: a journal-less ext2 mounted "
		 "as ext4 gets none)"},
	{.name = "fs.reserved_percent", .family = &setting_family_tune2fs, .type = ST_REAL,
	 .rmin = 0, .rmax = 50, .disruption = "online", .unit = UNITS_PERCENT, .key = "-m",
	 .help = "ext2/3/4 reserved blocks percentage (tune2fs -m)"},
	{.name = "fs.reserved_blocks", .family = &setting_family_tune2fs, .type = ST_INT, .min = 0,
	 .max = 1LL << 48, .disruption = "online", .fact_key = "fs.reserved_blocks", .key = "-r",
	 .help = "ext2/3/4 reserved block count (tune2fs -r)"},
	{.name = "fs.stride", .family = &setting_family_tune2fs_extended, .type = ST_INT, .min = 0,
	 .max = 65535, .disruption = "online", .fact_key = "fs.stripe_unit_bytes",
	 .fact_per = "fs.block_size", .key = "stride",
	 .help = "ext2/3/4 RAID chunk in filesystem blocks, 0 = none (tune2fs -E stride=; read at "
		 "the next mount)"},
	{.name = "fs.stripe_width", .family = &setting_family_tune2fs_extended, .type = ST_INT,
	 .min = 0, .max = INT_MAX, .disruption = "online", .fact_key = "fs.stripe_width_bytes",
	 .fact_per = "fs.block_size", .key = "stripe_width",
	 .help = "ext2/3/4 RAID stripe in filesystem blocks, 0 = none (tune2fs -E stripe_width=; "
		 "read at the next mount)"},

	/* XFS through xfs_growfs on the mounted filesystem (settings_xfs.c). */
	{.name = "fs.xfs.imaxpct", .family = &setting_family_xfs_growfs, .type = ST_INT, .min = 0,
	 .max = 100, .disruption = "online", .fact_key = "fs.inode_max_pct", .unit = UNITS_PERCENT,
	 .key = "-m", .alt = "imaxpct",
	 .help = "XFS: most of the space inodes may take, percent, 0 = no limit (xfs_growfs -m, mounted)"},

	/* Mount options (settings_mount.c). */
	{.name = "mount.option.noatime", .family = &setting_family_mount, .type = ST_BOOL,
	 .disruption = "remount", .key = "noatime", .alt = "relatime",
	 .help = "no access-time updates (mount -o noatime; off = relatime, or strictatime when "
		 "the mount had it)"},
	{.name = "mount.option.relatime", .family = &setting_family_mount, .type = ST_BOOL,
	 .disruption = "remount", .key = "relatime", .alt = "strictatime",
	 .help = "access times updated once a day or when older than mtime/ctime, the default "
		 "(mount -o relatime; off = strictatime, the revert of a noatime mount is noatime)"},
	{.name = "mount.option.lazytime", .family = &setting_family_mount, .type = ST_BOOL,
	 .disruption = "remount", .key = "lazytime", .alt = "nolazytime",
	 .help = "timestamps kept in memory (mount -o lazytime)"},
	{.name = "mount.option.commit", .family = &setting_family_mount, .type = ST_INT, .min = 1,
	 .max = 300, .disruption = "remount", .unit = UNITS_SECONDS, .key = "commit",
	 .help = "journal commit interval in seconds (ext4 default 5, btrfs 30)"},
	{.name = "mount.option.discard", .family = &setting_family_mount, .type = ST_BOOL,
	 .disruption = "remount", .key = "discard", .alt = "nodiscard",
	 .help = "online discard (mount -o discard)"},
	{.name = "mount.option.barrier", .family = &setting_family_mount, .type = ST_BOOL,
	 .disruption = "remount", .key = "barrier", .alt = "nobarrier",
	 .help = "cache flushes at journal commits and fsync (ext3/4, btrfs; nobarrier = "
		 "barrier=0; XFS removed both in 4.19)"},
	{.name = "mount.option.data", .family = &setting_family_mount_data, .type = ST_ENUM,
	 .choices = data_choices, .disruption = "offline", .key = "data",
	 .help = "ext3/4 journalling mode; refused on remount: unmount and mount (for /: "
		 "rootflags= on the kernel command line, a reboot)"},

	/* Files and directories (settings_layout.c) and systemd units (settings_systemd.c). */
	{.name = "file.nocow", .family = &setting_family_nocow, .type = ST_STRING, .max = 4096,
	 .disruption = "runtime",
	 .help = "btrfs directory whose new files skip copy-on-write (mkdir -p, chattr +C; "
		 "existing data keeps it)"},
	{.name = "fstrim.timer", .family = &setting_family_systemd_unit, .type = ST_BOOL,
	 .disruption = "runtime", .fact_key = "fs.fstrim_timer", .key = "fstrim.timer",
	 .help = "weekly fstrim through systemd's fstrim.timer"},

	/* Linux sysctls (settings_sysctl.c). */
	{.name = "sysctl.vm.dirty_bytes", .family = &setting_family_sysctl, .type = ST_INT,
	 .min = 0, .max = 1LL << 44, .disruption = "runtime", .fact_key = "vm.dirty_bytes",
	 .key = "vm.dirty_bytes", .alt = "vm.dirty_ratio",
	 .help = "hard dirty-page limit in bytes (0 = use dirty_ratio)"},
	{.name = "sysctl.vm.dirty_background_bytes", .family = &setting_family_sysctl,
	 .type = ST_INT, .min = 0, .max = 1LL << 44, .disruption = "runtime",
	 .fact_key = "vm.dirty_background_bytes", .key = "vm.dirty_background_bytes",
	 .alt = "vm.dirty_background_ratio",
	 .help = "background writeback threshold in bytes (0 = use dirty_background_ratio)"},
	{.name = "sysctl.vm.dirty_ratio", .family = &setting_family_sysctl, .type = ST_INT,
	 .min = 0, .max = 100, .disruption = "runtime", .fact_key = "vm.dirty_ratio",
	 .key = "vm.dirty_ratio", .alt = "vm.dirty_bytes",
	 .help = "hard dirty-page limit, percent of available memory"},
	{.name = "sysctl.vm.dirty_background_ratio", .family = &setting_family_sysctl,
	 .type = ST_INT, .min = 0, .max = 100, .disruption = "runtime",
	 .fact_key = "vm.dirty_background_ratio", .key = "vm.dirty_background_ratio",
	 .alt = "vm.dirty_background_bytes",
	 .help = "background writeback threshold, percent of available memory"},
	{.name = "sysctl.vm.dirty_expire_centisecs", .family = &setting_family_sysctl,
	 .type = ST_INT, .min = 0, .max = INT_MAX, .disruption = "runtime",
	 .fact_key = "vm.dirty_expire_centisecs", .key = "vm.dirty_expire_centisecs",
	 .help = "age of dirty data eligible for writeback"},
	{.name = "sysctl.vm.dirty_writeback_centisecs", .family = &setting_family_sysctl,
	 .type = ST_INT, .min = 0, .max = INT_MAX, .disruption = "runtime",
	 .fact_key = "vm.dirty_writeback_centisecs", .key = "vm.dirty_writeback_centisecs",
	 .help = "flusher wake-up interval (0 disables periodic writeback)"},
	{.name = "sysctl.vm.vfs_cache_pressure", .family = &setting_family_sysctl, .type = ST_INT,
	 .min = 0, .max = 10000, .disruption = "runtime", .fact_key = "vm.vfs_cache_pressure",
	 .key = "vm.vfs_cache_pressure", .help = "dentry/inode reclaim tendency (100 = fair)"},

	/* The backing device the filesystem writes and reads through: the disk's, or btrfs's own
	 * (settings_bdi.c). */
	{.name = "bdi.max_ratio", .family = &setting_family_bdi, .type = ST_INT, .min = 0,
	 .max = 100, .disruption = "runtime", .fact_key = "vm.bdi.max_ratio",
	 .key = "bdi/max_ratio", .help = "share of the dirty limit this device may use, percent"},
	{.name = "bdi.strict_limit", .family = &setting_family_bdi, .type = ST_BOOL,
	 .disruption = "runtime", .fact_key = "vm.bdi.strict_limit", .key = "bdi/strict_limit",
	 .help = "enforce max_ratio even below the global background limit"},
	{.name = "bdi.read_ahead_kb", .family = &setting_family_bdi, .type = ST_INT, .min = 0,
	 .max = 1048576, .disruption = "runtime", .fact_key = "vm.bdi.read_ahead_kb",
	 .key = "bdi/read_ahead_kb",
	 .help = "read-ahead in KiB of a btrfs filesystem's own bdi (renamed at each mount: no udev "
		 "form)"},

	/* Attributes of the whole disk in sysfs (settings_sysfs.c). */
	{.name = "queue.scheduler", .family = &setting_family_sysfs, .type = ST_ENUM,
	 .choices = sched_choices, .disruption = "runtime", .fact_key = "device.scheduler",
	 .key = "queue/scheduler", .help = "I/O scheduler of the disk"},
	{.name = "queue.read_ahead_kb", .family = &setting_family_sysfs, .type = ST_INT, .min = 0,
	 .max = 1048576, .disruption = "runtime", .fact_key = "device.read_ahead_kb",
	 .key = "queue/read_ahead_kb", .help = "read-ahead in KiB"},
	{.name = "queue.nr_requests", .family = &setting_family_sysfs, .type = ST_INT, .min = 4,
	 .max = 65536, .disruption = "runtime", .fact_key = "device.nr_requests",
	 .key = "queue/nr_requests", .help = "request queue depth per hardware queue"},
	{.name = "device.write_cache", .family = &setting_family_sysfs, .type = ST_ENUM,
	 .choices = wc_choices, .disruption = "runtime", .fact_key = "device.write_cache",
	 .key = "queue/write_cache",
	 .help = "the kernel's view of the volatile write cache (flushes are sent for write back)"},
	{.name = "md.stripe_cache_size", .family = &setting_family_sysfs, .type = ST_INT, .min = 17,
	 .max = 32768, .disruption = "runtime", .fact_key = "device.md_stripe_cache_stripes",
	 .key = "md/stripe_cache_size",
	 .help = "md RAID4/5/6 stripe cache in stripes; memory = stripes x page size x member "
		 "devices"},

	/* Advice with nothing to run (settings_layout.c). */
	{.name = "layout.files_per_dir", .family = &setting_family_advice, .type = ST_INT, .min = 1,
	 .max = 1000000000, .disruption = "advice",
	 .help = "how many files the application puts in one directory"},

	/* FreeBSD: newfs (settings_mkfs.c), tunables and sysctls (settings_freebsd.c). */
	{.name = "freebsd.newfs.block_size", .family = &setting_family_mkfs, .type = ST_INT,
	 .min = 4096, .max = 65536, .pow2 = true, .disruption = "reformat",
	 .fact_key = "freebsd.newfs_block_size", .key = "ufs", .help = "UFS block size (newfs -b)"},
	{.name = "freebsd.newfs.fragment_size", .family = &setting_family_mkfs, .type = ST_INT,
	 .min = 512, .max = 65536, .pow2 = true, .disruption = "reformat",
	 .fact_key = "freebsd.newfs_fragment_size", .key = "ufs",
	 .help = "UFS fragment size (newfs -f), block/8 to block"},
	{.name = "freebsd.newfs.bytes_per_inode", .family = &setting_family_mkfs, .type = ST_INT,
	 .min = 512, .max = 67108864, .disruption = "reformat", .unit = UNITS_BYTES, .key = "ufs",
	 .help = "UFS bytes per inode (newfs -i)"},
	{.name = "freebsd.kern.nbuf", .family = &setting_family_freebsd_loader, .type = ST_INT,
	 .min = 1024, .max = INT_MAX, .zero_unsets = true, .disruption = "reboot",
	 .fact_key = "freebsd.nbuf", .key = "kern.nbuf",
	 .help = "buffer headers, a boot-time tunable (/boot/loader.conf); 0 removes the line: "
		 "sized at boot"},
	{.name = "freebsd.vfs.vmiodirenable", .family = &setting_family_freebsd_sysctl,
	 .type = ST_BOOL, .disruption = "runtime", .fact_key = "freebsd.vmiodirenable",
	 .key = "vfs.vmiodirenable",
	 .help = "cache directories in the VM page cache (sysctl, /etc/sysctl.conf)"},
	{.name = "freebsd.vfs.ufs.dirhash_maxmem", .family = &setting_family_freebsd_sysctl,
	 .type = ST_INT, .min = 0, .max = 1LL << 40, .disruption = "runtime",
	 .fact_key = "freebsd.dirhash_maxmem_bytes", .key = "vfs.ufs.dirhash_maxmem",
	 .help = "memory for UFS directory hashes in bytes"},
};

const struct setting *settings_all(size_t *n)
{
	*n = sizeof(table) / sizeof(table[0]);
	return table;
}

const struct setting *settings_find(const char *name)
{
	for (size_t i = 0; name && i < sizeof(table) / sizeof(table[0]); i++)
		if (!strcmp(table[i].name, name))
			return &table[i];
	return NULL;
}

bool settings_build(const struct setting *s, struct setting_ctx *c)
{
	c->err[0] = '\0';
	s->family->build(s, c);
	if (c->err[0]) {
		json_decref(c->persistent);
		json_decref(c->mkfs);
		c->persistent = c->mkfs = NULL;
		return false;
	}
	settings_place(s, c);
	return true;
}

json_t *settings_current(const struct setting *s, const struct facts *facts)
{
	return s->family->current ? s->family->current(s, facts) : settings_value_of_fact(s, facts);
}

json_t *rules_setting_current(const char *setting, const struct facts *facts)
{
	const struct setting *s = setting ? settings_find(setting) : NULL;

	return s ? settings_current(s, facts) : NULL;
}

enum units_kind rules_setting_unit(const char *setting)
{
	const struct setting *s = setting ? settings_find(setting) : NULL;

	if (!s)
		return UNITS_PLAIN;
	if (s->unit != UNITS_UNSET)
		return s->unit;
	if (s->fact_key && !s->fact_per)
		return facts_schema_unit(s->fact_key);
	return UNITS_PLAIN;
}

const char *rules_setting_fact(const char *setting)
{
	const struct setting *s = setting ? settings_find(setting) : NULL;

	if (!s)
		return NULL;
	if (s->fact_key)
		return s->fact_key;
	return s->family->fact ? s->family->fact(s) : NULL;
}

bool rules_setting_read(const char *setting, const struct facts *facts, const json_t *current, char **cmd,
			char **recorded)
{
	const struct setting *s = settings_find(setting);

	return s && s->family->read && s->family->read(s, facts, current, cmd, recorded);
}

bool rules_setting_host_wide(const char *setting)
{
	const struct setting *s = setting ? settings_find(setting) : NULL;

	return s && s->family->host_wide;
}

bool rules_setting_mount_change(const char *setting, const json_t *value, char **on, char **off)
{
	const struct setting *s = settings_find(setting);

	if (!s || s->family != &setting_family_mount)
		return false;
	settings_mount_change(s, value, on, off);
	return true;
}
