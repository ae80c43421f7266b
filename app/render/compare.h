/* `fstune compare`: the comparison of several `fstune.report/1` documents, built once as a
 * `fstune.compare/1` JSON document (the model) and rendered from it in text, Markdown or JSON.
 *
 * The model:
 *   "reports":  [{"label", "file", "host", "version", "time"}], the first is the baseline
 *   "findings": [{"id", "status", "title", "setting", "reports": [null | {"severity", "accepted"}]}]
 *               status: "new" (not in the baseline, in a later report), "gone" (in the baseline,
 *               missing from a later one), "changed" (everywhere, severity or acceptance differs),
 *               "same"; ordered new, gone, changed, same, then most severe first, then id
 *   "facts":    [{"key", "kind", "differs", "values": [value | null]}], kind "setting" (compared),
 *               "identity" (names, serials, free space: expected to differ) or "measured" (bench.*)
 *   "notes":    [strings]: ids whose meaning changed between fstune versions
 *   "summary":  {"new", "new_failing" (new, at "failing_severity" or above in a later report, not
 *               accepted there: what --fail-on counts), "failing_severity", "gone", "changed", "same",
 *               "facts_differ" (settings only)} */
#ifndef FSTUNE_APP_COMPARE_H
#define FSTUNE_APP_COMPARE_H

#include <jansson.h>
#include <stdio.h>

#define COMPARE_SCHEMA "fstune.compare/1"

/* Each writer returns 0, or -1 when writing to `out` failed. */
int compare_write_text(const json_t *model, FILE *out);
int compare_write_markdown(const json_t *model, FILE *out);
/* One self-contained page for a browser (compare_html.c). */
int compare_write_html(const json_t *model, FILE *out);

/* The display of one report's cell of a finding row: "warn", "warn (accepted)", "-". Caller frees. */
char *compare_finding_cell(const json_t *cell);

#endif
