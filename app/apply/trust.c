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
#include "rules/settings.h"

/* The facts a change can alter that its revert is built from, whose values apply records before the
 * change ("before"): the setting's own fact (a mount's options, which say strictatime) and the one
 * its family names (a bytes sysctl's ratio, which writing the bytes zeroes). */
static void before_keys(const struct setting *s, const char *keys[2])
{
	keys[0] = rules_setting_fact(s->name);
	keys[1] = s->family->revert_fact ? s->family->revert_fact(s) : NULL;
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

/* Whether `path` is where the family installs its persistent form: its file, or (where the owners
 * of the setting made apply place it to sort after theirs, settings_place) a sibling of a file named
 * NN-fstune.EXT, named NN-fstune.EXT or zz-fstune.EXT with its suffix. */
/* Whether `name` is NN-fstune or zz-fstune followed by `suffix` (NULL: any suffix starting with '.'). */
static bool is_fstune_name(const char *name, const char *suffix)
{
	size_t digits = strspn(name, "0123456789");
	const char *rest;

	if (!digits && !strncmp(name, "zz", 2))
		digits = 2;
	rest = name + digits;
	if (!digits || strncmp(rest, "-fstune", 7))
		return false;
	return suffix ? !strcmp(rest + 7, suffix) : rest[7] == '.';
}

static bool is_allowed_path(const char *file, const char *path)
{
	const char *slash = strrchr(file, '/'), *name;
	size_t dir_len = slash ? (size_t)(slash - file) + 1 : 0;

	if (!strcmp(path, file))
		return true;
	if (!slash || !is_fstune_name(file + dir_len, NULL) || strncmp(path, file, dir_len))
		return false;
	name = path + dir_len;
	return !strchr(name, '/') && is_fstune_name(name, strchr(file + dir_len, '.'));
}

/* What is wrong with the files a change restores, or NULL. */
static const char *files_problem(const struct setting *s, const json_t *c, char *buf, size_t len)
{
	const char *file = s->family->persistent_file;
	size_t i;
	json_t *f;

	json_array_foreach(json_object_get(c, "files"), i, f) {
		const char *path = json_string_value(json_object_get(f, "path"));

		if (!file) {
			snprintf(buf, len, "it restores %s, but %s has no persistent file fstune installs", path, s->name);
			return buf;
		}
		if (!is_allowed_path(file, path)) {
			snprintf(buf, len, "it restores %s, where %s's persistent form never goes (%s)", path, s->name, file);
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

/* What names the filesystem and device a run changed: its UUID, which stays when the disk is renamed
 * at the next boot or the filesystem mounted elsewhere; without one, its mount point and disk. */
static const char *const identity_keys[] = {"fs.uuid", "fs.mount_point", "device.disk"};

json_t *apply_identity(const struct facts *facts)
{
	json_t *id = json_object();
	bool has_uuid = json_is_string(facts_get(facts, "fs.uuid"));

	for (size_t i = has_uuid ? 0 : 1; i < (has_uuid ? 1 : 3); i++) {
		const json_t *v = facts_get(facts, identity_keys[i]);

		if (json_is_string(v))
			json_object_set_new(id, identity_keys[i], json_deep_copy(v));
	}
	return id;
}

const char *undo_identity_problem(const json_t *identity, const struct facts *now, char *buf, size_t len)
{
	const char *key;
	json_t *was;

	json_object_foreach((json_t *)identity, key, was) {
		const json_t *is = facts_get(now, key);
		bool known = false;

		for (size_t i = 0; i < sizeof identity_keys / sizeof identity_keys[0]; i++)
			known |= !strcmp(key, identity_keys[i]);
		if (!known || !json_is_string(was)) {
			snprintf(buf, len, "its run names the target by %.64s, which apply does not record", key);
			return buf;
		}
		if (!json_equal((json_t *)was, (json_t *)is)) {
			snprintf(buf, len, "%s was %.200s when apply ran and is %.200s now: the changes would be undone on "
				 "another filesystem or device", key, json_string_value(was),
				 json_is_string(is) ? json_string_value(is) : "unknown");
			return buf;
		}
	}
	return NULL;
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
