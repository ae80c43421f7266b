/* Quoting for a POSIX shell (fstune/shell.h). */
#include "config.h"

#include <string.h>

#include "lib/xalloc.h"
#include "fstune/shell.h"

char *fst_shell_quote(const char *s)
{
	static const char safe[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
				   "_@%+=:,./-";
	size_t n = 0, len = strlen(s);
	char *out, *p;

	if (len > 0 && strspn(s, safe) == len)
		return xstrdup(s);
	for (const char *q = s; *q; q++)
		n += *q == '\'' ? 4 : 1;
	out = p = xmalloc(n + 3);
	*p++ = '\'';
	for (const char *q = s; *q; q++) {
		if (*q == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else {
			*p++ = *q;
		}
	}
	*p++ = '\'';
	*p = '\0';
	return out;
}
