/* The Markdown report: the text report's content laid out for tickets and wikis (GitHub-flavoured
 * tables and fenced code blocks). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app/render/bench_table.h"
#include "app/render/facts_render.h"
#include "app/render/markdown.h"
#include "app/render/report_model.h"
#include "app/render/report_render.h"

/* Inline code: a span with a backtick inside uses a longer fence. */
static void md_code(FILE *out, const char *s)
{
	const char *fence = strchr(s, '`') ? "`` " : "`";
	const char *close = strchr(s, '`') ? " ``" : "`";

	fprintf(out, "%s%s%s", fence, s, close);
}

static void evidence_row(FILE *out, const struct report_evidence *ev)
{
	fputs("| ", out);
	md_code(out, ev->key);
	fputs(" | ", out);
	markdown_text(out, ev->value ? ev->value : "—");
	fputs(" | ", out);
	markdown_text(out, ev->value ? (ev->source ? ev->source : "not recorded") : ev->unavailable);
	if (ev->value && ev->origin) {
		fputs("; ", out);
		markdown_text(out, ev->origin);
	}
	fputs(" |\n", out);
}

/* "**Apply**", then a fenced block per run of commands of one label, the label above it. */
static void commands(FILE *out, const char *title, const struct report_command *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *label = v[i].label, *last = i ? v[i - 1].label : NULL;
		bool is_new = !i || (label ? !last || strcmp(label, last) : last != NULL);

		if (!i)
			fprintf(out, "\n**%s**\n\n", title);
		else if (is_new)
			fputs("```\n", out);
		if (is_new) {
			if (label)
				fprintf(out, "%s:\n", label);
			fputs("```sh\n", out);
		}
		fprintf(out, "%s\n", v[i].text);
	}
	if (n)
		fputs("```\n", out);
}

static void persistent(FILE *out, const struct report_persistent *p)
{
	if (!p->line)
		return;
	fputs("\n**Persistent**", out);
	if (p->kind || p->path) {
		fputs(" (", out);
		markdown_text(out, p->kind ? p->kind : "");
		fputs(p->kind && p->path ? ", " : "", out);
		if (p->path)
			md_code(out, p->path);
		fputs(")", out);
	}
	fprintf(out, "\n\n```\n%s\n```\n", p->line);
}

/* A list under `heading`, when it has items: "Managed elsewhere", the leftovers, the sources. */
static void list(FILE *out, const char *heading, char *const *items, size_t n)
{
	if (n)
		fputs(heading, out);
	for (size_t i = 0; i < n; i++) {
		fputs("- ", out);
		markdown_text(out, items[i]);
		fputc('\n', out);
	}
}

static void write_setting(FILE *out, const struct report_rec *r)
{
	if (!r->setting)
		return;
	fputs("- setting: ", out);
	md_code(out, r->setting);
	fputs(": ", out);
	if (r->current_text) {
		md_code(out, r->current_text);
		fputs(" → ", out);
	}
	md_code(out, r->recommended_text);
	fputc('\n', out);
}

/* The list under the heading: id, acceptance, setting, the host-wide mark, confidence, the trial's
 * verdict. */
static void write_facets(FILE *out, const struct report_rec *r)
{
	fputs("- id: ", out);
	md_code(out, r->id ? r->id : "?");
	fputc('\n', out);
	if (r->accepted) {
		fputs("- **accepted**: ", out);
		markdown_text(out, r->accepted);
		fputc('\n', out);
	}
	write_setting(out, r);
	if (r->host_wide) {
		fputs("- **host-wide**: ", out);
		markdown_text(out, r->host_wide);
		fputc('\n', out);
	}
	if (r->has_confidence) {
		fprintf(out, "- confidence: %.2f", r->confidence);
		if (r->confidence_capped_by) {
			fputs(" (capped by the source of ", out);
			md_code(out, r->confidence_capped_by);
			fputc(')', out);
		}
		fputc('\n', out);
	}
	if (r->verified.word || r->verified.note)
		fprintf(out, "- trial: %s (%s)\n", r->verified.word ? r->verified.word : "not settled",
			r->verified.note ? r->verified.note : "no numbers");
}

static void write_recommendation(FILE *out, const struct report_rec *r)
{
	fprintf(out, "#### %s: ", report_severity_label(r->severity));
	markdown_text(out, r->title ? r->title : r->id);
	fputs("\n\n", out);
	write_facets(out, r);
	if (r->rationale && *r->rationale) {
		fputc('\n', out);
		markdown_text(out, r->rationale);
		fputc('\n', out);
	}
	if (r->has_evidence)
		fputs("\n| fact | value | source |\n|---|---|---|\n", out);
	for (size_t i = 0; i < r->n_evidence; i++)
		evidence_row(out, &r->evidence[i]);
	list(out, "\n**Managed elsewhere**\n\n", r->managed, r->n_managed);
	commands(out, "Apply", r->apply, r->n_apply);
	persistent(out, &r->persistent);
	commands(out, "Revert", r->revert, r->n_revert);
	list(out, "\nSources:\n\n", r->sources, r->n_sources);
	fputc('\n', out);
}

static void write_groups(FILE *out, const struct report_model *m)
{
	size_t g, i, j;

	fprintf(out, "## Recommendations (%zu)\n\n", m->n_recs);
	if (m->n_recs == 0 && !m->headline)
		fputs("Nothing to change: no rule found anything to recommend on these facts.\n\n", out);
	for (g = 0; g < m->n_groups; g++) {
		const struct report_rec_group *rg = &m->groups[g];

		if (!rg->n)
			continue;
		fprintf(out, "### %s\n\n%s\n\n", rg->def->title, rg->def->blurb);
		for (i = 0; rg->def->disruption && !strcmp(rg->def->disruption, "reformat") && i < m->n_mkfs; i++) {
			fprintf(out, "The one command for all of them:\n\n```sh\n%s\n```\n\n", m->mkfs[i].command);
			for (j = 0; j < m->mkfs[i].n_notes; j++) {
				markdown_text(out, m->mkfs[i].notes[j]);
				fputs("\n\n", out);
			}
		}
		for (i = 0; i < rg->n; i++)
			write_recommendation(out, rg->recs[i]);
	}
}

static void write_not_evaluated(FILE *out, const struct report_model *m)
{
	if (m->n_not_evaluated == m->n_not_evaluated_hidden)
		return;
	fputs("## Rules not evaluated\n\n| rule | why |\n|---|---|\n", out);
	for (size_t i = 0; i < m->n_not_evaluated; i++) {
		if (!m->not_evaluated[i].is_shown)
			continue;
		fputs("| ", out);
		md_code(out, m->not_evaluated[i].rule ? m->not_evaluated[i].rule : "?");
		fputs(" | ", out);
		markdown_text(out, m->not_evaluated[i].reason);
		fputs(" |\n", out);
	}
	fputc('\n', out);
}

static void write_stale(FILE *out, const struct report_model *m)
{
	if (!m->n_stale)
		return;
	fputs("## Accepted findings that are stale\n\n", out);
	for (size_t i = 0; i < m->n_stale; i++) {
		fputs("- ", out);
		md_code(out, m->stale[i].id ? m->stale[i].id : "?");
		fputs(" (", out);
		markdown_text(out, m->stale[i].by);
		fputs("): ", out);
		markdown_text(out, m->stale[i].reason);
		fputc('\n', out);
	}
	fputc('\n', out);
}

static void write_errors(FILE *out, const struct report_model *m)
{
	size_t i;

	if (m->n_notices) {
		fputs("## Rule files replaced\n\n", out);
		for (i = 0; i < m->n_notices; i++) {
			fputs("- ", out);
			md_code(out, m->notices[i].file ? m->notices[i].file : "?");
			fputs(" replaces ", out);
			md_code(out, m->notices[i].replaces ? m->notices[i].replaces : "?");
			fputc('\n', out);
		}
		fputc('\n', out);
	}
	if (!m->n_errors)
		return;
	fputs("## Rule errors\n\n| file | line | message |\n|---|---|---|\n", out);
	for (i = 0; i < m->n_errors; i++) {
		fputs("| ", out);
		md_code(out, m->errors[i].file ? m->errors[i].file : "?");
		if (m->errors[i].line > 0)
			fprintf(out, " | %lld | ", m->errors[i].line);
		else
			fputs(" | | ", out);
		markdown_text(out, m->errors[i].message);
		fputs(" |\n", out);
	}
	fputc('\n', out);
}

int report_write_markdown(const struct session *s, FILE *out)
{
	struct report_model *m = report_model_new(s);
	char *gen = report_generated_line();

	fputs("# fstune report\n\n", out);
	fputs("_Generated by ", out);
	markdown_text(out, gen);
	fputs("_\n\n", out);
	free(gen);
	if (m->headline) {
		fputs("**", out);
		markdown_text(out, m->headline);
		fputs("**\n\n", out);
	}
	fputs("## What was examined\n\n| | |\n|---|---|\n", out);
	for (size_t i = 0; i < m->n_examined; i++) {
		fputs("| ", out);
		markdown_text(out, m->examined[i].label);
		fputs(" | ", out);
		markdown_text(out, m->examined[i].text);
		fputs(" |\n", out);
	}
	fputc('\n', out);
	if (bench_table_has_rows(s->facts)) {
		fputs("## Benchmark results\n\n", out);
		bench_table_write(out, s->facts, true, false);
		fputc('\n', out);
	}
	write_groups(out, m);
	write_not_evaluated(out, m);
	list(out, "## Leftovers\n\n", m->leftovers, m->n_leftovers);
	if (m->n_leftovers)
		fputc('\n', out);
	write_stale(out, m);
	write_errors(out, m);
	report_model_free(m);
	/* Every fact, folded away: a ticket then carries the whole evidence. */
	fputs("<details><summary>All facts</summary>\n\n", out);
	facts_render_markdown(out, s->facts, true);
	fputs("\n</details>\n", out);
	return report_finish(out);
}
