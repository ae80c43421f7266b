/* The rule engine's interface to the application: load the rule files, evaluate them on facts, get
 * recommendations back as JSON objects in the shape of DESIGN.md ("Recommendations"), which every
 * renderer (text, Markdown, JSON, the wizard) reads as they are.
 *
 * Ownership: a rules_set owns its loaded files; a rules_result owns its JSON arrays. */
#ifndef FSTUNE_RULES_H
#define FSTUNE_RULES_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "fstune/error.h"
#include "fstune/facts.h"
#include "fstune/units.h"

struct rules_options {
	const char *const *rules_dirs; /* --rules-dir DIR..., loaded last, in order */
	size_t n_rules_dirs;
	bool no_system_rules;          /* skip /etc/fstune/rules.d */
	const char *const *paths;      /* when n_paths > 0: load only these files or directories, in
					  order (`rules test FILE|DIR...`), instead of the places above */
	size_t n_paths;
};

struct rules_set;

/* Loads built-in rules ($FSTUNE_RULES_BUILTIN or the installed directory), /etc/fstune/rules.d,
 * each directory of $FSTUNE_RULES_PATH and each --rules-dir, a later file id replacing an earlier one.
 * A file that fails to load is kept as an error of that file, not a failure of the call. Returns NULL
 * only for a usage error (a --rules-dir that does not exist), with `err` set. */
struct rules_set *rules_load(const struct rules_options *opt, struct fst_error *err);
void rules_set_free(struct rules_set *set);

struct rules_result {
	json_t *recommendations; /* array, ordered by severity then id; fields as DESIGN.md */
	json_t *mkfs;            /* array of merged mkfs commands, one per filesystem type:
				    {"fs": "ext4", "args": [...], "command": "mkfs.ext4 ...", "from": [ids]} */
	json_t *not_evaluated;   /* array of {"rule", "file", "reason", "missing": [keys]} */
	json_t *errors;          /* array of {"rule", "file", "line", "message"}; load errors too */
	json_t *notices;         /* array of {"rule", "file", "replaces"}: replaced file ids */
	size_t n_loaded;         /* rule files that loaded and were not replaced: 0 with `errors`
				    means no rule could run at all (e.g. refused as unsafe) */
};

/* Evaluates every loaded rule file on the facts. Never fails as a whole: a rule's failure is an
 * entry of `errors`, and every other rule still runs. */
void rules_evaluate(const struct rules_set *set, const struct facts *facts, struct rules_result *out);
void rules_result_free(struct rules_result *r);

/* The loaded files' validated tables in load order, for `rules list/show`: an array of
 * {"id", "file", "title", "description", "sources", "settings", "needs", "uses", "tests"}, plus
 * "replaced_by" (a path) for a file a later one replaced. Files that failed to load are not in it:
 * see rules_load_errors. Returns a new reference. */
json_t *rules_describe(const struct rules_set *set);
/* Borrowed arrays, shapes as in rules_result: load errors, and replaced-id notices. */
const json_t *rules_load_errors(const struct rules_set *set);
const json_t *rules_load_notices(const struct rules_set *set);

/* Runs every test vector of every loaded file (replaced ones too) through the real engine: the
 * vector's facts (as a hand-written facts file), the needs check, the sandboxed check(), the
 * validation and command building. Returns a new array of
 * {"rule", "file", "vector", "passed": bool, "message"} in load order; a file that failed to load
 * is one failed entry with vector "(load)", and a file without a positive and a negative vector
 * whose facts satisfy its needs gets a failed entry "(coverage)". */
json_t *rules_run_tests(const struct rules_set *set);

/* The unit of a setting's value: the unit of the fact holding its current value when the setting
 * takes that fact's unit (freebsd.vfs.ufs.dirhash_maxmem: bytes, from freebsd.dirhash_maxmem_bytes),
 * else the setting table's own word for it (mkfs.inode_ratio: bytes per inode). */
enum units_kind rules_setting_unit(const char *setting);

/* The fact an admin reads a setting's current state in (fs.feature.dir_index: fs.features;
 * mount.option.noatime: fs.mount_options; sysctl.vm.dirty_bytes: vm.dirty_bytes), NULL when no fact
 * holds it (mkfs.inode_ratio). */
const char *rules_setting_fact(const char *setting);

/* How a script reads setting `setting` back on the running system, to check that nothing changed
 * since the probe: `cmd` is a shell command printing the value on one line, `recorded` what it
 * printed when the facts were probed, built from `current` (the recommendation's current value) or,
 * for mount options, from the facts' option lists. Both malloc'd. false (nothing set) when the
 * setting has no read form (a reformat, an offline change, tune2fs -m), `current` is unknown, or
 * the facts lack the device or mount point the command needs. */
bool rules_setting_read(const char *setting, const struct facts *facts, const json_t *current, char **cmd,
			char **recorded);

/* Whether the setting is one for the whole host that no namespace confines (vm.* sysctls, a disk's
 * sysfs attributes, a bdi): changed from inside a container, it changes every tenant's. A
 * recommendation of one made inside a container (host.container) carries "host_wide": true, and
 * `fstune apply` refuses it there without --host-wide. false for an unknown setting. */
bool rules_setting_host_wide(const char *setting);

/* For a mount option setting: the option `value` turns on (`on`: "noatime", "commit=30") and the
 * ones an fstab entry must lose for it to hold (`off`, comma-separated; "name=" stands for every
 * value of a valued option). Both malloc'd. false when `setting` is no remountable mount option. */
bool rules_setting_mount_change(const char *setting, const json_t *value, char **on, char **off);

/* A setting's value as the facts show it, typed as the setting's values are (a mount option's
 * presence as a boolean, bytes as filesystem blocks where the setting counts blocks): what a rule's
 * `current` defaults to, and what `fstune apply` reads back after a change. NULL when the facts do
 * not hold it or the setting is unknown. Returns a new reference. */
json_t *rules_setting_current(const char *setting, const struct facts *facts);

/* The setting table for documentation: [{"name", "type", "range", "disruption", "help"}], new. */
json_t *rules_settings_describe(void);

#endif
