/* ext2/3/4 through tune2fs: feature flags (tune2fs -O, unmounted), the journal (tune2fs -j),
 * superblock parameters changed while mounted (-m, -r) and extended options (-E stride=). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "rules/settings_family.h"
#include "rules/settings_forms.h"

static const char *features_fact(const struct setting *s)
{
	(void)s;
	return "fs.features";
}

/* A feature flag through tune2fs, run unattended. dir_index also needs e2fsck -D to index (or
 * un-index) the directories that already exist; e2fsck -p (preen) fixes only what is safe without a
 * terminal and stops with status 4 when a question needs an answer. Turning dir_index off on a
 * checksummed filesystem makes tune2fs demand a freshly checked filesystem first. */
static void feature_steps(struct setting_ctx *c, json_t *arr, const char *name, bool on, bool fsck)
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
	settings_offline_wrap(c, arr, steps, n, NULL, NULL, NULL);
	free(dev);
	free(pre);
	free(set);
	free(chk);
}

/* A one-way feature (`alt` "once": large_dir) has no revert. */
static void build_feature(const struct setting *s, struct setting_ctx *c)
{
	bool want = json_is_true(c->value), fsck = !strcmp(s->key, "dir_index");

	feature_steps(c, c->apply, s->key, want, fsck);
	if (!s->alt || !want)
		feature_steps(c, c->revert, s->key, !want, fsck);
}

const struct setting_family setting_family_ext_feature = {
	.name = "ext.feature",
	.build = build_feature,
	.fact = features_fact,
};

/* The journal (tune2fs -j). tune2fs adds it to a mounted ext2 too, but the kernel uses it only from
 * the next mount through the ext4 driver: mounted as ext2 it is ignored, and mounting an ext2 that
 * has none as ext4 does not make one. So: unmount, add, mount as ext4 (and fstab's type with it).
 * Removing it needs the filesystem unmounted and clean; the revert mounts it as it was. */
static void build_journal(const struct setting *s, struct setting_ctx *c)
{
	bool want = json_is_true(c->value);
	const char *fs = facts_get_string(c->facts, "fs.type"), *mp;
	bool ext2 = fs && !strcmp(fs, "ext2");
	char *dev, *on, *off, *line;

	if (!settings_is_ext_target(s, c))
		return;
	dev = settings_device_word(c->facts);
	on = xasprintf("tune2fs -j %s", dev);
	off = xasprintf("tune2fs -O ^has_journal %s", dev);
	mp = facts_get_string(c->facts, "fs.mount_point");
	if (settings_is_root_mount(c->facts)) {
		/* / cannot be unmounted: tune2fs -j works on it mounted, the journal is used from the
		 * next boot; removing one needs it unmounted (a rescue system), nothing to run here */
		c->disruption = "reboot";
		if (want)
			json_array_append_new(c->apply, json_string(on));
	} else {
		settings_offline_wrap(c, c->apply, (const char *const[]){want ? on : off}, 1,
				      want && ext2 ? "ext4" : NULL, NULL, NULL);
		settings_offline_wrap(c, c->revert, (const char *const[]){want ? off : on}, 1, NULL, NULL,
				      NULL);
	}
	if (want && ext2) {
		line = xasprintf("change the type of the %s entry from ext2 to ext4: mounted as ext2, the "
				 "journal is not used%s", mp ? mp : "filesystem's",
				 settings_is_root_mount(c->facts) ? " (and rootfstype=ext4 on the kernel command "
				 "line if it names ext2); then reboot" : "");
		c->persistent = settings_fstab_change("type", "ext4", line);
		free(line);
	}
	free(dev);
	free(on);
	free(off);
}

const struct setting_family setting_family_ext_journal = {
	.name = "ext.journal",
	.build = build_journal,
	.fact = features_fact,
};

/* tune2fs with the setting's option on the facts' device: the value to apply, and the current
 * value, when known, to revert. The option is `KEY VALUE` (-m 5) or, extended, `-E KEY=VALUE`. */
static void add_tune2fs(const struct setting *s, struct setting_ctx *c, bool is_extended)
{
	const json_t *values[] = {c->value, c->current};
	json_t *lists[] = {c->apply, c->revert};
	char *dev = settings_device_word(c->facts);

	for (size_t i = 0; i < 2 && values[i]; i++) {
		char *v = settings_value_text(values[i]);

		settings_add_cmd(lists[i], "tune2fs %s%s%s%s %s", is_extended ? "-E " : "", s->key,
				 is_extended ? "=" : " ", v, dev);
		free(v);
	}
	free(dev);
}

/* A superblock parameter that tune2fs changes on a mounted filesystem (-m, -r). */
static void build_tune2fs(const struct setting *s, struct setting_ctx *c)
{
	add_tune2fs(s, c, false);
}

/* The reserved block count is read back from tune2fs -l; the percentage (-m) has no exact line
 * there to compare with. */
static bool read_tune2fs(const struct setting *s, const struct facts *facts, const json_t *current,
			 char **cmd, char **recorded)
{
	const char *dev = facts_get_string(facts, "device.path");
	char *q, *c;

	if (!current || strcmp(s->key, "-r") || !dev || *dev != '/')
		return false;
	q = settings_device_word(facts);
	c = xasprintf("tune2fs -l %s | sed -n 's/^Reserved block count: *//p'", q);
	free(q);
	return settings_read_value(c, current, cmd, recorded);
}

const struct setting_family setting_family_tune2fs = {
	.name = "tune2fs",
	.build = build_tune2fs,
	.read = read_tune2fs,
};

/* An extended option (-E stride=, stripe_width=). tune2fs writes it to the superblock of a mounted
 * filesystem too (tried on 6.18 with e2fsprogs 1.47.0; newer tune2fs goes through
 * EXT4_IOC_SET_TUNE_SB_PARAM, which has both), but the allocator reads it at mount: a remount does
 * not, the next mount does. 0 clears it. */
static void build_tune2fs_extended(const struct setting *s, struct setting_ctx *c)
{
	if (settings_is_ext_target(s, c))
		add_tune2fs(s, c, true);
}

const struct setting_family setting_family_tune2fs_extended = {
	.name = "tune2fs.extended",
	.build = build_tune2fs_extended,
};
