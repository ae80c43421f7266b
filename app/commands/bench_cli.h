/* The benchmark parameter table (bench_params[], declared once in probes/bench) as getopt options,
 * shared by `fstune bench`, `fstune report`, `fstune trial` and the wizard. */
#ifndef FSTUNE_APP_BENCH_CLI_H
#define FSTUNE_APP_BENCH_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

#include "app/cli.h"
#include "fstune/bench.h"
#include "fstune/workload.h"

/* A new option array: the `n_fixed` entries of `fixed`, then one required-argument option per
 * benchmark parameter (its `val` is val_base + the parameter's index; the suite parameter is left
 * out unless `with_suite`), then the terminating zero entry. Caller frees. */
struct option *bench_cli_options(const struct option *fixed, size_t n_fixed, int val_base,
				 bool with_suite);
/* The benchmark parameter that getopt result `opt` names, or NULL when it names none. */
const struct bench_param *bench_cli_param(int opt, int val_base);

/* A command that takes the benchmark parameters and the workload flags besides its own (bench,
 * report, trial). */
struct bench_cli_command {
	const char *name;           /* "report": for the usage errors */
	const struct option *opts;  /* its own long options, ending with a zero entry */
	int param_base;             /* the parameters' option values start here */
	bool is_bench;              /* fstune bench: the suite is a parameter, the usage lists the tests */
	const char *usage_head;     /* the usage before the parameters' lines */
	const char *const *skip;    /* parameters left out of the usage (NULL-terminated; may be NULL) */
	const char *tests_refused;  /* why --tests is refused, or NULL when it is taken */
	struct bench_config *cfg;   /* the parameters go here */
	const char **first_param;   /* set to the first parameter given (may be NULL) */
	cli_own_fn own;             /* the command's own options */
	void *arg;                  /* passed to `own` */
};

/* workload_cli_parse for such a command: its own options, then the parameters' (set in `cmd->cfg`);
 * its usage: the head, one line per parameter from the table, the tests for bench, the workload
 * flags. */
int bench_cli_parse(int argc, char **argv, const struct bench_cli_command *cmd, struct cli_common *c,
		    struct workload_spec *w, bool *has_workload);

/* The bench_progress_fn of `fstune bench` and `fstune report`: the test, how far, its live rate
 * and, once they settle, p50 and p99, on the progress line `arg` (a struct progress). Never stops
 * the run. */
bool bench_cli_progress(void *arg, const char *test, double fraction, const struct bench_live *live);

#endif
