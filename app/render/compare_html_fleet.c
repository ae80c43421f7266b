/* The fleet summary of `fstune compare --format html` (compare.h): the text form's tables
 * (compare_summary_parts), each as a table of the page, with each finding's title under its id and
 * its severity as the report's badge. The rows are the text form's, so the page and the terminal
 * never disagree about a host count. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app/render/compare.h"
#include "app/render/compare_table.h"
#include "app/render/html.h"
#include "app/session/session.h"
#include "lib/xalloc.h"

static void intro(FILE *out, const json_t *model)
{
	const json_t *reports = json_object_get(model, "reports"), *base = json_array_get(reports, 0);
	char *versions = compare_summary_versions(model);

	fprintf(out, "<section id=\"reports\">\n<p>%zu reports, the fleet summarised: <code>--hosts</code> for a "
		     "column per host, <code>--format json</code> for every value. The baseline is ",
		json_array_size(reports));
	html_element(out, "strong", NULL, json_string_value(json_object_get(base, "label")));
	fputs(" (", out);
	html_text(out, json_string_value(json_object_get(base, "file")));
	fputs("): a finding it lacks is new.</p>\n<p class=\"muted\">fstune versions: ", out);
	html_text(out, versions);
	fputs(".</p>\n</section>\n", out);
	free(versions);
}

/* A severity cell: one word as its badge; several ("warn 30, info 10") as they are. */
static void severity_cell(FILE *out, const char *s)
{
	int rank = session_severity_rank(s);

	fputs("<td>", out);
	if (rank >= 0) {
		char *cls = xasprintf("sev %s", html_severity_class(rank));

		html_element(out, "span", cls, s);
		free(cls);
	} else {
		html_text(out, s);
	}
	fputs("</td>", out);
}

/* Row `i` (1 for the first after the header) of a part: its first cell (an id, a setting, a count)
 * as code, with a finding's title under it. */
static void row(FILE *out, const struct compare_part *p, const json_t *fleet_findings, size_t i)
{
	const json_t *cells = json_array_get(p->table, i), *header = json_array_get(p->table, 0), *c;
	bool is_findings = !strcmp(p->id, "fleet-findings");
	size_t j;

	fputs("<tr>", out);
	json_array_foreach(cells, j, c) {
		const char *text = json_string_value(c), *col = json_string_value(json_array_get(header, j));
		const char *title = is_findings && j == 0 ?
			json_string_value(json_object_get(json_array_get(fleet_findings, i - 1), "title")) : NULL;

		if (col && !strcmp(col, "severity")) {
			severity_cell(out, text);
			continue;
		}
		fputs("<td>", out);
		if (j == 0)
			html_element(out, "code", NULL, text);
		else
			html_text(out, text);
		if (title) {
			fputs("<br>", out);
			html_element(out, "span", "muted", title);
		}
		fputs("</td>", out);
	}
	fputs("</tr>\n", out);
}

static void part(FILE *out, const struct compare_part *p, const json_t *model)
{
	const json_t *findings = json_object_get(json_object_get(model, "fleet"), "findings"), *h;
	size_t i;

	if (json_array_size(p->table) < 2)
		return;
	fprintf(out, "<section id=\"%s\">\n<h2>", p->id);
	html_text(out, p->title);
	fputs("</h2>\n<div class=\"scroll\">\n<table class=\"fleet\">\n<tr>", out);
	json_array_foreach(json_array_get(p->table, 0), i, h)
		html_element(out, "th", NULL, json_string_value(h));
	fputs("</tr>\n", out);
	for (i = 1; i < json_array_size(p->table); i++)
		row(out, p, findings, i);
	fputs("</table>\n</div>\n", out);
	if (p->after)
		html_element(out, "p", "muted", p->after);
	fputs("</section>\n", out);
}

void compare_html_fleet(FILE *out, const json_t *model)
{
	struct compare_part parts[COMPARE_PARTS_MAX];
	size_t n = compare_summary_parts(model, parts);

	intro(out, model);
	for (size_t i = 0; i < n; i++)
		part(out, &parts[i], model);
	compare_summary_parts_free(parts, n);
}
