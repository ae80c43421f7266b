/* Step 5, Save: the report of this session in any format of the format table (the same writers as
 * `fstune report`), written to a file the admin names: to a temporary name beside it, then renamed,
 * so a failed write leaves nothing half-written; or the apply and revert scripts, in a directory, as
 * `fstune report --scripts` writes them. */
#include "config.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app/cli.h"
#include "app/formats.h"
#include "app/render/scripts.h"
#include "app/wizard/ui_int.h"
#include "lib/xalloc.h"

enum { S_CHOOSE = UI_ACT_SCREEN };

static const struct ui_key save_keys[] = {
	UI_KEYS_UP_DOWN("previous format", "next format"),
	UI_KEYS_PAGES("first format", "the scripts"),
	UI_KEYS_ENDS("first format", "the scripts"),
	{'\r', S_CHOOSE, "name the file (or the scripts' directory) and save", true},
	{0, 0, NULL, false},
};


#define SCRIPTS_WHAT "apply.sh and revert.sh in a directory: the commands, to review and run"

/* The rows: one per output format, then the scripts. */
#define SAVE_ROWS ((int)output_n_formats + 1)

static bool is_scripts_row(const struct ui_wizard *w)
{
	return w->save_list.sel == (int)output_n_formats;
}

static void save_init(struct ui_wizard *w)
{
	w->save_list.n = SAVE_ROWS;
	ui_list_clamp(&w->save_list, SAVE_ROWS);
}

static void save_row(int y, const struct ui_area *a, bool is_sel, const char *name, const char *what)
{
	attr_t at = ui_menu_row(y, a, is_sel, name, 10, 14);

	ui_put(y, a->left + 14, a->cols - 14, at, what);
}

static void save_draw(struct ui_wizard *w, const struct ui_area *a)
{
	int y = a->top + 2;

	ui_put(a->top, a->left, a->cols, ui_attr(UI_HEADING), "Save: the report of this session, to a file");
	for (size_t i = 0; i < output_n_formats; i++, y++)
		save_row(y, a, (int)i == w->save_list.sel, output_formats[i].name, output_formats[i].what);
	save_row(y++, a, is_scripts_row(w), "scripts", SCRIPTS_WHAT);
	y++;
	y += ui_put_wrapped(y, a->left + 2, a->cols - 2, ui_attr(UI_DIM),
			    is_scripts_row(w) ? SCRIPTS_WHAT : output_formats[w->save_list.sel].what, a->cols - 14);
	if (w->save_path[0]) {
		ui_put(y, a->left, a->cols, ui_attr(UI_DIM), "Last saved:");
		ui_put_wrapped(y, a->left + 12, a->cols - 12, ui_attr(UI_OK), w->save_path, -1);
	}
}

/* Writes the report to `path` with the commands' atomic writer. FST_EXIT_OK, or the error in `err`. */
static int write_report(const struct session *s, size_t fmt, const char *path, struct fst_error *err)
{
	struct fst_output *o = fst_output_open(path, err);
	int e;

	if (!o)
		return err->status;
	if (output_formats[fmt].id == CLI_FORMAT_TEXT || output_formats[fmt].id == CLI_FORMAT_MARKDOWN)
		fst_output_text_only(o);
	errno = 0;
	if (output_formats[fmt].write_report(s, fst_output_stream(o)) == 0)
		return fst_output_finish(o, true, err);
	e = errno ? errno : EIO;
	fst_output_finish(o, false, err);
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
	w->unsaved = 0;
	ui_message(w, UI_OK, "saved the %s report to %s", output_formats[w->save_list.sel].name, path);
	return UI_DONE;
}

static enum ui_result scripts_done(struct ui_wizard *w, const char *dir)
{
	struct fst_error err = FST_ERROR_INIT;

	if (!*dir) {
		ui_message(w, UI_ERROR, "no directory given: nothing saved");
		return UI_DONE;
	}
	if (scripts_write(dir, w->session, &err) != FST_EXIT_OK) {
		ui_message(w, UI_ERROR, "%s", err.msg);
		return UI_DONE;
	}
	snprintf(w->save_path, sizeof(w->save_path), "%s/apply.sh", dir);
	ui_message(w, UI_OK, "wrote apply.sh and revert.sh in %s", dir);
	return UI_DONE;
}

/* The scripts' directory offered first: a new one in the home directory, named for the host and the
 * time (~/fstune-HOST-YYYYmmdd-HHMMSS), which fstune makes: not the directory fstune was started in,
 * often its source tree. */
static void default_scripts_dir(char *buf, size_t len)
{
	const char *home = getenv("HOME");
	const struct passwd *pw = home && *home == '/' ? NULL : getpwuid(getuid());
	char host[256] = "host", when[32] = "now";
	time_t now = time(NULL);
	struct tm tm;

	if (pw && pw->pw_dir)
		home = pw->pw_dir;
	if (!home || *home != '/')
		home = "/root";
	gethostname(host, sizeof(host) - 1);
	host[strcspn(host, "/")] = '\0'; /* a name, never a path */
	if (localtime_r(&now, &tm))
		strftime(when, sizeof(when), "%Y%m%d-%H%M%S", &tm);
	snprintf(buf, len, "%s/fstune-%s-%s", strcmp(home, "/") ? home : "", host, when);
}

static enum ui_result save_key(struct ui_wizard *w, int action, int ch)
{
	char initial[4096], cwd[4000];

	if (action != S_CHOOSE) {
		ui_list_key(&w->save_list, action, SAVE_ROWS);
		return UI_DONE;
	}
	if (is_scripts_row(w)) {
		default_scripts_dir(initial, sizeof(initial));
		return ui_prompt_open(w, "Write apply.sh and revert.sh in the directory (made when missing)", initial,
				      scripts_done);
	}
	if (!getcwd(cwd, sizeof(cwd)))
		snprintf(cwd, sizeof(cwd), ".");
	snprintf(initial, sizeof(initial), "%s/%s", strcmp(cwd, "/") == 0 ? "" : cwd,
		 output_formats[w->save_list.sel].file);
	return ui_prompt_open(w, "Save the report as", initial, save_done);
}

const struct ui_screen ui_screen_save = {
	.name = "Save",
	.help_intro = "The report is written by the same code as fstune report, so the JSON equals "
		      "`fstune report --facts` on this session's facts (apart from the \"generated\" "
		      "block: time, host, target). The scripts are those of `fstune report --scripts DIR`, "
		      "byte for byte but for their time-stamp line.",
	.keys = save_keys,
	.init = save_init,
	.draw = save_draw,
	.key = save_key,
};
