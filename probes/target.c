/* Resolves TARGET (a directory, a block device, an image file; under --sysroot a device name or a
 * path inside the captured machine) to its mount and its block device (probe.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "fstune/debug.h"
#include "fstune/path.h"
#include "fstune/probe.h"
#include "probes/mountinfo.h"
#include "probes/probe_util.h"

#define ACCEPTED "give a directory, a block device or a filesystem image file"

static void fill_mount(struct probe_target *t, const struct mountinfo_entry *e)
{
	t->is_mounted = true;
	t->mount_id = e->id;
	t->mount_point = xstrdup(e->mount_point);
	t->mount_root = xstrdup(e->root);
	t->mount_options = xstrdup(e->options);
	t->mount_fstype = xstrdup(e->fstype);
	t->mount_source = xstrdup(e->source);
	t->super_options = xstrdup(e->super_options);
}

static bool set_device(struct probe_target *t, unsigned major, unsigned minor)
{
	char *name = probe_devno_name(major, minor);

	if (!name)
		return false;
	t->dev_name = name;
	if (!t->dev_path)
		t->dev_path = xasprintf("/dev/%s", name);
	t->devno = makedev(major, minor);
	return true;
}

static bool is_network_fs(const char *fstype)
{
	static const char *const net[] = {"nfs", "nfs4", "cifs", "smb3", "smbfs", "ceph", "glusterfs",
					  "9p", "afs", "lustre", "fuse.sshfs", "fuse.glusterfs"};

	for (size_t i = 0; i < sizeof(net) / sizeof(net[0]); i++)
		if (strcmp(fstype, net[i]) == 0)
			return true;
	return false;
}

/* For a mount without a block device of its own: why, in a few words. */
static void set_no_device(struct probe_target *t, const struct mountinfo_entry *e)
{
	if (strcmp(e->fstype, "btrfs") == 0)
		t->no_device_reason = xstrdup(
			"btrfs: st_dev is an anonymous device number; its devices are in fs.devices");
	else if (is_network_fs(e->fstype))
		t->no_device_reason = xasprintf("%s (network)", e->fstype);
	else if (e->major == 0)
		t->no_device_reason = xstrdup(e->fstype);
	else
		t->no_device_reason = xasprintf("%s: no /sys/dev/block/%u:%u", e->fstype, e->major,
						e->minor);
}

static int load_mounts(struct mountinfo *mi, struct fst_error *err)
{
	int rc = mountinfo_load(mi);

	if (rc < 0) {
		char *p = path_resolve("/proc/self/mountinfo");

		fst_error_set(err, FST_EXIT_USAGE, "cannot read %s: %s", p, path_strerror(-rc));
		free(p);
		return FST_EXIT_USAGE;
	}
	return FST_EXIT_OK;
}

/* A directory's mount and device; `e` is its mountinfo entry (may be NULL when mountinfo has no
 * mount holding it, which only a broken capture can produce). */
static void resolve_mount_device(struct probe_target *t, const struct mountinfo_entry *e)
{
	if (!e) {
		t->no_device_reason = xstrdup("no mount in mountinfo");
		return;
	}
	fill_mount(t, e);
	if (strcmp(e->fstype, "btrfs") == 0 || e->major == 0 || !set_device(t, e->major, e->minor))
		set_no_device(t, e);
}

static const struct mountinfo_entry *mount_of_dir(const struct mountinfo *mi, const char *path)
{
#if defined(HAVE_DECL_STATX_MNT_ID) && HAVE_DECL_STATX_MNT_ID
	struct statx stx;

	if (statx(AT_FDCWD, path, 0, STATX_MNT_ID, &stx) == 0 && (stx.stx_mask & STATX_MNT_ID)) {
		const struct mountinfo_entry *e = mountinfo_by_id(mi, (int)stx.stx_mnt_id);

		if (e)
			return e;
		DBG(DEBUG_PROBES, "target: mount ID %llu of %s not in mountinfo; longest prefix",
		    (unsigned long long)stx.stx_mnt_id, path);
	}
#endif
	return mountinfo_longest_prefix(mi, path);
}

static int resolve_live(struct probe_target *t, struct fst_error *err)
{
	struct stat st;
	struct mountinfo mi;
	int rc;

	if (stat(t->arg, &st) < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return fst_error_set(err, FST_EXIT_USAGE, "TARGET '%s' does not exist; " ACCEPTED,
					     t->arg);
		return fst_error_set(err, FST_EXIT_USAGE, "cannot access TARGET '%s': %s", t->arg,
				     strerror(errno));
	}
	if (S_ISCHR(st.st_mode))
		return fst_error_set(err, FST_EXIT_USAGE,
				     "TARGET '%s' is a character device, not a block device; " ACCEPTED,
				     t->arg);
	if (S_ISFIFO(st.st_mode))
		return fst_error_set(err, FST_EXIT_USAGE, "TARGET '%s' is a FIFO; " ACCEPTED, t->arg);
	if (S_ISSOCK(st.st_mode))
		return fst_error_set(err, FST_EXIT_USAGE, "TARGET '%s' is a socket; " ACCEPTED, t->arg);
	if (!S_ISDIR(st.st_mode) && !S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode))
		return fst_error_set(err, FST_EXIT_USAGE, "TARGET '%s' is not a file fstune can probe; " ACCEPTED,
				     t->arg);

	t->path = realpath(t->arg, NULL);
	if (!t->path)
		return fst_error_set(err, FST_EXIT_USAGE, "cannot resolve TARGET '%s': %s", t->arg,
				     strerror(errno));
	if (S_ISREG(st.st_mode)) {
		t->kind = TARGET_IMAGE;
		t->no_device_reason = xstrdup("image file");
		return FST_EXIT_OK;
	}
	rc = load_mounts(&mi, err);
	if (rc)
		return rc;
	if (S_ISDIR(st.st_mode)) {
		t->kind = TARGET_DIRECTORY;
		resolve_mount_device(t, mount_of_dir(&mi, t->path));
	} else {
		const struct mountinfo_entry *e;

		t->kind = TARGET_BLOCKDEV;
		t->dev_path = xstrdup(t->path);
		if (!set_device(t, major(st.st_rdev), minor(st.st_rdev))) {
			mountinfo_free(&mi);
			return fst_error_set(err, FST_EXIT_USAGE,
					     "TARGET '%s' is block device %u:%u, which the kernel does not "
					     "list in /sys/dev/block; " ACCEPTED,
					     t->arg, major(st.st_rdev), minor(st.st_rdev));
		}
		e = mountinfo_by_devno(&mi, major(st.st_rdev), minor(st.st_rdev));
		if (e)
			fill_mount(t, e);
	}
	mountinfo_free(&mi);
	return FST_EXIT_OK;
}

/* Under --sysroot: "/dev/NAME" or "NAME" names a block device of the capture (path.h finds it in a
 * capture without sys/class/block too); an absolute path is a directory inside it. Only files below
 * the sysroot are read. */
static int resolve_sysroot(struct probe_target *t, struct fst_error *err)
{
	const char *name = NULL;
	struct mountinfo mi;
	int rc;

	if (strncmp(t->arg, "/dev/", 5) == 0)
		name = t->arg + 5;
	else if (!strchr(t->arg, '/'))
		name = t->arg;

	if (name) {
		unsigned maj, min;
		const struct mountinfo_entry *e;

		if (!*name || !path_exists("/sys/class/block/%s", name))
			return fst_error_set(err, FST_EXIT_USAGE,
					     "no block device '%s' in %s (sys/class/block, sys/block, "
					     "sys/dev/block); under --sysroot TARGET is a device name or an "
					     "absolute path",
					     name, path_sysroot());
		if (!probe_devno_of(name, &maj, &min))
			return fst_error_set(err, FST_EXIT_USAGE,
					     "%s/sys/class/block/%s/dev is missing or not MAJOR:MINOR",
					     path_sysroot(), name);
		t->kind = TARGET_BLOCKDEV;
		t->path = xasprintf("/dev/%s", name);
		t->dev_path = xstrdup(t->path);
		t->dev_name = xstrdup(name);
		t->devno = makedev(maj, min);
		if (mountinfo_load(&mi) == 0) {
			e = mountinfo_by_devno(&mi, maj, min);
			if (e)
				fill_mount(t, e);
			mountinfo_free(&mi);
		}
		return FST_EXIT_OK;
	}

	if (t->arg[0] != '/')
		return fst_error_set(err, FST_EXIT_USAGE,
				     "under --sysroot TARGET '%s' must be a device name or an absolute path",
				     t->arg);
	rc = load_mounts(&mi, err);
	if (rc)
		return rc;
	t->kind = TARGET_DIRECTORY;
	t->path = xstrdup(t->arg);
	for (size_t n = strlen(t->path); n > 1 && t->path[n - 1] == '/'; n--)
		t->path[n - 1] = '\0';
	resolve_mount_device(t, mountinfo_longest_prefix(&mi, t->path));
	mountinfo_free(&mi);
	if (!t->is_mounted)
		return fst_error_set(err, FST_EXIT_USAGE, "no mount holds '%s' in %s/proc/self/mountinfo",
				     t->arg, path_sysroot());
	return FST_EXIT_OK;
}

int target_resolve(const char *arg, struct probe_target *t, struct fst_error *err)
{
	int rc;

	memset(t, 0, sizeof(*t));
	if (arg && !*arg)
		return fst_error_set(err, FST_EXIT_USAGE, "TARGET is empty; " ACCEPTED);
	t->arg = xstrdup(arg ? arg : path_is_sysroot() ? "/" : ".");
	rc = path_is_sysroot() ? resolve_sysroot(t, err) : resolve_live(t, err);
	if (rc != FST_EXIT_OK) {
		target_free(t); /* a failed resolution leaves nothing to free */
		return rc;
	}
	DBG(DEBUG_PROBES, "target: %s -> kind %d, path %s, mount %s (%s), device %s%s%s", t->arg,
	    (int)t->kind, t->path, t->mount_point ? t->mount_point : "-",
	    t->mount_fstype ? t->mount_fstype : "-", t->dev_name ? t->dev_name : "-",
	    t->no_device_reason ? ": " : "", t->no_device_reason ? t->no_device_reason : "");
	return rc;
}

void target_free(struct probe_target *t)
{
	if (!t)
		return;
	free(t->arg);
	free(t->path);
	free(t->mount_point);
	free(t->mount_root);
	free(t->mount_options);
	free(t->mount_fstype);
	free(t->mount_source);
	free(t->super_options);
	free(t->dev_name);
	free(t->dev_path);
	free(t->no_device_reason);
	memset(t, 0, sizeof(*t));
}
