/* From recommendations to the changes `fstune apply` makes: only the runtime, online and remount
 * classes, each with a way back (its revert commands) and naming a real device or mount point; the
 * rest is shown, never run. A refusal refuses the whole plan, so nothing is half done. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/apply/apply.h"
#include "fstune/rules.h"
#include "fstune/shell.h"
#include "lib/json_find.h"
#include "lib/xalloc.h"

static const struct {
	const char *name;
	unsigned bit;
} classes[] = {
	{"runtime", APPLY_CLASS_RUNTIME},
	{"online", APPLY_CLASS_ONLINE},
	{"remount", APPLY_CLASS_REMOUNT},
};

unsigned apply_class_of(const char *disruption)
{
	for (size_t i = 0; disruption && i < sizeof classes / sizeof classes[0]; i++)
		if (!strcmp(classes[i].name, disruption))
			return classes[i].bit;
	return 0;
}

int apply_class_parse(const char *arg, unsigned *mask, struct fst_error *err)
{
	char *copy = xstrdup(arg), *save = NULL;
	int status = FST_EXIT_OK;

	*mask = 0;
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		unsigned bit = apply_class_of(w);

		if (!bit) {
			status = fst_error_set(err, FST_EXIT_USAGE,
					       "--class %s: fstune apply makes runtime, online and remount changes only "
					       "(offline, reboot and reformat advice is shown, never run)", w);
			break;
		}
		*mask |= bit;
	}
	if (status == FST_EXIT_OK && !*mask)
		status = fst_error_set(err, FST_EXIT_USAGE, "--class needs one of runtime, online, remount");
	free(copy);
	return status;
}

static bool is_listed(const json_t *only, const char *id)
{
	size_t i;
	json_t *e;

	json_array_foreach(only, i, e)
		if (!strcmp(json_string_value(e), id))
			return true;
	return false;
}

/* Whether a change of the plan already sets `setting`: two would leave undo an order to guess. */
static bool in_plan(const json_t *plan, const char *setting)
{
	return json_find_by(plan, "setting", setting) != NULL;
}

/* Why a recommendation the admin selected cannot be applied safely, or NULL. */
static const char *refusal(const json_t *rec)
{
	const char *setting = json_string_value(json_object_get(rec, "setting"));
	const json_t *apply = json_object_get(rec, "apply"), *revert = json_object_get(rec, "revert");
	const json_t *persistent = json_object_get(rec, "persistent");
	const char *kind;
	size_t i;
	json_t *c;

	if (!strncmp(setting, "freebsd.", 8))
		return "it is FreeBSD advice; fstune changes the Linux machine it runs on";
	if (json_array_size(revert) == 0)
		return "it has no revert command (its current value is unknown), so it could not be undone";
	json_array_foreach(apply, i, c)
		if (strstr(json_string_value(c), "${"))
			return "its command needs a device or mount point the facts do not name";
	kind = json_string_value(json_object_get(persistent, "kind"));
	if (kind && !strcmp(kind, "cmdline"))
		return "its persistent form is on the kernel command line, which needs a reboot";
	/* Another owner would win at boot (owners.<setting>): fstune does not fight tuned, nor edit the
	 * admin's own file or mount unit; the report's placement note says what to do instead. */
	if (kind && !strcmp(kind, "tuned"))
		return "tuned manages it: install the child profile the report shows (fstune does not fight tuned)";
	if (kind && (!strcmp(kind, "edit") || !strcmp(kind, "mount-unit")))
		return "another owner's file wins at boot: edit it as the report's placement says";
	return NULL;
}

/* The change a recommendation becomes. */
static json_t *change_of(const json_t *rec)
{
	json_t *c = json_object();
	const json_t *cur = json_object_get(rec, "current");

	json_object_set_new(c, "id", json_string(json_string_value(json_object_get(rec, "id"))));
	json_object_set_new(c, "setting", json_string(json_string_value(json_object_get(rec, "setting"))));
	json_object_set_new(c, "disruption", json_string(json_string_value(json_object_get(rec, "disruption"))));
	json_object_set_new(c, "old", cur ? json_deep_copy(cur) : json_null());
	json_object_set_new(c, "new", json_deep_copy(json_object_get(rec, "recommended")));
	json_object_set_new(c, "apply", json_deep_copy(json_object_get(rec, "apply")));
	json_object_set_new(c, "revert", json_deep_copy(json_object_get(rec, "revert")));
	if (json_is_object(json_object_get(rec, "persistent")))
		json_object_set_new(c, "persistent", json_deep_copy(json_object_get(rec, "persistent")));
	json_object_set_new(c, "state", json_string("planned"));
	json_object_set_new(c, "live", json_false());
	return c;
}

static void shown_add(json_t *shown, const json_t *rec, const char *why)
{
	json_array_append_new(shown, json_pack("{s:s, s:s, s:s}", "id", json_string_value(json_object_get(rec, "id")),
					       "disruption", json_string_value(json_object_get(rec, "disruption")) ?
					       json_string_value(json_object_get(rec, "disruption")) : "advice", "why", why));
}

/* Every --only id must name a recommendation; the message lists the ones there are. */
static int check_only(const json_t *recs, const json_t *only, struct fst_error *err)
{
	size_t i, k;
	json_t *o, *r;

	json_array_foreach(only, i, o) {
		bool found = false;

		json_array_foreach(recs, k, r)
			found |= !strcmp(json_string_value(json_object_get(r, "id")), json_string_value(o));
		if (!found) {
			char *ids = xstrdup("");

			json_array_foreach(recs, k, r) {
				char *more = xasprintf("%s%s%s", ids, *ids ? ", " : "", json_string_value(json_object_get(r, "id")));

				free(ids);
				ids = more;
			}
			fst_error_set(err, FST_EXIT_USAGE, "--only %s: no recommendation has this id (there are: %s)",
				      json_string_value(o), *ids ? ids : "none");
			free(ids);
			return FST_EXIT_USAGE;
		}
	}
	return FST_EXIT_OK;
}

/* A finding the admin accepted (the report's "accepted" mark: {"by", "why"?}) is kept as it is:
 * "accepted (FILE:LINE: why): kept as it is; --only ID applies it". Caller frees. */
static char *accepted_why(const json_t *rec, const char *id)
{
	const json_t *acc = json_object_get(rec, "accepted");
	const char *by = json_string_value(json_object_get(acc, "by"));
	const char *why = json_string_value(json_object_get(acc, "why"));

	return xasprintf("accepted (%s%s%s): kept as it is; --only %s applies it", by ? by : "accepted findings",
			 why ? ": " : "", why ? why : "", id);
}

int apply_plan_build(const json_t *recs, const json_t *only, unsigned mask, json_t **plan, json_t **shown,
		     struct fst_error *err)
{
	char refused[768] = "";
	size_t i, len = 0;
	json_t *r;

	*plan = json_array();
	*shown = json_array();
	if (check_only(recs, only, err) != FST_EXIT_OK)
		return FST_EXIT_USAGE;
	json_array_foreach(recs, i, r) {
		const char *id = json_string_value(json_object_get(r, "id"));
		unsigned bit = apply_class_of(json_string_value(json_object_get(r, "disruption")));
		bool named = only && is_listed(only, id);
		const char *why;

		if (only && !named)
			continue;
		if (!json_is_string(json_object_get(r, "setting"))) {
			shown_add(*shown, r, "advice: nothing to run");
			continue;
		}
		if (!bit || !(bit & mask)) {
			why = !bit ? "offline, reboot and reformat advice is shown, never run" : "its class was not chosen (--class)";
			if (named && len < sizeof refused)
				len += (size_t)snprintf(refused + len, sizeof refused - len, "%s%s: %s", len ? "; " : "", id, why);
			shown_add(*shown, r, why);
			continue;
		}
		if (!named && json_is_object(json_object_get(r, "accepted"))) {
			char *kept = accepted_why(r, id);

			shown_add(*shown, r, kept);
			free(kept);
			continue;
		}
		if (!(why = refusal(r)) && in_plan(*plan, json_string_value(json_object_get(r, "setting"))))
			why = "another recommendation sets the same setting: choose one with --only";
		if (why) {
			if (len < sizeof refused)
				len += (size_t)snprintf(refused + len, sizeof refused - len, "%s%s: %s", len ? "; " : "", id, why);
			continue;
		}
		json_array_append_new(*plan, change_of(r));
	}
	if (len)
		return fst_error_set(err, FST_EXIT_REFUSED, "refusing to apply: %s. Nothing was changed; --only "
				     "selects the others", refused);
	return FST_EXIT_OK;
}

int apply_plan_check_host_wide(const json_t *plan, const struct facts *facts, bool allowed, struct fst_error *err)
{
	char refused[768] = "";
	size_t i, len = 0;
	json_t *c;

	if (allowed || !json_is_true(facts_get(facts, "host.container")))
		return FST_EXIT_OK;
	json_array_foreach(plan, i, c) {
		const char *setting = json_string_value(json_object_get(c, "setting"));

		if (rules_setting_host_wide(setting) && len < sizeof refused)
			len += (size_t)snprintf(refused + len, sizeof refused - len, "%s%s (%s)", len ? ", " : "", setting,
						json_string_value(json_object_get(c, "id")));
	}
	if (len)
		return fst_error_set(err, FST_EXIT_REFUSED, "refusing to apply from inside a container what the whole "
				     "host shares: %s would change it for every tenant of the host. Nothing was changed; "
				     "--host-wide applies them if you own the host, --only selects the others", refused);
	return FST_EXIT_OK;
}

int apply_plan_check_current(json_t *plan, const struct facts *now, bool is_saved, struct fst_error *err)
{
	char refused[768] = "";
	size_t i, len = 0;
	json_t *c;

	json_array_foreach(plan, i, c) {
		const char *setting = json_string_value(json_object_get(c, "setting"));
		json_t *was = json_object_get(c, "old"), *is = apply_value(now, setting);

		if (json_is_null(was) && is) {
			json_object_set(c, "old", is);
		} else if (is && !apply_value_equal(was, is) && len < sizeof refused) {
			char *a = apply_value_text(was), *b = apply_value_text(is);

			len += (size_t)snprintf(refused + len, sizeof refused - len, "%s%s was %s %s and is %s now",
						len ? "; " : "", setting, a, is_saved ? "when the report was made" :
						"before the question", b);
			free(a);
			free(b);
		}
		json_decref(is);
	}
	if (len && is_saved)
		return fst_error_set(err, FST_EXIT_REFUSED, "refusing to apply a stale report: %s. Nothing was "
				     "changed; make a fresh report (or run fstune apply without --report)", refused);
	if (len)
		return fst_error_set(err, FST_EXIT_REFUSED, "refusing to apply: %s (changed while the question was "
				     "asked). Nothing was changed; run fstune apply again to plan from the values as "
				     "they are", refused);
	return FST_EXIT_OK;
}

/* Whether a command of the plan holds `word`. */
static bool plan_names(const json_t *plan, const char *word)
{
	size_t i, k;
	json_t *c, *cmd;

	json_array_foreach(plan, i, c)
		for (const char *const *f = (const char *const[]){"apply", "revert", NULL}; *f; f++)
			json_array_foreach(json_object_get(c, *f), k, cmd)
				if (strstr(json_string_value(cmd), word))
					return true;
	return false;
}

/* What is wrong with the path fact `key` the plan's commands name, or NULL (in buf): it must be the
 * target's as probed now, and a device a block device on this host. */
static const char *named_problem(const json_t *plan, const struct facts *file, const struct facts *now,
				 const char *key, char *buf, size_t len)
{
	char *was = facts_get_bytes(file, key), *is = facts_get_bytes(now, key);
	char *word = was && *was == '/' ? fst_shell_quote(was) : NULL;
	bool is_device = !strcmp(key, "device.path");
	struct stat a, b;
	const char *why = NULL;

	if (!word || !plan_names(plan, word)) {
		why = NULL;
	} else if (is_device && (stat(was, &a) != 0 || !S_ISBLK(a.st_mode))) {
		snprintf(buf, len, "%s %s is not a block device on this host (are these another machine's facts?)", key,
			 facts_get_string(file, key));
		why = buf;
	} else if (!is || (is_device ? stat(is, &b) != 0 || a.st_rdev != b.st_rdev : strcmp(was, is) != 0)) {
		snprintf(buf, len, "its commands name %s %s, and the target probed now has %s", key,
			 facts_get_string(file, key), is ? facts_get_string(now, key) : "none");
		why = buf;
	}
	free(word);
	free(was);
	free(is);
	return why;
}

int apply_plan_check_names(const json_t *plan, const struct facts *file, const struct facts *now, struct fst_error *err)
{
	char buf[768];
	const char *why = named_problem(plan, file, now, "device.path", buf, sizeof buf);

	if (!why)
		why = named_problem(plan, file, now, "fs.mount_point", buf, sizeof buf);
	if (why)
		return fst_error_set(err, FST_EXIT_REFUSED, "refusing to apply: %s. Nothing was changed: a command "
				     "names only what is here and is the target's; make the report on this machine, of "
				     "this target", why);
	return FST_EXIT_OK;
}
