/* The trial's measurement loop (trial_run.h): candidates that make the same filesystem merged first,
 * then rounds in which every candidate is made afresh and measured on the workload's metrics, in a
 * balanced order with the baseline twice; the family's minimum of rounds, then more while a comparison
 * that is not settled could be within the time budget. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/trial/trial_run.h"
#include "app/trial/trial_tree.h"
#include "lib/xalloc.h"
#include "fstune/clock.h"
#include "fstune/probe.h"
#include "fstune/status.h"
#include "fstune/utf8.h"

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
	uint64_t max = wl_int(wl, "workload.file_size_max_bytes", 1 << 20);

	p->size_min = wl_int(wl, "workload.file_size_min_bytes", 0);
	p->size_p50 = wl_int(wl, "workload.file_size_p50_bytes", 4096);
	p->size_p90 = wl_int(wl, "workload.file_size_p90_bytes", 32768);
	p->size_top = bench_tree_size_top(p->size_min, p->size_p50, p->size_p90,
					  wl_int(wl, "workload.file_size_mean_bytes", p->size_p50), max,
					  TRIAL_TREE_FILE_CAP);
	p->files = wl_int(wl, "workload.files_total", 20000);
	p->per_dir = wl_int(wl, "workload.files_per_dir", 32);
	/* a quarter of the filesystem at most, so a 1K-block candidate's overhead never fills it */
	p->bytes_max = fs_bytes / 4;
	if (p->files > TRIAL_TREE_FILES_CAP)
		p->files = TRIAL_TREE_FILES_CAP;
}

/* The bench tests of the metrics on the mounted candidate; their bench.* facts into the run. */
static int measure_bench(struct trial *t, json_t *run, struct fst_error *err)
{
	struct probe_target pt;
	struct bench_result res = {0};
	struct bench_config cfg = t->cfg;
	char *js = facts_to_json(t->workload);
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
	snprintf(cfg.tests, sizeof cfg.tests, "%s", t->metrics.tests);
	cfg.stop = t->stop;
	cfg.busy_check_s = 0; /* the trial's own filesystem: the disk under it is watched by trial_env */
	cfg.is_own_scratch = true; /* trial made this filesystem: no other run is on it */
	st = bench_run(&pt, &cfg, f, &res, err);
	target_free(&pt);
	if (res.notes && json_array_size(res.notes))
		json_object_set(run, "notes", res.notes);
	bench_result_free(&res);
	if (facts_get(f, "bench"))
		json_object_set_new(run, "bench", json_deep_copy(facts_get(f, "bench")));
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

/* The tree metrics on the mounted candidate: write the tree, unmount (which times its writeback),
 * mount and read it back, each time after a remount so that nothing of it is cached; between the
 * two, a cold metadata walk (recorded beside the metrics, not one of them). */
static int measure_tree(struct trial *t, const struct trial_candidate *c, json_t *run, struct fst_error *err)
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
	if (st == FST_EXIT_OK && !is_stopped(t))
		json_object_set_new(run, "tree", json_pack("{s:I, s:I, s:f, s:f, s:f, s:I, s:f, s:s}", "files",
							   (json_int_t)r.files, "bytes", (json_int_t)r.bytes,
							   "write_s", r.write_s, "umount_s", um_s, "read_s", r.read_s,
							   "walk_entries", (json_int_t)r.walk_entries, "walk_s",
							   r.walk_s, "cache", "cold"));
	return st;
}

/* The metrics' values of a run, into the run's record and `o`; false when none was measured. */
static bool take_values(const struct trial *t, json_t *run, struct trial_obs *o)
{
	json_t *values = json_object();
	bool any = false;

	for (size_t m = 0; m < t->metrics.n; m++) {
		o->v[m] = trial_metric_value(t->metrics.m[m], run);
		if (isfinite(o->v[m])) {
			json_object_set_new(values, t->metrics.m[m]->name, json_real(o->v[m]));
			any = true;
		}
	}
	json_object_set_new(run, "values", values);
	return any;
}

static int measure_mounted(struct trial *t, const struct trial_candidate *c, json_t *run, struct fst_error *err)
{
	int st = FST_EXIT_OK;

	if (*t->metrics.tests)
		st = measure_bench(t, run, err);
	if (st == FST_EXIT_OK && t->metrics.has_tree && !is_stopped(t))
		st = measure_tree(t, c, run, err);
	return st;
}

/* One run of one candidate: mkfs, mount, measure, unmount. */
static int run_once(struct trial *t, size_t ci, unsigned round, unsigned position, unsigned copy,
		    struct fst_error *err)
{
	struct trial_candidate *c = &t->cands.v[ci];
	json_t *run = json_pack("{s:i, s:i, s:i}", "round", (int)round, "position", (int)position, "copy", (int)copy);
	struct trial_obs o = {.round = round, .position = position, .copy = copy};
	double mkfs_s = 0, um_s = 0, t0 = fst_clock_s(), wait0;
	int st;

	trial_env_run_start(t, run, &wait0);
	st = trial_scratch_mkfs(&t->scratch, c, &mkfs_s, err);
	json_object_set_new(run, "mkfs_s", json_real(mkfs_s));
	if (st == FST_EXIT_OK && !is_stopped(t))
		st = trial_scratch_mount(&t->scratch, c->fs, err);
	if (st == FST_EXIT_OK && !is_stopped(t))
		st = measure_mounted(t, c, run, err);
	if (t->scratch.is_mounted) {
		struct fst_error e2 = FST_ERROR_INIT;
		int u = trial_scratch_umount(&t->scratch, &um_s, &e2);

		if (st == FST_EXIT_OK && u != FST_EXIT_OK) {
			*err = e2;
			st = u;
		}
		json_object_set_new(run, "final_umount_s", json_real(um_s));
	}
	json_object_set_new(run, "run_s", json_real(fst_clock_s() - t0));
	trial_env_run_end(t, run, wait0);
	if (st == FST_EXIT_OK && !is_stopped(t) && take_values(t, run, &o)) {
		c->obs = xrealloc(c->obs, (c->n_obs + 1) * sizeof *c->obs);
		c->obs[c->n_obs++] = o;
	} else if (st == FST_EXIT_OK && !is_stopped(t)) {
		st = fst_error_set(err, FST_EXIT_PARTIAL, "no metric was measured (%s)", t->metrics.tests);
	}
	if (st != FST_EXIT_OK && st < 128)
		json_object_set_new(run, "error", fst_json_text(err->msg));
	json_array_append(c->runs, run);
	if (t->progress && !is_stopped(t))
		t->progress(t->progress_arg, t, c, run);
	json_decref(run);
	return is_stopped(t) ? 128 + *t->stop : st;
}

size_t trial_round_order(const struct trial *t, unsigned round, size_t *order, unsigned *copy)
{
	size_t active[64], na = 0, k, *perm;

	for (size_t i = 0; i < t->cands.n && na < 63; i++)
		if (trial_is_active(t, i))
			active[na++] = i;
	/* the baseline's second run is a slot of its own, so it moves through the positions too */
	k = na + 1;
	perm = xcalloc(k, sizeof *perm);
	trial_design_order(k, round, perm);
	for (size_t p = 0; p < k; p++) {
		order[p] = perm[p] < na ? active[perm[p]] : t->baseline;
		copy[p] = perm[p] == na;
	}
	free(perm);
	return k;
}

/* The fs.* facts of the filesystem on the device, less what every mkfs makes different (the UUID,
 * the label): two candidates with the same are the same filesystem. NULL when it cannot be probed. */
static json_t *fingerprint(const struct trial *t)
{
	static const char *const volatile_keys[] = {"uuid", "uuid_sub", "label", "mount_point", "mount_options",
						    "super_options", "fstrim_timer", "fstrim_timer_from",
						    "fstune_leftover_bytes", "member_of", "devices"};
	struct fst_error err = FST_ERROR_INIT;
	struct probe_target pt;
	struct facts *f;
	json_t *fs = NULL;

	memset(&pt, 0, sizeof pt);
	if (target_resolve(t->scratch.dev, &pt, &err) != FST_EXIT_OK)
		return NULL;
	f = facts_new();
	probe_all(&pt, f);
	if (json_is_object(facts_get(f, "fs")) && json_is_integer(facts_get(f, "fs.block_size"))) {
		fs = json_deep_copy(facts_get(f, "fs"));
		for (size_t i = 0; i < sizeof volatile_keys / sizeof volatile_keys[0]; i++)
			json_object_del(fs, volatile_keys[i]);
	}
	facts_free(f);
	target_free(&pt);
	return fs;
}

/* Options whose every effect the fingerprint shows (block and inode geometry, features, journal,
 * reserve); a pair of specs that differs in any other is never merged. */
static bool is_covered(const char *fs, const char *flag)
{
	static const char *const ext[] = {"-b", "-i", "-I", "-N", "-m", "-O", "-T", "-C", "-j", "-r", NULL};
	static const char *const xfs[] = {"-b", "-i", "-s", "-m", NULL};
	static const char *const btrfs[] = {"-n", "-s", NULL};
	const char *const *list = !strncmp(fs, "ext", 3) ? ext : !strcmp(fs, "xfs") ? xfs : btrfs;

	for (size_t i = 0; list[i]; i++)
		if (!strcmp(list[i], flag))
			return true;
	return false;
}

/* Whether the word at args[i] of `a` (a flag and its value, if it has one) is in `b`'s options. */
static bool has_option(const struct trial_candidate *a, size_t i, const struct trial_candidate *b, size_t *width)
{
	bool has_value = i + 1 < a->n_args && a->args[i + 1][0] != '-';

	*width = has_value ? 2 : 1;
	for (size_t j = 0; j < b->n_args; j++)
		if (!strcmp(a->args[i], b->args[j]) &&
		    (!has_value || (j + 1 < b->n_args && !strcmp(a->args[i + 1], b->args[j + 1]))))
			return true;
	return false;
}

bool trial_could_merge(const struct trial_candidate *a, const struct trial_candidate *b)
{
	const struct trial_candidate *pair[2][2] = {{a, b}, {b, a}};
	size_t w;

	if (strcmp(a->fs, b->fs))
		return false;
	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; i < pair[k][0]->n_args; i += w)
			if (!has_option(pair[k][0], i, pair[k][1], &w) && !is_covered(a->fs, pair[k][0]->args[i]))
				return false;
	return true;
}

static bool any_could_merge(const struct trial *t)
{
	for (size_t i = 0; i < t->cands.n; i++)
		for (size_t j = 0; j < i; j++)
			if (trial_could_merge(&t->cands.v[j], &t->cands.v[i]))
				return true;
	return false;
}

int trial_resolve(struct trial *t, struct fst_error *err)
{
	json_t **prints = xcalloc(t->cands.n ? t->cands.n : 1, sizeof *prints);
	int status = FST_EXIT_OK;

	for (size_t i = 0; i < t->cands.n && any_could_merge(t); i++) {
		struct trial_candidate *c = &t->cands.v[i];
		double secs;
		int st;

		if (is_stopped(t)) {
			status = 128 + *t->stop;
			break;
		}
		if ((st = trial_scratch_mkfs(&t->scratch, c, &secs, err)) >= 128) {
			status = st;
			break;
		}
		fst_error_clear(err);
		if (st != FST_EXIT_OK || !(prints[i] = fingerprint(t)))
			continue;
		for (size_t j = 0; j < i; j++)
			if (prints[j] && trial_is_active(t, j) && trial_could_merge(&t->cands.v[j], c) &&
			    json_equal(prints[j], prints[i])) {
				c->merged_into = (long)j;
				json_array_append_new(t->notes, json_sprintf(
					"c%zu %s makes the same filesystem as c%zu %s (the same superblock in block and "
					"inode geometry, features, journal and reserve): merged into c%zu and not "
					"measured apart", i + 1, c->spec, j + 1, t->cands.v[j].spec, j + 1));
				break;
			}
	}
	for (size_t i = 0; i < t->cands.n; i++)
		json_decref(prints[i]);
	free(prints);
	t->rounds_min = trial_min_rounds(trial_family_size(t));
	return status;
}

/* The budget is kept by not starting a run that would end past it; the first round always runs, or
 * nothing could be compared. */
static bool budget_allows(const struct trial *t, unsigned round, double t0, double per_run)
{
	return round == 0 || t->budget_s <= 0 || fst_clock_s() - t0 + per_run <= t->budget_s;
}

/* Whether a comparison is not settled on a metric whose floor is too wide for a tie: the estimate of
 * trial_more_rounds holds the floor fixed, but more rounds narrow the interval of the A/A median that
 * the floor is, so they can still settle it. Up to twice the family's minimum (our own heuristic: by
 * then the interval has moved in from the extremes, and a host that noisy needs a longer trial than
 * a default one, which the note says). */
static bool floor_could_narrow(const struct trial *t)
{
	if (t->rounds_done >= 2 * t->rounds_min)
		return false;
	for (size_t k = 0; k < t->n_cmp; k++)
		if (t->cmp[k].verdict == TRIAL_NOT_SETTLED && t->control[t->cmp[k].metric].n &&
		    !trial_floor_allows_tie(t, t->cmp[k].metric))
			return true;
	return false;
}

/* Whether another round is worth it: a comparison not settled that more rounds at this noise could
 * settle (or a floor that more rounds could narrow), within the time budget; a note says why the
 * trial stops. */
static bool wants_more(struct trial *t, double t0)
{
	unsigned need;
	bool is_narrowing;

	trial_judge(t);
	need = trial_more_rounds_needed(t);
	is_narrowing = !need && floor_could_narrow(t);
	if (is_narrowing)
		need = 1;
	if (!need || t->rounds_done >= TRIAL_ROUNDS_MAX)
		return false;
	if (t->budget_s > 0 && fst_clock_s() - t0 + need * t->round_s > t->budget_s) {
		if (is_narrowing)
			json_array_append_new(t->notes, json_sprintf(
				"not settled after %u rounds, and another round (about %.0f s), which would narrow "
				"the A/A floor, does not fit in the time budget of %.0f s", t->rounds_done, t->round_s,
				t->budget_s));
		else
			json_array_append_new(t->notes, json_sprintf(
				"not settled after %u rounds, and the %u more rounds that could settle the closest "
				"comparison (about %.0f s) do not fit in the time budget of %.0f s", t->rounds_done,
				need, need * t->round_s, t->budget_s));
		return false;
	}
	return true;
}

/* One round: every active candidate once and the baseline twice, in the design's order. */
static int run_round(struct trial *t, unsigned round, double t0, double *per_run, unsigned *runs,
		     int *status, struct fst_error *err)
{
	size_t order[65];
	unsigned copy[65];
	size_t k = trial_round_order(t, round, order, copy);

	for (size_t p = 0; p < k; p++) {
		double r0 = fst_clock_s();
		int st;

		if (is_stopped(t))
			return 128 + *t->stop;
		if (!budget_allows(t, round, t0, *per_run)) {
			json_array_append_new(t->notes, json_sprintf(
				"the time budget of %.0f s was reached after %u rounds%s", t->budget_s, round,
				round < t->rounds_min ? ", fewer than the family needs for any verdict" : ""));
			return -1;
		}
		st = run_once(t, order[p], round + 1, (unsigned)p + 1, copy[p], err);
		if (st >= 128)
			return st;
		if (st != FST_EXIT_OK) {
			json_array_append_new(t->notes, json_sprintf("c%zu %s, round %u: %s", order[p] + 1,
								     t->cands.v[order[p]].spec, round + 1, err->msg));
			fst_error_clear(err);
			*status = FST_EXIT_PARTIAL;
		}
		(*runs)++;
		*per_run += (fst_clock_s() - r0 - *per_run) / *runs;
	}
	return 0;
}

/* A floor too wide for a tie: what the trial cannot tell apart there, and what lowers it. */
static void note_wide_floors(struct trial *t)
{
	for (size_t m = 0; m < t->metrics.n; m++) {
		double pct = expm1(t->control[m].floor) * 100;

		if (t->control[m].n && !trial_floor_allows_tie(t, m))
			json_array_append_new(t->notes, json_sprintf(
				"the baseline against itself differed by up to %.0f%% on %s: no smaller difference can "
				"be told apart there, and above %.0f%% no two candidates are called the same; a larger "
				"workload (longer runs), more rounds or a quieter host lowers the floor",
				pct, t->metrics.m[m]->what, TRIAL_TIE_FLOOR_MAX_PCT));
	}
}

int trial_measure(struct trial *t, struct fst_error *err)
{
	double t0 = fst_clock_s(), per_run = 0;
	unsigned runs = 0;
	int status = FST_EXIT_OK;

	t->rounds_planned = t->repeat ? t->repeat : t->rounds_min ? t->rounds_min : 3;
	trial_env_start(t);
	for (unsigned round = 0;; round++) {
		double r0 = fst_clock_s();
		int st;

		if (round >= t->rounds_planned && (t->repeat || !wants_more(t, t0)))
			break;
		if (round >= t->rounds_planned)
			t->rounds_adaptive++;
		st = run_round(t, round, t0, &per_run, &runs, &status, err);
		t->elapsed_s = fst_clock_s() - t0;
		if (st >= 128) {
			t->is_partial = true;
			status = st;
			break;
		}
		if (st < 0)
			break;
		t->rounds_done = round + 1;
		t->round_s += (fst_clock_s() - r0 - t->round_s) / t->rounds_done;
	}
	t->elapsed_s = fst_clock_s() - t0;
	trial_env_finish(t);
	trial_judge(t);
	note_wide_floors(t);
	return status;
}

void trial_free(struct trial *t)
{
	trial_candidates_free(&t->cands);
	trial_scratch_free(&t->scratch);
	facts_free(t->workload);
	json_decref(t->notes);
	json_decref(t->caveats);
	free(t->cmp);
	trial_env_free(&t->env);
}
