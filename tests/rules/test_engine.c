/* Runs hostile rule files through the real engine, each on its own beside the shipped rules, and
 * checks that each is reported with its file (or runs clean, as its header says), that the shipped
 * rules' recommendations are byte-for-byte those of a run without it, and that the sentinel file
 * no hostile rule may create does not exist.
 *
 * Usage: rules_engine_test FACTS BUILTIN_DIR SENTINEL DUMP_DIR FILE...
 * A file's first line says what to expect: "-- expect: error TEXT" or "-- expect: clean"; a file
 * starting with the Lua bytecode signature expects the binary-chunk refusal. Files named pair_*
 * are also loaded together, in order. Recommendations of clean files are written to
 * DUMP_DIR/<name>.json for the shell test to inspect. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fstune/clock.h"
#include "fstune/facts.h"
#include "fstune/rules.h"

static int failures;

#define CHECK(cond, ...)                                \
	do {                                            \
		if (!(cond)) {                          \
			fprintf(stderr, "FAIL: ");      \
			fprintf(stderr, __VA_ARGS__);   \
			fputc('\n', stderr);            \
			failures++;                     \
		}                                       \
	} while (0)

/* The recommendations of rules other than `skip_rule`, as canonical JSON text. */
static char *shipped_recs(const json_t *recs, const char *skip_rule)
{
	json_t *keep = json_array();
	size_t i;
	json_t *r;
	char *s;

	json_array_foreach(recs, i, r)
		if (!skip_rule || strcmp(json_string_value(json_object_get(r, "rule")), skip_rule))
			json_array_append(keep, r);
	s = json_dumps(keep, JSON_SORT_KEYS | JSON_COMPACT);
	json_decref(keep);
	return s;
}

static bool evaluate(const char *const *paths, size_t n, const struct facts *facts,
		     struct rules_result *res)
{
	struct rules_options opt = {0};
	struct fst_error err = FST_ERROR_INIT;
	struct rules_set *set;

	opt.paths = paths;
	opt.n_paths = n;
	opt.no_system_rules = true;
	set = rules_load(&opt, &err);
	if (!set) {
		fprintf(stderr, "FAIL: rules_load: %s\n", err.msg);
		failures++;
		return false;
	}
	rules_evaluate(set, facts, res);
	rules_set_free(set);
	return true;
}

/* Whether msg contains one of the " | "-separated alternatives of want. */
static bool matches(const char *msg, const char *want)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", want);
	for (char *alt = strtok_r(buf, "|", &save); alt; alt = strtok_r(NULL, "|", &save)) {
		size_t n;

		while (*alt == ' ')
			alt++;
		n = strlen(alt);
		while (n > 0 && alt[n - 1] == ' ')
			alt[--n] = '\0';
		if (*alt && strstr(msg, alt))
			return true;
	}
	return false;
}

/* Reads the expectation from the file's first line. */
static void expectation(const char *path, char *want, size_t len, bool *is_error)
{
	char line[256] = "";
	FILE *f = fopen(path, "rb");

	*is_error = true;
	snprintf(want, len, "?");
	if (!f)
		return;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	if (!strncmp(line, "\x1bLua", 4))
		snprintf(want, len, "bytecode) is refused");
	else if (!strcmp(line, "-- expect: clean"))
		*is_error = false;
	else if (!strncmp(line, "-- expect: error ", 17))
		snprintf(want, len, "%s", line + 17);
}

static void dump(const char *dir, const char *path, const struct rules_result *res)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char out[4096];
	json_t *doc = json_pack("{s:O, s:O}", "recommendations", res->recommendations, "mkfs", res->mkfs);

	snprintf(out, sizeof(out), "%s/%s.json", dir, base);
	if (json_dump_file(doc, out, JSON_INDENT(2)) != 0)
		CHECK(false, "cannot write %s", out);
	json_decref(doc);
}

static void run_one(const char *builtin, const char *path, const struct facts *facts,
		    const char *baseline, const char *sentinel, const char *dumpdir)
{
	const char *paths[2] = {builtin, path};
	struct rules_result res = {0};
	char want[256], *got;
	bool is_error;
	const json_t *e = NULL;
	json_t *x;
	size_t k;
	double t0 = fst_clock_s();

	expectation(path, want, sizeof(want), &is_error);
	if (!evaluate(paths, 2, facts, &res))
		return;
	json_array_foreach(res.errors, k, x) {
		const char *file = json_string_value(json_object_get(x, "file"));

		CHECK(!strcmp(file, path), "%s: an error in another file: %s", path, file);
		if (!e && !strcmp(file, path))
			e = x;
	}
	if (is_error) {
		const char *msg = e ? json_string_value(json_object_get(e, "message")) : NULL;

		CHECK(e, "%s: no error reported, want '%s'", path, want);
		CHECK(!msg || matches(msg, want), "%s: error '%s', want '%s'", path, msg, want);
	} else {
		CHECK(!e, "%s: unexpected error: %s", path,
		      e ? json_string_value(json_object_get(e, "message")) : "");
		dump(dumpdir, path, &res);
	}
	got = shipped_recs(res.recommendations, NULL);
	{
		/* Remove this file's own recommendations before comparing. */
		size_t i;
		json_t *r;
		const char *rule = NULL;

		json_array_foreach(res.recommendations, i, r)
			if (!strcmp(json_string_value(json_object_get(r, "file")), path))
				rule = json_string_value(json_object_get(r, "rule"));
		free(got);
		got = shipped_recs(res.recommendations, rule);
	}
	CHECK(!strcmp(got, baseline), "%s: the shipped rules' recommendations changed", path);
	CHECK(access(sentinel, F_OK) != 0, "%s: the sentinel %s exists", path, sentinel);
	printf("%-28s %6.0f ms  %s\n", strrchr(path, '/') ? strrchr(path, '/') + 1 : path,
	       (fst_clock_s() - t0) * 1000, e ? json_string_value(json_object_get(e, "message")) : "clean");
	free(got);
	rules_result_free(&res);
}

int main(int argc, char **argv)
{
	struct fst_error err = FST_ERROR_INIT;
	struct rules_result base = {0};
	const char *pairs[64];
	size_t n_pairs = 0;
	struct facts *facts;
	char *baseline;
	double t0;

	if (argc < 6) {
		fprintf(stderr, "usage: %s FACTS BUILTIN_DIR SENTINEL DUMP_DIR FILE...\n", argv[0]);
		return 99;
	}
	facts = facts_load_file(argv[1], &err);
	if (!facts) {
		fprintf(stderr, "%s\n", err.msg);
		return 99;
	}
	t0 = fst_clock_s();
	if (!evaluate((const char *const *)&argv[2], 1, facts, &base))
		return 99;
	printf("baseline: %zu recommendations, %zu errors, %.0f ms\n", json_array_size(base.recommendations),
	       json_array_size(base.errors), (fst_clock_s() - t0) * 1000);
	CHECK(json_array_size(base.errors) == 0, "the shipped rules report errors");
	CHECK(json_array_size(base.recommendations) > 0, "the facts give no recommendation to compare");
	baseline = shipped_recs(base.recommendations, NULL);
	for (int i = 5; i < argc; i++) {
		run_one(argv[2], argv[i], facts, baseline, argv[3], argv[4]);
		if (!strncmp(strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i], "pair_", 5) &&
		    n_pairs < 63)
			pairs[n_pairs++] = argv[i];
	}
	if (n_pairs > 1) {
		struct rules_result res = {0};

		if (evaluate(pairs, n_pairs, facts, &res))
			CHECK(json_array_size(res.errors) == 0, "pair_* files loaded together: %s",
			      json_string_value(json_object_get(json_array_get(res.errors, 0), "message")));
		rules_result_free(&res);
	}
	free(baseline);
	rules_result_free(&base);
	facts_free(facts);
	printf("%d failure(s)\n", failures);
	return failures ? 1 : 0;
}
