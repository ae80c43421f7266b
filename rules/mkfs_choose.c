/* One filesystem per device: of a report's reformat recommendations, one rule chooses the type (a
 * mkfs.fs_type recommendation, the first in the report's order; else the filesystem found; else the
 * first reformat recommendation's), and every reformat recommendation made for another type is
 * spelled again for the chosen one or, when the setting has no meaning there (an ext4 reserve on
 * XFS), left out of the report with a note saying why; so is advice about another type (its `fs`). Two mkfs commands for one device would each
 * erase the other. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "rules/internal.h"
#include "rules/settings.h"

static const char *rec_str(const json_t *rec, const char *field)
{
	return json_string_value(json_object_get(rec, field));
}

static const char *spec_fs(const json_t *rec)
{
	return json_string_value(json_object_get(json_object_get(rec, "mkfs"), "fs"));
}

/* The chosen type and, in *by, the id of the recommendation that chose it (NULL: the facts did). */
static const char *choose(const json_t *recs, const struct facts *facts, const char **by)
{
	const char *found = facts_get_string(facts, "fs.type"), *first = NULL;
	size_t i;
	json_t *rec;

	*by = NULL;
	json_array_foreach(recs, i, rec) {
		const char *setting = rec_str(rec, "setting");

		if (setting && !strcmp(setting, "mkfs.fs_type") && spec_fs(rec)) {
			*by = rec_str(rec, "id");
			return spec_fs(rec);
		}
		if (!first)
			first = spec_fs(rec);
	}
	if (!first)
		return NULL;
	if (found && settings_mkfs_program(found))
		return found;
	json_array_foreach(recs, i, rec)
		if (spec_fs(rec) && !strcmp(spec_fs(rec), first)) {
			*by = rec_str(rec, "id");
			break;
		}
	return first;
}

/* The recommendation's setting made for `fs`: true with its new spec and command set, false with
 * `why` when the setting has no spelling there. */
static bool respell(json_t *rec, const char *fs, const struct facts *facts, char *why, size_t len)
{
	const struct setting *s = settings_find(rec_str(rec, "setting"));
	struct setting_ctx c = {0};
	bool ok;

	if (!s || !strcmp(s->name, "mkfs.fs_type")) {
		snprintf(why, len, "it makes another filesystem");
		return false;
	}
	c.facts = facts;
	c.value = json_object_get(rec, "recommended");
	c.current = json_object_get(rec, "current");
	c.fs = fs;
	c.apply = json_array();
	c.revert = json_array();
	ok = settings_build(s, &c);
	if (ok) {
		json_object_set_new(rec, "mkfs", c.mkfs);
		json_object_set(rec, "apply", c.apply);
	} else {
		snprintf(why, len, "%s", c.err);
	}
	json_decref(c.apply);
	json_decref(c.revert);
	json_decref(c.persistent);
	return ok;
}

/* Whether `id` is the recommendation of mkfs.fs_type that chose. */
static bool fs_type_chosen(const json_t *recs, const char *id)
{
	size_t i;
	json_t *rec;

	json_array_foreach(recs, i, rec)
		if (!strcmp(rec_str(rec, "id"), id))
			return rec_str(rec, "setting") && !strcmp(rec_str(rec, "setting"), "mkfs.fs_type");
	return false;
}

/* Whether `rec` is advice with nothing to run about a new filesystem of a type other than `fs` (the
 * bigalloc note of ext4 when XFS is made). */
static bool is_advice_for_other(const json_t *rec, const char *fs)
{
	const char *for_fs = rec_str(rec, "fs");

	return !json_object_get(rec, "mkfs") && for_fs && strcmp(for_fs, fs);
}

/* The options of a recommendation's spec as words ("-O bigalloc -C 1048576"), for a note. */
static char *spec_words(const json_t *rec)
{
	const json_t *args = json_object_get(json_object_get(rec, "mkfs"), "args"), *a;
	char *out = xstrdup("");
	size_t i;

	json_array_foreach(args, i, a) {
		char *next = xasprintf("%s%s%s", out, i ? " " : "", json_string_value(a) ? json_string_value(a) : "");

		free(out);
		out = next;
	}
	if (!*out) {
		free(out);
		out = xasprintf("%s", rec_str(rec, "setting") ? rec_str(rec, "setting") : "its type");
	}
	return out;
}

const char *rules_mkfs_one_fs(json_t *recs, const struct facts *facts, json_t *notes)
{
	const char *by, *fs = choose(recs, facts, &by);
	char *chooser;
	size_t i;

	if (!fs)
		return NULL;
	if (by && fs_type_chosen(recs, by))
		chooser = xasprintf("%s chose %s", by, fs);
	else if (by)
		chooser = xasprintf("no rule chose the type, so it is %s, that of the first reformat advice (%s)", fs, by);
	else
		chooser = xasprintf("the filesystem found is %s", fs);
	for (i = 0; i < json_array_size(recs);) {
		json_t *rec = json_array_get(recs, i);
		char why[256], *args, *other;

		if (is_advice_for_other(rec, fs)) {
			json_array_append_new(notes, json_sprintf("Leaves out %s (advice for %s): %s, and one "
								  "filesystem goes on a device.", rec_str(rec, "id"),
								  rec_str(rec, "fs"), chooser));
			json_array_remove(recs, i);
			continue;
		}
		if (!spec_fs(rec) || !strcmp(spec_fs(rec), fs)) {
			i++;
			continue;
		}
		other = xstrdup(spec_fs(rec)); /* respell replaces the spec it is in */
		if (respell(rec, fs, facts, why, sizeof why)) {
			json_array_append_new(notes, json_sprintf("Spells %s (advised for %s) for %s: %s.",
								  rec_str(rec, "id"), other, fs, chooser));
			free(other);
			i++;
			continue;
		}
		args = spec_words(rec);
		json_array_append_new(notes, json_sprintf("Leaves out %s (for %s: %s): %s, and one filesystem "
							  "goes on a device (%s).", rec_str(rec, "id"), other, args,
							  chooser, why));
		free(args);
		free(other);
		json_array_remove(recs, i);
	}
	free(chooser);
	return fs;
}
