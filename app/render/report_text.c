/* The plain-text report: for a terminal, a mail from cron, or a file. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app/render/bench_table.h"
#include "app/render/report_model.h"
#include "app/render/report_render.h"
#include "lib/xalloc.h"

#define WIDTH 78

static void underline(FILE *out, const char *title, char c)
{
	size_t n = strlen(title);

	fprintf(out, "%s\n", title);
	while (n--)
		fputc(c, out);
	fputc('\n', out);
}

static void evidence_line(FILE *out, const struct report_evidence *ev)
{
	char *first = xasprintf("      %s%s ", ev->key, ev->value ? " =" : ":");
	char *text = ev->value ? xasprintf("%s [%s%s%s]", ev->value, ev->source ? ev->source : "source not recorded",
					   ev->origin ? "; " : "", ev->origin ? ev->origin : "")
			       : xstrdup(ev->unavailable);

	report_wrap_hanging(out, first, text, 8, WIDTH);
	free(first);
	free(text);
}

/* "Apply:" or "Apply (label):" above the commands, once for consecutive commands of one label. */
static void write_commands(FILE *out, const char *what, const struct report_command *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *label = v[i].label, *last = i ? v[i - 1].label : NULL;
		bool same = i && (label && last ? strcmp(label, last) == 0 : label == last);

		if (!same && label)
			fprintf(out, "    %s (%s):\n", what, label);
		else if (!same)
			fprintf(out, "    %s:\n", what);
		fprintf(out, "        %s\n", v[i].text);
	}
}

static void write_persistent(FILE *out, const struct report_persistent *p)
{
	const char *line = p->line;

	if (!line)
		return;
	fprintf(out, "    Persistent (%s%s%s):\n", p->kind ? p->kind : "", p->kind && p->path ? ", " : "",
		p->path ? p->path : "");
	/* A udev rule may come with a comment line above it: every line indented alike. */
	for (const char *nl; (nl = strchr(line, '\n')); line = nl + 1)
		fprintf(out, "        %.*s\n", (int)(nl - line), line);
	fprintf(out, "        %s\n", line);
}

static void write_setting(FILE *out, const struct report_rec *r)
{
	if (!r->setting)
		return;
	if (r->current_text)
		fprintf(out, "    %s: %s -> %s\n", r->setting, r->current_text, r->recommended_text);
	else
		fprintf(out, "    %s: %s\n", r->setting, r->recommended_text);
}

static void write_confidence(FILE *out, const struct report_rec *r)
{
	if (!r->has_confidence)
		return;
	fprintf(out, "    confidence %.2f", r->confidence);
	if (r->confidence_capped_by)
		fprintf(out, " (capped by the source of %s)", r->confidence_capped_by);
	if (r->verified.word)
		fprintf(out, ", trial: %s (%s)", r->verified.word, r->verified.note ? r->verified.note : "no numbers");
	fputc('\n', out);
}

static void write_recommendation(FILE *out, const struct report_rec *r)
{
	size_t i;

	fprintf(out, "[%s] %s\n    %s\n", report_severity_label(r->severity), r->title ? r->title : "",
		r->id ? r->id : "?");
	if (r->accepted)
		report_wrap_hanging(out, "    Accepted: ", r->accepted, 14, WIDTH);
	write_setting(out, r);
	if (r->host_wide)
		report_wrap_hanging(out, "    Host-wide: ", r->host_wide, 15, WIDTH);
	write_confidence(out, r);
	if (r->rationale && *r->rationale) {
		fputc('\n', out);
		report_wrap(out, r->rationale, 4, WIDTH);
	}
	if (r->has_evidence)
		fprintf(out, "    Evidence:\n");
	for (i = 0; i < r->n_evidence; i++)
		evidence_line(out, &r->evidence[i]);
	if (r->n_managed)
		fprintf(out, "    Managed elsewhere:\n");
	for (i = 0; i < r->n_managed; i++)
		report_wrap_hanging(out, "      ", r->managed[i], 8, WIDTH);
	write_commands(out, "Apply", r->apply, r->n_apply);
	write_persistent(out, &r->persistent);
	write_commands(out, "Revert", r->revert, r->n_revert);
	if (r->n_sources)
		fprintf(out, "    Sources:\n");
	for (i = 0; i < r->n_sources; i++)
		report_wrap_hanging(out, "      ", r->sources[i], 8, WIDTH);
	fputc('\n', out);
}

static void write_group(FILE *out, const struct report_model *m, const struct report_rec_group *g)
{
	size_t i, j;

	underline(out, g->def->title, '-');
	report_wrap(out, g->def->blurb, 0, WIDTH);
	fputc('\n', out);
	if (g->def->disruption && strcmp(g->def->disruption, "reformat") == 0)
		for (i = 0; i < m->n_mkfs; i++) {
			fprintf(out, "  The one %s command for all of them:\n      %s\n",
				m->mkfs[i].fs ? m->mkfs[i].fs : "mkfs", m->mkfs[i].command);
			for (j = 0; j < m->mkfs[i].n_notes; j++)
				report_wrap_hanging(out, "      ", m->mkfs[i].notes[j], 8, WIDTH);
			fputc('\n', out);
		}
	for (i = 0; i < g->n; i++)
		write_recommendation(out, g->recs[i]);
}

static void write_groups(FILE *out, const struct report_model *m)
{
	static const char *const names[] = {"info", "suggest", "warn", "critical"};
	const char *sep = " (";

	fprintf(out, "Recommendations: %zu", m->n_recs);
	for (int sev = 3; sev >= 0 && m->n_recs; sev--)
		if (m->severity_count[sev]) {
			fprintf(out, "%s%zu %s", sep, m->severity_count[sev], names[sev]);
			sep = ", ";
		}
	if (m->n_recs)
		fputc(')', out);
	fputs("\n\n", out);
	if (m->n_recs == 0 && !m->headline)
		fputs("  Nothing to change: no rule found anything to recommend on these facts.\n\n", out);
	for (size_t g = 0; g < m->n_groups; g++)
		if (m->groups[g].n)
			write_group(out, m, &m->groups[g]);
}

static void write_not_evaluated(FILE *out, const struct report_model *m)
{
	if (m->n_not_evaluated == m->n_not_evaluated_hidden)
		return;
	underline(out, "Rules not evaluated", '-');
	for (size_t i = 0; i < m->n_not_evaluated; i++) {
		const struct report_not_evaluated *e = &m->not_evaluated[i];
		char *first;

		if (!e->is_shown)
			continue;
		first = xasprintf("  %s: ", e->rule ? e->rule : "?");
		report_wrap_hanging(out, first, e->reason ? e->reason : "no reason given", 4, WIDTH);
		free(first);
	}
	fputc('\n', out);
}

static void write_leftovers(FILE *out, const struct report_model *m)
{
	if (!m->n_leftovers)
		return;
	underline(out, "Leftovers", '-');
	for (size_t i = 0; i < m->n_leftovers; i++)
		report_wrap_hanging(out, "  ", m->leftovers[i], 4, WIDTH);
	fputc('\n', out);
}

static void write_stale(FILE *out, const struct report_model *m)
{
	if (!m->n_stale)
		return;
	fputs("Accepted findings that are stale\n", out);
	for (size_t i = 0; i < m->n_stale; i++) {
		const struct report_stale *e = &m->stale[i];
		char *first = xasprintf("  %s (%s): ", e->id ? e->id : "?", e->by ? e->by : "?");

		report_wrap_hanging(out, first, e->reason ? e->reason : "", 6, WIDTH);
		free(first);
	}
	fputc('\n', out);
}

static void write_errors(FILE *out, const struct report_model *m)
{
	size_t i;

	if (m->n_notices) {
		underline(out, "Rule files replaced", '-');
		for (i = 0; i < m->n_notices; i++) {
			const struct report_notice *e = &m->notices[i];

			fprintf(out, "  %s: %s replaces %s\n", e->rule ? e->rule : "?", e->file ? e->file : "?",
				e->replaces ? e->replaces : "?");
		}
		fputc('\n', out);
	}
	if (!m->n_errors)
		return;
	underline(out, "Rule errors", '-');
	for (i = 0; i < m->n_errors; i++) {
		const struct report_rule_error *e = &m->errors[i];

		if (e->line > 0)
			fprintf(out, "  %s:%lld: %s\n", e->file ? e->file : "?", e->line, e->message ? e->message : "?");
		else
			fprintf(out, "  %s: %s\n", e->file ? e->file : "?", e->message ? e->message : "?");
		if (e->fix)
			fprintf(out, "    to fix: %s\n", e->fix);
	}
	fputc('\n', out);
}

int report_write_text(const struct session *s, FILE *out)
{
	struct report_model *m = report_model_new(s);
	char *gen = report_generated_line();
	char first[64];

	underline(out, "fstune report", '=');
	fprintf(out, "Generated by %s\n\n", gen);
	free(gen);
	if (m->headline) {
		report_wrap(out, m->headline, 0, WIDTH);
		fputc('\n', out);
	}
	fputs("What was examined\n", out);
	for (size_t i = 0; i < m->n_examined; i++) {
		snprintf(first, sizeof(first), "  %-11s ", m->examined[i].label);
		report_wrap_list(out, first, m->examined[i].text, 14, WIDTH);
	}
	fputc('\n', out);
	if (bench_table_has_rows(s->facts)) {
		underline(out, "Benchmark results", '-');
		bench_table_write(out, s->facts, false, false);
		fputc('\n', out);
	}
	write_groups(out, m);
	write_not_evaluated(out, m);
	write_leftovers(out, m);
	write_stale(out, m);
	write_errors(out, m);
	report_model_free(m);
	return report_finish(out);
}
