/* XFS settings a mounted filesystem takes through xfs_growfs: imaxpct (-m), the share of the space
 * inodes may take, which caps the inode count statfs reports. xfs_growfs(8) works on the mount
 * point and writes the superblock itself, so the change is kept with nothing else to install;
 * xfs_info prints it back (imaxpct= in its data section). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "rules/settings_family.h"
#include "rules/settings_forms.h"

static bool is_xfs_target(const struct setting *s, struct setting_ctx *c)
{
	if (c->fs && strcmp(c->fs, "xfs")) {
		snprintf(c->err, sizeof(c->err), "%s applies to XFS, not %.32s", s->name, c->fs);
		return false;
	}
	return true;
}

static void build_growfs(const struct setting *s, struct setting_ctx *c)
{
	char *mnt, *v;

	if (!is_xfs_target(s, c))
		return;
	mnt = settings_mount_word(c->facts);
	v = settings_value_text(c->value);
	settings_add_cmd(c->apply, "xfs_growfs %s %s %s", s->key, v, mnt);
	if (c->current) {
		char *cv = settings_value_text(c->current);

		settings_add_cmd(c->revert, "xfs_growfs %s %s %s", s->key, cv, mnt);
		free(cv);
	}
	free(mnt);
	free(v);
}

static bool read_growfs(const struct setting *s, const struct facts *facts, const json_t *current, char **cmd,
			char **recorded)
{
	const char *mp = facts_get_string(facts, "fs.mount_point");
	char *mnt, *c;

	if (!mp || *mp != '/' || !s->alt)
		return false;
	mnt = settings_mount_word(facts);
	c = xasprintf("xfs_info %s | sed -n 's/.*%s=\\([0-9]*\\).*/\\1/p'", mnt, s->alt);
	free(mnt);
	return settings_read_value(c, current, cmd, recorded);
}

const struct setting_family setting_family_xfs_growfs = {
	.name = "xfs_growfs",
	.build = build_growfs,
	.read = read_growfs,
};
