/* What the builders of the report model (report_model.h) share: the only code that reads the
 * session's JSON for a report. Renderers include report_model.h, never this. */
#ifndef FSTUNE_APP_REPORT_BUILD_H
#define FSTUNE_APP_REPORT_BUILD_H

#include <jansson.h>

#include "app/render/report_model.h"

/* A copy of the string member `field` of `o`; NULL when `o` is not an object or the member is absent
 * or not a string. */
char *report_json_str(const json_t *o, const char *field);
/* Copies of the strings of the list `v` (anything else in it is skipped): a new array of *n. */
char **report_json_strings(const json_t *v, size_t *n);
/* Frees `n` strings and the array. */
void report_strings_free(char **v, size_t n);
/* Makes room for element `n` of the vector `v` of `size`-byte elements, doubling its room as it
 * fills: v = report_vec_grow(v, n, sizeof(*v)); v[n++] = ...; */
void *report_vec_grow(void *v, size_t n, size_t size);

/* One recommendation read from the engine's JSON object `rec` (anything else gives an empty one),
 * its evidence completed from the session's facts. report_rec_clear frees what it holds. */
void report_rec_fill(struct report_rec *r, const struct session *s, const json_t *rec);
void report_rec_clear(struct report_rec *r);

/* The "what was examined" lines (report_examined.c). */
void report_examined_build(struct report_model *m, const struct session *s);

/* Who else manages a recommendation's setting, one sentence each, then the note on where its
 * persistent form was placed; and the facts' leftovers that manage nothing any more
 * (report_owners.c). New arrays of *n strings. */
char **report_managed_lines(const json_t *rec, size_t *n);
char **report_leftover_lines(const struct session *s, size_t *n);

#endif
