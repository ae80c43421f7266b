/* The comparison model, `fstune.compare/1` (compare.h), built once from the reports for every
 * writer: the findings and the facts side by side, each row's status against the baseline. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app/render/compare.h"
#include "app/session/accepted.h"
#include "app/session/session.h"
#include "fstune/error.h"
#include "fstune/status.h"
#include "fstune/utf8.h"
#include "lib/json_find.h"
#include "lib/xalloc.h"

int compare_input_load(struct compare_input *in, const char *file, struct fst_error *err)
{
	json_error_t jerr;
	const char *schema;

	in->file = file;
	in->doc = json_load_file(file, JSON_REJECT_DUPLICATES, &jerr);
	if (!in->doc)
		return fst_error_set(err, FST_EXIT_USAGE, "%s: not a JSON report: %s (line %d)", file, jerr.text,
				     jerr.line);
	schema = json_string_value(json_object_get(in->doc, "schema"));
	if (!json_is_object(in->doc) || !schema)
		return fst_error_set(err, FST_EXIT_USAGE,
				     "%s: not an fstune report (no \"schema\"): make one with 'fstune report --format json'",
				     file);
	if (strcmp(schema, "fstune.report/1") != 0)
		return fst_error_set(err, FST_EXIT_USAGE,
				     "%s: a %s document, not an fstune.report/1: compare reads reports "
				     "('fstune report --format json'%s)", file, schema,
				     strcmp(schema, "fstune.facts/1") == 0 ? ", or 'fstune report --facts FILE --format json'" : "");
	in->facts = json_object_get(in->doc, "facts");
	in->recs = json_object_get(in->doc, "recommendations");
	if (!json_is_object(in->facts) || !json_is_array(in->recs))
		return fst_error_set(err, FST_EXIT_USAGE, "%s: an fstune.report/1 without %s", file,
				     json_is_object(in->facts) ? "a \"recommendations\" list" : "a \"facts\" object");
	in->host = json_string_value(json_object_get(json_object_get(in->doc, "generated"), "host"));
	in->version = json_string_value(json_object_get(json_object_get(in->doc, "generated"), "version"));
	in->time = json_string_value(json_object_get(json_object_get(in->doc, "generated"), "time"));
	return FST_EXIT_OK;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* Do the strings of `in` picked by `field` tell every report apart (none missing)? */
static bool is_unique(const struct compare_input *in, size_t n, const char *(*field)(const struct compare_input *))
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < i; j++)
			if (!field(&in[i]) || !field(&in[j]) || strcmp(field(&in[i]), field(&in[j])) == 0)
				return false;
	return true;
}

static const char *host_of(const struct compare_input *in) { return in->host; }
static const char *file_of(const struct compare_input *in) { return base_name(in->file); }
static const char *time_of(const struct compare_input *in) { return in->time; }

/* Column labels: the hosts when they tell the reports apart (many hosts), else the file names (two
 * runs of one host), else the times the reports were made (yesterday/report.json and
 * today/report.json), else the position and the file name. */
static json_t *reports_block(const struct compare_input *in, size_t n)
{
	static const char *(*const fields[])(const struct compare_input *) = {host_of, file_of, time_of};
	const char *(*label)(const struct compare_input *) = NULL;
	json_t *out = json_array();
	size_t i;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]) && !label; i++)
		if (is_unique(in, n, fields[i]))
			label = fields[i];
	for (i = 0; i < n; i++) {
		json_t *r = json_pack("{s:o}", "file", fst_json_text(in[i].file));

		if (label)
			json_object_set_new(r, "label", json_string(label(&in[i])));
		else
			json_object_set_new(r, "label", json_sprintf("%zu:%s", i + 1, base_name(in[i].file)));
		if (in[i].host)
			json_object_set_new(r, "host", json_string(in[i].host));
		if (in[i].version)
			json_object_set_new(r, "version", json_string(in[i].version));
		if (in[i].time)
			json_object_set_new(r, "time", json_string(in[i].time));
		json_array_append_new(out, r);
	}
	return out;
}

static const char *const status_order[] = {"new", "gone", "changed", "same"};

static int status_rank(const char *status)
{
	for (int i = 0; i < 4; i++)
		if (strcmp(status, status_order[i]) == 0)
			return i;
	return 4;
}

/* The row's status against the baseline (cells[0]), and its highest severity. */
static const char *row_status(const json_t *cells, int *max_rank)
{
	const json_t *base = json_array_get(cells, 0), *c;
	bool missing_later = false, differs = false, in_later = false;
	size_t i;

	*max_rank = -1;
	json_array_foreach(cells, i, c) {
		int r = json_is_null(c) ? -1 : session_severity_rank(json_string_value(json_object_get(c, "severity")));

		*max_rank = r > *max_rank ? r : *max_rank;
		if (i == 0)
			continue;
		if (json_is_null(c))
			missing_later = true;
		else
			in_later = true;
		if (!json_is_null(c) && !json_is_null(base) && !json_equal(c, base))
			differs = true;
	}
	if (json_is_null(base))
		return in_later ? "new" : "same";
	if (missing_later)
		return "gone";
	return differs ? "changed" : "same";
}

static int finding_cmp(const void *pa, const void *pb)
{
	const json_t *a = *(json_t *const *)pa, *b = *(json_t *const *)pb;
	int d = status_rank(json_string_value(json_object_get(a, "status"))) -
		status_rank(json_string_value(json_object_get(b, "status")));

	if (d)
		return d;
	d = (int)json_integer_value(json_object_get(b, "rank")) - (int)json_integer_value(json_object_get(a, "rank"));
	if (d)
		return d;
	return strcmp(json_string_value(json_object_get(a, "id")), json_string_value(json_object_get(b, "id")));
}

/* An id whose setting or disruption differs between two fstune versions means something else now. */
static void note_meaning(json_t *notes, const char *id, const struct compare_input *in, size_t n)
{
	const struct compare_input *first = NULL;
	const json_t *fr = NULL;

	for (size_t i = 0; i < n; i++) {
		const json_t *r = json_find_by(in[i].recs, "id", id);

		if (!r || !in[i].version)
			continue;
		if (!first) {
			first = &in[i], fr = r;
			continue;
		}
		if (strcmp(first->version, in[i].version) == 0)
			continue;
		for (const char *const *f = (const char *const[]){"setting", "disruption", NULL}; *f; f++) {
			const char *a = json_string_value(json_object_get(fr, *f));
			const char *b = json_string_value(json_object_get(r, *f));

			if ((a || b) && (!a || !b || strcmp(a, b) != 0)) {
				json_array_append_new(notes, json_sprintf(
					"%s changed meaning between fstune %s (%s: %s %s) and fstune %s (%s: %s %s)", id,
					first->version, base_name(first->file), *f, a ? a : "none", in[i].version,
					base_name(in[i].file), *f, b ? b : "none"));
				return;
			}
		}
	}
}

static json_t *findings_block(const struct compare_input *in, size_t n, json_t *notes)
{
	json_t *ids = json_object(), *rows = json_array(), *sorted = json_array();
	const char *id;
	json_t *dummy, **v;
	size_t i, k;

	for (i = 0; i < n; i++) {
		const json_t *r;

		json_array_foreach(in[i].recs, k, r)
			if (json_string_value(json_object_get(r, "id")))
				json_object_set_new(ids, json_string_value(json_object_get(r, "id")), json_true());
	}
	json_object_foreach(ids, id, dummy) {
		json_t *cells = json_array(), *row;
		const json_t *any = NULL;
		int rank;

		for (i = 0; i < n; i++) {
			const json_t *r = json_find_by(in[i].recs, "id", id);

			if (r && !any)
				any = r;
			json_array_append_new(cells, r ? json_pack("{s:s?, s:b}", "severity",
								    json_string_value(json_object_get(r, "severity")),
								    "accepted", accepted_is_marked(r))
						     : json_null());
		}
		row = json_pack("{s:s, s:s, s:s?, s:s?, s:o}", "id", id, "status", row_status(cells, &rank), "title",
				json_string_value(json_object_get(any, "title")), "setting",
				json_string_value(json_object_get(any, "setting")), "reports", cells);
		json_object_set_new(row, "rank", json_integer(rank));
		json_array_append_new(rows, row);
		note_meaning(notes, id, in, n);
	}
	json_decref(ids);
	v = xcalloc(json_array_size(rows) + 1, sizeof(*v));
	json_array_foreach(rows, i, dummy)
		v[i] = dummy;
	qsort(v, json_array_size(rows), sizeof(*v), finding_cmp);
	for (i = 0; i < json_array_size(rows); i++) {
		json_object_del(v[i], "rank");
		json_array_append(sorted, v[i]);
	}
	free(v);
	json_decref(rows);
	return sorted;
}

/* Facts that tell machines apart rather than describe their tuning ("identity"), and what changes
 * from minute to minute on one machine ("measured": benchmark figures, memory available, what a
 * workload sample or observation saw): expected to differ, so not differences. */
static const char *fact_kind(const char *key)
{
	static const char *const identity[] = {
		"name", "disk", "path", "serial", "uuid", "wwn", "label", "id_path", "loop_backing_file",
		"free_bytes", "inodes_free", "holders", "members", "devices", "mount_point",
	};
	const char *leaf = strrchr(key, '.');

	static const char *const volatile_keys[] = {
		"host.mem_available_bytes", "workload.sample.elapsed_s", "workload.observe.",
	};

	if (strncmp(key, "bench.", 6) == 0)
		return "measured";
	for (size_t i = 0; i < sizeof(volatile_keys) / sizeof(volatile_keys[0]); i++)
		if (strncmp(key, volatile_keys[i], strlen(volatile_keys[i])) == 0)
			return "measured";
	leaf = leaf ? leaf + 1 : key;
	for (size_t i = 0; i < sizeof(identity) / sizeof(identity[0]); i++)
		if (strcmp(leaf, identity[i]) == 0)
			return "identity";
	return "setting";
}

/* Every leaf of a facts object under its dotted key (lists are leaves), into `keys` in order. */
static void flatten(const json_t *obj, const char *prefix, json_t *keys)
{
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)obj, k, v) {
		char *key;

		if (!*prefix && facts_is_side_member(k))
			continue;
		key = *prefix ? xasprintf("%s.%s", prefix, k) : xstrdup(k);
		if (json_is_object(v))
			flatten(v, key, keys);
		else
			json_object_set_new(keys, key, json_true());
		free(key);
	}
}

static json_t *facts_block(const struct compare_input *in, size_t n, size_t *n_differ)
{
	json_t *keys = json_object(), *rows = json_array(), *dummy;
	const char *key;
	size_t i;

	*n_differ = 0;
	for (i = 0; i < n; i++)
		flatten(in[i].facts, "", keys);
	json_object_foreach(keys, key, dummy) {
		json_t *values = json_array();
		const char *kind = fact_kind(key);
		bool differs = false;

		for (i = 0; i < n; i++) {
			const json_t *v = accepted_fact_at(in[i].facts, key);

			json_array_append_new(values, v ? json_deep_copy(v) : json_null());
			if (i > 0 && !json_equal(json_array_get(values, 0), json_array_get(values, i)))
				differs = true;
		}
		if (differs && strcmp(kind, "setting") == 0)
			(*n_differ)++;
		json_array_append_new(rows, json_pack("{s:s, s:s, s:b, s:o}", "key", key, "kind", kind, "differs",
						      differs, "values", values));
	}
	json_decref(keys);
	return rows;
}

/* Count of new findings of at least `severity` in a later report, not accepted there. */
static size_t count_new_failing(const json_t *findings, const char *severity)
{
	int floor = session_severity_rank(severity ? severity : "warn");
	const json_t *row, *c;
	size_t i, j, n = 0;

	json_array_foreach(findings, i, row) {
		bool is_failing = false;

		if (strcmp(json_string_value(json_object_get(row, "status")), "new") != 0)
			continue;
		json_array_foreach(json_object_get(row, "reports"), j, c)
			if (j > 0 && !json_is_null(c) && !json_is_true(json_object_get(c, "accepted")) &&
			    session_severity_rank(json_string_value(json_object_get(c, "severity"))) >= floor)
				is_failing = true;
		n += is_failing;
	}
	return n;
}

json_t *compare_model_new(const struct compare_input *in, size_t n, const struct compare_options *o)
{
	json_t *notes = json_array(), *findings = findings_block(in, n, notes), *summary, *row, *model;
	size_t counts[4] = {0}, n_differ, i;
	json_t *facts = facts_block(in, n, &n_differ);

	json_array_foreach(findings, i, row) {
		int r = status_rank(json_string_value(json_object_get(row, "status")));

		if (r < 4)
			counts[r]++;
	}
	summary = json_pack("{s:I, s:I, s:s, s:I, s:I, s:I, s:I}", "new", (json_int_t)counts[0], "new_failing",
			    (json_int_t)count_new_failing(findings, o->fail_on), "failing_severity",
			    o->fail_on ? o->fail_on : "warn", "gone", (json_int_t)counts[1],
			    "changed", (json_int_t)counts[2], "same", (json_int_t)counts[3], "facts_differ",
			    (json_int_t)n_differ);
	model = json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o}", "schema", COMPARE_SCHEMA, "view",
			  n > COMPARE_GRID_MAX && !o->all_hosts ? "summary" : "grid", "reports", reports_block(in, n),
			  "findings", findings, "facts", facts, "notes", notes, "summary", summary);
	json_object_set_new(model, "fleet", compare_fleet_block(model));
	if (o->with_bench) {
		json_t *bench = compare_bench_block(model);
		size_t n_bench = 0;

		json_array_foreach(bench, i, row)
			n_bench += json_is_true(json_object_get(row, "differs"));
		json_object_set_new(model, "bench", bench);
		json_object_set_new(summary, "bench_differ", json_integer((json_int_t)n_bench));
	}
	return model;
}

