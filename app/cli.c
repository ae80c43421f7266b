/* The common flags of every command, and --output opened with the atomic writer (cli.h). */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/cli.h"
#include "app/formats.h"
#include "lib/xalloc.h"
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
	case CLI_OPT_FORMAT: {
		const struct output_format *f = output_format_find(arg);

		if (!f) {
			fst_warn("unknown --format '%s': use %s", arg, output_format_names(c->scope));
			return -1;
		}
		if (f->scope > c->scope) {
			fst_warn("--format %s is for %s only: use %s", f->name,
				 f->scope == CLI_SCOPE_REPORT ? "'fstune report'" : "'fstune report' and 'fstune compare'",
				 output_format_names(c->scope));
			return -1;
		}
		c->format = f->id;
		return 1;
	}
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
	default:
		return 0;
	}
}

size_t cli_options_count(const struct option *opts)
{
	size_t n = 0;

	while (opts && opts[n].name)
		n++;
	return n;
}

struct option *cli_options_join(const struct option *first, const struct option *then)
{
	size_t n_first = cli_options_count(first), n_then = cli_options_count(then);
	struct option *opts = xcalloc(n_first + n_then + 1, sizeof *opts);

	if (n_first)
		memcpy(opts, first, n_first * sizeof *opts);
	if (n_then)
		memcpy(opts + n_first, then, n_then * sizeof *opts);
	return opts;
}

/* A CLI_STRING or CLI_FLAG row's value stored in its field; false for any other option. */
static bool field_store(void *fields, int opt, const char *value)
{
	if (opt >= CLI_OPT_FLAG_BASE)
		*(bool *)((char *)fields + (opt - CLI_OPT_FLAG_BASE)) = true;
	else if (opt >= CLI_OPT_STRING_BASE)
		*(const char **)((char *)fields + (opt - CLI_OPT_STRING_BASE)) = value;
	else
		return false;
	return true;
}

int cli_parse(int argc, char **argv, struct cli_common *c, const struct cli_parser *p)
{
	static const struct option common[] = {CLI_COMMON_OPTIONS, {NULL, 0, NULL, 0}};
	struct option *opts = cli_options_join(common, p->opts);
	int opt, status = FST_EXIT_OK;

	optind = 1;
	while (status == FST_EXIT_OK && (opt = getopt_long(argc, argv, "o:qh", opts, NULL)) != -1) {
		int rc = opt == '?' ? cli_try_help(argv[0]) : cli_common_option(c, opt, optarg, p->usage);

		if (rc < 0)
			status = FST_EXIT_USAGE;
		else if (rc == 0 && !field_store(p->fields ? p->fields : p->arg, opt, optarg))
			status = p->own(p->arg, opt, optarg);
	}
	free(opts);
	return status;
}

int cli_one_operand(int argc, char **argv, const char *command, const char *what, const char **operand)
{
	if (optind < argc)
		*operand = argv[optind++];
	if (optind < argc)
		return cli_usage_error(command, "one %s at most; '%s' is one too many", what, argv[optind]);
	return FST_EXIT_OK;
}

int cli_usage_error(const char *command, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fst_vwarn(fmt, ap);
	va_end(ap);
	cli_try_help(command);
	return FST_EXIT_USAGE;
}

int cli_try_help(const char *command)
{
	if (command)
		fprintf(stderr, "Try 'fstune %s --help' for the options.\n", command);
	else
		fputs("Try 'fstune --help' for the wizard's options.\n", stderr);
	return -1;
}

int cli_error(const struct fst_error *err)
{
	fst_error_print(err);
	return err->status != FST_EXIT_OK ? err->status : FST_EXIT_USAGE;
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

int cli_common_start(const struct cli_common *c, struct fst_output **out)
{
	int status = cli_common_apply(c);

	*out = NULL;
	if (status == FST_EXIT_OK && !(*out = cli_output_open(c)))
		status = FST_EXIT_USAGE;
	return status;
}

struct fst_output *cli_output_open(const struct cli_common *c)
{
	struct fst_error err = FST_ERROR_INIT;
	struct fst_output *o = fst_output_open(c->output, &err);

	if (!o)
		fst_warn("--output: %s", err.msg);
	else if (c->format == CLI_FORMAT_TEXT || c->format == CLI_FORMAT_MARKDOWN)
		fst_output_text_only(o);
	return o;
}

int cli_output_close(struct fst_output *o, bool commit)
{
	struct fst_error err = FST_ERROR_INIT;
	int status = fst_output_finish(o, commit, &err);

	if (status != FST_EXIT_OK)
		fst_warn("--output: %s", err.msg);
	return status;
}
