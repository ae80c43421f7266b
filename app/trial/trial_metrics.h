/* What a trial measures for each workload (trial_metrics.c): a set of metrics, each with its unit and
 * direction, each ranked and judged on its own (never summed), one of them primary (the candidate's
 * `median` and `rank` in the trial facts, and `trial.best`). */
#ifndef FSTUNE_APP_TRIAL_METRICS_H
#define FSTUNE_APP_TRIAL_METRICS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "app/trial/trial.h"
#include "fstune/facts.h"

enum trial_metric_kind {
	TRIAL_METRIC_BENCH, /* a bench_run test on the mounted candidate */
	TRIAL_METRIC_TREE,  /* the cold tree: write, unmount, mount, read (trial_tree.c) */
};

struct trial_metric {
	const char *name;  /* the key under metrics.<name>: "smallfile", "writeback", "fsync_iops", ... */
	enum trial_metric_kind kind;
	const char *test;  /* BENCH: the bench test; TREE: "tree" */
	const char *leaf;  /* BENCH: its key under bench.<test>; TREE: "writeback_s" or "cold_read_s" */
	const char *unit;  /* "tps", "IOPS", "us", "B/s", "s" */
	bool higher_better;
	const char *label; /* for the table: "small-file transactions/s (Postmark, no fsync)" */
	const char *what;  /* for sentences: "small-file transactions" */
};

struct trial_metric_set {
	const struct trial_metric *m[TRIAL_METRICS_MAX];
	size_t n;
	size_t primary;  /* index into m */
	char tests[128]; /* the bench tests the BENCH metrics need, a comma list; "" for none */
	bool has_tree;   /* a TREE metric is among them */
};

/* The metrics of the workload (workload.profile, .sync_heavy, .io_size_bytes): smallfiles: smallfile
 * and smallfile_fsync tps (the fsync one primary when sync-heavy); source-tree and general: the
 * writeback (tree write + unmount) and the cold read-back, seconds (writeback primary); database:
 * random reads at the I/O size, fsync IOPS and fsync p99 (fsync IOPS primary when sync-heavy, else the
 * reads); largefiles: sequential write and read bandwidth (write primary). */
void trial_metrics_for(const struct facts *workload, struct trial_metric_set *set);

/* One run's value of `m`, from the run's record ({"bench": {...}, "tree": {...}}): NAN when the run
 * has none (a failed run, a percentile with too few samples). */
double trial_metric_value(const struct trial_metric *m, const json_t *run);

/* The index of the metric named `name` in `set`, or -1. */
int trial_metric_index(const struct trial_metric_set *set, const char *name);

#endif
