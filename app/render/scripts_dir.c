/* The directory of the apply and revert scripts: an existing one fstune may write in, or a new one it
 * makes (0700: the scripts are root's commands) under a parent that exists, as `mkdir` without `-p`
 * would: a typo in a parent's name is refused, not made into a tree. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/render/scripts.h"
#include "lib/xalloc.h"
#include "fstune/status.h"

/* The directory `dir` is in ("." for a bare name); caller frees. */
static char *parent_of(const char *dir)
{
	size_t n = strlen(dir);
	const char *slash;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	slash = memrchr(dir, '/', n);
	if (!slash)
		return xstrdup(".");
	while (slash > dir && slash[-1] == '/')
		slash--;
	return slash == dir ? xstrdup("/") : xstrndup(dir, (size_t)(slash - dir));
}

/* A directory that does not exist yet: whether its parent would take it. */
static int check_new(const char *dir, struct fst_error *err)
{
	char *parent = parent_of(dir);
	struct stat st;
	int status = FST_EXIT_OK;

	if (stat(parent, &st) != 0)
		status = fst_error_set(err, FST_EXIT_USAGE, "--scripts %s: its parent %s: %s: fstune makes only "
				       "the last directory (as mkdir does without -p)", dir, parent, strerror(errno));
	else if (!S_ISDIR(st.st_mode))
		status = fst_error_set(err, FST_EXIT_USAGE, "--scripts %s: its parent %s is not a directory", dir,
				       parent);
	else if (access(parent, W_OK | X_OK) != 0)
		status = fst_error_set(err, FST_EXIT_USAGE, "--scripts %s: cannot make it in %s: %s", dir, parent,
				       strerror(errno));
	free(parent);
	return status;
}

int scripts_check_dir(const char *dir, struct fst_error *err)
{
	struct stat st;

	if (!dir || !*dir)
		return fst_error_set(err, FST_EXIT_USAGE, "--scripts needs a directory");
	if (stat(dir, &st) != 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return check_new(dir, err);
		return fst_error_set(err, FST_EXIT_USAGE, "--scripts %s: %s", dir, strerror(errno));
	}
	if (!S_ISDIR(st.st_mode))
		return fst_error_set(err, FST_EXIT_USAGE, "--scripts %s: not a directory: name the directory "
				     "to write apply.sh and revert.sh in", dir);
	if (access(dir, W_OK | X_OK) != 0)
		return fst_error_set(err, FST_EXIT_USAGE, "--scripts %s: cannot write there: %s", dir,
				     strerror(errno));
	return FST_EXIT_OK;
}

int scripts_make_dir(const char *dir, struct fst_error *err)
{
	int status = scripts_check_dir(dir, err);

	if (status != FST_EXIT_OK)
		return status;
	if (mkdir(dir, 0700) != 0 && errno != EEXIST)
		return fst_error_set(err, FST_EXIT_USAGE, "--scripts %s: cannot make it: %s", dir, strerror(errno));
	return scripts_check_dir(dir, err);
}
