/* Linux kernel sysctls (vm.dirty_*, vm.vfs_cache_pressure): `sysctl -w` now, a line in a sysctl.d
 * file to keep it, and `sysctl -n` to read it back. */
#include "config.h"

#include <stdlib.h>

#include "lib/xalloc.h"
#include "rules/settings_family.h"
#include "rules/settings_forms.h"

#define SYSCTL_D_FILE "/etc/sysctl.d/60-fstune.conf"

/* The revert goes back to the current value or, for a bytes sysctl whose ratio counterpart (`alt`)
 * was in effect, back to that ratio: writing one of the pair zeroes the other. */
static void build_sysctl(const struct setting *s, struct setting_ctx *c)
{
	char *v = settings_value_text(c->value), *line;
	long long cur = -1, alt = 0;

	settings_add_cmd(c->apply, "sysctl -w %s=%s", s->key, v);
	line = xasprintf("%s = %s", s->key, v);
	c->persistent = settings_file_line("sysctl.d", SYSCTL_D_FILE, line);
	if (json_is_integer(c->current))
		cur = json_integer_value(c->current);
	if (s->alt && cur <= 0 && facts_get_int(c->facts, s->alt, &alt) && alt > 0)
		settings_add_cmd(c->revert, "sysctl -w %s=%lld", s->alt, alt);
	else if (c->current)
		settings_add_cmd(c->revert, "sysctl -w %s=%s", s->key,
				 (free(v), v = settings_value_text(c->current)));
	free(v);
	free(line);
}

bool settings_read_sysctl(const struct setting *s, const struct facts *facts, const json_t *current,
			  char **cmd, char **recorded)
{
	(void)facts;
	return current && settings_read_value(xasprintf("sysctl -n %s", s->key), current, cmd, recorded);
}

/* The ratio of a bytes sysctl (or the bytes of a ratio), which the revert may set. */
static const char *sysctl_revert_fact(const struct setting *s)
{
	return s->alt;
}

const struct setting_family setting_family_sysctl = {
	.name = "sysctl",
	.build = build_sysctl,
	.read = settings_read_sysctl,
	.persistent_file = SYSCTL_D_FILE,
	.revert_fact = sysctl_revert_fact,
	.host_wide = true,
};
