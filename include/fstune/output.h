/* The one atomic writer of a report, a listing or a script: a file is written to a temporary name
 * beside it (mode as a plain create would give) and renamed into place when committed, so a failed
 * run leaves no half-written file; a device, FIFO or socket is written in place; NULL or "-" is
 * standard output. Errors are set in a struct fst_error, never printed. */
#ifndef FSTUNE_OUTPUT_H
#define FSTUNE_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "fstune/error.h"

struct fst_output;

/* Opens `path` for writing: NULL with `err` set (FST_EXIT_USAGE) when it is a directory or cannot be
 * created. Never NULL otherwise; fst_output_finish frees it. */
struct fst_output *fst_output_open(const char *path, struct fst_error *err);
/* Where to write; valid until fst_output_finish. */
FILE *fst_output_stream(struct fst_output *o);
/* From now on the stream writes text for a terminal: every control character but a line break and a
 * tab written visibly (fst_text_visible), so nothing read from a file or the machine can move the
 * cursor or send an escape sequence. */
void fst_output_text_only(struct fst_output *o);
/* Commits (flush, fsync, rename) when `commit`, else removes the temporary, and frees `o` (NULL:
 * nothing to do). FST_EXIT_OK, or FST_EXIT_USAGE with `err` set after a write error, which also
 * leaves the file as it was. */
int fst_output_finish(struct fst_output *o, bool commit, struct fst_error *err);

#endif
