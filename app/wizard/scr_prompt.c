/* The prompt: one line of text (a directory, a file name) in a curses form on a panel above the
 * screen that opened it. Printable keys are text here, so only F1 is global. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "app/wizard/formbox.h"
#include "app/wizard/ui_int.h"
#include "lib/xalloc.h"

enum { P_ACCEPT = UI_ACT_SCREEN, P_CANCEL };

static const struct ui_key prompt_keys[] = {
	{'\r', P_ACCEPT, "accept", true},
	{27, P_CANCEL, "cancel", true},
	UI_KEYS_EDIT("line", true),
	{0, 0, NULL, false},
};

void ui_prompt_free(struct ui_wizard *w)
{
	if (!w->form)
		return;
	ui_formbox_free(w->form);
	free(w->form);
	w->form = NULL;
}

/* The cell the cursor is on, counted from the start of the text (a long text scrolls sideways). */
static int form_cursor_cell(const struct ui_formbox *f)
{
	return f->form->begincol + f->form->curcol;
}

/* (Re)builds the form for the terminal's width, keeping the text typed so far and the cursor on
 * `cell` (at the end of the text when negative). The text comes back without trailing blanks, so a
 * space just typed at the end lives on only as the cursor's place after it. */
static void form_build(struct ui_wizard *w, const char *text, int cell)
{
	int cols = COLS - 8;
	const struct ui_formbox_shape shape = {
		.rows = 5, .cols = cols, .y = LINES / 2 - 2, .x = 4,
		.field_y = 2, .field_x = 2, .field_cols = cols - 4,
		.opts_off = O_AUTOSKIP | O_STATIC, .max_chars = (int)sizeof(w->prompt_text) - 1,
	};
	struct ui_formbox *f;

	ui_prompt_free(w);
	f = w->form = xcalloc(1, sizeof(*f));
	ui_formbox_build(f, &shape, 1, &text);
	if (cell < 0) {
		form_driver(f->form, REQ_END_LINE);
		return;
	}
	form_driver(f->form, REQ_BEG_LINE);
	while (form_cursor_cell(f) < cell && form_driver(f->form, REQ_NEXT_CHAR) == E_OK)
		;
}

/* The field's text, as typed so far, into w->prompt_text. */
static void form_text(struct ui_wizard *w)
{
	form_driver(w->form->form, REQ_VALIDATION);
	ui_formbox_text(w->form, 0, w->prompt_text, sizeof(w->prompt_text));
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

enum ui_result ui_prompt_directory_done(struct ui_wizard *w, const char *dir,
					bool (*step)(struct ui_wizard *w, const char *dir), enum ui_screen_id next)
{
	if (!*dir) {
		ui_message(w, UI_ERROR, "no directory given");
		return UI_DONE;
	}
	if (!step(w, dir))
		return UI_DONE;
	return ui_goto(w, next);
}

static void prompt_init(struct ui_wizard *w)
{
	form_build(w, w->prompt_text, -1);
}

static void prompt_draw(struct ui_wizard *w, const struct ui_area *a)
{
	char *title;

	ui_screen_of(w, w->prompt_return)->draw(w, a);
	if (!w->form) {
		form_build(w, w->prompt_text, -1);
	} else if (w->form->cols != COLS) {
		int cell = form_cursor_cell(w->form);

		form_text(w);
		form_build(w, w->prompt_text, cell);
	}
	title = xasprintf("%s:", w->prompt_label);
	ui_formbox_draw(w->form, 1, title, 3, "Enter accept   Esc cancel   Ctrl-U clear   F1 help");
	free(title);
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
	if (!w->form)
		return finish(w, false);
	switch (action) {
	case P_ACCEPT:
		return finish(w, true);
	case P_CANCEL:
	case UI_ACT_BACK:
		return finish(w, false);
	default:
		ui_formbox_edit(w->form, action, ch);
		return UI_DONE;
	}
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
