/* The HTML report (`report --format html`, the wizard's Save): the text report's content as one page
 * a person opens in a browser, from the report model: what was examined, the benchmark charts, the
 * recommendations with their evidence and commands (each command selected whole with one click, for
 * copying), the rules not evaluated and the errors, then every fact, folded away. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app/render/facts_render.h"
#include "app/render/html.h"
#include "app/render/report_html.h"
#include "app/render/report_model.h"
#include "app/render/report_render.h"

static const char *sev_class(const struct report_rec *r)
{
	return html_severity_class(r->severity_rank);
}

static void examined(FILE *out, const struct report_model *m)
{
	fputs("<section id=\"examined\">\n<h2>What was examined</h2>\n<dl class=\"pairs\">\n", out);
	for (size_t i = 0; i < m->n_examined; i++) {
		/* A continuation line ("" label) is a line of the entry above. */
		if (*m->examined[i].label) {
			fputs(i ? "</dd>\n" : "", out);
			html_element(out, "dt", NULL, m->examined[i].label);
			fputs("<dd>", out);
		} else {
			fputs("<br>", out);
		}
		html_text(out, m->examined[i].text);
	}
	fputs(m->n_examined ? "</dd>\n</dl>\n</section>\n" : "</dl>\n</section>\n", out);
}

/* "Apply:" or "Apply (label):" above each run of commands of one label, one <code> per command. */
static void commands(FILE *out, const char *what, const struct report_command *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *label = v[i].label, *last = i ? v[i - 1].label : NULL;
		bool same = i && (label && last ? strcmp(label, last) == 0 : label == last);

		if (!same) {
			fprintf(out, "%s<p class=\"label\">%s", i ? "</pre>\n" : "", what);
			if (label) {
				fputs(" (", out);
				html_text(out, label);
				fputc(')', out);
			}
			fputs(":</p>\n<pre class=\"cmd\">", out);
		} else {
			fputc('\n', out);
		}
		html_element(out, "code", NULL, v[i].text);
	}
	if (n)
		fputs("</pre>\n", out);
}

static void persistent(FILE *out, const struct report_persistent *p)
{
	if (!p->line)
		return;
	fputs("<p class=\"label\">Persistent (", out);
	html_text(out, p->kind);
	fputs(p->kind && p->path ? ", " : "", out);
	if (p->path)
		html_element(out, "code", NULL, p->path);
	fputs("):</p>\n<pre class=\"cmd\">", out);
	html_element(out, "code", NULL, p->line);
	fputs("</pre>\n", out);
}

static void list(FILE *out, const char *heading, char *const *items, size_t n)
{
	if (!n)
		return;
	fprintf(out, "<p class=\"label\">%s</p>\n<ul>\n", heading);
	for (size_t i = 0; i < n; i++) {
		html_element(out, "li", NULL, items[i]);
		fputc('\n', out);
	}
	fputs("</ul>\n", out);
}

static void pair(FILE *out, const char *label, const char *text)
{
	html_element(out, "dt", NULL, label);
	html_element(out, "dd", NULL, text);
	fputc('\n', out);
}

/* Id, acceptance, setting, the host-wide mark, confidence and the trial's verdict. */
static void facets(FILE *out, const struct report_rec *r)
{
	fputs("<dl class=\"pairs\">\n<dt>id</dt><dd>", out);
	html_element(out, "code", NULL, r->id ? r->id : "?");
	fputs("</dd>\n", out);
	if (r->accepted)
		pair(out, "accepted", r->accepted);
	if (r->setting) {
		fputs("<dt>setting</dt><dd>", out);
		html_element(out, "code", NULL, r->setting);
		fputs(": ", out);
		if (r->current_text) {
			html_element(out, "code", NULL, r->current_text);
			fputs(" → ", out);
		}
		html_element(out, "code", NULL, r->recommended_text);
		fputs("</dd>\n", out);
	}
	if (r->host_wide)
		pair(out, "host-wide", r->host_wide);
	if (r->has_confidence) {
		fprintf(out, "<dt>confidence</dt><dd>%.2f", r->confidence);
		if (r->confidence_capped_by) {
			fputs(" (capped by the source of ", out);
			html_element(out, "code", NULL, r->confidence_capped_by);
			fputc(')', out);
		}
		fputs("</dd>\n", out);
	}
	if (r->verified.word) {
		fputs("<dt>trial</dt><dd>", out);
		html_text(out, r->verified.word);
		fputs(" (", out);
		html_text(out, r->verified.note ? r->verified.note : "no numbers");
		fputs(")</dd>\n", out);
	}
	fputs("</dl>\n", out);
}

static void evidence(FILE *out, const struct report_rec *r)
{
	if (!r->has_evidence)
		return;
	fputs("<p class=\"label\">Evidence:</p>\n<table class=\"evidence\">\n<tr><th>fact</th><th>value</th>"
	      "<th>source</th></tr>\n",
	      out);
	for (size_t i = 0; i < r->n_evidence; i++) {
		const struct report_evidence *ev = &r->evidence[i];

		fputs("<tr><td>", out);
		html_element(out, "code", NULL, ev->key);
		fputs("</td><td>", out);
		html_text(out, ev->value ? ev->value : "—");
		fputs("</td><td>", out);
		html_text(out, ev->value ? (ev->source ? ev->source : "source not recorded") : ev->unavailable);
		if (ev->value && ev->origin) {
			fputs("; ", out);
			html_text(out, ev->origin);
		}
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void recommendation(FILE *out, const struct report_rec *r, size_t index)
{
	fprintf(out, "<article class=\"rec %s\" id=\"rec-%zu\">\n<h4><span class=\"sev\">", sev_class(r), index);
	html_text(out, report_severity_label(r->severity));
	fputs("</span>", out);
	html_text(out, r->title ? r->title : r->id);
	fputs("</h4>\n", out);
	facets(out, r);
	if (r->rationale && *r->rationale)
		html_element(out, "p", NULL, r->rationale);
	evidence(out, r);
	list(out, "Managed elsewhere:", r->managed, r->n_managed);
	commands(out, "Apply", r->apply, r->n_apply);
	persistent(out, &r->persistent);
	commands(out, "Revert", r->revert, r->n_revert);
	list(out, "Sources:", r->sources, r->n_sources);
	fputs("</article>\n", out);
}

static void mkfs_commands(FILE *out, const struct report_model *m)
{
	for (size_t i = 0; i < m->n_mkfs; i++) {
		fputs("<p class=\"label\">The one ", out);
		html_text(out, m->mkfs[i].fs ? m->mkfs[i].fs : "mkfs");
		fputs(" command for all of them:</p>\n<pre class=\"cmd\">", out);
		html_element(out, "code", NULL, m->mkfs[i].command);
		fputs("</pre>\n", out);
		for (size_t j = 0; j < m->mkfs[i].n_notes; j++)
			html_element(out, "p", NULL, m->mkfs[i].notes[j]);
	}
}

/* The index of `r` in the model's recs: the anchor of its article. */
static size_t rec_index(const struct report_model *m, const struct report_rec *r)
{
	return (size_t)(r - m->recs);
}

/* The findings in one list at the top, each a link to its article, most disruptive group last. */
static void contents(FILE *out, const struct report_model *m)
{
	fputs("<nav>\n<ul>\n", out);
	for (size_t g = 0; g < m->n_groups; g++)
		for (size_t i = 0; i < m->groups[g].n; i++) {
			const struct report_rec *r = m->groups[g].recs[i];

			fprintf(out, "<li><a href=\"#rec-%zu\"><span class=\"sev %s\">", rec_index(m, r), sev_class(r));
			html_text(out, report_severity_label(r->severity));
			fputs("</span>", out);
			html_text(out, r->title ? r->title : r->id);
			fputs("</a> (", out);
			html_text(out, m->groups[g].def->title);
			fputs(")</li>\n", out);
		}
	fputs("</ul>\n</nav>\n", out);
}

static void groups(FILE *out, const struct report_model *m)
{
	static const char *const names[] = {"info", "suggest", "warn", "critical"};
	const char *sep = " (";

	fprintf(out, "<section id=\"recommendations\">\n<h2>Recommendations: %zu", m->n_recs);
	for (int sev = 3; sev >= 0 && m->n_recs; sev--)
		if (m->severity_count[sev]) {
			fprintf(out, "%s%zu %s", sep, m->severity_count[sev], names[sev]);
			sep = ", ";
		}
	fputs(m->n_recs ? ")</h2>\n" : "</h2>\n", out);
	if (m->n_recs == 0 && !m->headline)
		fputs("<p>Nothing to change: no rule found anything to recommend on these facts.</p>\n", out);
	if (m->n_recs)
		contents(out, m);
	for (size_t g = 0; g < m->n_groups; g++) {
		const struct report_rec_group *rg = &m->groups[g];

		if (!rg->n)
			continue;
		html_element(out, "h3", NULL, rg->def->title);
		html_element(out, "p", "muted", rg->def->blurb);
		fputc('\n', out);
		if (rg->def->disruption && !strcmp(rg->def->disruption, "reformat"))
			mkfs_commands(out, m);
		for (size_t i = 0; i < rg->n; i++)
			recommendation(out, rg->recs[i], rec_index(m, rg->recs[i]));
	}
	fputs("</section>\n", out);
}

/* A section of "name: text" lines: the rules not evaluated, the stale acceptances. */
static void section_begin(FILE *out, const char *id, const char *title)
{
	fprintf(out, "<section id=\"%s\">\n<h2>%s</h2>\n<dl class=\"pairs\">\n", id, title);
}

static void tail_sections(FILE *out, const struct report_model *m)
{
	size_t i;

	if (m->n_not_evaluated != m->n_not_evaluated_hidden) {
		section_begin(out, "not-evaluated", "Rules not evaluated");
		for (i = 0; i < m->n_not_evaluated; i++)
			if (m->not_evaluated[i].is_shown)
				pair(out, m->not_evaluated[i].rule ? m->not_evaluated[i].rule : "?",
				     m->not_evaluated[i].reason ? m->not_evaluated[i].reason : "no reason given");
		fputs("</dl>\n</section>\n", out);
	}
	if (m->n_leftovers) {
		fputs("<section id=\"leftovers\">\n<h2>Leftovers</h2>\n", out);
		list(out, "Owners that manage nothing any more:", m->leftovers, m->n_leftovers);
		fputs("</section>\n", out);
	}
	if (m->n_stale) {
		section_begin(out, "stale", "Accepted findings that are stale");
		for (i = 0; i < m->n_stale; i++) {
			fputs("<dt>", out);
			html_text(out, m->stale[i].id ? m->stale[i].id : "?");
			fputs(" (", out);
			html_text(out, m->stale[i].by ? m->stale[i].by : "?");
			fputs(")</dt>", out);
			html_element(out, "dd", NULL, m->stale[i].reason ? m->stale[i].reason : "");
			fputc('\n', out);
		}
		fputs("</dl>\n</section>\n", out);
	}
}

static void errors(FILE *out, const struct report_model *m)
{
	size_t i;

	if (m->n_notices) {
		section_begin(out, "replaced", "Rule files replaced");
		for (i = 0; i < m->n_notices; i++) {
			html_element(out, "dt", NULL, m->notices[i].rule ? m->notices[i].rule : "?");
			fputs("<dd>", out);
			html_text(out, m->notices[i].file ? m->notices[i].file : "?");
			fputs(" replaces ", out);
			html_text(out, m->notices[i].replaces ? m->notices[i].replaces : "?");
			fputs("</dd>\n", out);
		}
		fputs("</dl>\n</section>\n", out);
	}
	if (!m->n_errors)
		return;
	section_begin(out, "rule-errors", "Rule errors");
	for (i = 0; i < m->n_errors; i++) {
		const struct report_rule_error *e = &m->errors[i];

		fputs("<dt>", out);
		html_text(out, e->file ? e->file : "?");
		if (e->line > 0)
			fprintf(out, ":%lld", e->line);
		fputs("</dt><dd>", out);
		html_text(out, e->message ? e->message : "?");
		if (e->fix) {
			fputs("<br>to fix: ", out);
			html_element(out, "code", NULL, e->fix);
		}
		fputs("</dd>\n", out);
	}
	fputs("</dl>\n</section>\n", out);
}

static void all_facts(FILE *stream, const void *facts)
{
	facts_render_text(stream, facts, true);
}

int report_write_html(const struct session *s, FILE *out)
{
	struct report_model *m = report_model_new(s);
	char *gen = report_generated_line();

	html_page_begin(out, "fstune report", m->mount_point ? m->mount_point : m->device_name);
	fputs("<header>\n<h1>fstune report</h1>\n<p class=\"gen\">Generated by ", out);
	html_text(out, gen);
	fputs("</p>\n</header>\n", out);
	free(gen);
	if (m->headline)
		html_element(out, "p", "headline", m->headline);
	examined(out, m);
	report_html_bench(out, m, s->facts);
	groups(out, m);
	tail_sections(out, m);
	errors(out, m);
	fputs("<details>\n<summary>All facts</summary>\n", out);
	html_pre_of(out, "table", all_facts, s->facts);
	fputs("</details>\n", out);
	report_model_free(m);
	return html_page_end(out);
}
