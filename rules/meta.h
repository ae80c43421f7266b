/* Validation of a rule file's returned table and of names, keys and strings from rules (meta.c). */
#ifndef FSTUNE_RULES_META_H
#define FSTUNE_RULES_META_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* Checks the table (as JSON, `check` reported by has_check); strips control characters from its
 * strings. false with "field X: ..." in msg. */
bool rules_validate_meta(json_t *meta, bool has_check, char *msg, size_t len);
/* [a-z][a-z0-9_]*, at most 48 bytes: file ids and recommendation names. */
bool rules_is_name(const char *s);
/* Dotted lower_snake_case keys. */
bool rules_is_fact_key(const char *s);
/* Strips control characters from every string of a JSON tree, in place. */
void rules_sanitize_json(json_t *j);

#endif
