/* The HTML report's benchmark section (report_html.h): each test's headline figure as a bar with its
 * 95% interval, one chart per unit (IOPS, MB/s, file operations/s), the small-versus-large curve
 * (random reads one at a time, by request size) as two line charts, then the text report's table of
 * every figure, with the tests that did not run and the failed consistency checks. A bar whose figure
 * the run flagged (implausible, cache?, cpu-bound, burst) carries the table's mark beside its label. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/render/bench_table.h"
#include "app/render/html.h"
#include "app/render/report_html.h"
#include "fstune/bench.h"
#include "lib/xalloc.h"

#define MARKS_MAX 64 /* "implausible cache? cpu-bound burst" and room */

enum bench_chart { CHART_IOPS, CHART_MBPS, CHART_OPS, N_CHARTS };

static const struct {
	const char *title, *unit;
} charts[N_CHARTS] = {
	{"Random and fsync I/O", "IOPS"},
	{"Sequential throughput", "MB/s"},
	{"File operations", "ops/s"},
};

static double figure(const struct report_bench_test *t, const char *key)
{
	const struct report_bench_value *v = report_bench_find(t, key);

	return v ? v->value : NAN;
}

/* A test's headline figure and its chart: the unit its kind is measured in (a test this version does
 * not know, from a hand-written facts file, by the figures it has). False when it has none. */
static bool headline(const struct report_bench_test *t, enum bench_chart *chart, double *v)
{
	const struct bench_test_def *def = bench_test_find(t->name);
	bool is_files = def ? def->pattern == BENCH_PATTERN_FILES : isnan(figure(t, "iops"));
	bool is_large = def ? !is_files && def->io_size >= 65536 : false;

	*chart = is_files ? CHART_OPS : is_large ? CHART_MBPS : CHART_IOPS;
	*v = is_files ? figure(t, "tps") : is_large ? figure(t, "bw_bytes_per_s") / 1e6 : figure(t, "iops");
	if (is_files && isnan(*v))
		*v = figure(t, "create_per_s");
	return !isnan(*v);
}

/* The marks the text table's direct column gives a test's figures, "cache? burst", in `buf`; NULL
 * when it has none. */
static const char *marks(const struct report_bench_test *t, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < t->n_flags && n < size; i++) {
		const char *mark = bench_flag_mark_of(t->flags[i]);

		if (mark)
			n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? " " : "", mark);
	}
	return n ? buf : NULL;
}

/* Returns whether a bar carries a mark. */
static bool bar_charts(FILE *out, const struct report_model *m)
{
	struct html_bar *bars = xcalloc(m->n_bench + 1, sizeof(*bars));
	char (*words)[MARKS_MAX] = xcalloc(m->n_bench + 1, sizeof(*words));
	bool is_marked = false;

	for (int c = 0; c < N_CHARTS; c++) {
		size_t n = 0;

		for (size_t k = 0; k < m->n_bench; k++) {
			enum bench_chart chart;
			double v;

			if (headline(&m->bench[k], &chart, &v) && (int)chart == c) {
				bars[n++] = (struct html_bar){m->bench[k].name, v, figure(&m->bench[k], "ci95_pct"),
							      marks(&m->bench[k], words[k], sizeof words[k])};
				is_marked |= bars[n - 1].mark != NULL;
			}
		}
		if (n)
			html_bar_chart(out, charts[c].title, charts[c].unit, bars, n);
	}
	free(words);
	free(bars);
	return is_marked;
}

/* The curve's tests are the table's random reads one at a time, smallest request first. */
static int by_io_size(const void *a, const void *b)
{
	uint32_t x = (*(const struct bench_test_def *const *)a)->io_size;
	uint32_t y = (*(const struct bench_test_def *const *)b)->io_size;

	return (x > y) - (x < y);
}

static const struct report_bench_test *find_test(const struct report_model *m, const char *name)
{
	for (size_t k = 0; k < m->n_bench; k++)
		if (!strcmp(m->bench[k].name, name))
			return &m->bench[k];
	return NULL;
}

#define MAX_CURVE 16

/* Needs three sizes or more: the quick suite's one 4 KiB point is no curve. */
static void curve(FILE *out, const struct report_model *m)
{
	const struct bench_test_def *defs[MAX_CURVE];
	double iops[MAX_CURVE], ci[MAX_CURVE], p50[MAX_CURVE];
	char labels[MAX_CURVE][16];
	const char *x[MAX_CURVE];
	size_t n = 0, known = 0;

	for (size_t i = 0; i < bench_n_tests && n < MAX_CURVE; i++)
		if (bench_tests[i].pattern == BENCH_PATTERN_RANDOM && !bench_tests[i].is_write &&
		    bench_tests[i].queue_depth == 1)
			defs[n++] = &bench_tests[i];
	qsort(defs, n, sizeof(defs[0]), by_io_size);
	for (size_t i = 0; i < n; i++) {
		const struct report_bench_test *t = find_test(m, defs[i]->name);

		snprintf(labels[i], sizeof labels[i], "%uK", defs[i]->io_size / 1024);
		x[i] = labels[i];
		iops[i] = t ? figure(t, "iops") : NAN;
		ci[i] = t ? figure(t, "ci95_pct") : NAN;
		p50[i] = t ? figure(t, "lat_p50_us") : NAN;
		known += !isnan(iops[i]);
	}
	if (known < 3)
		return;
	fputs("<h3>Small versus large requests</h3>\n<p>Random reads one at a time, by request size. While "
	      "the IOPS hold as requests grow, a larger block costs no more than a small one; where the "
	      "curve bends, larger blocks stop being free.</p>\n<div class=\"charts\">\n",
	      out);
	html_line_chart(out, "IOPS by request size", "IOPS", x, iops, ci, n);
	html_line_chart(out, "Median latency by request size", "µs", x, p50, NULL, n);
	fputs("</div>\n", out);
}

static void table_of(FILE *stream, const void *facts)
{
	bench_table_write(stream, facts, false, false);
}

void report_html_bench(FILE *out, const struct report_model *m, const struct facts *f)
{
	if (!bench_table_has_rows(f))
		return;
	fputs("<section id=\"bench\">\n<h2>Benchmark results</h2>\n<p class=\"muted\">Each bar is a test's "
	      "headline figure; the whisker is its 95% confidence interval.</p>\n<div class=\"charts\">\n",
	      out);
	bool is_marked = bar_charts(out, m);

	fputs("</div>\n", out);
	if (is_marked)
		fputs("<p class=\"muted\">A word beside a test is the table's mark for a figure to doubt "
		      "(implausible, cache?, cpu-bound) or read with care (burst): why is under the table.</p>\n",
		      out);
	curve(out, m);
	fputs("<details open>\n<summary>Every figure</summary>\n", out);
	html_pre_of(out, "table", table_of, f);
	fputs("</details>\n</section>\n", out);
}
