/* Markdown text, escaped one way for every writer (markdown.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app/render/markdown.h"
#include "lib/xalloc.h"

char *markdown_escaped(const char *s)
{
	char *out = xcalloc(2 * (s ? strlen(s) : 0) + 1, 1), *p = out;

	for (; s && *s; s++) {
		if (strchr("|\\*_`[]<>", *s))
			*p++ = '\\';
		*p++ = *s == '\n' ? ' ' : *s;
	}
	return out;
}

void markdown_text(FILE *out, const char *s)
{
	char *e = markdown_escaped(s);

	fputs(e, out);
	free(e);
}
