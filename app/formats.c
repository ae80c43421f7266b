/* The table of output formats (formats.h). */
#include "config.h"

#include <string.h>

#include "app/formats.h"
#include "app/render/compare.h"
#include "app/render/facts_render.h"
#include "app/render/report_render.h"
#include "app/render/trial_render.h"

const struct output_format output_formats[] = {
	{CLI_FORMAT_TEXT, "text", NULL, "fstune-report.txt", "for reading: the same as fstune report", CLI_SCOPE_FACTS,
	 report_write_text, facts_render_text, compare_write_text, trial_write_text},
	{CLI_FORMAT_MARKDOWN, "markdown", "md", "fstune-report.md", "for a ticket or a wiki page", CLI_SCOPE_FACTS,
	 report_write_markdown, facts_render_markdown, compare_write_markdown, trial_write_markdown},
	{CLI_FORMAT_JSON, "json", NULL, "fstune-report.json",
	 "fstune.report/1, for scripts; fstune report --facts reads it back", CLI_SCOPE_FACTS, report_write_json,
	 facts_render_json, compare_write_json, trial_write_json},
	{CLI_FORMAT_OPENMETRICS, "openmetrics", NULL, "fstune.prom", "for node_exporter's textfile collector",
	 CLI_SCOPE_REPORT, report_write_openmetrics, NULL, NULL, NULL},
	{CLI_FORMAT_HTML, "html", NULL, "fstune-report.html",
	 "a page for a browser: benchmark charts, commands to copy", CLI_SCOPE_REPORTS,
	 report_write_html, NULL, compare_write_html, NULL},
};
const size_t output_n_formats = sizeof output_formats / sizeof output_formats[0];

const struct output_format *output_format_find(const char *name)
{
	for (size_t i = 0; i < output_n_formats; i++)
		if (!strcmp(output_formats[i].name, name) || (output_formats[i].alias && !strcmp(output_formats[i].alias, name)))
			return &output_formats[i];
	return NULL;
}

const struct output_format *output_format_of(enum cli_format id)
{
	for (size_t i = 0; i < output_n_formats; i++)
		if (output_formats[i].id == id)
			return &output_formats[i];
	return &output_formats[0];
}

const char *output_format_names(enum cli_scope scope)
{
	static char names[3][128];
	char *buf = names[scope];

	if (!buf[0]) {
		size_t n = 0, k = 0, len = 0;

		for (size_t i = 0; i < output_n_formats; i++)
			n += output_formats[i].scope <= scope;
		for (size_t i = 0; i < output_n_formats; i++) {
			if (output_formats[i].scope > scope)
				continue;
			len += (size_t)snprintf(buf + len, 128 - len, "%s%s", k == 0 ? "" : k + 1 == n ? " or " : ", ",
						output_formats[i].name);
			k++;
		}
	}
	return buf;
}
