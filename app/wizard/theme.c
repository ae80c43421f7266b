/* The colour table (with its monochrome column) and the glyph table (UTF-8 or ASCII): every
 * attribute and every line-drawing character of the wizard comes from here. */
#include "config.h"

#include <langinfo.h>
#include <stdlib.h>
#include <string.h>

#include "app/wizard/ui_int.h"

/* One row per role: the colour pair and attribute of the colour theme, and the attribute used
 * instead when colour is off (NO_COLOR, or a terminal without colours). -1 is the terminal's own
 * default colour. Severity stays readable without colour: the label is always printed too. */
static const struct {
	enum ui_role role;
	short fg, bg;
	attr_t colour_attr;
	attr_t mono_attr;
} colour_table[UI_N_ROLES] = {
	{UI_NORMAL, -1, -1, A_NORMAL, A_NORMAL},
	{UI_TITLE, COLOR_WHITE, COLOR_BLUE, A_BOLD, A_REVERSE},
	{UI_TAB_ACTIVE, COLOR_BLACK, COLOR_CYAN, A_BOLD, A_BOLD | A_UNDERLINE},
	{UI_HEADING, COLOR_CYAN, -1, A_BOLD, A_BOLD},
	{UI_SELECTED, COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE},
	{UI_DIM, -1, -1, A_DIM, A_DIM},
	{UI_KEY, COLOR_YELLOW, -1, A_BOLD, A_BOLD},
	{UI_OK, COLOR_GREEN, -1, A_NORMAL, A_NORMAL},
	{UI_ERROR, COLOR_RED, -1, A_BOLD, A_BOLD},
	{UI_SEV_INFO, -1, -1, A_NORMAL, A_NORMAL},
	{UI_SEV_SUGGEST, COLOR_GREEN, -1, A_NORMAL, A_NORMAL},
	{UI_SEV_WARN, COLOR_YELLOW, -1, A_BOLD, A_BOLD},
	{UI_SEV_CRITICAL, COLOR_RED, -1, A_BOLD, A_BOLD | A_UNDERLINE},
	{UI_PROBLEM, COLOR_YELLOW, -1, A_BOLD, A_BOLD},
	{UI_UNAVAILABLE, COLOR_MAGENTA, -1, A_NORMAL, A_DIM},
	{UI_COMMAND, COLOR_GREEN, -1, A_BOLD, A_BOLD},
};

static const struct ui_glyphs glyphs_utf8 = {
	.hline = "\u2500", .vline = "\u2502",
	.ul = "\u250c", .ur = "\u2510", .ll = "\u2514", .lr = "\u2518",
	.cursor = "\u25b6", .ellipsis = "\u2026", .arrow = "\u2192",
	.tree_mid = "\u251c\u2500", .tree_last = "\u2514\u2500",
	.hbar = {" ", "\u258f", "\u258e", "\u258d", "\u258c", "\u258b", "\u258a", "\u2589", "\u2588"},
	.vbar = {" ", "\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588"},
};
static const struct ui_glyphs glyphs_ascii = {
	.hline = "-", .vline = "|",
	.ul = "+", .ur = "+", .ll = "+", .lr = "+",
	.cursor = ">", .ellipsis = "...", .arrow = "->",
	.tree_mid = "|-", .tree_last = "`-",
	.hbar = {" ", " ", " ", " ", "-", "-", "-", "-", "#"},
	.vbar = {" ", " ", " ", "_", "_", "_", ".", ".", "#"},
};

const struct ui_glyphs *ui_glyph = &glyphs_ascii;
static bool is_colour;

/* https://no-color.org: set and not empty means no colour. */
static bool no_color_requested(void)
{
	const char *v = getenv("NO_COLOR");

	return v && *v;
}

void ui_theme_init(void)
{
	const char *codeset = nl_langinfo(CODESET);

	ui_glyph = codeset && strcmp(codeset, "UTF-8") == 0 ? &glyphs_utf8 : &glyphs_ascii;
	is_colour = !no_color_requested() && has_colors();
	if (!is_colour)
		return;
	start_color();
	use_default_colors();
	for (int i = 0; i < UI_N_ROLES; i++)
		init_pair((short)(i + 1), colour_table[i].fg, colour_table[i].bg);
}

bool ui_theme_is_colour(void) { return is_colour; }

attr_t ui_attr(enum ui_role role)
{
	if (role < 0 || role >= UI_N_ROLES)
		role = UI_NORMAL;
	if (!is_colour)
		return colour_table[role].mono_attr;
	return colour_table[role].colour_attr | (role == UI_NORMAL ? 0 : COLOR_PAIR(role + 1));
}

enum ui_role ui_severity_role(const char *severity)
{
	int rank = session_severity_rank(severity);

	return rank < 0 ? UI_NORMAL : (enum ui_role)(UI_SEV_INFO + rank);
}
