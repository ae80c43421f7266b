/* The output formats, declared once: `--format` of every command parses its names from this table,
 * `fstune report` and the wizard's Save screen write a report through its writers, `fstune probe`
 * and `fstune workload` the facts, `fstune compare` its comparison (each in its own writer). Adding a format is
 * a row here (with its id in enum cli_format) and a report writer. */
#ifndef FSTUNE_APP_FORMATS_H
#define FSTUNE_APP_FORMATS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "app/cli.h"
#include "app/session/session.h"

struct output_format {
	enum cli_format id;
	const char *name;          /* as --format takes it */
	const char *alias;         /* another name --format takes; NULL: none */
	const char *file;          /* the Save screen's file name */
	const char *what;          /* one line for the Save screen */
	enum cli_scope scope;      /* the commands that write it */
	int (*write_report)(const struct session *s, FILE *out); /* 0, or -1 with errno set */
	/* the facts alone (probe, workload); NULL for a report-only format */
	void (*write_facts)(FILE *out, const struct facts *f, bool show_sources);
	/* a comparison's model (compare.h); NULL where compare does not take the format */
	int (*write_compare)(const json_t *model, FILE *out);
	/* a trial's fstune.trial/1 document (trial_render.h); NULL where trial does not take it */
	int (*write_trial)(const json_t *doc, FILE *out);
};

extern const struct output_format output_formats[];
extern const size_t output_n_formats;

/* The row --format NAME names (its name or alias), or NULL. */
const struct output_format *output_format_find(const char *name);
/* The row of an id (every id has one). */
const struct output_format *output_format_of(enum cli_format id);
/* "text, json or markdown" (with html, openmetrics as `scope` takes them), for messages. Static
 * storage. */
const char *output_format_names(enum cli_scope scope);

#endif
