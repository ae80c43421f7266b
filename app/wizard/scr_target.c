/* Step 1, Target: the block devices and mounted filesystems in an lsblk-like list, plus "a
 * directory…"; the row under the cursor says whether and how it can be benchmarked. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/wizard/ui_int.h"
#include "fstune/units.h"
#include "lib/xalloc.h"

enum { T_CHOOSE = UI_ACT_SCREEN, T_DIR, T_RESCAN };

static const struct ui_key target_keys[] = {
	UI_KEYS_UP_DOWN("move up", "move down"),
	UI_KEYS_PAGES("page up", "page down"),
	UI_KEYS_ENDS("first row", "last row"),
	UI_KEYS_ENTER_OR(KEY_RIGHT, T_CHOOSE, "choose: probe it and go on to the workload"),
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

/* Column widths for the area's width. */
struct cols {
	int name, size, model, tran, rota, fs, bench, mount;
};

/* The cells a row's name takes (a partition's tree branch and its name). */
static int name_cells(const struct inventory_row *r)
{
	return r->is_any_directory ? 12 : (r->depth ? 2 : 0) + ui_text_width(r->name ? r->name : "");
}

/* `*col` grows toward `need` by what `*spare` has left. */
static void widen(int *col, int need, int *spare)
{
	int more = need - *col;

	if (more > *spare)
		more = *spare;
	if (more > 0) {
		*col += more;
		*spare -= more;
	}
}

/* NAME and MODEL as wide as their longest entries (a blank column takes only its title), the
 * mount point what is left: on a narrow terminal each starts at its least and is cut, on a wide
 * one nothing is. */
static struct cols layout(int width, const struct inventory *t)
{
	struct cols c = {14, 10, 6, 7, 5, 7, 6, 0};
	int name = 5, model = 6, mount = 11, spare;

	for (size_t i = 0; i < t->n; i++) {
		const struct inventory_row *r = &t->v[i];
		int w;

		if ((w = name_cells(r) + 1) > name)
			name = w;
		if (r->model && (w = ui_text_width(r->model) + 1) > model)
			model = w;
		if (r->mount_point && (w = ui_text_width(r->mount_point)) > mount)
			mount = w;
	}
	if (model > 10)
		c.model = 10;
	else
		c.model = model;
	spare = width - 2 - (c.name + c.size + c.model + c.tran + c.rota + c.fs + c.bench) - mount;
	widen(&c.name, name, &spare);
	widen(&c.model, model, &spare);
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

/* What a benchmark could do on the selected row, whole: the list gives up the rows it needs (the
 * reason a filesystem is too full to measure takes several). */
static char **why_lines(const struct ui_wizard *w, int cols, size_t *n)
{
	const struct inventory_row *sel = w->targets.n ? &w->targets.v[w->target_list.sel] : NULL;

	*n = 0;
	return sel ? ui_wrap(sel->why ? sel->why : "", cols - 13, n) : NULL;
}

/* The selected row's name, model and mount point whole when its columns cut one (a narrow terminal);
 * NULL when nothing was cut. Caller frees. */
static char *cut_text(const struct inventory_row *r, const struct cols *c)
{
	bool is_cut = name_cells(r) > c->name - 1 || (r->model && ui_text_width(r->model) > c->model - 1) ||
		      (r->mount_point && ui_text_width(r->mount_point) > c->mount);

	if (!is_cut || r->is_any_directory)
		return NULL;
	return xasprintf("%s%s%s%s%s", r->name ? r->name : "", r->model ? ": " : "", r->model ? r->model : "",
			 r->mount_point ? ", mounted on " : "", r->mount_point ? r->mount_point : "");
}

static void target_draw(struct ui_wizard *w, const struct ui_area *a)
{
	struct cols c = layout(a->cols, &w->targets);
	int rows = list_rows(), y = a->top + 2, x = a->left, room;
	size_t n, nc = 0;
	char **why = why_lines(w, a->cols, &n);
	char *whole = w->targets.n ? cut_text(&w->targets.v[w->target_list.sel], &c) : NULL;
	char **cut = whole ? ui_wrap(whole, a->cols, &nc) : NULL;

	/* the list's rows, less those the lines below need beyond their usual two, keeping three */
	room = a->rows - 2 - 1 - (int)n - (int)nc;
	if ((int)w->targets.n > room && rows > room)
		rows = room > 3 ? room : 3;
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
	if (n) {
		const struct inventory_row *sel = &w->targets.v[w->target_list.sel];
		int top = a->top + a->rows - (int)(n > 2 ? n : 2) - 1 - (int)nc;

		y = top > y + rows ? top : y + rows + 1;
		for (size_t i = 0; i < nc; i++)
			ui_put(y++, x, a->cols, ui_attr(UI_NORMAL), cut[i]);
		ui_put(y, x, a->cols, ui_attr(UI_DIM), "Benchmarks:");
		for (size_t i = 0; i < n && y + (int)i < a->top + a->rows; i++)
			ui_put(y + (int)i, x + 12, a->cols - 12,
			       ui_attr(sel->bench == BENCH_MODE_NONE ? UI_UNAVAILABLE : UI_OK), why[i]);
	}
	ui_lines_free(why, n);
	ui_lines_free(cut, nc);
	free(whole);
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
