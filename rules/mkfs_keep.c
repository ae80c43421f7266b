/* What a new filesystem keeps of the one it replaces, and what the merged command says around it.
 * The label and UUID: /etc/fstab, crypttab, the boot loader's root= and mount units name a
 * filesystem by them, and a new UUID leaves a UUID= entry matching nothing (the next boot stops in
 * emergency mode). mke2fs -L and -U; mkfs.xfs -L and -m uuid= (a label of at most 12 bytes);
 * mkfs.btrfs -L and -U, which btrfs-progs 6.2 refuses while any device holds that UUID, the old
 * filesystem's own included (test_uuid_unique in mkfs/main.c; tried): wipefs -a first. The notes:
 * what must come before the command (a format of the whole device), that it destroys the data, and
 * what keeps matching. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fstune/fstype.h"
#include "lib/xalloc.h"
#include "rules/internal.h"

static bool is_uuid(const char *s)
{
	if (!s || strlen(s) != 36)
		return false;
	for (size_t i = 0; i < 36; i++)
		if (i == 8 || i == 13 || i == 18 || i == 23 ? s[i] != '-' : !strchr("0123456789abcdefABCDEF", s[i]))
			return false;
	return true;
}

/* The longest label `fs` takes, in bytes. */
static size_t label_max(const char *fs)
{
	if (fstype_is_ext(fs))
		return 16;
	return !strcmp(fs, "xfs") ? 12 : 255;
}

/* Adds `item` to the comma list of `flag` in `values` (mkfs.xfs -m), the flag listed when new. */
static void join_option(json_t *flags, json_t *values, const char *flag, const char *item)
{
	const char *old = json_string_value(json_object_get(values, flag));

	if (!old)
		json_array_append_new(flags, json_string(flag));
	json_object_set_new(values, flag, old ? json_sprintf("%s,%s", old, item) : json_string(item));
}

static void keep_label(const char *fs, const struct facts *facts, json_t *flags, json_t *values, json_t *notes)
{
	char *label = facts_get_bytes(facts, "fs.label");

	if (!label || !*label || json_object_get(values, "-L")) {
		free(label);
		return;
	}
	if (strlen(label) > label_max(fs)) {
		json_array_append_new(notes, json_sprintf("The label %s is longer than the %zu bytes %s takes: the "
							  "new filesystem has none. Give it one and change the LABEL= "
							  "entries that name it.", facts_get_string(facts, "fs.label"),
							  label_max(fs), fs));
	} else {
		json_array_append_new(flags, json_string("-L"));
		/* the bytes, which the command quotes as bytes (fst_shell_quote) */
		json_object_set_new(values, "-L", json_stringn_nocheck(label, strlen(label)));
	}
	free(label);
}

void rules_mkfs_keep_identity(const char *fs, const struct facts *facts, json_t *flags, json_t *values,
			      const char **prefix, json_t *notes)
{
	const char *uuid = facts_get_string(facts, "fs.uuid");

	*prefix = NULL;
	if (!facts_get_string(facts, "fs.type") || !strcmp(fs, "ufs"))
		return; /* nothing to keep on a blank device; newfs has no UUID to give */
	keep_label(fs, facts, flags, values, notes);
	if (!is_uuid(uuid)) {
		if (uuid)
			json_array_append_new(notes, json_sprintf("fs.uuid %s is no UUID: the new filesystem gets "
								  "a new one; change the UUID= entries that name it.",
								  uuid));
		return;
	}
	if (!strcmp(fs, "xfs")) {
		char *item = xasprintf("uuid=%s", uuid);

		join_option(flags, values, "-m", item);
		free(item);
		return;
	}
	json_array_append_new(flags, json_string("-U"));
	json_object_set_new(values, "-U", json_string(uuid));
	if (!strcmp(fs, "btrfs")) {
		*prefix = "wipefs -a";
		json_array_append_new(notes, json_string("wipefs -a first: mkfs.btrfs (btrfs-progs 6.2) refuses a "
							 "UUID that any device holds, the old filesystem's too."));
	}
}

/* The fstab entry that mounts the filesystem, as the owners probe found it: "/etc/fstab line N". */
static char *fstab_entry(const struct facts *facts)
{
	const json_t *owners = facts_get(facts, "owners.mount.option.noatime"), *o;
	size_t i;

	json_array_foreach(owners, i, o)
		if (json_is_string(json_object_get(o, "kind")) && !strcmp(json_string_value(json_object_get(o, "kind")), "fstab"))
			return xasprintf("%s line %lld", json_string_value(json_object_get(o, "path")),
					 (long long)json_integer_value(json_object_get(o, "line")));
	return NULL;
}

/* What names the filesystem besides its device: the fstab entry the owners probe found. */
static char *namers(const struct facts *facts)
{
	const char *mp = facts_get_string(facts, "fs.mount_point");
	char *entry = mp ? fstab_entry(facts) : NULL, *out;

	out = xasprintf("%s%s%s%s and anything else that names the filesystem (UUID=, LABEL=: crypttab, the "
			"boot loader's root=, mount units)", entry ? entry : "/etc/fstab",
			entry ? " (the entry of " : "", entry ? mp : "", entry ? ")" : "");
	free(entry);
	return out;
}

/* What the command does to the data, and what goes on naming the new filesystem. */
static void warn_destroys(const json_t *values, const struct facts *facts, json_t *notes)
{
	const char *dev = facts_get_string(facts, "device.path"), *type = facts_get_string(facts, "fs.type");
	const char *mp = facts_get_string(facts, "fs.mount_point"), *m = json_string_value(json_object_get(values, "-m"));
	const char *label = json_object_get(values, "-L") ? facts_get_string(facts, "fs.label") : NULL;
	const char *uuid = json_object_get(values, "-U") || (m && strstr(m, "uuid=")) ? facts_get_string(facts, "fs.uuid")
										       : NULL;
	char *who;

	if (!type) {
		json_array_append_new(notes, json_sprintf("It writes a new filesystem over all of %s.",
							  dev ? dev : "the device"));
		return;
	}
	json_array_append_new(notes, json_sprintf("Back up first: it destroys everything on %s, the %s "
						  "filesystem%s%s included%s.", dev ? dev : "the device", type,
						  mp ? " mounted on " : "", mp ? mp : "",
						  mp ? "; unmount it first (mkfs refuses a mounted filesystem)" : ""));
	who = namers(facts);
	if (uuid)
		json_array_append_new(notes, json_sprintf("It keeps %s%s%sthe UUID %s, so %s go on finding it.",
							  label ? "the label " : "", label ? label : "",
							  label ? " and " : "", uuid, who));
	else if (!facts_get_string(facts, "fs.uuid")) /* one that is no UUID was said already */
		json_array_append_new(notes, json_sprintf("The facts do not give the UUID of the filesystem found "
							  "(fs.uuid), so the new one gets another: change what names the "
							  "old one in %s.", who));
	free(who);
}

void rules_mkfs_notes(const json_t *recs, const json_t *values, const struct facts *facts, json_t *notes)
{
	json_t *head = json_array();
	size_t i;
	json_t *rec;

	json_array_foreach(recs, i, rec)
		if (json_is_true(json_object_get(rec, "precedes_mkfs")))
			json_array_append_new(head, json_sprintf("First, if you take it, %s (%s): it erases the "
								 "whole device, this filesystem and its partition "
								 "table too, so it comes before the partitioning "
								 "and this command, never after.",
								 json_string_value(json_object_get(rec, "id")),
								 json_string_value(json_object_get(rec, "title"))));
	warn_destroys(values, facts, head);
	json_array_extend(head, notes);
	json_array_clear(notes);
	json_array_extend(notes, head);
	json_decref(head);
}
