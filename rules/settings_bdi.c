/* The writeback and read-ahead limits of a backing device (bdi.max_ratio, bdi.strict_limit,
 * bdi.read_ahead_kb). A filesystem on one disk reads and writes through the disk's own bdi, a sysfs
 * attribute of the disk like any other (settings_sysfs.c: /sys/block/DISK/bdi/, a udev rule). btrfs
 * reads and writes through a bdi of its own, btrfs-N, which it sizes itself (read-ahead: 128 KiB per
 * device, at least 4 MiB: open_ctree in fs/btrfs/disk-io.c): the member disks' attributes change
 * nothing there. Its name changes at every mount (btrfs-85, then btrfs-86), so no udev rule can
 * match it; /sys/fs/btrfs/FSID/bdi points at the one in use. The command writes there; the way to
 * keep it is a oneshot service that the filesystem's mount unit pulls in at every mount (a mount
 * unit runs no command of its own: systemd.mount(5) has no ExecStartPost=), given as advice. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "fstune/shell.h"
#include "rules/settings_family.h"
#include "rules/settings_forms.h"

/* Where the unit that keeps it would go; fstune does not install it. */
#define UNIT_DIR "/etc/systemd/system"

/* A filesystem UUID as the kernel spells it in /sys/fs/btrfs: 36 characters of hex and dashes. */
static bool is_fsid(const char *s)
{
	return s && strlen(s) == 36 && strspn(s, "0123456789abcdef-") == 36;
}

/* The fsid of the btrfs whose own bdi the facts describe (vm.bdi.name btrfs-N), else NULL. */
static const char *own_bdi_fsid(const struct facts *facts)
{
	const char *type = facts_get_string(facts, "fs.type"), *name = facts_get_string(facts, "vm.bdi.name");

	if (!type || strcmp(type, "btrfs") || !name || strncmp(name, "btrfs-", 6))
		return NULL;
	return facts_get_string(facts, "fs.uuid");
}

/* systemd's name for the mount unit of `mp` (systemd-escape --path --suffix=mount): slashes become
 * dashes, and every byte other than [A-Za-z0-9:_.] (a leading dot too) is written \xNN. */
static char *mount_unit_name(const char *mp)
{
	size_t n = strlen(mp), o = 0;
	char *out = xcalloc(1, 4 * n + 8);

	while (n > 1 && mp[n - 1] == '/')
		n--;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)mp[i];

		if (ch == '/' && i == 0 && n > 1)
			continue;
		if (ch == '/')
			out[o++] = '-';
		else if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == ':' ||
			 ch == '_' || (ch == '.' && o > 0))
			out[o++] = (char)ch;
		else
			o += (size_t)sprintf(out + o, "\\x%02x", ch);
	}
	strcpy(out + o, ".mount");
	return out;
}

/* The unit that sets the attribute again at every mount of the filesystem, as advice. */
static json_t *unit_form(const struct setting *s, const struct setting_ctx *c, const char *fsid, const char *v)
{
	const char *mp = facts_get_string(c->facts, "fs.mount_point");
	char *mount_unit = mp && *mp == '/' ? mount_unit_name(mp) : xstrdup("MOUNTPOINT.mount");
	char *path = xasprintf(UNIT_DIR "/fstune-bdi-%s.service", fsid);
	char *line = xasprintf("# btrfs renames its bdi at every mount: no udev rule can match it. This unit sets\n"
			       "# %s again each time %s is mounted (systemctl enable it; mount units run no\n"
			       "# command of their own).\n"
			       "[Unit]\nDescription=%s of the btrfs %s (fstune)\nAfter=%s\nBindsTo=%s\n"
			       "[Service]\nType=oneshot\nExecStart=/bin/sh -c 'echo %s > /sys/fs/btrfs/%s/%s'\n"
			       "[Install]\nWantedBy=%s",
			       s->key, mp ? mp : "the filesystem", s->key, fsid, mount_unit, mount_unit, v, fsid, s->key,
			       mount_unit);
	json_t *form = settings_file_line("systemd.service", path, line);

	free(mount_unit);
	free(path);
	free(line);
	return form;
}

static void build_own_bdi(const struct setting *s, struct setting_ctx *c, const char *fsid)
{
	char *v = settings_value_text(c->value), *path = xasprintf("/sys/fs/btrfs/%s/%s", fsid, s->key);
	char *qpath = fst_shell_quote(path);

	settings_echo_value(c->apply, c->revert, c->value, c->current, qpath);
	c->persistent = unit_form(s, c, fsid, v);
	free(v);
	free(path);
	free(qpath);
}

static void build_bdi(const struct setting *s, struct setting_ctx *c)
{
	const char *fsid = own_bdi_fsid(c->facts);

	if (fsid && is_fsid(fsid))
		build_own_bdi(s, c, fsid);
	else if (fsid)
		snprintf(c->err, sizeof(c->err), "%s: fs.uuid is not a filesystem UUID", s->name);
	else if (!strcmp(s->key, "bdi/read_ahead_kb"))
		snprintf(c->err, sizeof(c->err), "%s is the read-ahead of a filesystem's own bdi (btrfs); a disk's "
			 "is queue.read_ahead_kb", s->name);
	else
		setting_family_sysfs.build(s, c);
}

static bool read_bdi(const struct setting *s, const struct facts *facts, const json_t *current, char **cmd,
		     char **recorded)
{
	const char *fsid = own_bdi_fsid(facts);
	char *path, *q, *c;

	if (!fsid)
		return setting_family_sysfs.read(s, facts, current, cmd, recorded);
	if (!is_fsid(fsid))
		return false;
	path = xasprintf("/sys/fs/btrfs/%s/%s", fsid, s->key);
	q = fst_shell_quote(path);
	c = xasprintf("cat %s", q);
	free(path);
	free(q);
	return settings_read_value(c, current, cmd, recorded);
}

const struct setting_family setting_family_bdi = {
	.name = "bdi",
	.build = build_bdi,
	.read = read_bdi,
	.persistent_file = SETTINGS_UDEV_FILE,
	.host_wide = true,
};
