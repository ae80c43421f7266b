/* Keymaps: the global keys, look-up, and the names keys are shown by in hints and help. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "app/wizard/ui_int.h"

#define KEY_ESC 27

const struct ui_key ui_global_keys[] = {
	{'?', UI_ACT_HELP, "help: the keys of this screen", true},
	{KEY_F(1), UI_ACT_HELP, "help: the keys of this screen", false},
	{KEY_ESC, UI_ACT_BACK, "back to the previous step", false},
	{KEY_BACKSPACE, UI_ACT_BACK, "back to the previous step", false},
	{'\t', UI_ACT_NEXT_TAB, "next step (once it is available)", false},
	{KEY_BTAB, UI_ACT_PREV_TAB, "previous step", false},
	{'q', UI_ACT_QUIT, "quit (Ctrl-C also quits, restoring the terminal)", true},
	{0, 0, NULL, false},
};

/* A screen that takes text keeps every printable key for the text. */
const struct ui_key ui_text_global_keys[] = {
	{KEY_F(1), UI_ACT_HELP, "help: the keys of this screen", true},
	{0, 0, NULL, false},
};

const struct ui_key *ui_key_lookup(const struct ui_key *table, int key)
{
	for (const struct ui_key *k = table; k && k->key; k++)
		if (k->key == key)
			return k;
	return NULL;
}

const char *ui_key_name(int key, char *buf, size_t len)
{
	static const struct {
		int key;
		const char *name;
	} names[] = {
		{'\n', "Enter"}, {'\r', "Enter"}, {KEY_ENTER, "Enter"}, {KEY_ESC, "Esc"}, {'\t', "Tab"},
		{KEY_BTAB, "Shift-Tab"}, {' ', "Space"}, {KEY_UP, "Up"}, {KEY_DOWN, "Down"},
		{KEY_LEFT, "Left"}, {KEY_RIGHT, "Right"}, {KEY_PPAGE, "PgUp"}, {KEY_NPAGE, "PgDn"},
		{KEY_HOME, "Home"}, {KEY_END, "End"}, {KEY_BACKSPACE, "Backspace"}, {127, "Backspace"},
		{KEY_DC, "Delete"},
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].key == key) {
			snprintf(buf, len, "%s", names[i].name);
			return buf;
		}
	if (key >= KEY_F(1) && key <= KEY_F(12))
		snprintf(buf, len, "F%d", key - KEY_F(0));
	else if (key > 0 && key < 32)
		snprintf(buf, len, "Ctrl-%c", key + '@');
	else if (key > 32 && key < 127)
		snprintf(buf, len, "%c", key);
	else
		snprintf(buf, len, "key %d", key);
	return buf;
}
