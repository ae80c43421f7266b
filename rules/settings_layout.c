/* How files sit on a filesystem: a btrfs directory whose new files skip copy-on-write (file.nocow),
 * and advice on the application's own layout (layout.files_per_dir), which has nothing to run. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fstune/shell.h"
#include "rules/settings_family.h"
#include "rules/settings_forms.h"

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
	settings_add_cmd(c->apply, "mkdir -p %s", q);
	settings_add_cmd(c->apply, "chattr +C %s", q);
	settings_add_cmd(c->revert, "chattr -C %s", q);
	free(q);
}

const struct setting_family setting_family_nocow = {
	.name = "nocow",
	.build = build_nocow,
};

static void build_advice(const struct setting *s, struct setting_ctx *c)
{
	(void)s;
	(void)c;
}

const struct setting_family setting_family_advice = {
	.name = "advice",
	.build = build_advice,
};
