/* The wizard's entry point: `fstune` with no command runs it (app/main.c calls ui_wizard_main). */
#ifndef FSTUNE_APP_UI_H
#define FSTUNE_APP_UI_H

/* Runs the interactive wizard. `argv[0]` is the program or command name; the options are
 * --facts FILE, --sysroot DIR, --target-os, --rules-dir DIR (repeatable), --no-system-rules and
 * --help. Needs a terminal on standard input and output: without one it says to use
 * `fstune report` and returns FST_EXIT_USAGE (2) before curses starts. Returns an exit status; a
 * signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT) restores the terminal and ends the process by
 * re-raising itself, so the status is then 128+n. */
int ui_wizard_main(int argc, char **argv);

#endif
