/* The benchmark results as a table (text or Markdown): `fstune bench` prints it, and `fstune report`
 * can print the same block. Renders only what the facts hold. */
#ifndef FSTUNE_APP_BENCH_TABLE_H
#define FSTUNE_APP_BENCH_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "fstune/facts.h"

/* Writes one row per bench test present in `f` (measured, or unavailable with its reason), then the
 * parameters used (bench.parameters) and the failed consistency checks. Returns 0, or -1 when writing
 * failed. */
int bench_table_write(FILE *out, const struct facts *f, bool markdown);

#endif
