/* What the HTML report and the HTML comparison share: escaping, the page's frame and the SVG charts.
 * A page is one self-contained file: its CSS inline, its charts inline SVG, no script and nothing
 * fetched, so it reads the same from a mail attachment, a ticket or a file:// URL years later.
 *
 * Every string written goes through html_text: what fstune reads is hostile (a --facts file, a rule's
 * title, a file name of bytes that are not UTF-8), and none of it may become markup. */
#ifndef FSTUNE_APP_HTML_H
#define FSTUNE_APP_HTML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* `s` as HTML text, valid in an element and in a quoted attribute: & < > " ' as entities; a byte that
 * is not part of valid UTF-8, a control character and a bidirectional override (which would make
 * text display in another order than it reads) as a visible \xHH or \u{HHHH}. NULL writes nothing. */
void html_text(FILE *out, const char *s);
/* <tag class="cls">s</tag>, escaped; cls NULL for none. */
void html_element(FILE *out, const char *tag, const char *cls, const char *s);
/* What a writer wrote to `fn`'s stream, escaped, as the content of <pre class="cls">: the text
 * renderers' tables and listings shown as they are. */
void html_pre_of(FILE *out, const char *cls, void (*fn)(FILE *stream, const void *arg), const void *arg);

/* The CSS class of a severity by its rank (session_severity_rank): "sev-0" (info) to "sev-3"
 * (critical), "sev-x" for a word this version does not know. */
const char *html_severity_class(int rank);

/* The document up to the opening of <main>, titled "`title`: `subject`" (subject NULL: none). */
void html_page_begin(FILE *out, const char *title, const char *subject);
/* The document's end. Returns report_finish's result. */
int html_page_end(FILE *out);

/* A bar of a bar chart: a value with the half-width of its 95% confidence interval (NaN: not known),
 * and `mark`, words shown beside its label that qualify the figure ("cache?"; NULL: none). */
struct html_bar {
	const char *label;
	double value;
	double ci95_pct;
	const char *mark;
};

/* Horizontal bars, one per entry, against the largest value (or interval end), each with its value in
 * `unit` and its interval as a whisker. */
void html_bar_chart(FILE *out, const char *title, const char *unit, const struct html_bar *bars, size_t n);

/* A line over n points with labels `x` (NaN y: not measured, the line skips it), y from 0, each point
 * with its value in `unit` and (ci95_pct not NULL) its interval. */
void html_line_chart(FILE *out, const char *title, const char *unit, const char *const *x, const double *y,
		     const double *ci95_pct, size_t n);

/* A number for a chart's label: "12 300", "49.2", "0.75". Static storage, overwritten by each call. */
const char *html_number(double v);

#endif
