/* What the report writers share: the disruption groups and their order, the formatting of values,
 * the headline, wrapping. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app/render/facts_render.h"
#include "app/render/report_render.h"
#include "lib/xalloc.h"
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

size_t report_group_index(const char *disruption)
{
	size_t other = 0;

	for (size_t i = 0; i < report_n_groups; i++)
		if (!report_groups[i].disruption)
			other = i;
		else if (disruption && strcmp(report_groups[i].disruption, disruption) == 0)
			return i;
	return other;
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
	case JSON_STRING:
		fputs(json_string_value(v), m);
		break;
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

char *report_headline(const struct session *s)
{
	enum facts_status st;
	const char *reason = NULL;

	if (session_no_rule_ran(s)) {
		const json_t *e = json_array_get(s->result.errors, 0);
		const char *file = json_string_value(json_object_get(e, "file"));
		const char *msg = json_string_value(json_object_get(e, "message"));
		const char *fix = json_string_value(json_object_get(e, "fix"));

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
