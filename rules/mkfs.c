/* Merges the mkfs specs of all reformat recommendations into the one command for the device, of the
 * one filesystem type chosen (mkfs_choose.c): comma-list options (mke2fs -E and -O, mkfs.xfs -d
 * ...) are joined into one, because mke2fs keeps only the last -E; for any other option the last
 * recommendation wins, and the one it overrides is named in "notes". A block size the facts imply
 * is kept, and said so in "notes" too. The command also keeps the label and UUID of the filesystem
 * it replaces (mkfs_keep.c); "args" holds only what the advice chose, which trial runs. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "fstune/fstype.h"
#include "rules/internal.h"
#include "rules/settings.h"
#include "fstune/shell.h"

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

/* The block size the facts imply for a new `fs`: the current filesystem's, when it is of the same
 * family. The rules size inodes and stripes in its blocks, so a merged command that named no -b
 * would let mke2fs pick another. 0 when none. */
static long long implied_block_size(const char *fs, const struct facts *facts)
{
	const char *cur = facts_get_string(facts, "fs.type");
	long long bs = 0;

	if (!cur || !facts_get_int(facts, "fs.block_size", &bs) || bs < 512 || bs > 65536 ||
	    (bs & (bs - 1)))
		return 0;
	if (fstype_is_ext(fs) ? fstype_is_ext(cur) : !strcmp(fs, "xfs") && !strcmp(cur, "xfs"))
		return bs;
	return 0;
}

/* The merged options of the reformat recommendations of `fs`: the flags in order of first use, and
 * each flag's value. Overrides and a kept block size are said in `notes`. */
static void merge_options(const char *fs, const json_t *recs, const struct facts *facts, json_t *flags,
			  json_t *values, json_t *from, json_t *notes)
{
	json_t *who = json_object(), *rec;
	size_t i, j;
	long long bs;

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
			if (settings_mkfs_flag_joins(fs, flag)) {
				join_items(values, flag, val);
				continue;
			}
			/* One value per option: a recommendation it overrides is said, not dropped. */
			if (known && strcmp(json_string_value(json_object_get(values, flag)), val))
				json_array_append_new(notes, json_sprintf(
					"Takes %s %s (%s) over %s %s (%s): mkfs honours one value.", flag, val,
					json_string_value(json_object_get(rec, "id")), flag,
					json_string_value(json_object_get(values, flag)),
					json_string_value(json_object_get(who, flag))));
			json_object_set_new(values, flag, json_string(val));
			json_object_set(who, flag, json_object_get(rec, "id"));
		}
	}
	if (!json_object_get(values, "-b") && (bs = implied_block_size(fs, facts)) > 0) {
		char *v = xasprintf("%s%lld", strcmp(fs, "xfs") ? "" : "size=", bs);

		json_array_append_new(flags, json_string("-b"));
		json_object_set_new(values, "-b", json_string(v));
		json_array_append_new(notes, json_sprintf("Keeps -b %s, the block size of the filesystem "
							  "found (fs.block_size), which the advice was "
							  "worked out for.", v));
		free(v);
	}
	json_decref(who);
}

/* "PROGRAM FLAG VALUE... [-f] DEV", each value one quoted word; behind `prefix DEV && ` when given. */
static char *command_of(const char *fs, const json_t *flags, const json_t *values, const char *prefix,
			const struct facts *facts, const char *dev)
{
	char *cmd = prefix ? xasprintf("%s %s && %s", prefix, dev, settings_mkfs_program(fs))
			   : xstrdup(settings_mkfs_program(fs)), *full;
	size_t i;
	json_t *f;

	json_array_foreach(flags, i, f) {
		const char *flag = json_string_value(f);
		char *q = fst_shell_quote(json_string_value(json_object_get(values, flag)));
		char *next = xasprintf("%s %s %s", cmd, flag, q);

		free(cmd);
		free(q);
		cmd = next;
	}
	full = xasprintf("%s%s %s", cmd, settings_mkfs_force(fs, facts), dev);
	free(cmd);
	return full;
}

static json_t *merge_one(const char *fs, const json_t *recs, const struct facts *facts, const char *dev,
			 json_t *notes)
{
	json_t *flags = json_array(), *values = json_object(), *from = json_array(), *args = json_array();
	json_t *cmd_flags, *cmd_values, *out, *f;
	const char *prefix;
	char *command;
	size_t i;

	merge_options(fs, recs, facts, flags, values, from, notes);
	json_array_foreach(flags, i, f) {
		json_array_append(args, f);
		json_array_append(args, json_object_get(values, json_string_value(f)));
	}
	cmd_flags = json_deep_copy(flags);
	cmd_values = json_deep_copy(values);
	rules_mkfs_keep_identity(fs, facts, cmd_flags, cmd_values, &prefix, notes);
	command = command_of(fs, cmd_flags, cmd_values, prefix, facts, dev);
	rules_mkfs_notes(recs, cmd_values, facts, notes);
	out = json_pack("{s:s, s:o, s:s, s:o}", "fs", fs, "args", args, "command", command, "from", from);
	if (json_array_size(notes))
		json_object_set(out, "notes", notes);
	free(command);
	json_decref(flags);
	json_decref(values);
	json_decref(cmd_flags);
	json_decref(cmd_values);
	return out;
}

/* Each reformat recommendation's apply becomes its filesystem's one merged command: a part alone
 * (mkfs.xfs -d su= without sw=) may not even run, and two mkfs runs would each erase the other. */
static void apply_merged(json_t *recs, const json_t *merged)
{
	size_t i, j;
	json_t *rec, *m;

	json_array_foreach(recs, i, rec) {
		const char *fs = json_string_value(json_object_get(json_object_get(rec, "mkfs"), "fs"));

		json_array_foreach(merged, j, m)
			if (fs && !strcmp(fs, json_string_value(json_object_get(m, "fs"))))
				json_object_set_new(rec, "apply", json_pack("[O]", json_object_get(m, "command")));
	}
}

json_t *rules_merge_mkfs(json_t *recs, const struct facts *facts)
{
	json_t *out = json_array(), *notes = json_array();
	const char *fs = rules_mkfs_one_fs(recs, facts, notes);

	if (fs) {
		char *dev = settings_device_word(facts);

		json_array_append_new(out, merge_one(fs, recs, facts, dev, notes));
		free(dev);
		apply_merged(recs, out);
	}
	json_decref(notes);
	return out;
}
