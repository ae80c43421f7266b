/* The facts tree: dotted-key access to one jansson document with its sources and unavailable maps
 * (facts.h). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "fstune/facts.h"
#include "fstune/utf8.h"

static const char *const status_names[] = {
	[FACTS_NEEDS_ROOT] = "needs_root",     [FACTS_DENIED] = "denied",
	[FACTS_NOT_APPLICABLE] = "not_applicable", [FACTS_NOT_FOUND] = "not_found",
	[FACTS_FAILED] = "failed", [FACTS_NOT_RUN] = "not_run",
};

const char *facts_status_name(enum facts_status status)
{
	if ((unsigned)status < sizeof(status_names) / sizeof(status_names[0]))
		return status_names[status];
	return "failed";
}

bool facts_status_parse(const char *name, enum facts_status *out)
{
	for (size_t i = 0; i < sizeof(status_names) / sizeof(status_names[0]); i++) {
		if (strcmp(name, status_names[i]) == 0) {
			*out = (enum facts_status)i;
			return true;
		}
	}
	return false;
}

static json_t *check(json_t *v)
{
	if (!v) {
		fputs("fstune: out of memory\n", stderr);
		abort();
	}
	return v;
}

struct facts *facts_new(void)
{
	struct facts *f = xcalloc(1, sizeof(*f));

	f->doc = check(json_object());
	json_object_set_new(f->doc, "schema", check(json_string(FACTS_SCHEMA)));
	return f;
}

void facts_free(struct facts *f)
{
	if (!f)
		return;
	json_decref(f->doc);
	free(f);
}

/* The map "sources" or "unavailable", created on first use. */
static json_t *side_map(struct facts *f, const char *name)
{
	json_t *m = json_object_get(f->doc, name);

	if (!json_is_object(m)) {
		m = check(json_object());
		json_object_set_new(f->doc, name, m);
	}
	return m;
}

/* Walks to the object holding the last segment of `key`, creating branches when `create`. Returns
 * the parent and points *leaf at the last segment inside `buf`. */
static json_t *walk(json_t *doc, const char *key, bool create, char *buf, size_t buflen,
		    const char **leaf)
{
	json_t *node = doc;
	char *seg, *dot;

	if (strlen(key) >= buflen)
		return NULL;
	strcpy(buf, key);
	seg = buf;
	while ((dot = strchr(seg, '.')) != NULL) {
		json_t *next;

		*dot = '\0';
		next = json_object_get(node, seg);
		if (!json_is_object(next)) {
			if (!create)
				return NULL;
			next = check(json_object());
			json_object_set_new(node, seg, next);
		}
		node = next;
		seg = dot + 1;
	}
	*leaf = seg;
	return node;
}

static void set_source(struct facts *f, const char *key, const char *source)
{
	if (source)
		json_object_set_new(side_map(f, "sources"), key, check(json_string(source)));
	else
		json_object_del(side_map(f, "sources"), key);
}

/* Whether side-map entry `name` is `key` or lies under it ("workload.files_total" under "workload"). */
static bool is_in_branch(const char *name, const char *key)
{
	size_t n = strlen(key);

	return name && !strncmp(name, key, n) && (name[n] == '\0' || name[n] == '.');
}

/* Drops the entries of the "escaped" array at or under `key`; the array goes when it is left empty. */
static void escaped_drop(struct facts *f, const char *key)
{
	json_t *a = json_object_get(f->doc, FACTS_ESCAPED);

	for (size_t i = json_array_size(a); i-- > 0;)
		if (is_in_branch(json_string_value(json_array_get(a, i)), key))
			json_array_remove(a, i);
	if (a && json_array_size(a) == 0)
		json_object_del(f->doc, FACTS_ESCAPED);
}

static void escaped_add(struct facts *f, const char *key)
{
	json_t *a = json_object_get(f->doc, FACTS_ESCAPED);

	if (!json_is_array(a)) {
		a = check(json_array());
		json_object_set_new(f->doc, FACTS_ESCAPED, a);
	}
	json_array_append_new(a, check(json_string(key)));
}

bool facts_is_escaped(const struct facts *f, const char *key)
{
	const json_t *a = json_object_get(f->doc, FACTS_ESCAPED);
	size_t i;
	json_t *e;

	json_array_foreach(a, i, e)
		if (json_is_string(e) && is_in_branch(key, json_string_value(e)))
			return true;
	return false;
}

char *facts_get_bytes(const struct facts *f, const char *key)
{
	const char *s = facts_get_string(f, key);

	if (!s)
		return NULL;
	return facts_is_escaped(f, key) ? fst_utf8_unescape(s) : xstrdup(s);
}

/* Whether a string anywhere in `v` is not valid UTF-8 (made with json_string_nocheck). */
static bool has_invalid(const json_t *v)
{
	const char *name;
	json_t *e;
	size_t i;

	if (json_is_string(v))
		return !fst_utf8_is_valid(json_string_value(v), json_string_length(v));
	json_array_foreach(v, i, e)
		if (has_invalid(e))
			return true;
	json_object_foreach((json_t *)v, name, e)
		if (has_invalid(e))
			return true;
	return false;
}

/* Every string in `v` (taken) replaced by its escaped form: `v` itself, or a new string. */
static json_t *escape_all(json_t *v)
{
	if (json_is_string(v)) {
		char *e = fst_utf8_escape(json_string_value(v));
		json_t *out = check(json_string(e));

		free(e);
		json_decref(v);
		return out;
	}
	for (size_t i = 0; i < json_array_size(v); i++)
		json_array_set_new(v, i, escape_all(json_incref(json_array_get(v, i))));
	for (void *it = json_object_iter(v); it; it = json_object_iter_next(v, it))
		json_object_iter_set_new(v, it, escape_all(json_incref(json_object_iter_value(it))));
	return v;
}

/* `value` (taken) as the tree holds it at `key`: valid UTF-8 throughout. Where a string is not, every
 * string of the value is escaped and the key listed; under a listed branch every string is escaped
 * already, so the new value is too. */
static json_t *make_valid(struct facts *f, const char *key, json_t *value)
{
	bool is_under_listed;

	escaped_drop(f, key);
	is_under_listed = facts_is_escaped(f, key);
	if (!is_under_listed && !has_invalid(value))
		return value;
	if (!is_under_listed)
		escaped_add(f, key);
	return escape_all(value);
}

void facts_set_json(struct facts *f, const char *key, json_t *value, const char *source)
{
	char buf[256];
	const char *leaf;
	json_t *parent = walk(f->doc, key, true, buf, sizeof(buf), &leaf);

	if (!parent) {
		json_decref(value);
		return;
	}
	json_object_set_new(parent, leaf, make_valid(f, key, check(value)));
	set_source(f, key, source);
	json_object_del(side_map(f, "unavailable"), key);
}

void facts_set_int(struct facts *f, const char *key, long long value, const char *source)
{
	facts_set_json(f, key, json_integer(value), source);
}

void facts_set_real(struct facts *f, const char *key, double value, const char *source)
{
	facts_set_json(f, key, json_real(value), source);
}

void facts_set_bool(struct facts *f, const char *key, bool value, const char *source)
{
	facts_set_json(f, key, json_boolean(value), source);
}

void facts_set_string(struct facts *f, const char *key, const char *value, const char *source)
{
	if (value)
		facts_set_json(f, key, json_string_nocheck(value), source);
}

void facts_set_strings(struct facts *f, const char *key, const char *const *values, size_t n,
		       const char *source)
{
	json_t *list = check(json_array());

	for (size_t i = 0; i < n; i++)
		json_array_append_new(list, check(json_string_nocheck(values[i])));
	facts_set_json(f, key, list, source);
}

static void remove_value(struct facts *f, const char *key)
{
	char buf[256];
	const char *leaf;
	json_t *parent = walk(f->doc, key, false, buf, sizeof(buf), &leaf);

	if (parent)
		json_object_del(parent, leaf);
	json_object_del(json_object_get(f->doc, "sources"), key);
	escaped_drop(f, key);
}

void facts_set_unavailable(struct facts *f, const char *key, enum facts_status status,
			   const char *reason_fmt, ...)
{
	va_list ap;
	char reason[512];

	va_start(ap, reason_fmt);
	vsnprintf(reason, sizeof(reason), reason_fmt, ap);
	va_end(ap);
	remove_value(f, key);
	json_object_set_new(side_map(f, "unavailable"), key,
			    check(json_pack("{s:s, s:o}", "status", facts_status_name(status),
					    "reason", fst_json_text(reason))));
}

static void drop_side_entries(struct facts *f, const char *map_name, const char *key)
{
	json_t *map = json_object_get(f->doc, map_name);
	const char *name;
	json_t *v;
	void *tmp;

	json_object_foreach_safe(map, tmp, name, v)
		if (is_in_branch(name, key))
			json_object_del(map, name);
}

void facts_remove(struct facts *f, const char *key)
{
	remove_value(f, key);
	drop_side_entries(f, "sources", key);
	drop_side_entries(f, "unavailable", key);
}

static void copy_side_entries(struct facts *dst, const struct facts *src, const char *map_name,
			      const char *key)
{
	const json_t *map = json_object_get(src->doc, map_name);
	const char *name;
	json_t *v;

	json_object_foreach((json_t *)map, name, v)
		if (is_in_branch(name, key))
			json_object_set_new(side_map(dst, map_name), name, check(json_deep_copy(v)));
}

void facts_copy_branch(struct facts *dst, const struct facts *src, const char *key)
{
	const json_t *value = facts_get(src, key);
	size_t i;
	json_t *v;

	/* the value is replaced where it stands, not removed and added, so that the document keeps its
	 * order (jansson keeps an object's insertion order, and reports render in it) */
	drop_side_entries(dst, "sources", key);
	drop_side_entries(dst, "unavailable", key);
	if (!value)
		remove_value(dst, key);
	else {
		char buf[256];
		const char *leaf;
		json_t *parent = walk(dst->doc, key, true, buf, sizeof(buf), &leaf);

		if (parent)
			json_object_set_new(parent, leaf, check(json_deep_copy(value)));
	}
	copy_side_entries(dst, src, "sources", key);
	copy_side_entries(dst, src, "unavailable", key);
	escaped_drop(dst, key);
	json_array_foreach(json_object_get(src->doc, FACTS_ESCAPED), i, v)
		if (is_in_branch(json_string_value(v), key))
			escaped_add(dst, json_string_value(v));
}

const json_t *facts_get(const struct facts *f, const char *key)
{
	char buf[256];
	const char *leaf;
	json_t *parent = walk(f->doc, key, false, buf, sizeof(buf), &leaf);

	return parent ? json_object_get(parent, leaf) : NULL;
}

bool facts_has(const struct facts *f, const char *key) { return facts_get(f, key) != NULL; }

bool facts_get_int(const struct facts *f, const char *key, long long *out)
{
	const json_t *v = facts_get(f, key);

	if (!json_is_integer(v))
		return false;
	*out = json_integer_value(v);
	return true;
}

bool facts_get_real(const struct facts *f, const char *key, double *out)
{
	const json_t *v = facts_get(f, key);

	if (!json_is_number(v))
		return false;
	*out = json_number_value(v);
	return true;
}

bool facts_get_bool(const struct facts *f, const char *key, bool *out)
{
	const json_t *v = facts_get(f, key);

	if (!json_is_boolean(v))
		return false;
	*out = json_is_true(v);
	return true;
}

const char *facts_get_string(const struct facts *f, const char *key)
{
	return json_string_value(facts_get(f, key));
}

const char *facts_source(const struct facts *f, const char *key)
{
	const json_t *sources = json_object_get(f->doc, "sources");
	const char *s = json_string_value(json_object_get(sources, key));

	if (s)
		return s;
	if (f->values_are_user && facts_get(f, key))
		return "user";
	return NULL;
}

bool facts_unavailable(const struct facts *f, const char *key, enum facts_status *status,
		       const char **reason)
{
	const json_t *map = json_object_get(f->doc, "unavailable");
	char buf[256];
	size_t len;

	if (!json_is_object(map) || strlen(key) >= sizeof(buf))
		return false;
	strcpy(buf, key);
	for (;;) {
		const json_t *e = json_object_get(map, buf);

		if (e) {
			const char *name = json_string_value(json_object_get(e, "status"));

			if (status && (!name || !facts_status_parse(name, status)))
				*status = FACTS_FAILED;
			if (reason)
				*reason = json_string_value(json_object_get(e, "reason"));
			return true;
		}
		char *dot = strrchr(buf, '.');
		if (!dot)
			return false;
		len = (size_t)(dot - buf);
		buf[len] = '\0';
	}
}

size_t facts_failed_count(const struct facts *f)
{
	const json_t *map = json_object_get(f->doc, "unavailable");
	const char *key;
	json_t *e;
	size_t n = 0;

	json_object_foreach((json_t *)map, key, e)
	{
		const char *name = json_string_value(json_object_get(e, "status"));

		if (name && strcmp(name, "failed") == 0)
			n++;
	}
	return n;
}

bool facts_is_side_member(const char *name)
{
	return !strcmp(name, "schema") || !strcmp(name, "sources") || !strcmp(name, "unavailable") ||
	       !strcmp(name, FACTS_ESCAPED);
}

static void foreach_in(const json_t *node, char *prefix, size_t plen, size_t cap,
		       void (*fn)(const char *, const json_t *, void *), void *arg)
{
	const char *name;
	json_t *v;

	json_object_foreach((json_t *)node, name, v) {
		size_t nlen = strlen(name);

		if (plen == 0 && facts_is_side_member(name))
			continue;
		if (plen + nlen + 2 > cap)
			continue;
		if (plen)
			prefix[plen] = '.';
		memcpy(prefix + plen + (plen ? 1 : 0), name, nlen + 1);
		if (json_is_object(v))
			foreach_in(v, prefix, plen + nlen + (plen ? 1 : 0), cap, fn, arg);
		else
			fn(prefix, v, arg);
		prefix[plen] = '\0';
	}
}

void facts_foreach(const struct facts *f,
		   void (*fn)(const char *key, const json_t *value, void *arg), void *arg)
{
	char prefix[512] = "";

	foreach_in(f->doc, prefix, 0, sizeof(prefix), fn, arg);
}
