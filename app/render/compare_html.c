/* `fstune compare --format html` (compare.h): the comparison as one page, in the text form's order:
 * the reports, what differs (findings, then settings), what was measured, what is the same, the notes
 * and the summary; past COMPARE_GRID_MAX reports, the fleet summary (compare_html_fleet.c) in place
 * of the grid. Each part is a section of its own, so a new part of the model is a new section. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app/render/compare.h"
#include "app/render/html.h"
#include "app/render/report_render.h"
#include "app/session/session.h"
#include "lib/xalloc.h"

static const char *str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static void header_cells(FILE *out, const json_t *model, const char *first, const char *second)
{
	const json_t *r;
	size_t i;

	fputs("<tr>", out);
	html_element(out, "th", NULL, first);
	if (second)
		html_element(out, "th", NULL, second);
	json_array_foreach(json_object_get(model, "reports"), i, r)
		html_element(out, "th", NULL, str(r, "label"));
	fputs("</tr>\n", out);
}

static void reports(FILE *out, const json_t *model)
{
	const json_t *list = json_object_get(model, "reports"), *r;
	size_t i;

	fprintf(out, "<section id=\"reports\">\n<p>%zu reports; the first is the baseline: a finding it lacks "
		     "is new.</p>\n<dl class=\"pairs\">\n",
		json_array_size(list));
	json_array_foreach(list, i, r) {
		html_element(out, "dt", NULL, str(r, "label"));
		fputs("<dd>", out);
		html_text(out, str(r, "file"));
		fputs(" (fstune ", out);
		html_text(out, str(r, "version") ? str(r, "version") : "version unknown");
		fputs(", ", out);
		html_text(out, str(r, "time") ? str(r, "time") : "time unknown");
		fputs(")</dd>\n", out);
	}
	fputs("</dl>\n</section>\n", out);
}

/* A report's cell of a finding: its severity as the report's badge, "-" where it is absent. */
static void finding_cell(FILE *out, const json_t *cell)
{
	const char *sev = str(cell, "severity");
	char *text = compare_finding_cell(cell), *cls = sev ? xasprintf("sev %s", html_severity_class(session_severity_rank(sev)))
						       : xstrdup("muted");

	fputs("<td>", out);
	html_element(out, "span", cls, text);
	fputs("</td>", out);
	free(text);
	free(cls);
}

static bool is_shown_fact(const json_t *f, const char *kind, bool differing_only)
{
	return str(f, "key") && str(f, "kind") && !strcmp(str(f, "kind"), kind) &&
	       (!differing_only || json_is_true(json_object_get(f, "differs")));
}

/* A section with a table: its heading with the number of rows, the header row. */
static void table_begin(FILE *out, const json_t *model, const char *id, const char *title, size_t n,
			const char *first, const char *second)
{
	fprintf(out, "<section id=\"%s\">\n<h2>%s (%zu)</h2>\n<div class=\"scroll\">\n<table>\n", id, title, n);
	header_cells(out, model, first, second);
}

/* The findings that are the same everywhere (want_same), or the others with their status. */
static void findings(FILE *out, const json_t *model, bool want_same)
{
	const json_t *list = json_object_get(model, "findings"), *f, *c;
	size_t n_same = (size_t)json_integer_value(json_object_get(json_object_get(model, "summary"), "same"));
	size_t n = want_same ? n_same : json_array_size(list) - n_same, i, j;

	if (!n)
		return;
	table_begin(out, model, want_same ? "same" : "differ",
		    want_same ? "Findings the same in every report" : "Findings that differ", n, "finding",
		    want_same ? NULL : "status");
	json_array_foreach(list, i, f) {
		if ((str(f, "status") && !strcmp(str(f, "status"), "same")) != want_same)
			continue;
		fputs("<tr><td>", out);
		html_element(out, "code", NULL, str(f, "id"));
		if (str(f, "title")) {
			fputs("<br>", out);
			html_element(out, "span", "muted", str(f, "title"));
		}
		fputs("</td>", out);
		if (!want_same)
			html_element(out, "td", NULL, str(f, "status"));
		json_array_foreach(json_object_get(f, "reports"), j, c)
			finding_cell(out, c);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n</div>\n</section>\n", out);
}

/* Facts of `kind` that differ (or, for "measured", all of them), one row each. */
static void facts(FILE *out, const json_t *model, const char *kind, bool differing_only, const char *title)
{
	const json_t *list = json_object_get(model, "facts"), *f, *v;
	size_t i, j, n = 0;

	json_array_foreach(list, i, f)
		n += is_shown_fact(f, kind, differing_only);
	if (!n)
		return;
	table_begin(out, model, kind, title, n, "fact", NULL);
	json_array_foreach(list, i, f) {
		const char *key = str(f, "key");

		if (!is_shown_fact(f, kind, differing_only))
			continue;
		fputs("<tr><td>", out);
		html_element(out, "code", NULL, key);
		fputs("</td>", out);
		json_array_foreach(json_object_get(f, "values"), j, v) {
			char *cell = json_is_null(v) ? xstrdup("-") : report_fact_value(key, v);

			html_element(out, "td", NULL, cell);
			free(cell);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n</div>\n</section>\n", out);
}

static void notes_and_summary(FILE *out, const json_t *model)
{
	const json_t *sum = json_object_get(model, "summary"), *note;
	size_t i;

	if (json_array_size(json_object_get(model, "notes"))) {
		fputs("<section id=\"notes\">\n<h2>Notes</h2>\n<ul>\n", out);
		json_array_foreach(json_object_get(model, "notes"), i, note)
			html_element(out, "li", NULL, json_string_value(note));
		fputs("</ul>\n</section>\n", out);
	}
	fprintf(out, "<p id=\"summary\"><strong>Summary: %lld new (%lld at ", json_integer_value(json_object_get(sum, "new")),
		json_integer_value(json_object_get(sum, "new_failing")));
	html_text(out, str(sum, "failing_severity"));
	fprintf(out, " or above, not accepted), %lld gone, %lld changed, %lld the same; %lld facts differ",
		json_integer_value(json_object_get(sum, "gone")), json_integer_value(json_object_get(sum, "changed")),
		json_integer_value(json_object_get(sum, "same")), json_integer_value(json_object_get(sum, "facts_differ")));
	if (json_object_get(model, "bench"))
		fprintf(out, "; %lld benchmark figure%s", json_integer_value(json_object_get(sum, "bench_differ")),
			json_integer_value(json_object_get(sum, "bench_differ")) == 1 ? " differs" : "s differ");
	fputs("</strong></p>\n", out);
}

/* The grid: a column per report. */
static void grid(FILE *out, const json_t *model)
{
	reports(out, model);
	findings(out, model, false);
	facts(out, model, "setting", true, "Facts that differ");
	facts(out, model, "measured", false, "Measured");
	findings(out, model, true);
}

int compare_write_html(const json_t *model, FILE *out)
{
	const char *view = str(model, "view");

	html_page_begin(out, "fstune compare", NULL);
	fputs("<header>\n<h1>fstune compare</h1>\n</header>\n", out);
	if (view && !strcmp(view, "summary"))
		compare_html_fleet(out, model);
	else
		grid(out, model);
	notes_and_summary(out, model);
	return html_page_end(out);
}
