/* A trial's comparison in words (lib/trial_words.c), for everyone who shows one: the trial's own
 * output, the report's `verified` note (the engine writes it), the wizard's screens. The comparison
 * and the metric are members of a fstune.trial/1 document or of the trial.* facts, read as hostile:
 * a missing or mistyped member is said as unknown. */
#ifndef FSTUNE_TRIAL_WORDS_H
#define FSTUNE_TRIAL_WORDS_H

#include <jansson.h>

/* The widest A/A noise floor within which two candidates are called the same (our own heuristic: a
 * difference of a quarter is where a reformat starts to be worth it). Above it the host is too noisy
 * for "the same" to mean anything: trial calls such a comparison not settled, and says why. */
#define TRIAL_WORDS_TIE_FLOOR_MAX_PCT 25.0

/* "cold read of the tree 1.21x faster (1.12-1.30)", "writeback of the tree 1.14x slower (1.05-1.22)",
 * "... the same within the floor of 4.2% (0.98-1.02 as a speed ratio)", "... not settled (0.91-1.12
 * as a speed ratio): about 6 more rounds would be needed at this noise". A ratio is said as a speed:
 * above 1 faster, whichever way the metric's unit runs. `comparison` is {ratio, ci95, verdict,
 * floor_pct, more_rounds, metric}; `metric` is {what, better} (NULL: said by its name). Caller frees. */
char *trial_comparison_words(const json_t *comparison, const json_t *metric);

#endif
