/* `fstune compare`: the comparison of several `fstune.report/1` documents, built once as a
 * `fstune.compare/1` JSON document (the model) and rendered from it in text, Markdown or JSON.
 *
 * The model:
 *   "reports":  [{"label", "file", "host", "version", "time"}], the first is the baseline
 *   "findings": [{"id", "status", "title", "setting", "reports": [null | {"severity", "accepted"}]}]
 *               status: "new" (not in the baseline, in a later report), "gone" (in the baseline,
 *               missing from a later one), "changed" (everywhere, severity or acceptance differs),
 *               "same"; ordered new, gone, changed, same, then most severe first, then id
 *   "view":     "grid" (a column per report) or "summary" (the fleet: more than COMPARE_GRID_MAX
 *               reports without --hosts): how text, Markdown and HTML lay the comparison out
 *   "facts":    [{"key", "kind", "differs", "values": [value | null]}], kind "setting" (compared),
 *               "identity" (names, serials, free space: expected to differ) or "measured" (bench.*,
 *               host.mem_available_bytes, workload.observe.*, workload.sample.elapsed_s: they move
 *               from run to run, so they are not differences; --bench compares the benchmarks)
 *   "notes":    [strings]: ids whose meaning changed between fstune versions
 *   "summary":  {"new", "new_failing" (new, at "failing_severity" or above in a later report, not
 *               accepted there: what --fail-on counts), "failing_severity", "gone", "changed", "same",
 *               "facts_differ" (settings only), "bench_differ" (with --bench: rates that differ)}
 *   "fleet":    the rows read across hosts (compare_fleet.c):
 *               "findings": [{"id", "status", "title", "setting", "severity" (the highest), "hosts"
 *               (how many have it), "accepted", "in_baseline", "by_severity": {severity: hosts},
 *               "with": [labels]}], most severe first, then most hosts;
 *               "settings": [{"key", "values": [{"value", "hosts", "labels"}]}], the settings that
 *               differ, most common value first;
 *               "groups": [{"hosts", "labels", "findings": [ids]}], hosts with identical advice
 *               (ids, severities, acceptance), largest first
 *   "bench":    with --bench (compare_bench.c): [{"test", "metric", "differs", "reports": [null |
 *               {"value", "ci95_pct", "verdict", "change_pct"}]}]; verdict (later reports) "same"
 *               when the two 95% intervals overlap, "faster", "slower", or "no interval" */
#ifndef FSTUNE_APP_COMPARE_H
#define FSTUNE_APP_COMPARE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "fstune/error.h"

#define COMPARE_SCHEMA "fstune.compare/1"
/* Up to this many reports, text and Markdown show the grid; past it, the fleet summary. */
#define COMPARE_GRID_MAX 8

/* One `fstune.report/1` to compare; `doc` owns every member but `file`. */
struct compare_input {
	const char *file;           /* as given (borrowed) */
	json_t *doc;
	const json_t *facts;        /* the report's "facts", an object */
	json_t *recs;               /* its "recommendations", an array */
	const char *host, *version, *time; /* its "generated" block's; NULL when missing */
};

/* What the comparison is asked for. */
struct compare_options {
	const char *fail_on; /* "warn", "critical": the severity "new_failing" counts from; NULL: warn */
	bool all_hosts;      /* the grid, whatever the number of reports */
	bool with_bench;     /* the "bench" block too */
};

/* Reads FILE into `in` (whose doc the caller decrefs, also after a failure). Returns FST_EXIT_OK,
 * or FST_EXIT_USAGE with `err` naming the file: not JSON, not an fstune.report/1, or one without its
 * facts or its recommendations. */
int compare_input_load(struct compare_input *in, const char *file, struct fst_error *err);
/* The model of `n` reports, the first the baseline. Caller decrefs. */
json_t *compare_model_new(const struct compare_input *in, size_t n, const struct compare_options *o);

/* The model's "fleet" block, from its reports, findings and facts. */
json_t *compare_fleet_block(const json_t *model);
/* The model's "bench" block (--bench), from its facts. */
json_t *compare_bench_block(const json_t *model);

/* Each writer returns 0, or -1 when writing to `out` failed. */
int compare_write_text(const json_t *model, FILE *out);
/* The model itself, for scripts. */
int compare_write_json(const json_t *model, FILE *out);
int compare_write_markdown(const json_t *model, FILE *out);
/* One self-contained page for a browser (compare_html.c). */
int compare_write_html(const json_t *model, FILE *out);
/* The page's fleet summary, in place of the grid when the view is "summary" (compare_html_fleet.c). */
void compare_html_fleet(FILE *out, const json_t *model);

/* The display of one report's cell of a finding row: "warn", "warn (accepted)", "-". Caller frees. */
char *compare_finding_cell(const json_t *cell);

#endif
