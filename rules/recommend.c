/* From what a rule's check() returned to recommendations an admin can trust: fields and types
 * checked, values validated against the setting table, evidence values and sources added, the
 * confidence capped by the weakest source, apply/revert/mkfs built by the engine only, and a trial's
 * verdict where the facts hold one (verify.c). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "rules/internal.h"
#include "rules/meta.h"
#include "rules/settings.h"

static const char *const rec_fields[] = {"name",     "setting",  "current",  "recommended",
					 "severity", "confidence", "title", "rationale",
					 "evidence", "sources",  "fs",       "precedes_mkfs", NULL};
static const char *const severities[] = {"info", "suggest", "warn", "critical", NULL};

/* Caps by source class, weakest last (DESIGN.md "Recommendations"). `preset` sits between `user`
 * and `default`: a workload preset is the user's choice of profile, but its numbers are ours, not
 * theirs. A source name not listed here counts as probed. */
static const struct {
	const char *source;
	double cap;
	int rank; /* higher = stronger evidence, listed first */
} source_caps[] = {
	{"trial", 1.0, 6},   {"bench", 1.0, 6},  {"sample", 0.9, 5}, {"observe", 0.9, 5},
	{"user", 0.7, 3},    {"preset", 0.6, 2}, {"default", 0.5, 1},
};
#define PROBED_CAP 0.8
#define PROBED_RANK 4

static double source_cap(const char *src, int *rank)
{
	for (size_t i = 0; i < sizeof(source_caps) / sizeof(source_caps[0]); i++)
		if (src && !strcmp(src, source_caps[i].source)) {
			*rank = source_caps[i].rank;
			return source_caps[i].cap;
		}
	*rank = PROBED_RANK;
	return PROBED_CAP;
}

struct rec_error {
	char msg[512];
};

static bool rec_fail(struct rec_error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool rec_fail(struct rec_error *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return false;
}

static bool one_of(const char *s, const char *const *list)
{
	for (; s && *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

static bool check_fields(const json_t *raw, struct rec_error *e)
{
	const char *k, *sev;
	json_t *v;
	double conf;

	json_object_foreach((json_t *)raw, k, v)
		if (!one_of(k, rec_fields))
			return rec_fail(e, "unknown field '%.40s'", k);
	if (!rules_is_name(json_string_value(json_object_get(raw, "name"))))
		return rec_fail(e, "field name: a name of [a-z0-9_] starting with a letter is required");
	sev = json_string_value(json_object_get(raw, "severity"));
	if (!one_of(sev, severities))
		return rec_fail(e, "field severity: one of info, suggest, warn, critical is required");
	v = json_object_get(raw, "confidence");
	conf = json_number_value(v);
	if (!json_is_number(v) || conf < 0 || conf > 1)
		return rec_fail(e, "field confidence: a number from 0 to 1 is required");
	for (const char *const *f = (const char *const[]){"title", "rationale", NULL}; *f; f++) {
		v = json_object_get(raw, *f);
		if (!json_is_string(v) || json_string_length(v) == 0 || json_string_length(v) > 4096)
			return rec_fail(e, "field %s: a non-empty string is required", *f);
	}
	v = json_object_get(raw, "precedes_mkfs");
	if (v && !json_is_boolean(v))
		return rec_fail(e, "field precedes_mkfs: true or false is required");
	v = json_object_get(raw, "evidence");
	if (v && !(json_is_object(v) && json_object_size(v) == 0)) {
		size_t i;
		json_t *x;

		if (!json_is_array(v))
			return rec_fail(e, "field evidence: a list of fact keys is required");
		json_array_foreach(v, i, x)
			if (!rules_is_fact_key(json_string_value(x)))
				return rec_fail(e, "field evidence[%zu]: a fact key is required", i + 1);
	}
	return true;
}

/* A title as every renderer shows it, on one line: the line breaks and tabs a rule left in (the
 * other control characters are stripped from everything a rule returns) become spaces, as would
 * those of a fact a rule quoted in it. */
static json_t *one_line(const char *title)
{
	char *t = xstrdup(title);
	json_t *j;

	for (char *p = t; *p; p++)
		if (*p == '\n' || *p == '\t' || *p == '\r')
			*p = ' ';
	j = json_string(t);
	free(t);
	return j;
}

/* Evidence with values and sources, strongest source first; caps *conf by the weakest. */
static json_t *build_evidence(const json_t *keys, const struct facts *facts, double *conf,
			      const char **capped_by)
{
	json_t *out = json_array();
	size_t i, n = json_array_size(keys);
	int *ranks = xcalloc(n + 1, sizeof(int));
	json_t **items = xcalloc(n + 1, sizeof(json_t *));
	json_t *k;

	json_array_foreach(keys, i, k) {
		const char *key = json_string_value(k);
		const json_t *v = facts_get(facts, key);
		enum facts_status st;
		const char *reason = NULL;

		if (v && !json_is_null(v)) {
			const char *src = facts_source(facts, key);
			double cap;

			if (!src)
				src = "user"; /* a value with no recorded source was given by someone */
			cap = source_cap(src, &ranks[i]);
			if (cap < *conf) {
				*conf = cap;
				*capped_by = key;
			}
			items[i] = json_pack("{s:s, s:O, s:s}", "key", key, "value", v, "source", src);
		} else if (facts_unavailable(facts, key, &st, &reason)) {
			items[i] = json_pack("{s:s, s:n, s:s, s:s}", "key", key, "value", "status",
					     facts_status_name(st), "reason", reason ? reason : "");
		} else {
			items[i] = json_pack("{s:s, s:n, s:s}", "key", key, "value", "status", "absent");
		}
	}
	for (int r = 6; r >= 0; r--)
		for (i = 0; i < n; i++)
			if (ranks[i] == r)
				json_array_append_new(out, items[i]);
	free(ranks);
	free(items);
	return out;
}

static bool build_setting(const struct setting *s, const json_t *raw, const struct facts *facts,
			  json_t *rec, struct rec_error *e)
{
	const json_t *value = json_object_get(raw, "recommended");
	json_t *current = json_object_get(raw, "current");
	struct setting_ctx c = {0};
	char msg[256];

	if (!value)
		return rec_fail(e, "field recommended: required with setting %s", s->name);
	if (!settings_check_value(s, value, true, msg, sizeof(msg)))
		return rec_fail(e, "field recommended: %s", msg);
	if (current && !settings_check_value(s, current, false, msg, sizeof(msg)))
		return rec_fail(e, "field current: %s", msg);
	current = current ? json_incref(current) : settings_current(s, facts);
	c.facts = facts;
	c.value = value;
	c.current = current;
	c.fs = json_string_value(json_object_get(raw, "fs"));
	if (!c.fs)
		c.fs = facts_get_string(facts, "fs.type");
	c.apply = json_array();
	c.revert = json_array();
	if (!settings_build(s, &c)) {
		json_decref(current);
		json_decref(c.apply);
		json_decref(c.revert);
		return rec_fail(e, "%s", c.err);
	}
	json_object_set_new(rec, "setting", json_string(s->name));
	if (current)
		json_object_set_new(rec, "current", current);
	json_object_set(rec, "recommended", (json_t *)value);
	json_object_set_new(rec, "disruption", json_string(c.disruption ? c.disruption : s->disruption));
	json_object_set_new(rec, "apply", c.apply);
	json_object_set_new(rec, "revert", c.revert);
	if (c.persistent)
		json_object_set_new(rec, "persistent", c.persistent);
	if (c.owners)
		json_object_set_new(rec, "owners", c.owners);
	if (c.mkfs)
		json_object_set_new(rec, "mkfs", c.mkfs);
	if (s->family->host_wide && json_is_true(facts_get(facts, "host.container")))
		json_object_set_new(rec, "host_wide", json_true());
	return true;
}

static bool finish_one(const struct rule_file *rf, const json_t *raw, const struct facts *facts,
		       json_t *rec, struct rec_error *e)
{
	const json_t *meta = rf->meta, *sv = json_object_get(raw, "setting");
	const char *name = json_string_value(json_object_get(raw, "name"));
	const char *capped_by = NULL;
	double conf;
	json_t *ev, *sources;

	if (!json_is_object(raw))
		return rec_fail(e, "a recommendation must be a table");
	if (!check_fields(raw, e))
		return false;
	conf = json_number_value(json_object_get(raw, "confidence"));
	json_object_set_new(rec, "id", json_sprintf("%s.%s", json_string_value(json_object_get(meta, "id")),
						    name));
	json_object_set_new(rec, "rule", json_string(json_string_value(json_object_get(meta, "id"))));
	json_object_set_new(rec, "file", json_string(rf->path));
	if (sv) {
		const struct setting *s = settings_find(json_string_value(sv));
		size_t i;
		json_t *d;
		bool declared = false;

		if (!s)
			return rec_fail(e, "field setting: unknown setting '%.64s'",
					json_is_string(sv) ? json_string_value(sv) : "(not a string)");
		json_array_foreach(json_object_get(meta, "settings"), i, d)
			declared |= !strcmp(json_string_value(d), s->name);
		if (!declared)
			return rec_fail(e, "field setting: %s is not declared in the file's settings", s->name);
		if (!build_setting(s, raw, facts, rec, e))
			return false;
	} else {
		if (json_object_get(raw, "recommended") || json_object_get(raw, "current"))
			return rec_fail(e, "field recommended: only with a setting (advice has none)");
		json_object_set_new(rec, "disruption", json_string("advice"));
		json_object_set_new(rec, "apply", json_array());
		json_object_set_new(rec, "revert", json_array());
		if (json_is_string(json_object_get(raw, "fs")))
			json_object_set(rec, "fs", json_object_get(raw, "fs"));
	}
	json_object_set_new(rec, "needs_reformat",
			    json_boolean(!strcmp(json_string_value(json_object_get(rec, "disruption")),
						 "reformat")));
	if (json_is_true(json_object_get(raw, "precedes_mkfs")))
		json_object_set_new(rec, "precedes_mkfs", json_true());
	json_object_set(rec, "severity", json_object_get(raw, "severity"));
	json_object_set_new(rec, "title", one_line(json_string_value(json_object_get(raw, "title"))));
	json_object_set(rec, "rationale", json_object_get(raw, "rationale"));
	ev = build_evidence(json_object_get(raw, "evidence"), facts, &conf, &capped_by);
	json_object_set_new(rec, "confidence", json_real(conf));
	if (capped_by)
		json_object_set_new(rec, "confidence_capped_by", json_string(capped_by));
	json_object_set_new(rec, "evidence", ev);
	sources = json_object_get(raw, "sources");
	if (!json_is_array(sources))
		sources = json_object_get(meta, "sources");
	json_object_set(rec, "sources", sources);
	rules_verify(rec, facts_get(facts, "trial"));
	return true;
}

void rules_finish_recommendations(const struct rule_file *rf, const json_t *raw_list,
				  const struct facts *facts, json_t *recs, json_t *errors)
{
	json_t *seen = json_object();
	size_t i;
	json_t *raw;
	const char *id = rules_file_id(rf);

	json_array_foreach(raw_list, i, raw) {
		json_t *copy = json_deep_copy(raw), *rec = json_object();
		struct rec_error e = {{0}};
		const char *name;

		rules_sanitize_json(copy);
		name = json_string_value(json_object_get(copy, "name"));
		if (name && json_object_get(seen, name)) {
			rec_fail(&e, "recommendation %s returned twice", name);
		} else if (finish_one(rf, copy, facts, rec, &e)) {
			json_object_set_new(seen, name, json_true());
			json_array_append(recs, rec);
		}
		if (e.msg[0]) {
			char *m = xasprintf("recommendation %zu%s%s: %s", i + 1, name ? " " : "",
					    name ? name : "", e.msg);

			json_array_append_new(errors, rules_error_entry(id, rf->path, 0, m));
			free(m);
		}
		json_decref(rec);
		json_decref(copy);
	}
	json_decref(seen);
}
