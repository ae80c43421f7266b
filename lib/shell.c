/* Quoting for a POSIX shell (fstune/shell.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "fstune/shell.h"
#include "fstune/utf8.h"

/* Appends the n bytes at s, single-quoted (a ' becomes '\''), to out at *o. */
static void put_quoted(char *out, size_t *o, const char *s, size_t n)
{
	out[(*o)++] = '\'';
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\'') {
			memcpy(out + *o, "'\\''", 4);
			*o += 4;
		} else {
			out[(*o)++] = s[i];
		}
	}
	out[(*o)++] = '\'';
}

char *fst_shell_quote(const char *s)
{
	static const char safe[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
				   "_@%+=:,./-";
	size_t len = strlen(s), o = 0, start = 0;
	char *out;

	if (len > 0 && strspn(s, safe) == len)
		return xstrdup(s);
	/* at worst every byte is a quote (4 bytes) or an invalid byte (a printf of its own, 20) */
	out = xmalloc(20 * len + 3);
	if (len == 0 || fst_utf8_is_valid(s, len)) {
		put_quoted(out, &o, s, len);
		out[o] = '\0';
		return out;
	}
	/* Bytes that are not UTF-8 are written as printf octal escapes, so the command line stays text
	 * (JSON holds it, a terminal shows it) and the shell still passes exactly these bytes. */
	for (size_t i = 0, k; i < len;) {
		if ((k = fst_utf8_sequence(s + i, len - i))) {
			i += k;
			continue;
		}
		if (i > start)
			put_quoted(out, &o, s + start, i - start);
		o += (size_t)sprintf(out + o, "\"$(printf '");
		for (; i < len && !fst_utf8_sequence(s + i, len - i); i++)
			o += (size_t)sprintf(out + o, "\\%03o", (unsigned char)s[i]);
		o += (size_t)sprintf(out + o, "')\"");
		start = i;
	}
	if (start < len)
		put_quoted(out, &o, s + start, len - start);
	out[o] = '\0';
	return out;
}
