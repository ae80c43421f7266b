/* Files under --root for apply and undo: read whole, written through the one atomic writer
 * (cli_output) with the directory fsync'd after the rename, so a crash leaves the old or the new
 * content, never half of one, and the rename itself survives a power cut. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/apply/apply.h"
#include "app/cli.h"
#include "lib/xalloc.h"
#include "probes/fs_crc32c.h"

/* Persistent forms and journals are small; anything larger is not the file we think it is. */
#define FILES_MAX_BYTES (4u << 20)

char *files_rooted(const char *root, const char *path)
{
	if (!root || !*root || !strcmp(root, "/"))
		return xstrdup(path);
	return xasprintf("%s%s%s", root, path[0] == '/' ? "" : "/", path);
}

int files_read(const char *path, char **out, struct fst_error *err)
{
	struct stat st;
	char *buf;
	FILE *fp;
	size_t n;

	*out = NULL;
	if (stat(path, &st) != 0) {
		if (errno == ENOENT)
			return 0;
		fst_error_set(err, FST_EXIT_REFUSED, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode) || (size_t)st.st_size > FILES_MAX_BYTES) {
		fst_error_set(err, FST_EXIT_REFUSED, "%s: not a regular file of at most 4 MiB", path);
		return -1;
	}
	if (!(fp = fopen(path, "re"))) {
		fst_error_set(err, FST_EXIT_REFUSED, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	buf = xmalloc((size_t)st.st_size + 1);
	n = fread(buf, 1, (size_t)st.st_size, fp);
	fclose(fp);
	buf[n] = '\0';
	if (strlen(buf) != n) {
		fst_error_set(err, FST_EXIT_REFUSED, "%s holds a NUL byte: not a text file fstune edits", path);
		free(buf);
		return -1;
	}
	*out = buf;
	return 1;
}

int files_sync_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc = -1;

	if (fd >= 0) {
		rc = fsync(fd);
		close(fd);
	}
	free(dir);
	return rc;
}

int files_write(const char *path, const char *content, mode_t mode, struct fst_error *err)
{
	struct stat st;
	bool had = stat(path, &st) == 0 && S_ISREG(st.st_mode);
	struct cli_output *o = cli_output_open_path(path, err);

	if (!o || (fputs(content, cli_output_stream(o)), cli_output_finish(o, true, err)) != FST_EXIT_OK)
		return err ? (err->status = FST_EXIT_PARTIAL) : FST_EXIT_PARTIAL; /* the writer's message stands */
	/* the writer gives a new file the mode a plain create would; the file it replaced keeps its own */
	if (chmod(path, had ? st.st_mode & 07777 : mode) != 0 || files_sync_dir(path) != 0)
		return fst_error_set(err, FST_EXIT_PARTIAL, "%s: %s", path, strerror(errno));
	return FST_EXIT_OK;
}

int files_mkdirs(const char *dir, json_t *created, struct fst_error *err)
{
	char *p = xstrdup(dir);
	int status = FST_EXIT_OK;

	for (char *s = p + 1;; s++) {
		bool is_end = *s == '\0';

		if (*s != '/' && !is_end)
			continue;
		*s = '\0';
		if (mkdir(p, 0755) == 0) {
			if (created)
				json_array_append_new(created, json_string(p));
			files_sync_dir(p);
		} else if (errno != EEXIST) {
			status = fst_error_set(err, FST_EXIT_PARTIAL, "cannot create %s: %s", p, strerror(errno));
			break;
		}
		if (is_end)
			break;
		*s = '/';
	}
	free(p);
	return status;
}

const char *files_crc(const char *s, size_t len)
{
	static char hex[9];

	snprintf(hex, sizeof hex, "%08x", ~fs_crc32c(0xffffffffu, s, len));
	return hex;
}
