/* Owners from tuned: the active profile (/etc/tuned/active_profile; several names are merged in
 * order) and the profiles it includes, each found in /etc/tuned before /usr/lib/tuned
 * (tuned.conf(5); tuned 2.23 moved them to a profiles/ subdirectory of each, looked in first). A
 * profile's includes are loaded before it, so a child's value wins over its parent's. Read here:
 * [sysctl] keys, [vm] dirty_* options (dirty_bytes=N% sets dirty_ratio: tuned's plugin_vm.py), and
 * [disk] elevator and readahead (KiB, or sectors with an "s" suffix) for the devices= it covers.
 * A section's replace=1 (drop the parent's options) is not followed: the parent's stay listed. */
#include "config.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fstune/path.h"
#include "lib/xalloc.h"
#include "probes/owners.h"

#define TUNED_WANTS "/etc/systemd/system/multi-user.target.wants/tuned.service"
#define MAX_PROFILES 32 /* an include chain longer than this is a loop */

static const char *const profile_dirs[] = {"/etc/tuned/profiles", "/etc/tuned", "/usr/lib/tuned/profiles",
					   "/usr/lib/tuned", NULL};

/* One key = value of an ini file, with its section and line. */
struct ini_entry {
	char *section, *key, *value;
	int line;
};

struct ini {
	struct ini_entry *v;
	size_t n;
	char *section; /* while parsing: the current one */
};

static void ini_line(char *line, int no, void *arg)
{
	struct ini *ini = arg;
	char *eq;

	line = owners_trim(line);
	if (!*line || *line == '#' || *line == ';')
		return;
	if (*line == '[') {
		char *close = strchr(line, ']');

		free(ini->section);
		ini->section = xstrndup(line + 1, close ? (size_t)(close - line - 1) : strlen(line + 1));
		return;
	}
	if (!(eq = strchr(line, '=')))
		return;
	*eq = '\0';
	ini->v = xrealloc(ini->v, (ini->n + 1) * sizeof(*ini->v));
	ini->v[ini->n++] = (struct ini_entry){xstrdup(ini->section ? ini->section : ""),
					      xstrdup(owners_trim(line)), xstrdup(owners_trim(eq + 1)), no};
}

/* The file parsed; false when it cannot be read. */
static bool ini_read(const char *path, struct ini *ini)
{
	char *text = path_read_string("%s", path);

	*ini = (struct ini){NULL, 0, NULL};
	if (!text)
		return false;
	owners_lines(text, false, ini_line, ini);
	free(text);
	return true;
}

static void ini_free(struct ini *ini)
{
	for (size_t i = 0; i < ini->n; i++) {
		free(ini->v[i].section);
		free(ini->v[i].key);
		free(ini->v[i].value);
	}
	free(ini->v);
	free(ini->section);
}

/* The value of `key` in `section`, the last one given; NULL when absent. */
static const char *ini_get(const struct ini *ini, const char *section, const char *key)
{
	const char *v = NULL;

	for (size_t i = 0; i < ini->n; i++)
		if (!strcmp(ini->v[i].section, section) && !strcmp(ini->v[i].key, key))
			v = ini->v[i].value;
	return v;
}

struct chain {
	char *name[MAX_PROFILES];
	size_t n;
};

struct tuned_walk {
	struct owners *o;
	const char *disk;    /* device.disk, NULL when no device */
	json_t *last;        /* setting -> its latest tuned owner (borrowed) */
	struct chain loaded;
};

static char *find_profile(const char *name)
{
	for (size_t i = 0; profile_dirs[i]; i++)
		if (path_exists("%s/%s/tuned.conf", profile_dirs[i], name))
			return xasprintf("%s/%s/tuned.conf", profile_dirs[i], name);
	return NULL;
}

/* devices= of a [disk] section: a comma-separated list of names or globs, "!" excluding. */
static bool devices_match(const char *devices, const char *disk)
{
	char *list = xstrdup(devices), *save = NULL, *tok;
	bool any_positive = false, hit = false, excluded = false;

	for (tok = strtok_r(list, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		bool neg = *tok == '!';

		any_positive |= !neg;
		if (disk && fnmatch(neg ? tok + 1 : tok, disk, 0) == 0)
			*(neg ? &excluded : &hit) = true;
	}
	free(list);
	return !excluded && (hit || !any_positive);
}

static const char *vm_setting(const char *key, const char *value)
{
	static const char *const keys[] = {"dirty_ratio", "dirty_background_ratio", "dirty_bytes",
					   "dirty_background_bytes"};
	static const char *const settings[] = {"sysctl.vm.dirty_ratio", "sysctl.vm.dirty_background_ratio",
					       "sysctl.vm.dirty_bytes", "sysctl.vm.dirty_background_bytes"};
	bool percent = value[0] && value[strlen(value) - 1] == '%';

	for (size_t i = 0; i < 4; i++)
		if (!strcmp(key, keys[i]))
			return percent && i >= 2 ? settings[i - 2] : settings[i];
	return NULL;
}

/* The setting an option of a section of plugin `type` sets; NULL when none fstune recommends. */
static const char *option_setting(const char *type, const char *key, const char *value)
{
	if (!strcmp(type, "sysctl"))
		return owners_sysctl_setting(key);
	if (!strcmp(type, "vm"))
		return vm_setting(key, value);
	if (!strcmp(type, "disk") && !strcmp(key, "elevator"))
		return "queue.scheduler";
	if (!strcmp(type, "disk") && !strcmp(key, "readahead"))
		return "queue.read_ahead_kb";
	return NULL;
}

/* `owner` is now the profile chain's latest word on `setting`: the one before it loses. */
static void overrides(struct tuned_walk *w, const char *setting, json_t *owner, const char *profile)
{
	json_t *prev = json_object_get(w->last, setting);

	if (prev)
		json_object_set_new(prev, "note", json_sprintf("%s:%lld (profile %s) sets it after this one",
							       json_string_value(json_object_get(owner, "path")),
							       (long long)json_integer_value(json_object_get(owner, "line")),
							       profile));
	json_object_set(w->last, setting, owner);
}

static void add_options(struct tuned_walk *w, const struct ini *ini, const char *name, const char *path)
{
	for (size_t i = 0; i < ini->n; i++) {
		const struct ini_entry *e = &ini->v[i];
		const char *type = ini_get(ini, e->section, "type"), *devices, *setting;
		json_t *owner;

		if (!type)
			type = e->section; /* tuned: a section without type= is the plugin of its name */
		if (!strcmp(e->section, "main") || !(setting = option_setting(type, e->key, e->value)))
			continue;
		owner = owners_add(w->o, setting, "tuned", path, e->line, e->key, e->value);
		json_object_set_new(owner, "profile", json_string_nocheck(name));
		json_object_set_new(owner, "section", json_string_nocheck(e->section));
		devices = !strcmp(type, "disk") ? ini_get(ini, e->section, "devices") : NULL;
		if (devices && !devices_match(devices, w->disk))
			json_object_set_new(owner, "note", json_sprintf("devices=%s does not cover %s", devices,
									w->disk ? w->disk : "this device"));
		else
			overrides(w, setting, owner, name);
	}
}

/* Reads profile `name`, after what it includes (so that its own values come later and win). */
static void load(struct tuned_walk *w, const char *name, int depth)
{
	char *path = find_profile(name), *inc, *save = NULL, *tok;
	struct ini ini;

	for (size_t i = 0; i < w->loaded.n; i++)
		if (!strcmp(w->loaded.name[i], name)) { /* tuned merges a profile once */
			free(path);
			return;
		}
	if (!path || depth > 8 || w->loaded.n == MAX_PROFILES || !ini_read(path, &ini)) {
		free(path);
		return;
	}
	w->loaded.name[w->loaded.n++] = xstrdup(name);
	inc = xstrdup(ini_get(&ini, "main", "include") ? ini_get(&ini, "main", "include") : "");
	for (tok = strtok_r(inc, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save))
		load(w, tok, depth + 1);
	add_options(w, &ini, name, path);
	free(inc);
	ini_free(&ini);
	free(path);
}

/* reapply_sysctl of /etc/tuned/tuned-main.conf; on when absent, as in tuned. */
static bool reapply_sysctl(void)
{
	struct ini ini;
	const char *v;
	bool on = true;

	if (ini_read("/etc/tuned/tuned-main.conf", &ini) && (v = ini_get(&ini, "", "reapply_sysctl")))
		on = !(v[0] == '0' || !strncasecmp(v, "false", 5) || !strncasecmp(v, "no", 2));
	ini_free(&ini);
	return on;
}

/* systemctl enable makes this link; its target is not followed, as under --sysroot an absolute
 * one would name the live machine's file. */
static bool tuned_is_enabled(void)
{
	char *link = path_readlink(TUNED_WANTS);
	bool is = link || path_exists(TUNED_WANTS);

	free(link);
	return is;
}

/* /etc/tuned/profile_mode: "manual" when the admin chose the profile, "auto" when tuned did (it
 * then applies its own recommendation at start, which may replace the profile). */
static void probe_mode(struct facts *f)
{
	char *mode = path_read_string("/etc/tuned/profile_mode");

	if (mode && *owners_trim(mode))
		facts_set_string(f, "host.tuned_profile_mode", owners_trim(mode), "config");
	free(mode);
}

void owners_tuned_collect(struct owners *o, struct facts *f, bool *active)
{
	char *names = path_read_string("/etc/tuned/active_profile"), *save = NULL, *tok, *list;
	struct tuned_walk w = {o, facts_get_string(f, "device.disk"), json_object(), {{0}, 0}};
	bool enabled = tuned_is_enabled();
	const char *setting;
	json_t *owner;

	*active = false;
	list = xstrdup(names ? owners_trim(names) : "");
	for (tok = strtok_r(list, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save))
		load(&w, tok, 0);
	if (w.loaded.n) {
		*active = enabled;
		facts_set_string(f, "host.tuned_profile", owners_trim(names), "config");
		facts_set_bool(f, "host.tuned_active", enabled, "config");
		facts_set_bool(f, "host.tuned_reapply_sysctl", reapply_sysctl(), "config");
		probe_mode(f);
	}
	json_object_foreach(w.last, setting, owner) {
		if (enabled)
			json_object_set_new(owner, "wins", json_true());
		else if (!json_object_get(owner, "note"))
			json_object_set_new(owner, "note", json_string("tuned.service is not enabled"));
	}
	for (size_t i = 0; i < w.loaded.n; i++)
		free(w.loaded.name[i]);
	json_decref(w.last);
	free(list);
	free(names);
}
