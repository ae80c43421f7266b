/* `fstune history`: the journals of fstune apply, what each run did and whether it was undone. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app/apply/apply.h"
#include "app/apply/apply_cli.h"
#include "app/cli.h"
#include "app/commands/cmd_apply.h"
#include "fstune/status.h"
#include "lib/xalloc.h"
#include "fstune/utf8.h"

enum {
	OPT_ROOT = CLI_OPT_COMMAND_BASE,
};

static const char usage_text[] =
	"Usage: fstune history [options]\n"
	"\n"
	"List the journals of fstune apply, oldest first: when each run was, on what, what it changed\n"
	"(old and new values), and whether it was undone. A journal that fails its checks is listed\n"
	"with the reason.\n"
	"\n"
	"Options:\n"
	"  --root DIR                   the journals under DIR (as apply --root DIR wrote them)\n"
	"\n";

/* One journal as history shows it: {"journal", "started", "host", "target", "state", "undone",
 * "undone_at", "changes": [{"id", "setting", "old", "new", "state"}]}, or {"journal", "error"}. */
static json_t *summary(const char *root, const char *path)
{
	struct fst_error err = FST_ERROR_INIT;
	struct journal *j = journal_load(root, path, &err);
	char *shown = files_rooted(root, path);
	json_t *run, *undo, *changes, *out, *c;
	size_t i;

	if (!j) {
		out = json_pack("{s:o, s:o}", "journal", fst_json_text(shown), "error", fst_json_text(err.msg));
		free(shown);
		return out;
	}
	run = json_object_get(j->doc, "run");
	undo = json_object_get(run, "undo");
	changes = json_array();
	json_array_foreach(json_object_get(j->doc, "changes"), i, c)
		json_array_append_new(changes, json_pack("{s:O, s:O, s:O?, s:O?, s:O}", "id", json_object_get(c, "id"),
							 "setting", json_object_get(c, "setting"), "old", json_object_get(c, "old"),
							 "new", json_object_get(c, "new"), "state", json_object_get(c, "state")));
	out = json_pack("{s:o, s:O?, s:O?, s:O?, s:O?, s:b, s:O?, s:o}", "journal", fst_json_text(shown), "started",
			json_object_get(run, "started"), "host", json_object_get(run, "host"), "target",
			json_object_get(run, "target"), "state", json_object_get(run, "state"), "undone",
			journal_is_undone(j), "undone_at", json_object_get(undo, "time"), "changes", changes);
	journal_free(j);
	free(shown);
	return out;
}

static void write_text(const json_t *list, FILE *fp, bool markdown)
{
	size_t i, k;
	json_t *e, *c;

	if (json_array_size(list) == 0)
		fputs("no journals\n", fp);
	if (markdown && json_array_size(list))
		fputs("| journal | started | target | state | setting | old | new | change |\n|---|---|---|---|---|---|---|---|\n", fp);
	json_array_foreach(list, i, e) {
		const char *path = json_string_value(json_object_get(e, "journal"));
		const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
		char *state;

		if (json_object_get(e, "error")) {
			fprintf(fp, markdown ? "| %s | | | invalid: %s | | | | |\n" : "%s  invalid: %s\n", name,
				json_string_value(json_object_get(e, "error")));
			continue;
		}
		state = json_is_true(json_object_get(e, "undone"))
				? xasprintf("%s, undone %s", json_string_value(json_object_get(e, "state")),
					    json_string_value(json_object_get(e, "undone_at")))
				: xstrdup(json_string_value(json_object_get(e, "state")));
		if (!markdown)
			fprintf(fp, "%s  %s  %s  %s\n", name, json_string_value(json_object_get(e, "started")),
				json_string_value(json_object_get(e, "target")) ? json_string_value(json_object_get(e, "target")) : "-",
				state);
		json_array_foreach(json_object_get(e, "changes"), k, c) {
			char *old = apply_value_text(json_object_get(c, "old")), *new = apply_value_text(json_object_get(c, "new"));

			if (markdown)
				fprintf(fp, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", name,
					json_string_value(json_object_get(e, "started")),
					json_string_value(json_object_get(e, "target")) ? json_string_value(json_object_get(e, "target")) : "",
					state, json_string_value(json_object_get(c, "setting")), old, new,
					json_string_value(json_object_get(c, "state")));
			else
				fprintf(fp, "  %-34s %s -> %s  (%s)\n", json_string_value(json_object_get(c, "setting")), old, new,
					json_string_value(json_object_get(c, "state")));
			free(old);
			free(new);
		}
		free(state);
	}
}

/* history's one option of its own is apply's --root: where the journals are. */
static int own_option(void *arg, int opt, const char *value)
{
	if (opt != OPT_ROOT)
		return cli_usage_error("history", "unexpected option");
	apply_cli_option(arg, 0, 0, value, "history");
	return FST_EXIT_OK;
}

int cmd_history(int argc, char **argv)
{
	static const struct option opts[] = {
		{"root", required_argument, NULL, OPT_ROOT},
		{NULL, 0, NULL, 0},
	};
	struct cli_common common = {0};
	struct apply_cli ac = {.is_read_only = true};
	struct cli_output *out;
	json_t *paths, *list, *p;
	size_t i;
	int status = cli_parse(argc, argv, &common,
			       &(struct cli_parser){.opts = opts, .usage = usage_text, .own = own_option, .arg = &ac});

	if (status == FST_EXIT_OK && optind < argc)
		status = cli_usage_error("history", "no operand expected; '%s' is one too many", argv[optind]);
	if (status == FST_EXIT_OK)
		status = apply_cli_check(&ac, &(struct cli_common){.sysroot = common.sysroot}, "history");
	if (status != FST_EXIT_OK || !(out = cli_output_open(&common))) {
		apply_cli_free(&ac);
		return status != FST_EXIT_OK ? status : FST_EXIT_USAGE;
	}
	paths = journal_list(ac.env.root);
	list = json_array();
	json_array_foreach(paths, i, p)
		json_array_append_new(list, summary(ac.env.root, json_string_value(p)));
	if (common.format == CLI_FORMAT_JSON) {
		json_dumpf(list, cli_output_stream(out), JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', cli_output_stream(out));
	} else {
		write_text(list, cli_output_stream(out), common.format == CLI_FORMAT_MARKDOWN);
	}
	status = cli_output_close(out, true);
	json_decref(paths);
	json_decref(list);
	apply_cli_free(&ac);
	return status;
}
