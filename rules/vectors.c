/* A rule file's own test vectors, run through the real engine (facts file parsing, needs, the
 * sandboxed check, validation and command building): what `fstune rules test` reports. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json_find.h"
#include "lib/xalloc.h"
#include "rules/internal.h"
#include "rules/settings.h"

static json_t *result(const struct rule_file *rf, const char *vector, bool passed, const char *msg)
{
	return json_pack("{s:s, s:s, s:s, s:b, s:s}", "rule", rules_file_id(rf), "file", rf->path,
			 "vector", vector, "passed", passed, "message", msg);
}

static const char *expect_name(const json_t *e)
{
	return json_is_string(e) ? json_string_value(e) : json_string_value(json_object_get(e, "name"));
}

static const json_t *find_rec(const json_t *recs, const char *id, const char *name)
{
	char *full = xasprintf("%s.%s", id, name);
	const json_t *r = json_find_by(recs, "id", full);

	free(full);
	return r;
}

static char *names_of(const json_t *recs)
{
	char *out = xstrdup("");
	size_t i;
	json_t *r;

	json_array_foreach(recs, i, r) {
		const char *id = json_string_value(json_object_get(r, "id"));
		char *next = xasprintf("%s%s%s", out, i ? ", " : "", strchr(id, '.') + 1);

		free(out);
		out = next;
	}
	return out;
}

/* Compares produced recommendations with `expect`; NULL when they match, else a message. */
/* Whether the evidence `have` (objects with a "key") cites exactly the fact keys `want`, in any
 * order: the engine sorts it by source. */
static bool is_same_evidence(const json_t *want, const json_t *have)
{
	size_t i, j;
	json_t *w, *h;

	if (!json_is_array(want) || json_array_size(want) != json_array_size(have))
		return false;
	json_array_foreach(want, i, w) {
		bool found = false;

		json_array_foreach(have, j, h)
			found |= json_equal(w, json_object_get(h, "key"));
		if (!found)
			return false;
	}
	return true;
}

static char *compare(const struct rule_file *rf, const json_t *expect, const json_t *recs)
{
	const char *id = rules_file_id(rf);
	size_t i;
	json_t *e;

	json_array_foreach(expect, i, e) {
		const json_t *r = find_rec(recs, id, expect_name(e));
		const char *k;
		json_t *want;

		if (!r) {
			char *got = names_of(recs), *m = xasprintf("expected %s, got [%s]", expect_name(e), got);

			free(got);
			return m;
		}
		if (!json_is_object(e))
			continue;
		json_object_foreach((json_t *)e, k, want) {
			const json_t *have = json_object_get(r, k);

			if (!strcmp(k, "name") || json_equal(want, (json_t *)have))
				continue;
			if (!strcmp(k, "evidence") && is_same_evidence(want, have))
				continue;
			if (json_is_number(want) && json_is_number(have) &&
			    json_number_value(want) == json_number_value(have))
				continue;
			char *w = json_dumps(want, JSON_ENCODE_ANY), *h = have ? json_dumps(have, JSON_ENCODE_ANY)
									   : xstrdup("(absent)");
			char *m = xasprintf("%s: %s is %s, expected %s", expect_name(e), k, h, w);

			free(w);
			free(h);
			return m;
		}
	}
	if (json_array_size(recs) != json_array_size(expect)) {
		char *got = names_of(recs), *m = xasprintf("expected %zu recommendation(s), got [%s]",
							   json_array_size(expect), got);

		free(got);
		return m;
	}
	return NULL;
}

/* One vector of one file, between parsing and judging. */
struct vector {
	const struct rule_file *rf;
	const json_t *expect;
	char *label;          /* "N name" */
	struct facts *facts;  /* NULL when the facts did not parse */
	json_t *result;       /* set when decided before check() runs */
	bool is_last_of_file; /* coverage is judged after it */
};

static void prepare(struct vector *v, const struct rule_file *rf, const json_t *t, size_t idx)
{
	const char *name = json_string_value(json_object_get(t, "name"));
	const json_t *fj = json_object_get(t, "facts");
	struct fst_error err = FST_ERROR_INIT;
	json_t *doc = json_is_object(fj) ? json_deep_copy(fj) : json_object(), *missing;
	char *text = json_dumps(doc, JSON_COMPACT);

	v->rf = rf;
	v->expect = json_object_get(t, "expect");
	v->label = xasprintf("%zu %s", idx, name ? name : "");
	v->facts = facts_from_json(text, strlen(text), v->label, &err);
	json_decref(doc);
	free(text);
	if (!v->facts) {
		v->result = result(rf, v->label, false, err.msg);
		return;
	}
	missing = rules_missing_needs(rf->meta, v->facts);
	if (json_is_string(v->expect)) { /* "not_evaluated" */
		v->result = result(rf, v->label, json_array_size(missing) > 0,
				   json_array_size(missing) ? "not evaluated, as expected"
							    : "expected not evaluated, but its needs are met");
	} else if (json_array_size(missing) > 0) {
		char *m = xasprintf("the vector's facts lack needed %s",
				    json_string_value(json_array_get(missing, 0)));

		v->result = result(rf, v->label, false, m);
		free(m);
	}
	json_decref(missing);
}

/* Judges a vector from its check() answer; counts coverage. */
static json_t *judge(const struct vector *v, const json_t *answer, bool *is_positive,
		     bool *is_negative)
{
	json_t *recs = json_array(), *errors = json_array(), *out;
	char *m;

	rules_finish_answer(v->rf, answer, v->facts, recs, errors);
	if (json_array_size(errors) > 0) {
		const json_t *e0 = json_array_get(errors, 0);
		const json_t *line = json_object_get(e0, "line");

		m = json_is_integer(line) ? xasprintf("line %lld: %s", (long long)json_integer_value(line),
						      json_string_value(json_object_get(e0, "message")))
					  : xstrdup(json_string_value(json_object_get(e0, "message")));
	} else {
		m = compare(v->rf, v->expect, recs);
		*is_positive |= !m && json_array_size(v->expect) > 0;
		*is_negative |= !m && json_array_size(v->expect) == 0;
	}
	out = result(v->rf, v->label, m == NULL, m ? m : "ok");
	free(m);
	json_decref(recs);
	json_decref(errors);
	return out;
}

/* Every vector of the set, prepared, with the raw answers of those that ran check(). */
struct vector_run {
	struct vector *vs;
	size_t nv;
	json_t *answers; /* one per vector whose result is not decided before check() */
};

static void run_vectors(const struct rules_set *set, struct vector_run *run)
{
	struct rules_limits lim;
	struct check_job *jobs;
	size_t i, k, nv = 0, nj = 0;
	json_t *t;

	rules_limits_get(&lim);
	for (i = 0; i < set->n_files; i++)
		nv += json_array_size(json_object_get(set->files[i].meta, "tests")) + 1;
	run->vs = xcalloc(nv + 1, sizeof(*run->vs));
	jobs = xcalloc(nv + 1, sizeof(*jobs));
	nv = 0;
	for (i = 0; i < set->n_files; i++) {
		const struct rule_file *rf = &set->files[i];
		const json_t *tests = json_object_get(rf->meta, "tests");

		if (!rf->meta)
			continue;
		json_array_foreach(tests, k, t) {
			prepare(&run->vs[nv], rf, t, k + 1);
			if (!run->vs[nv].result)
				jobs[nj++] = (struct check_job){rf, run->vs[nv].facts};
			nv++;
		}
		if (json_array_size(tests) == 0) /* a placeholder that only judges coverage */
			run->vs[nv++] = (struct vector){.rf = rf, .result = json_null()};
		run->vs[nv - 1].is_last_of_file = true;
	}
	run->nv = nv;
	run->answers = rules_check_batch(jobs, nj, &lim);
	free(jobs);
}

static void free_run(struct vector_run *run)
{
	for (size_t i = 0; i < run->nv; i++) {
		json_decref(run->vs[i].result);
		free(run->vs[i].label);
		facts_free(run->vs[i].facts);
	}
	json_decref(run->answers);
	free(run->vs);
}

json_t *rules_run_tests(const struct rules_set *set)
{
	json_t *out = json_array(), *e;
	struct vector_run run;
	size_t i, ja = 0;
	bool pos = false, neg = false;

	json_array_foreach(set->errors, i, e) {
		const json_t *line = json_object_get(e, "line");
		char *m = json_is_integer(line)
				  ? xasprintf("line %lld: %s", (long long)json_integer_value(line),
					      json_string_value(json_object_get(e, "message")))
				  : xstrdup(json_string_value(json_object_get(e, "message")));

		json_array_append_new(out, json_pack("{s:O, s:O, s:s, s:b, s:s}", "rule",
						     json_object_get(e, "rule"), "file",
						     json_object_get(e, "file"), "vector", "(load)",
						     "passed", 0, "message", m));
		free(m);
	}
	run_vectors(set, &run);
	for (i = 0; i < run.nv; i++) {
		struct vector *v = &run.vs[i];

		if (!v->result)
			json_array_append_new(out, judge(v, json_array_get(run.answers, ja++), &pos, &neg));
		else if (!json_is_null(v->result))
			json_array_append(out, v->result);
		if (v->is_last_of_file) {
			if (!pos || !neg)
				json_array_append_new(out, result(v->rf, "(coverage)", false,
								  "needs a passing positive vector and a passing "
								  "negative vector (expect = {}) whose facts "
								  "satisfy its needs"));
			pos = neg = false;
		}
	}
	free_run(&run);
	return out;
}

json_t *rules_vector_recommendations(const struct rules_set *set)
{
	json_t *out = json_array();
	struct vector_run run;
	size_t ja = 0;

	run_vectors(set, &run);
	for (size_t i = 0; i < run.nv; i++) {
		struct vector *v = &run.vs[i];
		json_t *recs, *errors;

		if (v->result)
			continue;
		recs = json_array();
		errors = json_array();
		rules_finish_answer(v->rf, json_array_get(run.answers, ja++), v->facts, recs, errors);
		json_array_append_new(out, json_pack("{s:s, s:s, s:o}", "rule", rules_file_id(v->rf), "vector",
						     v->label, "recommendations", recs));
		json_decref(errors);
	}
	free_run(&run);
	return out;
}

json_t *rules_settings_describe(void)
{
	size_t n;
	const struct setting *s = settings_all(&n);
	json_t *out = json_array();
	char range[256];

	for (size_t i = 0; i < n; i++)
		json_array_append_new(out, json_pack("{s:s, s:s, s:s, s:s, s:s}", "name", s[i].name, "type",
						     settings_type_name(&s[i]), "range",
						     settings_range_text(&s[i], range, sizeof(range)),
						     "disruption", s[i].disruption, "help", s[i].help));
	return out;
}
