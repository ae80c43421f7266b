/* The workload flags of DESIGN.md's common flags (--workload, its overrides, --sample, --observe),
 * declared once for every command that takes them: report, bench, trial, apply, the wizard and
 * `fstune workload`. A command parses them with workload_cli_parse; the wizard copies
 * WORKLOAD_CLI_OPTIONS into its long options and offers each getopt result to workload_option. */
#ifndef FSTUNE_APP_WORKLOAD_CLI_H
#define FSTUNE_APP_WORKLOAD_CLI_H

#include <getopt.h>
#include <stdbool.h>

#include "app/cli.h"
#include "fstune/workload.h"

/* Between the common flags (CLI_OPT_BASE..) and a command's own (CLI_OPT_COMMAND_BASE..). */
enum {
	WORKLOAD_OPT_BASE = 0x1080,
	WORKLOAD_OPT_WORKLOAD = WORKLOAD_OPT_BASE,
	WORKLOAD_OPT_FILE_SIZE,
	WORKLOAD_OPT_FILES,
	WORKLOAD_OPT_FILES_PER_DIR,
	WORKLOAD_OPT_ACCESS,
	WORKLOAD_OPT_IO_SIZE,
	WORKLOAD_OPT_IO_MODE,
	WORKLOAD_OPT_SYNC_HEAVY,
	WORKLOAD_OPT_NO_SYNC_HEAVY,
	WORKLOAD_OPT_SAMPLE,
	WORKLOAD_OPT_SAMPLE_TIME,
	WORKLOAD_OPT_OBSERVE,
	WORKLOAD_OPT_END,
};
_Static_assert((int)WORKLOAD_OPT_END <= (int)CLI_OPT_COMMAND_BASE, "workload options overlap the commands'");

#define WORKLOAD_CLI_OPTIONS                                                   \
	{"workload", required_argument, NULL, WORKLOAD_OPT_WORKLOAD},          \
	{"file-size", required_argument, NULL, WORKLOAD_OPT_FILE_SIZE},        \
	{"files", required_argument, NULL, WORKLOAD_OPT_FILES},                \
	{"files-per-dir", required_argument, NULL, WORKLOAD_OPT_FILES_PER_DIR}, \
	{"access", required_argument, NULL, WORKLOAD_OPT_ACCESS},              \
	{"io-size", required_argument, NULL, WORKLOAD_OPT_IO_SIZE},            \
	{"io-mode", required_argument, NULL, WORKLOAD_OPT_IO_MODE},            \
	{"sync-heavy", no_argument, NULL, WORKLOAD_OPT_SYNC_HEAVY},            \
	{"no-sync-heavy", no_argument, NULL, WORKLOAD_OPT_NO_SYNC_HEAVY},      \
	{"sample", required_argument, NULL, WORKLOAD_OPT_SAMPLE},              \
	{"sample-time", required_argument, NULL, WORKLOAD_OPT_SAMPLE_TIME},    \
	{"observe", required_argument, NULL, WORKLOAD_OPT_OBSERVE}

/* Usage text of the workload flags, for each command's --help (after its own, before the common). */
extern const char workload_cli_help[];

/* Handles one getopt result if it is a workload flag. Returns 1 when handled, 0 when not a workload
 * flag, or -1 after printing the one-line usage error (the command then exits FST_EXIT_USAGE). */
int workload_option(struct workload_spec *w, int opt, const char *optarg_value);

/* cli_parse with the workload flags between the common flags and the command's own (their options
 * and their handling); *has_workload (when not NULL) is set when one was given. */
int workload_cli_parse(int argc, char **argv, struct cli_common *c, const struct cli_parser *p,
		       struct workload_spec *w, bool *has_workload);

#endif
