/* The options --accept ID and --accepted FILE, shared by `fstune report` and `fstune compare`. */
#ifndef FSTUNE_APP_ACCEPTED_CLI_H
#define FSTUNE_APP_ACCEPTED_CLI_H

#include <getopt.h>
#include <stdbool.h>

#include "app/session/accepted.h"

/* The options --accept ID and --accepted FILE, as report and compare take them: their getopt values
 * are `base` and `base` + 1 (ACCEPTED_CLI_OPTIONS(base) expands to the two array members). */
struct accepted_cli {
	struct accepted *accepted; /* the --accept entries; owned, freed by the command */
	const char *file;          /* --accepted FILE; NULL: not given */
	bool has_accept;           /* an --accept was given */
};
#define ACCEPTED_CLI_OPTIONS(base)                               \
	{"accept", required_argument, NULL, (base)},              \
	{"accepted", required_argument, NULL, (base) + 1}

/* Handles one getopt result. Returns 1 when it was one of the two, 0 when not, or FST_EXIT_USAGE's
 * negative, -1, after printing the usage error of `command`. */
int accepted_cli_option(struct accepted_cli *c, int opt, int base, const char *arg, const char *command);

#endif
