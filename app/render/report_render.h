/* The report writers (text, Markdown, JSON, OpenMetrics) and what they share: the disruption
 * groups, the formatting of values, wrapping. Writers render the report model (report_model.h); the
 * JSON writer writes the session's result as it is, the document every other form is made from. */
#ifndef FSTUNE_APP_REPORT_RENDER_H
#define FSTUNE_APP_REPORT_RENDER_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "app/session/session.h"

/* Each writer returns 0, or -1 when writing to `out` failed (errno set). */
int report_write_text(const struct session *s, FILE *out);
int report_write_markdown(const struct session *s, FILE *out);
int report_write_json(const struct session *s, FILE *out);
/* Metrics for node_exporter's textfile collector (report_openmetrics.c). */
int report_write_openmetrics(const struct session *s, FILE *out);
/* One self-contained page for a browser (report_html.c). */
int report_write_html(const struct session *s, FILE *out);

/* The whole `fstune.report/1` document (new reference). `generated` false leaves out the
 * "generated" block, which is the only part that changes between runs on the same facts. */
json_t *report_json(const struct session *s, bool generated);

/* A recommendation group: one value of the `disruption` field, in the order the report shows them. */
struct report_group {
	const char *disruption; /* "runtime", "online", ...; NULL: the catch-all for unknown values */
	const char *title;      /* "Change now" */
	const char *blurb;      /* one sentence on when and how these take effect */
};
extern const struct report_group report_groups[];
extern const size_t report_n_groups;

/* The index in report_groups[] of the group of a `disruption` class; the catch-all "Other" for
 * NULL or a class this version does not know. */
size_t report_group_index(const char *disruption);

/* "CRITICAL", "WARN", "SUGGEST", "INFO". */
const char *report_severity_label(const char *severity);

/* A setting value for display: strings bare, booleans "on"/"off", lists joined by ", ", sizes of
 * *_bytes / *_size settings with binary units beside them. Caller frees. NULL value: "(not set)". */
char *report_setting_value(const char *setting, const json_t *v);
/* A fact value for display, as `fstune probe` shows it (facts_render_value). Caller frees. */
char *report_fact_value(const char *key, const json_t *v);

/* One owner of owners.<setting> as a sentence ("vm.dirty_ratio is set to 40 by
 * /etc/sysctl.d/99-db.conf:3; this one wins"). Caller frees. */
char *report_owner_text(const json_t *owner);
/* The facts' owners that manage nothing any more (elevator= on the kernel command line of Linux 5.0
 * and later), as a new array of the owner objects, each with its "setting". */
json_t *report_leftovers(const struct session *s);

/* The sentence a report opens with when it could not judge what it was asked to judge: no rule
 * could run at all (with the error and its fix), or there is no filesystem on the TARGET. NULL when
 * the report is an ordinary one. Caller frees. */
char *report_headline(const struct session *s);

/* Flushes a writer's output: 0, or -1 with errno set (EIO when the stream did not say) when writing
 * failed. The last call of every writer. */
int report_finish(FILE *out);

/* One line on the run: "fstune 0.1.0, 2026-11-29T22:40:00Z, host db1". Tests remove it. */
char *report_generated_line(void);

/* Writes `text` word-wrapped at `width` columns, each line indented by `indent` spaces. */
void report_wrap(FILE *out, const char *text, int indent, int width);
/* The same with `first` (e.g. "  Label       ") printed before the first word instead of the indent:
 * a hanging indent. A `first` ending in a space is followed directly by the text. */
void report_wrap_hanging(FILE *out, const char *first, const char *text, int indent, int width);
/* Like report_wrap_hanging for a list "a b, c d, e": lines break between items (after ", ") so that
 * "223.6 GiB" stays whole; an item too long for a line is broken between words. */
void report_wrap_list(FILE *out, const char *first, const char *text, int indent, int width);

#endif
