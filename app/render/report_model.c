/* The report model (report_model.h): built once from a session, member by member, with nothing of
 * the session's JSON left for a renderer to read. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app/render/report_build.h"
#include "app/render/report_render.h"
#include "lib/facts_schema.h"
#include "lib/xalloc.h"

char *report_json_str(const json_t *o, const char *field)
{
	const char *s = json_string_value(json_object_get(o, field));

	return s ? xstrdup(s) : NULL;
}

void *report_vec_grow(void *v, size_t n, size_t size)
{
	/* n is the count so far: the room is a power of two, full when n is one */
	if (n == 0 || (n & (n - 1)) == 0)
		v = xrealloc(v, (n ? 2 * n : 1) * size);
	return v;
}

char **report_json_strings(const json_t *v, size_t *n)
{
	char **out = NULL;
	const json_t *item;
	size_t i;

	*n = 0;
	json_array_foreach(v, i, item)
		if (json_is_string(item)) {
			out = report_vec_grow(out, *n, sizeof(*out));
			out[(*n)++] = xstrdup(json_string_value(item));
		}
	return out;
}

void report_strings_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Most severe first, then by id; qsort is not stable, so the id decides every tie. */
static int rec_cmp(const void *a, const void *b)
{
	const struct report_rec *ra = *(const struct report_rec *const *)a;
	const struct report_rec *rb = *(const struct report_rec *const *)b;

	if (ra->severity_rank != rb->severity_rank)
		return rb->severity_rank - ra->severity_rank;
	return strcmp(ra->id ? ra->id : "", rb->id ? rb->id : "");
}

static void recs_build(struct report_model *m, const struct session *s)
{
	const json_t *recs = s->result.recommendations;
	size_t i, g;

	m->n_recs = json_array_size(recs);
	m->recs = xcalloc(m->n_recs ? m->n_recs : 1, sizeof(*m->recs));
	for (i = 0; i < m->n_recs; i++) {
		report_rec_fill(&m->recs[i], s, json_array_get(recs, i));
		if (m->recs[i].severity_rank >= 0)
			m->severity_count[m->recs[i].severity_rank]++;
	}
	m->n_groups = report_n_groups;
	m->groups = xcalloc(m->n_groups, sizeof(*m->groups));
	for (g = 0; g < m->n_groups; g++) {
		struct report_rec_group *rg = &m->groups[g];

		rg->def = &report_groups[g];
		rg->recs = xcalloc(m->n_recs ? m->n_recs : 1, sizeof(*rg->recs));
		for (i = 0; i < m->n_recs; i++)
			if (m->recs[i].group == g)
				rg->recs[rg->n++] = &m->recs[i];
		qsort(rg->recs, rg->n, sizeof(*rg->recs), rec_cmp);
	}
}

/* The merged mkfs commands; an entry without a command has nothing to show. */
static void mkfs_build(struct report_model *m, const struct session *s)
{
	const json_t *e;
	size_t i;

	json_array_foreach(s->result.mkfs, i, e) {
		struct report_mkfs *k;

		if (!json_is_string(json_object_get(e, "command")))
			continue;
		m->mkfs = report_vec_grow(m->mkfs, m->n_mkfs, sizeof(*m->mkfs));
		k = &m->mkfs[m->n_mkfs++];
		k->fs = report_json_str(e, "fs");
		k->command = report_json_str(e, "command");
		k->notes = report_json_strings(json_object_get(e, "notes"), &k->n_notes);
		k->from = report_json_strings(json_object_get(e, "from"), &k->n_from);
	}
}

/* Whether the text and Markdown reports list a `not_evaluated` entry: not when every fact it misses
 * is one only hand-written facts hold (vm.bdflush, freebsd.*: no live Linux host has them), unless
 * --verbose or the facts are hand-written. JSON lists every entry. */
static bool not_evaluated_is_shown(const struct session *s, const json_t *entry)
{
	const json_t *missing = json_object_get(entry, "missing"), *k;
	size_t i;

	if (s->is_verbose || !json_array_size(missing) || session_facts_are_hand_written(s))
		return true;
	json_array_foreach(missing, i, k)
		if (!facts_schema_is_hand_written_only(json_string_value(k) ? json_string_value(k) : ""))
			return true;
	return false;
}

/* One entry per element of each list (an element that is not an object has every field NULL), so
 * the counts are the lists' own. */
static void tail_build(struct report_model *m, const struct session *s)
{
	const json_t *e;
	size_t i;

	m->n_not_evaluated = json_array_size(s->result.not_evaluated);
	m->not_evaluated = xcalloc(m->n_not_evaluated + 1, sizeof(*m->not_evaluated));
	json_array_foreach(s->result.not_evaluated, i, e) {
		m->not_evaluated[i] = (struct report_not_evaluated){report_json_str(e, "rule"),
								    report_json_str(e, "reason"),
								    not_evaluated_is_shown(s, e)};
		m->n_not_evaluated_hidden += !m->not_evaluated[i].is_shown;
	}
	m->leftovers = report_leftover_lines(s, &m->n_leftovers);
	m->n_stale = json_array_size(s->accepted_stale);
	m->stale = xcalloc(m->n_stale + 1, sizeof(*m->stale));
	json_array_foreach(s->accepted_stale, i, e)
		m->stale[i] = (struct report_stale){report_json_str(e, "id"), report_json_str(e, "by"),
						    report_json_str(e, "reason")};
	m->n_notices = json_array_size(s->result.notices);
	m->notices = xcalloc(m->n_notices + 1, sizeof(*m->notices));
	json_array_foreach(s->result.notices, i, e)
		m->notices[i] = (struct report_notice){report_json_str(e, "rule"), report_json_str(e, "file"),
						       report_json_str(e, "replaces")};
	m->n_errors = json_array_size(s->result.errors);
	m->errors = xcalloc(m->n_errors + 1, sizeof(*m->errors));
	json_array_foreach(s->result.errors, i, e)
		m->errors[i] = (struct report_rule_error){report_json_str(e, "file"),
							  json_integer_value(json_object_get(e, "line")),
							  report_json_str(e, "message"), report_json_str(e, "fix")};
}

static void unknown_build(struct report_model *m, const struct session *s)
{
	const json_t *un = json_object_get(s->facts->doc, "unavailable"), *e;
	const char *key;

	json_object_foreach((json_t *)un, key, e) {
		m->unknown = report_vec_grow(m->unknown, m->n_unknown, sizeof(*m->unknown));
		m->unknown[m->n_unknown++] = (struct report_unknown){xstrdup(key), report_json_str(e, "status"),
								     report_json_str(e, "reason")};
	}
}

/* The numbers of one test, each with the unit the schema gives bench.<test>.<key>, and its flags. */
static void bench_test_build(struct report_bench_test *t, const json_t *values)
{
	static const char *const flags[] = {"implausible", "cache_suspect", "cpu_bound", "burst"};
	const char *key;
	const json_t *v;
	size_t i;

	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		v = json_object_get(values, flags[i]);
		if (json_is_true(v) || (!strcmp(flags[i], "burst") && json_is_object(v)))
			t->flags[t->n_flags++] = flags[i];
	}
	json_object_foreach((json_t *)values, key, v) {
		char *dotted;

		if (!json_is_number(v))
			continue;
		dotted = xasprintf("bench.%s.%s", t->name, key);
		t->values = report_vec_grow(t->values, t->n_values, sizeof(*t->values));
		t->values[t->n_values++] = (struct report_bench_value){xstrdup(key), json_number_value(v),
								       json_is_integer(v), facts_schema_unit(dotted)};
		free(dotted);
	}
}

static void bench_build(struct report_model *m, const struct session *s)
{
	const json_t *bench = facts_get(s->facts, "bench"), *t;
	const char *name;

	json_object_foreach((json_t *)bench, name, t) {
		if (!json_is_object(t) || !strcmp(name, "parameters") || !strcmp(name, "busy_check") ||
		    !strcmp(name, "rotational_claim"))
			continue;
		m->bench = report_vec_grow(m->bench, m->n_bench, sizeof(*m->bench));
		m->bench[m->n_bench] = (struct report_bench_test){.name = xstrdup(name)};
		bench_test_build(&m->bench[m->n_bench++], t);
	}
}

static char *fact_str(const struct session *s, const char *key)
{
	const char *v = facts_get_string(s->facts, key);

	return v ? xstrdup(v) : NULL;
}

struct report_model *report_model_new(const struct session *s)
{
	struct report_model *m = xcalloc(1, sizeof(*m));

	m->device_name = fact_str(s, "device.name");
	m->device_path = fact_str(s, "device.path");
	m->mount_point = fact_str(s, "fs.mount_point");
	report_examined_build(m, s);
	unknown_build(m, s);
	bench_build(m, s);
	m->headline = report_headline(s);
	recs_build(m, s);
	mkfs_build(m, s);
	tail_build(m, s);
	return m;
}

static void tail_free(struct report_model *m)
{
	size_t i;

	for (i = 0; i < m->n_not_evaluated; i++) {
		free(m->not_evaluated[i].rule);
		free(m->not_evaluated[i].reason);
	}
	free(m->not_evaluated);
	report_strings_free(m->leftovers, m->n_leftovers);
	for (i = 0; i < m->n_stale; i++) {
		free(m->stale[i].id);
		free(m->stale[i].by);
		free(m->stale[i].reason);
	}
	free(m->stale);
	for (i = 0; i < m->n_notices; i++) {
		free(m->notices[i].rule);
		free(m->notices[i].file);
		free(m->notices[i].replaces);
	}
	free(m->notices);
	for (i = 0; i < m->n_errors; i++) {
		free(m->errors[i].file);
		free(m->errors[i].message);
		free(m->errors[i].fix);
	}
	free(m->errors);
}

static void examined_free(struct report_model *m)
{
	size_t i, j;

	free(m->device_name);
	free(m->device_path);
	free(m->mount_point);
	for (i = 0; i < m->n_examined; i++) {
		free(m->examined[i].label);
		free(m->examined[i].text);
	}
	free(m->examined);
	for (i = 0; i < m->n_unknown; i++) {
		free(m->unknown[i].key);
		free(m->unknown[i].status);
		free(m->unknown[i].reason);
	}
	free(m->unknown);
	for (i = 0; i < m->n_bench; i++) {
		for (j = 0; j < m->bench[i].n_values; j++)
			free(m->bench[i].values[j].key);
		free(m->bench[i].values);
		free(m->bench[i].name);
	}
	free(m->bench);
	free(m->headline);
}

void report_model_free(struct report_model *m)
{
	size_t i;

	if (!m)
		return;
	examined_free(m);
	for (i = 0; i < m->n_recs; i++)
		report_rec_clear(&m->recs[i]);
	free(m->recs);
	for (i = 0; i < m->n_groups; i++)
		free(m->groups[i].recs);
	free(m->groups);
	for (i = 0; i < m->n_mkfs; i++) {
		free(m->mkfs[i].fs);
		free(m->mkfs[i].command);
		report_strings_free(m->mkfs[i].notes, m->mkfs[i].n_notes);
		report_strings_free(m->mkfs[i].from, m->mkfs[i].n_from);
	}
	free(m->mkfs);
	tail_free(m);
	free(m);
}

const struct report_rec_group *report_model_group(const struct report_model *m, const char *disruption)
{
	return &m->groups[report_group_index(disruption)];
}

size_t report_model_count_at_least(const struct report_model *m, int rank)
{
	size_t n = 0;

	for (int r = rank < 0 ? 0 : rank; r < 4; r++)
		n += m->severity_count[r];
	return n;
}

const struct report_bench_value *report_bench_find(const struct report_bench_test *t, const char *key)
{
	for (size_t i = 0; i < t->n_values; i++)
		if (!strcmp(t->values[i].key, key))
			return &t->values[i];
	return NULL;
}
