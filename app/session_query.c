/* Questions every renderer and the exit status ask of a session's result: counts by severity, rule
 * errors, the status of the run. Apart from session.c so that renderers link without the engine. */
#include "config.h"

#include <string.h>

#include "app/session.h"

int session_severity_rank(const char *severity)
{
	static const char *const order[] = {"info", "suggest", "warn", "critical"};

	for (size_t i = 0; severity && i < sizeof(order) / sizeof(order[0]); i++)
		if (strcmp(severity, order[i]) == 0)
			return (int)i;
	return -1;
}

/* Recommendations of `severity` or higher; without the accepted ones when `skip_accepted`. */
static size_t count_at_least(const struct session *s, const char *severity, bool skip_accepted)
{
	int floor = session_severity_rank(severity);
	size_t i, n = 0;
	json_t *rec;

	json_array_foreach(s->result.recommendations, i, rec) {
		const char *sev = json_string_value(json_object_get(rec, "severity"));

		if (session_severity_rank(sev) >= floor &&
		    !(skip_accepted && json_is_object(json_object_get(rec, "accepted"))))
			n++;
	}
	return n;
}

size_t session_count_severity_at_least(const struct session *s, const char *severity)
{
	return count_at_least(s, severity, false);
}

size_t session_count_failing(const struct session *s, const char *severity)
{
	return count_at_least(s, severity, true);
}

size_t session_rule_errors(const struct session *s)
{
	return json_array_size(s->result.errors);
}

int session_status(const struct session *s, bool strict)
{
	int status = FST_EXIT_OK;

	if (facts_failed_count(s->facts) > 0)
		status = fst_exit_merge(status, FST_EXIT_PARTIAL);
	if (strict && session_rule_errors(s) > 0)
		status = fst_exit_merge(status, FST_EXIT_PARTIAL);
	return status;
}
