/* `fstune rules list|show|test`: the rule files as the engine loads them, their documentation, and
 * their test vectors run through the real engine. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app/render/markdown.h"
#include "app/commands/rules_cli.h"
#include "app/cli.h"
#include "fstune/rules.h"
#include "fstune/status.h"

enum {
	OPT_RULES_DIR = CLI_OPT_COMMAND_BASE,
	OPT_NO_SYSTEM_RULES, /* OPT_RULES_DIR + 1, as RULES_CLI_OPTIONS has it */
};

static const char usage_text[] =
	"Usage: fstune rules list [options]\n"
	"       fstune rules show [options] ID\n"
	"       fstune rules test [options] [FILE|DIR...]\n"
	"\n"
	"List, document and test the rule scripts that turn facts into recommendations: the\n"
	"built-in ones, /etc/fstune/rules.d, each directory of $FSTUNE_RULES_PATH and each\n"
	"--rules-dir, a later file id replacing an earlier one. 'test' runs every test vector\n"
	"through the real engine (all loaded rules, or only the given files and directories),\n"
	"prints one line per vector and exits 1 when one fails; a file that does not load counts\n"
	"as a failed vector. See fstune-rules(5) for writing rules.\n"
	"\n"
	"Options:\n"
	"  --rules-dir DIR              also load the rule files of DIR (repeatable; loaded last)\n"
	"  --no-system-rules            skip /etc/fstune/rules.d\n"
	"\n";

struct rules_args {
	struct cli_common common;
	const char *sub;
	struct rules_options ro; /* --rules-dir, --no-system-rules; `test FILE...` sets its paths */
	char **rest;             /* positional arguments after the subcommand */
	int n_rest;
};

#define usage_error(...) cli_usage_error("rules", __VA_ARGS__)

static int own_option(void *arg, int opt, const char *value)
{
	struct rules_args *a = arg;

	if (!rules_cli_option(&a->ro, opt, OPT_RULES_DIR, value))
		return usage_error("unexpected option");
	return FST_EXIT_OK;
}

static int parse_args(int argc, char **argv, struct rules_args *a)
{
	static const struct option opts[] = {
		RULES_CLI_OPTIONS(OPT_RULES_DIR),
		{NULL, 0, NULL, 0},
	};
	int status = cli_parse(argc, argv, &a->common,
			       &(struct cli_parser){.opts = opts, .usage = usage_text, .own = own_option, .arg = a});

	if (status != FST_EXIT_OK)
		return status;
	if (optind >= argc)
		return usage_error("a subcommand is required: list, show ID or test [FILE|DIR...]");
	a->sub = argv[optind++];
	a->rest = argv + optind;
	a->n_rest = argc - optind;
	if (strcmp(a->sub, "list") && strcmp(a->sub, "show") && strcmp(a->sub, "test"))
		return usage_error("unknown subcommand '%s': use list, show or test", a->sub);
	if (!strcmp(a->sub, "list") && a->n_rest > 0)
		return usage_error("'rules list' takes no arguments; '%s' is one too many", a->rest[0]);
	if (!strcmp(a->sub, "show") && a->n_rest != 1)
		return usage_error("'rules show' takes one rule id (see 'fstune rules list')");
	return FST_EXIT_OK;
}

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

static void do_list(const struct rules_args *a, const struct rules_set *set, FILE *out)
{
	json_t *rules = rules_describe(set);
	char line[1024];
	size_t i;
	json_t *r;

	if (a->common.format == CLI_FORMAT_JSON) {
		json_t *doc = json_pack("{s:O, s:O, s:O, s:o}", "rules", rules, "errors",
					rules_load_errors(set), "notices", rules_load_notices(set),
					"settings", rules_settings_describe());

		json_dumpf(doc, out, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
		fputc('\n', out);
		json_decref(doc);
	} else if (a->common.format == CLI_FORMAT_MARKDOWN) {
		list_markdown(out, rules);
	} else {
		json_array_foreach(rules, i, r) {
			fprintf(out, "%-14s %s%s\n", json_string_value(json_object_get(r, "id")),
				one_line(json_string_value(json_object_get(r, "title")), line, sizeof(line)),
				json_object_get(r, "replaced_by") ? " (replaced)" : "");
			if (!a->common.quiet)
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

static int do_show(const struct rules_args *a, const struct rules_set *set, FILE *out)
{
	json_t *rules = rules_describe(set);
	const json_t *found = NULL;
	size_t i;
	json_t *r;

	json_array_foreach(rules, i, r)
		if (!strcmp(json_string_value(json_object_get(r, "id")), a->rest[0]) &&
		    !json_object_get(r, "replaced_by"))
			found = r;
	if (!found) {
		json_decref(rules);
		fprintf(stderr, "fstune: no rule '%s' is loaded; 'fstune rules list' shows the ids\n",
			a->rest[0]);
		return FST_EXIT_USAGE;
	}
	if (a->common.format == CLI_FORMAT_JSON) {
		json_dumpf(found, out, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
		fputc('\n', out);
	} else if (a->common.format == CLI_FORMAT_MARKDOWN) {
		show_markdown(out, found);
	} else {
		show_text(out, found);
	}
	json_decref(rules);
	return FST_EXIT_OK;
}

static int do_test(const struct rules_args *a, const struct rules_set *set, FILE *out)
{
	json_t *results = rules_run_tests(set);
	size_t i, passed = 0, failed = 0;
	char line[1024];
	json_t *r;

	json_array_foreach(results, i, r) {
		bool ok = json_is_true(json_object_get(r, "passed"));

		ok ? passed++ : failed++;
		if (a->common.format == CLI_FORMAT_JSON || (ok && a->common.quiet))
			continue;
		fprintf(out, "%s %s %s: ", ok ? "PASS" : "FAIL",
			json_string_value(json_object_get(r, "file")),
			one_line(json_string_value(json_object_get(r, "vector")), line, sizeof(line)));
		fprintf(out, "%s\n",
			one_line(json_string_value(json_object_get(r, "message")), line, sizeof(line)));
	}
	if (a->common.format == CLI_FORMAT_JSON) {
		json_t *doc = json_pack("{s:O, s:I, s:I}", "results", results, "passed", (json_int_t)passed,
					"failed", (json_int_t)failed);

		json_dumpf(doc, out, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
		fputc('\n', out);
		json_decref(doc);
	} else {
		fprintf(out, "%zu passed, %zu failed\n", passed, failed);
	}
	json_decref(results);
	return failed ? FST_EXIT_THRESHOLD : FST_EXIT_OK;
}

int cmd_rules(int argc, char **argv)
{
	struct rules_args a = {0};
	struct fst_error err = FST_ERROR_INIT;
	struct cli_output *out;
	struct rules_set *set;
	int status = parse_args(argc, argv, &a), result;

	if (status == FST_EXIT_OK)
		status = cli_common_apply(&a.common);
	if (status != FST_EXIT_OK) {
		rules_cli_free(&a.ro);
		return status;
	}
	if (!strcmp(a.sub, "test") && a.n_rest > 0) {
		a.ro.paths = (const char *const *)a.rest;
		a.ro.n_paths = (size_t)a.n_rest;
	}
	set = rules_load(&a.ro, &err);
	if (!set) {
		fst_error_print(&err);
		rules_cli_free(&a.ro);
		return err.status;
	}
	out = cli_output_open(&a.common);
	if (!out) {
		rules_set_free(set);
		rules_cli_free(&a.ro);
		return FST_EXIT_USAGE;
	}
	if (!strcmp(a.sub, "list")) {
		do_list(&a, set, cli_output_stream(out));
		result = FST_EXIT_OK;
	} else if (!strcmp(a.sub, "show")) {
		result = do_show(&a, set, cli_output_stream(out));
	} else {
		result = do_test(&a, set, cli_output_stream(out));
	}
	status = cli_output_close(out, result != FST_EXIT_USAGE);
	rules_set_free(set);
	rules_cli_free(&a.ro);
	return status != FST_EXIT_OK ? status : result;
}
