/* Renders a facts tree as aligned text or Markdown, in human units (facts_render.h). */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "app/render/facts_render.h"
#include "app/render/markdown.h"
#include "app/render/report_render.h"
#include "lib/facts_schema.h"
#include "lib/xalloc.h"
#include "fstune/units.h"
#include "fstune/utf8.h"

/* One line of output: a fact's value, or the reason it is unavailable. */
struct row {
	size_t branch;      /* index into the branch list */
	char *key;          /* relative to the branch ("bdi.max_ratio"); "" for the branch itself */
	char *value;        /* rendered value, or "status: reason" when unavailable */
	const char *source; /* borrowed; NULL when none was recorded */
	bool is_unavailable;
};

struct rows {
	struct row *v;
	size_t n, cap;
};

static char *render_number(const char *key, double v, bool is_int)
{
	char buf[UNITS_BUFSZ];

	return xstrdup(units_value(buf, sizeof(buf), facts_schema_unit(key), v, is_int));
}

char *facts_render_value(const char *key, const json_t *value)
{
	switch (json_typeof(value)) {
	case JSON_TRUE:
		return xstrdup("yes");
	case JSON_FALSE:
		return xstrdup("no");
	case JSON_INTEGER:
		return render_number(key, (double)json_integer_value(value), true);
	case JSON_REAL:
		return render_number(key, json_real_value(value), false);
	case JSON_STRING: /* a model, a name, a path: on one line, nothing a terminal obeys */
		return fst_text_visible(json_string_value(value), true);
	case JSON_ARRAY: {
		size_t i, len = 0;
		json_t *item;
		char *out = xstrdup("");

		json_array_foreach(value, i, item) {
			char *s = facts_render_value(key, item), *joined;

			/* owner sentences hold commas themselves */
			joined = xasprintf("%s%s%s", out, !i ? "" : json_is_object(item) ? " | " : ", ", s);
			free(s);
			free(out);
			out = joined;
			len++;
		}
		return len ? out : (free(out), xstrdup("(none)"));
	}
	case JSON_OBJECT:
		if (json_object_get(value, "kind") && json_object_get(value, "wins")) /* an owner */
			return report_owner_text(value);
		/* fall through */
	default: {
		char *s = json_dumps(value, JSON_COMPACT);
		char *out = xstrdup(s ? s : "?");

		free(s);
		return out;
	}
	}
}

static void add_row(struct rows *r, size_t branch, const char *key, char *value,
		    const char *source, bool is_unavailable)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 64;
		r->v = xrealloc(r->v, r->cap * sizeof(*r->v));
	}
	r->v[r->n++] = (struct row){branch, xstrdup(key), value, source, is_unavailable};
}

/* Adds the leaves under `node` (full dotted prefix `full`, relative prefix `rel`). */
static void add_leaves(struct rows *r, const struct facts *f, size_t branch, const char *full,
		       const char *rel, const json_t *node)
{
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)node, k, v) {
		char *fk = xasprintf("%s.%s", full, k);
		char *rk = *rel ? xasprintf("%s.%s", rel, k) : xstrdup(k);

		if (json_is_object(v))
			add_leaves(r, f, branch, fk, rk, v);
		else
			add_row(r, branch, rk, facts_render_value(fk, v), facts_source(f, fk), false);
		free(fk);
		free(rk);
	}
}

char *facts_render_unavailable(const char *status, const char *reason)
{
	char *r = fst_text_visible(reason, true);
	char *s = xasprintf("%s%s%s", status ? status : "unavailable", *r ? ": " : "", r);

	free(r);
	for (char *p = s; *p && *p != ':'; p++)
		if (*p == '_')
			*p = ' ';
	return s;
}

static char *unavailable_text(const json_t *entry)
{
	return facts_render_unavailable(json_string_value(json_object_get(entry, "status")),
					json_string_value(json_object_get(entry, "reason")));
}

/* Unavailable entries of branch number `b` named `name` ("device" itself, "device.model", ...). */
static void add_unavailable(struct rows *r, const json_t *unavail, size_t b, const char *name)
{
	const char *k;
	json_t *v;
	size_t blen = strlen(name);

	json_object_foreach((json_t *)unavail, k, v) {
		if (strncmp(k, name, blen) != 0 || (k[blen] != '\0' && k[blen] != '.'))
			continue;
		add_row(r, b, k[blen] ? k + blen + 1 : "", unavailable_text(v), NULL, true);
	}
}

struct branches {
	char **v; /* owned names, in output order */
	size_t n;
};

static void add_branch(struct branches *b, const char *name, size_t len)
{
	for (size_t i = 0; i < b->n; i++)
		if (strlen(b->v[i]) == len && strncmp(b->v[i], name, len) == 0)
			return;
	b->v = xrealloc(b->v, (b->n + 1) * sizeof(*b->v));
	b->v[b->n++] = xstrndup(name, len);
}

/* Collects rows branch by branch: the branches in document order, then any branch that exists
 * only as unavailable entries (the device branch under tmpfs). */
static void collect(const struct facts *f, struct rows *r, struct branches *b)
{
	const json_t *doc = f->doc, *unavail = json_object_get(doc, "unavailable");
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)doc, k, v)
		if (!facts_is_side_member(k) && json_is_object(v))
			add_branch(b, k, strlen(k));
	if (json_is_object(unavail))
		json_object_foreach((json_t *)unavail, k, v)
			add_branch(b, k, strcspn(k, "."));
	for (size_t i = 0; i < b->n; i++) {
		const json_t *node = json_object_get(doc, b->v[i]);

		if (json_is_object(node))
			add_leaves(r, f, i, b->v[i], "", node);
		if (json_is_object(unavail))
			add_unavailable(r, unavail, i, b->v[i]);
	}
}

static void collected_free(struct rows *r, struct branches *b)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].key);
		free(r->v[i].value);
	}
	free(r->v);
	for (size_t i = 0; i < b->n; i++)
		free(b->v[i]);
	free(b->v);
}

/* The label of a row's key (its full key is branch.key), "" when the schema has none. */
static const char *row_label(const struct branches *br, const struct row *w)
{
	char *k = *w->key ? xasprintf("%s.%s", br->v[w->branch], w->key) : xstrdup(br->v[w->branch]);
	const struct facts_key_info *info = facts_schema_find(k);

	free(k);
	return info ? info->label : "";
}

void facts_render_text(FILE *out, const struct facts *f, bool show_sources)
{
	struct rows r = {0};
	struct branches br = {0};
	size_t kw = 0, vw = 0, sw = 0;

	collect(f, &r, &br);
	for (size_t i = 0; i < r.n; i++) {
		size_t kl = strlen(r.v[i].key), vl = strlen(r.v[i].value);
		size_t sl = r.v[i].source ? strlen(r.v[i].source) + 2 : 0;

		if (kl > kw)
			kw = kl;
		if (!r.v[i].is_unavailable && vl > vw && vl < 48)
			vw = vl;
		if (show_sources && sl > sw)
			sw = sl;
	}
	for (size_t b = 0; b < br.n; b++) {
		fprintf(out, "%s%s\n", b ? "\n" : "", br.v[b]);
		for (size_t i = 0; i < r.n; i++) {
			const struct row *w = &r.v[i];
			char *source, *line;
			size_t n;

			if (w->branch != b)
				continue;
			if (w->is_unavailable && !*w->key) {
				fprintf(out, "  (%s)\n", w->value);
				continue;
			}
			if (w->is_unavailable) {
				fprintf(out, "  %-*s  (%s)\n", (int)kw, w->key, w->value);
				continue;
			}
			source = show_sources && w->source ? xasprintf("[%s]", w->source) : xstrdup("");
			line = xasprintf("  %-*s  %-*s  %-*s%s%s", (int)kw, w->key, (int)vw, w->value, (int)sw, source,
					 sw ? "  " : "", row_label(&br, w));
			/* the padding of the last columns, when a value is long or a key has no label */
			for (n = strlen(line); n && line[n - 1] == ' '; n--)
				line[n - 1] = '\0';
			fprintf(out, "%s\n", line);
			free(line);
			free(source);
		}
	}
	collected_free(&r, &br);
}

void facts_render_json(FILE *out, const struct facts *f, bool show_sources)
{
	char *json = facts_to_json(f);

	(void)show_sources;
	fputs(json, out);
	fputc('\n', out);
	free(json);
}

void facts_render_markdown(FILE *out, const struct facts *f, bool show_sources)
{
	struct rows r = {0};
	struct branches br = {0};

	collect(f, &r, &br);
	for (size_t b = 0; b < br.n; b++) {
		fprintf(out, "%s### %s\n\n", b ? "\n" : "", br.v[b]);
		fputs(show_sources ? "| fact | value | source |\n|---|---|---|\n" : "| fact | value |\n|---|---|\n",
		      out);
		for (size_t i = 0; i < r.n; i++) {
			const struct row *w = &r.v[i];

			if (w->branch != b)
				continue;
			fputs("| ", out);
			markdown_text(out, *w->key ? w->key : "(all)");
			fputs(" | ", out);
			if (w->is_unavailable)
				fputs("*unavailable:* ", out);
			markdown_text(out, w->value);
			if (show_sources) {
				fputs(" | ", out);
				markdown_text(out, w->source ? w->source : "");
			}
			fputs(" |\n", out);
		}
	}
	collected_free(&r, &br);
}
