/* Attributes of the whole disk in sysfs (queue/scheduler, queue/read_ahead_kb, bdi/max_ratio,
 * md/stripe_cache_size, ...): echo into /sys/block/DISK/ATTR now, a udev rule to keep it (matched on
 * the disk's stable identity), and the file read back. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "fstune/shell.h"
#include "rules/settings_family.h"
#include "rules/settings_forms.h"

/* Kernel device names as sysfs shows them; anything else could walk out of /sys/block. */
static bool is_device_name(const char *s)
{
	return s && *s && *s != '.' && strlen(s) < 64 &&
	       strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.:!+-") ==
		       strlen(s);
}

/* The udev rule setting attribute `s->key` to `v` on `disk` (NULL: a rule naming DISK for the
 * admin to replace, the facts naming no device). */
static json_t *udev_form(const struct setting *s, const struct facts *facts, const char *disk,
			 const char *v)
{
	char *match, *comment, *line;
	json_t *form;

	if (disk) {
		match = settings_udev_match(facts, disk, &comment);
	} else {
		match = xstrdup("KERNEL==\"DISK\"");
		comment = xstrdup("# Replace DISK with the disk's kernel name (or match its ID_SERIAL_SHORT): "
				  "the facts name no device.");
	}
	line = xasprintf("%s%sACTION==\"add|change\", SUBSYSTEM==\"block\", %s, ATTR{%s}=\"%s\"",
			 comment ? comment : "", comment ? "\n" : "", match, s->key, v);
	form = settings_file_line("udev", SETTINGS_UDEV_FILE, line);
	free(comment);
	free(match);
	free(line);
	return form;
}

static void build_sysfs(const struct setting *s, struct setting_ctx *c)
{
	char *disk = settings_disk_name(c->facts);
	char *v, *path, *qpath;

	if (disk && !is_device_name(disk)) {
		snprintf(c->err, sizeof(c->err), "%s needs device.disk, a kernel device name, in the facts",
			 s->name);
		free(disk);
		return;
	}
	v = settings_value_text(c->value);
	if (!settings_udev_safe(v)) {
		snprintf(c->err, sizeof(c->err), "%s: value not representable in a udev rule", s->name);
		free(v);
		free(disk);
		return;
	}
	/* No device named at all: the finding stands, the command fails until the admin names it. */
	path = disk ? xasprintf("/sys/block/%s/%s", disk, s->key) : NULL;
	qpath = path ? fst_shell_quote(path) : xasprintf("\"/sys/block/${DISK:?}/%s\"", s->key);
	settings_echo_value(c->apply, c->revert, c->value, c->current, qpath);
	c->persistent = udev_form(s, c->facts, disk, v);
	free(disk);
	free(v);
	free(path);
	free(qpath);
}

/* The scheduler's file shows every choice, the one in use bracketed: sed picks that one. */
static bool read_sysfs(const struct setting *s, const struct facts *facts, const json_t *current,
		       char **cmd, char **recorded)
{
	char *disk, *path, *q, *c;

	if (!current)
		return false;
	disk = settings_disk_name(facts);
	if (!disk || !is_device_name(disk)) {
		free(disk);
		return false;
	}
	path = xasprintf("/sys/block/%s/%s", disk, s->key);
	q = fst_shell_quote(path);
	c = !strcmp(s->key, "queue/scheduler") ? xasprintf("sed -n 's/.*\\[\\(.*\\)\\].*/\\1/p' %s", q)
						: xasprintf("cat %s", q);
	free(disk);
	free(path);
	free(q);
	return settings_read_value(c, current, cmd, recorded);
}

const struct setting_family setting_family_sysfs = {
	.name = "sysfs",
	.build = build_sysfs,
	.read = read_sysfs,
	.persistent_file = SETTINGS_UDEV_FILE,
	.host_wide = true,
};
