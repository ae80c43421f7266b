/* Questions every renderer and the exit status ask of a session's result: counts by severity, rule
 * errors, the status of the run. Apart from session.c so that renderers link without the engine. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app/session/session.h"
#include "lib/xalloc.h"

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

char *session_join_messages(const json_t *messages)
{
	char *out = xstrdup(""), *next;
	const json_t *m;
	size_t i;

	json_array_foreach(messages, i, m) {
		next = xasprintf("%s%s%s", out, i ? ", " : "", json_string_value(m) ? json_string_value(m) : "?");
		free(out);
		out = next;
	}
	return out;
}

bool session_no_rule_ran(const struct session *s)
{
	return s->is_evaluated && s->result.n_loaded == 0 && json_array_size(s->result.errors) > 0;
}

struct user_scan {
	const struct facts *f;
	bool has_user;
};

static void find_user(const char *key, const json_t *value, void *arg)
{
	struct user_scan *u = arg;
	const char *src = facts_source(u->f, key);

	(void)value;
	if (src && strcmp(src, "user") == 0)
		u->has_user = true;
}

bool session_facts_are_hand_written(const struct session *s)
{
	struct user_scan u = {s->facts, false};

	if (s->origin != SESSION_FROM_FILE)
		return false;
	facts_foreach(s->facts, find_user, &u);
	return u.has_user;
}

int session_status(const struct session *s, bool strict)
{
	int status = FST_EXIT_OK;

	if (facts_failed_count(s->facts) > 0)
		status = fst_exit_merge(status, FST_EXIT_PARTIAL);
	if (session_no_rule_ran(s))
		status = fst_exit_merge(status, FST_EXIT_PARTIAL);
	if (strict && session_rule_errors(s) > 0)
		status = fst_exit_merge(status, FST_EXIT_PARTIAL);
	return status;
}
