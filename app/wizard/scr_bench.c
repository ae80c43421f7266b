/* Step 4, Benchmarks: none, quick or full, each with the time and the disk space it will take here
 * (or why it cannot run); then each test of the run with a progress bar and its numbers, live while
 * it runs and settled once done. The run itself is bench_step.c's; this screen only draws it. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "app/wizard/ui_int.h"

enum { B_CHOOSE = UI_ACT_SCREEN };

#define BAR_MAX 50 /* a progress bar's cells on a wide terminal: the numbers stay beside it */

static const struct ui_key bench_keys[] = {
	UI_KEYS_UP_DOWN("move up", "move down"),
	UI_KEYS_PAGES("first row", "last row"),
	UI_KEYS_ENDS("first row", "last row"),
	{'\r', B_CHOOSE, "run this suite, or go on with none: during a run, Esc stops it", true},
	{0, 0, NULL, false},
};

enum row_kind { ROW_CONTINUE, ROW_NONE, ROW_QUICK, ROW_FULL };

/* Whether any test of the last run left results. */
static bool has_results(const struct ui_wizard *w)
{
	for (size_t i = 0; i < w->bench.n_tests; i++) {
		char key[96];

		snprintf(key, sizeof(key), "bench.%s", w->bench.tests[i]->name);
		if (json_is_object(facts_get(w->session->facts, key)))
			return true;
	}
	return false;
}

static int rows_of(const struct ui_wizard *w, enum row_kind *out)
{
	int n = 0;

	if (has_results(w))
		out[n++] = ROW_CONTINUE;
	out[n++] = ROW_NONE;
	out[n++] = ROW_QUICK;
	out[n++] = ROW_FULL;
	return n;
}

static void bench_init(struct ui_wizard *w)
{
	enum row_kind rows[4];

	ui_wizard_bench_plan(w);
	w->bench_list.n = rows_of(w, rows);
	w->bench_list.sel = 0;
}

/* "850 µs", "12.5 ms". */
static const char *latency(char *buf, size_t len, double us)
{
	if (us >= 1000)
		snprintf(buf, len, "%.1f ms", us / 1000);
	else
		snprintf(buf, len, "%.0f us", us);
	return buf;
}

/* A finished test's headline number (ui_bench_headline), with p50/p99 when known and the run's flag
 * on it (implausible, cache?, cpu-bound, burst). */
static void settled(const struct facts *f, const struct bench_test_def *t, char *buf, size_t len)
{
	char key[128], r[16], p50[24], p99[24];
	double v, a = -1, b = -1;
	const char *unit;

	snprintf(key, sizeof(key), "bench.%s.lat_p50_us", t->name);
	facts_get_real(f, key, &a);
	snprintf(key, sizeof(key), "bench.%s.lat_p99_us", t->name);
	facts_get_real(f, key, &b);
	if (!ui_bench_headline(f, t, &v, &unit)) {
		snprintf(buf, len, "done");
		return;
	}
	if (!strcmp(unit, "MB/s"))
		snprintf(buf, len, "%.0f MB/s", v);
	else
		snprintf(buf, len, "%s %s", ui_rate(r, sizeof(r), v), unit);
	/* next to the number, before the latencies a narrow terminal may cut */
	if (ui_bench_flag(f, t))
		snprintf(buf + strlen(buf), len - strlen(buf), " %s", ui_bench_flag(f, t));
	if (a >= 0)
		snprintf(buf + strlen(buf), len - strlen(buf), "  p50 %s", latency(p50, sizeof(p50), a));
	if (b >= 0)
		snprintf(buf + strlen(buf), len - strlen(buf), "  p99 %s", latency(p99, sizeof(p99), b));
}

/* The running test's numbers as they settle: how far and the rate, then, once enough samples were
 * taken for them, the rate with p50 and p99 (the bar beside it still says how far: the line must
 * fit 80 columns). */
static void live_numbers(const struct ui_wizard *w, const struct bench_test_def *t, char *out, size_t len)
{
	const struct bench_live *l = &w->bench.live;
	const char *unit = t->pattern == BENCH_PATTERN_FILES ? "ops/s" : "IOPS";
	char r[16], p50[UNITS_BUFSZ], p99[UNITS_BUFSZ];

	if (l->p50_us > 0 && l->p99_us > 0)
		snprintf(out, len, "%s %s p50 %s p99 %s", ui_rate(r, sizeof(r), l->rate), unit,
			 units_duration_us(p50, sizeof(p50), l->p50_us, true),
			 units_duration_us(p99, sizeof(p99), l->p99_us, true));
	else
		snprintf(out, len, "%3.0f%%  %s %s", w->bench.fraction * 100, ui_rate(r, sizeof(r), l->rate), unit);
}

static void draw_test(const struct ui_wizard *w, const struct bench_test_def *t, int y, const struct ui_area *a)
{
	char key[96], nums[96];
	bool is_done, is_current = w->bench.is_running && !strcmp(w->bench.test, t->name);
	int bar = a->cols - 22 - 40 > BAR_MAX ? BAR_MAX : a->cols - 22 - 40;

	snprintf(key, sizeof(key), "bench.%s", t->name);
	is_done = json_is_object(facts_get(w->session->facts, key));
	ui_put(y, a->left + 2, 20, ui_attr(is_current ? UI_HEADING : UI_NORMAL), t->name);
	ui_hbar(y, a->left + 22, bar, ui_attr(UI_OK), is_done ? 1.0 : is_current ? w->bench.fraction : 0, 1.0);
	if (is_done)
		settled(w->session->facts, t, nums, sizeof(nums));
	else if (is_current && t->io_size >= 65536)
		snprintf(nums, sizeof(nums), "%3.0f%%  %.0f MB/s", w->bench.fraction * 100, w->bench.live.rate * t->io_size / 1e6);
	else if (is_current)
		live_numbers(w, t, nums, sizeof(nums));
	else
		snprintf(nums, sizeof(nums), "%s", w->bench.is_running ? "waiting" : "not run");
	ui_put(y, a->left + 23 + bar, a->cols - 23 - bar, ui_attr(is_done ? UI_NORMAL : UI_DIM), nums);
}

static void draw_run(const struct ui_wizard *w, int y, const struct ui_area *a)
{
	char line[128];
	size_t first = 0, fit;

	if (!w->bench.n_tests || y + 1 >= a->top + a->rows)
		return;
	if (w->bench.is_running && !strcmp(w->bench.test, "layout")) {
		snprintf(line, sizeof(line), "writing the test file: %3.0f%%  %.0f MB/s (Esc stops)", w->bench.fraction * 100,
			 w->bench.live.rate / 1e6);
		ui_put(y, a->left, a->cols, ui_attr(UI_HEADING), line);
	} else {
		ui_put(y, a->left, a->cols, ui_attr(UI_HEADING),
		       w->bench.is_running ? "Running (Esc stops: the scratch files go, finished tests stay)"
					   : "The last run");
	}
	fit = (size_t)(a->top + a->rows - y - 1);
	/* the test running stays in view on a small terminal: the list scrolls under it */
	for (size_t i = 0; w->bench.is_running && i < w->bench.n_tests; i++)
		if (!strcmp(w->bench.tests[i]->name, w->bench.test) && i + 2 > fit)
			first = i + 2 - fit;
	for (size_t i = first; i < w->bench.n_tests && i - first < fit; i++)
		draw_test(w, w->bench.tests[i], y + 1 + (int)(i - first), a);
}

static const char *row_name(enum row_kind k)
{
	static const char *const names[] = {"continue", "none", "quick", "full"};

	return names[k];
}

static const char *row_text(const struct ui_wizard *w, enum row_kind k)
{
	switch (k) {
	case ROW_CONTINUE:
		return "see the results as charts";
	case ROW_NONE:
		return "no benchmarks: the advice rests on what was probed";
	case ROW_QUICK:
		return w->bench.estimate[0];
	default:
		return w->bench.estimate[1];
	}
}

static void bench_draw(struct ui_wizard *w, const struct ui_area *a)
{
	enum row_kind rows[4];
	int n = rows_of(w, rows), y = a->top + 2;

	ui_put(a->top, a->left, a->cols, ui_attr(UI_HEADING),
	       "Benchmarks: measure the disk; the rules use what finishes.");
	w->bench_list.n = n;
	ui_list_clamp(&w->bench_list, n);
	for (int i = 0; i < n; i++, y++) {
		bool is_sel = i == w->bench_list.sel && !w->bench.is_running;
		attr_t at = ui_menu_row(y, a, is_sel, row_name(rows[i]), 9, 12);

		ui_put(y, a->left + 12, a->cols - 12, at, row_text(w, rows[i]));
	}
	if (!w->bench.is_running && (rows[w->bench_list.sel] == ROW_QUICK || rows[w->bench_list.sel] == ROW_FULL)) {
		size_t nl;
		char **lines = ui_wrap(row_text(w, rows[w->bench_list.sel]), a->cols - 2, &nl);

		for (size_t i = 0; i < nl; i++) /* whole: a reason it cannot run takes several lines */
			ui_put(++y, a->left + 2, a->cols - 2, ui_attr(UI_DIM), lines[i]);
		ui_lines_free(lines, nl);
		y += 2;
	}
	if (w->bench.mode == BENCH_MODE_DEVICE_READ)
		ui_put(y++, a->left, a->cols, ui_attr(UI_UNAVAILABLE),
		       "An unmounted device: only the read tests run, and nothing is written to it.");
	draw_run(w, y + 1, a);
}

static enum ui_result run_anyway(struct ui_wizard *w, const char *text)
{
	if (strcmp(text, "yes") && strcmp(text, "y")) {
		ui_message(w, UI_DIM, "not run");
		return UI_DONE;
	}
	ui_wizard_bench_run(w, w->bench.suite);
	w->bench_list.sel = 0; /* "continue", when a test finished */
	return UI_DONE;
}

static enum ui_result start(struct ui_wizard *w, enum session_bench suite)
{
	static char question[192];
	double share;

	if (!w->bench.can_run) {
		ui_message(w, UI_ERROR, "%s", w->bench.estimate[suite == SESSION_BENCH_FULL]);
		return UI_DONE;
	}
	w->bench.suite = suite;
	if (ui_wizard_bench_busy(w, &share)) {
		snprintf(question, sizeof(question), "%s is busy (in I/O %.0f%% of the time): the numbers will be low and "
			 "its work slowed. Run anyway? (yes/no)", w->session->target->dev_name, share * 100);
		return ui_prompt_open(w, question, "no", run_anyway);
	}
	return run_anyway(w, "yes");
}

static enum ui_result bench_key(struct ui_wizard *w, int action, int ch)
{
	enum row_kind rows[4];
	int n = rows_of(w, rows);

	(void)ch;
	w->bench_list.n = n;
	if (action != B_CHOOSE) {
		ui_list_key(&w->bench_list, action, n);
		return UI_DONE;
	}
	switch (rows[w->bench_list.sel]) {
	case ROW_CONTINUE:
		return ui_goto(w, UI_SCR_CHARTS);
	case ROW_NONE:
		if (!has_results(w) && w->session->bench == SESSION_BENCH_NONE)
			session_bench_skip(w->session, "none chosen in the wizard");
		return ui_goto(w, UI_SCR_ADVICE);
	case ROW_QUICK:
		return start(w, SESSION_BENCH_QUICK);
	case ROW_FULL:
		return start(w, SESSION_BENCH_FULL);
	}
	return UI_DONE;
}

const struct ui_screen ui_screen_bench = {
	.name = "Bench",
	.help_intro = "Benchmarks measure the disk in a scratch directory of the filesystem (an unmounted "
		      "device: reads only) and put their numbers into the facts (bench.*) for the rules. "
		      "quick takes seconds; full adds the small-versus-large curve and the file tests. Esc "
		      "during a run stops it: the scratch files are removed, the tests that finished stay.",
	.keys = bench_keys,
	.init = bench_init,
	.draw = bench_draw,
	.key = bench_key,
};
