/* `fstune trial`: the empirical sweep (DESIGN.md, "Modes"). Candidates are mkfs specs ("ext4:-b 1024"),
 * checked against an allow-list of the mkfs tool's own options and never given to a shell; each is
 * made afresh on a scratch device or a loop-mounted image in every round, measured on the workload's
 * metrics, and compared with the baseline by the statistics of trial_stats.h.
 *
 * Ownership: a trial_candidates owns its candidates and their strings and runs; trial_candidates_free
 * frees them. A trial_scratch (trial_scratch.c) owns the image, loop device, mount point and mount the
 * trial made, and trial_scratch_cleanup removes them. */
#ifndef FSTUNE_APP_TRIAL_H
#define FSTUNE_APP_TRIAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fstune/error.h"

/* Metrics a trial measures at most (trial_metrics.h). */
#define TRIAL_METRICS_MAX 4

/* One run of a candidate: where it ran and what it measured. */
struct trial_obs {
	unsigned round;              /* 1, 2, ... */
	unsigned position;           /* 1-based place in the round's order */
	unsigned copy;               /* 0; 1 for the baseline's second run of the round (the A/A control) */
	double v[TRIAL_METRICS_MAX]; /* each metric's value; NAN where it was not measured */
};

/* A candidate's result on one metric. */
struct trial_summary {
	size_t n;          /* runs with a value */
	double median;     /* of the values, in the metric's unit */
	double spread_pct; /* (max - min) / median × 100; 0 with one run */
	int rank;          /* 1 + the candidates measured better on this metric; 0: not ranked */
};

struct trial_candidate {
	char *fs;          /* "ext2", "ext3", "ext4", "xfs" or "btrfs" */
	char **args;       /* the mkfs options as separate words, in the order given; n_args of them */
	size_t n_args;
	char *spec;        /* the canonical form: "ext4:-b 1024" (fs, colon, the words joined by spaces) */
	char *origin;      /* where it came from: "--candidates", "default", "workload", a recommendation id */
	char *stripped;    /* the target's identity left out of the options ("-L root -U 1b2c..."); NULL */
	long merged_into;  /* the index of an earlier candidate that makes the same filesystem; -1 */
	struct trial_obs *obs; /* the successful runs, in run order; n_obs of them */
	size_t n_obs;
	json_t *runs;      /* array: one object per run with every measurement taken */
	struct trial_summary sum[TRIAL_METRICS_MAX];
};

struct trial_candidates {
	struct trial_candidate *v;
	size_t n;
};

/* Parses a candidate list: specs separated by ';', each "FS:OPTIONS" with OPTIONS split at blanks
 * (never by a shell). Every word must be an option the filesystem's mkfs accepts in a trial (the
 * allow-list in trial_spec.c) with a well-formed value; shell metacharacters, options that name
 * another device or file, and options fstune sets itself (-F, -q, the device) are refused. The
 * target's identity (-L, -U, xfs -m uuid=) is left out and named in `stripped`: two filesystems with
 * one UUID cannot both be mounted, and a label would shadow the target's LABEL= link. Appends to
 * `out` (a spec already present is not added twice). FST_EXIT_OK, or FST_EXIT_USAGE with `err` naming
 * the spec and the word. */
int trial_candidates_parse(const char *text, const char *origin, struct trial_candidates *out,
			   struct fst_error *err);
/* Appends one candidate from a filesystem and an argument array (a rule's merged mkfs spec), checked
 * as above. */
int trial_candidates_add_args(struct trial_candidates *out, const char *fs, const json_t *args,
			      const char *origin, struct fst_error *err);
void trial_candidates_free(struct trial_candidates *c);
/* Removes (and frees) the i-th candidate. */
void trial_candidates_remove(struct trial_candidates *c, size_t i);

#endif
