/* One recommendation, opened from Advice: the rationale, the evidence with its sources, what a trial
 * measured of it, the exact apply and revert commands, the rule id and the sources of the knowledge. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/render/report_model.h"
#include "app/render/report_render.h"
#include "app/wizard/ui_int.h"
#include "lib/xalloc.h"

enum { X_CLOSE = UI_ACT_SCREEN };

static const struct ui_key detail_keys[] = {
	UI_KEYS_SCROLL,
	UI_KEYS_ENTER_OR(KEY_LEFT, X_CLOSE, "back to the list"),
	{0, 0, NULL, false},
};

/* A paragraph wrapped to the width; continuation lines indented by `hang` more (commands and
 * list items, so each item's start stays visible). */
static void add_wrapped(struct ui_lines *l, enum ui_role role, int indent, int hang, int width,
			const char *text)
{
	size_t n;
	char **lines = ui_wrap(text, width - indent - hang, &n);

	for (size_t i = 0; i < n; i++)
		ui_lines_add(l, role, indent + (i ? hang : 0), "%s", lines[i]);
	ui_lines_free(lines, n);
}

static void add_evidence(struct ui_lines *l, const struct report_rec *rec)
{
	for (size_t i = 0; i < rec->n_evidence; i++) {
		const struct report_evidence *ev = &rec->evidence[i];

		if (ev->unavailable)
			ui_lines_add(l, UI_UNAVAILABLE, 2, "%s: unavailable (%s)", ev->key, ev->unavailable);
		else
			ui_lines_add(l, UI_NORMAL, 2, "%s = %s   [%s%s%s]", ev->key, ev->value ? ev->value : "?",
				     ev->source ? ev->source : "default", ev->origin ? "; " : "",
				     ev->origin ? ev->origin : "");
	}
	if (!rec->n_evidence)
		ui_lines_add(l, UI_DIM, 2, "(none named)");
}

static void add_commands(struct ui_lines *l, const char *heading, const struct report_command *v, size_t n,
			 int width)
{
	ui_lines_add(l, UI_HEADING, 0, "%s", heading);
	for (size_t i = 0; i < n; i++) {
		if (v[i].label)
			ui_lines_add(l, UI_DIM, 2, "%s:", v[i].label);
		add_wrapped(l, UI_COMMAND, v[i].label ? 4 : 2, 4, width, v[i].text);
	}
	if (!n)
		ui_lines_add(l, UI_DIM, 2, "(nothing to run)");
}

/* The persistent form beside a runtime command: what keeps the change across reboots, as the
 * Advice heading promises. */
static void add_persistent(struct ui_lines *l, const struct report_persistent *p, int width)
{
	if (!p->line)
		return;
	ui_lines_add(l, UI_HEADING, 0, "Persistent");
	if (p->kind || p->path)
		ui_lines_add(l, UI_DIM, 2, "%s%s%s:", p->kind ? p->kind : "", p->kind && p->path ? ", in " : "",
			     p->path ? p->path : "");
	add_wrapped(l, UI_COMMAND, p->kind || p->path ? 4 : 2, 4, width, p->line);
}

static void add_setting(struct ui_lines *l, const struct report_rec *rec)
{
	if (!rec->setting)
		return;
	ui_lines_add(l, UI_NORMAL, 0, "Setting:    %s: %s %s %s", rec->setting,
		     rec->current_text ? rec->current_text : "(none yet)", ui_glyph->arrow, rec->recommended_text);
}

/* "WARN  title", the title wrapped under itself: a long one is read whole, not cut at the edge. */
static void add_title(struct ui_lines *l, const char *sev, const char *title, int width)
{
	const char *label = report_severity_label(sev);
	int indent = ui_text_width(label) + 2;
	size_t n;
	char **lines = ui_wrap(title, width - indent, &n);

	for (size_t i = 0; i < n; i++)
		if (i == 0)
			ui_lines_add(l, ui_severity_role(sev), 0, "%s  %s", label, lines[i]);
		else
			ui_lines_add(l, ui_severity_role(sev), indent, "%s", lines[i]);
	ui_lines_free(lines, n);
}

/* The admin's acceptance (accepted.conf, --accept): who, why, and what it means. */
static void add_accepted(struct ui_lines *l, const char *accepted, int width)
{
	char *text;

	if (!accepted)
		return;
	text = xasprintf("Accepted:   %s: it no longer counts for --fail-on, and fstune apply leaves it as it "
			 "is unless --only names it", accepted);
	add_wrapped(l, UI_OK, 0, 12, width, text);
	free(text);
}

void ui_view_stale(struct ui_wizard *w, const struct report_stale *e, int width)
{
	struct ui_lines *l = &w->detail.content;
	char *text;

	ui_lines_clear(l);
	w->detail.top = 0;
	ui_lines_add(l, UI_DIM, 0, "STALE  an accepted finding no loaded rule makes");
	ui_lines_add(l, UI_NORMAL, 0, "Entry:      %s", e->id ? e->id : "?");
	ui_lines_add(l, UI_NORMAL, 0, "From:       %s", e->by ? e->by : "?");
	ui_lines_add(l, UI_HEADING, 0, "Why it is stale");
	add_wrapped(l, UI_NORMAL, 2, 0, width, e->reason ? e->reason : "");
	ui_lines_add(l, UI_HEADING, 0, "What to do");
	if (e->by && !strncmp(e->by, "--", 2))
		text = xstrdup("Correct the id given to --accept (fstune rules list shows each rule's, fstune rules "
			       "show ID its findings) or leave it out; it accepts nothing as it is.");
	else
		text = xasprintf("Correct the id (fstune rules list shows each rule's, fstune rules show ID its "
				 "findings) or remove the entry from %s; it accepts nothing as it is.",
				 e->by ? e->by : "the file");
	add_wrapped(l, UI_NORMAL, 2, 0, width, text);
	free(text);
}

/* What a trial measured of the advice: the verdict, the ratio it rests on with its interval and unit,
 * and every comparison in words. */
static void add_trial(struct ui_lines *l, const struct report_verification *v, int width)
{
	if (!v->word && !v->note)
		return;
	ui_lines_add(l, UI_HEADING, 0, "Trial");
	ui_lines_add(l, UI_NORMAL, 2, "%s, against %s (the trial's baseline)", v->word ? v->word : "not settled",
		     v->against ? v->against : "?");
	if (isfinite(v->ratio) && isfinite(v->ci_lo))
		ui_lines_add(l, UI_NORMAL, 2, "%s: ratio %.3f (95%%: %.3f-%.3f) of values in %s", v->metric ? v->metric : "?",
			     v->ratio, v->ci_lo, v->ci_hi, v->unit ? v->unit : "?");
	else if (isfinite(v->ratio))
		ui_lines_add(l, UI_NORMAL, 2, "%s: ratio %.3f of values in %s (no 95%% interval)", v->metric ? v->metric : "?",
			     v->ratio, v->unit ? v->unit : "?");
	for (size_t i = 0; i < v->n_sentences; i++)
		add_wrapped(l, UI_NORMAL, 2, 4, width, v->sentences[i]);
}

void ui_view_detail(struct ui_wizard *w, const struct report_rec *rec, int width)
{
	struct ui_lines *l = &w->detail.content;

	ui_lines_clear(l);
	w->detail.top = 0;
	add_title(l, rec->severity, rec->title ? rec->title : "(untitled)", width);
	ui_lines_add(l, UI_DIM, 0, "Rule:       %s", rec->id ? rec->id : "?");
	ui_lines_add(l, UI_NORMAL, 0, "Disruption: %s   Confidence: %.2f%s%s",
		     rec->disruption ? rec->disruption : "?", rec->confidence, rec->verified.word ? "   Trial: " : "",
		     rec->verified.word ? rec->verified.word : "");
	add_setting(l, rec);
	add_accepted(l, rec->accepted, width);
	add_trial(l, &rec->verified, width);
	ui_lines_add(l, UI_HEADING, 0, "Why");
	add_wrapped(l, UI_NORMAL, 2, 0, width, rec->rationale);
	ui_lines_add(l, UI_HEADING, 0, "Evidence");
	add_evidence(l, rec);
	add_commands(l, "Apply", rec->apply, rec->n_apply, width);
	add_persistent(l, &rec->persistent, width);
	add_commands(l, "Revert", rec->revert, rec->n_revert, width);
	if (rec->mkfs) {
		ui_lines_add(l, UI_HEADING, 0, "mkfs");
		add_wrapped(l, UI_COMMAND, 2, 4, width, rec->mkfs->json ? rec->mkfs->json : "");
	}
	ui_lines_add(l, UI_HEADING, 0, "Sources");
	for (size_t i = 0; i < rec->n_sources; i++)
		add_wrapped(l, UI_NORMAL, 2, 2, width, rec->sources[i]);
	if (!rec->n_sources)
		ui_lines_add(l, UI_DIM, 2, "(none given)");
}

static void detail_draw(struct ui_wizard *w, const struct ui_area *a) { ui_view_draw(&w->detail, a); }

static enum ui_result detail_key(struct ui_wizard *w, int action, int ch)
{
	return ui_view_screen_key(w, &w->detail, action, X_CLOSE, UI_SCR_ADVICE);
}

const struct ui_screen ui_screen_detail = {
	.name = NULL,
	.help_intro = "One recommendation. The commands are exact and shell-quoted; nothing is run "
		      "by fstune. Revert undoes Apply.",
	.keys = detail_keys,
	.draw = detail_draw,
	.key = detail_key,
};
