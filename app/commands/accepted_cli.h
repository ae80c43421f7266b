/* The options --accept ID and --accepted FILE, shared by `fstune report`, the wizard and
 * `fstune compare`. */
#ifndef FSTUNE_APP_ACCEPTED_CLI_H
#define FSTUNE_APP_ACCEPTED_CLI_H

#include <getopt.h>
#include <stdbool.h>

#include "app/session/accepted.h"

/* The options --accept ID and --accepted FILE, as report, the wizard and compare take them: their
 * getopt values are `base` and `base` + 1 (ACCEPTED_CLI_OPTIONS(base) expands to the two array
 * members). */
struct accepted_cli {
	struct accepted *accepted; /* the --accept entries, then the file's; owned, freed by the command */
	const char *file;          /* --accepted FILE; NULL: not given */
};
#define ACCEPTED_CLI_OPTIONS(base)                               \
	{"accept", required_argument, NULL, (base)},              \
	{"accepted", required_argument, NULL, (base) + 1}

/* Reads the accepted findings file after the --accept entries: --accepted FILE, else $FSTUNE_ACCEPTED
 * (both must exist), else /etc/fstune/accepted.conf if it exists, unless `no_system`
 * (--no-system-rules: nothing of /etc). Returns FST_EXIT_OK, or FST_EXIT_USAGE with `err` naming the
 * file and line. */
int accepted_cli_load(struct accepted_cli *c, bool no_system, struct fst_error *err);

/* Handles one getopt result. Returns 1 when it was one of the two, 0 when not, or FST_EXIT_USAGE's
 * negative, -1, after printing the usage error of `command`. */
int accepted_cli_option(struct accepted_cli *c, int opt, int base, const char *arg, const char *command);

#endif
