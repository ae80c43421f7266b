/* A systemd unit turned on or off (fstrim.timer): `systemctl enable --now` keeps it across boots by
 * itself, so there is no persistent form beside the command; `systemctl is-enabled` reads it back. */
#include "config.h"

#include "lib/xalloc.h"
#include "rules/settings_family.h"
#include "rules/settings_forms.h"

static void build_unit(const struct setting *s, struct setting_ctx *c)
{
	bool want = json_is_true(c->value);

	settings_add_cmd(c->apply, "systemctl %s --now %s", want ? "enable" : "disable", s->key);
	settings_add_cmd(c->revert, "systemctl %s --now %s", want ? "disable" : "enable", s->key);
}

static bool read_unit(const struct setting *s, const struct facts *facts, const json_t *current,
		      char **cmd, char **recorded)
{
	(void)facts;
	if (!json_is_boolean(current))
		return false;
	*cmd = xasprintf("systemctl is-enabled %s", s->key);
	*recorded = xstrdup(json_is_true(current) ? "enabled" : "disabled");
	return true;
}

const struct setting_family setting_family_systemd_unit = {
	.name = "systemd.unit",
	.build = build_unit,
	.read = read_unit,
};
