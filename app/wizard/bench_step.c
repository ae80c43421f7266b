/* The Benchmarks step's actions: what each suite would cost here (bench_can_run: the mode, the
 * space; the tests and their time), the busy check before a run, and the run itself with its
 * progress drawn by the Benchmarks screen from inside the progress callback.
 *
 * Signals during a run: the bench layer's handlers replace the terminal guard's, so that Ctrl-C
 * stops the run and removes its scratch directory first; then the terminal is restored and the
 * process ends by the signal (128+n), as `fstune report` does. Esc stops the run the same way
 * without ending the wizard: what finished is kept in the facts and the rules see it. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "app/wizard/ui_int.h"
#include "fstune/units.h"

static struct bench_config config_of(const struct ui_wizard *w, enum session_bench suite)
{
	struct bench_config c = w->bench_cfg;

	c.suite = suite == SESSION_BENCH_FULL ? BENCH_SUITE_FULL : BENCH_SUITE_QUICK;
	return c;
}

/* The suite's tests that can run in `mode` (an unmounted device: reads only), in run order. */
static size_t tests_of(const struct bench_config *c, enum bench_mode mode, const struct bench_test_def **out,
		       size_t max)
{
	const struct bench_test_def *all[64];
	struct fst_error err = FST_ERROR_INIT;
	size_t n = 0, k = 0;

	if (bench_n_tests > sizeof(all) / sizeof(all[0]) || bench_select(c, all, &n, &err) != FST_EXIT_OK)
		return 0;
	for (size_t i = 0; i < n && k < max; i++)
		if (mode != BENCH_MODE_DEVICE_READ || (!all[i]->is_write && !all[i]->needs_directory))
			out[k++] = all[i];
	return k;
}

static void estimate(struct ui_wizard *w, enum session_bench suite, char *out, size_t len)
{
	struct bench_config c = config_of(w, suite);
	struct bench_plan plan = {0};
	const struct bench_test_def *t[32];
	double per_test;
	char span[UNITS_BUFSZ], budget[UNITS_BUFSZ];
	size_t n;

	bench_can_run(w->session->target, &c, &plan);
	w->bench.mode = plan.mode;
	w->bench.can_run = plan.mode != BENCH_MODE_NONE;
	if (plan.mode == BENCH_MODE_NONE) {
		snprintf(out, len, "cannot run: %.230s", plan.reason);
		bench_plan_free(&plan);
		return;
	}
	n = tests_of(&c, plan.mode, t, sizeof(t) / sizeof(t[0]));
	per_test = c.warmup_s + bench_runtime_cap_s(&c);
	units_bytes(span, sizeof(span), plan.span_bytes);
	units_bytes(budget, sizeof(budget), plan.budget_bytes);
	if (plan.mode == BENCH_MODE_DEVICE_READ)
		snprintf(out, len, "%zu read tests, about %.0f s; reads %s of the device, writes nothing", n,
			 (double)n * per_test + c.busy_check_s, span);
	else
		snprintf(out, len, "%zu tests, about %.0f s plus writing a %s test file; uses at most %s in %s", n,
			 (double)n * per_test + c.busy_check_s, span, budget, plan.dir ? plan.dir : "?");
	bench_plan_free(&plan);
}

void ui_wizard_bench_plan(struct ui_wizard *w)
{
	w->bench.can_run = false;
	if (!w->session || w->session->origin != SESSION_FROM_TARGET) {
		snprintf(w->bench.estimate[0], sizeof(w->bench.estimate[0]),
			 "saved facts: there is no disk here to measure");
		snprintf(w->bench.estimate[1], sizeof(w->bench.estimate[1]), "%s", w->bench.estimate[0]);
		return;
	}
	estimate(w, SESSION_BENCH_FULL, w->bench.estimate[1], sizeof(w->bench.estimate[1]));
	estimate(w, SESSION_BENCH_QUICK, w->bench.estimate[0], sizeof(w->bench.estimate[0]));
}

bool ui_wizard_bench_busy(struct ui_wizard *w, double *share)
{
	struct workload_observation o;
	const char *dev = w->session && w->session->target ? w->session->target->dev_name : NULL;

	*share = 0;
	if (!dev || w->bench_cfg.busy_check_s <= 0)
		return false; /* --busy-check 0: no look */
	ui_message(w, UI_DIM, "checking that %s is idle (%.1f s)%s", dev, w->bench_cfg.busy_check_s,
		   ui_glyph->ellipsis);
	ui_redraw(w);
	if (workload_observe(dev, w->bench_cfg.busy_check_s, NULL, NULL, &o) != 0)
		return false;
	*share = o.busy_share;
	return workload_observation_busy(&o);
}

static bool on_progress(void *arg, const char *test, double fraction, const struct bench_live *live)
{
	struct ui_wizard *w = arg;

	snprintf(w->bench.test, sizeof(w->bench.test), "%s", test);
	w->bench.fraction = fraction;
	w->bench.live = *live;
	ui_redraw(w);
	return !ui_poll_cancel();
}

/* Says how the run ended; a signal ends the wizard here, after the bench layer's clean-up. */
static void finish(struct ui_wizard *w, int status, const struct fst_error *err)
{
	size_t kept = 0;

	for (size_t i = 0; i < w->bench.n_tests; i++) {
		char key[96];

		snprintf(key, sizeof(key), "bench.%s", w->bench.tests[i]->name);
		kept += json_is_object(facts_get(w->session->facts, key));
	}
	if (*bench_stop_flag()) {
		ui_term_stop();
		bench_stop_reraise();
	}
	session_evaluate(w->session);
	if (kept)
		w->unsaved |= UI_UNSAVED_BENCH;
	if (status >= 128)
		ui_message(w, UI_ERROR, "stopped: the scratch files are removed; %zu finished test%s kept", kept,
			   kept == 1 ? "" : "s");
	else if (status == FST_EXIT_OK)
		ui_message(w, UI_OK, "%zu tests done: Enter shows the charts", kept);
	else
		ui_message(w, UI_ERROR, "%s", err->msg);
}

void ui_wizard_bench_run(struct ui_wizard *w, enum session_bench suite)
{
	struct bench_config c = config_of(w, suite);
	struct fst_error err = FST_ERROR_INIT;
	int status;

	w->bench.suite = suite;
	w->bench.n_tests = tests_of(&c, w->bench.mode, w->bench.tests, sizeof(w->bench.tests) / sizeof(w->bench.tests[0]));
	w->bench.is_running = true;
	w->bench.test[0] = '\0';
	c.progress = on_progress;
	c.progress_arg = w;
	c.stop = NULL; /* bench_stop_flag(), set by the handlers below */
	bench_stop_install();
	status = session_bench(w->session, suite, &c, &err);
	ui_term_guard_signals();
	w->bench.is_running = false;
	finish(w, status, &err);
}
