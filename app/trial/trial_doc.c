/* A trial's result as data (trial_run.h): the trial.* facts the rules engine reads (doc/facts.md), and
 * the fstune.trial/1 document that the renderers, the wizard and `report --trial` read. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/trial/trial_run.h"
#include "lib/xalloc.h"
#include "fstune/utf8.h"

static double rounded(double v, double scale)
{
	return round(v * scale) / scale;
}

static double floor_pct(const struct trial *t, size_t m)
{
	return rounded(expm1(t->control[m].floor) * 100, 100);
}

static json_t *id_of(size_t i)
{
	return json_sprintf("c%zu", i + 1);
}

/* A candidate's result on one metric: {median, unit, better, spread_pct, rank, runs}. */
static json_t *metric_result(const struct trial *t, const struct trial_candidate *c, size_t m)
{
	const struct trial_summary *s = &c->sum[m];
	const struct trial_metric *met = t->metrics.m[m];
	json_t *o = json_pack("{s:s, s:s, s:I}", "unit", met->unit, "better", met->higher_better ? "higher" : "lower",
			      "runs", (json_int_t)s->n);

	if (s->n) {
		json_object_set_new(o, "median", json_real(s->median));
		json_object_set_new(o, "spread_pct", json_real(rounded(s->spread_pct, 100)));
	}
	if (s->rank)
		json_object_set_new(o, "rank", json_integer(s->rank));
	return o;
}

static json_t *comparison_json(const struct trial *t, const struct trial_comparison *c)
{
	json_t *o = json_pack("{s:o, s:o, s:s, s:s, s:I, s:I, s:I, s:f, s:f}", "a", id_of(c->a), "b", id_of(c->b),
			      "metric", t->metrics.m[c->metric]->name, "kind",
			      c->is_runner_up ? "best_vs_runner_up" : "candidate_vs_baseline", "rounds",
			      (json_int_t)c->sign.n, "above_floor", (json_int_t)c->sign.above, "below_floor",
			      (json_int_t)c->sign.below, "floor_pct", floor_pct(t, c->metric), "p",
			      rounded(c->sign.p, 1e6));

	if (c->sign.n)
		json_object_set_new(o, "ratio", json_real(rounded(exp(c->sign.median), 1e4)));
	/* no member is null: these are facts too, and facts leave out what is unknown */
	if (c->sign.has_ci)
		json_object_set_new(o, "ci95", json_pack("[f, f]", rounded(exp(c->sign.lo), 1e4), rounded(exp(c->sign.hi), 1e4)));
	json_object_set_new(o, "verdict", json_string(trial_verdict_name(c->verdict)));
	json_object_set_new(o, "p_adjusted", json_real(rounded(c->p_adjusted, 1e6)));
	if (c->verdict == TRIAL_NOT_SETTLED)
		json_object_set_new(o, "more_rounds", json_integer(c->more_rounds));
	return o;
}

static json_t *comparisons_json(const struct trial *t)
{
	json_t *a = json_array();

	for (size_t k = 0; k < t->n_cmp; k++)
		json_array_append_new(a, comparison_json(t, &t->cmp[k]));
	return a;
}

/* {candidate, spec, ratio_spread, floor_pct} of the primary metric, and each metric's under metrics. */
static json_t *control_json(const struct trial *t)
{
	const struct trial_candidate *b = &t->cands.v[t->baseline];
	json_t *per = json_object(), *o;

	for (size_t m = 0; m < t->metrics.n; m++) {
		const struct trial_control *k = &t->control[m];

		json_t *one = json_pack("{s:f, s:I}", "floor_pct", floor_pct(t, m), "rounds", (json_int_t)k->n);

		if (k->n)
			json_object_set_new(one, "ratio_spread", json_pack("[f, f]", rounded(k->lo, 1e4), rounded(k->hi, 1e4)));
		json_object_set_new(per, t->metrics.m[m]->name, one);
	}
	o = json_pack("{s:o, s:s}", "candidate", id_of(t->baseline), "spec", b->spec);
	if (json_object_get(json_object_get(per, t->metrics.m[t->metrics.primary]->name), "ratio_spread"))
		json_object_set(o, "ratio_spread",
				json_object_get(json_object_get(per, t->metrics.m[t->metrics.primary]->name), "ratio_spread"));
	json_object_set_new(o, "floor_pct", json_real(floor_pct(t, t->metrics.primary)));
	json_object_set_new(o, "metrics", per);
	return o;
}

static json_t *environment_json(const struct trial *t)
{
	const struct trial_env *e = &t->env;
	json_t *o = json_pack("{s:I}", "cpus", (json_int_t)e->cpus);

	if (e->load_median >= 0 && json_array_size(e->loads)) {
		json_object_set_new(o, "load", json_real(rounded(e->load_median, 100)));
		json_object_set_new(o, "load_min", json_real(rounded(e->load_min, 100)));
		json_object_set_new(o, "load_max", json_real(rounded(e->load_max, 100)));
	}
	if (json_array_size(e->waits)) {
		json_object_set_new(o, "cpu_wait_pct", json_real(rounded(e->cpu_wait_pct, 100)));
		json_object_set_new(o, "cpu_wait_max_pct", json_real(rounded(e->cpu_wait_max_pct, 100)));
	}
	if (e->disk)
		json_object_set_new(o, "disk", json_string(e->disk));
	if (e->busy_before >= 0)
		json_object_set_new(o, "disk_busy_before", json_real(rounded(e->busy_before, 1000)));
	if (e->has_disk_start)
		json_object_set_new(o, "other_disk_traffic_bytes_per_s", json_real(rounded(e->other_bytes_per_s, 1)));
	else if (e->disk_why)
		json_object_set_new(o, "other_disk_traffic_why", json_string(e->disk_why));
	if (t->scratch.image || e->alloc_min_bytes) {
		json_object_set_new(o, "image_bytes", json_integer((json_int_t)t->scratch.size_bytes));
		json_object_set_new(o, "image_allocated_min_bytes", json_integer((json_int_t)e->alloc_min_bytes));
	}
	return o;
}

static json_t *metrics_json(const struct trial *t)
{
	json_t *a = json_array();

	for (size_t m = 0; m < t->metrics.n; m++) {
		const struct trial_metric *met = t->metrics.m[m];

		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:b}", "name", met->name, "test",
						   met->test, "label", met->label, "what", met->what, "unit", met->unit,
						   "better", met->higher_better ? "higher" : "lower", "primary",
						   m == t->metrics.primary));
	}
	return a;
}

static void candidate_facts(const struct trial *t, size_t i, struct facts *f)
{
	const struct trial_candidate *c = &t->cands.v[i];
	const struct trial_metric *p = t->metrics.m[t->metrics.primary];
	const struct trial_summary *s = &c->sum[t->metrics.primary];
	char k[96];
	json_t *metrics = json_object();

#define KEY(leaf) (snprintf(k, sizeof k, "trial.c%zu." leaf, i + 1), k)
	facts_set_string(f, KEY("spec"), c->spec, "trial");
	facts_set_string(f, KEY("origin"), c->origin, "trial");
	facts_set_string(f, KEY("metric"), p->label, "trial");
	facts_set_string(f, KEY("unit"), p->unit, "trial");
	facts_set_string(f, KEY("better"), p->higher_better ? "higher" : "lower", "trial");
	facts_set_int(f, KEY("runs"), (long long)s->n, "trial");
	if (c->merged_into >= 0) {
		char id[32];

		snprintf(id, sizeof id, "c%ld", c->merged_into + 1);
		facts_set_string(f, KEY("merged_into"), id, "trial");
	}
	if (s->n) {
		facts_set_real(f, KEY("median"), s->median, "trial");
		facts_set_real(f, KEY("spread_pct"), rounded(s->spread_pct, 100), "trial");
	}
	if (s->rank)
		facts_set_int(f, KEY("rank"), s->rank, "trial");
	for (size_t m = 0; m < t->metrics.n; m++)
		json_object_set_new(metrics, t->metrics.m[m]->name, metric_result(t, c, m));
	facts_set_json(f, KEY("metrics"), metrics, "trial");
#undef KEY
}

void trial_to_facts(const struct trial *t, struct facts *f)
{
	long best = t->cands.n ? trial_best(t, t->metrics.primary) : -1;
	size_t tied = 0;

	facts_set_string(f, "trial.target", t->is_device ? "device" : "image", "trial");
	facts_set_string(f, "trial.metric", t->metrics.m[t->metrics.primary]->label, "trial");
	facts_set_string(f, "trial.primary", t->metrics.m[t->metrics.primary]->name, "trial");
	facts_set_real(f, "trial.noise_floor_pct", floor_pct(t, t->metrics.primary), "trial");
	facts_set_int(f, "trial.rounds", t->rounds_done, "trial");
	facts_set_int(f, "trial.rounds_min", t->rounds_min, "trial");
	facts_set_bool(f, "trial.partial", t->is_partial, "trial");
	for (size_t i = 0; i < t->cands.n; i++) {
		candidate_facts(t, i, f);
		tied += t->cands.v[i].sum[t->metrics.primary].rank == 1;
	}
	facts_set_json(f, "trial.metrics", metrics_json(t), "trial");
	facts_set_json(f, "trial.comparisons", comparisons_json(t), "trial");
	facts_set_json(f, "trial.control", control_json(t), "trial");
	facts_set_json(f, "trial.environment", environment_json(t), "trial");
	if (best >= 0) {
		char id[32];

		snprintf(id, sizeof id, "c%ld", best + 1);
		facts_set_string(f, "trial.best", id, "trial");
		facts_set_bool(f, "trial.best_is_tied", tied > 1, "trial");
	}
}

static json_t *candidate_json(const struct trial *t, size_t i)
{
	const struct trial_candidate *c = &t->cands.v[i];
	const struct trial_summary *s = &c->sum[t->metrics.primary];
	json_t *metrics = json_object(), *values = json_array(), *o;
	char *cmd = trial_scratch_mkfs_command(&t->scratch, c);

	for (size_t m = 0; m < t->metrics.n; m++)
		json_object_set_new(metrics, t->metrics.m[m]->name, metric_result(t, c, m));
	for (size_t k = 0; k < c->n_obs; k++)
		if (isfinite(c->obs[k].v[t->metrics.primary]))
			json_array_append_new(values, json_real(c->obs[k].v[t->metrics.primary]));
	o = json_pack("{s:o, s:s, s:s, s:s}", "id", id_of(i), "spec", c->spec, "origin", c->origin, "mkfs_command", cmd);
	free(cmd);
	if (c->merged_into >= 0)
		json_object_set_new(o, "merged_into", id_of((size_t)c->merged_into));
	if (c->stripped)
		json_object_set_new(o, "identity_left_out", fst_json_text(c->stripped));
	if (i == t->baseline)
		json_object_set_new(o, "baseline", json_true());
	json_object_set_new(o, "metrics", metrics);
	if (s->n) {
		json_object_set_new(o, "median", json_real(s->median));
		json_object_set_new(o, "spread_pct", json_real(rounded(s->spread_pct, 100)));
	}
	if (s->rank)
		json_object_set_new(o, "rank", json_integer(s->rank));
	json_object_set_new(o, "values", values);
	json_object_set(o, "runs", c->runs);
	return o;
}

/* The document's facts member: the workload and the trial.* facts. */
static json_t *facts_json(const struct trial *t)
{
	struct facts *f = facts_new();
	char *text;
	json_t *out;

	facts_copy_branch(f, t->workload, "workload");
	trial_to_facts(t, f);
	text = facts_to_json(f);
	out = json_loads(text, 0, NULL);
	free(text);
	facts_free(f);
	return out ? out : json_object();
}

json_t *trial_document(const struct trial *t)
{
	const struct trial_metric *p = t->metrics.m[t->metrics.primary];
	json_t *doc = json_object(), *cands = json_array();
	long best = t->cands.n ? trial_best(t, t->metrics.primary) : -1;

	for (size_t i = 0; i < t->cands.n; i++)
		json_array_append_new(cands, candidate_json(t, i));
	json_object_set_new(doc, "schema", json_string("fstune.trial/1"));
	json_object_set_new(doc, "target", json_pack("{s:s, s:o, s:I, s:s?, s:b}", "kind", t->is_device ? "device" : "image",
						     "path", fst_json_text(t->target), "size_bytes",
						     (json_int_t)t->scratch.size_bytes, "device", t->scratch.dev,
						     "direct_io", t->is_device || t->scratch.is_loop_direct));
	json_object_set_new(doc, "workload", json_string(facts_get_string(t->workload, "workload.profile")
							 ? facts_get_string(t->workload, "workload.profile") : "general"));
	json_object_set_new(doc, "metrics", metrics_json(t));
	json_object_set_new(doc, "metric", json_pack("{s:s, s:s, s:s, s:s, s:s}", "name", p->name, "test", p->test,
						     "label", p->label, "unit", p->unit, "better",
						     p->higher_better ? "higher" : "lower"));
	json_object_set_new(doc, "order", json_string("williams"));
	json_object_set_new(doc, "repeat", json_integer(t->repeat));
	json_object_set_new(doc, "rounds", json_integer(t->rounds_done));
	json_object_set_new(doc, "rounds_min", json_integer(t->rounds_min));
	json_object_set_new(doc, "rounds_planned", json_integer(t->rounds_planned));
	json_object_set_new(doc, "rounds_adaptive", json_integer(t->rounds_adaptive));
	json_object_set_new(doc, "time_budget_s", json_real(t->budget_s));
	json_object_set_new(doc, "elapsed_s", json_real(rounded(t->elapsed_s, 1000)));
	json_object_set_new(doc, "round_s", json_real(rounded(t->round_s, 1000)));
	json_object_set_new(doc, "partial", json_boolean(t->is_partial));
	if (best >= 0)
		json_object_set_new(doc, "best", id_of((size_t)best));
	json_object_set_new(doc, "candidates", cands);
	json_object_set_new(doc, "comparisons", comparisons_json(t));
	json_object_set_new(doc, "control", control_json(t));
	json_object_set_new(doc, "environment", environment_json(t));
	json_object_set(doc, "notes", t->notes);
	json_object_set(doc, "caveats", t->caveats);
	json_object_set_new(doc, "facts", facts_json(t));
	return doc;
}
