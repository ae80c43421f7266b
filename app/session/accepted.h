/* Accepted findings: the admin's "I have read this one and keep things as they are" (accepted.conf,
 * `--accept ID`). An accepted finding stays in the report, marked, but no longer counts for
 * `report --fail-on` nor for `compare --fail-on new-warn`.
 *
 * File format, one finding per line:  ID [KEY OP VALUE] [# why]
 *   ID     a finding id, `<rule file id>.<name>` (mount.lazytime)
 *   KEY    a dotted fact key (fs.mount_point); the entry applies only where the condition holds
 *   OP     == != < <= > >=; the ordering operators compare numbers only
 *   VALUE  the rest of the line before the comment; surrounding double quotes are removed
 * The first # starts the comment, so a VALUE cannot hold one. Blank lines and comment lines are
 * ignored. A list fact (fs.mount_options) is compared by
 * membership: == holds when the list contains VALUE, != when it does not. A fact that is not known
 * makes the condition false: nothing is accepted on a guess. */
#ifndef FSTUNE_APP_ACCEPTED_H
#define FSTUNE_APP_ACCEPTED_H

#include <jansson.h>
#include <stdbool.h>

#include "fstune/error.h"

/* Where the admin's file lives; like /etc/fstune/rules.d it does not follow the install prefix. */
#define ACCEPTED_DEFAULT_PATH "/etc/fstune/accepted.conf"

struct accepted;

struct accepted *accepted_new(void);
void accepted_free(struct accepted *a);

/* Reads one accepted.conf. A missing file is fine when `missing_ok` (the default path), else an
 * error. Returns FST_EXIT_OK, or FST_EXIT_USAGE with `err` naming the file and line of a bad entry. */
int accepted_load_file(struct accepted *a, const char *path, bool missing_ok, struct fst_error *err);

/* True when no entry was loaded or added: nothing to mark, nothing stale. */
bool accepted_is_empty(const struct accepted *a);

/* Adds an unconditional entry for `id` (`--accept ID`), credited to `origin`. Returns FST_EXIT_OK or
 * FST_EXIT_USAGE with `err` set when `id` is not of the form rule.name. */
int accepted_add(struct accepted *a, const char *id, const char *origin, struct fst_error *err);

/* The file to read by default: $FSTUNE_ACCEPTED when set (then it must exist), else
 * ACCEPTED_DEFAULT_PATH unless `no_system` (--no-system-rules: nothing of /etc). NULL: none. Sets
 * *must_exist. */
const char *accepted_default_path(bool no_system, bool *must_exist);

/* Marks every recommendation of `recs` that an entry accepts with an "accepted" member
 * {"by": "FILE:LINE" | "--accept", "why"?, "condition"?}; `facts_doc` is the report's "facts"
 * object, against which conditions are evaluated. Unmarks nothing: marks already present stay. */
void accepted_mark(struct accepted *a, json_t *recs, const json_t *facts_doc);

/* Forgets which entries accepted a finding: the next accepted_mark starts a new count of what is
 * stale (a session evaluated again marks its new result, not the sum of both). */
void accepted_forget_use(struct accepted *a);

/* Entries that accepted nothing in the reports marked so far (since accepted_forget_use) and whose
 * id no loaded rule can make: its rule file id is not loaded, or the name is in none of that file's
 * test vectors nor in the findings made. `rules` is rules_describe's array (NULL: only the marking is known). Returns a new
 * array of {"id", "by", "reason"}. */
json_t *accepted_stale(const struct accepted *a, const json_t *rules);

/* The value at a dotted fact key ("fs.mount_point") of a facts object; NULL when absent. */
const json_t *accepted_fact_at(const json_t *facts, const char *key);

/* Is this recommendation marked accepted? */
bool accepted_is_marked(const json_t *rec);

#endif
