/* FreeBSD's kernel settings: sysctls (`sysctl NAME=VALUE`, kept in /etc/sysctl.conf) and boot-time
 * tunables, which only /boot/loader.conf and a reboot set. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "rules/settings_family.h"
#include "rules/settings_forms.h"

static void build_sysctl(const struct setting *s, struct setting_ctx *c)
{
	char *v = settings_value_text(c->value), *line = xasprintf("%s=%s", s->key, v);

	settings_add_cmd(c->apply, "sysctl %s=%s", s->key, v);
	c->persistent = settings_file_line("sysctl.conf", "/etc/sysctl.conf", line);
	if (c->current) {
		free(v);
		v = settings_value_text(c->current);
		settings_add_cmd(c->revert, "sysctl %s=%s", s->key, v);
	}
	free(v);
	free(line);
}

const struct setting_family setting_family_freebsd_sysctl = {
	.name = "freebsd.sysctl",
	.build = build_sysctl,
	.read = settings_read_sysctl,
};

/* A value: nothing to run now, a loader.conf line to add. 0 (zero_unsets): the apply deletes the
 * line, and its absence is the persistent form. The revert deletes the line and, when the old
 * value was an override, appends it again. */
static void build_loader(const struct setting *s, struct setting_ctx *c)
{
	char *v = settings_value_text(c->value), *del, *pat = xmalloc(4 * strlen(s->key) + 1), *p = pat;
	long long cur = json_is_integer(c->current) ? json_integer_value(c->current) : 0;
	bool unset = s->zero_unsets && json_is_number(c->value) && json_number_value(c->value) == 0;

	for (const char *k = s->key; *k; k++) /* a literal dot in the sed address */
		p += *k == '.' ? (size_t)sprintf(p, "[.]") : (size_t)sprintf(p, "%c", *k);
	del = xasprintf("sed -i '' '/^[[:space:]]*%s[[:space:]]*=/d' /boot/loader.conf", pat);
	if (unset) {
		json_array_append_new(c->apply, json_string(del));
	} else {
		char *line = xasprintf("%s=\"%s\"", s->key, v);

		c->persistent = settings_file_line("loader.conf", "/boot/loader.conf", line);
		free(line);
	}
	if (!unset || cur > 0) /* unsetting an unknown or absent override has nothing to restore */
		json_array_append_new(c->revert, json_string(del));
	if (cur > 0)
		settings_add_cmd(c->revert, "echo '%s=\"%lld\"' >> /boot/loader.conf", s->key, cur);
	free(pat);
	free(del);
	free(v);
}

const struct setting_family setting_family_freebsd_loader = {
	.name = "freebsd.loader",
	.build = build_loader,
};
