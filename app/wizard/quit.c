/* Quitting: `q` leaves at once unless the session holds measurements no saved report has (a
 * benchmark, a trial, a sample, an observation: minutes of work); then a box over the screen asks
 * first, with saving offered before quitting. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "app/wizard/ui_int.h"

enum quit_action { Q_SAVE = UI_ACT_SCREEN, Q_QUIT, Q_STAY };

const struct ui_key ui_quit_keys[] = {
	{'s', Q_SAVE, "save the report first (the Save step; q then quits)", true},
	{'q', Q_QUIT, "quit without saving", true},
	{'y', Q_QUIT, "quit without saving", false},
	{27, Q_STAY, "stay", true},
	{'n', Q_STAY, "stay", false},
	{0, 0, NULL, false},
};

#define BOX_ROWS 7

/* "the benchmark results, the trial": what a report saved now would keep. */
static void unsaved_text(const struct ui_wizard *w, char *buf, size_t len)
{
	static const struct {
		unsigned bit;
		const char *what;
	} parts[] = {
		{UI_UNSAVED_BENCH, "the benchmark results"},
		{UI_UNSAVED_TRIAL, "the trial"},
		{UI_UNSAVED_SAMPLE, "the sample"},
		{UI_UNSAVED_OBSERVE, "the observation"},
	};
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (w->unsaved & parts[i].bit)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", n++ ? ", " : "", parts[i].what);
}

/* "s save the report first   q quit without saving   Esc stay", the keys lit, from x up to `end`. */
static void put_keys(int y, int x, int end)
{
	static const struct {
		const char *key, *what;
	} keys[] = {{"s", " save the report first   "}, {"q", " quit without saving   "}, {"Esc", " stay"}};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		x += ui_put(y, x, end - x, ui_attr(UI_KEY), keys[i].key);
		x += ui_put(y, x, end - x, ui_attr(UI_NORMAL), keys[i].what);
	}
}

bool ui_quit_ask(struct ui_wizard *w)
{
	if (!w->unsaved)
		return false;
	w->is_quit_asked = true;
	return true;
}

void ui_quit_draw(const struct ui_wizard *w)
{
	int cols = COLS - 8, y = LINES / 2 - BOX_ROWS / 2, x = 4;
	char what[128], line[192];

	unsaved_text(w, what, sizeof(what));
	for (int r = 0; r < BOX_ROWS; r++)
		ui_fill(y + r, x, cols, ui_attr(UI_NORMAL));
	ui_frame(stdscr, y, x, BOX_ROWS, cols, ui_attr(UI_HEADING));
	ui_put(y, x + 2, cols - 4, ui_attr(UI_HEADING), " Quit? ");
	snprintf(line, sizeof(line), "Not saved yet: %s.", what);
	ui_put(y + 2, x + 2, cols - 4, ui_attr(UI_ERROR), line);
	ui_put(y + 3, x + 2, cols - 4, ui_attr(UI_NORMAL), "Quitting now throws away what was measured.");
	put_keys(y + 5, x + 2, x + cols - 2);
}

enum ui_result ui_quit_key(struct ui_wizard *w, int key)
{
	const struct ui_key *k = ui_key_lookup(ui_quit_keys, key);

	if (!k)
		return UI_DONE;
	w->is_quit_asked = false;
	switch (k->action) {
	case Q_QUIT:
		return UI_QUIT;
	case Q_SAVE:
		if (!ui_wizard_can_enter(w, UI_SCR_SAVE))
			return UI_DONE;
		ui_message(w, UI_DIM, "save the report (JSON keeps every number); q then quits");
		return ui_goto(w, UI_SCR_SAVE);
	default:
		return UI_DONE;
	}
}
