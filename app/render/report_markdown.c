/* The Markdown report: the text report's content laid out for tickets and wikis (GitHub-flavoured
 * tables and fenced code blocks). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app/session/accepted.h"
#include "app/render/bench_table.h"
#include "app/render/facts_render.h"
#include "app/render/report_render.h"

/* Text inside a table cell or a line of prose: pipes and the characters that start emphasis or
 * code would break the layout, so they are escaped; newlines become spaces. */
static void md_text(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		if (strchr("|*_`[]<>\\", *s))
			fputc('\\', out);
		fputc(*s == '\n' ? ' ' : *s, out);
	}
}

/* Inline code: a span with a backtick inside uses a longer fence. */
static void md_code(FILE *out, const char *s)
{
	const char *fence = strchr(s, '`') ? "`` " : "`";
	const char *close = strchr(s, '`') ? " ``" : "`";

	fprintf(out, "%s%s%s", fence, s, close);
}

static void examined_row(const char *label, const char *text, void *arg)
{
	FILE *out = arg;

	fputs("| ", out);
	md_text(out, label);
	fputs(" | ", out);
	md_text(out, text);
	fputs(" |\n", out);
}

static void evidence_row(const struct report_evidence *ev, void *arg)
{
	FILE *out = arg;

	fputs("| ", out);
	md_code(out, ev->key);
	fputs(" | ", out);
	md_text(out, ev->value ? ev->value : "—");
	fputs(" | ", out);
	md_text(out, ev->value ? (ev->source ? ev->source : "not recorded") : ev->unavailable);
	if (ev->value && ev->origin) {
		fputs("; ", out);
		md_text(out, ev->origin);
	}
	fputs(" |\n", out);
}

struct cmd_ctx {
	FILE *out;
	const char *title;      /* "Apply", "Revert": written before the first command, never alone */
	const char *last_label;
	bool is_open;
	bool has_title;
};

static void command_line(const char *label, const char *cmd, void *arg)
{
	struct cmd_ctx *c = arg;

	if (!c->has_title) {
		fprintf(c->out, "\n**%s**\n\n", c->title);
		c->has_title = true;
	}
	if (c->is_open && (label ? !c->last_label || strcmp(label, c->last_label) : c->last_label != NULL)) {
		fputs("```\n", c->out);
		c->is_open = false;
	}
	if (!c->is_open) {
		if (label)
			fprintf(c->out, "%s:\n", label);
		fputs("```sh\n", c->out);
		c->is_open = true;
	}
	c->last_label = label;
	fprintf(c->out, "%s\n", cmd);
}

static void commands(FILE *out, const char *title, const json_t *v)
{
	struct cmd_ctx c = {out, title, NULL, false, false};

	report_commands_foreach(v, command_line, &c);
	if (c.is_open)
		fputs("```\n", out);
}

/* The persistent form the engine built: {"kind": "udev", "path": "...", "line": "..."}. */
static void persistent(FILE *out, const json_t *p)
{
	const char *kind = json_string_value(json_object_get(p, "kind"));
	const char *path = json_string_value(json_object_get(p, "path"));
	const char *line = json_string_value(json_object_get(p, "line"));

	if (!line)
		return;
	fputs("\n**Persistent**", out);
	if (kind || path) {
		fputs(" (", out);
		md_text(out, kind ? kind : "");
		fputs(kind && path ? ", " : "", out);
		if (path)
			md_code(out, path);
		fputs(")", out);
	}
	fprintf(out, "\n\n```\n%s\n```\n", line);
}

/* A list item of the "Managed elsewhere" block or of the leftovers, under `heading` once. */
struct owner_ctx {
	FILE *out;
	const char *heading;
	bool is_started;
};

static void owner_item(const char *text, void *arg)
{
	struct owner_ctx *c = arg;

	if (!c->is_started)
		fputs(c->heading, c->out);
	c->is_started = true;
	fputs("- ", c->out);
	md_text(c->out, text);
	fputc('\n', c->out);
}

static void write_recommendation(const struct session *s, const json_t *rec, FILE *out)
{
	const char *setting = json_string_value(json_object_get(rec, "setting"));
	const char *title = json_string_value(json_object_get(rec, "title"));
	const char *id = json_string_value(json_object_get(rec, "id"));
	const char *rationale = json_string_value(json_object_get(rec, "rationale"));
	const char *verified = json_string_value(json_object_get(rec, "verified"));
	const json_t *conf = json_object_get(rec, "confidence"), *src = json_object_get(rec, "sources"), *item;
	size_t i;

	fprintf(out, "#### %s: ", report_severity_label(json_string_value(json_object_get(rec, "severity"))));
	md_text(out, title ? title : id);
	fputs("\n\n", out);
	fputs("- id: ", out);
	md_code(out, id ? id : "?");
	fputc('\n', out);
	if (accepted_is_marked(rec)) {
		char *line = report_accepted_text(json_object_get(rec, "accepted"));

		fputs("- **accepted**: ", out);
		md_text(out, line);
		fputc('\n', out);
		free(line);
	}
	if (setting) {
		const json_t *cur = json_object_get(rec, "current");
		char *r = report_setting_value(setting, json_object_get(rec, "recommended"));

		fputs("- setting: ", out);
		md_code(out, setting);
		if (cur) {
			char *c = report_setting_value(setting, cur);

			fputs(": ", out);
			md_code(out, c);
			fputs(" → ", out);
			free(c);
		} else {
			fputs(": ", out);
		}
		md_code(out, r);
		fputc('\n', out);
		free(r);
	}
	if (report_host_wide_text(rec)) {
		fputs("- **host-wide**: ", out);
		md_text(out, report_host_wide_text(rec));
		fputc('\n', out);
	}
	if (json_is_number(conf)) {
		const char *capped = json_string_value(json_object_get(rec, "confidence_capped_by"));

		fprintf(out, "- confidence: %.2f", json_number_value(conf));
		if (capped) {
			fputs(" (capped by the source of ", out);
			md_code(out, capped);
			fputc(')', out);
		}
		fputc('\n', out);
	}
	if (verified)
		fprintf(out, "- trial: %s (%s)\n", verified,
			json_string_value(json_object_get(rec, "verified_note")) ?
			json_string_value(json_object_get(rec, "verified_note")) : "no numbers");
	if (rationale && *rationale) {
		fputc('\n', out);
		md_text(out, rationale);
		fputc('\n', out);
	}
	if (json_object_get(rec, "evidence")) {
		fputs("\n| fact | value | source |\n|---|---|---|\n", out);
		report_evidence_foreach(s, rec, evidence_row, out);
	}
	report_owner_lines_foreach(rec, owner_item, &(struct owner_ctx){out, "\n**Managed elsewhere**\n\n", false});
	commands(out, "Apply", json_object_get(rec, "apply"));
	persistent(out, json_object_get(rec, "persistent"));
	commands(out, "Revert", json_object_get(rec, "revert"));
	if (json_array_size(src)) {
		fputs("\nSources:\n\n", out);
		json_array_foreach(src, i, item)
			if (json_is_string(item)) {
				fputs("- ", out);
				md_text(out, json_string_value(item));
				fputc('\n', out);
			}
	}
	fputc('\n', out);
}

static void group_head(FILE *out, const struct report_group *g)
{
	fprintf(out, "### %s\n\n%s\n\n", g->title, g->blurb);
}

static void group_mkfs(FILE *out, const char *fs, const char *command, const json_t *notes)
{
	size_t j;
	const json_t *note;

	(void)fs;
	fprintf(out, "The one command for all of them:\n\n```sh\n%s\n```\n\n", command);
	json_array_foreach(notes, j, note)
		if (json_is_string(note)) {
			md_text(out, json_string_value(note));
			fputs("\n\n", out);
		}
}

static void write_groups(const struct session *s, bool has_headline, FILE *out)
{
	size_t total = json_array_size(s->result.recommendations);

	fprintf(out, "## Recommendations (%zu)\n\n", total);
	if (total == 0 && !has_headline)
		fputs("Nothing to change: no rule found anything to recommend on these facts.\n\n", out);
	report_groups_write(s, &(struct report_group_writer){group_head, group_mkfs, write_recommendation}, out);
}

static void write_leftovers(const struct session *s, FILE *out)
{
	struct owner_ctx c = {out, "## Leftovers\n\n", false};

	report_leftovers_foreach(s, owner_item, &c);
	if (c.is_started)
		fputc('\n', out);
}

static void write_tail(const struct session *s, FILE *out)
{
	size_t i;
	const json_t *e;

	if (json_array_size(s->result.not_evaluated) > report_not_evaluated_hidden(s)) {
		fputs("## Rules not evaluated\n\n| rule | why |\n|---|---|\n", out);
		json_array_foreach(s->result.not_evaluated, i, e) {
			if (!report_not_evaluated_is_shown(s, e))
				continue;
			fputs("| ", out);
			md_code(out, json_string_value(json_object_get(e, "rule")) ? json_string_value(json_object_get(e, "rule")) : "?");
			fputs(" | ", out);
			md_text(out, json_string_value(json_object_get(e, "reason")));
			fputs(" |\n", out);
		}
		fputc('\n', out);
	}
	write_leftovers(s, out);
	if (json_array_size(s->accepted_stale)) {
		fputs("## Accepted findings that are stale\n\n", out);
		json_array_foreach(s->accepted_stale, i, e) {
			fputs("- ", out);
			md_code(out, json_string_value(json_object_get(e, "id")));
			fputs(" (", out);
			md_text(out, json_string_value(json_object_get(e, "by")));
			fputs("): ", out);
			md_text(out, json_string_value(json_object_get(e, "reason")));
			fputc('\n', out);
		}
		fputc('\n', out);
	}
	if (json_array_size(s->result.notices)) {
		fputs("## Rule files replaced\n\n", out);
		json_array_foreach(s->result.notices, i, e) {
			fputs("- ", out);
			md_code(out, json_string_value(json_object_get(e, "file")) ? json_string_value(json_object_get(e, "file")) : "?");
			fputs(" replaces ", out);
			md_code(out, json_string_value(json_object_get(e, "replaces")) ? json_string_value(json_object_get(e, "replaces")) : "?");
			fputc('\n', out);
		}
		fputc('\n', out);
	}
	if (json_array_size(s->result.errors)) {
		fputs("## Rule errors\n\n| file | line | message |\n|---|---|---|\n", out);
		json_array_foreach(s->result.errors, i, e) {
			json_int_t line = json_integer_value(json_object_get(e, "line"));

			fputs("| ", out);
			md_code(out, json_string_value(json_object_get(e, "file")) ? json_string_value(json_object_get(e, "file")) : "?");
			if (line > 0)
				fprintf(out, " | %" JSON_INTEGER_FORMAT " | ", line);
			else
				fputs(" | | ", out);
			md_text(out, json_string_value(json_object_get(e, "message")));
			fputs(" |\n", out);
		}
		fputc('\n', out);
	}
}

int report_write_markdown(const struct session *s, FILE *out)
{
	char *gen = report_generated_line(), *headline = report_headline(s);

	fputs("# fstune report\n\n", out);
	fputs("_Generated by ", out);
	md_text(out, gen);
	fputs("_\n\n", out);
	free(gen);
	if (headline) {
		fputs("**", out);
		md_text(out, headline);
		fputs("**\n\n", out);
	}
	fputs("## What was examined\n\n| | |\n|---|---|\n", out);
	report_examined_foreach(s, examined_row, out);
	fputc('\n', out);
	if (bench_table_has_rows(s->facts)) {
		fputs("## Benchmark results\n\n", out);
		bench_table_write(out, s->facts, true, false);
		fputc('\n', out);
	}
	write_groups(s, headline != NULL, out);
	write_tail(s, out);
	free(headline);
	/* Every fact, folded away: a ticket then carries the whole evidence. */
	fputs("<details><summary>All facts</summary>\n\n", out);
	facts_render_markdown(out, s->facts, true);
	fputs("\n</details>\n", out);
	return report_finish(out);
}
