/* The common flags of every command and the atomically written output file (cli.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/cli.h"
#include "core/xalloc.h"
#include "fstune/error.h"
#include "fstune/path.h"
#include "fstune/status.h"

const char cli_common_help[] =
	"Common options:\n"
	"  --format text|json|markdown  output format (default text)\n"
	"  --json                       same as --format json\n"
	"  -o, --output FILE            write to FILE instead of standard output\n"
	"  -q, --quiet                  no progress or notes on standard error\n"
	"  --verbose                    also list what only hand-written facts could change (rules\n"
	"                               needing facts a live Linux host never has)\n"
	"  --sysroot DIR                read /sys and /proc from DIR (a captured machine)\n"
	"  --target-os linux|freebsd    advise for this operating system\n"
	"  -h, --help                   this help\n";

int cli_common_option(struct cli_common *c, int opt, const char *arg, const char *usage)
{
	switch (opt) {
	case CLI_OPT_FORMAT:
		if (strcmp(arg, "text") == 0)
			c->format = CLI_FORMAT_TEXT;
		else if (strcmp(arg, "json") == 0)
			c->format = CLI_FORMAT_JSON;
		else if (strcmp(arg, "markdown") == 0 || strcmp(arg, "md") == 0)
			c->format = CLI_FORMAT_MARKDOWN;
		else if (strcmp(arg, "openmetrics") == 0 && c->can_openmetrics)
			c->format = CLI_FORMAT_OPENMETRICS;
		else if (strcmp(arg, "openmetrics") == 0) {
			fst_warn("--format openmetrics is for 'fstune report' only: use text, json or markdown");
			return -1;
		} else {
			fst_warn("unknown --format '%s': use text, json or markdown", arg);
			return -1;
		}
		return 1;
	case CLI_OPT_JSON:
		c->format = CLI_FORMAT_JSON;
		return 1;
	case 'o':
	case CLI_OPT_OUTPUT:
		c->output = arg;
		return 1;
	case 'q':
	case CLI_OPT_QUIET:
		c->quiet = true;
		return 1;
	case CLI_OPT_VERBOSE:
		c->verbose = true;
		return 1;
	case CLI_OPT_SYSROOT:
		c->sysroot = arg;
		return 1;
	case CLI_OPT_TARGET_OS:
		if (strcmp(arg, "linux") != 0 && strcmp(arg, "freebsd") != 0) {
			fst_warn("unknown --target-os '%s': use linux or freebsd", arg);
			return -1;
		}
		c->target_os = arg;
		return 1;
	case 'h':
	case CLI_OPT_HELP:
		fputs(usage, stdout);
		fputs(cli_common_help, stdout);
		exit(FST_EXIT_OK);
	case '?':
		fst_warn("try --help for the options");
		return -1;
	default:
		return 0;
	}
}

int cli_usage_error(const char *command, const char *fmt, ...)
{
	va_list ap;

	fputs("fstune: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (command)
		fprintf(stderr, "\nTry 'fstune %s --help' for the options.\n", command);
	else
		fputs("\nTry 'fstune --help' for the wizard's options.\n", stderr);
	return FST_EXIT_USAGE;
}

int cli_common_apply(const struct cli_common *c)
{
	struct stat st;

	if (c->sysroot) {
		if (stat(c->sysroot, &st) < 0 || !S_ISDIR(st.st_mode)) {
			fst_warn("--sysroot %s: %s", c->sysroot,
				 errno ? strerror(errno) : "not a directory");
			return FST_EXIT_USAGE;
		}
		path_set_sysroot(c->sysroot);
	}
	return FST_EXIT_OK;
}

struct cli_output {
	FILE *fp;
	char *final;    /* NULL for stdout */
	char *tmp;      /* NULL when written directly */
	bool is_direct; /* an existing device, FIFO or socket: written in place, never renamed over */
};

struct cli_output *cli_output_open(const struct cli_common *c)
{
	struct cli_output *o = xcalloc(1, sizeof(*o));
	struct stat st;
	int fd;

	if (!c->output || strcmp(c->output, "-") == 0) {
		o->fp = stdout;
		return o;
	}
	if (stat(c->output, &st) == 0 && S_ISDIR(st.st_mode)) {
		fst_warn("--output %s is a directory; name a file", c->output);
		free(o);
		return NULL;
	}
	/* /dev/null, /dev/stdout, a FIFO: renaming a temporary over them would replace the node (as
	 * root, /dev/null itself), so they are written in place. */
	if (stat(c->output, &st) == 0 && !S_ISREG(st.st_mode)) {
		o->fp = fopen(c->output, "we");
		if (!o->fp) {
			fst_warn("cannot write --output %s: %s", c->output, strerror(errno));
			free(o);
			return NULL;
		}
		o->final = xstrdup(c->output);
		o->is_direct = true;
		return o;
	}
	/* A symbolic link to a file: write the file it names, and keep the link. */
	o->final = lstat(c->output, &st) == 0 && S_ISLNK(st.st_mode) ? realpath(c->output, NULL) : NULL;
	if (!o->final)
		o->final = xstrdup(c->output);
	{
		/* The temporary sits beside the target, so the rename stays on one filesystem. */
		const char *slash = strrchr(o->final, '/');

		if (!slash)
			o->tmp = xasprintf(".%s.XXXXXX", o->final);
		else
			o->tmp = xasprintf("%.*s/.%s.XXXXXX", (int)(slash - o->final + (slash == o->final)),
					   o->final, slash + 1);
	}
	fd = mkstemp(o->tmp);
	if (fd < 0 || !(o->fp = fdopen(fd, "w"))) {
		fst_warn("cannot write --output %s: %s", c->output, strerror(errno));
		if (fd >= 0)
			close(fd), unlink(o->tmp);
		free(o->tmp);
		free(o->final);
		free(o);
		return NULL;
	}
	/* mkstemp makes 0600; a report is not a secret, so give it the mode a plain create would. */
	{
		mode_t mask = umask(0);

		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	return o;
}

FILE *cli_output_stream(struct cli_output *o) { return o->fp; }

int cli_output_close(struct cli_output *o, bool commit)
{
	int status = FST_EXIT_OK;

	if (!o)
		return FST_EXIT_OK;
	if (!o->final) {
		if (fflush(stdout) != 0 || ferror(stdout)) {
			fst_warn("writing standard output: %s", strerror(errno));
			status = FST_EXIT_USAGE;
		}
		free(o);
		return status;
	}
	if (o->is_direct) {
		if (fflush(o->fp) != 0 || ferror(o->fp)) {
			fst_warn("writing %s: %s", o->final, strerror(errno));
			status = FST_EXIT_USAGE;
		}
		fclose(o->fp);
		free(o->final);
		free(o);
		return status;
	}
	if (fflush(o->fp) != 0 || ferror(o->fp) || fsync(fileno(o->fp)) != 0) {
		fst_warn("writing %s: %s", o->final, strerror(errno));
		commit = false;
		status = FST_EXIT_USAGE;
	}
	fclose(o->fp);
	if (commit && rename(o->tmp, o->final) != 0) {
		fst_warn("cannot write --output %s: %s", o->final, strerror(errno));
		status = FST_EXIT_USAGE;
		commit = false;
	}
	if (!commit)
		unlink(o->tmp);
	free(o->tmp);
	free(o->final);
	free(o);
	return status;
}
