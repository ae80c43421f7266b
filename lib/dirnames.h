/* The files of a directory that fstune reads in order (rule files, journals): listed one way. */
#ifndef FSTUNE_DIRNAMES_H
#define FSTUNE_DIRNAMES_H

#include <dirent.h>
#include <stddef.h>

/* The names in `d` that end with `suffix` and are longer than it, hidden ones (a leading dot) left
 * out, sorted by strcmp; *n their count. `d` is read to its end and left open. Caller frees each
 * name and the array, which is never NULL. */
char **dir_names(DIR *d, const char *suffix, size_t *n);

#endif
