/* The storage stack under the filesystem's device, from sysfs: the leaf devices under md/dm
 * (slaves/, recursively), what is stacked on top (holders/), md's level, chunk and disk counts, and
 * whether a hardware RAID controller hides the real geometry (topology_hidden). Works under --sysroot.
 *
 * topology_hidden, the heuristic (stated in fstune(1) too): a leaf disk is a hardware RAID volume
 * when its SCSI host's driver (/sys/class/scsi_host/hostN/proc_name) is a RAID-only driver (aacraid,
 * 3w-*, arcmsr, ips, gdth, megaraid, megaraid_mbox), or a RAID-capable HBA driver (megaraid_sas, hpsa,
 * smartpqi, mpt3sas, mpt2sas, mptsas) and the disk's vendor/model names a logical volume ("LOGICAL
 * VOLUME", "Logical Volume", "PERC", "MegaRAID", "MR9", "ServeRAID", "RAID"), since those HBAs also
 * pass plain disks through. Without a readable proc_name the model alone decides. Such a volume hides
 * its geometry when it reports no optimal I/O size (optimal_io_size 0): the stripe the controller
 * uses is then invisible to mkfs. A controller that does export its stripe is not hidden. md and dm
 * compose the geometry of what is under them, so they hide nothing of their own, but a hidden leaf
 * under them still makes the stack hidden. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "fstune/debug.h"
#include "fstune/path.h"
#include "fstune/probe.h"
#include "probes/probe_util.h"
#include "probes/registry.h"

#define SYSBLK "/sys/class/block/"
#define MAX_DEPTH 16    /* md on dm on md ... far deeper than any real stack */
#define MAX_MEMBERS 512

struct names {
	char **v; /* NULL-terminated */
	size_t n;
};

static void names_add(struct names *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], name) == 0)
			return;
	s->v = xrealloc(s->v, (s->n + 2) * sizeof(*s->v));
	s->v[s->n++] = xstrdup(name);
	s->v[s->n] = NULL;
}

static void names_free(struct names *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of SYSBLK<dev>/<sub>/, sorted. Returns -errno when the directory cannot be read. */
static int list_dir(const char *dev, const char *sub, struct names *out)
{
	DIR *d = path_opendir(SYSBLK "%s/%s", dev, sub);
	struct dirent *e;

	out->v = NULL;
	out->n = 0;
	if (!d)
		return -errno;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			names_add(out, e->d_name);
	closedir(d);
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), cmp_str);
	return 0;
}

/* Leaves under `dev`: devices with no slaves of their own. */
static void collect_leaves(const char *dev, int depth, struct names *leaves)
{
	struct names slaves;

	if (depth > MAX_DEPTH || leaves->n >= MAX_MEMBERS)
		return;
	if (list_dir(dev, "slaves", &slaves) < 0 || slaves.n == 0) {
		if (depth > 0)
			names_add(leaves, dev);
		names_free(&slaves);
		return;
	}
	for (size_t i = 0; i < slaves.n; i++)
		collect_leaves(slaves.v[i], depth + 1, leaves);
	names_free(&slaves);
}

/* The raid4/5/6 stripe cache, in stripes of one page per member device; only those levels have it. */
static void set_md_stripe_cache(struct facts *f, const char *disk)
{
	long long n = 0;

	if (path_read_s64(&n, SYSBLK "%s/md/stripe_cache_size", disk) == 0 && n > 0)
		facts_set_int(f, "device.md_stripe_cache_stripes", n, "sysfs");
	else
		facts_set_unavailable(f, "device.md_stripe_cache_stripes", FACTS_NOT_FOUND,
				      "no %s/md/stripe_cache_size", disk);
}

static void set_md(struct facts *f, const char *disk)
{
	char *level = path_read_string(SYSBLK "%s/md/level", disk);
	long long chunk = 0, disks = 0, layout = 0;

	if (!level)
		return; /* not md */
	facts_set_string(f, "device.md_level", level, "sysfs");
	if (path_read_s64(&chunk, SYSBLK "%s/md/chunk_size", disk) == 0 && chunk > 0)
		facts_set_int(f, "device.md_chunk_bytes", chunk, "sysfs");
	else
		facts_set_unavailable(f, "device.md_chunk_bytes", FACTS_NOT_APPLICABLE,
				      "md %s: %s has no chunk", level, disk);
	if (path_read_s64(&disks, SYSBLK "%s/md/raid_disks", disk) != 0 || disks <= 0) {
		facts_set_unavailable(f, "device.md_raid_disks", FACTS_NOT_FOUND,
				      "no %s/md/raid_disks", disk);
		facts_set_unavailable(f, "device.md_data_disks", FACTS_NOT_FOUND,
				      "no %s/md/raid_disks", disk);
		free(level);
		return;
	}
	facts_set_int(f, "device.md_raid_disks", disks, "sysfs");

	if (strcmp(level, "raid0") == 0) {
		facts_set_int(f, "device.md_data_disks", disks, "sysfs");
	} else if (strcmp(level, "raid1") == 0) {
		facts_set_int(f, "device.md_data_disks", 1, "sysfs");
	} else if (strcmp(level, "raid4") == 0 || strcmp(level, "raid5") == 0) {
		facts_set_int(f, "device.md_data_disks", disks - 1, "sysfs");
		set_md_stripe_cache(f, disk);
	} else if (strcmp(level, "raid6") == 0) {
		facts_set_int(f, "device.md_data_disks", disks - 2, "sysfs");
		set_md_stripe_cache(f, disk);
	} else if (strcmp(level, "raid10") == 0 &&
		   path_read_s64(&layout, SYSBLK "%s/md/layout", disk) == 0) {
		/* as drivers/md/raid10.c counts the stripe it reports as io_opt / chunk: the disks
		 * divided by the near copies (layout bits 0-7) when they divide evenly, else all of
		 * them; far copies (bits 8-15) lie in another region of each disk, so they do not
		 * narrow the stripe */
		long long near = layout & 0xff;

		if (near <= 0)
			facts_set_unavailable(f, "device.md_data_disks", FACTS_FAILED,
					      "raid10 layout %lld has no near copies", layout);
		else
			facts_set_int(f, "device.md_data_disks", disks % near ? disks : disks / near,
				      "sysfs");
	} else {
		facts_set_unavailable(f, "device.md_data_disks", FACTS_NOT_APPLICABLE,
				      "md level %s does not stripe data", level);
	}
	free(level);
}

static bool model_names_volume(const char *disk)
{
	static const char *const volume_words[] = {"LOGICAL VOLUME", "Logical Volume", "PERC", "MegaRAID",
						   "MR9", "ServeRAID", "RAID"};
	char *vendor = path_read_string(SYSBLK "%s/device/vendor", disk);
	char *model = path_read_string(SYSBLK "%s/device/model", disk);
	bool hit = false;

	for (size_t i = 0; i < sizeof(volume_words) / sizeof(volume_words[0]) && !hit; i++)
		hit = (model && strstr(model, volume_words[i])) ||
		      (vendor && strstr(vendor, volume_words[i]));
	free(vendor);
	free(model);
	return hit;
}

/* The driver of the SCSI host above `disk` (proc_name), or NULL when not SCSI or unreadable. */
static char *scsi_host_driver(const char *disk)
{
	char *canon = path_canonical(SYSBLK "%s", disk), *p, *driver = NULL;
	unsigned host;

	for (p = canon; p && (p = strstr(p, "/host")); p++)
		if (sscanf(p, "/host%u/", &host) == 1) {
			driver = path_read_string("/sys/class/scsi_host/host%u/proc_name", host);
			break;
		}
	free(canon);
	return driver;
}

static bool in_list(const char *s, const char *const *list, size_t n)
{
	for (size_t i = 0; s && i < n; i++)
		if (strcmp(s, list[i]) == 0)
			return true;
	return false;
}

/* Whether the whole disk `disk` is a hardware RAID volume that reports no stripe (see the top). */
static bool hides_topology(const char *disk)
{
	static const char *const raid_only[] = {"aacraid", "3w-9xxx", "3w-sas", "3w-xxxx", "arcmsr",
						"ips", "gdth", "megaraid", "megaraid_mbox"};
	static const char *const raid_capable[] = {"megaraid_sas", "hpsa", "smartpqi", "mpt3sas",
						   "mpt2sas", "mptsas"};
	char *driver = scsi_host_driver(disk);
	long long opt = -1;
	bool volume;

	if (in_list(driver, raid_only, sizeof(raid_only) / sizeof(raid_only[0])))
		volume = true;
	else if (!driver || in_list(driver, raid_capable, sizeof(raid_capable) / sizeof(raid_capable[0])))
		volume = model_names_volume(disk);
	else
		volume = false;
	if (volume && path_read_s64(&opt, SYSBLK "%s/queue/optimal_io_size", disk) == 0 && opt == 0) {
		DBG(DEBUG_PROBES, "stack: %s is a RAID volume (%s) with no optimal I/O size\n", disk,
		    driver ? driver : "model");
		free(driver);
		return true;
	}
	free(driver);
	return false;
}

static void set_members_and_hidden(struct facts *f, const char *disk)
{
	struct names leaves = {NULL, 0};
	bool hidden = false;

	collect_leaves(disk, 0, &leaves);
	if (leaves.n) {
		facts_set_strings(f, "device.members", (const char *const *)leaves.v, leaves.n, "sysfs");
		for (size_t i = 0; i < leaves.n && !hidden; i++) {
			char *leaf_disk = probe_whole_disk(leaves.v[i]);

			hidden = hides_topology(leaf_disk);
			free(leaf_disk);
		}
	} else {
		facts_set_unavailable(f, "device.members", FACTS_NOT_APPLICABLE,
				      "%s is not stacked on other block devices", disk);
		hidden = hides_topology(disk);
	}
	facts_set_bool(f, "device.topology_hidden", hidden, "sysfs");
	names_free(&leaves);
}

static void stack_collect(const struct probe_target *t, struct facts *f)
{
	const char *name = facts_get_string(f, "device.name");
	const char *disk = facts_get_string(f, "device.disk");
	struct names holders;
	char *name_copy, *disk_copy;
	int rc;

	if (!name || !disk)
		return; /* no device branch: sysfs_device said why */
	/* copies: the facts below may be rewritten while we read */
	name_copy = xstrdup(name);
	disk_copy = xstrdup(disk);
	rc = list_dir(name_copy, "holders", &holders);
	if (rc < 0) {
		char what[300];

		snprintf(what, sizeof(what), SYSBLK "%s/holders", name_copy);
		probe_unavailable_errno(f, "device.holders", -rc, what);
	} else if (holders.n) {
		facts_set_strings(f, "device.holders", (const char *const *)holders.v, holders.n,
				  "sysfs");
	} else {
		facts_set_json(f, "device.holders", json_array(), "sysfs"); /* nothing on top */
	}
	names_free(&holders);
	set_members_and_hidden(f, disk_copy);
	set_md(f, disk_copy);
	free(name_copy);
	free(disk_copy);
}

const struct probe_ops probe_stack = {
	.name = "stack",
	.needs_root = false,
	.collect = stack_collect,
};
