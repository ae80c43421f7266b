/* Step 4, Advice: the recommendations grouped by disruption (the report's groups, in its order),
 * coloured by severity; Enter opens one in the detail screen (scr_detail.c). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/render/report_model.h"
#include "app/render/report_render.h"
#include "app/wizard/ui_int.h"
#include "lib/xalloc.h"

enum { A_OPEN = UI_ACT_SCREEN, A_SAVE, A_TRIAL };

static const struct ui_key advice_keys[] = {
	UI_KEYS_UP_DOWN("previous recommendation", "next recommendation"),
	UI_KEYS_PAGES("page up", "page down"),
	UI_KEYS_ENDS("first", "last"),
	UI_KEYS_ENTER_OR(KEY_RIGHT, A_OPEN, "open: rationale, evidence, apply and revert commands"),
	{'s', A_SAVE, "save the report", true},
	{'t', A_TRIAL, "settle this reformat advice by trial: its mkfs against the defaults, on a 1 GiB image", true},
	{0, 0, NULL, false},
};

static bool is_heading(const struct ui_advice_row *row) { return row->group || row->is_stale_heading; }
static bool is_continuation(const struct ui_advice_row *row) { return !is_heading(row) && row->line > 0; }
static bool is_selectable(const struct ui_advice_row *row) { return row && !is_heading(row) && row->line == 0; }
/* A recommendation's row (not a stale entry's). */
static bool is_rec(const struct ui_advice_row *row) { return is_selectable(row) && row->rec; }

static const struct ui_advice_row *row_at(const struct ui_wizard *w, int i)
{
	return i >= 0 && i < w->advice_list.n ? &w->advice_rows[i] : NULL;
}

/* The title column of a recommendation row in `cols` cells, and the id's width beside it. */
static int title_width(const struct report_rec *rec, int cols, int *idw)
{
	*idw = rec->id ? ui_text_width(rec->id) : 0;
	if (*idw > cols / 3)
		*idw = cols / 3;
	return cols - 11 - *idw - 1;
}

/* Line `k` of a recommendation's title wrapped to its column (an empty string past the end); a
 * long title is read whole, on as many rows as it needs. An accepted finding's starts so. Caller
 * frees. */
static char *title_line(const struct report_rec *rec, int cols, size_t k, size_t *n_lines)
{
	int idw, tw = title_width(rec, cols, &idw);
	size_t n;
	char *title = xasprintf("%s%s", rec->accepted ? "accepted: " : "", rec->title ? rec->title : "(untitled)");
	char **lines = ui_wrap(title, tw > 8 ? tw : 8, &n);
	char *out = xstrdup(k < n ? lines[k] : "");

	ui_lines_free(lines, n);
	free(title);
	if (n_lines)
		*n_lines = n;
	return out;
}

static void add_row(struct ui_wizard *w, struct ui_advice_row row)
{
	int n = w->advice_list.n++;

	w->advice_rows = xrealloc(w->advice_rows, (size_t)(n + 1) * sizeof(*w->advice_rows));
	w->advice_rows[n] = row;
}

/* Each group that has recommendations: its heading, then each recommendation on as many rows as
 * its title needs. */
static void add_groups(struct ui_wizard *w, const struct report_model *m)
{
	for (size_t g = 0; g < m->n_groups; g++) {
		const struct report_rec_group *rg = &m->groups[g];

		if (rg->n > 0)
			add_row(w, (struct ui_advice_row){.group = rg});
		for (size_t i = 0; i < rg->n; i++) {
			int at = w->advice_list.n;
			size_t n = 1;

			add_row(w, (struct ui_advice_row){.rec = rg->recs[i], .at = at});
			free(title_line(rg->recs[i], COLS - 2, 0, &n));
			for (size_t k = 1; k < n; k++)
				add_row(w, (struct ui_advice_row){.rec = rg->recs[i], .line = k, .at = at});
		}
	}
	if (m->n_stale)
		add_row(w, (struct ui_advice_row){.is_stale_heading = true});
	for (size_t i = 0; i < m->n_stale; i++)
		add_row(w, (struct ui_advice_row){.stale = &m->stale[i], .at = w->advice_list.n});
}

static void advice_init(struct ui_wizard *w)
{
	report_model_free(w->advice_model);
	free(w->advice_rows);
	w->advice_model = w->session ? report_model_new(w->session) : NULL;
	w->advice_rows = NULL;
	w->advice_list.n = 0;
	if (w->advice_model && w->session->is_evaluated)
		add_groups(w, w->advice_model);
	if (w->advice_list.sel < 0 || w->advice_list.sel >= w->advice_list.n ||
	    !is_selectable(row_at(w, w->advice_list.sel)))
		w->advice_list.sel = w->advice_list.n > 1 ? 1 : 0;
}

static int list_rows(void) { return LINES - 3 - 4; }

static void draw_rec(const struct report_rec *rec, int y, int x, int cols, bool is_sel)
{
	attr_t base = ui_row_bar(y, x, cols, is_sel);
	char label[16], *title = title_line(rec, cols, 0, NULL);
	int idw, tw = title_width(rec, cols, &idw);

	ui_put(y, x, 2, base, is_sel ? ui_glyph->cursor : " ");
	snprintf(label, sizeof(label), "%-8s", report_severity_label(rec->severity));
	/* an accepted finding keeps its severity, dimmed: it no longer counts for --fail-on */
	ui_put(y, x + 2, 9, is_sel ? base | A_BOLD : rec->accepted ? ui_attr(UI_DIM) : ui_attr(ui_severity_role(rec->severity)),
	       label);
	ui_put(y, x + 11, tw, base, title);
	if (rec->id)
		ui_put(y, x + cols - idw, idw, is_sel ? base : ui_attr(UI_DIM), rec->id);
	free(title);
}

/* "stale     mount.lazytime (accepted.conf:3): no loaded rule makes it": the entry and why. */
static void draw_stale(const struct report_stale *e, int y, int x, int cols, bool is_sel)
{
	attr_t base = ui_row_bar(y, x, cols, is_sel);
	char *text = xasprintf("%s (%s): %s", e->id ? e->id : "?", e->by ? e->by : "?", e->reason ? e->reason : "");

	ui_put(y, x, 2, base, is_sel ? ui_glyph->cursor : " ");
	ui_put(y, x + 2, 9, is_sel ? base | A_BOLD : ui_attr(UI_DIM), "stale");
	ui_put(y, x + 11, cols - 11, base, text);
	free(text);
}

static void draw_continuation(const struct report_rec *rec, size_t k, int y, int x, int cols, bool is_sel)
{
	attr_t base = ui_row_bar(y, x, cols, is_sel);
	char *text = title_line(rec, cols, k, NULL);
	int idw, tw = title_width(rec, cols, &idw);

	ui_put(y, x + 11, tw, base, text);
	free(text);
}

static bool is_measured(const char *source)
{
	static const char *const measured_sources[] = {"bench", "sample", "observe", "trial"};

	for (size_t i = 0; source && i < sizeof(measured_sources) / sizeof(measured_sources[0]); i++)
		if (!strcmp(source, measured_sources[i]))
			return true;
	return false;
}

/* The numbers a recommendation rests on that were measured (benchmarks, a sample, an observation,
 * a trial), as "key = value [source]" joined, on the line under the list. */
static void draw_measured(const struct ui_advice_row *row, int y, const struct ui_area *a)
{
	char text[512] = "";
	size_t n = 0, len;

	if (!is_rec(row))
		return;
	for (size_t i = 0; i < row->rec->n_evidence; i++) {
		const struct report_evidence *ev = &row->rec->evidence[i];

		if (ev->unavailable || !is_measured(ev->source))
			continue;
		len = strlen(text);
		snprintf(text + len, sizeof(text) - len, "%s%s = %s [%s]", n ? "; " : "", ev->key,
			 ev->value ? ev->value : "?", ev->source);
		n++;
	}
	if (n) {
		ui_put(y, a->left, 10, ui_attr(UI_HEADING), "Measured:");
		ui_put(y, a->left + 10, a->cols - 10, ui_attr(UI_NORMAL), text);
	} else
		ui_put(y, a->left, a->cols, ui_attr(UI_DIM),
		       "Measured: nothing (it rests on probed or given facts; Enter shows them)");
}

/* Nothing judged is not "nothing to change": the report's headline says why. */
static void draw_empty(const struct report_model *m, int y, int rows, const struct ui_area *a)
{
	size_t nl = 0;
	char **lines = m && m->headline ? ui_wrap(m->headline, a->cols - 2, &nl) : NULL;

	for (size_t i = 0; i < nl && (int)i < rows; i++)
		ui_put(y + (int)i, a->left + 2, a->cols - 2, ui_attr(UI_ERROR), lines[i]);
	if (!m || !m->headline)
		ui_put(y, a->left + 2, a->cols - 2, ui_attr(UI_OK),
		       "Nothing to change: no rule found anything to recommend on these facts.");
	ui_lines_free(lines, nl);
}

/* `idx` is a row of the list (0..n-1). */
static void draw_row(const struct ui_wizard *w, int idx, int y, const struct ui_area *a)
{
	const struct ui_advice_row *row = &w->advice_rows[idx];

	if (row->is_stale_heading) {
		ui_put(y, a->left, a->cols, ui_attr(UI_HEADING), "Accepted findings that are stale");
		ui_put(y, a->left + 34, a->cols - 34, ui_attr(UI_DIM), "entries no loaded rule makes: Enter says what to do");
	} else if (is_heading(row)) {
		const struct report_group *g = row->group->def;

		ui_put(y, a->left, a->cols, ui_attr(UI_HEADING), g->title);
		ui_put(y, a->left + ui_text_width(g->title) + 2, a->cols - ui_text_width(g->title) - 2,
		       ui_attr(UI_DIM), g->blurb);
	} else if (row->stale) {
		draw_stale(row->stale, y, a->left, a->cols, idx == w->advice_list.sel);
	} else if (is_continuation(row)) {
		draw_continuation(row->rec, row->line, y, a->left, a->cols, row->at == w->advice_list.sel);
	} else {
		draw_rec(row->rec, y, a->left, a->cols, idx == w->advice_list.sel);
	}
}

/* ", 2 accepted" when the admin accepted any: they stay listed, marked. Static storage. */
static const char *accepted_count(const struct report_model *m)
{
	static char buf[48];
	size_t n = 0;

	for (size_t i = 0; m && i < m->n_recs; i++)
		n += m->recs[i].accepted != NULL;
	snprintf(buf, sizeof(buf), n ? ", %zu accepted" : "", n);
	return buf;
}

/* The line under the heading is blank: a long heading (a custom workload's label) goes on there,
 * and no further, the list starting on the next. */
static void draw_heading(const char *head, const struct ui_area *a)
{
	size_t n;
	char **lines = ui_wrap(head, a->cols, &n);

	for (size_t i = 0; i < n && i < 2; i++)
		ui_put(a->top + (int)i, a->left, a->cols, ui_attr(UI_HEADING), lines[i]);
	ui_lines_free(lines, n);
}

static void advice_draw(struct ui_wizard *w, const struct ui_area *a)
{
	const struct report_model *m = w->advice_model;
	int rows = list_rows(), y = a->top + 2;
	char head[320];
	size_t n = m ? m->n_recs : 0;

	snprintf(head, sizeof(head), "Advice: %zu recommendation%s (%zu warn or critical%s); workload: %s",
		 n, n == 1 ? "" : "s", m ? report_model_count_at_least(m, 2) : 0, accepted_count(m),
		 w->has_workload ? w->workload_label : "general");
	draw_heading(head, a);
	if (n == 0 && (!m || !m->n_stale))
		draw_empty(m, y, rows, a);
	ui_list_clamp(&w->advice_list, rows);
	for (int i = 0; i < rows && w->advice_list.top + i < w->advice_list.n; i++)
		draw_row(w, w->advice_list.top + i, y + i, a);
	if (n)
		draw_measured(row_at(w, w->advice_list.sel), a->top + a->rows - 2, a);
	if (m) {
		size_t ne = m->n_not_evaluated - m->n_not_evaluated_hidden, nerr = m->n_errors;

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
	while (l->sel >= 0 && l->sel < l->n && !is_selectable(row_at(w, l->sel))) {
		if (l->sel + dir < 0 || l->sel + dir >= l->n) {
			dir = -dir;
			if (l->sel == old)
				break;
		}
		l->sel += dir;
	}
	ui_list_clamp(l, rows);
	/* the whole title of the selected recommendation in view, not only its first row */
	for (int end = l->sel + 1; end < l->n && is_continuation(&w->advice_rows[end]); end++)
		if (end >= l->top + rows && l->top < l->sel)
			l->top++;
	if (l->sel == 1 && l->top == 1)
		l->top = 0; /* keep the first heading in view */
}

static enum ui_result advice_key(struct ui_wizard *w, int action, int ch)
{
	const struct ui_advice_row *row = row_at(w, w->advice_list.sel);
	int delta;

	if (ui_move_delta(action, list_rows(), &delta)) {
		advice_move(w, delta);
		return UI_DONE;
	}
	switch (action) {
	case A_OPEN:
		if (!is_selectable(row))
			return UI_DONE;
		if (row->stale)
			ui_view_stale(w, row->stale, COLS - 4);
		else
			ui_view_detail(w, row->rec, COLS - 4);
		return ui_goto(w, UI_SCR_DETAIL);
	case A_SAVE:
		return ui_goto(w, UI_SCR_SAVE);
	case A_TRIAL:
		if (!is_rec(row))
			return UI_DONE;
		if (!ui_trial_applies(w, row->rec) && (!row->rec->disruption || strcmp(row->rec->disruption, "reformat")))
			ui_message(w, UI_ERROR, "t: a trial settles only advice that makes a new filesystem");
		else if (ui_trial_settle(w, row->rec))
			return ui_goto(w, UI_SCR_TRIAL);
		return UI_DONE;
	default:
		return UI_DONE;
	}
}

/* `t` is hinted on advice a trial can settle here, and nowhere else. */
static bool advice_key_applies(const struct ui_wizard *w, int action)
{
	const struct ui_advice_row *row = row_at(w, w->advice_list.sel);

	return action != A_TRIAL || (is_rec(row) && ui_trial_applies(w, row->rec));
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
	.key_applies = advice_key_applies,
};
