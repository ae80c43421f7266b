/* The prompt: one line of text (a directory, a file name) in a curses form on a panel above the
 * screen that opened it. Printable keys are text here, so only F1 is global. */
#include "config.h"

#include <form.h>
#include <panel.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/wizard/ui_int.h"
#include "lib/xalloc.h"

enum { P_ACCEPT = 1, P_CANCEL, P_LEFT, P_RIGHT, P_HOME, P_END, P_BACKSPACE, P_DELETE, P_CLEAR };

static const struct ui_key prompt_keys[] = {
	{'\r', P_ACCEPT, "accept", true},
	{KEY_ENTER, P_ACCEPT, "accept", false},
	{27, P_CANCEL, "cancel", true},
	{KEY_LEFT, P_LEFT, "cursor left", false},
	{KEY_RIGHT, P_RIGHT, "cursor right", false},
	{KEY_HOME, P_HOME, "start of the line", false},
	{1, P_HOME, "start of the line", false},
	{KEY_END, P_END, "end of the line", false},
	{5, P_END, "end of the line", false},
	{KEY_BACKSPACE, P_BACKSPACE, "delete the character before the cursor", false},
	{127, P_BACKSPACE, "delete the character before the cursor", false},
	{8, P_BACKSPACE, "delete the character before the cursor", false},
	{KEY_DC, P_DELETE, "delete the character under the cursor", false},
	{21, P_CLEAR, "clear the line", true},
	{0, 0, NULL, false},
};

struct ui_form {
	FORM *form;
	FIELD *fields[2];
	WINDOW *win; /* the box */
	WINDOW *sub; /* the field's line inside it */
	PANEL *panel;
	int cols;    /* COLS when it was laid out */
};

void ui_prompt_free(struct ui_wizard *w)
{
	struct ui_form *f = w->form;

	if (!f)
		return;
	unpost_form(f->form);
	free_form(f->form);
	free_field(f->fields[0]);
	del_panel(f->panel);
	delwin(f->sub);
	delwin(f->win);
	free(f);
	w->form = NULL;
}

/* The cell the cursor is on, counted from the start of the text (a long text scrolls sideways). */
static int form_cursor_cell(const struct ui_form *f)
{
	return f->form->begincol + f->form->curcol;
}

/* (Re)builds the form for the terminal's width, keeping the text typed so far and the cursor on
 * `cell` (at the end of the text when negative). The text comes back without trailing blanks, so a
 * space just typed at the end lives on only as the cursor's place after it. */
static void form_build(struct ui_wizard *w, const char *text, int cell)
{
	struct ui_form *f;
	int cols = COLS - 8, y = LINES / 2 - 2;

	ui_prompt_free(w);
	f = w->form = xcalloc(1, sizeof(*f));
	f->cols = COLS;
	f->win = newwin(5, cols, y, 4);
	f->sub = derwin(f->win, 1, cols - 4, 2, 2);
	f->fields[0] = new_field(1, cols - 4, 0, 0, 0, 0);
	field_opts_off(f->fields[0], O_AUTOSKIP | O_STATIC);
	set_max_field(f->fields[0], (int)sizeof(w->prompt_text) - 1);
	set_field_back(f->fields[0], A_UNDERLINE);
	set_field_buffer(f->fields[0], 0, text);
	f->form = new_form(f->fields);
	set_form_win(f->form, f->win);
	set_form_sub(f->form, f->sub);
	keypad(f->win, TRUE);
	f->panel = new_panel(f->win);
	post_form(f->form);
	if (cell < 0) {
		form_driver(f->form, REQ_END_LINE);
		return;
	}
	form_driver(f->form, REQ_BEG_LINE);
	while (form_cursor_cell(f) < cell && form_driver(f->form, REQ_NEXT_CHAR) == E_OK)
		;
}

/* The field's text without the padding the form keeps after it. */
static void form_text(struct ui_wizard *w)
{
	const char *buf;
	size_t n;

	form_driver(w->form->form, REQ_VALIDATION);
	buf = field_buffer(w->form->fields[0], 0);
	snprintf(w->prompt_text, sizeof(w->prompt_text), "%s", buf ? buf : "");
	n = strlen(w->prompt_text);
	while (n > 0 && w->prompt_text[n - 1] == ' ')
		w->prompt_text[--n] = '\0';
}

WINDOW *ui_prompt_window(struct ui_wizard *w) { return w->form->win; }

enum ui_result ui_prompt_open(struct ui_wizard *w, const char *label, const char *initial,
			      ui_prompt_done_fn done)
{
	w->prompt_label = label;
	snprintf(w->prompt_text, sizeof(w->prompt_text), "%s", initial ? initial : "");
	w->prompt_done = done;
	w->prompt_return = w->screen;
	w->next_screen = UI_SCR_PROMPT;
	return UI_GOTO;
}

static void prompt_init(struct ui_wizard *w)
{
	form_build(w, w->prompt_text, -1);
}

static void prompt_draw(struct ui_wizard *w, const struct ui_area *a)
{
	struct ui_form *f;

	ui_screen_of(w, w->prompt_return)->draw(w, a);
	if (!w->form) {
		form_build(w, w->prompt_text, -1);
	} else if (w->form->cols != COLS) {
		int cell = form_cursor_cell(w->form);

		form_text(w);
		form_build(w, w->prompt_text, cell);
	}
	f = w->form;
	ui_box(f->win, ui_attr(UI_HEADING));
	wattron(f->win, ui_attr(UI_HEADING));
	mvwprintw(f->win, 1, 2, "%s:", w->prompt_label);
	wattroff(f->win, ui_attr(UI_HEADING));
	wattron(f->win, ui_attr(UI_DIM));
	mvwaddstr(f->win, 3, 2, "Enter accept   Esc cancel   Ctrl-U clear   F1 help");
	wattroff(f->win, ui_attr(UI_DIM));
	touchwin(f->win);
	pos_form_cursor(f->form);
	curs_set(1);
}

static enum ui_result finish(struct ui_wizard *w, bool is_accepted)
{
	enum ui_result r = UI_GOTO;

	form_text(w);
	ui_prompt_free(w);
	w->next_screen = w->prompt_return;
	if (is_accepted) {
		w->screen = w->prompt_return; /* the prompt is gone: a long step redraws the screen below */
		r = w->prompt_done(w, w->prompt_text);
		if (r == UI_DONE) {
			w->next_screen = w->prompt_return;
			r = UI_GOTO;
		}
	} else
		ui_message(w, UI_DIM, "cancelled");
	return r;
}

static enum ui_result prompt_key(struct ui_wizard *w, int action, int ch)
{
	FORM *form = w->form ? w->form->form : NULL;

	if (!form)
		return finish(w, false);
	switch (action) {
	case P_ACCEPT:
		return finish(w, true);
	case P_CANCEL:
	case UI_ACT_BACK:
		return finish(w, false);
	case P_LEFT:
		form_driver(form, REQ_PREV_CHAR);
		break;
	case P_RIGHT:
		form_driver(form, REQ_NEXT_CHAR);
		break;
	case P_HOME:
		form_driver(form, REQ_BEG_LINE);
		break;
	case P_END:
		form_driver(form, REQ_END_LINE);
		break;
	case P_BACKSPACE:
		form_driver(form, REQ_DEL_PREV);
		break;
	case P_DELETE:
		form_driver(form, REQ_DEL_CHAR);
		break;
	case P_CLEAR:
		form_driver(form, REQ_CLR_FIELD);
		break;
	case UI_ACT_TEXT:
		form_driver_w(form, OK, (wchar_t)ch);
		break;
	default:
		break;
	}
	return UI_DONE;
}

const struct ui_screen ui_screen_prompt = {
	.name = NULL,
	.help_intro = "Type the text; Enter accepts it.",
	.keys = prompt_keys,
	.takes_text = true,
	.init = prompt_init,
	.draw = prompt_draw,
	.key = prompt_key,
	.window = ui_prompt_window,
};
