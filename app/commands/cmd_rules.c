/* `fstune rules list|show|test`: the rule files as the engine loads them, their documentation, and
 * their test vectors run through the real engine. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app/commands/rules_cli.h"
#include "app/cli.h"
#include "app/render/rules_render.h"
#include "fstune/rules.h"
#include "fstune/status.h"

enum {
	OPT_RULES_DIR = CLI_OPT_COMMAND_BASE,
	OPT_NO_SYSTEM_RULES, /* OPT_RULES_DIR + 1, as RULES_CLI_OPTIONS has it */
};

static const char usage_text[] =
	"Usage: fstune rules list [options]\n"
	"       fstune rules show [options] ID\n"
	"       fstune rules test [options] [FILE|DIR...]\n"
	"\n"
	"List, document and test the rule scripts that turn facts into recommendations: the\n"
	"built-in ones, /etc/fstune/rules.d, each directory of $FSTUNE_RULES_PATH and each\n"
	"--rules-dir, a later file id replacing an earlier one. 'test' runs every test vector\n"
	"through the real engine (all loaded rules, or only the given files and directories),\n"
	"prints one line per vector and exits 1 when one fails; a file that does not load counts\n"
	"as a failed vector. See fstune-rules(5) for writing rules.\n"
	"\n"
	"Options:\n"
	"  --rules-dir DIR              also load the rule files of DIR (repeatable; loaded last)\n"
	"  --no-system-rules            skip /etc/fstune/rules.d\n"
	"\n";

struct rules_args {
	struct cli_common common;
	const char *sub;
	struct rules_options ro; /* --rules-dir, --no-system-rules; `test FILE...` sets its paths */
	char **rest;             /* positional arguments after the subcommand */
	int n_rest;
};

#define usage_error(...) cli_usage_error("rules", __VA_ARGS__)

static int own_option(void *arg, int opt, const char *value)
{
	struct rules_args *a = arg;

	if (!rules_cli_option(&a->ro, opt, OPT_RULES_DIR, value))
		return usage_error("unexpected option");
	return FST_EXIT_OK;
}

static int parse_args(int argc, char **argv, struct rules_args *a)
{
	static const struct option opts[] = {
		RULES_CLI_OPTIONS(OPT_RULES_DIR),
		{NULL, 0, NULL, 0},
	};
	int status = cli_parse(argc, argv, &a->common,
			       &(struct cli_parser){.opts = opts, .usage = usage_text, .own = own_option, .arg = a});

	if (status != FST_EXIT_OK)
		return status;
	if (optind >= argc)
		return usage_error("a subcommand is required: list, show ID or test [FILE|DIR...]");
	a->sub = argv[optind++];
	a->rest = argv + optind;
	a->n_rest = argc - optind;
	if (strcmp(a->sub, "list") && strcmp(a->sub, "show") && strcmp(a->sub, "test"))
		return usage_error("unknown subcommand '%s': use list, show or test", a->sub);
	if (!strcmp(a->sub, "list") && a->n_rest > 0)
		return usage_error("'rules list' takes no arguments; '%s' is one too many", a->rest[0]);
	if (!strcmp(a->sub, "show") && a->n_rest != 1)
		return usage_error("'rules show' takes one rule id (see 'fstune rules list')");
	return FST_EXIT_OK;
}

/* `rules show ID`: the rule of that id that is not replaced, or a usage error. */
static int do_show(const struct rules_args *a, const struct rules_set *set, FILE *out)
{
	json_t *rules = rules_describe(set);
	const json_t *found = NULL;
	size_t i;
	json_t *r;

	json_array_foreach(rules, i, r)
		if (!strcmp(json_string_value(json_object_get(r, "id")), a->rest[0]) &&
		    !json_object_get(r, "replaced_by"))
			found = r;
	if (found)
		rules_render_show(out, found, a->common.format);
	else
		fprintf(stderr, "fstune: no rule '%s' is loaded; 'fstune rules list' shows the ids\n", a->rest[0]);
	json_decref(rules);
	return found ? FST_EXIT_OK : FST_EXIT_USAGE;
}

/* `rules test`: every vector through the engine; 1 when one failed. */
static int do_test(const struct rules_args *a, const struct rules_set *set, FILE *out)
{
	json_t *results = rules_run_tests(set);
	size_t failed = rules_render_tests(out, results, a->common.format, a->common.quiet);

	json_decref(results);
	return failed ? FST_EXIT_THRESHOLD : FST_EXIT_OK;
}

int cmd_rules(int argc, char **argv)
{
	struct rules_args a = {0};
	struct fst_error err = FST_ERROR_INIT;
	struct fst_output *out;
	struct rules_set *set;
	int status = parse_args(argc, argv, &a), result;

	if (status == FST_EXIT_OK)
		status = cli_common_apply(&a.common);
	if (status != FST_EXIT_OK) {
		rules_cli_free(&a.ro);
		return status;
	}
	if (!strcmp(a.sub, "test") && a.n_rest > 0) {
		a.ro.paths = (const char *const *)a.rest;
		a.ro.n_paths = (size_t)a.n_rest;
	}
	set = rules_load(&a.ro, &err);
	if (!set) {
		fst_error_print(&err);
		rules_cli_free(&a.ro);
		return err.status;
	}
	out = cli_output_open(&a.common);
	if (!out) {
		rules_set_free(set);
		rules_cli_free(&a.ro);
		return FST_EXIT_USAGE;
	}
	if (!strcmp(a.sub, "list")) {
		rules_render_list(fst_output_stream(out), set, a.common.format, a.common.quiet);
		result = FST_EXIT_OK;
	} else if (!strcmp(a.sub, "show")) {
		result = do_show(&a, set, fst_output_stream(out));
	} else {
		result = do_test(&a, set, fst_output_stream(out));
	}
	status = cli_output_close(out, result != FST_EXIT_USAGE);
	rules_set_free(set);
	rules_cli_free(&a.ro);
	return status != FST_EXIT_OK ? status : result;
}
