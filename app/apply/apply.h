/* The parts of `fstune apply`, `fstune undo` and `fstune history` (app/apply/): the plan of changes
 * taken from recommendations, the undo journal, the persistent files, and the engines that apply a
 * plan and take a journal back. A change is one JSON object from the plan to the journal:
 *   {"id", "setting", "disruption", "old", "new", "apply": [...], "revert": [...],
 *    "persistent": {...}, "state", "live", "verified", "files": [...], "note"}
 * (doc/journal.md has every field). */
#ifndef FSTUNE_APP_APPLY_H
#define FSTUNE_APP_APPLY_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "fstune/error.h"
#include "fstune/facts.h"

/* The disruption classes fstune apply runs; every other class is shown, never run. */
enum apply_class {
	APPLY_CLASS_RUNTIME = 1 << 0,
	APPLY_CLASS_ONLINE = 1 << 1,
	APPLY_CLASS_REMOUNT = 1 << 2,
	APPLY_CLASS_ALL = 7,
};

/* Where and how changes are made: the same for apply, undo and the rollback of a failed run. */
struct apply_env {
	const char *root;  /* --root DIR, absolute; NULL: the system's own / */
	bool is_live;      /* change the running system: no --root, or --root with --live */
	bool is_dry_run;   /* say what would be done; change nothing, write no journal */
	bool is_quiet;     /* no progress lines on stderr */
	const char *target; /* absolute path probed again to verify a value; NULL: nothing to probe */
};

/* ---- plan.c: which recommendations become changes ---- */

/* The class bit of a disruption name; 0 for advice, offline, reboot, reformat or anything else. */
unsigned apply_class_of(const char *disruption);
/* Parses --class "runtime,online"; FST_EXIT_USAGE with err naming a bad word. */
int apply_class_parse(const char *arg, unsigned *mask, struct fst_error *err);

/* From recommendations to a plan: the changes to make (new array of change objects, "state"
 * "planned"), and what is only shown (new array of {"id", "disruption", "why"}). `only` (array of
 * ids, or NULL) and `classes` select. Returns FST_EXIT_OK; FST_EXIT_USAGE for an --only id no
 * recommendation has; FST_EXIT_REFUSED when a selected change cannot be made safely (no revert, a
 * device the facts do not name, FreeBSD advice, a class excluded but named by --only): err lists
 * them, and nothing may be applied. */
int apply_plan_build(const json_t *recs, const json_t *only, unsigned classes, json_t **plan, json_t **shown,
		     struct fst_error *err);

/* Inside a container (`facts`, probed now, say host.container), a change of a host-wide setting
 * (rules_setting_host_wide: a vm.* sysctl, a disk's attribute, a bdi) changes the host for every
 * tenant: FST_EXIT_REFUSED with err naming each, unless `allowed` (--host-wide: the admin owns the
 * host). FST_EXIT_OK otherwise. */
int apply_plan_check_host_wide(const json_t *plan, const struct facts *facts, bool allowed, struct fst_error *err);

/* For a saved report or facts file: each change's "old" against what the facts probed now say.
 * FST_EXIT_REFUSED with err naming every setting whose value changed since; a change whose value the
 * report did not know takes the probed one. */
int apply_plan_check_current(json_t *plan, const struct facts *now, struct fst_error *err);

/* ---- value.c: a setting's value on the running system ---- */

/* Probes `target` again (all probes, as a report does) and returns its facts; NULL with err. */
struct facts *apply_probe(const char *target, struct fst_error *err);
/* The setting's value in `f` (new reference), NULL when no probe reads it. */
json_t *apply_value(const struct facts *f, const char *setting);
/* Equal as values: numbers by value (128 and 128.0), else as JSON. NULL equals only NULL. */
bool apply_value_equal(const json_t *a, const json_t *b);
/* A value as text for messages ("128", "true", "\"none\"", "unknown" for NULL). Caller frees. */
char *apply_value_text(const json_t *v);

/* ---- files.c: files under --root, resolved inside it as a chroot would, written atomically ----
 *
 * `root` is the --root directory (NULL: the host's /); `path` is absolute as on the target system
 * ("/etc/fstab"). A path that cannot be resolved inside the root (a loop of links, a file where a
 * directory should be, a kernel without openat2) is refused with FST_EXIT_REFUSED naming it. */

/* `path` as the host names it under `root`, for messages. Caller frees. */
char *files_rooted(const char *root, const char *path);
/* Reads a whole regular file of at most 4 MiB: 1 with *out (NUL-terminated, caller frees), 0 when it
 * does not exist, -1 with err (FST_EXIT_REFUSED: not a regular file, not text, unreadable). */
int files_read(const char *root, const char *path, char **out, struct fst_error *err);
/* The same, and the file must be owned by the user running fstune and not writable by group or
 * others (files_check_owner, naming it as `what`): else -1 with FST_EXIT_REFUSED. */
int files_read_owned(const char *root, const char *path, char **out, const char *what, struct fst_error *err);
/* Writes `content` to `path` atomically (a temporary beside it, fsync'd, renamed, the directory
 * fsync'd), keeping an existing file's mode; `mode` for a new file. A final symbolic link is
 * followed inside the root, a non-regular file refused. FST_EXIT_OK, FST_EXIT_PARTIAL (a failed
 * write) or FST_EXIT_REFUSED with err. */
int files_write(const char *root, const char *path, const char *content, mode_t mode, struct fst_error *err);
/* Creates the missing directories of `dir`, appending each created one (as on the target system,
 * deepest last) to `created` (may be NULL). FST_EXIT_OK, FST_EXIT_PARTIAL or FST_EXIT_REFUSED. */
int files_mkdirs(const char *root, const char *dir, json_t *created, struct fst_error *err);
/* Whether files_mkdirs could make `dir`: each part that exists resolves inside the root as a
 * directory (not a dangling link, not a file). Creates nothing. FST_EXIT_OK or FST_EXIT_REFUSED. */
int files_check_dirs(const char *root, const char *dir, struct fst_error *err);
/* Removes the file (or, `is_dir`, the empty directory: one that is not empty stays) `path`; absent
 * already is done. The directory holding it is fsync'd. FST_EXIT_OK or an error status with err. */
int files_remove(const char *root, const char *path, bool is_dir, struct fst_error *err);
/* The directory `dir` open for reading (a descriptor), or -1: err's status is FST_EXIT_OK when it
 * does not exist, FST_EXIT_REFUSED when it cannot be opened inside the root. */
int files_open_dir(const char *root, const char *dir, struct fst_error *err);
/* Whether what `fd` has open (a journal, its directory, --root DIR: `what`, named `name` in the
 * message) is owned by the user running fstune and not writable by group or others. FST_EXIT_OK,
 * or FST_EXIT_REFUSED saying what is wrong and how to check. */
int files_check_owner(int fd, const char *what, const char *name, struct fst_error *err);
/* crc32c of `s` as 8 hex digits (static storage until the next call). */
const char *files_crc(const char *s, size_t len);

/* ---- persist.c: the persistent forms (sysctl.d line, udev rule, fstab option) ---- */

/* The files the change's persistent form edits, each {"path", "previous" (string or null: did not
 * exist), "written" (the new content)}: a new array, empty when the change has none. `facts` name
 * the mount point an fstab option belongs to. FST_EXIT_OK; FST_EXIT_REFUSED with err (a kind fstune
 * does not install, a file that is not text); *note is set (caller frees) when the form cannot be
 * installed and the change holds only until the next boot or mount (no fstab entry for the mount). */
int persist_prepare(const json_t *change, const struct facts *facts, const char *root, json_t **files,
		    char **note, struct fst_error *err);
/* Writes each file's "written" content under root, creating missing directories (recorded in the
 * file's "dirs_created"). FST_EXIT_OK or FST_EXIT_PARTIAL with err. */
int persist_install(json_t *files, const char *root, struct fst_error *err);
/* Puts each file back as "previous" says (removing it, and the directories apply created, when it
 * did not exist), last file first. FST_EXIT_OK or FST_EXIT_PARTIAL with err. */
int persist_restore(const json_t *files, const char *root, struct fst_error *err);

/* ---- runcmd.c ---- */

/* Runs a command line exactly as the setting table quoted it, with /bin/sh -c. Returns its exit
 * status (0: success; 128+n: killed by signal n; -1: could not start) with its output (standard
 * output and error, the first 2 KiB, trimmed) in *output (caller frees). */
int apply_sh(const char *cmd, char **output);

/* ---- journal.c ---- */

struct journal {
	char *root;  /* the --root the path is resolved in (files_*); NULL: the host's / */
	char *path;  /* the journal file, as on that root */
	char *shown; /* the path as the host names it, for messages */
	json_t *doc; /* {"schema", "run": {...}, "changes": [...]} */
	char *text;  /* the text as read (journal_load) or last written; for line numbers */
};

/* The journal directory, as on the target system: /var/lib/fstune/journal (under --root, resolved
 * inside it by the files_* functions). */
#define JOURNAL_DIR "/var/lib/fstune/journal"
/* A text field of a journal record that may hold bytes from the machine (an fstab's content, a
 * mount point): set as it is when valid UTF-8, else escaped (fstune/utf8.h) with the field's name in
 * the record's "escaped" array; NULL sets null. */
void journal_set_bytes(json_t *rec, const char *field, const char *bytes);
/* The bytes of such a field, escaping undone (caller frees); NULL when it is null or not a string. */
char *journal_get_bytes(const json_t *rec, const char *field);
/* Creates a new journal in JOURNAL_DIR under `root` (created if missing), named <time>-<host>.json,
 * with `run` (taken) as its run record, and writes it. NULL with err. */
struct journal *journal_create(const char *root, json_t *run, struct fst_error *err);
/* The checksum of a record ("crc32c:" and 8 hex digits): of its canonical form (keys sorted,
 * compact), "sum" left out. It finds hand edits, not forgeries: anyone can compute it. Caller frees. */
char *journal_record_sum(const json_t *rec);
/* Writes the journal again (checksums recomputed, atomically, fsync'd with its directory). */
int journal_save(struct journal *j, struct fst_error *err);
/* Reads and checks the journal `path` under `root`: the file and the directory holding it owned by
 * the user running fstune and not writable by group or others (else FST_EXIT_REFUSED, saying so);
 * then JSON syntax, schema, each record against its checksum and its fields (else FST_EXIT_USAGE
 * naming the file and the line of what is wrong). NULL with err. */
struct journal *journal_load(const char *root, const char *path, struct fst_error *err);
void journal_free(struct journal *j);
/* The journal files (*.json) of JOURNAL_DIR under `root`, oldest first by name: a new array of
 * paths as on that root (empty when the directory does not exist). */
json_t *journal_list(const char *root);
/* Takes the lock of the journal directory under `root` (creating both; the directory checked as
 * journal_load checks it), so that two runs of apply or undo never interleave their changes. Returns
 * a descriptor to close when done (that releases it), or -1 with err (FST_EXIT_REFUSED: held by
 * another run, or the directory cannot be used). */
int journal_lock(const char *root, struct fst_error *err);
/* The line of the file where the run record (index < 0) or change `index` starts; 0 if unknown. */
int journal_line(const struct journal *j, long index);
/* "2026-12-01T07:42:00.123Z" now. Static storage until the next call. */
const char *journal_now(void);
/* Local host name. Static storage. */
const char *journal_host(void);

/* ---- apply.c, undo.c: the engines ---- */

/* Applies a plan (taken) with a journal under env->root: each change journaled first, then applied, its
 * persistent form installed, verified; a failure rolls back this run. `run` (taken) holds the run's
 * record fields. Progress on `log`. Returns FST_EXIT_OK, FST_EXIT_PARTIAL (rolled back; err names the
 * setting), or 128+n after a signal between changes (journal consistent; the caller re-raises).
 * *journal_path (caller frees) names the journal written, NULL when none. */
int apply_run(json_t *plan, json_t *run, const struct facts *facts, const struct apply_env *env, FILE *log,
	      char **journal_path, struct fst_error *err);

/* Reverts one change: when it changed the running system and `env` is live, the revert commands the
 * setting table builds from the change's setting and values for `facts` (undo_revert_commands), then
 * its files. FST_EXIT_OK or FST_EXIT_PARTIAL with err. */
int undo_change(json_t *change, const struct facts *facts, const struct apply_env *env, FILE *log,
		struct fst_error *err);

/* ---- trust.c: what undo takes from a journal ---- */

/* What names the filesystem and device the facts describe, for the run record ("identity"): the
 * UUID and mount point (the disk's kernel name where there is no UUID). A new object. */
json_t *apply_identity(const struct facts *facts);
/* Whether the target probed now (`now`) is the filesystem and device the run's `identity` names.
 * NULL, or what differs (in buf). */
const char *undo_identity_problem(const json_t *identity, const struct facts *now, char *buf, size_t len);

/* Records in change `c` the values of the facts its revert is built from and the change alters
 * ("before": the setting's own fact, a bytes sysctl's ratio), as `facts` hold them before it. */
void apply_record_before(json_t *c, const struct facts *facts);
/* Whether change `c` asks only what apply could have done: a setting of the table in a class apply
 * runs, an old value of the setting's type, a new one in its range, "before" values only of the
 * facts it alters and of their types, files only where the setting's persistent form goes. NULL,
 * or why not (in buf). */
const char *undo_change_problem(const json_t *c, char *buf, size_t len);
/* The commands that take change `c` back, built by the setting table (never taken from the
 * journal) from its setting, old and new values and `facts` (the running system's, probed again;
 * NULL: none) with the change's "before" values over them. *cmds: a new array. FST_EXIT_OK, or
 * FST_EXIT_REFUSED with err when the table cannot build them for these facts. */
int undo_revert_commands(const json_t *c, const struct facts *facts, json_t **cmds, struct fst_error *err);

/* Undoes a journal: checks first that every value and file is still what apply left (unless
 * `force`), then reverts the changes last first, verifies the old values, and records the undo in the
 * journal. FST_EXIT_OK; FST_EXIT_REFUSED (something changed since, or the journal changed the running
 * system and `env` is not live); FST_EXIT_PARTIAL (a value did not come back; err names it). */
int undo_journal(struct journal *j, const struct apply_env *env, bool force, FILE *log, struct fst_error *err);

/* Whether a journal's run has been undone. */
bool journal_is_undone(const struct journal *j);
/* Whether it holds a change made (or begun) and not taken back: false once undone or rolled back. */
bool journal_has_undoable(const struct journal *j);

/* SIGINT, SIGTERM and SIGHUP held back (true) around one journal-and-change step, so a Ctrl-C lands
 * between changes, and the commands run meanwhile inherit the block and finish; then let through. */
void apply_hold_signals(bool hold);
/* A line of progress on `log` (NULL: none), "fstune: " in front. */
void apply_log(FILE *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- test hook ---- */

/* FSTUNE_TEST_PAUSE_AFTER_CHANGE=N (test-only): apply stops itself (SIGSTOP) after journaling its Nth
 * change, so a test can kill it between two changes. 0 when unset. */
long apply_test_pause_after(void);

#endif
