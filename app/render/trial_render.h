/* A trial's result for people and programs (trial_out.c), rendered from its fstune.trial/1 document
 * (app/trial/trial_run.h, trial_document), so `fstune trial`, the wizard's trial screen and a saved
 * document read later all show the same: per metric a table of the candidates with their medians,
 * spreads, ranks and ratio to the baseline, then the verdicts in words, the A/A control, the
 * environment, the notes and the caveats. The document is read as hostile (a file the wizard reads
 * back): a missing or mistyped member is shown as unknown, never trusted. Each returns 0 or -1. */
#ifndef FSTUNE_APP_RENDER_TRIAL_RENDER_H
#define FSTUNE_APP_RENDER_TRIAL_RENDER_H

#include <jansson.h>
#include <stdio.h>

int trial_write_text(const json_t *doc, FILE *out);
int trial_write_markdown(const json_t *doc, FILE *out);
int trial_write_json(const json_t *doc, FILE *out);

#endif
