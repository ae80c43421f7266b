/* The terminal guard: the wizard never leaves a terminal broken, whether it ends by q, Ctrl-C,
 * SIGTERM, SIGHUP, an abort or a fatal error.
 *
 * A signal handler may not call endwin() (it is not async-signal-safe and may run while curses is
 * half-way through an update), so at start the terminal's termios is saved and the escape strings
 * that leave the alternate screen and show the cursor are copied into a static buffer; the handler
 * puts back the termios with tcsetattr, writes that buffer with write(2), restores the default
 * action and re-raises the signal, so the exit status is 128+n as DESIGN.md says.
 *
 * Also the one read of the terminal outside the loop: the keys typed during a long step. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>

#include "app/wizard/ui_int.h"
#include "fstune/status.h"

#define ESCDELAY_MS 25 /* long enough for a key's escape sequence over ssh, short enough for Esc */

static struct termios saved_tio;       /* the terminal as we found it */
static volatile sig_atomic_t is_saved; /* saved_tio is valid */
static volatile sig_atomic_t is_curses; /* between initscr and endwin */
static char restore_seq[256];          /* written by the handler: leave the alternate screen, ... */
static size_t restore_len;

static const int guarded_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT};

int ui_term_require_tty(void)
{
	if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))
		return FST_EXIT_OK;
	fprintf(stderr, "fstune: the wizard needs a terminal; for scripts, cron and pipes use "
			"'fstune report' (see fstune report --help)\n");
	return FST_EXIT_USAGE;
}

static void restore_raw(void)
{
	if (is_saved)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved_tio);
	if (restore_len) {
		ssize_t off = 0, n;

		while ((size_t)off < restore_len &&
		       ((n = write(STDOUT_FILENO, restore_seq + off, restore_len - (size_t)off)) > 0 ||
			(n < 0 && errno == EINTR)))
			if (n > 0)
				off += n;
	}
}

/* Only async-signal-safe calls: tcsetattr, write, then fst_exit_by_signal. */
static void on_signal(int sig)
{
	if (is_curses)
		restore_raw();
	fst_exit_by_signal(sig);
}

static void append_cap(const char *capname)
{
	const char *s = tigetstr(capname);
	size_t len;

	if (!s || s == (const char *)-1)
		return;
	len = strlen(s);
	if (restore_len + len >= sizeof(restore_seq))
		return;
	memcpy(restore_seq + restore_len, s, len);
	restore_len += len;
}

static void at_exit(void)
{
	ui_term_stop();
}

void ui_term_guard_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(guarded_signals) / sizeof(guarded_signals[0]); i++)
		sigaddset(&sa.sa_mask, guarded_signals[i]);
	for (size_t i = 0; i < sizeof(guarded_signals) / sizeof(guarded_signals[0]); i++)
		sigaction(guarded_signals[i], &sa, NULL);
}

void ui_term_start(void)
{
	if (tcgetattr(STDIN_FILENO, &saved_tio) == 0)
		is_saved = 1;
	ui_term_guard_signals();
	atexit(at_exit);

	set_escdelay(ESCDELAY_MS);
	if (!initscr())
		ui_fatal(FST_EXIT_USAGE, "cannot start the terminal (TERM=%s); use 'fstune report'",
			 getenv("TERM") ? getenv("TERM") : "");
	/* Keypad off, attributes off, cursor visible, alternate screen left: in this order. */
	append_cap("rmkx");
	append_cap("sgr0");
	append_cap("cnorm");
	append_cap("rmcup");
	is_curses = 1;
	cbreak(); /* not raw(): Ctrl-C stays a signal, so it ends the wizard the same way SIGINT does */
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	ui_theme_init();
}

void ui_term_stop(void)
{
	if (!is_curses)
		return;
	is_curses = 0;
	endwin();
	if (is_saved)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved_tio);
}

_Noreturn void ui_fatal(int status, const char *fmt, ...)
{
	va_list ap;

	ui_term_stop();
	fputs("fstune: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

bool ui_poll_cancel(void)
{
	bool is_esc = false;
	wint_t wc;
	int rc;

	wtimeout(stdscr, 0);
	while ((rc = wget_wch(stdscr, &wc)) != ERR)
		if (rc != KEY_CODE_YES && wc == 27)
			is_esc = true;
	return is_esc;
}
