/* Merges the mkfs specs of all reformat recommendations into one command per filesystem type:
 * comma-list options (mke2fs -E and -O, mkfs.xfs -d ...) are joined into one, because mke2fs keeps
 * only the last -E; for any other option the last recommendation wins. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "rules/internal.h"
#include "rules/settings.h"

/* Adds a comma-separated item list to `joined`, skipping items already present. */
static void join_items(json_t *joined, const char *flag, const char *items)
{
	const char *old = json_string_value(json_object_get(joined, flag));
	char *acc = xstrdup(old ? old : ""), *dup = xstrdup(items), *save = NULL;

	for (char *it = strtok_r(dup, ",", &save); it; it = strtok_r(NULL, ",", &save)) {
		size_t n = strlen(it);
		bool present = false;

		for (const char *p = acc; (p = strstr(p, it)); p += n)
			if ((p == acc || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
				present = true;
		if (present)
			continue;
		acc = xrealloc(acc, strlen(acc) + n + 2);
		if (*acc)
			strcat(acc, ",");
		strcat(acc, it);
	}
	json_object_set_new(joined, flag, json_string(acc));
	free(acc);
	free(dup);
}

static json_t *merge_one(const char *fs, const json_t *recs, const char *dev)
{
	json_t *flags = json_array(), *values = json_object(), *from = json_array(), *args = json_array();
	size_t i, j;
	json_t *rec, *f;
	char *cmd = xstrdup(settings_mkfs_program(fs)), *full;
	json_t *out;

	json_array_foreach(recs, i, rec) {
		const json_t *spec = json_object_get(rec, "mkfs");
		const json_t *a = json_object_get(spec, "args");

		if (!spec || strcmp(json_string_value(json_object_get(spec, "fs")), fs))
			continue;
		json_array_append(from, json_object_get(rec, "id"));
		for (j = 0; j + 1 < json_array_size(a); j += 2) {
			const char *flag = json_string_value(json_array_get(a, j));
			const char *val = json_string_value(json_array_get(a, j + 1));
			bool known = json_object_get(values, flag) != NULL;

			if (!known)
				json_array_append_new(flags, json_string(flag));
			if (settings_mkfs_flag_joins(fs, flag))
				join_items(values, flag, val);
			else
				json_object_set_new(values, flag, json_string(val));
		}
	}
	json_array_foreach(flags, i, f) {
		const char *flag = json_string_value(f);
		char *q = rules_shell_quote(json_string_value(json_object_get(values, flag)));
		char *next = xasprintf("%s %s %s", cmd, flag, q);

		json_array_append_new(args, json_string(flag));
		json_array_append(args, json_object_get(values, flag));
		free(cmd);
		free(q);
		cmd = next;
	}
	full = xasprintf("%s %s", cmd, dev);
	out = json_pack("{s:s, s:o, s:s, s:o}", "fs", fs, "args", args, "command", full, "from", from);
	free(cmd);
	free(full);
	json_decref(flags);
	json_decref(values);
	return out;
}

json_t *rules_merge_mkfs(const json_t *recs, const struct facts *facts)
{
	json_t *out = json_array(), *done = json_object();
	char *dev = settings_device_word(facts);
	size_t i;
	json_t *rec;

	json_array_foreach(recs, i, rec) {
		const char *fs = json_string_value(json_object_get(json_object_get(rec, "mkfs"), "fs"));

		if (!fs || json_object_get(done, fs))
			continue;
		json_object_set_new(done, fs, json_true());
		json_array_append_new(out, merge_one(fs, recs, dev));
	}
	json_decref(done);
	free(dev);
	return out;
}
