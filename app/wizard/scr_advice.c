/* Step 4, Advice: the recommendations grouped by disruption (the report's groups, in its order),
 * coloured by severity; Enter opens one in the detail screen (view_detail.c). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/render/report_render.h"
#include "app/wizard/ui_int.h"
#include "lib/xalloc.h"

enum { A_OPEN = UI_ACT_SCREEN, A_SAVE, A_TRIAL };

static const struct ui_key advice_keys[] = {
	UI_KEYS_UP_DOWN("previous recommendation", "next recommendation"),
	UI_KEYS_PAGES("page up", "page down"),
	{KEY_HOME, UI_MOVE_HOME, "first", false},
	{KEY_END, UI_MOVE_END, "last", false},
	{'\r', A_OPEN, "open: rationale, evidence, apply and revert commands", true},
	{KEY_RIGHT, A_OPEN, "open: rationale, evidence, apply and revert commands", false},
	{'s', A_SAVE, "save the report", true},
	{'t', A_TRIAL, "settle this reformat advice by trial: its mkfs against the defaults, on a 1 GiB image", true},
	{0, 0, NULL, false},
};

static bool is_heading(const json_t *row) { return json_object_get(row, "group") != NULL; }
/* A further line of the title of the recommendation above: {"cont": line number, "rec": row}. */
static bool is_continuation(const json_t *row) { return json_object_get(row, "cont") != NULL; }
static bool is_selectable(const json_t *row) { return row && !is_heading(row) && !is_continuation(row); }

/* The title column of a recommendation row in `cols` cells, and the id's width beside it. */
static int title_width(const json_t *rec, int cols, int *idw)
{
	const char *id = json_string_value(json_object_get(rec, "id"));

	*idw = id ? ui_text_width(id) : 0;
	if (*idw > cols / 3)
		*idw = cols / 3;
	return cols - 11 - *idw - 1;
}

/* Line `k` of a recommendation's title wrapped to its column (an empty string past the end); a
 * long title is read whole, on as many rows as it needs. Caller frees. */
static char *title_line(const json_t *rec, int cols, size_t k, size_t *n_lines)
{
	const char *title = json_string_value(json_object_get(rec, "title"));
	int idw, tw = title_width(rec, cols, &idw);
	size_t n;
	char **lines = ui_wrap(title ? title : "(untitled)", tw > 8 ? tw : 8, &n);
	char *out = xstrdup(k < n ? lines[k] : "");

	ui_lines_free(lines, n);
	if (n_lines)
		*n_lines = n;
	return out;
}

static void advice_init(struct ui_wizard *w)
{
	json_decref(w->advice_rows);
	w->advice_rows = json_array();
	if (w->session && w->session->is_evaluated)
		for (size_t g = 0; g < report_n_groups; g++) {
			json_t *members = report_group_members(w->session, &report_groups[g]);
			size_t i;
			json_t *rec;

			if (json_array_size(members) > 0)
				json_array_append_new(w->advice_rows, json_pack("{s:I}", "group", (json_int_t)g));
			json_array_foreach(members, i, rec) {
				size_t at = json_array_size(w->advice_rows), n = 1;

				json_array_append(w->advice_rows, rec);
				free(title_line(rec, COLS - 2, 0, &n));
				for (size_t k = 1; k < n; k++)
					json_array_append_new(w->advice_rows,
							      json_pack("{s:I, s:I}", "cont", (json_int_t)k, "rec",
									(json_int_t)at));
			}
			json_decref(members);
		}
	w->advice_list.n = (int)json_array_size(w->advice_rows);
	if (w->advice_list.sel < 0 || w->advice_list.sel >= w->advice_list.n ||
	    !is_selectable(json_array_get(w->advice_rows, (size_t)w->advice_list.sel)))
		w->advice_list.sel = w->advice_list.n > 1 ? 1 : 0;
}

static int list_rows(void) { return LINES - 3 - 4; }

static void draw_rec(const json_t *rec, int y, int x, int cols, bool is_sel)
{
	const char *sev = json_string_value(json_object_get(rec, "severity"));
	const char *id = json_string_value(json_object_get(rec, "id"));
	attr_t base = ui_row_bar(y, x, cols, is_sel);
	char label[16], *title = title_line(rec, cols, 0, NULL);
	int idw, tw = title_width(rec, cols, &idw);

	ui_put(y, x, 2, base, is_sel ? ui_glyph->cursor : " ");
	snprintf(label, sizeof(label), "%-8s", report_severity_label(sev));
	ui_put(y, x + 2, 9, is_sel ? base | A_BOLD : ui_attr(ui_severity_role(sev)), label);
	ui_put(y, x + 11, tw, base, title);
	if (id)
		ui_put(y, x + cols - idw, idw, is_sel ? base : ui_attr(UI_DIM), id);
	free(title);
}

static void draw_continuation(const json_t *rec, size_t k, int y, int x, int cols, bool is_sel)
{
	attr_t base = ui_row_bar(y, x, cols, is_sel);
	char *text = title_line(rec, cols, k, NULL);
	int idw, tw = title_width(rec, cols, &idw);

	ui_put(y, x + 11, tw, base, text);
	free(text);
}

/* The numbers a recommendation rests on that were measured (benchmarks, a sample, an observation,
 * a trial), as "key = value [source]" joined, for the line under the list. */
struct measured {
	char text[512];
	size_t n;
};

static bool is_measured(const char *source)
{
	static const char *const measured_sources[] = {"bench", "sample", "observe", "trial"};

	for (size_t i = 0; source && i < sizeof(measured_sources) / sizeof(measured_sources[0]); i++)
		if (!strcmp(source, measured_sources[i]))
			return true;
	return false;
}

static void add_measured(const struct report_evidence *ev, void *arg)
{
	struct measured *m = arg;
	size_t len = strlen(m->text);

	if (ev->unavailable || !is_measured(ev->source))
		return;
	snprintf(m->text + len, sizeof(m->text) - len, "%s%s = %s [%s]", m->n ? "; " : "", ev->key,
		 ev->value ? ev->value : "?", ev->source);
	m->n++;
}

static void draw_measured(const struct ui_wizard *w, const json_t *rec, int y, const struct ui_area *a)
{
	struct measured m = {"", 0};

	if (!w->session || !rec || json_object_get(rec, "group") || json_object_get(rec, "cont"))
		return;
	report_evidence_foreach(w->session, rec, add_measured, &m);
	if (m.n) {
		ui_put(y, a->left, 10, ui_attr(UI_HEADING), "Measured:");
		ui_put(y, a->left + 10, a->cols - 10, ui_attr(UI_NORMAL), m.text);
	} else
		ui_put(y, a->left, a->cols, ui_attr(UI_DIM),
		       "Measured: nothing (it rests on probed or given facts; Enter shows them)");
}

static void advice_draw(struct ui_wizard *w, const struct ui_area *a)
{
	int rows = list_rows(), y = a->top + 2;
	char head[256];
	size_t n = w->session ? json_array_size(w->session->result.recommendations) : 0;

	snprintf(head, sizeof(head), "Advice: %zu recommendation%s (%zu warn or critical); workload: %s",
		 n, n == 1 ? "" : "s",
		 w->session ? session_count_severity_at_least(w->session, "warn") : 0,
		 w->has_workload ? w->workload_label : "general");
	ui_put(a->top, a->left, a->cols, ui_attr(UI_HEADING), head);
	if (n == 0) {
		char *headline = w->session ? report_headline(w->session) : NULL;
		size_t nl = 0;
		char **lines = headline ? ui_wrap(headline, a->cols - 2, &nl) : NULL;

		/* nothing judged is not "nothing to change": the report's headline says why */
		for (size_t i = 0; i < nl && (int)i < rows; i++)
			ui_put(y + (int)i, a->left + 2, a->cols - 2, ui_attr(UI_ERROR), lines[i]);
		if (!headline)
			ui_put(y, a->left + 2, a->cols - 2, ui_attr(UI_OK),
			       "Nothing to change: no rule found anything to recommend on these facts.");
		ui_lines_free(lines, nl);
		free(headline);
	}
	ui_list_clamp(&w->advice_list, rows);
	for (int i = 0; i < rows && w->advice_list.top + i < w->advice_list.n; i++) {
		size_t idx = (size_t)(w->advice_list.top + i);
		const json_t *row = json_array_get(w->advice_rows, idx);

		if (is_heading(row)) {
			const struct report_group *g =
				&report_groups[json_integer_value(json_object_get(row, "group"))];

			ui_put(y + i, a->left, a->cols, ui_attr(UI_HEADING), g->title);
			ui_put(y + i, a->left + ui_text_width(g->title) + 2,
			       a->cols - ui_text_width(g->title) - 2, ui_attr(UI_DIM), g->blurb);
		} else if (is_continuation(row)) {
			json_int_t at = json_integer_value(json_object_get(row, "rec"));

			draw_continuation(json_array_get(w->advice_rows, (size_t)at),
					  (size_t)json_integer_value(json_object_get(row, "cont")), y + i, a->left,
					  a->cols, at == w->advice_list.sel);
		} else
			draw_rec(row, y + i, a->left, a->cols, (int)idx == w->advice_list.sel);
	}
	if (n)
		draw_measured(w, json_array_get(w->advice_rows, (size_t)w->advice_list.sel), a->top + a->rows - 2, a);
	if (w->session) {
		size_t ne = json_array_size(w->session->result.not_evaluated) -
			    report_not_evaluated_hidden(w->session);
		size_t nerr = json_array_size(w->session->result.errors);

		snprintf(head, sizeof(head), "%zu rule%s not evaluated (facts missing), %zu rule error%s: "
			 "see the saved report", ne, ne == 1 ? "" : "s", nerr, nerr == 1 ? "" : "s");
		ui_put(a->top + a->rows - 1, a->left, a->cols, ui_attr(nerr ? UI_ERROR : UI_DIM), head);
	}
}

/* Moves by `delta` rows, skipping group headings in the direction of travel. */
static void advice_move(struct ui_wizard *w, int delta)
{
	struct ui_list *l = &w->advice_list;
	int rows = list_rows(), dir = delta < 0 ? -1 : 1, old = l->sel;

	ui_list_move(l, delta, rows);
	while (l->sel >= 0 && l->sel < l->n && !is_selectable(json_array_get(w->advice_rows, (size_t)l->sel))) {
		if (l->sel + dir < 0 || l->sel + dir >= l->n) {
			dir = -dir;
			if (l->sel == old)
				break;
		}
		l->sel += dir;
	}
	ui_list_clamp(l, rows);
	/* the whole title of the selected recommendation in view, not only its first row */
	for (int end = l->sel + 1; end < l->n && is_continuation(json_array_get(w->advice_rows, (size_t)end)); end++)
		if (end >= l->top + rows && l->top < l->sel)
			l->top++;
	if (l->sel == 1 && l->top == 1)
		l->top = 0; /* keep the first heading in view */
}

static enum ui_result advice_key(struct ui_wizard *w, int action, int ch)
{
	const json_t *row;
	int delta;

	if (ui_move_delta(action, list_rows(), &delta)) {
		advice_move(w, delta);
		return UI_DONE;
	}
	switch (action) {
	case A_OPEN:
		row = json_array_get(w->advice_rows, (size_t)w->advice_list.sel);
		if (!is_selectable(row))
			return UI_DONE;
		ui_view_detail(w, row, COLS - 4);
		return ui_goto(w, UI_SCR_DETAIL);
	case A_SAVE:
		return ui_goto(w, UI_SCR_SAVE);
	case A_TRIAL:
		row = json_array_get(w->advice_rows, (size_t)w->advice_list.sel);
		if (is_selectable(row) && ui_trial_settle(w, row))
			advice_init(w);
		return UI_DONE;
	default:
		return UI_DONE;
	}
}

const struct ui_screen ui_screen_advice = {
	.name = "Advice",
	.help_intro = "Recommendations grouped by what it takes to apply them (now, at remount, "
		      "offline, at the next mkfs), most severe first. Nothing is applied: each opens "
		      "with the exact commands to run, and to undo.",
	.keys = advice_keys,
	.init = advice_init,
	.draw = advice_draw,
	.key = advice_key,
};
