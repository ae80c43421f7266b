/* Errors that reach the user: a status from status.h and one message that says what was wrong and
 * what to do. Library-level functions fill a struct fst_error and never print; only app/ prints. */
#ifndef FSTUNE_ERROR_H
#define FSTUNE_ERROR_H

#include <stdarg.h>
#include <stdio.h>

#include "fstune/status.h"

struct fst_error {
	int status;     /* an FST_EXIT_* value; FST_EXIT_OK when no error was set */
	char msg[1024]; /* one line, no trailing newline, no program-name prefix */
};

#define FST_ERROR_INIT {FST_EXIT_OK, ""}

/* Sets err (ignored when err is NULL) and returns `status`, so callers can `return fst_error_set(...)`. */
int fst_error_set(struct fst_error *err, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void fst_error_clear(struct fst_error *err);

/* app/ only: prints "fstune: <msg>" on stderr. */
void fst_error_print(const struct fst_error *err);
void fst_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fst_vwarn(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

#endif
