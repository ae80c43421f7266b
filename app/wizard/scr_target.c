/* Step 1, Target: the block devices and mounted filesystems in an lsblk-like list, plus "a
 * directory…"; the row under the cursor says whether and how it can be benchmarked. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/wizard/ui_int.h"
#include "fstune/units.h"

enum { T_CHOOSE = UI_ACT_SCREEN, T_DIR, T_RESCAN };

static const struct ui_key target_keys[] = {
	UI_KEYS_UP_DOWN("move up", "move down"),
	UI_KEYS_PAGES("page up", "page down"),
	UI_KEYS_ENDS("first row", "last row"),
	{'\r', T_CHOOSE, "choose: probe it and go on to the workload", true},
	{KEY_RIGHT, T_CHOOSE, "choose: probe it and go on to the workload", false},
	{'d', T_DIR, "type a directory to examine", true},
	{'r', T_RESCAN, "rescan devices and mounts", true},
	{0, 0, NULL, false},
};

/* Rows of the list: the area minus the heading, the column titles and the three lines below. */
static int list_rows(void) { return LINES - 3 - 6; }

static void target_init(struct ui_wizard *w)
{
	w->target_list.n = (int)w->targets.n;
	ui_list_clamp(&w->target_list, list_rows());
}

static const char *bench_label(enum bench_mode m)
{
	switch (m) {
	case BENCH_MODE_DIRECTORY:
		return "write";
	case BENCH_MODE_DEVICE_READ:
		return "read";
	case BENCH_MODE_NONE:
	default:
		return "-";
	}
}

/* Column widths for the area's width: the model and the mount point take what is left. */
struct cols {
	int name, size, model, tran, rota, fs, bench, mount;
};

static struct cols layout(int width)
{
	struct cols c = {14, 10, 10, 7, 5, 7, 6, 0};
	int rest = width - 2 - (c.name + c.size + c.model + c.tran + c.rota + c.fs + c.bench);

	c.model += rest / 3 - 6 > 0 ? rest / 3 - 6 : 0;
	c.mount = width - 2 - (c.name + c.size + c.model + c.tran + c.rota + c.fs + c.bench);
	return c;
}

static void draw_row(const struct inventory_row *r, bool is_last_child, int y, int x,
		     const struct cols *c, attr_t a)
{
	char size[UNITS_BUFSZ], name[64];
	const char *branch = !r->depth ? "" : is_last_child ? ui_glyph->tree_last : ui_glyph->tree_mid;

	if (r->is_any_directory)
		snprintf(name, sizeof(name), "a directory%s", ui_glyph->ellipsis);
	else
		snprintf(name, sizeof(name), "%s%s", branch, r->name);
	if (r->size >= 0)
		units_bytes(size, sizeof(size), (uint64_t)r->size);
	else
		snprintf(size, sizeof(size), "-");
	ui_put(y, x, c->name - 1, a, name);
	x += c->name;
	ui_put(y, x, c->size - 1, a, r->is_any_directory ? "" : size);
	x += c->size;
	ui_put(y, x, c->model - 1, a, r->model ? r->model : "");
	x += c->model;
	ui_put(y, x, c->tran - 1, a, r->transport ? r->transport : "");
	x += c->tran;
	ui_put(y, x, c->rota - 1, a, r->rotational < 0 ? "" : r->rotational ? "1" : "0");
	x += c->rota;
	ui_put(y, x, c->fs - 1, a, r->is_fs_pending ? ui_glyph->ellipsis : r->fstype ? r->fstype : "");
	x += c->fs;
	ui_put(y, x, c->bench - 1, a, r->is_any_directory ? "" : bench_label(r->bench));
	x += c->bench;
	ui_put(y, x, c->mount, a, r->mount_point ? r->mount_point : "");
}

static void draw_header(int y, int x, const struct cols *c)
{
	const char *titles[] = {"NAME", "SIZE", "MODEL", "TRAN", "ROTA", "FSTYPE", "BENCH", "MOUNTPOINT"};
	const int widths[] = {c->name, c->size, c->model, c->tran, c->rota, c->fs, c->bench, c->mount};

	for (size_t i = 0; i < sizeof(titles) / sizeof(titles[0]); i++) {
		ui_put(y, x, widths[i] - 1, ui_attr(UI_DIM), titles[i]);
		x += widths[i];
	}
}

static void target_draw(struct ui_wizard *w, const struct ui_area *a)
{
	struct cols c = layout(a->cols);
	int rows = list_rows(), y = a->top + 2, x = a->left;
	const struct inventory_row *sel;

	ui_put(a->top, x, a->cols, ui_attr(UI_HEADING),
	       w->facts_file ? "Target: the saved facts (nothing is probed)"
			     : "Target: pick a device, a mounted filesystem or a directory");
	ui_list_clamp(&w->target_list, rows);
	draw_header(a->top + 1, x + 2, &c);
	for (int i = 0; i < rows && w->target_list.top + i < (int)w->targets.n; i++) {
		int idx = w->target_list.top + i;
		bool is_sel = idx == w->target_list.sel;
		attr_t at = ui_row_bar(y + i, x, a->cols, is_sel);

		if (is_sel)
			ui_put(y + i, x, 2, at, ui_glyph->cursor);
		draw_row(&w->targets.v[idx],
			 idx + 1 >= (int)w->targets.n || w->targets.v[idx + 1].depth == 0, y + i, x + 2, &c, at);
	}
	if (w->targets.n == 0)
		return;
	sel = &w->targets.v[w->target_list.sel];
	y = a->top + a->rows - 3;
	ui_put(y, x, a->cols, ui_attr(UI_DIM), "Benchmarks:");
	{
		size_t n;
		char **why = ui_wrap(sel->why ? sel->why : "", a->cols - 13, &n);

		for (size_t i = 0; i < n && i < 2; i++)
			ui_put(y + (int)i, x + 12, a->cols - 12,
			       ui_attr(sel->bench == BENCH_MODE_NONE ? UI_UNAVAILABLE : UI_OK), why[i]);
		ui_lines_free(why, n);
	}
}

/* Probes `arg` (a row's or the directory typed) and goes on to the workload. */
static enum ui_result open_target(struct ui_wizard *w, const char *arg)
{
	return ui_prompt_directory_done(w, arg, ui_wizard_open_target, UI_SCR_WORKLOAD);
}

static enum ui_result target_key(struct ui_wizard *w, int action, int ch)
{
	int rows = list_rows();
	const struct inventory_row *r;
	char cwd[4096];

	if (ui_list_key(&w->target_list, action, rows))
		return UI_DONE;
	switch (action) {
	case T_RESCAN:
		if (w->facts_file)
			return UI_DONE;
		inventory_scan(&w->targets);
		w->has_idle_work = true;
		w->target_list.n = (int)w->targets.n;
		ui_list_clamp(&w->target_list, rows);
		ui_message(w, UI_OK, "%zu rows", w->targets.n);
		return UI_DONE;
	case T_DIR:
		if (w->facts_file) {
			ui_message(w, UI_ERROR, "--facts: the target is the saved facts; nothing is probed");
			return UI_DONE;
		}
		if (!getcwd(cwd, sizeof(cwd)))
			snprintf(cwd, sizeof(cwd), "/");
		return ui_prompt_open(w, "Directory to examine", cwd, open_target);
	case T_CHOOSE:
		if (w->targets.n == 0)
			return UI_DONE;
		r = &w->targets.v[w->target_list.sel];
		if (w->facts_file)
			return ui_goto(w, UI_SCR_WORKLOAD);
		if (r->is_any_directory)
			return target_key(w, T_DIR, ch);
		return open_target(w, r->arg);
	default:
		return UI_DONE;
	}
}

const struct ui_screen ui_screen_target = {
	.name = "Target",
	.help_intro = "Devices and filesystems as lsblk shows them. BENCH says what a benchmark could "
		      "do there: write (a writable directory), read (an unmounted device: reads only), "
		      "- (nothing, and the line below says why).",
	.keys = target_keys,
	.init = target_init,
	.draw = target_draw,
	.key = target_key,
};
