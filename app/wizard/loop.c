/* The wizard's main loop: reads a key, finds it in the current screen's keymap (then the global
 * one), hands the action to the screen, and redraws the whole frame: the step bar, the screen, the
 * message line, the key hints, and the help overlay built from the same keymaps. */
#include "config.h"

#include <panel.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include "app/wizard/ui_int.h"
#include "fstune/debug.h"
#include "fstune/status.h"

#define MIN_COLS 80
#define MIN_ROWS 24

static const struct ui_screen *const screens[UI_N_SCREENS] = {
	[UI_SCR_TARGET] = &ui_screen_target,
	[UI_SCR_WORKLOAD] = &ui_screen_workload,
	[UI_SCR_DETECTED] = &ui_screen_detected,
	[UI_SCR_ADVICE] = &ui_screen_advice,
	[UI_SCR_SAVE] = &ui_screen_save,
	[UI_SCR_DETAIL] = &ui_screen_detail,
	[UI_SCR_PROMPT] = &ui_screen_prompt,
	[UI_SCR_BENCH] = &ui_screen_bench,
	[UI_SCR_CHARTS] = &ui_screen_charts,
	[UI_SCR_CUSTOM] = &ui_screen_custom,
	[UI_SCR_SAMPLE] = &ui_screen_sample,
	[UI_SCR_TRIAL] = &ui_screen_trial,
};

enum help_action { HELP_CLOSE = UI_ACT_SCREEN };

/* The help overlay's own keys: it lists them too. */
static const struct ui_key help_keys[] = {
	UI_KEYS_UP_DOWN("scroll", "scroll"),
	UI_KEYS_PAGES("scroll", "scroll"),
	UI_KEYS_ENDS("jump", "jump"), /* one group: the edge fits 80 columns */
	{27, HELP_CLOSE, "close", false},
	{'?', HELP_CLOSE, "close", false},
	{'q', HELP_CLOSE, "close", false},
	{'\r', HELP_CLOSE, "close", false},
	{KEY_F(1), HELP_CLOSE, "close", false},
	{0, 0, NULL, false},
};

static const struct ui_screen *screen_of(enum ui_screen_id id) { return screens[id]; }

static bool is_too_small(void) { return COLS < MIN_COLS || LINES < MIN_ROWS; }

/* The step whose tab is lit: the detail belongs to Advice, a prompt to the screen it opened on. */
static enum ui_screen_id step_of(const struct ui_wizard *w)
{
	if (w->screen == UI_SCR_DETAIL || w->screen == UI_SCR_TRIAL)
		return UI_SCR_ADVICE;
	if (w->screen == UI_SCR_PROMPT)
		return w->prompt_return == UI_SCR_CUSTOM || w->prompt_return == UI_SCR_SAMPLE ? UI_SCR_WORKLOAD
										     : w->prompt_return;
	if (w->screen == UI_SCR_CUSTOM || w->screen == UI_SCR_SAMPLE)
		return UI_SCR_WORKLOAD;
	return w->screen;
}

static void draw_step_bar(const struct ui_wizard *w)
{
	enum ui_screen_id cur = step_of(w);
	int x = 0;
	char buf[64];

	ui_fill(0, 0, COLS, ui_attr(UI_TITLE));
	x += ui_put(0, x, COLS - x, ui_attr(UI_TITLE), " fstune ");
	for (int i = UI_SCR_TARGET; i <= UI_SCR_SAVE && x < COLS; i++) {
		attr_t a = ui_attr(UI_TITLE);

		if (i == (int)cur)
			a = ui_attr(UI_TAB_ACTIVE);
		else if (!ui_wizard_can_enter(w, (enum ui_screen_id)i))
			a |= A_DIM;
		snprintf(buf, sizeof(buf), " %d %s ", i + 1, screens[i]->name);
		x += ui_put(0, x, COLS - x, a, buf);
		if (COLS >= 100)
			x += ui_put(0, x, COLS - x, ui_attr(UI_TITLE), " ");
	}
}

/* The hint bar: the screen's hinted keys that do something here, then the global ones, each as
 * "Key help". */
static void draw_hints(const struct ui_wizard *w, const struct ui_screen *scr)
{
	const struct ui_key *tables[2] = {scr->keys, scr->takes_text ? ui_text_global_keys : ui_global_keys};
	int x = 0, y = LINES - 1;
	char name[32], text[96];

	for (int t = 0; t < 2; t++)
		for (const struct ui_key *k = tables[t]; k->key; k++) {
			const char *short_help = k->help;
			const char *colon = strchr(short_help, ':');
			int need;

			if (!k->is_hint || (t == 0 && scr->key_applies && !scr->key_applies(w, k->action)))
				continue;
			snprintf(text, sizeof(text), "%.*s",
				 colon ? (int)(colon - short_help) : (int)strlen(short_help), short_help);
			ui_key_name(k->key, name, sizeof(name));
			need = ui_text_width(name) + 1 + ui_text_width(text) + 2;
			if (x + need > COLS)
				return;
			x += ui_put(y, x, COLS - x, ui_attr(UI_KEY), name);
			x += ui_put(y, x, COLS - x, ui_attr(UI_DIM), " ");
			x += ui_put(y, x, COLS - x, ui_attr(UI_NORMAL), text);
			x += 2;
		}
}

/* A key's line of the help: its keys, then what it does, wrapped under itself in `width` cells. */
static void help_add_key(struct ui_lines *out, const char *keys, const char *help, int width)
{
	size_t n;
	char **lines = ui_wrap(help, width - 2 - 19, &n);

	for (size_t i = 0; i < n; i++)
		if (i == 0)
			ui_lines_add(out, UI_NORMAL, 2, "%-18s %s", keys, lines[i]);
		else
			ui_lines_add(out, UI_NORMAL, 2 + 19, "%s", lines[i]);
	ui_lines_free(lines, n);
}

/* The lines of the help: each action once, with every key that triggers it. */
static void help_add_table(struct ui_lines *out, const char *heading, const struct ui_key *table, int width)
{
	ui_lines_add(out, UI_HEADING, 0, "%s", heading);
	for (const struct ui_key *k = table; k->key; k++) {
		char keys[96] = "", name[32];
		bool is_first = true;

		for (const struct ui_key *p = table; p < k; p++)
			if (p->action == k->action)
				is_first = false;
		if (!is_first)
			continue;
		for (const struct ui_key *p = k; p->key; p++) {
			if (p->action != k->action)
				continue;
			ui_key_name(p->key, name, sizeof(name));
			if (strstr(keys, name) && (strlen(keys) == strlen(name) ||
						  strstr(keys, name)[strlen(name)] == ',' ||
						  strstr(keys, name)[strlen(name)] == '\0'))
				continue; /* '\n' and '\r' are both "Enter" */
			snprintf(keys + strlen(keys), sizeof(keys) - strlen(keys), "%s%s", *keys ? ", " : "",
				 name);
		}
		help_add_key(out, keys, k->help, width);
	}
}

static void help_lines(const struct ui_screen *scr, int width, struct ui_lines *out)
{
	if (scr->help_intro) {
		size_t n;
		char **intro = ui_wrap(scr->help_intro, width, &n);

		for (size_t i = 0; i < n; i++)
			ui_lines_add(out, UI_DIM, 0, "%s", intro[i]);
		ui_lines_free(intro, n);
	}
	help_add_table(out, scr->name ? scr->name : "This screen", scr->keys, width);
	if (scr->takes_text)
		help_add_key(out, "any character", "typed into the field", width);
	help_add_table(out, "Everywhere", scr->takes_text ? ui_text_global_keys : ui_global_keys, width);
}

/* The help overlay's panel stays up between frames: deleting a panel touches the window below
 * it, and the next read of a key would then repaint stdscr over the help. */
static WINDOW *help_win;
static PANEL *help_panel;

static void help_close(void)
{
	if (help_panel)
		del_panel(help_panel);
	if (help_win)
		delwin(help_win);
	help_panel = NULL;
	help_win = NULL;
}

static void draw_help(struct ui_wizard *w, const struct ui_screen *scr)
{
	struct ui_lines lines = {0};
	int rows = LINES - 2, cols = COLS - 4, inner, wr, wc;
	char foot[128] = "", name[32];

	if (help_win) {
		getmaxyx(help_win, wr, wc);
		if (wr != rows || wc != cols)
			help_close();
	}
	if (!help_win) {
		help_win = newwin(rows, cols, 1, 2);
		help_panel = new_panel(help_win);
	}
	help_lines(scr, cols - 4, &lines);
	inner = rows - 2;
	ui_scroll_clamp(&w->help_top, (int)lines.n, inner);
	werase(help_win);
	ui_box(help_win, ui_attr(UI_HEADING));
	mvwaddstr(help_win, 0, 2, " Help ");
	for (int r = 0; r < inner && (size_t)(w->help_top + r) < lines.n; r++) {
		const struct ui_line *l = &lines.v[w->help_top + r];

		wattron(help_win, ui_attr(l->role));
		mvwaddnstr(help_win, 1 + r, 2 + l->indent, l->text, cols - 4 - l->indent);
		wattroff(help_win, ui_attr(l->role));
	}
	/* The help's own keys, from its table, in the bottom edge: keys grouped by what they do. */
	for (const struct ui_key *k = help_keys; k->key; k++) {
		bool is_first = true;

		for (const struct ui_key *p = help_keys; p < k; p++)
			if (strcmp(p->help, k->help) == 0)
				is_first = false;
		if (!is_first)
			continue;
		snprintf(foot + strlen(foot), sizeof(foot) - strlen(foot), " ");
		for (const struct ui_key *p = k; p->key; p++)
			if (strcmp(p->help, k->help) == 0)
				snprintf(foot + strlen(foot), sizeof(foot) - strlen(foot), "%s%s",
					 p == k ? "" : "/", ui_key_name(p->key, name, sizeof(name)));
		snprintf(foot + strlen(foot), sizeof(foot) - strlen(foot), " %s ", k->help);
	}
	wattron(help_win, ui_attr(UI_DIM));
	mvwaddnstr(help_win, rows - 1, 2, foot, cols - 4);
	wattroff(help_win, ui_attr(UI_DIM));
	ui_lines_clear(&lines);
	touchwin(help_win);
	update_panels();
	doupdate();
}

static void draw_too_small(const struct ui_wizard *w)
{
	const char *msg = "enlarge the terminal to at least 80x24";
	char size[48];

	snprintf(size, sizeof(size), "(now %dx%d; q quits)", COLS, LINES);
	ui_put(LINES / 2 - 1, 0, COLS, ui_attr(UI_ERROR), msg);
	ui_put(LINES / 2, 0, COLS, ui_attr(UI_DIM), size);
	if (w->is_quit_asked)
		ui_put(LINES / 2 + 1, 0, COLS, ui_attr(UI_ERROR), "not saved: q quits anyway, Esc stays");
}

/* The message line; a message longer than it takes the hint line too, until the next key. True
 * when it did. */
static bool draw_message(const struct ui_wizard *w)
{
	size_t n;
	char **lines, rest[sizeof(w->message)];

	if (!w->message[0])
		return false;
	if (ui_text_width(w->message) <= COLS - 2) {
		ui_put(LINES - 2, 1, COLS - 2, ui_attr(w->message_role), w->message);
		return false;
	}
	lines = ui_wrap(w->message, COLS - 2, &n);
	ui_put(LINES - 2, 1, COLS - 2, ui_attr(w->message_role), n ? lines[0] : "");
	/* the rest on the second line, cut there with an ellipsis when there is still more */
	rest[0] = '\0';
	for (size_t i = 1; i < n; i++)
		snprintf(rest + strlen(rest), sizeof(rest) - strlen(rest), "%s%s", i > 1 ? " " : "", lines[i]);
	ui_put(LINES - 1, 1, COLS - 2, ui_attr(w->message_role), rest);
	ui_lines_free(lines, n);
	return true;
}

static void draw(struct ui_wizard *w)
{
	const struct ui_screen *scr = screens[w->screen];
	struct ui_area area = {1, 1, LINES - 3, COLS - 2};

	erase();
	curs_set(0);
	if (is_too_small()) {
		draw_too_small(w);
		refresh();
		return;
	}
	draw_step_bar(w);
	if (!draw_message(w))
		draw_hints(w, scr);
	scr->draw(w, &area);
	if (w->busy.is_on)
		ui_busy_draw(w);
	if (w->is_quit_asked)
		ui_quit_draw(w);
	wnoutrefresh(stdscr);
	if (w->is_help)
		draw_help(w, scr);
	else {
		update_panels(); /* the prompt, when one is up */
		doupdate();
	}
}

static enum ui_result global_action(struct ui_wizard *w, int action)
{
	enum ui_screen_id step = step_of(w);

	switch (action) {
	case UI_ACT_HELP:
		w->is_help = true;
		w->help_top = 0;
		return UI_DONE;
	case UI_ACT_QUIT:
		return ui_quit_ask(w) ? UI_DONE : UI_QUIT;
	case UI_ACT_BACK:
		/* a screen opened from a step goes back to that step; a step, to the one before */
		if (w->screen == UI_SCR_PROMPT)
			return screens[UI_SCR_PROMPT]->key(w, UI_ACT_BACK, 27);
		if (step != w->screen)
			return ui_goto(w, step);
		return step > UI_SCR_TARGET ? ui_goto(w, step - 1) : UI_DONE;
	case UI_ACT_NEXT_TAB:
		if (step < UI_SCR_SAVE && ui_wizard_can_enter(w, step + 1)) {
			w->next_screen = step + 1;
			return UI_GOTO;
		}
		return UI_DONE;
	case UI_ACT_PREV_TAB:
		if (step > UI_SCR_TARGET) {
			w->next_screen = step - 1;
			return UI_GOTO;
		}
		return UI_DONE;
	default:
		return UI_DONE;
	}
}

static enum ui_result help_key(struct ui_wizard *w, int key)
{
	const struct ui_key *k = ui_key_lookup(help_keys, key);

	if (k && k->action == HELP_CLOSE) {
		w->is_help = false;
		help_close();
	} else if (k)
		ui_scroll_key(&w->help_top, k->action, LINES - 4);
	return UI_DONE;
}

/* One key: `key` is a curses key code or a character; `wc` the wide character when it is one. */
static enum ui_result dispatch(struct ui_wizard *w, int key, bool is_char, wint_t wc)
{
	const struct ui_screen *scr = screens[w->screen];
	const struct ui_key *k = NULL;

	if (w->is_quit_asked)
		return ui_quit_key(w, key);
	if (is_too_small())
		return key == 'q' && !ui_quit_ask(w) ? UI_QUIT : UI_DONE;
	if (w->is_help)
		return help_key(w, key);
	if (!is_char || wc < 0x80) {
		k = ui_key_lookup(scr->keys, key);
		if (!k)
			k = ui_key_lookup(scr->takes_text ? ui_text_global_keys : ui_global_keys, key);
	}
	if (k)
		return k->action >= UI_ACT_HELP ? global_action(w, k->action) : scr->key(w, k->action, key);
	if (scr->takes_text && is_char && wc >= 0x20 && wc != 0x7f)
		return scr->key(w, UI_ACT_TEXT, (int)wc);
	return UI_DONE;
}

/* FSTUNE_DEBUG=ui: when the first frame reached the terminal, as wall-clock time, so that
 * tests/perf/wizard-first-draw.sh can measure from the moment it started the program. */
static void note_first_frame(void)
{
	static bool is_noted;
	struct timespec ts;

	if (is_noted || !debug_on(DEBUG_UI))
		return;
	is_noted = true;
	clock_gettime(CLOCK_REALTIME, &ts);
	debug_printf(DEBUG_UI, "first frame drawn at %lld.%09ld", (long long)ts.tv_sec, ts.tv_nsec);
}

static void enter(struct ui_wizard *w)
{
	if (screens[w->screen]->init)
		screens[w->screen]->init(w);
}

void ui_loop_run(struct ui_wizard *w)
{
	w->redraw = draw;
	w->screen_of = screen_of;
	enter(w);
	for (;;) {
		wint_t wc;
		int rc, key;
		enum ui_result r;
		enum ui_screen_id before;
		WINDOW *kw;

		draw(w); /* may rebuild the prompt's window (a resize): pick the key window after it */
		note_first_frame();
		kw = screens[w->screen]->window ? screens[w->screen]->window(w) : stdscr; /* owns the cursor */
		/* Work left after the first frame runs while no key is waiting. */
		wtimeout(kw, w->has_idle_work ? 0 : -1);
		rc = wget_wch(kw, &wc);
		if (rc == ERR) {
			if (w->has_idle_work)
				w->has_idle_work = inventory_idle(&w->targets);
			continue;
		}
		if (rc == KEY_CODE_YES && wc == KEY_RESIZE)
			continue; /* the next draw lays out the new size */
		key = (int)wc;
		if ((rc != KEY_CODE_YES && key == '\n') || (rc == KEY_CODE_YES && key == KEY_ENTER))
			key = '\r'; /* nonl(): Enter is \r, the keypad's is KEY_ENTER; one value in the tables */
		before = w->screen;
		r = dispatch(w, key, rc != KEY_CODE_YES, wc);
		if (r == UI_QUIT)
			return;
		if (r == UI_GOTO && (w->next_screen != w->screen || before != w->screen)) {
			w->screen = w->next_screen;
			enter(w);
		}
	}
}
