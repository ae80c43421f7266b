/* The report model: the whole report a renderer needs, built once from a session by
 * report_model_new and freed, everything in it, by report_model_free. The text, Markdown and
 * OpenMetrics writers, the apply and revert scripts and the wizard's Advice and detail screens render
 * its fields; only its builders (report_model*.c, report_examined.c, report_owners.c) read the
 * session's JSON.
 *
 * What it is built from is hostile: a --facts file can hold anything, and the recommendations carry
 * values copied from it. A member that is missing or of the wrong type is NULL here (or false, 0, an
 * empty list); every string is the model's own copy, so the model outlives the session it was built
 * from, and nothing a renderer reads can be a dangling or mistyped pointer. */
#ifndef FSTUNE_APP_REPORT_MODEL_H
#define FSTUNE_APP_REPORT_MODEL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "app/session/session.h"
#include "fstune/units.h"

struct report_group;

/* A labelled line of "what was examined" ("Device", "Filesystem", ...); the label is "" for a
 * continuation line of the one above. */
struct report_line {
	char *label;
	char *text;
};

/* One evidence entry of a recommendation, with what the engine attached (or, when it attached
 * nothing, what the facts say). */
struct report_evidence {
	char *key;
	char *value;       /* formatted as `fstune probe` shows it; NULL when the fact is not known */
	char *source;      /* "sysfs", "user", ...; NULL when not recorded */
	char *origin;      /* the fact `<key>_from`: where the value came from, in words, when the source
			      name alone would mislead; NULL when there is none */
	char *unavailable; /* why it is not known ("needs root: open /dev/sda: ..."); NULL when known */
};

/* A command of `apply` or `revert`. The engine gives a plain list (label NULL); a document may give
 * labelled forms ({"now": [...], "persistent": [...]}), kept in their order with their label. */
struct report_command {
	char *label;
	char *text;
};

/* The persistent form the engine built beside a runtime command: {"kind": "udev", "path", "line"}. */
struct report_persistent {
	char *kind;
	char *path;
	char *line; /* NULL: no persistent form */
};

/* What a trial said of the advice (`verified`). */
enum report_verdict {
	REPORT_VERDICT_NONE,         /* no trial settled it */
	REPORT_VERDICT_CONFIRMED,    /* measured better, or inside the noise of the best */
	REPORT_VERDICT_CONTRADICTED, /* measured worse */
	REPORT_VERDICT_UNCHANGED,    /* the speed measured equal: capacity advice */
	REPORT_VERDICT_OTHER,        /* a word this version does not know: shown as written */
};

struct report_verification {
	enum report_verdict verdict;
	char *word;    /* the `verified` value as written; NULL with REPORT_VERDICT_NONE */
	char *note;    /* the numbers, in a sentence; NULL when the trial gave none (with no word but a
			  note, a trial measured the advice and did not settle it) */
	char *metric;  /* what the comparison the verdict rests on measured ("writeback of the tree") */
	char *unit;    /* of that metric's values ("s", "tps") */
	char *against; /* the trial's baseline it was compared with ("ext4:") */
	double ratio;  /* the advice's candidate over the baseline, in the unit; NAN when unknown */
	double ci_lo, ci_hi; /* the ratio's 95% interval; NAN when there is none */
	char **sentences; /* every comparison that judged the advice, in words; n_sentences of them */
	size_t n_sentences;
};

/* A reformat recommendation's machine-readable mkfs spec ({"fs": "ext4", "args": ["-b", "4096"]}). */
struct report_mkfs_spec {
	char *fs;      /* NULL when not a string */
	char **args;   /* n_args strings; none when the list is missing or holds anything but strings */
	size_t n_args;
	char *json;    /* the spec as compact JSON, for display; NULL when it is not an object or list */
};

struct report_rec {
	char *id;
	char *title;
	char *severity;          /* the word as written; severity_rank orders it */
	int severity_rank;       /* session_severity_rank: 0 info .. 3 critical, -1 for an unknown word */
	char *rationale;
	char *disruption;
	size_t group;            /* its group: an index of report_groups[] */
	char *setting;           /* NULL for advice with nothing to change */
	json_t *current;         /* the typed values (the model's own copies), NULL when absent: the */
	json_t *recommended;     /* scripts hand them to the setting table to read back and to mount */
	char *current_text;      /* current for display (report_setting_value); NULL when absent */
	char *recommended_text;  /* recommended for display, "(not set)" when absent; NULL without a setting */
	bool has_confidence;
	double confidence;       /* 0 when absent */
	char *confidence_capped_by;
	struct report_verification verified;
	char *accepted;          /* the admin's acceptance, "why (FILE:LINE, where KEY OP VALUE)"; NULL
				    when the finding is not accepted */
	const char *host_wide;   /* what its host_wide mark means (made inside a container, of a setting
				    the whole host shares), one sentence; NULL when not marked */
	bool has_evidence;       /* it names evidence (the list may be empty): writers show the heading */
	struct report_evidence *evidence;
	size_t n_evidence;
	char **managed;          /* "Managed elsewhere": who else sets the setting, one sentence each, then
				    where the persistent form was placed */
	size_t n_managed;
	struct report_command *apply;
	size_t n_apply;
	struct report_command *revert;
	size_t n_revert;
	struct report_persistent persistent;
	struct report_mkfs_spec *mkfs; /* NULL: none */
	char **sources;
	size_t n_sources;
};

/* The recommendations of one group (report_groups[i]), most severe first, then by id. */
struct report_rec_group {
	const struct report_group *def;
	struct report_rec **recs; /* borrowed from the model's recs */
	size_t n;
};

/* The reformat group's merged mkfs command for one filesystem. */
struct report_mkfs {
	char *fs;       /* NULL when not given */
	char *command;
	char **notes;
	size_t n_notes;
	char **from;    /* the ids of the recommendations merged into it */
	size_t n_from;
};

struct report_not_evaluated {
	char *rule;
	char *reason;
	bool is_shown; /* the text and Markdown reports list it: not when every fact it misses is one only
			  hand-written facts hold (vm.bdflush, freebsd.*), unless --verbose or the facts
			  are hand-written; JSON lists every entry */
};

/* A rule file that replaces a built-in one of the same id. */
struct report_notice {
	char *rule;
	char *file;
	char *replaces;
};

struct report_rule_error {
	char *file;
	long long line; /* 0 when not known */
	char *message;
	char *fix;      /* the command that fixes it; NULL when none is known */
};

/* An accepted entry no loaded rule can make. */
struct report_stale {
	char *id;
	char *by;
	char *reason;
};

/* A fact that could not be found, in the facts' order. */
struct report_unknown {
	char *key;
	char *status; /* "failed", "needs_root", ...; NULL when not a string */
	char *reason;
};

/* One number a benchmark test measured, in its unit from the facts schema. */
struct report_bench_value {
	char *key;          /* "iops", "lat_p99_us" */
	double value;
	bool is_integer;
	enum units_kind unit; /* UNITS_PLAIN for a key the schema does not know */
};

/* A benchmark test under bench.* (bench.parameters, bench.busy_check and bench.rotational_claim are
 * not tests), in the facts' order, with its numbers in theirs and the flags the run set on them
 * ("implausible", "cache_suspect", "cpu_bound", "burst"; static strings). */
struct report_bench_test {
	char *name;
	struct report_bench_value *values;
	size_t n_values;
	const char *flags[4];
	size_t n_flags;
};

struct report_model {
	/* what was examined */
	char *device_name;  /* device.name, device.path, fs.mount_point; NULL when not known */
	char *device_path;
	char *mount_point;
	struct report_line *examined;
	size_t n_examined;
	struct report_unknown *unknown;
	size_t n_unknown;
	struct report_bench_test *bench;
	size_t n_bench;
	char *headline;     /* report_headline: why nothing could be judged; NULL for an ordinary report */

	/* the recommendations, in the engine's order, and grouped as the report groups them */
	struct report_rec *recs;
	size_t n_recs;
	size_t severity_count[4]; /* how many of each severity rank, info to critical */
	struct report_rec_group *groups; /* one per report_groups[] entry, in its order (maybe empty) */
	size_t n_groups;
	struct report_mkfs *mkfs;
	size_t n_mkfs;

	/* the tail */
	struct report_not_evaluated *not_evaluated;
	size_t n_not_evaluated;
	size_t n_not_evaluated_hidden;
	char **leftovers;   /* owners that manage nothing any more, one sentence each */
	size_t n_leftovers;
	struct report_stale *stale;
	size_t n_stale;
	struct report_notice *notices;
	size_t n_notices;
	struct report_rule_error *errors;
	size_t n_errors;
};

/* The model of the session's report: the rules' result as it stands (none yet: no recommendations).
 * Never NULL; the caller frees it with report_model_free. */
struct report_model *report_model_new(const struct session *s);
void report_model_free(struct report_model *m);

/* The group of a disruption class ("runtime"; NULL: the catch-all of unknown classes). */
const struct report_rec_group *report_model_group(const struct report_model *m, const char *disruption);
/* How many recommendations are of severity rank `rank` (0 info .. 3 critical) or higher. */
size_t report_model_count_at_least(const struct report_model *m, int rank);
/* A test's number `key`; NULL when it did not measure it. */
const struct report_bench_value *report_bench_find(const struct report_bench_test *t, const char *key);

#endif
