/* Mount options. The remountable ones (noatime, relatime, lazytime, commit, discard, barrier): `mount -o
 * remount` now, the option in the fstab entry to keep it, mountinfo to read it back. The options a
 * remount does not change: the ext3/4 data mode, which the kernel refuses on remount, and discard
 * on XFS, which it ignores: unmount and mount, or for / the kernel command line and a reboot. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fstune/shell.h"
#include "lib/xalloc.h"
#include "rules/settings_family.h"
#include "rules/settings_forms.h"

static json_t *option_default(const struct setting *s, const struct facts *facts);

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

/* The option a value turns on: `key` or its opposite `alt` for a flag ("noatime", "relatime"),
 * `key=value` for a valued option ("commit=30"). */
static char *option_on(const struct setting *s, const json_t *value)
{
	char *v, *on;

	if (s->type == ST_BOOL)
		return xstrdup(json_is_true(value) ? s->key : s->alt);
	v = settings_value_text(value);
	on = xasprintf("%s=%s", s->key, v);
	free(v);
	return on;
}

/* Whether the mount lists noatime, which a revert from relatime puts back. */
static bool is_noatime(const struct facts *facts)
{
	const json_t *opts = facts_get(facts, "fs.mount_options");
	size_t i;
	json_t *o;

	json_array_foreach(opts, i, o)
		if (json_is_string(o) && !strcmp(json_string_value(o), "noatime"))
			return true;
	return false;
}

/* The option the revert remounts with: the flag's opposite (strictatime for a mount that had it),
 * the previous value, or the filesystem's default commit interval. */
static char *option_off(const struct setting *s, const struct setting_ctx *c)
{
	char *v, *off;
	json_t *was;

	if (s->type == ST_BOOL) {
		bool want = json_is_true(c->value);

		if (want && !strcmp(s->key, "noatime") && is_strictatime(c->facts))
			return xstrdup("strictatime");
		if (want && !strcmp(s->key, "relatime") && is_noatime(c->facts))
			return xstrdup("noatime");
		return xstrdup(want ? s->alt : s->key);
	}
	was = c->current ? json_incref((json_t *)c->current) : option_default(s, c->facts);
	v = was ? settings_value_text(was) : xstrdup("5"); /* ext4's, when nothing says the type */
	off = xasprintf("%s=%s", s->key, v);
	free(v);
	json_decref(was);
	return off;
}

/* The word a remount sets option `opt` with. libmount merges the mount's current options into a
 * remount's, so `remount,relatime` after noatime keeps noatime (util-linux 2.38, tried): `atime`
 * drops it first. strictatime needs no help: the kernel clears noatime for it. */
static const char *remount_word(const char *opt)
{
	return !strcmp(opt, "relatime") ? "atime,relatime" : opt;
}

/* Whether the filesystem ignores the option on remount. XFS takes discard only at mount:
 * xfs_fs_reconfigure (fs/xfs/xfs_super.c) changes inode32/inode64 and ro/rw and returns 0 for the
 * rest, so `remount,nodiscard` succeeds and changes nothing (tried: Linux 6.18). */
static bool is_mount_only(const struct setting *s, const struct setting_ctx *c)
{
	return !strcmp(s->key, "discard") && c->fs && !strcmp(c->fs, "xfs");
}

/* An option only a new mount takes: unmount and mount with `on` instead of what `drop` names (the
 * revert mounts it back as it was), and the fstab entry to keep it. The root filesystem cannot be
 * unmounted: rootflags= on the kernel command line and the fstab entry together (the boot-time
 * remount with fstab's options cannot change it), then a reboot; nothing to run now. `was` names
 * what the entry had, for the words; NULL when unknown. */
static void build_mount_anew(struct setting_ctx *c, const char *on, const char *const *drop, const char *was)
{
	const char *mp = facts_get_string(c->facts, "fs.mount_point");
	char *line;

	if (settings_is_root_mount(c->facts)) {
		c->disruption = "reboot";
		line = xasprintf("add rootflags=%s to the kernel command line (GRUB_CMDLINE_LINUX in "
				 "/etc/default/grub, then update-grub, or grub2-mkconfig -o /boot/grub2/grub.cfg) "
				 "and set %s in the options of the / entry of /etc/fstab%s%s%s; then reboot",
				 on, on, was ? " (replacing " : "", was ? was : "", was ? ")" : "");
		c->persistent = json_pack("{s:s, s:s, s:s, s:s}", "kind", "cmdline", "path",
					  "/etc/default/grub", "option", on, "line", line);
	} else {
		settings_offline_wrap(c, c->apply, NULL, 0, NULL, drop, on);
		settings_offline_wrap(c, c->revert, NULL, 0, NULL, NULL, NULL);
		line = xasprintf("set %s in the options of the %s entry%s%s%s", on, mp ? mp : "filesystem's",
				 was ? " (replacing " : "", was ? was : "", was ? ")" : "");
		c->persistent = settings_fstab_change("option", on, line);
	}
	free(line);
}

static void build_mount(const struct setting *s, struct setting_ctx *c)
{
	static const char *const drop_discard[] = {"discard", "nodiscard", "discard=", NULL};
	char *mnt, *on = option_on(s, c->value), *off = option_off(s, c), *line;
	const char *mp = facts_get_string(c->facts, "fs.mount_point");

	if (is_mount_only(s, c)) {
		c->disruption = "offline";
		build_mount_anew(c, on, drop_discard, c->current ? off : NULL);
		free(on);
		free(off);
		return;
	}
	mnt = settings_mount_word(c->facts);
	settings_add_cmd(c->apply, "mount -o remount,%s %s", remount_word(on), mnt);
	settings_add_cmd(c->revert, "mount -o remount,%s %s", remount_word(off), mnt);
	line = xasprintf("add %s to the options of the %s entry (remove %s%s if present)", on,
			 mp ? mp : "filesystem's", off,
			 !strcmp(off, "nobarrier") ? " or barrier=0" : ""); /* the same option, spelled twice */
	c->persistent = settings_fstab_change("option", on, line);
	free(mnt);
	free(on);
	free(off);
	free(line);
}

void settings_mount_change(const struct setting *s, const json_t *value, char **on, char **off)
{
	*on = option_on(s, value);
	if (s->type != ST_BOOL)
		*off = xasprintf("%s=", s->key);
	else if (!strcmp(*on, "noatime"))
		*off = xstrdup("relatime,strictatime,atime");
	else if (!strcmp(*on, "relatime"))
		*off = xstrdup("strictatime,noatime");
	else if (!strcmp(*on, "strictatime"))
		*off = xstrdup("relatime,noatime");
	else if (!strcmp(*on, "barrier"))
		*off = xstrdup("nobarrier,barrier=0"); /* the same option, spelled twice */
	else if (!strcmp(*on, "nobarrier"))
		*off = xstrdup("barrier,barrier=1");
	else
		*off = xstrdup(json_is_true(value) ? s->alt : s->key);
}

/* The atime flags (noatime, relatime) are per-mount (mountinfo field 6, fs.mount_options); lazytime,
 * commit, discard and barrier are the filesystem's, for every mount of it (the superblock's options,
 * fs.super_options). */
static bool is_per_mount(const struct setting *s)
{
	return !strcmp(s->key, "noatime") || !strcmp(s->key, "relatime");
}

static const char *mount_fact(const struct setting *s)
{
	return is_per_mount(s) ? "fs.mount_options" : "fs.super_options";
}

/* Both lists are read from /proc/self/mountinfo as the probe reads them: the mount point's octal
 * escapes undone to find the line (the last one, the mount on top), the options printed as the kernel
 * escapes them, as the facts keep them (findmnt would print its own \x escapes). The recorded value
 * is the facts' list, whatever `current` says. */
static bool read_mount(const struct setting *s, const struct facts *facts, const json_t *current,
		       char **cmd, char **recorded)
{
	const char *mp = facts_get_string(facts, "fs.mount_point");
	const json_t *opts = facts_get(facts, mount_fact(s));
	char *mnt;
	size_t i;
	json_t *o;

	(void)current;
	if (!mp || *mp != '/' || !json_is_array(opts))
		return false;
	json_array_foreach(opts, i, o)
		if (!json_is_string(o))
			return false;
	mnt = settings_mount_word(facts);
	*cmd = xasprintf("FSTUNE_MNT=%s LC_ALL=C awk '%s unoct($5) == ENVIRON[\"FSTUNE_MNT\"] { %s } END { print v }' "
			 "/proc/self/mountinfo", mnt, FST_AWK_UNOCT,
			 is_per_mount(s) ? "v = $6" : "for (i = 7; i < NF && $i != \"-\"; i++); v = $(i + 3)");
	*recorded = settings_list_text(opts); /* the same comma-joined list */
	free(mnt);
	return true;
}

/* Whether `v` is option `key` ("discard", "discard=async"); with the prefix `no` when `negated`. */
static bool names_option(const char *v, const char *key, bool negated)
{
	size_t klen = strlen(key);

	if (negated) {
		if (strncmp(v, "no", 2))
			return false;
		v += 2;
	}
	return !strncmp(v, key, klen) && (v[klen] == '\0' || v[klen] == '=');
}

/* The last word of the lists naming option `key` ("discard", "discard=async", "nodiscard"): the
 * setting's own list first, then the other (a hand-written facts file may put an option in either).
 * NULL when neither names it; *is_known says whether either list is in the facts. */
static const char *find_option(const struct setting *s, const struct facts *facts, bool *is_known)
{
	const char *lists[] = {mount_fact(s), is_per_mount(s) ? "fs.super_options" : "fs.mount_options"};

	*is_known = false;
	for (size_t l = 0; l < 2; l++) {
		const json_t *opts = facts_get(facts, lists[l]);
		const char *found = NULL;
		size_t i;
		json_t *o;

		*is_known |= json_is_array(opts);
		json_array_foreach(opts, i, o) {
			const char *v = json_string_value(o);

			if (v && (names_option(v, s->key, false) || names_option(v, s->key, true)))
				found = v;
		}
		if (found)
			return found;
	}
	return NULL;
}

/* What the filesystem does when its options do not name the option: the kernel lists ext4's and
 * btrfs's commit= and nobarrier only when they differ from the default (_ext4_show_options,
 * btrfs_show_options), and discard and lazytime only when on. NULL when the type is unknown, or
 * has no such option (commit and barrier on XFS). */
static json_t *option_default(const struct setting *s, const struct facts *facts)
{
	const char *fs = facts_get_string(facts, "fs.type");
	bool ext = fs && (!strcmp(fs, "ext3") || !strcmp(fs, "ext4")), btrfs = fs && !strcmp(fs, "btrfs");

	if (!strcmp(s->key, "commit"))
		return ext ? json_integer(5) : btrfs ? json_integer(30) : NULL;
	if (!strcmp(s->key, "barrier"))
		return ext || btrfs ? json_true() : NULL;
	if (!strcmp(s->key, "noatime") || !strcmp(s->key, "relatime")) /* strictatime when neither shows */
		return json_false();
	return fs ? json_false() : NULL;
}

/* The option's effective state: what the lists say (discard=async is on, barrier=0 off, commit=N
 * is N), else the filesystem's default; unknown when neither list is in the facts. */
static json_t *mount_current(const struct setting *s, const struct facts *facts)
{
	bool is_known;
	const char *v = find_option(s, facts, &is_known);
	const char *eq = v ? strchr(v, '=') : NULL;

	if (!v)
		return is_known ? option_default(s, facts) : NULL;
	if (s->type != ST_BOOL) {
		char *end;
		long long n = eq ? strtoll(eq + 1, &end, 10) : 0;

		return eq && end != eq + 1 && !*end ? json_integer(n) : NULL;
	}
	if (!names_option(v, s->key, false))
		return json_false();
	return json_boolean(!eq || strcmp(eq + 1, "0"));
}

const struct setting_family setting_family_mount = {
	.name = "mount",
	.build = build_mount,
	.read = read_mount,
	.fact = mount_fact,
	.current = mount_current,
	.persistent_file = SETTINGS_FSTAB_FILE,
};

/* The ext3/4 journalling mode. The kernel refuses data= on remount ("Cannot change data mode on
 * remount"). Leaving data=journal also drops what it implied as the kernel shows it (nodelalloc,
 * nodioread_nolock), or the new mount would keep delayed allocation off. */
static void build_mount_data(const struct setting *s, struct setting_ctx *c)
{
	static const char *const drop_journal[] = {"data=", "nodelalloc", "nodioread_nolock", NULL};
	static const char *const drop_mode[] = {"data=", NULL};
	char *v, *on, *cur, *was;

	if (!settings_is_ext_target(s, c))
		return;
	v = settings_value_text(c->value);
	on = xasprintf("data=%s", v);
	cur = c->current ? settings_value_text(c->current) : NULL;
	was = cur ? xasprintf("data=%s", cur) : NULL;
	build_mount_anew(c, on, cur && !strcmp(cur, "journal") ? drop_journal : drop_mode, was);
	free(v);
	free(on);
	free(cur);
	free(was);
}

const struct setting_family setting_family_mount_data = {
	.name = "mount.data",
	.build = build_mount_data,
	.fact = mount_fact,
};
