/* The session pipeline: one run's steps in their order (probe or read the facts, the workload, the
 * benchmarks, the rules with the accepted findings), for the report, the wizard, trial and apply. What a step wants the admin to read
 * goes to the plan's `say` hook: the pipeline never prints. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "app/session/session.h"
#include "fstune/debug.h"

static void say(const struct session_plan *p, enum session_say kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(const struct session_plan *p, enum session_say kind, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (!p->say)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	p->say(p->arg, kind, msg);
}

/* The facts file's keys the schema does not know: a warning each (a typo would otherwise pass
 * silently); under strict_facts an input error, before anything is evaluated. */
static int facts_warnings(const struct session_plan *p, const struct session *s, struct fst_error *err)
{
	size_t i, n = json_array_size(s->facts_warnings);

	for (i = 0; i < n; i++)
		say(p, SESSION_SAY_WARNING, "%s: %s", s->facts_path,
		    json_string_value(json_array_get(s->facts_warnings, i)));
	if (n && p->strict_facts)
		return fst_error_set(err, FST_EXIT_USAGE, "%s: %zu unknown key%s or group%s (--strict)",
				     s->facts_path, n, n == 1 ? "" : "s", n == 1 ? "" : "s");
	return FST_EXIT_OK;
}

/* The benchmark step: the suite asked for, or, when none was, the default for this TARGET (skipped,
 * never refused, where it cannot run). */
static int bench_step(const struct session_plan *p, struct session *s, struct fst_error *err)
{
	enum session_bench bench = p->bench;
	size_t i;
	int status;

	if (p->bench_is_default) {
		bench = session_bench_default(s);
		if (s->bench_skipped && s->origin == SESSION_FROM_TARGET)
			say(p, SESSION_SAY_NOTE, "%s: no benchmarks: %s",
			    s->target && s->target->path ? s->target->path : "TARGET", s->bench_skipped);
	} else if (bench == SESSION_BENCH_NONE && p->bench_none_why) {
		session_bench_skip(s, p->bench_none_why);
	}
	if (bench == SESSION_BENCH_NONE)
		return FST_EXIT_OK;
	bench_stop_install();
	status = session_bench(s, bench, p->bench_cfg, err);
	if (status < 128)
		for (i = 0; i < json_array_size(s->bench_notes); i++)
			say(p, SESSION_SAY_NOTE, "%s", json_string_value(json_array_get(s->bench_notes, i)));
	return status;
}

/* A step's failure after which the run goes on (the report is still worth writing): said, merged. */
static int go_on(const struct session_plan *p, int status, int step, struct fst_error *err)
{
	if (step == FST_EXIT_PARTIAL || step == FST_EXIT_REFUSED) {
		say(p, SESSION_SAY_ERROR, "%s", err->msg);
		fst_error_clear(err);
	}
	return fst_exit_merge(status, step);
}

/* The accepted entries no loaded rule can make: a note each (the report lists them too). */
static void say_stale(const struct session_plan *p, const struct session *s)
{
	size_t i;
	json_t *e;

	json_array_foreach(s->accepted_stale, i, e)
		say(p, SESSION_SAY_NOTE, "accepted finding %s (%s) is stale: %s",
		    json_string_value(json_object_get(e, "id")), json_string_value(json_object_get(e, "by")),
		    json_string_value(json_object_get(e, "reason")));
}

static struct session *open_session(const struct session_plan *p, struct fst_error *err)
{
	struct session *s = p->facts_path ? session_from_facts_file(p->facts_path, err)
					   : session_from_target(p->target, err);

	if (s) {
		s->is_verbose = p->is_verbose;
		s->accepted = p->accepted;
		if (p->target_os)
			session_set_target_os(s, p->target_os);
	}
	return s;
}

int session_run(const struct session_plan *p, struct session **out, struct fst_error *err)
{
	struct session *s = open_session(p, err);
	int status = FST_EXIT_OK, step;

	*out = NULL;
	if (!s)
		return err->status != FST_EXIT_OK ? err->status : FST_EXIT_USAGE;
	step = facts_warnings(p, s, err);
	if (step == FST_EXIT_OK && p->workload_described)
		facts_copy_branch(s->facts, p->workload_described, "workload");
	else if (step == FST_EXIT_OK && p->workload) {
		step = session_describe_workload(s, p->workload, p->workload_hooks, err);
		status = go_on(p, status, step, err);
	}
	if (step != FST_EXIT_USAGE) {
		step = bench_step(p, s, err);
		status = go_on(p, status, step, err);
	}
	if (step == FST_EXIT_OK || step == FST_EXIT_PARTIAL || step == FST_EXIT_REFUSED) {
		step = p->rules ? session_load_rules(s, p->rules, err) : FST_EXIT_OK;
		if (step == FST_EXIT_OK && p->rules) {
			session_evaluate(s);
			say_stale(p, s);
		}
	}
	if (step == FST_EXIT_USAGE || step >= 128) {
		session_free(s);
		return step;
	}
	DBG(DEBUG_REPORT, "session: run done, status %d", status);
	*out = s;
	return status;
}
