/* Allocation helpers that abort on out-of-memory (see xalloc.h). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/xalloc.h"

static void *checked(void *p)
{
	if (!p) {
		static const char msg[] = "fstune: out of memory\n";
		(void)!write(STDERR_FILENO, msg, sizeof(msg) - 1);
		abort();
	}
	return p;
}

void *xmalloc(size_t size) { return checked(malloc(size ? size : 1)); }
void *xcalloc(size_t n, size_t size) { return checked(calloc(n ? n : 1, size ? size : 1)); }
void *xrealloc(void *p, size_t size) { return checked(realloc(p, size ? size : 1)); }
char *xstrdup(const char *s) { return checked(strdup(s)); }
char *xstrndup(const char *s, size_t n) { return checked(strndup(s, n)); }

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return checked(s);
}
