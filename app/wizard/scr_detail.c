/* One recommendation, opened from Advice: the rationale, the evidence with its sources, the exact
 * apply and revert commands, the rule id and the sources of the knowledge. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app/render/report_render.h"
#include "app/wizard/ui_int.h"

enum { X_CLOSE = UI_ACT_SCREEN };

static const struct ui_key detail_keys[] = {
	UI_KEYS_UP_DOWN("scroll up", "scroll down"),
	UI_KEYS_PAGES("page up", "page down"),
	{' ', UI_MOVE_PGDN, "page down", false},
	{KEY_HOME, UI_MOVE_HOME, "top", false},
	{KEY_END, UI_MOVE_END, "bottom", false},
	{'\r', X_CLOSE, "back to the list", true},
	{KEY_LEFT, X_CLOSE, "back to the list", false},
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

struct cmd_ctx {
	struct ui_lines *l;
	int width;
	int count;
};

static void add_command(const char *label, const char *cmd, void *arg)
{
	struct cmd_ctx *c = arg;

	if (label)
		ui_lines_add(c->l, UI_DIM, 2, "%s:", label);
	add_wrapped(c->l, UI_COMMAND, label ? 4 : 2, 4, c->width, cmd);
	c->count++;
}

static void add_evidence(const struct report_evidence *ev, void *arg)
{
	struct cmd_ctx *c = arg;

	if (ev->unavailable)
		ui_lines_add(c->l, UI_UNAVAILABLE, 2, "%s: unavailable (%s)", ev->key, ev->unavailable);
	else
		ui_lines_add(c->l, UI_NORMAL, 2, "%s = %s   [%s%s%s]", ev->key, ev->value ? ev->value : "?",
			     ev->source ? ev->source : "default", ev->origin ? "; " : "",
			     ev->origin ? ev->origin : "");
	c->count++;
}

static void add_commands(struct ui_lines *l, const char *heading, const json_t *v, int width)
{
	struct cmd_ctx c = {l, width, 0};

	ui_lines_add(l, UI_HEADING, 0, "%s", heading);
	report_commands_foreach(v, add_command, &c);
	if (!c.count)
		ui_lines_add(l, UI_DIM, 2, "(nothing to run)");
}

/* The persistent form beside a runtime command ({"kind", "path", "line"}): what keeps the change
 * across reboots, as the Advice heading promises. */
static void add_persistent(struct ui_lines *l, const json_t *p, int width)
{
	const char *kind = json_string_value(json_object_get(p, "kind"));
	const char *path = json_string_value(json_object_get(p, "path"));
	const char *line = json_string_value(json_object_get(p, "line"));

	if (!line)
		return;
	ui_lines_add(l, UI_HEADING, 0, "Persistent");
	if (kind || path)
		ui_lines_add(l, UI_DIM, 2, "%s%s%s:", kind ? kind : "", kind && path ? ", in " : "",
			     path ? path : "");
	add_wrapped(l, UI_COMMAND, kind || path ? 4 : 2, 4, width, line);
}

static void add_setting(struct ui_lines *l, const json_t *rec)
{
	const char *setting = json_string_value(json_object_get(rec, "setting"));
	char *cur, *rec_v;

	if (!setting)
		return;
	cur = report_setting_value(setting, json_object_get(rec, "current"));
	rec_v = report_setting_value(setting, json_object_get(rec, "recommended"));
	ui_lines_add(l, UI_NORMAL, 0, "Setting:    %s: %s %s %s", setting,
		     json_object_get(rec, "current") ? cur : "(none yet)", ui_glyph->arrow, rec_v);
	free(cur);
	free(rec_v);
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

/* A string member, or `dflt` when absent or not a string. */
static const char *member(const json_t *rec, const char *name, const char *dflt)
{
	const char *s = json_string_value(json_object_get(rec, name));

	return s ? s : dflt;
}

void ui_view_detail(struct ui_wizard *w, const json_t *rec, int width)
{
	struct ui_lines *l = &w->detail.content;
	const char *sev = json_string_value(json_object_get(rec, "severity"));
	struct cmd_ctx c = {l, width, 0};
	size_t i;
	json_t *v;

	ui_lines_clear(l);
	w->detail.top = 0;
	add_title(l, sev, member(rec, "title", "(untitled)"), width);
	ui_lines_add(l, UI_DIM, 0, "Rule:       %s", member(rec, "id", "?"));
	ui_lines_add(l, UI_NORMAL, 0, "Disruption: %s   Confidence: %.2f%s%s", member(rec, "disruption", "?"),
		     json_number_value(json_object_get(rec, "confidence")),
		     json_object_get(rec, "verified") ? "   Trial: " : "", member(rec, "verified", ""));
	add_setting(l, rec);
	ui_lines_add(l, UI_HEADING, 0, "Why");
	add_wrapped(l, UI_NORMAL, 2, 0, width, json_string_value(json_object_get(rec, "rationale")));
	ui_lines_add(l, UI_HEADING, 0, "Evidence");
	report_evidence_foreach(w->session, rec, add_evidence, &c);
	if (!c.count)
		ui_lines_add(l, UI_DIM, 2, "(none named)");
	add_commands(l, "Apply", json_object_get(rec, "apply"), width);
	add_persistent(l, json_object_get(rec, "persistent"), width);
	add_commands(l, "Revert", json_object_get(rec, "revert"), width);
	if ((v = json_object_get(rec, "mkfs"))) {
		char *spec = json_dumps(v, JSON_COMPACT);

		ui_lines_add(l, UI_HEADING, 0, "mkfs");
		add_wrapped(l, UI_COMMAND, 2, 4, width, spec ? spec : "");
		free(spec);
	}
	ui_lines_add(l, UI_HEADING, 0, "Sources");
	json_array_foreach(json_object_get(rec, "sources"), i, v)
		if (json_is_string(v))
			add_wrapped(l, UI_NORMAL, 2, 2, width, json_string_value(v));
	if (json_array_size(json_object_get(rec, "sources")) == 0)
		ui_lines_add(l, UI_DIM, 2, "(none given)");
}

static void detail_init(struct ui_wizard *w) { (void)w; }

static void detail_draw(struct ui_wizard *w, const struct ui_area *a) { ui_view_draw(&w->detail, a); }

static enum ui_result detail_key(struct ui_wizard *w, int action, int ch)
{
	(void)ch;
	if (action == X_CLOSE)
		return ui_goto(w, UI_SCR_ADVICE);
	ui_view_key(&w->detail, action);
	return UI_DONE;
}

const struct ui_screen ui_screen_detail = {
	.name = NULL,
	.help_intro = "One recommendation. The commands are exact and shell-quoted; nothing is run "
		      "by fstune. Revert undoes Apply.",
	.keys = detail_keys,
	.init = detail_init,
	.draw = detail_draw,
	.key = detail_key,
};
