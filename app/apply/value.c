/* A setting's value on the running system: the target probed again with every probe, as a report
 * probes it, and the value read from the facts the way a rule's `current` is (rules_setting_current). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/apply/apply.h"
#include "fstune/probe.h"
#include "fstune/rules.h"
#include "lib/xalloc.h"

struct facts *apply_probe(const char *target, struct fst_error *err)
{
	struct probe_target t = {0};
	struct facts *f;

	if (target_resolve(target, &t, err) != FST_EXIT_OK) {
		target_free(&t);
		return NULL;
	}
	f = facts_new();
	probe_all(&t, f);
	target_free(&t);
	return f;
}

json_t *apply_value(const struct facts *f, const char *setting)
{
	return f ? rules_setting_current(setting, f) : NULL;
}

bool apply_value_equal(const json_t *a, const json_t *b)
{
	if (!a || !b || json_is_null(a) || json_is_null(b))
		return (!a || json_is_null(a)) && (!b || json_is_null(b));
	if (json_is_number(a) && json_is_number(b))
		return fabs(json_number_value(a) - json_number_value(b)) <= 1e-9 * fmax(1, fabs(json_number_value(a)));
	return json_equal((json_t *)a, (json_t *)b);
}

char *apply_value_text(const json_t *v)
{
	if (!v || json_is_null(v))
		return xstrdup("unknown");
	return json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
}
