/* The undo engine: a journal's changes taken back, last first. The journal is data (trust.c): each
 * revert is built again by the setting table from the recorded setting and values for the running
 * system, and files are restored only where the setting's persistent form goes. Before anything is
 * touched, every value and file must still be what apply left (someone may have changed it since,
 * and undo would silently overwrite their change); --force skips that check. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/apply/apply.h"
#include "lib/xalloc.h"

static bool has_state(const json_t *c, const char *state)
{
	const char *s = json_string_value(json_object_get(c, "state"));

	return s && !strcmp(s, state);
}

/* The changes an undo takes back: made (done), or begun and maybe made (pending: a run killed
 * mid-change; the revert restores the old value either way). */
static bool is_to_undo(const json_t *c)
{
	return has_state(c, "done") || has_state(c, "pending");
}

/* The journal's own revert line `i`, when the table built something else (the device was renamed
 * since, or the journal was edited): said, never run. */
static void say_recorded(const json_t *c, size_t i, const char *built, FILE *log)
{
	const char *recorded = json_string_value(json_array_get(json_object_get(c, "revert"), i));

	if (recorded && strcmp(recorded, built))
		apply_log(log, "  (the journal recorded `%s`; the setting table builds this for the running system)", recorded);
}

int undo_change(json_t *c, const struct facts *facts, const struct apply_env *env, FILE *log, struct fst_error *err)
{
	const char *setting = json_string_value(json_object_get(c, "setting"));
	int status = FST_EXIT_OK;
	json_t *cmds = NULL, *cmd;
	size_t i;

	if (json_is_true(json_object_get(c, "live")) && env->is_live &&
	    undo_revert_commands(c, facts, &cmds, err) != FST_EXIT_OK)
		return FST_EXIT_PARTIAL;
	json_array_foreach(cmds, i, cmd) {
		char *out = NULL;
		int rc = env->is_dry_run ? 0 : apply_sh(json_string_value(cmd), &out);

		apply_log(log, "  %s: %s%s", env->is_dry_run ? "would run" : "ran", json_string_value(cmd),
			  rc ? " (failed)" : "");
		say_recorded(c, i, json_string_value(cmd), log);
		if (rc != 0 && status == FST_EXIT_OK)
			status = fst_error_set(err, FST_EXIT_PARTIAL, "%s: `%s` failed (status %d)%s%s", setting,
					       json_string_value(cmd), rc, out && *out ? ": " : "", out ? out : "");
		free(out);
	}
	json_decref(cmds);
	json_array_foreach(json_object_get(c, "files"), i, cmd)
		apply_log(log, "  %s %s", env->is_dry_run ? "would restore" : "restored",
			  json_string_value(json_object_get(cmd, "path")));
	if (!env->is_dry_run && persist_restore(json_object_get(c, "files"), env->root, status ? NULL : err) != FST_EXIT_OK)
		status = FST_EXIT_PARTIAL;
	return status;
}

/* Appends "; what" to the list of refusals. */
static void refuse(char **list, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void refuse(char **list, const char *fmt, ...)
{
	va_list ap;
	char *what, *more;

	va_start(ap, fmt);
	if (vasprintf(&what, fmt, ap) < 0)
		abort();
	va_end(ap);
	more = xasprintf("%s%s%s", *list ? *list : "", *list ? "; " : "", what);
	free(*list);
	free(what);
	*list = more;
}

/* Whether each file is still as apply left it: as the last change that wrote it left it (or, when
 * that change was pending, as it was before that change). */
static void check_files(const json_t *changes, const struct apply_env *env, char **refusals)
{
	json_t *seen = json_object();
	size_t n = json_array_size(changes);

	for (size_t i = n; i-- > 0;) {
		const json_t *c = json_array_get(changes, i);
		size_t k;
		json_t *f;

		if (!is_to_undo(c))
			continue;
		json_array_foreach(json_object_get(c, "files"), k, f) {
			const char *path = json_string_value(json_object_get(f, "path"));
			char *written = journal_get_bytes(f, "written"), *prev = journal_get_bytes(f, "previous");
			char *full, *now = NULL;
			struct fst_error e = FST_ERROR_INIT;
			int rc;
			bool same;

			if (json_object_get(seen, path)) {
				free(written);
				free(prev);
				continue; /* a later change wrote it last */
			}
			json_object_set_new(seen, path, json_true());
			full = files_rooted(env->root, path);
			rc = files_read(env->root, path, &now, &e);
			same = rc > 0 && written && !strcmp(now, written);
			if (!same && has_state(c, "pending"))
				same = rc > 0 ? prev && !strcmp(now, prev) : rc == 0 && !prev;
			if (!same)
				refuse(refusals, "%s %s since apply wrote it", full,
				       rc == 0 ? "was removed" : rc < 0 ? e.msg : "was edited");
			free(now);
			free(full);
			free(written);
			free(prev);
		}
	}
	json_decref(seen);
}

/* Whether each value is still the one apply set (or, pending, the old one), in the facts `now`. */
static void check_values(const json_t *changes, const struct facts *now, char **refusals)
{
	size_t i;
	json_t *c;

	json_array_foreach(changes, i, c) {
		const char *setting = json_string_value(json_object_get(c, "setting"));
		json_t *is;

		if (!is_to_undo(c) || !json_is_true(json_object_get(c, "live")))
			continue;
		is = apply_value(now, setting);
		if (is && !apply_value_equal(is, json_object_get(c, "new")) &&
		    !(has_state(c, "pending") && apply_value_equal(is, json_object_get(c, "old")))) {
			char *a = apply_value_text(is), *b = apply_value_text(json_object_get(c, "new"));

			refuse(refusals, "%s is %s now, not %s as apply set it (changed since)", setting, a, b);
			free(a);
			free(b);
		}
		json_decref(is);
	}
}

/* After the reverts: each old value back? err names the first that is not. */
static int verify_old(const json_t *changes, const char *target, FILE *log, struct fst_error *err)
{
	struct facts *now = apply_probe(target, err);
	int status = now ? FST_EXIT_OK : FST_EXIT_PARTIAL;
	size_t i;
	json_t *c;

	json_array_foreach(changes, i, c) {
		const char *setting = json_string_value(json_object_get(c, "setting"));
		const json_t *old = json_object_get(c, "old");
		json_t *is = now && !json_is_null(old) && has_state(c, "undone") && json_is_true(json_object_get(c, "live"))
				     ? apply_value(now, setting) : NULL;

		if (is && !apply_value_equal(is, old)) {
			char *a = apply_value_text(is), *b = apply_value_text(old);

			apply_log(log, "%s is %s after the undo, not %s", setting, a, b);
			if (status == FST_EXIT_OK)
				status = fst_error_set(err, FST_EXIT_PARTIAL, "%s did not come back: it is %s, not %s",
						       setting, a, b);
			free(a);
			free(b);
		}
		json_decref(is);
	}
	facts_free(now);
	return status;
}

/* The changes the journal made on the running system, when this undo may not touch it. */
static int check_live(const struct journal *j, const struct apply_env *env, struct fst_error *err)
{
	size_t i;
	json_t *c;

	json_array_foreach(json_object_get(j->doc, "changes"), i, c)
		if (is_to_undo(c) && json_is_true(json_object_get(c, "live")) && !env->is_live)
			return fst_error_set(err, FST_EXIT_REFUSED, "%s changed the running system (%s); undo it with "
					     "--live as well, or the values would stay while the journal says undone",
					     j->shown, json_string_value(json_object_get(c, "setting")));
	return FST_EXIT_OK;
}

/* Every change to undo asks only what apply could have done (trust.c); else the whole journal is
 * refused, whatever --force says: it is not a journal of fstune's making. */
static int check_trust(const struct journal *j, struct fst_error *err)
{
	size_t i;
	json_t *c;

	json_array_foreach(json_object_get(j->doc, "changes"), i, c) {
		char buf[512];
		const char *why = is_to_undo(c) ? undo_change_problem(c, buf, sizeof buf) : NULL;

		if (why)
			return fst_error_set(err, FST_EXIT_REFUSED, "refusing to undo %s: line %d: the change %s: %s. "
					     "Nothing was changed: fstune undoes only what apply could have done, "
					     "built again from its setting table; check the file (who wrote it?)", j->shown,
					     journal_line(j, (long)i), json_string_value(json_object_get(c, "id")), why);
	}
	return FST_EXIT_OK;
}

/* The target the journal's values are read on: its recorded path, which must be absolute; probed.
 * NULL with err (refused). */
static struct facts *probe_target(const struct journal *j, char **target, struct fst_error *err)
{
	struct fst_error e = FST_ERROR_INIT;
	struct facts *now;

	*target = journal_get_bytes(json_object_get(j->doc, "run"), "target");
	if (!*target || **target != '/') {
		fst_error_set(err, FST_EXIT_REFUSED, "refusing to undo %s: its run names no absolute target to probe",
			      j->shown);
		return NULL;
	}
	if (!(now = apply_probe(*target, &e))) {
		fst_error_set(err, FST_EXIT_REFUSED, "refusing to undo %s: cannot probe %s to check the values apply "
			      "set: %s. Nothing was changed", j->shown, *target, e.msg);
	} else {
		char buf[512];
		const char *why = undo_identity_problem(json_object_get(json_object_get(j->doc, "run"), "identity"), now,
							buf, sizeof buf);

		if (why) {
			fst_error_set(err, FST_EXIT_REFUSED, "refusing to undo %s: the target %s: %s. Nothing was changed",
				      j->shown, *target, why);
			facts_free(now);
			now = NULL;
		}
	}
	return now;
}

int undo_journal(struct journal *j, const struct apply_env *env, bool force, FILE *log, struct fst_error *err)
{
	json_t *run = json_object_get(j->doc, "run"), *changes = json_object_get(j->doc, "changes");
	char *refusals = NULL, *target = NULL;
	struct facts *now = NULL;
	int status = FST_EXIT_OK;
	bool any_live = false;

	if (check_live(j, env, err) != FST_EXIT_OK || check_trust(j, err) != FST_EXIT_OK)
		return FST_EXIT_REFUSED;
	for (size_t i = 0; i < json_array_size(changes); i++)
		any_live |= is_to_undo(json_array_get(changes, i)) && json_is_true(json_object_get(json_array_get(changes, i), "live"));
	if (any_live && !(now = probe_target(j, &target, err))) {
		free(target);
		return FST_EXIT_REFUSED;
	}
	check_files(changes, env, &refusals);
	if (any_live)
		check_values(changes, now, &refusals);
	if (refusals && !force) {
		fst_error_set(err, FST_EXIT_REFUSED, "refusing to undo %s: %s. Nothing was changed; --force undoes it "
			      "anyway, overwriting those changes", j->shown, refusals);
		free(refusals);
		facts_free(now);
		free(target);
		return FST_EXIT_REFUSED;
	}
	if (refusals)
		apply_log(log, "--force: undoing although %s", refusals);
	free(refusals);
	for (size_t i = json_array_size(changes); i-- > 0;) {
		json_t *c = json_array_get(changes, i);
		struct fst_error e = FST_ERROR_INIT;

		if (!is_to_undo(c))
			continue;
		apply_log(log, "%s %s (%s)", env->is_dry_run ? "would undo" : "undoing", json_string_value(json_object_get(c, "id")),
			  json_string_value(json_object_get(c, "setting")));
		apply_hold_signals(true);
		if (undo_change(c, now, env, log, &e) != FST_EXIT_OK) {
			apply_log(log, "  %s", e.msg);
			if (status == FST_EXIT_OK)
				*err = e;
			status = FST_EXIT_PARTIAL;
		} else if (!env->is_dry_run) {
			json_object_set_new(c, "state", json_string("undone"));
			journal_save(j, NULL);
		}
		apply_hold_signals(false);
	}
	facts_free(now);
	if (!env->is_dry_run && status == FST_EXIT_OK && any_live)
		status = verify_old(changes, target, log, err);
	free(target);
	if (env->is_dry_run)
		return status;
	json_object_set_new(run, "undo", json_pack("{s:s, s:b, s:s}", "time", journal_now(), "forced", force,
						   "state", status == FST_EXIT_OK ? "undone" : "partial"));
	if (journal_save(j, status == FST_EXIT_OK ? err : NULL) != FST_EXIT_OK && status == FST_EXIT_OK)
		status = FST_EXIT_PARTIAL;
	return status;
}
