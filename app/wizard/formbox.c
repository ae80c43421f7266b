/* A form in a box (formbox.h): the prompt's and the custom workload form's curses form, window and
 * panel, made and freed in one order, and the line editing both give their fields. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/wizard/formbox.h"
#include "lib/xalloc.h"

void ui_formbox_build(struct ui_formbox *b, const struct ui_formbox_shape *shape, size_t n,
		      const char *const *texts)
{
	b->n = n;
	b->cols = COLS;
	b->win = newwin(shape->rows, shape->cols, shape->y, shape->x);
	b->sub = derwin(b->win, (int)n, shape->field_cols, shape->field_y, shape->field_x);
	b->fields = xcalloc(n + 1, sizeof(*b->fields));
	for (size_t i = 0; i < n; i++) {
		b->fields[i] = new_field(1, shape->field_cols, (int)i, 0, 0, 0);
		/* O_BLANK would erase the field when a key is typed at its start (after Home) */
		field_opts_off(b->fields[i], shape->opts_off | O_BLANK);
		if (shape->max_chars)
			set_max_field(b->fields[i], shape->max_chars);
		set_field_back(b->fields[i], A_UNDERLINE);
		set_field_buffer(b->fields[i], 0, texts[i]);
	}
	b->form = new_form(b->fields);
	/* Backspace at a field's start stays there: overloaded, it went to the previous field (from the
	 * first, to the last), and the next key typed replaced that field's value. */
	form_opts_off(b->form, O_BS_OVERLOAD | O_NL_OVERLOAD);
	set_form_win(b->form, b->win);
	set_form_sub(b->form, b->sub);
	keypad(b->win, TRUE);
	b->panel = new_panel(b->win);
	post_form(b->form);
}

void ui_formbox_free(struct ui_formbox *b)
{
	unpost_form(b->form);
	free_form(b->form);
	for (size_t i = 0; i < b->n; i++)
		free_field(b->fields[i]);
	free(b->fields);
	del_panel(b->panel);
	delwin(b->sub);
	delwin(b->win);
}

void ui_formbox_text(const struct ui_formbox *b, size_t i, char *buf, size_t len)
{
	const char *text = field_buffer(b->fields[i], 0);
	size_t n;

	snprintf(buf, len, "%s", text ? text : "");
	for (n = strlen(buf); n > 0 && buf[n - 1] == ' '; n--)
		buf[n - 1] = '\0';
}

void ui_formbox_draw(const struct ui_formbox *b, int title_y, const char *title, int keys_y,
		     const char *keys)
{
	ui_box(b->win, ui_attr(UI_HEADING));
	wattron(b->win, ui_attr(UI_HEADING));
	mvwaddstr(b->win, title_y, 2, title);
	wattroff(b->win, ui_attr(UI_HEADING));
	wattron(b->win, ui_attr(UI_DIM));
	mvwaddnstr(b->win, keys_y, 2, keys, getmaxx(b->win) - 4);
	wattroff(b->win, ui_attr(UI_DIM));
	touchwin(b->win);
	pos_form_cursor(b->form);
	curs_set(1);
}

bool ui_formbox_edit(struct ui_formbox *b, int action, int ch)
{
	static const int requests[] = {
		[UI_EDIT_LEFT] = REQ_PREV_CHAR,     [UI_EDIT_RIGHT] = REQ_NEXT_CHAR,
		[UI_EDIT_HOME] = REQ_BEG_LINE,      [UI_EDIT_END] = REQ_END_LINE,
		[UI_EDIT_BACKSPACE] = REQ_DEL_PREV, [UI_EDIT_DELETE] = REQ_DEL_CHAR,
		[UI_EDIT_CLEAR] = REQ_CLR_FIELD,
	};

	if (action == UI_ACT_TEXT)
		form_driver_w(b->form, OK, (wchar_t)ch);
	else if (action >= UI_EDIT_LEFT && action <= UI_EDIT_CLEAR)
		form_driver(b->form, requests[action]);
	else
		return false;
	return true;
}
