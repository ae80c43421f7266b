/* What the three report writers share: the disruption groups and their order, the formatting of
 * values, evidence and commands, and the summary of what was examined. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app/render/facts_render.h"
#include "app/render/report_render.h"
#include "lib/facts_schema.h"
#include "lib/xalloc.h"
#include "fstune/utf8.h"
#include "fstune/units.h"

const struct report_group report_groups[] = {
	{"runtime", "Change now",
	 "These take effect at once; the persistent form beside each keeps it across reboots."},
	{"online", "On the mounted filesystem",
	 "On-disk changes that can be made while the filesystem stays mounted."},
	{"remount", "At next remount", "Mount options: they take effect when the filesystem is next mounted."},
	{"offline", "Offline", "The filesystem must be unmounted first (tune2fs -O, e2fsck)."},
	{"reboot", "At next boot", "Boot-time tunables: they take effect at the next boot."},
	{"reformat", "When you next make the filesystem",
	 "These need a new filesystem: everything on it is lost. They are merged into one command."},
	{"advice", "Advice: nothing to run", "Findings with no command to run."},
	{NULL, "Other", "Recommendations with a disruption this version does not know."},
};
const size_t report_n_groups = sizeof(report_groups) / sizeof(report_groups[0]);

static bool group_is_known(const char *disruption)
{
	for (size_t i = 0; i < report_n_groups; i++)
		if (report_groups[i].disruption && disruption &&
		    strcmp(report_groups[i].disruption, disruption) == 0)
			return true;
	return false;
}

static const char *rec_str(const json_t *rec, const char *field)
{
	return json_string_value(json_object_get(rec, field));
}

/* Most severe first, then by id; qsort is not stable, so the id decides every tie. */
static int rec_cmp(const void *a, const void *b)
{
	const json_t *ra = *(const json_t *const *)a, *rb = *(const json_t *const *)b;
	int sa = session_severity_rank(rec_str(ra, "severity"));
	int sb = session_severity_rank(rec_str(rb, "severity"));
	const char *ia = rec_str(ra, "id"), *ib = rec_str(rb, "id");

	if (sa != sb)
		return sb - sa;
	return strcmp(ia ? ia : "", ib ? ib : "");
}

json_t *report_group_members(const struct session *s, const struct report_group *g)
{
	size_t n = json_array_size(s->result.recommendations), k = 0, i;
	json_t **v = xcalloc(n ? n : 1, sizeof(*v));
	json_t *rec, *out = json_array();

	json_array_foreach(s->result.recommendations, i, rec) {
		const char *d = rec_str(rec, "disruption");
		bool in = g->disruption ? d && strcmp(d, g->disruption) == 0 : !group_is_known(d);

		if (in)
			v[k++] = rec;
	}
	qsort(v, k, sizeof(*v), rec_cmp);
	for (i = 0; i < k; i++)
		json_array_append(out, v[i]);
	free(v);
	return out;
}

void report_groups_write(const struct session *s, const struct report_group_writer *w, FILE *out)
{
	for (size_t g = 0; g < report_n_groups; g++) {
		json_t *members = report_group_members(s, &report_groups[g]);
		size_t i;
		const json_t *e;

		if (json_array_size(members)) {
			w->head(out, &report_groups[g]);
			if (report_groups[g].disruption && strcmp(report_groups[g].disruption, "reformat") == 0)
				json_array_foreach(s->result.mkfs, i, e)
					if (json_string_value(json_object_get(e, "command")))
						w->mkfs(out, json_string_value(json_object_get(e, "fs")),
							json_string_value(json_object_get(e, "command")),
							json_object_get(e, "notes"));
			json_array_foreach(members, i, e)
				w->rec(s, e, out);
		}
		json_decref(members);
	}
}

const char *report_severity_label(const char *severity)
{
	switch (session_severity_rank(severity)) {
	case 0: return "INFO";
	case 1: return "SUGGEST";
	case 2: return "WARN";
	case 3: return "CRITICAL";
	default: return "?";
	}
}

/* Booleans of settings read "on"/"off": a feature, a mount option, a timer. */
static void put_scalar(FILE *m, const char *key, const json_t *v)
{
	char ub[UNITS_BUFSZ];

	switch (json_typeof(v)) {
	case JSON_STRING: {
		char *t = fst_text_visible(json_string_value(v), true);

		fputs(t, m);
		free(t);
		break;
	}
	case JSON_INTEGER:
	case JSON_REAL:
		fputs(units_value(ub, sizeof(ub), rules_setting_unit(key), json_number_value(v),
				  json_is_integer(v)),
		      m);
		break;
	case JSON_TRUE:
		fputs("on", m);
		break;
	case JSON_FALSE:
		fputs("off", m);
		break;
	case JSON_NULL:
		fputs("null", m);
		break;
	default: {
		char *t = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);

		fputs(t ? t : "?", m);
		free(t);
	}
	}
}

char *report_setting_value(const char *key, const json_t *v)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *m;
	json_t *item;

	if (!v)
		return xstrdup("(not set)");
	m = open_memstream(&buf, &len);
	if (!m)
		abort();
	if (json_is_array(v)) {
		if (json_array_size(v) == 0)
			fputs("(none)", m);
		json_array_foreach(v, i, item) {
			if (i)
				fputs(", ", m);
			put_scalar(m, key, item);
		}
	} else {
		put_scalar(m, key, v);
	}
	fclose(m);
	return buf;
}

char *report_fact_value(const char *key, const json_t *v)
{
	return v ? facts_render_value(key, v) : xstrdup("(not set)");
}

/* One entry: what the engine attached ({"key", "value", "source"} or {"key", "value": null,
 * "status", "reason"}), else what the facts say of the key. */
static void emit_evidence(const struct session *s, const char *key, const json_t *item,
			  void (*fn)(const struct report_evidence *, void *), void *arg)
{
	struct report_evidence ev = {.key = key};
	const json_t *v = item ? json_object_get(item, "value") : NULL;
	const char *status = item ? json_string_value(json_object_get(item, "status")) : NULL;
	const char *reason = item ? json_string_value(json_object_get(item, "reason")) : NULL;
	enum facts_status st;
	char *unav = NULL;

	if (json_is_null(v))
		v = NULL;
	if (!v && !status)
		v = facts_get(s->facts, key);
	ev.source = item ? json_string_value(json_object_get(item, "source")) : NULL;
	if (!ev.source)
		ev.source = facts_source(s->facts, key);
	if (v) {
		char *from = xasprintf("%s_from", key);

		ev.value = report_fact_value(key, v);
		ev.origin = facts_get_string(s->facts, from);
		free(from);
	} else if (status && facts_status_parse(status, &st)) {
		ev.unavailable = unav = facts_render_unavailable(facts_status_name(st), reason);
	} else if (!status && facts_unavailable(s->facts, key, &st, &reason)) {
		ev.unavailable = unav = facts_render_unavailable(facts_status_name(st), reason);
	} else {
		ev.unavailable = "not in the facts";
	}
	fn(&ev, arg);
	free(ev.value);
	free(unav);
}

void report_evidence_foreach(const struct session *s, const json_t *rec,
			     void (*fn)(const struct report_evidence *ev, void *arg), void *arg)
{
	const json_t *evid = json_object_get(rec, "evidence"), *item;
	size_t i;

	json_array_foreach(evid, i, item) {
		if (json_is_string(item))
			emit_evidence(s, json_string_value(item), NULL, fn, arg);
		else if (json_is_object(item) && rec_str(item, "key"))
			emit_evidence(s, rec_str(item, "key"), item, fn, arg);
	}
}

void report_commands_foreach(const json_t *v, void (*fn)(const char *label, const char *cmd, void *arg),
			     void *arg)
{
	const json_t *item;
	const char *label;
	size_t i;

	if (json_is_string(v)) {
		fn(NULL, json_string_value(v), arg);
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, item)
			if (json_is_string(item))
				fn(NULL, json_string_value(item), arg);
	} else if (json_is_object(v)) {
		json_object_foreach((json_t *)v, label, item) {
			if (json_is_string(item))
				fn(label, json_string_value(item), arg);
			else if (json_is_array(item)) {
				const json_t *c;

				json_array_foreach(item, i, c)
					if (json_is_string(c))
						fn(label, json_string_value(c), arg);
			}
		}
	}
}

char *report_headline(const struct session *s)
{
	enum facts_status st;
	const char *reason = NULL;

	if (session_no_rule_ran(s)) {
		const json_t *e = json_array_get(s->result.errors, 0);
		const char *file = rec_str(e, "file"), *msg = rec_str(e, "message"), *fix = rec_str(e, "fix");

		return xasprintf("No advice: no rule could be evaluated, so nothing was judged. %s: %s.%s%s",
				 file ? file : "?", msg ? msg : "?", fix ? " To fix it, run: " : "",
				 fix ? fix : "");
	}
	/* Only the branch itself: "fs.type" unavailable alone is a filesystem fstune half-knows. */
	if (!facts_get(s->facts, "fs") && facts_unavailable(s->facts, "fs", &st, &reason) &&
	    st == FACTS_NOT_FOUND)
		return xasprintf("No filesystem found: %s. Nothing about a filesystem could be judged; "
				 "only host-wide rules ran.", reason && *reason ? reason : "no signature");
	return NULL;
}

bool report_not_evaluated_is_shown(const struct session *s, const json_t *entry)
{
	const json_t *missing = json_object_get(entry, "missing"), *k;
	size_t i;

	if (s->is_verbose || !json_array_size(missing) || session_facts_are_hand_written(s))
		return true;
	json_array_foreach(missing, i, k)
		if (!facts_schema_is_hand_written_only(json_string_value(k) ? json_string_value(k) : ""))
			return true;
	return false;
}

size_t report_not_evaluated_hidden(const struct session *s)
{
	size_t i, n = 0;
	const json_t *e;

	json_array_foreach(s->result.not_evaluated, i, e)
		if (!report_not_evaluated_is_shown(s, e))
			n++;
	return n;
}

char *report_generated_line(void)
{
	char host[256] = "unknown", when[32] = "?";
	time_t now = time(NULL);
	struct tm tm;

	if (gethostname(host, sizeof(host) - 1) != 0)
		strcpy(host, "unknown");
	host[sizeof(host) - 1] = '\0';
	if (gmtime_r(&now, &tm))
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return xasprintf("fstune %s, %s, host %s", PACKAGE_VERSION, when, host);
}

void report_wrap_hanging(FILE *out, const char *first, const char *text, int indent, int width)
{
	const char *p = text;
	int col = 0;
	bool is_line_start = true;

	if (first && *first) {
		fputs(first, out);
		col = (int)strlen(first);
		is_line_start = false;
	}
	while (*p) {
		size_t wl;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\n') {
			if (!is_line_start)
				fputc('\n', out);
			col = 0;
			is_line_start = true;
			p++;
			continue;
		}
		if (!*p)
			break;
		wl = strcspn(p, " \t\n");
		if (!is_line_start && col > indent && col + 1 + (int)wl > width) {
			fputc('\n', out);
			col = 0;
			is_line_start = true;
		}
		if (is_line_start) {
			fprintf(out, "%*s", indent, "");
			col = indent;
			is_line_start = false;
		} else if (col > 0 && !(first && col == (int)strlen(first) && first[col - 1] == ' ')) {
			fputc(' ', out);
			col++;
		}
		fwrite(p, 1, wl, out);
		col += (int)wl;
		p += wl;
		first = NULL;
	}
	if (!is_line_start)
		fputc('\n', out);
}

/* Writes one word of `len` bytes, breaking the line first when it would pass `width`. */
static void put_word(FILE *out, const char *w, size_t len, int indent, int width, int *col, bool *is_fresh)
{
	if (!*is_fresh && *col + 1 + (int)len > width && *col > indent) {
		fprintf(out, "\n%*s", indent, "");
		*col = indent;
		*is_fresh = true;
	}
	if (!*is_fresh) {
		fputc(' ', out);
		(*col)++;
	}
	fwrite(w, 1, len, out);
	*col += (int)len;
	*is_fresh = false;
}

void report_wrap_list(FILE *out, const char *first, const char *text, int indent, int width)
{
	const char *p = text;
	int col = (int)strlen(first);
	bool is_fresh = true;

	fputs(first, out);
	while (*p) {
		const char *sep = strstr(p, ", ");
		size_t il = sep ? (size_t)(sep - p) + 1 : strlen(p);

		if (col + (is_fresh ? 0 : 1) + (int)il <= width || (is_fresh && col == indent && (int)il > width - indent)) {
			/* fits, or too long for any line: words of it are placed one by one below */
		} else if (!is_fresh) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
			is_fresh = true;
		}
		if (col + (is_fresh ? 0 : 1) + (int)il <= width) {
			put_word(out, p, il, indent, width, &col, &is_fresh);
		} else {
			const char *w = p, *end = p + il;

			while (w < end) {
				size_t wl = strcspn(w, " ");

				if (w + wl > end)
					wl = (size_t)(end - w);
				put_word(out, w, wl, indent, width, &col, &is_fresh);
				w += wl;
				while (w < end && *w == ' ')
					w++;
			}
		}
		p += il;
		while (*p == ' ')
			p++;
	}
	fputc('\n', out);
}

void report_wrap(FILE *out, const char *text, int indent, int width)
{
	report_wrap_hanging(out, NULL, text, indent, width);
}

char *report_accepted_text(const json_t *mark)
{
	const char *why = json_string_value(json_object_get(mark, "why"));
	const char *by = json_string_value(json_object_get(mark, "by"));
	const char *cond = json_string_value(json_object_get(mark, "condition"));

	return xasprintf("%s (%s%s%s)", why ? why : "no reason given", by ? by : "?", cond ? ", where " : "",
			 cond ? cond : "");
}

int report_finish(FILE *out)
{
	fflush(out);
	if (ferror(out)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}
