/* The trial's measurement loop: each round makes every candidate afresh (ABAB... order, so drift of
 * the disk or the host hits every candidate alike), measures the workload's primary metric, and the
 * ranking by median with the spread; the results as trial.* facts. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app/trial/trial_run.h"
#include "app/trial/trial_tree.h"
#include "lib/xalloc.h"
#include "fstune/probe.h"
#include "fstune/status.h"
#include "fstune/utf8.h"

/* One metric per preset (the table); general uses the 1999 experiment, stated in the output. */
static const struct trial_metric metrics[] = {
	{"smallfiles", TRIAL_METRIC_BENCH, "smallfile_fsync", "smallfile_fsync", "tps", "tps", true,
	 "smallfile_fsync transactions/s"},
	{"database", TRIAL_METRIC_BENCH, "rand_read_4k_qd1,fsync_4k_overwrite", "rand_read_4k_qd1", "iops",
	 "IOPS", true, "rand_read_4k_qd1 IOPS (fsync_4k_overwrite p99 recorded beside)"},
	{"largefiles", TRIAL_METRIC_BENCH, "seq_read_1m,seq_write_1m", "seq_write_1m", "bw_bytes_per_s",
	 "B/s", true, "seq_write_1m bandwidth (seq_read_1m recorded beside)"},
	{"source-tree", TRIAL_METRIC_TREE, "", "tree_cold", "total_s", "s", false,
	 "tree write + unmount + cold read, seconds"},
	{"general", TRIAL_METRIC_TREE, "", "tree_cold", "total_s", "s", false,
	 "tree write + unmount + cold read, seconds (general: the 1999 experiment)"},
};

/* Below this, two medians are inside the noise whatever the runs' spread: run-to-run variation of a
 * freshly made filesystem on this class of VM disk was several percent. */
#define NOISE_FLOOR_PCT 5.0

const struct trial_metric *trial_metric_for(const char *profile, uint64_t io_size)
{
	static struct trial_metric db;
	static char tests[64], test[32], label[96];
	size_t i;

	for (i = 0; i < sizeof metrics / sizeof metrics[0]; i++) {
		if (strcmp(metrics[i].preset, profile ? profile : "general"))
			continue;
		if (strcmp(metrics[i].preset, "database"))
			return &metrics[i];
		/* the random-read test at the workload's I/O size, where the table has one */
		db = metrics[i];
		if (io_size == 1024 || io_size == 2048 || io_size == 8192 || io_size == 16384 || io_size == 65536) {
			snprintf(test, sizeof test, "rand_read_%uk_qd1", (unsigned)(io_size / 1024));
			snprintf(tests, sizeof tests, "%s,fsync_4k_overwrite", test);
			snprintf(label, sizeof label, "%s IOPS (fsync_4k_overwrite p99 recorded beside)", test);
			db.tests = tests;
			db.test = test;
			db.label = label;
		}
		return &db;
	}
	return &metrics[sizeof metrics / sizeof metrics[0] - 1];
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool is_stopped(const struct trial *t)
{
	return *t->stop != 0;
}

static uint64_t wl_int(const struct facts *f, const char *key, uint64_t def)
{
	long long v;

	return facts_get_int(f, key, &v) && v > 0 ? (uint64_t)v : def;
}

void trial_tree_plan_from(const struct facts *wl, uint64_t fs_bytes, struct trial_tree_plan *p)
{
	p->size_min = wl_int(wl, "workload.file_size_min_bytes", 0);
	p->size_p50 = wl_int(wl, "workload.file_size_p50_bytes", 4096);
	p->size_p90 = wl_int(wl, "workload.file_size_p90_bytes", 32768);
	p->size_max = wl_int(wl, "workload.file_size_max_bytes", 1 << 20);
	p->files = wl_int(wl, "workload.files_total", 20000);
	p->per_dir = wl_int(wl, "workload.files_per_dir", 32);
	/* a quarter of the filesystem at most, so a 1K-block candidate's overhead never fills it */
	p->bytes_max = fs_bytes / 4;
	if (p->files > TRIAL_TREE_FILES_CAP)
		p->files = TRIAL_TREE_FILES_CAP;
}

/* The bench.* facts of a run on the mounted candidate. */
static int measure_bench(struct trial *t, json_t *run, double *value, struct fst_error *err)
{
	struct probe_target pt;
	struct bench_result res = {0};
	struct bench_config cfg = t->cfg;
	char *js = facts_to_json(t->workload), *key;
	struct facts *f = facts_from_json(js, strlen(js), "workload", err);
	int st;

	free(js);
	if (!f)
		return FST_EXIT_PARTIAL;
	memset(&pt, 0, sizeof pt);
	if ((st = target_resolve(t->scratch.mnt, &pt, err)) != FST_EXIT_OK) {
		facts_free(f);
		return st;
	}
	snprintf(cfg.tests, sizeof cfg.tests, "%s", t->metric->tests);
	cfg.stop = t->stop;
	cfg.is_own_scratch = true; /* trial made this filesystem: no other run is on it */
	st = bench_run(&pt, &cfg, f, &res, err);
	target_free(&pt);
	if (res.notes && json_array_size(res.notes))
		json_object_set(run, "notes", res.notes);
	bench_result_free(&res);
	if (facts_get(f, "bench"))
		json_object_set_new(run, "bench", json_deep_copy(facts_get(f, "bench")));
	key = xasprintf("bench.%s.%s", t->metric->test, t->metric->leaf);
	if (st == FST_EXIT_OK && !facts_get_real(f, key, value))
		st = fst_error_set(err, FST_EXIT_PARTIAL, "%s: no result (%s)", key,
				   "the test did not run on this filesystem");
	free(key);
	facts_free(f);
	return st;
}

/* Unmounts and mounts the candidate again: nothing of it stays cached. */
static int remount(struct trial *t, const struct trial_candidate *c, double *um_s, struct fst_error *err)
{
	int st = trial_scratch_umount(&t->scratch, um_s, err);

	if (st == FST_EXIT_OK && !is_stopped(t))
		st = trial_scratch_mount(&t->scratch, c->fs, err);
	return st;
}

/* The 1999 experiment on the mounted candidate: write, unmount, mount, read cold; between the two, a
 * cold metadata walk after a remount of its own (recorded beside the metric, not in it). */
static int measure_tree(struct trial *t, const struct trial_candidate *c, json_t *run, double *value,
			struct fst_error *err)
{
	struct trial_tree_result r;
	double um_s = 0, um2_s = 0;
	int st = trial_tree_write(t->scratch.mnt, &t->plan, t->stop, &r, err);

	if (st == FST_EXIT_OK && !is_stopped(t))
		st = remount(t, c, &um_s, err);
	if (st == FST_EXIT_OK && !is_stopped(t))
		st = trial_tree_walk(t->scratch.mnt, t->stop, &r, err);
	if (st == FST_EXIT_OK && !is_stopped(t))
		st = remount(t, c, &um2_s, err);
	if (st == FST_EXIT_OK && !is_stopped(t))
		st = trial_tree_read(t->scratch.mnt, t->stop, &r, err);
	json_object_set_new(run, "tree", json_pack("{s:I, s:I, s:f, s:f, s:f, s:I, s:f, s:s}", "files",
						   (json_int_t)r.files, "bytes", (json_int_t)r.bytes,
						   "write_s", r.write_s, "umount_s", um_s, "read_s", r.read_s,
						   "walk_entries", (json_int_t)r.walk_entries, "walk_s", r.walk_s,
						   "cache", "cold"));
	*value = r.write_s + um_s + r.read_s;
	return st;
}

/* One run of one candidate: mkfs, mount, measure, unmount. */
static int run_once(struct trial *t, struct trial_candidate *c, unsigned round, struct fst_error *err)
{
	json_t *run = json_pack("{s:i}", "round", (int)round);
	double mkfs_s = 0, um_s = 0, value = NAN;
	int st;

	st = trial_scratch_mkfs(&t->scratch, c, &mkfs_s, err);
	json_object_set_new(run, "mkfs_s", json_real(mkfs_s));
	if (st == FST_EXIT_OK && !is_stopped(t))
		st = trial_scratch_mount(&t->scratch, c->fs, err);
	if (st == FST_EXIT_OK && !is_stopped(t))
		st = t->metric->kind == TRIAL_METRIC_BENCH ? measure_bench(t, run, &value, err)
							   : measure_tree(t, c, run, &value, err);
	if (t->scratch.is_mounted) {
		struct fst_error e2 = FST_ERROR_INIT;
		int u = trial_scratch_umount(&t->scratch, &um_s, &e2);

		if (st == FST_EXIT_OK && u != FST_EXIT_OK) {
			*err = e2;
			st = u;
		}
		json_object_set_new(run, "final_umount_s", json_real(um_s));
	}
	if (st == FST_EXIT_OK && !is_stopped(t) && isfinite(value)) {
		c->values = xrealloc(c->values, (c->n_values + 1) * sizeof *c->values);
		c->rounds = xrealloc(c->rounds, (c->n_values + 1) * sizeof *c->rounds);
		c->rounds[c->n_values] = round;
		c->values[c->n_values++] = value;
		json_object_set_new(run, "value", json_real(value));
		json_array_append_new(c->runs, run);
		return FST_EXIT_OK;
	}
	if (st != FST_EXIT_OK && st < 128)
		json_object_set_new(run, "error", fst_json_text(err->msg));
	json_array_append_new(c->runs, run);
	return is_stopped(t) ? 128 + *t->stop : st;
}

int trial_measure(struct trial *t, struct fst_error *err)
{
	double t0 = now_s(), per_run = 0;
	unsigned runs = 0, round;
	int status = FST_EXIT_OK;

	for (round = 1; round <= t->repeat; round++) {
		for (size_t i = 0; i < t->cands.n; i++) {
			struct trial_candidate *c = &t->cands.v[i];
			double r0 = now_s();
			int st;

			if (is_stopped(t))
				return 128 + *t->stop;
			/* the budget is kept by not starting a run that would end past it; the first round
			 * always runs, or nothing could be ranked */
			if (round > 1 && t->budget_s > 0 && now_s() - t0 + per_run > t->budget_s) {
				json_array_append_new(t->notes, json_sprintf("the time budget of %.0f s was reached "
									     "after %u of %u rounds", t->budget_s,
									     round - 1, t->repeat));
				t->rounds_done = round - 1;
				t->elapsed_s = now_s() - t0;
				return status;
			}
			if (t->progress)
				t->progress(t->progress_arg, round, t->repeat, c);
			st = run_once(t, c, round, err);
			if (st >= 128)
				return st;
			if (st != FST_EXIT_OK) {
				json_array_append_new(t->notes, json_sprintf("c%zu %s, round %u: %s", i + 1, c->spec,
									     round, err->msg));
				fst_error_clear(err);
				status = FST_EXIT_PARTIAL;
			}
			runs++;
			per_run += (now_s() - r0 - per_run) / runs;
		}
		t->rounds_done = round;
	}
	t->elapsed_s = now_s() - t0;
	return status;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static const struct trial *sort_trial; /* qsort has no context argument */

static int cmp_rank(const void *a, const void *b)
{
	const struct trial_candidate *x = &sort_trial->cands.v[*(const size_t *)a];
	const struct trial_candidate *y = &sort_trial->cands.v[*(const size_t *)b];

	if (!x->n_values || !y->n_values)
		return (int)!x->n_values - (int)!y->n_values;
	if (x->median == y->median)
		return 0;
	return (x->median > y->median) == sort_trial->metric->higher_better ? -1 : 1;
}

double trial_noise_pct(const struct trial_candidate *a, const struct trial_candidate *b)
{
	double n = a->spread_pct > b->spread_pct ? a->spread_pct : b->spread_pct;

	return n > NOISE_FLOOR_PCT ? n : NOISE_FLOOR_PCT;
}

double trial_diff_pct(const struct trial_candidate *a, const struct trial_candidate *b)
{
	double hi = a->median > b->median ? a->median : b->median;

	return hi > 0 ? fabs(a->median - b->median) / hi * 100 : 0;
}

/* Whether `a` did better than `b` by more than the noise floor in every round both ran, at least two:
 * a paired comparison, which a drift of the host or the disk between rounds (what the ABAB order is
 * for) does not blur as it blurs the spread of either candidate's runs. */
static bool is_better_every_round(const struct trial *t, const struct trial_candidate *a,
				  const struct trial_candidate *b)
{
	size_t i, j, paired = 0;

	for (i = 0; i < a->n_values; i++) {
		for (j = 0; j < b->n_values && (!b->rounds || b->rounds[j] != a->rounds[i]); j++)
			;
		if (!a->rounds || j == b->n_values)
			continue;
		{
			double x = a->values[i], y = b->values[j];
			double gain = t->metric->higher_better ? (y > 0 ? x / y : 0) : (x > 0 ? y / x : 0);

			if (gain <= 1 + NOISE_FLOOR_PCT / 100)
				return false;
			paired++;
		}
	}
	return paired >= 2;
}

bool trial_is_beyond_noise(const struct trial *t, const struct trial_candidate *better,
			   const struct trial_candidate *worse)
{
	return trial_diff_pct(better, worse) > trial_noise_pct(better, worse) ||
	       is_better_every_round(t, better, worse);
}

void trial_rank(struct trial *t)
{
	size_t i, leader;

	free(t->order);
	t->order = xcalloc(t->cands.n ? t->cands.n : 1, sizeof *t->order);
	for (i = 0; i < t->cands.n; i++) {
		struct trial_candidate *c = &t->cands.v[i];
		double *s;

		t->order[i] = i;
		c->rank = 0;
		if (!c->n_values)
			continue;
		s = xmalloc(c->n_values * sizeof *s);
		memcpy(s, c->values, c->n_values * sizeof *s);
		qsort(s, c->n_values, sizeof *s, cmp_double);
		c->median = c->n_values % 2 ? s[c->n_values / 2] : (s[c->n_values / 2 - 1] + s[c->n_values / 2]) / 2;
		c->spread_pct = c->median > 0 ? (s[c->n_values - 1] - s[0]) / c->median * 100 : 0;
		free(s);
	}
	sort_trial = t;
	qsort(t->order, t->cands.n, sizeof *t->order, cmp_rank);
	sort_trial = NULL;
	/* a candidate inside the noise of the best of its group shares that group's rank; beyond it means
	 * the medians differ by more than the larger spread, or the better one won every round */
	for (i = 0, leader = 0; i < t->cands.n; i++) {
		struct trial_candidate *c = &t->cands.v[t->order[i]], *l = &t->cands.v[t->order[leader]];

		if (!c->n_values)
			break;
		if (i > 0 && trial_is_beyond_noise(t, l, c))
			leader = i;
		c->rank = (int)leader + 1;
	}
}

void trial_to_facts(const struct trial *t, struct facts *f)
{
	const struct trial_candidate *best = t->cands.n ? &t->cands.v[t->order[0]] : NULL;
	size_t i, tied = 0;

	facts_set_string(f, "trial.target", t->is_device ? "device" : "image", "trial");
	facts_set_string(f, "trial.metric", t->metric->label, "trial");
	facts_set_real(f, "trial.noise_floor_pct", NOISE_FLOOR_PCT, "trial");
	for (i = 0; i < t->cands.n; i++) {
		const struct trial_candidate *c = &t->cands.v[i];
		char k[64];

#define KEY(leaf) (snprintf(k, sizeof k, "trial.c%zu." leaf, i + 1), k)
		facts_set_string(f, KEY("spec"), c->spec, "trial");
		facts_set_string(f, KEY("origin"), c->origin, "trial");
		facts_set_string(f, KEY("metric"), t->metric->label, "trial");
		facts_set_string(f, KEY("unit"), t->metric->unit, "trial");
		facts_set_string(f, KEY("better"), t->metric->higher_better ? "higher" : "lower", "trial");
		facts_set_int(f, KEY("runs"), (long long)c->n_values, "trial");
		if (c->n_values) {
			facts_set_real(f, KEY("median"), c->median, "trial");
			facts_set_real(f, KEY("spread_pct"), round(c->spread_pct * 100) / 100, "trial");
			facts_set_int(f, KEY("rank"), c->rank, "trial");
		}
#undef KEY
		if (c->n_values && c->rank == 1)
			tied++;
	}
	if (best && best->n_values) {
		char id[32];

		snprintf(id, sizeof id, "c%zu", t->order[0] + 1);
		facts_set_string(f, "trial.best", id, "trial");
		facts_set_bool(f, "trial.best_is_tied", tied > 1, "trial");
	}
}

void trial_free(struct trial *t)
{
	trial_candidates_free(&t->cands);
	trial_scratch_free(&t->scratch);
	facts_free(t->workload);
	json_decref(t->notes);
	json_decref(t->caveats);
	free(t->order);
}
