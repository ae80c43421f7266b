/* The list of owners each source adds to (owners.<setting>), and the sysctl names of the settings
 * they may own: the pieces every source file shares, below them all. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "probes/owners.h"

/* The sysctl settings of rules/settings.c (tests/probe/test_owners.c checks that each name is one). */
const struct owners_sysctl_name owners_sysctl_names[OWNERS_N_SYSCTL] = {
	{"vm.dirty_ratio", "sysctl.vm.dirty_ratio"},
	{"vm.dirty_background_ratio", "sysctl.vm.dirty_background_ratio"},
	{"vm.dirty_bytes", "sysctl.vm.dirty_bytes"},
	{"vm.dirty_background_bytes", "sysctl.vm.dirty_background_bytes"},
	{"vm.dirty_expire_centisecs", "sysctl.vm.dirty_expire_centisecs"},
	{"vm.dirty_writeback_centisecs", "sysctl.vm.dirty_writeback_centisecs"},
	{"vm.vfs_cache_pressure", "sysctl.vm.vfs_cache_pressure"},
};

char *owners_sysctl_normalize(const char *key)
{
	char *out = xstrdup(key);
	size_t first = strcspn(out, "./");

	if (out[first] == '/')
		for (char *p = out; *p; p++)
			*p = *p == '/' ? '.' : *p == '.' ? '/' : *p;
	return out;
}

const char *owners_sysctl_setting(const char *key)
{
	char *norm = owners_sysctl_normalize(key);
	const char *setting = NULL;

	for (size_t i = 0; i < OWNERS_N_SYSCTL; i++)
		if (!strcmp(owners_sysctl_names[i].sysctl, norm))
			setting = owners_sysctl_names[i].setting;
	free(norm);
	return setting;
}

json_t *owners_add(struct owners *o, const char *setting, const char *kind, const char *path, int line,
		   const char *key, const char *value)
{
	json_t *list = json_object_get(o->by_setting, setting);
	/* the path, key and value are bytes from the machine: the facts escape what is not UTF-8 */
	json_t *owner = json_pack("{s:s, s:o, s:i, s:o, s:o, s:b}", "kind", kind, "path", json_string_nocheck(path),
				  "line", line, "key", json_string_nocheck(key), "value",
				  value ? json_string_nocheck(value) : json_null(), "wins", 0);

	if (!list) {
		list = json_array();
		json_object_set_new(o->by_setting, setting, list);
	}
	json_array_append_new(list, owner);
	return owner;
}

json_t *owners_list(const struct owners *o, const char *setting)
{
	return json_object_get(o->by_setting, setting);
}
