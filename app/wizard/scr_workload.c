/* Step 2, Workload: the preset chosen from a list (workload.h's table); its values are shown for
 * the row under the cursor, and choosing one applies it and evaluates the rules again. */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "app/wizard/ui_int.h"
#include "fstune/units.h"

enum { W_UP = 1, W_DOWN, W_HOME, W_END, W_CHOOSE };

static const struct ui_key workload_keys[] = {
	{KEY_UP, W_UP, "move up", false},
	{'k', W_UP, "move up", false},
	{KEY_DOWN, W_DOWN, "move down", false},
	{'j', W_DOWN, "move down", false},
	{KEY_HOME, W_HOME, "first preset", false},
	{KEY_END, W_END, "last preset", false},
	{'\r', W_CHOOSE, "choose this workload and see what was detected", true},
	{KEY_ENTER, W_CHOOSE, "choose this workload and see what was detected", false},
	{KEY_RIGHT, W_CHOOSE, "choose this workload and see what was detected", false},
	{0, 0, NULL, false},
};

static void workload_init(struct ui_wizard *w)
{
	w->workload_list.n = (int)workload_preset_count;
	if (w->preset)
		w->workload_list.sel = (int)(w->preset - workload_presets);
	else {
		const char *name = w->spec.preset ? w->spec.preset : "general";
		const struct workload_preset *g = workload_preset_find(name);

		w->workload_list.sel = g ? (int)(g - workload_presets) : 0;
	}
	ui_list_clamp(&w->workload_list, (int)workload_preset_count);
}

static void detail_line(int y, int x, int cols, const char *label, const char *value)
{
	ui_put(y, x, 24, ui_attr(UI_DIM), label);
	ui_put(y, x + 24, cols - 24, ui_attr(UI_NORMAL), value);
}

static void draw_preset(const struct workload_preset *p, int y, int x, int cols)
{
	char a[UNITS_BUFSZ], b[UNITS_BUFSZ], line[160];
	const char *access = workload_access_name(p->access), *mode = workload_io_mode_name(p->io_mode);

	snprintf(line, sizeof(line), "%s %s %s (median %s)",
		 units_bytes(a, sizeof(a), p->file_size_min_bytes), ui_glyph->arrow,
		 units_bytes(b, sizeof(b), p->file_size_max_bytes),
		 units_bytes((char[UNITS_BUFSZ]){0}, UNITS_BUFSZ, p->file_size_p50_bytes));
	detail_line(y++, x, cols, "file sizes", line);
	snprintf(line, sizeof(line), "%llu files, %llu per directory", (unsigned long long)p->files_total,
		 (unsigned long long)p->files_per_dir);
	detail_line(y++, x, cols, "files", line);
	snprintf(line, sizeof(line), "%s, %s, requests of %s", access ? access : "?", mode ? mode : "?",
		 units_bytes(a, sizeof(a), p->io_size_bytes));
	detail_line(y++, x, cols, "access", line);
	detail_line(y, x, cols, "fsync per operation", p->sync_heavy ? "yes" : "no");
}

static void workload_draw(struct ui_wizard *w, const struct ui_area *a)
{
	int y = a->top + 2;

	ui_put(a->top, a->left, a->cols, ui_attr(UI_HEADING),
	       "Workload: what will this filesystem hold? Pick the closest preset.");
	for (size_t i = 0; i < workload_preset_count; i++) {
		const struct workload_preset *p = &workload_presets[i];
		bool is_sel = (int)i == w->workload_list.sel;
		attr_t at = ui_attr(is_sel ? UI_SELECTED : UI_NORMAL);
		char name[40];

		if (is_sel)
			ui_fill(y, a->left, a->cols, at);
		snprintf(name, sizeof(name), "%s %-12s", is_sel ? ui_glyph->cursor : " ", p->name);
		ui_put(y, a->left, 16, at | A_BOLD, name);
		ui_put(y, a->left + 16, a->cols - 16, at, p->summary);
		if (w->preset == p)
			ui_put(y, a->left + a->cols - 10, 10, at | A_BOLD, "(chosen)");
		y++;
	}
	y++;
	if (w->spec.has_file_size || w->spec.has_files || w->spec.has_files_per_dir ||
	    w->spec.has_io_size || w->spec.access != WORKLOAD_ACCESS_UNSET ||
	    w->spec.io_mode != WORKLOAD_IO_UNSET || w->spec.sync_heavy >= 0)
		ui_put(y++, a->left, a->cols, ui_attr(UI_DIM),
		       "The command line's workload options apply on top of the preset chosen here.");
	if (w->workload_list.sel >= 0 && (size_t)w->workload_list.sel < workload_preset_count) {
		ui_put(y++, a->left, a->cols, ui_attr(UI_HEADING), "The preset's values");
		draw_preset(&workload_presets[w->workload_list.sel], y, a->left + 2, a->cols - 2);
	}
}

static enum ui_result workload_key(struct ui_wizard *w, int action, int ch)
{
	int rows = (int)workload_preset_count;

	switch (action) {
	case W_UP:
		ui_list_move(&w->workload_list, -1, rows);
		return UI_DONE;
	case W_DOWN:
		ui_list_move(&w->workload_list, 1, rows);
		return UI_DONE;
	case W_HOME:
		ui_list_move(&w->workload_list, INT_MIN, rows);
		return UI_DONE;
	case W_END:
		ui_list_move(&w->workload_list, INT_MAX, rows);
		return UI_DONE;
	case W_CHOOSE:
		ui_wizard_set_preset(w, &workload_presets[w->workload_list.sel]);
		w->next_screen = UI_SCR_DETECTED;
		return UI_GOTO;
	default:
		return UI_DONE;
	}
}

const struct ui_screen ui_screen_workload = {
	.name = "Workload",
	.help_intro = "A preset fills the workload facts (source \"preset\") that the rules read: file "
		      "sizes, files per directory, access pattern, fsync. doc/workload-presets.md gives "
		      "the reasoning behind each value.",
	.keys = workload_keys,
	.init = workload_init,
	.draw = workload_draw,
	.key = workload_key,
};
