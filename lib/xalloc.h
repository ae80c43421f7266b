/* Allocation helpers that never return NULL: out of memory ends the program with a message, which is
 * the only sane answer for a short-lived advisor and keeps every caller free of dead error paths. */
#ifndef FSTUNE_XALLOC_H
#define FSTUNE_XALLOC_H

#include <stddef.h>
#include <string.h>

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Appends one zeroed element to the array `v` of `n` elements (lvalues, each evaluated more than
 * once: `v` is reallocated, `n` incremented) and yields a pointer to it. */
#define XAPPEND(v, n) \
	((v) = xrealloc((v), ((n) + 1) * sizeof *(v)), memset(&(v)[(n)], 0, sizeof *(v)), &(v)[(n)++])

#endif
