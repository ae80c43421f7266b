/* The custom workload form (from Workload): file sizes, files, files per directory, access, I/O
 * size and mode, sync-heavy, in a curses form on a panel over Workload. Each value goes through the
 * same parser as its command-line flag (workload.h): a bad one is named with what is accepted, and
 * the cursor stays on it with the text as typed. Enter describes the workload with all of them. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/wizard/formbox.h"
#include "app/wizard/ui_int.h"
#include "lib/xalloc.h"

enum { C_APPLY = UI_ACT_SCREEN, C_CANCEL, C_NEXT, C_PREV };

static const struct ui_key custom_keys[] = {
	{'\r', C_APPLY, "check every value and describe the workload with them", true},
	{27, C_CANCEL, "cancel: back to the workload list", true},
	{'\t', C_NEXT, "next field (the value is checked first)", true},
	{KEY_DOWN, C_NEXT, "next field (the value is checked first)", false},
	{KEY_BTAB, C_PREV, "previous field", false},
	{KEY_UP, C_PREV, "previous field", false},
	UI_KEYS_EDIT("field", false),
	{0, 0, NULL, false},
};

static int set_sync(struct workload_spec *s, const char *v, struct fst_error *err)
{
	if (!strcmp(v, "yes") || !strcmp(v, "no")) {
		s->sync_heavy = !strcmp(v, "yes");
		return FST_EXIT_OK;
	}
	return fst_error_set(err, FST_EXIT_USAGE, "sync-heavy '%s': give yes or no", v);
}

static const struct field_def {
	const char *label, *hint;
	int (*set)(struct workload_spec *s, const char *v, struct fst_error *err);
} defs[] = {
	{"file sizes (MIN-MAX)", "e.g. 1k-64k", workload_spec_set_file_size},
	{"files", "on the filesystem", workload_spec_set_files},
	{"files per directory", "median", workload_spec_set_files_per_dir},
	{"access", "random, sequential, mixed", workload_spec_set_access},
	{"I/O size", "e.g. 4k, 1M", workload_spec_set_io_size},
	{"I/O mode", "direct, buffered, mmap", workload_spec_set_io_mode},
	{"sync-heavy", "yes, no", set_sync},
};
#define N_FIELDS (sizeof(defs) / sizeof(defs[0]))
#define LABEL_COLS 22
#define FIELD_COLS 20

struct ui_custom {
	struct ui_formbox box;
	char error[256];
	struct workload_spec spec;
};

void ui_custom_free(struct ui_wizard *w)
{
	if (!w->custom)
		return;
	ui_formbox_free(&w->custom->box);
	free(w->custom);
	w->custom = NULL;
}

/* "64k", "1M", "1500": a size the parsers read back as the same number of bytes. */
static void size_text(char *buf, size_t len, long long v)
{
	static const struct { long long unit; const char *suffix; } units[] = {
		{1LL << 30, "G"}, {1LL << 20, "M"}, {1LL << 10, "k"}};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (v >= units[i].unit && v % units[i].unit == 0) {
			snprintf(buf, len, "%lld%s", v / units[i].unit, units[i].suffix);
			return;
		}
	snprintf(buf, len, "%lld", v);
}

/* A field's starting text: the workload facts as they are now, else the general preset's. */
static void initial_text(const struct facts *f, size_t i, char *buf, size_t len)
{
	const struct workload_preset *g = workload_preset_find("general");
	long long a, b;
	const char *s;
	bool yes;
	char x[32], y[32];

	switch (i) {
	case 0:
		a = facts_get_int(f, "workload.file_size_min_bytes", &a) ? a : (long long)g->file_size_min_bytes;
		b = facts_get_int(f, "workload.file_size_max_bytes", &b) ? b : (long long)g->file_size_max_bytes;
		size_text(x, sizeof(x), a);
		size_text(y, sizeof(y), b);
		snprintf(buf, len, "%s-%s", x, y);
		return;
	case 1:
		snprintf(buf, len, "%lld", facts_get_int(f, "workload.files_total", &a) ? a : (long long)g->files_total);
		return;
	case 2:
		snprintf(buf, len, "%lld", facts_get_int(f, "workload.files_per_dir", &a) ? a : (long long)g->files_per_dir);
		return;
	case 3:
		s = facts_get_string(f, "workload.access");
		snprintf(buf, len, "%s", s ? s : workload_access_name(g->access));
		return;
	case 4:
		size_text(buf, len, facts_get_int(f, "workload.io_size_bytes", &a) ? a : (long long)g->io_size_bytes);
		return;
	case 5:
		s = facts_get_string(f, "workload.io_mode");
		snprintf(buf, len, "%s", s ? s : workload_io_mode_name(g->io_mode));
		return;
	default:
		snprintf(buf, len, "%s", (facts_get_bool(f, "workload.sync_heavy", &yes) ? yes : g->sync_heavy) ? "yes" : "no");
		return;
	}
}

/* (Re)builds the form for the terminal's size with `texts` in its fields, on field `cur`. */
static void form_build(struct ui_wizard *w, char texts[][64], int cur)
{
	int rows = (int)N_FIELDS + 7; /* title, blank, fields, blank, 2 error lines, keys */
	const struct ui_formbox_shape shape = {
		.rows = rows, .cols = COLS - 8, .y = (LINES - rows) / 2, .x = 4,
		.field_y = 2, .field_x = 2 + LABEL_COLS, .field_cols = FIELD_COLS,
		.opts_off = O_AUTOSKIP,
	};
	struct ui_formbox *b = &w->custom->box;
	const char *text_of[N_FIELDS];

	for (size_t i = 0; i < N_FIELDS; i++)
		text_of[i] = texts[i];
	ui_formbox_build(b, &shape, N_FIELDS, text_of);
	set_current_field(b->form, b->fields[cur]);
	form_driver(b->form, REQ_END_LINE);
}

static void custom_init(struct ui_wizard *w)
{
	char texts[N_FIELDS][64];

	ui_custom_free(w);
	w->custom = xcalloc(1, sizeof(*w->custom));
	for (size_t i = 0; i < N_FIELDS; i++)
		initial_text(w->session->facts, i, texts[i], sizeof(texts[i]));
	form_build(w, texts, 0);
}

static WINDOW *custom_window(struct ui_wizard *w) { return w->custom->box.win; }

/* After a resize: the same texts, the same field, in a form of the new width. */
static void form_relayout(struct ui_wizard *w)
{
	char texts[N_FIELDS][64];
	int cur = field_index(current_field(w->custom->box.form));
	char error[256];

	form_driver(w->custom->box.form, REQ_VALIDATION);
	for (size_t i = 0; i < N_FIELDS; i++)
		ui_formbox_text(&w->custom->box, i, texts[i], sizeof(texts[i]));
	snprintf(error, sizeof(error), "%s", w->custom->error);
	ui_custom_free(w);
	w->custom = xcalloc(1, sizeof(*w->custom));
	snprintf(w->custom->error, sizeof(w->custom->error), "%s", error);
	form_build(w, texts, cur);
}

/* The last error in two wrapped lines at row y of the box (blank when none). */
static void draw_error(WINDOW *win, const char *error, int y, int cols)
{
	size_t n;
	char **lines = ui_wrap(error, cols - 4, &n);

	for (int r = 0; r < 2; r++) {
		wmove(win, y + r, 2);
		for (int x = 2; x < cols - 2; x++)
			waddch(win, ' ');
		wattron(win, ui_attr(UI_ERROR));
		if ((size_t)r < n)
			mvwaddnstr(win, y + r, 2, lines[r], cols - 4);
		wattroff(win, ui_attr(UI_ERROR));
	}
	ui_lines_free(lines, n);
}

static void custom_draw(struct ui_wizard *w, const struct ui_area *a)
{
	WINDOW *win;
	int cols;

	ui_screen_of(w, UI_SCR_WORKLOAD)->draw(w, a);
	if (w->custom->box.cols != COLS)
		form_relayout(w);
	win = w->custom->box.win;
	cols = getmaxx(win);
	for (size_t i = 0; i < N_FIELDS; i++) {
		mvwaddnstr(win, 2 + (int)i, 2, defs[i].label, LABEL_COLS - 1);
		wattron(win, ui_attr(UI_DIM));
		mvwaddnstr(win, 2 + (int)i, 3 + LABEL_COLS + FIELD_COLS, defs[i].hint,
			   cols - 4 - LABEL_COLS - FIELD_COLS - 1);
		wattroff(win, ui_attr(UI_DIM));
	}
	draw_error(win, w->custom->error, 3 + (int)N_FIELDS, cols);
	ui_formbox_draw(&w->custom->box, 0, " Custom workload ", 5 + (int)N_FIELDS,
			"Enter apply   Tab/Down next   Up previous   Esc cancel");
}

/* Checks field `i` into the form's spec; on a bad value the message names it and says why. */
static bool check_field(struct ui_wizard *w, size_t i)
{
	struct ui_custom *c = w->custom;
	struct fst_error err = FST_ERROR_INIT;
	char text[64];

	form_driver(c->box.form, REQ_VALIDATION);
	ui_formbox_text(&c->box, i, text, sizeof(text));
	if (defs[i].set(&c->spec, text, &err) == FST_EXIT_OK) {
		c->error[0] = '\0';
		return true;
	}
	snprintf(c->error, sizeof(c->error), "%s: %s", defs[i].label, err.msg);
	ui_message(w, UI_ERROR, "%s", c->error);
	set_current_field(c->box.form, c->box.fields[i]);
	form_driver(c->box.form, REQ_END_LINE);
	return false;
}

static enum ui_result apply(struct ui_wizard *w)
{
	struct workload_spec spec;

	w->custom->spec = w->spec;
	w->custom->spec.preset = w->preset ? w->preset->name : NULL;
	for (size_t i = 0; i < N_FIELDS; i++)
		if (!check_field(w, i))
			return UI_DONE;
	spec = w->custom->spec;
	ui_custom_free(w);
	ui_wizard_set_custom(w, &spec);
	return ui_goto(w, w->has_workload ? UI_SCR_DETECTED : UI_SCR_WORKLOAD);
}

/* Moves to the next or the previous field once the current one is good. */
static enum ui_result next_field(struct ui_wizard *w, int req)
{
	struct ui_custom *c = w->custom;

	c->spec = w->spec;
	if (check_field(w, (size_t)field_index(current_field(c->box.form)))) {
		form_driver(c->box.form, req);
		form_driver(c->box.form, REQ_END_LINE);
	}
	return UI_DONE;
}

static enum ui_result custom_key(struct ui_wizard *w, int action, int ch)
{
	switch (action) {
	case C_APPLY:
		return apply(w);
	case C_CANCEL:
	case UI_ACT_BACK:
		ui_custom_free(w);
		ui_message(w, UI_DIM, "cancelled");
		return ui_goto(w, UI_SCR_WORKLOAD);
	case C_NEXT:
		return next_field(w, REQ_NEXT_FIELD);
	case C_PREV:
		return next_field(w, REQ_PREV_FIELD);
	default:
		ui_formbox_edit(&w->custom->box, action, ch);
		return UI_DONE;
	}
}

const struct ui_screen ui_screen_custom = {
	.name = NULL,
	.help_intro = "Each value is read as the command line's flag of the same name reads it "
		      "(--file-size, --files, --files-per-dir, --access, --io-size, --io-mode, "
		      "--sync-heavy); a bad one is refused with what is accepted. The values start as "
		      "the workload facts are now.",
	.keys = custom_keys,
	.takes_text = true,
	.init = custom_init,
	.draw = custom_draw,
	.key = custom_key,
	.window = custom_window,
};
