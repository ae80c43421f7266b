/* The tables of `fstune compare`'s text and Markdown forms (compare_render.c), shared by the grid
 * and the fleet summary (compare_summary.c). A table is a JSON array of rows, each an array of
 * strings; the first row is the header. */
#ifndef FSTUNE_APP_COMPARE_TABLE_H
#define FSTUNE_APP_COMPARE_TABLE_H

#include <jansson.h>
#include <stdio.h>

enum compare_style { COMPARE_TEXT, COMPARE_MARKDOWN };

/* No text line of the fleet summary is wider than this: the last column is cut to fit. The grid
 * (--hosts) is as wide as its hosts make it. */
#define COMPARE_LINE_MAX 200

/* Writes `t` (and decrefs it) under a heading `title`, when it has rows past the header. Text cells
 * of the columns after the first wider than `cell_max` are cut with "~" (0: not cut), and text lines
 * at `line_max` columns (0: not cut). */
void compare_section(FILE *out, enum compare_style style, const char *title, json_t *t, size_t cell_max,
		     size_t line_max);
/* A section heading. */
void compare_heading(FILE *out, enum compare_style style, const char *title);
/* The columns `s` takes on a terminal: its UTF-8 characters (each one column; invalid bytes too). */
size_t compare_text_width(const char *s);

/* The fleet summary's sections (compare_summary.c), written in place of the grid. */
void compare_write_summary(const json_t *model, FILE *out, enum compare_style style);

/* One table of the fleet summary, the same rows for text, Markdown and HTML: the findings (row i + 1
 * is the model's fleet.findings[i]), the settings that differ, the benchmarks (--bench) and the groups
 * of identical advice. `id` names it (an HTML anchor); `cell_max` is compare_section's; `after` a line
 * that follows it (NULL: none). */
struct compare_part {
	const char *id;
	char *title;
	json_t *table;
	size_t cell_max;
	char *after;
};
#define COMPARE_PARTS_MAX 4
/* Fills `parts` from the model's "fleet" and "bench" blocks; returns how many. */
size_t compare_summary_parts(const json_t *model, struct compare_part parts[COMPARE_PARTS_MAX]);
void compare_summary_parts_free(struct compare_part *parts, size_t n);
/* The fstune versions that made the reports, with how many each: "0.9 (998), 0.8 (2)". Caller frees. */
char *compare_summary_versions(const json_t *model);
/* The lines that end both views: measured facts, notes, counts and the "Summary:" line. */
void compare_footer(const json_t *model, FILE *out, enum compare_style style);
/* A --bench figure of `row` (a "bench" row of the model) for a table. Caller frees. */
char *compare_bench_cell(const json_t *row, const json_t *cell);

#endif
