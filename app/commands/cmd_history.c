/* `fstune history`: the journals of fstune apply, what each run did and whether it was undone. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/apply/apply.h"
#include "app/apply/apply_cli.h"
#include "app/cli.h"
#include "app/commands/cmd_apply.h"
#include "app/render/markdown.h"
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
	"with the reason. Any user may run it: it lists what that user can read, and says what not.\n"
	"\n"
	"Options:\n"
	"  --root DIR                   the journals under DIR (as apply --root DIR wrote them)\n"
	"\n";

/* One journal as history shows it: {"journal", "started", "host", "target", "state", "undone",
 * "undone_at", "undo_state", "changes": [{"id", "setting", "old", "new", "state"}]}, or {"journal",
 * "error"}. */
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
	out = json_pack("{s:o, s:O?, s:O?, s:O?, s:O?, s:b, s:O?, s:O?, s:o}", "journal", fst_json_text(shown), "started",
			json_object_get(run, "started"), "host", json_object_get(run, "host"), "target",
			json_object_get(run, "target"), "state", json_object_get(run, "state"), "undone",
			journal_is_undone(j), "undone_at", json_object_get(undo, "time"), "undo_state",
			json_object_get(undo, "state"), "changes", changes);
	journal_free(j);
	free(shown);
	return out;
}

/* The run's state, and its undo's: done, killed on the way (the next one completes it), or partial
 * (a value did not come back). Caller frees. */
static char *history_state(const json_t *e)
{
	const char *state = json_string_value(json_object_get(e, "state"));
	const char *undo = json_string_value(json_object_get(e, "undo_state"));
	const char *at = json_string_value(json_object_get(e, "undone_at"));

	if (json_is_true(json_object_get(e, "undone")))
		return xasprintf("%s, undone %s", state, at);
	if (undo && !strcmp(undo, "running"))
		return xasprintf("%s, undo killed on the way %s (fstune undo completes it)", state, at);
	if (undo)
		return xasprintf("%s, undo %s %s", state, undo, at);
	return xstrdup(state);
}

/* A string of a journal (a file name, a target's path, a setting) as one line of text: a line break
 * or an escape sequence in it, written visibly. Caller frees. */
static char *one_line(const char *s)
{
	return fst_text_visible(s ? s : "", true);
}

static void md_row(FILE *fp, const char *const *cells, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		fputs("| ", fp);
		markdown_text(fp, cells[i]);
		fputc(' ', fp);
	}
	fputs("|\n", fp);
}

/* One change: a row of the Markdown table (the journal's cells `run` first), or a line of text. */
static void write_change(FILE *fp, const json_t *c, char *const run[4], bool markdown)
{
	char *cell[8] = {run[0], run[1], run[2], run[3]};

	cell[4] = one_line(json_string_value(json_object_get(c, "setting")));
	cell[5] = apply_value_text(json_object_get(c, "old"));
	cell[6] = apply_value_text(json_object_get(c, "new"));
	cell[7] = one_line(json_string_value(json_object_get(c, "state")));
	if (markdown)
		md_row(fp, (const char *const *)cell, 8);
	else
		fprintf(fp, "  %-34s %s -> %s  (%s)\n", cell[4], cell[5], cell[6], cell[7]);
	for (size_t k = 4; k < 8; k++)
		free(cell[k]);
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
		char *run[4] = {one_line(strrchr(path, '/') ? strrchr(path, '/') + 1 : path)}, *state;

		if (json_object_get(e, "error")) {
			char *why = one_line(json_string_value(json_object_get(e, "error")));
			char *error = xasprintf("invalid: %s", why);

			if (markdown)
				md_row(fp, (const char *[]){run[0], "", "", error, "", "", "", ""}, 8);
			else
				fprintf(fp, "%s  %s\n", run[0], error);
			free(error);
			free(why);
			free(run[0]);
			continue;
		}
		run[1] = one_line(json_string_value(json_object_get(e, "started")));
		run[2] = one_line(json_string_value(json_object_get(e, "target")));
		state = history_state(e);
		run[3] = one_line(state);
		free(state);
		if (!markdown)
			fprintf(fp, "%s  %s  %s  %s\n", run[0], run[1], *run[2] ? run[2] : "-", run[3]);
		json_array_foreach(json_object_get(e, "changes"), k, c)
			write_change(fp, c, run, markdown);
		for (k = 0; k < 4; k++)
			free(run[k]);
	}
}

/* History lists what this user can read: a journal directory it may not open (root's, 0700) is
 * said, not taken for one without journals. */
static void say_unreadable(const char *root, bool quiet)
{
	struct fst_error err = FST_ERROR_INIT;
	int fd = files_open_dir(root, JOURNAL_DIR, &err);

	if (fd >= 0)
		close(fd);
	else if (err.status != FST_EXIT_OK && !quiet)
		fprintf(stderr, "fstune: note: %s: its journals are not listed%s\n", err.msg,
			geteuid() ? " (run fstune history as root to see them)" : "");
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
	struct fst_output *out;
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
	say_unreadable(ac.env.root, common.quiet);
	paths = journal_list(ac.env.root);
	list = json_array();
	json_array_foreach(paths, i, p)
		json_array_append_new(list, summary(ac.env.root, json_string_value(p)));
	if (common.format == CLI_FORMAT_JSON) {
		json_dumpf(list, fst_output_stream(out), JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', fst_output_stream(out));
	} else {
		write_text(list, fst_output_stream(out), common.format == CLI_FORMAT_MARKDOWN);
	}
	status = cli_output_close(out, true);
	json_decref(paths);
	json_decref(list);
	apply_cli_free(&ac);
	return status;
}
