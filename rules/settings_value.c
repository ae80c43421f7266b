/* The values of a setting: its type and range in words, the check of a value a rule recommends or
 * the facts hold, and the value its fact holds, typed as the setting's values are. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rules/settings.h"

const char *settings_type_name(const struct setting *s)
{
	static const char *const names[] = {"integer", "number", "boolean", "string", "string",
					    "list of features"};
	return names[s->type];
}

const char *settings_range_text(const struct setting *s, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	switch (s->type) {
	case ST_INT:
		snprintf(buf, len, "%s%lld..%lld%s", s->zero_unsets ? "0 (unset) or " : "", s->min, s->max,
			 s->pow2 ? ", a power of two" : "");
		break;
	case ST_REAL:
		snprintf(buf, len, "%g..%g", s->rmin, s->rmax);
		break;
	case ST_BOOL:
		snprintf(buf, len, "true, false");
		break;
	case ST_ENUM:
		for (const char *const *c = s->choices; *c && off < len; c++)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", c == s->choices ? "" : ", ", *c);
		break;
	case ST_STRING:
		snprintf(buf, len, "at most %lld bytes", s->max);
		break;
	case ST_FEATURES:
		snprintf(buf, len, "names, ^name to turn off");
		break;
	}
	return buf;
}

static bool check_int(const struct setting *s, const json_t *v, bool range, char *msg, size_t len)
{
	long long x;

	if (json_is_real(v)) {
		double d = json_real_value(v);

		if (d != floor(d) || fabs(d) > 9e18) {
			snprintf(msg, len, "%s wants an integer, got %g", s->name, d);
			return false;
		}
		x = (long long)d;
	} else if (json_is_integer(v)) {
		x = json_integer_value(v);
	} else {
		snprintf(msg, len, "%s wants an integer", s->name);
		return false;
	}
	if (range && x == 0 && s->zero_unsets)
		return true;
	if (range && (x < s->min || x > s->max)) {
		snprintf(msg, len, "%s = %lld is out of range %s", s->name, x,
			 settings_range_text(s, (char[96]){0}, 96));
		return false;
	}
	if (range && s->pow2 && (x <= 0 || (x & (x - 1)))) {
		snprintf(msg, len, "%s = %lld is not a power of two", s->name, x);
		return false;
	}
	return true;
}

static bool check_features(const struct setting *s, const json_t *v, char *msg, size_t len)
{
	size_t i;
	json_t *e;

	if (!json_is_array(v) || json_array_size(v) == 0 || json_array_size(v) > (size_t)s->max) {
		snprintf(msg, len, "%s wants a list of 1..%lld feature names", s->name, s->max);
		return false;
	}
	json_array_foreach(v, i, e) {
		const char *f = json_string_value(e);

		if (f && *f == '^')
			f++;
		if (!f || !*f || strlen(f) > 32 ||
		    strspn(f, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(f)) {
			snprintf(msg, len, "%s: item %zu is not a feature name ([a-z0-9_], ^ to turn off)",
				 s->name, i + 1);
			return false;
		}
	}
	return true;
}

bool settings_check_value(const struct setting *s, const json_t *v, bool range, char *msg, size_t len)
{
	switch (s->type) {
	case ST_INT:
		return check_int(s, v, range, msg, len);
	case ST_REAL:
		if (!json_is_number(v)) {
			snprintf(msg, len, "%s wants a number", s->name);
			return false;
		}
		if (range && (json_number_value(v) < s->rmin || json_number_value(v) > s->rmax)) {
			snprintf(msg, len, "%s = %g is out of range %g..%g", s->name, json_number_value(v),
				 s->rmin, s->rmax);
			return false;
		}
		return true;
	case ST_BOOL:
		if (!json_is_boolean(v)) {
			snprintf(msg, len, "%s wants true or false", s->name);
			return false;
		}
		return true;
	case ST_ENUM:
		if (!json_is_string(v)) {
			snprintf(msg, len, "%s wants a string", s->name);
			return false;
		}
		if (!range)
			return true;
		for (const char *const *c = s->choices; *c; c++)
			if (!strcmp(*c, json_string_value(v)))
				return true;
		snprintf(msg, len, "%s: \"%.64s\" is not one of %s", s->name, json_string_value(v),
			 settings_range_text(s, (char[160]){0}, 160));
		return false;
	case ST_STRING:
		if (!json_is_string(v)) {
			snprintf(msg, len, "%s wants a string", s->name);
			return false;
		}
		if (range && json_string_length(v) > (size_t)s->max) {
			snprintf(msg, len, "%s: longer than %lld bytes", s->name, s->max);
			return false;
		}
		for (const char *p = json_string_value(v); range && *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f) {
				snprintf(msg, len, "%s: control character in value", s->name);
				return false;
			}
		return true;
	case ST_FEATURES:
		return range ? check_features(s, v, msg, len) : json_is_array(v);
	}
	return false;
}

json_t *settings_value_of_fact(const struct setting *s, const struct facts *facts)
{
	char msg[128];
	const json_t *v;

	if (!s->fact_key || !(v = facts_get(facts, s->fact_key)))
		return NULL;
	if (s->fact_per) { /* e.g. bytes into filesystem blocks; not a whole number: unknown */
		long long per = 0;

		if (!json_is_integer(v) || !facts_get_int(facts, s->fact_per, &per) || per <= 0 ||
		    json_integer_value(v) < 0 || json_integer_value(v) % per)
			return NULL;
		return json_integer(json_integer_value(v) / per);
	}
	if (s->type == ST_BOOL && json_is_integer(v))
		return json_boolean(json_integer_value(v) != 0);
	if (!settings_check_value(s, v, false, msg, sizeof(msg)))
		return NULL;
	return json_deep_copy(v);
}
