/* The text and Markdown forms of `fstune compare`'s model (compare.h). The grid, a column per report:
 * what differs first, then the benchmarks (--bench), then what is the same, then the summary line
 * scripts can grep; past COMPARE_GRID_MAX reports, the fleet summary (compare_summary.c) instead. */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "app/render/compare.h"
#include "app/render/compare_table.h"
#include "app/render/markdown.h"
#include "app/render/report_render.h"
#include "lib/xalloc.h"

#define CELL_MAX 28 /* value columns wider than this are cut with "~": the JSON has every value whole */

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

size_t compare_text_width(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* The first `cols` columns of `s`, with "~" as the last when it was cut. Caller frees. */
static char *cut(const char *s, size_t cols)
{
	const char *p = s;
	size_t n = 0;

	if (!cols || compare_text_width(s) <= cols)
		return xstrdup(s);
	for (; *p && n < cols - 1; p++)
		n += ((unsigned char)*p & 0xc0) != 0x80;
	while (((unsigned char)*p & 0xc0) == 0x80)
		p++;
	return xasprintf("%.*s~", (int)(p - s), s);
}

/* Each column's width: its widest cell, the value columns at most `cell_max`. Caller frees. */
static size_t *column_widths(const json_t *t, size_t ncol, size_t cell_max)
{
	size_t *w = xcalloc(ncol ? ncol : 1, sizeof(*w)), i, j;
	const json_t *row;

	json_array_foreach(t, i, row)
		for (j = 0; j < ncol; j++) {
			size_t n = compare_text_width(json_string_value(json_array_get(row, j)));

			n = cell_max && n > cell_max && j > 0 ? cell_max : n;
			w[j] = n > w[j] ? n : w[j];
		}
	return w;
}

/* One text row, its columns padded to `w`, the line cut at `line_max` columns (0: not cut). */
static void text_row(FILE *out, const json_t *row, const size_t *w, size_t ncol, size_t cell_max, size_t line_max)
{
	size_t used = 0, limit = line_max ? line_max : (size_t)-1 / 2;

	for (size_t j = 0; j < ncol && used + 3 <= limit; j++) {
		size_t room = limit > used + 2 ? limit - used - 2 : 1;
		size_t max = j > 0 && cell_max && cell_max < room ? cell_max : room, start = used;
		char *c = cut(json_string_value(json_array_get(row, j)), max);

		fprintf(out, "  %s", c);
		used += 2 + compare_text_width(c);
		for (; j + 1 < ncol && used < start + 2 + w[j] && used < limit; used++)
			fputc(' ', out);
		free(c);
	}
	fputc('\n', out);
}

/* One Markdown row; with `line_max`, cells are cut (after escaping) so that the line fits, leaving
 * room for the cells still to come. */
static void md_row(FILE *out, const json_t *row, size_t ncol, size_t cell_max, size_t line_max)
{
	size_t used = 0;

	for (size_t j = 0; j < ncol; j++) {
		char *e = markdown_escaped(json_string_value(json_array_get(row, j))), *c;
		size_t need = (j ? 3 : 2) + 4 * (ncol - 1 - j) + 2;
		size_t room = line_max > used + need + 1 ? line_max - used - need : 1;

		if (j > 0 && cell_max && cell_max < room)
			room = cell_max;
		c = line_max ? cut(e, room) : xstrdup(e);
		fprintf(out, "%s%s", j ? " | " : "| ", c);
		used += (j ? 3 : 2) + compare_text_width(c);
		free(c);
		free(e);
	}
	fputs(" |\n", out);
}

static void table_write(FILE *out, const json_t *t, enum compare_style style, size_t cell_max, size_t line_max)
{
	size_t ncol = json_array_size(json_array_get(t, 0)), i, j;
	size_t *w = column_widths(t, ncol, cell_max);
	const json_t *row;

	json_array_foreach(t, i, row) {
		if (style == COMPARE_TEXT) {
			text_row(out, row, w, ncol, cell_max, line_max);
			continue;
		}
		md_row(out, row, ncol, cell_max, line_max);
		if (i == 0) {
			for (j = 0; j < ncol; j++)
				fputs("|---", out);
			fputs("|\n", out);
		}
	}
	free(w);
}

void compare_heading(FILE *out, enum compare_style style, const char *title)
{
	if (style == COMPARE_MARKDOWN) {
		fprintf(out, "## %s\n\n", title);
		return;
	}
	fprintf(out, "%s\n", title);
	for (size_t i = compare_text_width(title); i > 0; i--)
		fputc('-', out);
	fputc('\n', out);
}

void compare_section(FILE *out, enum compare_style style, const char *title, json_t *t, size_t cell_max,
		     size_t line_max)
{
	if (json_array_size(t) > 1) {
		compare_heading(out, style, title);
		table_write(out, t, style, cell_max, line_max);
		fputc('\n', out);
	}
	json_decref(t);
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

/* The settings that differ, one row each. */
static json_t *facts_table(const json_t *model, size_t *n)
{
	json_t *t = json_array(), *f, *v;
	size_t i, j;

	*n = 0;
	table_add(t, header_row(model, "fact", NULL));
	json_array_foreach(json_object_get(model, "facts"), i, f) {
		const char *key = json_string_value(json_object_get(f, "key"));
		json_t *row;

		if (strcmp(json_string_value(json_object_get(f, "kind")), "setting") != 0 ||
		    !json_is_true(json_object_get(f, "differs")))
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

static void write_reports(const json_t *model, FILE *out, enum compare_style style)
{
	const json_t *reports = json_object_get(model, "reports"), *r;
	size_t i;

	fprintf(out, "%zu reports; the first is the baseline: a finding it lacks is new.\n\n", json_array_size(reports));
	json_array_foreach(reports, i, r) {
		const char *v = json_string_value(json_object_get(r, "version"));
		const char *t = json_string_value(json_object_get(r, "time"));

		fprintf(out, style == COMPARE_MARKDOWN ? "- **%s**: " : "  %s: ", json_string_value(json_object_get(r, "label")));
		if (style == COMPARE_MARKDOWN)
			markdown_text(out, json_string_value(json_object_get(r, "file")));
		else
			fputs(json_string_value(json_object_get(r, "file")), out);
		fprintf(out, " (fstune %s, %s)\n", v ? v : "version unknown", t ? t : "time unknown");
	}
	fputc('\n', out);
}

/* A benchmark figure as the tables show it: the rate, its interval, and (later reports) the verdict
 * against the baseline with the change. Caller frees. */
char *compare_bench_cell(const json_t *row, const json_t *cell)
{
	const json_t *ci = json_object_get(cell, "ci95_pct"), *w = json_object_get(cell, "verdict");
	const json_t *change = json_object_get(cell, "change_pct");
	char civ[32] = "", ch[32] = "", *key, *v, *out;

	if (!json_is_object(cell))
		return xstrdup("-");
	key = xasprintf("bench.%s.%s", json_string_value(json_object_get(row, "test")),
			json_string_value(json_object_get(row, "metric")));
	v = report_fact_value(key, json_object_get(cell, "value"));
	if (ci)
		snprintf(civ, sizeof civ, " ±%.1f%%", json_number_value(ci));
	if (change)
		snprintf(ch, sizeof ch, " %+.1f%%", json_number_value(change));
	out = xasprintf("%s%s%s%s%s", v, civ, w ? " " : "", w ? json_string_value(w) : "", w ? ch : "");
	free(key);
	free(v);
	return out;
}

static json_t *bench_table(const json_t *model)
{
	json_t *t = json_array(), *row, *c;
	size_t i, j;

	table_add(t, header_row(model, "benchmark", NULL));
	json_array_foreach(json_object_get(model, "bench"), i, row) {
		json_t *r = json_pack("[o]", json_sprintf("%s %s", json_string_value(json_object_get(row, "test")),
							 json_string_value(json_object_get(row, "metric"))));
		json_array_foreach(json_object_get(row, "reports"), j, c) {
			char *cell = compare_bench_cell(row, c);

			json_array_append_new(r, json_string(cell));
			free(cell);
		}
		table_add(t, r);
	}
	return t;
}

/* What ends both views: the measured facts (and --bench's table in the grid), the notes, the count
 * of facts the same, and the summary line scripts and the playbook grep. */
void compare_footer(const json_t *model, FILE *out, enum compare_style style)
{
	const json_t *sum = json_object_get(model, "summary"), *note;
	size_t n_measured = count_facts(model, "measured", true) + count_facts(model, "measured", false), i;
	const json_t *bench = json_object_get(model, "bench");

	if (!bench && n_measured)
		fprintf(out, "%zu measured fact%s (benchmark figures, memory available, samples) move%s from run to run, "
			     "so %s not compared:\n--bench compares the benchmarks with their 95%% intervals.\n\n", n_measured,
			n_measured == 1 ? "" : "s", n_measured == 1 ? "s" : "", n_measured == 1 ? "it is" : "they are");
	if (json_array_size(json_object_get(model, "notes"))) {
		compare_heading(out, style, "Notes");
		json_array_foreach(json_object_get(model, "notes"), i, note)
			fprintf(out, "%s%s\n", style == COMPARE_MARKDOWN ? "- " : "  ", json_string_value(note));
		fputc('\n', out);
	}
	fprintf(out, "%zu facts are the same; %zu facts that name the machine (device names, serials, UUIDs, "
		     "free space) differ as expected and are in --format json.\n\n",
		count_facts(model, "setting", false) + count_facts(model, "identity", false),
		count_facts(model, "identity", true));
	fprintf(out, "%sSummary: %lld new (%lld at %s or above, not accepted), %lld gone, %lld changed, %lld the same; %lld facts differ",
		style == COMPARE_MARKDOWN ? "**" : "", json_integer_value(json_object_get(sum, "new")),
		json_integer_value(json_object_get(sum, "new_failing")),
		json_string_value(json_object_get(sum, "failing_severity")), json_integer_value(json_object_get(sum, "gone")),
		json_integer_value(json_object_get(sum, "changed")), json_integer_value(json_object_get(sum, "same")),
		json_integer_value(json_object_get(sum, "facts_differ")));
	if (bench)
		fprintf(out, "; %lld benchmark figure%s", json_integer_value(json_object_get(sum, "bench_differ")),
			json_integer_value(json_object_get(sum, "bench_differ")) == 1 ? " differs" : "s differ");
	fprintf(out, "%s\n", style == COMPARE_MARKDOWN ? "**" : "");
}

static void write_grid(const json_t *model, FILE *out, enum compare_style style)
{
	const json_t *sum = json_object_get(model, "summary");
	size_t n_same = json_integer_value(json_object_get(sum, "same"));
	size_t n_diff = json_array_size(json_object_get(model, "findings")) - n_same, n;
	json_t *t;
	char *title;

	write_reports(model, out, style);
	title = xasprintf("Findings that differ (%zu)", n_diff);
	compare_section(out, style, title, findings_table(model, false), CELL_MAX, 0);
	free(title);
	t = facts_table(model, &n);
	title = xasprintf("Facts that differ (%zu)", n);
	compare_section(out, style, title, t, CELL_MAX, 0);
	free(title);
	if (json_object_get(model, "bench"))
		compare_section(out, style, "Benchmarks (--bench: same when the 95% intervals overlap)",
				bench_table(model), CELL_MAX + 8, 0);
	title = xasprintf("Findings the same in every report (%zu)", n_same);
	compare_section(out, style, title, findings_table(model, true), CELL_MAX, 0);
	free(title);
}

static int write_all(const json_t *model, FILE *out, enum compare_style style)
{
	const char *view = json_string_value(json_object_get(model, "view"));

	fputs(style == COMPARE_MARKDOWN ? "# fstune compare\n\n" : "fstune compare\n==============\n", out);
	if (view && strcmp(view, "summary") == 0)
		compare_write_summary(model, out, style);
	else
		write_grid(model, out, style);
	compare_footer(model, out, style);
	return report_finish(out);
}

int compare_write_text(const json_t *model, FILE *out)
{
	return write_all(model, out, COMPARE_TEXT);
}

int compare_write_json(const json_t *model, FILE *out)
{
	if (json_dumpf(model, out, JSON_INDENT(2) | JSON_REAL_PRECISION(15)) != 0 || fputc('\n', out) == EOF)
		return -1;
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

int compare_write_markdown(const json_t *model, FILE *out)
{
	return write_all(model, out, COMPARE_MARKDOWN);
}
