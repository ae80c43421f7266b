/* --accept ID and --accepted FILE on the command line (accepted_cli.h). */
#include "config.h"

#include "app/cli.h"
#include "app/commands/accepted_cli.h"
#include "fstune/status.h"

int accepted_cli_option(struct accepted_cli *c, int opt, int base, const char *arg, const char *command)
{
	struct fst_error err = FST_ERROR_INIT;

	if (opt == base) {
		if (accepted_add(c->accepted, arg, "--accept", &err) != FST_EXIT_OK) {
			cli_usage_error(command, "%s", err.msg);
			return -1;
		}
		return 1;
	}
	if (opt == base + 1) {
		c->file = arg;
		return 1;
	}
	return 0;
}

int accepted_cli_load(struct accepted_cli *c, bool no_system, struct fst_error *err)
{
	bool must_exist = true;
	const char *path = c->file ? c->file : accepted_default_path(no_system, &must_exist);

	return path ? accepted_load_file(c->accepted, path, !must_exist, err) : FST_EXIT_OK;
}
