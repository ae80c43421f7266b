/* What the setting builders read from the facts to name things in a command: the device's and the
 * mount point's shell words, the whole disk's kernel name, the stable udev identity of a disk for a
 * persistent rule, what the target filesystem is (ext, the root one), the mount command that puts a
 * filesystem back as the probe found it (an fstab entry for it may not exist) and the offline change
 * around it, and whether mkfs must be forced over the filesystem found. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "fstune/fstype.h"
#include "fstune/shell.h"
#include "rules/settings.h"
#include "rules/settings_forms.h"

char *settings_path_word(const struct facts *facts, const char *key, const char *unnamed)
{
	char *p = facts_get_bytes(facts, key), *w; /* the bytes the machine named it by, not their escape */

	w = p && *p == '/' ? fst_shell_quote(p) : xstrdup(unnamed);
	free(p);
	return w;
}

char *settings_device_word(const struct facts *facts)
{
	return settings_path_word(facts, "device.path", "\"${DEVICE:?}\"");
}

char *settings_mount_word(const struct facts *facts)
{
	return settings_path_word(facts, "fs.mount_point", "\"${MOUNTPOINT:?}\"");
}

bool settings_is_root_mount(const struct facts *facts)
{
	const char *mp = facts_get_string(facts, "fs.mount_point");

	return mp && !strcmp(mp, "/");
}

bool settings_is_ext_target(const struct setting *s, struct setting_ctx *c)
{
	if (c->fs && !fstype_is_ext(c->fs)) {
		snprintf(c->err, sizeof(c->err), "%s applies to ext2/3/4, not %.32s", s->name, c->fs);
		return false;
	}
	return true;
}

/* A udev value may not contain a double quote or a backslash; sysfs names never do. */
bool settings_udev_safe(const char *s)
{
	return s && !strpbrk(s, "\"\\\n") && strlen(s) < 128;
}

/* The identities a udev rule can match, strongest first. Each names the exact property its value
 * came from: ENV{ID_SERIAL_SHORT} never matches a value that was ID_SERIAL. A fixed property
 * (MD_UUID, DM_UUID) needs no name fact. */
static const struct {
	const char *value_key, *property_key, *property;
} identities[] = {
	{"device.serial", "device.serial_udev_property", NULL},
	{"device.wwn", "device.wwn_udev_property", NULL},
	{"device.md_uuid", NULL, "MD_UUID"},
	{"device.dm_uuid", NULL, "DM_UUID"},
};

char *settings_udev_match(const struct facts *facts, const char *disk, char **comment)
{
	static const char *const known[] = {"ID_SERIAL_SHORT", "ID_SERIAL", "ID_WWN_WITH_EXTENSION",
					    "ID_WWN", NULL};
	const char *unnamed = NULL;

	*comment = NULL;
	for (size_t i = 0; i < sizeof(identities) / sizeof(identities[0]); i++) {
		const char *v = facts_get_string(facts, identities[i].value_key);
		const char *prop = identities[i].property;

		if (!v || !*v || !settings_udev_safe(v))
			continue;
		if (!prop) {
			const char *named = facts_get_string(facts, identities[i].property_key);

			for (const char *const *k = known; named && *k; k++)
				if (!strcmp(named, *k))
					prop = *k;
		}
		if (prop)
			return xasprintf("ENV{DEVTYPE}==\"disk\", ENV{%s}==\"%s\"", prop, v);
		if (!unnamed)
			unnamed = identities[i].value_key;
	}
	if (unnamed)
		*comment = xasprintf("# Keyed on the kernel name: the facts give %s but not the udev property "
				     "it came from. The name can move to another disk at the next boot.",
				     unnamed);
	else
		*comment = xstrdup("# Keyed on the kernel name: the facts give no serial, WWN or array UUID. "
				   "The name can move to another disk at the next boot.");
	return xasprintf("KERNEL==\"%s\"", disk);
}

/* Whether option `s` is one `drop` names: "name" exactly, or "name=" for any value of it. */
static bool is_dropped(const char *s, const char *const *drop)
{
	for (; drop && *drop; drop++) {
		size_t n = strlen(*drop);

		if ((*drop)[n - 1] == '=' ? !strncmp(s, *drop, n) : !strcmp(s, *drop))
			return true;
	}
	return false;
}

/* Adds the comma-separated items of `opts` to `acc` (a growing "a,b" list), skipping duplicates,
 * those `drop` names, and the read-write flag, which `mount` takes from the per-mount options
 * already. */
static void add_options(char **acc, const json_t *list, bool is_super, const char *const *drop)
{
	size_t i;
	json_t *o;

	json_array_foreach(list, i, o) {
		const char *s = json_string_value(o);
		size_t n = s ? strlen(s) : 0;
		bool dup = false;

		if (!n || (is_super && (!strcmp(s, "rw") || !strcmp(s, "ro"))) || is_dropped(s, drop))
			continue;
		for (const char *p = *acc; (p = strstr(p, s)); p += n)
			if ((p == *acc || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
				dup = true;
		if (dup)
			continue;
		*acc = xrealloc(*acc, strlen(*acc) + n + 2);
		if (**acc)
			strcat(*acc, ",");
		strcat(*acc, s);
	}
}

char *settings_mount_back_as(const struct facts *facts, const char *mnt, const char *type,
			     const char *const *drop, const char *add)
{
	char *opts = xstrdup(""), *dev = settings_device_word(facts), *out, *qt = NULL, *qo = NULL;
	json_t *extra = add ? json_pack("[s]", add) : NULL;

	if (!type)
		type = facts_get_string(facts, "fs.type");
	add_options(&opts, facts_get(facts, "fs.mount_options"), false, drop);
	add_options(&opts, facts_get(facts, "fs.super_options"), true, drop);
	if (extra)
		add_options(&opts, extra, false, NULL);
	if (type && *type)
		qt = fst_shell_quote(type);
	if (*opts)
		qo = fst_shell_quote(opts);
	out = xasprintf("mount%s%s%s%s %s %s", qt ? " -t " : "", qt ? qt : "", qo ? " -o " : "",
			qo ? qo : "", dev, mnt);
	json_decref(extra);
	free(opts);
	free(dev);
	free(qt);
	free(qo);
	return out;
}

char *settings_mount_back(const struct facts *facts, const char *mnt)
{
	return settings_mount_back_as(facts, mnt, NULL, NULL, NULL);
}

void settings_offline_wrap(struct setting_ctx *c, json_t *arr, const char *const *cmds, size_t n,
			   const char *type, const char *const *drop, const char *add)
{
	const char *mp = facts_get_string(c->facts, "fs.mount_point");
	char *mnt = mp ? settings_mount_word(c->facts) : NULL;

	if (mnt)
		settings_add_cmd(arr, "umount %s", mnt);
	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr, json_string(cmds[i]));
	if (mnt) {
		char *back = settings_mount_back_as(c->facts, mnt, type, drop, add);

		json_array_append_new(arr, json_string(back));
		free(back);
	}
	free(mnt);
}

/* The whole disk of partition `name`, as the kernel names them: sda1 -> sda, vdb2 -> vdb,
 * nvme0n1p1 -> nvme0n1, mmcblk0p2 -> mmcblk0; a name that is not a partition's comes back as is. */
static char *whole_disk_of(const char *name)
{
	size_t n = strlen(name), digits = 0;

	while (digits < n && isdigit((unsigned char)name[n - 1 - digits]))
		digits++;
	if (!digits || digits == n)
		return xstrdup(name);
	if (name[n - digits - 1] == 'p' && n - digits >= 2 && isdigit((unsigned char)name[n - digits - 2]))
		return xstrndup(name, n - digits - 1);
	if (isalpha((unsigned char)name[n - digits - 1]) &&
	    (!strncmp(name, "sd", 2) || !strncmp(name, "vd", 2) || !strncmp(name, "hd", 2) ||
	     !strncmp(name, "xvd", 3)))
		return xstrndup(name, n - digits);
	return xstrdup(name);
}

char *settings_disk_name(const struct facts *facts)
{
	const char *disk = facts_get_string(facts, "device.disk");
	const char *name = facts_get_string(facts, "device.name");

	if (disk)
		return xstrdup(disk);
	return name && *name ? whole_disk_of(name) : NULL;
}

const char *settings_mkfs_force(const char *fs, const struct facts *facts)
{
	const char *cur = facts_get_string(facts, "fs.type");

	if (!cur || !*cur || !fs)
		return "";
	return !strcmp(fs, "xfs") || !strcmp(fs, "btrfs") ? " -f" : "";
}
