/* Membership: whether a block device belongs to a mounted filesystem that mountinfo does not name it
 * for. A btrfs mount carries an anonymous device number (0:NN) and a multi-device bcachefs only its
 * first member's, so their other members (for btrfs, every member) look unmounted; so does a leaf
 * under md or dm whose top is mounted. The kernel's own member lists decide, matched by the
 * filesystem UUID they are filed under: /sys/fs/btrfs/<uuid>/devices/<name>,
 * /sys/fs/bcachefs/<uuid>/dev-N/block, and holders/ up the stack. Works under --sysroot. */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/btrfs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "fstune/debug.h"
#include "fstune/path.h"
#include "fstune/probe.h"
#include "probes/btrfs_super.h"
#include "probes/fs_common.h"
#include "probes/mountinfo.h"
#include "probes/probe_util.h"
#include "probes/registry.h"

#define MAX_DEPTH 16 /* holders of holders: far deeper than any real stack */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_device(struct probe_membership *m, const char *name)
{
	m->devices = xrealloc(m->devices, (m->n_devices + 2) * sizeof(*m->devices));
	m->devices[m->n_devices++] = xstrdup(name);
	m->devices[m->n_devices] = NULL;
}

static bool has_device(const struct probe_membership *m, const char *name)
{
	for (size_t i = 0; i < m->n_devices; i++)
		if (strcmp(m->devices[i], name) == 0)
			return true;
	return false;
}

void probe_membership_free(struct probe_membership *m)
{
	for (size_t i = 0; i < m->n_devices; i++)
		free(m->devices[i]);
	free(m->devices);
	free(m->type);
	free(m->uuid);
	free(m->mount_point);
	free(m->via);
	memset(m, 0, sizeof(*m));
}

/* The last component of a path, copied. */
static char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return xstrdup(slash ? slash + 1 : path);
}

/* Whether the mount source names a member: "/dev/sdc1", or bcachefs's "/dev/sdc1:/dev/sdc2". */
static bool source_names_member(const struct probe_membership *m, const char *source)
{
	char *copy = xstrdup(source), *save = NULL;
	bool hit = false;

	for (char *tok = strtok_r(copy, ":", &save); tok && !hit; tok = strtok_r(NULL, ":", &save)) {
		char *base;

		if (strncmp(tok, "/dev/", 5) != 0)
			continue;
		base = base_of(tok);
		hit = has_device(m, base);
		free(base);
	}
	free(copy);
	return hit;
}

/* A live btrfs mount's own fsid, through BTRFS_IOC_FS_INFO (no privilege needed). */
static bool btrfs_mount_has_fsid(const char *dir, const char *uuid)
{
	struct btrfs_ioctl_fs_info_args info;
	char fsid[37];
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	bool ok;

	if (fd < 0)
		return false;
	memset(&info, 0, sizeof(info));
	ok = ioctl(fd, BTRFS_IOC_FS_INFO, &info) == 0;
	close(fd);
	if (!ok)
		return false;
	btrfs_super_format_uuid(info.fsid, fsid);
	return strcmp(fsid, uuid) == 0;
}

static bool mount_is_of(const struct mountinfo_entry *e, const struct probe_membership *m)
{
	char *name;
	bool hit;

	if (strcmp(e->fstype, m->type) != 0)
		return false;
	if (strcmp(m->type, "btrfs") == 0 && !path_is_sysroot() && btrfs_mount_has_fsid(e->mount_point, m->uuid))
		return true;
	name = e->major ? probe_devno_name(e->major, e->minor) : NULL;
	hit = (name && has_device(m, name)) || source_names_member(m, e->source);
	free(name);
	return hit;
}

/* The mount of the filesystem `m` describes: live btrfs by its fsid; otherwise (and under
 * --sysroot) a mount of that type whose device number or source names one of its members. The
 * topmost mount of its root wins; a system that mounts only subvolumes (root "/@") gives one of
 * those. */
static const struct mountinfo_entry *mount_of(const struct mountinfo *mi, const struct probe_membership *m)
{
	const struct mountinfo_entry *any = NULL;

	for (size_t i = mi->n; i-- > 0;) {
		const struct mountinfo_entry *e = &mi->v[i];

		if (strcmp(e->root, "/") != 0 && any)
			continue;
		if (!mount_is_of(e, m))
			continue;
		if (strcmp(e->root, "/") == 0)
			return e;
		any = e;
	}
	return any;
}

/* The members filed under /sys/fs/<type>/<uuid>: btrfs "devices/<name>" links, bcachefs
 * "dev-N/block" links to the member's block directory. */
static void list_members(struct probe_membership *m)
{
	DIR *d = strcmp(m->type, "btrfs") == 0 ? path_opendir("/sys/fs/btrfs/%s/devices", m->uuid)
					       : path_opendir("/sys/fs/bcachefs/%s", m->uuid);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char *canon;

		if (e->d_name[0] == '.')
			continue;
		if (strcmp(m->type, "btrfs") == 0) {
			add_device(m, e->d_name);
			continue;
		}
		if (strncmp(e->d_name, "dev-", 4) != 0)
			continue;
		canon = path_canonical("/sys/fs/bcachefs/%s/%s/block", m->uuid, e->d_name);
		if (canon) {
			char *name = base_of(canon);

			add_device(m, name);
			free(name);
			free(canon);
		}
	}
	if (d)
		closedir(d);
	if (m->n_devices)
		qsort(m->devices, m->n_devices, sizeof(*m->devices), cmp_str);
}

/* A btrfs or bcachefs (`type`) the kernel lists `name` under. */
static bool find_in_fs(const char *type, const char *name, const struct mountinfo *mi,
		       struct probe_membership *m)
{
	DIR *d = path_opendir("/sys/fs/%s", type);
	struct dirent *e;
	bool found = false;

	while (d && !found && (e = readdir(d))) {
		const struct mountinfo_entry *me;

		if (strlen(e->d_name) != 36) /* not a UUID: "features" and the like */
			continue;
		memset(m, 0, sizeof(*m));
		m->type = xstrdup(type);
		m->uuid = xstrdup(e->d_name);
		list_members(m);
		if (!has_device(m, name)) {
			probe_membership_free(m);
			continue;
		}
		found = true;
		me = mount_of(mi, m);
		if (me)
			m->mount_point = xstrdup(me->mount_point);
	}
	if (d)
		closedir(d);
	return found;
}

/* Up the stack through holders/: the first holder that is mounted, or a member of a filesystem
 * itself. `m->devices` are the mounted holder's direct slaves. */
static bool find_via_holders(const char *name, const struct mountinfo *mi, struct probe_membership *m,
			     int depth)
{
	DIR *d;
	struct dirent *e;
	bool found = false;

	if (depth > MAX_DEPTH || !(d = path_opendir("/sys/class/block/%s/holders", name)))
		return false;
	while (!found && (e = readdir(d))) {
		unsigned maj, min;
		const struct mountinfo_entry *me = NULL;

		if (e->d_name[0] == '.')
			continue;
		if (probe_devno_of(e->d_name, &maj, &min))
			me = mountinfo_by_devno(mi, maj, min);
		if (me) {
			DIR *s = path_opendir("/sys/class/block/%s/slaves", e->d_name);
			struct dirent *se;

			memset(m, 0, sizeof(*m));
			m->type = xstrdup(me->fstype);
			m->mount_point = xstrdup(me->mount_point);
			while (s && (se = readdir(s)))
				if (se->d_name[0] != '.')
					add_device(m, se->d_name);
			if (s)
				closedir(s);
			if (m->n_devices)
				qsort(m->devices, m->n_devices, sizeof(*m->devices), cmp_str);
			found = true;
		} else {
			found = find_in_fs("btrfs", e->d_name, mi, m) || find_in_fs("bcachefs", e->d_name, mi, m) ||
				find_via_holders(e->d_name, mi, m, depth + 1);
		}
		if (found && !m->via)
			m->via = xstrdup(e->d_name);
	}
	closedir(d);
	return found;
}

bool probe_membership_find(const char *name, struct probe_membership *m)
{
	struct mountinfo mi = {NULL, 0};
	bool found;

	memset(m, 0, sizeof(*m));
	if (!name)
		return false;
	mountinfo_load(&mi);
	found = find_in_fs("btrfs", name, &mi, m) || find_in_fs("bcachefs", name, &mi, m) ||
		find_via_holders(name, &mi, m, 0);
	mountinfo_free(&mi);
	if (found)
		DBG(DEBUG_PROBES, "member: %s is a member of the %s %s mounted on %s%s%s", name, m->type,
		    m->uuid ? m->uuid : "", m->mount_point ? m->mount_point : "(no mount here)",
		    m->via ? " via " : "", m->via ? m->via : "");
	return found;
}

/* An md or LUKS member carries a signature that is not a filesystem, which the blkid probe records
 * as a missing "fs" branch; a member has a filesystem above it, so the branch is kept, with the
 * reason on fs.type instead. */
static void keep_fs_branch(struct facts *f)
{
	enum facts_status status;
	const char *reason;
	char *why;

	if (!fs_branch_absent(f) || !facts_unavailable(f, "fs", &status, &reason))
		return;
	why = xstrdup(reason);
	facts_remove(f, "fs");
	facts_set_unavailable(f, "fs.type", status, "%s", why);
	free(why);
}

static void member_collect(const struct probe_target *t, struct facts *f)
{
	struct probe_membership m;
	const char *type;

	if (t->kind != TARGET_BLOCKDEV || !t->dev_name || !probe_membership_find(t->dev_name, &m))
		return;
	keep_fs_branch(f);
	facts_set_string(f, "fs.member_of.type", m.type, m.uuid ? "sysfs" : "mountinfo");
	if (m.uuid)
		facts_set_string(f, "fs.member_of.uuid", m.uuid, "sysfs");
	facts_set_strings(f, "fs.member_of.devices", (const char *const *)m.devices, m.n_devices, "sysfs");
	if (m.mount_point)
		facts_set_string(f, "fs.member_of.mount_point", m.mount_point, "mountinfo");
	else
		facts_set_unavailable(f, "fs.member_of.mount_point", FACTS_NOT_FOUND,
				      "the kernel lists the %s %s as open, but no mount of it is in this mount "
				      "namespace's mountinfo", m.type, m.uuid ? m.uuid : "");
	/* without a readable signature (no root), the kernel's list says what the device carries */
	type = facts_get_string(f, "fs.type");
	if (!type && m.uuid && !m.via)
		facts_set_string(f, "fs.type", m.type, "sysfs");
	/* an unmounted superblock knows only how many devices there are; the kernel's list names them */
	type = facts_get_string(f, "fs.type");
	if (m.uuid && !m.via && type && strcmp(type, m.type) == 0 && !facts_has(f, "fs.devices"))
		facts_set_strings(f, "fs.devices", (const char *const *)m.devices, m.n_devices, "sysfs");
	probe_membership_free(&m);
}

const struct probe_ops probe_member = {
	.name = "member",
	.needs_root = false,
	.collect = member_collect,
};
