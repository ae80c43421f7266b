/* The trial's results for people and programs: a ranked table with bars (text), Markdown, and JSON
 * with every run, the notes, the caveats and the trial.* facts. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/trial/trial_run.h"
#include "lib/xalloc.h"
#include "fstune/units.h"
#include "fstune/utf8.h"

#define BAR_WIDTH 30

static void value_text(const struct trial *t, double v, char *buf, size_t len)
{
	if (!strcmp(t->metric->unit, "B/s"))
		units_rate(buf, len, v);
	else if (!strcmp(t->metric->unit, "s"))
		snprintf(buf, len, "%.3f s", v);
	else
		snprintf(buf, len, "%.0f %s", v, t->metric->unit);
}

/* How good a median is next to the best one, 0..1: the bar's length. */
static double goodness(const struct trial *t, const struct trial_candidate *c)
{
	const struct trial_candidate *best = &t->cands.v[t->order[0]];

	if (!c->n_values || c->median <= 0 || best->median <= 0)
		return 0;
	return t->metric->higher_better ? c->median / best->median : best->median / c->median;
}

static void headline(const struct trial *t, FILE *out, bool md)
{
	char size[UNITS_BUFSZ];

	units_bytes(size, sizeof size, t->scratch.size_bytes);
	fprintf(out, "%sTrial: %s workload on %s %s (%s%s%s%s)\n", md ? "# " : "",
		json_string_value(facts_get(t->workload, "workload.profile"))
			? json_string_value(facts_get(t->workload, "workload.profile")) : "general",
		t->is_device ? "device" : "image", t->target, size,
		t->is_device ? "" : ", ", t->is_device ? "" : t->scratch.dev ? t->scratch.dev : "no loop device",
		t->is_device ? "" : t->scratch.is_loop_direct ? ", direct I/O" : ", buffered: the page cache is measured");
	if (md)
		fputs("\n", out);
	fprintf(out, "%zu candidate%s, %u of %u round%s in ABAB order, %.0f s\n", t->cands.n,
		t->cands.n == 1 ? "" : "s", t->rounds_done, t->repeat, t->repeat == 1 ? "" : "s", t->elapsed_s);
	fprintf(out, "Metric: %s (%s is better)\n\n", t->metric->label, t->metric->higher_better ? "higher" : "lower");
}

/* The verdict under the table: the winner and by how much, or that the top is inside the noise. */
static void verdict(const struct trial *t, FILE *out, bool md)
{
	const struct trial_candidate *b = &t->cands.v[t->order[0]];
	size_t i;

	if (!t->cands.n || !b->n_values) {
		fprintf(out, "%sNo candidate was measured.\n", md ? "\n" : "");
		return;
	}
	for (i = 1; i < t->cands.n; i++) {
		const struct trial_candidate *c = &t->cands.v[t->order[i]];

		if (c->n_values && c->rank == 1) {
			fprintf(out, "%sc%zu %s and c%zu %s differ by %.1f%%, inside the noise (%.1f%%) and not in "
				"every round: not ranked; the trial does not settle this.\n", md ? "\n" : "", t->order[0] + 1, b->spec,
				t->order[i] + 1, c->spec, trial_diff_pct(b, c), trial_noise_pct(b, c));
		}
	}
	for (i = 1; i < t->cands.n; i++) {
		const struct trial_candidate *c = &t->cands.v[t->order[i]];

		if (c->n_values && c->rank > 1) {
			bool is_by_medians = trial_diff_pct(b, c) > trial_noise_pct(b, c);

			fprintf(out, "%s%s: c%zu %s, %.1f%% %s than the next ranked, c%zu %s (%s %.1f%%).\n",
				md ? "\n" : "", i > 1 ? "Best median of rank 1" : "Best", t->order[0] + 1, b->spec,
				trial_diff_pct(b, c), t->metric->higher_better ? "more" : "less", t->order[i] + 1,
				c->spec, is_by_medians ? "noise" : "better in every round, each by more than",
				is_by_medians ? trial_noise_pct(b, c) : 5.0);
			return;
		}
	}
}

static void list(FILE *out, const char *title, const json_t *a, bool md)
{
	size_t i;
	json_t *v;

	if (!json_array_size(a))
		return;
	fprintf(out, "\n%s%s%s\n", md ? "## " : "", title, md ? "" : ":");
	if (md)
		fputs("\n", out);
	json_array_foreach(a, i, v)
		fprintf(out, "- %s\n", json_string_value(v));
}

int trial_write_text(const struct trial *t, FILE *out)
{
	size_t i;

	headline(t, out, false);
	fprintf(out, "rank  %-4s %-32s %14s %8s %5s\n", "id", "candidate", "median", "spread", "runs");
	for (i = 0; i < t->cands.n; i++) {
		const struct trial_candidate *c = &t->cands.v[t->order[i]];
		char v[64] = "-", rank[8] = "-", spread[16] = "-";
		int bar = (int)lround(goodness(t, c) * BAR_WIDTH);

		if (c->n_values) {
			value_text(t, c->median, v, sizeof v);
			snprintf(rank, sizeof rank, "%d%s", c->rank,
				 (i + 1 < t->cands.n && t->cands.v[t->order[i + 1]].rank == c->rank) ||
				 (i > 0 && t->cands.v[t->order[i - 1]].rank == c->rank) ? "=" : "");
			snprintf(spread, sizeof spread, c->n_values > 1 ? "%.1f%%" : "n/a", c->spread_pct);
		}
		fprintf(out, "%-5s c%-3zu %-32s %14s %8s %5zu  ", rank, t->order[i] + 1, c->spec, v, spread, c->n_values);
		for (int k = 0; k < bar; k++)
			fputc('#', out);
		fputc('\n', out);
	}
	verdict(t, out, false);
	list(out, "Notes", t->notes, false);
	list(out, "Caveats", t->caveats, false);
	return ferror(out) ? -1 : 0;
}

int trial_write_markdown(const struct trial *t, FILE *out)
{
	size_t i;

	headline(t, out, true);
	fputs("| rank | id | candidate | median | spread | runs |\n|---|---|---|---:|---:|---:|\n", out);
	for (i = 0; i < t->cands.n; i++) {
		const struct trial_candidate *c = &t->cands.v[t->order[i]];
		char v[64] = "-", rank[16] = "-", spread[16] = "n/a";

		if (c->n_values) {
			value_text(t, c->median, v, sizeof v);
			snprintf(rank, sizeof rank, "%d", c->rank);
		}
		if (c->n_values > 1)
			snprintf(spread, sizeof spread, "%.1f%%", c->spread_pct);
		fprintf(out, "| %s | c%zu | `%s` | %s | %s | %zu |\n", rank, t->order[i] + 1, c->spec, v, spread,
			c->n_values);
	}
	verdict(t, out, true);
	list(out, "Notes", t->notes, true);
	list(out, "Caveats", t->caveats, true);
	return ferror(out) ? -1 : 0;
}

int trial_write_json(const struct trial *t, const struct facts *f, FILE *out)
{
	json_t *doc = json_object(), *cands = json_array(), *facts;
	char *fj = facts_to_json(f), *text;
	size_t i;
	int rc;

	for (i = 0; i < t->cands.n; i++) {
		const struct trial_candidate *c = &t->cands.v[i];
		json_t *values = json_array(), *o;
		char *cmd = trial_scratch_mkfs_command(&t->scratch, c);

		for (size_t k = 0; k < c->n_values; k++)
			json_array_append_new(values, json_real(c->values[k]));
		o = json_pack("{s:o, s:s, s:s, s:s, s:o, s:O}", "id", json_sprintf("c%zu", i + 1), "spec", c->spec,
			      "origin", c->origin, "mkfs_command", cmd, "values", values, "runs", c->runs);
		if (c->n_values) {
			json_object_set_new(o, "median", json_real(c->median));
			json_object_set_new(o, "spread_pct", json_real(c->spread_pct));
			json_object_set_new(o, "rank", json_integer(c->rank));
		}
		json_array_append_new(cands, o);
		free(cmd);
	}
	facts = json_loads(fj, 0, NULL);
	free(fj);
	json_object_set_new(doc, "schema", json_string("fstune.trial/1"));
	json_object_set_new(doc, "target", json_pack("{s:s, s:o, s:I, s:s?, s:b}", "kind", t->is_device ? "device" : "image",
						     "path", fst_json_text(t->target), "size_bytes", (json_int_t)t->scratch.size_bytes,
						     "device", t->scratch.dev, "direct_io",
						     t->is_device || t->scratch.is_loop_direct));
	json_object_set_new(doc, "metric", json_pack("{s:s, s:s, s:s, s:s}", "test", t->metric->test, "label",
						     t->metric->label, "unit", t->metric->unit, "better",
						     t->metric->higher_better ? "higher" : "lower"));
	json_object_set_new(doc, "order", json_string("ABAB"));
	json_object_set_new(doc, "repeat", json_integer(t->repeat));
	json_object_set_new(doc, "rounds", json_integer(t->rounds_done));
	json_object_set_new(doc, "elapsed_s", json_real(t->elapsed_s));
	json_object_set_new(doc, "candidates", cands);
	json_object_set(doc, "notes", t->notes);
	json_object_set(doc, "caveats", t->caveats);
	json_object_set_new(doc, "facts", facts ? facts : json_object());
	text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	json_decref(doc);
	rc = text && fputs(text, out) >= 0 && fputc('\n', out) != EOF ? 0 : -1;
	free(text);
	return rc || ferror(out) ? -1 : 0;
}
