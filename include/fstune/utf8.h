/* Strings from the machine are bytes: a mount point, a model string or a file name need not be
 * UTF-8, and JSON text must be. A string that is not valid UTF-8 is written escaped: each byte that
 * is not part of a valid UTF-8 sequence becomes \xHH (two lower-case hex digits) and each backslash
 * becomes \\, so the escaped text is valid UTF-8 and decodes back to exactly the original bytes.
 * Valid strings are left as they are; the facts say which keys hold escaped text (their top-level
 * "escaped" array, doc/facts.md), so the escaping is never guessed from the text. */
#ifndef FSTUNE_UTF8_H
#define FSTUNE_UTF8_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* Whether the n bytes at s are valid UTF-8 as RFC 3629 and jansson define it (no overlong forms,
 * no surrogates, nothing above U+10FFFF). */
bool fst_utf8_is_valid(const char *s, size_t n);
/* The length of the valid UTF-8 sequence (one character) at s, of at most n bytes; 0 when none
 * starts there (a NUL counts as none). */
size_t fst_utf8_sequence(const char *s, size_t n);
/* The escaped form of the NUL-terminated `s` (a copy, also when it is valid and needs none).
 * Caller frees. */
char *fst_utf8_escape(const char *s);
/* The bytes an escaped text stands for: \\ is one backslash, \xHH the byte HH when it is 80 to ff
 * (the only bytes escaping writes: every byte below 80 is valid UTF-8); any other backslash stands
 * for itself, so a hand-written value decodes to something, never fails, and never to a control
 * character or a NUL. Caller frees. */
char *fst_utf8_unescape(const char *s);
/* A JSON string of a message that may hold bytes from the machine (an error naming a path): `s`
 * as it is when valid, else escaped. Never NULL (out of memory aborts). */
json_t *fst_json_text(const char *s);

#endif
