/* The text and Markdown forms of `fstune compare`'s model (compare.h): what differs first, then what
 * was measured, then what is the same, then the summary line scripts can grep. */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "app/render/compare.h"
#include "app/render/report_render.h"
#include "lib/xalloc.h"

#define CELL_MAX 28 /* value columns wider than this are cut with "~": the JSON has every value whole */

enum style { STYLE_TEXT, STYLE_MARKDOWN };

char *compare_finding_cell(const json_t *cell)
{
	const char *sev = json_string_value(json_object_get(cell, "severity"));

	if (json_is_null(cell) || !cell)
		return xstrdup("-");
	return xasprintf("%s%s", sev ? sev : "?", json_is_true(json_object_get(cell, "accepted")) ? " (accepted)" : "");
}

/* A table is a JSON array of rows, each an array of strings; the first row is the header. */
static void table_add(json_t *t, json_t *row)
{
	json_array_append_new(t, row);
}

static json_t *header_row(const json_t *model, const char *first, const char *second)
{
	json_t *row = json_array(), *r;
	size_t i;

	json_array_append_new(row, json_string(first));
	if (second)
		json_array_append_new(row, json_string(second));
	json_array_foreach(json_object_get(model, "reports"), i, r)
		json_array_append_new(row, json_string(json_string_value(json_object_get(r, "label"))));
	return row;
}

static char *cut(const char *s)
{
	size_t n = strlen(s);

	return n <= CELL_MAX ? xstrdup(s) : xasprintf("%.*s~", CELL_MAX - 1, s);
}

static void md_cell(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|' || *s == '\\' || *s == '*' || *s == '_' || *s == '`')
			fputc('\\', out);
		fputc(*s == '\n' ? ' ' : *s, out);
	}
}

static void table_write(FILE *out, const json_t *t, enum style style)
{
	size_t ncol = json_array_size(json_array_get(t, 0)), i, j;
	size_t *w = xcalloc(ncol ? ncol : 1, sizeof(*w));
	const json_t *row;

	json_array_foreach(t, i, row)
		for (j = 0; j < ncol; j++) {
			size_t n = strlen(json_string_value(json_array_get(row, j)));

			n = n > CELL_MAX && j > 0 ? CELL_MAX : n;
			w[j] = n > w[j] ? n : w[j];
		}
	json_array_foreach(t, i, row) {
		for (j = 0; j < ncol; j++) {
			const char *s = json_string_value(json_array_get(row, j));

			if (style == STYLE_MARKDOWN) {
				fputs(j ? " | " : "| ", out);
				md_cell(out, s);
			} else {
				char *c = j > 0 ? cut(s) : xstrdup(s);

				if (j + 1 < ncol)
					fprintf(out, "  %-*s", (int)w[j], c);
				else
					fprintf(out, "  %s", c);
				free(c);
			}
		}
		fputs(style == STYLE_MARKDOWN ? " |\n" : "\n", out);
		if (i == 0 && style == STYLE_MARKDOWN) {
			for (j = 0; j < ncol; j++)
				fputs("|---", out);
			fputs("|\n", out);
		}
	}
	free(w);
}

static void heading(FILE *out, enum style style, const char *title)
{
	if (style == STYLE_MARKDOWN) {
		fprintf(out, "## %s\n\n", title);
		return;
	}
	fprintf(out, "%s\n", title);
	for (size_t i = strlen(title); i > 0; i--)
		fputc('-', out);
	fputc('\n', out);
}

/* The findings that are the same everywhere (want_same), or the others with their status. */
static json_t *findings_table(const json_t *model, bool want_same)
{
	json_t *t = json_array(), *f, *c;
	size_t i, j;

	table_add(t, header_row(model, "finding", want_same ? NULL : "status"));
	json_array_foreach(json_object_get(model, "findings"), i, f) {
		bool is_same = strcmp(json_string_value(json_object_get(f, "status")), "same") == 0;
		json_t *row;

		if (is_same != want_same)
			continue;
		row = json_pack("[s]", json_string_value(json_object_get(f, "id")));
		if (!want_same)
			json_array_append(row, json_object_get(f, "status"));
		json_array_foreach(json_object_get(f, "reports"), j, c) {
			char *cell = compare_finding_cell(c);

			json_array_append_new(row, json_string(cell));
			free(cell);
		}
		table_add(t, row);
	}
	return t;
}

/* Facts of `kind` that differ (or, for "measured", all of them), one row each. */
static json_t *facts_table(const json_t *model, const char *kind, bool differing_only, size_t *n)
{
	json_t *t = json_array(), *f, *v;
	size_t i, j;

	*n = 0;
	table_add(t, header_row(model, "fact", NULL));
	json_array_foreach(json_object_get(model, "facts"), i, f) {
		const char *key = json_string_value(json_object_get(f, "key"));
		json_t *row;

		if (strcmp(json_string_value(json_object_get(f, "kind")), kind) != 0 ||
		    (differing_only && !json_is_true(json_object_get(f, "differs"))))
			continue;
		row = json_pack("[s]", key);
		json_array_foreach(json_object_get(f, "values"), j, v) {
			char *cell = json_is_null(v) ? xstrdup("-") : report_fact_value(key, v);

			json_array_append_new(row, json_string(cell));
			free(cell);
		}
		table_add(t, row);
		(*n)++;
	}
	return t;
}

static size_t count_facts(const json_t *model, const char *kind, bool differing)
{
	const json_t *f;
	size_t i, n = 0;

	json_array_foreach(json_object_get(model, "facts"), i, f)
		if (strcmp(json_string_value(json_object_get(f, "kind")), kind) == 0 &&
		    json_is_true(json_object_get(f, "differs")) == differing)
			n++;
	return n;
}

static void write_reports(const json_t *model, FILE *out, enum style style)
{
	const json_t *reports = json_object_get(model, "reports"), *r;
	size_t i;

	if (style == STYLE_MARKDOWN)
		fputs("# fstune compare\n\n", out);
	else
		fputs("fstune compare\n==============\n", out);
	fprintf(out, "%zu reports; the first is the baseline: a finding it lacks is new.\n\n", json_array_size(reports));
	json_array_foreach(reports, i, r) {
		const char *v = json_string_value(json_object_get(r, "version"));
		const char *t = json_string_value(json_object_get(r, "time"));

		fprintf(out, style == STYLE_MARKDOWN ? "- **%s**: " : "  %s: ", json_string_value(json_object_get(r, "label")));
		if (style == STYLE_MARKDOWN)
			md_cell(out, json_string_value(json_object_get(r, "file")));
		else
			fputs(json_string_value(json_object_get(r, "file")), out);
		fprintf(out, " (fstune %s, %s)\n", v ? v : "version unknown", t ? t : "time unknown");
	}
	fputc('\n', out);
}

static void write_section(FILE *out, enum style style, const char *title, json_t *t, size_t n)
{
	if (n) {
		heading(out, style, title);
		table_write(out, t, style);
		fputc('\n', out);
	}
	json_decref(t);
}

static int write_all(const json_t *model, FILE *out, enum style style)
{
	const json_t *sum = json_object_get(model, "summary"), *note;
	size_t n_same = json_integer_value(json_object_get(sum, "same"));
	size_t n_diff = json_array_size(json_object_get(model, "findings")) - n_same, n, i;
	char *title;

	write_reports(model, out, style);
	title = xasprintf("Findings that differ (%zu)", n_diff);
	write_section(out, style, title, findings_table(model, false), n_diff);
	free(title);
	{
		json_t *t = facts_table(model, "setting", true, &n);

		title = xasprintf("Facts that differ (%zu)", n);
		write_section(out, style, title, t, n);
		free(title);
	}
	{
		json_t *t = facts_table(model, "measured", false, &n);

		write_section(out, style, "Measured", t, n);
	}
	title = xasprintf("Findings the same in every report (%zu)", n_same);
	write_section(out, style, title, findings_table(model, true), n_same);
	free(title);
	if (json_array_size(json_object_get(model, "notes"))) {
		heading(out, style, "Notes");
		json_array_foreach(json_object_get(model, "notes"), i, note)
			fprintf(out, "%s%s\n", style == STYLE_MARKDOWN ? "- " : "  ", json_string_value(note));
		fputc('\n', out);
	}
	fprintf(out, "%zu facts are the same; %zu facts that name the machine (device names, serials, UUIDs, "
		     "free space) differ as expected and are in --format json.\n\n",
		count_facts(model, "setting", false) + count_facts(model, "identity", false),
		count_facts(model, "identity", true));
	fprintf(out, "%sSummary: %lld new (%lld at %s or above, not accepted), %lld gone, %lld changed, %zu the same; %lld facts differ%s\n",
		style == STYLE_MARKDOWN ? "**" : "", json_integer_value(json_object_get(sum, "new")),
		json_integer_value(json_object_get(sum, "new_failing")),
		json_string_value(json_object_get(sum, "failing_severity")), json_integer_value(json_object_get(sum, "gone")),
		json_integer_value(json_object_get(sum, "changed")), n_same,
		json_integer_value(json_object_get(sum, "facts_differ")), style == STYLE_MARKDOWN ? "**" : "");
	return report_finish(out);
}

int compare_write_text(const json_t *model, FILE *out)
{
	return write_all(model, out, STYLE_TEXT);
}

int compare_write_markdown(const json_t *model, FILE *out)
{
	return write_all(model, out, STYLE_MARKDOWN);
}
