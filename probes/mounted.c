/* A mounted filesystem as the kernel sees it now: statfs sizes and inode counts, the mount point and
 * options from mountinfo (through the target), the type when no signature probe could say it, and
 * whether systemd's periodic fstrim is enabled. Needs no privilege. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "lib/xalloc.h"
#include "fstune/bench.h"
#include "fstune/path.h"
#include "fstune/probe.h"
#include "probes/fs_common.h"
#include "probes/probe_util.h"
#include "probes/registry.h"

static const char *const statfs_keys[] = {"free_bytes", "inodes_free", NULL};

/* A comma-separated option string as a list; empty items dropped. */
static void set_option_list(struct facts *f, const char *key, const char *opts)
{
	json_t *list = json_array();
	char *copy = xstrdup(opts ? opts : ""), *save = NULL;

	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		json_array_append_new(list, json_string_nocheck(tok)); /* the facts escape what is not UTF-8 */
	free(copy);
	facts_set_json(f, key, list, "mountinfo");
}

/* Space held by fstune's own killed benchmark runs, which a run makes under the directory it measures:
 * the target directory, or the mount point (a mounted device, or an earlier run on the mount point). */
static void set_leftovers(const struct probe_target *t, struct facts *f)
{
	const char *dirs[2] = {t->kind == TARGET_DIRECTORY ? t->path : NULL, t->mount_point};
	uint64_t bytes = 0;

	for (size_t i = 0; i < 2; i++) {
		json_t *left;

		if (!dirs[i] || (i == 1 && dirs[0] && !strcmp(dirs[0], dirs[1])))
			continue;
		left = bench_leftovers_find(dirs[i]);
		bytes += bench_leftovers_bytes(left);
		json_decref(left);
	}
	facts_set_int(f, "fs.fstune_leftover_bytes", (long long)bytes, "statfs");
}

static void set_statfs(const struct probe_target *t, struct facts *f)
{
	const char *dir = t->kind == TARGET_DIRECTORY ? t->path : t->mount_point;
	struct statvfs sv;

	if (path_is_sysroot()) {
		fs_mark_unavailable(f, statfs_keys, FACTS_NOT_APPLICABLE,
				    "statfs reads the live host, not the --sysroot capture");
		return;
	}
	if (statvfs(dir, &sv) < 0) {
		int err = errno;

		for (const char *const *k = statfs_keys; *k; k++) {
			char key[64];

			snprintf(key, sizeof(key), "fs.%s", *k);
			probe_unavailable_errno(f, key, err, dir);
		}
		return;
	}
	/* the superblock probes said how the filesystem was made; statfs fills only what they could
	 * not read (no root), except the live counters below */
	if (!facts_has(f, "fs.block_size"))
		facts_set_int(f, "fs.block_size", (long long)sv.f_bsize, "statfs");
	if (!facts_has(f, "fs.size_bytes"))
		facts_set_int(f, "fs.size_bytes", (long long)(sv.f_blocks * sv.f_frsize), "statfs");
	facts_set_int(f, "fs.free_bytes", (long long)(sv.f_bavail * sv.f_frsize), "statfs");
	set_leftovers(t, f);
	if (sv.f_files == 0) {
		const char *type = fs_type(t, f);

		facts_set_unavailable(f, "fs.inode_count", FACTS_NOT_APPLICABLE,
				      "%s allocates inodes dynamically (statfs reports no limit)",
				      type ? type : "the filesystem");
		facts_set_unavailable(f, "fs.inodes_free", FACTS_NOT_APPLICABLE,
				      "%s allocates inodes dynamically (statfs reports no limit)",
				      type ? type : "the filesystem");
		return;
	}
	if (!facts_has(f, "fs.inode_count"))
		facts_set_int(f, "fs.inode_count", (long long)sv.f_files, "statfs");
	/* live: the superblock's free-inode count is stale while mounted */
	facts_set_int(f, "fs.inodes_free", (long long)sv.f_ffree, "statfs");
}

/* Where the fstrim.timer answer came from, in words, as fs.fstrim_timer_from. The probe reads the
 * unit files, never asks systemd; when systemd is not running (no /run/systemd/system, as
 * sd_booted() tests) the source "systemd" alone would read as if it had been asked. */
static void set_fstrim_from(struct facts *f, const char *what)
{
	bool is_running = path_exists("/run/systemd/system");
	char *t = xasprintf("%s%s", is_running ? "" : "systemd is not running: read from the unit files on disk, ",
			    what);

	facts_set_string(f, "fs.fstrim_timer_from", t, "systemd");
	free(t);
}

/* Whether fstrim.timer is enabled: an enablement link in a .wants directory of systemd's unit
 * search path, and no mask. Presets (system-preset/) only say what `systemctl preset` would do,
 * so they are not enablement. */
static void set_fstrim_timer(struct facts *f)
{
	static const char *const unit_dirs[] = {"/etc/systemd/system", "/run/systemd/system",
						"/usr/lib/systemd/system", "/lib/systemd/system"};
	static const char *const wants[] = {"timers.target.wants", "multi-user.target.wants",
					    "default.target.wants"};
	bool any_dir = false;

	for (size_t i = 0; i < 2; i++) {
		char *target = path_readlink("%s/fstrim.timer", unit_dirs[i]);

		if (target && strcmp(target, "/dev/null") == 0) {
			char *what = xasprintf("masked: %s/fstrim.timer links to /dev/null", unit_dirs[i]);

			free(target);
			facts_set_bool(f, "fs.fstrim_timer", false, "systemd");
			set_fstrim_from(f, what);
			free(what);
			return;
		}
		free(target);
	}
	for (size_t i = 0; i < sizeof(unit_dirs) / sizeof(unit_dirs[0]); i++) {
		if (!path_exists("%s", unit_dirs[i]))
			continue;
		any_dir = true;
		for (size_t w = 0; w < sizeof(wants) / sizeof(wants[0]); w++) {
			/* the link itself is the enablement: under --sysroot its absolute target
			 * does not resolve, so a dangling link counts */
			char *link = path_readlink("%s/%s/fstrim.timer", unit_dirs[i], wants[w]);
			bool enabled = link || path_exists("%s/%s/fstrim.timer", unit_dirs[i], wants[w]);

			free(link);
			if (enabled) {
				char *what = xasprintf("enabled by %s/%s/fstrim.timer", unit_dirs[i], wants[w]);

				facts_set_bool(f, "fs.fstrim_timer", true, "systemd");
				set_fstrim_from(f, what);
				free(what);
				return;
			}
		}
	}
	if (any_dir) {
		facts_set_bool(f, "fs.fstrim_timer", false, "systemd");
		set_fstrim_from(f, "no fstrim.timer link in a .wants directory of the unit directories");
	} else {
		facts_set_unavailable(f, "fs.fstrim_timer", FACTS_NOT_FOUND,
				      "no systemd unit directory (/etc/systemd/system): not a systemd host");
	}
}

static void mounted_collect(const struct probe_target *t, struct facts *f)
{
	if (fs_branch_absent(f))
		return;
	set_fstrim_timer(f);
	if (!t->is_mounted) {
		const char *type = facts_get_string(f, "fs.member_of.type");
		const char *mp = facts_get_string(f, "fs.member_of.mount_point");
		char member[600];
		const char *why = t->kind == TARGET_IMAGE ? "an image file" : "not mounted";

		if (type) {
			snprintf(member, sizeof(member), "not mounted through this device: a member of the %s%s%s "
				 "(fs.member_of)", type, mp ? " mounted on " : "", mp ? mp : "");
			why = member;
		}

		facts_set_unavailable(f, "fs.mount_point", FACTS_NOT_APPLICABLE, "%s", why);
		facts_set_unavailable(f, "fs.mount_options", FACTS_NOT_APPLICABLE, "%s", why);
		facts_set_unavailable(f, "fs.super_options", FACTS_NOT_APPLICABLE, "%s", why);
		facts_set_unavailable(f, "fs.free_bytes", FACTS_NOT_APPLICABLE, "%s", why);
		return;
	}
	if (!facts_has(f, "fs.type") && t->mount_fstype)
		facts_set_string(f, "fs.type", t->mount_fstype, "mountinfo");
	facts_set_string(f, "fs.mount_point", t->mount_point, "mountinfo");
	set_option_list(f, "fs.mount_options", t->mount_options);
	set_option_list(f, "fs.super_options", t->super_options);
	set_statfs(t, f);
}

const struct probe_ops probe_mounted = {
	.name = "mounted",
	.needs_root = false,
	.collect = mounted_collect,
};
