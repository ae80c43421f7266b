/* The writeback probe: vm.* from /proc/sys/vm (the successors of bdflush) and the device's
 * backing-device (bdi) limits as vm.bdi.* from sysfs (a mounted btrfs replaces them with those of
 * its own bdi: probes/btrfs.c). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "fstune/path.h"
#include "fstune/probe.h"
#include "probes/probe_util.h"
#include "probes/registry.h"

static const char *const vm_required[] = {
	"dirty_ratio",        "dirty_background_ratio", "dirty_bytes",
	"dirty_background_bytes", "dirty_expire_centisecs", "dirty_writeback_centisecs",
	"vfs_cache_pressure",
};
/* Read when present; older kernels lack some. */
static const char *const vm_optional[] = {"dirtytime_expire_seconds", "swappiness", "min_free_kbytes"};

/* The bdi attributes (Documentation/ABI/testing/sysfs-class-bdi); absent ones are skipped. */
static const char *const bdi_attrs[] = {
	"read_ahead_kb", "min_ratio", "max_ratio", "min_ratio_fine", "max_ratio_fine",
	"min_bytes",     "max_bytes", "strict_limit", "stable_pages_required",
};

static void read_vm(struct facts *f, const char *name, bool required)
{
	char path[128], key[128];

	snprintf(path, sizeof(path), "/proc/sys/vm/%s", name);
	snprintf(key, sizeof(key), "vm.%s", name);
	probe_read_int(f, key, 1, "procfs", required, path);
}

/* The bdi directory of the whole disk: the disk's own bdi link, else /sys/class/bdi/MAJ:MIN. */
static char *bdi_dir(const char *disk)
{
	char *dev;
	unsigned maj, min;
	char *dir = NULL;

	if (path_exists("/sys/class/block/%s/bdi/max_ratio", disk))
		return xasprintf("/sys/class/block/%s/bdi", disk);
	dev = path_read_string("/sys/class/block/%s/dev", disk);
	if (dev && sscanf(dev, "%u:%u", &maj, &min) == 2 && path_exists("/sys/class/bdi/%u:%u", maj, min))
		dir = xasprintf("/sys/class/bdi/%u:%u", maj, min);
	free(dev);
	return dir;
}

void probe_vm_read_bdi(struct facts *f, const char *dir)
{
	char *link = path_readlink("%s", dir);
	int found = 0;

	facts_remove(f, "vm.bdi");
	for (size_t i = 0; i < sizeof(bdi_attrs) / sizeof(bdi_attrs[0]); i++) {
		char path[512], key[128];

		snprintf(path, sizeof(path), "%s/%s", dir, bdi_attrs[i]);
		snprintf(key, sizeof(key), "vm.bdi.%s", bdi_attrs[i]);
		found += probe_read_int(f, key, 1, "sysfs", false, path);
	}
	if (!found) {
		facts_set_unavailable(f, "vm.bdi", FACTS_NOT_FOUND, "%s has no readable attributes", dir);
	} else {
		const char *slash = strrchr(link ? link : dir, '/');

		/* the bdi's own name: MAJ:MIN for a disk, btrfs-N for a btrfs filesystem */
		facts_set_string(f, "vm.bdi.name", slash ? slash + 1 : link ? link : dir, "sysfs");
	}
	free(link);
}

static void read_bdi(struct facts *f)
{
	const char *disk = facts_get_string(f, "device.disk");
	char *dir;

	if (!disk) {
		if (!facts_has(f, "device.name"))
			facts_set_unavailable(f, "vm.bdi", FACTS_NOT_APPLICABLE, "no block device");
		return;
	}
	dir = bdi_dir(disk);
	if (!dir) {
		facts_set_unavailable(f, "vm.bdi", FACTS_NOT_FOUND, "no bdi in sysfs for %s", disk);
		return;
	}
	probe_vm_read_bdi(f, dir);
	free(dir);
}

static void vm_collect(const struct probe_target *t, struct facts *f)
{
	for (size_t i = 0; i < sizeof(vm_required) / sizeof(vm_required[0]); i++)
		read_vm(f, vm_required[i], true);
	for (size_t i = 0; i < sizeof(vm_optional) / sizeof(vm_optional[0]); i++)
		read_vm(f, vm_optional[i], false);
	read_bdi(f);
}

const struct probe_ops probe_vm = {
	.name = "vm",
	.needs_root = false,
	.collect = vm_collect,
};
