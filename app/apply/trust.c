/* A journal is data, never code: what undo takes from one is checked against the setting table, and
 * the commands it runs are built by the table, never read from the journal. The journal's own
 * "revert" strings are shown to an admin undoing by hand, and compared, nothing more. A journal that
 * asks for anything apply could not have done is refused whole, before anything is touched. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/apply/apply.h"
#include "fstune/rules.h"
#include "lib/facts_schema.h"
#include "lib/xalloc.h"
#include "rules/settings.h"

/* The facts a change can alter that its revert is built from, whose values apply records before the
 * change ("before"): the setting's own fact (a mount's options, which say strictatime) and the
 * counterpart fact its table row names (a bytes sysctl's ratio, which writing the bytes zeroes). */
static void before_keys(const struct setting *s, const char *keys[2])
{
	enum facts_type type;

	keys[0] = rules_setting_fact(s->name);
	keys[1] = s->alt && facts_schema_lookup(s->alt, &type) ? s->alt : NULL;
}

void apply_record_before(json_t *c, const struct facts *facts)
{
	const struct setting *s = settings_find(json_string_value(json_object_get(c, "setting")));
	const char *keys[2];
	json_t *before = json_object();

	if (s) {
		before_keys(s, keys);
		for (size_t i = 0; i < 2; i++)
			if (keys[i] && facts_get(facts, keys[i]))
				json_object_set_new(before, keys[i], json_deep_copy(facts_get(facts, keys[i])));
	}
	json_object_set_new(c, "before", before);
}

/* The setting's persistent form as the table builds it with no owners in the way: its kind and the
 * path it goes to by default. NULL kind when it has none fstune installs. */
static const char *natural_form(const struct setting *s, const json_t *value, char *path, size_t len)
{
	static char kind[16];
	struct facts *bare = facts_new();
	struct setting_ctx ctx = {.facts = bare, .value = value, .apply = json_array(), .revert = json_array()};
	const char *k = NULL;

	if (settings_build(s, &ctx) && ctx.persistent) {
		k = json_string_value(json_object_get(ctx.persistent, "kind"));
		const char *p = json_string_value(json_object_get(ctx.persistent, "path"));

		snprintf(path, len, "%s", p ? p : "");
		snprintf(kind, sizeof kind, "%s", k ? k : "");
		k = k ? kind : NULL;
	}
	json_decref(ctx.apply);
	json_decref(ctx.revert);
	json_decref(ctx.persistent);
	json_decref(ctx.mkfs);
	json_decref(ctx.owners);
	facts_free(bare);
	return k;
}

/* Whether a file fstune installs for this kind may be at `path`: the default file, or (where the
 * owners of the setting made apply place it to sort after theirs) a file of the same directory named
 * NN-fstune or zz-fstune with the default's suffix (settings_place). fstab is only /etc/fstab. */
static bool is_allowed_path(const char *kind, const char *dflt, const char *path)
{
	const char *slash = strrchr(dflt, '/'), *suffix = strrchr(dflt, '.'), *name;
	size_t dlen = slash ? (size_t)(slash - dflt) + 1 : 0, digits;

	if (!strcmp(path, dflt))
		return true;
	if (strcmp(kind, "sysctl.d") && strcmp(kind, "udev"))
		return false;
	if (!slash || !suffix || strncmp(path, dflt, dlen) || strchr(path + dlen, '/'))
		return false;
	name = path + dlen;
	digits = strspn(name, "0123456789");
	if (!digits && !strncmp(name, "zz", 2))
		digits = 2;
	return digits && !strncmp(name + digits, "-fstune", 7) && !strcmp(name + digits + 7, suffix);
}

/* What is wrong with the files a change restores, or NULL. */
static const char *files_problem(const struct setting *s, const json_t *c, char *buf, size_t len)
{
	const json_t *files = json_object_get(c, "files");
	char dflt[256] = "";
	const char *kind = json_array_size(files) ? natural_form(s, json_object_get(c, "new"), dflt, sizeof dflt) : NULL;
	size_t i;
	json_t *f;

	json_array_foreach(files, i, f) {
		const char *path = json_string_value(json_object_get(f, "path"));

		if (!kind || (strcmp(kind, "sysctl.d") && strcmp(kind, "udev") && strcmp(kind, "fstab"))) {
			snprintf(buf, len, "it restores %s, but %s has no persistent file fstune installs", path, s->name);
			return buf;
		}
		if (!is_allowed_path(kind, dflt, path)) {
			snprintf(buf, len, "it restores %s, where %s's persistent form never goes (%s)", path, s->name, dflt);
			return buf;
		}
	}
	return NULL;
}

/* What is wrong with the recorded values of the facts before the change, or NULL. */
static const char *before_problem(const struct setting *s, const json_t *c, char *buf, size_t len)
{
	const json_t *before = json_object_get(c, "before");
	const char *keys[2], *k;
	enum facts_type type;
	json_t *v;

	if (before && !json_is_object(before))
		return "\"before\" must be an object";
	before_keys(s, keys);
	json_object_foreach((json_t *)before, k, v) {
		if (!((keys[0] && !strcmp(k, keys[0])) || (keys[1] && !strcmp(k, keys[1])))) {
			snprintf(buf, len, "\"before\" holds %.64s, which %s does not change", k, s->name);
			return buf;
		}
		if (!facts_schema_lookup(k, &type) || !facts_schema_matches(type, v)) {
			snprintf(buf, len, "\"before\".%.64s is not a value that fact takes", k);
			return buf;
		}
	}
	return NULL;
}

const char *undo_change_problem(const json_t *c, char *buf, size_t len)
{
	const char *name = json_string_value(json_object_get(c, "setting"));
	const char *disruption = json_string_value(json_object_get(c, "disruption"));
	const struct setting *s = settings_find(name);
	const json_t *old = json_object_get(c, "old"), *new = json_object_get(c, "new");
	char msg[256];

	if (!s) {
		snprintf(buf, len, "no setting is named %.64s", name ? name : "(none)");
		return buf;
	}
	if (!apply_class_of(s->disruption)) {
		snprintf(buf, len, "%s is of class %s, which fstune apply does not change", s->name, s->disruption);
		return buf;
	}
	if (!disruption || strcmp(disruption, s->disruption)) {
		snprintf(buf, len, "the journal says class %.16s, the setting table %s", disruption ? disruption : "(none)",
			 s->disruption);
		return buf;
	}
	/* the old value was probed and may lie outside what a rule may recommend: its type is checked */
	if ((!json_is_null(old) && !settings_check_value(s, old, false, msg, sizeof msg)) ||
	    !settings_check_value(s, new, true, msg, sizeof msg)) {
		snprintf(buf, len, "%s", msg);
		return buf;
	}
	if (json_is_string(old)) {
		for (const char *p = json_string_value(old); *p; p++)
			if ((unsigned char)*p < 0x20) {
				snprintf(buf, len, "%s: control character in the old value", s->name);
				return buf;
			}
	}
	{
		const char *why = before_problem(s, c, buf, len);

		return why ? why : files_problem(s, c, buf, len);
	}
}

/* `now` with the values the change recorded from before it (checked by undo_change_problem). */
static struct facts *facts_before(const struct facts *now, const json_t *c)
{
	struct facts *f = facts_new();
	const char *k;
	json_t *v;

	json_decref(f->doc);
	f->doc = json_deep_copy(now->doc);
	json_object_foreach(json_object_get(c, "before"), k, v)
		facts_set_json(f, k, json_deep_copy(v), facts_source(now, k));
	return f;
}

int undo_revert_commands(const json_t *c, const struct facts *now, json_t **cmds, struct fst_error *err)
{
	const struct setting *s = settings_find(json_string_value(json_object_get(c, "setting")));
	const json_t *old = json_object_get(c, "old");
	struct facts *f = now ? facts_before(now, c) : facts_new();
	struct setting_ctx ctx = {.facts = f, .value = json_object_get(c, "new"), .current = json_is_null(old) ? NULL : old,
				  .fs = facts_get_string(f, "fs.type"), .apply = json_array(), .revert = json_array()};
	int status = FST_EXIT_OK;

	*cmds = NULL;
	if (!s || !settings_build(s, &ctx))
		status = fst_error_set(err, FST_EXIT_REFUSED, "%s: the setting table cannot build its revert for the "
				       "running system: %s", s ? s->name : "?", s ? ctx.err : "unknown setting");
	else
		*cmds = json_incref(ctx.revert);
	json_decref(ctx.apply);
	json_decref(ctx.revert);
	json_decref(ctx.persistent);
	json_decref(ctx.mkfs);
	json_decref(ctx.owners);
	facts_free(f);
	return status;
}
