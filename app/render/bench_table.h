/* The benchmark results as a table (text or Markdown): `fstune bench` prints it, and `fstune report`
 * can print the same block. Renders only what the facts hold. */
#ifndef FSTUNE_APP_BENCH_TABLE_H
#define FSTUNE_APP_BENCH_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "fstune/facts.h"

/* Writes one row per bench test present in `f` (measured, or unavailable with its reason), the failed
 * consistency checks and what "cache?" means, then, `with_parameters`, the parameters used
 * (bench.parameters; the report shows them on a line of its own). Returns 0, or -1 when writing
 * failed. */
int bench_table_write(FILE *out, const struct facts *f, bool markdown, bool with_parameters);

/* The flags a test's figures can carry (bench.<test>.<leaf>, with <leaf>_reason) and how the table
 * marks them, the most serious first: where one mark must stand for all (the wizard's charts), it is
 * the first that applies. A burst (bench.<test>.burst, an object) is marked "burst" after these. */
struct bench_flag_mark {
	const char *leaf, *mark;
};
extern const struct bench_flag_mark bench_flag_marks[];
extern const size_t bench_n_flag_marks;
/* The mark of a flag by its leaf ("cache_suspect": "cache?", "burst": "burst"); NULL for another. */
const char *bench_flag_mark_of(const char *leaf);

/* Whether `f` holds any bench test, measured or unavailable: there is a table to write. */
bool bench_table_has_rows(const struct facts *f);

#endif
