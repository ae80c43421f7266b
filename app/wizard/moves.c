/* The moves of lists and scrolling views: what Up, Down, PgUp, PgDn, Home and End do, written once
 * for every screen, and the list's cursor arithmetic under them. */
#include "config.h"

#include <limits.h>

#include "app/wizard/ui_int.h"

bool ui_move_delta(int action, int page, int *delta)
{
	switch (action) {
	case UI_MOVE_UP:
		*delta = -1;
		return true;
	case UI_MOVE_DOWN:
		*delta = 1;
		return true;
	case UI_MOVE_PGUP:
		*delta = -page;
		return true;
	case UI_MOVE_PGDN:
		*delta = page;
		return true;
	case UI_MOVE_HOME:
		*delta = INT_MIN;
		return true;
	case UI_MOVE_END:
		*delta = INT_MAX;
		return true;
	default:
		return false;
	}
}

void ui_list_clamp(struct ui_list *l, int rows)
{
	if (l->n <= 0) {
		l->sel = l->top = 0;
		return;
	}
	if (l->sel >= l->n)
		l->sel = l->n - 1;
	if (l->sel < 0)
		l->sel = 0;
	if (rows < 1)
		rows = 1;
	if (l->sel < l->top)
		l->top = l->sel;
	if (l->sel >= l->top + rows)
		l->top = l->sel - rows + 1;
	if (l->top > l->n - rows)
		l->top = l->n - rows > 0 ? l->n - rows : 0;
	if (l->top < 0)
		l->top = 0;
}

void ui_list_move(struct ui_list *l, int delta, int rows)
{
	if (delta == INT_MIN)
		l->sel = 0;
	else if (delta == INT_MAX)
		l->sel = l->n - 1;
	else
		l->sel += delta;
	ui_list_clamp(l, rows);
}

bool ui_list_key(struct ui_list *l, int action, int rows)
{
	int delta;

	if (!ui_move_delta(action, rows, &delta))
		return false;
	ui_list_move(l, delta, rows);
	return true;
}

bool ui_scroll_key(int *top, int action, int page)
{
	int delta;

	if (!ui_move_delta(action, page, &delta))
		return false;
	if (delta == INT_MIN)
		*top = 0;
	else if (delta == INT_MAX)
		*top = INT_MAX / 2; /* past any end, with room for a move after it */
	else
		*top = *top + delta > 0 ? *top + delta : 0;
	return true;
}

void ui_scroll_clamp(int *top, int n, int rows)
{
	if (*top > n - rows)
		*top = n - rows > 0 ? n - rows : 0;
}

bool ui_view_key(struct ui_view *v, int action) { return ui_scroll_key(&v->top, action, v->rows); }

enum ui_result ui_view_screen_key(struct ui_wizard *w, struct ui_view *v, int action, int go,
				  enum ui_screen_id next)
{
	if (action == go)
		return ui_goto(w, next);
	ui_view_key(v, action);
	return UI_DONE;
}
