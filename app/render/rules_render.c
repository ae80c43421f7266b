/* The writers of `fstune rules`: the rules loaded (list), one rule's documentation (show) and the
 * results of the test vectors (test), in text, Markdown or JSON. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app/render/markdown.h"
#include "app/render/rules_render.h"
#include "fstune/rules.h"

/* One-line text: a rule's strings may hold newlines (control characters are already gone). */
static const char *one_line(const char *s, char *buf, size_t len)
{
	size_t i;

	for (i = 0; s && s[i] && i + 1 < len; i++)
		buf[i] = s[i] == '\n' || s[i] == '\t' ? ' ' : s[i];
	buf[i] = '\0';
	return buf;
}

/* Joins a JSON list of strings with `sep`; "-" when empty. */
static void put_list(FILE *out, const json_t *list, const char *sep)
{
	size_t i;
	json_t *e;

	if (json_array_size(list) == 0) {
		fputs("-", out);
		return;
	}
	json_array_foreach(list, i, e)
		fprintf(out, "%s%s", i ? sep : "", json_string_value(e));
}

static void put_errors_text(FILE *out, const json_t *errors, const json_t *notices)
{
	size_t i;
	json_t *e;

	json_array_foreach(notices, i, e)
		fprintf(out, "notice: %s replaces %s (rule %s)\n", json_string_value(json_object_get(e, "file")),
			json_string_value(json_object_get(e, "replaces")),
			json_string_value(json_object_get(e, "rule")));
	json_array_foreach(errors, i, e) {
		const json_t *line = json_object_get(e, "line");

		fprintf(out, "error: %s", json_string_value(json_object_get(e, "file")));
		if (json_is_integer(line))
			fprintf(out, ":%lld", (long long)json_integer_value(line));
		fprintf(out, ": %s\n", json_string_value(json_object_get(e, "message")));
	}
}

static void list_markdown(FILE *out, const json_t *rules)
{
	json_t *settings = rules_settings_describe();
	size_t i, j;
	json_t *r, *s;

	fputs("| rule | title | settings | needs |\n|---|---|---|---|\n", out);
	json_array_foreach(rules, i, r) {
		if (json_object_get(r, "replaced_by"))
			continue;
		fprintf(out, "| `%s` | ", json_string_value(json_object_get(r, "id")));
		markdown_text(out, json_string_value(json_object_get(r, "title")));
		fputs(" | ", out);
		put_list(out, json_object_get(r, "settings"), ", ");
		fputs(" | ", out);
		put_list(out, json_object_get(r, "needs"), ", ");
		fputs(" |\n", out);
	}
	fputs("\n| setting | type | range | disruption | rules |\n|---|---|---|---|---|\n", out);
	json_array_foreach(settings, i, s) {
		const char *name = json_string_value(json_object_get(s, "name"));
		bool any = false;

		fprintf(out, "| `%s` | %s | ", name, json_string_value(json_object_get(s, "type")));
		markdown_text(out, json_string_value(json_object_get(s, "range")));
		fprintf(out, " | %s | ", json_string_value(json_object_get(s, "disruption")));
		json_array_foreach(rules, j, r) {
			size_t k;
			json_t *d;

			if (json_object_get(r, "replaced_by"))
				continue;
			json_array_foreach(json_object_get(r, "settings"), k, d)
				if (!strcmp(json_string_value(d), name)) {
					fprintf(out, "%s`%s`", any ? ", " : "",
						json_string_value(json_object_get(r, "id")));
					any = true;
				}
		}
		fputs(any ? " |\n" : "- |\n", out);
	}
	json_decref(settings);
}

/* A JSON document, indented, with its line end. */
static void put_json(FILE *out, const json_t *doc)
{
	json_dumpf(doc, out, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
	fputc('\n', out);
}

void rules_render_list(FILE *out, const struct rules_set *set, enum cli_format format, bool is_quiet)
{
	json_t *rules = rules_describe(set);
	char line[1024];
	size_t i;
	json_t *r;

	if (format == CLI_FORMAT_JSON) {
		json_t *doc = json_pack("{s:O, s:O, s:O, s:o}", "rules", rules, "errors",
					rules_load_errors(set), "notices", rules_load_notices(set),
					"settings", rules_settings_describe());

		put_json(out, doc);
		json_decref(doc);
	} else if (format == CLI_FORMAT_MARKDOWN) {
		list_markdown(out, rules);
	} else {
		json_array_foreach(rules, i, r) {
			fprintf(out, "%-14s %s%s\n", json_string_value(json_object_get(r, "id")),
				one_line(json_string_value(json_object_get(r, "title")), line, sizeof(line)),
				json_object_get(r, "replaced_by") ? " (replaced)" : "");
			if (!is_quiet)
				fprintf(out, "%-14s %s\n", "", json_string_value(json_object_get(r, "file")));
		}
		put_errors_text(out, rules_load_errors(set), rules_load_notices(set));
	}
	json_decref(rules);
}

static const char *expect_text(const json_t *ex, char *buf, size_t len)
{
	size_t i, off = 0;
	json_t *e;

	if (json_is_string(ex))
		return json_string_value(ex);
	if (json_array_size(ex) == 0)
		return "nothing";
	buf[0] = '\0';
	json_array_foreach(ex, i, e) {
		const char *n = json_is_string(e) ? json_string_value(e)
						  : json_string_value(json_object_get(e, "name"));

		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "", n);
	}
	return buf;
}

static void show_text(FILE *out, const json_t *r)
{
	char buf[512];
	size_t i;
	json_t *e;

	fprintf(out, "%s: %s\n", json_string_value(json_object_get(r, "id")),
		json_string_value(json_object_get(r, "title")));
	fprintf(out, "file:     %s\n", json_string_value(json_object_get(r, "file")));
	fprintf(out, "settings: ");
	put_list(out, json_object_get(r, "settings"), ", ");
	fprintf(out, "\nneeds:    ");
	put_list(out, json_object_get(r, "needs"), ", ");
	fprintf(out, "\nuses:     ");
	put_list(out, json_object_get(r, "uses"), ", ");
	fprintf(out, "\n\n%s\n\nsources:\n", json_string_value(json_object_get(r, "description")));
	json_array_foreach(json_object_get(r, "sources"), i, e)
		fprintf(out, "  - %s\n", json_string_value(e));
	fprintf(out, "tests:\n");
	json_array_foreach(json_object_get(r, "tests"), i, e)
		fprintf(out, "  %zu. %s -> %s\n", i + 1, json_string_value(json_object_get(e, "name")),
			expect_text(json_object_get(e, "expect"), buf, sizeof(buf)));
}

static void show_markdown(FILE *out, const json_t *r)
{
	char buf[512];
	size_t i;
	json_t *e;

	fprintf(out, "## `%s`: %s\n\n%s\n\n", json_string_value(json_object_get(r, "id")),
		json_string_value(json_object_get(r, "title")),
		json_string_value(json_object_get(r, "description")));
	fputs("- settings: ", out);
	put_list(out, json_object_get(r, "settings"), ", ");
	fputs("\n- needs: ", out);
	put_list(out, json_object_get(r, "needs"), ", ");
	fputs("\n- uses: ", out);
	put_list(out, json_object_get(r, "uses"), ", ");
	fputs("\n\nSources:\n\n", out);
	json_array_foreach(json_object_get(r, "sources"), i, e)
		fprintf(out, "- %s\n", json_string_value(e));
	fputs("\nTests:\n\n", out);
	json_array_foreach(json_object_get(r, "tests"), i, e)
		fprintf(out, "%zu. %s: expects %s\n", i + 1, json_string_value(json_object_get(e, "name")),
			expect_text(json_object_get(e, "expect"), buf, sizeof(buf)));
}

void rules_render_show(FILE *out, const json_t *rule, enum cli_format format)
{
	if (format == CLI_FORMAT_JSON)
		put_json(out, rule);
	else if (format == CLI_FORMAT_MARKDOWN)
		show_markdown(out, rule);
	else
		show_text(out, rule);
}

size_t rules_render_tests(FILE *out, const json_t *results, enum cli_format format, bool is_quiet)
{
	size_t i, passed = 0, failed = 0;
	char line[1024];
	json_t *r;

	json_array_foreach(results, i, r) {
		bool ok = json_is_true(json_object_get(r, "passed"));

		ok ? passed++ : failed++;
		if (format == CLI_FORMAT_JSON || (ok && is_quiet))
			continue;
		fprintf(out, "%s %s %s: ", ok ? "PASS" : "FAIL",
			json_string_value(json_object_get(r, "file")),
			one_line(json_string_value(json_object_get(r, "vector")), line, sizeof(line)));
		fprintf(out, "%s\n",
			one_line(json_string_value(json_object_get(r, "message")), line, sizeof(line)));
	}
	if (format == CLI_FORMAT_JSON) {
		json_t *doc = json_pack("{s:O, s:I, s:I}", "results", results, "passed", (json_int_t)passed,
					"failed", (json_int_t)failed);

		put_json(out, doc);
		json_decref(doc);
	} else {
		fprintf(out, "%zu passed, %zu failed\n", passed, failed);
	}
	return failed;
}
