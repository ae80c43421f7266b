/* What a running trial made, on record (trial_record.c): /run/fstune/trial-<pid>.json names the image,
 * the loop device, the mount point (or the --device), rewritten as each is made, held under an flock
 * for the trial's life and removed by its cleanup. A record whose lock can be taken belongs to a
 * trial that is gone (a SIGKILL leaves the image file and the empty mount point): the next trial names
 * it, and `fstune trial --clean` removes what it lists. */
#ifndef FSTUNE_APP_TRIAL_RECORD_H
#define FSTUNE_APP_TRIAL_RECORD_H

#include <jansson.h>
#include <stdio.h>

#include "app/trial/trial_scratch.h"

/* Writes (atomically) this process's record of `s`; the first call takes the lock. Returns 0, or
 * -errno (the record is a convenience: a trial runs without one, and says so). */
int trial_record_write(const struct trial_scratch *s);
/* Removes this process's record and drops the lock (after a complete cleanup). */
void trial_record_remove(void);
/* The records of trials that are gone: an array of their contents, each with "record" (the file). */
json_t *trial_record_leftovers(void);
/* One sentence naming what a gone trial left (for notes and --clean's listing); caller frees. */
char *trial_record_describe(const json_t *leftover);
/* Removes what the record lists (only what is still what the trial made: the image's device and
 * inode must match, the loop device must still hold that image, the mount point must be an empty
 * directory that nothing is mounted on), then the record. Each action or refusal is a line on `out`.
 * Returns 0, or 1 when something was left because it did not match. */
int trial_record_clean(const json_t *leftover, FILE *out);

#endif
