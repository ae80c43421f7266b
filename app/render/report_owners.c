/* The report's sentences on who else manages a setting (the facts owners.<setting>, copied into
 * each recommendation by the engine) and on where the persistent form was placed, and the
 * leftovers that manage nothing any more: for the report model and the JSON writer. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app/render/report_build.h"
#include "app/render/report_render.h"
#include "lib/xalloc.h"

static const char *str(const json_t *o, const char *field)
{
	return json_string_value(json_object_get(o, field));
}

/* "it wins at boot", "overridden: why", "may win: why". Caller frees. */
static char *verdict(const json_t *owner)
{
	const json_t *wins = json_object_get(owner, "wins");
	const char *note = str(owner, "note");

	if (json_is_true(wins))
		return note ? xasprintf("this one wins (%s)", note) : xstrdup("this one wins");
	if (json_is_string(wins))
		return note ? xasprintf("it may win: %s", note) : xstrdup("it may win");
	return note ? xasprintf("overridden: %s", note) : xstrdup("overridden");
}

char *report_owner_text(const json_t *owner)
{
	const char *kind = str(owner, "kind"), *key = str(owner, "key"), *value = str(owner, "value");
	const char *path = str(owner, "path"), *via = str(owner, "via"), *profile = str(owner, "profile");
	long long line = json_integer_value(json_object_get(owner, "line"));
	char *v = verdict(owner), *extra, *out;
	bool is_fstab = kind && !strcmp(kind, "fstab"), is_mount = is_fstab || (kind && !strcmp(kind, "mount-unit"));
	const char *what = is_fstab ? "fstab entry" : "mount unit";

	if (kind && !strcmp(kind, "cmdline")) {
		out = xasprintf("%s=%s on the kernel command line: %s", key ? key : "?", value ? value : "",
				str(owner, "note") ? str(owner, "note") : v);
		free(v);
		return out;
	}
	if (profile)
		extra = xasprintf(" (tuned profile %s, [%s])", profile, str(owner, "section") ? str(owner, "section") : "?");
	else if (via)
		extra = xasprintf(" (read through %s)", via);
	else
		extra = xstrdup("");
	if (json_is_true(json_object_get(owner, "run")))
		out = xasprintf("the program %s, run by the udev rule at %s:%lld, sets it to %s; %s", key ? key : "?",
				path ? path : "?", line, value ? value : "a value not read off the command", v);
	else if (is_mount && value)
		out = xasprintf("the %s at %s:%lld has %s; %s", what, path ? path : "?", line, value, v);
	else if (is_mount)
		out = xasprintf("the %s at %s:%lld mounts it without the option (the kernel's default); %s",
				what, path ? path : "?", line, v);
	else
		out = xasprintf("%s is set to %s by %s:%lld%s; %s", key ? key : "?", value ? value : "(nothing)",
				path ? path : "?", line, extra, v);
	free(extra);
	free(v);
	return out;
}

char **report_managed_lines(const json_t *rec, size_t *n)
{
	const json_t *owners = json_object_get(rec, "owners"), *e;
	const json_t *placement = json_object_get(json_object_get(rec, "persistent"), "placement");
	char **out = NULL;
	size_t i;

	*n = 0;
	json_array_foreach(owners, i, e) {
		out = report_vec_grow(out, *n, sizeof(*out));
		out[(*n)++] = report_owner_text(e);
	}
	if (str(placement, "note")) {
		out = report_vec_grow(out, *n, sizeof(*out));
		out[(*n)++] = xstrdup(str(placement, "note"));
	}
	return out;
}

/* Calls fn on each owner under `node` (a subtree of owners, keyed by setting-name parts) that
 * manages nothing: a command-line option the kernel ignores. */
static void leftovers_in(const json_t *node, const char *prefix, void (*fn)(const char *setting, const json_t *owner,
									    void *arg), void *arg)
{
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)node, k, v) {
		char *name = *prefix ? xasprintf("%s.%s", prefix, k) : xstrdup(k);
		size_t i;
		json_t *e;

		if (json_is_object(v))
			leftovers_in(v, name, fn, arg);
		json_array_foreach(v, i, e)
			if (!strcmp(str(e, "kind") ? str(e, "kind") : "", "cmdline") && json_is_false(json_object_get(e, "wins")))
				fn(name, e, arg);
		free(name);
	}
}

struct lines {
	char **v;
	size_t n;
};

static void leftover_text(const char *setting, const json_t *owner, void *arg)
{
	struct lines *l = arg;

	(void)setting;
	l->v = report_vec_grow(l->v, l->n, sizeof(*l->v));
	l->v[l->n++] = report_owner_text(owner);
}

char **report_leftover_lines(const struct session *s, size_t *n)
{
	struct lines l = {NULL, 0};
	const json_t *owners = facts_get(s->facts, "owners");

	if (json_is_object(owners))
		leftovers_in(owners, "", leftover_text, &l);
	*n = l.n;
	return l.v;
}

static void leftover_json(const char *setting, const json_t *owner, void *arg)
{
	json_t *e = json_deep_copy(owner);

	json_object_set_new(e, "setting", json_string(setting));
	json_array_append_new(arg, e);
}

json_t *report_leftovers(const struct session *s)
{
	json_t *out = json_array();
	const json_t *owners = facts_get(s->facts, "owners");

	if (json_is_object(owners))
		leftovers_in(owners, "", leftover_json, out);
	return out;
}
