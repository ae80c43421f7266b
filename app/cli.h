/* The command line shared by every command: the command table, the common flags of DESIGN.md
 * (--format, --json, --output, --quiet, --verbose, --sysroot, --target-os) and the --output file. */
#ifndef FSTUNE_APP_CLI_H
#define FSTUNE_APP_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "fstune/error.h"
#include "fstune/output.h"

enum cli_format { CLI_FORMAT_TEXT, CLI_FORMAT_JSON, CLI_FORMAT_MARKDOWN, CLI_FORMAT_OPENMETRICS, CLI_FORMAT_HTML };

/* Which commands write a format, narrowest use last: a command takes the formats up to its own. */
enum cli_scope {
	CLI_SCOPE_FACTS,   /* every command (probe and workload write the facts in it) */
	CLI_SCOPE_REPORTS, /* a report or a comparison: report, compare and the wizard's Save */
	CLI_SCOPE_REPORT,  /* a report only: report and the wizard's Save */
};

struct cli_common {
	enum cli_format format;
	const char *output;    /* --output FILE, NULL for stdout */
	bool quiet;
	bool verbose;          /* --verbose: also what only matters to hand-written facts */
	const char *sysroot;   /* --sysroot DIR */
	const char *target_os; /* --target-os linux|freebsd, NULL when not given */
	enum cli_scope scope;  /* set by a command before parsing: the formats it writes */
};

/* Long options of the common flags: cli_parse puts them before a command's own (CLI_COMMON_OPTIONS
 * expands to the array members, for a parser of its own). Their `val`s are >= CLI_OPT_BASE. */
enum {
	CLI_OPT_BASE = 0x1000,
	CLI_OPT_FORMAT = CLI_OPT_BASE,
	CLI_OPT_JSON,
	CLI_OPT_OUTPUT,
	CLI_OPT_QUIET,
	CLI_OPT_SYSROOT,
	CLI_OPT_TARGET_OS,
	CLI_OPT_HELP,
	CLI_OPT_VERBOSE,
	CLI_OPT_COMMAND_BASE = 0x1100, /* a command's own long-only options start here */
};
#define CLI_COMMON_OPTIONS                                          \
	{"format", required_argument, NULL, CLI_OPT_FORMAT},        \
	{"json", no_argument, NULL, CLI_OPT_JSON},                  \
	{"output", required_argument, NULL, CLI_OPT_OUTPUT},        \
	{"quiet", no_argument, NULL, CLI_OPT_QUIET},                \
	{"verbose", no_argument, NULL, CLI_OPT_VERBOSE},            \
	{"sysroot", required_argument, NULL, CLI_OPT_SYSROOT},      \
	{"target-os", required_argument, NULL, CLI_OPT_TARGET_OS},  \
	{"help", no_argument, NULL, CLI_OPT_HELP}

/* An option that only records what was given is one row of a command's option array:
 * CLI_STRING(name, struct, field) keeps its argument in a `const char *` field of the command's
 * argument struct, CLI_FLAG(name, struct, field) sets a `bool` field; cli_parse stores them, so they
 * need no option value of the command's and no case in its `own`. Their getopt values carry the
 * kind and the field's offset (the _Generic term refuses a field of another type). */
enum {
	CLI_OPT_STRING_BASE = 0x100000,
	CLI_OPT_FLAG_BASE = 0x200000,
};
#define CLI_FIELD_OFFSET(type, field, field_type) \
	((int)offsetof(type, field) + 0 * (int)sizeof(_Generic(((type *)0)->field, field_type: 1)))
#define CLI_STRING(name, type, field) \
	{(name), required_argument, NULL, CLI_OPT_STRING_BASE + CLI_FIELD_OFFSET(type, field, const char *)}
#define CLI_FLAG(name, type, field) \
	{(name), no_argument, NULL, CLI_OPT_FLAG_BASE + CLI_FIELD_OFFSET(type, field, bool)}

/* Usage text of the common flags, for each command's --help. */
extern const char cli_common_help[];

/* Handles one getopt result if it is a common flag. Returns 1 when handled, 0 when not a common
 * flag, or -1 after printing a usage error (the command then exits FST_EXIT_USAGE). For --help it
 * prints `usage` to stdout and exits 0. */
int cli_common_option(struct cli_common *c, int opt, const char *optarg_value, const char *usage);

/* A command's own option (any getopt result that is not a common flag): returns FST_EXIT_OK, or a
 * status after printing the usage error (for an option it does not take, "unexpected option"). */
typedef int (*cli_own_fn)(void *arg, int opt, const char *value);

/* What one command's getopt loop reads. */
struct cli_parser {
	const struct option *opts; /* the command's own long options, ending with a zero entry; NULL:
	                            * none (then `own` is never called and may be NULL) */
	const char *usage;         /* --help prints it, then cli_common_help, and exits 0 */
	cli_own_fn own;
	void *arg;                 /* passed to `own` */
	void *fields;              /* the command's argument struct, where CLI_STRING and CLI_FLAG rows
	                            * write; NULL: `arg` (a parser that wraps `own` sets it) */
};

/* The getopt loop of every command: the common flags' options, then the command's; each result goes
 * to cli_common_option, then to its CLI_STRING or CLI_FLAG field, else to `own`. Returns FST_EXIT_OK
 * or the first error's status; optind is left at the first operand. */
int cli_parse(int argc, char **argv, struct cli_common *c, const struct cli_parser *p);

/* The entries of two option arrays (each ending with a zero entry, or NULL for none) in one new
 * array, `first`'s first (getopt_long takes the first of two same names). Caller frees. */
struct option *cli_options_join(const struct option *first, const struct option *then);
/* How many entries an option array has before its zero entry (0 for NULL). */
size_t cli_options_count(const struct option *opts);

/* The one optional operand after the options (TARGET, JOURNAL: `what`), into *operand (left as it
 * is when there is none). FST_EXIT_OK, or FST_EXIT_USAGE after naming the one too many. */
int cli_one_operand(int argc, char **argv, const char *command, const char *what, const char **operand);

/* Prints "fstune: <message>" and a pointer to the options of `command` ("bench"; NULL for the
 * wizard) on stderr. Returns FST_EXIT_USAGE, so a parser can `return cli_usage_error(...)`. */
int cli_usage_error(const char *command, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* After getopt's own message about an unknown option or a missing argument: where the options are
 * (as cli_usage_error says it). Returns -1, as cli_common_option does after a usage error. */
int cli_try_help(const char *command);

/* Prints `err` (fst_error_print) and returns its status: FST_EXIT_USAGE when it set none, so a
 * failed step whose callee said nothing still fails. */
int cli_error(const struct fst_error *err);

/* Applies the common flags that affect the whole process (--sysroot). Returns FST_EXIT_OK or
 * prints the error and returns FST_EXIT_USAGE. Call after option parsing, before probing. */
int cli_common_apply(const struct cli_common *c);

/* The start of a command that writes: cli_common_apply, then --output opened into *out. FST_EXIT_OK,
 * or FST_EXIT_USAGE after printing the error (*out is then NULL). */
int cli_common_start(const struct cli_common *c, struct fst_output **out);

/* --output opened with the atomic writer (fstune/output.h), text only (fst_output_text_only) for
 * --format text and markdown; NULL after printing the error on stderr. */
struct fst_output *cli_output_open(const struct cli_common *c);
/* fst_output_finish, printing its error on stderr: the commands' form. */
int cli_output_close(struct fst_output *o, bool commit);

/* A command: `run` gets argv with argv[0] the command name; returns an exit status. */
struct cli_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
};

int cmd_probe(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_workload(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_trial(int argc, char **argv);

#endif
