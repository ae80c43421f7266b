/* One recommendation of the report model (report_model.h), read member by member from the engine's
 * JSON: a member of the wrong type is absent, every string is copied, and the evidence is completed
 * from the facts where the engine attached nothing. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app/render/facts_render.h"
#include "app/render/report_build.h"
#include "app/render/report_render.h"
#include "lib/xalloc.h"

/* What the engine attached ({"key", "value", "source"} or {"key", "value": null, "status",
 * "reason"}; `item` NULL for a bare key), else what the facts say of the key. */
static void evidence_fill(struct report_evidence *ev, const struct session *s, const char *key,
			  const json_t *item)
{
	const json_t *v = json_object_get(item, "value");
	const char *status = json_string_value(json_object_get(item, "status"));
	const char *reason = json_string_value(json_object_get(item, "reason"));
	const char *source = json_string_value(json_object_get(item, "source"));
	enum facts_status st;

	ev->key = xstrdup(key);
	if (json_is_null(v))
		v = NULL;
	if (!v && !status)
		v = facts_get(s->facts, key);
	if (!source)
		source = facts_source(s->facts, key);
	ev->source = source ? xstrdup(source) : NULL;
	if (v) {
		char *from = xasprintf("%s_from", key);
		const char *origin = facts_get_string(s->facts, from);

		ev->value = report_fact_value(key, v);
		ev->origin = origin ? xstrdup(origin) : NULL;
		free(from);
	} else if (status && facts_status_parse(status, &st)) {
		ev->unavailable = facts_render_unavailable(facts_status_name(st), reason);
	} else if (!status && facts_unavailable(s->facts, key, &st, &reason)) {
		ev->unavailable = facts_render_unavailable(facts_status_name(st), reason);
	} else {
		ev->unavailable = xstrdup("not in the facts");
	}
}

/* The evidence list: bare keys and the engine's objects; anything else is skipped. */
static void evidence_list(struct report_rec *r, const struct session *s, const json_t *evid)
{
	const json_t *item;
	size_t i;

	r->has_evidence = evid != NULL;
	json_array_foreach(evid, i, item) {
		const char *key = json_is_string(item) ? json_string_value(item)
						       : json_string_value(json_object_get(item, "key"));

		if (!key)
			continue;
		r->evidence = report_vec_grow(r->evidence, r->n_evidence, sizeof(*r->evidence));
		memset(&r->evidence[r->n_evidence], 0, sizeof(*r->evidence));
		evidence_fill(&r->evidence[r->n_evidence++], s, key, json_is_object(item) ? item : NULL);
	}
}

static void command_add(struct report_command **v, size_t *n, const char *label, const json_t *cmd)
{
	if (!json_is_string(cmd))
		return;
	*v = report_vec_grow(*v, *n, sizeof(**v));
	(*v)[*n].label = label ? xstrdup(label) : NULL;
	(*v)[(*n)++].text = xstrdup(json_string_value(cmd));
}

/* An `apply` or `revert` member, whatever its shape: a string, a list of strings, or an object of
 * labelled forms, each a string or a list of strings. */
static void commands_fill(struct report_command **v, size_t *n, const json_t *field)
{
	const json_t *item, *cmd;
	const char *label;
	size_t i, j;

	command_add(v, n, NULL, field);
	json_array_foreach(field, i, item)
		command_add(v, n, NULL, item);
	json_object_foreach((json_t *)field, label, item) {
		command_add(v, n, label, item);
		json_array_foreach(item, j, cmd)
			command_add(v, n, label, cmd);
	}
}

static void commands_free(struct report_command *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].label);
		free(v[i].text);
	}
	free(v);
}

static struct report_mkfs_spec *mkfs_spec(const json_t *v)
{
	struct report_mkfs_spec *m;
	const json_t *args = json_object_get(v, "args"), *a;
	size_t i;

	if (!v)
		return NULL;
	m = xcalloc(1, sizeof(*m));
	m->fs = report_json_str(v, "fs");
	m->json = json_dumps(v, JSON_COMPACT);
	json_array_foreach(args, i, a)
		if (!json_is_string(a))
			return m;
	m->args = report_json_strings(args, &m->n_args);
	return m;
}

static void mkfs_spec_free(struct report_mkfs_spec *m)
{
	if (!m)
		return;
	free(m->fs);
	report_strings_free(m->args, m->n_args);
	free(m->json);
	free(m);
}

static void verification_fill(struct report_verification *v, const json_t *rec)
{
	static const struct {
		const char *word;
		enum report_verdict verdict;
	} words[] = {
		{"confirmed", REPORT_VERDICT_CONFIRMED},
		{"contradicted", REPORT_VERDICT_CONTRADICTED},
		{"unchanged", REPORT_VERDICT_UNCHANGED},
	};

	v->word = report_json_str(rec, "verified");
	v->note = report_json_str(rec, "verified_note");
	v->verdict = v->word ? REPORT_VERDICT_OTHER : REPORT_VERDICT_NONE;
	for (size_t i = 0; v->word && i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(v->word, words[i].word))
			v->verdict = words[i].verdict;
}

/* The admin's acceptance for display: "why (FILE:LINE, where KEY OP VALUE)". */
static char *accepted_text(const json_t *mark)
{
	const char *why = json_string_value(json_object_get(mark, "why"));
	const char *by = json_string_value(json_object_get(mark, "by"));
	const char *cond = json_string_value(json_object_get(mark, "condition"));

	return xasprintf("%s (%s%s%s)", why ? why : "no reason given", by ? by : "?", cond ? ", where " : "",
			 cond ? cond : "");
}

/* The setting and its values, typed and for display. */
static void setting_fill(struct report_rec *r, const json_t *rec)
{
	const json_t *cur = json_object_get(rec, "current"), *want = json_object_get(rec, "recommended");

	r->setting = report_json_str(rec, "setting");
	r->current = cur ? json_deep_copy(cur) : NULL;
	r->recommended = want ? json_deep_copy(want) : NULL;
	if (!r->setting)
		return;
	r->current_text = cur ? report_setting_value(r->setting, cur) : NULL;
	r->recommended_text = report_setting_value(r->setting, want);
}

static const char host_wide_text[] = "inside this container, the change is the whole host's, every "
				     "tenant's; fstune apply and apply.sh make it only with --host-wide";

void report_rec_fill(struct report_rec *r, const struct session *s, const json_t *rec)
{
	const json_t *conf = json_object_get(rec, "confidence"), *mark = json_object_get(rec, "accepted");
	const json_t *persistent = json_object_get(rec, "persistent");

	memset(r, 0, sizeof(*r));
	r->id = report_json_str(rec, "id");
	r->title = report_json_str(rec, "title");
	r->severity = report_json_str(rec, "severity");
	r->severity_rank = session_severity_rank(r->severity);
	r->rationale = report_json_str(rec, "rationale");
	r->disruption = report_json_str(rec, "disruption");
	r->group = report_group_index(r->disruption);
	setting_fill(r, rec);
	r->has_confidence = json_is_number(conf);
	r->confidence = json_number_value(conf);
	r->confidence_capped_by = report_json_str(rec, "confidence_capped_by");
	verification_fill(&r->verified, rec);
	r->accepted = json_is_object(mark) ? accepted_text(mark) : NULL;
	r->host_wide = json_is_true(json_object_get(rec, "host_wide")) ? host_wide_text : NULL;
	evidence_list(r, s, json_object_get(rec, "evidence"));
	r->managed = report_managed_lines(rec, &r->n_managed);
	commands_fill(&r->apply, &r->n_apply, json_object_get(rec, "apply"));
	commands_fill(&r->revert, &r->n_revert, json_object_get(rec, "revert"));
	r->persistent.kind = report_json_str(persistent, "kind");
	r->persistent.path = report_json_str(persistent, "path");
	r->persistent.line = report_json_str(persistent, "line");
	r->mkfs = mkfs_spec(json_object_get(rec, "mkfs"));
	r->sources = report_json_strings(json_object_get(rec, "sources"), &r->n_sources);
}

void report_rec_clear(struct report_rec *r)
{
	free(r->id);
	free(r->title);
	free(r->severity);
	free(r->rationale);
	free(r->disruption);
	free(r->setting);
	json_decref(r->current);
	json_decref(r->recommended);
	free(r->current_text);
	free(r->recommended_text);
	free(r->confidence_capped_by);
	free(r->verified.word);
	free(r->verified.note);
	free(r->accepted);
	for (size_t i = 0; i < r->n_evidence; i++) {
		free(r->evidence[i].key);
		free(r->evidence[i].value);
		free(r->evidence[i].source);
		free(r->evidence[i].origin);
		free(r->evidence[i].unavailable);
	}
	free(r->evidence);
	report_strings_free(r->managed, r->n_managed);
	commands_free(r->apply, r->n_apply);
	commands_free(r->revert, r->n_revert);
	free(r->persistent.kind);
	free(r->persistent.path);
	free(r->persistent.line);
	mkfs_spec_free(r->mkfs);
	report_strings_free(r->sources, r->n_sources);
	memset(r, 0, sizeof(*r));
}
