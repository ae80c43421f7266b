/* Step 3, Detected: the facts of the session grouped by branch (device and filesystem first), each
 * with its source; unavailable facts with their status and reason; facts that a warn or critical
 * recommendation names as evidence are marked as problems. Values are shown in the facts schema's
 * units; a wide terminal also shows each fact's label. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/render/facts_render.h"
#include "app/wizard/ui_int.h"
#include "lib/facts_schema.h"
#include "lib/xalloc.h"

enum { D_NEXT = UI_ACT_SCREEN };

static const struct ui_key detected_keys[] = {
	UI_KEYS_SCROLL,
	UI_KEYS_ENTER_OR(KEY_RIGHT, D_NEXT, "go on to the benchmarks"),
	{0, 0, NULL, false},
};

static const struct {
	const char *branch;
	const char *title;
} groups[] = {
	{"device", "Device"},
	{"fs", "Filesystem"},
	{"host", "Host"},
	{"vm", "Writeback and caches (vm)"},
	{"workload", "Workload"},
	{"bench", "Benchmarks"},
	{"freebsd", "FreeBSD"},
	{"trial", "Trial"},
};

/* Fact keys cited as evidence by a warn or critical recommendation of `m` (NULL: none yet). */
static bool is_problem(const struct report_model *m, const char *key)
{
	for (size_t i = 0; m && i < m->n_recs; i++) {
		const struct report_rec *r = &m->recs[i];
		const char *fact = rules_setting_fact(r->setting);

		if (r->severity_rank < 2)
			continue;
		/* the fact the change is about, not every fact the rule read (fs.type told it the
		 * filesystem is ext4; fs.features lacks dir_index) */
		if (fact) {
			if (strcmp(fact, key) == 0)
				return true;
			continue;
		}
		for (size_t j = 0; j < r->n_evidence; j++)
			if (strcmp(r->evidence[j].key, key) == 0)
				return true;
	}
	return false;
}

struct walk {
	struct ui_wizard *w;
	const struct report_model *report; /* the advice, for the marks; NULL before the rules ran */
	const char *branch;
	size_t prefix;
	int count;
};

/* Terminals at least this wide show each fact's label (from the facts schema) after its source. */
#define LABEL_COLS 100
#define KEY_COLS 29    /* the key and a blank */
#define SOURCE_COLS 13 /* "[mountinfo]" and blanks */

/* `text` and blanks up to `cells` display cells, appended to `buf` (of `len` bytes). */
static void append_cell(char *buf, size_t len, const char *text, int cells)
{
	size_t at = strlen(buf);

	snprintf(buf + at, len - at, "%s", text);
	for (int w = ui_text_width(text); w < cells && strlen(buf) + 1 < len; w++)
		strcat(buf, " ");
}

/* A fact's row in columns, the key, its value, where it came from and its label (NULL: none),
 * each wrapped in its own column: a long value (a UUID, a feature list, a path) is read whole, on
 * as many lines as it needs, and the columns after it stay in place. */
static void add_columns(struct ui_lines *out, enum ui_role role, bool problem, const char *cell[4])
{
	int rest = COLS - 4 - 2 - KEY_COLS - SOURCE_COLS; /* the area, the indent, the mark */
	int vw = rest, widths[4];
	char **lines[4];
	size_t n[4], rows = 0;

	if (cell[3]) {
		vw = rest - 40 < 28 ? 28 : rest - 40 > 60 ? 60 : rest - 40;
		widths[3] = rest - vw;
	}
	widths[0] = KEY_COLS, widths[1] = vw, widths[2] = SOURCE_COLS;
	for (int c = 0; c < 4; c++) {
		lines[c] = cell[c] ? ui_wrap(cell[c], widths[c] - 1, &n[c]) : NULL;
		if (!cell[c])
			n[c] = 0;
		rows = n[c] > rows ? n[c] : rows;
	}
	for (size_t r = 0; r < rows; r++) {
		char text[1024] = "";

		append_cell(text, sizeof(text), r == 0 && problem ? "!" : " ", 2);
		for (int c = 0; c < 4 && cell[c]; c++)
			append_cell(text, sizeof(text), r < n[c] ? lines[c][r] : "", c + 1 < 4 && cell[c + 1] ? widths[c] : 0);
		ui_lines_add(out, role, 2, "%s", text);
	}
	for (int c = 0; c < 4; c++)
		ui_lines_free(lines[c], n[c]);
}

static void add_fact(const char *key, const json_t *value, void *arg)
{
	struct walk *wk = arg;
	const struct facts_key_info *info;
	const char *source;
	char *text, *where;
	bool problem;

	if (strncmp(key, wk->branch, wk->prefix) != 0 || key[wk->prefix] != '.')
		return;
	info = facts_schema_find(key);
	source = facts_source(wk->w->session->facts, key);
	text = facts_render_value(key, value);
	problem = is_problem(wk->report, key);
	where = xasprintf("[%s]", source ? source : "default");
	add_columns(&wk->w->detected.content, problem ? UI_PROBLEM : UI_NORMAL, problem,
		    (const char *[4]){key + wk->prefix + 1, text, where, COLS >= LABEL_COLS && info ? info->label : NULL});
	free(where);
	free(text);
	wk->count++;
}

/* "? key  status: reason", the reason wrapped under itself: reasons are the whole explanation. */
static void add_reason(struct ui_wizard *w, enum ui_role role, const char *key, const char *status,
		       const char *reason)
{
	char *text = facts_render_unavailable(status, reason);
	size_t n;
	char **lines = ui_wrap(text, COLS - 2 - 33, &n);

	for (size_t i = 0; i < n; i++)
		if (i == 0)
			ui_lines_add(&w->detected.content, role, 2, "? %-28s %s", key, lines[i]);
		else
			ui_lines_add(&w->detected.content, role, 33, "%s", lines[i]);
	ui_lines_free(lines, n);
	free(text);
}

static void add_unavailable(struct ui_wizard *w, const char *branch)
{
	json_t *un = json_object_get(w->session->facts->doc, "unavailable");
	size_t prefix = strlen(branch);
	const char *key;
	json_t *e;

	json_object_foreach(un, key, e) {
		const char *st = json_string_value(json_object_get(e, "status"));
		const char *why = json_string_value(json_object_get(e, "reason"));

		if (strcmp(key, branch) == 0) {
			char *text = facts_render_unavailable(st, why);

			ui_lines_add(&w->detected.content, UI_UNAVAILABLE, 2, "? (the whole branch) %s", text);
			free(text);
		} else if (strncmp(key, branch, prefix) == 0 && key[prefix] == '.') {
			add_reason(w, st && strcmp(st, "failed") == 0 ? UI_PROBLEM : UI_UNAVAILABLE,
				   key + prefix + 1, st, why);
		}
	}
}

void ui_view_detected(struct ui_wizard *w)
{
	const json_t *doc;
	const char *branch;
	json_t *v;
	struct report_model *report;

	ui_lines_clear(&w->detected.content);
	w->detected.laid_cols = COLS;
	if (!w->session)
		return;
	doc = w->session->facts->doc;
	report = w->session->is_evaluated ? report_model_new(w->session) : NULL;
	ui_lines_add(&w->detected.content, UI_DIM, 0,
		     "! named by a warning   ? unavailable (status: reason)   [source of the value]");
	for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
		struct walk wk = {w, report, groups[g].branch, strlen(groups[g].branch), 0};
		bool has_any = json_object_get(doc, groups[g].branch) ||
			       json_object_get(json_object_get(doc, "unavailable"), groups[g].branch);
		size_t before = w->detected.content.n;

		if (!has_any && g >= 4)
			continue;
		ui_lines_add(&w->detected.content, UI_HEADING, 0, "%s", groups[g].title);
		facts_foreach(w->session->facts, add_fact, &wk);
		add_unavailable(w, groups[g].branch);
		if (w->detected.content.n == before + 1)
			ui_lines_add(&w->detected.content, UI_DIM, 2, "(nothing)");
	}
	/* Branches this version does not group, so nothing is hidden. */
	json_object_foreach((json_t *)doc, branch, v) {
		bool is_known = !json_is_object(v);

		for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++)
			if (strcmp(branch, groups[g].branch) == 0)
				is_known = true;
		if (is_known || facts_is_side_member(branch)) {
			continue;
		} else {
			struct walk wk = {w, report, branch, strlen(branch), 0};

			ui_lines_add(&w->detected.content, UI_HEADING, 0, "%s", branch);
			facts_foreach(w->session->facts, add_fact, &wk);
		}
	}
	report_model_free(report);
}

static void detected_init(struct ui_wizard *w)
{
	ui_view_detected(w);
	w->detected.top = 0;
}

static void detected_draw(struct ui_wizard *w, const struct ui_area *a)
{
	struct ui_area body = {a->top + 2, a->left, a->rows - 2, a->cols};
	const char *what = w->session && w->session->target && w->session->target->path
				   ? w->session->target->path
				   : w->facts_file ? w->facts_file : "";
	char head[512];

	if (w->detected.laid_cols != COLS) {
		int top = w->detected.top;

		ui_view_detected(w); /* the columns of the new width */
		w->detected.top = top;
	}
	snprintf(head, sizeof(head), "Detected: %s", what);
	ui_put(a->top, a->left, a->cols, ui_attr(UI_HEADING), head);
	ui_view_draw(&w->detected, &body);
}

static enum ui_result detected_key(struct ui_wizard *w, int action, int ch)
{
	return ui_view_screen_key(w, &w->detected, action, D_NEXT, UI_SCR_BENCH);
}

const struct ui_screen ui_screen_detected = {
	.name = "Detected",
	.help_intro = "Every fact the rules will read, grouped, with the source of each value (sysfs, "
		      "ext2fs, mountinfo, preset, ...). Facts that could not be found are listed with "
		      "their status and reason; facts a warning names are marked with !.",
	.keys = detected_keys,
	.init = detected_init,
	.draw = detected_draw,
	.key = detected_key,
};
