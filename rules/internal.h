/* Shared declarations of the rule engine's own files (not a public contract: see fstune/rules.h). */
#ifndef FSTUNE_RULES_INTERNAL_H
#define FSTUNE_RULES_INTERNAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "fstune/facts.h"
#include "fstune/rules.h"

/* Limits of one sandboxed run; rules_limits_get (loader.c) gives the defaults, which the environment
 * (FSTUNE_RULES_INSN_BUDGET, FSTUNE_RULES_TIMEOUT_MS, FSTUNE_RULES_MEM_BYTES) overrides for tests. */
struct rules_limits {
	long long insn_budget; /* VM instructions per run (load + check) */
	long timeout_ms;       /* wall-clock limit of one child process, in ms */
	size_t mem_bytes;      /* cap of the Lua allocator of one lua_State, in bytes */
};
void rules_limits_get(struct rules_limits *out);

/* One rule file as the loader found it. */
struct rule_file {
	char *path;        /* as opened, for messages */
	char *text;        /* the chunk, control characters already stripped */
	size_t len;        /* bytes of text */
	json_t *meta;      /* the validated table as JSON (id, title, ..., tests); NULL on load error */
	bool is_replaced;  /* a later file has the same id */
	char *replaced_by; /* path of that file */
	json_t *error;     /* the load error entry, or NULL */
};

struct rules_set {
	struct rule_file *files; /* in load order, failed ones included */
	size_t n_files;
	json_t *errors;          /* load errors: {"rule", "file", "line", "message"} */
	json_t *notices;         /* {"rule", "file", "replaces"} */
};

/* Why a file or directory could not be loaded, and the one command that fixes it when there is one
 * (a refusal for unsafe permissions: "chmod go-w DIR"; else empty). */
struct rules_load_msg {
	char text[512];
	char fix[320];
};
/* loader.c: reads one file (regular, at most 1 MiB, not group/world-writable as root) into `rf`;
 * false with `m` (and the path in rf) on refusal. */
bool rules_read_file(const char *path, struct rule_file *rf, struct rules_load_msg *m);
/* Lists the *.lua files of `dir`, sorted by name; NULL with `m` when the directory cannot be read
 * or is refused. The caller frees each string and the array. */
char **rules_list_dir(const char *dir, size_t *n, struct rules_load_msg *m);
/* Removes control characters other than newline and tab from `s` in place; returns the new length. */
size_t rules_strip_controls(char *s, size_t len);

/* child.c: runs fn(arg, 0..n-1) in a forked child, one answer line per item, and returns an array
 * of n objects: each item's answer, or {"error": {"message": ...}} for the item that was running
 * when the child was killed on time, died or answered garbage (a new child resumes after it). The
 * wall-clock limit applies to each item. */
json_t *rules_run_batch(size_t n, json_t *(*fn)(void *arg, size_t i), void *arg,
			const struct rules_limits *lim);

/* sandbox.c (run inside a child only). Both return {"meta": {...}} / {"recommendations": [...]} or
 * {"error": {"line": N, "message": "..."}}. */
json_t *sandbox_load(const struct rule_file *rf, const struct rules_limits *lim);
json_t *sandbox_check(const struct rule_file *rf, const struct facts *facts,
		      const struct rules_limits *lim);

/* recommend.c: turns what check() returned into validated recommendations with apply/revert.
 * Appends to `recs`; a failure is one entry appended to `errors` and drops that recommendation. */
void rules_finish_recommendations(const struct rule_file *rf, const json_t *raw,
				  const struct facts *facts, json_t *recs, json_t *errors);
/* One check() to run: a file on facts whose needs are met. */
struct check_job {
	const struct rule_file *rf;
	const struct facts *facts;
};
/* Runs the jobs' check() in sandboxes in a child batch; returns their raw answers, in order. */
json_t *rules_check_batch(const struct check_job *jobs, size_t n, const struct rules_limits *lim);
/* Turns one raw answer into recommendations (appended to recs) or errors. */
void rules_finish_answer(const struct rule_file *rf, const json_t *answer, const struct facts *facts,
			 json_t *recs, json_t *errors);
/* vectors.c: the recommendations of every rule file's vectors that ran check(), as
 * [{"rule", "vector", "recommendations"}]: what `fstune rules test` judges, for tests over them. */
json_t *rules_vector_recommendations(const struct rules_set *set);
/* true when the file's needs are in the facts; else appends a not_evaluated entry (when given). */
bool rules_needs_met(const struct rule_file *rf, const struct facts *facts, json_t *not_evaluated);
/* The dotted keys of `needs` missing from `facts`, as an array (empty when all present). */
json_t *rules_missing_needs(const json_t *meta, const struct facts *facts);

/* mkfs.c: merges the `mkfs` specs of reformat recommendations into the one command for the device
 * (an array of at most one entry), and makes it the `apply` of each of them. */
json_t *rules_merge_mkfs(json_t *recs, const struct facts *facts);
/* mkfs_choose.c: the one filesystem type of the report's reformat advice (NULL when there is none);
 * each reformat recommendation of another type is spelled for it, or removed from `recs`, and said
 * in `notes`. */
const char *rules_mkfs_one_fs(json_t *recs, const struct facts *facts, json_t *notes);
/* mkfs_keep.c: adds to the command's flags and values the label and UUID of the filesystem the
 * facts describe, in `fs`'s spelling; *prefix is a command to run first on the device (NULL: none).
 * What cannot be kept is said in `notes`. */
void rules_mkfs_keep_identity(const char *fs, const struct facts *facts, json_t *flags, json_t *values,
			      const char **prefix, json_t *notes);
/* mkfs_keep.c: puts in front of `notes` what comes before the command (recommendations marked
 * precedes_mkfs), that it destroys the data, and what keeps naming the filesystem. */
void rules_mkfs_notes(const json_t *recs, const json_t *values, const struct facts *facts, json_t *notes);

/* verify.c: a trial's verdict on one finished recommendation `rec`, from the trial facts `trial` (the
 * facts' "trial" branch; NULL: none). A reformat recommendation (one with an mkfs spec) that a
 * candidate makes (or one merged into it) gets "verified_by" (the numbers) and "verified_note" (the
 * sentence the report shows), and "verified" where the comparisons with the trial's baseline settle
 * it: "confirmed", "contradicted" or "unchanged" (verify.c says how). Any other is left as it is. */
void rules_verify(json_t *rec, const json_t *trial);
/* How well a recommendation's mkfs spec {"fs", "args"} matches a trial candidate's spec
 * ("ext4:-b 4096"): -1 when the candidate does not make what it asks (another fs, or one of its
 * options missing), else the number of the candidate's words beyond it (0: exact). */
int rules_mkfs_match(const char *candidate_spec, const json_t *mkfs);

/* Helpers. */
json_t *rules_error_entry(const char *rule, const char *file, int line, const char *message);
const char *rules_file_id(const struct rule_file *rf); /* id, or the file's base name */

#endif
