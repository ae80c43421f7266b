/* The fleet view of a comparison (compare.h, "fleet"): what the findings and facts rows of the model
 * say when read across many hosts at once. Each finding with the hosts that have it, each setting
 * with the distribution of its values, and the hosts grouped by identical advice. Built from the
 * model alone, so every renderer reads the same numbers. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app/render/compare.h"
#include "app/session/session.h"
#include "lib/xalloc.h"

static const char *label_at(const json_t *model, size_t i)
{
	return json_string_value(json_object_get(json_array_get(json_object_get(model, "reports"), i), "label"));
}

static int rank_of(const json_t *cell)
{
	return session_severity_rank(json_string_value(json_object_get(cell, "severity")));
}

/* One finding row read across the hosts: how many have it, at which severities, and which. */
static json_t *fleet_finding(const json_t *model, const json_t *row)
{
	json_t *with = json_array(), *by_sev = json_object(), *cell;
	const json_t *worst = NULL;
	size_t i, n_accepted = 0;

	json_array_foreach(json_object_get(row, "reports"), i, cell) {
		const char *sev = json_string_value(json_object_get(cell, "severity"));

		if (json_is_null(cell))
			continue;
		json_array_append_new(with, json_string(label_at(model, i)));
		n_accepted += json_is_true(json_object_get(cell, "accepted"));
		if (sev)
			json_object_set_new(by_sev, sev,
					    json_integer(json_integer_value(json_object_get(by_sev, sev)) + 1));
		if (!worst || rank_of(cell) > rank_of(worst))
			worst = cell;
	}
	return json_pack("{s:O, s:O, s:O*, s:O*, s:s?, s:I, s:I, s:b, s:o, s:o}", "id", json_object_get(row, "id"),
			 "status", json_object_get(row, "status"), "title", json_object_get(row, "title"), "setting",
			 json_object_get(row, "setting"), "severity",
			 json_string_value(json_object_get(worst, "severity")), "hosts",
			 (json_int_t)json_array_size(with), "accepted", (json_int_t)n_accepted, "in_baseline",
			 !json_is_null(json_array_get(json_object_get(row, "reports"), 0)), "by_severity", by_sev,
			 "with", with);
}

static int fleet_finding_cmp(const json_t *a, const json_t *b)
{
	int d = session_severity_rank(json_string_value(json_object_get(b, "severity"))) -
		session_severity_rank(json_string_value(json_object_get(a, "severity")));

	if (d)
		return d;
	if (json_integer_value(json_object_get(a, "hosts")) != json_integer_value(json_object_get(b, "hosts")))
		return json_integer_value(json_object_get(a, "hosts")) > json_integer_value(json_object_get(b, "hosts")) ? -1 : 1;
	return strcmp(json_string_value(json_object_get(a, "id")), json_string_value(json_object_get(b, "id")));
}

static int by_hosts_desc(const json_t *a, const json_t *b)
{
	json_int_t na = json_integer_value(json_object_get(a, "hosts"));
	json_int_t nb = json_integer_value(json_object_get(b, "hosts"));

	return na == nb ? 0 : na > nb ? -1 : 1;
}

struct sort_item {
	json_t *v;
	size_t pos;
	int (*cmp)(const json_t *, const json_t *);
};

/* Ties keep the order they came in, so the output is the same from run to run. */
static int sort_item_cmp(const void *pa, const void *pb)
{
	const struct sort_item *a = pa, *b = pb;
	int d = a->cmp(a->v, b->v);

	return d ? d : a->pos < b->pos ? -1 : 1;
}

static void sort_array(json_t *arr, int (*cmp)(const json_t *, const json_t *))
{
	size_t n = json_array_size(arr), i;
	struct sort_item *v = xcalloc(n + 1, sizeof(*v));

	for (i = 0; i < n; i++)
		v[i] = (struct sort_item){json_incref(json_array_get(arr, i)), i, cmp};
	qsort(v, n, sizeof(*v), sort_item_cmp);
	json_array_clear(arr);
	for (i = 0; i < n; i++)
		json_array_append_new(arr, v[i].v);
	free(v);
}

static json_t *fleet_findings(const json_t *model)
{
	json_t *out = json_array(), *row;
	size_t i;

	json_array_foreach(json_object_get(model, "findings"), i, row)
		json_array_append_new(out, fleet_finding(model, row));
	sort_array(out, fleet_finding_cmp);
	return out;
}

/* Counts the host `label` into the entry of `index` under `key`: `fresh` (taken) when the key is new,
 * appended to `list` then; each entry holds "hosts" and "labels". */
static void tally(json_t *index, json_t *list, const char *key, json_t *fresh, const char *label)
{
	json_t *e = json_object_get(index, key);

	if (!e) {
		e = fresh;
		json_object_set_new(index, key, e);
		json_array_append(list, e);
	} else {
		json_decref(fresh);
	}
	json_object_set_new(e, "hosts", json_integer(json_integer_value(json_object_get(e, "hosts")) + 1));
	json_array_append_new(json_object_get(e, "labels"), json_string(label));
}

/* A setting that differs: its values, each with how many hosts have it and which, most common first.
 * Values are keyed by their compact JSON text (null: the host has no such fact). */
static json_t *setting_distribution(const json_t *model, const json_t *row)
{
	json_t *byval = json_object(), *values = json_array(), *v;
	size_t i;

	json_array_foreach(json_object_get(row, "values"), i, v) {
		char *key = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_SORT_KEYS);

		tally(byval, values, key, json_pack("{s:O, s:I, s:[]}", "value", v, "hosts", (json_int_t)0, "labels"),
		      label_at(model, i));
		free(key);
	}
	json_decref(byval);
	sort_array(values, by_hosts_desc);
	return json_pack("{s:O, s:o}", "key", json_object_get(row, "key"), "values", values);
}

static json_t *fleet_settings(const json_t *model)
{
	json_t *out = json_array(), *row;
	size_t i;

	json_array_foreach(json_object_get(model, "facts"), i, row)
		if (json_is_true(json_object_get(row, "differs")) &&
		    strcmp(json_string_value(json_object_get(row, "kind")), "setting") == 0)
			json_array_append_new(out, setting_distribution(model, row));
	return out;
}

/* Hosts whose findings are the same (ids, severities and acceptance): one group each such set. */
static json_t *fleet_groups(const json_t *model)
{
	const json_t *findings = json_object_get(model, "findings"), *row;
	size_t n = json_array_size(json_object_get(model, "reports")), i, j;
	json_t *bysig = json_object(), *groups = json_array();

	for (i = 0; i < n; i++) {
		json_t *ids = json_array();
		char *sig = xstrdup("");
		const char *sev;

		json_array_foreach(findings, j, row) {
			const json_t *cell = json_array_get(json_object_get(row, "reports"), i);
			char *next;

			if (json_is_null(cell))
				continue;
			sev = json_string_value(json_object_get(cell, "severity"));
			next = xasprintf("%s%s=%s%s;", sig, json_string_value(json_object_get(row, "id")), sev ? sev : "?",
					 json_is_true(json_object_get(cell, "accepted")) ? "+accepted" : "");
			free(sig);
			sig = next;
			json_array_append(ids, json_object_get(row, "id"));
		}
		tally(bysig, groups, sig, json_pack("{s:I, s:[], s:o}", "hosts", (json_int_t)0, "labels", "findings", ids),
		      label_at(model, i));
		free(sig);
	}
	json_decref(bysig);
	sort_array(groups, by_hosts_desc);
	return groups;
}

json_t *compare_fleet_block(const json_t *model)
{
	return json_pack("{s:o, s:o, s:o}", "findings", fleet_findings(model), "settings", fleet_settings(model),
			 "groups", fleet_groups(model));
}
