/* The options --rules-dir DIR (repeatable) and --no-system-rules, as every command that loads the
 * rules takes them, straight into the loader's options. */
#ifndef FSTUNE_APP_RULES_CLI_H
#define FSTUNE_APP_RULES_CLI_H

#include <getopt.h>

#include "fstune/rules.h"

/* Their getopt values are `base` and `base` + 1. */
#define RULES_CLI_OPTIONS(base)                                  \
	{"rules-dir", required_argument, NULL, (base)},           \
	{"no-system-rules", no_argument, NULL, (base) + 1}

/* Handles one getopt result: 1 when it was one of the two (recorded in `ro`), 0 when not. */
int rules_cli_option(struct rules_options *ro, int opt, int base, const char *arg);

/* Frees the --rules-dir list (its strings are argv's). */
void rules_cli_free(struct rules_options *ro);

#endif
