/* Owners of the target's mount options: its /etc/fstab entry and any mount unit of
 * /etc/systemd/system with the same Where=. systemd-fstab-generator turns the fstab entry into a
 * unit under /run/systemd/generator, which a unit of the same name in /etc/systemd/system
 * overrides (systemd.unit(5): /etc comes first), so such a unit wins; of two fstab entries for one
 * mount point the generator keeps the first. Every mount.option setting gets an owner, its value
 * the option as written there, or null where the entry leaves it to the kernel's default. */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fstune/path.h"
#include "lib/xalloc.h"
#include "probes/owners.h"

/* Each mount.option setting and the options that speak of it ("name" exact, "name=" any value). */
static const struct {
	const char *setting;
	const char *options[7];
} mount_settings[] = {
	{"mount.option.noatime", {"noatime", "relatime", "strictatime", "atime", "norelatime", "nostrictatime"}},
	{"mount.option.relatime", {"noatime", "relatime", "strictatime", "atime", "norelatime", "nostrictatime"}},
	{"mount.option.lazytime", {"lazytime", "nolazytime"}},
	{"mount.option.commit", {"commit="}},
	{"mount.option.discard", {"discard", "nodiscard", "discard="}},
	{"mount.option.barrier", {"barrier", "nobarrier", "barrier="}},
	{"mount.option.data", {"data="}},
};

static bool option_is(const char *opt, const char *name)
{
	size_t n = strlen(name);

	return name[n - 1] == '=' ? !strncmp(opt, name, n) : !strcmp(opt, name);
}

/* The options of `opts` (comma-separated) that speak of setting `i`, joined; NULL when none. */
static char *options_for(size_t i, const char *opts)
{
	char *list = xstrdup(opts), *save = NULL, *tok, *out = NULL;

	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		for (size_t k = 0; mount_settings[i].options[k]; k++)
			if (option_is(tok, mount_settings[i].options[k])) {
				char *j = out ? xasprintf("%s,%s", out, tok) : xstrdup(tok);

				free(out);
				out = j;
			}
	free(list);
	return out;
}

static void add_all(struct owners *o, const char *kind, const char *path, int line, const char *opts,
		    const char *note)
{
	for (size_t i = 0; i < sizeof(mount_settings) / sizeof(mount_settings[0]); i++) {
		char *v = options_for(i, opts ? opts : "");
		json_t *owner = owners_add(o, mount_settings[i].setting, kind, path, line,
					   v ? v : "options", v);

		json_object_set_new(owner, "wins", json_boolean(note == NULL));
		if (note)
			json_object_set_new(owner, "note", json_string_nocheck(note));
		free(v);
	}
}

/* fstab's escapes: \040 for a space, \011 a tab, \134 a backslash. In place. */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' && s[3] >= '0' &&
		    s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

struct mount_walk {
	struct owners *o;
	const char *mnt;
	const char *path;     /* the file being read */
	const char *unit;     /* a winning mount unit's path, or NULL */
	int found;            /* fstab entries seen for mnt */
	/* a unit file: its Where= and Options= */
	char where[4096], options[4096];
	int options_line, where_line;
};

static void fstab_line(char *line, int no, void *arg)
{
	struct mount_walk *w = arg;
	char *save = NULL, *spec, *file, *type, *opts, *note = NULL;

	line = owners_trim(line);
	if (*line == '#' || !(spec = strtok_r(line, " \t", &save)) || !(file = strtok_r(NULL, " \t", &save)))
		return;
	unescape(file);
	if (strcmp(file, w->mnt))
		return;
	type = strtok_r(NULL, " \t", &save);
	opts = type ? strtok_r(NULL, " \t", &save) : NULL;
	if (w->unit)
		note = xasprintf("%s, a unit for the same mount point, overrides the entry "
				 "systemd-fstab-generator makes from this line", w->unit);
	else if (w->found)
		note = xstrdup("a second entry for the mount point: systemd-fstab-generator keeps the first");
	add_all(w->o, "fstab", "/etc/fstab", no, opts, note);
	w->found++;
	free(note);
}

static void unit_line(char *line, int no, void *arg)
{
	struct mount_walk *w = arg;
	char *eq;

	line = owners_trim(line);
	if (!(eq = strchr(line, '=')))
		return;
	*eq = '\0';
	if (!strcmp(owners_trim(line), "Where")) {
		snprintf(w->where, sizeof(w->where), "%s", owners_trim(eq + 1));
		w->where_line = no;
	} else if (!strcmp(owners_trim(line), "Options")) {
		snprintf(w->options, sizeof(w->options), "%s", owners_trim(eq + 1));
		w->options_line = no;
	}
}

/* The mount unit of /etc/systemd/system for the mount point; its owners are added. Returns its
 * live path (caller frees) or NULL. */
static char *read_units(struct mount_walk *w)
{
	DIR *d = path_opendir("/etc/systemd/system");
	struct dirent *de;
	char *found = NULL;

	while (d && !found && (de = readdir(d))) {
		size_t n = strlen(de->d_name);
		char *path, *text;

		if (de->d_name[0] == '.' || n < 7 || strcmp(de->d_name + n - 6, ".mount"))
			continue;
		path = xasprintf("/etc/systemd/system/%s", de->d_name);
		text = path_read_string("%s", path);
		w->where[0] = w->options[0] = '\0';
		w->options_line = w->where_line = 0;
		if (text)
			owners_lines(text, false, unit_line, w);
		if (!strcmp(w->where, w->mnt)) {
			add_all(w->o, "mount-unit", path, w->options_line ? w->options_line : w->where_line,
				w->options, NULL);
			found = path;
		} else {
			free(path);
		}
		free(text);
	}
	if (d)
		closedir(d);
	return found;
}

void owners_mount_collect(struct owners *o)
{
	const char *mnt = facts_get_string(o->facts, "fs.mount_point");
	struct mount_walk *w;
	char *unit, *fstab;

	if (!mnt)
		return;
	w = xcalloc(1, sizeof(*w));
	w->o = o;
	w->mnt = mnt;
	unit = read_units(w);
	w->unit = unit;
	fstab = path_read_string("/etc/fstab");
	if (fstab)
		owners_lines(fstab, false, fstab_line, w);
	free(fstab);
	free(unit);
	free(w);
}
