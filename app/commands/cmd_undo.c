/* `fstune undo`: takes back a run of `fstune apply` from its journal (app/apply/undo.c). */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/apply/apply.h"
#include "app/apply/apply_cli.h"
#include "app/cli.h"
#include "app/commands/cmd_apply.h"
#include "fstune/status.h"
#include "lib/xalloc.h"

enum {
	APPLY_CLI_OPT_BASE = CLI_OPT_COMMAND_BASE,
};

static const char usage_text[] =
	"Usage: fstune undo [options] JOURNAL|--last\n"
	"\n"
	"Take back what one run of fstune apply changed, from its journal: the old values set again with\n"
	"the revert commands, the files it edited given back their previous content, the files it created\n"
	"removed. Refused (status 4) where a value or file is no longer what apply left, unless --force.\n"
	"\n"
	"Options:\n"
	"  --last                       the newest journal not undone yet (fstune history lists them)\n"
	"  --force                      undo even where a value or file changed since apply\n"
	"  --yes                        accepted, and changes nothing: undo asks no question (scripts\n"
	"                               pass --yes to apply and undo alike)\n"
	APPLY_CLI_HELP
	"\n";

struct undo_args {
	struct cli_common common;
	struct apply_cli ac;
	bool is_last, is_force;
	bool is_yes; /* a no-op: undo never asks */
	const char *journal;
};

static int own_option(void *arg, int opt, const char *value)
{
	struct undo_args *a = arg;
	int rc = apply_cli_option(&a->ac, opt, APPLY_CLI_OPT_BASE, value, "undo");

	if (rc == 0)
		return cli_usage_error("undo", "unexpected option");
	return rc < 0 ? FST_EXIT_USAGE : FST_EXIT_OK;
}

static int parse_args(int argc, char **argv, struct undo_args *a)
{
	static const struct option opts[] = {
		APPLY_CLI_OPTIONS(APPLY_CLI_OPT_BASE),
		CLI_FLAG("last", struct undo_args, is_last),
		CLI_FLAG("force", struct undo_args, is_force),
		CLI_FLAG("yes", struct undo_args, is_yes),
		{NULL, 0, NULL, 0},
	};
	int status = cli_parse(argc, argv, &a->common,
			       &(struct cli_parser){.opts = opts, .usage = usage_text, .own = own_option, .arg = a});

	if (status == FST_EXIT_OK)
		status = cli_one_operand(argc, argv, "undo", "JOURNAL", &a->journal);
	if (status != FST_EXIT_OK)
		return status;
	if (!a->journal == !a->is_last)
		return cli_usage_error("undo", "name one JOURNAL or give --last");
	return apply_cli_check(&a->ac, &a->common, "undo");
}

/* The newest journal of the directory not undone yet. A damaged one on the way is an error: it may
 * be the run the admin means. */
static struct journal *find_last(const char *root, struct fst_error *err)
{
	json_t *list = journal_list(root);
	struct journal *j = NULL;

	for (size_t i = json_array_size(list); i-- > 0;) {
		if (!(j = journal_load(root, json_string_value(json_array_get(list, i)), err)))
			break;
		if (journal_has_undoable(j))
			break;
		journal_free(j);
		j = NULL;
	}
	if (!j && err->status == FST_EXIT_OK) {
		char *dir = files_rooted(root, JOURNAL_DIR);

		fst_error_set(err, FST_EXIT_OK, "no journal in %s is left to undo", dir);
		free(dir);
	}
	json_decref(list);
	return j;
}

/* `path` made absolute against the current directory. Caller frees. */
static char *absolute_path(const char *path)
{
	char cwd[4096];

	if (path[0] == '/' || !getcwd(cwd, sizeof cwd))
		return xstrdup(path);
	return xasprintf("%s/%s", cwd, path);
}

/* The journal was made with the same --root: its files are there, and the values are this system's. */
static int check_root(const struct journal *j, const struct apply_env *env, struct fst_error *err)
{
	const json_t *run = json_object_get(j->doc, "run");
	char *root = journal_get_bytes(run, "root");
	int status = FST_EXIT_OK;

	if ((root && (!env->root || strcmp(root, env->root))) || (!root && env->root))
		status = fst_error_set(err, FST_EXIT_USAGE, "%s was made %s%s; undo it with the same --root", j->shown,
				       root ? "with --root " : "without --root",
				       root ? json_string_value(json_object_get(run, "root")) : "");
	free(root);
	return status;
}

int cmd_undo(int argc, char **argv)
{
	struct undo_args a = {0};
	struct fst_error err = FST_ERROR_INIT;
	struct journal *j = NULL;
	char *given = NULL;
	FILE *log;
	int lock = -1, status = parse_args(argc, argv, &a);

	log = a.common.quiet ? NULL : a.common.format == CLI_FORMAT_JSON ? stderr : stdout;
	if (status == FST_EXIT_OK && !a.ac.env.is_dry_run && (lock = journal_lock(a.ac.env.root, log, &err)) < 0)
		status = err.status;
	if (status == FST_EXIT_OK) {
		/* a JOURNAL named on the command line is the host's path, as apply printed it */
		given = a.journal ? absolute_path(a.journal) : NULL;
		j = a.is_last ? find_last(a.ac.env.root, &err) : journal_load(NULL, given, &err);
		status = j ? check_root(j, &a.ac.env, &err) : err.status;
	}
	if (status == FST_EXIT_OK && !j) {
		apply_log(log, "%s", err.msg);
	} else if (status == FST_EXIT_OK && journal_is_undone(j)) {
		apply_log(log, "%s was undone already (%s)", j->shown,
			  json_string_value(json_object_get(json_object_get(json_object_get(j->doc, "run"), "undo"), "time")));
	} else if (status == FST_EXIT_OK && !journal_has_undoable(j)) {
		apply_log(log, "%s holds nothing to undo (its run was rolled back)", j->shown);
	} else if (status == FST_EXIT_OK) {
		a.ac.env.target = json_string_value(json_object_get(json_object_get(j->doc, "run"), "target"));
		apply_log(log, "%s %s", a.ac.env.is_dry_run ? "would undo" : "undoing", j->shown);
		status = undo_journal(j, &a.ac.env, a.is_force, log, &err);
		if (status == FST_EXIT_OK && !a.ac.env.is_dry_run)
			apply_log(log, "undone: %s", j->shown);
	}
	if (status != FST_EXIT_OK && err.msg[0]) /* a usage error or refusal of the flags is said already */
		fst_error_print(&err);
	if (j && a.common.format == CLI_FORMAT_JSON && (status == FST_EXIT_OK || status == FST_EXIT_PARTIAL)) {
		struct fst_output *out = cli_output_open(&a.common);

		if (out) {
			json_dumpf(j->doc, fst_output_stream(out), JSON_INDENT(2) | JSON_PRESERVE_ORDER);
			fputc('\n', fst_output_stream(out));
			status = fst_exit_merge(status, cli_output_close(out, true));
		}
	}
	if (lock >= 0)
		close(lock);
	journal_free(j);
	free(given);
	apply_cli_free(&a.ac);
	return status;
}
