/* What a run of apply or undo killed mid-write leaves besides its journal: the temporary file that
 * files_write makes beside the file it replaces (.NAME.XXXXXX, six hex digits) and renames over it.
 * Only the holder of the journal lock writes such files, so under the lock any one found is a dead
 * run's: removed, and named, by the next run. Only the directories apply writes in are looked at
 * (the journal directory and those of the persistent forms), and only names of the files it
 * writes there. */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/apply/apply.h"
#include "lib/xalloc.h"
#include "rules/settings.h"

#define TEMP_SUFFIX_LEN 6 /* files.c's temp_beside: ".%06x" */

/* The name of the file `entry` is a temporary of (".NAME.1a2b3c" -> "NAME"), or NULL. Caller frees. */
static char *temp_of(const char *entry)
{
	size_t n = strlen(entry);
	const char *suffix = entry + n - TEMP_SUFFIX_LEN;

	if (entry[0] != '.' || n < TEMP_SUFFIX_LEN + 3 || suffix[-1] != '.' ||
	    strspn(suffix, "0123456789abcdef") != TEMP_SUFFIX_LEN)
		return NULL;
	return xstrndup(entry + 1, n - TEMP_SUFFIX_LEN - 2);
}

/* Whether `name` in `dir` is a file apply writes: a journal, or where a persistent form goes. */
static bool is_written_by_apply(const char *dir, const char *name)
{
	size_t n = strlen(name);
	char *path;
	bool yes;

	if (!strcmp(dir, JOURNAL_DIR))
		return n > 5 && !strcmp(name + n - 5, ".json") &&
		       strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~") == n;
	path = xasprintf("%s/%s", strcmp(dir, "/") ? dir : "", name);
	yes = apply_is_persistent_path(path);
	free(path);
	return yes;
}

/* The temporaries in `dir` (as on the target system) under `root`. */
static size_t sweep_dir(const char *root, const char *dir, FILE *log)
{
	struct fst_error e = FST_ERROR_INIT;
	int dfd = files_open_dir(root, dir, &e);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	struct dirent *de;
	size_t found = 0;

	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return 0;
	}
	while ((de = readdir(d))) {
		char *of = temp_of(de->d_name), *shown, *rooted;
		struct stat st;

		if (!of || !is_written_by_apply(dir, of)) {
			free(of);
			continue;
		}
		found++;
		/* the names are safe to show: they are those of the files apply writes */
		shown = xasprintf("%s/%s", strcmp(dir, "/") ? dir : "", de->d_name);
		rooted = files_rooted(root, shown);
		free(shown);
		shown = xasprintf("%s/%s", strcmp(dir, "/") ? dir : "", of);
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
		    st.st_uid == geteuid() && unlinkat(dirfd(d), de->d_name, 0) == 0)
			apply_log(log, "removed %s, the temporary file of %s that a run of fstune killed while "
				  "writing it left", rooted, shown);
		else
			apply_log(log, "%s is named as fstune's temporary file of %s, but it is not a regular file of "
				  "this user's that can be removed: left alone; check it", rooted, shown);
		free(rooted);
		free(shown);
		free(of);
	}
	fsync(dirfd(d));
	closedir(d);
	return found;
}

size_t apply_sweep_temps(const char *root, FILE *log)
{
	size_t n, found = sweep_dir(root, JOURNAL_DIR, log);
	const struct setting *all = settings_all(&n);
	json_t *seen = json_object();

	for (size_t i = 0; i < n; i++) {
		const char *file = all[i].family->persistent_file, *slash = file ? strrchr(file, '/') : NULL;
		char *dir;

		if (!slash)
			continue;
		dir = slash == file ? xstrdup("/") : xstrndup(file, (size_t)(slash - file));
		if (!json_object_get(seen, dir)) {
			json_object_set_new(seen, dir, json_true());
			found += sweep_dir(root, dir, log);
		}
		free(dir);
	}
	json_decref(seen);
	return found;
}
