/* The flags apply and undo share: --root DIR, --live, --dry-run, into a struct apply_env. */
#ifndef FSTUNE_APP_APPLY_CLI_H
#define FSTUNE_APP_APPLY_CLI_H

#include "app/apply/apply.h"
#include "app/cli.h"

struct apply_cli {
	struct apply_env env; /* env.root points at root_real once checked */
	char *root_given;     /* --root as given */
	char *root_real;      /* its absolute path (apply_cli_check) */
	bool has_live;        /* --live given */
	bool is_read_only;    /* history: --root is only read, so its owner is not checked */
};

/* Long options; `base`, base + 1 and base + 2 are the command's option values for them. */
#define APPLY_CLI_OPTIONS(base)                                   \
	{"root", required_argument, NULL, (base)},                \
	{"live", no_argument, NULL, (base) + 1},                  \
	{"dry-run", no_argument, NULL, (base) + 2}

#define APPLY_CLI_HELP                                                                                \
	"  --root DIR                   persistent files and the journal under DIR (an image being\n"  \
	"                               built, a test); the running system is left alone\n"           \
	"  --live                       with --root: change the running system too\n"                  \
	"  --dry-run                    say what would be done; change nothing\n"

/* 1 when `opt` was one of these, 0 when not, -1 after printing a usage error. */
int apply_cli_option(struct apply_cli *ac, int opt, int base, const char *value, const char *command);
/* After parsing: --root resolved (it must be a directory), the common flags that make no sense for
 * a command that changes this machine refused. FST_EXIT_OK or FST_EXIT_USAGE (printed). */
int apply_cli_check(struct apply_cli *ac, const struct cli_common *c, const char *command);
void apply_cli_free(struct apply_cli *ac);

#endif
