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

/* The reports in one line: how many, the baseline, and the fstune versions that made them. */
static void write_reports_line(const json_t *model, FILE *out, enum compare_style style)
{
	const json_t *reports = json_object_get(model, "reports"), *r, *base = json_array_get(reports, 0), *n;
	json_t *versions = json_object();
	const char *v;
	char *list = xstrdup("");
	size_t i;

	json_array_foreach(reports, i, r) {
		v = json_string_value(json_object_get(r, "version"));
		v = v ? v : "unknown";
		json_object_set_new(versions, v, json_integer(json_integer_value(json_object_get(versions, v)) + 1));
	}
	json_object_foreach(versions, v, n) {
		char *one = xasprintf("%s (%lld)", v, json_integer_value(n));

		list = join(list, one);
		free(one);
	}
	fprintf(out, "%zu reports, the fleet summarised: --hosts for a column per host, --format json for every value.\n"
		     "The baseline is %s (", json_array_size(reports), json_string_value(json_object_get(base, "label")));
	if (style == COMPARE_MARKDOWN)
		compare_md_text(out, json_string_value(json_object_get(base, "file")));
	else
		fputs(json_string_value(json_object_get(base, "file")), out);
	fprintf(out, "): a finding it lacks is new.\nfstune versions: %s.\n\n", list);
	free(list);
	json_decref(versions);
}

static void write_bench(const json_t *model, FILE *out, enum compare_style style)
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
	compare_section(out, style, "Benchmarks against the baseline (--bench: same when the 95% intervals overlap)", t, 0,
			COMPARE_LINE_MAX);
}

void compare_write_summary(const json_t *model, FILE *out, enum compare_style style)
{
	const json_t *fleet = json_object_get(model, "fleet");
	size_t rest, rest_hosts;
	json_t *t;
	char *title;

	write_reports_line(model, out, style);
	title = xasprintf("Findings (%zu): the hosts that have each", json_array_size(json_object_get(fleet, "findings")));
	compare_section(out, style, title, findings_table(model), LIST_COLS, COMPARE_LINE_MAX);
	free(title);
	title = xasprintf("Settings that differ (%zu)", json_array_size(json_object_get(fleet, "settings")));
	compare_section(out, style, title, settings_table(model), 0, COMPARE_LINE_MAX);
	free(title);
	if (json_object_get(model, "bench"))
		write_bench(model, out, style);
	t = groups_table(model, &rest, &rest_hosts);
	title = xasprintf("Hosts with identical advice (%zu groups)", json_array_size(json_object_get(fleet, "groups")));
	compare_section(out, style, title, t, LIST_COLS, COMPARE_LINE_MAX);
	free(title);
	if (rest)
		fprintf(out, "%zu more groups hold %zu hosts: --format json lists every group.\n\n", rest, rest_hosts);
}
