/* The HTML report's parts (report_html.c writes the page, report_html_bench.c its benchmark
 * section). */
#ifndef FSTUNE_APP_REPORT_HTML_H
#define FSTUNE_APP_REPORT_HTML_H

#include <stdio.h>

#include "app/render/report_model.h"
#include "fstune/facts.h"

/* The benchmark section: charts from the model's tests, the table from the facts; nothing when the
 * facts hold no bench test. */
void report_html_bench(FILE *out, const struct report_model *m, const struct facts *f);

#endif
