/* Reformat settings: a machine-readable {"fs", "args"} spec that rules/mkfs.c merges into one command
 * per filesystem, and the command of the single recommendation. mke2fs, mkfs.xfs, mkfs.btrfs, and
 * FreeBSD's newfs, whose rows name their filesystem (`key` "ufs"). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "fstune/fstype.h"
#include "fstune/shell.h"
#include "rules/settings_family.h"
#include "rules/settings_forms.h"

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
		v = s->type == ST_FEATURES ? settings_list_text(c->value) : settings_value_text(c->value);
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
	settings_add_cmd(c->apply, "%s%s %s", cmd, settings_mkfs_force(fs, c->facts), dev);
	free(cmd);
out:
	json_decref(args);
	free(dev);
}

const struct setting_family setting_family_mkfs = {
	.name = "mkfs",
	.build = build_mkfs,
};
