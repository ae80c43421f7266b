/* The flags apply and undo share (apply_cli.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/apply/apply_cli.h"
#include "lib/xalloc.h"

int apply_cli_option(struct apply_cli *ac, int opt, int base, const char *value, const char *command)
{
	if (opt == base) {
		free(ac->root_given);
		ac->root_given = xstrdup(value);
	} else if (opt == base + 1) {
		ac->has_live = true;
	} else if (opt == base + 2) {
		ac->env.is_dry_run = true;
	} else {
		return 0;
	}
	(void)command;
	return 1;
}

/* --root DIR itself (not its parents: one under /tmp is fine) owned by the user who runs fstune and
 * not writable by others, who could otherwise swap what apply writes or undo reads. Said here. */
static int check_root_owner(const char *dir)
{
	struct fst_error err = FST_ERROR_INIT;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), status;

	if (fd < 0)
		status = fst_error_set(&err, FST_EXIT_REFUSED, "--root %s: %s", dir, strerror(errno));
	else
		status = files_check_owner(fd, "--root", dir, &err);
	if (fd >= 0)
		close(fd);
	if (status != FST_EXIT_OK)
		fst_error_print(&err);
	return status;
}

int apply_cli_check(struct apply_cli *ac, const struct cli_common *c, const char *command)
{
	struct stat st;

	if (c->sysroot)
		return cli_usage_error(command, "--sysroot reads a captured machine; fstune %s changes this one", command);
	if (c->format == CLI_FORMAT_MARKDOWN || c->format == CLI_FORMAT_OPENMETRICS)
		return cli_usage_error(command, "fstune %s writes text or json", command);
	if (ac->has_live && !ac->root_given)
		return cli_usage_error(command, "--live goes with --root: without --root the running system is changed anyway");
	if (ac->root_given) {
		if (stat(ac->root_given, &st) != 0 || !S_ISDIR(st.st_mode))
			return cli_usage_error(command, "--root %s: %s", ac->root_given,
					       errno && stat(ac->root_given, &st) != 0 ? strerror(errno) : "not a directory");
		ac->root_real = realpath(ac->root_given, NULL);
		if (!ac->root_real)
			return cli_usage_error(command, "--root %s: %s", ac->root_given, strerror(errno));
		if (!ac->is_read_only && check_root_owner(ac->root_real) != FST_EXIT_OK)
			return FST_EXIT_REFUSED;
	}
	ac->env.root = ac->root_real && strcmp(ac->root_real, "/") ? ac->root_real : NULL;
	ac->env.is_live = !ac->env.root || ac->has_live;
	ac->env.is_quiet = c->quiet;
	if (ac->env.is_live && !ac->env.is_dry_run && geteuid() != 0) {
		/* refused before anything is planned or probed, rather than half-way at the first write */
		fprintf(stderr, "fstune: %s changes the running system (sysctls, sysfs, mounts, /etc): run it as "
			"root; --dry-run shows what it would do as any user, --root DIR alone writes only under DIR\n",
			command);
		return FST_EXIT_REFUSED;
	}
	return FST_EXIT_OK;
}

void apply_cli_free(struct apply_cli *ac)
{
	free(ac->root_given);
	free(ac->root_real);
}
