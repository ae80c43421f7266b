/* The fleet summary of `fstune compare` (more than COMPARE_GRID_MAX reports, no --hosts): the model's
 * "fleet" block as tables a person reads at a thousand hosts. Each finding with its severity and
 * host count against the baseline, the settings whose values differ with their distribution, and
 * the groups of hosts with identical advice; hosts are named only where there are few of them. */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "app/render/compare.h"
#include "app/render/compare_table.h"
#include "app/render/markdown.h"
#include "app/render/report_render.h"
#include "lib/xalloc.h"

#define NAMES_MAX 5      /* hosts named in a cell; past it, the first few and how many more */
#define VALUES_MAX 4     /* values of a setting shown; the rest counted */
#define GROUPS_MAX 10    /* groups of hosts shown; the rest counted */
#define LIST_COLS 64     /* a column of ids or names is cut here, so the next one stays in view */

/* `s` with `add` appended (", " between). Frees `s`. */
static char *join(char *s, const char *add)
{
	char *out = xasprintf("%s%s%s", s, *s ? ", " : "", add);

	free(s);
	return out;
}

/* The labels of `list`, all when at most NAMES_MAX, else the first three and a count. Caller frees. */
static char *names(const json_t *list)
{
	size_t n = json_array_size(list), shown = n <= NAMES_MAX ? n : 3, i;
	char *s = xstrdup("");

	for (i = 0; i < shown; i++)
		s = join(s, json_string_value(json_array_get(list, i)));
	if (shown < n) {
		char *more = xasprintf("%s … (%zu more)", s, n - shown);

		free(s);
		s = more;
	}
	return s;
}

/* The labels of the reports not in `with` (which is in report order). */
static json_t *without(const json_t *model, const json_t *with)
{
	json_t *out = json_array(), *r;
	size_t i, k = 0;

	json_array_foreach(json_object_get(model, "reports"), i, r) {
		const char *w = json_string_value(json_array_get(with, k));

		if (w && strcmp(w, json_string_value(json_object_get(r, "label"))) == 0)
			k++;
		else
			json_array_append(out, json_object_get(r, "label"));
	}
	return out;
}

/* Who has a finding: "all", the few that do, or all but the few that do not. Caller frees. */
static char *who(const json_t *model, const json_t *f)
{
	size_t n = json_array_size(json_object_get(model, "reports"));
	size_t have = json_integer_value(json_object_get(f, "hosts"));
	json_t *lacking;
	char *list, *out;

	if (have == n)
		return xstrdup("all");
	if (have <= NAMES_MAX || n - have > NAMES_MAX)
		return names(json_object_get(f, "with"));
	lacking = without(model, json_object_get(f, "with"));
	list = names(lacking);
	out = xasprintf("all but %s", list);
	free(list);
	json_decref(lacking);
	return out;
}

/* The severities of a finding across the hosts: "warn", or "warn 90, info 10" when they differ. */
static char *severities(const json_t *f)
{
	const json_t *by = json_object_get(f, "by_severity"), *v;
	const char *sev = json_string_value(json_object_get(f, "severity"));
	char *s;

	if (json_object_size(by) <= 1)
		return xstrdup(sev ? sev : "?");
	s = xstrdup("");
	json_object_foreach((json_t *)by, sev, v) {
		char *one = xasprintf("%s %lld", sev, json_integer_value(v));

		s = join(s, one);
		free(one);
	}
	return s;
}

static json_t *findings_table(const json_t *model)
{
	json_t *t = json_pack("[[s, s, s, s, s, s]]", "finding", "severity", "hosts", "accepted", "vs baseline",
			      "which hosts"), *f;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(model, "fleet"), "findings"), i, f) {
		char *sev = severities(f), *w = who(model, f);

		json_array_append_new(t, json_pack("[s, s, o, o, s, s]", json_string_value(json_object_get(f, "id")), sev,
						   json_sprintf("%lld", json_integer_value(json_object_get(f, "hosts"))),
						   json_sprintf("%lld", json_integer_value(json_object_get(f, "accepted"))),
						   json_string_value(json_object_get(f, "status")), w));
		free(sev);
		free(w);
	}
	return t;
}

/* A setting's values, most common first: "none 600, mq-deadline 300, bfq 2 (db7, db9)". */
static char *distribution(const json_t *setting)
{
	const char *key = json_string_value(json_object_get(setting, "key"));
	const json_t *values = json_object_get(setting, "values"), *v;
	char *s = xstrdup("");
	size_t i;

	json_array_foreach(values, i, v) {
		const json_t *value = json_object_get(v, "value");
		char *text = json_is_null(value) ? xstrdup("(none)") : report_fact_value(key, value), *one, *who_has;

		if (i == VALUES_MAX) {
			one = xasprintf("and %zu more value%s", json_array_size(values) - i, json_array_size(values) - i == 1 ? "" : "s");
			s = join(s, one);
			free(one);
			free(text);
			break;
		}
		who_has = json_array_size(json_object_get(v, "labels")) <= 3 ? names(json_object_get(v, "labels")) : NULL;
		one = who_has ? xasprintf("%s %lld (%s)", text, json_integer_value(json_object_get(v, "hosts")), who_has)
			      : xasprintf("%s %lld", text, json_integer_value(json_object_get(v, "hosts")));
		s = join(s, one);
		free(one);
		free(who_has);
		free(text);
	}
	return s;
}

static json_t *settings_table(const json_t *model)
{
	json_t *t = json_pack("[[s, s]]", "setting", "values (hosts)"), *f;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(model, "fleet"), "settings"), i, f) {
		char *d = distribution(f);

		json_array_append_new(t, json_pack("[s, s]", json_string_value(json_object_get(f, "key")), d));
		free(d);
	}
	return t;
}

static bool has_id(const json_t *ids, const json_t *id)
{
	const json_t *v;
	size_t i;

	json_array_foreach(ids, i, v)
		if (json_equal(v, id))
			return true;
	return false;
}

/* How a group's findings differ from the largest group's: "+id" it has more, "-id" it lacks. */
static char *versus(const json_t *mine, const json_t *largest)
{
	char *s = xstrdup("");
	const json_t *id;
	size_t i;

	json_array_foreach(mine, i, id)
		if (!has_id(largest, id)) {
			char *one = xasprintf("+%s", json_string_value(id));

			s = join(s, one);
			free(one);
		}
	json_array_foreach(largest, i, id)
		if (!has_id(mine, id)) {
			char *one = xasprintf("-%s", json_string_value(id));

			s = join(s, one);
			free(one);
		}
	return *s ? s : (free(s), xstrdup("same ids, other severities or acceptance"));
}

static json_t *groups_table(const json_t *model, size_t *rest, size_t *rest_hosts)
{
	const json_t *groups = json_object_get(json_object_get(model, "fleet"), "groups"), *g;
	const json_t *largest = json_object_get(json_array_get(groups, 0), "findings");
	json_t *t = json_pack("[[s, s, s, s]]", "hosts", "findings", "against the largest group", "which hosts");
	size_t i;

	*rest = *rest_hosts = 0;
	json_array_foreach(groups, i, g) {
		char *w, *vs;

		if (i >= GROUPS_MAX) {
			(*rest)++;
			*rest_hosts += json_integer_value(json_object_get(g, "hosts"));
			continue;
		}
		w = names(json_object_get(g, "labels"));
		vs = i ? versus(json_object_get(g, "findings"), largest) : xstrdup("(the largest)");
		json_array_append_new(t, json_pack("[o, o, s, s]", json_sprintf("%lld", json_integer_value(json_object_get(g, "hosts"))),
						   json_sprintf("%zu", json_array_size(json_object_get(g, "findings"))), vs, w));
		free(w);
		free(vs);
	}
	return t;
}

char *compare_summary_versions(const json_t *model)
{
	const json_t *r, *n;
	json_t *versions = json_object();
	const char *v;
	char *list = xstrdup("");
	size_t i;

	json_array_foreach(json_object_get(model, "reports"), i, r) {
		v = json_string_value(json_object_get(r, "version"));
		v = v ? v : "unknown";
		json_object_set_new(versions, v, json_integer(json_integer_value(json_object_get(versions, v)) + 1));
	}
	json_object_foreach(versions, v, n) {
		char *one = xasprintf("%s (%lld)", v, json_integer_value(n));

		list = join(list, one);
		free(one);
	}
	json_decref(versions);
	return list;
}

/* The reports in one line: how many, the baseline, and the fstune versions that made them. */
static void write_reports_line(const json_t *model, FILE *out, enum compare_style style)
{
	const json_t *reports = json_object_get(model, "reports"), *base = json_array_get(reports, 0);
	char *list = compare_summary_versions(model);

	fprintf(out, "%zu reports, the fleet summarised: --hosts for a column per host, --format json for every value.\n"
		     "The baseline is %s (", json_array_size(reports), json_string_value(json_object_get(base, "label")));
	if (style == COMPARE_MARKDOWN)
		markdown_text(out, json_string_value(json_object_get(base, "file")));
	else
		fputs(json_string_value(json_object_get(base, "file")), out);
	fprintf(out, "): a finding it lacks is new.\nfstune versions: %s.\n\n", list);
	free(list);
}

static json_t *bench_table(const json_t *model)
{
	json_t *t = json_pack("[[s, s, s, s, s]]", "benchmark", "baseline", "faster", "slower", "same or no interval"), *row, *c;
	size_t i, j;

	json_array_foreach(json_object_get(model, "bench"), i, row) {
		size_t faster = 0, slower = 0, other = 0;
		char *base = compare_bench_cell(row, json_array_get(json_object_get(row, "reports"), 0));

		json_array_foreach(json_object_get(row, "reports"), j, c) {
			const char *w = json_string_value(json_object_get(c, "verdict"));

			if (j == 0)
				continue;
			faster += w && strcmp(w, "faster") == 0;
			slower += w && strcmp(w, "slower") == 0;
			other += !w || (strcmp(w, "faster") != 0 && strcmp(w, "slower") != 0);
		}
		json_array_append_new(t, json_pack("[o, s, o, o, o]", json_sprintf("%s %s", json_string_value(json_object_get(row, "test")),
									    json_string_value(json_object_get(row, "metric"))),
						   base, json_sprintf("%zu", faster), json_sprintf("%zu", slower),
						   json_sprintf("%zu", other)));
		free(base);
	}
	return t;
}

size_t compare_summary_parts(const json_t *model, struct compare_part parts[COMPARE_PARTS_MAX])
{
	const json_t *fleet = json_object_get(model, "fleet");
	size_t n = 0, rest, rest_hosts;

	parts[n++] = (struct compare_part){"fleet-findings",
					   xasprintf("Findings (%zu): the hosts that have each",
						     json_array_size(json_object_get(fleet, "findings"))),
					   findings_table(model), LIST_COLS, NULL};
	parts[n++] = (struct compare_part){"fleet-settings",
					   xasprintf("Settings that differ (%zu)",
						     json_array_size(json_object_get(fleet, "settings"))),
					   settings_table(model), 0, NULL};
	if (json_object_get(model, "bench"))
		parts[n++] = (struct compare_part){"fleet-bench",
						   xstrdup("Benchmarks against the baseline (--bench: same when the 95% "
							   "intervals overlap)"),
						   bench_table(model), 0, NULL};
	parts[n] = (struct compare_part){"fleet-groups", NULL, groups_table(model, &rest, &rest_hosts), LIST_COLS, NULL};
	parts[n].title = xasprintf("Hosts with identical advice (%zu groups)", json_array_size(json_object_get(fleet, "groups")));
	if (rest)
		parts[n].after = xasprintf("%zu more groups hold %zu hosts: --format json lists every group.", rest, rest_hosts);
	return n + 1;
}

void compare_summary_parts_free(struct compare_part *parts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(parts[i].title);
		free(parts[i].after);
		json_decref(parts[i].table);
	}
}

void compare_write_summary(const json_t *model, FILE *out, enum compare_style style)
{
	struct compare_part parts[COMPARE_PARTS_MAX];
	size_t n = compare_summary_parts(model, parts);

	write_reports_line(model, out, style);
	for (size_t i = 0; i < n; i++) {
		compare_section(out, style, parts[i].title, parts[i].table, parts[i].cell_max, COMPARE_LINE_MAX);
		parts[i].table = NULL;
		if (parts[i].after)
			fprintf(out, "%s\n\n", parts[i].after);
	}
	compare_summary_parts_free(parts, n);
}
