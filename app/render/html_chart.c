/* The HTML writers' charts as inline SVG (html.h): drawn in a fixed coordinate box (viewBox) that the
 * page scales to its width, coloured by the page's CSS classes, each mark with a <title> that says
 * its number in words for a reader who hovers or uses a screen reader. */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "app/render/html.h"

#define BAR_W 480.0
#define BAR_ROW 42.0
#define LINE_W 480.0
#define LINE_H 230.0
#define LINE_LEFT 64.0
#define LINE_RIGHT 14.0
#define LINE_TOP 22.0
#define LINE_BOTTOM 30.0

const char *html_number(double v)
{
	static char buf[32];

	snprintf(buf, sizeof buf, fabs(v) >= 100 ? "%.0f" : fabs(v) >= 10 ? "%.1f" : "%.2f", v);
	return buf;
}

/* The end of a value's 95% interval above it: the value itself when the interval is not known. */
static double upper(double v, double ci95_pct)
{
	return isnan(ci95_pct) ? v : v * (1 + ci95_pct / 100);
}

/* "12000 IOPS ± 2.1%", the words a mark's <title> and its label carry. */
static void value_words(FILE *out, double v, const char *unit, double ci95_pct)
{
	fprintf(out, "%s ", html_number(v));
	html_text(out, unit);
	if (!isnan(ci95_pct))
		fprintf(out, " ± %.1f%%", ci95_pct);
}

static void figure_begin(FILE *out, const char *title, double w, double h)
{
	fputs("<figure>\n<figcaption>", out);
	html_text(out, title);
	fprintf(out, "</figcaption>\n<svg viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"", w, h);
	html_text(out, title);
	fputs("\">\n", out);
}

/* The interval as a whisker with end caps across y, from lo to hi. */
static void whisker(FILE *out, double lo, double hi, double y, double cap)
{
	fprintf(out, "<path class=\"ci\" d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fV%.1f\"/>\n", lo, y, hi, lo,
		y - cap, y + cap, hi, y - cap, y + cap);
}

static void bar_row(FILE *out, const struct html_bar *b, double y, double scale, const char *unit)
{
	double w = b->value > 0 ? b->value * scale : 0;

	fputs("<g><title>", out);
	html_text(out, b->label);
	fputs(": ", out);
	value_words(out, b->value, unit, b->ci95_pct);
	if (b->mark) {
		fputs(" (", out);
		html_text(out, b->mark);
		fputs(")", out);
	}
	fprintf(out, "</title>\n<text x=\"0\" y=\"%.1f\">", y + 14);
	html_text(out, b->label);
	if (b->mark) {
		fputs(" <tspan class=\"flag\">", out);
		html_text(out, b->mark);
		fputs("</tspan>", out);
	}
	fprintf(out, "</text>\n<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">", BAR_W, y + 14);
	value_words(out, b->value, unit, b->ci95_pct);
	fprintf(out, "</text>\n<rect class=\"bar\" x=\"0\" y=\"%.1f\" width=\"%.1f\" height=\"14\" rx=\"2\"/>\n",
		y + 20, w);
	if (!isnan(b->ci95_pct) && b->value > 0)
		whisker(out, b->value * (1 - b->ci95_pct / 100) * scale, upper(b->value, b->ci95_pct) * scale, y + 27,
			5);
	fputs("</g>\n", out);
}

void html_bar_chart(FILE *out, const char *title, const char *unit, const struct html_bar *bars, size_t n)
{
	double max = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (upper(bars[i].value, bars[i].ci95_pct) > max)
			max = upper(bars[i].value, bars[i].ci95_pct);
	figure_begin(out, title, BAR_W, (double)n * BAR_ROW + 4);
	for (i = 0; i < n; i++)
		bar_row(out, &bars[i], (double)i * BAR_ROW, max > 0 ? (BAR_W - 2) / max : 0, unit);
	fputs("</svg>\n</figure>\n", out);
}

/* The y axis: the baseline, the left edge and three labelled ticks (0, half, the top). */
static void line_axes(FILE *out, double max, const char *unit)
{
	double plot_h = LINE_H - LINE_TOP - LINE_BOTTOM;

	fprintf(out, "<path class=\"axis\" d=\"M%.0f %.0fV%.0fH%.0f\"/>\n", LINE_LEFT, LINE_TOP,
		LINE_H - LINE_BOTTOM, LINE_W - LINE_RIGHT);
	for (int k = 0; k <= 2; k++) {
		double y = LINE_TOP + plot_h * (1 - k / 2.0);

		fprintf(out, "<text class=\"muted\" x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			LINE_LEFT - 6, y + 4, html_number(max * k / 2.0));
	}
	fprintf(out, "<text class=\"muted\" x=\"0\" y=\"12\">");
	html_text(out, unit);
	fputs("</text>\n", out);
}

/* The line through the measured points, broken where one was not measured. */
static void line_path(FILE *out, const double *px, const double *py, const double *y, size_t n)
{
	bool is_open = false;

	fputs("<path class=\"line\" d=\"", out);
	for (size_t i = 0; i < n; i++) {
		if (isnan(y[i])) {
			is_open = false;
			continue;
		}
		fprintf(out, "%s%.1f %.1f", is_open ? "L" : "M", px[i], py[i]);
		is_open = true;
	}
	fputs("\"/>\n", out);
}

void html_line_chart(FILE *out, const char *title, const char *unit, const char *const *x, const double *y,
		     const double *ci95_pct, size_t n)
{
	double px[16], py[16], max = 0, plot_h = LINE_H - LINE_TOP - LINE_BOTTOM;
	size_t i;

	if (n > 16 || n < 2)
		return;
	for (i = 0; i < n; i++)
		if (!isnan(y[i]) && upper(y[i], ci95_pct ? ci95_pct[i] : NAN) > max)
			max = upper(y[i], ci95_pct ? ci95_pct[i] : NAN);
	max = max > 0 ? max * 1.1 : 1;
	for (i = 0; i < n; i++) {
		px[i] = LINE_LEFT + 26 + (LINE_W - LINE_LEFT - LINE_RIGHT - 46) * (double)i / (double)(n - 1);
		py[i] = isnan(y[i]) ? NAN : LINE_TOP + plot_h * (1 - y[i] / max);
	}
	figure_begin(out, title, LINE_W, LINE_H);
	line_axes(out, max, unit);
	line_path(out, px, py, y, n);
	for (i = 0; i < n; i++) {
		double ci = ci95_pct ? ci95_pct[i] : NAN;

		fprintf(out, "<text class=\"muted\" x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">", px[i], LINE_H - 8);
		html_text(out, x[i]);
		fputs("</text>\n", out);
		if (isnan(y[i]))
			continue;
		if (!isnan(ci))
			fprintf(out, "<path class=\"ci\" d=\"M%.1f %.1fV%.1f\"/>\n", px[i],
				LINE_TOP + plot_h * (1 - y[i] * (1 - ci / 100) / max),
				LINE_TOP + plot_h * (1 - upper(y[i], ci) / max));
		fprintf(out, "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"><title>", px[i], py[i]);
		html_text(out, x[i]);
		fputs(": ", out);
		value_words(out, y[i], unit, ci);
		fprintf(out, "</title></circle>\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", px[i],
			py[i] - 9, html_number(y[i]));
	}
	fputs("</svg>\n</figure>\n", out);
}
