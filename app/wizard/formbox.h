/* A form in a box: one-line curses form fields, one under the other, in a boxed window on a panel
 * above the screen that opened it. The prompt and the custom workload form are both one; this is how
 * each is built, drawn, edited, read and freed. */
#ifndef FSTUNE_APP_UI_FORMBOX_H
#define FSTUNE_APP_UI_FORMBOX_H

#include <form.h>
#include <panel.h>

#include "app/wizard/ui_int.h"

struct ui_formbox {
	FORM *form;
	FIELD **fields; /* n of them, then NULL */
	size_t n;
	WINDOW *win;    /* the box */
	WINDOW *sub;    /* the fields' column inside it */
	PANEL *panel;
	int cols;       /* COLS when it was laid out: a resize lays it out again */
};

/* Where the box and its fields go, in cells. */
struct ui_formbox_shape {
	int rows, cols, y, x;   /* the box on the terminal */
	int field_y, field_x;   /* the first field, inside the box; the others under it */
	int field_cols;
	Field_Options opts_off; /* O_AUTOSKIP; O_STATIC too for a field that scrolls sideways */
	int max_chars;          /* a growing field's limit; 0: none */
};

/* Makes `n` fields holding texts[0..n-1] and posts them in a new box on a new panel. */
void ui_formbox_build(struct ui_formbox *b, const struct ui_formbox_shape *shape, size_t n,
		      const char *const *texts);
/* Frees what ui_formbox_build made (not `b`). */
void ui_formbox_free(struct ui_formbox *b);
/* Field `i`'s text, without the padding the form keeps after it, into buf. The current field's
 * edits reach its buffer only once the form validates it (REQ_VALIDATION). */
void ui_formbox_text(const struct ui_formbox *b, size_t i, char *buf, size_t len);
/* The box's edge, its title at row `title_y` and its key hints at row `keys_y`, then the cursor put
 * back in the field: after the caller drew what else the box holds. */
void ui_formbox_draw(const struct ui_formbox *b, int title_y, const char *title, int keys_y,
		     const char *keys);
/* The keys of the line editing ui_formbox_edit does, in a table of the form's keys: `what` names
 * the field in their help ("field", "line"); whether Ctrl-U (clear) is hinted is the form's. The
 * wizard's keys test expands it as it does UI_KEYS_UP_DOWN when it reads the tables. */
#define UI_KEYS_EDIT(what, is_clear_hint)                                                          \
	{KEY_LEFT, UI_EDIT_LEFT, "cursor left", false}, {KEY_RIGHT, UI_EDIT_RIGHT, "cursor right", false}, \
	{KEY_HOME, UI_EDIT_HOME, "start of the " what, false},                                     \
	{1, UI_EDIT_HOME, "start of the " what, false},                                            \
	{KEY_END, UI_EDIT_END, "end of the " what, false},                                         \
	{5, UI_EDIT_END, "end of the " what, false},                                               \
	{KEY_BACKSPACE, UI_EDIT_BACKSPACE, "delete the character before the cursor", false},       \
	{127, UI_EDIT_BACKSPACE, "delete the character before the cursor", false},                 \
	{8, UI_EDIT_BACKSPACE, "delete the character before the cursor", false},                   \
	{KEY_DC, UI_EDIT_DELETE, "delete the character under the cursor", false},                  \
	{21, UI_EDIT_CLEAR, "clear the " what, (is_clear_hint)}
/* Edits the current field for a UI_EDIT_* action or a typed character (UI_ACT_TEXT); false when
 * `action` is neither. */
bool ui_formbox_edit(struct ui_formbox *b, int action, int ch);

#endif
