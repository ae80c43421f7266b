/* The facts tree: everything fstune knows about one target, the only interface between probes,
 * rules and renderers (DESIGN.md, "Facts").
 *
 * The tree is a jansson object in the exact JSON shape of the contract: bare values under their
 * branches ("fs": {"block_size": 4096}), plus two top-level maps keyed by dotted key:
 *   "sources":     {"fs.block_size": "ext2fs"}
 *   "unavailable": {"fs.inode_count": {"status": "needs_root", "reason": "..."}}
 * A whole branch that does not apply is one "unavailable" entry keyed by the branch ("device").
 *
 * Ownership: struct facts owns its document. Getters return borrowed references that stay valid until
 * the key is set again or the facts are freed. Setters never fail: out of memory aborts (xalloc.h).
 * Keys are dotted paths of lower_snake_case names; setting "a.b.c" creates "a" and "a.b" as needed.
 * Setting a value removes an "unavailable" entry for that key, and marking a key unavailable removes its
 * value, so a fact is always exactly one of: present, unavailable, or never looked at.
 *
 * Strings from the machine are bytes, not UTF-8: a setter given a string that is not valid UTF-8
 * (build a subtree's strings with json_string_nocheck) stores every string of that value escaped
 * (fstune/utf8.h) and lists the key in the top-level "escaped" array, so the document is always
 * valid JSON; facts_get_bytes gives the original bytes back, which is what a command must quote.
 * An unavailable reason is a message: its invalid bytes are escaped the same way, unlisted. */
#ifndef FSTUNE_FACTS_H
#define FSTUNE_FACTS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fstune/error.h"

#define FACTS_SCHEMA "fstune.facts/1"
#define FACTS_ESCAPED "escaped" /* the top-level array of keys holding escaped strings */

enum facts_status {
	FACTS_NEEDS_ROOT,     /* would work as root */
	FACTS_DENIED,         /* refused although root (a sandbox, a device nobody may open) */
	FACTS_NOT_APPLICABLE, /* the question does not arise (no block device under tmpfs) */
	FACTS_NOT_FOUND,      /* looked for and absent (no filesystem on the device) */
	FACTS_FAILED,         /* an error: makes the exit status 3 */
	FACTS_NOT_RUN,        /* not attempted because an earlier step failed (a benchmark after ENOSPC) */
};

struct facts {
	json_t *doc;          /* the whole document: schema, branches, sources, unavailable */
	bool values_are_user; /* read from a file: a value without a source entry is the user's */
};

struct facts *facts_new(void);
void facts_free(struct facts *f);

/* Setters. `source` is one of DESIGN.md's source names ("sysfs", "blkid", ..., "user"); NULL means
 * record no source (hand-written values: their source is "user" by definition). */
void facts_set_int(struct facts *f, const char *key, long long value, const char *source);
void facts_set_real(struct facts *f, const char *key, double value, const char *source);
void facts_set_bool(struct facts *f, const char *key, bool value, const char *source);
/* A NULL value is ignored, so a probe may pass whatever a library returned. */
void facts_set_string(struct facts *f, const char *key, const char *value, const char *source);
void facts_set_strings(struct facts *f, const char *key, const char *const *values, size_t n,
		       const char *source);
/* Takes ownership of `value` (a jansson reference, e.g. a subtree or a list). */
void facts_set_json(struct facts *f, const char *key, json_t *value, const char *source);

/* Marks `key` (a leaf or a whole branch) unavailable with a status and a printf-style reason. */
void facts_set_unavailable(struct facts *f, const char *key, enum facts_status status,
			   const char *reason_fmt, ...) __attribute__((format(printf, 4, 5)));
/* Removes a value (a leaf or a whole branch) and the source and unavailable entries at or under it. */
void facts_remove(struct facts *f, const char *key);
/* Replaces dst's branch `key` (values, sources, unavailable entries) by src's; src lacking it, the
 * branch is removed from dst. */
void facts_copy_branch(struct facts *dst, const struct facts *src, const char *key);

/* Getters: NULL / false when absent or of another type. */
const json_t *facts_get(const struct facts *f, const char *key);
bool facts_get_int(const struct facts *f, const char *key, long long *out);
bool facts_get_real(const struct facts *f, const char *key, double *out); /* integers convert */
bool facts_get_bool(const struct facts *f, const char *key, bool *out);
const char *facts_get_string(const struct facts *f, const char *key);
bool facts_has(const struct facts *f, const char *key);
/* Whether the strings of `key` are escaped: it, or a branch above it, is listed in "escaped". */
bool facts_is_escaped(const struct facts *f, const char *key);
/* The bytes the string `key` stands for, escaping undone (a copy; caller frees); NULL when `key`
 * is not a string. What a command or a file path must use, never facts_get_string's text. */
char *facts_get_bytes(const struct facts *f, const char *key);

/* The recorded source of a key: its own entry, else "user" when the facts came from a hand-written
 * file, else NULL. */
const char *facts_source(const struct facts *f, const char *key);
/* The unavailable entry of `key` or of the nearest branch above it; NULL when none. */
bool facts_unavailable(const struct facts *f, const char *key, enum facts_status *status,
		       const char **reason);
/* Number of "failed" entries: non-zero makes a run partial (status 3). */
size_t facts_failed_count(const struct facts *f);

const char *facts_status_name(enum facts_status status);
bool facts_status_parse(const char *name, enum facts_status *out);

/* Whether a top-level member is one of the side members (schema, sources, unavailable, escaped),
 * not a branch of facts. */
bool facts_is_side_member(const char *name);

/* JSON out: the document as text, keys in insertion order, 2-space indent; caller frees. */
char *facts_to_json(const struct facts *f);

/* JSON in. Accepts what facts_to_json writes, a hand-written partial file (bare values, no "sources":
 * every value then has source "user"), or a "fstune.report/1" document (its "facts" member).
 * `name` names the input in messages ("facts.json"). On error returns NULL and fills `err` with
 * status FST_EXIT_USAGE and a message naming line and column (syntax) or the dotted key and the
 * expected type (a known key of the wrong type). */
struct facts *facts_from_json(const char *text, size_t len, const char *name, struct fst_error *err);
struct facts *facts_load_file(const char *path, struct fst_error *err);

/* Calls `fn` for every leaf value in document order with its dotted key (lists are leaves). The
 * "sources"/"unavailable"/"schema" members are not visited. */
void facts_foreach(const struct facts *f,
		   void (*fn)(const char *key, const json_t *value, void *arg), void *arg);

#endif
