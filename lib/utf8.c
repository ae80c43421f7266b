/* Bytes from the machine made valid UTF-8, reversibly (fstune/utf8.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "fstune/utf8.h"

size_t fst_utf8_sequence(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len;
	unsigned long cp;

	if (!n || !s[0])
		return 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		len = 2, cp = s[0] & 0x1F;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		len = 3, cp = s[0] & 0x0F;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3F);
	}
	if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000))
		return 0;
	return len;
}

bool fst_utf8_is_valid(const char *s, size_t n)
{
	for (size_t i = 0, k; i < n; i += k)
		if (!(k = fst_utf8_sequence(s + i, n - i)))
			return false;
	return true;
}

char *fst_utf8_escape(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), o = 0;
	char *out = xmalloc(4 * n + 1);

	for (size_t i = 0, k; i < n; i += k) {
		k = fst_utf8_sequence(s + i, n - i);
		if (!k) {
			o += (size_t)sprintf(out + o, "\\x%02x", p[i]);
			k = 1;
		} else if (p[i] == '\\') {
			out[o++] = '\\';
			out[o++] = '\\';
		} else {
			memcpy(out + o, p + i, k);
			o += k;
		}
	}
	out[o] = '\0';
	return out;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

char *fst_utf8_unescape(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;

	while (*s) {
		int hi, lo;

		if (s[0] == '\\' && s[1] == '\\') {
			*o++ = '\\';
			s += 2;
		} else if (s[0] == '\\' && s[1] == 'x' && (hi = hex_digit(s[2])) >= 8 && (lo = hex_digit(s[3])) >= 0) {
			*o++ = (char)(hi << 4 | lo);
			s += 4;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	return out;
}

json_t *fst_json_text(const char *s)
{
	json_t *v;

	if (fst_utf8_is_valid(s, strlen(s)))
		v = json_string(s);
	else {
		char *e = fst_utf8_escape(s);

		v = json_string(e);
		free(e);
	}
	if (!v) {
		fputs("fstune: out of memory\n", stderr);
		abort();
	}
	return v;
}
