/* Text for Markdown (a table cell, a list item, a line of prose), escaped one way for every writer:
 * the report, the comparison, the facts, the rules and the history. */
#ifndef FSTUNE_APP_RENDER_MARKDOWN_H
#define FSTUNE_APP_RENDER_MARKDOWN_H

#include <stdio.h>

/* `s` with a backslash before each character CommonMark would read as markup inside a line: the
 * table's pipe, the backslash itself, emphasis (* _), code (`), links ([ ]) and HTML or autolinks
 * (< >); a newline becomes a space, so a cell stays on its row. NULL is the empty string. Caller
 * frees. */
char *markdown_escaped(const char *s);
/* markdown_escaped(s), written to `out`. */
void markdown_text(FILE *out, const char *s);

#endif
