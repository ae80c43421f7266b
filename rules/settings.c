/* The setting table: every setting a rule may recommend, declared once as data (type, range,
 * disruption, where its current value lives) with the builder that turns a validated value into the
 * exact shell-quoted commands an admin runs, their persistent form and their revert. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/facts_schema.h"
#include "lib/xalloc.h"
#include "fstune/fstype.h"
#include "rules/internal.h"
#include "rules/settings.h"
#include "fstune/shell.h"

#define SYSCTL_D_FILE "/etc/sysctl.d/60-fstune.conf"
/* After 60-persistent-storage.rules and mdadm's 63-md-raid-arrays.rules, which set the ID_*, MD_*
 * and DM_* properties the rules match on. */
#define UDEV_FILE "/etc/udev/rules.d/69-fstune.rules"

/* A value as text: integers exactly, reals shortest, strings verbatim, booleans 1/0. */
static char *value_text(const json_t *v)
{
	if (json_is_integer(v))
		return xasprintf("%lld", (long long)json_integer_value(v));
	if (json_is_real(v))
		return xasprintf("%.15g", json_real_value(v));
	if (json_is_boolean(v))
		return xstrdup(json_is_true(v) ? "1" : "0");
	if (json_is_string(v))
		return xstrdup(json_string_value(v));
	return xstrdup("");
}

static void add_cmd(json_t *arr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_cmd(json_t *arr, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	json_array_append_new(arr, json_string(s));
	free(s);
}

/* Kernel device names as sysfs shows them; anything else could walk out of /sys/block. */
static bool is_device_name(const char *s)
{
	return s && *s && *s != '.' && strlen(s) < 64 &&
	       strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.:!+-") ==
		       strlen(s);
}

static char *mount_word(const struct facts *facts)
{
	const char *p = facts_get_string(facts, "fs.mount_point");

	return p && *p == '/' ? fst_shell_quote(p) : xstrdup("\"${MOUNTPOINT:?}\"");
}

static json_t *persistent_line(const char *kind, const char *path, const char *line)
{
	return json_pack("{s:s, s:s, s:s}", "kind", kind, "path", path, "line", line);
}

/* An fstab change in words, with the machine-readable part beside it: `field` ("option" or "type")
 * set to `value`. */
static json_t *fstab_change(const char *field, const char *value, const char *line)
{
	return json_pack("{s:s, s:s, s:s, s:s}", "kind", "fstab", "path", "/etc/fstab", field, value,
			 "line", line);
}

/* Linux sysctl: runtime `sysctl -w`, a sysctl.d line, revert to the current value or, for a bytes
 * sysctl whose ratio counterpart was in effect, back to that ratio (writing one zeroes the other). */
static void build_sysctl(const struct setting *s, struct setting_ctx *c)
{
	char *v = value_text(c->value), *line;
	long long cur = -1, alt = 0;

	add_cmd(c->apply, "sysctl -w %s=%s", s->key, v);
	line = xasprintf("%s = %s", s->key, v);
	c->persistent = persistent_line("sysctl.d", SYSCTL_D_FILE, line);
	if (json_is_integer(c->current))
		cur = json_integer_value(c->current);
	if (s->alt && cur <= 0 && facts_get_int(c->facts, s->alt, &alt) && alt > 0)
		add_cmd(c->revert, "sysctl -w %s=%lld", s->alt, alt);
	else if (c->current)
		add_cmd(c->revert, "sysctl -w %s=%s", s->key, (free(v), v = value_text(c->current)));
	free(v);
	free(line);
}

static void build_freebsd_sysctl(const struct setting *s, struct setting_ctx *c)
{
	char *v = value_text(c->value), *line = xasprintf("%s=%s", s->key, v);

	add_cmd(c->apply, "sysctl %s=%s", s->key, v);
	c->persistent = persistent_line("sysctl.conf", "/etc/sysctl.conf", line);
	if (c->current) {
		free(v);
		v = value_text(c->current);
		add_cmd(c->revert, "sysctl %s=%s", s->key, v);
	}
	free(v);
	free(line);
}

/* FreeBSD boot-time tunable, effective after a reboot. A value: nothing to run now, a loader.conf
 * line to add. 0 (zero_unsets): the apply deletes the line, and its absence is the persistent form.
 * The revert deletes the line and, when the old value was an override, appends it again. */
static void build_loader(const struct setting *s, struct setting_ctx *c)
{
	char *v = value_text(c->value), *del, *pat = xmalloc(4 * strlen(s->key) + 1), *p = pat;
	long long cur = json_is_integer(c->current) ? json_integer_value(c->current) : 0;
	bool unset = s->zero_unsets && json_is_number(c->value) && json_number_value(c->value) == 0;

	for (const char *k = s->key; *k; k++) /* a literal dot in the sed address */
		p += *k == '.' ? (size_t)sprintf(p, "[.]") : (size_t)sprintf(p, "%c", *k);
	del = xasprintf("sed -i '' '/^[[:space:]]*%s[[:space:]]*=/d' /boot/loader.conf", pat);
	if (unset) {
		json_array_append_new(c->apply, json_string(del));
	} else {
		char *line = xasprintf("%s=\"%s\"", s->key, v);

		c->persistent = persistent_line("loader.conf", "/boot/loader.conf", line);
		free(line);
	}
	if (!unset || cur > 0) /* unsetting an unknown or absent override has nothing to restore */
		json_array_append_new(c->revert, json_string(del));
	if (cur > 0)
		add_cmd(c->revert, "echo '%s=\"%lld\"' >> /boot/loader.conf", s->key, cur);
	free(pat);
	free(del);
	free(v);
}

/* A sysfs attribute of the whole disk (queue/scheduler, bdi/max_ratio): echo now, a udev rule to
 * persist, echo the current value back to revert. */
static void build_sysfs(const struct setting *s, struct setting_ctx *c)
{
	char *disk = settings_disk_name(c->facts);
	char *v, *qv, *path, *qpath, *match, *line, *comment;

	if (disk && !is_device_name(disk)) {
		snprintf(c->err, sizeof(c->err), "%s needs device.disk, a kernel device name, in the facts",
			 s->name);
		free(disk);
		return;
	}
	v = value_text(c->value);
	if (!settings_udev_safe(v)) {
		snprintf(c->err, sizeof(c->err), "%s: value not representable in a udev rule", s->name);
		free(v);
		free(disk);
		return;
	}
	qv = fst_shell_quote(v);
	/* No device named at all: the finding stands, the command fails until the admin names it. */
	path = disk ? xasprintf("/sys/block/%s/%s", disk, s->key) : NULL;
	qpath = path ? fst_shell_quote(path) : xasprintf("\"/sys/block/${DISK:?}/%s\"", s->key);
	add_cmd(c->apply, "echo %s > %s", qv, qpath);
	if (c->current) {
		char *cv = value_text(c->current), *qcv = fst_shell_quote(cv);

		add_cmd(c->revert, "echo %s > %s", qcv, qpath);
		free(cv);
		free(qcv);
	}
	if (disk) {
		match = settings_udev_match(c->facts, disk, &comment);
	} else {
		match = xstrdup("KERNEL==\"DISK\"");
		comment = xstrdup("# Replace DISK with the disk's kernel name (or match its ID_SERIAL_SHORT): "
				  "the facts name no device.");
	}
	line = xasprintf("%s%sACTION==\"add|change\", SUBSYSTEM==\"block\", %s, ATTR{%s}=\"%s\"",
			 comment ? comment : "", comment ? "\n" : "", match, s->key, v);
	c->persistent = persistent_line("udev", UDEV_FILE, line);
	free(comment);
	free(disk);
	free(v);
	free(qv);
	free(path);
	free(qpath);
	free(match);
	free(line);
}

/* The fs type of the mount options' defaults that a revert falls back to. */
static const char *default_commit(const struct facts *facts)
{
	const char *fs = facts_get_string(facts, "fs.type");

	return fs && !strcmp(fs, "btrfs") ? "commit=30" : "commit=5";
}

/* The kernel never prints strictatime: a mount showing neither relatime nor noatime has it. */
static bool is_strictatime(const struct facts *facts)
{
	const json_t *opts = facts_get(facts, "fs.mount_options");
	size_t i;
	json_t *o;

	if (!json_is_array(opts) || json_array_size(opts) == 0)
		return false;
	json_array_foreach(opts, i, o) {
		const char *v = json_string_value(o);

		if (v && (!strcmp(v, "relatime") || !strcmp(v, "noatime")))
			return false;
	}
	return true;
}

/* The option a mount setting's value turns on: "noatime", "relatime", "commit=30". */
static char *mount_option_on(const struct setting *s, const json_t *value)
{
	char *v, *on;

	if (s->type == ST_BOOL)
		return xstrdup(json_is_true(value) ? s->key : s->alt);
	v = value_text(value);
	on = xasprintf("%s=%s", s->key, v);
	free(v);
	return on;
}

/* A mount option: remount now, add it to the fstab entry to persist, remount with the opposite
 * (or the previous value) to revert. */
static void build_mount(const struct setting *s, struct setting_ctx *c)
{
	char *mnt = mount_word(c->facts), *on, *off, *line;
	const char *mp;

	on = mount_option_on(s, c->value);
	if (s->type == ST_BOOL) {
		bool want = json_is_true(c->value);
		off = xstrdup(want ? s->alt : s->key);
		if (want && !strcmp(s->key, "noatime") && is_strictatime(c->facts)) {
			free(off);
			off = xstrdup("strictatime");
		}
	} else {
		char *v;

		if (c->current) {
			v = value_text(c->current);
			off = xasprintf("%s=%s", s->key, v);
			free(v);
		} else {
			off = xstrdup(default_commit(c->facts));
		}
	}
	add_cmd(c->apply, "mount -o remount,%s %s", on, mnt);
	add_cmd(c->revert, "mount -o remount,%s %s", off, mnt);
	mp = facts_get_string(c->facts, "fs.mount_point");
	line = xasprintf("add %s to the options of the %s entry (remove %s%s if present)", on,
			 mp ? mp : "filesystem's", off,
			 !strcmp(off, "nobarrier") ? " or barrier=0" : ""); /* the same option, spelled twice */
	c->persistent = fstab_change("option", on, line);
	free(mnt);
	free(on);
	free(off);
	free(line);
}

bool rules_setting_mount_change(const char *setting, const json_t *value, char **on, char **off)
{
	const struct setting *s = settings_find(setting);

	if (!s || s->build != build_mount)
		return false;
	*on = mount_option_on(s, value);
	if (s->type != ST_BOOL)
		*off = xasprintf("%s=", s->key);
	else if (!strcmp(*on, "noatime"))
		*off = xstrdup("relatime,strictatime,atime");
	else if (!strcmp(*on, "barrier"))
		*off = xstrdup("nobarrier,barrier=0"); /* the same option, spelled twice */
	else if (!strcmp(*on, "nobarrier"))
		*off = xstrdup("barrier,barrier=1");
	else
		*off = xstrdup(json_is_true(value) ? s->alt : s->key);
	return true;
}

/* false with c->err set when the recommendation's filesystem is known and not ext2/3/4. */
static bool is_ext_target(const struct setting *s, struct setting_ctx *c)
{
	if (c->fs && !fstype_is_ext(c->fs)) {
		snprintf(c->err, sizeof(c->err), "%s applies to ext2/3/4, not %.32s", s->name, c->fs);
		return false;
	}
	return true;
}

/* Whether the facts' filesystem is the root one, which cannot be unmounted to change it. */
static bool is_root_mount(const struct facts *facts)
{
	const char *mp = facts_get_string(facts, "fs.mount_point");

	return mp && !strcmp(mp, "/");
}

/* Offline: unmount (when mounted), change, check, and mount the device again on its mount point
 * with the options it had (an fstab entry for it may not exist), as filesystem `type` (NULL: as it
 * was), without the options `drop` names and with `add` (settings_mount_back_as). */
static void offline_wrap(struct setting_ctx *c, json_t *arr, const char *const *cmds, size_t n,
			 const char *type, const char *const *drop, const char *add)
{
	const char *mp = facts_get_string(c->facts, "fs.mount_point");
	char *mnt = mp ? mount_word(c->facts) : NULL;

	if (mnt)
		add_cmd(arr, "umount %s", mnt);
	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr, json_string(cmds[i]));
	if (mnt) {
		char *back = settings_mount_back_as(c->facts, mnt, type, drop, add);

		json_array_append_new(arr, json_string(back));
		free(back);
	}
	free(mnt);
}

/* An ext2/3/4 feature flag through tune2fs, run unattended. dir_index also needs e2fsck -D to index
 * (or un-index) the directories that already exist; e2fsck -p (preen) fixes only what is safe
 * without a terminal and stops with status 4 when a question needs an answer. Turning dir_index
 * off on a checksummed filesystem makes tune2fs demand a freshly checked filesystem first. */
static void ext_feature_steps(struct setting_ctx *c, json_t *arr, const char *name, bool on,
			      bool fsck)
{
	char *dev = settings_device_word(c->facts);
	char *pre = xasprintf("e2fsck -fp %s", dev);
	char *set = xasprintf("tune2fs -O %s%s %s", on ? "" : "^", name, dev);
	char *chk = xasprintf("e2fsck -fDp %s", dev);
	const char *steps[3];
	size_t n = 0;

	if (fsck && !on)
		steps[n++] = pre;
	steps[n++] = set;
	if (fsck)
		steps[n++] = chk;
	offline_wrap(c, arr, steps, n, NULL, NULL, NULL);
	free(dev);
	free(pre);
	free(set);
	free(chk);
}

static void build_ext_feature(const struct setting *s, struct setting_ctx *c)
{
	bool want = json_is_true(c->value), fsck = !strcmp(s->key, "dir_index");

	ext_feature_steps(c, c->apply, s->key, want, fsck);
	if (!s->alt || !want)
		ext_feature_steps(c, c->revert, s->key, !want, fsck);
}

/* The ext2/3/4 journal (tune2fs -j). tune2fs adds it to a mounted ext2 too, but the kernel uses it
 * only from the next mount through the ext4 driver: mounted as ext2 it is ignored, and mounting an
 * ext2 that has none as ext4 does not make one. So: unmount, add, mount as ext4 (and fstab's type
 * with it). Removing it needs the filesystem unmounted and clean; the revert mounts it as it was. */
static void build_has_journal(const struct setting *s, struct setting_ctx *c)
{
	bool want = json_is_true(c->value);
	const char *fs = facts_get_string(c->facts, "fs.type"), *mp;
	bool ext2 = fs && !strcmp(fs, "ext2");
	char *dev, *on, *off, *line;

	if (!is_ext_target(s, c))
		return;
	dev = settings_device_word(c->facts);
	on = xasprintf("tune2fs -j %s", dev);
	off = xasprintf("tune2fs -O ^has_journal %s", dev);
	mp = facts_get_string(c->facts, "fs.mount_point");
	if (is_root_mount(c->facts)) {
		/* / cannot be unmounted: tune2fs -j works on it mounted, the journal is used from the
		 * next boot; removing one needs it unmounted (a rescue system), nothing to run here */
		c->disruption = "reboot";
		if (want)
			json_array_append_new(c->apply, json_string(on));
	} else {
		offline_wrap(c, c->apply, (const char *const[]){want ? on : off}, 1,
			     want && ext2 ? "ext4" : NULL, NULL, NULL);
		offline_wrap(c, c->revert, (const char *const[]){want ? off : on}, 1, NULL, NULL, NULL);
	}
	if (want && ext2) {
		line = xasprintf("change the type of the %s entry from ext2 to ext4: mounted as ext2, the "
				 "journal is not used%s", mp ? mp : "filesystem's",
				 is_root_mount(c->facts) ? " (and rootfstype=ext4 on the kernel command line if it "
				 "names ext2); then reboot" : "");
		c->persistent = fstab_change("type", "ext4", line);
		free(line);
	}
	free(dev);
	free(on);
	free(off);
}

/* The ext3/4 journalling mode. The kernel refuses data= on remount ("Cannot change data mode on
 * remount"): unmount, mount with the new mode, and the fstab entry to keep it. Leaving
 * data=journal also drops what it implied as the kernel shows it (nodelalloc, nodioread_nolock),
 * or the new mount would keep delayed allocation off. The root filesystem cannot be unmounted:
 * rootflags= on the kernel command line and the fstab entry together (the boot-time remount with
 * fstab's options refuses a different mode), then a reboot; nothing to run now. */
static void build_mount_data(const struct setting *s, struct setting_ctx *c)
{
	static const char *const drop_journal[] = {"data=", "nodelalloc", "nodioread_nolock", NULL};
	static const char *const drop_mode[] = {"data=", NULL};
	const char *mp = facts_get_string(c->facts, "fs.mount_point");
	char *v, *on, *cur, *line;

	if (!is_ext_target(s, c))
		return;
	v = value_text(c->value);
	on = xasprintf("data=%s", v);
	cur = c->current ? value_text(c->current) : NULL;
	if (is_root_mount(c->facts)) {
		c->disruption = "reboot";
		line = xasprintf("add rootflags=%s to the kernel command line (GRUB_CMDLINE_LINUX in "
				 "/etc/default/grub, then update-grub, or grub2-mkconfig -o /boot/grub2/grub.cfg) "
				 "and set %s in the options of the / entry of /etc/fstab%s%s%s; then reboot",
				 on, on, cur ? " (replacing data=" : "", cur ? cur : "", cur ? ")" : "");
		c->persistent = json_pack("{s:s, s:s, s:s, s:s}", "kind", "cmdline", "path",
					  "/etc/default/grub", "option", on, "line", line);
	} else {
		bool from_journal = cur && !strcmp(cur, "journal");

		offline_wrap(c, c->apply, NULL, 0, NULL, from_journal ? drop_journal : drop_mode, on);
		offline_wrap(c, c->revert, NULL, 0, NULL, NULL, NULL);
		line = xasprintf("set %s in the options of the %s entry%s%s%s", on, mp ? mp : "filesystem's",
				 cur ? " (replacing data=" : "", cur ? cur : "", cur ? ")" : "");
		c->persistent = fstab_change("option", on, line);
	}
	free(line);
	free(v);
	free(on);
	free(cur);
}

/* btrfs No_COW on a directory (chattr +C): files made in it afterwards inherit it; files that
 * already hold data keep copy-on-write (the flag is defined only on empty files), so the advice
 * is a directory to copy them into. mkdir -p first: it may be a new one. */
static void build_nocow(const struct setting *s, struct setting_ctx *c)
{
	const char *dir = json_string_value(c->value);
	char *q;

	if (!dir || dir[0] != '/' || strstr(dir, "/../") || strstr(dir, "/./")) {
		snprintf(c->err, sizeof(c->err), "%s wants an absolute directory path", s->name);
		return;
	}
	if (c->fs && strcmp(c->fs, "btrfs")) {
		snprintf(c->err, sizeof(c->err), "%s applies to btrfs, not %.32s", s->name, c->fs);
		return;
	}
	q = fst_shell_quote(dir);
	add_cmd(c->apply, "mkdir -p %s", q);
	add_cmd(c->apply, "chattr +C %s", q);
	add_cmd(c->revert, "chattr -C %s", q);
	free(q);
}

/* tune2fs with the setting's option on the facts' device: the value to apply, and the current
 * value, when known, to revert. The option is `KEY VALUE` (-m 5) or, extended, `-E KEY=VALUE`. */
static void add_tune2fs(const struct setting *s, struct setting_ctx *c, bool is_extended)
{
	const json_t *values[] = {c->value, c->current};
	json_t *lists[] = {c->apply, c->revert};
	char *dev = settings_device_word(c->facts);

	for (size_t i = 0; i < 2 && values[i]; i++) {
		char *v = value_text(values[i]);

		add_cmd(lists[i], "tune2fs %s%s%s%s %s", is_extended ? "-E " : "", s->key, is_extended ? "=" : " ",
			v, dev);
		free(v);
	}
	free(dev);
}

/* An ext2/3/4 superblock parameter that tune2fs changes on a mounted filesystem (-m, -r). */
static void build_tune2fs(const struct setting *s, struct setting_ctx *c)
{
	add_tune2fs(s, c, false);
}

static void build_timer(const struct setting *s, struct setting_ctx *c)
{
	bool want = json_is_true(c->value);

	add_cmd(c->apply, "systemctl %s --now %s", want ? "enable" : "disable", s->key);
	add_cmd(c->revert, "systemctl %s --now %s", want ? "disable" : "enable", s->key);
}

static void build_advice(const struct setting *s, struct setting_ctx *c)
{
	(void)s;
	(void)c;
}

/* An ext2/3/4 extended option (-E stride=, stripe_width=). tune2fs writes it to the superblock of
 * a mounted filesystem too (tried on 6.18 with e2fsprogs 1.47.0; newer tune2fs goes through
 * EXT4_IOC_SET_TUNE_SB_PARAM, which has both), but the allocator reads it at mount: a remount
 * does not, the next mount does. 0 clears it. */
static void build_tune2fs_ext(const struct setting *s, struct setting_ctx *c)
{
	if (is_ext_target(s, c))
		add_tune2fs(s, c, true);
}

/* How each mkfs setting is spelled for each filesystem: flag and the prefix of the value. */
struct mkfs_spelling {
	const char *setting, *fs, *flag, *prefix; /* value = prefix + value text */
};
static const struct mkfs_spelling mkfs_spellings[] = {
	{"mkfs.block_size", "ext", "-b", ""},
	{"mkfs.block_size", "xfs", "-b", "size="},
	{"mkfs.block_size", "btrfs", "--sectorsize", ""},
	{"mkfs.cluster_size", "ext", "-C", ""},
	{"mkfs.inode_ratio", "ext", "-i", ""},
	{"mkfs.inode_count", "ext", "-N", ""},
	{"mkfs.inode_size", "ext", "-I", ""},
	{"mkfs.inode_size", "xfs", "-i", "size="},
	{"mkfs.usage_type", "ext", "-T", ""},
	{"mkfs.reserved_percent", "ext", "-m", ""},
	{"mkfs.stride", "ext", "-E", "stride="},
	{"mkfs.stripe_width", "ext", "-E", "stripe_width="},
	{"mkfs.xfs_su", "xfs", "-d", "su="},
	{"mkfs.xfs_sw", "xfs", "-d", "sw="},
	{"mkfs.features", "ext", "-O", ""},
	{"mkfs.features", "btrfs", "-O", ""},
	{"mkfs.label", "ext", "-L", ""},
	{"mkfs.label", "xfs", "-L", ""},
	{"mkfs.label", "btrfs", "-L", ""},
	{"freebsd.newfs.block_size", "ufs", "-b", ""},
	{"freebsd.newfs.fragment_size", "ufs", "-f", ""},
	{"freebsd.newfs.bytes_per_inode", "ufs", "-i", ""},
};

const char *settings_mkfs_program(const char *fs)
{
	static const char *const known[] = {"ext2", "ext3", "ext4", "xfs", "btrfs"};

	if (fs && !strcmp(fs, "ufs"))
		return "newfs";
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (fs && !strcmp(fs, known[i]))
			return i < 3 ? (i == 0 ? "mkfs.ext2" : i == 1 ? "mkfs.ext3" : "mkfs.ext4")
				     : i == 3 ? "mkfs.xfs" : "mkfs.btrfs";
	return NULL;
}

bool settings_mkfs_flag_joins(const char *fs, const char *flag)
{
	if (fstype_is_ext(fs))
		return !strcmp(flag, "-E") || !strcmp(flag, "-O");
	if (fs && !strcmp(fs, "xfs"))
		return strlen(flag) == 2 && strchr("bdilmnrs", flag[1]);
	if (fs && !strcmp(fs, "btrfs"))
		return !strcmp(flag, "-O");
	return false;
}

/* A list of strings joined by commas: a features list as mke2fs -O wants it ("a,^b"), mount options
 * as mountinfo shows them. */
static char *features_text(const json_t *list)
{
	size_t i, n = 0;
	json_t *e;
	char *out;

	json_array_foreach(list, i, e)
		n += strlen(json_string_value(e)) + 1;
	out = xcalloc(1, n + 1);
	json_array_foreach(list, i, e) {
		if (i)
			strcat(out, ",");
		strcat(out, json_string_value(e));
	}
	return out;
}

/* A reformat setting: a machine-readable {"fs", "args"} spec and the single-recommendation command. */
static void build_mkfs(const struct setting *s, struct setting_ctx *c)
{
	const char *fs = s->key ? s->key : c->fs; /* FreeBSD newfs settings name their filesystem */
	const char *family = fstype_is_ext(fs) ? "ext" : fs;
	json_t *args = json_array();
	char *dev = settings_device_word(c->facts), *cmd;
	size_t len = 0;

	if (!strcmp(s->name, "mkfs.fs_type"))
		fs = json_string_value(c->value);
	if (!fs || !settings_mkfs_program(fs)) {
		snprintf(c->err, sizeof(c->err),
			 "%s needs the filesystem type: set the recommendation's `fs` field", s->name);
		goto out;
	}
	if (strcmp(s->name, "mkfs.fs_type")) {
		const struct mkfs_spelling *sp = NULL;
		char *v, *arg;

		for (size_t i = 0; i < sizeof(mkfs_spellings) / sizeof(mkfs_spellings[0]); i++)
			if (!strcmp(mkfs_spellings[i].setting, s->name) &&
			    !strcmp(mkfs_spellings[i].fs, family))
				sp = &mkfs_spellings[i];
		if (!sp) {
			snprintf(c->err, sizeof(c->err), "%s does not apply to %s", s->name, fs);
			goto out;
		}
		v = s->type == ST_FEATURES ? features_text(c->value) : value_text(c->value);
		arg = xasprintf("%s%s", sp->prefix, v);
		if (!strcmp(s->name, "mkfs.cluster_size"))
			json_array_extend(args, json_pack("[s,s]", "-O", "bigalloc"));
		json_array_append_new(args, json_string(sp->flag));
		json_array_append_new(args, json_string(arg));
		free(v);
		free(arg);
	}
	c->mkfs = json_pack("{s:s, s:O}", "fs", fs, "args", args);
	cmd = xstrdup(settings_mkfs_program(fs));
	len = strlen(cmd);
	for (size_t i = 0; i < json_array_size(args); i++) {
		char *q = fst_shell_quote(json_string_value(json_array_get(args, i)));

		cmd = xrealloc(cmd, len + strlen(q) + 2);
		len += (size_t)sprintf(cmd + len, " %s", q);
		free(q);
	}
	add_cmd(c->apply, "%s%s %s", cmd, settings_mkfs_force(fs, c->facts), dev);
	free(cmd);
out:
	json_decref(args);
	free(dev);
}

static const char *const sched_choices[] = {"none", "mq-deadline", "bfq", "kyber", NULL};
static const char *const wc_choices[] = {"write back", "write through", NULL};
static const char *const data_choices[] = {"ordered", "writeback", "journal", NULL};
static const char *const fs_choices[] = {"ext2", "ext3", "ext4", "xfs", "btrfs", NULL};
static const char *const usage_choices[] = {"floppy", "small", "default", "big", "huge", "news",
					    "largefile", "largefile4", "hurd", NULL};

#define INT_S(nm, lo, hi, dis, fk, k, a, b, h) \
	{nm, ST_INT, lo, hi, 0, 0, false, NULL, dis, fk, k, a, b, h, NULL, false}
#define POW2_S(nm, lo, hi, dis, fk, k, b, h) \
	{nm, ST_INT, lo, hi, 0, 0, true, NULL, dis, fk, k, NULL, b, h, NULL, false}
#define REAL_S(nm, lo, hi, dis, fk, k, b, h) \
	{nm, ST_REAL, 0, 0, lo, hi, false, NULL, dis, fk, k, NULL, b, h, NULL, false}
#define BOOL_S(nm, dis, fk, k, a, b, h) \
	{nm, ST_BOOL, 0, 0, 0, 0, false, NULL, dis, fk, k, a, b, h, NULL, false}
#define ENUM_S(nm, ch, dis, fk, k, b, h) \
	{nm, ST_ENUM, 0, 0, 0, 0, false, ch, dis, fk, k, NULL, b, h, NULL, false}
/* An integer whose current value is a fact in other units: fact_key / per. */
#define PER_S(nm, lo, hi, dis, fk, per, k, b, h) \
	{nm, ST_INT, lo, hi, 0, 0, false, NULL, dis, fk, k, NULL, b, h, per, false}
/* An integer that 0 unsets (the default comes back), although 0 is below its range. */
#define UNSET0_S(nm, lo, hi, dis, fk, k, b, h) \
	{nm, ST_INT, lo, hi, 0, 0, false, NULL, dis, fk, k, NULL, b, h, NULL, true}

#define INT_MAX_LL 2147483647LL
static const struct setting table[] = {
	ENUM_S("mkfs.fs_type", fs_choices, "reformat", "fs.type", NULL, build_mkfs,
	       "filesystem type to make"),
	POW2_S("mkfs.block_size", 512, 65536, "reformat", "fs.block_size", NULL, build_mkfs,
	       "block size in bytes (ext -b, xfs -b size=, btrfs --sectorsize)"),
	POW2_S("mkfs.cluster_size", 2048, 268435456, "reformat", "fs.fragment_size", NULL, build_mkfs,
	       "ext4 bigalloc cluster size in bytes (-O bigalloc -C)"),
	INT_S("mkfs.inode_ratio", 1024, 67108864, "reformat", NULL, NULL, NULL, build_mkfs,
	      "bytes per inode (mke2fs -i); fixed after creation"),
	INT_S("mkfs.inode_count", 16, 4294967295LL, "reformat", "fs.inode_count", NULL, NULL, build_mkfs,
	      "number of inodes (mke2fs -N)"),
	POW2_S("mkfs.inode_size", 128, 2048, "reformat", "fs.inode_size", NULL, build_mkfs,
	       "inode size in bytes (mke2fs -I, mkfs.xfs -i size=)"),
	ENUM_S("mkfs.usage_type", usage_choices, "reformat", NULL, NULL, build_mkfs,
	       "mke2fs.conf usage type (-T)"),
	REAL_S("mkfs.reserved_percent", 0, 50, "reformat", NULL, NULL, build_mkfs,
	       "reserved blocks percentage at creation (mke2fs -m)"),
	INT_S("mkfs.stride", 1, 4194304, "reformat", NULL, NULL, NULL, build_mkfs,
	      "RAID chunk in filesystem blocks (mke2fs -E stride=)"),
	INT_S("mkfs.stripe_width", 1, 4194304, "reformat", NULL, NULL, NULL, build_mkfs,
	      "RAID stripe in filesystem blocks (mke2fs -E stripe_width=)"),
	INT_S("mkfs.xfs_su", 512, 268435456, "reformat", "fs.stripe_unit_bytes", NULL, NULL, build_mkfs,
	      "XFS stripe unit in bytes (mkfs.xfs -d su=)"),
	INT_S("mkfs.xfs_sw", 1, 1024, "reformat", NULL, NULL, NULL, build_mkfs,
	      "XFS stripe width in stripe units (mkfs.xfs -d sw=)"),
	{"mkfs.features", ST_FEATURES, 0, 32, 0, 0, false, NULL, "reformat", NULL, NULL, NULL,
	 build_mkfs, "features to turn on (name) or off (^name) at creation (mke2fs -O, mkfs.btrfs -O)",
	 NULL, false},
	{"mkfs.label", ST_STRING, 0, 16, 0, 0, false, NULL, "reformat", "fs.label", NULL, NULL,
	 build_mkfs, "filesystem label (-L), at most 16 bytes", NULL, false},
	BOOL_S("fs.feature.dir_index", "offline", NULL, "dir_index", NULL, build_ext_feature,
	       "ext2/3/4 hashed directories (tune2fs -O dir_index, then e2fsck -fDp; off: e2fsck -fp "
	       "first)"),
	BOOL_S("fs.feature.large_dir", "offline", NULL, "large_dir", "once", build_ext_feature,
	       "ext4 directories beyond ~10M entries or 2 GB (tune2fs -O large_dir; one-way)"),
	BOOL_S("fs.feature.has_journal", "offline", NULL, "has_journal", NULL, build_has_journal,
	       "ext2/3/4 journal (tune2fs -j, then mounted as ext4: a journal-less ext2 mounted as ext4 "
	       "gets none)"),
	REAL_S("fs.reserved_percent", 0, 50, "online", NULL, "-m", build_tune2fs,
	       "ext2/3/4 reserved blocks percentage (tune2fs -m)"),
	INT_S("fs.reserved_blocks", 0, 1LL << 48, "online", "fs.reserved_blocks", "-r", NULL,
	      build_tune2fs, "ext2/3/4 reserved block count (tune2fs -r)"),
	PER_S("fs.stride", 0, 65535, "online", "fs.stripe_unit_bytes", "fs.block_size", "stride",
	      build_tune2fs_ext, "ext2/3/4 RAID chunk in filesystem blocks, 0 = none (tune2fs -E stride=; "
	      "read at the next mount)"),
	PER_S("fs.stripe_width", 0, INT_MAX_LL, "online", "fs.stripe_width_bytes", "fs.block_size",
	      "stripe_width", build_tune2fs_ext, "ext2/3/4 RAID stripe in filesystem blocks, 0 = none "
	      "(tune2fs -E stripe_width=; read at the next mount)"),
	BOOL_S("mount.option.noatime", "remount", NULL, "noatime", "relatime", build_mount,
	       "no access-time updates (mount -o noatime; off = relatime, or strictatime when the mount "
	       "had it)"),
	BOOL_S("mount.option.lazytime", "remount", NULL, "lazytime", "nolazytime", build_mount,
	       "timestamps kept in memory (mount -o lazytime)"),
	INT_S("mount.option.commit", 1, 300, "remount", NULL, "commit", NULL, build_mount,
	      "journal commit interval in seconds (ext4 default 5, btrfs 30)"),
	BOOL_S("mount.option.discard", "remount", NULL, "discard", "nodiscard", build_mount,
	       "online discard (mount -o discard)"),
	BOOL_S("mount.option.barrier", "remount", NULL, "barrier", "nobarrier", build_mount,
	       "cache flushes at journal commits and fsync (ext3/4, btrfs; nobarrier = barrier=0; XFS "
	       "removed both in 4.19)"),
	ENUM_S("mount.option.data", data_choices, "offline", NULL, "data", build_mount_data,
	       "ext3/4 journalling mode; refused on remount: unmount and mount (for /: rootflags= on the "
	       "kernel command line, a reboot)"),
	{"file.nocow", ST_STRING, 0, 4096, 0, 0, false, NULL, "runtime", NULL, NULL, NULL, build_nocow,
	 "btrfs directory whose new files skip copy-on-write (mkdir -p, chattr +C; existing data keeps "
	 "it)", NULL, false},
	BOOL_S("fstrim.timer", "runtime", "fs.fstrim_timer", "fstrim.timer", NULL, build_timer,
	       "weekly fstrim through systemd's fstrim.timer"),
	INT_S("sysctl.vm.dirty_bytes", 0, 1LL << 44, "runtime", "vm.dirty_bytes", "vm.dirty_bytes",
	      "vm.dirty_ratio", build_sysctl, "hard dirty-page limit in bytes (0 = use dirty_ratio)"),
	INT_S("sysctl.vm.dirty_background_bytes", 0, 1LL << 44, "runtime", "vm.dirty_background_bytes",
	      "vm.dirty_background_bytes", "vm.dirty_background_ratio", build_sysctl,
	      "background writeback threshold in bytes (0 = use dirty_background_ratio)"),
	INT_S("sysctl.vm.dirty_ratio", 0, 100, "runtime", "vm.dirty_ratio", "vm.dirty_ratio",
	      "vm.dirty_bytes", build_sysctl, "hard dirty-page limit, percent of available memory"),
	INT_S("sysctl.vm.dirty_background_ratio", 0, 100, "runtime", "vm.dirty_background_ratio",
	      "vm.dirty_background_ratio", "vm.dirty_background_bytes", build_sysctl,
	      "background writeback threshold, percent of available memory"),
	INT_S("sysctl.vm.dirty_expire_centisecs", 0, INT_MAX_LL, "runtime", "vm.dirty_expire_centisecs",
	      "vm.dirty_expire_centisecs", NULL, build_sysctl, "age of dirty data eligible for writeback"),
	INT_S("sysctl.vm.dirty_writeback_centisecs", 0, INT_MAX_LL, "runtime",
	      "vm.dirty_writeback_centisecs", "vm.dirty_writeback_centisecs", NULL, build_sysctl,
	      "flusher wake-up interval (0 disables periodic writeback)"),
	INT_S("sysctl.vm.vfs_cache_pressure", 0, 10000, "runtime", "vm.vfs_cache_pressure",
	      "vm.vfs_cache_pressure", NULL, build_sysctl, "dentry/inode reclaim tendency (100 = fair)"),
	INT_S("bdi.max_ratio", 0, 100, "runtime", "vm.bdi.max_ratio", "bdi/max_ratio", NULL,
	      build_sysfs, "share of the dirty limit this device may use, percent"),
	BOOL_S("bdi.strict_limit", "runtime", "vm.bdi.strict_limit", "bdi/strict_limit", NULL,
	       build_sysfs, "enforce max_ratio even below the global background limit"),
	ENUM_S("queue.scheduler", sched_choices, "runtime", "device.scheduler", "queue/scheduler",
	       build_sysfs, "I/O scheduler of the disk"),
	INT_S("queue.read_ahead_kb", 0, 1048576, "runtime", "device.read_ahead_kb", "queue/read_ahead_kb",
	      NULL, build_sysfs, "read-ahead in KiB"),
	INT_S("queue.nr_requests", 4, 65536, "runtime", "device.nr_requests", "queue/nr_requests", NULL,
	      build_sysfs, "request queue depth per hardware queue"),
	ENUM_S("device.write_cache", wc_choices, "runtime", "device.write_cache", "queue/write_cache",
	       build_sysfs, "the kernel's view of the volatile write cache (flushes are sent for write back)"),
	INT_S("md.stripe_cache_size", 17, 32768, "runtime", "device.md_stripe_cache_stripes",
	      "md/stripe_cache_size", NULL, build_sysfs, "md RAID4/5/6 stripe cache in stripes; memory = "
	      "stripes x page size x member devices"),
	INT_S("layout.files_per_dir", 1, 1000000000, "advice", NULL, NULL, NULL, build_advice,
	      "how many files the application puts in one directory"),
	POW2_S("freebsd.newfs.block_size", 4096, 65536, "reformat", "freebsd.newfs_block_size", "ufs",
	       build_mkfs, "UFS block size (newfs -b)"),
	POW2_S("freebsd.newfs.fragment_size", 512, 65536, "reformat", "freebsd.newfs_fragment_size",
	       "ufs", build_mkfs, "UFS fragment size (newfs -f), block/8 to block"),
	INT_S("freebsd.newfs.bytes_per_inode", 512, 67108864, "reformat", NULL, "ufs", NULL, build_mkfs,
	      "UFS bytes per inode (newfs -i)"),
	UNSET0_S("freebsd.kern.nbuf", 1024, INT_MAX_LL, "reboot", "freebsd.nbuf", "kern.nbuf", build_loader,
		 "buffer headers, a boot-time tunable (/boot/loader.conf); 0 removes the line: sized at boot"),
	BOOL_S("freebsd.vfs.vmiodirenable", "runtime", "freebsd.vmiodirenable", "vfs.vmiodirenable", NULL,
	       build_freebsd_sysctl, "cache directories in the VM page cache (sysctl, /etc/sysctl.conf)"),
	INT_S("freebsd.vfs.ufs.dirhash_maxmem", 0, 1LL << 40, "runtime", "freebsd.dirhash_maxmem_bytes",
	      "vfs.ufs.dirhash_maxmem", NULL, build_freebsd_sysctl,
	      "memory for UFS directory hashes in bytes"),
};

const struct setting *settings_all(size_t *n)
{
	*n = sizeof(table) / sizeof(table[0]);
	return table;
}

const struct setting *settings_find(const char *name)
{
	for (size_t i = 0; name && i < sizeof(table) / sizeof(table[0]); i++)
		if (!strcmp(table[i].name, name))
			return &table[i];
	return NULL;
}

const char *settings_type_name(const struct setting *s)
{
	static const char *const names[] = {"integer", "number", "boolean", "string", "string",
					    "list of features"};
	return names[s->type];
}

const char *settings_range_text(const struct setting *s, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	switch (s->type) {
	case ST_INT:
		snprintf(buf, len, "%s%lld..%lld%s", s->zero_unsets ? "0 (unset) or " : "", s->min, s->max,
			 s->pow2 ? ", a power of two" : "");
		break;
	case ST_REAL:
		snprintf(buf, len, "%g..%g", s->rmin, s->rmax);
		break;
	case ST_BOOL:
		snprintf(buf, len, "true, false");
		break;
	case ST_ENUM:
		for (const char *const *c = s->choices; *c && off < len; c++)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", c == s->choices ? "" : ", ", *c);
		break;
	case ST_STRING:
		snprintf(buf, len, "at most %lld bytes", s->max);
		break;
	case ST_FEATURES:
		snprintf(buf, len, "names, ^name to turn off");
		break;
	}
	return buf;
}

static bool check_int(const struct setting *s, const json_t *v, bool range, char *msg, size_t len)
{
	long long x;

	if (json_is_real(v)) {
		double d = json_real_value(v);

		if (d != floor(d) || fabs(d) > 9e18) {
			snprintf(msg, len, "%s wants an integer, got %g", s->name, d);
			return false;
		}
		x = (long long)d;
	} else if (json_is_integer(v)) {
		x = json_integer_value(v);
	} else {
		snprintf(msg, len, "%s wants an integer", s->name);
		return false;
	}
	if (range && x == 0 && s->zero_unsets)
		return true;
	if (range && (x < s->min || x > s->max)) {
		snprintf(msg, len, "%s = %lld is out of range %s", s->name, x,
			 settings_range_text(s, (char[96]){0}, 96));
		return false;
	}
	if (range && s->pow2 && (x <= 0 || (x & (x - 1)))) {
		snprintf(msg, len, "%s = %lld is not a power of two", s->name, x);
		return false;
	}
	return true;
}

static bool check_features(const struct setting *s, const json_t *v, char *msg, size_t len)
{
	size_t i;
	json_t *e;

	if (!json_is_array(v) || json_array_size(v) == 0 || json_array_size(v) > (size_t)s->max) {
		snprintf(msg, len, "%s wants a list of 1..%lld feature names", s->name, s->max);
		return false;
	}
	json_array_foreach(v, i, e) {
		const char *f = json_string_value(e);

		if (f && *f == '^')
			f++;
		if (!f || !*f || strlen(f) > 32 ||
		    strspn(f, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(f)) {
			snprintf(msg, len, "%s: item %zu is not a feature name ([a-z0-9_], ^ to turn off)",
				 s->name, i + 1);
			return false;
		}
	}
	return true;
}

bool settings_check_value(const struct setting *s, const json_t *v, bool range, char *msg, size_t len)
{
	switch (s->type) {
	case ST_INT:
		return check_int(s, v, range, msg, len);
	case ST_REAL:
		if (!json_is_number(v)) {
			snprintf(msg, len, "%s wants a number", s->name);
			return false;
		}
		if (range && (json_number_value(v) < s->rmin || json_number_value(v) > s->rmax)) {
			snprintf(msg, len, "%s = %g is out of range %g..%g", s->name, json_number_value(v),
				 s->rmin, s->rmax);
			return false;
		}
		return true;
	case ST_BOOL:
		if (!json_is_boolean(v)) {
			snprintf(msg, len, "%s wants true or false", s->name);
			return false;
		}
		return true;
	case ST_ENUM:
		if (!json_is_string(v)) {
			snprintf(msg, len, "%s wants a string", s->name);
			return false;
		}
		if (!range)
			return true;
		for (const char *const *c = s->choices; *c; c++)
			if (!strcmp(*c, json_string_value(v)))
				return true;
		snprintf(msg, len, "%s: \"%.64s\" is not one of %s", s->name, json_string_value(v),
			 settings_range_text(s, (char[160]){0}, 160));
		return false;
	case ST_STRING:
		if (!json_is_string(v)) {
			snprintf(msg, len, "%s wants a string", s->name);
			return false;
		}
		if (range && json_string_length(v) > (size_t)s->max) {
			snprintf(msg, len, "%s: longer than %lld bytes", s->name, s->max);
			return false;
		}
		for (const char *p = json_string_value(v); range && *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f) {
				snprintf(msg, len, "%s: control character in value", s->name);
				return false;
			}
		return true;
	case ST_FEATURES:
		return range ? check_features(s, v, msg, len) : json_is_array(v);
	}
	return false;
}

bool settings_build(const struct setting *s, struct setting_ctx *c)
{
	c->err[0] = '\0';
	s->build(s, c);
	if (c->err[0]) {
		json_decref(c->persistent);
		json_decref(c->mkfs);
		c->persistent = c->mkfs = NULL;
		return false;
	}
	settings_place(s, c);
	return true;
}

/* Settings whose value has a unit neither a fact nor their name says. */
static const struct {
	const char *name;
	enum units_kind unit;
} setting_units[] = {
	{"mkfs.inode_ratio", UNITS_BYTES},           /* mke2fs -i bytes-per-inode */
	{"freebsd.newfs.bytes_per_inode", UNITS_BYTES},
	{"mount.option.commit", UNITS_SECONDS},
	{"fs.reserved_percent", UNITS_PERCENT},
	{"mkfs.reserved_percent", UNITS_PERCENT},
};

enum units_kind rules_setting_unit(const char *setting)
{
	const struct setting *st = setting ? settings_find(setting) : NULL;

	for (size_t i = 0; setting && i < sizeof(setting_units) / sizeof(setting_units[0]); i++)
		if (!strcmp(setting_units[i].name, setting))
			return setting_units[i].unit;
	if (st && st->fact_key && !st->fact_per)
		return facts_schema_unit(st->fact_key);
	return UNITS_PLAIN;
}

const char *rules_setting_fact(const char *setting)
{
	const struct setting *st = setting ? settings_find(setting) : NULL;

	if (!st)
		return NULL;
	if (st->fact_key)
		return st->fact_key;
	/* these hold one member of a list fact, which fact_key (a value read as the current one)
	 * cannot name */
	if (st->build == build_ext_feature)
		return "fs.features";
	if (st->build == build_mount || st->build == build_mount_data)
		return "fs.mount_options";
	if (st->build == build_has_journal)
		return "fs.features";
	if (st->build == build_timer)
		return "fs.fstrim_timer";
	return NULL;
}

/* A sysfs attribute of the whole disk; the scheduler shows every choice, the one in use bracketed. */
static char *read_sysfs(const struct setting *s, const struct facts *facts)
{
	char *disk = settings_disk_name(facts), *path, *q, *cmd;

	if (!disk || !is_device_name(disk)) {
		free(disk);
		return NULL;
	}
	path = xasprintf("/sys/block/%s/%s", disk, s->key);
	q = fst_shell_quote(path);
	cmd = !strcmp(s->key, "queue/scheduler") ? xasprintf("sed -n 's/.*\\[\\(.*\\)\\].*/\\1/p' %s", q)
						  : xasprintf("cat %s", q);
	free(disk);
	free(path);
	free(q);
	return cmd;
}

/* noatime and its kin are per-mount flags (mountinfo field 6, fs.mount_options); lazytime, commit,
 * discard and barrier live in the superblock's options (fs.super_options). findmnt prints both
 * verbatim. */
static bool read_mount(const struct setting *s, const struct facts *facts, char **cmd, char **recorded)
{
	bool per_mount = !strcmp(s->key, "noatime");
	const char *mp = facts_get_string(facts, "fs.mount_point");
	const json_t *opts = facts_get(facts, per_mount ? "fs.mount_options" : "fs.super_options");
	char *mnt;
	size_t i;
	json_t *o;

	if (!mp || *mp != '/' || !json_is_array(opts))
		return false;
	json_array_foreach(opts, i, o)
		if (!json_is_string(o))
			return false;
	mnt = fst_shell_quote(mp);
	*cmd = xasprintf("findmnt -rno %s --mountpoint %s", per_mount ? "VFS-OPTIONS" : "FS-OPTIONS", mnt);
	*recorded = features_text(opts); /* the same comma-joined list */
	free(mnt);
	return true;
}

bool rules_setting_read(const char *setting, const struct facts *facts, const json_t *current, char **cmd,
			char **recorded)
{
	const struct setting *s = settings_find(setting);
	char *c = NULL;

	if (!s)
		return false;
	if (s->build == build_mount)
		return read_mount(s, facts, cmd, recorded);
	if (!current)
		return false;
	if (s->build == build_sysctl || s->build == build_freebsd_sysctl) {
		c = xasprintf("sysctl -n %s", s->key);
	} else if (s->build == build_sysfs) {
		c = read_sysfs(s, facts);
	} else if (s->build == build_timer && json_is_boolean(current)) {
		*cmd = xasprintf("systemctl is-enabled %s", s->key);
		*recorded = xstrdup(json_is_true(current) ? "enabled" : "disabled");
		return true;
	} else if (s->build == build_tune2fs && !strcmp(s->key, "-r")) {
		const char *dev = facts_get_string(facts, "device.path");
		char *q = dev && *dev == '/' ? fst_shell_quote(dev) : NULL;

		if (q)
			c = xasprintf("tune2fs -l %s | sed -n 's/^Reserved block count: *//p'", q);
		free(q);
	}
	if (!c)
		return false;
	*cmd = c;
	*recorded = value_text(current);
	return true;
}
