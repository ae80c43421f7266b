/* The plain-text report: for a terminal, a mail from cron, or a file. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app/session/accepted.h"
#include "app/render/bench_table.h"
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

static void examined_line(const char *label, const char *text, void *arg)
{
	FILE *out = arg;
	char first[64];

	snprintf(first, sizeof(first), "  %-11s ", label);
	report_wrap_list(out, first, text, 14, WIDTH);
}

static void evidence_line(const struct report_evidence *ev, void *arg)
{
	FILE *out = arg;
	char *first = xasprintf("      %s%s ", ev->key, ev->value ? " =" : ":");
	char *text = ev->value ? xasprintf("%s [%s%s%s]", ev->value, ev->source ? ev->source : "source not recorded",
					   ev->origin ? "; " : "", ev->origin ? ev->origin : "")
			       : xstrdup(ev->unavailable);

	report_wrap_hanging(out, first, text, 8, WIDTH);
	free(first);
	free(text);
}

struct cmd_ctx {
	FILE *out;
	const char *what;       /* "Apply", "Revert" */
	const char *last_label; /* consecutive commands of one label share one heading */
	bool is_started;
};

static void command_line(const char *label, const char *cmd, void *arg)
{
	struct cmd_ctx *c = arg;
	bool same = c->is_started && (label && c->last_label ? strcmp(label, c->last_label) == 0
							    : label == c->last_label);

	if (!same) {
		if (label)
			fprintf(c->out, "    %s (%s):\n", c->what, label);
		else
			fprintf(c->out, "    %s:\n", c->what);
	}
	fprintf(c->out, "        %s\n", cmd);
	c->last_label = label;
	c->is_started = true;
}

/* The persistent form the engine built: {"kind": "udev", "path": "...", "line": "..."}. */
static void write_persistent(const json_t *p, FILE *out)
{
	const char *kind = json_string_value(json_object_get(p, "kind"));
	const char *path = json_string_value(json_object_get(p, "path"));
	const char *line = json_string_value(json_object_get(p, "line"));

	if (!line)
		return;
	fprintf(out, "    Persistent (%s%s%s):\n", kind ? kind : "", kind && path ? ", " : "",
		path ? path : "");
	/* A udev rule may come with a comment line above it: every line indented alike. */
	for (const char *nl; (nl = strchr(line, '\n')); line = nl + 1)
		fprintf(out, "        %.*s\n", (int)(nl - line), line);
	fprintf(out, "        %s\n", line);
}

static void owner_line(const char *text, void *arg)
{
	report_wrap_hanging(arg, "      ", text, 8, WIDTH);
}

static void write_recommendation(const struct session *s, const json_t *rec, FILE *out)
{
	const char *setting = json_string_value(json_object_get(rec, "setting"));
	const json_t *conf = json_object_get(rec, "confidence");
	const char *rationale = json_string_value(json_object_get(rec, "rationale"));
	const char *verified = json_string_value(json_object_get(rec, "verified"));
	const json_t *src = json_object_get(rec, "sources"), *item;
	struct cmd_ctx cc = {out, "Apply", NULL, false};
	size_t i;

	fprintf(out, "[%s] %s\n    %s\n", report_severity_label(json_string_value(json_object_get(rec, "severity"))),
		json_string_value(json_object_get(rec, "title")) ? json_string_value(json_object_get(rec, "title")) : "",
		json_string_value(json_object_get(rec, "id")) ? json_string_value(json_object_get(rec, "id")) : "?");
	if (accepted_is_marked(rec)) {
		char *line = report_accepted_text(json_object_get(rec, "accepted"));

		report_wrap_hanging(out, "    Accepted: ", line, 14, WIDTH);
		free(line);
	}
	if (setting) {
		const json_t *cur = json_object_get(rec, "current");
		char *r = report_setting_value(setting, json_object_get(rec, "recommended"));

		if (cur) {
			char *c = report_setting_value(setting, cur);

			fprintf(out, "    %s: %s -> %s\n", setting, c, r);
			free(c);
		} else {
			fprintf(out, "    %s: %s\n", setting, r);
		}
		free(r);
	}
	if (report_host_wide_text(rec))
		report_wrap_hanging(out, "    Host-wide: ", report_host_wide_text(rec), 15, WIDTH);
	if (json_is_number(conf)) {
		const char *capped = json_string_value(json_object_get(rec, "confidence_capped_by"));

		fprintf(out, "    confidence %.2f", json_number_value(conf));
		if (capped)
			fprintf(out, " (capped by the source of %s)", capped);
		if (verified)
			fprintf(out, ", trial: %s (%s)", verified,
				json_string_value(json_object_get(rec, "verified_note")) ?
				json_string_value(json_object_get(rec, "verified_note")) : "no numbers");
		fputc('\n', out);
	}
	if (rationale && *rationale) {
		fputc('\n', out);
		report_wrap(out, rationale, 4, WIDTH);
	}
	if (json_object_get(rec, "evidence")) {
		fprintf(out, "    Evidence:\n");
		report_evidence_foreach(s, rec, evidence_line, out);
	}
	if (json_array_size(json_object_get(rec, "owners")) ||
	    json_object_get(json_object_get(rec, "persistent"), "placement")) {
		fprintf(out, "    Managed elsewhere:\n");
		report_owner_lines_foreach(rec, owner_line, out);
	}
	report_commands_foreach(json_object_get(rec, "apply"), command_line, &cc);
	write_persistent(json_object_get(rec, "persistent"), out);
	cc = (struct cmd_ctx){out, "Revert", NULL, false};
	report_commands_foreach(json_object_get(rec, "revert"), command_line, &cc);
	if (json_array_size(src)) {
		fprintf(out, "    Sources:\n");
		json_array_foreach(src, i, item)
			if (json_is_string(item))
				report_wrap_hanging(out, "      ", json_string_value(item), 8, WIDTH);
	}
	fputc('\n', out);
}

static void group_head(FILE *out, const struct report_group *g)
{
	underline(out, g->title, '-');
	report_wrap(out, g->blurb, 0, WIDTH);
	fputc('\n', out);
}

static void group_mkfs(FILE *out, const char *fs, const char *command, const json_t *notes)
{
	size_t j;
	const json_t *note;

	fprintf(out, "  The one %s command for all of them:\n      %s\n", fs ? fs : "mkfs", command);
	json_array_foreach(notes, j, note)
		if (json_is_string(note))
			report_wrap_hanging(out, "      ", json_string_value(note), 8, WIDTH);
	fputc('\n', out);
}

static void write_groups(const struct session *s, bool has_headline, FILE *out)
{
	size_t total = json_array_size(s->result.recommendations);
	int sev;

	const char *sep = " (";

	fprintf(out, "Recommendations: %zu", total);
	for (sev = 3; sev >= 0 && total; sev--) {
		static const char *const names[] = {"info", "suggest", "warn", "critical"};
		size_t n = session_count_severity_at_least(s, names[sev]) -
			   (sev < 3 ? session_count_severity_at_least(s, names[sev + 1]) : 0);

		if (n) {
			fprintf(out, "%s%zu %s", sep, n, names[sev]);
			sep = ", ";
		}
	}
	if (total)
		fputc(')', out);
	fputs("\n\n", out);
	if (total == 0 && !has_headline)
		fputs("  Nothing to change: no rule found anything to recommend on these facts.\n\n", out);
	report_groups_write(s, &(struct report_group_writer){group_head, group_mkfs, write_recommendation}, out);
}

static void write_not_evaluated(const struct session *s, FILE *out)
{
	size_t i;
	const json_t *e;

	if (json_array_size(s->result.not_evaluated) == report_not_evaluated_hidden(s))
		return;
	underline(out, "Rules not evaluated", '-');
	json_array_foreach(s->result.not_evaluated, i, e) {
		const char *rule = json_string_value(json_object_get(e, "rule"));
		const char *reason = json_string_value(json_object_get(e, "reason"));
		char *first;

		if (!report_not_evaluated_is_shown(s, e))
			continue;
		first = xasprintf("  %s: ", rule ? rule : "?");

		report_wrap_hanging(out, first, reason ? reason : "no reason given", 4, WIDTH);
		free(first);
	}
	fputc('\n', out);
}

struct leftover_ctx {
	FILE *out;
	bool is_started;
};

static void leftover_line(const char *text, void *arg)
{
	struct leftover_ctx *c = arg;

	if (!c->is_started)
		underline(c->out, "Leftovers", '-');
	c->is_started = true;
	report_wrap_hanging(c->out, "  ", text, 4, WIDTH);
}

static void write_leftovers(const struct session *s, FILE *out)
{
	struct leftover_ctx c = {out, false};

	report_leftovers_foreach(s, leftover_line, &c);
	if (c.is_started)
		fputc('\n', out);
}

static void write_stale(const struct session *s, FILE *out)
{
	size_t i;
	const json_t *e;

	if (!json_array_size(s->accepted_stale))
		return;
	fputs("Accepted findings that are stale\n", out);
	json_array_foreach(s->accepted_stale, i, e) {
		char *first = xasprintf("  %s (%s): ", json_string_value(json_object_get(e, "id")),
					json_string_value(json_object_get(e, "by")));

		report_wrap_hanging(out, first, json_string_value(json_object_get(e, "reason")), 6, WIDTH);
		free(first);
	}
	fputc('\n', out);
}

static void write_errors(const struct session *s, FILE *out)
{
	size_t i;
	const json_t *e;

	if (json_array_size(s->result.notices)) {
		underline(out, "Rule files replaced", '-');
		json_array_foreach(s->result.notices, i, e) {
			const char *file = json_string_value(json_object_get(e, "file"));
			const char *rep = json_string_value(json_object_get(e, "replaces"));
			const char *rule = json_string_value(json_object_get(e, "rule"));

			fprintf(out, "  %s: %s replaces %s\n", rule ? rule : "?", file ? file : "?", rep ? rep : "?");
		}
		fputc('\n', out);
	}
	if (!json_array_size(s->result.errors))
		return;
	underline(out, "Rule errors", '-');
	json_array_foreach(s->result.errors, i, e) {
		const char *file = json_string_value(json_object_get(e, "file"));
		const char *msg = json_string_value(json_object_get(e, "message"));
		const char *fix = json_string_value(json_object_get(e, "fix"));
		json_int_t line = json_integer_value(json_object_get(e, "line"));

		if (line > 0)
			fprintf(out, "  %s:%" JSON_INTEGER_FORMAT ": %s\n", file ? file : "?", line, msg ? msg : "?");
		else
			fprintf(out, "  %s: %s\n", file ? file : "?", msg ? msg : "?");
		if (fix)
			fprintf(out, "    to fix: %s\n", fix);
	}
	fputc('\n', out);
}

int report_write_text(const struct session *s, FILE *out)
{
	char *gen = report_generated_line(), *headline = report_headline(s);

	underline(out, "fstune report", '=');
	fprintf(out, "Generated by %s\n\n", gen);
	free(gen);
	if (headline) {
		report_wrap(out, headline, 0, WIDTH);
		fputc('\n', out);
	}
	fputs("What was examined\n", out);
	report_examined_foreach(s, examined_line, out);
	fputc('\n', out);
	if (bench_table_has_rows(s->facts)) {
		underline(out, "Benchmark results", '-');
		bench_table_write(out, s->facts, false, false);
		fputc('\n', out);
	}
	write_groups(s, headline != NULL, out);
	write_not_evaluated(s, out);
	write_leftovers(s, out);
	write_stale(s, out);
	write_errors(s, out);
	free(headline);
	return report_finish(out);
}
