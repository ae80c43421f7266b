/* A trial as an experiment (DESIGN.md, "Modes" and "Safety"): the state of one `fstune trial`, the
 * measurement loop (trial_run.c), the judgement of what was measured (trial_judge.c), the
 * environment it ran in (trial_env.c) and the fstune.trial/1 document (trial_doc.c).
 *
 * The design: every round makes and measures every candidate afresh, in a balanced order (a
 * Williams design, trial_stats.h), and the baseline (the first candidate) twice, as its own A/A
 * control. Each candidate is compared with the baseline, and the best with the runner-up, on each of
 * the workload's metrics, by the per-round ratios of the same round (drift of the host between
 * rounds cancels): a verdict needs the ratio's 95% interval beyond the A/A noise floor and the sign
 * test, corrected by Holm over the whole family, below 5%. */
#ifndef FSTUNE_APP_TRIAL_RUN_H
#define FSTUNE_APP_TRIAL_RUN_H

#include <jansson.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "app/trial/trial.h"
#include "app/trial/trial_metrics.h"
#include "app/trial/trial_scratch.h"
#include "app/trial/trial_stats.h"
#include "app/trial/trial_tree.h"
#include "fstune/bench.h"
#include "fstune/facts.h"
#include "fstune/trial_words.h"
#include "fstune/workload.h"

/* Files of the cold tree at most: about a kernel tree's count, so a run stays within minutes. */
#define TRIAL_TREE_FILES_CAP 80000u
/* Rounds at most, the adaptive ones included. */
#define TRIAL_ROUNDS_MAX 100u
/* The least noise floor, whatever the A/A control showed: a difference under 1% is no reason to make
 * a filesystem again (our own heuristic). */
#define TRIAL_FLOOR_MIN_PCT 1.0
/* The widest noise floor within which two candidates are called the same (fstune/trial_words.h). */
#define TRIAL_TIE_FLOOR_MAX_PCT TRIAL_WORDS_TIE_FLOOR_MAX_PCT

/* One comparison of the family: a against b on one metric. */
struct trial_comparison {
	size_t a, b;                  /* candidate indices */
	size_t metric;                /* index into the metric set */
	bool is_runner_up;            /* the best against the runner-up (else a candidate against the baseline) */
	struct trial_sign sign;       /* of ln(a/b) per round, against the metric's floor */
	double p_adjusted;            /* Holm over the whole family */
	enum trial_verdict verdict;   /* what a is against b */
	unsigned more_rounds;         /* not settled: about this many more rounds would settle it; 0: none would */
};

/* The A/A control on one metric: the baseline against itself in each round. */
struct trial_control {
	size_t n;          /* rounds with both runs */
	double lo, hi;     /* the least and the largest ratio run 1 / run 2 */
	double floor;      /* log units: the outer end of the 95% interval of the median ln ratio (the
			      largest |ln ratio| below 6 rounds), at least TRIAL_FLOOR_MIN_PCT */
};

/* What else ran on the host while the trial did (trial_env.c). */
struct trial_env {
	double load_min, load_max; /* the 1-minute load average at each run's start */
	double load_median;
	unsigned cpus;
	double cpu_wait_pct;       /* median over the runs: the share of a run spent waiting for a CPU */
	double cpu_wait_max_pct;
	char *disk;                /* the disk under the image (or the --device), kernel name; NULL: none */
	char *disk_why;            /* why there is no figure for other traffic; NULL when there is one */
	double other_bytes_per_s;  /* the disk's traffic minus the trial's own loop device, over the trial */
	double busy_before;        /* the disk's busy share in the second before the trial; < 0: not looked */
	uint64_t alloc_min_bytes;  /* the image's least allocated size after a run (st_blocks); 0: no image */
	json_t *loads, *waits;     /* the per-run values, for the medians */
	struct workload_diskstat disk_start, loop_start; /* the counters at the start */
	bool has_disk_start;       /* both were read: other_bytes_per_s can be worked out */
};

struct trial;
typedef void (*trial_progress_fn)(void *arg, const struct trial *t, const struct trial_candidate *c,
				  const json_t *run);

struct trial {
	struct trial_candidates cands;
	size_t baseline;              /* the first candidate: measured twice a round */
	struct trial_scratch scratch;
	struct trial_metric_set metrics;
	struct facts *workload;       /* the workload.* facts (size the file tests and the tree) */
	struct bench_config cfg;      /* benchmark parameters; the tests follow the metrics */
	struct trial_tree_plan plan;  /* the tree written, for TREE metrics */
	unsigned repeat;              /* --repeat N: exactly N rounds; 0: the family's minimum, then adaptive */
	unsigned rounds_min;          /* what the family needs for any verdict (trial_min_rounds) */
	unsigned rounds_planned;      /* before the adaptive rounds */
	unsigned rounds_done;         /* rounds completed */
	unsigned rounds_adaptive;     /* of which added because a comparison could still be settled */
	double budget_s;              /* 0: no time budget */
	double elapsed_s;
	double round_s;               /* the mean time of a round so far */
	bool is_device;               /* --device (else an image) */
	const char *target;           /* the --device or --image as given */
	bool is_partial;              /* a signal ended the trial: the rounds done are all there is */
	const volatile sig_atomic_t *stop; /* non-zero: a signal arrived; stop and clean up */
	trial_progress_fn progress;   /* called after each run; NULL: none */
	void *progress_arg;
	json_t *notes;                /* array of strings */
	json_t *caveats;              /* array of strings */
	struct trial_comparison *cmp; /* after trial_judge: the family; n_cmp of them */
	size_t n_cmp;
	struct trial_control control[TRIAL_METRICS_MAX];
	struct trial_env env;
};

/* The tree's plan from the workload facts, within a quarter of `fs_bytes`. */
void trial_tree_plan_from(const struct facts *wl, uint64_t fs_bytes, struct trial_tree_plan *p);

/* trial_run.c. Makes each candidate once and merges those that make the same filesystem (the same
 * superblock in everything their options can change) into the first of them, with a note; then
 * t->rounds_min. Returns FST_EXIT_OK, or 128+n on a signal. */
int trial_resolve(struct trial *t, struct fst_error *err);
/* Whether two specs of one filesystem differ only in options whose every effect the fingerprint of
 * trial_resolve shows (ext: -b -i -I -N -m -O -T -C -j -r; xfs: -b -i -s -m; btrfs: -n -s): only such
 * pairs are made and compared. */
bool trial_could_merge(const struct trial_candidate *a, const struct trial_candidate *b);
/* Runs the rounds: t->repeat of them, or the family's minimum and then more while a comparison that
 * is not settled could still be within the time budget. Returns FST_EXIT_OK; FST_EXIT_PARTIAL when a
 * run failed (noted; the others still ran); 128+n on a signal (t->is_partial). Cleanup is the
 * caller's (trial_scratch_cleanup). */
int trial_measure(struct trial *t, struct fst_error *err);
/* The runs of round `round` (0-based), in order: candidate indices, the baseline twice. `order` holds
 * room for every active candidate and one more; returns how many. */
size_t trial_round_order(const struct trial *t, unsigned round, size_t *order, unsigned *copy);

/* trial_judge.c. Whether metric `m` has an A/A floor, narrow enough for a tie (TRIAL_TIE_FLOOR_MAX_PCT). */
bool trial_floor_allows_tie(const struct trial *t, size_t m);
/* The size of the family the active candidates make on the trial's metrics. */
size_t trial_family_size(const struct trial *t);
/* The summaries, the A/A floors, the family's comparisons with Holm's correction and their verdicts,
 * the ranks. Callable after every round. */
void trial_judge(struct trial *t);
/* The fewest more rounds that could settle a comparison that is not settled; 0 when none could. */
unsigned trial_more_rounds_needed(const struct trial *t);
/* The candidate whose median is best on metric `m` among those ranked 1 there; -1 when none. */
long trial_best(const struct trial *t, size_t m);
bool trial_is_active(const struct trial *t, size_t i); /* measured (not merged into another) */

/* trial_env.c. Before the first run: the disk under the image, its busy share for a second, and the
 * counters the other traffic is measured from. */
void trial_env_start(struct trial *t);
/* At a run's start: the load; at its end: the CPU wait of the run (`cpu_wait_pct` < 0: measured here,
 * from `wait0_s`), and the image's allocation. */
void trial_env_run_start(struct trial *t, json_t *run, double *wait0_s);
void trial_env_run_end(struct trial *t, json_t *run, double wait0_s);
/* After the last run: the other traffic and the medians. */
void trial_env_finish(struct trial *t);
void trial_env_free(struct trial_env *e);

/* trial_doc.c. The fstune.trial/1 document: the target, the metrics, the design, every candidate with
 * its runs and its metrics, the comparisons, the control, the environment, the notes and caveats, and
 * a "facts" member with the workload and the trial.* facts. The caller frees it. */
json_t *trial_document(const struct trial *t);
/* trial.* facts (doc/facts.md), also the document's facts.trial. */
void trial_to_facts(const struct trial *t, struct facts *f);
void trial_free(struct trial *t);

#endif
