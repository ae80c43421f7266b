/* The atomically written output file (fstune/output.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "fstune/output.h"
#include "fstune/status.h"
#include "fstune/utf8.h"

struct fst_output {
	FILE *fp;
	FILE *text;     /* the stream the writers get when it is text for a terminal: fp through
			   fst_text_visible; NULL otherwise */
	char *final;    /* NULL for stdout */
	char *tmp;      /* NULL when written directly */
	bool is_direct; /* an existing device, FIFO or socket: written in place, never renamed over */
};

struct text_cookie {
	FILE *under;
	unsigned char held;
};

static ssize_t text_write(void *cookie, const char *buf, size_t n)
{
	struct text_cookie *t = cookie;

	return fst_text_visible_write(t->under, buf, n, &t->held) == 0 ? (ssize_t)n : -1;
}

static int text_close(void *cookie)
{
	struct text_cookie *t = cookie;
	int r = fst_text_visible_end(t->under, &t->held);

	free(t);
	return r;
}

void fst_output_text_only(struct fst_output *o)
{
	struct text_cookie *t = xcalloc(1, sizeof(*t));

	t->under = o->fp;
	o->text = fopencookie(t, "w", (cookie_io_functions_t){.write = text_write, .close = text_close});
	if (!o->text)
		abort();
	/* unbuffered: what goes to the stream lands in `fp` at once, in order with other writes to it */
	setvbuf(o->text, NULL, _IONBF, 0);
}

/* The temporary's template: ".NAME.XXXXXX" beside `final`, so the rename stays on one filesystem. */
static char *temp_name(const char *final)
{
	const char *slash = strrchr(final, '/');

	if (!slash)
		return xasprintf(".%s.XXXXXX", final);
	return xasprintf("%.*s/.%s.XXXXXX", (int)(slash - final + (slash == final)), final, slash + 1);
}

/* /dev/null, /dev/stdout, a FIFO: renaming a temporary over them would replace the node (as root,
 * /dev/null itself), so they are written in place. */
static struct fst_output *open_direct(struct fst_output *o, const char *path, struct fst_error *err)
{
	o->fp = fopen(path, "we");
	if (!o->fp) {
		fst_error_set(err, FST_EXIT_USAGE, "cannot write %s: %s", path, strerror(errno));
		free(o);
		return NULL;
	}
	o->final = xstrdup(path);
	o->is_direct = true;
	return o;
}

struct fst_output *fst_output_open(const char *path, struct fst_error *err)
{
	struct fst_output *o = xcalloc(1, sizeof(*o));
	struct stat st;
	mode_t mask;
	int fd;

	if (!path || strcmp(path, "-") == 0) {
		o->fp = stdout;
		return o;
	}
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		fst_error_set(err, FST_EXIT_USAGE, "%s is a directory; name a file", path);
		free(o);
		return NULL;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return open_direct(o, path, err);
	/* A symbolic link to a file: write the file it names, and keep the link. */
	o->final = lstat(path, &st) == 0 && S_ISLNK(st.st_mode) ? realpath(path, NULL) : NULL;
	if (!o->final)
		o->final = xstrdup(path);
	o->tmp = temp_name(o->final);
	fd = mkstemp(o->tmp);
	if (fd < 0 || !(o->fp = fdopen(fd, "w"))) {
		fst_error_set(err, FST_EXIT_USAGE, "cannot write %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd), unlink(o->tmp);
		free(o->tmp);
		free(o->final);
		free(o);
		return NULL;
	}
	/* mkstemp makes 0600; a report is not a secret, so give it the mode a plain create would. */
	mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	return o;
}

FILE *fst_output_stream(struct fst_output *o) { return o->text ? o->text : o->fp; }

/* Standard output or a node written in place: flushed, nothing to rename. */
static int finish_in_place(struct fst_output *o, struct fst_error *err)
{
	int status = FST_EXIT_OK;

	if (!o->final) {
		if (fflush(stdout) != 0 || ferror(stdout))
			status = fst_error_set(err, FST_EXIT_USAGE, "writing standard output: %s", strerror(errno));
	} else {
		if (fflush(o->fp) != 0 || ferror(o->fp))
			status = fst_error_set(err, FST_EXIT_USAGE, "writing %s: %s", o->final, strerror(errno));
		fclose(o->fp);
		free(o->final);
	}
	free(o);
	return status;
}

int fst_output_finish(struct fst_output *o, bool commit, struct fst_error *err)
{
	int status = FST_EXIT_OK;

	if (!o)
		return FST_EXIT_OK;
	if (o->text)
		fclose(o->text); /* a failed write shows in fp's error flag, checked below */
	if (!o->final || o->is_direct)
		return finish_in_place(o, err);
	if (fflush(o->fp) != 0 || ferror(o->fp) || fsync(fileno(o->fp)) != 0) {
		status = fst_error_set(err, FST_EXIT_USAGE, "writing %s: %s", o->final, strerror(errno));
		commit = false;
	}
	fclose(o->fp);
	if (commit && rename(o->tmp, o->final) != 0) {
		status = fst_error_set(err, FST_EXIT_USAGE, "cannot write %s: %s", o->final, strerror(errno));
		commit = false;
	}
	if (!commit)
		unlink(o->tmp);
	free(o->tmp);
	free(o->final);
	free(o);
	return status;
}
