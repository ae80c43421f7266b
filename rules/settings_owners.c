/* Where a persistent form goes when something else already manages the setting: the facts
 * owners.<setting> (the owners probe) say who sets it and who wins at boot; this places the form
 * the setting's builder made so that it wins, or says to edit the owner. With tuned active, a
 * sysctl, scheduler or read-ahead form becomes a child profile that includes the active one
 * (tuned.conf(5): a child's value wins over its parent's), so fstune never fights tuned. Pure: it
 * reads the facts and rewrites the builder's JSON. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "rules/settings.h"

#define TUNED_CHILD "fstune"

/* The name systemd sorts an owner's file by: the sysctl.d entry (a link's own name), else the file. */
static const char *order_name(const json_t *owner)
{
	const char *p = json_string_value(json_object_get(owner, "via"));
	const char *slash;

	if (!p)
		p = json_string_value(json_object_get(owner, "path"));
	if (!p)
		return "";
	slash = strrchr(p, '/');
	return slash ? slash + 1 : p;
}

static bool may_win(const json_t *owner)
{
	const json_t *w = json_object_get(owner, "wins");

	return json_is_true(w) || json_is_string(w);
}

static bool is_kind(const json_t *owner, const char *kind)
{
	const char *k = json_string_value(json_object_get(owner, "kind"));

	return k && !strcmp(k, kind);
}

/* Of the owners of `kind` that may win, the one whose file sorts last; NULL when none may. */
static const json_t *last_contender(const json_t *owners, const char *kind)
{
	const json_t *best = NULL, *e;
	size_t i;

	json_array_foreach(owners, i, e)
		if (is_kind(e, kind) && may_win(e) && (!best || strcmp(order_name(e), order_name(best)) >= 0))
			best = e;
	return best;
}

static char *where(const json_t *owner)
{
	return xasprintf("%s:%lld", json_string_value(json_object_get(owner, "path")),
			 (long long)json_integer_value(json_object_get(owner, "line")));
}

/* A file name in the same directory as the default that sorts after `after`: the default itself,
 * the owner's own number with -fstune, 99-fstune, zz-fstune. NULL when none does. */
static char *name_after(const char *dflt, const char *after, const char *suffix)
{
	char num[16];
	size_t digits = strspn(after, "0123456789");
	char *cands[4];
	char *pick = NULL;

	snprintf(num, sizeof(num), "%.*s", (int)(digits < sizeof(num) ? digits : 0), after);
	cands[0] = xstrdup(dflt);
	cands[1] = digits ? xasprintf("%s-fstune%s", num, suffix) : xstrdup("");
	cands[2] = xasprintf("99-fstune%s", suffix);
	cands[3] = xasprintf("zz-fstune%s", suffix);
	for (size_t i = 0; i < 4; i++) {
		if (!pick && cands[i][0] && strcmp(cands[i], after) > 0)
			pick = cands[i];
		else
			free(cands[i]);
	}
	return pick;
}

static void set_placement(json_t *p, const char *reason, const char *note)
{
	json_object_set_new(p, "placement", json_pack("{s:s, s:s}", "reason", reason, "note", note));
}

/* The form goes into the owner's file instead, at its line: the admin's file, edited by hand, so
 * its kind is "edit" (what would have been written is "form"), never a file fstune installs. */
static void edit_owner(json_t *p, const json_t *owner, const char *note)
{
	json_object_set(p, "form", json_object_get(p, "kind"));
	json_object_set_new(p, "kind", json_string("edit"));
	json_object_set(p, "instead_of", json_object_get(p, "path"));
	json_object_set(p, "path", json_object_get(owner, "path"));
	json_object_set(p, "edit_line", json_object_get(owner, "line"));
	set_placement(p, "edit", note);
}

/* A sysctl.d line or a udev rule: a file named to sort after the last owner that may win. */
static void place_after(json_t *p, const json_t *owners, const char *kind, const char *suffix)
{
	const json_t *last = last_contender(owners, kind);
	const char *path = json_string_value(json_object_get(p, "path"));
	const char *base = strrchr(path, '/') + 1;
	char *at, *dir, *name, *note;

	if (!last)
		return;
	at = where(last);
	dir = xstrndup(path, (size_t)(base - path));
	name = name_after(base, order_name(last), suffix);
	if (json_is_true(json_object_get(last, "run"))) {
		note = xasprintf("the program the udev rule at %s runs sets it after every rule's assignments, "
				 "whatever the file name: edit that rule", at);
		edit_owner(p, last, note);
	} else if (name && !strcmp(name, base)) {
		note = xasprintf("%s sorts after %s, so it wins over %s at boot", base, order_name(last), at);
		set_placement(p, "default", note);
	} else if (name) {
		char *full = xasprintf("%s%s", dir, name);

		note = xasprintf("a file named %s %s lose to %s at boot: this one is named %s, which sorts "
				 "after %s (or edit %s instead)", base,
				 json_is_true(json_object_get(last, "wins")) ? "would" : "could", at, name,
				 order_name(last), at);
		json_object_set_new(p, "instead_of", json_string(path));
		json_object_set_new(p, "path", json_string(full));
		set_placement(p, "after", note);
		free(full);
	} else {
		note = xasprintf("no file name sorts after %s: edit %s to read as below", order_name(last), at);
		edit_owner(p, last, note);
	}
	free(note);
	free(name);
	free(dir);
	free(at);
}

/* The tuned option of a setting: its section and its option line; false when tuned has none. */
static bool tuned_option(const struct setting *s, const json_t *value, char *section, size_t slen,
			 char *option, size_t olen)
{
	const char *v = json_string_value(value);
	char num[32];

	if (json_is_integer(value)) {
		snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(value));
		v = num;
	}
	if (!v)
		return false;
	if (!strncmp(s->name, "sysctl.", 7)) {
		snprintf(section, slen, "sysctl");
		snprintf(option, olen, "%s=%s", s->name + 7, v);
	} else if (!strcmp(s->name, "queue.scheduler")) {
		snprintf(section, slen, "disk");
		snprintf(option, olen, "elevator=%s", v);
	} else if (!strcmp(s->name, "queue.read_ahead_kb")) {
		snprintf(section, slen, "disk");
		snprintf(option, olen, "readahead=%s", v);
	} else {
		return false;
	}
	return true;
}

/* The sysctl.d owner tuned re-applies last after its profile (the probe marks them "reapplied"):
 * a child profile alone would not hold against it. */
static const json_t *reapplied_owner(const json_t *owners)
{
	const json_t *e, *found = NULL;
	size_t i;

	json_array_foreach(owners, i, e)
		if (is_kind(e, "sysctl.d") && json_is_true(json_object_get(e, "reapplied")))
			found = e;
	return found;
}

/* With tuned active: a child profile including the active one. false when tuned has no option
 * for the setting (the udev form stays). */
static bool place_tuned(const struct setting *s, struct setting_ctx *c, const json_t *owners)
{
	const char *active = facts_get_string(c->facts, "host.tuned_profile");
	const char *path = "/etc/tuned/" TUNED_CHILD "/tuned.conf";
	char section[16], option[160], *include, *line, *note, *at;
	const char *mode;
	const json_t *over;
	bool is_ours;

	if (!active || !tuned_option(s, c->value, section, sizeof(section), option, sizeof(option)))
		return false;
	include = xstrdup(active);
	for (char *p = include; *p; p++)
		if (*p == ' ' || *p == '\t')
			*p = ',';
	is_ours = !strcmp(active, TUNED_CHILD);
	line = is_ours ? xasprintf("[%s]\n%s", section, option)
		       : xasprintf("[main]\ninclude=%s\n\n[%s]\n%s", include, section, option);
	over = !strcmp(section, "sysctl") ? reapplied_owner(owners) : NULL;
	mode = facts_get_string(c->facts, "host.tuned_profile_mode");
	at = over ? where(over) : NULL;
	note = xasprintf("tuned (profile %s) is active: the persistent form is %s, not a %s file tuned could "
			 "override; select it with tuned-adm profile %s%s%s%s%s", active,
			 is_ours ? "a line in its own profile" : "a child profile that includes it",
			 !strcmp(section, "sysctl") ? "sysctl.d" : "udev rules", TUNED_CHILD,
			 mode && !strcmp(mode, "auto") ? ", which also turns the profile mode from auto to manual: "
			 "in auto mode tuned applies its own recommendation at start" : "",
			 at ? "; and tuned re-applies " : "", at ? at : "",
			 at ? " after its profiles (reapply_sysctl), so remove that line too or it wins" : "");
	free(at);
	json_decref(c->persistent);
	c->persistent = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s}", "kind", "tuned", "path", path, "line",
				  line, "profile", TUNED_CHILD, "include", include, "section", section, "option",
				  option);
	if (over)
		json_object_set_new(c->persistent, "conflict", json_deep_copy(over));
	set_placement(c->persistent, "tuned", note);
	free(note);
	free(line);
	free(include);
	return true;
}

/* A mount option: in the mount unit when one overrides fstab, else in the fstab entry, located. */
static void place_mount(json_t *p, const json_t *owners)
{
	const json_t *e, *win = NULL;
	const char *line = json_string_value(json_object_get(p, "line"));
	const char *opt = json_string_value(json_object_get(p, "option"));
	size_t i;
	char *note, *at;

	json_array_foreach(owners, i, e)
		if (json_is_true(json_object_get(e, "wins")))
			win = e;
	if (!win || !opt)
		return;
	at = where(win);
	if (is_kind(win, "mount-unit")) {
		const char *now = json_string_value(json_object_get(win, "value"));
		char *text = xasprintf("add %s to Options= in %s%s%s%s; then reload systemd's units", opt, at,
				       now ? " (replacing " : "", now ? now : "", now ? ")" : "");

		note = xasprintf("%s mounts this filesystem and overrides its /etc/fstab entry: change the "
				 "unit, not fstab", json_string_value(json_object_get(win, "path")));
		json_object_set_new(p, "kind", json_string("mount-unit"));
		json_object_set(p, "path", json_object_get(win, "path"));
		json_object_set_new(p, "line", json_string(text));
		set_placement(p, "mount-unit", note);
		free(text);
	} else {
		char *text = xasprintf("%s (the entry at %s)", line ? line : "", at);

		note = xasprintf("the entry at %s mounts this filesystem at boot", at);
		json_object_set_new(p, "line", json_string(text));
		set_placement(p, "fstab", note);
		free(text);
	}
	free(note);
	free(at);
}

void settings_place(const struct setting *s, struct setting_ctx *c)
{
	char key[160];
	const json_t *owners;
	const char *kind;
	bool tuned = false;

	snprintf(key, sizeof(key), "owners.%s", s->name);
	owners = facts_get(c->facts, key);
	if (json_is_array(owners) && json_array_size(owners))
		c->owners = json_deep_copy(owners);
	else
		owners = NULL;
	kind = json_string_value(json_object_get(c->persistent, "kind"));
	if (!kind)
		return;
	facts_get_bool(c->facts, "host.tuned_active", &tuned);
	if (tuned && (!strcmp(kind, "sysctl.d") || !strcmp(kind, "udev")) && place_tuned(s, c, owners))
		return;
	if (!owners)
		return;
	if (!strcmp(kind, "sysctl.d"))
		place_after(c->persistent, owners, "sysctl.d", ".conf");
	else if (!strcmp(kind, "udev"))
		place_after(c->persistent, owners, "udev", ".rules");
	else if (!strcmp(kind, "fstab"))
		place_mount(c->persistent, owners);
}
