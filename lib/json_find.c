/* Finding a member of a JSON list by one of its strings (json_find.h). */
#include "config.h"

#include <string.h>

#include "lib/json_find.h"

const json_t *json_find_by(const json_t *array, const char *key, const char *value)
{
	const json_t *e;
	size_t i;

	json_array_foreach(array, i, e) {
		const char *s = json_string_value(json_object_get(e, key));

		if (s && strcmp(s, value) == 0)
			return e;
	}
	return NULL;
}
