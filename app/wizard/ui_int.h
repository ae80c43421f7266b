/* The wizard's internal interfaces: the screen contract (init / draw / key), keymaps, the colour
 * and glyph tables, the terminal guard, the shared widgets and the state of one wizard run. */
#ifndef FSTUNE_APP_UI_INT_H
#define FSTUNE_APP_UI_INT_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

#include "app/render/report_model.h"
#include "app/session/session.h"
#include "fstune/inventory.h"
#include "fstune/rules.h"
#include "fstune/workload.h"

/* ---- Terminal guard (term.c) ---- */

/* FST_EXIT_OK when standard input and output are terminals; otherwise prints the one line that
 * says to use `fstune report` and returns FST_EXIT_USAGE. Call before anything touches curses. */
int ui_term_require_tty(void);
/* Saves the termios of the terminal, installs the restoring signal handlers (before initscr, so
 * that curses does not install its own) and starts curses: cbreak, noecho, keypad, a short
 * ESCDELAY. */
void ui_term_start(void);
/* Ends curses and puts back the saved termios. Safe to call twice. */
void ui_term_stop(void);
/* A fatal error: restores the terminal first, then prints "fstune: <msg>" and exits with
 * `status`. */
_Noreturn void ui_fatal(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- Colours and glyphs (theme.c) ---- */

enum ui_role {
	UI_NORMAL,
	UI_TITLE,       /* the top bar */
	UI_TAB_ACTIVE,  /* the current step in the top bar */
	UI_HEADING,     /* a group heading inside a screen */
	UI_SELECTED,    /* the cursor row */
	UI_DIM,         /* secondary text: sources, hints */
	UI_KEY,         /* a key name in hints and help */
	UI_OK,          /* "writable directory", a saved file */
	UI_ERROR,       /* an error message */
	UI_SEV_INFO,    /* the four severities in session_severity_rank's order */
	UI_SEV_SUGGEST,
	UI_SEV_WARN,
	UI_SEV_CRITICAL,
	UI_PROBLEM,     /* a fact that a warn/critical recommendation cites */
	UI_UNAVAILABLE, /* a fact that could not be found, with its reason */
	UI_COMMAND,     /* apply / revert commands */
	UI_N_ROLES,
};

/* Chooses colour or monochrome (NO_COLOR set and non-empty, or a terminal without colours) and
 * UTF-8 or ASCII glyphs (the locale's codeset). Call after initscr. */
void ui_theme_init(void);
attr_t ui_attr(enum ui_role role);
bool ui_theme_is_colour(void);
/* The role of a recommendation severity ("warn" -> UI_SEV_WARN, by session_severity_rank);
 * UI_NORMAL when unknown. */
enum ui_role ui_severity_role(const char *severity);

struct ui_glyphs {
	const char *hline, *vline;           /* box edges */
	const char *ul, *ur, *ll, *lr;       /* box corners */
	const char *cursor;                  /* marks the selected row */
	const char *ellipsis;                /* "…" */
	const char *arrow;                   /* "→" between current and recommended */
	const char *tree_mid, *tree_last;    /* a partition under its disk, as lsblk draws it */
	const char *hbar[9];                 /* a horizontal bar's last cell by eighths (0: blank) */
	const char *vbar[9];                 /* a column's top cell by eighths (0: blank) */
};
extern const struct ui_glyphs *ui_glyph;

/* ---- Keymaps (keymap.c) ---- */

/* One key of a screen. The same table drives dispatch and the help screen, so they cannot drift.
 * Several keys may share an action: the help shows them on one line. */
struct ui_key {
	int key;          /* a curses key code (KEY_DOWN) or a character ('j', '\n'); 0 ends a table */
	int action;       /* the screen's own action number, handed to its key handler */
	const char *help; /* what the action does, for the help screen and the hint bar */
	bool is_hint;     /* shown in the bottom bar */
};

/* Actions that several screens take, each with one meaning everywhere: the moves of a list or a
 * scrolling view (moves.c) and the editing of a form's field (formbox.c). A screen numbers its own
 * actions from UI_ACT_SCREEN. */
enum ui_shared_action {
	UI_MOVE_UP = 1,
	UI_MOVE_DOWN,
	UI_MOVE_PGUP,
	UI_MOVE_PGDN,
	UI_MOVE_HOME,
	UI_MOVE_END,
	UI_EDIT_LEFT,
	UI_EDIT_RIGHT,
	UI_EDIT_HOME,
	UI_EDIT_END,
	UI_EDIT_BACKSPACE,
	UI_EDIT_DELETE,
	UI_EDIT_CLEAR,
	UI_ACT_SCREEN,
};

/* The moves every list and page takes the same way, arrows and vi's j/k alike (tests/wizard/ui-keys.sh
 * expands these when it reads the tables). */
#define UI_KEYS_UP_DOWN(up_help, down_help)                                                    \
	{KEY_UP, UI_MOVE_UP, (up_help), false}, {'k', UI_MOVE_UP, (up_help), false},          \
	{KEY_DOWN, UI_MOVE_DOWN, (down_help), false}, {'j', UI_MOVE_DOWN, (down_help), false}
#define UI_KEYS_PAGES(pgup_help, pgdn_help) \
	{KEY_PPAGE, UI_MOVE_PGUP, (pgup_help), false}, {KEY_NPAGE, UI_MOVE_PGDN, (pgdn_help), false}
#define UI_KEYS_ENDS(home_help, end_help) \
	{KEY_HOME, UI_MOVE_HOME, (home_help), false}, {KEY_END, UI_MOVE_END, (end_help), false}
/* A scrolling view's moves (ui_view_key), Space paging down as in a pager. */
#define UI_KEYS_SCROLL                                                                             \
	UI_KEYS_UP_DOWN("scroll up", "scroll down"), UI_KEYS_PAGES("page up", "page down"),       \
	{' ', UI_MOVE_PGDN, "page down", false}, UI_KEYS_ENDS("top", "bottom")
/* Enter, hinted, and `other` (an arrow) taking one action, its help written once. */
#define UI_KEYS_ENTER_OR(other, action, help) \
	{'\r', (action), (help), true}, {(other), (action), (help), false}

/* Keys every screen has unless it takes text (then only F1 and Esc). */
enum ui_global_action {
	UI_ACT_HELP = 1000,
	UI_ACT_QUIT,
	UI_ACT_BACK,
	UI_ACT_NEXT_TAB,
	UI_ACT_PREV_TAB,
};
extern const struct ui_key ui_global_keys[];
extern const struct ui_key ui_text_global_keys[];

/* The entry of `key` in `table`, or NULL. */
const struct ui_key *ui_key_lookup(const struct ui_key *table, int key);
/* "Enter", "Down", "PgUp", "F1", "Esc", "Tab", "j"; into buf. */
const char *ui_key_name(int key, char *buf, size_t len);

/* ---- Screens (one file each) ---- */

struct ui_wizard;

/* The part of the terminal a screen draws in (everything but the top bar and the two bottom
 * lines). */
struct ui_area {
	int top, left;  /* first row and column */
	int rows, cols; /* size in cells */
};

enum ui_result {
	UI_DONE,   /* handled: the loop redraws */
	UI_QUIT,   /* leave the wizard with status w->status */
	UI_GOTO,   /* switch to w->next_screen */
};

/* A screen: `init` (NULL: none) runs each time it is entered and may set state only; `draw` renders the state
 * into the area and changes nothing; `key` gets the action of a key found in `keys` (or, for a
 * text screen, UI_ACT_TEXT with the character) and never draws. */
struct ui_screen {
	const char *name;        /* the step's name in the top bar; NULL: not a step of its own */
	const char *help_intro;  /* one paragraph at the top of the help screen */
	const struct ui_key *keys;
	bool takes_text;         /* printable keys are text: only F1 and Esc are global */
	void (*init)(struct ui_wizard *w);
	void (*draw)(struct ui_wizard *w, const struct ui_area *a);
	enum ui_result (*key)(struct ui_wizard *w, int action, int ch);
	WINDOW *(*window)(struct ui_wizard *w); /* the window keys are read through (it owns the
						   cursor); NULL: stdscr */
	/* whether a hinted key's action does something where the screen is now (the hint bar shows
	   it only then); NULL: every hinted key always does */
	bool (*key_applies)(const struct ui_wizard *w, int action);
};

#define UI_ACT_TEXT 999 /* a printable character on a takes_text screen */

enum ui_screen_id {
	UI_SCR_TARGET,
	UI_SCR_WORKLOAD,
	UI_SCR_DETECTED,
	UI_SCR_BENCH,
	UI_SCR_CHARTS,
	UI_SCR_ADVICE,
	UI_SCR_SAVE,
	UI_SCR_DETAIL, /* one recommendation, opened from Advice */
	UI_SCR_PROMPT, /* a line of text: a directory, a file name */
	UI_SCR_CUSTOM, /* the custom workload form, opened from Workload */
	UI_SCR_SAMPLE, /* what a sample of files showed, opened from Workload */
	UI_SCR_TRIAL,  /* a trial's result, opened when a trial from Advice ends */
	UI_N_SCREENS,
};

extern const struct ui_screen ui_screen_target;
extern const struct ui_screen ui_screen_workload;
extern const struct ui_screen ui_screen_detected;
extern const struct ui_screen ui_screen_advice;
extern const struct ui_screen ui_screen_save;
extern const struct ui_screen ui_screen_detail;
extern const struct ui_screen ui_screen_prompt;
extern const struct ui_screen ui_screen_bench;
extern const struct ui_screen ui_screen_charts;
extern const struct ui_screen ui_screen_custom;
extern const struct ui_screen ui_screen_sample;
extern const struct ui_screen ui_screen_trial;


/* ---- Widgets (widgets.c) ---- */

/* Writes `text` at row y, column x, cut to `cols` display cells (with an ellipsis when cut).
 * Returns the cells written. */
int ui_put(int y, int x, int cols, attr_t attr, const char *text);
/* `text` wrapped in `cols` cells from row y, column x, when it is wider than `fits` cells (the row
 * that shows it cut it); returns the rows it took and a blank one, or 0 when it fit. */
int ui_put_wrapped(int y, int x, int cols, attr_t attr, const char *text, int fits);
/* Display width of a UTF-8 string. */
int ui_text_width(const char *text);
/* Fills `cols` cells of row y from x with blanks in `attr`. */
void ui_fill(int y, int x, int cols, attr_t attr);
/* The edges of a box of rows x cols at (y, x) of `win`, in the glyph table's lines. */
void ui_frame(WINDOW *win, int y, int x, int rows, int cols, attr_t attr);
/* A box in the glyph table's lines around the whole of `win`. */
void ui_box(WINDOW *win, attr_t attr);
/* A horizontal bar of `value / max` of `cols` cells (eighths of a cell where the glyphs allow). */
void ui_hbar(int y, int x, int cols, attr_t attr, double value, double max);
/* "12.3k", "850", "1.2M": a rate in at most 6 cells. */
const char *ui_rate(char *buf, size_t len, double v);

/* A list row's attribute: the selection's, its bar drawn across `cols` cells from (y, x), when
 * `is_sel`; else the normal one. */
attr_t ui_row_bar(int y, int x, int cols, bool is_sel);
/* A row of a menu (Bench, Save, Workload): the bar and the cursor when it is selected, then its
 * name in bold, padded to `name_cells`, in a column `text_x` cells wide. Returns the row's attribute
 * for the text the caller puts after it. */
attr_t ui_menu_row(int y, const struct ui_area *a, bool is_sel, const char *name, int name_cells, int text_x);

/* ---- Moves (moves.c) ---- */

/* The rows a move (UI_MOVE_*) goes by, a page being `page` rows: INT_MIN and INT_MAX for Home and
 * End. False when `action` is not a move. */
bool ui_move_delta(int action, int page, int *delta);

/* A scrolling list: `sel` is kept visible within `rows`. */
struct ui_list {
	int n;   /* rows in the list */
	int sel; /* the cursor, 0..n-1 (0 when empty) */
	int top; /* the first visible row */
};
/* A row of the Advice list: a group's heading, a recommendation, or a further line of the title of
 * the recommendation above; after the groups, the accepted entries that are stale, under a heading
 * of their own. */
struct ui_advice_row {
	const struct report_rec_group *group; /* a heading: its group; else NULL */
	const struct report_rec *rec;         /* the recommendation (of a further line too) */
	size_t line;                          /* 0: the recommendation's own row; k: its title's line k */
	int at;                               /* a further line: the row of its recommendation */
	const struct report_stale *stale;     /* a stale accepted entry; else NULL */
	bool is_stale_heading;                /* the heading above them */
};
/* Moves the cursor by `delta` (INT_MAX/INT_MIN for the ends) and keeps it visible in `rows`. */
void ui_list_move(struct ui_list *l, int delta, int rows);
void ui_list_clamp(struct ui_list *l, int rows);
/* Does a move on a list showing `rows` rows (a page); false when `action` is not a move. */
bool ui_list_key(struct ui_list *l, int action, int rows);

/* Does a move on the first line shown of a scrolling text, a page being `page` lines; false when
 * `action` is not a move. It may pass the end: ui_scroll_clamp brings it back once the text's
 * length is known, when it is drawn. */
bool ui_scroll_key(int *top, int action, int page);
/* Keeps `*top` where `rows` rows of `n` lines are a full page (or at 0 when they all fit). */
void ui_scroll_clamp(int *top, int n, int rows);

/* Word-wrapped lines of a paragraph: an array of `*n` new strings (free with ui_lines_free). */
char **ui_wrap(const char *text, int width, size_t *n);
void ui_lines_free(char **v, size_t n);

/* ---- The wizard's state (wizard.c) ---- */

/* A line of a scrolling text view (Detected, the recommendation detail). */
struct ui_line {
	char *text;
	enum ui_role role;
	int indent; /* cells */
};

struct ui_lines {
	struct ui_line *v;
	size_t n;
};
void ui_lines_add(struct ui_lines *l, enum ui_role role, int indent, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void ui_lines_clear(struct ui_lines *l);

/* A scrolling text view: its lines and the first one shown. */
struct ui_view {
	struct ui_lines content;
	int top;
	int rows;      /* shown by the last draw: a page */
	int laid_cols; /* COLS the content was laid out for (a resize lays it out again) */
};
/* Draws the view into the area from its top (as many lines as fit), the top first brought back so
 * that the last page is full. A line wider than the area is wrapped, never cut; `top` counts the
 * lines drawn. */
void ui_view_draw(struct ui_view *v, const struct ui_area *a);
/* Does a move (UI_MOVE_*) on the view, a page being what the last draw showed; false when `action`
 * is not a move. */
bool ui_view_key(struct ui_view *v, int action);
/* The key handler of a screen that is a scrolling view: action `go` goes to screen `next`, a move
 * scrolls, anything else does nothing. */
enum ui_result ui_view_screen_key(struct ui_wizard *w, struct ui_view *v, int action, int go,
				  enum ui_screen_id next);

typedef enum ui_result (*ui_prompt_done_fn)(struct ui_wizard *w, const char *text);

/* A long step running inside the loop (sampling, observing): a box over the screen with a line of
 * progress; the benchmark screen draws its own. */
struct ui_busy {
	bool is_on;
	char title[96];
	char line[160];
	double fraction; /* 0..1; negative: unknown (no bar) */
};

/* The benchmark run as the Benchmarks screen shows it. */
struct ui_bench_live {
	bool is_running;
	enum session_bench suite;          /* the suite running or last run */
	char test[64];                     /* the test running ("layout" while the file is written) */
	double fraction;                   /* of that test */
	struct bench_live live;            /* its live rate (IOPS, bytes/s for the layout), p50, p99 */
	const struct bench_test_def *tests[32]; /* the suite's tests for this target, in run order */
	size_t n_tests;
	char estimate[2][256];             /* quick, full: time and space, or why not */
	enum bench_mode mode;
	bool can_run;
};

/* What the session measured that no saved report holds yet (ui_wizard.unsaved). */
enum ui_unsaved {
	UI_UNSAVED_BENCH = 1,
	UI_UNSAVED_TRIAL = 2,
	UI_UNSAVED_SAMPLE = 4,
	UI_UNSAVED_OBSERVE = 8,
};

struct ui_wizard {
	/* set by the loop (ui_loop_run) before anything runs: how screens and steps reach what only the
	 * loop knows, without calling up into it */
	void (*redraw)(struct ui_wizard *w);
	const struct ui_screen *(*screen_of)(enum ui_screen_id id);

	/* what the command line said */
	const char *facts_file;          /* --facts FILE; NULL: probe what the admin picks */
	const char *target_os;           /* --target-os; NULL: as probed */
	bool is_verbose;                 /* --verbose, for the saved report */
	struct rules_options rules_opt;  /* --rules-dir, --no-system-rules */
	struct accepted *accepted;       /* --accept, --accepted, $FSTUNE_ACCEPTED or the system's file;
					    every session marks them */
	struct workload_spec spec;       /* --workload and its overrides (strings borrowed from argv) */
	struct bench_config bench_cfg;   /* the benchmark parameters (--runtime, --size, ...) */

	/* the run */
	struct session *session;         /* NULL until a target is chosen */
	const struct workload_preset *preset; /* the preset chosen; NULL: none (yet, or another way) */
	bool has_workload;               /* a workload step ran: the later steps can be entered */
	char workload_label[160];        /* what described it: "preset smallfiles", "sample of /srv" */
	struct workload_spec wl_spec;    /* the last workload step's spec */
	char sample_dir[4096];           /* wl_spec.sample_dir's text */
	int status;                      /* exit status when the wizard ends */
	unsigned unsaved;                /* enum ui_unsaved bits: measured since the last report saved */
	bool has_idle_work;              /* inventory_idle has work left */

	/* navigation */
	enum ui_screen_id screen;
	enum ui_screen_id next_screen;   /* set by a key handler returning UI_GOTO */
	enum ui_screen_id prompt_return; /* the screen a prompt returns to */
	bool is_help;                    /* the help overlay is up */
	bool is_quit_asked;              /* the quit question is up (quit.c) */
	int help_top;                    /* its scroll position */

	/* the message line */
	char message[256];
	enum ui_role message_role;

	/* per-screen state */
	struct inventory targets;
	struct ui_list target_list;
	struct ui_list workload_list;
	struct ui_view detected;
	struct ui_list advice_list;
	struct report_model *advice_model; /* the report Advice shows, built when it is entered */
	struct ui_advice_row *advice_rows; /* advice_list.n rows */
	struct ui_view detail;
	struct ui_view trial;            /* the last trial's result (scr_trial.c) */
	struct ui_list save_list;
	char save_path[4096];            /* the last file written */
	struct ui_list bench_list;
	struct ui_bench_live bench;
	int charts_top;                  /* the first result line shown below the curve */
	int charts_page;                 /* the result lines the last draw showed */
	struct ui_custom *custom;        /* the custom workload form (scr_custom.c); NULL: none */
	struct ui_busy busy;

	/* the prompt */
	const char *prompt_label;
	char prompt_text[4096];
	ui_prompt_done_fn prompt_done;
	struct ui_formbox *form;         /* the prompt's form (scr_prompt.c); NULL: none */
};

/* Goes to screen `id` once the key handler returns: its result. */
static inline enum ui_result ui_goto(struct ui_wizard *w, enum ui_screen_id id)
{
	w->next_screen = id;
	return UI_GOTO;
}
/* Sets the message line. */
void ui_message(struct ui_wizard *w, enum ui_role role, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Opens the prompt over the current screen: `initial` is the starting text; `done` runs on Enter
 * with the text and its result is the prompt's. */
enum ui_result ui_prompt_open(struct ui_wizard *w, const char *label, const char *initial,
			      ui_prompt_done_fn done);
/* The end of a prompt that asks for a directory: `dir` given to `step`, then on to screen `next`
 * when the step worked; an empty `dir` is refused, and a step that failed has set the message. */
enum ui_result ui_prompt_directory_done(struct ui_wizard *w, const char *dir,
					bool (*step)(struct ui_wizard *w, const char *dir), enum ui_screen_id next);
/* Frees the prompt's form, if one is up. */
void ui_prompt_free(struct ui_wizard *w);
/* Frees the custom workload form, if one is up. */
void ui_custom_free(struct ui_wizard *w);
/* The prompt's window (keys are read through it, so the cursor stays in the field). */
WINDOW *ui_prompt_window(struct ui_wizard *w);

/* Redraws the whole frame now: for a long step's progress, from inside its callback. Through the
 * hook the loop sets, so that no screen or step calls up into the loop. */
static inline void ui_redraw(struct ui_wizard *w) { w->redraw(w); }
/* Reads the keys typed meanwhile, without waiting: true when one was Esc (stop the step). */
bool ui_poll_cancel(void);
/* The busy box (progress.c): shows it with `line` and `fraction`, redraws, and reads the keys;
 * false when Esc asks to stop. */
bool ui_busy_update(struct ui_wizard *w, double fraction, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void ui_busy_draw(const struct ui_wizard *w);
/* Puts back the terminal guard's signal handlers (after a step installed its own). */
void ui_term_guard_signals(void);

/* Session steps (state.c, workload_step.c, bench_step.c), called by the screens' key handlers. */
/* Probes `arg` into a new session (replacing the old one) and loads the rules; false with the
 * message line set when the target cannot be resolved. */
bool ui_wizard_open_target(struct ui_wizard *w, const char *arg);
/* The session through the pipeline, probed (target) or read (facts_path), rules loaded, replacing
 * the old one; false with the message line set. */
bool ui_wizard_open_session(struct ui_wizard *w, const char *target, const char *facts_path);
/* Frees the session and what the steps built on it. */
void ui_wizard_drop_session(struct ui_wizard *w);
/* Describes the workload with a preset (and the command line's overrides) and evaluates the rules again. */
void ui_wizard_set_preset(struct ui_wizard *w, const struct workload_preset *p);
/* Keeps the workload the facts came with (the command line's overrides on top). */
void ui_wizard_keep_workload(struct ui_wizard *w);
/* The custom form's spec (overrides on the chosen or general preset). */
void ui_wizard_set_custom(struct ui_wizard *w, const struct workload_spec *spec);
/* Samples `dir` with a progress box (Esc stops it: the sample is then partial). False with the
 * message set when the directory cannot be read. */
bool ui_wizard_sample(struct ui_wizard *w, const char *dir);
/* Observes the target's device for `seconds` with a countdown (Esc ends it early). */
bool ui_wizard_observe(struct ui_wizard *w, double seconds);
/* Why sampling or observing cannot run on this session (saved facts, no device); NULL: they can. */
const char *ui_wizard_cannot_measure(const struct ui_wizard *w, bool is_observe);
/* Fills w->bench: the tests each suite would run here, its time and space, or why none can. */
void ui_wizard_bench_plan(struct ui_wizard *w);
/* Whether the target's device is busy now (a look of --busy-check seconds; none when 0); the share
 * of time in I/O in *share. */
bool ui_wizard_bench_busy(struct ui_wizard *w, double *share);
/* Runs `suite` with live progress on the Benchmarks screen (Esc stops it: scratch removed, what
 * finished kept), then evaluates the rules again. A signal ends the wizard after the clean-up. */
void ui_wizard_bench_run(struct ui_wizard *w, enum session_bench suite);
/* Whether step `id` can be entered now (a session exists, a preset was chosen). */
bool ui_wizard_can_enter(const struct ui_wizard *w, enum ui_screen_id id);

/* A finished benchmark test's headline number in its unit (bench_numbers.c): MB/s for large
 * requests, operations/s for file tests, else IOPS, read from the facts; false when it has none. */
bool ui_bench_headline(const struct facts *f, const struct bench_test_def *t, double *v, const char **unit);
/* What the run found about that number, as the bench table marks it: "implausible", "cache?",
 * "cpu-bound", "burst" (the first that applies, in that order), or NULL when the number stands. */
const char *ui_bench_flag(const struct facts *f, const struct bench_test_def *t);

/* "Settle this by trial" (trial_settle.c): runs fstune trial on a 1 GiB image beside the target for a
 * reformat recommendation (its mkfs against the defaults), the terminal handed over, and brings the
 * trial.* facts back and re-evaluates. False, with the reason as the message, when it cannot run. */
bool ui_trial_settle(struct ui_wizard *w, const struct report_rec *rec);
/* Whether a trial can settle `rec` here: reformat advice with an mkfs spec a candidate can hold, on a
 * session with a directory for the image. */
bool ui_trial_applies(const struct ui_wizard *w, const struct report_rec *rec);

/* Quitting (quit.c): true when `q` must ask first (unsaved measurements), and the question is then
 * up; its box over the screen and its keys (s save first, q quit, Esc stay). */
bool ui_quit_ask(struct ui_wizard *w);
void ui_quit_draw(const struct ui_wizard *w);
enum ui_result ui_quit_key(struct ui_wizard *w, int key);
extern const struct ui_key ui_quit_keys[];
/* The Trial screen's text: the trial document `doc` as `fstune trial` writes it, wrapped to `width`. */
void ui_view_trial(struct ui_wizard *w, const json_t *doc, int width);

/* The main loop (loop.c): runs until a handler returns UI_QUIT. */
void ui_loop_run(struct ui_wizard *w);
/* The screen of an id (an overlay draws the screen it opened over first), through the loop's hook. */
static inline const struct ui_screen *ui_screen_of(const struct ui_wizard *w, enum ui_screen_id id)
{
	return w->screen_of(id);
}

/* Building the views, for the screens' init: Detected's (scr_detected.c), a recommendation's and an
 * accepted entry's detail (scr_detail.c). */
void ui_view_detected(struct ui_wizard *w);
void ui_view_detail(struct ui_wizard *w, const struct report_rec *rec, int width);
/* The detail of an accepted entry no loaded rule can make: what it says, why it is stale, the fix. */
void ui_view_stale(struct ui_wizard *w, const struct report_stale *e, int width);

#endif
