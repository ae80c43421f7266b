/* The progress line of a command on stderr (report, bench, trial, workload), drawn one way for all
 * of them: on a terminal one line rewritten in place ("\r", erase, the text) and erased before
 * anything else is printed; a line that says what a finished step did (a trial's run) is printed
 * whole, on a terminal or not. --quiet draws nothing. */
#ifndef FSTUNE_APP_RENDER_PROGRESS_H
#define FSTUNE_APP_RENDER_PROGRESS_H

#include <stdbool.h>

struct progress {
	bool is_quiet; /* --quiet: no line of either kind */
	bool is_live;  /* stderr is a terminal and not --quiet: the rewritten line is drawn */
	bool is_shown; /* a rewritten line is on the terminal now, to be erased */
};

/* Asks whether stderr is a terminal once, for the whole run. */
void progress_init(struct progress *p, bool is_quiet);
/* The rewritten line, now `fmt`; nothing when not live. */
void progress_update(struct progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Erases the rewritten line if one is shown: before a message, and when the work ends. */
void progress_clear(struct progress *p);
/* A finished step's line (a newline is added), after erasing a rewritten one; nothing when quiet. */
void progress_done(struct progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The workload_observe_tick_fn of a command (`arg` is its struct progress): how far an observation is. */
bool progress_observe_tick(double done_s, double total_s, void *arg);

#endif
