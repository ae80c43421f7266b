/* The benchmark parameter table (bench_params[], declared once in probes/bench) as getopt options,
 * shared by `fstune bench`, `fstune report`, `fstune trial` and the wizard. */
#ifndef FSTUNE_APP_BENCH_CLI_H
#define FSTUNE_APP_BENCH_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

#include "fstune/bench.h"

/* A new option array: the `n_fixed` entries of `fixed`, then one required-argument option per
 * benchmark parameter (its `val` is val_base + the parameter's index; the suite parameter is left
 * out unless `with_suite`), then the terminating zero entry. Caller frees. */
struct option *bench_cli_options(const struct option *fixed, size_t n_fixed, int val_base,
				 bool with_suite);
/* The benchmark parameter that getopt result `opt` names, or NULL when it names none. */
const struct bench_param *bench_cli_param(int opt, int val_base);

/* The usage text of a command that takes the benchmark parameters and the workload flags: `head`,
 * one line per benchmark parameter from the table (leaving out the suite and the parameters named in
 * `skip`, NULL-terminated; may be NULL), the list of tests when `with_tests`, then the workload
 * flags. Caller frees. */
char *bench_cli_usage(const char *head, const char *const *skip, bool with_tests);

/* The progress line of `fstune bench` and `fstune report` on a terminal: the test, how far, its
 * live rate and, once they settle, p50 and p99. Writes at most `len` bytes into `buf`. */
void bench_cli_progress_text(char *buf, size_t len, const char *test, double fraction,
			     const struct bench_live *live);

#endif
