/* The session: creates one run's facts (by probing a TARGET or reading a file), runs the workload and
 * benchmark steps and the rules, marks the accepted findings, and owns everything they produced until
 * session_free. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/session/session.h"
#include "lib/facts_schema.h"
#include "lib/xalloc.h"
#include "fstune/debug.h"
#include "fstune/path.h"

static struct session *session_new(enum session_origin origin)
{
	struct session *s = xcalloc(1, sizeof(*s));

	s->origin = origin;
	s->bench = SESSION_BENCH_NONE;
	s->given_workload = facts_new();
	return s;
}

struct session *session_from_target(const char *target, struct fst_error *err)
{
	struct session *s = session_new(SESSION_FROM_TARGET);

	s->target = xcalloc(1, sizeof(*s->target));
	if (target_resolve(target, s->target, err) != FST_EXIT_OK) {
		session_free(s);
		return NULL;
	}
	s->facts = facts_new();
	probe_all(s->target, s->facts);
	DBG(DEBUG_REPORT, "session: probed %s, %zu failed facts", s->target->path ? s->target->path : "?",
	    facts_failed_count(s->facts));
	return s;
}

/* A group the facts say something about: values, or an unavailable entry for the whole branch
 * (a saved probe of a file with no filesystem says fs is not_found: that is a verdict). */
static bool has_group(const struct facts *f, const char *name)
{
	enum facts_status st;

	return json_is_object(facts_get(f, name)) || facts_unavailable(f, name, &st, NULL);
}

struct session *session_from_facts_file(const char *path, struct fst_error *err)
{
	struct facts *f = facts_load_file(path, err);
	json_t *unknown;
	struct session *s;

	if (!f)
		return NULL;
	unknown = facts_schema_unknown(f->doc);
	if (!has_group(f, "device") && !has_group(f, "fs")) {
		char *list = json_array_size(unknown) ? session_join_messages(unknown) : NULL;

		fst_error_set(err, FST_EXIT_USAGE,
			      "%s: nothing could be judged: the facts have neither a \"device\" nor an \"fs\" "
			      "group (the disk, or the filesystem on it)%s%s", path, list ? "; " : "",
			      list ? list : "");
		free(list);
		json_decref(unknown);
		facts_free(f);
		return NULL;
	}
	/* figures saved or written by hand are judged as a live run's are (what the hardware allows) */
	bench_results_judge(f, f, NULL);
	s = session_new(SESSION_FROM_FILE);
	s->facts = f;
	facts_copy_branch(s->given_workload, f, "workload");
	s->facts_path = xstrdup(path);
	s->facts_warnings = unknown;
	return s;
}

int session_merge_trial(struct session *s, const char *path, char **profile, struct fst_error *err)
{
	json_error_t jerr;
	json_t *doc = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr), *facts;
	const char *schema = json_string_value(json_object_get(doc, "schema"));
	struct facts *f = NULL;
	char *text;

	*profile = NULL;
	if (!doc)
		return fst_error_set(err, FST_EXIT_USAGE, "--trial %s: %s", path, jerr.text);
	facts = json_object_get(doc, "facts");
	if (!schema || strcmp(schema, "fstune.trial/1") || !json_is_object(json_object_get(facts, "trial"))) {
		fst_error_set(err, FST_EXIT_USAGE, "--trial %s: not a trial's result (a fstune.trial/1 document with "
			      "facts.trial): write one with fstune trial --json -o FILE", path);
		json_decref(doc);
		return err->status;
	}
	/* its facts are checked as any facts file's: types, nulls, shapes */
	text = json_dumps(facts, 0);
	f = text ? facts_from_json(text, strlen(text), path, err) : NULL;
	free(text);
	if (f) {
		facts_set_json(s->facts, "trial", json_deep_copy(facts_get(f, "trial")), "trial");
		if (facts_get_string(f, "workload.profile"))
			*profile = xstrdup(facts_get_string(f, "workload.profile"));
	}
	facts_free(f);
	json_decref(doc);
	return f ? FST_EXIT_OK : FST_EXIT_USAGE;
}

void session_set_target_os(struct session *s, const char *target_os)
{
	facts_set_string(s->facts, "host.target_os", target_os, "user");
}

/* The default follows what an admin expects of a report on a running server: on a filesystem they can
 * write to, a quick measurement (at most about 6 s, only inside fstune's own scratch directory) is what makes
 * the advice evidence-based. An unmounted block device gets none: it may be a disk in use without a
 * mount (a database's raw volume, a VM's disk, a future md member), and reading across it for seconds
 * is an action the admin should ask for (`--bench quick` then runs the read tests only, writing
 * nothing); a report on it stays a pure look. Everything else is bench_can_run's answer. */
enum session_bench session_bench_default(struct session *s)
{
	const struct probe_target *t = s->target;
	struct bench_plan plan;
	enum session_bench bench = SESSION_BENCH_QUICK;

	if (s->origin == SESSION_FROM_FILE || !t) {
		session_bench_skip(s, "a saved or hand-written facts file is judged as it is: nothing is measured");
		return SESSION_BENCH_NONE;
	}
	if (t->kind == TARGET_BLOCKDEV && !t->is_mounted && !path_sysroot()) {
		session_bench_skip(s, "an unmounted block device is not benchmarked by default (it may be in use "
				      "without a mount); --bench quick measures it with read tests only, writing nothing");
		return SESSION_BENCH_NONE;
	}
	if (t->kind == TARGET_IMAGE && !facts_has(s->facts, "fs.type")) {
		session_bench_skip(s, "it holds no filesystem signature: there is nothing to measure");
		return SESSION_BENCH_NONE;
	}
	if (bench_can_run(t, NULL, &plan) != FST_EXIT_OK) {
		session_bench_skip(s, plan.reason);
		bench = SESSION_BENCH_NONE;
	}
	bench_plan_free(&plan);
	return bench;
}

void session_bench_skip(struct session *s, const char *why)
{
	free(s->bench_skipped);
	s->bench_skipped = why ? xstrdup(why) : NULL;
}

int session_bench(struct session *s, enum session_bench bench, const struct bench_config *cfg,
		  struct fst_error *err)
{
	struct bench_config c;
	struct bench_result res = {0};
	int status;

	if (bench == SESSION_BENCH_NONE)
		return FST_EXIT_OK;
	if (!s->target)
		return fst_error_set(err, FST_EXIT_USAGE,
				     "benchmarks need a TARGET: facts read from a file cannot be measured");
	if (cfg)
		c = *cfg;
	else
		bench_config_init(&c);
	c.suite = bench == SESSION_BENCH_FULL ? BENCH_SUITE_FULL : BENCH_SUITE_QUICK;
	status = bench_run(s->target, &c, s->facts, &res, err);
	json_decref(s->bench_notes);
	s->bench_notes = res.notes ? json_incref(res.notes) : NULL;
	/* What ran: a refusal or a usage error ran nothing. */
	s->bench = status == FST_EXIT_OK || status == FST_EXIT_PARTIAL ? bench : SESSION_BENCH_NONE;
	free(s->bench_refusal);
	s->bench_refusal = status == FST_EXIT_REFUSED && err ? xstrdup(err->msg) : NULL;
	session_bench_skip(s, NULL);
	bench_result_free(&res);
	DBG(DEBUG_REPORT, "session: bench %s: status %d", bench == SESSION_BENCH_FULL ? "full" : "quick", status);
	return status;
}

int session_describe_workload(struct session *s, const struct workload_spec *spec,
			      const struct workload_hooks *hooks, struct fst_error *err)
{
	int status = FST_EXIT_OK;

	if (s->is_workload_described)
		facts_copy_branch(s->facts, s->given_workload, "workload");
	s->is_workload_described = true;
	if (s->origin == SESSION_FROM_TARGET) {
		status = workload_collect(spec, s->target, s->facts, hooks, err);
	} else if (workload_spec_is_said(spec)) {
		if (spec->preset || !facts_get(s->facts, "workload"))
			workload_spec_apply_preset(spec, s->facts);
		workload_spec_apply_overrides(spec, s->facts);
	}
	if (s->rules)
		session_evaluate(s);
	return status;
}

int session_load_rules(struct session *s, const struct rules_options *opt, struct fst_error *err)
{
	struct rules_set *set = rules_load(opt, err);

	if (!set)
		return err && err->status != FST_EXIT_OK ? err->status : FST_EXIT_USAGE;
	if (s->rules)
		rules_set_free(s->rules);
	s->rules = set;
	return FST_EXIT_OK;
}

/* Marks the findings the admin accepted in this evaluation's result. Stale is what this evaluation
 * did not use: an entry that accepted a finding of an earlier one (before the workload changed, or
 * on another target of the wizard) counts for nothing here. */
static void mark_accepted(struct session *s)
{
	json_t *rules;

	json_decref(s->accepted_stale);
	s->accepted_stale = NULL;
	if (!s->accepted || accepted_is_empty(s->accepted))
		return;
	accepted_forget_use(s->accepted);
	accepted_mark(s->accepted, s->result.recommendations, s->facts->doc);
	rules = rules_describe(s->rules);
	s->accepted_stale = accepted_stale(s->accepted, rules);
	json_decref(rules);
	if (json_array_size(s->accepted_stale) == 0) {
		json_decref(s->accepted_stale);
		s->accepted_stale = NULL;
	}
}

void session_evaluate(struct session *s)
{
	if (s->is_evaluated)
		rules_result_free(&s->result);
	memset(&s->result, 0, sizeof(s->result));
	rules_evaluate(s->rules, s->facts, &s->result);
	mark_accepted(s);
	s->is_evaluated = true;
	DBG(DEBUG_REPORT, "session: %zu recommendations, %zu not evaluated, %zu errors",
	    json_array_size(s->result.recommendations), json_array_size(s->result.not_evaluated),
	    json_array_size(s->result.errors));
}

void session_free(struct session *s)
{
	if (!s)
		return;
	if (s->target) {
		target_free(s->target);
		free(s->target);
	}
	free(s->facts_path);
	json_decref(s->facts_warnings);
	facts_free(s->facts);
	facts_free(s->given_workload);
	json_decref(s->bench_notes);
	free(s->bench_refusal);
	free(s->bench_skipped);
	json_decref(s->accepted_stale);
	if (s->is_evaluated)
		rules_result_free(&s->result);
	if (s->rules)
		rules_set_free(s->rules);
	free(s);
}
