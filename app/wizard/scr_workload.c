/* Step 2, Workload: what the facts already say first (a facts file's own description, or the one
 * the last step made), then the presets (workload.h's table), then a custom form, a sample of a
 * directory and an observation of the device. The values of the row under the cursor are shown
 * below the list; choosing a row describes the workload through the session. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "app/render/facts_render.h"
#include "app/wizard/ui_int.h"
#include "fstune/units.h"

enum { W_CHOOSE = UI_ACT_SCREEN };

static const struct ui_key workload_keys[] = {
	UI_KEYS_UP_DOWN("move up", "move down"),
	UI_KEYS_PAGES("page up", "page down"),
	UI_KEYS_ENDS("first row", "last row"),
	UI_KEYS_ENTER_OR(KEY_RIGHT, W_CHOOSE, "choose this workload (or open the form, the sampler, the observer)"),
	{0, 0, NULL, false},
};

enum row_kind { ROW_CURRENT, ROW_PRESET, ROW_CUSTOM, ROW_SAMPLE, ROW_OBSERVE };

struct row {
	enum row_kind kind;
	const struct workload_preset *preset;
};

#define MAX_ROWS 16

/* The rows of the list: the current description only when the facts hold one. */
static int rows_of(const struct ui_wizard *w, struct row *out)
{
	int n = 0;

	if (w->session && facts_get(w->session->facts, "workload"))
		out[n++] = (struct row){ROW_CURRENT, NULL};
	for (size_t i = 0; i < workload_preset_count && n < MAX_ROWS - 3; i++)
		out[n++] = (struct row){ROW_PRESET, &workload_presets[i]};
	out[n++] = (struct row){ROW_CUSTOM, NULL};
	out[n++] = (struct row){ROW_SAMPLE, NULL};
	out[n++] = (struct row){ROW_OBSERVE, NULL};
	return n;
}

static int row_of_preset(const struct row *rows, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (rows[i].kind == ROW_PRESET && name && !strcmp(rows[i].preset->name, name))
			return i;
	return -1;
}

/* The command line's --workload first; else what the facts say; else general. */
static void workload_init(struct ui_wizard *w)
{
	struct row rows[MAX_ROWS];
	int n = rows_of(w, rows), sel = -1;

	w->workload_list.n = n;
	if (w->has_workload)
		sel = 0;
	else if (w->spec.preset)
		sel = row_of_preset(rows, n, w->spec.preset);
	else if (rows[0].kind == ROW_CURRENT)
		sel = 0;
	if (sel < 0)
		sel = row_of_preset(rows, n, "general");
	w->workload_list.sel = sel < 0 ? 0 : sel;
	ui_list_clamp(&w->workload_list, n);
}

static void detail_line(int y, int x, int cols, const char *label, const char *value)
{
	ui_put(y, x, 24, ui_attr(UI_DIM), label);
	ui_put(y, x + 24, cols - 24, ui_attr(UI_NORMAL), value);
}

static void draw_preset(const struct workload_preset *p, int y, int x, int cols)
{
	char a[UNITS_BUFSZ], b[UNITS_BUFSZ], c[UNITS_BUFSZ], line[160];
	const char *access = workload_access_name(p->access), *mode = workload_io_mode_name(p->io_mode);

	snprintf(line, sizeof(line), "%s %s %s (median %s)", units_bytes(a, sizeof(a), p->file_size_min_bytes),
		 ui_glyph->arrow, units_bytes(b, sizeof(b), p->file_size_max_bytes),
		 units_bytes(c, sizeof(c), p->file_size_p50_bytes));
	detail_line(y++, x, cols, "file sizes", line);
	snprintf(line, sizeof(line), "%llu files, %llu per directory", (unsigned long long)p->files_total,
		 (unsigned long long)p->files_per_dir);
	detail_line(y++, x, cols, "files", line);
	snprintf(line, sizeof(line), "%s, %s, requests of %s", access ? access : "?", mode ? mode : "?",
		 units_bytes(a, sizeof(a), p->io_size_bytes));
	detail_line(y++, x, cols, "access", line);
	detail_line(y, x, cols, "fsync per operation", p->sync_heavy ? "yes" : "no");
}

/* A workload fact as text in its schema unit, with its source: "50000 [user]", "0.9% [observe]"
 * (a share is a percentage); "-" when absent. */
static const char *fact_text(const struct facts *f, const char *key, char *buf, size_t len)
{
	const json_t *v = facts_get(f, key);
	const char *src = facts_source(f, key);
	char *text;

	if (!v)
		return "-";
	text = facts_render_value(key, v);
	snprintf(buf, len, "%s   [%s]", text, src ? src : "?");
	free(text);
	return buf;
}

static void draw_current(const struct ui_wizard *w, int y, int x, int cols, int max_rows)
{
	static const struct {
		const char *label, *key;
	} keys[] = {
		{"profile", "workload.profile"},
		{"median file size", "workload.file_size_p50_bytes"},
		{"files", "workload.files_total"},
		{"files per directory", "workload.files_per_dir"},
		{"busy (observed)", "workload.busy_share"},
		{"read share (observed)", "workload.read_share"},
		{"access", "workload.access"},
		{"requests of", "workload.io_size_bytes"},
		{"fsync per operation", "workload.sync_heavy"},
		{"largest file", "workload.file_size_max_bytes"},
	};
	char buf[160];

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]) && max_rows > 0; i++) {
		if (!facts_get(w->session->facts, keys[i].key))
			continue;
		detail_line(y++, x, cols, keys[i].label,
			    fact_text(w->session->facts, keys[i].key, buf, sizeof(buf)));
		max_rows--;
	}
}

static void row_text(const struct ui_wizard *w, const struct row *r, char *name, size_t nlen, char *sum,
		     size_t slen)
{
	const char *why;

	switch (r->kind) {
	case ROW_CURRENT:
		snprintf(name, nlen, "%s", w->has_workload ? "current" : "as given");
		snprintf(sum, slen, "%s", w->has_workload ? w->workload_label : "what the facts file says (kept as it is)");
		return;
	case ROW_PRESET:
		snprintf(name, nlen, "%s", r->preset->name);
		snprintf(sum, slen, "%s", r->preset->summary);
		return;
	case ROW_CUSTOM:
		snprintf(name, nlen, "custom%s", ui_glyph->ellipsis);
		snprintf(sum, slen, "give the sizes, counts and access pattern in a form");
		return;
	case ROW_SAMPLE:
	case ROW_OBSERVE:
		why = ui_wizard_cannot_measure(w, r->kind == ROW_OBSERVE);
		snprintf(name, nlen, "%s%s", r->kind == ROW_SAMPLE ? "sample" : "observe", ui_glyph->ellipsis);
		snprintf(sum, slen, "%s%s", r->kind == ROW_SAMPLE ? "sample a directory: sizes and counts of its files"
								  : "observe the running workload on the device",
			 why ? " (not here)" : "");
		return;
	}
}

static void draw_rows(const struct ui_wizard *w, const struct row *rows, int n, int y, const struct ui_area *a)
{
	for (int i = 0; i < n; i++) {
		char name[48], sum[256];
		attr_t at;

		row_text(w, &rows[i], name, sizeof(name), sum, sizeof(sum));
		at = ui_menu_row(y + i, a, i == w->workload_list.sel, name, 12, 16);
		bool is_chosen = rows[i].kind == ROW_PRESET && w->preset == rows[i].preset && w->has_workload;

		ui_put(y + i, a->left + 16, a->cols - 16 - (is_chosen ? 11 : 0), at, sum);
		if (is_chosen)
			ui_put(y + i, a->left + a->cols - 10, 10, at | A_BOLD, "(chosen)");
	}
}

static void draw_below(const struct ui_wizard *w, const struct row *r, int y, const struct ui_area *a)
{
	const char *why;
	int left = a->top + a->rows - y;

	switch (r->kind) {
	case ROW_CURRENT:
		ui_put(y++, a->left, a->cols, ui_attr(UI_HEADING), "The workload facts now, with their sources");
		draw_current(w, y, a->left + 2, a->cols - 2, left - 1);
		return;
	case ROW_PRESET:
		ui_put(y++, a->left, a->cols, ui_attr(UI_HEADING), "The preset's values");
		draw_preset(r->preset, y, a->left + 2, a->cols - 2);
		return;
	case ROW_CUSTOM:
		ui_put(y, a->left, a->cols, ui_attr(UI_DIM),
		       "Enter opens a form: each value is checked as the command line's flags are.");
		return;
	case ROW_SAMPLE:
	case ROW_OBSERVE:
		why = ui_wizard_cannot_measure(w, r->kind == ROW_OBSERVE);
		ui_put(y, a->left, a->cols, ui_attr(why ? UI_UNAVAILABLE : UI_DIM),
		       why ? why
			   : r->kind == ROW_SAMPLE ? "Reads the tree (nothing is written); Esc stops it, keeping what it saw."
						   : "Watches the device's I/O counters for the seconds you give; Esc ends it early.");
		return;
	}
}

/* The selected row's text whole, wrapped, when its row cut it: the rows it took. */
static int put_whole(int y, const struct ui_area *a, const struct row *r, const struct ui_wizard *w)
{
	char name[48], sum[256];

	row_text(w, r, name, sizeof(name), sum, sizeof(sum));
	return ui_put_wrapped(y, a->left + 2, a->cols - 2, ui_attr(UI_DIM), sum, a->cols - 16 - 11);
}

static void workload_draw(struct ui_wizard *w, const struct ui_area *a)
{
	struct row rows[MAX_ROWS];
	int n = rows_of(w, rows), y = a->top + 2;

	ui_put(a->top, a->left, a->cols, ui_attr(UI_HEADING),
	       "Workload: what will this filesystem hold?");
	w->workload_list.n = n;
	ui_list_clamp(&w->workload_list, n);
	draw_rows(w, rows, n, y, a);
	y += n + 1;
	y += put_whole(y, a, &rows[w->workload_list.sel], w);
	if (workload_spec_is_said(&w->spec))
		ui_put(y++, a->left, a->cols, ui_attr(UI_DIM),
		       "The command line's workload options apply on top of the preset chosen here.");
	draw_below(w, &rows[w->workload_list.sel], y, a);
}

static enum ui_result open_sample(struct ui_wizard *w, const char *dir)
{
	return ui_prompt_directory_done(w, dir, ui_wizard_sample, UI_SCR_SAMPLE);
}

static enum ui_result open_observe(struct ui_wizard *w, const char *text)
{
	struct workload_spec probe = WORKLOAD_SPEC_INIT;
	struct fst_error err = FST_ERROR_INIT;

	if (workload_spec_set_observe(&probe, text, &err) != FST_EXIT_OK) {
		ui_message(w, UI_ERROR, "%s", err.msg);
		return UI_DONE;
	}
	if (ui_wizard_observe(w, probe.observe_s))
		w->workload_list.sel = 0;
	return UI_DONE;
}

static enum ui_result choose(struct ui_wizard *w, const struct row *r)
{
	const char *why;
	const struct probe_target *t = w->session ? w->session->target : NULL;

	switch (r->kind) {
	case ROW_CURRENT:
		ui_wizard_keep_workload(w);
		break;
	case ROW_PRESET:
		ui_wizard_set_preset(w, r->preset);
		break;
	case ROW_CUSTOM:
		return ui_goto(w, UI_SCR_CUSTOM);
	case ROW_SAMPLE:
	case ROW_OBSERVE:
		if ((why = ui_wizard_cannot_measure(w, r->kind == ROW_OBSERVE))) {
			ui_message(w, UI_ERROR, "%s", why);
			return UI_DONE;
		}
		if (r->kind == ROW_OBSERVE)
			return ui_prompt_open(w, "Seconds to observe the device", "30", open_observe);
		return ui_prompt_open(w, "Directory to sample",
				      t && t->mount_point && t->kind != TARGET_DIRECTORY ? t->mount_point
											 : t ? t->path : "/",
				      open_sample);
	}
	if (!w->has_workload)
		return UI_DONE;
	return ui_goto(w, UI_SCR_DETECTED);
}

static enum ui_result workload_key(struct ui_wizard *w, int action, int ch)
{
	struct row rows[MAX_ROWS];
	int n = rows_of(w, rows);

	(void)ch;
	w->workload_list.n = n;
	if (action == W_CHOOSE)
		return choose(w, &rows[w->workload_list.sel]);
	ui_list_key(&w->workload_list, action, n);
	return UI_DONE;
}

const struct ui_screen ui_screen_workload = {
	.name = "Workload",
	.help_intro = "The workload facts the rules read: file sizes, files per directory, access "
		      "pattern, fsync. The first row is what the facts already say (a facts file's own "
		      "description, or what the last choice here described); a preset fills them from "
		      "doc/workload-presets.md; custom takes them from a form; sample measures a "
		      "directory's files; observe watches the device's I/O.",
	.keys = workload_keys,
	.init = workload_init,
	.draw = workload_draw,
	.key = workload_key,
};
