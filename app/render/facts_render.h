/* Renders a facts tree for people: text grouped by branch and aligned, or Markdown tables, in
 * human units, with sources on request and every unavailable fact listed with its reason. Used by
 * `fstune probe`, `fstune workload` and the report. The JSON document is facts_to_json's. */
#ifndef FSTUNE_APP_FACTS_RENDER_H
#define FSTUNE_APP_FACTS_RENDER_H

#include <stdbool.h>
#include <stdio.h>

#include "fstune/facts.h"

/* One value as shown to a person, in the unit the facts schema gives `key`: sizes in KiB/MiB/GiB
 * (the exact byte count beside a rounded one), times in us/ms/s, booleans yes/no, lists
 * comma-separated. Caller frees. */
char *facts_render_value(const char *key, const json_t *value);

/* An unavailable fact as people read it: "needs root: open /dev/vda: Permission denied", the status
 * with spaces for underscores ("unavailable" when there is none), and ": reason" when there is one.
 * Caller frees. */
char *facts_render_unavailable(const char *status, const char *reason);

/* host
 *   kernel                 6.18.44        [uname]  Kernel release
 *   ...
 * each value in its key's unit and followed by the key's label, both from the facts schema; sources
 * only with show_sources. Unavailable facts appear in their branch as "(needs root: reason)". */
void facts_render_text(FILE *out, const struct facts *f, bool show_sources);

/* The JSON document (facts_to_json) and a newline; `show_sources` is ignored: it has them all. */
void facts_render_json(FILE *out, const struct facts *f, bool show_sources);

/* "### host" and a table per branch: | key | value | source | (source only with show_sources). */
void facts_render_markdown(FILE *out, const struct facts *f, bool show_sources);

#endif
