/* `fstune trial`: the empirical sweep (DESIGN.md, "Modes"). Candidates are mkfs specs ("ext4:-b 1024"),
 * checked against an allow-list of the mkfs tool's own options and never given to a shell; each is
 * made on a scratch device or a loop-mounted image, measured, and ranked by the median of its runs.
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

struct trial_candidate {
	char *fs;          /* "ext2", "ext3", "ext4", "xfs" or "btrfs" */
	char **args;       /* the mkfs options as separate words, in the order given; n_args of them */
	size_t n_args;
	char *spec;        /* the canonical form: "ext4:-b 1024" (fs, colon, the words joined by spaces) */
	char *origin;      /* where it came from: "--candidates", "default", "workload", a recommendation id */
	double *values;    /* the primary metric of each run, in run order; n_values of them */
	unsigned *rounds;  /* the round of each value (1, 2, ...): runs of one round are compared */
	size_t n_values;
	json_t *runs;      /* array: one object per run with every measurement taken */
	double median;     /* of values; 0 until ranked */
	double spread_pct; /* (max - min) / median × 100 over the runs; 0 with one run */
	int rank;          /* 1 = best; candidates inside each other's noise share a rank; 0 = not ranked */
};

struct trial_candidates {
	struct trial_candidate *v;
	size_t n;
};

/* Parses a candidate list: specs separated by ';', each "FS:OPTIONS" with OPTIONS split at blanks
 * (never by a shell). Every word must be an option the filesystem's mkfs accepts in a trial (the
 * allow-list in trial_spec.c) with a well-formed value; shell metacharacters, options that name
 * another device or file, and options fstune sets itself (-F, -q, the device) are refused. Appends to
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
