/* The busy box: a long step that runs inside the loop (sampling a tree, observing the disk) shows
 * its progress in a box over the screen it was started from, redrawn from the step's callback; Esc
 * read between two updates asks the step to stop. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "app/wizard/ui_int.h"

#define BOX_ROWS 6

bool ui_busy_update(struct ui_wizard *w, double fraction, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->busy.line, sizeof(w->busy.line), fmt, ap);
	va_end(ap);
	w->busy.fraction = fraction;
	w->busy.is_on = true;
	ui_redraw(w);
	return !ui_poll_cancel();
}

void ui_busy_draw(const struct ui_wizard *w)
{
	int cols = COLS - 8, y = LINES / 2 - BOX_ROWS / 2, x = 4;

	for (int r = 0; r < BOX_ROWS; r++)
		ui_fill(y + r, x, cols, ui_attr(UI_NORMAL));
	ui_frame(stdscr, y, x, BOX_ROWS, cols, ui_attr(UI_HEADING));
	ui_put(y, x + 2, cols - 4, ui_attr(UI_HEADING), w->busy.title);
	ui_put(y + 2, x + 2, cols - 4, ui_attr(UI_NORMAL), w->busy.line);
	if (w->busy.fraction >= 0)
		ui_hbar(y + 3, x + 2, cols - 4, ui_attr(UI_OK), w->busy.fraction, 1.0);
	ui_put(y + 4, x + 2, cols - 4, ui_attr(UI_DIM), "Esc stops");
}
