/* The inventory of what can be examined: block devices (lsblk-like, from /sys/class/block) and mounted
 * filesystems (from mountinfo), each with whether and how it can be benchmarked (bench_can_run). Every
 * read goes through path.h and the device probe itself, so --sysroot shows the captured machine and
 * the columns agree with what probing the row shows. */
#include "config.h"

#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "fstune/bench.h"
#include "fstune/inventory.h"
#include "fstune/path.h"
#include "probes/mountinfo.h"
#include "probes/probe_util.h"
#include "probes/registry.h"

#define SYSBLK "/sys/class/block/"

/* Filesystems that hold no data an admin would tune. */
static bool is_pseudo_fs(const char *type)
{
	static const char *const pseudo[] = {
		"proc", "sysfs", "cgroup", "cgroup2", "devpts", "devtmpfs", "mqueue", "debugfs",
		"tracefs", "securityfs", "pstore", "bpf", "configfs", "fusectl", "hugetlbfs", "autofs",
		"binfmt_misc", "efivarfs", "rpc_pipefs", "nsfs", "ramfs", "selinuxfs", "overlay",
	};

	for (size_t i = 0; i < sizeof(pseudo) / sizeof(pseudo[0]); i++)
		if (strcmp(type, pseudo[i]) == 0)
			return true;
	return false;
}

static bool is_system_path(const char *mp)
{
	return mountinfo_path_has_prefix(mp, "/proc") || mountinfo_path_has_prefix(mp, "/sys") ||
	       mountinfo_path_has_prefix(mp, "/dev");
}

static struct inventory_row *add_row(struct inventory *t)
{
	t->v = xrealloc(t->v, (t->n + 1) * sizeof(*t->v));
	memset(&t->v[t->n], 0, sizeof(t->v[t->n]));
	t->v[t->n].size = -1;
	t->v[t->n].rotational = -1;
	return &t->v[t->n++];
}

/* Whether and how the row can be benchmarked: bench_can_run's answer for TARGET `arg` (a mount point
 * or a device node). */
static void judge(struct inventory_row *r, const char *arg)
{
	struct fst_error err = FST_ERROR_INIT;
	struct probe_target t;
	struct bench_plan plan;

	r->bench = BENCH_MODE_NONE;
	if (target_resolve(arg, &t, &err) != FST_EXIT_OK) {
		r->why = xstrdup(err.msg);
		return;
	}
	bench_can_run(&t, NULL, &plan);
	r->bench = plan.mode;
	r->why = xstrdup(plan.reason);
	bench_plan_free(&plan);
	target_free(&t);
}

/* The filesystem on an unmounted device, by its signature (live only). */
static char *blkid_type(const char *name)
{
	char dev[300];
	blkid_probe pr;
	const char *type = NULL;
	char *out = NULL;

	snprintf(dev, sizeof(dev), "/dev/%s", name);
	pr = blkid_new_probe_from_filename(dev);
	if (!pr)
		return NULL;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
	if (blkid_do_safeprobe(pr) == 0 && blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0)
		out = xstrdup(type);
	blkid_free_probe(pr);
	return out;
}

/* The device columns from facts: the device probe's, or a saved file's. */
static void fill_from_facts(struct inventory_row *r, const struct facts *f)
{
	const char *s;
	long long v;
	bool b;

	if (facts_get_int(f, "device.size_bytes", &v) || facts_get_int(f, "fs.size_bytes", &v))
		r->size = v;
	if ((s = facts_get_string(f, "device.model")))
		r->model = xstrdup(s);
	if ((s = facts_get_string(f, "device.transport")))
		r->transport = xstrdup(s);
	if (facts_get_bool(f, "device.rotational", &b))
		r->rotational = b;
}

/* The columns from the device probe, so they are the values Detected will show. */
static void fill_from_probe(struct inventory_row *r)
{
	struct probe_target pt = {0};
	struct facts *f = facts_new();
	char dev[300];

	snprintf(dev, sizeof(dev), "/dev/%s", r->name);
	pt.dev_name = r->name;
	pt.dev_path = dev;
	probe_sysfs_device.collect(&pt, f);
	fill_from_facts(r, f);
	facts_free(f);
}

static const struct mountinfo_entry *mount_of(const struct mountinfo *mi, const char *name)
{
	unsigned major, minor;
	const struct mountinfo_entry *m = NULL;
	char src[300];

	if (probe_devno_of(name, &major, &minor))
		m = mountinfo_by_devno(mi, major, minor);
	if (m)
		return m;
	/* btrfs mounts show an anonymous device number: match the source instead. */
	snprintf(src, sizeof(src), "/dev/%s", name);
	for (size_t i = mi->n; i-- > 0;)
		if (strcmp(mi->v[i].source, src) == 0)
			return &mi->v[i];
	return NULL;
}

static void scan_block(struct inventory *t, const struct mountinfo *mi, bool *used)
{
	size_t n;
	char **names = path_list_block(&n);

	for (size_t i = 0; i < n; i++) {
		long long sectors;
		const struct mountinfo_entry *m;
		struct inventory_row *r;
		bool is_part = path_exists(SYSBLK "%s/partition", names[i]);

		/* Unattached loop devices and empty drives have size 0. */
		if (path_read_s64(&sectors, SYSBLK "%s/size", names[i]) == 0 && sectors == 0)
			continue;
		r = add_row(t);
		r->name = xstrdup(names[i]);
		r->depth = is_part ? 1 : 0;
		fill_from_probe(r);
		m = mount_of(mi, names[i]);
		if (m) {
			used[m - mi->v] = true;
			r->fstype = xstrdup(m->fstype);
			r->mount_point = xstrdup(m->mount_point);
			r->arg = xstrdup(m->mount_point);
			judge(r, m->mount_point);
		} else {
			/* Signatures are read later (inventory_idle): on slow or many devices that is
			 * most of the scan, and the first screen must not wait for it. */
			r->is_fs_pending = !path_is_sysroot();
			r->arg = path_is_sysroot() ? xstrdup(names[i]) : xasprintf("/dev/%s", names[i]);
			judge(r, r->arg);
		}
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* Mounted filesystems without a block device of their own (tmpfs, NFS, ...), one row per mount
 * point, topmost mount only. */
static void scan_other_mounts(struct inventory *t, const struct mountinfo *mi, const bool *used)
{
	for (size_t i = 0; i < mi->n; i++) {
		const struct mountinfo_entry *m = &mi->v[i];
		struct inventory_row *r;
		bool is_hidden = false;

		if (used[i] || is_pseudo_fs(m->fstype) || is_system_path(m->mount_point) ||
		    strncmp(m->source, "/dev/", 5) == 0)
			continue;
		for (size_t j = i + 1; j < mi->n; j++)
			if (strcmp(mi->v[j].mount_point, m->mount_point) == 0)
				is_hidden = true;
		if (is_hidden)
			continue;
		r = add_row(t);
		r->name = xstrdup(m->source);
		r->fstype = xstrdup(m->fstype);
		r->mount_point = xstrdup(m->mount_point);
		r->arg = xstrdup(m->mount_point);
		judge(r, m->mount_point);
	}
}

static void add_directory_row(struct inventory *t)
{
	struct inventory_row *r = add_row(t);

	r->is_any_directory = true;
	r->why = xstrdup("type the path of any directory: its filesystem and the device under it");
	r->bench = BENCH_MODE_DIRECTORY;
}

void inventory_scan(struct inventory *t)
{
	struct mountinfo mi = {0};
	bool *used;

	inventory_free(t);
	mountinfo_load(&mi);
	used = xcalloc(mi.n + 1, sizeof(*used));
	scan_block(t, &mi, used);
	scan_other_mounts(t, &mi, used);
	add_directory_row(t);
	free(used);
	mountinfo_free(&mi);
}

bool inventory_idle(struct inventory *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].is_fs_pending) {
			t->v[i].fstype = blkid_type(t->v[i].name);
			t->v[i].is_fs_pending = false;
			return true;
		}
	return false;
}

void inventory_from_facts(struct inventory *t, const struct facts *f, const char *file)
{
	struct inventory_row *r;
	const char *s;

	inventory_free(t);
	r = add_row(t);
	s = facts_get_string(f, "device.name");
	r->name = xstrdup(s ? s : "(no device)");
	fill_from_facts(r, f);
	if ((s = facts_get_string(f, "fs.type")))
		r->fstype = xstrdup(s);
	if ((s = facts_get_string(f, "fs.mount_point")))
		r->mount_point = xstrdup(s);
	r->bench = BENCH_MODE_NONE;
	r->why = xasprintf("saved facts (%s): nothing is probed or run", file);
}

void inventory_free(struct inventory *t)
{
	for (size_t i = 0; i < t->n; i++) {
		struct inventory_row *r = &t->v[i];

		free(r->arg);
		free(r->name);
		free(r->model);
		free(r->transport);
		free(r->fstype);
		free(r->mount_point);
		free(r->why);
	}
	free(t->v);
	t->v = NULL;
	t->n = 0;
}
