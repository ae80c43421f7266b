/* The report writers (text, Markdown, JSON) and what they share: the disruption groups, value and
 * evidence formatting, the "what was examined" summary. Writers only read the session. */
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

/* The recommendations of group `g`, most severe first, then by id: a new array of borrowed-then-
 * increfed objects (caller decrefs). */
json_t *report_group_members(const struct session *s, const struct report_group *g);

/* How a writer renders the recommendation groups (report_groups_write). */
struct report_group_writer {
	void (*head)(FILE *out, const struct report_group *g);
	/* The reformat group's merged mkfs commands, after its head: one per filesystem. */
	void (*mkfs)(FILE *out, const char *fs, const char *command, const json_t *notes);
	void (*rec)(const struct session *s, const json_t *rec, FILE *out);
};
/* Each group that has recommendations, in report order: its head, for the reformat group the mkfs
 * commands, then its recommendations as report_group_members orders them. */
void report_groups_write(const struct session *s, const struct report_group_writer *w, FILE *out);

/* "CRITICAL", "WARN", "SUGGEST", "INFO". */
const char *report_severity_label(const char *severity);

/* A setting value for display: strings bare, booleans "on"/"off", lists joined by ", ", sizes of
 * *_bytes / *_size settings with binary units beside them. Caller frees. NULL value: "(not set)". */
char *report_setting_value(const char *setting, const json_t *v);
/* What a recommendation marked host_wide (made inside a container, of a setting the whole host
 * shares) means for the admin, one sentence; NULL when it is not marked. */
const char *report_host_wide_text(const json_t *rec);
/* A fact value for display, as `fstune probe` shows it (facts_render_value). Caller frees. */
char *report_fact_value(const char *key, const json_t *v);

/* One evidence entry of a recommendation, with what the engine attached (or, when it attached
 * nothing, what the facts say). `value` is NULL and `unavailable` set for a fact that is not known. */
struct report_evidence {
	const char *key;
	char *value;            /* formatted, owned by the iterator, valid during the callback */
	const char *source;     /* "sysfs", "user", ...; NULL when not recorded */
	const char *origin;     /* the fact `<key>_from`: where the value came from, in words, when
				   the source name alone would mislead; NULL when there is none */
	const char *unavailable; /* "needs_root: open /dev/sda: ..." style; NULL when known */
};
void report_evidence_foreach(const struct session *s, const json_t *rec,
			     void (*fn)(const struct report_evidence *ev, void *arg), void *arg);

/* Commands of an `apply` / `revert` field, whatever its shape (a string, a list of strings, or an
 * object of labelled forms such as {"now": [...], "persistent": [...]}): `label` is NULL for the
 * plain commands, else the member's name. */
void report_commands_foreach(const json_t *v, void (*fn)(const char *label, const char *cmd, void *arg),
			     void *arg);

/* Who else manages a recommendation's setting (its `owners`, which the engine copies from the facts
 * owners.<setting>), one sentence each ("vm.dirty_ratio is set to 40 by /etc/sysctl.d/99-db.conf:3;
 * this one wins"), then the note on where its persistent form was placed (report_owners.c). */
void report_owner_lines_foreach(const json_t *rec, void (*fn)(const char *text, void *arg), void *arg);
/* One owner as such a sentence. Caller frees. */
char *report_owner_text(const json_t *owner);
/* Leftovers among the facts' owners: what manages nothing any more (elevator= on the kernel command
 * line of Linux 5.0 and later), one sentence each. */
void report_leftovers_foreach(const struct session *s, void (*fn)(const char *text, void *arg), void *arg);
/* The same as a new array of the owner objects, each with its "setting". */
json_t *report_leftovers(const struct session *s);

/* The "what was examined" summary, as labelled lines ("Device", "Filesystem", ...). A label may
 * repeat for continuation lines (then `label` is ""). */
void report_examined_foreach(const struct session *s,
			     void (*fn)(const char *label, const char *text, void *arg), void *arg);

/* The sentence a report opens with when it could not judge what it was asked to judge: no rule
 * could run at all (with the error and its fix), or there is no filesystem on the TARGET. NULL when
 * the report is an ordinary one. Caller frees. */
char *report_headline(const struct session *s);

/* Whether the text and Markdown reports list a `not_evaluated` entry: not when every fact it
 * misses is one only hand-written facts hold (vm.bdflush, freebsd.*: no live Linux host has them),
 * unless --verbose or the facts are hand-written. JSON lists every entry. */
bool report_not_evaluated_is_shown(const struct session *s, const json_t *entry);
/* How many entries report_not_evaluated_is_shown leaves out. */
size_t report_not_evaluated_hidden(const struct session *s);

/* Flushes a writer's output: 0, or -1 with errno set (EIO when the stream did not say) when writing
 * failed. The last call of every writer. */
int report_finish(FILE *out);

/* An "accepted" mark for display: "why (FILE:LINE, where KEY OP VALUE)". Caller frees. */
char *report_accepted_text(const json_t *mark);

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
