/* Step 5, Save: the report of this session in text, Markdown or JSON (the same writers as `fstune
 * report`), written to a file the admin names: to a temporary name beside it, then renamed, so a
 * failed write leaves nothing half-written. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/cli.h"
#include "app/formats.h"
#include "app/wizard/ui_int.h"
#include "lib/xalloc.h"

enum { S_UP = 1, S_DOWN, S_CHOOSE };

static const struct ui_key save_keys[] = {
	{KEY_UP, S_UP, "previous format", false},
	{'k', S_UP, "previous format", false},
	{KEY_DOWN, S_DOWN, "next format", false},
	{'j', S_DOWN, "next format", false},
	{'\r', S_CHOOSE, "name the file and save in this format", true},
	{KEY_ENTER, S_CHOOSE, "name the file and save in this format", false},
	{0, 0, NULL, false},
};


static void save_init(struct ui_wizard *w)
{
	w->save_list.n = (int)output_n_formats;
	ui_list_clamp(&w->save_list, (int)output_n_formats);
}

static void save_draw(struct ui_wizard *w, const struct ui_area *a)
{
	int y = a->top + 2;

	ui_put(a->top, a->left, a->cols, ui_attr(UI_HEADING), "Save: the report of this session, to a file");
	for (size_t i = 0; i < output_n_formats; i++, y++) {
		bool is_sel = (int)i == w->save_list.sel;
		attr_t at = ui_attr(is_sel ? UI_SELECTED : UI_NORMAL);
		char name[32];

		if (is_sel)
			ui_fill(y, a->left, a->cols, at);
		snprintf(name, sizeof(name), "%s %-10s", is_sel ? ui_glyph->cursor : " ", output_formats[i].name);
		ui_put(y, a->left, 14, at | A_BOLD, name);
		ui_put(y, a->left + 14, a->cols - 14, at, output_formats[i].what);
	}
	if (w->save_path[0]) {
		ui_put(y + 1, a->left, a->cols, ui_attr(UI_DIM), "Last saved:");
		ui_put(y + 1, a->left + 12, a->cols - 12, ui_attr(UI_OK), w->save_path);
	}
}

/* Writes the report to `path` with the commands' atomic writer. FST_EXIT_OK, or the error in `err`. */
static int write_report(const struct session *s, size_t fmt, const char *path, struct fst_error *err)
{
	struct cli_output *o = cli_output_open_path(path, err);
	int e;

	if (!o)
		return err->status;
	errno = 0;
	if (output_formats[fmt].write_report(s, cli_output_stream(o)) == 0)
		return cli_output_finish(o, true, err);
	e = errno ? errno : EIO;
	cli_output_finish(o, false, err);
	return fst_error_set(err, FST_EXIT_USAGE, "writing %s: %s", path, strerror(e));
}

static enum ui_result save_done(struct ui_wizard *w, const char *path)
{
	struct fst_error err = FST_ERROR_INIT;
	struct stat st;

	if (!*path) {
		ui_message(w, UI_ERROR, "no file name given: nothing saved");
		return UI_DONE;
	}
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		ui_message(w, UI_ERROR, "%s is a directory: name a file", path);
		return UI_DONE;
	}
	if (write_report(w->session, (size_t)w->save_list.sel, path, &err) != FST_EXIT_OK) {
		ui_message(w, UI_ERROR, "%s", err.msg);
		return UI_DONE;
	}
	snprintf(w->save_path, sizeof(w->save_path), "%s", path);
	ui_message(w, UI_OK, "saved the %s report to %s", output_formats[w->save_list.sel].name, path);
	return UI_DONE;
}

static enum ui_result save_key(struct ui_wizard *w, int action, int ch)
{
	char initial[4096], cwd[4000];

	switch (action) {
	case S_UP:
		ui_list_move(&w->save_list, -1, (int)output_n_formats);
		return UI_DONE;
	case S_DOWN:
		ui_list_move(&w->save_list, 1, (int)output_n_formats);
		return UI_DONE;
	case S_CHOOSE:
		if (!getcwd(cwd, sizeof(cwd)))
			snprintf(cwd, sizeof(cwd), ".");
		snprintf(initial, sizeof(initial), "%s/%s", strcmp(cwd, "/") == 0 ? "" : cwd,
			 output_formats[w->save_list.sel].file);
		return ui_prompt_open(w, "Save the report as", initial, save_done);
	default:
		return UI_DONE;
	}
}

const struct ui_screen ui_screen_save = {
	.name = "Save",
	.help_intro = "The report is written by the same code as fstune report, so the JSON equals "
		      "`fstune report --facts` on this session's facts (apart from the \"generated\" "
		      "block: time, host, target).",
	.keys = save_keys,
	.init = save_init,
	.draw = save_draw,
	.key = save_key,
};
