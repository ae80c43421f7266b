/* What a rule file is to the rest of the engine: the validation of the table it returns (id, title,
 * description, sources, settings, needs, uses, check, tests), naming the file and the field on error,
 * as nmap's NSE loader does; its id; and the shape of an error entry about it. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/internal.h"
#include "rules/meta.h"
#include "rules/settings.h"

static const char *const top_fields[] = {"id",    "title", "description", "sources", "settings",
					 "needs", "uses",  "tests",       NULL};
static const char *const vector_fields[] = {"name", "facts", "expect", NULL};
static const char *const expect_fields[] = {"name",       "severity", "setting",   "recommended",
					    "current",    "confidence", "disruption", "apply",
					    "revert",     "host_wide",  "precedes_mkfs", "evidence", NULL};

static bool fail(char *msg, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(char *msg, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, len, fmt, ap);
	va_end(ap);
	return false;
}

bool rules_is_name(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	return n > 0 && n <= 48 && s[0] >= 'a' && s[0] <= 'z' &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_") == n;
}

bool rules_is_fact_key(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	return n > 0 && n <= 128 && s[0] != '.' && s[n - 1] != '.' && !strstr(s, "..") &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_.") == n;
}

void rules_sanitize_json(json_t *j)
{
	size_t i;
	json_t *e;
	const char *k;

	if (json_is_string(j)) {
		char *s = strdup(json_string_value(j));

		if (s) {
			size_t n = rules_strip_controls(s, strlen(s));

			json_string_setn(j, s, n);
			free(s);
		}
	} else if (json_is_array(j)) {
		json_array_foreach(j, i, e)
			rules_sanitize_json(e);
	} else if (json_is_object(j)) {
		json_object_foreach(j, k, e)
			rules_sanitize_json(e);
	}
}

static bool only_fields(const json_t *obj, const char *const *allowed, const char *where, char *msg,
			size_t len)
{
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)obj, k, v) {
		const char *const *a;

		for (a = allowed; *a && strcmp(*a, k); a++)
			;
		if (!*a)
			return fail(msg, len, "%sunknown field '%.40s'", where, k);
	}
	return true;
}

static bool string_field(const json_t *m, const char *f, size_t max, bool required, char *msg,
			 size_t len)
{
	const json_t *v = json_object_get(m, f);

	if (!v)
		return required ? fail(msg, len, "field %s: missing (a string is required)", f) : true;
	if (!json_is_string(v) || json_string_length(v) == 0 || json_string_length(v) > max)
		return fail(msg, len, "field %s: a non-empty string of at most %zu bytes is required", f,
			    max);
	return true;
}

/* A list of strings, each passing `ok` when given. An empty Lua table arrives as []. */
static bool list_field(const json_t *m, const char *f, bool required, bool nonempty,
		       bool (*ok)(const char *), const char *what, char *msg, size_t len)
{
	const json_t *v = json_object_get(m, f);
	size_t i;
	json_t *e;

	if (!v)
		return required ? fail(msg, len, "field %s: missing (a list of %s is required)", f, what)
				: true;
	if (json_is_object(v) && json_object_size(v) == 0)
		v = NULL;
	if (v && !json_is_array(v))
		return fail(msg, len, "field %s: a list of %s is required", f, what);
	if (nonempty && json_array_size(v) == 0)
		return fail(msg, len, "field %s: at least one entry is required", f);
	json_array_foreach(v, i, e) {
		if (!json_is_string(e) || (ok && !ok(json_string_value(e))))
			return fail(msg, len, "field %s[%zu]: %s expected", f, i + 1, what);
	}
	return true;
}

static bool is_setting(const char *s)
{
	return settings_find(s) != NULL;
}

static bool is_text(const char *s)
{
	return *s != '\0';
}

static bool validate_expect(const json_t *ex, size_t vi, char *msg, size_t len)
{
	size_t i;
	json_t *e;
	char where[96];

	if (json_is_string(ex) && !strcmp(json_string_value(ex), "not_evaluated"))
		return true;
	if (!json_is_array(ex))
		return fail(msg, len, "field tests[%zu].expect: a list of names, or \"not_evaluated\"", vi);
	json_array_foreach(ex, i, e) {
		snprintf(where, sizeof(where), "field tests[%zu].expect[%zu]: ", vi, i + 1);
		if (json_is_string(e) && rules_is_name(json_string_value(e)))
			continue;
		if (!json_is_object(e) || !rules_is_name(json_string_value(json_object_get(e, "name"))))
			return fail(msg, len, "%sa name or a table with a name is required", where);
		if (!only_fields(e, expect_fields, where, msg, len))
			return false;
	}
	return true;
}

static bool validate_tests(const json_t *m, char *msg, size_t len)
{
	const json_t *t = json_object_get(m, "tests");
	size_t i;
	json_t *v;
	char where[96];

	if (!t)
		return true;
	if (json_is_object(t) && json_object_size(t) == 0)
		return true;
	if (!json_is_array(t))
		return fail(msg, len, "field tests: a list of test vectors is required");
	json_array_foreach(t, i, v) {
		const json_t *facts = json_object_get(v, "facts");

		snprintf(where, sizeof(where), "field tests[%zu]: ", i + 1);
		if (!json_is_object(v))
			return fail(msg, len, "%sa table {name, facts, expect} is required", where);
		if (!only_fields(v, vector_fields, where, msg, len))
			return false;
		if (!json_is_string(json_object_get(v, "name")))
			return fail(msg, len, "field tests[%zu].name: a string is required", i + 1);
		if (!json_is_object(facts) && !(json_is_array(facts) && json_array_size(facts) == 0))
			return fail(msg, len, "field tests[%zu].facts: a table of facts is required", i + 1);
		if (!validate_expect(json_object_get(v, "expect"), i + 1, msg, len))
			return false;
	}
	return true;
}

bool rules_validate_meta(json_t *meta, bool has_check, char *msg, size_t len)
{
	if (!json_is_object(meta))
		return fail(msg, len, "the file must return a table");
	rules_sanitize_json(meta);
	if (!json_is_string(json_object_get(meta, "id")) ||
	    !rules_is_name(json_string_value(json_object_get(meta, "id"))))
		return fail(msg, len, "field id: a name of [a-z0-9_] starting with a letter is required");
	if (!string_field(meta, "title", 200, true, msg, len) ||
	    !string_field(meta, "description", 8192, true, msg, len) ||
	    !list_field(meta, "sources", true, true, is_text, "strings", msg, len) ||
	    !list_field(meta, "settings", true, false, is_setting, "setting names", msg, len) ||
	    !list_field(meta, "needs", true, false, rules_is_fact_key, "fact keys", msg, len) ||
	    !list_field(meta, "uses", false, false, rules_is_fact_key, "fact keys", msg, len))
		return false;
	if (!has_check)
		return fail(msg, len, "field check: a function check(facts) is required");
	if (!validate_tests(meta, msg, len))
		return false;
	return only_fields(meta, top_fields, "", msg, len);
}

json_t *rules_error_entry(const char *rule, const char *file, int line, const char *message)
{
	json_t *e = json_pack("{s:s, s:s, s:s}", "rule", rule ? rule : "", "file", file ? file : "",
			      "message", message);

	json_object_set_new(e, "line", line > 0 ? json_integer(line) : json_null());
	return e;
}

const char *rules_file_id(const struct rule_file *rf)
{
	const char *id = json_string_value(json_object_get(rf->meta, "id"));
	static char base[64];
	const char *slash = strrchr(rf->path, '/');
	size_t n;

	if (id)
		return id;
	snprintf(base, sizeof(base), "%s", slash ? slash + 1 : rf->path);
	n = strlen(base);
	if (n > 4 && !strcmp(base + n - 4, ".lua"))
		base[n - 4] = '\0';
	return base;
}
