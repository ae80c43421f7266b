/* The block device probe: device.* from sysfs, for a partition its own size and start and the whole
 * disk's queue (Documentation/ABI/stable/sysfs-block). The stack keys (members, md_*) belong to the
 * stack probe. */
#include "config.h"

#include <ctype.h>
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
#include "probes/sysfs_link.h"

#define SYSBLK "/sys/class/block/"

/* True when some component of `path` is `prefix` followed by digits only ("ata3", "host0"). */
static bool has_numbered_component(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);

	for (const char *p = strchr(path, '/'); p; p = strchr(p + 1, '/')) {
		const char *c = p + 1, *d;

		if (strncmp(c, prefix, n) != 0 || !isdigit((unsigned char)c[n]))
			continue;
		for (d = c + n; isdigit((unsigned char)*d); d++)
			;
		if (*d == '/' || *d == '\0')
			return true;
	}
	return false;
}

/* The transport from the kernel's device path of the whole disk ("/sys/devices/pci.../ata1/host0/
 * target0:0:0/0:0:0:0/block/sda" is SATA), never from udev. */
static const char *transport_of(const char *disk, const char *canon)
{
	bool is_virtual = strstr(canon, "/devices/virtual/") != NULL;

	if (is_virtual && strncmp(disk, "loop", 4) == 0)
		return "loop";
	if (is_virtual && strncmp(disk, "zram", 4) == 0)
		return "zram";
	if (is_virtual && strncmp(disk, "md", 2) == 0)
		return "md";
	if (is_virtual && strncmp(disk, "dm-", 3) == 0)
		return "dm";
	if (strstr(canon, "/usb"))
		return "usb";
	if (strstr(canon, "/nvme"))
		return "nvme";
	if (strstr(canon, "/virtio"))
		return "virtio";
	if (strstr(canon, "/vbd-") || strstr(canon, "/xen/"))
		return "xen";
	if (strstr(canon, "/mmc"))
		return "mmc";
	if (has_numbered_component(canon, "ata"))
		return "sata";
	if (strstr(canon, "/end_device-") || strstr(canon, "/expander-") || strstr(canon, "/sas_"))
		return "sas";
	if (has_numbered_component(canon, "host") && strstr(canon, "/target"))
		return "scsi";
	return "unknown";
}

/* "noop deadline [cfq]" -> scheduler "cfq", schedulers [noop, deadline, cfq]; a lone "none" (a
 * multi-queue device with no choice) is both. */
static void parse_scheduler(struct facts *f, const char *disk)
{
	char path[512], *s, *save = NULL, *tok;
	const char *list[32];
	size_t n = 0;
	int err;

	snprintf(path, sizeof(path), SYSBLK "%s/queue/scheduler", disk);
	s = path_read_string("%s", path);
	err = errno;
	if (!s) {
		if (err == ENOENT)
			facts_set_unavailable(f, "device.scheduler", FACTS_NOT_APPLICABLE,
					      "%s has no I/O scheduler (a bio-based device)", disk);
		else
			probe_unavailable_errno(f, "device.scheduler", err, path);
		return;
	}
	for (tok = strtok_r(s, " \t\n", &save); tok && n < 32; tok = strtok_r(NULL, " \t\n", &save)) {
		size_t len = strlen(tok);

		if (tok[0] == '[' && len > 2 && tok[len - 1] == ']') {
			tok[len - 1] = '\0';
			tok++;
			facts_set_string(f, "device.scheduler", tok, "sysfs");
		}
		list[n++] = tok;
	}
	if (n == 1 && !facts_has(f, "device.scheduler"))
		facts_set_string(f, "device.scheduler", list[0], "sysfs");
	if (n > 0)
		facts_set_strings(f, "device.schedulers", list, n, "sysfs");
	free(s);
}

static void count_hw_queues(struct facts *f, const char *disk)
{
	DIR *d = path_opendir(SYSBLK "%s/mq", disk);
	struct dirent *de;
	long long n = 0;

	if (!d) {
		if (errno == ENOENT)
			facts_set_unavailable(f, "device.nr_hw_queues", FACTS_NOT_APPLICABLE,
					      "%s has no mq/ (not a multi-queue device)", disk);
		else
			facts_set_unavailable(f, "device.nr_hw_queues", probe_status_from_errno(errno),
					      SYSBLK "%s/mq: %s", disk, strerror(errno));
		return;
	}
	while ((de = readdir(d)))
		if (isdigit((unsigned char)de->d_name[0]))
			n++;
	closedir(d);
	facts_set_int(f, "device.nr_hw_queues", n, "sysfs");
}

/* Reads SYSBLK<dev>/<file> into device.<key>. */
static bool read_int(struct facts *f, const char *dev, const char *file, const char *key,
		     long long mult, bool required)
{
	char path[512], fkey[128];

	snprintf(path, sizeof(path), SYSBLK "%s/%s", dev, file);
	snprintf(fkey, sizeof(fkey), "device.%s", key);
	return probe_read_int(f, fkey, mult, "sysfs", required, path);
}

/* Reads the 0/1 file SYSBLK<dev>/<file> into the bool device.<key>, unavailable when unreadable. */
static void read_flag(struct facts *f, const char *dev, const char *file, const char *key)
{
	char path[512], fkey[128];
	long long v;
	int rc;

	snprintf(path, sizeof(path), SYSBLK "%s/%s", dev, file);
	snprintf(fkey, sizeof(fkey), "device.%s", key);
	rc = path_read_s64(&v, "%s", path);
	if (rc == 0)
		facts_set_bool(f, fkey, v != 0, "sysfs");
	else
		probe_unavailable_errno(f, fkey, -rc, path);
}

static void read_queue(struct facts *f, const char *disk)
{
	static const char *const ints[] = {"logical_block_size", "physical_block_size", "minimum_io_size",
					   "optimal_io_size",    "discard_granularity", "read_ahead_kb"};
	static const char *const extra[] = {"discard_max_bytes", "max_sectors_kb"};
	char file[128], path[512];
	long long nr;
	int rc;

	read_flag(f, disk, "queue/rotational", "rotational");
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		snprintf(file, sizeof(file), "queue/%s", ints[i]);
		read_int(f, disk, file, ints[i], 1, true);
	}
	/* Bio-based devices (md, zram, newer dm) have no request queue to size. */
	snprintf(path, sizeof(path), SYSBLK "%s/queue/nr_requests", disk);
	rc = path_read_s64(&nr, "%s", path);
	if (rc == 0)
		facts_set_int(f, "device.nr_requests", nr, "sysfs");
	else if (rc == -ENOENT)
		facts_set_unavailable(f, "device.nr_requests", FACTS_NOT_APPLICABLE,
				      "%s has no request queue (a bio-based device)", disk);
	else
		probe_unavailable_errno(f, "device.nr_requests", -rc, path);
	for (size_t i = 0; i < sizeof(extra) / sizeof(extra[0]); i++) {
		snprintf(file, sizeof(file), "queue/%s", extra[i]);
		read_int(f, disk, file, extra[i], 1, false);
	}
	snprintf(path, sizeof(path), SYSBLK "%s/queue/write_cache", disk);
	probe_read_string(f, "device.write_cache", "sysfs", true, path);
	snprintf(path, sizeof(path), SYSBLK "%s/queue/zoned", disk);
	probe_read_string(f, "device.zoned", "sysfs", false, path);
	parse_scheduler(f, disk);
	count_hw_queues(f, disk);
}

/* Model, vendor and serial where the driver puts them (SCSI/ATA and NVMe under device/, virtio-blk
 * on the disk itself). Missing ones are not_found; the udev probe may still fill them. */
static void read_identity(struct facts *f, const char *disk, bool has_device, bool is_scsi_like)
{
	char path[512];

	if (!has_device) {
		facts_set_unavailable(f, "device.model", FACTS_NOT_APPLICABLE, "%s is a virtual device", disk);
		facts_set_unavailable(f, "device.serial", FACTS_NOT_APPLICABLE, "%s is a virtual device",
				      disk);
		return;
	}
	snprintf(path, sizeof(path), SYSBLK "%s/device/model", disk);
	if (!probe_read_string(f, "device.model", "sysfs", false, path)) {
		snprintf(path, sizeof(path), SYSBLK "%s/device/name", disk); /* MMC */
		if (!probe_read_string(f, "device.model", "sysfs", false, path) &&
		    !facts_unavailable(f, "device.model", NULL, NULL))
			facts_set_unavailable(f, "device.model", FACTS_NOT_FOUND, "not in sysfs for %s", disk);
	}
	/* SCSI's vendor is the INQUIRY vendor ("ATA", "SEAGATE"); elsewhere device/vendor is a PCI
	 * vendor ID, which says nothing about the disk. */
	if (is_scsi_like) {
		snprintf(path, sizeof(path), SYSBLK "%s/device/vendor", disk);
		probe_read_string(f, "device.vendor", "sysfs", false, path);
	}
	snprintf(path, sizeof(path), SYSBLK "%s/device/serial", disk);
	if (probe_read_string(f, "device.serial", "sysfs", false, path))
		return;
	snprintf(path, sizeof(path), SYSBLK "%s/serial", disk); /* virtio-blk */
	if (probe_read_string(f, "device.serial", "sysfs", false, path) ||
	    facts_unavailable(f, "device.serial", NULL, NULL))
		return;
	facts_set_unavailable(f, "device.serial", FACTS_NOT_FOUND, "not in sysfs for %s", disk);
}

static void read_loop(struct facts *f, const char *disk)
{
	char path[512];

	if (!path_exists(SYSBLK "%s/loop", disk)) {
		facts_set_unavailable(f, "device.loop_direct_io", FACTS_NOT_APPLICABLE,
				      "%s is not attached to a file", disk);
		return;
	}
	read_flag(f, disk, "loop/dio", "loop_direct_io");
	snprintf(path, sizeof(path), SYSBLK "%s/loop/backing_file", disk);
	probe_read_string(f, "device.loop_backing_file", "sysfs", false, path);
}

static void device_collect(const struct probe_target *t, struct facts *f)
{
	const char *name = t->dev_name;
	char *disk, *canon;
	bool is_part;
	const char *transport;

	if (!name) {
		facts_set_unavailable(f, "device", FACTS_NOT_APPLICABLE, "%s",
				      t->no_device_reason ? t->no_device_reason : "no block device");
		return;
	}
	if (!path_exists(SYSBLK "%s", name)) {
		facts_set_unavailable(f, "device", FACTS_FAILED, "%s is not in /sys/class/block", name);
		return;
	}
	is_part = path_exists(SYSBLK "%s/partition", name);
	disk = probe_whole_disk(name);
	facts_set_string(f, "device.path", t->dev_path, "sysfs");
	facts_set_string(f, "device.name", name, "sysfs");
	facts_set_string(f, "device.disk", disk, "sysfs");

	canon = path_canonical(SYSBLK "%s", disk);
	transport = canon ? transport_of(disk, canon) : "unknown";
	facts_set_string(f, "device.transport", transport, "sysfs");
	sysfs_link_probe(f, disk, canon ? canon : "", transport);

	read_int(f, name, "size", "size_bytes", 512, true); /* always 512-byte sectors */
	if (is_part)
		read_int(f, name, "start", "partition_start_bytes", 512, true);
	else
		facts_set_unavailable(f, "device.partition_start_bytes", FACTS_NOT_APPLICABLE,
				      "%s is a whole disk", name);
	read_int(f, name, "alignment_offset", "alignment_offset", 1, true);
	read_queue(f, disk);
	read_identity(f, disk, path_exists(SYSBLK "%s/device", disk),
		      strcmp(transport, "sata") == 0 || strcmp(transport, "sas") == 0 ||
			      strcmp(transport, "scsi") == 0 || strcmp(transport, "usb") == 0);
	if (strcmp(transport, "loop") == 0)
		read_loop(f, disk);
	free(canon);
	free(disk);
}

const struct probe_ops probe_sysfs_device = {
	.name = "sysfs",
	.needs_root = false,
	.collect = device_collect,
};
