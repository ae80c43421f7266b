/* The measurement loop and ranking of `fstune trial` (trial_run.c), and the trial's state, which the
 * renderers (trial_out.c) read as it is. */
#ifndef FSTUNE_APP_TRIAL_RUN_H
#define FSTUNE_APP_TRIAL_RUN_H

#include <jansson.h>
#include <signal.h>
#include <stdbool.h>

#include "app/trial/trial.h"
#include "app/trial/trial_scratch.h"
#include "app/trial/trial_tree.h"
#include "fstune/bench.h"
#include "fstune/facts.h"

/* Files of the cold tree at most: about a kernel tree's count, so a run stays within minutes. */
#define TRIAL_TREE_FILES_CAP 80000u

enum trial_metric_kind {
	TRIAL_METRIC_BENCH, /* bench_run's tests on the mounted candidate */
	TRIAL_METRIC_TREE,  /* the cold tree: write, unmount, mount, read (trial_tree.c) */
};

/* A workload's primary metric. */
struct trial_metric {
	const char *preset;   /* workload.profile it serves */
	enum trial_metric_kind kind;
	const char *tests;    /* BENCH: the bench tests run (comma list) */
	const char *test;     /* the test the metric comes from ("tree_cold" for TREE) */
	const char *leaf;     /* its key under bench.<test> ("tps", "iops", ...) */
	const char *unit;     /* "tps", "IOPS", "B/s", "s" */
	bool higher_better;
	const char *label;    /* for people: "smallfile_fsync transactions/s" */
};

/* The metric of a workload profile (NULL or unknown: general's); for database, the random-read test
 * at `io_size` when the bench table has one. The result stays valid until the next call. */
const struct trial_metric *trial_metric_for(const char *profile, uint64_t io_size);

typedef void (*trial_progress_fn)(void *arg, unsigned round, unsigned rounds, const struct trial_candidate *c);

struct trial {
	struct trial_candidates cands;
	struct trial_scratch scratch;
	const struct trial_metric *metric;
	struct facts *workload;       /* the workload.* facts (sizes the file tests and the tree) */
	struct bench_config cfg;      /* benchmark parameters; tests are the metric's */
	struct trial_tree_plan plan;  /* TREE: the tree written */
	unsigned repeat;              /* rounds asked for */
	unsigned rounds_done;         /* rounds completed */
	double budget_s;              /* 0: no time budget */
	double elapsed_s;
	bool is_device;               /* --device (else an image) */
	const char *target;           /* the --device or --image as given */
	const volatile sig_atomic_t *stop; /* non-zero: a signal arrived; stop and clean up */
	trial_progress_fn progress;   /* NULL: none */
	void *progress_arg;
	json_t *notes;                /* array of strings */
	json_t *caveats;              /* array of strings */
	size_t *order;                /* after trial_rank: candidate indices, best first */
};

/* The tree's plan from the workload facts, within a quarter of `fs_bytes`. */
void trial_tree_plan_from(const struct facts *wl, uint64_t fs_bytes, struct trial_tree_plan *p);
/* Runs the rounds (each candidate made afresh every round, ABAB...), within the time budget. Returns
 * FST_EXIT_OK; FST_EXIT_PARTIAL when a run failed (noted; the others still ran); 128+n on a signal.
 * Cleanup is the caller's (trial_scratch_cleanup). */
int trial_measure(struct trial *t, struct fst_error *err);
/* Medians, spreads and ranks; t->order. */
void trial_rank(struct trial *t);
/* |a - b| / max(a, b) in percent, and the noise two candidates are judged by (their larger spread,
 * at least the floor). */
double trial_diff_pct(const struct trial_candidate *a, const struct trial_candidate *b);
double trial_noise_pct(const struct trial_candidate *a, const struct trial_candidate *b);
/* Whether `better` (the better median) is measurably better than `worse`: the medians differ by more
 * than trial_noise_pct, or it did better by more than the noise floor in every round both ran (two
 * at least). */
bool trial_is_beyond_noise(const struct trial *t, const struct trial_candidate *better,
			   const struct trial_candidate *worse);
/* trial.* facts (doc/facts.md). */
void trial_to_facts(const struct trial *t, struct facts *f);
void trial_free(struct trial *t);

/* Renderers (trial_out.c): text with bars, Markdown, JSON with every run and the facts. 0 or -1. */
int trial_write_text(const struct trial *t, FILE *out);
int trial_write_markdown(const struct trial *t, FILE *out);
int trial_write_json(const struct trial *t, const struct facts *f, FILE *out);

#endif
