/* The facts tree to and from JSON text: writing in a stable order, reading fstune's own files,
 * hand-written partial files and report documents, with messages that point at the mistake. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/facts_schema.h"
#include "lib/xalloc.h"
#include "fstune/facts.h"

#define REPORT_SCHEMA "fstune.report/1"
#define TRIAL_SCHEMA "fstune.trial/1" /* not facts: refused, naming report --trial */

/* Branches in the order a reader expects them; any other branch follows in its own order. */
static const char *const branch_order[] = {
	"host", "device", "fs", "vm", "freebsd", "workload", "bench", "trial",
};

char *facts_to_json(const struct facts *f)
{
	json_t *out = json_object();
	const char *name;
	json_t *v;
	char *text;

	json_object_set_new(out, "schema", json_string(FACTS_SCHEMA));
	for (size_t i = 0; i < sizeof(branch_order) / sizeof(branch_order[0]); i++) {
		v = json_object_get(f->doc, branch_order[i]);
		if (v)
			json_object_set(out, branch_order[i], v);
	}
	json_object_foreach(f->doc, name, v)
		if (!json_object_get(out, name) && !facts_is_side_member(name))
			json_object_set(out, name, v);
	v = json_object_get(f->doc, "sources");
	if (json_object_size(v))
		json_object_set(out, "sources", v);
	v = json_object_get(f->doc, "unavailable");
	if (json_object_size(v))
		json_object_set(out, "unavailable", v);
	v = json_object_get(f->doc, FACTS_ESCAPED);
	if (json_array_size(v))
		json_object_set(out, FACTS_ESCAPED, v);
	text = json_dumps(out, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	json_decref(out);
	if (!text) {
		fputs("fstune: out of memory\n", stderr);
		abort();
	}
	return text;
}

struct check_ctx {
	const char *name;
	struct fst_error *err;
	bool failed;
};

static void check_value(const char *key, const json_t *value, void *arg)
{
	struct check_ctx *c = arg;
	enum facts_type type;

	if (c->failed)
		return;
	if (json_is_null(value)) {
		c->failed = true;
		fst_error_set(c->err, FST_EXIT_USAGE,
			      "%s: %s is null; leave a fact out when it is unknown, or list it under "
			      "\"unavailable\"", c->name, key);
		return;
	}
	if (facts_schema_lookup(key, &type) && !facts_schema_matches(type, value)) {
		c->failed = true;
		fst_error_set(c->err, FST_EXIT_USAGE, "%s: %s must be %s", c->name, key,
			      facts_schema_type_name(type));
		return;
	}
	if (json_is_array(value) && !(facts_schema_lookup(key, &type) && type == FACTS_T_OBJLIST)) {
		size_t i;
		json_t *item;

		json_array_foreach(value, i, item) {
			if (json_is_object(item) || json_is_array(item) || json_is_null(item)) {
				c->failed = true;
				fst_error_set(c->err, FST_EXIT_USAGE,
					      "%s: %s must be a list of plain values (strings, "
					      "numbers, true/false)", c->name, key);
				return;
			}
		}
	}
}

/* Objects known to be subtrees (vm.bdi, bench.<test>) are walked by facts_foreach; check the
 * object-typed keys themselves too, so that "fs.features": {} is caught. */
static bool check_objects(const json_t *node, const char *prefix, struct check_ctx *c)
{
	const char *name;
	json_t *v;

	json_object_foreach((json_t *)node, name, v) {
		char key[512];
		enum facts_type type;

		if (!*prefix && facts_is_side_member(name))
			continue;
		snprintf(key, sizeof(key), "%s%s%s", prefix, *prefix ? "." : "", name);
		if (!*prefix && !json_is_object(v)) {
			fst_error_set(c->err, FST_EXIT_USAGE,
				      "%s: top-level \"%s\" must be an object of facts (a branch such as "
				      "\"fs\": {\"block_size\": 4096})", c->name, name);
			return false;
		}
		if (!json_is_object(v))
			continue;
		if (facts_schema_lookup(key, &type) && type != FACTS_T_OBJECT && type != FACTS_T_ANY) {
			fst_error_set(c->err, FST_EXIT_USAGE, "%s: %s must be %s", c->name, key,
				      facts_schema_type_name(type));
			return false;
		}
		if (!check_objects(v, key, c))
			return false;
	}
	return true;
}

static bool check_side_maps(json_t *doc, struct check_ctx *c)
{
	json_t *sources = json_object_get(doc, "sources");
	json_t *unavail = json_object_get(doc, "unavailable");
	json_t *escaped = json_object_get(doc, FACTS_ESCAPED);
	const char *key;
	size_t i;
	json_t *v;

	if (sources && !json_is_object(sources))
		return fst_error_set(c->err, FST_EXIT_USAGE,
				     "%s: \"sources\" must be an object of dotted key to source name",
				     c->name), false;
	json_object_foreach(sources, key, v)
		if (!json_is_string(v))
			return fst_error_set(c->err, FST_EXIT_USAGE,
					     "%s: sources.\"%s\" must be a string", c->name, key),
			       false;
	if (escaped && !json_is_array(escaped))
		return fst_error_set(c->err, FST_EXIT_USAGE, "%s: \"%s\" must be a list of the dotted keys whose "
				     "strings are escaped", c->name, FACTS_ESCAPED), false;
	json_array_foreach(escaped, i, v)
		if (!json_is_string(v))
			return fst_error_set(c->err, FST_EXIT_USAGE, "%s: \"%s\" item %zu must be a dotted key",
					     c->name, FACTS_ESCAPED, i + 1), false;
	if (unavail && !json_is_object(unavail))
		return fst_error_set(c->err, FST_EXIT_USAGE,
				     "%s: \"unavailable\" must be an object of dotted key to "
				     "{\"status\", \"reason\"}", c->name), false;
	json_object_foreach(unavail, key, v) {
		enum facts_status st;
		const char *s = json_string_value(json_object_get(v, "status"));

		if (!json_is_object(v) || !s || !facts_status_parse(s, &st))
			return fst_error_set(c->err, FST_EXIT_USAGE,
					     "%s: unavailable.\"%s\" needs a \"status\" of needs_root, "
					     "denied, not_applicable, not_found, failed or not_run", c->name, key),
			       false;
		if (json_object_get(v, "reason") && !json_is_string(json_object_get(v, "reason")))
			return fst_error_set(c->err, FST_EXIT_USAGE,
					     "%s: unavailable.\"%s\".reason must be a string", c->name,
					     key), false;
	}
	return true;
}

/* The text need not be NUL-terminated (a fuzzer's buffer, a mapped file): stay within len. */
static bool is_blank(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!strchr(" \t\r\n", text[i]) || text[i] == '\0')
			return false;
	return true;
}

struct facts *facts_from_json(const char *text, size_t len, const char *name, struct fst_error *err)
{
	json_error_t jerr;
	json_t *root, *doc;
	const char *schema;
	struct check_ctx ctx = {name, err, false};
	struct facts *f;

	if (is_blank(text, len)) {
		fst_error_set(err, FST_EXIT_USAGE,
			      "%s: empty file; expected a JSON object of facts (see `fstune probe "
			      "--format json`)", name);
		return NULL;
	}
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		fst_error_set(err, FST_EXIT_USAGE, "%s: line %d, column %d: %s", name, jerr.line,
			      jerr.column, jerr.text);
		return NULL;
	}
	if (!json_is_object(root)) {
		fst_error_set(err, FST_EXIT_USAGE, "%s: expected a JSON object of facts at the top, "
			      "not %s", name, json_is_array(root) ? "a list" : "a plain value");
		json_decref(root);
		return NULL;
	}
	doc = root;
	schema = json_string_value(json_object_get(root, "schema"));
	if (schema && strcmp(schema, REPORT_SCHEMA) == 0) {
		doc = json_object_get(root, "facts");
		if (!json_is_object(doc)) {
			fst_error_set(err, FST_EXIT_USAGE, "%s: a %s document needs a \"facts\" object",
				      name, REPORT_SCHEMA);
			json_decref(root);
			return NULL;
		}
		json_incref(doc);
		json_decref(root);
		schema = json_string_value(json_object_get(doc, "schema"));
	}
	if (schema && strcmp(schema, TRIAL_SCHEMA) == 0) {
		fst_error_set(err, FST_EXIT_USAGE, "%s is a trial's result (%s), not facts: merge it into a "
			      "report with `fstune report --trial %s` (and a TARGET or --facts FILE)", name,
			      TRIAL_SCHEMA, name);
		json_decref(doc);
		return NULL;
	}
	if (json_object_get(doc, "schema") && (!schema || strcmp(schema, FACTS_SCHEMA) != 0)) {
		fst_error_set(err, FST_EXIT_USAGE, "%s: unknown schema \"%s\"; this fstune reads %s and "
			      "%s", name, schema ? schema : "(not a string)", FACTS_SCHEMA,
			      REPORT_SCHEMA);
		json_decref(doc);
		return NULL;
	}
	f = xcalloc(1, sizeof(*f));
	f->doc = doc;
	f->values_are_user = true;
	if (!check_side_maps(doc, &ctx) || !check_objects(doc, "", &ctx)) {
		facts_free(f);
		return NULL;
	}
	facts_foreach(f, check_value, &ctx);
	if (ctx.failed) {
		facts_free(f);
		return NULL;
	}
	if (!schema)
		json_object_set_new(doc, "schema", json_string(FACTS_SCHEMA));
	return f;
}

struct facts *facts_load_file(const char *path, struct fst_error *err)
{
	FILE *fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "re");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	struct facts *f;

	if (!fp) {
		fst_error_set(err, FST_EXIT_USAGE, "cannot read facts file %s: %s", path,
			      strerror(errno));
		return NULL;
	}
	do {
		if (cap - len < 65536) {
			cap = cap ? cap * 2 : 65536;
			buf = xrealloc(buf, cap + 1);
		}
		n = fread(buf + len, 1, cap - len, fp);
		len += n;
	} while (n > 0);
	if (ferror(fp)) {
		fst_error_set(err, FST_EXIT_USAGE, "cannot read facts file %s: %s", path,
			      strerror(errno));
		if (fp != stdin)
			fclose(fp);
		free(buf);
		return NULL;
	}
	if (fp != stdin)
		fclose(fp);
	buf[len] = '\0';
	f = facts_from_json(buf, len, path, err);
	free(buf);
	return f;
}
