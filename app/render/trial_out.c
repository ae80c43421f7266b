/* A trial's result as text, Markdown and JSON, from its document (trial_render.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/render/trial_render.h"
#include "lib/xalloc.h"
#include "fstune/trial_words.h"
#include "fstune/units.h"

static const char *str(const json_t *o, const char *key, const char *def)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : def;
}

static double num(const json_t *o, const char *key, double def)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : def;
}

/* The member of the document's array `list` whose `key` is `value` (a metric by name, a candidate by
 * id), or NULL. */
static const json_t *find_in(const json_t *doc, const char *list, const char *key, const char *value)
{
	size_t i;
	json_t *o;

	json_array_foreach(json_object_get(doc, list), i, o)
		if (value && !strcmp(str(o, key, ""), value))
			return o;
	return NULL;
}

static const json_t *metric_named(const json_t *doc, const char *name)
{
	return find_in(doc, "metrics", "name", name);
}

static const json_t *candidate_id(const json_t *doc, const char *id)
{
	return find_in(doc, "candidates", "id", id);
}

static void value_text(double v, const char *unit, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (!strcmp(unit, "B/s"))
		units_rate(buf, len, v);
	else if (!strcmp(unit, "s"))
		snprintf(buf, len, "%.3f s", v);
	else if (!strcmp(unit, "us"))
		snprintf(buf, len, "%.0f us", v);
	else
		snprintf(buf, len, "%.0f %s", v, unit);
}

static void headline(const json_t *doc, FILE *out, bool md)
{
	const json_t *target = json_object_get(doc, "target");
	char size[UNITS_BUFSZ];
	size_t merged = 0, i;
	json_t *c;

	units_bytes(size, sizeof size, (uint64_t)num(target, "size_bytes", 0));
	json_array_foreach(json_object_get(doc, "candidates"), i, c)
		merged += json_is_string(json_object_get(c, "merged_into"));
	fprintf(out, "%sTrial: %s workload on %s %s (%s, %s, %s)%s\n", md ? "# " : "", str(doc, "workload", "general"),
		str(target, "kind", "?"), str(target, "path", "?"), size, str(target, "device", "no device"),
		json_is_true(json_object_get(target, "direct_io")) ? "direct I/O" : "buffered: the page cache is measured",
		json_is_true(json_object_get(doc, "partial")) ? " [partial: interrupted]" : "");
	if (md)
		fputs("\n", out);
	fprintf(out, "%zu candidate%s", json_array_size(json_object_get(doc, "candidates")),
		json_array_size(json_object_get(doc, "candidates")) == 1 ? "" : "s");
	if (merged)
		fprintf(out, " (%zu merged into an identical one)", merged);
	fprintf(out, ", %.0f rounds (the family needs %.0f for any verdict; %.0f added to settle), in a balanced "
		"order with the baseline %s twice a round, %.0f s\n", num(doc, "rounds", 0), num(doc, "rounds_min", 0),
		num(doc, "rounds_adaptive", 0), str(json_object_get(doc, "control"), "candidate", "?"),
		num(doc, "elapsed_s", 0));
}

/* The comparison of candidate `id` against the baseline on `metric`, or NULL. */
static const json_t *against_baseline(const json_t *doc, const char *id, const char *metric)
{
	size_t i;
	json_t *c;

	json_array_foreach(json_object_get(doc, "comparisons"), i, c)
		if (!strcmp(str(c, "kind", ""), "candidate_vs_baseline") && !strcmp(str(c, "a", ""), id) &&
		    !strcmp(str(c, "metric", ""), metric))
			return c;
	return NULL;
}

static void table_row(const json_t *doc, const json_t *c, const json_t *metric, FILE *out, bool md)
{
	const char *id = str(c, "id", "?"), *name = str(metric, "name", "");
	const json_t *r = json_object_get(json_object_get(c, "metrics"), name);
	const json_t *cmp = against_baseline(doc, id, name);
	char v[64], rank[16] = "-", spread[16] = "-", against[64] = "";

	value_text(num(r, "median", NAN), str(metric, "unit", ""), v, sizeof v);
	if (json_is_integer(json_object_get(r, "rank")))
		snprintf(rank, sizeof rank, "%lld", (long long)json_integer_value(json_object_get(r, "rank")));
	if (num(r, "runs", 0) > 1)
		snprintf(spread, sizeof spread, "%.1f%%", num(r, "spread_pct", 0));
	if (json_is_true(json_object_get(c, "baseline")))
		snprintf(against, sizeof against, "baseline");
	else if (json_is_string(json_object_get(c, "merged_into")))
		snprintf(against, sizeof against, "merged into %s", str(c, "merged_into", "?"));
	else if (cmp && json_is_array(json_object_get(cmp, "ci95")))
		snprintf(against, sizeof against, "x%.3f (%.3f-%.3f) %s", num(cmp, "ratio", NAN),
			 json_number_value(json_array_get(json_object_get(cmp, "ci95"), 0)),
			 json_number_value(json_array_get(json_object_get(cmp, "ci95"), 1)), str(cmp, "verdict", "?"));
	else if (cmp)
		snprintf(against, sizeof against, "x%.3f %s", num(cmp, "ratio", NAN), str(cmp, "verdict", "?"));
	if (md)
		fprintf(out, "| %s | %s | `%s` | %s | %s | %.0f | %s |\n", rank, id, str(c, "spec", "?"), v, spread,
			num(r, "runs", 0), against);
	else
		fprintf(out, "%-5s %-4s %-30s %14s %7s %4.0f  %s\n", rank, id, str(c, "spec", "?"), v, spread,
			num(r, "runs", 0), against);
}

static void metric_table(const json_t *doc, const json_t *metric, FILE *out, bool md)
{
	size_t i;
	json_t *c;

	fprintf(out, "\n%s%s%s: %s is better\n", md ? "## " : "", str(metric, "label", "?"),
		json_is_true(json_object_get(metric, "primary")) ? " (primary)" : "", str(metric, "better", "?"));
	if (md)
		fputs("\n| rank | id | candidate | median | spread | runs | against the baseline (95%) |\n"
		      "|---|---|---|---:|---:|---:|---|\n", out);
	else
		fprintf(out, "%-5s %-4s %-30s %14s %7s %4s  %s\n", "rank", "id", "candidate", "median", "spread", "runs",
			"against the baseline (95%)");
	json_array_foreach(json_object_get(doc, "candidates"), i, c)
		table_row(doc, c, metric, out, md);
}

/* Whether an earlier comparison than the k-th is of the same pair (its words were said with it). */
static bool pair_seen(const json_t *cmps, size_t k)
{
	const json_t *c = json_array_get(cmps, k);

	for (size_t i = 0; i < k; i++) {
		const json_t *o = json_array_get(cmps, i);

		if (!strcmp(str(o, "a", ""), str(c, "a", "")) && !strcmp(str(o, "b", ""), str(c, "b", "")))
			return true;
	}
	return false;
}

/* Each compared pair's verdicts in words, metric by metric. */
static void verdicts(const json_t *doc, FILE *out, bool md)
{
	const json_t *cmps = json_object_get(doc, "comparisons");
	const char *q = md ? "`" : "";

	fprintf(out, "\n%sVerdicts%s\n", md ? "## " : "", md ? "\n" : ":");
	if (!json_array_size(cmps))
		fputs("- nothing was compared: one filesystem was measured\n", out);
	for (size_t k = 0; k < json_array_size(cmps); k++) {
		const json_t *c = json_array_get(cmps, k);
		const json_t *a = candidate_id(doc, str(c, "a", NULL)), *b = candidate_id(doc, str(c, "b", NULL));

		if (pair_seen(cmps, k))
			continue;
		fprintf(out, "- %s %s%s%s against %s %s%s%s%s:\n", str(c, "a", "?"), q, str(a, "spec", "?"), q,
			str(c, "b", "?"), q, str(b, "spec", "?"), q,
			!strcmp(str(c, "kind", ""), "best_vs_runner_up") ? " (the best against the runner-up)" : "");
		for (size_t i = k; i < json_array_size(cmps); i++) {
			const json_t *o = json_array_get(cmps, i);
			char *words;

			if (strcmp(str(o, "a", ""), str(c, "a", "")) || strcmp(str(o, "b", ""), str(c, "b", "")))
				continue;
			words = trial_comparison_words(o, metric_named(doc, str(o, "metric", NULL)));
			fprintf(out, "  - %s (p %.4f after Holm over %zu)\n", words, num(o, "p_adjusted", 1),
				json_array_size(cmps));
			free(words);
		}
	}
}

static void control(const json_t *doc, FILE *out, bool md)
{
	const json_t *k = json_object_get(doc, "control"), *m;
	const char *name;
	bool first = true;

	fprintf(out, "\n%sControl%s\n%s %s against itself (A/A, twice a round): the median of its ratio lies within",
		md ? "## " : "", md ? "\n" : ":", str(k, "candidate", "?"), str(k, "spec", "?"));
	json_object_foreach((json_t *)json_object_get(k, "metrics"), name, m) {
		const json_t *met = metric_named(doc, name), *spread = json_object_get(m, "ratio_spread");

		fprintf(out, "%s %.1f%% on %s", first ? "" : ",", num(m, "floor_pct", NAN), str(met, "what", name));
		if (json_array_size(spread) == 2)
			fprintf(out, " (single rounds %.2f-%.2f)", json_number_value(json_array_get(spread, 0)),
				json_number_value(json_array_get(spread, 1)));
		first = false;
	}
	fputs(" (95%): a smaller difference is not told apart.\n", out);
}

static void environment(const json_t *doc, FILE *out, bool md)
{
	const json_t *e = json_object_get(doc, "environment");
	char rate[UNITS_BUFSZ], a[UNITS_BUFSZ], b[UNITS_BUFSZ];

	fprintf(out, "\n%sEnvironment%s\n", md ? "## " : "", md ? "\n" : ":");
	if (json_is_number(json_object_get(e, "load")))
		fprintf(out, "- load %.2f (%.2f-%.2f) on %.0f CPUs at the runs' starts\n", num(e, "load", 0),
			num(e, "load_min", 0), num(e, "load_max", 0), num(e, "cpus", 0));
	if (json_is_number(json_object_get(e, "cpu_wait_pct")))
		fprintf(out, "- the runs waited for a CPU %.1f%% of their time (median; at most %.1f%%)\n",
			num(e, "cpu_wait_pct", 0), num(e, "cpu_wait_max_pct", 0));
	if (json_is_number(json_object_get(e, "other_disk_traffic_bytes_per_s"))) {
		units_rate(rate, sizeof rate, num(e, "other_disk_traffic_bytes_per_s", 0));
		fprintf(out, "- other traffic on %s: %s beside the trial's own", str(e, "disk", "?"), rate);
		if (json_is_number(json_object_get(e, "disk_busy_before")))
			fprintf(out, " (busy %.0f%% of the second before it)", num(e, "disk_busy_before", 0) * 100);
		fputs("\n", out);
	} else if (json_is_string(json_object_get(e, "other_disk_traffic_why"))) {
		fprintf(out, "- other disk traffic: unknown (%s)\n", str(e, "other_disk_traffic_why", ""));
	}
	if (json_is_number(json_object_get(e, "image_bytes"))) {
		double sz = num(e, "image_bytes", 0), low = num(e, "image_allocated_min_bytes", 0);

		units_bytes(a, sizeof a, (uint64_t)low);
		units_bytes(b, sizeof b, (uint64_t)sz);
		fprintf(out, low >= sz ? "- the image stayed fully allocated after every run (%s of %s)\n"
				       : "- the image lost preallocation: at least %s of %s allocated after a run\n", a, b);
	}
	fputs("- a busy host widens the A/A floor; it never makes a winner: every verdict must clear the floor\n", out);
}

static void list(FILE *out, const char *title, const json_t *a, bool md)
{
	size_t i;
	json_t *v;

	if (!json_array_size(a))
		return;
	fprintf(out, "\n%s%s%s\n", md ? "## " : "", title, md ? "\n" : ":");
	json_array_foreach(a, i, v)
		fprintf(out, "- %s\n", json_string_value(v) ? json_string_value(v) : "?");
}

static int write_doc(const json_t *doc, FILE *out, bool md)
{
	size_t i;
	json_t *m;

	headline(doc, out, md);
	json_array_foreach(json_object_get(doc, "metrics"), i, m)
		metric_table(doc, m, out, md);
	verdicts(doc, out, md);
	control(doc, out, md);
	environment(doc, out, md);
	list(out, "Notes", json_object_get(doc, "notes"), md);
	list(out, "Caveats", json_object_get(doc, "caveats"), md);
	return ferror(out) ? -1 : 0;
}

int trial_write_text(const json_t *doc, FILE *out)
{
	return write_doc(doc, out, false);
}

int trial_write_markdown(const json_t *doc, FILE *out)
{
	return write_doc(doc, out, true);
}

int trial_write_json(const json_t *doc, FILE *out)
{
	char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	int rc = text && fputs(text, out) >= 0 && fputc('\n', out) != EOF ? 0 : -1;

	free(text);
	return rc || ferror(out) ? -1 : 0;
}
