/* Step 5, Charts: the benchmark results as bars (each against the best of its unit: IOPS, MB/s,
 * operations/s), and, after the full suite, the small-versus-large curve (rand_read_{1k..64k}_qd1):
 * IOPS and median latency by request size as two column plots side by side. Drawn from the facts,
 * in block glyphs (ASCII where the locale is not UTF-8), readable from 80x24 up. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "app/wizard/ui_int.h"

enum { C_ON = UI_ACT_SCREEN };

#define BAR_MAX 60 /* a result's bar on a wide terminal: its number stays beside it, in reach */

static const struct ui_key charts_keys[] = {
	UI_KEYS_UP_DOWN("scroll the results", "scroll the results"),
	UI_KEYS_PAGES("page up the results", "page down the results"),
	UI_KEYS_ENDS("first result", "last result"),
	{'\r', C_ON, "go on to the advice", true},
	{0, 0, NULL, false},
};

static const struct {
	const char *test, *label;
} curve[] = {
	{"rand_read_1k_qd1", "1K"}, {"rand_read_2k_qd1", "2K"}, {"rand_read_4k_qd1", "4K"},
	{"rand_read_8k_qd1", "8K"}, {"rand_read_16k_qd1", "16K"}, {"rand_read_64k_qd1", "64K"},
};
#define N_CURVE (sizeof(curve) / sizeof(curve[0]))

static double max_of_unit(const struct facts *f, const char *unit)
{
	double best = 0, v;
	const char *u;

	for (size_t i = 0; i < bench_n_tests; i++)
		if (ui_bench_headline(f, &bench_tests[i], &v, &u) && !strcmp(u, unit) && v > best)
			best = v;
	return best;
}

static int count_results(const struct facts *f)
{
	int n = 0;
	double v;
	const char *u;

	for (size_t i = 0; i < bench_n_tests; i++)
		n += ui_bench_headline(f, &bench_tests[i], &v, &u);
	return n;
}

static void charts_init(struct ui_wizard *w) { w->charts_top = 0; }

/* "! rand_read_4k_qd1 cache?, seq_read_1m implausible": what each marked figure is (the bench table
 * says why); empty when none is marked. */
static void flags_legend(const struct facts *f, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < bench_n_tests && n + 1 < len; i++) {
		const char *mark = ui_bench_flag(f, &bench_tests[i]);

		if (mark)
			n += (size_t)snprintf(buf + n, len - n, "%s%s %s", n ? ", " : "! ", bench_tests[i].name, mark);
	}
}

/* The results from w->charts_top, one bar each, in `rows` rows from y; a figure the run marked (not
 * the device's, or a burst) has a dimmed bar and a "!", named in a last line. */
static void draw_results(const struct ui_wizard *w, int y, int rows, const struct ui_area *a)
{
	const struct facts *f = w->session->facts;
	int shown = 0, skip = w->charts_top, bar = a->cols - 22 - 16 > BAR_MAX ? BAR_MAX : a->cols - 22 - 16;
	char legend[512];

	flags_legend(f, legend, sizeof(legend));
	ui_put(y++, a->left, a->cols, ui_attr(UI_HEADING), "Results (each bar against the best of its unit)");
	for (size_t i = 0; i < bench_n_tests && shown < rows - 1 - (legend[0] ? 1 : 0); i++) {
		const struct bench_test_def *t = &bench_tests[i];
		char num[32], r[16];
		const char *unit, *mark;
		double v;

		if (!ui_bench_headline(f, t, &v, &unit) || skip-- > 0)
			continue;
		mark = ui_bench_flag(f, t);
		snprintf(num, sizeof(num), "%s %s%s", ui_rate(r, sizeof(r), v), unit, mark ? " !" : "");
		ui_put(y, a->left + 2, 20, ui_attr(UI_NORMAL), t->name);
		ui_hbar(y, a->left + 22, bar, ui_attr(mark && strcmp(mark, "burst") ? UI_DIM : UI_OK), v,
			max_of_unit(f, unit));
		ui_put(y++, a->left + 23 + bar, a->cols - 23 - bar, ui_attr(mark ? UI_UNAVAILABLE : UI_NORMAL), num);
		shown++;
	}
	if (legend[0])
		ui_put(y, a->left + 2, a->cols - 2, ui_attr(UI_UNAVAILABLE), legend);
}

/* The curve's values for `field` ("iops", "lat_p50_us"), -1 where unknown; false when too few. */
static bool curve_values(const struct facts *f, const char *field, double *v, double *max)
{
	int known = 0;

	*max = 0;
	for (size_t i = 0; i < N_CURVE; i++) {
		char key[96];

		snprintf(key, sizeof(key), "bench.%s.%s", curve[i].test, field);
		v[i] = -1;
		if (facts_get_real(f, key, &v[i])) {
			known++;
			if (v[i] > *max)
				*max = v[i];
		}
	}
	return known >= 3; /* the quick suite's one 4 KiB point is no curve */
}

/* One column plot `h` rows high at (y, x), `cols` wide: a title, the columns, the sizes, the values. */
static void plot(const char *title, const double *v, double max, int y, int x, int cols, int h)
{
	int cw = (cols - 2) / (int)N_CURVE;
	char r[16];

	cw = cw > 8 ? 8 : cw;
	ui_put(y, x, cols, ui_attr(UI_HEADING), title);
	for (size_t i = 0; i < N_CURVE; i++) {
		int cx = x + 1 + (int)i * cw;
		long total = v[i] > 0 && max > 0 ? (long)(v[i] / max * h * 8 + 0.5) : 0;

		for (int row = 0; row < h; row++) {
			long e = total - (long)row * 8;
			const char *g = ui_glyph->vbar[e >= 8 ? 8 : e > 0 ? e : 0];

			for (int c = 0; c < cw - 1; c++)
				ui_put(y + h - row, cx + c, 1, ui_attr(UI_OK), g);
		}
		ui_put(y + h + 1, cx, cw, ui_attr(UI_DIM), curve[i].label);
		ui_put(y + h + 2, cx, cw, ui_attr(UI_NORMAL), v[i] >= 0 ? ui_rate(r, sizeof(r), v[i]) : "-");
	}
}

/* The small-versus-large curve in `rows` rows from y; returns the rows used (0: no curve). */
static int draw_curve(const struct ui_wizard *w, int y, int rows, const struct ui_area *a)
{
	double iops[N_CURVE], lat[N_CURVE], imax, lmax;
	int h = rows - 4, half = a->cols / 2;

	if (!curve_values(w->session->facts, "iops", iops, &imax))
		return 0;
	curve_values(w->session->facts, "lat_p50_us", lat, &lmax);
	h = h > 16 ? 16 : h < 3 ? 3 : h;
	plot("Random-read IOPS by request size", iops, imax, y, a->left, half - 2, h);
	plot("Median latency (us) by request size", lat, lmax, y, a->left + half, half - 2, h);
	return h + 4;
}

static void charts_draw(struct ui_wizard *w, const struct ui_area *a)
{
	int n = count_results(w->session->facts), y = a->top + 2, used, rows;

	ui_put(a->top, a->left, a->cols, ui_attr(UI_HEADING), "Charts: what the benchmarks measured");
	if (!n) {
		ui_put(y, a->left, a->cols, ui_attr(UI_DIM),
		       "No benchmark results yet: run quick or full on the Bench step (full draws the "
		       "small-versus-large curve).");
		return;
	}
	used = draw_curve(w, y, (a->rows - 2) / 2, a);
	if (!used)
		ui_put(a->top + a->rows - 1, a->left, a->cols, ui_attr(UI_DIM),
		       "The small-versus-large curve needs the full suite.");
	rows = a->rows - 2 - used - (used ? 0 : 1);
	w->charts_page = rows - 1 > 1 ? rows - 1 : 1; /* below the results' heading */
	ui_scroll_clamp(&w->charts_top, n, w->charts_page);
	draw_results(w, y + used, rows, a);
}

static enum ui_result charts_key(struct ui_wizard *w, int action, int ch)
{
	(void)ch;
	if (action == C_ON)
		return ui_goto(w, UI_SCR_ADVICE);
	ui_scroll_key(&w->charts_top, action, w->charts_page);
	return UI_DONE;
}

const struct ui_screen ui_screen_charts = {
	.name = "Charts",
	.help_intro = "The benchmark numbers as bars, each against the best result of its unit; a dimmed "
		      "bar with ! is a figure the run marked (implausible, cache?, cpu-bound: not the "
		      "device's speed; burst: a cache filled), named under the bars. After "
		      "the full suite, the small-versus-large curve: random reads one at a time from 1 to "
		      "64 KiB, IOPS and median latency by request size (where the curve bends, larger "
		      "blocks stop being free).",
	.keys = charts_keys,
	.init = charts_init,
	.draw = charts_draw,
	.key = charts_key,
};
