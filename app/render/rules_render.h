/* The writers of `fstune rules` (rules_render.c), from what the engine describes (fstune/rules.h).
 * Each writes `format`'s text, Markdown or JSON; another format is written as text. */
#ifndef FSTUNE_APP_RENDER_RULES_RENDER_H
#define FSTUNE_APP_RENDER_RULES_RENDER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "app/cli.h"
#include "fstune/rules.h"

/* `rules list`: every rule loaded, a replaced one marked. Text: a line per rule (and its file unless
 * `is_quiet`), then the load errors and notices; Markdown: the rule table and the setting table;
 * JSON: the rules, errors, notices and settings. */
void rules_render_list(FILE *out, const struct rules_set *set, enum cli_format format, bool is_quiet);
/* `rules show`: one rule as rules_describe has it. */
void rules_render_show(FILE *out, const json_t *rule, enum cli_format format);
/* `rules test`: a line per vector (a passing one not when `is_quiet`) and the counts; JSON: the
 * results and the counts. Returns how many vectors failed. */
size_t rules_render_tests(FILE *out, const json_t *results, enum cli_format format, bool is_quiet);

#endif
