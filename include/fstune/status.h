/* Exit statuses of every command (DESIGN.md, "Common flags and exit status"). When several apply,
 * REFUSED beats PARTIAL beats THRESHOLD; a usage error stops the run first. */
#ifndef FSTUNE_STATUS_H
#define FSTUNE_STATUS_H

enum fst_exit {
	FST_EXIT_OK = 0,
	FST_EXIT_THRESHOLD = 1, /* report --fail-on met, or a rule test vector failed */
	FST_EXIT_USAGE = 2,     /* bad option, missing path, malformed facts file, unwritable --output */
	FST_EXIT_PARTIAL = 3,   /* a probe or benchmark failed, or with --strict a rule error */
	FST_EXIT_REFUSED = 4,   /* refused for safety */
};

/* The status that wins when both apply. */
int fst_exit_merge(int a, int b);

/* Ends the process by signal `sig` as if it had never been caught (status 128+n): its default
 * action put back, unblocked, raised. Async-signal-safe, so a handler may call it. */
void fst_exit_by_signal(int sig);

#endif
