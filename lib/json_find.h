/* Finding a member of a JSON list by one of its strings (a recommendation by id, a plan's change by
 * setting, a load error by file). */
#ifndef FSTUNE_JSON_FIND_H
#define FSTUNE_JSON_FIND_H

#include <jansson.h>

/* The first element of `array` that is an object whose member `key` is the string `value`; NULL
 * when none is (or `array` is not a list). */
const json_t *json_find_by(const json_t *array, const char *key, const char *value);

#endif
