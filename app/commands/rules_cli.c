/* --rules-dir and --no-system-rules on the command line (rules_cli.h). */
#include "config.h"

#include <stdlib.h>

#include "app/commands/rules_cli.h"
#include "lib/xalloc.h"

int rules_cli_option(struct rules_options *ro, int opt, int base, const char *arg)
{
	if (opt == base) {
		const char **dirs = xrealloc((void *)ro->rules_dirs, (ro->n_rules_dirs + 1) * sizeof(*dirs));

		dirs[ro->n_rules_dirs++] = arg;
		ro->rules_dirs = dirs;
		return 1;
	}
	if (opt == base + 1) {
		ro->no_system_rules = true;
		return 1;
	}
	return 0;
}

void rules_cli_free(struct rules_options *ro)
{
	free((void *)ro->rules_dirs);
	ro->rules_dirs = NULL;
	ro->n_rules_dirs = 0;
}
