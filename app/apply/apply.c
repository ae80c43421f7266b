/* The apply engine: each change of a plan is journaled (pending) before anything is touched, then
 * made on the running system with the setting table's commands, its persistent form installed, the
 * value probed again, and journaled done. A change that fails or does not take rolls back the whole
 * run, last change first. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app/apply/apply.h"
#include "fstune/bench.h"
#include "lib/xalloc.h"
#include "fstune/utf8.h"

static void set_state(json_t *c, const char *state)
{
	json_object_set_new(c, "state", json_string(state));
}

/* Runs the change's apply commands, stopping at the first that fails (err says which and why). */
static int run_commands(const json_t *cmds, const char *setting, FILE *log, struct fst_error *err)
{
	size_t i;
	json_t *c;

	json_array_foreach(cmds, i, c) {
		char *out = NULL;
		int rc = apply_sh(json_string_value(c), &out);

		apply_log(log, "  ran: %s%s", json_string_value(c), rc == 0 ? "" : " (failed)");
		if (rc != 0) {
			fst_error_set(err, FST_EXIT_PARTIAL, "%s: `%s` failed (status %d)%s%s", setting,
				      json_string_value(c), rc, out && *out ? ": " : "", out ? out : "");
			free(out);
			return FST_EXIT_PARTIAL;
		}
		free(out);
	}
	return FST_EXIT_OK;
}

/* Probes the value again: true when it took, false with err naming the setting when it did not,
 * and "verified": null in the change when no probe reads this setting. */
static int verify(json_t *c, const struct apply_env *env, FILE *log, struct fst_error *err)
{
	const char *setting = json_string_value(json_object_get(c, "setting"));
	const json_t *want = json_object_get(c, "new");
	struct facts *now = apply_probe(env->target, err);
	json_t *is = apply_value(now, setting);
	int status = FST_EXIT_OK;

	if (!now) {
		status = FST_EXIT_PARTIAL;
	} else if (!is) {
		json_object_set_new(c, "verified", json_null());
		apply_log(log, "  %s: no probe reads it back: not verified", setting);
	} else if (apply_value_equal(is, want)) {
		json_object_set_new(c, "verified", json_true());
	} else {
		char *a = apply_value_text(want), *b = apply_value_text(is);

		json_object_set_new(c, "verified", json_false());
		status = fst_error_set(err, FST_EXIT_PARTIAL, "%s did not take: set to %s, it reads back %s", setting, a, b);
		free(a);
		free(b);
	}
	json_decref(is);
	facts_free(now);
	return status;
}

/* One change, journaled pending first and done last. Signals are held by the caller. */
static int change_step(json_t *c, struct journal *j, const struct facts *facts, const struct apply_env *env,
		       FILE *log, struct fst_error *err)
{
	const char *setting = json_string_value(json_object_get(c, "setting"));
	json_t *files;
	char *note;
	int status = persist_prepare(c, facts, env->root, &files, &note, err);

	json_object_set_new(c, "files", files);
	if (note) {
		json_object_set_new(c, "note", fst_json_text(note));
		apply_log(log, "  note: %s", note);
		free(note);
	}
	if (status != FST_EXIT_OK)
		return FST_EXIT_PARTIAL;
	json_object_set_new(c, "live", json_boolean(env->is_live));
	apply_record_before(c, facts);
	set_state(c, "pending");
	if (journal_save(j, err) != FST_EXIT_OK)
		return FST_EXIT_PARTIAL;
	if (env->is_live)
		status = run_commands(json_object_get(c, "apply"), setting, log, err);
	else
		apply_log(log, "  not run (--root without --live): %s", json_string_value(json_array_get(json_object_get(c, "apply"), 0)));
	if (status == FST_EXIT_OK)
		status = persist_install(files, env->root, err);
	for (size_t i = 0; status == FST_EXIT_OK && i < json_array_size(files); i++)
		apply_log(log, "  wrote %s", json_string_value(json_object_get(json_array_get(files, i), "path")));
	if (status == FST_EXIT_OK && env->is_live)
		status = verify(c, env, log, err);
	set_state(c, status == FST_EXIT_OK ? "done" : "failed");
	if (journal_save(j, status == FST_EXIT_OK ? err : NULL) != FST_EXIT_OK && status == FST_EXIT_OK)
		status = FST_EXIT_PARTIAL;
	return status;
}

/* Takes back what this run changed, last first, without the checks of undo: it made them itself. */
static void rollback(struct journal *j, const struct facts *facts, const struct apply_env *env, FILE *log)
{
	json_t *changes = json_object_get(j->doc, "changes");

	for (size_t i = json_array_size(changes); i-- > 0;) {
		json_t *c = json_array_get(changes, i);
		const char *state = json_string_value(json_object_get(c, "state"));
		struct fst_error e = FST_ERROR_INIT;

		if (strcmp(state, "done") && strcmp(state, "failed") && strcmp(state, "pending"))
			continue;
		apply_log(log, "rolling back %s", json_string_value(json_object_get(c, "setting")));
		if (undo_change(c, facts, env, log, &e) != FST_EXIT_OK)
			apply_log(log, "  rollback of %s failed: %s (the journal keeps it: fstune undo %s)",
				  json_string_value(json_object_get(c, "setting")), e.msg, j->shown);
		else
			set_state(c, "rolled-back");
		journal_save(j, NULL);
	}
}

/* --dry-run: what each change would do, from the files as they are now. */
static void dry_run(json_t *plan, const struct facts *facts, const struct apply_env *env, FILE *log)
{
	size_t i, k;
	json_t *c, *cmd;

	json_array_foreach(plan, i, c) {
		json_t *files = NULL;
		char *note = NULL;
		struct fst_error e = FST_ERROR_INIT;

		apply_log(log, "would apply %s (%s)", json_string_value(json_object_get(c, "id")),
			  json_string_value(json_object_get(c, "setting")));
		json_array_foreach(json_object_get(c, "apply"), k, cmd)
			apply_log(log, "  %s: %s", env->is_live ? "would run" : "would not run (--root without --live)",
				  json_string_value(cmd));
		if (persist_prepare(c, facts, env->root, &files, &note, &e) != FST_EXIT_OK)
			apply_log(log, "  would fail: %s", e.msg);
		json_array_foreach(files, k, cmd)
			apply_log(log, "  would write %s", json_string_value(json_object_get(cmd, "path")));
		if (note)
			apply_log(log, "  note: %s", note);
		json_object_set_new(c, "files", files ? files : json_array());
		free(note);
	}
}

/* Before anything is changed: every file the plan edits can be read, and its directory resolved (or
 * made) inside the root. A path that cannot refuses the whole run, so nothing is half done. */
static int preflight(const json_t *plan, const struct facts *facts, const struct apply_env *env, struct fst_error *err)
{
	size_t i, k;
	json_t *c, *f;

	json_array_foreach(plan, i, c) {
		json_t *files = NULL;
		char *note = NULL;
		int status = persist_prepare(c, facts, env->root, &files, &note, err);

		json_array_foreach(files, k, f) {
			const char *path = json_string_value(json_object_get(f, "path"));
			char *dir = xstrndup(path, (size_t)(strrchr(path, '/') - path));

			if (status == FST_EXIT_OK)
				status = files_check_dirs(env->root, *dir ? dir : "/", err);
			free(dir);
		}
		json_decref(files);
		free(note);
		if (status != FST_EXIT_OK)
			return FST_EXIT_REFUSED;
	}
	return FST_EXIT_OK;
}

int apply_run(json_t *plan, json_t *run, const struct facts *facts, const struct apply_env *env, FILE *log,
	      char **journal_path, struct fst_error *err)
{
	long pause = apply_test_pause_after();
	struct journal *j;
	json_t *changes, *c;
	size_t i;
	int status = FST_EXIT_OK;

	*journal_path = NULL;
	if (env->is_dry_run) {
		dry_run(plan, facts, env, log);
		json_decref(run);
		return FST_EXIT_OK;
	}
	if (preflight(plan, facts, env, err) != FST_EXIT_OK) {
		json_decref(run);
		return err->status = FST_EXIT_REFUSED; /* nothing was changed, no journal written */
	}
	bench_stop_install();
	if (!(j = journal_create(env->root, run, err))) {
		err->status = FST_EXIT_REFUSED;
		return FST_EXIT_REFUSED; /* nothing was changed: no change without its journal */
	}
	*journal_path = xstrdup(j->shown);
	apply_log(log, "journal: %s", j->shown);
	changes = json_object_get(j->doc, "changes");
	json_array_foreach(plan, i, c) {
		if (*bench_stop_flag())
			break;
		apply_log(log, "applying %s: %s", json_string_value(json_object_get(c, "id")),
			  json_string_value(json_object_get(c, "setting")));
		json_array_append(changes, c);
		apply_hold_signals(true);
		status = change_step(c, j, facts, env, log, err);
		if (status != FST_EXIT_OK) {
			apply_log(log, "%s; rolling back this run", err->msg);
			rollback(j, facts, env, log);
			json_object_set_new(json_object_get(j->doc, "run"), "state", json_string("rolled-back"));
		}
		apply_hold_signals(status != FST_EXIT_OK);
		if (status != FST_EXIT_OK)
			break;
		if (pause > 0 && (long)i + 1 == pause) {
			apply_log(log, "FSTUNE_TEST_PAUSE_AFTER_CHANGE=%ld: stopping (test hook)", pause);
			raise(SIGSTOP);
		}
	}
	if (status == FST_EXIT_OK)
		json_object_set_new(json_object_get(j->doc, "run"), "state",
				    json_string(*bench_stop_flag() ? "interrupted" : "done"));
	json_object_set_new(json_object_get(j->doc, "run"), "finished", json_string(journal_now()));
	journal_save(j, NULL);
	apply_hold_signals(false);
	if (status == FST_EXIT_OK && *bench_stop_flag()) {
		apply_log(log, "stopped by signal %d between changes; the journal holds what was done: "
			  "fstune undo %s", (int)*bench_stop_flag(), j->shown);
		status = 128 + *bench_stop_flag();
	}
	journal_free(j);
	return status;
}
